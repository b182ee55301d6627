// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the package reader (tools/lib/scan_pkg.c): one
 * package file, read by pkg_read() with a scan_reader over the default
 * tables' needles, as scan --packages reads each. The first byte picks how:
 * bit 0 names the file .rpm (else .deb), bit 1 a small --max-size, bit 2
 * a small --max-unpacked, bit 3 --weak, bit 4 a small budget of ELF
 * members held whole (so that a larger one is searched every byte); the
 * rest is the file. Beyond "no crash, no UB, no leak", each run checks
 * what pkg_read() promises: a package read whole has a name, a version
 * and a checksum; one that could not be read says why and leaves no hit,
 * name, unreadable member or string behind.
 * Run by tests/fuzz/run under ASan and UBSan.
 */
#include <libelf.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "abi.h"
#include "dl_archive.h"
#include "dl_rpm.h"
#include "scan.h"
#include "scan_int.h"
#include "scan_pkg.h"

#define CHECK(cond)							\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: check failed: %s\n",	\
				__FILE__, __LINE__, #cond);		\
			abort();					\
		}							\
	} while (0)

static struct abi_set tables;
static struct scan_needles needles;
static char dir[] = "/tmp/fuzz_pkg.XXXXXX";

/* The repository's tables: $ABIDEP_TABLES, or build/fuzz/../../migration-tables. */
static void tables_dir(char *out, size_t n)
{
	const char *env = getenv("ABIDEP_TABLES");
	char exe[PATH_MAX];
	ssize_t k;
	int i;

	if (env) {
		snprintf(out, n, "%s", env);
		return;
	}
	k = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	CHECK(k > 0);
	exe[k] = '\0';
	for (i = 0; i < 3; i++)
		*strrchr(exe, '/') = '\0';
	snprintf(out, n, "%s/migration-tables", exe);
}

static void cleanup(void)
{
	char p[64];

	snprintf(p, sizeof(p), "%s/x.deb", dir);
	unlink(p);
	snprintf(p, sizeof(p), "%s/x.rpm", dir);
	unlink(p);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char path[PATH_MAX];

	(void)argc;
	(void)argv;
	tables_dir(path, sizeof(path));
	abi_set_init(&tables);
	tables.skip_text = true;
	CHECK(!abi_load_path(&tables, path));
	abi_check(&tables, false);
	CHECK(!tables.errors && tables.nentries > 0);
	scan_needles_build(&needles, &tables);
	CHECK(needles.n > 0);
	elf_version(EV_CURRENT);
	/* As scan --packages does before it reads any (scan_pkgs.c). */
	CHECK(!dynlib_load(&dl_archive) && !dynlib_load(&dl_rpm));
	CHECK(mkdtemp(dir));
	atexit(cleanup);
	return 0;
}

static void write_file(const char *path, const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "w");

	CHECK(f);
	CHECK(fwrite(data, 1, size, f) == size);
	CHECK(!fclose(f));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct scan_opts opts = {
		/* Bounded as a fuzz run must be: a bomb is a finding too. */
		.max_unpacked = 64 << 20,
	};
	struct pkg_members names = { 0 };
	struct pkg_job j = { 0 };
	struct scan_reader rd;
	char path[64];
	uint8_t sel;
	size_t i;
	int ret;

	if (!size)
		return 0;
	sel = data[0];
	snprintf(path, sizeof(path), "%s/x.%s", dir, sel & 1 ? "rpm" : "deb");
	write_file(path, data + 1, size - 1);
	if (sel & 2)
		opts.max_size = 64;
	if (sel & 4)
		opts.max_unpacked = 4096;
	opts.weak = sel & 8;
	if (sel & 16)
		opts.elf_budget = 4096;
	scan_reader_init(&rd, &needles, &opts);
	j.path = path;
	ret = pkg_read(&j, &rd, &names);
	if (ret) {
		CHECK(j.why[0]);
		CHECK(!rd.nhits && !rd.nunread && !names.n);
		/* A fresh reader: none of the package's strings kept either. */
		CHECK(!rd.strs.head);
	} else {
		CHECK(!j.why[0]);
		CHECK(j.meta.name && j.meta.version && j.meta.source);
		CHECK(strlen(j.sha256) == 64);
		for (i = 0; i < names.n; i++)
			CHECK(names.v[i].hstart <= names.v[i].hend &&
			      names.v[i].hend <= rd.nhits && names.v[i].file);
	}
	scan_reader_release(&rd);
	scan_arena_free(&rd.strs);
	free(names.v);
	unlink(path);
	return 0;
}
