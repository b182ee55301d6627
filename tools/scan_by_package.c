// SPDX-License-Identifier: GPL-2.0
/*
 * abidep scan --by-package: a row a package with hits (lib/scan_summary.h),
 * the files of no package as one row of their own, in every format of
 * scan but dd-list (which names maintainers already): text, Markdown and
 * CSV (tabular.c), JSON, HTML. Every name is the scanned image's or
 * package's: tabular.c, json.c and html_esc() clean or escape it.
 */
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "json.h"
#include "main.h"
#include "rootfs.h"
#include "scan_print.h"
#include "tabular.h"
#include "text.h"
#include "util.h"

/* The row of the files no package owns, as text, Markdown, CSV and HTML name it. */
#define NO_PACKAGE	"(no package)"

enum {
	B_PKG, B_VER, B_ARCH, B_FILES, B_HITS, B_STRONG, B_MEDIUM, B_WEAK, B_WHATS,
	B_SOURCE, B_MAINT, B_ARCHIVE, B_NCOLS
};

static const struct table_col text_cols[B_NCOLS] = {
	{ "PACKAGE", TC_SHRINK | TC_LITERAL }, { "VERSION", TC_LITERAL }, { "ARCH", 0 },
	{ "FILES", TC_RIGHT }, { "HITS", TC_RIGHT }, { "STRONG", TC_RIGHT },
	{ "MEDIUM", TC_RIGHT }, { "WEAK", TC_RIGHT }, { "WHATS", TC_FLEX | TC_LITERAL },
	{ "SOURCE", TC_NOTEXT | TC_LITERAL }, { "MAINTAINER", TC_NOTEXT },
	{ "ARCHIVE", TC_NOTEXT | TC_LITERAL },
};

static const struct table_col csv_cols[B_NCOLS] = {
	{ "package", 0 }, { "package_version", 0 }, { "architecture", 0 }, { "files", 0 },
	{ "hits", 0 }, { "strong", 0 }, { "medium", 0 }, { "weak", 0 }, { "whats", 0 },
	{ "source_package", 0 }, { "maintainer", 0 }, { "archive", 0 },
};

static char *dash(const char *s)
{
	return xstrdup(s ? s : "-");
}

/* The Whats of @row: @cap of them and how many more ("a, b, c and 2 more"). */
static char *whats_shown(const struct scan_sum_row *row, int cap)
{
	char **names = xcalloc(row->nwhats + 1, sizeof(*names)), *s;
	size_t i;

	for (i = 0; i < row->nwhats; i++)
		names[i] = (char *)row->whats[i].what;
	s = names_list(names, row->nwhats, cap);
	free(names);
	return s;
}

/* All of them, space-separated (a What has no space): a CSV cell a script splits. */
static char *whats_all(const struct scan_sum_row *row)
{
	size_t i, len = 1;
	char *s, *q;

	for (i = 0; i < row->nwhats; i++)
		len += strlen(row->whats[i].what) + 1;
	s = q = xmalloc(len);
	*q = 0;
	for (i = 0; i < row->nwhats; i++)
		q += sprintf(q, "%s%s", i ? " " : "", row->whats[i].what);
	return s;
}

static void add_row(struct table *t, int layout, const struct scan_sum_row *row, bool csv)
{
	char **col = table_row(t, layout);
	const struct pkg_meta *m = row->pkg;

	col[B_PKG] = row->package ? xstrdup(row->package) : xstrdup(csv ? "" : NO_PACKAGE);
	col[B_VER] = csv ? xstrdup(row->version ? row->version : "") : dash(row->version);
	col[B_ARCH] = csv ? xstrdup(m && m->arch ? m->arch : "") : dash(m ? m->arch : NULL);
	col[B_FILES] = xasprintf("%zu", row->files);
	col[B_HITS] = xasprintf("%zu", row->hits);
	col[B_STRONG] = xasprintf("%zu", row->conf[SCAN_STRONG]);
	col[B_MEDIUM] = xasprintf("%zu", row->conf[SCAN_MEDIUM]);
	col[B_WEAK] = xasprintf("%zu", row->conf[SCAN_WEAK]);
	col[B_WHATS] = csv ? whats_all(row) : whats_shown(row, NAMES_SHOWN);
	col[B_SOURCE] = csv ? xstrdup(m && m->source ? m->source : "") : dash(m ? m->source : NULL);
	col[B_MAINT] = csv ? xstrdup(m && m->maintainer ? m->maintainer : "") :
			     dash(m ? m->maintainer : NULL);
	col[B_ARCHIVE] = csv ? xstrdup(row->archive ? row->archive : "") : dash(row->archive);
}

/* Of all rows: the distinct files with hits. */
static size_t files_with_hits(const struct scan_summary *s)
{
	size_t i, n = 0;

	for (i = 0; i < s->n; i++)
		n += s->rows[i].files;
	return n;
}

/* "N hits in N files (...): N packages, and N files of no package; ...", malloc'd. */
static char *totals(const struct scan_result *r, const struct scan_summary *s, bool packages)
{
	size_t conf[3] = { 0 }, i;
	char *own, *none, *hidden, *line;

	for (i = 0; i < r->nhits; i++)
		if (r->hits[i].confidence >= SCAN_WEAK)
			conf[r->hits[i].confidence]++;
	if (packages)
		own = xasprintf("%zu of %zu package files (%zu from the cache)", s->nowned,
				r->npackages, r->ncached);
	else
		own = xasprintf("%zu package%s", s->nowned, s->nowned == 1 ? "" : "s");
	none = s->unowned_files ? xasprintf(", and %zu file%s of no package", s->unowned_files,
					    s->unowned_files == 1 ? "" : "s") : xstrdup("");
	hidden = r->weak_hidden ? xasprintf("; %llu weak hits of common names not counted (--weak)",
					    r->weak_hidden) : xstrdup("");
	line = xasprintf("%zu hits in %zu files (%zu strong, %zu medium, %zu weak): %s%s; %llu files, %llu bytes examined; %zu unreadable%s",
			 r->nhits, files_with_hits(s), conf[SCAN_STRONG], conf[SCAN_MEDIUM],
			 conf[SCAN_WEAK], own, none, r->files, r->bytes, r->nunreadable, hidden);
	free(own);
	free(none);
	free(hidden);
	return line;
}

static void print_table(const struct scan_result *r, const struct scan_summary *s, bool packages,
			FILE *f, enum out_format fmt, int width)
{
	struct table *t = table_new();
	bool csv = fmt == FMT_CSV;
	int layout = table_layout(t, 0, B_NCOLS, csv ? csv_cols : text_cols);
	char *line;
	size_t i;

	if (s->n || csv)
		table_head(t, layout, NULL);
	for (i = 0; i < s->n; i++)
		add_row(t, layout, &s->rows[i], csv);
	if (s->n)
		table_blank(t);
	for (i = 0; i < r->nunreadable; i++) {
		const struct scan_unreadable *u = &r->unreadable[i];

		table_line(t, 0, "unreadable: %s: %s", u->file,
			   u->why ? u->why : root_strerror(u->err));
	}
	line = totals(r, s, packages);
	table_line(t, 0, "%s", line);
	free(line);
	table_print(t, f, fmt, width);
	table_free(t);
}

/* ---- JSON ---- */

static void json_row(struct json *j, const struct scan_sum_row *row)
{
	const struct pkg_meta *m = row->pkg;
	size_t k;

	json_obj_start(j);
	/* null: the files of no package. */
	json_kstr(j, "package", row->package);
	json_kstr(j, "package_version", row->version);
	json_kstr(j, "architecture", m ? m->arch : NULL);
	json_kstr(j, "source_package", m ? m->source : NULL);
	json_kstr(j, "maintainer", m ? m->maintainer : NULL);
	if (row->archive)
		json_kstr(j, "archive", row->archive);
	json_kint(j, "files", row->files);
	json_kint(j, "hits", row->hits);
	json_kint(j, "strong", row->conf[SCAN_STRONG]);
	json_kint(j, "medium", row->conf[SCAN_MEDIUM]);
	json_kint(j, "weak", row->conf[SCAN_WEAK]);
	json_key(j, "whats");
	json_arr_start(j);
	for (k = 0; k < row->nwhats; k++) {
		const struct scan_sum_what *w = &row->whats[k];

		json_obj_start(j);
		json_kstr(j, "what", w->what);
		json_kstr(j, "status", abi_status_name(w->entry->status));
		json_kint(j, "hits", w->hits);
		json_kstr(j, "confidence", scan_confidence_name(w->best));
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

static void print_json(const struct scan_result *r, const struct scan_summary *s, bool packages,
		       FILE *f)
{
	struct json j;
	size_t i;

	json_init(&j, f, cfg.pretty);
	json_obj_start(&j);
	if (packages) {
		json_kint(&j, "packages", r->npackages);
		json_kint(&j, "cached", r->ncached);
	} else {
		json_kstr(&j, "root", r->root);
		json_kstr(&j, "scanned", *r->prefix ? r->prefix : "/");
	}
	json_kint(&j, "files", r->files);
	json_kint(&j, "bytes", r->bytes);
	json_kint(&j, "patterns", r->npatterns);
	json_kint(&j, "weak_hidden", r->weak_hidden);
	json_kint(&j, "hits", r->nhits);
	json_kint(&j, "files_with_hits", files_with_hits(s));
	json_key(&j, "by_package");
	json_arr_start(&j);
	for (i = 0; i < s->n; i++)
		json_row(&j, &s->rows[i]);
	json_arr_end(&j);
	scan_json_unreadable(&j, r);
	json_obj_end(&j);
	json_end(&j);
}

/* ---- HTML ---- */

static void html_cell(FILE *f, const char *s, const char *cls)
{
	fprintf(f, "<td%s%s%s>", cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
	html_esc(f, s ? s : "-");
	fputs("</td>", f);
}

static void html_row(FILE *f, const struct scan_sum_row *row)
{
	const struct pkg_meta *m = row->pkg;
	size_t k;

	fprintf(f, "<tr data-owned=\"%d\" data-hits=\"%zu\" data-strong=\"%zu\">", !!row->package,
		row->hits, row->conf[SCAN_STRONG]);
	if (row->package)
		html_cell(f, row->package, "path");
	else
		fputs("<td><em>" NO_PACKAGE "</em></td>", f);
	html_cell(f, row->version, "path");
	html_cell(f, m ? m->arch : NULL, NULL);
	html_cell(f, m ? m->source : NULL, "path");
	html_cell(f, m ? m->maintainer : NULL, NULL);
	fprintf(f, "<td>%zu</td><td>%zu</td><td>%zu</td><td>%zu</td><td>%zu</td><td class=\"path\">",
		row->files, row->hits, row->conf[SCAN_STRONG], row->conf[SCAN_MEDIUM],
		row->conf[SCAN_WEAK]);
	for (k = 0; k < row->nwhats; k++) {
		if (k)
			fputs("<br>", f);
		html_esc(f, row->whats[k].what);
	}
	fputs("</td></tr>\n", f);
}

static void print_html(const struct scan_result *r, const struct scan_summary *s, bool packages,
		       FILE *f)
{
	char *line = totals(r, s, packages);
	size_t i;

	html_begin(f, "abidep scan --by-package");
	fprintf(f, "<h1>abidep scan --by-package</h1>\n<p id=\"totals\" data-hits=\"%zu\" data-packages=\"%zu\" data-unreadable=\"%zu\">",
		r->nhits, s->nowned, r->nunreadable);
	html_esc(f, line);
	fputs(".</p>\n", f);
	free(line);
	if (s->n) {
		fputs("<table>\n<tr><th>Package</th><th>Version</th><th>Arch</th><th>Source</th><th>Maintainer</th><th>Files</th><th>Hits</th><th>Strong</th><th>Medium</th><th>Weak</th><th>Whats</th></tr>\n",
		      f);
		for (i = 0; i < s->n; i++)
			html_row(f, &s->rows[i]);
		fputs("</table>\n", f);
	}
	scan_html_unreadable(r, f);
	html_end(f);
}

void scan_print_by_package(const struct scan_result *r, const struct scan_summary *s,
			   bool packages, FILE *f, enum out_format fmt, int width)
{
	if (fmt == FMT_JSON)
		print_json(r, s, packages, f);
	else if (fmt == FMT_HTML)
		print_html(r, s, packages, f);
	else
		print_table(r, s, packages, f, fmt, width);
}
