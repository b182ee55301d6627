// SPDX-License-Identifier: GPL-2.0
/*
 * Each boot's own clock in the store (schema 8: the clock table and the
 * _bt columns, store_schema.c). The tracer keeps the readings of both
 * clocks where a session's mapping moved (bootclock.h); every time of a
 * boot is placed by the boot's best mapping, and placed again, in the
 * transaction that brings a better one: a sync that sees the wall clock
 * stepped, or a merge that brings another copy's readings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "bootclock.h"
#include "store.h"
#include "store_internal.h"
#include "util.h"

/*
 * A boot's sessions on a host: ?1 the host, the session ids from ?2
 * ("<boot>:") up to ?3 ("<boot>;", ';' following ':'), so that the
 * primary key's index finds them.
 */
#define BOOT_SQL	" host = ?1 AND session >= ?2 AND session < ?3"

static sqlite3_stmt *prepare(struct store *s, const char *sql, const char *what)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL)) {
		store_db_fail(s, what);
		return NULL;
	}
	return st;
}

/*
 * Bind the boot of @session on @host to ?1 to ?3 (BOOT_SQL): its bounds
 * copied whole (a session id from a merged DB has no length limit).
 */
static int bind_boot(sqlite3_stmt *st, const char *host, const char *session)
{
	size_t n = usage_session_clock_boot_len(session);
	char *lo, *hi;
	int rc;

	lo = xasprintf("%.*s:", (int)n, session);
	hi = xasprintf("%.*s;", (int)n, session);
	rc = store_bind_text(st, 1, host) |
	     sqlite3_bind_text(st, 2, lo, -1, SQLITE_TRANSIENT) |
	     sqlite3_bind_text(st, 3, hi, -1, SQLITE_TRANSIENT);
	free(lo);
	free(hi);
	return rc;
}

/* The readings of @session's boot, by boottime, into *@out: how many, or -1. */
static int boot_readings(struct store *s, const char *host, const char *session,
			 struct clock_reading **out)
{
	static const char sql[] =
		"SELECT boottime, wall, synced FROM clock WHERE" BOOT_SQL " ORDER BY boottime";
	sqlite3_stmt *st = prepare(s, sql, "cannot read the clock's readings");
	int n = 0, cap = 0, rc;

	*out = NULL;
	if (!st)
		return -1;
	rc = bind_boot(st, host, session);
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct clock_reading *r = GROW(*out, n, cap);

		r->boottime = sqlite3_column_int64(st, 0);
		r->wall = sqlite3_column_int64(st, 1);
		r->synced = sqlite3_column_int(st, 2);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		store_db_fail(s, "cannot read the clock's readings");
		free(*out);
		*out = NULL;
		return -1;
	}
	return n;
}

/* The boot's best mapping, whole seconds, into *@mapping: 0; 1 none; -1. */
static int boot_mapping(struct store *s, const char *host, const char *session,
			long long *mapping)
{
	struct clock_reading *r;
	int n = boot_readings(s, host, session, &r), best;

	if (n < 0)
		return -1;
	best = clock_best(r, n);
	if (best >= 0)
		*mapping = clock_mapping(&r[best]);
	free(r);
	return best < 0;
}

/* The session's latest reading into @r: 0; 1 none; -1. */
static int latest_reading(struct store *s, const char *host, const char *session,
			  struct clock_reading *r)
{
	static const char sql[] =
		"SELECT boottime, wall, synced FROM clock WHERE host = ?1 AND session = ?2"
		" ORDER BY boottime DESC LIMIT 1";
	sqlite3_stmt *st;
	int rc;

	if (!s->clock_latest &&
	    sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s->clock_latest, NULL))
		return store_db_fail(s, "cannot read the clock's readings");
	st = s->clock_latest;
	rc = store_bind_text(st, 1, host) | store_bind_text(st, 2, session);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		r->boottime = sqlite3_column_int64(st, 0);
		r->wall = sqlite3_column_int64(st, 1);
		r->synced = sqlite3_column_int(st, 2);
	}
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_db_fail(s, "cannot read the clock's readings");
	return rc == SQLITE_DONE;
}

static int add_reading(struct store *s, const char *host, const char *session,
		       const struct clock_reading *r)
{
	static const char sql[] =
		"INSERT INTO clock (host, session, boottime, wall, synced)"
		" VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT DO NOTHING";
	sqlite3_stmt *st;

	if (!s->clock_add &&
	    sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s->clock_add, NULL))
		return store_db_fail(s, "cannot write a reading of the clock");
	st = s->clock_add;
	return store_step_write(s, st, store_bind_text(st, 1, host) |
				store_bind_text(st, 2, session) |
				sqlite3_bind_int64(st, 3, r->boottime) |
				sqlite3_bind_int64(st, 4, r->wall) |
				sqlite3_bind_int(st, 5, r->synced),
				"cannot write a reading of the clock");
}

int store_clock_note(struct store *s, const char *host, const char *session,
		     const struct clock_reading *r, long long *mapping)
{
	struct clock_reading last;
	int rc;

	if (s->readonly) {
		store_err(s, "the usage DB %s is open read-only", s->path);
		return -1;
	}
	if (!host || !session) {
		store_err(s, "a reading of the clock needs host and session");
		return -1;
	}
	rc = latest_reading(s, host, session, &last);
	if (rc < 0)
		return -1;
	if ((rc || (r->boottime > last.boottime && clock_moved(&last, r))) &&
	    add_reading(s, host, session, r))
		return -1;
	rc = boot_mapping(s, host, session, mapping);
	if (rc > 0) {
		store_err(s, "no reading of the clock for session %s", session);
		return -1;
	}
	return rc;
}

/*
 * Placing a boot's times by mapping ?4 (whole seconds): each table's
 * times from their boottimes; a row without one keeps its time (an older
 * abidep's: nothing can re-date it). The days move with their latest use
 * (usage_days.bt), through a temporary table: two days may become one.
 */
#define PLACE_SQL(BT)	"(" BT " / 1000000000 + ?4)"
#define DAY_SQL(BT)	"(" PLACE_SQL(BT) " - " PLACE_SQL(BT) " % 86400)"
#define SAT_SUM_SQL(C)							\
	" " C " = CASE WHEN excluded." C " > 9223372036854775807 - " C	\
	" THEN 9223372036854775807 ELSE " C " + excluded." C " END"

static const char *const redate_sql[] = {
	"UPDATE usage SET first_seen = " PLACE_SQL("first_bt") ","
	" last_seen = " PLACE_SQL("last_bt")
	" WHERE" BOOT_SQL " AND first_bt IS NOT NULL AND last_bt IS NOT NULL",
	"UPDATE sessions SET started = coalesce(" PLACE_SQL("started_bt") ", started),"
	" first_sync = coalesce(" PLACE_SQL("first_sync_bt") ", first_sync),"
	" last_sync = " PLACE_SQL("last_sync_bt") ","
	" lost_at = coalesce(" PLACE_SQL("lost_at_bt") ", lost_at),"
	" clock_offset = ?4"
	" WHERE" BOOT_SQL " AND last_sync_bt IS NOT NULL",
	"UPDATE watched SET since = " PLACE_SQL("since_bt") ","
	" last_sync = " PLACE_SQL("last_sync_bt")
	" WHERE" BOOT_SQL " AND since_bt IS NOT NULL AND last_sync_bt IS NOT NULL",
	"CREATE TEMP TABLE IF NOT EXISTS redated AS SELECT * FROM usage_days WHERE 0",
	"INSERT INTO temp.redated (host, session, path, op, uid, cgroup_id, exe, day, what,"
	" count, errors, swept, bt)"
	" SELECT host, session, path, op, uid, cgroup_id, exe, " DAY_SQL("bt") ", what,"
	" count, errors, swept, bt FROM usage_days"
	" WHERE" BOOT_SQL " AND bt IS NOT NULL AND day != " DAY_SQL("bt"),
	"DELETE FROM usage_days"
	" WHERE" BOOT_SQL " AND bt IS NOT NULL AND day != " DAY_SQL("bt"),
	/* "WHERE true": an upsert's SELECT must not end in a bare FROM. */
	"INSERT INTO usage_days (host, session, path, op, uid, cgroup_id, exe, day, what,"
	" count, errors, swept, bt)"
	" SELECT host, session, path, op, uid, cgroup_id, exe, day, what, count, errors,"
	" swept, bt FROM temp.redated WHERE true"
	" ON CONFLICT (host, session, path, op, uid, cgroup_id, exe, day) DO UPDATE SET"
	SAT_SUM_SQL("count") "," SAT_SUM_SQL("errors") "," SAT_SUM_SQL("swept") ","
	" what = coalesce(what, excluded.what), bt = max(bt, excluded.bt)",
	"DELETE FROM temp.redated",
};

/* Run redate_sql[] for the boot of @session on @host, by @mapping. */
static int redate(struct store *s, const char *host, const char *session, long long mapping)
{
	sqlite3_stmt *st;
	size_t i;
	int rc;

	for (i = 0; i < sizeof(redate_sql) / sizeof(redate_sql[0]); i++) {
		st = prepare(s, redate_sql[i], "cannot place the boot's times");
		if (!st)
			return -1;
		rc = SQLITE_OK;
		if (sqlite3_bind_parameter_count(st))
			rc = bind_boot(st, host, session) |
			     sqlite3_bind_int64(st, 4, mapping);
		rc = store_step_write(s, st, rc, "cannot place the boot's times");
		sqlite3_finalize(st);
		if (rc)
			return -1;
	}
	s->days_written = true;
	return 0;
}

/* Does a session of the boot (with boottimes) have times placed by another mapping? */
static int misplaced(struct store *s, const char *host, const char *session, long long mapping)
{
	static const char sql[] =
		"SELECT EXISTS (SELECT 1 FROM sessions WHERE" BOOT_SQL
		" AND last_sync_bt IS NOT NULL AND clock_offset IS NOT ?4)";
	sqlite3_stmt *st = prepare(s, sql, "cannot read the sessions");
	int rc, yes = 0;

	if (!st)
		return -1;
	rc = bind_boot(st, host, session) | sqlite3_bind_int64(st, 4, mapping);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		yes = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return store_db_fail(s, "cannot read the sessions");
	return yes;
}

int store_clock_redate(struct store *s, const char *host, const char *session, bool force)
{
	long long mapping;
	int rc;

	if (s->readonly) {
		store_err(s, "the usage DB %s is open read-only", s->path);
		return -1;
	}
	rc = boot_mapping(s, host, session, &mapping);
	if (rc)
		return rc < 0 ? -1 : 0;	/* no reading: nothing to place by */
	rc = force ? 1 : misplaced(s, host, session, mapping);
	return rc > 0 ? redate(s, host, session, mapping) : rc;
}

static int clock_row(struct store *s, sqlite3_stmt *st, const struct store_walk *w)
{
	struct usage_clock c = {
		.host = (const char *)sqlite3_column_text(st, 0),
		.session = (const char *)sqlite3_column_text(st, 1),
		.r = {
			.boottime = sqlite3_column_int64(st, 2),
			.wall = sqlite3_column_int64(st, 3),
			.synced = sqlite3_column_int(st, 4),
		},
	};

	if (!c.host || !c.session)
		return store_keyless(s, "a reading of the clock");
	return w->clock(&c, w->arg);
}

int store_each_clock(struct store *s,
		     int (*fn)(const struct usage_clock *c, void *arg), void *arg)
{
	static const char sql[] =
		"SELECT host, session, boottime, wall, synced FROM clock"
		" ORDER BY host, session, boottime";
	struct store_walk w = { .call = clock_row, .clock = fn, .arg = arg };

	return store_walk(s, s->no_clock || s->no_sessions ? NULL : sql, NULL, &w);
}

int store_merge_clock(struct store *s, const struct usage_clock *c)
{
	if (s->readonly) {
		store_err(s, "the usage DB %s is open read-only", s->path);
		return -1;
	}
	if (!c->host || !c->session) {
		store_err(s, "a reading of the clock needs host and session");
		return -1;
	}
	return add_reading(s, c->host, c->session, &c->r);
}
