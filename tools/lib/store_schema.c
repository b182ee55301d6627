// SPDX-License-Identifier: GPL-2.0
/*
 * The usage store's schema, and every upgrade from a schema an older abidep
 * wrote: the one place that knows the versions (store.c reads and writes
 * rows of the current one).
 *
 * Schema (PRAGMA user_version 8):
 *
 *	CREATE TABLE usage (
 *		host, session, path, op, uid, cgroup_id, exe	the key
 *		what, table_name, status			the table entry
 *		cgroup, comm, pid, ppid				first known
 *		count, errors, first_seen, last_seen, swept	the counts
 *		first_bt, last_bt				its times' boottimes
 *		PRIMARY KEY (host, session, path, op, uid, cgroup_id, exe))
 *	CREATE INDEX usage_by_what ON usage (what, exe, uid, cgroup, op, host)
 *	CREATE TABLE sessions (
 *		host, session, started, last_sync
 *		unrecorded, skipped, lost_at			what it lost
 *		drained						its last map written
 *		host_id						its key's id: from where
 *		stage, boot_offset				how early it began
 *		first_sync					its first sync's time
 *		started_bt, first_sync_bt, last_sync_bt,	its times' boottimes
 *		lost_at_bt, clock_offset			...and their mapping
 *		seq						its place in the host's order
 *		PRIMARY KEY (host, session))
 *	CREATE TABLE usage_days (
 *		host, session, path, op, uid, cgroup_id, exe	usage's key
 *		day, what, count, errors, swept
 *		bt						its latest use's boottime
 *		PRIMARY KEY (host, session, path, op, uid, cgroup_id, exe, day))
 *		WITHOUT ROWID
 *	CREATE INDEX usage_days_by_day ON usage_days (day)
 *	CREATE TABLE watched (
 *		host, session, what				a session's What
 *		since, last_sync, files				a run of its syncs
 *		since_bt, last_sync_bt				their boottimes
 *		PRIMARY KEY (host, session, what, since))
 *		WITHOUT ROWID
 *	CREATE TABLE clock (
 *		host, session, boottime				a session's reading
 *		wall, synced					of both clocks
 *		PRIMARY KEY (host, session, boottime))
 *		WITHOUT ROWID
 *
 * A row is what one tracer load (a session: boot id and map id) has counted
 * for one key. A pinned tracer's sync adds what the session counted since
 * the sync before (store_add()); a live tracer's, or one an older abidep
 * pinned, gives the session's totals, which replace the row's
 * (store_upsert()); several sessions (reboots, restarts) are summed by the
 * reader. The column for the struct's "table" is table_name: TABLE is
 * an SQL keyword. cgroup_id is stored as the signed 64-bit integer with the
 * same bits; times are unix seconds (UTC).
 *
 * sessions says when each tracer session ran: its first and its latest
 * sync, written by every sync whether or not it has usage rows. The usage
 * table alone records uses, not when the tracer ran, so it cannot tell a
 * quiet host from a tracer stopped long ago; abidep check needs that.
 * Schema 1 had no sessions table: a writer opening such a DB adds it (and
 * sets user_version 2) in one transaction; a reader takes it as it is and
 * reads no sessions from it.
 *
 * swept (schema 3) is how many of count were made within a sweep: the
 * program had opened most of the files of the directory its process
 * group, or its parent's, had listed (the tracer's signal of an enumerator, udevadm info
 * -a or tar, as against a program that opens the file by name). It is last
 * so that a new DB and one upgraded by ALTER TABLE ADD COLUMN have the
 * same columns in the same order. Schema 2 lacked it: a writer adds it,
 * 0 in every older row (nothing told sweeps apart when they were counted,
 * so their uses stay uses by name); a reader reads it as 0.
 *
 * usage_days (schema 4) is the daily history: per usage key and session,
 * the uses made on each day (day: unix seconds of its 00:00 UTC; what as
 * in the usage row). store_upsert() writes it with the row, in the
 * caller's transaction: the growth of count, errors and swept over the row
 * it replaces, on the day of the row's last_seen. It keeps the last
 * STORE_HISTORY_DAYS days before the newest (store.c); the usage table's
 * totals keep what is older. Schema 3 lacked it: a writer adds it, empty
 * (the history starts then, the rows already there have none); a reader
 * reads no days (no_days) and counts by session, as before.
 *
 * unrecorded, skipped and lost_at (schema 5) are what a session could not
 * count: the accesses its tracer saw but could not record (usage map
 * full), and the runs of its programs the kernel skipped (each one an
 * access perhaps not seen); both as its latest sync read them (cumulative
 * within the session), and lost_at the sync that first saw them at their
 * latest values (unix seconds; NULL while both are 0): the loss happened
 * after the sync before it. abidep check takes a session with a loss in
 * the quiet window as not covering it. Schema 4 lacked them: a writer adds
 * them, 0 and NULL in every older session (those losses were printed, not
 * kept); a reader reads them so (no_lost). drained (schema 5) is the id
 * of the last usage map a sync of the session added to the DB (a tracer
 * that empties its map at each sync, trace_sync.c): a sync killed after
 * its commit finds it there and adds none of that map twice. NULL: none.
 *
 * host_id (schema 6) says where the session's host key (the host column of
 * every table: "NAME/ID", hostid.c) took its ID from: "machine-id", or
 * "boot-id" on a host without one. NULL: a session written before, keyed
 * by the host name alone. watched (schema 6) is what each session watched:
 * per What of its tables, the runs of syncs at which the tracer found the
 * same state, files > 0 (that many files watched, at the run's latest
 * sync) or 0 (it looked, and no file matched); since and last_sync are the
 * run's first and latest sync. A session without host_id (an older
 * tracer's) recorded no watched set: abidep check says so; one with it and
 * no run watched nothing. stage
 * (schema 6) is how early in its boot the session began: "initramfs",
 * "early" (before systemd-udevd started), "late"; boot_offset the seconds
 * from boot to then (trace_stage.c); NULL: unknown. Schema 5 lacked them
 * all: a writer adds them (NULL, watched empty); a reader reads them as
 * NULL and no watched row (no_watched).
 *
 * first_sync (schema 7) is when the session's row was first written: its
 * first sync (store_session() sets it on insert only). started is not
 * that: a pin earlier than the first sync becomes the session's start
 * (store_session_watched()), and so do the pin's watched runs (trace
 * --pin --early writes no DB: its first sync may come seconds after
 * udev's coldplug). A use first seen before first_sync, in a session begun
 * early, was made during boot (store_boot_uses()), and a What whose first
 * watched run after the pin's begins by first_sync had files the pin did
 * not watch (abidep check). For a live tracer, or a pin with its DB, it is
 * started. Schema 6 lacked it: a writer adds it, NULL in every older
 * session (its first sync unknown: the readers fall back on its earliest
 * watched run); a reader reads it as NULL (no_first_sync).
 *
 * The clock table and the _bt columns (schema 8) keep every time the
 * tracer stores on its boot's own clock (bootclock.h): CLOCK_BOOTTIME in
 * nanoseconds, which nobody sets, with the readings of both clocks that
 * map it to wall time (a session's first, and each where the mapping
 * moved: a step of the wall clock, or its synchronization). The unix
 * times beside them (first_seen, started, since, day...) are those
 * boottimes placed by the boot's best mapping, and store_clock.c places
 * them again when a better one comes; sessions.clock_offset is the
 * mapping (whole seconds) they are placed by. sessions.seq numbers a
 * host's sessions in the order of their first syncs (1, 2, ...), which a
 * wall clock cannot reorder: check takes two boots placed out of it for
 * a wrong clock. Schema 7 lacked them: a
 * writer adds them, NULL in every older row and the clock table empty
 * (those times stay as the wall clock gave them: nothing can re-date
 * them); a reader reads them as unknown (no_clock).
 *
 * To change the schema: bump SCHEMA_VERSION, add the step from the previous
 * version to schema_steps[] (upgrade_schema() runs every step from a DB's
 * version on), say in store_check_schema() what a read-only opener of the
 * older version lacks (as no_sessions does), add a DB of the older version
 * to tests/unit/test_store.c, and the version that wrote it to
 * tests/upgrade/releases.
 */
#include <stdio.h>

#include <sqlite3.h>

#include "store.h"
#include "store_internal.h"

#define SCHEMA_VERSION	8

/* The key of usage and of usage_days (struct usage_key), and its order. */
#define KEY_COLUMNS_SQL							\
	"	host		TEXT	NOT NULL,\n"				\
	"	session		TEXT	NOT NULL,\n"				\
	"	path		TEXT	NOT NULL,\n"				\
	"	op		TEXT	NOT NULL,\n"				\
	"	uid		INTEGER	NOT NULL,\n"				\
	"	cgroup_id	INTEGER	NOT NULL,\n"				\
	"	exe		TEXT	NOT NULL,\n"

static const char schema_sql[] =
	"CREATE TABLE usage (\n"
	KEY_COLUMNS_SQL
	"	what		TEXT,\n"
	"	table_name	TEXT,\n"
	"	status		TEXT,\n"
	"	cgroup		TEXT,\n"
	"	comm		TEXT,\n"
	"	pid		INTEGER,\n"
	"	ppid		INTEGER,\n"
	"	count		INTEGER	NOT NULL,\n"
	"	errors		INTEGER	NOT NULL,\n"
	"	first_seen	INTEGER	NOT NULL,\n"
	"	last_seen	INTEGER	NOT NULL,\n"
	"	swept		INTEGER	NOT NULL DEFAULT 0,\n"
	"	PRIMARY KEY (host, session, path, op, uid, cgroup_id, exe)\n"
	");\n"
	/* The report's GROUP BY and ORDER BY, in this order. */
	"CREATE INDEX usage_by_what ON usage (what, exe, uid, cgroup, op, host);\n";

/* Schema 2's table, also added to a schema 1 DB: see upgrade_schema(). */
static const char sessions_schema_sql[] =
	"CREATE TABLE IF NOT EXISTS sessions (\n"
	"	host		TEXT	NOT NULL,\n"
	"	session		TEXT	NOT NULL,\n"
	"	started		INTEGER	NOT NULL,\n"
	"	last_sync	INTEGER	NOT NULL,\n"
	"	PRIMARY KEY (host, session)\n"
	");\n";

/* Schema 3's column, added to an older DB: see upgrade_schema(). */
static const char swept_schema_sql[] =
	"ALTER TABLE usage ADD COLUMN swept INTEGER NOT NULL DEFAULT 0;\n";

/* Schema 4's table, also added to an older DB: see upgrade_schema(). */
static const char days_schema_sql[] =
	"CREATE TABLE usage_days (\n"
	KEY_COLUMNS_SQL
	"	day		INTEGER	NOT NULL,\n"
	"	what		TEXT,\n"
	"	count		INTEGER	NOT NULL,\n"
	"	errors		INTEGER	NOT NULL,\n"
	"	swept		INTEGER	NOT NULL,\n"
	"	PRIMARY KEY (host, session, path, op, uid, cgroup_id, exe, day)\n"
	/* Kept in key order: no rowid, nor a second copy of the key. */
	") WITHOUT ROWID;\n"
	/* The pruning's max(day) and range delete. */
	"CREATE INDEX usage_days_by_day ON usage_days (day);\n";

/* Schema 5's columns, also added to an older DB: see upgrade_schema(). */
static const char lost_schema_sql[] =
	"ALTER TABLE sessions ADD COLUMN unrecorded INTEGER NOT NULL DEFAULT 0;\n"
	"ALTER TABLE sessions ADD COLUMN skipped INTEGER NOT NULL DEFAULT 0;\n"
	"ALTER TABLE sessions ADD COLUMN lost_at INTEGER;\n"
	"ALTER TABLE sessions ADD COLUMN drained INTEGER;\n";

/* Schema 6's column and table, also added to an older DB: see upgrade_schema(). */
static const char watched_schema_sql[] =
	"ALTER TABLE sessions ADD COLUMN host_id TEXT;\n"
	"ALTER TABLE sessions ADD COLUMN stage TEXT;\n"
	"ALTER TABLE sessions ADD COLUMN boot_offset INTEGER;\n"
	"CREATE TABLE watched (\n"
	"	host		TEXT	NOT NULL,\n"
	"	session		TEXT	NOT NULL,\n"
	"	what		TEXT	NOT NULL,\n"
	"	since		INTEGER	NOT NULL,\n"
	"	last_sync	INTEGER	NOT NULL,\n"
	"	files		INTEGER	NOT NULL,\n"
	"	PRIMARY KEY (host, session, what, since)\n"
	") WITHOUT ROWID;\n";

/* Schema 7's column, also added to an older DB: see upgrade_schema(). */
static const char first_sync_schema_sql[] =
	"ALTER TABLE sessions ADD COLUMN first_sync INTEGER;\n";

/* Schema 8's table and columns, also added to an older DB: see upgrade_schema(). */
static const char clock_schema_sql[] =
	"CREATE TABLE clock (\n"
	"	host		TEXT	NOT NULL,\n"
	"	session		TEXT	NOT NULL,\n"
	"	boottime	INTEGER	NOT NULL,\n"
	"	wall		INTEGER	NOT NULL,\n"
	"	synced		INTEGER	NOT NULL,\n"
	"	PRIMARY KEY (host, session, boottime)\n"
	") WITHOUT ROWID;\n"
	"ALTER TABLE usage ADD COLUMN first_bt INTEGER;\n"
	"ALTER TABLE usage ADD COLUMN last_bt INTEGER;\n"
	"ALTER TABLE usage_days ADD COLUMN bt INTEGER;\n"
	"ALTER TABLE sessions ADD COLUMN started_bt INTEGER;\n"
	"ALTER TABLE sessions ADD COLUMN first_sync_bt INTEGER;\n"
	"ALTER TABLE sessions ADD COLUMN last_sync_bt INTEGER;\n"
	"ALTER TABLE sessions ADD COLUMN lost_at_bt INTEGER;\n"
	"ALTER TABLE sessions ADD COLUMN clock_offset INTEGER;\n"
	"ALTER TABLE sessions ADD COLUMN seq INTEGER;\n"
	"ALTER TABLE watched ADD COLUMN since_bt INTEGER;\n"
	"ALTER TABLE watched ADD COLUMN last_sync_bt INTEGER;\n";

static int create_schema(struct store *s)
{
	char sql[64];
	long long v;

	/* IMMEDIATE: of two tracers starting together, one creates it. */
	if (store_exec(s, "BEGIN IMMEDIATE"))
		return -1;
	v = store_query_int(s, "PRAGMA user_version");
	if (v == 0) {
		snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", SCHEMA_VERSION);
		if (store_exec(s, schema_sql) || store_exec(s, sessions_schema_sql) ||
		    store_exec(s, days_schema_sql) || store_exec(s, lost_schema_sql) ||
		    store_exec(s, watched_schema_sql) || store_exec(s, first_sync_schema_sql) ||
		    store_exec(s, clock_schema_sql) || store_exec(s, sql))
			v = -1;
	}
	if (v < 0) {
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	return store_exec(s, "COMMIT");
}

/* The steps from each older schema to the next, in order. */
static const struct schema_step {
	int from;
	const char *sql;
	const char *what;
} schema_steps[] = {
	{ 1, sessions_schema_sql, "add the sessions table" },
	{ 2, swept_schema_sql, "add the swept column" },
	{ 3, days_schema_sql, "add the usage_days table" },
	{ 4, lost_schema_sql, "add the sessions' losses" },
	{ 5, watched_schema_sql, "add the host ids, boot stages and the watched table" },
	{ 6, first_sync_schema_sql, "add the sessions' first syncs" },
	{ 7, clock_schema_sql, "add the clock table and the boottimes" },
};

/*
 * From an older schema to this one, step by step, in one transaction, the
 * version read again inside it: of two writers opening the DB together, one
 * upgrades it and the other finds it done.
 */
static int upgrade_schema(struct store *s)
{
	char sql[64], why[sizeof(s->err)];
	const char *what = "read its version";
	long long v;
	size_t i;

	if (store_exec(s, "BEGIN IMMEDIATE"))
		goto fail;
	v = store_query_int(s, "PRAGMA user_version");
	if (v < 0)
		goto rollback;
	for (i = 0; i < sizeof(schema_steps) / sizeof(schema_steps[0]); i++) {
		if (schema_steps[i].from < v)
			continue;
		what = schema_steps[i].what;
		if (store_exec(s, schema_steps[i].sql))
			goto rollback;
	}
	what = "set its version";
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", SCHEMA_VERSION);
	if (store_exec(s, sql))
		goto rollback;
	what = "commit";
	if (!store_exec(s, "COMMIT"))
		return 0;
rollback:
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
fail:
	/* Keep SQLite's reason: it says which (locked, read-only, full). */
	snprintf(why, sizeof(why), "%s", s->err[0] ? s->err : sqlite3_errstr(s->rc));
	store_err(s, "cannot upgrade this older DB to schema %d (%s): %s",
		  SCHEMA_VERSION, what, why);
	return -1;
}

/*
 * store_check_schema: is the schema ours? None yet: make it; older: upgrade
 * it (a writer) or note what it lacks (a reader).
 */
int store_check_schema(struct store *s)
{
	long long v = store_query_int(s, "PRAGMA user_version");
	long long ntables;

	if (v < 0)
		return -1;
	if (v > SCHEMA_VERSION) {
		s->rc = SQLITE_ERROR;
		store_err(s, "it was made by a newer abidep (schema %lld; this one knows %d)",
			  v, SCHEMA_VERSION);
		return -1;
	}
	/*
	 * A user_version alone does not make it ours (other programs set one):
	 * the usage table too, before a writer upgrades anything.
	 */
	if (v >= 1) {
		ntables = store_query_int(s, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'usage'");
		if (ntables < 0)
			return -1;
		if (!ntables) {
			s->rc = SQLITE_NOTADB;
			store_err(s, "it is an SQLite database (user_version %lld), but not an abidep usage DB",
				  v);
			return -1;
		}
	}
	if (v == SCHEMA_VERSION)
		return 0;
	if (v >= 1) {
		/* Readers change nothing: what an older schema lacks, they do without. */
		if (s->readonly) {
			s->no_sessions = v < 2;
			s->no_swept = v < 3;
			s->no_days = v < 4;
			s->no_lost = v < 5;
			s->no_watched = v < 6;
			s->no_first_sync = v < 7;
			s->no_clock = v < 8;
			return 0;
		}
		return upgrade_schema(s);
	}
	ntables = store_query_int(s, "SELECT count(*) FROM sqlite_master");
	if (ntables < 0)
		return -1;
	if (ntables) {
		s->rc = SQLITE_NOTADB;
		store_err(s, "it is an SQLite database, but not an abidep usage DB");
		return -1;
	}
	if (s->readonly) {
		s->empty = true;
		return 0;
	}
	return create_schema(s);
}
