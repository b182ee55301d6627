// SPDX-License-Identifier: GPL-2.0
/*
 * The result of a scan, of a root (scan_tree.c) or of package files
 * (scan_pkgs.c): hits and unreadable files added, sorted and freed here.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scan.h"
#include "scan_int.h"
#include "util.h"

#define MAX_THREADS	8

int scan_thread_count(const struct scan_opts *opts)
{
	int n = opts->threads;

	if (n <= 0) {
		long c = sysconf(_SC_NPROCESSORS_ONLN);

		n = c > 0 ? (int)c : 1;
	}
	return n > MAX_THREADS ? MAX_THREADS : n;
}

void scan_add_hit(struct scan_result *res, const struct scan_whit *h, const char *file,
		  const char *pkg, const char *version, const struct pkg_meta *meta,
		  const char *archive)
{
	struct scan_hit *o = GROW(res->hits, res->nhits, res->hcap);

	o->file = file;
	o->line = h->line;
	o->offset = h->offset;
	o->entry = h->cand->entry;
	o->what = h->cand->what;
	o->match = h->match;
	o->confidence = h->conf;
	o->package = pkg;
	o->package_version = version;
	o->pkg = meta;
	o->archive = archive;
}

void scan_add_unreadable(struct scan_result *res, const char *file, int err,
			 const char *why)
{
	struct scan_unreadable *u = GROW(res->unreadable, res->nunreadable, res->ucap);

	u->file = file;
	u->err = err;
	u->why = why;
}

static int str0_cmp(const char *a, const char *b)
{
	if (!a || !b)
		return !a - !b;
	return strcmp(a, b);
}

static int hit_cmp(const void *a, const void *b)
{
	const struct scan_hit *x = a, *y = b;
	int c = str0_cmp(x->archive, y->archive);

	if (c)
		return c;
	c = strcmp(x->file, y->file);
	if (c)
		return c;
	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	if (x->entry != y->entry)
		return x->entry < y->entry ? -1 : 1;
	return 0;
}

static int unread_cmp(const void *a, const void *b)
{
	return strcmp(((const struct scan_unreadable *)a)->file,
		      ((const struct scan_unreadable *)b)->file);
}

void scan_result_sort(struct scan_result *res)
{
	if (res->nhits)
		qsort(res->hits, res->nhits, sizeof(*res->hits), hit_cmp);
	if (res->nunreadable)
		qsort(res->unreadable, res->nunreadable, sizeof(*res->unreadable),
		      unread_cmp);
}

void scan_result_free(struct scan_result *res)
{
	struct scan_priv *priv = res->priv;

	if (priv) {
		scan_arena_free(&priv->strs);
		free(priv);
	}
	free(res->hits);
	free(res->unreadable);
	free(res->packages);
	memset(res, 0, sizeof(*res));
}

const char *scan_confidence_name(enum scan_confidence c)
{
	switch (c) {
	case SCAN_NONE: break;
	case SCAN_WEAK: return "weak";
	case SCAN_MEDIUM: return "medium";
	case SCAN_STRONG: return "strong";
	}
	return "?";
}
