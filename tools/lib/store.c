// SPDX-License-Identifier: GPL-2.0
/*
 * The usage store: an SQLite DB with two tables, written by abidep trace
 * and read by abidep report and check. Documentation/admin-guide/usage-store.rst says
 * the same for users.
 *
 * The schema, and its upgrades from the versions older abidep wrote, are
 * in store_schema.c.
 *
 * Integrity: every write is in a transaction, and the DB is in WAL mode, so
 * a process killed at any point leaves the last committed state. We use
 * synchronous=FULL: in WAL mode NORMAL is just as consistent, but may lose
 * the last commits on a power cut, and once a tracer is stopped (or the
 * machine rebooted) the DB is the only copy of its counts. FULL costs one
 * fsync of the WAL per commit, that is per sync of the tracer (every few
 * seconds at most).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <sqlite3.h>

#include "entry.h"
#include "safedir.h"
#include "store.h"
#include "store_internal.h"
#include "util.h"

#define BUSY_TIMEOUT_MS	10000

/*
 * A session's span only widens: the tracer's own syncs (started = last_sync
 * = now) and merged copies of it (any order, any number of times) alike.
 */
/* The smaller, or larger, of two values either of which may be NULL. */
#define MIN_KNOWN_SQL(A, B)	"coalesce(min(" A ", " B "), " A ", " B ")"
#define MAX_KNOWN_SQL(A, B)	"coalesce(max(" A ", " B "), " A ", " B ")"

/*
 * A tracer's sync (store_session()): its losses are cumulative within the
 * session, so they replace the row's; lost_at moves to this sync when
 * they grew since the last one. first_sync is the insert's alone: a row
 * of a DB upgraded from schema 6 keeps its NULL (that sync is not known).
 * The boottimes go with the times (?7; NULL unknown); a session an older
 * abidep began gets its start's at its first sync of schema 8, so that
 * its span is measured from there (the wall clock before is not
 * trusted). clock_offset (?8) is the insert's: store_clock_redate() moves
 * it with the rows it places. seq is the host's next: the order of first
 * syncs, which no clock can change.
 */
static const char session_sql[] =
	"INSERT INTO sessions (host, session, started, last_sync, unrecorded, skipped, lost_at,"
	" first_sync, started_bt, first_sync_bt, last_sync_bt, lost_at_bt, clock_offset, seq)"
	" VALUES (?1, ?2, ?3, ?4, ?5, ?6, CASE WHEN ?5 > 0 OR ?6 > 0 THEN ?4 END, ?4,"
	" ?7, ?7, ?7, CASE WHEN ?5 > 0 OR ?6 > 0 THEN ?7 END, ?8,"
	" (SELECT coalesce(max(seq), 0) + 1 FROM sessions WHERE host = ?1))"
	" ON CONFLICT (host, session) DO UPDATE SET"
	" started = CASE WHEN started_bt IS NULL AND excluded.started_bt IS NOT NULL"
	" THEN excluded.started ELSE min(started, excluded.started) END,"
	" started_bt = " MIN_KNOWN_SQL("started_bt", "excluded.started_bt") ","
	" last_sync = max(last_sync, excluded.last_sync),"
	" last_sync_bt = " MAX_KNOWN_SQL("last_sync_bt", "excluded.last_sync_bt") ","
	" lost_at_bt = CASE WHEN excluded.unrecorded > unrecorded OR excluded.skipped > skipped"
	" THEN excluded.last_sync_bt ELSE lost_at_bt END,"
	" lost_at = CASE WHEN excluded.unrecorded > unrecorded OR excluded.skipped > skipped"
	" THEN excluded.last_sync ELSE lost_at END,"
	" unrecorded = max(unrecorded, excluded.unrecorded),"
	" skipped = max(skipped, excluded.skipped)";

/*
 * abidep merge (store_merge_session()): of two copies of a session, the
 * larger losses and the later lost_at (NULL: none), the earlier known
 * first_sync (both copies have the same, or one of schema 6 none), so
 * that merging one again changes nothing.
 */
static const char merge_session_sql[] =
	"INSERT INTO sessions (host, session, started, last_sync, unrecorded, skipped, lost_at,"
	" host_id, stage, boot_offset, first_sync, started_bt, first_sync_bt, last_sync_bt,"
	" lost_at_bt, clock_offset, seq)"
	" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)"
	" ON CONFLICT (host, session) DO UPDATE SET"
	" host_id = coalesce(host_id, excluded.host_id),"
	" stage = coalesce(stage, excluded.stage),"
	" boot_offset = coalesce(boot_offset, excluded.boot_offset),"
	" first_sync = " MIN_KNOWN_SQL("first_sync", "excluded.first_sync") ","
	" started = min(started, excluded.started),"
	" last_sync = max(last_sync, excluded.last_sync),"
	" unrecorded = max(unrecorded, excluded.unrecorded),"
	" skipped = max(skipped, excluded.skipped),"
	" lost_at = " MAX_KNOWN_SQL("lost_at", "excluded.lost_at") ","
	" started_bt = " MIN_KNOWN_SQL("started_bt", "excluded.started_bt") ","
	" first_sync_bt = " MIN_KNOWN_SQL("first_sync_bt", "excluded.first_sync_bt") ","
	" last_sync_bt = " MAX_KNOWN_SQL("last_sync_bt", "excluded.last_sync_bt") ","
	" lost_at_bt = " MAX_KNOWN_SQL("lost_at_bt", "excluded.lost_at_bt") ","
	" clock_offset = coalesce(clock_offset, excluded.clock_offset),"
	" seq = coalesce(seq, excluded.seq)";

/* The reads of older schemas, read-only: what each lacks is NULL or 0. */
#define SESSIONS_SQL(LOST, WATCHED, FIRST_SYNC, CLOCK)			\
	"SELECT host, session, started, last_sync, " LOST ", " WATCHED ", "	\
	FIRST_SYNC ", " CLOCK " FROM sessions ORDER BY host, started, session"

#define SESSIONS_CLOCK_SQL						\
	"started_bt, first_sync_bt, last_sync_bt, lost_at_bt, clock_offset, seq"
#define NO_CLOCK_SQL	"NULL, NULL, NULL, NULL, NULL, NULL"

enum { SESSIONS_8, SESSIONS_7, SESSIONS_6, SESSIONS_5, SESSIONS_4 };

static const char *const sessions_sql[] = {
	[SESSIONS_8] = SESSIONS_SQL("unrecorded, skipped, lost_at", "host_id, stage, boot_offset",
				    "first_sync", SESSIONS_CLOCK_SQL),
	/* Schema 7: no boottimes. */
	[SESSIONS_7] = SESSIONS_SQL("unrecorded, skipped, lost_at", "host_id, stage, boot_offset",
				    "first_sync", NO_CLOCK_SQL),
	/* Schema 6: no first_sync. */
	[SESSIONS_6] = SESSIONS_SQL("unrecorded, skipped, lost_at", "host_id, stage, boot_offset",
				    "NULL", NO_CLOCK_SQL),
	/* Schema 5: no host_id, stage or boot_offset. */
	[SESSIONS_5] = SESSIONS_SQL("unrecorded, skipped, lost_at", "NULL, NULL, NULL", "NULL",
				    NO_CLOCK_SQL),
	/* Schema 4 and older: no losses (store_schema.c). */
	[SESSIONS_4] = SESSIONS_SQL("0, 0, NULL", "NULL, NULL, NULL", "NULL", NO_CLOCK_SQL),
};

/* The usage upserts: the row, then what to do with its counts on conflict. */
#define USAGE_INSERT_SQL						\
	"INSERT INTO usage (host, session, path, op, uid, cgroup_id, exe,"	\
	" what, table_name, status, cgroup, comm, pid, ppid,"		\
	" count, errors, first_seen, last_seen, swept, first_bt, last_bt)"	\
	" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14,"	\
	" ?15, ?16, ?17, ?18, ?19, ?20, ?21)"				\
	" ON CONFLICT (host, session, path, op, uid, cgroup_id, exe) DO UPDATE SET"

/* ... and, either way, the first known of the rest. */
#define USAGE_KEEP_FIRST_SQL						\
	" first_seen = min(first_seen, excluded.first_seen),"		\
	" first_bt = " MIN_KNOWN_SQL("first_bt", "excluded.first_bt") ","	\
	" what = coalesce(what, excluded.what),"			\
	" table_name = coalesce(table_name, excluded.table_name),"	\
	" status = coalesce(status, excluded.status),"			\
	" cgroup = coalesce(cgroup, excluded.cgroup),"			\
	" comm = coalesce(comm, excluded.comm),"			\
	" pid = coalesce(pid, excluded.pid),"				\
	" ppid = coalesce(ppid, excluded.ppid)"

/* The tracer's counts are its session's so far: they replace the row's. */
static const char upsert_sql[] = USAGE_INSERT_SQL
	" count = excluded.count,"
	" errors = excluded.errors,"
	" swept = excluded.swept,"
	" last_seen = excluded.last_seen,"
	" last_bt = coalesce(excluded.last_bt, last_bt),"
	USAGE_KEEP_FIRST_SQL;

/*
 * The daily history (usage_days): what a row's counts grew by, added to
 * the day ?8 of its last_seen, read from the row before it is replaced
 * (this runs first). A row that did not grow writes nothing. Sums
 * saturate at INT64_MAX, as the counts are clamped there.
 */
#define SAT_ADD(C)							\
	" " C " = CASE WHEN excluded." C " > 9223372036854775807 - " C	\
	" THEN 9223372036854775807 ELSE " C " + excluded." C " END"

#define DAYS_INSERT_SQL							\
	"INSERT INTO usage_days (host, session, path, op, uid, cgroup_id, exe,"	\
	" day, what, count, errors, swept, bt)"

#define DAYS_CONFLICT_SQL						\
	" ON CONFLICT (host, session, path, op, uid, cgroup_id, exe, day) DO UPDATE SET"

static const char day_sql[] =
	"WITH o AS (SELECT u.what AS what,"
	" max(?10 - coalesce(u.count, 0), 0) AS count,"
	" max(?11 - coalesce(u.errors, 0), 0) AS errors,"
	" max(?12 - coalesce(u.swept, 0), 0) AS swept"
	" FROM (SELECT 1) LEFT JOIN usage u ON u.host = ?1 AND u.session = ?2"
	" AND u.path = ?3 AND u.op = ?4 AND u.uid = ?5 AND u.cgroup_id = ?6"
	" AND u.exe = ?7) "
	DAYS_INSERT_SQL
	" SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, coalesce(o.what, ?9),"
	" o.count, o.errors, o.swept, ?13 FROM o"
	" WHERE o.count > 0 OR o.errors > 0 OR o.swept > 0"
	DAYS_CONFLICT_SQL SAT_ADD("count") "," SAT_ADD("errors") "," SAT_ADD("swept") ","
	" what = coalesce(what, excluded.what),"
	" bt = " MAX_KNOWN_SQL("bt", "excluded.bt");

/* A day row of another DB: a session's day only grows, the larger wins. */
static const char merge_day_sql[] = DAYS_INSERT_SQL
	" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)"
	DAYS_CONFLICT_SQL
	" count = max(count, excluded.count),"
	" errors = max(errors, excluded.errors),"
	" swept = max(swept, excluded.swept),"
	" what = coalesce(what, excluded.what),"
	" bt = " MAX_KNOWN_SQL("bt", "excluded.bt");

/* The day rows, and (schema 4 to 7, read-only) without boottimes. */
#define DAY_ROWS_SQL(BT)						\
	"SELECT host, session, path, op, uid, cgroup_id, exe, day, what, count,"	\
	" errors, swept, " BT " FROM usage_days"			\
	" ORDER BY host, session, path, op, uid, cgroup_id, exe, day"

static const char *const day_rows_sql[] = { DAY_ROWS_SQL("bt"), DAY_ROWS_SQL("NULL") };

/* ?1 the entry selector (a pointer, bind_entry()) or NULL: entry.h's rule. */
#define ENTRY_SQL " abidep_entry(?1, what, path)"

/*
 * ?2 since, ?3 until (0: open), by session: a use at or after since, a
 * first use at or before until.
 */
#define SESSION_WINDOW_SQL						\
	" (?2 = 0 OR last_seen >= ?2) AND (?3 = 0 OR first_seen <= ?3)"

#define FILTER_SQL " WHERE" ENTRY_SQL " AND" SESSION_WINDOW_SQL

/* The days of usage_days row D that overlap [?2, ?3]. */
#define DAYS_IN_WINDOW_SQL(D)						\
	" " D ".day > ?2 - 86400 AND (?3 = 0 OR " D ".day <= ?3)"

/* usage_days row A is of usage row B. */
#define KEY_EQ_SQL(A, B)						\
	" " A ".host = " B ".host AND " A ".session = " B ".session AND "	\
	A ".path = " B ".path AND " A ".op = " B ".op AND " A ".uid = " B ".uid"	\
	" AND " A ".cgroup_id = " B ".cgroup_id AND " A ".exe = " B ".exe"

/*
 * w: the usage rows within the window [?2, ?3] of a DB with daily
 * history. A row with history counts its days in the window, its
 * first_seen and last_seen clipped to the first and last of those days
 * (whole days: the time of a use within its day is not kept); a row
 * without (written before the upgrade to schema 4, or all its days
 * pruned) is counted whole, by session, as in an older DB.
 */
#define WINDOW_CTE_SQL							\
	"WITH w AS (SELECT u.what AS what, u.path AS path,"		\
	" u.table_name AS table_name, u.status AS status, u.exe AS exe,"	\
	" u.uid AS uid, u.cgroup AS cgroup, u.op AS op, u.host AS host,"	\
	" SUM(d.count) AS count, SUM(d.errors) AS errors,"		\
	" max(u.first_seen, MIN(d.day)) AS first_seen,"		\
	" min(u.last_seen, MAX(d.day) + 86399) AS last_seen,"		\
	" SUM(d.swept) AS swept"					\
	" FROM usage_days d JOIN usage u ON" KEY_EQ_SQL("u", "d")	\
	" WHERE" DAYS_IN_WINDOW_SQL("d")				\
	" GROUP BY d.host, d.session, d.path, d.op, d.uid, d.cgroup_id, d.exe"	\
	" UNION ALL SELECT what, path, table_name, status, exe, uid, cgroup, op,"	\
	" host, count, errors, first_seen, last_seen, swept FROM usage u"	\
	" WHERE" SESSION_WINDOW_SQL					\
	" AND NOT EXISTS (SELECT 1 FROM usage_days d WHERE" KEY_EQ_SQL("d", "u") ")) "

/* Which of the reads' variants: see read_variant(). */
enum { READ_ROWS, READ_NO_SWEPT, READ_DAYS };

/*
 * A read's variants, SELECT(FROM, SWEPT) the read: by rows, and by rows of
 * a DB older than schema 3, opened read-only, which has no swept column
 * and is read as if nothing was swept (s->no_swept); within a window, by
 * days (w).
 */
#define READ_VARIANTS(SELECT) {						\
	[READ_ROWS] = SELECT("usage" FILTER_SQL, "SUM(swept)"),		\
	[READ_NO_SWEPT] = SELECT("usage" FILTER_SQL, "0"),		\
	[READ_DAYS] = WINDOW_CTE_SQL SELECT("w WHERE" ENTRY_SQL, "SUM(swept)"),	\
}

/* With one MAX(), SQLite takes the bare columns from the row of the max. */
#define FILES_SQL(FROM, SWEPT)						\
	"SELECT what, path, table_name, status, MAX(last_seen) FROM " FROM	\
	" GROUP BY what, path ORDER BY what, path"

static const char *const files_sql[] = READ_VARIANTS(FILES_SQL);

/* store_each_day(): the days summed over sessions, cgroups and files. */
static const char days_sql[] =
	"SELECT what, exe, uid, op, host, day, SUM(count), SUM(errors), SUM(swept)"
	" FROM usage_days d WHERE" ENTRY_SQL " AND" DAYS_IN_WINDOW_SQL("d")
	" GROUP BY what, exe, uid, op, host, day ORDER BY what, exe, uid, op, host, day";

/*
 * The sums of use (struct usage_sum's columns), with CGROUP (NULL: summed
 * over cgroups) and the columns MORE after swept, grouped and ordered BY.
 */
#define SUMS_BY_SQL(CGROUP, MORE, BY, FROM, SWEPT)			\
	"SELECT what, exe, uid, " CGROUP ", op, host, SUM(count), SUM(errors),"	\
	" MIN(first_seen), MAX(last_seen), " SWEPT MORE " FROM " FROM	\
	" GROUP BY " BY " ORDER BY " BY

#define SUMS_SQL(FROM, SWEPT)						\
	SUMS_BY_SQL("cgroup", "", "what, exe, uid, cgroup, op, host", FROM, SWEPT)

static const char *const sums_sql[] = READ_VARIANTS(SUMS_SQL);

/*
 * store_boot_uses(): the rows first seen before their session's first sync
 * in a session begun in the initramfs or early. The first sync is
 * sessions.first_sync: the session's start is not it, nor is its earliest
 * watched run since a pin records its own runs from its time (trace
 * --pin --early: the pin's runs start with the session, seconds before
 * udev's coldplug, and the uses at coldplug would all be after them).
 *
 * A session written before schema 7 has none: its earliest watched run
 * stands for it, as the first sync of a tracer of then wrote one per What
 * (a pinned tracer of b1c99bc, just before schema 7, wrote the pin's own,
 * from the session's start: none of its uses is taken as during boot,
 * never one too many). Without
 * any run either, the comparison is NULL, and the rows are not taken as
 * during boot: the last sync would bound the first one from above only,
 * and take any use of the session for one at boot.
 *
 * The window: the day of first_seen among the days that overlap [?2, ?3].
 * after: from boot (the start, the pin, less boot_offset) to first_seen,
 * NULL when boot_offset is; never below 0 (a wall clock set back since).
 */
#define DAY_OF_SQL(T)	"(" T " - " T " % 86400)"

#define BOOT_USES_SQL(FIRST_SYNC)					\
	"SELECT u.what, u.exe, u.uid, u.cgroup, u.op, u.host, s.stage, u.first_seen,"	\
	" max(u.first_seen - (s.started - s.boot_offset), 0) AS after"	\
	" FROM usage u JOIN sessions s ON s.host = u.host AND s.session = u.session"	\
	" WHERE s.stage IN ('" STORE_STAGE_INITRAMFS "', '" STORE_STAGE_EARLY "')"	\
	" AND u.first_seen < coalesce(" FIRST_SYNC ", (SELECT min(w.since) FROM watched w"	\
	" WHERE w.host = u.host AND w.session = u.session))"		\
	" AND" ENTRY_SQL						\
	" AND (?2 = 0 OR " DAY_OF_SQL("u.first_seen") " > ?2 - 86400)"	\
	" AND (?3 = 0 OR " DAY_OF_SQL("u.first_seen") " <= ?3)"		\
	" ORDER BY u.what, u.exe, u.uid, u.cgroup, u.op, u.host, after IS NULL, after,"	\
	" u.first_seen"

/* A schema 6 DB, read-only, has no first_sync column: its runs alone. */
static const char *const boot_uses_sql[] = {
	BOOT_USES_SQL("s.first_sync"), BOOT_USES_SQL("NULL"),
};

/*
 * As upsert_sql, for rows of another DB: see store_merge_row(). Of two
 * copies of a session's row the larger counts are the later ones.
 */
static const char merge_sql[] = USAGE_INSERT_SQL
	" count = max(count, excluded.count),"
	" errors = max(errors, excluded.errors),"
	" swept = max(swept, excluded.swept),"
	" last_seen = max(last_seen, excluded.last_seen),"
	" last_bt = " MAX_KNOWN_SQL("last_bt", "excluded.last_bt") ","
	USAGE_KEEP_FIRST_SQL;

#define PATH_SUMS_SQL(FROM, SWEPT)					\
	SUMS_BY_SQL("NULL", ", path", "what, path, exe, uid, op, host", FROM, SWEPT)

static const char *const path_sums_sql[] = READ_VARIANTS(PATH_SUMS_SQL);

#define ROWS_SQL(SWEPT, BT)						\
	"SELECT host, session, path, op, uid, cgroup_id, exe, what, table_name,"	\
	" status, cgroup, comm, pid, ppid, count, errors, first_seen, last_seen,"	\
	" " SWEPT ", " BT " FROM usage ORDER BY host, session, path, op, uid, cgroup_id, exe"

/* By schema: 8; 3 to 7 (no boottimes); 1 and 2 (no swept either). */
static const char *const rows_sql[] = {
	ROWS_SQL("swept", "first_bt, last_bt"), ROWS_SQL("swept", "NULL, NULL"),
	ROWS_SQL("0", "NULL, NULL"),
};

/*
 * The rows, each with its days since ?2 (whole days; a filter's since, as
 * store_walk() binds it) summed: n NULL when it has no day at all.
 */
#define ROWS_SINCE_SQL(BT)						\
	"SELECT u.host, u.session, u.path, u.op, u.uid, u.cgroup_id, u.exe, u.what,"	\
	" u.table_name, u.status, u.cgroup, u.comm, u.pid, u.ppid, u.count, u.errors,"	\
	" u.first_seen, u.last_seen, u.swept, " BT ", h.n, h.count, h.errors, h.swept"	\
	" FROM usage u LEFT JOIN (SELECT host, session, path, op, uid, cgroup_id, exe,"	\
	" count(*) AS n,"						\
	" SUM(CASE WHEN day > ?2 - 86400 THEN count ELSE 0 END) AS count,"	\
	" SUM(CASE WHEN day > ?2 - 86400 THEN errors ELSE 0 END) AS errors,"	\
	" SUM(CASE WHEN day > ?2 - 86400 THEN swept ELSE 0 END) AS swept"	\
	" FROM usage_days GROUP BY host, session, path, op, uid, cgroup_id, exe) h"	\
	" ON" KEY_EQ_SQL("h", "u")					\
	" ORDER BY u.host, u.session, u.path, u.op, u.uid, u.cgroup_id, u.exe"

/* Schema 8, and 4 to 7 (read-only: no boottimes). */
static const char *const rows_since_sql[] = {
	ROWS_SINCE_SQL("u.first_bt, u.last_bt"), ROWS_SINCE_SQL("NULL, NULL"),
};

void store_err(struct store *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->err, sizeof(s->err), fmt, ap);
	va_end(ap);
}

/*
 * Whether the file system holding @path has no room left. SQLite says
 * "disk I/O error" when it cannot grow its -shm or -wal file on a full
 * file system, and "database or disk is full" only for the DB file itself:
 * ask the file system, so the message says what is wrong.
 */
static bool fs_full(const char *path)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	struct statvfs sv;
	bool full;

	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	full = !statvfs(slash ? dir : ".", &sv) &&
	       (unsigned long long)sv.f_bavail * sv.f_frsize < 64 * 1024;
	free(dir);
	return full;
}

static bool io_or_full(int rc)
{
	return (rc & 0xff) == SQLITE_IOERR || (rc & 0xff) == SQLITE_FULL ||
	       (rc & 0xff) == SQLITE_CANTOPEN;
}

/* An SQLite failure: keep its code and message (before the next call). */
int store_db_fail(struct store *s, const char *what)
{
	s->rc = sqlite3_extended_errcode(s->db);
	store_err(s, "%s%s%s%s", what ? what : "", what ? ": " : "",
		  sqlite3_errmsg(s->db),
		  io_or_full(s->rc) && fs_full(s->path) ?
		  " (its file system is full: make room there)" : "");
	return -1;
}

const char *store_errmsg(struct store *s)
{
	return s && s->err[0] ? s->err : "no error";
}

bool store_damaged(struct store *s)
{
	return s && ((s->rc & 0xff) == SQLITE_CORRUPT || (s->rc & 0xff) == SQLITE_NOTADB);
}

int store_exec(struct store *s, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) == SQLITE_OK)
		return 0;
	s->rc = sqlite3_extended_errcode(s->db);
	store_err(s, "%s%s", msg ? msg : sqlite3_errmsg(s->db),
		  io_or_full(s->rc) && fs_full(s->path) ?
		  " (its file system is full: make room there)" : "");
	sqlite3_free(msg);
	return -1;
}

/* The one integer a statement like "PRAGMA user_version" returns, or -1. */
long long store_query_int(struct store *s, const char *sql)
{
	sqlite3_stmt *st;
	long long v = -1;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return store_db_fail(s, NULL);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	else
		store_db_fail(s, NULL);
	sqlite3_finalize(st);
	return v;
}

/* ---- opening ---- */

/* What to do about an SQLite error while opening. */
static const char *open_hint(int rc, bool readonly)
{
	switch (rc & 0xff) {
	case SQLITE_NOTADB:
		return "name the usage DB with --db, or move this file aside";
	case SQLITE_CORRUPT:
		return "move it aside (with its -wal and -shm files); the tracer starts a new one";
	case SQLITE_READONLY:
		/* See reopen_immutable(). */
		if (readonly)
			return "it is in use or was not closed (its -wal file exists), and readers need to write its -shm file: run as root";
		return "run as root, or name a writable file with --db";
	case SQLITE_PERM:
	case SQLITE_AUTH:
		return "run as root, or name a writable file with --db";
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return "another process holds it locked; try again";
	case SQLITE_FULL:
		return "make room on its file system";
	case SQLITE_CANTOPEN:
		/* A WAL reader creates DB-shm next to the DB if it is missing. */
		return "check the file and its directory (readers need to create its -shm file there), or run as root";
	default:
		return "check the file, or name another with --db";
	}
}

static struct store *open_fail(struct store *s, char *err, size_t errlen)
{
	snprintf(err, errlen, "cannot use the usage DB %s: %s; %s", s->path,
		 s->err[0] ? s->err : sqlite3_errstr(s->rc),
		 strstr(s->err, "file system is full") ?
		 "or name a DB elsewhere with --db" :
		 io_or_full(s->rc) && fs_full(s->path) ?
		 "its file system is full: make room there, or name a DB elsewhere with --db" :
		 open_hint(s->rc, s->readonly));
	store_close(s);
	return NULL;
}

/*
 * The directory of a DB to write (@path), made as needed (0700: root's
 * data), reached as safedir.h's rule says, SAFE_STEADY: SQLite opens the
 * DB and its -wal and -shm by name. Its descriptor, @path's name in it in
 * *@base, and in *@file the name to give SQLite (the directory's path with
 * the symlinks the walk followed resolved, for SQLITE_OPEN_NOFOLLOW). -1
 * with a message in @err.
 */
static int writer_dir(const char *path, char **base, char **file, char *err, size_t errlen)
{
	char *dir, *what = xasprintf("the usage DB %s", path);
	int fd, n;

	fd = safe_parent_open(path, what, SAFE_MKDIR | SAFE_STEADY, 0700, base, &dir, err,
			      errlen);
	free(what);
	if (fd == -1) {
		n = strlen(err);
		snprintf(err + n, errlen - n, "; run as root, or name a writable file with --db");
	}
	if (fd < 0)
		return -1;
	*file = path_join(dir, *base);
	free(dir);
	return fd;
}

/* Create @base in @dirfd as an empty file 0600: SQLite would make it 0644. */
static int make_file(int dirfd, const char *base, const char *path, char *err, size_t errlen)
{
	int fd = openat(dirfd, base, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	if (errno == EEXIST)
		return 0;
	snprintf(err, errlen, "cannot create the usage DB %s: %s; run as root, or name a writable file with --db",
		 path, strerror(errno));
	return -1;
}

/* The DB to write, @base in @dirfd: a regular file, not a symlink, writable. */
static int check_writer_file(int dirfd, const char *base, const char *path, char *err,
			     size_t errlen)
{
	struct stat st;

	if (fstatat(dirfd, base, &st, AT_SYMLINK_NOFOLLOW)) {
		snprintf(err, errlen, "cannot use the usage DB %s: %s; run as root, or name another with --db",
			 path, strerror(errno));
		return -1;
	}
	if (S_ISLNK(st.st_mode)) {
		snprintf(err, errlen, "refusing to write the usage DB %s: it is a symlink, and a DB is written only by its own name; name the file itself with --db",
			 path);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "the usage DB %s is not a regular file; name the DB file with --db",
			 path);
		return -1;
	}
	if (faccessat(dirfd, base, R_OK | W_OK, 0)) {
		snprintf(err, errlen, "cannot write the usage DB %s: %s; run as root, or name another with --db",
			 path, strerror(errno));
		return -1;
	}
	return 0;
}

/* A reader's common cases said plainly, before SQLite's generic messages. */
static int check_file(const char *path, char *err, size_t errlen)
{
	struct stat st;

	if (stat(path, &st)) {
		if (errno == ENOENT)
			snprintf(err, errlen, "no usage DB at %s: nothing has been traced into it ('abidep trace' creates it); name another with --db",
				 path);
		else
			snprintf(err, errlen, "cannot use the usage DB %s: %s; run as root, or name another with --db",
				 path, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "the usage DB %s is not a regular file; name the DB file with --db",
			 path);
		return -1;
	}
	if (access(path, R_OK)) {
		snprintf(err, errlen, "cannot read the usage DB %s: %s; run as root, or name another with --db",
			 path, strerror(errno));
		return -1;
	}
	return 0;
}

static int set_wal(struct store *s)
{
	sqlite3_stmt *st;
	int ret = -1;

	if (sqlite3_prepare_v2(s->db, "PRAGMA journal_mode = WAL", -1, &st, NULL))
		return store_db_fail(s, NULL);
	if (sqlite3_step(st) != SQLITE_ROW) {
		store_db_fail(s, NULL);
	} else if (strcmp((const char *)sqlite3_column_text(st, 0), "wal")) {
		s->rc = SQLITE_CANTOPEN;
		store_err(s, "cannot switch it to WAL mode (journal mode %s)",
			  sqlite3_column_text(st, 0));
	} else {
		ret = 0;
	}
	sqlite3_finalize(st);
	return ret;
}

#define ENTRY_POINTER "abidep entry_sel"

/*
 * abidep_entry(SEL, WHAT, PATH): does the selector SEL (NULL: none, all
 * rows) select the use of PATH under WHAT? --entry's one rule, in C
 * (entry.h), for the reads' WHERE.
 */
static void sql_entry(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct entry_sel *sel = sqlite3_value_pointer(argv[0], ENTRY_POINTER);

	sqlite3_result_int(ctx, !sel || entry_sel_use(sel,
		(const char *)sqlite3_value_text(argv[1]),
		(const char *)sqlite3_value_text(argv[2])));
}

/* ?1 of a read: @f's selector, or NULL. */
static void bind_entry(sqlite3_stmt *st, const struct store_filter *f)
{
	sqlite3_bind_pointer(st, 1, f ? f->entry : NULL, ENTRY_POINTER, NULL);
}

static int setup(struct store *s)
{
	sqlite3_extended_result_codes(s->db, 1);
	/* Ours, for our queries: DIRECTONLY, no schema of the file may call it. */
	if (sqlite3_create_function_v2(s->db, "abidep_entry", 3,
				       SQLITE_UTF8 | SQLITE_DIRECTONLY, NULL,
				       sql_entry, NULL, NULL, NULL))
		return store_db_fail(s, NULL);
	sqlite3_busy_timeout(s->db, BUSY_TIMEOUT_MS);
	/* The file may come from anywhere: no tricks in its schema. */
	sqlite3_db_config(s->db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
	sqlite3_db_config(s->db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
	if (!s->readonly && (set_wal(s) || store_exec(s, "PRAGMA synchronous = FULL")))
		return -1;
	return store_check_schema(s);
}

/*
 * A reader of a WAL database must create DB-shm if it is missing, and
 * cannot in a directory it may not write: a copy of usage.db read by a
 * user, say (SQLITE_READONLY), or the DB on a read-only mount, as
 * abidep-metrics.service's sandbox has it (ReadOnlyPaths=; EROFS, which
 * SQLite says as SQLITE_CANTOPEN). When DB-wal is missing too, no writer
 * has it open and all is in the main file: read that alone, as an
 * immutable file (no locks, no -shm). A writer that starts and
 * checkpoints during the read may make it fail; the report is then run
 * again.
 */
static int reopen_immutable(struct store *s)
{
	static const char hex[] = "0123456789ABCDEF";
	char *wal = xasprintf("%s-wal", s->path), *uri, *q;
	const unsigned char *p;
	bool in_use = !access(wal, F_OK) || errno != ENOENT;
	int rc;

	free(wal);
	if (!s->readonly || in_use ||
	    ((s->rc & 0xff) != SQLITE_READONLY && (s->rc & 0xff) != SQLITE_CANTOPEN))
		return -1;
	uri = xmalloc(3 * strlen(s->path) + 32);
	q = uri + sprintf(uri, "file:");
	for (p = (const unsigned char *)s->path; *p; p++) {
		if (strchr("/._-~", *p) || (*p < 0x80 && isalnum(*p))) {
			*q++ = *p;
		} else {
			*q++ = '%';
			*q++ = hex[*p >> 4];
			*q++ = hex[*p & 15];
		}
	}
	strcpy(q, "?immutable=1");
	sqlite3_close_v2(s->db);
	s->err[0] = '\0';
	rc = sqlite3_open_v2(uri, &s->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
	free(uri);
	if (rc != SQLITE_OK) {
		s->rc = rc;
		return -1;
	}
	return setup(s);
}

/*
 * A connection to @file (named @path in messages) with sqlite3_open_v2()'s
 * @flags, set up: a reader's, or a writer's (WAL, the schema made or
 * upgraded, its statements prepared). NULL with a message in @err.
 */
static struct store *store_connect(const char *path, const char *file, int flags, char *err,
				   size_t errlen)
{
	struct store *s = xcalloc(1, sizeof(*s));
	int rc;

	s->path = xstrdup(path);
	s->readonly = !(flags & SQLITE_OPEN_READWRITE);
	rc = sqlite3_open_v2(file, &s->db, flags, NULL);
	if (rc != SQLITE_OK) {
		s->rc = rc;
		return open_fail(s, err, errlen);
	}
	/* A reader's immutable second try is by @path: not for what is written. */
	if (setup(s) && ((flags & SQLITE_OPEN_NOFOLLOW) || reopen_immutable(s)))
		return open_fail(s, err, errlen);
	if (!s->readonly && (sqlite3_prepare_v3(s->db, upsert_sql, -1, SQLITE_PREPARE_PERSISTENT,
						&s->upsert, NULL) ||
			     sqlite3_prepare_v3(s->db, day_sql, -1, SQLITE_PREPARE_PERSISTENT,
						&s->day, NULL))) {
		store_db_fail(s, NULL);
		return open_fail(s, err, errlen);
	}
	return s;
}

/*
 * A DB to write: its directory reached by safedir.h's rule (SAFE_STEADY),
 * the file itself no symlink, and SQLite told so (SQLITE_OPEN_NOFOLLOW:
 * no symlink anywhere on the name it is given, the walk's). Nothing is
 * written to an existing file before a read-only look says it is a usage
 * DB, or empty: another program's database is left as it was, its journal
 * mode too.
 */
static struct store *open_writer(const char *path, char *err, size_t errlen)
{
	struct store *s = NULL, *look;
	char *base, *file;
	int dirfd, bad;

	dirfd = writer_dir(path, &base, &file, err, errlen);
	if (dirfd < 0)
		return NULL;
	bad = make_file(dirfd, base, path, err, errlen) ||
	      check_writer_file(dirfd, base, path, err, errlen);
	close(dirfd);
	free(base);
	if (!bad) {
		look = store_connect(path, file, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOFOLLOW,
				     err, errlen);
		bad = !look;
		store_close(look);
	}
	/* No SQLITE_OPEN_CREATE: the file exists, with our mode. */
	if (!bad)
		s = store_connect(path, file, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW,
				  err, errlen);
	free(file);
	return s;
}

struct store *store_open(const char *path, bool readonly, char *err, size_t errlen)
{
	if (!readonly)
		return open_writer(path, err, errlen);
	if (check_file(path, err, errlen))
		return NULL;
	return store_connect(path, path, SQLITE_OPEN_READONLY, err, errlen);
}

void store_close(struct store *s)
{
	if (!s)
		return;
	sqlite3_finalize(s->upsert);
	sqlite3_finalize(s->day);
	sqlite3_finalize(s->merge_day);
	sqlite3_finalize(s->merge);
	sqlite3_finalize(s->row_counts);
	sqlite3_finalize(s->session);
	sqlite3_finalize(s->merge_session);
	sqlite3_finalize(s->watched_run);
	sqlite3_finalize(s->clock_latest);
	sqlite3_finalize(s->clock_add);
	sqlite3_finalize(s->watched_new);
	/* Rolls back a transaction left open. */
	sqlite3_close_v2(s->db);
	free(s->path);
	free(s);
}

/* ---- writing ---- */

int store_begin(struct store *s)
{
	s->err[0] = '\0';
	s->days_written = false;
	return store_exec(s, s->readonly ? "BEGIN" : "BEGIN IMMEDIATE");
}

/*
 * The bound of the daily history: the days before the newest
 * STORE_HISTORY_DAYS go, in the transaction that wrote days (a sync, a
 * merge). Relative to the newest day in the DB, not to the clock: a
 * merged fleet DB of old hosts keeps their history.
 */
static int prune_days(struct store *s)
{
	char sql[192];

	if (!s->days_written)
		return 0;
	s->days_written = false;
	/*
	 * From the newest day, but not from one past tomorrow: a clock far
	 * ahead for one sync (an RTC glitch at boot) must not take every
	 * real day with it.
	 */
	snprintf(sql, sizeof(sql),
		 "DELETE FROM usage_days WHERE day <= min((SELECT max(day) FROM usage_days), %lld) - %d",
		 (long long)time(NULL) + 86400, STORE_HISTORY_DAYS * 86400);
	return store_exec(s, sql);
}

int store_commit(struct store *s)
{
	if (!prune_days(s) && !store_exec(s, "COMMIT"))
		return 0;
	/*
	 * A failed COMMIT may leave the transaction open (SQLITE_BUSY): end
	 * it, so that the next store_begin() starts afresh. Keep the
	 * COMMIT's message.
	 */
	if (!sqlite3_get_autocommit(s->db))
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

int store_rollback(struct store *s)
{
	s->days_written = false;
	if (sqlite3_get_autocommit(s->db))
		return 0;		/* nothing open: SQLite rolled it back */
	return store_exec(s, "ROLLBACK");
}

int store_bind_text(sqlite3_stmt *st, int i, const char *v)
{
	return v ? sqlite3_bind_text(st, i, v, -1, SQLITE_STATIC) :
		   sqlite3_bind_null(st, i);
}

static sqlite3_int64 clamp(unsigned long long v)
{
	return v > LLONG_MAX ? LLONG_MAX : (sqlite3_int64)v;
}

/* The one addition of usage counts: trace, report and check call it. */
void usage_add(struct usage_counts *to, const struct usage_counts *from)
{
	to->count = to->count + from->count < to->count ? ULLONG_MAX :
		    to->count + from->count;
	to->errors = to->errors + from->errors < to->errors ? ULLONG_MAX :
		     to->errors + from->errors;
	to->swept = to->swept + from->swept < to->swept ? ULLONG_MAX :
		    to->swept + from->swept;
	if (from->first_seen < to->first_seen)
		to->first_seen = from->first_seen;
	if (from->last_seen > to->last_seen)
		to->last_seen = from->last_seen;
}

size_t usage_session_boot_len(const char *session)
{
	const char *colon = strrchr(session, ':');
	size_t n = colon ? (size_t)(colon - session) : 0;

	return n == 7 && !strncmp(session, "unknown", 7) ? 0 : n;
}

size_t usage_session_clock_boot_len(const char *session)
{
	size_t n = usage_session_boot_len(session);

	return n ? n : strlen(session);
}

bool usage_all_swept(const struct usage_counts *c)
{
	return c->swept && c->swept >= c->count;
}

/* A boottime, or NULL when not known. */
static int bind_bt(sqlite3_stmt *st, int i, long long bt)
{
	return bt > STORE_NO_BT ? sqlite3_bind_int64(st, i, bt) : sqlite3_bind_null(st, i);
}

/* Has @k all of its NOT NULL columns? */
static bool key_whole(const struct usage_key *k)
{
	return k->host && k->session && k->path && k->op && k->exe;
}

/* Bind @k to ?1 to ?7: every table's key columns are in its order. */
static int bind_key(sqlite3_stmt *st, const struct usage_key *k)
{
	return store_bind_text(st, 1, k->host) | store_bind_text(st, 2, k->session) |
	       store_bind_text(st, 3, k->path) | store_bind_text(st, 4, k->op) |
	       sqlite3_bind_int64(st, 5, k->uid) |
	       sqlite3_bind_int64(st, 6, (sqlite3_int64)k->cgroup_id) |
	       store_bind_text(st, 7, k->exe);
}

/* A write refused: the store is open read-only. */
static int fail_read_only(struct store *s)
{
	store_err(s, "the usage DB %s is open read-only", s->path);
	return -1;
}

static int write_row(struct store *s, sqlite3_stmt *st, const struct usage_row *r);
static int write_day(struct store *s, const struct usage_row *r);

int store_upsert(struct store *s, const struct usage_row *r)
{
	/* The day first: it reads the row that the upsert replaces. */
	if (key_whole(&r->key) && write_day(s, r))
		return -1;
	return write_row(s, s->upsert, r);
}

/* Add the counts of @r's row (its key), if it has one, to @c. */
/*
 * Adds the row's stored counts to @c. The statement is prepared once: a
 * sync of a drained map calls this for every key, and compiling the SELECT
 * each time was most of a key's cost.
 */
static int add_row_counts(struct store *s, const struct usage_row *r, struct usage_counts *c)
{
	static const char sql[] =
		"SELECT count, errors, swept, first_seen, last_seen FROM usage"
		" WHERE host = ?1 AND session = ?2 AND path = ?3 AND op = ?4 AND uid = ?5"
		" AND cgroup_id = ?6 AND exe = ?7";
	sqlite3_stmt *st;
	int rc;

	if (!s->row_counts &&
	    sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s->row_counts, NULL))
		return store_db_fail(s, "cannot read a usage row");
	st = s->row_counts;
	rc = bind_key(st, &r->key);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		const struct usage_counts old = {
			.count = sqlite3_column_int64(st, 0),
			.errors = sqlite3_column_int64(st, 1),
			.swept = sqlite3_column_int64(st, 2),
			.first_seen = sqlite3_column_int64(st, 3),
			.last_seen = sqlite3_column_int64(st, 4),
		};

		usage_add(c, &old);
		rc = SQLITE_DONE;
	}
	/* The error is read before the reset, which would replace it. */
	if (rc != SQLITE_DONE)
		store_db_fail(s, "cannot read a usage row");
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

int store_add(struct store *s, const struct usage_row *r)
{
	struct usage_row sum = *r;

	/* A row without its key: store_upsert() says what it lacks. */
	if (key_whole(&r->key) && add_row_counts(s, r, &sum.counts))
		return -1;
	return store_upsert(s, &sum);
}

int store_merge_row(struct store *s, const struct usage_row *r)
{
	if (!s->merge && !s->readonly &&
	    sqlite3_prepare_v3(s->db, merge_sql, -1, SQLITE_PREPARE_PERSISTENT,
			       &s->merge, NULL))
		return store_db_fail(s, "cannot write a usage row");
	return write_row(s, s->merge, r);
}

/*
 * Run a prepared write whose bindings (@rc: their results, or-ed) are set,
 * then make the statement ready for the next one. @what says, on failure,
 * what could not be written.
 */
int store_step_write(struct store *s, sqlite3_stmt *st, int rc, const char *what)
{
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
	if (rc != SQLITE_OK)
		store_db_fail(s, what);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc == SQLITE_OK ? 0 : -1;
}

static int write_row(struct store *s, sqlite3_stmt *st, const struct usage_row *r)
{
	int rc;

	if (!st)
		return fail_read_only(s);
	if (!key_whole(&r->key)) {
		store_err(s, "a usage row needs host, session, path, op and exe");
		return -1;
	}
	rc = bind_key(st, &r->key);
	rc |= store_bind_text(st, 8, r->what);
	rc |= store_bind_text(st, 9, r->table);
	rc |= store_bind_text(st, 10, r->status);
	rc |= store_bind_text(st, 11, r->cgroup);
	rc |= store_bind_text(st, 12, r->comm);
	rc |= r->pid < 0 ? sqlite3_bind_null(st, 13) : sqlite3_bind_int(st, 13, r->pid);
	rc |= r->ppid < 0 ? sqlite3_bind_null(st, 14) : sqlite3_bind_int(st, 14, r->ppid);
	rc |= sqlite3_bind_int64(st, 15, clamp(r->count));
	rc |= sqlite3_bind_int64(st, 16, clamp(r->errors));
	rc |= sqlite3_bind_int64(st, 17, r->first_seen);
	rc |= sqlite3_bind_int64(st, 18, r->last_seen);
	rc |= sqlite3_bind_int64(st, 19, clamp(r->swept));
	rc |= bind_bt(st, 20, r->first_bt) | bind_bt(st, 21, r->last_bt);
	return store_step_write(s, st, rc, "cannot write a usage row");
}

/* The 00:00 UTC of the day of @t (unix seconds), before 1970 too. */
static long long day_of(long long t)
{
	return t - ((t % 86400) + 86400) % 86400;
}

/* Write @d with @st: day_sql or merge_day_sql, whose ?1 to ?13 are alike. */
static int step_day(struct store *s, sqlite3_stmt *st, const struct usage_day_row *d)
{
	int rc = bind_key(st, &d->key) | sqlite3_bind_int64(st, 8, d->day) |
		 store_bind_text(st, 9, d->what) |
		 sqlite3_bind_int64(st, 10, clamp(d->count)) |
		 sqlite3_bind_int64(st, 11, clamp(d->errors)) |
		 sqlite3_bind_int64(st, 12, clamp(d->swept)) | bind_bt(st, 13, d->bt);

	if (store_step_write(s, st, rc, "cannot write a usage day"))
		return -1;
	s->days_written = true;
	return 0;
}

/* store_upsert()'s day: what @r's row grew by, on the day of its last use. */
static int write_day(struct store *s, const struct usage_row *r)
{
	const struct usage_day_row d = {
		.key = r->key, .day = day_of(r->last_seen), .what = r->what,
		.count = r->count, .errors = r->errors, .swept = r->swept, .bt = r->last_bt,
	};

	if (!s->day)
		return fail_read_only(s);
	return step_day(s, s->day, &d);
}

int store_merge_day(struct store *s, const struct usage_day_row *d)
{
	if (s->readonly)
		return fail_read_only(s);
	if (!key_whole(&d->key)) {
		store_err(s, "a usage day needs host, session, path, op and exe");
		return -1;
	}
	if (!s->merge_day &&
	    sqlite3_prepare_v3(s->db, merge_day_sql, -1, SQLITE_PREPARE_PERSISTENT,
			       &s->merge_day, NULL))
		return store_db_fail(s, "cannot write a usage day");
	return step_day(s, s->merge_day, d);
}

/* Prepare @sql once into *@st; the bound session's key must be whole. */
static sqlite3_stmt *session_stmt(struct store *s, sqlite3_stmt **st, const char *sql,
				  const char *host, const char *session)
{
	if (s->readonly) {
		fail_read_only(s);
		return NULL;
	}
	if (!host || !session) {
		store_err(s, "a session row needs host and session");
		return NULL;
	}
	if (!*st && sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, st, NULL)) {
		store_db_fail(s, "cannot write a session row");
		return NULL;
	}
	return *st;
}

/* ?1 to ?6: key, times and losses. */
static int bind_session(sqlite3_stmt *st, const struct usage_session *u)
{
	int rc = store_bind_text(st, 1, u->host);

	rc |= store_bind_text(st, 2, u->session);
	rc |= sqlite3_bind_int64(st, 3, u->started);
	rc |= sqlite3_bind_int64(st, 4, u->last_sync);
	rc |= sqlite3_bind_int64(st, 5, clamp(u->unrecorded));
	rc |= sqlite3_bind_int64(st, 6, clamp(u->skipped));
	return rc;
}

/* @offset at @i, or NULL when the session has no boottime to place. */
static int bind_offset(sqlite3_stmt *st, int i, const struct usage_session *u)
{
	return u->last_sync_bt > STORE_NO_BT ? sqlite3_bind_int64(st, i, u->clock_offset) :
		sqlite3_bind_null(st, i);
}

int store_merge_session(struct store *s, const struct usage_session *u)
{
	sqlite3_stmt *st = session_stmt(s, &s->merge_session, merge_session_sql,
					u->host, u->session);
	int rc;

	if (!st)
		return -1;
	rc = bind_session(st, u);
	rc |= u->lost_at == STORE_NO_LOSS ? sqlite3_bind_null(st, 7) :
		sqlite3_bind_int64(st, 7, u->lost_at);
	rc |= store_bind_text(st, 8, u->host_id);
	rc |= store_bind_text(st, 9, u->stage);
	rc |= !u->stage || u->boot_offset < 0 ? sqlite3_bind_null(st, 10) :
		sqlite3_bind_int64(st, 10, u->boot_offset);
	rc |= u->first_sync ? sqlite3_bind_int64(st, 11, u->first_sync) :
		sqlite3_bind_null(st, 11);
	rc |= bind_bt(st, 12, u->started_bt) | bind_bt(st, 13, u->first_sync_bt) |
	      bind_bt(st, 14, u->last_sync_bt) | bind_bt(st, 15, u->lost_at_bt) |
	      bind_offset(st, 16, u);
	rc |= u->seq > 0 ? sqlite3_bind_int64(st, 17, u->seq) : sqlite3_bind_null(st, 17);
	return store_step_write(s, st, rc, "cannot write a session row");
}

int store_session(struct store *s, const char *host, const char *session,
		  const struct store_when *now, unsigned long long unrecorded,
		  unsigned long long skipped)
{
	const struct usage_session u = {
		.host = host, .session = session, .started = now->wall, .last_sync = now->wall,
		.unrecorded = unrecorded, .skipped = skipped,
		.last_sync_bt = now->bt, .clock_offset = now->offset,
	};
	sqlite3_stmt *st = session_stmt(s, &s->session, session_sql, host, session);

	if (!st)
		return -1;
	return store_step_write(s, st, bind_session(st, &u) | bind_bt(st, 7, now->bt) |
				bind_offset(st, 8, &u), "cannot write a session row");
}

int store_set_drained(struct store *s, const char *host, const char *session, long long id)
{
	static const char sql[] = "UPDATE sessions SET drained = ?3 WHERE host = ?1 AND session = ?2";
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL))
		return store_db_fail(s, "cannot write a session row");
	rc = store_bind_text(st, 1, host) | store_bind_text(st, 2, session) | sqlite3_bind_int64(st, 3, id);
	rc = store_step_write(s, st, rc, "cannot write a session row");
	sqlite3_finalize(st);
	return rc;
}

long long store_drained(struct store *s, const char *host, const char *session)
{
	static const char sql[] = "SELECT drained FROM sessions WHERE host = ?1 AND session = ?2";
	long long id = -1;
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL)) {
		store_db_fail(s, "cannot read a session row");
		return -2;
	}
	rc = store_bind_text(st, 1, host) | store_bind_text(st, 2, session);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
		id = sqlite3_column_int64(st, 0);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		store_db_fail(s, "cannot read a session row");
		id = -2;
	}
	sqlite3_finalize(st);
	return id;
}

/* ---- reading ---- */

static const char *col_text(sqlite3_stmt *st, int i)
{
	return (const char *)sqlite3_column_text(st, i);
}

/* Column @i, or @none when it is NULL (unknown). */
static long long col_int64_or(sqlite3_stmt *st, int i, long long none)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? none : sqlite3_column_int64(st, i);
}

static int int_or_unknown(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? -1 : sqlite3_column_int(st, i);
}

/* The key of a usage or usage_days row, its columns first (ROWS_SQL). */
static struct usage_key col_key(sqlite3_stmt *st)
{
	return (struct usage_key){
		.host = col_text(st, 0),
		.session = col_text(st, 1),
		.path = col_text(st, 2),
		.op = col_text(st, 3),
		.uid = (unsigned int)sqlite3_column_int64(st, 4),
		.cgroup_id = (unsigned long long)sqlite3_column_int64(st, 5),
		.exe = col_text(st, 6),
	};
}

/* The key of a sum (or of a use at boot), its columns first (SUMS_SQL). */
static struct usage_sum_key col_sum_key(sqlite3_stmt *st)
{
	return (struct usage_sum_key){
		.what = col_text(st, 0),
		.exe = col_text(st, 1),
		.uid = (unsigned int)sqlite3_column_int64(st, 2),
		.cgroup = col_text(st, 3),
		.op = col_text(st, 4),
		.host = col_text(st, 5),
	};
}

/* A row without a NOT NULL column: only a damaged file has one. */
int store_keyless(struct store *s, const char *what)
{
	s->rc = SQLITE_CORRUPT;
	store_err(s, "cannot read: %s lacks its key (damaged DB)", what);
	return -1;
}

/* Bind @f (NULL: all) to ?1 entry, ?2 since and ?3 until, those @st has. */
static void bind_filter(sqlite3_stmt *st, const struct store_filter *f)
{
	int n = sqlite3_bind_parameter_count(st);

	if (n >= 1)
		bind_entry(st, f);
	if (n >= 2)
		sqlite3_bind_int64(st, 2, f ? f->since : 0);
	if (n >= 3)
		sqlite3_bind_int64(st, 3, f ? f->until : 0);
}

/*
 * Run the read @sql, @f bound, and w->call() on each row until one
 * returns non-zero: that is returned. NULL @sql: @s's schema lacks what
 * it reads, no rows.
 */
int store_walk(struct store *s, const char *sql, const struct store_filter *f,
	       const struct store_walk *w)
{
	sqlite3_stmt *st;
	int rc, ret = 0;

	s->err[0] = '\0';
	if (s->empty || !sql)
		return 0;
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL))
		return store_db_fail(s, "cannot read");
	bind_filter(st, f);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		ret = w->call(s, st, w);
		if (ret)
			break;
	}
	if (!ret && rc != SQLITE_DONE)
		ret = store_db_fail(s, "cannot read");
	sqlite3_finalize(st);
	return ret;
}

static int file_row(struct store *s, sqlite3_stmt *st, const struct store_walk *w)
{
	struct usage_file f = {
		.what = col_text(st, 0),
		.path = col_text(st, 1),
		.table = col_text(st, 2),
		.status = col_text(st, 3),
		.last_seen = sqlite3_column_int64(st, 4),
	};

	return w->file(&f, w->arg);
}

static int sum_row(struct store *s, sqlite3_stmt *st, const struct store_walk *w)
{
	struct usage_sum u = {
		.key = col_sum_key(st),
		.count = (unsigned long long)sqlite3_column_int64(st, 6),
		.errors = (unsigned long long)sqlite3_column_int64(st, 7),
		.first_seen = sqlite3_column_int64(st, 8),
		.last_seen = sqlite3_column_int64(st, 9),
		.swept = (unsigned long long)sqlite3_column_int64(st, 10),
	};

	if (sqlite3_column_count(st) > 11)
		u.path = col_text(st, 11);
	return w->sum(&u, w->arg);
}

static int day_sum_row(struct store *s, sqlite3_stmt *st, const struct store_walk *w)
{
	struct usage_day d = {
		.what = col_text(st, 0),
		.exe = col_text(st, 1),
		.uid = (unsigned int)sqlite3_column_int64(st, 2),
		.op = col_text(st, 3),
		.host = col_text(st, 4),
		.day = sqlite3_column_int64(st, 5),
		.count = (unsigned long long)sqlite3_column_int64(st, 6),
		.errors = (unsigned long long)sqlite3_column_int64(st, 7),
		.swept = (unsigned long long)sqlite3_column_int64(st, 8),
	};

	return w->day(&d, w->arg);
}

bool store_has_days(const struct store *s)
{
	return !s->empty && !s->no_days;
}

/*
 * Which variant of a read: within a window of a DB with daily history,
 * from its days (WINDOW_CTE_SQL); else by rows, with or without swept.
 */
static int read_variant(const struct store *s, const struct store_filter *f)
{
	if (f && (f->since || f->until) && store_has_days(s))
		return READ_DAYS;
	return s->no_swept ? READ_NO_SWEPT : READ_ROWS;
}

int store_files(struct store *s, const struct store_filter *f,
		int (*fn)(const struct usage_file *, void *), void *arg)
{
	struct store_walk w = { .call = file_row, .file = fn, .arg = arg };

	return store_walk(s, files_sql[read_variant(s, f)], f, &w);
}

int store_sums(struct store *s, const struct store_filter *f,
	       int (*fn)(const struct usage_sum *, void *), void *arg)
{
	struct store_walk w = { .call = sum_row, .sum = fn, .arg = arg };

	return store_walk(s, sums_sql[read_variant(s, f)], f, &w);
}

int store_each_day(struct store *s, const struct store_filter *f,
		   int (*fn)(const struct usage_day *d, void *arg), void *arg)
{
	struct store_walk w = { .call = day_sum_row, .day = fn, .arg = arg };

	return store_walk(s, store_has_days(s) ? days_sql : NULL, f, &w);
}

long long store_rows(struct store *s)
{
	return s->empty ? 0 : store_query_int(s, "SELECT count(*) FROM usage");
}

int store_path_sums(struct store *s, const struct store_filter *f,
		    int (*fn)(const struct usage_sum *, void *), void *arg)
{
	struct store_walk w = { .call = sum_row, .sum = fn, .arg = arg };

	return store_walk(s, path_sums_sql[read_variant(s, f)], f, &w);
}

/* Call w->usage or w->since with @r, the row at @st (rows_since_sql's days after it). */
static int usage_row_call(sqlite3_stmt *st, const struct store_walk *w,
			  const struct usage_row *r)
{
	struct usage_counts recent = { 0 };
	bool has = sqlite3_column_count(st) > 21 &&
		   sqlite3_column_type(st, 21) != SQLITE_NULL;

	if (w->usage)
		return w->usage(r, w->arg);
	if (has) {
		recent.count = (unsigned long long)sqlite3_column_int64(st, 22);
		recent.errors = (unsigned long long)sqlite3_column_int64(st, 23);
		recent.swept = (unsigned long long)sqlite3_column_int64(st, 24);
	}
	return w->since(r, has ? &recent : NULL, w->arg);
}

/* A row of ROWS_SQL's columns. */
static int usage_row(struct store *s, sqlite3_stmt *st, const struct store_walk *w)
{
	struct usage_row r = {
		.key = col_key(st),
		.what = col_text(st, 7),
		.table = col_text(st, 8),
		.status = col_text(st, 9),
		.cgroup = col_text(st, 10),
		.comm = col_text(st, 11),
		.pid = int_or_unknown(st, 12),
		.ppid = int_or_unknown(st, 13),
		.count = (unsigned long long)sqlite3_column_int64(st, 14),
		.errors = (unsigned long long)sqlite3_column_int64(st, 15),
		.first_seen = sqlite3_column_int64(st, 16),
		.last_seen = sqlite3_column_int64(st, 17),
		.swept = (unsigned long long)sqlite3_column_int64(st, 18),
		.first_bt = col_int64_or(st, 19, STORE_NO_BT),
		.last_bt = col_int64_or(st, 20, STORE_NO_BT),
	};

	if (!key_whole(&r.key))
		return store_keyless(s, "a row");
	return usage_row_call(st, w, &r);
}

/* Which of rows_sql[] reads @s's schema. */
static int rows_variant(const struct store *s)
{
	return s->no_swept ? 2 : s->no_clock;
}

int store_each_row(struct store *s, int (*fn)(const struct usage_row *, void *),
		   void *arg)
{
	struct store_walk w = { .call = usage_row, .usage = fn, .arg = arg };

	return store_walk(s, rows_sql[rows_variant(s)], NULL, &w);
}

int store_each_row_since(struct store *s, long long since,
			 int (*fn)(const struct usage_row *r,
				   const struct usage_counts *recent, void *arg),
			 void *arg)
{
	const struct store_filter f = { .since = since };
	struct store_walk w = { .call = usage_row, .since = fn, .arg = arg };

	return store_walk(s, store_has_days(s) ? rows_since_sql[s->no_clock] :
			  rows_sql[rows_variant(s)], &f, &w);
}

static int day_row(struct store *s, sqlite3_stmt *st, const struct store_walk *w)
{
	struct usage_day_row d = {
		.key = col_key(st),
		.day = sqlite3_column_int64(st, 7),
		.what = col_text(st, 8),
		.count = (unsigned long long)sqlite3_column_int64(st, 9),
		.errors = (unsigned long long)sqlite3_column_int64(st, 10),
		.swept = (unsigned long long)sqlite3_column_int64(st, 11),
		.bt = col_int64_or(st, 12, STORE_NO_BT),
	};

	if (!key_whole(&d.key))
		return store_keyless(s, "a day row");
	return w->day_row(&d, w->arg);
}

int store_each_day_row(struct store *s,
		       int (*fn)(const struct usage_day_row *d, void *arg), void *arg)
{
	struct store_walk w = { .call = day_row, .day_row = fn, .arg = arg };

	return store_walk(s, store_has_days(s) ? day_rows_sql[s->no_clock] : NULL, NULL, &w);
}

/* Which of sessions_sql[] reads @s's schema; NULL: it has no sessions (schema 1). */
static const char *sessions_read(const struct store *s)
{
	if (s->no_sessions)
		return NULL;
	return sessions_sql[s->no_lost ? SESSIONS_4 : s->no_watched ? SESSIONS_5 :
			    s->no_first_sync ? SESSIONS_6 : s->no_clock ? SESSIONS_7 :
			    SESSIONS_8];
}

static int session_row(struct store *s, sqlite3_stmt *st, const struct store_walk *w)
{
	struct usage_session u = {
		.host = col_text(st, 0), .session = col_text(st, 1),
		.started = sqlite3_column_int64(st, 2),
		.last_sync = sqlite3_column_int64(st, 3),
		/* Negative only in a damaged DB: read as the most. */
		.unrecorded = (unsigned long long)sqlite3_column_int64(st, 4),
		.skipped = (unsigned long long)sqlite3_column_int64(st, 5),
		.lost_at = col_int64_or(st, 6, STORE_NO_LOSS),
		.host_id = col_text(st, 7),
		.stage = col_text(st, 8),
		.boot_offset = col_int64_or(st, 9, -1),
		.first_sync = sqlite3_column_int64(st, 10),	/* NULL: 0 */
		.started_bt = col_int64_or(st, 11, STORE_NO_BT),
		.first_sync_bt = col_int64_or(st, 12, STORE_NO_BT),
		.last_sync_bt = col_int64_or(st, 13, STORE_NO_BT),
		.lost_at_bt = col_int64_or(st, 14, STORE_NO_BT),
		.clock_offset = sqlite3_column_int64(st, 15),
		.seq = sqlite3_column_int64(st, 16),	/* NULL: 0 */
	};

	if (!u.host || !u.session)
		return store_keyless(s, "a session row");
	return w->session(&u, w->arg);
}

int store_each_session(struct store *s,
		       int (*fn)(const struct usage_session *u, void *arg), void *arg)
{
	struct store_walk w = { .call = session_row, .session = fn, .arg = arg };

	return store_walk(s, sessions_read(s), NULL, &w);
}

static int boot_row(struct store *s, sqlite3_stmt *st, const struct store_walk *w)
{
	struct usage_boot b = {
		.key = col_sum_key(st),
		.stage = col_text(st, 6),
		.first_seen = sqlite3_column_int64(st, 7),
		.after_boot = col_int64_or(st, 8, -1),
	};

	if (!b.exe || !b.op || !b.host)
		return store_keyless(s, "a row");
	return w->boot(&b, w->arg);
}

int store_boot_uses(struct store *s, const struct store_filter *f,
		    int (*fn)(const struct usage_boot *b, void *arg), void *arg)
{
	struct store_walk w = { .call = boot_row, .boot = fn, .arg = arg };
	/* Before schema 6, no session recorded its stage. */
	bool staged = !s->no_sessions && !s->no_watched;

	return store_walk(s, staged ? boot_uses_sql[s->no_first_sync] : NULL, f, &w);
}
