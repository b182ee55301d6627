// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the usage store (tools/lib/store.c) and the dpkg lookup
 * (tools/lib/dpkg.c), under ASan and UBSan. Ends with
 * "store: N passed, N failed"; exit 1 on any failure. Built by
 * tests/Makefile (tests/build-helper unit), run by tests/unit/run.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "dpkg.h"
#include "entry.h"
#include "hostid.h"
#include "store.h"
#include "util.h"
#include "check.h"

static char tmp[] = "/tmp/test_store.XXXXXX";

/* A time of the wall clock alone, as an older abidep's syncs were: no boottime. */
#define WALL(t)	((struct store_when){ .wall = (t) })

/* A path in the test's directory (static buffer, one at a time). */
static const char *tpath(const char *fmt, ...)
{
	static char buf[PATH_MAX];
	char name[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	snprintf(buf, sizeof(buf), "%s/%s", tmp, name);
	return buf;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		perror(path);
		exit(2);
	}
	fputs(text, f);
	fclose(f);
}

static struct store *open_rw(const char *path)
{
	char err[512];
	struct store *s = store_open(path, false, err, sizeof(err));

	if (!s)
		printf("# %s\n", err);
	return s;
}

/* A row of the tests: one key, the rest given per call. */
static struct usage_row row(const char *session, unsigned long long count,
			    long long first, long long last)
{
	struct usage_row r = {
		.host = "h1",
		.session = session,
		.path = "/sys/class/rc/rc0/current_protocol",
		.what = "/sys/class/rc/rcN/current_protocol",
		.table = "sysfs-class-rc",
		.status = "deprecated",
		.op = "read",
		.uid = 1000,
		.cgroup_id = 4242,
		.cgroup = "/user.slice",
		.exe = "/usr/bin/cat",
		.comm = "cat",
		.pid = 10,
		.ppid = 1,
		.count = count,
		.errors = 0,
		.first_seen = first,
		.last_seen = last,
	};

	return r;
}

static int upsert1(struct store *s, const struct usage_row *r)
{
	int ret = store_begin(s);

	if (!ret)
		ret = store_upsert(s, r);
	if (!ret)
		ret = store_commit(s);
	else
		store_rollback(s);
	return ret;
}

/* Direct SQL on the file, to see what the store did. */
static long long sql_int(const char *db, const char *sql)
{
	sqlite3 *h;
	sqlite3_stmt *st;
	long long v = LLONG_MIN;

	if (sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			v = sqlite3_column_type(st, 0) == SQLITE_NULL ? LLONG_MIN + 1 :
			    sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	sqlite3_close(h);
	return v;
}

static char *sql_text(const char *db, const char *sql)
{
	sqlite3 *h;
	sqlite3_stmt *st;
	char *v = NULL;

	if (sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
			v = xstrdup((const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
	sqlite3_close(h);
	return v;
}

/* Make @db (another program's, or a doctored one) with @sql; CHECKed. */
static void sql_make(const char *db, const char *sql)
{
	sqlite3 *h;

	CHECK(sqlite3_open(db, &h) == SQLITE_OK &&
	      sqlite3_exec(h, sql, NULL, NULL, NULL) == SQLITE_OK);
	sqlite3_close(h);
}

static bool sql_is(const char *db, const char *sql, const char *want)
{
	char *v = sql_text(db, sql);
	bool ok = v && !strcmp(v, want);

	if (!ok)
		printf("# %s: '%s', want '%s'\n", sql, v ? v : "(null)", want);
	free(v);
	return ok;
}

static void test_create(void)
{
	char *db = xstrdup(tpath("new/sub/usage.db"));
	struct store *s;
	struct stat st;

	current = "create";
	s = open_rw(db);
	CHECK(s != NULL);
	CHECK(!stat(tpath("new"), &st) && (st.st_mode & 0777) == 0700);
	CHECK(!stat(tpath("new/sub"), &st) && (st.st_mode & 0777) == 0700);
	CHECK(!stat(db, &st) && (st.st_mode & 0777) == 0600);
	CHECK(store_rows(s) == 0);
	store_close(s);
	CHECK(sql_int(db, "PRAGMA user_version") == 8);
	CHECK(sql_is(db, "PRAGMA journal_mode", "wal"));
	CHECK(sql_int(db, "SELECT count(*) FROM sqlite_master WHERE name = 'usage_by_what'") == 1);
	/* Opened again: the schema is there, nothing changes. */
	s = open_rw(db);
	CHECK(s != NULL);
	store_close(s);
	/* usage, its PK, its index; sessions, its PK; usage_days (its PK is it), its index; clock */
	CHECK(sql_int(db, "SELECT count(*) FROM sqlite_master") == 9);
	free(db);
}

/* Collect store_sums() and store_files() rows as text lines. */
struct lines {
	char buf[4096];
	int n;
};

static int sum_line(const struct usage_sum *u, void *arg)
{
	struct lines *l = arg;
	size_t len = strlen(l->buf);

	snprintf(l->buf + len, sizeof(l->buf) - len, "%s|%s|%u|%s|%s|%s|%llu|%llu|%lld|%lld\n",
		 u->what ? u->what : "NULL", u->exe, u->uid, u->cgroup ? u->cgroup : "NULL",
		 u->op, u->host, u->count, u->errors, u->first_seen, u->last_seen);
	l->n++;
	return 0;
}

static int file_line(const struct usage_file *f, void *arg)
{
	struct lines *l = arg;
	size_t len = strlen(l->buf);

	snprintf(l->buf + len, sizeof(l->buf) - len, "%s|%s|%s|%s|%lld\n",
		 f->what ? f->what : "NULL", f->path, f->table ? f->table : "NULL",
		 f->status ? f->status : "NULL", f->last_seen);
	l->n++;
	return 0;
}

static int stop_at_first(const struct usage_sum *u, void *arg)
{
	return 7;
}

static bool sums_are(struct store *s, const struct store_filter *f, const char *want)
{
	struct lines l = { "", 0 };
	int ret = store_sums(s, f, sum_line, &l);

	if (ret || strcmp(l.buf, want))
		printf("# sums (ret %d):\n%s# want:\n%s", ret, l.buf, want);
	return !ret && !strcmp(l.buf, want);
}

/* @f reads the uses --entry @pattern selects, without tables (@sel's old pattern freed). */
static struct store_filter *entry_filter(struct store_filter *f, struct entry_sel *sel,
					 const char *pattern)
{
	entry_sel_free(sel);
	entry_sel_init(sel, NULL, pattern);
	f->entry = sel;
	return f;
}

static void test_upsert(void)
{
	const char *rc = "/sys/class/rc/rcN/current_protocol";
	struct usage_row r;
	struct store *s;
	char *db = xstrdup(tpath("upsert.db"));
	char q[1024];

	current = "upsert";
	s = open_rw(db);
	if (!s) {
		CHECK(0);
		free(db);
		return;
	}
	/* First sync of a session: nothing known but the key and counts. */
	r = row("boot1:7", 5, 100, 110);
	r.comm = r.cgroup = r.what = r.table = r.status = NULL;
	r.pid = r.ppid = -1;
	CHECK(!upsert1(s, &r));
	CHECK(sql_int(db, "SELECT count FROM usage") == 5);
	CHECK(sql_int(db, "SELECT pid FROM usage") == LLONG_MIN + 1);	/* NULL */
	/* Later syncs: cumulative counts replace, first known values stay. */
	r = row("boot1:7", 8, 90, 120);
	CHECK(!upsert1(s, &r));
	r = row("boot1:7", 12, 200, 130);
	r.errors = 2;
	r.comm = "dog";
	r.cgroup = "/other";
	r.what = "/sys/other";
	r.table = "other";
	r.status = "removed";
	r.pid = 20;
	r.ppid = 2;
	CHECK(!upsert1(s, &r));
	CHECK(sql_int(db, "SELECT count(*) FROM usage") == 1);
	CHECK(sql_int(db, "SELECT count FROM usage") == 12);
	CHECK(sql_int(db, "SELECT errors FROM usage") == 2);
	CHECK(sql_int(db, "SELECT first_seen FROM usage") == 90);
	CHECK(sql_int(db, "SELECT last_seen FROM usage") == 130);
	CHECK(sql_is(db, "SELECT comm FROM usage", "cat"));
	CHECK(sql_is(db, "SELECT cgroup FROM usage", "/user.slice"));
	CHECK(sql_is(db, "SELECT what FROM usage", rc));
	CHECK(sql_is(db, "SELECT table_name FROM usage", "sysfs-class-rc"));
	CHECK(sql_is(db, "SELECT status FROM usage", "deprecated"));
	CHECK(sql_int(db, "SELECT pid FROM usage") == 10);
	CHECK(sql_int(db, "SELECT ppid FROM usage") == 1);

	/* A second session (after a reboot) and a second host add up. */
	r = row("boot2:3", 4, 300, 400);
	r.errors = 1;
	CHECK(!upsert1(s, &r));
	r = row("boot9:1", 1, 50, 60);
	r.host = "h2";
	CHECK(!upsert1(s, &r));
	/* Other keys: another op, an unknown cgroup, an unknown entry. */
	r = row("boot2:3", 3, 310, 320);
	r.op = "write";
	CHECK(!upsert1(s, &r));
	r = row("boot2:3", 6, 500, 600);
	r.cgroup = NULL;
	r.cgroup_id = 99;
	r.path = "/sys/class/rc/rc3/current_protocol";
	CHECK(!upsert1(s, &r));
	r = row("boot2:3", 1, 700, 700);
	r.what = r.table = r.status = NULL;
	r.path = "/sys/x";
	CHECK(!upsert1(s, &r));
	CHECK(store_rows(s) == 6);

	snprintf(q, sizeof(q),
		 "NULL|/usr/bin/cat|1000|/user.slice|read|h1|1|0|700|700\n"
		 "%s|/usr/bin/cat|1000|NULL|read|h1|6|0|500|600\n"
		 "%s|/usr/bin/cat|1000|/user.slice|read|h1|16|3|90|400\n"
		 "%s|/usr/bin/cat|1000|/user.slice|read|h2|1|0|50|60\n"
		 "%s|/usr/bin/cat|1000|/user.slice|write|h1|3|0|310|320\n",
		 rc, rc, rc, rc);
	CHECK(sums_are(s, NULL, q));

	/*
	 * Filters: part of a What, a concrete path (its entry's uses, every
	 * file: entry.h), a use without a What by its path, a date.
	 */
	{
		struct entry_sel sel = { 0 };
		struct store_filter f = { 0 };
		struct lines l = { "", 0 };

		CHECK(!store_sums(s, entry_filter(&f, &sel, "rcN"), sum_line, &l) && l.n == 4);
		memset(&l, 0, sizeof(l));
		entry_filter(&f, &sel, "/sys/class/rc/rc3/current_protocol");
		CHECK(!store_sums(s, &f, sum_line, &l) && l.n == 4 && !strncmp(l.buf, rc, strlen(rc)));
		/* A glob of paths is no concrete path: it selects no What here. */
		CHECK(sums_are(s, entry_filter(&f, &sel, "/sys/class/*/rc3/*"), ""));
		CHECK(sums_are(s, entry_filter(&f, &sel, "/sys/x"),
			       "NULL|/usr/bin/cat|1000|/user.slice|read|h1|1|0|700|700\n"));
		CHECK(sums_are(s, entry_filter(&f, &sel, "nothing"), ""));
		entry_sel_free(&sel);
		f.entry = NULL;
		/*
		 * A DB with daily history reads a window by whole days: day 0
		 * (1970-01-01) holds every use here. By session (last_seen >=
		 * since) in test_schema3().
		 */
		f.since = 600;
		CHECK(sums_are(s, &f, q));
	}
	{
		struct lines l = { "", 0 };

		CHECK(!store_files(s, NULL, file_line, &l));
		CHECK(!strcmp(l.buf,
			      "NULL|/sys/x|NULL|NULL|700\n"
			      "/sys/class/rc/rcN/current_protocol|/sys/class/rc/rc0/current_protocol|sysfs-class-rc|deprecated|400\n"
			      "/sys/class/rc/rcN/current_protocol|/sys/class/rc/rc3/current_protocol|sysfs-class-rc|deprecated|600\n"));
	}
	CHECK(store_sums(s, NULL, stop_at_first, NULL) == 7);

	/* Bad rows are refused, and say why; the store goes on. */
	r = row("boot2:3", 1, 1, 1);
	r.exe = NULL;
	CHECK(store_begin(s) == 0);
	CHECK(store_upsert(s, &r) == -1);
	CHECK(strstr(store_errmsg(s), "needs host, session, path, op and exe") != NULL);
	CHECK(store_rollback(s) == 0);
	CHECK(store_rollback(s) == 0);	/* nothing open: fine */
	/* Counts past INT64_MAX are clamped, not negative. */
	r = row("big", ~0ULL, 1, 1);
	CHECK(!upsert1(s, &r));
	CHECK(sql_int(db, "SELECT count FROM usage WHERE session = 'big'") == LLONG_MAX);
	/* A rolled-back transaction leaves nothing. */
	r = row("gone", 1, 1, 1);
	CHECK(!store_begin(s) && !store_upsert(s, &r) && !store_rollback(s));
	CHECK(sql_int(db, "SELECT count(*) FROM usage WHERE session = 'gone'") == 0);
	/* A transaction inside a transaction is an error, not a hang. */
	CHECK(!store_begin(s));
	CHECK(store_begin(s) == -1);
	CHECK(strstr(store_errmsg(s), "within a transaction") != NULL);
	CHECK(!store_rollback(s));
	store_close(s);

	/* Read-only: the same sums; writing is refused. */
	{
		char err[512];

		s = store_open(db, true, err, sizeof(err));
		CHECK(s != NULL);
		if (s) {
			CHECK(store_rows(s) == 7);
			CHECK(!store_begin(s));
			CHECK(store_upsert(s, &r) == -1);
			CHECK(strstr(store_errmsg(s), "read-only") != NULL);
			CHECK(!store_commit(s));
			store_close(s);
		}
	}
	free(db);
}

/*
 * A child writes committed transactions of 10 rows each, forever; it is
 * killed (SIGKILL) at some point. Only whole transactions may be there.
 */
static void test_crash(void)
{
	char *db = xstrdup(tpath("crash.db"));
	int round, p[2];
	char q[128];

	current = "crash";
	for (round = 0; round < 6; round++) {
		pid_t pid;
		char c;

		if (pipe(p)) {
			CHECK(0);
			break;
		}
		pid = fork();
		if (pid == 0) {
			struct store *s = open_rw(db);
			char sess[32], path[64];
			int t, i;

			close(p[0]);
			if (!s)
				_exit(1);
			for (t = 0; ; t++) {
				if (store_begin(s))
					_exit(1);
				for (i = 0; i < 10; i++) {
					struct usage_row r = row(sess, i, t, t);

					snprintf(sess, sizeof(sess), "r%d:%d", round, t);
					snprintf(path, sizeof(path), "/sys/f%d", i);
					r.session = sess;
					r.path = path;
					if (store_upsert(s, &r))
						_exit(1);
					/* Round 0: die in the middle of the first one. */
					if (t == 2 && i == 5 && round == 0) {
						if (write(p[1], "x", 1) != 1)
							_exit(1);
						pause();
					}
				}
				if (store_commit(s))
					_exit(1);
				if (t == 2 && round > 0 && write(p[1], "x", 1) != 1)
					_exit(1);
			}
		}
		close(p[1]);
		/* Wait until it is well into writing, then some more. */
		if (read(p[0], &c, 1) != 1)
			CHECK(0);
		close(p[0]);
		if (round > 0)
			usleep(round * 7000);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		/* Only whole transactions; the file is sound. */
		CHECK(sql_int(db, "SELECT count(*) % 10 FROM usage") == 0);
		CHECK(sql_is(db, "PRAGMA integrity_check", "ok"));
		/* Round 0 died in its third transaction, the others after it. */
		snprintf(q, sizeof(q), "SELECT count(*) FROM usage WHERE session LIKE 'r%d:%%'",
			 round);
		if (round == 0)
			CHECK(sql_int(db, q) == 20);
		else
			CHECK(sql_int(db, q) >= 30);
	}
	/* A child that _exit()s in a transaction, without closing. */
	if (fork() == 0) {
		struct store *s = open_rw(db);
		struct usage_row r = row("exit:1", 1, 1, 1);

		if (!s || store_begin(s) || store_upsert(s, &r))
			_exit(1);
		_exit(0);
	}
	wait(NULL);
	CHECK(sql_int(db, "SELECT count(*) FROM usage WHERE session = 'exit:1'") == 0);
	/* And the store opens and writes again. */
	{
		struct store *s = open_rw(db);
		struct usage_row r = row("after:1", 1, 1, 1);

		CHECK(s && !upsert1(s, &r));
		store_close(s);
		CHECK(sql_int(db, "SELECT count(*) FROM usage WHERE session = 'after:1'") == 1);
		CHECK(sql_is(db, "PRAGMA integrity_check", "ok"));
	}
	free(db);
}

static void test_open_errors(void)
{
	const char *junk = "this is not an SQLite database, nor anything else\n";
	char err[512];
	struct stat st;
	struct store *s;
	const char *db;

	current = "open errors";
	/* Read-only open of a missing file: an error, and nothing created. */
	db = tpath("missing/usage.db");
	s = store_open(db, true, err, sizeof(err));
	CHECK(s == NULL);
	CHECK(strstr(err, "no usage DB at ") && strstr(err, db));
	CHECK(stat(db, &st) && errno == ENOENT);
	CHECK(stat(tpath("missing"), &st) && errno == ENOENT);

	/* Not a database: named, and left alone by a writer too. */
	db = tpath("junk.db");
	write_file(db, junk);
	s = store_open(db, true, err, sizeof(err));
	CHECK(s == NULL);
	CHECK(strstr(err, db) && strstr(err, "not a database"));
	s = store_open(db, false, err, sizeof(err));
	CHECK(s == NULL);
	CHECK(strstr(err, db) && strstr(err, "not a database"));
	CHECK(!stat(db, &st) && st.st_size == (off_t)strlen(junk));

	/* Somebody else's SQLite database. */
	db = tpath("other.db");
	sql_make(db, "CREATE TABLE t (a)");
	{
		struct stat before;

		stat(db, &before);
		s = store_open(db, false, err, sizeof(err));
		CHECK(s == NULL);
		CHECK(strstr(err, "not an abidep usage DB") != NULL);
		store_close(s);
		CHECK(sql_int(db, "SELECT count(*) FROM sqlite_master") == 1);
		/* Nothing written to it: a writer used to make it WAL first. */
		CHECK(!stat(db, &st) && st.st_size == before.st_size &&
		      st.st_mtim.tv_sec == before.st_mtim.tv_sec &&
		      st.st_mtim.tv_nsec == before.st_mtim.tv_nsec);
		{
			char *mode = sql_text(db, "PRAGMA journal_mode");

			CHECK(mode && !strcmp(mode, "delete"));
			free(mode);
		}
	}

	/* A user_version is not enough: one without a usage table is not ours. */
	db = tpath("uv.db");
	sql_make(db, "CREATE TABLE t (a); PRAGMA user_version = 3");
	s = store_open(db, false, err, sizeof(err));
	CHECK(s == NULL);
	CHECK(strstr(err, "not an abidep usage DB") != NULL);
	store_close(s);
	CHECK(sql_int(db, "SELECT count(*) FROM sqlite_master") == 1);
	s = store_open(db, true, err, sizeof(err));
	CHECK(s == NULL);
	store_close(s);

	/* A symlink at the DB's name, to an empty file: refused, the file left empty. */
	{
		char *target = xstrdup(tpath("target.db")), *link = xstrdup(tpath("link.db"));

		write_file(target, "");
		CHECK(!symlink(target, link));
		s = store_open(link, false, err, sizeof(err));
		CHECK(s == NULL);
		CHECK(strstr(err, "is a symlink") != NULL);
		store_close(s);
		CHECK(!stat(target, &st) && st.st_size == 0);
		/* A reader may follow it (it writes nothing). */
		s = store_open(link, true, err, sizeof(err));
		CHECK(s != NULL);
		store_close(s);
		free(target);
		free(link);
	}

	/* A newer schema. */
	db = tpath("newer.db");
	sql_make(db, "PRAGMA user_version = 99");
	s = store_open(db, true, err, sizeof(err));
	CHECK(s == NULL);
	CHECK(strstr(err, "newer abidep (schema 99") != NULL);

	/* An empty file reads as an empty store. */
	db = tpath("empty.db");
	write_file(db, "");
	s = store_open(db, true, err, sizeof(err));
	CHECK(s != NULL);
	if (s) {
		struct lines l = { "", 0 };

		CHECK(store_rows(s) == 0);
		CHECK(!store_sums(s, NULL, sum_line, &l) && l.n == 0);
		store_close(s);
	}
	CHECK(!stat(db, &st) && st.st_size == 0);

	/* Unwritable: the parent "directory" is a file. */
	db = tpath("junk.db/usage.db");
	s = store_open(db, false, err, sizeof(err));
	CHECK(s == NULL);
	CHECK(strstr(err, "cannot create the directory") && strstr(err, "Not a directory"));
	/* A directory given for the DB. */
	s = store_open(tmp, true, err, sizeof(err));
	CHECK(s == NULL);
	CHECK(strstr(err, "not a regular file") != NULL);
	/* Unwritable by permissions (root may write anything: skipped). */
	if (geteuid()) {
		mkdir(tpath("ro"), 0500);
		db = tpath("ro/usage.db");
		s = store_open(db, false, err, sizeof(err));
		CHECK(s == NULL);
		CHECK(strstr(err, "Permission denied") != NULL);
	}
}

/* In the child: open @db read-only as nobody (if root); exit 0 if readable. */
static int read_as_nobody(const char *db, const char *want_err)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		char err[512];
		struct store *s;

		if (!geteuid() && (setgid(65534) || setuid(65534)))
			_exit(3);
		s = store_open(db, true, err, sizeof(err));
		if (!s)
			_exit(want_err && strstr(err, want_err) ? 2 : 1);
		_exit(store_rows(s) == 1 ? 0 : 1);
	}
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/*
 * A reader that may not write the directory cannot create DB-shm: when no
 * writer has the DB open (no DB-wal), it reads the file as immutable.
 */
static void test_readonly_dir(void)
{
	char *dir = xstrdup(tpath("rodir")), *db = xstrdup(tpath("rodir/usage.db"));
	char *wal = xstrdup(tpath("rodir/usage.db-wal"));
	struct usage_row r = row("s:1", 1, 1, 1);
	struct store *s;
	struct stat st;

	current = "read-only directory";
	mkdir(dir, 0755);
	s = open_rw(db);
	CHECK(s && !upsert1(s, &r));
	store_close(s);
	CHECK(stat(wal, &st) && errno == ENOENT);	/* the last close removes it */
	chmod(tmp, 0755);
	chmod(db, 0644);
	chmod(dir, 0555);
	CHECK(read_as_nobody(db, NULL) == 0);
	CHECK(stat(tpath("rodir/usage.db-shm"), &st) && errno == ENOENT);
	/* A -wal file: a writer has it, or crashed; no immutable read then. */
	chmod(dir, 0755);
	write_file(wal, "");
	chmod(dir, 0555);
	CHECK(read_as_nobody(db, "-shm") == 2);
	chmod(dir, 0755);
	chmod(tmp, 0700);
	free(dir);
	free(db);
	free(wal);
}

/* ---- dpkg ---- */

static void mkdirs(const char *path)
{
	char *p = xstrdup(path), *q;

	for (q = p + 1; *q; q++)
		if (*q == '/') {
			*q = '\0';
			mkdir(p, 0755);
			*q = '/';
		}
	mkdir(p, 0755);
	free(p);
}

/* @a is the string @b (a NULL @a is not, and does not crash the test). */
static bool streq(const char *a, const char *b)
{
	return a && !strcmp(a, b);
}

static void test_dpkg(void)
{
	char *root = xstrdup(tpath("root"));
	char *info = xstrdup(tpath("root/var/lib/dpkg/info"));
	char file[PATH_MAX];
	struct dpkg *d;

	current = "dpkg";
	mkdirs(info);
	snprintf(file, sizeof(file), "%s/coreutils.list", info);
	write_file(file, "/.\n/bin\n/bin/cat\n/usr/share/doc/coreutils\n");
	snprintf(file, sizeof(file), "%s/libc6:amd64.list", info);
	write_file(file, "/.\n/lib/x86_64-linux-gnu/libc.so.6\n/usr/lib/x86_64-linux-gnu/gconv\n");
	snprintf(file, sizeof(file), "%s/newstyle.list", info);
	write_file(file, "/usr/sbin/newtool\n/usr/lib64/ld.so\n");
	snprintf(file, sizeof(file), "%s/nonl.list", info);
	write_file(file, "/usr/bin/nonl");	/* no final newline */
	snprintf(file, sizeof(file), "%s/a.list", info);
	write_file(file, "/usr/bin/shared\n");
	snprintf(file, sizeof(file), "%s/b.list", info);
	write_file(file, "/usr/bin/shared\n/usr/bin/b\n");
	snprintf(file, sizeof(file), "%s/coreutils.md5sums", info);
	write_file(file, "0123  usr/bin/md5\n");
	/* Versions: stanzas in any order, a package listed twice (two
	 * architectures: the first wins), one without a Version (not
	 * counted), field names in any case. */
	snprintf(file, sizeof(file), "%s/../status", info);
	write_file(file, "Package: libc6\nStatus: install ok installed\nArchitecture: amd64\n"
		   "Version: 2.36-9+deb12u4\nDescription: C library\n Version: 0\n"
		   "Maintainer: GNU Libc Maintainers <debian-glibc@lists.debian.org>\n"
		   "Source: glibc\n\n"
		   "Package: coreutils\nVersion: 9.1-1\n"
		   "maintainer: Michael Stone <mstone@debian.org>\n\n"
		   "Package: libc6\nArchitecture: i386\nVersion: 2.36-9\nMaintainer: no\n\n"
		   "Package: nonl\nStatus: install ok installed\nMaintainer: no\n\n"
		   "Package: a\nVersion: 1:2.0~rc1-3");	/* no final newline */

	d = dpkg_new(root);
	CHECK(dpkg_npaths(d) == 0);	/* nothing read before a lookup */
	CHECK(dpkg_owner(d, "/bin/cat", NULL) && !strcmp(dpkg_owner(d, "/bin/cat", NULL), "coreutils"));
	CHECK(dpkg_npaths(d) == 11);
	/* The kernel's /usr/bin/cat is dpkg's /bin/cat, and the other way. */
	CHECK(dpkg_owner(d, "/usr/bin/cat", NULL) && !strcmp(dpkg_owner(d, "/usr/bin/cat", NULL), "coreutils"));
	CHECK(dpkg_owner(d, "/usr/lib/x86_64-linux-gnu/libc.so.6", NULL) &&
	      !strcmp(dpkg_owner(d, "/usr/lib/x86_64-linux-gnu/libc.so.6", NULL), "libc6"));
	CHECK(dpkg_owner(d, "/sbin/newtool", NULL) && !strcmp(dpkg_owner(d, "/sbin/newtool", NULL), "newstyle"));
	CHECK(dpkg_owner(d, "/lib64/ld.so", NULL) && !strcmp(dpkg_owner(d, "/lib64/ld.so", NULL), "newstyle"));
	CHECK(dpkg_owner(d, "/usr/bin/nonl", NULL) && !strcmp(dpkg_owner(d, "/usr/bin/nonl", NULL), "nonl"));
	CHECK(dpkg_owner(d, "/usr/share/doc/coreutils", NULL) &&
	      !strcmp(dpkg_owner(d, "/usr/share/doc/coreutils", NULL), "coreutils"));
	/* The first list in name order keeps a shared path. */
	CHECK(dpkg_owner(d, "/usr/bin/shared", NULL) && !strcmp(dpkg_owner(d, "/usr/bin/shared", NULL), "a"));
	/* Only /bin, /sbin and /lib* have twins; no owner is NULL. */
	CHECK(!dpkg_owner(d, "/share/doc/coreutils", NULL));
	CHECK(!dpkg_owner(d, "/usr/local/bin/cat", NULL));
	CHECK(!dpkg_owner(d, "/usr/binx/cat", NULL));
	CHECK(!dpkg_owner(d, "/usr/bin/md5", NULL));
	CHECK(!dpkg_owner(d, "(kernel)", NULL));
	CHECK(!dpkg_owner(d, "bin/cat", NULL));
	CHECK(!dpkg_owner(d, "", NULL));
	CHECK(!dpkg_owner(d, "/usr", NULL));
	{
		const char *v = "x";

		CHECK(dpkg_owner(d, "/usr/bin/cat", &v) && v && !strcmp(v, "9.1-1"));
		CHECK(dpkg_owner(d, "/lib/x86_64-linux-gnu/libc.so.6", &v) && v &&
		      !strcmp(v, "2.36-9+deb12u4"));
		CHECK(dpkg_owner(d, "/usr/bin/shared", &v) && v && !strcmp(v, "1:2.0~rc1-3"));
		CHECK(dpkg_owner(d, "/usr/bin/nonl", &v) && !v);	/* no Version */
		CHECK(dpkg_owner(d, "/usr/bin/b", &v) && !v);		/* not in status */
		v = "x";
		CHECK(!dpkg_owner(d, "/usr/local/bin/cat", &v) && !v);
	}
	{
		const struct pkg_meta *m = dpkg_lookup(d, "/usr/lib/x86_64-linux-gnu/libc.so.6");

		CHECK(m && streq(m->name, "libc6") && streq(m->arch, "amd64") &&
		      streq(m->source, "glibc") && streq(m->version, "2.36-9+deb12u4") &&
		      streq(m->maintainer, "GNU Libc Maintainers <debian-glibc@lists.debian.org>"));
		m = dpkg_lookup(d, "/usr/bin/cat");
		CHECK(m && streq(m->name, "coreutils") && !m->arch &&
		      streq(m->source, "coreutils") &&
		      streq(m->maintainer, "Michael Stone <mstone@debian.org>"));
		/* Not in the status file, or without a Version: the name alone. */
		m = dpkg_lookup(d, "/usr/bin/nonl");
		CHECK(m && streq(m->name, "nonl") && !m->version && !m->maintainer &&
		      !m->source && !m->arch);
		m = dpkg_lookup(d, "/usr/bin/b");
		CHECK(m && streq(m->name, "b") && !m->maintainer);
		CHECK(!dpkg_lookup(d, "/usr/local/bin/cat"));
		CHECK(dpkg_lookup(d, "/bin/cat") == dpkg_lookup(d, "/usr/bin/cat"));
	}
	dpkg_free(d);

	/* No dpkg database: an error for dpkg_load(), NULL for lookups. */
	d = dpkg_new(tpath("nowhere"));
	CHECK(dpkg_load(d) == -1 && errno == ENOENT);
	CHECK(!dpkg_owner(d, "/bin/cat", NULL));
	CHECK(dpkg_load(d) == -1);
	dpkg_free(d);
	free(root);
	free(info);
}

/*
 * 2000 list files of 50 paths: every owner found, from one index of them all.
 * How fast is make bench's question, not a test's: a timed check fails on a
 * loaded machine.
 */
static void test_dpkg_many_lists(void)
{
	char *info = xstrdup(tpath("big/var/lib/dpkg/info"));
	char file[PATH_MAX], want[32];
	struct dpkg *d;
	int i, k, found = 0;

	current = "dpkg many lists";
	mkdirs(info);
	for (i = 0; i < 2000; i++) {
		FILE *f;

		snprintf(file, sizeof(file), "%s/pkg%d:amd64.list", info, i);
		f = fopen(file, "w");
		if (!f)
			break;
		for (k = 0; k < 50; k++)
			fprintf(f, "/usr/share/pkg%d/some/longer/path/file%d\n", i, k);
		fclose(f);
	}
	d = dpkg_new(tpath("big"));
	for (i = 0; i < 2000; i++) {
		snprintf(file, sizeof(file), "/usr/share/pkg%d/some/longer/path/file%d", i, i % 50);
		snprintf(want, sizeof(want), "pkg%d", i);
		found += dpkg_owner(d, file, NULL) && !strcmp(dpkg_owner(d, file, NULL), want);
	}
	CHECK(found == 2000);
	CHECK(dpkg_npaths(d) == 100000);
	dpkg_free(d);
	free(info);
}

static int rm_tree(const char *path)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path);
	return system(cmd);
}


/* ---- merge: store_each_row() into store_merge_row(), store_path_sums() ---- */

static int merge_into(const struct usage_row *r, void *arg)
{
	return store_merge_row(arg, r) ? -2 : 0;
}

static int merge_day_into(const struct usage_day_row *d, void *arg)
{
	return store_merge_day(arg, d) ? -2 : 0;
}

/* Every row and day of the DB @from merged into @to, in one transaction. */
static int merge_db(struct store *to, const char *from)
{
	char err[512];
	struct store *in = store_open(from, true, err, sizeof(err));
	int ret;

	if (!in) {
		printf("# %s\n", err);
		return -1;
	}
	ret = store_begin(to);
	if (!ret)
		ret = store_each_row(in, merge_into, to);
	if (!ret)
		ret = store_each_day_row(in, merge_day_into, to);
	if (!ret)
		ret = store_commit(to);
	else
		store_rollback(to);
	store_close(in);
	return ret;
}

static int row_line(const struct usage_row *r, void *arg)
{
	struct lines *l = arg;

	l->n++;
	snprintf(l->buf + strlen(l->buf), sizeof(l->buf) - strlen(l->buf),
		 "%s|%s|%s|%llu|%llu|%lld|%lld|%d|%d|%s\n", r->host, r->session,
		 r->op, r->count, r->errors, r->first_seen, r->last_seen, r->pid,
		 r->ppid, r->comm ? r->comm : "NULL");
	return 0;
}

static int path_sum_line(const struct usage_sum *u, void *arg)
{
	struct lines *l = arg;

	l->n++;
	snprintf(l->buf + strlen(l->buf), sizeof(l->buf) - strlen(l->buf),
		 "%s|%s|%s|%s|%llu|%lld\n", u->path ? u->path : "NULL", u->host,
		 u->op, u->cgroup ? u->cgroup : "NULL", u->count, u->last_seen);
	return 0;
}

static void test_merge(void)
{
	const char *names[3] = { "m-a.db", "m-b.db", "m-c.db" };
	char db[3][PATH_MAX], out[PATH_MAX];
	struct usage_row r;
	struct store *s, *o;
	struct lines l;
	int i;

	current = "merge";
	for (i = 0; i < 3; i++) {
		snprintf(db[i], sizeof(db[i]), "%s", tpath("%s", names[i]));
		s = open_rw(db[i]);
		if (!s) {
			CHECK(0);
			return;
		}
		r = row("s1", 10 * (i + 1), 100, 200 + i);
		r.host = names[i];
		CHECK(!upsert1(s, &r));
		r.op = "write";
		r.pid = -1;
		r.comm = NULL;
		r.cgroup_id = 7;
		CHECK(!upsert1(s, &r));
		store_close(s);
	}
	snprintf(out, sizeof(out), "%s", tpath("m-out.db"));
	o = open_rw(out);
	if (!o) {
		CHECK(0);
		return;
	}
	for (i = 0; i < 3; i++)
		CHECK(!merge_db(o, db[i]));
	CHECK(store_rows(o) == 6);
	CHECK(sql_int(out, "SELECT SUM(count) FROM usage") == 2 * (10 + 20 + 30));
	/* Idempotent: the same DBs again change nothing. */
	for (i = 0; i < 3; i++)
		CHECK(!merge_db(o, db[i]));
	CHECK(store_rows(o) == 6);
	CHECK(sql_int(out, "SELECT SUM(count) FROM usage") == 120);
	/* A later copy of a DB (the session went on) wins; an older one then does not undo it. */
	s = open_rw(db[0]);
	r = row("s1", 15, 90, 300);
	r.host = names[0];
	CHECK(s && !upsert1(s, &r));
	store_close(s);
	CHECK(!merge_db(o, db[0]));
	CHECK(sql_int(out, "SELECT count FROM usage WHERE host = 'm-a.db' AND op = 'read'") == 15);
	CHECK(sql_int(out, "SELECT first_seen FROM usage WHERE host = 'm-a.db' AND op = 'read'") == 90);
	CHECK(sql_int(out, "SELECT last_seen FROM usage WHERE host = 'm-a.db' AND op = 'read'") == 300);
	s = open_rw(db[0]);
	r.count = 12;		/* as if an older copy: counts only grow within a session */
	r.last_seen = 250;
	CHECK(s && !upsert1(s, &r));
	store_close(s);
	CHECK(!merge_db(o, db[0]));
	CHECK(sql_int(out, "SELECT count FROM usage WHERE host = 'm-a.db' AND op = 'read'") == 15);
	CHECK(sql_int(out, "SELECT last_seen FROM usage WHERE host = 'm-a.db' AND op = 'read'") == 300);

	/* Rows read back whole, in key order; unknown pid as -1. */
	memset(&l, 0, sizeof(l));
	CHECK(!store_each_row(o, row_line, &l) && l.n == 6);
	CHECK(!strcmp(l.buf,
		"m-a.db|s1|read|15|0|90|300|10|1|cat\n"
		"m-a.db|s1|write|10|0|100|200|-1|1|NULL\n"
		"m-b.db|s1|read|20|0|100|201|10|1|cat\n"
		"m-b.db|s1|write|20|0|100|201|-1|1|NULL\n"
		"m-c.db|s1|read|30|0|100|202|10|1|cat\n"
		"m-c.db|s1|write|30|0|100|202|-1|1|NULL\n"));
	memset(&l, 0, sizeof(l));
	{
		struct entry_sel sel = { 0 };
		struct store_filter f = { 0 };

		CHECK(!store_path_sums(o, entry_filter(&f, &sel, "rcN"), path_sum_line, &l) && l.n == 6);
		entry_sel_free(&sel);
		CHECK(!strcmp(l.buf,
			"/sys/class/rc/rc0/current_protocol|m-a.db|read|NULL|15|300\n"
			"/sys/class/rc/rc0/current_protocol|m-b.db|read|NULL|20|201\n"
			"/sys/class/rc/rc0/current_protocol|m-c.db|read|NULL|30|202\n"
			"/sys/class/rc/rc0/current_protocol|m-a.db|write|NULL|10|200\n"
			"/sys/class/rc/rc0/current_protocol|m-b.db|write|NULL|20|201\n"
			"/sys/class/rc/rc0/current_protocol|m-c.db|write|NULL|30|202\n"));
	}
	/* A read-only store cannot merge. */
	s = store_open(db[1], true, (char[512]){ 0 }, 512);
	CHECK(s && store_merge_row(s, &r) == -1 && strstr(store_errmsg(s), "read-only"));
	store_close(s);
	store_close(o);
}

/* ---- sessions: store_session(), store_merge_session(), schema 1 ---- */

/* host|session|started|last_sync, then |unrecorded|skipped|lost_at if it lost any. */
static int session_line(const struct usage_session *u, void *arg)
{
	struct lines *l = arg;
	size_t n = strlen(l->buf);

	l->n++;
	n += snprintf(l->buf + n, sizeof(l->buf) - n, "%s|%s|%lld|%lld", u->host,
		      u->session, u->started, u->last_sync);
	if (u->unrecorded || u->skipped || u->lost_at != STORE_NO_LOSS)
		n += snprintf(l->buf + n, sizeof(l->buf) - n, "|%llu|%llu|%lld", u->unrecorded,
			      u->skipped, u->lost_at == STORE_NO_LOSS ? -1 : u->lost_at);
	snprintf(l->buf + n, sizeof(l->buf) - n, "\n");
	return 0;
}

static int stop_session(const struct usage_session *u, void *arg)
{
	return 7;
}

static bool sessions_are(struct store *s, const char *want)
{
	struct lines l = { "", 0 };
	int ret = store_each_session(s, session_line, &l);

	if (ret || strcmp(l.buf, want))
		printf("# sessions (ret %d): %s\n%s# want:\n%s", ret, store_errmsg(s),
		       l.buf, want);
	return !ret && !strcmp(l.buf, want);
}

/* A tracer's sync that has lost @unrecorded and @skipped so far. */
static int session_lost(struct store *s, const char *host, const char *session, long long now,
			unsigned long long unrecorded, unsigned long long skipped)
{
	int ret = store_begin(s);

	if (!ret)
		ret = store_session(s, host, session, &WALL(now), unrecorded, skipped);
	if (!ret)
		ret = store_commit(s);
	else
		store_rollback(s);
	return ret;
}

static int session1(struct store *s, const char *host, const char *session, long long now)
{
	return session_lost(s, host, session, now, 0, 0);
}

/* A merge of one session row, in its own transaction. */
static int merge_session1(struct store *s, const char *host, const char *session,
			  long long started, long long last_sync, unsigned long long unrecorded,
			  unsigned long long skipped, long long lost_at)
{
	const struct usage_session u = {
		.host = host, .session = session, .started = started,
		.last_sync = last_sync, .unrecorded = unrecorded, .skipped = skipped,
		.lost_at = lost_at,
	};
	int ret = store_begin(s);

	if (!ret)
		ret = store_merge_session(s, &u);
	if (!ret)
		ret = store_commit(s);
	else
		store_rollback(s);
	return ret;
}

/* ---- older schemas: DBs as an older abidep wrote them ---- */

/*
 * Schema 2, as abidep wrote it until schema 3 (b3adf26): the usage table
 * without swept, its index, the sessions table. Schema 1 is the same
 * without sessions.
 */
static const char schema2_usage_sql[] =
	"CREATE TABLE usage (host TEXT NOT NULL, session TEXT NOT NULL,"
	" path TEXT NOT NULL, op TEXT NOT NULL, uid INTEGER NOT NULL,"
	" cgroup_id INTEGER NOT NULL, exe TEXT NOT NULL, what TEXT,"
	" table_name TEXT, status TEXT, cgroup TEXT, comm TEXT, pid INTEGER,"
	" ppid INTEGER, count INTEGER NOT NULL, errors INTEGER NOT NULL,"
	" first_seen INTEGER NOT NULL, last_seen INTEGER NOT NULL,"
	" PRIMARY KEY (host, session, path, op, uid, cgroup_id, exe));"
	"CREATE INDEX usage_by_what ON usage (what, exe, uid, cgroup, op, host);";
static const char schema2_sessions_sql[] =
	"CREATE TABLE sessions (host TEXT NOT NULL, session TEXT NOT NULL,"
	" started INTEGER NOT NULL, last_sync INTEGER NOT NULL,"
	" PRIMARY KEY (host, session));";

/*
 * A DB of schema @version (1 to 4), in WAL mode as abidep kept it: cat's
 * read (3, first 10, last 20) and write (5, 1 failed, 15 to 25) of rc0 in
 * session s1 of h1; schema 2 and later also have that session (10 to 30),
 * schema 3 the swept column (as abidep until schema 4, 33fb4ea to acde871,
 * wrote it: last), 2 of the 3 reads swept; schema 4 the usage_days table
 * (as abidep until schema 5 wrote it), empty.
 */
static const char schema4_days_sql[] =
	"CREATE TABLE usage_days (host TEXT NOT NULL, session TEXT NOT NULL,"
	" path TEXT NOT NULL, op TEXT NOT NULL, uid INTEGER NOT NULL,"
	" cgroup_id INTEGER NOT NULL, exe TEXT NOT NULL, day INTEGER NOT NULL,"
	" what TEXT, count INTEGER NOT NULL, errors INTEGER NOT NULL,"
	" swept INTEGER NOT NULL,"
	" PRIMARY KEY (host, session, path, op, uid, cgroup_id, exe, day)) WITHOUT ROWID;"
	"CREATE INDEX usage_days_by_day ON usage_days (day);";

/* Schema 5's sessions columns, as abidep 5 wrote them. */
static const char schema5_lost_sql[] =
	"ALTER TABLE sessions ADD COLUMN unrecorded INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE sessions ADD COLUMN skipped INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE sessions ADD COLUMN lost_at INTEGER;"
	"ALTER TABLE sessions ADD COLUMN drained INTEGER;";

/*
 * Schema 6's, as abidep wrote them until schema 7: s1 a session begun
 * early, 3 s after boot, whose first sync (12, after cat's read at 10)
 * wrote its watched run, as a tracer before b1c99bc did.
 */
static const char schema6_watched_sql[] =
	"ALTER TABLE sessions ADD COLUMN host_id TEXT;"
	"ALTER TABLE sessions ADD COLUMN stage TEXT;"
	"ALTER TABLE sessions ADD COLUMN boot_offset INTEGER;"
	"CREATE TABLE watched (host TEXT NOT NULL, session TEXT NOT NULL, what TEXT NOT NULL,"
	" since INTEGER NOT NULL, last_sync INTEGER NOT NULL, files INTEGER NOT NULL,"
	" PRIMARY KEY (host, session, what, since)) WITHOUT ROWID;"
	"UPDATE sessions SET host_id = 'machine-id', stage = 'early', boot_offset = 3;"
	"INSERT INTO watched VALUES ('h1', 's1', '/sys/class/rc/rcN/current_protocol', 12, 30, 1);";

static void make_old_db(const char *db, int version)
{
	char *sql = xasprintf("PRAGMA journal_mode = WAL; %s %s %s"
		"INSERT INTO usage VALUES ('h1', 's1', '/sys/class/rc/rc0/current_protocol',"
		" 'read', 1000, 4242, '/usr/bin/cat', '/sys/class/rc/rcN/current_protocol',"
		" 'sysfs-class-rc', 'deprecated', '/user.slice', 'cat', 10, 1, 3, 0, 10, 20);"
		"INSERT INTO usage VALUES ('h1', 's1', '/sys/class/rc/rc0/current_protocol',"
		" 'write', 1000, 4242, '/usr/bin/cat', '/sys/class/rc/rcN/current_protocol',"
		" 'sysfs-class-rc', 'deprecated', '/user.slice', 'cat', 10, 1, 5, 1, 15, 25);"
		"%s %s %s %s PRAGMA user_version = %d;",
		schema2_usage_sql, version >= 2 ? schema2_sessions_sql : "",
		version >= 4 ? schema4_days_sql : "",
		version >= 2 ? "INSERT INTO sessions VALUES ('h1', 's1', 10, 30);" : "",
		version >= 3 ? "ALTER TABLE usage ADD COLUMN swept INTEGER NOT NULL DEFAULT 0;"
			       " UPDATE usage SET swept = 2 WHERE op = 'read';" : "",
		version >= 5 ? schema5_lost_sql : "",
		version >= 6 ? schema6_watched_sql : "",
		version);
	sqlite3 *h;

	CHECK(sqlite3_open(db, &h) == SQLITE_OK &&
	      sqlite3_exec(h, sql, NULL, NULL, NULL) == SQLITE_OK);
	sqlite3_close(h);
	free(sql);
}

static bool has_swept(const char *db)
{
	return sql_int(db, "SELECT count(*) FROM pragma_table_info('usage') WHERE name = 'swept'") == 1;
}

/* store_each_row()'s rows as "op|count|swept" lines. */
static int swept_row_line(const struct usage_row *r, void *arg)
{
	struct lines *l = arg;

	l->n++;
	snprintf(l->buf + strlen(l->buf), sizeof(l->buf) - strlen(l->buf),
		 "%s|%s|%llu|%llu\n", r->host, r->op, r->count, r->swept);
	return 0;
}

/* store_sums() and store_path_sums() as "host|op|count|errors|swept" lines. */
static int swept_sum_line(const struct usage_sum *u, void *arg)
{
	struct lines *l = arg;

	l->n++;
	snprintf(l->buf + strlen(l->buf), sizeof(l->buf) - strlen(l->buf),
		 "%s|%s|%llu|%llu|%llu\n", u->host, u->op, u->count, u->errors, u->swept);
	return 0;
}

/* Each walk of @s gives what @want_* say. */
static bool walks_are(struct store *s, const char *want_rows, const char *want_sums)
{
	struct lines rows = { "", 0 }, sums = { "", 0 }, paths = { "", 0 };
	bool ok = !store_each_row(s, swept_row_line, &rows) &&
		  !store_sums(s, NULL, swept_sum_line, &sums) &&
		  !store_path_sums(s, NULL, swept_sum_line, &paths);

	ok = ok && !strcmp(rows.buf, want_rows) && !strcmp(sums.buf, want_sums) &&
	     !strcmp(paths.buf, want_sums);
	if (!ok)
		printf("# %s\n# rows:\n%s# want:\n%s# sums:\n%s# path sums:\n%s# want:\n%s",
		       store_errmsg(s), rows.buf, want_rows, sums.buf, paths.buf, want_sums);
	return ok;
}

static void test_schema2(void)
{
	char *db = xstrdup(tpath("v2.db"));
	char err[512];
	struct usage_row r;
	struct store *s;

	current = "schema 2";
	make_old_db(db, 2);
	/* Read-only: read as it is, nothing swept, nothing changed. */
	s = store_open(db, true, err, sizeof(err));
	CHECK(s != NULL);
	if (s) {
		CHECK(store_rows(s) == 2);
		CHECK(walks_are(s, "h1|read|3|0\nh1|write|5|0\n",
				"h1|read|3|0|0\nh1|write|5|1|0\n"));
		CHECK(sessions_are(s, "h1|s1|10|30\n"));
		store_close(s);
	}
	CHECK(sql_int(db, "PRAGMA user_version") == 2);
	CHECK(!has_swept(db));
	/* Read-write: upgraded to 4, the rows kept with swept 0. */
	s = open_rw(db);
	CHECK(s != NULL);
	if (!s)
		goto out;
	CHECK(sql_int(db, "PRAGMA user_version") == 8);
	CHECK(has_swept(db));
	CHECK(walks_are(s, "h1|read|3|0\nh1|write|5|0\n", "h1|read|3|0|0\nh1|write|5|1|0\n"));
	CHECK(sessions_are(s, "h1|s1|10|30\n"));
	/* Then written like any: the session's read goes on, partly swept. */
	r = row("s1", 9, 10, 40);
	r.swept = 4;
	CHECK(!upsert1(s, &r));
	CHECK(walks_are(s, "h1|read|9|4\nh1|write|5|0\n", "h1|read|9|0|4\nh1|write|5|1|0\n"));
	store_close(s);
	CHECK(sql_is(db, "PRAGMA integrity_check", "ok"));
	/* Opened again: nothing more to do. */
	s = open_rw(db);
	CHECK(s != NULL);
	store_close(s);
	CHECK(sql_int(db, "PRAGMA user_version") == 8);
	CHECK(sql_int(db, "SELECT count(*) FROM sqlite_master") == 9);
out:
	free(db);
}

/*
 * swept: replaced by an upsert as count is, the larger kept by a merge,
 * summed by the sums, clamped as count is.
 */
static void test_swept(void)
{
	char *db = xstrdup(tpath("swept.db")), *out = xstrdup(tpath("swept-out.db"));
	struct usage_row r;
	struct store *s, *o;

	current = "swept";
	s = open_rw(db);
	o = open_rw(out);
	CHECK(s && o);
	if (!s || !o)
		goto out;
	/* A sweep (all 4 swept), then the same session reads it by name too. */
	r = row("b:1", 4, 100, 110);
	r.swept = 4;
	CHECK(!upsert1(s, &r));
	CHECK(sql_int(db, "SELECT swept FROM usage") == 4);
	r = row("b:1", 6, 100, 120);
	r.swept = 5;
	CHECK(!upsert1(s, &r));
	CHECK(sql_int(db, "SELECT swept FROM usage") == 5);
	/* Another session's sweep, another host's reads by name. */
	r = row("b:2", 3, 200, 210);
	r.swept = 3;
	CHECK(!upsert1(s, &r));
	r = row("b:3", 2, 200, 210);
	r.host = "h2";
	CHECK(!upsert1(s, &r));
	CHECK(walks_are(s, "h1|read|6|5\nh1|read|3|3\nh2|read|2|0\n",
			"h1|read|9|0|8\nh2|read|2|0|0\n"));
	/* Merged: swept as it was; a later copy's larger swept wins, an older one's does not. */
	CHECK(!merge_db(o, db));
	CHECK(walks_are(o, "h1|read|6|5\nh1|read|3|3\nh2|read|2|0\n",
			"h1|read|9|0|8\nh2|read|2|0|0\n"));
	r = row("b:1", 7, 100, 130);
	r.swept = 6;
	CHECK(!upsert1(s, &r));
	CHECK(!merge_db(o, db));
	CHECK(sql_int(out, "SELECT swept FROM usage WHERE session = 'b:1'") == 6);
	r.swept = 2;		/* as an older copy */
	CHECK(!upsert1(s, &r));
	CHECK(!merge_db(o, db));
	CHECK(sql_int(out, "SELECT swept FROM usage WHERE session = 'b:1'") == 6);
	/* Past INT64_MAX: clamped, as count is. */
	r = row("big", ~0ULL, 1, 1);
	r.swept = ~0ULL;
	CHECK(!upsert1(s, &r));
	CHECK(sql_int(db, "SELECT swept FROM usage WHERE session = 'big'") == LLONG_MAX);
out:
	store_close(s);
	store_close(o);
	free(db);
	free(out);
}

static void test_sessions(void)
{
	char *db = xstrdup(tpath("sessions.db")), *v1 = xstrdup(tpath("v1.db"));
	char err[512];
	struct usage_row r;
	struct store *s;

	current = "sessions";
	s = open_rw(db);
	if (!s) {
		CHECK(0);
		goto out;
	}
	/* A sync: started = last_sync = now; later syncs move last_sync only. */
	CHECK(!session1(s, "h2", "b:1", 500));
	CHECK(!session1(s, "h1", "b:2", 300));
	CHECK(!session1(s, "h1", "b:2", 400));
	CHECK(!session1(s, "h1", "b:1", 100));
	CHECK(!session1(s, "h1", "b:1", 200));
	/* A clock set back: the span does not shrink. */
	CHECK(!session1(s, "h1", "b:1", 150));
	/* Ordered by host, then start. */
	CHECK(sessions_are(s, "h1|b:1|100|200\nh1|b:2|300|400\nh2|b:1|500|500\n"));
	/* Merged: the smaller start, the larger last sync; again, no change. */
	CHECK(!merge_session1(s, "h2", "b:1", 450, 480, 0, 0, STORE_NO_LOSS));
	CHECK(!merge_session1(s, "h2", "b:1", 450, 480, 0, 0, STORE_NO_LOSS));
	CHECK(!merge_session1(s, "h3", "b:9", 10, 20, 0, 0, STORE_NO_LOSS));
	CHECK(sessions_are(s, "h1|b:1|100|200\nh1|b:2|300|400\nh2|b:1|450|500\nh3|b:9|10|20\n"));
	CHECK(store_session(s, NULL, "b:1", &WALL(1), 0, 0) == -1 && strstr(store_errmsg(s), "needs host"));
	/* A callback's non-zero return stops the walk and is returned. */
	CHECK(store_each_session(s, stop_session, NULL) == 7);
	store_close(s);
	s = store_open(db, true, err, sizeof(err));
	CHECK(s && store_session(s, "h1", "b:1", &WALL(1), 0, 0) == -1 &&
	      strstr(store_errmsg(s), "read-only"));
	store_close(s);

	/* A schema 1 DB: a usage table, no sessions. */
	make_old_db(v1, 1);
	/* Read-only: read as it is, no sessions, nothing swept, nothing changed. */
	s = store_open(v1, true, err, sizeof(err));
	CHECK(s != NULL);
	if (s) {
		CHECK(store_rows(s) == 2);
		CHECK(sessions_are(s, ""));
		CHECK(walks_are(s, "h1|read|3|0\nh1|write|5|0\n",
				"h1|read|3|0|0\nh1|write|5|1|0\n"));
		store_close(s);
	}
	CHECK(sql_int(v1, "PRAGMA user_version") == 1);
	CHECK(sql_int(v1, "SELECT count(*) FROM sqlite_master WHERE name = 'sessions'") == 0);
	/* Read-write: upgraded through schemas 2 and 3 to 4, rows kept; then written like any. */
	s = open_rw(v1);
	CHECK(s != NULL);
	if (s) {
		CHECK(store_rows(s) == 2);
		CHECK(!session1(s, "h1", "s1", 30));
		CHECK(sessions_are(s, "h1|s1|30|30\n"));
		r = row("s1", 4, 10, 40);
		r.swept = 1;
		CHECK(!upsert1(s, &r));
		CHECK(walks_are(s, "h1|read|4|1\nh1|write|5|0\n",
				"h1|read|4|0|1\nh1|write|5|1|0\n"));
		store_close(s);
	}
	CHECK(sql_int(v1, "PRAGMA user_version") == 8);
	CHECK(has_swept(v1));
	CHECK(sql_is(v1, "PRAGMA integrity_check", "ok"));
	/* Opened again: nothing more to do. */
	s = open_rw(v1);
	CHECK(s != NULL);
	store_close(s);
	CHECK(sql_int(v1, "SELECT count(*) FROM sqlite_master") == 9);
out:
	free(db);
	free(v1);
}

/* ---- what sessions lost: schema 5 ---- */

static void test_lost(void)
{
	char *db = xstrdup(tpath("lost.db"));
	struct store *s;

	current = "lost";
	s = open_rw(db);
	if (!s) {
		CHECK(0);
		goto out;
	}
	/* Nothing lost: no lost_at. */
	CHECK(!session_lost(s, "h1", "b:1", 100, 0, 0));
	CHECK(sessions_are(s, "h1|b:1|100|100\n"));
	/* Losses seen at 200: lost after 100, at or before 200. */
	CHECK(!session_lost(s, "h1", "b:1", 200, 418, 0));
	CHECK(sessions_are(s, "h1|b:1|100|200|418|0|200\n"));
	/* The same losses at the next syncs: lost_at stays. */
	CHECK(!session_lost(s, "h1", "b:1", 300, 418, 0));
	CHECK(sessions_are(s, "h1|b:1|100|300|418|0|200\n"));
	/* Skipped runs grow: lost_at moves. */
	CHECK(!session_lost(s, "h1", "b:1", 400, 418, 3));
	CHECK(sessions_are(s, "h1|b:1|100|400|418|3|400\n"));
	/* A clock set back: nothing grew, nothing moves. */
	CHECK(!session_lost(s, "h1", "b:1", 350, 418, 3));
	CHECK(sessions_are(s, "h1|b:1|100|400|418|3|400\n"));
	/* A new session's first sync with losses: lost at it. */
	CHECK(!session_lost(s, "h2", "b:1", 500, 0, 7));
	CHECK(sessions_are(s, "h1|b:1|100|400|418|3|400\nh2|b:1|500|500|0|7|500\n"));
	/* Merged: the larger losses, the later lost_at; a copy without any leaves them. */
	CHECK(!merge_session1(s, "h1", "b:1", 100, 450, 500, 3, 450));
	CHECK(!merge_session1(s, "h1", "b:1", 100, 450, 500, 3, 450));
	CHECK(!merge_session1(s, "h2", "b:1", 500, 500, 0, 0, STORE_NO_LOSS));
	CHECK(!merge_session1(s, "h3", "b:1", 10, 20, 0, 0, STORE_NO_LOSS));
	CHECK(sessions_are(s, "h1|b:1|100|450|500|3|450\nh2|b:1|500|500|0|7|500\nh3|b:1|10|20\n"));
	/* An older copy merged later changes nothing either. */
	CHECK(!merge_session1(s, "h1", "b:1", 100, 300, 418, 0, 200));
	CHECK(sessions_are(s, "h1|b:1|100|450|500|3|450\nh2|b:1|500|500|0|7|500\nh3|b:1|10|20\n"));
	store_close(s);
out:
	free(db);
}

/* A schema 4 DB: read with no losses; upgraded, its sessions have lost nothing known. */
static void test_schema4(void)
{
	char *db = xstrdup(tpath("v4.db"));
	char err[512];
	struct store *s;

	current = "schema 4";
	make_old_db(db, 4);
	s = store_open(db, true, err, sizeof(err));
	CHECK(s != NULL);
	if (s) {
		CHECK(store_has_days(s));
		CHECK(sessions_are(s, "h1|s1|10|30\n"));
		CHECK(walks_are(s, "h1|read|3|2\nh1|write|5|0\n",
				"h1|read|3|0|2\nh1|write|5|1|0\n"));
		store_close(s);
	}
	CHECK(sql_int(db, "PRAGMA user_version") == 4);
	CHECK(sql_int(db, "SELECT count(*) FROM pragma_table_info('sessions')") == 4);
	s = open_rw(db);
	CHECK(s != NULL);
	if (!s)
		goto out;
	CHECK(sql_int(db, "PRAGMA user_version") == 8);
	CHECK(sql_int(db, "SELECT count(*) FROM pragma_table_info('sessions')") == 18);
	CHECK(sessions_are(s, "h1|s1|10|30\n"));
	CHECK(!session_lost(s, "h1", "s1", 40, 2, 0));
	CHECK(sessions_are(s, "h1|s1|10|40|2|0|40\n"));
	store_close(s);
	CHECK(sql_is(db, "PRAGMA integrity_check", "ok"));
	CHECK(sql_int(db, "SELECT count(*) FROM sqlite_master") == 9);
out:
	free(db);
}

/* ---- the daily history: usage_days, schema 4 ---- */

#define DAY0	(19850LL * 86400)	/* 2024-05-07 00:00 UTC */
#define DAY(n)	(DAY0 + (n) * 86400LL)

/* store_each_day()'s days as "what|exe|op|host|day-DAY0 in days|count|errors|swept" lines. */
static int day_line(const struct usage_day *d, void *arg)
{
	struct lines *l = arg;

	l->n++;
	snprintf(l->buf + strlen(l->buf), sizeof(l->buf) - strlen(l->buf),
		 "%s|%s|%s|%s|%lld|%llu|%llu|%llu\n", d->what ? d->what : "NULL", d->exe,
		 d->op, d->host, (d->day - DAY0) / 86400, d->count, d->errors, d->swept);
	return 0;
}

static bool days_are(struct store *s, const struct store_filter *f, const char *want)
{
	struct lines l = { "", 0 };
	int ret = store_each_day(s, f, day_line, &l);

	if (ret || strcmp(l.buf, want))
		printf("# days (ret %d) %s:\n%s# want:\n%s", ret, store_errmsg(s), l.buf, want);
	return !ret && !strcmp(l.buf, want);
}

/* The raw day rows of @db as "session|op|day|count|errors|swept" lines. */
static bool day_rows_are(const char *db, const char *want)
{
	char *v = sql_text(db, "SELECT group_concat(session || '|' || op || '|' ||"
			   " ((day - 19850 * 86400) / 86400) || '|' || count || '|' || errors"
			   " || '|' || swept, ' ') FROM (SELECT * FROM usage_days"
			   " ORDER BY host, session, path, op, day)");
	bool ok = v ? !strcmp(v, want) : !*want;

	if (!ok)
		printf("# day rows: '%s', want '%s'\n", v ? v : "", want);
	free(v);
	return ok;
}

/* For every key and session with history: its days sum to its row. */
static bool days_sum_to_rows(const char *db)
{
	return sql_int(db, "SELECT count(*) FROM usage u JOIN (SELECT host, session, path,"
		       " op, uid, cgroup_id, exe, SUM(count) c, SUM(errors) e, SUM(swept) w"
		       " FROM usage_days GROUP BY 1, 2, 3, 4, 5, 6, 7) d USING (host, session,"
		       " path, op, uid, cgroup_id, exe) WHERE u.count != d.c OR u.errors != d.e"
		       " OR u.swept != d.w") == 0;
}

/* store_upsert() writes the days: the growth of the row, on its last use's day. */
static void test_days(void)
{
	char *db = xstrdup(tpath("days.db"));
	struct usage_row r;
	struct store *s;

	current = "days";
	s = open_rw(db);
	if (!s) {
		CHECK(0);
		goto out;
	}
	CHECK(store_has_days(s));
	/* A new row: all of it on the day of its last use. */
	r = row("b:1", 5, DAY(0) + 10, DAY(0) + 100);
	r.swept = 1;
	CHECK(!upsert1(s, &r));
	CHECK(day_rows_are(db, "b:1|read|0|5|0|1"));
	/* The same day again: added up. */
	r = row("b:1", 8, DAY(0) + 10, DAY(0) + 200);
	r.swept = 1;
	r.errors = 2;
	CHECK(!upsert1(s, &r));
	CHECK(day_rows_are(db, "b:1|read|0|8|2|1"));
	/* A sync that found nothing new writes no day; the next day's growth is its own. */
	r.last_seen = DAY(1) + 5;
	CHECK(!upsert1(s, &r));
	CHECK(day_rows_are(db, "b:1|read|0|8|2|1"));
	r = row("b:1", 11, DAY(0) + 10, DAY(2) + 50);
	r.swept = 3;
	r.errors = 2;
	CHECK(!upsert1(s, &r));
	CHECK(day_rows_are(db, "b:1|read|0|8|2|1 b:1|read|2|3|0|2"));
	CHECK(days_sum_to_rows(db));
	/* Counts that shrink (not from the tracer) write nothing negative. */
	r = row("b:1", 4, DAY(0) + 10, DAY(3));
	CHECK(!upsert1(s, &r));
	CHECK(day_rows_are(db, "b:1|read|0|8|2|1 b:1|read|2|3|0|2"));
	r = row("b:1", 11, DAY(0) + 10, DAY(3) + 7);
	r.swept = 3;
	r.errors = 2;
	CHECK(!upsert1(s, &r));
	CHECK(day_rows_are(db, "b:1|read|0|8|2|1 b:1|read|2|3|0|2 b:1|read|3|7|2|3"));
	/* Another session, another op, another host: days of their own. */
	r = row("b:2", 6, DAY(3) + 10, DAY(3) + 20);
	CHECK(!upsert1(s, &r));
	r = row("b:2", 2, DAY(4) + 10, DAY(4) + 20);
	r.op = "write";
	CHECK(!upsert1(s, &r));
	r = row("c:1", 1, DAY(4), DAY(4));
	r.host = "h2";
	r.what = NULL;
	CHECK(!upsert1(s, &r));
	/* A rolled-back sync leaves no day. */
	r = row("b:2", 9, DAY(3) + 10, DAY(5));
	CHECK(!store_begin(s) && !store_upsert(s, &r) && !store_rollback(s));
	CHECK(sql_int(db, "SELECT count(*) FROM usage_days WHERE day = 19855 * 86400") == 0);
	/* Read back: summed over sessions, per what, exe, uid, op, host, day. */
	CHECK(days_are(s, NULL,
		       "NULL|/usr/bin/cat|read|h2|4|1|0|0\n"
		       "/sys/class/rc/rcN/current_protocol|/usr/bin/cat|read|h1|0|8|2|1\n"
		       "/sys/class/rc/rcN/current_protocol|/usr/bin/cat|read|h1|2|3|0|2\n"
		       "/sys/class/rc/rcN/current_protocol|/usr/bin/cat|read|h1|3|13|2|3\n"
		       "/sys/class/rc/rcN/current_protocol|/usr/bin/cat|write|h1|4|2|0|0\n"));
	{
		/* The days that overlap [since, until]: whole days. */
		struct store_filter f = { .since = DAY(2) + 3600, .until = DAY(3) };
		struct entry_sel sel = { 0 };
		struct lines l = { "", 0 };

		CHECK(days_are(s, &f,
			       "/sys/class/rc/rcN/current_protocol|/usr/bin/cat|read|h1|2|3|0|2\n"
			       "/sys/class/rc/rcN/current_protocol|/usr/bin/cat|read|h1|3|13|2|3\n"));
		f.since = 0;
		f.until = DAY(1) - 1;
		CHECK(days_are(s, &f, "/sys/class/rc/rcN/current_protocol|/usr/bin/cat|read|h1|0|8|2|1\n"));
		f.until = 0;
		f.since = DAY(4);
		/* The use without a What too: by its path, rc0's. */
		CHECK(days_are(s, entry_filter(&f, &sel, "/sys/class/rc/rc0/current_protocol"),
			       "NULL|/usr/bin/cat|read|h2|4|1|0|0\n"
			       "/sys/class/rc/rcN/current_protocol|/usr/bin/cat|write|h1|4|2|0|0\n"));
		CHECK(days_are(s, entry_filter(&f, &sel, "nothing"), ""));
		entry_sel_free(&sel);
		f.entry = NULL;
		CHECK(store_each_day(s, NULL, (int (*)(const struct usage_day *, void *))stop_at_first, &l) == 7);
	}
	/*
	 * The bound: a day STORE_HISTORY_DAYS after the oldest prunes it, at
	 * the commit; the usage rows keep their totals.
	 */
	r = row("b:3", 1, DAY(STORE_HISTORY_DAYS), DAY(STORE_HISTORY_DAYS));
	CHECK(!upsert1(s, &r));
	CHECK(sql_int(db, "SELECT min(day) FROM usage_days") == DAY(2));
	CHECK(sql_int(db, "SELECT SUM(count) FROM usage WHERE session = 'b:1'") == 11);
	r = row("b:3", 2, DAY(STORE_HISTORY_DAYS), DAY(STORE_HISTORY_DAYS + 3));
	CHECK(!upsert1(s, &r));
	CHECK(sql_int(db, "SELECT min(day) FROM usage_days") == DAY(4));
	CHECK(sql_int(db, "SELECT count(*) FROM usage_days") == 4);
	CHECK(store_rows(s) == 5);
	/* Past INT64_MAX: clamped, a day's sum too. */
	r = row("big", ~0ULL, DAY(500), DAY(500));
	CHECK(!upsert1(s, &r));
	CHECK(sql_int(db, "SELECT count FROM usage_days WHERE session = 'big'") == LLONG_MAX);
	{
		/*
		 * A clock far ahead for one sync: its day is kept, but the bound
		 * runs from tomorrow, not from it, so a day of last week stays.
		 */
		long long now = time(NULL), week = now - 7 * 86400;

		r = row("recent", 3, week, week);
		CHECK(!upsert1(s, &r));
		r = row("future", 1, now + 100LL * 365 * 86400, now + 100LL * 365 * 86400);
		CHECK(!upsert1(s, &r));
		CHECK(sql_int(db, "SELECT count(*) FROM usage_days WHERE session = 'recent'") == 1);
		CHECK(sql_int(db, "SELECT count(*) FROM usage_days WHERE session = 'future'") == 1);
		/* Gone again, for the checks below. */
		store_close(s);
		{
			sqlite3 *h;

			CHECK(sqlite3_open(db, &h) == SQLITE_OK &&
			      sqlite3_exec(h, "DELETE FROM usage WHERE session IN ('recent', 'future');"
					   "DELETE FROM usage_days WHERE session IN ('recent', 'future')",
					   NULL, NULL, NULL) == SQLITE_OK);
			sqlite3_close(h);
		}
		s = open_rw(db);
	}
	store_close(s);
	CHECK(sql_is(db, "PRAGMA integrity_check", "ok"));
	/* Read-only: the same days; no day is written. */
	{
		char err[512];

		s = store_open(db, true, err, sizeof(err));
		CHECK(s && store_has_days(s));
		if (s) {
			CHECK(!store_begin(s));
			CHECK(store_upsert(s, &r) == -1 && strstr(store_errmsg(s), "read-only"));
			CHECK(!store_commit(s));
			store_close(s);
		}
	}
out:
	free(db);
}

/* store_each_row_since()'s rows as "session|op|count|recent count/errors/swept or -" lines. */
static int since_line(const struct usage_row *r, const struct usage_counts *recent,
		      void *arg)
{
	struct lines *l = arg;

	l->n++;
	if (recent)
		snprintf(l->buf + strlen(l->buf), sizeof(l->buf) - strlen(l->buf),
			 "%s|%s|%llu|%llu/%llu/%llu\n", r->session, r->op, r->count,
			 recent->count, recent->errors, recent->swept);
	else
		snprintf(l->buf + strlen(l->buf), sizeof(l->buf) - strlen(l->buf),
			 "%s|%s|%llu|-\n", r->session, r->op, r->count);
	return 0;
}

static bool since_is(struct store *s, long long since, const char *want)
{
	struct lines l = { "", 0 };
	int ret = store_each_row_since(s, since, since_line, &l);

	if (ret || strcmp(l.buf, want))
		printf("# rows since (ret %d) %s:\n%s# want:\n%s", ret, store_errmsg(s), l.buf, want);
	return !ret && !strcmp(l.buf, want);
}

/*
 * Sums, files and path sums within a window: from the days where there
 * are, by session where not (a row written before the upgrade).
 */
static void test_days_window(void)
{
	char *db = xstrdup(tpath("window.db"));
	const char *rc = "/sys/class/rc/rcN/current_protocol";
	struct store_filter f = { 0 };
	struct usage_row r;
	struct store *s;
	char q[1024];

	current = "days window";
	s = open_rw(db);
	if (!s) {
		CHECK(0);
		goto out;
	}
	/* Session a: 4 uses on day 0, 6 on day 2, 1 on day 5. */
	r = row("a", 4, DAY(0) + 100, DAY(0) + 200);
	CHECK(!upsert1(s, &r));
	r = row("a", 10, DAY(0) + 100, DAY(2) + 300);
	r.swept = 6;
	CHECK(!upsert1(s, &r));
	r = row("a", 11, DAY(0) + 100, DAY(5) + 400);
	r.swept = 6;
	r.errors = 1;
	CHECK(!upsert1(s, &r));
	/* A row as if written before the upgrade: no days (session b, 7 uses, day 1 to 3). */
	{
		sqlite3 *h;

		CHECK(sqlite3_open(db, &h) == SQLITE_OK &&
		      sqlite3_exec(h, "INSERT INTO usage SELECT host, 'b', path, op, uid, cgroup_id,"
				   " exe, what, table_name, status, cgroup, comm, pid, ppid, 7, 0,"
				   " 19851 * 86400 + 50, 19853 * 86400 + 60, 0, NULL, NULL FROM usage",
				   NULL, NULL, NULL) == SQLITE_OK);
		sqlite3_close(h);
	}
	/* Whole: the usage rows' totals, as always. */
	snprintf(q, sizeof(q), "%s|/usr/bin/cat|1000|/user.slice|read|h1|18|1|%lld|%lld\n",
		 rc, DAY(0) + 100, DAY(5) + 400);
	CHECK(sums_are(s, NULL, q));
	/* Day 2 only: a's 6 uses, first and last clipped to it; b's session overlaps: all 7. */
	f.since = DAY(2);
	f.until = DAY(2) + 1;
	snprintf(q, sizeof(q), "%s|/usr/bin/cat|1000|/user.slice|read|h1|13|0|%lld|%lld\n",
		 rc, DAY(1) + 50, DAY(3) + 60);
	CHECK(sums_are(s, &f, q));
	/* Day 4 on: a's day 5; b ended before. */
	f.since = DAY(4);
	f.until = 0;
	snprintf(q, sizeof(q), "%s|/usr/bin/cat|1000|/user.slice|read|h1|1|1|%lld|%lld\n",
		 rc, DAY(5), DAY(5) + 400);
	CHECK(sums_are(s, &f, q));
	{
		struct lines l = { "", 0 };

		CHECK(!store_files(s, &f, file_line, &l));
		snprintf(q, sizeof(q), "%s|/sys/class/rc/rc0/current_protocol|sysfs-class-rc|deprecated|%lld\n",
			 rc, DAY(5) + 400);
		CHECK(!strcmp(l.buf, q));
		memset(&l, 0, sizeof(l));
		CHECK(!store_path_sums(s, &f, path_sum_line, &l));
		snprintf(q, sizeof(q), "/sys/class/rc/rc0/current_protocol|h1|read|NULL|1|%lld\n",
			 DAY(5) + 400);
		CHECK(!strcmp(l.buf, q));
	}
	/* Up to day 0: a's first 4; b started after. */
	f.since = 0;
	f.until = DAY(0) + 10;
	snprintf(q, sizeof(q), "%s|/usr/bin/cat|1000|/user.slice|read|h1|4|0|%lld|%lld\n",
		 rc, DAY(0) + 100, DAY(0) + 86399);
	CHECK(sums_are(s, &f, q));
	/* Nothing in the window: nothing, files none. */
	f.since = DAY(6);
	CHECK(sums_are(s, &f, ""));
	{
		struct lines l = { "", 0 };

		CHECK(!store_files(s, &f, file_line, &l) && l.n == 0);
	}
	/* Each row with its recent uses; the row without history: NULL. */
	CHECK(since_is(s, DAY(2) + 5000, "a|read|11|7/1/6\nb|read|7|-\n"));
	CHECK(since_is(s, DAY(6), "a|read|11|0/0/0\nb|read|7|-\n"));
	CHECK(since_is(s, 0, "a|read|11|11/1/6\nb|read|7|-\n"));
	store_close(s);
out:
	free(db);
}

/* A schema 3 DB: read by session, without days; upgraded, its history starts. */
static void test_schema3(void)
{
	char *db = xstrdup(tpath("v3.db"));
	struct store_filter f = { 0 };
	char err[512];
	struct usage_row r;
	struct store *s;

	current = "schema 3";
	make_old_db(db, 3);
	s = store_open(db, true, err, sizeof(err));
	CHECK(s != NULL);
	if (s) {
		CHECK(!store_has_days(s));
		CHECK(walks_are(s, "h1|read|3|2\nh1|write|5|0\n",
				"h1|read|3|0|2\nh1|write|5|1|0\n"));
		CHECK(sessions_are(s, "h1|s1|10|30\n"));
		CHECK(days_are(s, NULL, ""));
		CHECK(since_is(s, 0, "s1|read|3|-\ns1|write|5|-\n"));
		/* --since by session's last use, --until by its first. */
		f.since = 21;
		CHECK(sums_are(s, &f, "/sys/class/rc/rcN/current_protocol|/usr/bin/cat|1000|/user.slice|write|h1|5|1|15|25\n"));
		f.since = 0;
		f.until = 14;
		CHECK(sums_are(s, &f, "/sys/class/rc/rcN/current_protocol|/usr/bin/cat|1000|/user.slice|read|h1|3|0|10|20\n"));
		{
			struct lines l = { "", 0 };

			CHECK(!store_files(s, &f, file_line, &l) && l.n == 1);
		}
		store_close(s);
	}
	CHECK(sql_int(db, "PRAGMA user_version") == 3);
	CHECK(sql_int(db, "SELECT count(*) FROM sqlite_master WHERE name = 'usage_days'") == 0);
	/* Read-write: upgraded to 4, no days yet; then the history starts. */
	s = open_rw(db);
	CHECK(s != NULL);
	if (!s)
		goto out;
	CHECK(sql_int(db, "PRAGMA user_version") == 8);
	CHECK(store_has_days(s));
	CHECK(sql_int(db, "SELECT count(*) FROM usage_days") == 0);
	CHECK(walks_are(s, "h1|read|3|2\nh1|write|5|0\n", "h1|read|3|0|2\nh1|write|5|1|0\n"));
	r = row("s1", 9, 10, DAY(0));
	r.swept = 2;
	CHECK(!upsert1(s, &r));
	/* What grew since the upgrade, on its day; the rest stays in the row. */
	CHECK(day_rows_are(db, "s1|read|0|6|0|0"));
	CHECK(since_is(s, 0, "s1|read|9|6/0/0\ns1|write|5|-\n"));
	store_close(s);
	CHECK(sql_is(db, "PRAGMA integrity_check", "ok"));
	s = open_rw(db);
	CHECK(s != NULL);
	store_close(s);
	CHECK(sql_int(db, "SELECT count(*) FROM sqlite_master") == 9);
out:
	free(db);
}

/* A drained tracer's sync: store_add() adds, and the drained map is kept. */
static void test_add(void)
{
	char *db = xstrdup(tpath("add.db"));
	struct usage_row r;
	struct store *s;

	current = "add";
	s = open_rw(db);
	if (!s) {
		CHECK(0);
		goto out;
	}
	/* A new row: as an upsert. */
	r = row("s1", 3, DAY(0) + 100, DAY(0) + 200);
	r.swept = 1;
	CHECK(!store_begin(s) && !store_add(s, &r) && !store_session(s, "h1", "s1", &WALL(DAY(0) + 300), 0, 0) &&
	      !store_set_drained(s, "h1", "s1", 41) && !store_commit(s));
	CHECK(store_drained(s, "h1", "s1") == 41);
	CHECK(store_drained(s, "h1", "s9") == -1);
	/* The next interval's counts: added, first_seen kept, last_seen the later. */
	r = row("s1", 2, DAY(1) + 10, DAY(1) + 20);
	r.errors = 1;
	r.comm = "other";
	CHECK(!store_begin(s) && !store_add(s, &r) && !store_set_drained(s, "h1", "s1", 42) &&
	      !store_commit(s));
	CHECK(sql_is(db, "SELECT count || '|' || errors || '|' || swept || '|' || (first_seen - 19850 * 86400)"
		     " || '|' || (last_seen - 19850 * 86400) || '|' || comm FROM usage",
		     "5|1|1|100|86420|cat"));
	CHECK(store_drained(s, "h1", "s1") == 42);
	/* Each interval's uses on its day. */
	CHECK(day_rows_are(db, "s1|read|0|3|0|1 s1|read|1|2|1|0"));
	/* A rolled back add adds nothing. */
	CHECK(!store_begin(s) && !store_add(s, &r) && !store_rollback(s));
	CHECK(sql_int(db, "SELECT count FROM usage") == 5);
	store_close(s);
	/* Read-only: no drained map to read or write. */
	s = store_open(db, true, (char[512]){ 0 }, 512);
	CHECK(s && store_add(s, &r) == -1);
	store_close(s);
out:
	free(db);
}

/* merge: the larger of each (key, session, day), again and again the same; pruned. */
static void test_days_merge(void)
{
	char *a = xstrdup(tpath("dm-a.db")), *b = xstrdup(tpath("dm-b.db"));
	char *out = xstrdup(tpath("dm-out.db")), *v3 = xstrdup(tpath("dm-v3.db"));
	struct usage_row r;
	struct store *s, *o;

	current = "days merge";
	s = open_rw(a);
	o = open_rw(out);
	CHECK(s && o);
	if (!s || !o)
		goto out;
	r = row("a:1", 3, DAY(0), DAY(0));
	CHECK(!upsert1(s, &r));
	r = row("a:1", 5, DAY(0), DAY(1));
	CHECK(!upsert1(s, &r));
	store_close(s);
	s = open_rw(b);
	CHECK(s != NULL);
	if (!s)
		goto out;
	r = row("b:1", 2, DAY(1), DAY(1));
	r.host = "h2";
	CHECK(!upsert1(s, &r));
	CHECK(!merge_db(o, a) && !merge_db(o, b));
	CHECK(day_rows_are(out, "a:1|read|0|3|0|0 a:1|read|1|2|0|0 b:1|read|1|2|0|0"));
	CHECK(days_sum_to_rows(out));
	/* Merged again, in another order: nothing changes. */
	CHECK(!merge_db(o, b) && !merge_db(o, a) && !merge_db(o, a));
	CHECK(day_rows_are(out, "a:1|read|0|3|0|0 a:1|read|1|2|0|0 b:1|read|1|2|0|0"));
	/* A later copy of b (its day grew, a new day): the larger wins. */
	r = row("b:1", 6, DAY(1), DAY(1) + 9);
	r.host = "h2";
	CHECK(!upsert1(s, &r));
	r = row("b:1", 7, DAY(1), DAY(2));
	r.host = "h2";
	CHECK(!upsert1(s, &r));
	CHECK(!merge_db(o, b));
	CHECK(day_rows_are(out, "a:1|read|0|3|0|0 a:1|read|1|2|0|0 b:1|read|1|6|0|0 b:1|read|2|1|0|0"));
	CHECK(days_sum_to_rows(out));
	/* A schema 3 input: its rows, no days. */
	make_old_db(v3, 3);
	CHECK(!merge_db(o, v3));
	CHECK(store_rows(o) == 4);
	CHECK(sql_int(out, "SELECT count(*) FROM usage_days") == 4);
	/* A day far later prunes the merged DB too. */
	r = row("b:2", 1, DAY(STORE_HISTORY_DAYS + 1), DAY(STORE_HISTORY_DAYS + 1));
	r.host = "h2";
	CHECK(!upsert1(s, &r));
	CHECK(!merge_db(o, b));
	CHECK(day_rows_are(out, "b:1|read|2|1|0|0 b:2|read|401|1|0|0"));
	/* Read-only: no merge. */
	store_close(s);
	s = store_open(a, true, (char[512]){ 0 }, 512);
	{
		struct usage_day_row d = { .host = "h", .session = "s", .path = "p", .op = "read",
					   .exe = "e", .count = 1 };

		CHECK(s && store_merge_day(s, &d) == -1 && strstr(store_errmsg(s), "read-only"));
		d.exe = NULL;
		CHECK(store_merge_day(o, &d) == -1 && strstr(store_errmsg(o), "needs host"));
	}
out:
	store_close(s);
	store_close(o);
	free(a);
	free(b);
	free(out);
	free(v3);
}

/* usage_add(): counts saturate, first_seen the earlier, last_seen the later. */
static void test_usage_add(void)
{
	struct usage_row r = { .count = 3, .errors = 1, .swept = 2, .first_seen = 100,
			       .last_seen = 200 };
	struct usage_counts more = { .count = 4, .errors = 0, .swept = 4, .first_seen = 50,
				     .last_seen = 150 };
	struct usage_counts big = { .count = ULLONG_MAX - 1, .errors = ULLONG_MAX,
				    .swept = ULLONG_MAX - 5, .first_seen = 300, .last_seen = 400 };

	current = "usage_add";
	usage_add(&r.counts, &more);
	CHECK(r.count == 7 && r.errors == 1 && r.swept == 6);
	CHECK(r.first_seen == 50 && r.last_seen == 200);
	usage_add(&r.counts, &big);
	CHECK(r.count == ULLONG_MAX && r.errors == ULLONG_MAX && r.swept == ULLONG_MAX);
	CHECK(r.first_seen == 50 && r.last_seen == 400);
}

/* usage_all_swept(): every access swept, and at least one. */
static void test_all_swept(void)
{
	struct usage_counts c = { 0 };

	current = "usage_all_swept";
	CHECK(!usage_all_swept(&c));		/* no access: no sweep */
	c.count = 3;
	CHECK(!usage_all_swept(&c));		/* all by name */
	c.swept = 2;
	CHECK(!usage_all_swept(&c));		/* one by name */
	c.swept = 3;
	CHECK(usage_all_swept(&c));
	c.swept = 4;				/* more than count (a damaged row): all */
	CHECK(usage_all_swept(&c));
}

/* ---- what sessions watched, host keys: schema 6 ---- */

/* store_each_watched()'s runs as "host|session|what|since|last_sync|files" lines. */
static int watched_line(const struct usage_watched *w, void *arg)
{
	struct lines *l = arg;

	l->n++;
	snprintf(l->buf + strlen(l->buf), sizeof(l->buf) - strlen(l->buf),
		 "%s|%s|%s|%lld|%lld|%lld\n", w->host, w->session, w->what ? w->what : "-",
		 w->since, w->last_sync, w->files);
	return 0;
}

static bool watched_are(struct store *s, const char *want)
{
	struct lines l = { "", 0 };
	int ret = store_each_watched(s, watched_line, &l);

	if (ret || strcmp(l.buf, want))
		printf("# watched (ret %d) %s:\n%s# want:\n%s", ret, store_errmsg(s), l.buf, want);
	return !ret && !strcmp(l.buf, want);
}

/* One sync of session (h/1, s1) at @now that watched @files of What "/sys/a". */
static int sync_watched(struct store *s, long long now, long long files)
{
	const struct store_watch w = { "/sys/a", files };
	const struct store_session_info si = { "machine-id", "early", WALL(50), 3 };

	return store_begin(s) || store_session(s, "h/1", "s1", &WALL(now), 0, 0) ||
	       store_session_watched(s, "h/1", "s1", &si, &WALL(now), &w, 1) ||
	       store_commit(s);
}

/* A What's runs: one per stretch of syncs in one state, watched or not. */
static void test_watched(void)
{
	char *db = xstrdup(tpath("watched.db"));
	struct usage_watched m = { "h/1", "s1", "/sys/a", 100, 250, 2, STORE_NO_BT, STORE_NO_BT };
	struct store *s = open_rw(db);

	current = "watched";
	if (!s)
		goto out;
	CHECK(!sync_watched(s, 100, 2) && !sync_watched(s, 200, 3));
	CHECK(watched_are(s, "h/1|s1|/sys/a|100|200|3\n"));
	/* The file went (a module unloaded): a run of not watched. */
	CHECK(!sync_watched(s, 300, 0) && !sync_watched(s, 400, 0));
	CHECK(!sync_watched(s, 500, 1));
	CHECK(watched_are(s, "h/1|s1|/sys/a|100|200|3\nh/1|s1|/sys/a|300|400|0\n"
			  "h/1|s1|/sys/a|500|500|1\n"));
	/* The pin's stage and time: the session starts at the pin (50), not its first sync. */
	CHECK(sql_is(db, "SELECT host_id || ' ' || stage || ' ' || boot_offset || ' ' || started FROM sessions",
		     "machine-id early 3 50"));
	/* Merged: the later sync wins; the same row again changes nothing. */
	CHECK(!store_merge_watched(s, &m) && !store_merge_watched(s, &m));
	CHECK(watched_are(s, "h/1|s1|/sys/a|100|250|2\nh/1|s1|/sys/a|300|400|0\n"
			  "h/1|s1|/sys/a|500|500|1\n"));
	m.last_sync = 150;
	m.files = 9;
	CHECK(!store_merge_watched(s, &m));
	CHECK(watched_are(s, "h/1|s1|/sys/a|100|250|2\nh/1|s1|/sys/a|300|400|0\n"
			  "h/1|s1|/sys/a|500|500|1\n"));
	/* A session that recorded none is given as one run over its span. */
	CHECK(!store_merge_session(s, &(struct usage_session){ .host = "h/1", .session = "s0",
			.started = 10, .last_sync = 90, .lost_at = STORE_NO_LOSS }));
	CHECK(watched_are(s, "h/1|s0|-|10|90|0\nh/1|s1|/sys/a|100|250|2\n"
			  "h/1|s1|/sys/a|300|400|0\nh/1|s1|/sys/a|500|500|1\n"));
	store_close(s);
out:
	free(db);
}

/* store_boot_uses()'s uses as "exe|host|stage|after_boot" lines. */
static int boot_line(const struct usage_boot *b, void *arg)
{
	struct lines *l = arg;

	l->n++;
	snprintf(l->buf + strlen(l->buf), sizeof(l->buf) - strlen(l->buf),
		 "%s|%s|%s|%lld\n", b->exe, b->host, b->stage, b->after_boot);
	return 0;
}

static bool boot_uses_are(struct store *s, const struct store_filter *f, const char *want)
{
	struct lines l = { "", 0 };
	int ret = store_boot_uses(s, f, boot_line, &l);

	if (ret || strcmp(l.buf, want))
		printf("# boot uses (ret %d) %s:\n%s# want:\n%s", ret, store_errmsg(s), l.buf, want);
	return !ret && !strcmp(l.buf, want);
}

/*
 * Uses during boot: before the first sync (100) of a session begun early,
 * pinned at 50, 3 s after boot (sync_watched()'s); none of a late one.
 */
static void test_boot_uses(void)
{
	const struct store_session_info pin = { "machine-id", "early", WALL(380), 2 };
	char *db = xstrdup(tpath("boot.db"));
	struct entry_sel sel = { 0 };
	struct store_filter f = { 0 };
	struct store *s = open_rw(db);
	struct usage_row r;

	current = "boot uses";
	if (!s)
		goto out;
	CHECK(!sync_watched(s, 100, 1) && !sync_watched(s, 200, 1));
	r = row("s1", 1, 60, 60);
	r.host = "h/1";
	CHECK(!upsert1(s, &r));
	r.exe = "/usr/bin/at-first-sync";
	r.first_seen = 100;
	CHECK(!upsert1(s, &r));
	r.exe = "/usr/bin/a-second-before";
	r.first_seen = 99;
	CHECK(!upsert1(s, &r));
	/* By exe, then the earliest after boot: 60 - (50 - 3), 99 - 47. */
	CHECK(boot_uses_are(s, NULL, "/usr/bin/a-second-before|h/1|early|52\n"
			    "/usr/bin/cat|h/1|early|13\n"));
	CHECK(boot_uses_are(s, entry_filter(&f, &sel, "/sys/other"), ""));
	entry_sel_free(&sel);
	/* A later session of the host, begun late: its first use is no use at boot. */
	CHECK(!store_begin(s) && !store_session(s, "h/1", "s2", &WALL(300), 0, 0) &&
	      !store_session_watched(s, "h/1", "s2", &(struct store_session_info){
			"machine-id", "late", WALL(290), 90 }, &WALL(300),
			&(struct store_watch){ "/sys/a", 1 }, 1) && !store_commit(s));
	r.session = "s2";
	r.exe = "/usr/bin/late";
	r.first_seen = 295;
	CHECK(!upsert1(s, &r));
	CHECK(boot_uses_are(s, NULL, "/usr/bin/a-second-before|h/1|early|52\n"
			    "/usr/bin/cat|h/1|early|13\n"));
	/*
	 * Host h/2's --pin --early at 380, 2 s after boot, its first sync at
	 * 400 (trace_sync.c's two calls): the pin's run of no file from 380,
	 * the file's from 400. A use at 390 was during boot, though a run
	 * began before it: the first sync says, not the earliest run.
	 */
	CHECK(!store_begin(s) && !store_session(s, "h/2", "p1", &WALL(400), 0, 0) &&
	      !store_session_watched(s, "h/2", "p1", &pin, &WALL(380),
				     &(struct store_watch){ "/sys/a", 0 }, 1) &&
	      !store_session_watched(s, "h/2", "p1", &pin, &WALL(400),
				     &(struct store_watch){ "/sys/a", 1 }, 1) &&
	      !store_commit(s));
	CHECK(sql_is(db, "SELECT started || ' ' || first_sync FROM sessions WHERE session = 'p1'",
		     "380 400"));
	r.host = "h/2";
	r.session = "p1";
	r.exe = "/usr/bin/udev-rule";
	r.first_seen = r.last_seen = 390;
	CHECK(!upsert1(s, &r));
	CHECK(boot_uses_are(s, NULL, "/usr/bin/a-second-before|h/1|early|52\n"
			    "/usr/bin/cat|h/1|early|13\n/usr/bin/udev-rule|h/2|early|12\n"));
	store_close(s);
out:
	free(db);
}

/* A schema 5 DB: read without host ids or runs; upgraded, its host adopted once. */
static void test_schema5(void)
{
	char *db = xstrdup(tpath("v5.db"));
	char err[512];
	struct store *s;

	current = "schema 5";
	make_old_db(db, 5);
	s = store_open(db, true, err, sizeof(err));
	CHECK(s != NULL);
	if (s) {
		CHECK(sessions_are(s, "h1|s1|10|30\n"));
		CHECK(watched_are(s, "h1|s1|-|10|30|0\n"));
		/* No session recorded its stage then: no use during boot. */
		CHECK(boot_uses_are(s, NULL, ""));
		store_close(s);
	}
	CHECK(sql_int(db, "PRAGMA user_version") == 5);
	s = open_rw(db);
	CHECK(s != NULL);
	if (!s)
		goto out;
	CHECK(sql_int(db, "PRAGMA user_version") == 8);
	CHECK(sql_int(db, "SELECT count(*) FROM pragma_table_info('sessions')") == 18);
	CHECK(sql_is(db, "SELECT count(*) FROM sessions WHERE host_id IS NULL", "1"));
	/* Another host's name: not ours to take. */
	CHECK(store_adopt_host(s, "h2", "h2/0123456789abcdef") == 0);
	CHECK(sql_is(db, "SELECT group_concat(DISTINCT host) FROM usage", "h1"));
	CHECK(store_adopt_host(s, "h1", "h1/0123456789abcdef") == 1);
	CHECK(sql_is(db, "SELECT group_concat(DISTINCT host) FROM usage", "h1/0123456789abcdef"));
	CHECK(sql_is(db, "SELECT count(*) FROM usage_days WHERE host = 'h1'", "0"));
	CHECK(sessions_are(s, "h1/0123456789abcdef|s1|10|30\n"));
	/* Done once: nothing left to adopt. */
	CHECK(store_adopt_host(s, "h1", "h1/0123456789abcdef") == 0);
	/* A fleet's DB, two legacy names: neither is taken. */
	CHECK(!store_merge_session(s, &(struct usage_session){ .host = "a", .session = "s",
			.started = 1, .last_sync = 2, .lost_at = STORE_NO_LOSS }));
	CHECK(!store_merge_session(s, &(struct usage_session){ .host = "b", .session = "s",
			.started = 1, .last_sync = 2, .lost_at = STORE_NO_LOSS }));
	CHECK(store_adopt_host(s, "a", "a/0123456789abcdef") == 0);
	CHECK(sql_is(db, "SELECT count(*) FROM sessions WHERE host = 'a'", "1"));
	store_close(s);
	CHECK(sql_is(db, "PRAGMA integrity_check", "ok"));
out:
	free(db);
}

/* store_each_session()'s first_sync of each session, as "session|first_sync" lines. */
static int first_sync_line(const struct usage_session *u, void *arg)
{
	struct lines *l = arg;

	l->n++;
	snprintf(l->buf + strlen(l->buf), sizeof(l->buf) - strlen(l->buf), "%s|%lld\n",
		 u->session, u->first_sync);
	return 0;
}

static bool first_syncs_are(struct store *s, const char *want)
{
	struct lines l = { "", 0 };
	int ret = store_each_session(s, first_sync_line, &l);

	if (ret || strcmp(l.buf, want))
		printf("# first syncs (ret %d) %s:\n%s# want:\n%s", ret, store_errmsg(s), l.buf, want);
	return !ret && !strcmp(l.buf, want);
}

/*
 * A schema 6 DB: read without first syncs, its earliest watched run
 * standing for one; upgraded, its session's stays unknown (NULL), a new
 * one's is its first sync, and a merge keeps the earlier known.
 */
static void test_schema6(void)
{
	char *db = xstrdup(tpath("v6.db"));
	struct usage_session m = { .host = "h1", .session = "s1", .started = 10,
				   .last_sync = 30, .lost_at = STORE_NO_LOSS };
	char err[512];
	struct store *s;

	current = "schema 6";
	make_old_db(db, 6);
	s = store_open(db, true, err, sizeof(err));
	CHECK(s != NULL);
	if (s) {
		CHECK(first_syncs_are(s, "s1|0\n"));
		/* cat's read at 10, before the run of its first sync (12): 7 s after boot. */
		CHECK(boot_uses_are(s, NULL, "/usr/bin/cat|h1|early|3\n"));
		store_close(s);
	}
	CHECK(sql_int(db, "PRAGMA user_version") == 6);
	s = open_rw(db);
	CHECK(s != NULL);
	if (!s)
		goto out;
	CHECK(sql_int(db, "PRAGMA user_version") == 8);
	CHECK(sql_int(db, "SELECT count(*) FROM pragma_table_info('sessions')") == 18);
	CHECK(sql_is(db, "SELECT coalesce(first_sync, 'NULL') FROM sessions", "NULL"));
	CHECK(boot_uses_are(s, NULL, "/usr/bin/cat|h1|early|3\n"));
	/* The old session syncs again: its first sync is still not known. */
	CHECK(!session1(s, "h1", "s1", 40));
	CHECK(first_syncs_are(s, "s1|0\n"));
	/* A new one's is its first: later syncs leave it. */
	CHECK(!session1(s, "h1", "s2", 50) && !session1(s, "h1", "s2", 60));
	CHECK(first_syncs_are(s, "s1|0\ns2|50\n"));
	/* Merged: a copy without changes nothing; the known one wins, the earlier of two. */
	CHECK(!store_merge_session(s, &m));
	CHECK(first_syncs_are(s, "s1|0\ns2|50\n"));
	m.first_sync = 20;
	CHECK(!store_merge_session(s, &m));
	m.first_sync = 25;
	CHECK(!store_merge_session(s, &m));
	CHECK(first_syncs_are(s, "s1|20\ns2|50\n"));
	/* Known now: cat's read (10) is still before it, its write (15) too. */
	CHECK(boot_uses_are(s, NULL, "/usr/bin/cat|h1|early|3\n/usr/bin/cat|h1|early|8\n"));
	store_close(s);
	CHECK(sql_is(db, "PRAGMA integrity_check", "ok"));
out:
	free(db);
}

/* The host key's id is systemd's application-specific machine id. */
static void test_host_key(void)
{
	char key[HOST_KEY_MAX], warn[512], line[128] = "";
	const char *from;
	FILE *p;

	current = "host key";
	CHECK(!host_key(key, &from, warn, sizeof(warn)));
	p = popen("systemd-id128 machine-id --app-specific=316a57bd6edc465e9a50369058c57416 2>/dev/null", "r");
	if (p && fgets(line, sizeof(line), p) && !strcmp(from, HOST_FROM_MACHINE)) {
		CHECK(strlen(key) > HOST_ID_HEX + 1 && key[strlen(key) - HOST_ID_HEX - 1] == '/');
		CHECK(!strncmp(key + strlen(key) - HOST_ID_HEX, line, HOST_ID_HEX));
		CHECK(!warn[0]);
	} else {
		printf("# host key: no systemd-id128 or no machine id here: compared in the guest\n");
	}
	if (p)
		pclose(p);
	CHECK(host_key_name_len("debian/0123456789abcdef") == 6);
	CHECK(host_key_name_len("debian") == 6);
}

/* ---- damaged DBs ---- */

/*
 * A schema 7 DB whose tables lack NOT NULL, as no abidep wrote them: a
 * usage row (and its day) without exe, a session and a watched run
 * without host. Its session s1 began early: the row is a use at boot.
 */
static const char keyless_sql[] =
	"CREATE TABLE usage (host, session, path, op, uid, cgroup_id, exe, what,"
	" table_name, status, cgroup, comm, pid, ppid, count, errors, first_seen,"
	" last_seen, swept);"
	"CREATE TABLE sessions (host, session, started, last_sync, unrecorded, skipped,"
	" lost_at, drained, host_id, stage, boot_offset, first_sync);"
	"CREATE TABLE usage_days (host, session, path, op, uid, cgroup_id, exe, day, what,"
	" count, errors, swept);"
	"CREATE TABLE watched (host, session, what, since, last_sync, files);"
	"INSERT INTO usage VALUES ('h1', 's1', '/sys/a', 'read', 0, 0, NULL, '/sys/a',"
	" 't', 'deprecated', NULL, NULL, 1, 1, 1, 0, 10, 10, 0);"
	"INSERT INTO usage_days VALUES ('h1', 's1', '/sys/a', 'read', 0, 0, NULL, 0,"
	" '/sys/a', 1, 0, 0);"
	"INSERT INTO sessions VALUES ('h1', 's1', 5, 20, 0, 0, NULL, NULL, 'machine-id',"
	" 'early', 3, 20);"
	"INSERT INTO sessions VALUES (NULL, 's2', 5, 20, 0, 0, NULL, NULL, 'machine-id',"
	" 'late', 3, 20);"
	"INSERT INTO watched VALUES (NULL, 's1', '/sys/a', 5, 20, 1);"
	"PRAGMA user_version = 7;";

/* The callbacks of reads that fail before any call. */
static int any_row(const struct usage_row *r, void *arg)
{
	return 0;
}
static int any_since(const struct usage_row *r, const struct usage_counts *c,
		     void *arg)
{
	return 0;
}
static int any_day_row(const struct usage_day_row *d, void *arg)
{
	return 0;
}
static int any_session(const struct usage_session *u, void *arg)
{
	return 0;
}
static int any_watched(const struct usage_watched *w, void *arg)
{
	return 0;
}
static int any_boot(const struct usage_boot *b, void *arg)
{
	return 0;
}

/* A read's failure (@ret) says that @what lacks its key, the DB damaged. */
static bool says_keyless(struct store *s, int ret, const char *what)
{
	char *want = xasprintf("cannot read: %s lacks its key (damaged DB)", what);
	bool ok = ret == -1 && store_damaged(s) && !strcmp(store_errmsg(s), want);

	if (!ok)
		printf("# ret %d: %s\n# want: %s\n", ret, store_errmsg(s), want);
	free(want);
	return ok;
}

/* Every read of whole rows stops at a row without its key, and says so. */
static void test_keyless(void)
{
	const char *db = tpath("keyless.db");
	char err[512];
	struct store *s;
	sqlite3 *h;

	current = "keyless rows";
	CHECK(sqlite3_open(db, &h) == SQLITE_OK &&
	      sqlite3_exec(h, keyless_sql, NULL, NULL, NULL) == SQLITE_OK);
	sqlite3_close(h);
	s = store_open(db, true, err, sizeof(err));
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK(says_keyless(s, store_each_row(s, any_row, NULL), "a row"));
	CHECK(says_keyless(s, store_each_row_since(s, 0, any_since, NULL), "a row"));
	CHECK(says_keyless(s, store_each_day_row(s, any_day_row, NULL), "a day row"));
	CHECK(says_keyless(s, store_each_session(s, any_session, NULL), "a session row"));
	CHECK(says_keyless(s, store_each_watched(s, any_watched, NULL), "a watched row"));
	CHECK(says_keyless(s, store_boot_uses(s, NULL, any_boot, NULL), "a row"));
	store_close(s);
}


/* ---- each boot's own clock: store_clock_note(), store_clock_redate() (store_clock.c) ---- */

#define NS(s)	((s) * NSEC_PER_SEC)

/*
 * One sync of session "b1:1" on h1 as trace_sync.c writes it: the clocks
 * read @bt seconds after boot with the wall clock at @wall (synchronized
 * or not), a use at boottime @use_bt (seconds), then the session row, a
 * watched run, and the boot placed again if the mapping moved.
 */
static int clock_sync(struct store *s, long long bt, long long wall, bool synced,
		      long long use_bt, long long *mapping)
{
	const struct clock_reading r = { NS(bt), NS(wall), synced };
	const struct store_watch w = { "/sys/class/rc/rcN/current_protocol", 1 };
	const struct store_session_info si = { "machine-id", "early", { 0 }, -1 };
	struct usage_row u = row("b1:1", 1, 0, 0);
	struct store_when now;

	if (store_begin(s) || store_clock_note(s, "h1", "b1:1", &r, mapping))
		return -1;
	now = (struct store_when){ clock_place(NS(bt), *mapping), NS(bt), *mapping };
	u.first_bt = u.last_bt = NS(use_bt);
	u.first_seen = u.last_seen = clock_place(u.last_bt, *mapping);
	if (store_add(s, &u) || store_session(s, "h1", "b1:1", &now, 0, 0) ||
	    store_session_watched(s, "h1", "b1:1", &si, &now, &w, 1) ||
	    store_clock_redate(s, "h1", "b1:1", false))
		return -1;
	return store_commit(s);
}

static void test_clock(void)
{
	char *db = xstrdup(tpath("clock.db"));
	struct store *s = open_rw(db);
	long long m = 0, T = DAY(100);

	current = "clock";
	CHECK(s != NULL);
	/* The clock 60 days behind; a use 10 s after boot, synced at 20 s. */
	CHECK(!clock_sync(s, 20, T - 60 * 86400 + 20, false, 10, &m));
	CHECK(m == T - 60 * 86400 && sql_int(db, "SELECT count(*) FROM clock") == 1);
	CHECK(sql_int(db, "SELECT first_seen FROM usage") == T - 60 * 86400 + 10);
	/* The same mapping at the next sync: no reading kept. */
	CHECK(!clock_sync(s, 30, T - 60 * 86400 + 30, false, 25, &m));
	CHECK(sql_int(db, "SELECT count(*) FROM clock") == 1);
	/*
	 * Corrected: a step of +60 days, the later reading best; every time
	 * of the boot placed again, the day of the use moved.
	 */
	CHECK(!clock_sync(s, 40, T + 40, false, 35, &m));
	CHECK(m == T && sql_int(db, "SELECT count(*) FROM clock") == 2);
	CHECK(sql_int(db, "SELECT first_seen FROM usage") == T + 10 &&
	      sql_int(db, "SELECT last_seen FROM usage") == T + 35);
	CHECK(sql_int(db, "SELECT started FROM sessions") == T + 20 &&
	      sql_int(db, "SELECT last_sync FROM sessions") == T + 40 &&
	      sql_int(db, "SELECT clock_offset FROM sessions") == T);
	CHECK(sql_int(db, "SELECT min(since) FROM watched") == T + 20);
	/* Its days: the two of 60 days back are one now, today's, their counts summed. */
	CHECK(sql_int(db, "SELECT count(*) FROM usage_days") == 1 &&
	      sql_int(db, "SELECT day FROM usage_days") == T &&
	      sql_int(db, "SELECT count FROM usage_days") == 3);
	/* Synchronized, a second later: it wins over the later unsynchronized one after. */
	CHECK(!clock_sync(s, 50, T + 51, true, 45, &m));
	CHECK(m == T + 1 && sql_int(db, "SELECT count(*) FROM clock") == 3);
	CHECK(!clock_sync(s, 60, T - 60 * 86400 + 60, false, 55, &m));
	CHECK(m == T + 1 && sql_int(db, "SELECT count(*) FROM clock") == 4);
	CHECK(sql_int(db, "SELECT last_seen FROM usage") == T + 56 &&
	      sql_int(db, "SELECT first_seen FROM usage") == T + 11);
	CHECK(sql_is(db, "PRAGMA integrity_check", "ok"));
	store_close(s);
	free(db);
}

/* A boot id longer than any buffer: its times placed again all the same. */
static void test_clock_long_boot(void)
{
	char *db = xstrdup(tpath("clock-long.db"));
	struct store *s = open_rw(db);
	char session[300];
	const long long T = DAY(100);
	struct clock_reading r = { NS(20), NS(T - 60 * 86400 + 20), false };
	struct usage_row u;
	long long m = 0;

	current = "clock-long-boot";
	memset(session, 'b', 290);
	strcpy(session + 290, ":1");
	u = row(session, 1, 0, 0);
	u.first_bt = u.last_bt = NS(10);
	CHECK(s != NULL);
	CHECK(!store_clock_note(s, "h1", session, &r, &m));
	u.first_seen = u.last_seen = clock_place(u.last_bt, m);
	CHECK(!store_add(s, &u));
	r = (struct clock_reading){ NS(40), NS(T + 40), false };
	CHECK(!store_clock_note(s, "h1", session, &r, &m) &&
	      !store_clock_redate(s, "h1", session, true));
	CHECK(m == T && sql_int(db, "SELECT first_seen FROM usage") == T + 10);
	store_close(s);
	free(db);
}

/*
 * A pin and its first sync in one second: the times are equal, the
 * boottimes say which came first; the session starts at the pin's.
 */
static void test_pin_same_second(void)
{
	char *db = xstrdup(tpath("pin-second.db"));
	struct store *s = open_rw(db);
	const long long T = DAY(100), pin_bt = NS(20) + 200000000, sync_bt = NS(20) + 700000000;
	const struct store_watch w = { "/sys/class/rc/rcN/current_protocol", 1 };
	struct store_session_info si = { "machine-id", "early", { 0 }, -1 };
	struct store_when now = { T + 20, sync_bt, T };

	current = "pin-same-second";
	CHECK(s != NULL);
	si.pinned = (struct store_when){ T + 20, pin_bt, T };
	CHECK(!store_session(s, "h1", "b1:1", &now, 0, 0) &&
	      !store_session_watched(s, "h1", "b1:1", &si, &now, &w, 1));
	CHECK(sql_int(db, "SELECT started_bt FROM sessions") == pin_bt &&
	      sql_int(db, "SELECT started FROM sessions") == T + 20);
	/* A later pin's record (not this session's start) moves nothing. */
	si.pinned.bt = NS(21);
	CHECK(!store_session_watched(s, "h1", "b1:1", &si, &now, &w, 1));
	CHECK(sql_int(db, "SELECT started_bt FROM sessions") == pin_bt);
	store_close(s);
	free(db);
}

int main(void)
{
	if (!mkdtemp(tmp)) {
		perror(tmp);
		return 2;
	}
	test_create();
	test_upsert();
	test_crash();
	test_open_errors();
	test_readonly_dir();
	test_merge();
	test_schema2();
	test_schema3();
	test_lost();
	test_add();
	test_schema4();
	test_schema5();
	test_schema6();
	test_watched();
	test_boot_uses();
	test_host_key();
	test_keyless();
	test_days();
	test_days_window();
	test_days_merge();
	test_swept();
	test_sessions();
	test_clock();
	test_pin_same_second();
	test_clock_long_boot();
	test_usage_add();
	test_all_swept();
	test_dpkg();
	test_dpkg_many_lists();
	if (rm_tree(tmp))
		fprintf(stderr, "cannot remove %s\n", tmp);
	printf("store: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
