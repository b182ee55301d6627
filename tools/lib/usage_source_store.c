// SPDX-License-Identifier: GPL-2.0
/*
 * The usage store (store.h), an SQLite DB the tracer writes, as a source
 * of usage for abidep check (usage_source.h): opened read-only, read in
 * one read transaction.
 */
#include <stdio.h>
#include <stdlib.h>

#include "usage_source.h"
#include "util.h"

struct store_source {
	struct store *s;
	char *path;
};

static struct store *store_of(struct usage_source *src)
{
	return ((struct store_source *)src->priv)->s;
}

static int source_begin(struct usage_source *src)
{
	return store_begin(store_of(src));
}

static int source_end(struct usage_source *src, bool failed)
{
	if (!failed)
		return store_commit(store_of(src));
	store_rollback(store_of(src));
	return -1;
}

static int source_each_row_since(struct usage_source *src, long long since,
				 int (*fn)(const struct usage_row *r,
					   const struct usage_counts *recent, void *arg),
				 void *arg)
{
	return store_each_row_since(store_of(src), since, fn, arg);
}

static int source_each_session(struct usage_source *src,
			       int (*fn)(const struct usage_session *u, void *arg), void *arg)
{
	return store_each_session(store_of(src), fn, arg);
}

static int source_each_clock(struct usage_source *src,
			     int (*fn)(const struct usage_clock *c, void *arg), void *arg)
{
	return store_each_clock(store_of(src), fn, arg);
}

static int source_each_watched(struct usage_source *src,
			       int (*fn)(const struct usage_watched *w, void *arg), void *arg)
{
	return store_each_watched(store_of(src), fn, arg);
}

static bool source_has_days(struct usage_source *src)
{
	return store_has_days(store_of(src));
}

static int source_each_day(struct usage_source *src, const struct store_filter *f,
			   int (*fn)(const struct usage_day *d, void *arg), void *arg)
{
	return store_each_day(store_of(src), f, fn, arg);
}

static void source_error(struct usage_source *src, char *err, size_t errlen)
{
	struct store_source *ss = src->priv;

	snprintf(err, errlen, "the usage DB %s: %s; check it with 'sqlite3 %s \"PRAGMA integrity_check\"', and restore a copy or move it aside",
		 ss->path, store_errmsg(ss->s), ss->path);
}

static void source_close(struct usage_source *src)
{
	struct store_source *ss = src->priv;

	store_close(ss->s);
	free(ss->path);
	free(ss);
	src->priv = NULL;
}

static const struct usage_source_ops store_ops = {
	.begin = source_begin,
	.end = source_end,
	.each_row_since = source_each_row_since,
	.each_session = source_each_session,
	.each_clock = source_each_clock,
	.each_watched = source_each_watched,
	.has_days = source_has_days,
	.each_day = source_each_day,
	.error = source_error,
	.close = source_close,
};

int usage_source_store(struct usage_source *src, const char *path, char *err,
		       size_t errlen)
{
	struct store *s = store_open(path, true, err, errlen);
	struct store_source *ss;

	if (!s)
		return -1;
	ss = xcalloc(1, sizeof(*ss));
	ss->s = s;
	ss->path = xstrdup(path);
	src->ops = &store_ops;
	src->priv = ss;
	return 0;
}
