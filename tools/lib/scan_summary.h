/* SPDX-License-Identifier: GPL-2.0 */
/*
 * abidep scan --by-package's model: a scan's hits summed per package (of
 * a root's dpkg or rpm database, or a package file read in place), the
 * files of no package as one row of their own. Built once from the
 * scan_result (scan_summary_build()), printed by every format of the
 * command (tools/scan_summary.c), none of which looks at the hits again.
 */
#ifndef ABIDEP_SCAN_SUMMARY_H
#define ABIDEP_SCAN_SUMMARY_H

#include <stddef.h>

#include "scan.h"

/* A What a package's files reference: how often, and how surely at best. */
struct scan_sum_what {
	const char *what;		/* the tables' string */
	const struct abi_entry *entry;
	size_t hits;
	enum scan_confidence best;
};

/* One package's hits; package NULL: the files that no package owns. */
struct scan_sum_row {
	const char *package;		/* strings of the scan_result */
	const char *version;		/* NULL: none or unknown */
	const struct pkg_meta *pkg;	/* architecture, source, maintainer; NULL: none */
	const char *archive;		/* its package file; NULL in a root */
	size_t files;			/* distinct files with hits */
	size_t hits;
	size_t conf[3];			/* hits per confidence (SCAN_WEAK...) */
	struct scan_sum_what *whats;	/* distinct, in the order of the What strings */
	size_t nwhats;
};

struct scan_summary {
	/*
	 * By package name, then version, then package file (two builds of
	 * one package in a pool are two rows); the row of no package last.
	 */
	struct scan_sum_row *rows;
	size_t n;
	size_t nowned;			/* rows of a package (not the last, if of none) */
	size_t unowned_files;		/* the files of that row; 0: no such row */
};

/* Sum @r's hits per package into @s (overwritten); free with scan_summary_free(). */
void scan_summary_build(struct scan_summary *s, const struct scan_result *r);
void scan_summary_free(struct scan_summary *s);

#endif
