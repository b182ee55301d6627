// SPDX-License-Identifier: GPL-2.0
/*
 * abidep scan --format html: one self-contained page (html.c: no script,
 * no fetch) of the hits by source package and maintainer, the package
 * files that could not be read, and the totals; the figures are in the DOM
 * too (data-* attributes), as in check's and report's pages. Every string
 * is the scanned packages' and goes through html_esc().
 */
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "rootfs.h"
#include "scan_print.h"
#include "util.h"

static void hit_row(FILE *f, const struct scan_hit *h)
{
	char *where = scan_where(h);

	fprintf(f, "<tr data-confidence=\"%s\"><td>%s</td><td class=\"path\">",
		scan_confidence_name(h->confidence), scan_confidence_name(h->confidence));
	html_esc(f, h->package ? h->package : "-");
	fputs("</td><td>", f);
	html_esc(f, h->package_version ? h->package_version : "-");
	fputs("</td><td class=\"path\">", f);
	if (h->archive) {
		html_esc(f, h->archive);
		fputs("<br>", f);
	}
	html_esc(f, where);
	fputs("</td><td class=\"path\">", f);
	html_esc(f, h->what);
	fputs("</td><td class=\"path\">", f);
	html_esc(f, h->match);
	fputs("</td></tr>\n", f);
	free(where);
}

static void group(FILE *f, const struct scan_view *v, const struct scan_group *g)
{
	size_t k;

	fputs("<section class=\"source\" data-source=\"", f);
	html_esc(f, g->source ? g->source : "");
	fputs("\" data-maintainer=\"", f);
	html_esc(f, g->maintainer ? g->maintainer : "");
	fprintf(f, "\" data-hits=\"%zu\">\n<h2>", g->n);
	if (g->source) {
		fputs("Source <span class=\"path\">", f);
		html_esc(f, g->source);
		fputs("</span>, maintainer ", f);
		html_esc(f, g->maintainer ? g->maintainer : "unknown");
	} else {
		fputs("In no package", f);
	}
	fputs("</h2>\n<table>\n<tr><th>Confidence</th><th>Package</th><th>Version</th><th>Where</th><th>What</th><th>Match</th></tr>\n",
	      f);
	for (k = g->first; k < g->first + g->n; k++)
		hit_row(f, &v->r->hits[v->order[k]]);
	fputs("</table>\n</section>\n", f);
}

void scan_print_html(const struct scan_view *v, FILE *f)
{
	const struct scan_result *r = v->r;
	size_t i;

	html_begin(f, "abidep scan");
	fprintf(f, "<h1>abidep scan</h1>\n<p id=\"totals\" data-hits=\"%zu\" data-files=\"%zu\" data-packages=\"%zu\" data-cached=\"%zu\" data-unreadable=\"%zu\">",
		r->nhits, v->nfiles, r->npackages, r->ncached, r->nunreadable);
	fprintf(f, "%zu hits in %zu files (%zu strong, %zu medium, %zu weak)", r->nhits, v->nfiles,
		v->conf[SCAN_STRONG], v->conf[SCAN_MEDIUM], v->conf[SCAN_WEAK]);
	if (v->packages)
		fprintf(f, "; %zu package files (%zu from the cache)", r->npackages, r->ncached);
	fprintf(f, "; %llu files, %llu bytes examined; %zu unreadable.</p>\n", r->files, r->bytes,
		r->nunreadable);
	for (i = 0; i < v->ng; i++)
		group(f, v, &v->g[i]);
	scan_html_unreadable(r, f);
	html_end(f);
}

void scan_html_unreadable(const struct scan_result *r, FILE *f)
{
	size_t i;

	if (!r->nunreadable)
		return;
	fputs("<h2>Unreadable</h2>\n<ul id=\"unreadable\">\n", f);
	for (i = 0; i < r->nunreadable; i++) {
		const struct scan_unreadable *u = &r->unreadable[i];

		fputs("<li><span class=\"path\">", f);
		html_esc(f, u->file);
		fputs("</span>: ", f);
		html_esc(f, u->why ? u->why : root_strerror(u->err));
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
}
