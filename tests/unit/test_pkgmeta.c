// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of tools/lib/pkgmeta.c, the one reader of what a package says
 * of itself: deb822 stanzas (field names without case, continuation
 * lines, "Source: x (1.2)", fields left out, CRLF line ends, blank lines
 * before a stanza, a last stanza without its newline, several stanzas one
 * after the other) and rpm's SOURCERPM. Ends with "unit: N passed, N failed".
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pkgmeta.h"
#include "util.h"

/* @a and @b both NULL, or equal strings. */
static int same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

#define META(m, n, v, a, s, mt)						\
	(same((m).name, n) && same((m).version, v) && same((m).arch, a) &&	\
	 same((m).source, s) && same((m).maintainer, mt))

static void test_stanza(void)
{
	char s[] = "package: v4l-utils\nVERSION: 1.22.1-5+b2\nArchitecture: amd64\n"
		   "Maintainer: Gregor Jasny <gjasny@googlemail.com>\n"
		   "Description: Collection of command line video4linux utilities\n"
		   " v4l-utils contains the following video4linux command line utilities:\n"
		   " Maintainer: not this one\n"
		   "\tSource: nor this\n"
		   "Source: v4l-utils (1.22.1-5)\n";
	struct pkg_meta m;
	char *end;

	current = "stanza";
	end = pkg_meta_deb822(s, &m);
	CHECK(META(m, "v4l-utils", "1.22.1-5+b2", "amd64", "v4l-utils",
		   "Gregor Jasny <gjasny@googlemail.com>"));
	CHECK(end == s + sizeof(s) - 1 && !*end);

	/* A field name must be whole: Package-Type is not Package. */
	{
		char t[] = "Package-Type: udeb\nPackage: x\nSource:   y  \nMaintainers: no\n";

		pkg_meta_deb822(t, &m);
		CHECK(META(m, "x", NULL, NULL, "y", NULL));
	}
	/* No Source: the package is its own source; an empty value is none. */
	{
		char t[] = "Package: coreutils\nVersion: 9.1-1\nMaintainer:\nSource: \t\n";

		pkg_meta_deb822(t, &m);
		CHECK(META(m, "coreutils", "9.1-1", NULL, "coreutils", NULL));
	}
	/* Nothing at all: every field NULL, source too. */
	{
		char t[] = "Status: install ok installed\n";

		pkg_meta_deb822(t, &m);
		CHECK(META(m, NULL, NULL, NULL, NULL, NULL));
		t[0] = '\0';
		CHECK(pkg_meta_deb822(t, &m) == t && META(m, NULL, NULL, NULL, NULL, NULL));
	}
}

static void test_stanzas(void)
{
	/* dpkg's status file: blank lines before, between and after. */
	char s[] = "\n\nPackage: a\nVersion: 1\n\n\n"
		   "Package: b\r\nVersion: 2\r\nMaintainer: B <b@x>\r\nSource: bsrc (2)\r\n\r\n"
		   "Package: c\nVersion: 3";
	struct pkg_meta m;
	char *p = s;

	current = "stanzas";
	p = pkg_meta_deb822(p, &m);
	CHECK(META(m, "a", "1", NULL, "a", NULL));
	CHECK(*p);
	p = pkg_meta_deb822(p, &m);
	/* CRLF: no '\r' left in a value, the CRLF blank line ends the stanza. */
	CHECK(META(m, "b", "2", NULL, "bsrc", "B <b@x>"));
	CHECK(*p);
	p = pkg_meta_deb822(p, &m);
	/* The last, without its newline. */
	CHECK(META(m, "c", "3", NULL, "c", NULL));
	CHECK(!*p);
	p = pkg_meta_deb822(p, &m);
	CHECK(!*p && META(m, NULL, NULL, NULL, NULL, NULL));

	/* Only blank lines: nothing, and the end. */
	{
		char t[] = "\n\r\n\n";

		p = pkg_meta_deb822(t, &m);
		CHECK(!*p && META(m, NULL, NULL, NULL, NULL, NULL));
	}
	/* Each call goes on: a stanza of continuation lines alone, then one. */
	{
		char t[] = " x\n y\n\nPackage: z\n";

		p = pkg_meta_deb822(t, &m);
		CHECK(p > t && META(m, NULL, NULL, NULL, NULL, NULL));
		p = pkg_meta_deb822(p, &m);
		CHECK(!*p && META(m, "z", NULL, NULL, "z", NULL));
	}
}

static void test_srpm(void)
{
	static const struct {
		const char *in, *want;
	} v[] = {
		{ "bash-5.2.26-3.fc40.src.rpm", "bash" },
		{ "legacy-ir-reader-1.2-3.fc40.src.rpm", "legacy-ir-reader" },
		{ "kernel-6.8.5-301.fc40.nosrc.rpm", "kernel" },
		{ "a-1-2.src.rpm", "a" },
		{ "bash.src.rpm", NULL },		/* no dashes */
		{ "bash-5.2.src.rpm", NULL },		/* one */
		{ "-1-2.src.rpm", NULL },		/* no name */
		{ "bash-5.2.26-3.fc40.x86_64.rpm", NULL },	/* not a source rpm */
		{ "bash-5.2.26-3.fc40.src.rpmx", NULL },
		{ ".src.rpm", NULL },
		{ "", NULL },
	};
	size_t i;

	current = "srpm";
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		char *got = pkg_source_of_srpm(v[i].in);

		CHECK(same(got, v[i].want));
		if (!same(got, v[i].want))
			printf("#   %s: got %s, want %s\n", v[i].in, got ? got : "NULL",
			       v[i].want ? v[i].want : "NULL");
		free(got);
	}
	CHECK(!pkg_source_of_srpm(NULL));
}

int main(void)
{
	test_stanza();
	test_stanzas();
	test_srpm();
	printf("unit: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
