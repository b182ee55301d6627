/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The usage store's insides, shared by store.c (rows and sessions),
 * store_watched.c (what sessions watched) and store_schema.c (the schema
 * and its upgrades). Not for other files: they use store.h.
 */
#ifndef ABIDEP_STORE_INTERNAL_H
#define ABIDEP_STORE_INTERNAL_H

#include <stdbool.h>

#include <sqlite3.h>

#include "store.h"

struct store {
	sqlite3 *db;
	sqlite3_stmt *upsert;
	sqlite3_stmt *day;	/* store_upsert()'s daily history */
	sqlite3_stmt *merge_day;	/* prepared on the first store_merge_day() */
	sqlite3_stmt *merge;	/* prepared on the first store_merge_row() */
	sqlite3_stmt *row_counts;	/* on the first store_add() */
	sqlite3_stmt *session;	/* prepared on the first store_session() */
	sqlite3_stmt *merge_session;	/* on the first store_merge_session() */
	sqlite3_stmt *watched_run;	/* store_watched()'s: the run goes on... */
	sqlite3_stmt *watched_new;	/* ...or a new one starts */
	sqlite3_stmt *clock_latest;	/* store_clock_note()'s: the session's latest reading */
	sqlite3_stmt *clock_add;	/* ...and a new one */
	char *path;
	bool readonly;
	bool empty;		/* read-only, and no schema yet: no rows */
	bool no_sessions;	/* read-only schema 1: no sessions table */
	bool no_swept;		/* read-only schema 1 or 2: no usage.swept */
	bool no_days;		/* read-only schema 1 to 3: no usage_days */
	bool no_lost;		/* read-only schema 1 to 4: no sessions.unrecorded... */
	bool no_watched;	/* read-only schema 1 to 5: no sessions.host_id, no watched */
	bool no_first_sync;	/* read-only schema 1 to 6: no sessions.first_sync */
	bool no_clock;		/* read-only schema 1 to 7: no clock table, no _bt columns */
	bool days_written;	/* in this transaction: prune at its commit */
	int rc;			/* of the last failure: SQLITE_* */
	char err[512];		/* its message, for store_errmsg() */
};


void store_err(struct store *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int store_db_fail(struct store *s, const char *what);
int store_exec(struct store *s, const char *sql);
long long store_query_int(struct store *s, const char *sql);
int store_check_schema(struct store *s);
/* Bind @v, or NULL when it is. */
int store_bind_text(sqlite3_stmt *st, int i, const char *v);
/* Step a write whose bindings gave @rc; reset it: 0, or -1 with @what. */
int store_step_write(struct store *s, sqlite3_stmt *st, int rc, const char *what);

/*
 * A read (store_walk()): call() makes the row at @st the struct of the
 * one callback the reader set, and calls it with arg.
 */
struct store_walk {
	int (*call)(struct store *s, sqlite3_stmt *st, const struct store_walk *w);
	int (*file)(const struct usage_file *f, void *arg);
	int (*sum)(const struct usage_sum *u, void *arg);
	int (*day)(const struct usage_day *d, void *arg);
	int (*usage)(const struct usage_row *r, void *arg);
	int (*since)(const struct usage_row *r, const struct usage_counts *recent,
		     void *arg);
	int (*day_row)(const struct usage_day_row *d, void *arg);
	int (*session)(const struct usage_session *u, void *arg);
	int (*boot)(const struct usage_boot *b, void *arg);
	int (*watched)(const struct usage_watched *w, void *arg);
	int (*clock)(const struct usage_clock *c, void *arg);
	void *arg;
};

/* Run the read @sql, @f bound, @w called per row: as store_files() returns. */
int store_walk(struct store *s, const char *sql, const struct store_filter *f,
	       const struct store_walk *w);
/* Say that @what ("a row") read from the DB lacks its key: -1. */
int store_keyless(struct store *s, const char *what);

#endif /* ABIDEP_STORE_INTERNAL_H */
