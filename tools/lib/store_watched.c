// SPDX-License-Identifier: GPL-2.0
/*
 * What each tracer session watched (schema 6's watched table, and the
 * sessions' host_id), and the host keys of DBs written before them.
 * store_schema.c describes the table; abidep check reads it to judge an
 * entry only for the time its files were watched (check_eval.c).
 */
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "store.h"
#include "store_internal.h"

static sqlite3_stmt *prepared(struct store *s, sqlite3_stmt **st, const char *sql)
{
	if (!*st && sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, st, NULL))
		store_db_fail(s, "cannot write what the tracer watched");
	return *st;
}

/*
 * The latest run of (host, session, what) goes on to @now when it is in
 * the same state (watched or not); else a new run starts at @now. ?6 is
 * @now's boottime (NULL: unknown).
 */
static const char run_sql[] =
	"UPDATE watched SET last_sync = max(last_sync, ?4), files = ?5,"
	" last_sync_bt = coalesce(max(last_sync_bt, ?6), last_sync_bt, ?6)"
	" WHERE host = ?1 AND session = ?2 AND what = ?3 AND (files > 0) = (?5 > 0)"
	" AND since = (SELECT max(since) FROM watched"
	" WHERE host = ?1 AND session = ?2 AND what = ?3)";
static const char new_run_sql[] =
	"INSERT INTO watched (host, session, what, since, last_sync, files, since_bt,"
	" last_sync_bt) VALUES (?1, ?2, ?3, ?4, ?4, ?5, ?6, ?6)"
	" ON CONFLICT DO UPDATE SET files = excluded.files";

/* A boottime, or NULL when not known. */
static int bind_bt(sqlite3_stmt *st, int i, long long bt)
{
	return bt > STORE_NO_BT ? sqlite3_bind_int64(st, i, bt) : sqlite3_bind_null(st, i);
}

static int bind_run(sqlite3_stmt *st, const char *host, const char *session,
		    const char *what, const struct store_when *now, long long files)
{
	return store_bind_text(st, 1, host) | store_bind_text(st, 2, session) | store_bind_text(st, 3, what) |
	       sqlite3_bind_int64(st, 4, now->wall) | sqlite3_bind_int64(st, 5, files) |
	       bind_bt(st, 6, now->bt);
}

int store_session_watched(struct store *s, const char *host, const char *session,
			  const struct store_session_info *si, const struct store_when *now,
			  const struct store_watch *w, int n)
{
	/*
	 * A pin (?6 its time, ?7 its boottime when known) before the
	 * session's start. By the boottimes when both are known: the times
	 * are whole seconds, and a pin and its first sync can share one.
	 */
#define PIN_EARLIER_SQL							\
	"(CASE WHEN ?7 IS NOT NULL AND started_bt IS NOT NULL THEN ?7 < started_bt"	\
	" ELSE ?6 > 0 AND ?6 < started END)"
	static const char id_sql[] =
		"UPDATE sessions SET host_id = ?3, stage = coalesce(stage, ?4),"
		" boot_offset = coalesce(boot_offset, ?5),"
		" started_bt = CASE WHEN " PIN_EARLIER_SQL " AND ?7 IS NOT NULL"
		" THEN ?7 ELSE started_bt END,"
		" started = CASE WHEN " PIN_EARLIER_SQL " AND ?6 > 0"
		" THEN min(?6, started) ELSE started END"
		" WHERE host = ?1 AND session = ?2";
#undef PIN_EARLIER_SQL
	sqlite3_stmt *id, *run, *add;
	int i, rc;

	if (s->readonly || !host || !session) {
		store_err(s, s->readonly ? "the usage DB is open read-only" :
			  "a watched row needs host and session");
		return -1;
	}
	if (sqlite3_prepare_v2(s->db, id_sql, -1, &id, NULL))
		return store_db_fail(s, "cannot write a session row");
	rc = store_step_write(s, id, store_bind_text(id, 1, host) | store_bind_text(id, 2, session) |
		  store_bind_text(id, 3, si->host_id) | store_bind_text(id, 4, si->stage) |
		  (si->boot_offset < 0 ? sqlite3_bind_null(id, 5) :
		   sqlite3_bind_int64(id, 5, si->boot_offset)) |
		  sqlite3_bind_int64(id, 6, si->pinned.wall) | bind_bt(id, 7, si->pinned.bt),
		  "cannot write a session row");
	sqlite3_finalize(id);
	run = prepared(s, &s->watched_run, run_sql);
	add = prepared(s, &s->watched_new, new_run_sql);
	if (rc || !run || !add)
		return -1;
	for (i = 0; i < n; i++) {
		const char *what = w[i].what;

		if (store_step_write(s, run, bind_run(run, host, session, what, now, w[i].files),
			 "cannot write what the tracer watched"))
			return -1;
		if (!sqlite3_changes(s->db) &&
		    store_step_write(s, add, bind_run(add, host, session, what, now, w[i].files),
			 "cannot write what the tracer watched"))
			return -1;
	}
	return 0;
}

int store_merge_watched(struct store *s, const struct usage_watched *w)
{
	static const char sql[] =
		"INSERT INTO watched (host, session, what, since, last_sync, files, since_bt,"
		" last_sync_bt) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
		" ON CONFLICT DO UPDATE SET"
		" files = CASE WHEN excluded.last_sync > last_sync THEN excluded.files ELSE files END,"
		" last_sync = max(last_sync, excluded.last_sync),"
		" since_bt = coalesce(since_bt, excluded.since_bt),"
		" last_sync_bt = coalesce(max(last_sync_bt, excluded.last_sync_bt), last_sync_bt,"
		" excluded.last_sync_bt)";
	sqlite3_stmt *st;
	int rc;

	if (!w->host || !w->session || !w->what) {
		store_err(s, "a watched row needs host, session and what");
		return -1;
	}
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL))
		return store_db_fail(s, "cannot write what the tracer watched");
	rc = store_bind_text(st, 1, w->host) | store_bind_text(st, 2, w->session) |
	     store_bind_text(st, 3, w->what) | sqlite3_bind_int64(st, 4, w->since) |
	     sqlite3_bind_int64(st, 5, w->last_sync) | sqlite3_bind_int64(st, 6, w->files) |
	     bind_bt(st, 7, w->since_bt) | bind_bt(st, 8, w->last_sync_bt);
	rc = store_step_write(s, st, rc, "cannot write what the tracer watched");
	sqlite3_finalize(st);
	return rc;
}

/*
 * The runs, and (what NULL, files 0) the sessions written before schema 6
 * (no host_id: every tracer since sets it, in the sync that records its
 * runs), which recorded none; one order for both, the hosts' as
 * store_each_session()'s. A session of today with no run watched nothing.
 */
#define WATCHED_SQL(BT, SESSION_BT)					\
	"SELECT host, session, what, since, last_sync, files, " BT " FROM watched"	\
	" UNION ALL"							\
	" SELECT host, session, NULL, started, last_sync, 0, " SESSION_BT " FROM sessions"	\
	" WHERE host_id IS NULL"					\
	" ORDER BY 1, 4, 3"

/* Schema 8; 6 and 7 (read-only: no boottimes); older (no watched table). */
static const char *const watched_sql[] = {
	WATCHED_SQL("since_bt, last_sync_bt", "started_bt, last_sync_bt"),
	WATCHED_SQL("NULL, NULL", "NULL, NULL"),
	"SELECT host, session, NULL, started, last_sync, 0, NULL, NULL FROM sessions"
	" ORDER BY 1, 4",
};

static int watched_row(struct store *s, sqlite3_stmt *st, const struct store_walk *w)
{
	struct usage_watched u = {
		.host = (const char *)sqlite3_column_text(st, 0),
		.session = (const char *)sqlite3_column_text(st, 1),
		.what = (const char *)sqlite3_column_text(st, 2),
		.since = sqlite3_column_int64(st, 3),
		.last_sync = sqlite3_column_int64(st, 4),
		.files = sqlite3_column_int64(st, 5),
		.since_bt = sqlite3_column_int64(st, 6),	/* NULL: STORE_NO_BT */
		.last_sync_bt = sqlite3_column_int64(st, 7),
	};

	if (!u.host || !u.session)
		return store_keyless(s, "a watched row");
	return w->watched(&u, w->arg);
}

int store_each_watched(struct store *s,
		       int (*fn)(const struct usage_watched *w, void *arg), void *arg)
{
	struct store_walk w = { .call = watched_row, .watched = fn, .arg = arg };

	return store_walk(s, s->no_sessions ? NULL :
			  watched_sql[s->no_watched ? 2 : s->no_clock], NULL, &w);
}

/*
 * Keys without an id (no '/': a host name never has one) are those of
 * sessions written before schema 6 (of rows, in a DB without sessions). When all of them are @name, the DB is
 * this host's own from before: its rows become @key, in one transaction.
 * A DB with several such names (a fleet's) keeps them as they are.
 */
int store_adopt_host(struct store *s, const char *name, const char *key)
{
	/* A schema 1 DB's rows have no sessions: their hosts then. */
	static const char names_sql[] =
		"SELECT count(DISTINCT host), min(host) FROM (SELECT host FROM sessions"
		" UNION ALL SELECT host FROM usage WHERE NOT EXISTS (SELECT 1 FROM sessions))"
		" WHERE instr(host, '/') = 0";
	static const char *const tables[] = {
		"usage", "usage_days", "sessions", "watched", "clock",
	};
	const char *legacy;
	sqlite3_stmt *st;
	bool ours;
	char sql[128];
	size_t i;
	int rc;

	if (sqlite3_prepare_v2(s->db, names_sql, -1, &st, NULL))
		return store_db_fail(s, "cannot read the sessions");
	rc = sqlite3_step(st);
	legacy = (const char *)sqlite3_column_text(st, 1);
	ours = rc == SQLITE_ROW && sqlite3_column_int64(st, 0) == 1 && legacy &&
	       !strcmp(legacy, name);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return store_db_fail(s, "cannot read the sessions");
	if (!ours)
		return 0;
	if (store_exec(s, "BEGIN IMMEDIATE"))
		return -1;
	for (i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		/* OR IGNORE: a row of the new key for the same session wins. */
		snprintf(sql, sizeof(sql), "UPDATE OR IGNORE %s SET host = ?2 WHERE host = ?1",
			 tables[i]);
		if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL)) {
			store_db_fail(s, "cannot rekey the host's rows");
			goto rollback;
		}
		rc = store_step_write(s, st, store_bind_text(st, 1, name) | store_bind_text(st, 2, key),
			  "cannot rekey the host's rows");
		sqlite3_finalize(st);
		if (rc)
			goto rollback;
	}
	if (!store_exec(s, "COMMIT"))
		return 1;
rollback:
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}
