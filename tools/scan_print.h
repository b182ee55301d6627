/* SPDX-License-Identifier: GPL-2.0 */
/*
 * abidep scan's printers (scan_print.c, scan_table.c, scan_html.c): every
 * format prints the one scan_result, through the view below; --by-package's
 * (scan_by_package.c) print its summary (lib/scan_summary.h).
 */
#ifndef ABIDEP_SCAN_PRINT_H
#define ABIDEP_SCAN_PRINT_H

#include <stdbool.h>
#include <stdio.h>

#include "output.h"
#include "scan.h"
#include "scan_summary.h"

/* Hits of one source package and maintainer (source NULL: of no package). */
struct scan_group {
	const char *source, *maintainer;
	size_t first, n;		/* in scan_view.order */
};

/* The hits in the order people read them: by source package, then as found. */
struct scan_view {
	const struct scan_result *r;
	bool packages;			/* of package files (else of a root) */
	size_t *order;			/* hit indexes */
	struct scan_group *g;
	size_t ng;
	size_t nfiles;			/* distinct files with hits */
	size_t conf[3];			/* hits per confidence */
};

void scan_view_build(struct scan_view *v, const struct scan_result *r, bool packages);
void scan_view_free(struct scan_view *v);

/* "FILE:LINE", or "FILE@OFFSET" in a binary file: malloc'd, raw. */
char *scan_where(const struct scan_hit *h);

/* "unreadable: FILE: WHY" lines, each after @prefix, cleaned. */
void scan_print_unreadable(const struct scan_result *r, FILE *f, const char *prefix);

/* The "unreadable" list of -j, and the HTML page's: every printer's. */
struct json;
void scan_json_unreadable(struct json *j, const struct scan_result *r);
void scan_html_unreadable(const struct scan_result *r, FILE *f);

void scan_print_json(const struct scan_view *v, bool files_only, FILE *f);
/* The text of a root scan, as it has always been. */
void scan_print_root_text(const struct scan_view *v, bool files_only, FILE *f);
/* Text (of package files), Markdown or CSV, fitted to @width. */
void scan_print_table(const struct scan_view *v, FILE *f, enum out_format fmt, int width);
/* Maintainers and their source packages with hits, as Debian's dd-list prints. */
void scan_print_ddlist(const struct scan_view *v, FILE *f);
void scan_print_html(const struct scan_view *v, FILE *f);
/* --by-package (scan_by_package.c): a row a package, in @fmt (not dd-list). */
void scan_print_by_package(const struct scan_result *r, const struct scan_summary *s,
			   bool packages, FILE *f, enum out_format fmt, int width);

#endif
