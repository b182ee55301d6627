/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where abidep check's evaluation (check_eval.c, check_watch.c) takes its
 * usage from: a source's operations, in the record types of the usage
 * store (store.h). The SQLite store is one source (usage_source_store.c);
 * another (say, a scan of package files) is a new file that fills a
 * struct usage_source, not a copy of the evaluation.
 *
 * The evaluation calls begin(), then the walks it needs, then end(): what
 * it reads in between is one snapshot of the source. A walk calls its
 * @fn for each record (valid during the call only), in the order its
 * comment gives; a non-zero return of @fn stops it and is returned, and
 * -1 is an error of the source (error() says it).
 */
#ifndef ABIDEP_USAGE_SOURCE_H
#define ABIDEP_USAGE_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

#include "store.h"

struct usage_source;

struct usage_source_ops {
	int (*begin)(struct usage_source *src);
	/*
	 * End the snapshot: @failed, a walk failed (nothing to keep); 0, or
	 * -1 on an error of the source.
	 */
	int (*end)(struct usage_source *src, bool failed);
	/*
	 * Every row (per host, session, path, op, uid, cgroup, exe; ordered
	 * by host), each with @recent: its uses on the days (UTC) that
	 * overlap [@since, now], NULL when the source cannot tell (as
	 * store_each_row_since()).
	 */
	int (*each_row_since)(struct usage_source *src, long long since,
			      int (*fn)(const struct usage_row *r,
					const struct usage_counts *recent, void *arg),
			      void *arg);
	/* Every tracer session, ordered by host, then start (store_each_session()). */
	int (*each_session)(struct usage_source *src,
			    int (*fn)(const struct usage_session *u, void *arg), void *arg);
	/* The readings of the sessions' clocks, by host, session, boottime (store_each_clock()). */
	int (*each_clock)(struct usage_source *src,
			  int (*fn)(const struct usage_clock *c, void *arg), void *arg);
	/* What each session watched, ordered by host, then since (store_each_watched()). */
	int (*each_watched)(struct usage_source *src,
			    int (*fn)(const struct usage_watched *w, void *arg), void *arg);
	/* Does it keep a daily history; each day's use, as store_each_day(). */
	bool (*has_days)(struct usage_source *src);
	int (*each_day)(struct usage_source *src, const struct store_filter *f,
			int (*fn)(const struct usage_day *d, void *arg), void *arg);
	/* Why the last operation failed, and what to do, into @err. */
	void (*error)(struct usage_source *src, char *err, size_t errlen);
	void (*close)(struct usage_source *src);
};

struct usage_source {
	const struct usage_source_ops *ops;
	void *priv;			/* the source's own */
};

/*
 * The usage DB at @path, opened read-only, as a source; -1 with a message
 * in @err. src->ops->close() closes it.
 */
int usage_source_store(struct usage_source *src, const char *path, char *err,
		       size_t errlen);

struct prom_options;

/*
 * The series a fleet's hosts export to the Prometheus server at @url
 * (usage_source_prom.c), read as of unix time @now, asked as @o says
 * (prom_api.h: its bounds); -1 with a message in @err for a URL that
 * cannot be used. Its failures (error()) name the server, never its
 * credentials.
 */
int usage_source_prom(struct usage_source *src, const char *url, const struct prom_options *o,
		      long long now, char *err, size_t errlen);

#endif
