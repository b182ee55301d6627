// SPDX-License-Identifier: GPL-2.0
/*
 * abidep scan as tables (tabular.c): text of package files and Markdown,
 * by source package with its maintainer, the people who act on a hit;
 * CSV, a row a hit; and dd-list, the maintainers and their source
 * packages, as Debian's dd-list prints them for a mass bug filing.
 */
#include <stdlib.h>
#include <string.h>

#include "rootfs.h"
#include "scan_print.h"
#include "tabular.h"
#include "text.h"
#include "util.h"

enum { T_CONF, T_PKG, T_VER, T_WHERE, T_WHAT, T_MATCH, T_NCOLS };

static const struct table_col text_cols[T_NCOLS] = {
	{ "CONFIDENCE", 0 }, { "PACKAGE", TC_LITERAL }, { "VERSION", TC_LITERAL },
	{ "WHERE", TC_FLEX | TC_LITERAL }, { "WHAT", TC_SHRINK | TC_LITERAL },
	{ "MATCH", TC_FLEX | TC_LITERAL },
};

enum {
	C_SOURCE, C_MAINT, C_PKG, C_VER, C_ARCH, C_ARCHIVE, C_FILE, C_LINE, C_OFFSET,
	C_WHAT, C_STATUS, C_CONF, C_MATCH, C_NCOLS
};

static const struct table_col csv_cols[C_NCOLS] = {
	{ "source_package", 0 }, { "maintainer", 0 }, { "package", 0 }, { "package_version", 0 },
	{ "architecture", 0 }, { "archive", 0 }, { "file", 0 }, { "line", 0 },
	{ "offset", 0 }, { "what", 0 }, { "status", 0 }, { "confidence", 0 }, { "match", 0 },
};

static char *dup0(const char *s)
{
	return xstrdup(s ? s : "");
}

static void group_title(struct table *t, const struct scan_group *g)
{
	if (!g->source)
		table_title(t, "In no package");
	else
		table_title(t, "Source %s, maintainer %s", g->source,
			    g->maintainer ? g->maintainer : "unknown");
}

static void build_text(struct table *t, const struct scan_view *v)
{
	const struct scan_result *r = v->r;
	int layout = table_layout(t, 2, T_NCOLS, text_cols);
	size_t i, k;

	for (i = 0; i < v->ng; i++) {
		const struct scan_group *g = &v->g[i];

		group_title(t, g);
		table_head(t, layout, NULL);
		for (k = g->first; k < g->first + g->n; k++) {
			const struct scan_hit *h = &r->hits[v->order[k]];
			char **col = table_row(t, layout);

			col[T_CONF] = xstrdup(scan_confidence_name(h->confidence));
			col[T_PKG] = xstrdup(h->package ? h->package : "-");
			col[T_VER] = xstrdup(h->package_version ? h->package_version : "-");
			col[T_WHERE] = scan_where(h);
			col[T_WHAT] = xstrdup(h->what);
			col[T_MATCH] = xstrdup(h->match);
		}
		table_blank(t);
	}
	for (i = 0; i < r->nunreadable; i++) {
		const struct scan_unreadable *u = &r->unreadable[i];

		table_line(t, 0, "unreadable: %s: %s", u->file, u->why ? u->why : root_strerror(u->err));
	}
	if (v->packages)
		table_line(t, 0, "%zu hits in %zu files (%zu strong, %zu medium, %zu weak); %zu packages (%zu from the cache), %llu files, %llu bytes examined; %zu unreadable%s",
			   r->nhits, v->nfiles, v->conf[SCAN_STRONG], v->conf[SCAN_MEDIUM],
			   v->conf[SCAN_WEAK], r->npackages, r->ncached, r->files, r->bytes,
			   r->nunreadable, r->weak_hidden ? "; weak hits of common names not shown (--weak)" : "");
	else
		table_line(t, 0, "%zu hits in %zu files (%zu strong, %zu medium, %zu weak); %llu files, %llu bytes examined; %zu unreadable%s",
			   r->nhits, v->nfiles, v->conf[SCAN_STRONG], v->conf[SCAN_MEDIUM],
			   v->conf[SCAN_WEAK], r->files, r->bytes, r->nunreadable,
			   r->weak_hidden ? "; weak hits of common names not shown (--weak)" : "");
}

static void build_csv(struct table *t, const struct scan_view *v)
{
	int layout = table_layout(t, 0, C_NCOLS, csv_cols);
	size_t i;

	table_head(t, layout, NULL);
	for (i = 0; i < v->r->nhits; i++) {
		const struct scan_hit *h = &v->r->hits[v->order[i]];
		char **col = table_row(t, layout);

		col[C_SOURCE] = dup0(h->pkg ? h->pkg->source : NULL);
		col[C_MAINT] = dup0(h->pkg ? h->pkg->maintainer : NULL);
		col[C_PKG] = dup0(h->package);
		col[C_VER] = dup0(h->package_version);
		col[C_ARCH] = dup0(h->pkg ? h->pkg->arch : NULL);
		col[C_ARCHIVE] = dup0(h->archive);
		col[C_FILE] = xstrdup(h->file);
		col[C_LINE] = h->line ? xasprintf("%lu", h->line) : xstrdup("");
		col[C_OFFSET] = xasprintf("%llu", h->offset);
		col[C_WHAT] = xstrdup(h->what);
		col[C_STATUS] = xstrdup(abi_status_name(h->entry->status));
		col[C_CONF] = xstrdup(scan_confidence_name(h->confidence));
		col[C_MATCH] = xstrdup(h->match);
	}
}

void scan_print_table(const struct scan_view *v, FILE *f, enum out_format fmt, int width)
{
	struct table *t = table_new();

	if (fmt == FMT_CSV)
		build_csv(t, v);
	else
		build_text(t, v);
	table_print(t, f, fmt, width);
	table_free(t);
}

/* ---- dd-list ---- */

struct dd {
	const char *maintainer, *source;
};

static int dd_cmp(const void *a, const void *b)
{
	const struct dd *x = a, *y = b;
	int c = strcasecmp(x->maintainer, y->maintainer);

	if (!c)
		c = strcmp(x->maintainer, y->maintainer);
	return c ? c : strcmp(x->source, y->source);
}

/*
 * As dd-list(1): each maintainer on a line, then their source packages
 * indented by three spaces, a blank line between maintainers. Hits in no
 * package name no one: they are counted on standard error.
 */
void scan_print_ddlist(const struct scan_view *v, FILE *f)
{
	struct dd *d = NULL;
	size_t n = 0, cap = 0, i, unowned = 0;

	for (i = 0; i < v->ng; i++) {
		const struct scan_group *g = &v->g[i];

		if (!g->source) {
			unowned += g->n;
			continue;
		}
		*GROW(d, n, cap) = (struct dd){
			g->maintainer ? g->maintainer : "Unknown maintainer", g->source
		};
	}
	if (n)
		qsort(d, n, sizeof(*d), dd_cmp);
	for (i = 0; i < n; i++) {
		char *m = text_clean(d[i].maintainer), *s = text_clean(d[i].source);

		if (!i || strcmp(d[i].maintainer, d[i - 1].maintainer))
			fprintf(f, "%s%s\n", i ? "\n" : "", m);
		if (!i || strcmp(d[i].maintainer, d[i - 1].maintainer) ||
		    strcmp(d[i].source, d[i - 1].source))
			fprintf(f, "   %s\n", s);
		free(m);
		free(s);
	}
	free(d);
	if (unowned)
		fprintf(stderr, "abidep: %zu hits in files of no package are not in the list\n", unowned);
}
