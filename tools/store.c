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
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <sqlite3.h>

#include "store.h"
#include "store_internal.h"
#include "util.h"

#define BUSY_TIMEOUT_MS	10000

/*
 * A session's span only widens: the tracer's own syncs (started = last_sync
 * = now) and merged copies of it (any order, any number of times) alike.
 */
static const char session_sql[] =
	"INSERT INTO sessions (host, session, started, last_sync)"
	" VALUES (?1, ?2, ?3, ?4)"
	" ON CONFLICT (host, session) DO UPDATE SET"
	" started = min(started, excluded.started),"
	" last_sync = max(last_sync, excluded.last_sync)";

static const char sessions_sql[] =
	"SELECT host, session, started, last_sync FROM sessions"
	" ORDER BY host, started, session";

/* The usage upserts: the row, then what to do with its counts on conflict. */
#define USAGE_INSERT_SQL						\
	"INSERT INTO usage (host, session, path, op, uid, cgroup_id, exe,"	\
	" what, table_name, status, cgroup, comm, pid, ppid,"		\
	" count, errors, first_seen, last_seen, swept)"		\
	" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14,"	\
	" ?15, ?16, ?17, ?18, ?19)"					\
	" ON CONFLICT (host, session, path, op, uid, cgroup_id, exe) DO UPDATE SET"

/* ... and, either way, the first known of the rest. */
#define USAGE_KEEP_FIRST_SQL						\
	" first_seen = min(first_seen, excluded.first_seen),"		\
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
	USAGE_KEEP_FIRST_SQL;

/* ?1 the entry pattern or NULL, ?2 since (0: all). */
#define FILTER_SQL							\
	" WHERE (?1 IS NULL OR instr(what, ?1) > 0 OR what GLOB ?1"	\
	" OR path = ?1 OR path GLOB ?1) AND (?2 = 0 OR last_seen >= ?2)"

/* With one MAX(), SQLite takes the bare columns from the row of the max. */
static const char files_sql[] =
	"SELECT what, path, table_name, status, MAX(last_seen) FROM usage"
	FILTER_SQL " GROUP BY what, path ORDER BY what, path";

/*
 * The reads of swept: a DB older than schema 3, opened read-only, has no
 * such column, and is read as if nothing was swept (s->no_swept).
 */
#define SUMS_SQL(SWEPT)							\
	"SELECT what, exe, uid, cgroup, op, host, SUM(count), SUM(errors),"	\
	" MIN(first_seen), MAX(last_seen), " SWEPT " FROM usage" FILTER_SQL	\
	" GROUP BY what, exe, uid, cgroup, op, host"			\
	" ORDER BY what, exe, uid, cgroup, op, host"

static const char *const sums_sql[] = { SUMS_SQL("SUM(swept)"), SUMS_SQL("0") };

/*
 * As upsert_sql, for rows of another DB: see store_merge_row(). Of two
 * copies of a session's row the larger counts are the later ones.
 */
static const char merge_sql[] = USAGE_INSERT_SQL
	" count = max(count, excluded.count),"
	" errors = max(errors, excluded.errors),"
	" swept = max(swept, excluded.swept),"
	" last_seen = max(last_seen, excluded.last_seen),"
	USAGE_KEEP_FIRST_SQL;

#define PATH_SUMS_SQL(SWEPT)						\
	"SELECT what, exe, uid, NULL, op, host, SUM(count), SUM(errors),"	\
	" MIN(first_seen), MAX(last_seen), " SWEPT ", path FROM usage"	\
	FILTER_SQL							\
	" GROUP BY what, path, exe, uid, op, host"			\
	" ORDER BY what, path, exe, uid, op, host"

static const char *const path_sums_sql[] = {
	PATH_SUMS_SQL("SUM(swept)"), PATH_SUMS_SQL("0"),
};

#define ROWS_SQL(SWEPT)							\
	"SELECT host, session, path, op, uid, cgroup_id, exe, what, table_name,"	\
	" status, cgroup, comm, pid, ppid, count, errors, first_seen, last_seen,"	\
	" " SWEPT " FROM usage ORDER BY host, session, path, op, uid, cgroup_id, exe"

static const char *const rows_sql[] = { ROWS_SQL("swept"), ROWS_SQL("0") };

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

/* mkdir -p the directory of @path; what we create is 0700 (root's data). */
static int make_parent(const char *path, char *err, size_t errlen)
{
	char *dir = xstrdup(path), *p, c;
	struct stat st;
	int ret = 0;

	p = strrchr(dir, '/');
	if (!p || p == dir) {
		free(dir);
		return 0;
	}
	*p = '\0';
	for (p = dir + 1; ; p++) {
		if (*p && *p != '/')
			continue;
		c = *p;
		*p = '\0';
		if (!mkdir(dir, 0700)) {
			chmod(dir, 0700);	/* whatever the umask */
		} else if (errno != EEXIST || stat(dir, &st) || !S_ISDIR(st.st_mode)) {
			snprintf(err, errlen, "cannot create the directory %s for the usage DB %s: %s; run as root, or name a writable file with --db",
				 dir, path, errno == EEXIST ? strerror(ENOTDIR) : strerror(errno));
			ret = -1;
			break;
		}
		*p = c;
		if (!c)
			break;
	}
	free(dir);
	return ret;
}

/* Create @path as an empty file 0600: SQLite would make it 0644. */
static int make_file(const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

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

/* The common cases said plainly, before SQLite's generic messages. */
static int check_file(const char *path, bool readonly, char *err, size_t errlen)
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
	if (access(path, readonly ? R_OK : R_OK | W_OK)) {
		snprintf(err, errlen, "cannot %s the usage DB %s: %s; run as root, or name another with --db",
			 readonly ? "read" : "write", path, strerror(errno));
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

static int setup(struct store *s)
{
	sqlite3_extended_result_codes(s->db, 1);
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
 * user, say. When DB-wal is missing too, no writer has it open and all is
 * in the main file: read that alone, as an immutable file (no locks, no
 * -shm). A writer that starts and checkpoints during the read may make it
 * fail; the report is then run again.
 */
static int reopen_immutable(struct store *s)
{
	static const char hex[] = "0123456789ABCDEF";
	char *wal = xasprintf("%s-wal", s->path), *uri, *q;
	const unsigned char *p;
	bool in_use = !access(wal, F_OK) || errno != ENOENT;
	int rc;

	free(wal);
	if (!s->readonly || (s->rc & 0xff) != SQLITE_READONLY || in_use)
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

struct store *store_open(const char *path, bool readonly, char *err, size_t errlen)
{
	struct store *s;
	int rc;

	if (readonly ? check_file(path, true, err, errlen) :
	    make_parent(path, err, errlen) || make_file(path, err, errlen) ||
	    check_file(path, false, err, errlen))
		return NULL;
	s = xcalloc(1, sizeof(*s));
	s->path = xstrdup(path);
	s->readonly = readonly;
	/* No SQLITE_OPEN_CREATE: the file exists, with our mode. */
	rc = sqlite3_open_v2(path, &s->db, readonly ? SQLITE_OPEN_READONLY :
			     SQLITE_OPEN_READWRITE, NULL);
	if (rc != SQLITE_OK) {
		s->rc = rc;
		return open_fail(s, err, errlen);
	}
	if (setup(s) && reopen_immutable(s))
		return open_fail(s, err, errlen);
	if (!readonly && sqlite3_prepare_v3(s->db, upsert_sql, -1, SQLITE_PREPARE_PERSISTENT,
					    &s->upsert, NULL)) {
		store_db_fail(s, NULL);
		return open_fail(s, err, errlen);
	}
	return s;
}

void store_close(struct store *s)
{
	if (!s)
		return;
	sqlite3_finalize(s->upsert);
	sqlite3_finalize(s->merge);
	sqlite3_finalize(s->session);
	/* Rolls back a transaction left open. */
	sqlite3_close_v2(s->db);
	free(s->path);
	free(s);
}

/* ---- writing ---- */

int store_begin(struct store *s)
{
	s->err[0] = '\0';
	return store_exec(s, s->readonly ? "BEGIN" : "BEGIN IMMEDIATE");
}

int store_commit(struct store *s)
{
	if (!store_exec(s, "COMMIT"))
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
	if (sqlite3_get_autocommit(s->db))
		return 0;		/* nothing open: SQLite rolled it back */
	return store_exec(s, "ROLLBACK");
}

static int bind_text(sqlite3_stmt *st, int i, const char *v)
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

bool usage_all_swept(const struct usage_counts *c)
{
	return c->swept && c->swept >= c->count;
}

static int write_row(struct store *s, sqlite3_stmt *st, const struct usage_row *r);

int store_upsert(struct store *s, const struct usage_row *r)
{
	return write_row(s, s->upsert, r);
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
static int step_write(struct store *s, sqlite3_stmt *st, int rc, const char *what)
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
	int rc = SQLITE_OK;

	if (!st) {
		store_err(s, "the usage DB %s is open read-only", s->path);
		return -1;
	}
	if (!r->host || !r->session || !r->path || !r->op || !r->exe) {
		store_err(s, "a usage row needs host, session, path, op and exe");
		return -1;
	}
	rc |= bind_text(st, 1, r->host);
	rc |= bind_text(st, 2, r->session);
	rc |= bind_text(st, 3, r->path);
	rc |= bind_text(st, 4, r->op);
	rc |= sqlite3_bind_int64(st, 5, r->uid);
	rc |= sqlite3_bind_int64(st, 6, (sqlite3_int64)r->cgroup_id);
	rc |= bind_text(st, 7, r->exe);
	rc |= bind_text(st, 8, r->what);
	rc |= bind_text(st, 9, r->table);
	rc |= bind_text(st, 10, r->status);
	rc |= bind_text(st, 11, r->cgroup);
	rc |= bind_text(st, 12, r->comm);
	rc |= r->pid < 0 ? sqlite3_bind_null(st, 13) : sqlite3_bind_int(st, 13, r->pid);
	rc |= r->ppid < 0 ? sqlite3_bind_null(st, 14) : sqlite3_bind_int(st, 14, r->ppid);
	rc |= sqlite3_bind_int64(st, 15, clamp(r->count));
	rc |= sqlite3_bind_int64(st, 16, clamp(r->errors));
	rc |= sqlite3_bind_int64(st, 17, r->first_seen);
	rc |= sqlite3_bind_int64(st, 18, r->last_seen);
	rc |= sqlite3_bind_int64(st, 19, clamp(r->swept));
	return step_write(s, st, rc, "cannot write a usage row");
}

int store_merge_session(struct store *s, const char *host, const char *session,
			long long started, long long last_sync)
{
	sqlite3_stmt *st;
	int rc = SQLITE_OK;

	if (s->readonly) {
		store_err(s, "the usage DB %s is open read-only", s->path);
		return -1;
	}
	if (!host || !session) {
		store_err(s, "a session row needs host and session");
		return -1;
	}
	if (!s->session &&
	    sqlite3_prepare_v3(s->db, session_sql, -1, SQLITE_PREPARE_PERSISTENT,
			       &s->session, NULL))
		return store_db_fail(s, "cannot write a session row");
	st = s->session;
	rc |= bind_text(st, 1, host);
	rc |= bind_text(st, 2, session);
	rc |= sqlite3_bind_int64(st, 3, started);
	rc |= sqlite3_bind_int64(st, 4, last_sync);
	return step_write(s, st, rc, "cannot write a session row");
}

int store_session(struct store *s, const char *host, const char *session, long long now)
{
	return store_merge_session(s, host, session, now, now);
}

/* ---- reading ---- */

/* The callbacks of store_files() and store_sums(). */
struct walk {
	int (*file)(const struct usage_file *f, void *arg);
	int (*sum)(const struct usage_sum *u, void *arg);
	void *arg;
};

static const char *col_text(sqlite3_stmt *st, int i)
{
	return (const char *)sqlite3_column_text(st, i);
}

static int file_row(sqlite3_stmt *st, const struct walk *w)
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

static int sum_row(sqlite3_stmt *st, const struct walk *w)
{
	struct usage_sum u = {
		.what = col_text(st, 0),
		.exe = col_text(st, 1),
		.uid = (unsigned int)sqlite3_column_int64(st, 2),
		.cgroup = col_text(st, 3),
		.op = col_text(st, 4),
		.host = col_text(st, 5),
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

/* Run @sql with the filter bound, a callback per row; see store_files(). */
static int walk(struct store *s, const char *sql, const struct store_filter *f,
		const struct walk *w)
{
	sqlite3_stmt *st;
	int rc, ret = 0;

	s->err[0] = '\0';
	if (s->empty)
		return 0;
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL))
		return store_db_fail(s, "cannot read");
	bind_text(st, 1, f ? f->entry : NULL);
	sqlite3_bind_int64(st, 2, f ? f->since : 0);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		ret = w->file ? file_row(st, w) : sum_row(st, w);
		if (ret)
			break;
	}
	if (!ret && rc != SQLITE_DONE)
		ret = store_db_fail(s, "cannot read");
	sqlite3_finalize(st);
	return ret;
}

int store_files(struct store *s, const struct store_filter *f,
		int (*fn)(const struct usage_file *, void *), void *arg)
{
	struct walk w = { .file = fn, .arg = arg };

	return walk(s, files_sql, f, &w);
}

int store_sums(struct store *s, const struct store_filter *f,
	       int (*fn)(const struct usage_sum *, void *), void *arg)
{
	struct walk w = { .sum = fn, .arg = arg };

	return walk(s, sums_sql[s->no_swept], f, &w);
}

long long store_rows(struct store *s)
{
	return s->empty ? 0 : store_query_int(s, "SELECT count(*) FROM usage");
}

int store_path_sums(struct store *s, const struct store_filter *f,
		    int (*fn)(const struct usage_sum *, void *), void *arg)
{
	struct walk w = { .sum = fn, .arg = arg };

	return walk(s, path_sums_sql[s->no_swept], f, &w);
}

static int int_or_unknown(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? -1 : sqlite3_column_int(st, i);
}

int store_each_row(struct store *s, int (*fn)(const struct usage_row *, void *),
		   void *arg)
{
	sqlite3_stmt *st;
	int rc, ret = 0;

	s->err[0] = '\0';
	if (s->empty)
		return 0;
	if (sqlite3_prepare_v2(s->db, rows_sql[s->no_swept], -1, &st, NULL))
		return store_db_fail(s, "cannot read");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct usage_row r = {
			.host = col_text(st, 0),
			.session = col_text(st, 1),
			.path = col_text(st, 2),
			.op = col_text(st, 3),
			.uid = (unsigned int)sqlite3_column_int64(st, 4),
			.cgroup_id = (unsigned long long)sqlite3_column_int64(st, 5),
			.exe = col_text(st, 6),
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
		};

		/* NOT NULL columns read NULL only from a damaged file. */
		if (!r.host || !r.session || !r.path || !r.op || !r.exe) {
			s->rc = SQLITE_CORRUPT;
			store_err(s, "cannot read: a row lacks its key (damaged DB)");
			ret = -1;
			break;
		}
		ret = fn(&r, arg);
		if (ret)
			break;
	}
	if (!ret && rc != SQLITE_DONE)
		ret = store_db_fail(s, "cannot read");
	sqlite3_finalize(st);
	return ret;
}

int store_each_session(struct store *s,
		       int (*fn)(const char *host, const char *session,
				 long long started, long long last_sync, void *),
		       void *arg)
{
	sqlite3_stmt *st;
	int rc, ret = 0;

	s->err[0] = '\0';
	if (s->empty || s->no_sessions)
		return 0;
	if (sqlite3_prepare_v2(s->db, sessions_sql, -1, &st, NULL))
		return store_db_fail(s, "cannot read");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *host = col_text(st, 0), *session = col_text(st, 1);

		if (!host || !session) {
			s->rc = SQLITE_CORRUPT;
			store_err(s, "cannot read: a session row lacks its key (damaged DB)");
			ret = -1;
			break;
		}
		ret = fn(host, session, sqlite3_column_int64(st, 2),
			 sqlite3_column_int64(st, 3), arg);
		if (ret)
			break;
	}
	if (!ret && rc != SQLITE_DONE)
		ret = store_db_fail(s, "cannot read");
	sqlite3_finalize(st);
	return ret;
}
