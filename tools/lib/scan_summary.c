// SPDX-License-Identifier: GPL-2.0
/*
 * abidep scan --by-package: the hits of a scan summed per package, for
 * "which of our packages reference deprecated files?" (scan_summary.h).
 */
#include <stdlib.h>
#include <string.h>

#include "scan_summary.h"
#include "util.h"

static int str0_cmp(const char *a, const char *b)
{
	if (!a || !b)
		return !a - !b;		/* NULL last */
	return strcmp(a, b);
}

/* A package's hits together, the unowned last; within it, as the scan sorted them. */
static int row_cmp(const void *a, const void *b)
{
	const struct scan_hit *p = *(const struct scan_hit *const *)a;
	const struct scan_hit *q = *(const struct scan_hit *const *)b;
	int c = str0_cmp(p->package, q->package);

	if (!c)
		c = str0_cmp(p->package_version, q->package_version);
	if (!c)
		c = str0_cmp(p->archive, q->archive);
	/* One array: the address is the scan's order. */
	return c ? c : (p > q) - (p < q);
}

static bool same_row(const struct scan_hit *p, const struct scan_hit *q)
{
	return !str0_cmp(p->package, q->package) &&
	       !str0_cmp(p->package_version, q->package_version) &&
	       !str0_cmp(p->archive, q->archive);
}

static int what_cmp(const void *a, const void *b)
{
	const struct scan_hit *p = *(const struct scan_hit *const *)a;
	const struct scan_hit *q = *(const struct scan_hit *const *)b;

	return strcmp(p->what, q->what);
}

/* The distinct Whats of @n hits (@h: sorted in place by What). */
static void add_whats(struct scan_sum_row *row, const struct scan_hit **h, size_t n)
{
	size_t i, cap = 0;

	qsort(h, n, sizeof(*h), what_cmp);
	for (i = 0; i < n; i++) {
		struct scan_sum_what *w = row->nwhats ? &row->whats[row->nwhats - 1] : NULL;

		if (!w || strcmp(w->what, h[i]->what)) {
			w = GROW(row->whats, row->nwhats, cap);
			w->what = h[i]->what;
			w->entry = h[i]->entry;
			w->best = SCAN_WEAK;
		}
		w->hits++;
		if (h[i]->confidence > w->best)
			w->best = h[i]->confidence;
	}
}

/* The row of the @n hits at @h, one package's in file order (@h: reordered). */
static void fill_row(struct scan_sum_row *row, const struct scan_hit **h, size_t n)
{
	size_t i;

	row->package = h[0]->package;
	row->version = h[0]->package_version;
	row->pkg = h[0]->pkg;
	row->archive = h[0]->archive;
	for (i = 0; i < n; i++) {
		row->hits++;
		if (h[i]->confidence >= SCAN_WEAK && h[i]->confidence <= SCAN_STRONG)
			row->conf[h[i]->confidence]++;
		/* In file order within a row: a new name is a new file. */
		if (!i || strcmp(h[i]->file, h[i - 1]->file))
			row->files++;
	}
	add_whats(row, h, n);
}

void scan_summary_build(struct scan_summary *s, const struct scan_result *r)
{
	const struct scan_hit **h;
	size_t i, first, cap = 0;

	memset(s, 0, sizeof(*s));
	if (!r->nhits)
		return;
	h = xcalloc(r->nhits, sizeof(*h));
	for (i = 0; i < r->nhits; i++)
		h[i] = &r->hits[i];
	qsort(h, r->nhits, sizeof(*h), row_cmp);
	for (first = 0, i = 1; i <= r->nhits; i++) {
		struct scan_sum_row *row;

		if (i < r->nhits && same_row(h[i], h[first]))
			continue;
		row = GROW(s->rows, s->n, cap);
		fill_row(row, h + first, i - first);
		if (row->package)
			s->nowned++;
		else
			s->unowned_files = row->files;
		first = i;
	}
	free(h);
}

void scan_summary_free(struct scan_summary *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->rows[i].whats);
	free(s->rows);
	memset(s, 0, sizeof(*s));
}
