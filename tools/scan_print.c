// SPDX-License-Identifier: GPL-2.0
/*
 * abidep scan's output: JSON, text, Markdown, CSV and dd-list, each from
 * the one view of the result (scan_print.h). Every name here is the
 * scanned image's or package's (file names, package fields, the matched
 * bytes): each is cleaned (text_clean(), tabular.c, json.c) before it is
 * printed or measured, so that none drives the terminal or forges a line.
 */
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "main.h"
#include "rootfs.h"
#include "scan_print.h"
#include "tabular.h"
#include "text.h"
#include "util.h"

/* ---- the view ---- */

static const char *source_of(const struct scan_hit *h)
{
	return h->pkg ? h->pkg->source : NULL;
}

static const char *maintainer_of(const struct scan_hit *h)
{
	return h->pkg ? h->pkg->maintainer : NULL;
}

static int str0_cmp(const char *a, const char *b)
{
	if (!a || !b)
		return !a - !b;		/* NULL last */
	return strcmp(a, b);
}

static const struct scan_hit *sort_hits;

static int order_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	const struct scan_hit *p = &sort_hits[x], *q = &sort_hits[y];
	int c = str0_cmp(source_of(p), source_of(q));

	if (!c)
		c = str0_cmp(maintainer_of(p), maintainer_of(q));
	return c ? c : (x > y) - (x < y);
}

void scan_view_build(struct scan_view *v, const struct scan_result *r, bool packages)
{
	size_t i, cap = 0;

	memset(v, 0, sizeof(*v));
	v->r = r;
	v->packages = packages;
	v->order = xcalloc(r->nhits ? r->nhits : 1, sizeof(*v->order));
	for (i = 0; i < r->nhits; i++) {
		const struct scan_hit *h = &r->hits[i];

		v->order[i] = i;
		v->conf[h->confidence]++;
		if (!i || strcmp(h->file, h[-1].file) || str0_cmp(h->archive, h[-1].archive))
			v->nfiles++;
	}
	sort_hits = r->hits;
	if (r->nhits)
		qsort(v->order, r->nhits, sizeof(*v->order), order_cmp);
	for (i = 0; i < r->nhits; i++) {
		const struct scan_hit *h = &r->hits[v->order[i]];
		struct scan_group *g = v->ng ? &v->g[v->ng - 1] : NULL;

		if (!g || str0_cmp(g->source, source_of(h)) ||
		    str0_cmp(g->maintainer, maintainer_of(h))) {
			g = GROW(v->g, v->ng, cap);
			g->source = source_of(h);
			g->maintainer = maintainer_of(h);
			g->first = i;
			g->n = 0;
		}
		g->n++;
	}
}

void scan_view_free(struct scan_view *v)
{
	free(v->order);
	free(v->g);
}

char *scan_where(const struct scan_hit *h)
{
	if (h->line)
		return xasprintf("%s:%lu", h->file, h->line);
	return xasprintf("%s@%llu", h->file, h->offset);
}

/* ---- JSON ---- */

static void json_package(struct json *j, const struct scan_package *p)
{
	json_obj_start(j);
	json_kstr(j, "file", p->file);
	json_kstr(j, "package", p->meta.name);
	json_kstr(j, "version", p->meta.version);
	json_kstr(j, "architecture", p->meta.arch);
	json_kstr(j, "source", p->meta.source);
	json_kstr(j, "maintainer", p->meta.maintainer);
	json_kstr(j, "sha256", p->sha256[0] ? p->sha256 : NULL);
	json_kbool(j, "cached", p->cached);
	json_kbool(j, "unreadable", p->unreadable);
	json_kint(j, "members", p->members);
	json_kint(j, "unpacked", p->unpacked);
	json_obj_end(j);
}

static void json_hit(struct json *j, const struct scan_hit *h)
{
	json_obj_start(j);
	if (h->archive)
		json_kstr(j, "archive", h->archive);
	json_kstr(j, "file", h->file);
	if (h->line)
		json_kint(j, "line", h->line);
	else
		json_kstr(j, "line", NULL);
	json_kint(j, "offset", h->offset);
	json_kstr(j, "what", h->what);
	json_kstr(j, "status", abi_status_name(h->entry->status));
	json_kstr(j, "table", h->entry->file);
	json_kint(j, "table_line", h->entry->line);
	json_kstr(j, "match", h->match);
	json_kstr(j, "confidence", scan_confidence_name(h->confidence));
	json_kstr(j, "package", h->package);
	json_kstr(j, "package_version", h->package_version);
	json_kstr(j, "architecture", h->pkg ? h->pkg->arch : NULL);
	json_kstr(j, "source_package", source_of(h));
	json_kstr(j, "maintainer", maintainer_of(h));
	json_obj_end(j);
}

static void json_files(struct json *j, const struct scan_result *r, bool packages)
{
	size_t i;

	for (i = 0; i < r->nhits; i++) {
		const struct scan_hit *h = &r->hits[i];

		if (i && !strcmp(h->file, h[-1].file) && !str0_cmp(h->archive, h[-1].archive))
			continue;
		if (!packages) {
			json_str(j, h->file);
			continue;
		}
		json_obj_start(j);
		json_kstr(j, "archive", h->archive);
		json_kstr(j, "file", h->file);
		json_kstr(j, "package", h->package);
		json_obj_end(j);
	}
}

void scan_json_unreadable(struct json *j, const struct scan_result *r)
{
	size_t i;

	json_key(j, "unreadable");
	json_arr_start(j);
	for (i = 0; i < r->nunreadable; i++) {
		json_obj_start(j);
		json_kstr(j, "file", r->unreadable[i].file);
		json_kstr(j, "error", r->unreadable[i].why ? r->unreadable[i].why :
			  root_strerror(r->unreadable[i].err));
		json_obj_end(j);
	}
	json_arr_end(j);
}

void scan_print_json(const struct scan_view *v, bool files_only, FILE *f)
{
	const struct scan_result *r = v->r;
	struct json j;
	size_t i;

	json_init(&j, f, cfg.pretty);
	json_obj_start(&j);
	if (v->packages) {
		json_key(&j, "packages");
		json_arr_start(&j);
		for (i = 0; i < r->npackages; i++)
			json_package(&j, &r->packages[i]);
		json_arr_end(&j);
		json_kint(&j, "cached", r->ncached);
	} else {
		json_kstr(&j, "root", r->root);
		json_kstr(&j, "scanned", *r->prefix ? r->prefix : "/");
	}
	json_kint(&j, "files", r->files);
	json_kint(&j, "bytes", r->bytes);
	json_kint(&j, "patterns", r->npatterns);
	json_kint(&j, "weak_hidden", r->weak_hidden);
	json_key(&j, files_only ? "files_with_hits" : "hits");
	json_arr_start(&j);
	if (files_only)
		json_files(&j, r, v->packages);
	else
		for (i = 0; i < r->nhits; i++)
			json_hit(&j, &r->hits[i]);
	json_arr_end(&j);
	scan_json_unreadable(&j, r);
	json_obj_end(&j);
	json_end(&j);
}

/* ---- text of a root ---- */

/* Where a hit is, cleaned for a terminal (text_clean()): malloc'd. */
static char *where_clean(const struct scan_hit *h)
{
	char *w = scan_where(h), *s = text_clean(w);

	free(w);
	return s;
}

static int max_width(int w, const char *s)
{
	int l = text_width(s);

	return l > w ? l : w;
}

static const char *why_of(const struct scan_unreadable *u)
{
	return u->why ? u->why : root_strerror(u->err);
}

void scan_print_unreadable(const struct scan_result *r, FILE *f, const char *prefix)
{
	size_t i;

	for (i = 0; i < r->nunreadable; i++) {
		char *file = text_clean(r->unreadable[i].file), *why = text_clean(why_of(&r->unreadable[i]));

		fprintf(f, "%sunreadable: %s: %s\n", prefix, file, why);
		free(file);
		free(why);
	}
}

void scan_print_root_text(const struct scan_view *v, bool files_only, FILE *f)
{
	const struct scan_result *r = v->r;
	int ww = 5, wp = 7, wt = 4;
	char *c[4];
	size_t i;

	for (i = 0; i < r->nhits; i++) {
		const struct scan_hit *h = &r->hits[i];

		if (files_only && (!i || strcmp(h->file, h[-1].file))) {
			c[0] = text_clean(h->file);
			fprintf(f, "%s\n", c[0]);
			free(c[0]);
		}
		c[0] = where_clean(h);
		c[1] = text_clean(h->package ? h->package : "-");
		c[2] = text_clean(h->what);
		ww = max_width(ww, c[0]);
		wp = max_width(wp, c[1]);
		wt = max_width(wt, c[2]);
		free(c[0]);
		free(c[1]);
		free(c[2]);
	}
	if (files_only)
		return;
	if (r->nhits)
		fprintf(f, "%-10s  %-*s  %-*s  %-*s  %s\n", "CONFIDENCE", wp, "PACKAGE",
			ww, "WHERE", wt, "WHAT", "MATCH");
	for (i = 0; i < r->nhits; i++) {
		const struct scan_hit *h = &r->hits[i];

		c[0] = where_clean(h);
		c[1] = text_clean(h->package ? h->package : "-");
		c[2] = text_clean(h->what);
		c[3] = text_clean(h->match);
		/* Padded by display width: the cleaned names may be UTF-8. */
		fprintf(f, "%-10s  %s%*s  %s%*s  %s%*s  %s\n",
			scan_confidence_name(h->confidence),
			c[1], wp - text_width(c[1]), "", c[0], ww - text_width(c[0]), "",
			c[2], wt - text_width(c[2]), "", c[3]);
		for (int k = 0; k < 4; k++)
			free(c[k]);
	}
	scan_print_unreadable(r, f, "");
	fprintf(f, "%zu hits in %zu files (%zu strong, %zu medium, %zu weak); %llu files, %llu bytes examined; %zu unreadable",
		r->nhits, v->nfiles, v->conf[SCAN_STRONG], v->conf[SCAN_MEDIUM], v->conf[SCAN_WEAK],
		r->files, r->bytes, r->nunreadable);
	if (r->weak_hidden)
		fprintf(f, "; %llu weak hits of common names not shown (--weak)", r->weak_hidden);
	fprintf(f, "\n");
}
