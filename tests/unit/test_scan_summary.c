// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of tools/lib/scan_summary.c, abidep scan --by-package's model,
 * on hits made here: a row per package (name, then version, then package
 * file: one package in two files is two rows), the files of no package
 * one row, last; files counted once however many hits; the Whats distinct,
 * sorted, each with its hits and strongest confidence; no hit, no row.
 * Ends with "unit: N passed, N failed".
 */
#include <string.h>

#include "check.h"
#include "scan_summary.h"

static const struct abi_entry e1, e2;

/* A hit of file @f in @pkg (NULL: none) of package file @ar, on What @w. */
#define HIT(f, pkg, ver, ar, w, e, conf)					\
	{ .file = f, .package = pkg, .package_version = ver, .archive = ar,	\
	  .what = w, .entry = &e, .confidence = conf }

static void test_root(void)
{
	/* Sorted by file, as the scan leaves them. */
	struct scan_hit hits[] = {
		HIT("/etc/a.conf", NULL, NULL, NULL, "/sys/b", e2, SCAN_MEDIUM),
		HIT("/usr/bin/x", "xpkg", "1.0", NULL, "/sys/b", e2, SCAN_WEAK),
		HIT("/usr/bin/x", "xpkg", "1.0", NULL, "/sys/a", e1, SCAN_STRONG),
		HIT("/usr/bin/x", "xpkg", "1.0", NULL, "/sys/b", e2, SCAN_STRONG),
		HIT("/usr/lib/y", "apkg", NULL, NULL, "/sys/a", e1, SCAN_WEAK),
		HIT("/usr/local/z", NULL, NULL, NULL, "/sys/a", e1, SCAN_STRONG),
		HIT("/usr/sbin/x2", "xpkg", "1.0", NULL, "/sys/a", e1, SCAN_STRONG),
	};
	struct scan_result r = { .hits = hits, .nhits = 7 };
	struct scan_summary s;
	const struct scan_sum_row *x;

	current = "root";
	scan_summary_build(&s, &r);
	CHECK(s.n == 3 && s.nowned == 2 && s.unowned_files == 2);
	if (s.n != 3)
		goto out;
	CHECK(!strcmp(s.rows[0].package, "apkg") && !strcmp(s.rows[1].package, "xpkg"));
	CHECK(!s.rows[2].package && s.rows[2].files == 2 && s.rows[2].hits == 2);
	CHECK(s.rows[2].conf[SCAN_STRONG] == 1 && s.rows[2].conf[SCAN_MEDIUM] == 1);
	x = &s.rows[1];
	CHECK(x->files == 2 && x->hits == 4 && !strcmp(x->version, "1.0"));
	CHECK(x->conf[SCAN_STRONG] == 3 && x->conf[SCAN_MEDIUM] == 0 && x->conf[SCAN_WEAK] == 1);
	CHECK(x->nwhats == 2 && !strcmp(x->whats[0].what, "/sys/a") &&
	      !strcmp(x->whats[1].what, "/sys/b"));
	CHECK(x->whats[0].hits == 2 && x->whats[0].best == SCAN_STRONG && x->whats[0].entry == &e1);
	CHECK(x->whats[1].hits == 2 && x->whats[1].best == SCAN_STRONG);
	CHECK(s.rows[0].nwhats == 1 && s.rows[0].whats[0].best == SCAN_WEAK);
out:
	scan_summary_free(&s);
	CHECK(!s.rows && !s.n);
}

static void test_packages(void)
{
	struct scan_hit hits[] = {
		HIT("/usr/bin/x", "x", "1", "a/x_1.deb", "/sys/a", e1, SCAN_STRONG),
		HIT("/usr/bin/x", "x", "1", "b/x_1.deb", "/sys/a", e1, SCAN_STRONG),
		HIT("/usr/bin/x", "x", "0.9", "c/x_0.9.deb", "/sys/a", e1, SCAN_WEAK),
	};
	struct scan_result r = { .hits = hits, .nhits = 3 };
	struct scan_summary s;

	current = "packages";
	scan_summary_build(&s, &r);
	CHECK(s.n == 3 && s.nowned == 3 && !s.unowned_files);
	if (s.n == 3) {
		CHECK(!strcmp(s.rows[0].version, "0.9") && !strcmp(s.rows[1].archive, "a/x_1.deb") &&
		      !strcmp(s.rows[2].archive, "b/x_1.deb"));
		CHECK(s.rows[1].files == 1 && s.rows[2].files == 1 && s.rows[0].conf[SCAN_WEAK] == 1);
	}
	scan_summary_free(&s);
}

static void test_none(void)
{
	struct scan_result r = { 0 };
	struct scan_summary s;

	current = "none";
	scan_summary_build(&s, &r);
	CHECK(!s.n && !s.rows && !s.nowned && !s.unowned_files);
	scan_summary_free(&s);
}

int main(void)
{
	test_root();
	test_packages();
	test_none();
	printf("unit: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
