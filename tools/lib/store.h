/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The usage store: who used which deprecated sysfs file, kept by the tracer
 * (abidep trace) in an SQLite DB and read by abidep report and check. The
 * schema is in store_schema.c, the rows' guarantees in store.c, and both in
 * Documentation/admin-guide/usage-store.rst.
 */
#ifndef ABIDEP_STORE_H
#define ABIDEP_STORE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "bootclock.h"

#define STORE_DEFAULT_PATH "/var/lib/abidep/usage.db"

/*
 * How many days of daily history (usage_days) the store keeps: the newest
 * day in the DB and the ones before it, this many in all. A writer (each
 * sync, each merge) deletes older days; the usage table's totals keep
 * their uses.
 */
#define STORE_HISTORY_DAYS	400

struct store;

/*
 * What a row or a sum has counted, and usage_add() to add one such to
 * another. The members are also those of struct usage_row and struct
 * usage_sum, under the same names (r->count), through an anonymous union
 * with a struct usage_counts (r->counts).
 */
#define USAGE_COUNTS_MEMBERS						\
	unsigned long long count, errors;	/* accesses, those that failed */ \
	unsigned long long swept;	/* of count, those made within a sweep */ \
	long long first_seen, last_seen		/* unix seconds */

struct usage_counts {
	USAGE_COUNTS_MEMBERS;
};

/*
 * Add @from's counts to @to's (saturating), first_seen the earlier,
 * last_seen the later: two sessions' use summed, or two tracer keys that are
 * one row of the store.
 */
void usage_add(struct usage_counts *to, const struct usage_counts *from);

/*
 * Were all of @c's accesses made within a sweep (the process, or its
 * parent, listed the file's directory and opened several of its files)?
 * Such a user is an enumerator, not a program that needs the file; one
 * unswept access makes it a user by name. No access at all is no sweep.
 */
bool usage_all_swept(const struct usage_counts *c);

/*
 * The key of a row (usage) and of its days (usage_days): one program's
 * use of one file in one tracer load. The members are also those of
 * struct usage_row and struct usage_day_row, as USAGE_COUNTS_MEMBERS are.
 * host, session, path, op and exe are never NULL in the DB.
 */
#define USAGE_KEY_MEMBERS						\
	const char *host;	/* hostname */				\
	const char *session;	/* "<boot_id>:<map id>": one tracer load */ \
	const char *path;	/* the concrete sysfs file, e.g. /sys/devices/system/cpu/cpuidle/current_governor_ro */ \
	const char *op;		/* "open", "read" or "write" */		\
	unsigned int uid;						\
	unsigned long long cgroup_id;					\
	const char *exe		/* executable path */

struct usage_key {
	USAGE_KEY_MEMBERS;
};

/* One row: what one tracer load (a session) has counted for one key. */
struct usage_row {
	union {			/* r->host, or the whole r->key */
		struct { USAGE_KEY_MEMBERS; };
		struct usage_key key;
	};
	const char *what;	/* the table's What pattern it matched */
	const char *table;	/* table file basename, e.g. sysfs-cpuidle */
	const char *status;	/* "deprecated" or "removed" */
	const char *cgroup;	/* cgroup v2 path like /system.slice/foo.service, or NULL if unknown */
	const char *comm;
	int pid, ppid;		/* of the first access; negative: unknown */
	union {			/* the session's, or since its last sync (store_add()) */
		struct { USAGE_COUNTS_MEMBERS; };
		struct usage_counts counts;
	};
	/*
	 * first_seen and last_seen on the boot's own clock (CLOCK_BOOTTIME,
	 * ns; schema 8), which the store places by the boot's best mapping
	 * (bootclock.h): STORE_NO_BT when not known (a row an older abidep
	 * wrote, whose times stay as written).
	 */
	long long first_bt, last_bt;
	/*
	 * Not the store's (0 in its rows): a source whose rows are summed
	 * over sessions (Prometheus's) has no session's boot to tell how
	 * much later than placed a use may be (check_clock.c); it says here
	 * the latest its last use may have been, when later than last_seen.
	 */
	long long last_seen_latest;
};

/*
 * A boottime not known. A tracer never reads 0 (it runs seconds after
 * boot), so that zeroed records have none.
 */
#define STORE_NO_BT	0LL

/*
 * When a tracer's sync (or its pin) was: @bt, its CLOCK_BOOTTIME (ns;
 * STORE_NO_BT: not known), @offset the whole seconds of the boot's best
 * mapping (bootclock.h; meaningful with @bt only), and @wall the unix
 * seconds that places it at: clock_place() of the two, or, without
 * them, the wall clock as read.
 */
struct store_when {
	long long wall, bt, offset;
};

/*
 * Open or create @path (with its parent directory: mode 0700 for a created
 * directory, 0600 for a created file), set up the schema, WAL mode and a busy
 * timeout. @readonly never creates or changes anything. On failure return
 * NULL with a message in @err saying what failed, where, and what to do.
 */
struct store *store_open(const char *path, bool readonly, char *err, size_t errlen);
void store_close(struct store *s);

/*
 * A write transaction (BEGIN IMMEDIATE: the write lock is taken now, so
 * that what the caller reads after store_begin() is written in order with
 * any other writer). On failure, store_commit() rolls back before returning.
 * On a read-only store, a read transaction: the queries until
 * store_commit() see one snapshot.
 */
int store_begin(struct store *s);
int store_commit(struct store *s);
int store_rollback(struct store *s);

/*
 * Upsert keyed by (host, session, path, op, uid, cgroup_id, exe): count,
 * errors, swept and last_seen are replaced by the given (cumulative) values,
 * first_seen = min(old, new), and comm, pid, ppid, cgroup, what, table and
 * status keep the first non-NULL. host, session, path, op and exe must not
 * be NULL. Counts above INT64_MAX are stored as INT64_MAX.
 *
 * The daily history too: what count, errors and swept grew by over the
 * row replaced (all of them for a new row; never less than 0) is added to
 * the day of @r->last_seen, so that a session's days sum to its row. The
 * transaction's store_commit() deletes the days past STORE_HISTORY_DAYS.
 */
int store_upsert(struct store *s, const struct usage_row *r);

/*
 * One tracer session: when it first and last synced (unix seconds), and
 * what it could not count, cumulative within it: accesses seen but not
 * recorded (usage map full) and runs of its programs the kernel skipped
 * (up to as many accesses not seen). lost_at: the sync that first saw
 * those at their latest values, the losses being after the sync before
 * it; STORE_NO_LOSS while both are 0.
 */
struct usage_session {
	const char *host, *session;
	long long started, last_sync;
	unsigned long long unrecorded, skipped;
	long long lost_at;
	/* Where its host key's id came from (hostid.h); NULL: a name alone. */
	const char *host_id;
	/*
	 * How early in its boot it began: "initramfs", "early" (before
	 * systemd-udevd), "late"; NULL: unknown. boot_offset: seconds from
	 * boot to its start, -1 unknown.
	 */
	const char *stage;
	long long boot_offset;
	/*
	 * Its first sync (schema 7): started unless a pin came before it
	 * (store_schema.c). 0: unknown, a session written before schema 7.
	 */
	long long first_sync;
	/*
	 * The same times on its boot's own clock (schema 8; ns,
	 * STORE_NO_BT: not known, written by an older abidep), and the
	 * mapping (whole seconds) that places them, meaningful with
	 * last_sync_bt only (store_clock.c). A session without last_sync_bt
	 * has times an older abidep took from the wall clock alone.
	 */
	long long started_bt, first_sync_bt, last_sync_bt, lost_at_bt;
	long long clock_offset;
	/*
	 * Its place among its host's sessions in the order of their first
	 * syncs (1, 2, ...; schema 8), which no wall clock can change; 0:
	 * not known.
	 */
	long long seq;
};

/*
 * The length of the boot id that begins session id @session ("<boot
 * id>:<map id>", trace_sync.c's open_db()); 0 when the boot is unknown (no
 * ':', or "unknown": the tracer could not read it). check groups sessions
 * by it, and report --format prometheus exports it.
 */
size_t usage_session_boot_len(const char *session);

/*
 * The length of what names @session's boot where times are placed on its
 * clock (store_clock.c, clock_history.c): its boot id, or the whole session
 * id when the boot is unknown, a boot of its own.
 */
size_t usage_session_clock_boot_len(const char *session);

/* The stages a session records (trace_stage.c decides them). */
#define STORE_STAGE_INITRAMFS	"initramfs"
#define STORE_STAGE_EARLY	"early"
#define STORE_STAGE_LATE	"late"

#define STORE_NO_LOSS	LLONG_MIN

/*
 * Record that the tracer session (@host, @session) ran at @now, having
 * lost @unrecorded and @skipped so far: a new row gets started =
 * last_sync = first_sync = @now (and their boottimes @now->bt, and
 * @now->offset as the mapping that places them), an existing one keeps
 * its started and first_sync (started the smaller) and takes the larger
 * last_sync, and lost_at becomes @now if the losses grew. The tracer
 * calls it on every sync, in the sync's transaction, rows or none: abidep
 * check reads from it when the tracer ran, which uses cannot show, and
 * whether it missed any.
 */
int store_session(struct store *s, const char *host, const char *session,
		  const struct store_when *now, unsigned long long unrecorded,
		  unsigned long long skipped);

/* The message of the last failure (never NULL). */
const char *store_errmsg(struct store *s);

/* Whether the last failure was a damaged file (SQLite: corrupt, not a DB). */
bool store_damaged(struct store *s);

/* ---- reading, for abidep report ---- */

struct entry_sel;

/* Which rows to read; zeroed: all. */
struct store_filter {
	/*
	 * --entry: the rows of the uses @entry selects (entry.h, whose
	 * entry_sel_use() the reads call per row); NULL: all.
	 */
	struct entry_sel *entry;
	/*
	 * A time window, unix seconds, 0: open. In a DB with daily history
	 * (store_has_days()), the uses made on the days (UTC) that overlap
	 * [since, until]; without it (and for rows written before it), the
	 * sessions with a use at or after since and a first use at or before
	 * until, counted whole.
	 */
	long long since;
	long long until;
};

/* A file the tracer saw used, under the entry (What) it resolves. */
struct usage_file {
	const char *what;	/* NULL if the tracer did not know it */
	const char *path;
	const char *table, *status;	/* as of the latest use of the file */
	long long last_seen;
};

/*
 * What sums of use are keyed by: (what, exe, uid, cgroup, op, host). The
 * members of struct usage_sum and struct usage_boot, as USAGE_KEY_MEMBERS.
 */
#define USAGE_SUM_KEY_MEMBERS						\
	const char *what;	/* NULL if unknown */			\
	const char *exe;						\
	unsigned int uid;						\
	const char *cgroup;	/* NULL if unknown */			\
	const char *op;							\
	const char *host

struct usage_sum_key {
	USAGE_SUM_KEY_MEMBERS;
};

/*
 * Use summed over sessions, per key. Within a window of daily history,
 * first_seen and last_seen are the session's own, clipped to the first
 * and last day with a use in the window.
 */
struct usage_sum {
	union {			/* u->what, or the whole u->key */
		struct { USAGE_SUM_KEY_MEMBERS; };
		struct usage_sum_key key;
	};
	union {			/* SUM, SUM, SUM, MIN, MAX */
		struct { USAGE_COUNTS_MEMBERS; };
		struct usage_counts counts;
	};
	const char *path;	/* store_path_sums() only; NULL otherwise */
};

/*
 * Call @fn for each file (ordered by what, NULL first, then path) or each
 * sum (ordered by what, exe, uid, cgroup, op, host; NULL first). The strings
 * are valid during the call only. A non-zero return of @fn stops the walk
 * and is returned; -1 is an error of the store (store_errmsg()).
 */
int store_files(struct store *s, const struct store_filter *f,
		int (*fn)(const struct usage_file *, void *), void *arg);
int store_sums(struct store *s, const struct store_filter *f,
	       int (*fn)(const struct usage_sum *, void *), void *arg);

/*
 * A use during boot: a usage row first seen in a session that began in the
 * initramfs or before systemd-udevd started (its stage), before that
 * session's first sync (sessions.first_sync; for a session written before
 * schema 7, its earliest watched run). Keyed as struct usage_sum, of one
 * host.
 */
struct usage_boot {
	union {			/* b->what, or the whole b->key */
		struct { USAGE_SUM_KEY_MEMBERS; };
		struct usage_sum_key key;
	};
	const char *stage;	/* STORE_STAGE_INITRAMFS or STORE_STAGE_EARLY */
	long long first_seen;	/* unix seconds */
	long long after_boot;	/* seconds from boot to first_seen; -1: unknown */
};

/*
 * Call @fn for each use during boot of the rows @f selects (f->entry; of
 * f->since and f->until, the days of the window as store_each_day()'s:
 * a row first seen on one of them), ordered by what, exe, uid, cgroup, op,
 * host (as store_sums()), then the earliest after boot first (unknown
 * last). A DB older than schema 6, opened read-only, has none. Returns as
 * store_sums().
 */
int store_boot_uses(struct store *s, const struct store_filter *f,
		    int (*fn)(const struct usage_boot *b, void *arg), void *arg);

/* Daily use summed over sessions, cgroups and files, per (what, exe, uid, op, host, day). */
struct usage_day {
	const char *what;	/* NULL if unknown */
	const char *exe;
	unsigned int uid;
	const char *op;
	const char *host;
	long long day;		/* 00:00 UTC, unix seconds */
	unsigned long long count, errors, swept;
};

/* Does the DB keep daily history (schema 4 or later)? */
bool store_has_days(const struct store *s);

/*
 * Call @fn for each day's use, ordered by what (NULL first), exe, uid, op,
 * host, day. Honors f->entry, f->since and f->until (the days that overlap
 * [since, until]). Returns as store_sums(); a DB without history has none.
 */
int store_each_day(struct store *s, const struct store_filter *f,
		   int (*fn)(const struct usage_day *d, void *arg), void *arg);

/* Number of rows in the store, or -1. */
long long store_rows(struct store *s);

/* ---- whole rows, for abidep merge and check; sums per file, for metrics ---- */

/*
 * Like store_sums(), per (what, path, exe, uid, op, host) (cgroups summed),
 * ordered so; u->path is set.
 */
int store_path_sums(struct store *s, const struct store_filter *f,
		    int (*fn)(const struct usage_sum *, void *), void *arg);

/*
 * Call @fn for every row, in key order; pid and ppid are -1 when unknown,
 * swept is 0 in a DB older than schema 3. Return as store_files().
 */
int store_each_row(struct store *s, int (*fn)(const struct usage_row *, void *),
		   void *arg);

/*
 * Like store_each_row(), with each row @recent: its uses on the days (UTC)
 * that overlap [@since, now], first_seen and last_seen 0; NULL when the DB
 * keeps no history of the row (older than schema 4, a row written before
 * the upgrade, or all of its days past STORE_HISTORY_DAYS).
 */
int store_each_row_since(struct store *s, long long since,
			 int (*fn)(const struct usage_row *r,
				   const struct usage_counts *recent, void *arg),
			 void *arg);

/* One row of the daily history: a key's uses in one session on one day. */
struct usage_day_row {
	union {			/* its row's key: d->host, or the whole d->key */
		struct { USAGE_KEY_MEMBERS; };
		struct usage_key key;
	};
	long long day;		/* 00:00 UTC, unix seconds */
	const char *what;	/* NULL if unknown */
	unsigned long long count, errors, swept;
	long long bt;		/* the latest use counted on it, CLOCK_BOOTTIME ns; STORE_NO_BT */
};

/* Call @fn for every day row, in key order; return as store_each_row(). */
int store_each_day_row(struct store *s,
		       int (*fn)(const struct usage_day_row *d, void *arg), void *arg);

/*
 * Merge a day row read from another DB: count, errors and swept become the
 * larger of the two (a session's day only grows), so merging it again
 * changes nothing. The commit prunes as store_upsert()'s does.
 */
int store_merge_day(struct store *s, const struct usage_day_row *d);

/*
 * Add @r's counts to its row's (a new row: as store_upsert()), first_seen
 * the earlier and last_seen the later: for a tracer whose counts are what
 * happened since its last sync (one that empties its map at each sync),
 * not its session's totals. The daily history gets what was added.
 */
int store_add(struct store *s, const struct usage_row *r);

/*
 * The last usage map a sync of a session drained into the DB (schema 5's
 * sessions.drained: its id), for store_add()'s caller to add none twice:
 * set in the sync's transaction, after store_session(). store_drained()
 * returns -1 for none, -2 on an error of the store.
 */
int store_set_drained(struct store *s, const char *host, const char *session, long long id);
long long store_drained(struct store *s, const char *host, const char *session);

/*
 * Merge a row read from another DB (abidep merge): keyed as store_upsert(),
 * but count, errors, swept and last_seen become the larger of the two and
 * first_seen the smaller. A session's counts only grow, so of two copies
 * of one DB the later wins whichever is merged first, and merging the same
 * row twice changes nothing.
 */
int store_merge_row(struct store *s, const struct usage_row *r);

/*
 * Merge a session row read from another DB: started and first_sync (the
 * known one) become the smaller of the two; last_sync, the losses and
 * lost_at the larger; merging it again changes nothing.
 */
int store_merge_session(struct store *s, const struct usage_session *u);

/*
 * Call @fn for every session row, ordered by host, then started. A DB of
 * schema 1, opened read-only, has none: no call; one of schema 2 to 4 has
 * no losses (0, STORE_NO_LOSS); one older than 6 no host_id nor stage
 * (NULL, boot_offset -1); one older than 7 no first_sync (0). Return as
 * store_each_row().
 */
int store_each_session(struct store *s,
		       int (*fn)(const struct usage_session *u, void *arg), void *arg);

/* ---- what each session watched (store_watched.c) ---- */

/* A What of the tracer's tables, and how many files it watched for it. */
struct store_watch {
	const char *what;
	long long files;
};

/* What a tracer knows of its session besides its syncs. */
struct store_session_info {
	const char *host_id;	/* where its host key's id came from (hostid.h) */
	const char *stage;	/* as struct usage_session's; NULL: unknown */
	struct store_when pinned;	/* when it began; wall 0: unknown */
	long long boot_offset;	/* seconds from boot to then; -1: unknown */
};

/*
 * In a tracer's sync, after store_session(): what @si says of the session
 * (the first stage recorded stays; a pin earlier than the session's first
 * sync becomes its start), and the files each of the @n Whats of its
 * tables had watched at this sync (@now): a What's run of syncs in one
 * state (watched, or looked for and not found) goes on, or a new one
 * starts (store_schema.c).
 */
int store_session_watched(struct store *s, const char *host, const char *session,
			  const struct store_session_info *si, const struct store_when *now,
			  const struct store_watch *w, int n);

/* A run of a session's syncs in one state, for a What. */
struct usage_watched {
	const char *host, *session;
	const char *what;	/* NULL: a session of before schema 6, no watched set */
	long long since, last_sync;	/* its first and latest sync */
	long long files;	/* 0: looked for, no file */
	long long since_bt, last_sync_bt;	/* the same, CLOCK_BOOTTIME ns; STORE_NO_BT */
};

/*
 * Call @fn for every watched run and, as a run with no What over the
 * session's span, every session written before schema 6 (no host_id: an
 * older tracer's, which recorded none),
 * ordered by host, then since. A DB older than schema 6, opened
 * read-only, gives its sessions so. Return as store_each_row().
 */
int store_each_watched(struct store *s,
		       int (*fn)(const struct usage_watched *w, void *arg), void *arg);

/* Merge a run read from another DB (abidep merge): the later sync wins. */
int store_merge_watched(struct store *s, const struct usage_watched *w);

/*
 * Take the rows of a DB written before host keys had ids (schema 6),
 * keyed by host name alone, as this host's (@name) and key them @key:
 * only when @name is the only such host of its sessions (of its rows, in
 * a DB without sessions): the DB is not a fleet's. 1 when
 * rekeyed, 0 when not, -1 on error.
 */
int store_adopt_host(struct store *s, const char *name, const char *key);

/* ---- each boot's own clock (store_clock.c) ---- */

/* A reading of a session's clocks (schema 8's clock table). */
struct usage_clock {
	const char *host, *session;
	struct clock_reading r;
};

/*
 * In a tracer's sync: keep @r, a reading of the session's clocks, when it
 * is the session's first or its mapping moved from the session's latest
 * (clock_moved()); then *@offset is the boot's best mapping, in whole
 * seconds, that the sync's times are placed by (clock_best() over the
 * readings of every session of the boot).
 */
int store_clock_note(struct store *s, const char *host, const char *session,
		     const struct clock_reading *r, long long *offset);

/*
 * Place every time of @session's boot on @host (its sessions, rows, days
 * and watched runs that have boottimes) by the boot's best mapping, in
 * the caller's transaction: the sessions placed by another mapping, or
 * all of them with @force. Rows an older abidep wrote keep their times.
 */
int store_clock_redate(struct store *s, const char *host, const char *session, bool force);

/*
 * Call @fn for every reading, ordered by host, session, boottime; a DB
 * older than schema 8 has none. Return as store_each_row().
 */
int store_each_clock(struct store *s,
		     int (*fn)(const struct usage_clock *c, void *arg), void *arg);

/* Merge a reading of another DB (abidep merge): kept once. */
int store_merge_clock(struct store *s, const struct usage_clock *c);

#endif
