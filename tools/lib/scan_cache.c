// SPDX-License-Identifier: GPL-2.0
/*
 * The package scan's cache: one SQLite file, DIR/scan-cache.sqlite.
 *
 *	file	a package file's path and stat (device, inode, size, mtime,
 *		ctime, as git's index keeps them) -> its SHA-256
 *	pkg	(SHA-256, key) -> its metadata; hit and unread its findings
 *
 * A package is read again when its stat changed (a write changes its
 * ctime, which no one can set back) or when the key did: the tables, the
 * options or the abidep binary (scan_cache_key()). Results unused for 30
 * days are dropped.
 *
 * Whoever can write the cache decides what the scan reports: a hit deleted
 * is a package reported clean, and nothing in the rows can show it. So
 * DIR, and the files SQLite reads in it, must be the caller's and
 * writable by no one else (as root's scan of a mirror would otherwise be
 * another user's to steer). A row that does not fit the tables is a miss,
 * never a hit of another entry.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <nettle/sha2.h>
#include <sqlite3.h>
#include <sys/stat.h>

#include "safedir.h"
#include "scan_cache.h"
#include "util.h"

#define CACHE_VERSION	1
#define CACHE_KEEP	(30 * 86400)	/* unused results are dropped after */

struct scan_cache {
	sqlite3 *db;
	char *path;
	char key[65];
	char **used;			/* SHA-256s loaded: their time renewed */
	size_t nused, ucap;
	bool failed;			/* a store failed: nothing written */
	/* A row's text searched again: the scan's options, every hit kept. */
	struct scan_opts opts;
	struct scan_reader check;
};

static const char schema[] =
	"CREATE TABLE IF NOT EXISTS file(path TEXT PRIMARY KEY, dev INT, ino INT, size INT,"
	" mtime INT, ctime INT, sha256 TEXT NOT NULL);"
	"CREATE TABLE IF NOT EXISTS pkg(sha256 TEXT, key TEXT, name TEXT, version TEXT,"
	" arch TEXT, source TEXT, maintainer TEXT, members INT, unpacked INT, used INT,"
	" PRIMARY KEY(sha256, key));"
	"CREATE TABLE IF NOT EXISTS hit(sha256 TEXT, key TEXT, file TEXT, line INT,"
	" offset INT, entry INT, what INT, match TEXT, conf INT);"
	"CREATE INDEX IF NOT EXISTS hit_pkg ON hit(sha256, key);"
	"CREATE TABLE IF NOT EXISTS unread(sha256 TEXT, key TEXT, file TEXT, err INT, why TEXT);"
	"CREATE INDEX IF NOT EXISTS unread_pkg ON unread(sha256, key);";

static void sha_hex(struct sha256_ctx *s, char out[65])
{
	uint8_t d[SHA256_DIGEST_SIZE];
	int i;

	sha256_digest(s, sizeof(d), d);
	for (i = 0; i < SHA256_DIGEST_SIZE; i++)
		sprintf(out + 2 * i, "%02x", d[i]);
}

/* The bytes of the file @path into @s; -1 with errno. */
static int hash_file(struct sha256_ctx *s, const char *path)
{
	unsigned char buf[65536];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t k;

	if (fd < 0)
		return -1;
	while ((k = read(fd, buf, sizeof(buf))) > 0)
		sha256_update(s, k, buf);
	close(fd);
	return k < 0 ? -1 : 0;
}

int scan_cache_key(const struct abi_set *tables, const struct scan_opts *opts, char key[65],
		   char *err, size_t errlen)
{
	struct sha256_ctx s;
	char num[160];
	int i, k;

	sha256_init(&s);
	snprintf(num, sizeof(num), "abidep scan cache %d: weak %d first %d all %d max %llu unpacked %llu\n",
		 CACHE_VERSION, opts->weak, opts->first_only, opts->all_bytes,
		 scan_max_size(opts), opts->max_unpacked);
	sha256_update(&s, strlen(num), (const uint8_t *)num);
	for (i = 0; i < tables->nentries; i++) {
		const struct abi_entry *e = &tables->entries[i];

		snprintf(num, sizeof(num), "entry %d status %d whats %d\n", i, e->status, e->nwhat);
		sha256_update(&s, strlen(num), (const uint8_t *)num);
		for (k = 0; k < e->nwhat; k++)
			sha256_update(&s, strlen(e->what[k]) + 1, (const uint8_t *)e->what[k]);
	}
	/*
	 * The tables' files whole, each by its own digest: any change of
	 * theirs makes a new key; where they are does not.
	 */
	for (i = 0; i < tables->nfiles; i++) {
		const char *p = tables->files[i].path;
		uint8_t d[SHA256_DIGEST_SIZE];
		struct sha256_ctx f;

		sha256_init(&f);
		if (hash_file(&f, p)) {
			snprintf(err, errlen, "cannot read the table '%s' for the cache's key: %s",
				 p, strerror(errno));
			return -1;
		}
		sha256_digest(&f, sizeof(d), d);
		sha256_update(&s, sizeof(d), d);
	}
	/* A rebuilt abidep may search differently. */
	if (hash_file(&s, "/proc/self/exe")) {
		snprintf(err, errlen, "cannot read /proc/self/exe for the cache's key: %s",
			 strerror(errno));
		return -1;
	}
	sha_hex(&s, key);
	return 0;
}

static int exec_sql(struct scan_cache *c, const char *sql)
{
	return sqlite3_exec(c->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

/* The first value of @sql's first row; -1 when it has none. */
static int sql_int(struct scan_cache *c, const char *sql)
{
	sqlite3_stmt *st;
	int v = -1;

	if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

/*
 * An empty or older cache gets the current schema; a newer one is not
 * ours, nor one with no version and a table the cache never had: another
 * program's DB, which nothing may write to.
 */
static int prepare_schema(struct scan_cache *c, char *err, size_t errlen)
{
	int v = sql_int(c, "PRAGMA user_version");

	if (!v && sql_int(c, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND"
			  " name NOT IN ('file', 'pkg', 'hit', 'unread')") > 0) {
		snprintf(err, errlen, "%s is not a scan cache: it is a SQLite DB with other"
			 " tables, left as it is (give another --cache)", c->path);
		return -1;
	}
	if (v < 0 || v > CACHE_VERSION) {
		snprintf(err, errlen, "%s: %s (remove it: it is only a cache)", c->path,
			 v < 0 ? sqlite3_errmsg(c->db) : "made by a newer abidep");
		return -1;
	}
	if (v < CACHE_VERSION &&
	    (exec_sql(c, "DROP TABLE IF EXISTS file; DROP TABLE IF EXISTS pkg;"
			 " DROP TABLE IF EXISTS hit; DROP TABLE IF EXISTS unread;") ||
	     exec_sql(c, schema) || exec_sql(c, "PRAGMA user_version = 1"))) {
		snprintf(err, errlen, "%s: %s (remove it: it is only a cache)", c->path,
			 sqlite3_errmsg(c->db));
		return -1;
	}
	return 0;
}

/*
 * @st, of the cache directory @dir (@name NULL) or of its file @name, is
 * the caller's and writable by no one else: 0, or -1 with a message naming
 * it, its owner and mode, and what to do.
 */
static int check_owned(const struct stat *st, const char *dir, const char *name,
		       char *err, size_t errlen)
{
	char owner[300], me[300];

	if (st->st_uid == geteuid() && !(st->st_mode & (S_IWGRP | S_IWOTH)))
		return 0;
	safe_who(st->st_uid, owner, sizeof(owner));
	safe_who(geteuid(), me, sizeof(me));
	snprintf(err, errlen, "the cache %s '%s%s%s' is owned by %s, mode %04o: it must be the"
		 " caller's, %s, and writable by no one else, who could change what the scan"
		 " reports. Remove '%s' (it is only a cache: it is made again), or chown -R %u"
		 " and chmod -R go-w it if no one else wrote it, or give another --cache",
		 name ? "file" : "directory", dir, name ? "/" : "", name ? name : "", owner,
		 (unsigned int)(st->st_mode & 07777), me, dir, (unsigned int)geteuid());
	return -1;
}

/*
 * The cache directory @dir, made (0700) if missing, open and checked: the
 * directories above it reached as safedir.h's rule says, SAFE_STEADY
 * (SQLite opens the cache and its journals by name); it is no symlink
 * itself, and is the caller's (check_owned()). Its fd and in *@real its
 * path with the symlinks the walk followed resolved (for
 * SQLITE_OPEN_NOFOLLOW), or -1 with @err.
 */
static int open_dir(const char *dir, char **real, char *err, size_t errlen)
{
	char *path = xstrdup(dir), *what = xasprintf("the cache directory '%s'", dir);
	char *base = NULL, *above = NULL;
	size_t n = strlen(path);
	struct stat st;
	int pfd, fd = -1;

	/* "DIR/" is DIR: it must not be a symlink either. */
	while (n > 1 && path[n - 1] == '/')
		path[--n] = '\0';
	pfd = safe_parent_open(path, what, SAFE_STEADY, 0, &base, &above, err, errlen);
	if (pfd < 0)
		goto out;
	if (mkdirat(pfd, base, 0700) && errno != EEXIST) {
		snprintf(err, errlen, "cannot make the cache directory '%s': %s", dir, strerror(errno));
		goto out;
	}
	fd = openat(pfd, base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		if (!fstatat(pfd, base, &st, AT_SYMLINK_NOFOLLOW) && S_ISLNK(st.st_mode))
			snprintf(err, errlen, "the cache directory '%s' is a symlink, which another"
				 " user may have placed: give the directory it names as --cache", dir);
		else
			snprintf(err, errlen, "cannot open the cache directory '%s': %s", dir,
				 strerror(errno));
		goto out;
	}
	if (fstat(fd, &st)) {
		snprintf(err, errlen, "cannot stat the cache directory '%s': %s", dir, strerror(errno));
		goto fail;
	}
	if (check_owned(&st, dir, NULL, err, errlen))
		goto fail;
	*real = path_join(above, base);
	goto out;
fail:
	close(fd);
	fd = -1;
out:
	if (pfd >= 0)
		close(pfd);
	free(above);
	free(base);
	free(what);
	free(path);
	return fd;
}

/*
 * The files SQLite reads in the directory open as @dfd (@dir): the cache
 * and its journals (a hot journal is played into the cache when it is
 * read) are the caller's too, if there. A directory once another user's
 * and chowned may still hold theirs, which they can write by a hard link.
 */
static int check_files(int dfd, const char *dir, char *err, size_t errlen)
{
	static const char *const names[] = {
		"scan-cache.sqlite", "scan-cache.sqlite-journal", "scan-cache.sqlite-wal",
	};
	struct stat st;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (fstatat(dfd, names[i], &st, AT_SYMLINK_NOFOLLOW)) {
			if (errno == ENOENT)
				continue;
			snprintf(err, errlen, "cannot stat the cache file '%s/%s': %s", dir, names[i],
				 strerror(errno));
			return -1;
		}
		if (!S_ISREG(st.st_mode)) {
			snprintf(err, errlen, "the cache file '%s/%s' is not a regular file: remove it"
				 " (it is only a cache) or give another --cache", dir, names[i]);
			return -1;
		}
		if (check_owned(&st, dir, names[i], err, errlen))
			return -1;
	}
	return 0;
}

struct scan_cache *scan_cache_open(const char *dir, const char *key,
				   const struct scan_needles *ns, const struct scan_opts *opts,
				   char *err, size_t errlen)
{
	struct scan_cache *c;
	char *real = NULL;
	int dfd = open_dir(dir, &real, err, errlen);

	if (dfd < 0)
		return NULL;
	c = xcalloc(1, sizeof(*c));
	c->path = path_join(real, "scan-cache.sqlite");
	free(real);
	snprintf(c->key, sizeof(c->key), "%s", key);
	c->opts = *opts;
	c->opts.first_only = false;
	scan_reader_init(&c->check, ns, &c->opts);
	/*
	 * By name, no symlink on the way (SQLite opens its journals by name
	 * too): the path open_dir() walked, which no one else can change.
	 */
	if (sqlite3_open_v2(c->path, &c->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			    SQLITE_OPEN_NOFOLLOW, NULL) != SQLITE_OK) {
		if (c->db && sqlite3_extended_errcode(c->db) == SQLITE_CANTOPEN_SYMLINK)
			snprintf(err, errlen, "cannot open the cache '%s': it is reached through a"
				 " symlink, which another user may have placed: give its real path"
				 " as --cache", c->path);
		else
			snprintf(err, errlen, "cannot open the cache '%s': %s", c->path,
				 c->db ? sqlite3_errmsg(c->db) : "out of memory");
		goto fail;
	}
	/* Before the first read, which plays a journal into the cache. */
	if (check_files(dfd, dir, err, errlen))
		goto fail;
	sqlite3_busy_timeout(c->db, 30000);
	if (prepare_schema(c, err, errlen))
		goto fail;
	close(dfd);
	return c;
fail:
	close(dfd);
	scan_reader_release(&c->check);
	sqlite3_close(c->db);
	free(c->path);
	free(c);
	return NULL;
}

/* The SHA-256 the cache has for @path if its stat is @st's. */
static bool known_sha(struct scan_cache *c, const char *path, const struct stat *st,
		      char sha[65])
{
	sqlite3_stmt *q;
	bool ok = false;

	if (sqlite3_prepare_v2(c->db, "SELECT sha256 FROM file WHERE path = ? AND dev = ? AND"
			       " ino = ? AND size = ? AND mtime = ? AND ctime = ?", -1, &q,
			       NULL) != SQLITE_OK)
		return false;
	sqlite3_bind_text(q, 1, path, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q, 2, (sqlite3_int64)st->st_dev);
	sqlite3_bind_int64(q, 3, (sqlite3_int64)st->st_ino);
	sqlite3_bind_int64(q, 4, (sqlite3_int64)st->st_size);
	sqlite3_bind_int64(q, 5, (sqlite3_int64)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec);
	sqlite3_bind_int64(q, 6, (sqlite3_int64)st->st_ctim.tv_sec * 1000000000 + st->st_ctim.tv_nsec);
	if (sqlite3_step(q) == SQLITE_ROW) {
		const char *s = (const char *)sqlite3_column_text(q, 0);

		if (s && strlen(s) == 64) {
			memcpy(sha, s, 65);
			ok = true;
		}
	}
	sqlite3_finalize(q);
	return ok;
}

static const char *col(sqlite3_stmt *q, int i, struct scan_arena *strs)
{
	return scan_arena_strdup0(strs, (const char *)sqlite3_column_text(q, i));
}

/* The package's metadata row into @p; false if none. */
static bool load_meta(struct scan_cache *c, struct scan_package *p, struct scan_arena *strs)
{
	sqlite3_stmt *q;
	bool ok = false;

	if (sqlite3_prepare_v2(c->db, "SELECT name, version, arch, source, maintainer, members,"
			       " unpacked FROM pkg WHERE sha256 = ? AND key = ?", -1, &q,
			       NULL) != SQLITE_OK)
		return false;
	sqlite3_bind_text(q, 1, p->sha256, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 2, c->key, -1, SQLITE_STATIC);
	if (sqlite3_step(q) == SQLITE_ROW && sqlite3_column_text(q, 0) &&
	    sqlite3_column_text(q, 1)) {
		p->meta.name = col(q, 0, strs);
		p->meta.version = col(q, 1, strs);
		p->meta.arch = col(q, 2, strs);
		p->meta.source = col(q, 3, strs);
		p->meta.maintainer = col(q, 4, strs);
		p->members = sqlite3_column_int64(q, 5);
		p->unpacked = sqlite3_column_int64(q, 6);
		ok = true;
	}
	sqlite3_finalize(q);
	return ok;
}

/* A hit row, checked against the tables; false if it does not fit them. */
static bool row_hit(sqlite3_stmt *q, const struct abi_set *tables, struct scan_hit *h,
		    struct scan_arena *strs)
{
	sqlite3_int64 e = sqlite3_column_int64(q, 3), w = sqlite3_column_int64(q, 4);
	sqlite3_int64 conf = sqlite3_column_int64(q, 6);

	if (!sqlite3_column_text(q, 0) || !sqlite3_column_text(q, 5) || e < 0 ||
	    e >= tables->nentries || w < 0 || w >= tables->entries[e].nwhat ||
	    conf < SCAN_WEAK || conf > SCAN_STRONG || sqlite3_column_int64(q, 1) < 0 ||
	    sqlite3_column_int64(q, 2) < 0)
		return false;
	h->file = col(q, 0, strs);
	h->line = sqlite3_column_int64(q, 1);
	h->offset = sqlite3_column_int64(q, 2);
	h->entry = &tables->entries[e];
	h->what = tables->entries[e].what[w];
	h->match = col(q, 5, strs);
	h->confidence = conf;
	return true;
}

/* Does searching @h's text (@doc: as documentation) give @h again? */
static bool found_again(struct scan_cache *c, const struct scan_hit *h, bool doc)
{
	struct scan_reader *rd = &c->check;
	bool ok = false;
	size_t i;

	rd->nhits = 0;
	scan_read_text(rd, h->match, strlen(h->match), doc);
	for (i = 0; i < rd->nhits && !ok; i++) {
		const struct scan_whit *w = &rd->hits[i];

		ok = w->cand->entry == h->entry && w->cand->what == h->what &&
		     w->conf == h->confidence && !strcmp(w->match, h->match);
	}
	return ok;
}

/*
 * A hit row is the scan's only if its text, searched as a file is, gives
 * this entry and What with this confidence, and is the whole text found
 * (scan.rst): a row edited to name another entry, What or confidence, or
 * a text not naming the attribute, is a miss. As documentation, too, for
 * a weak one: a documentation file's hits are weak, and a hard link's
 * are its target's, so the row's file name cannot say which it was.
 */
static bool hit_fits(struct scan_cache *c, const struct scan_hit *h)
{
	return found_again(c, h, false) ||
	       (h->confidence == SCAN_WEAK && found_again(c, h, true));
}

/* The package's hits and unreadable members into @res; false on a bad row. */
static bool load_findings(struct scan_cache *c, const struct abi_set *tables,
			  const struct scan_package *p, struct scan_result *res,
			  struct scan_arena *strs)
{
	size_t nh = res->nhits, nu = res->nunreadable;
	sqlite3_stmt *q;
	bool ok = true;
	int r;

	if (sqlite3_prepare_v2(c->db, "SELECT file, line, offset, entry, what, match, conf FROM hit"
			       " WHERE sha256 = ? AND key = ? ORDER BY rowid", -1, &q,
			       NULL) != SQLITE_OK)
		return false;
	sqlite3_bind_text(q, 1, p->sha256, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 2, c->key, -1, SQLITE_STATIC);
	while (ok && (r = sqlite3_step(q)) == SQLITE_ROW) {
		struct scan_hit *h = GROW(res->hits, res->nhits, res->hcap);

		memset(h, 0, sizeof(*h));
		ok = row_hit(q, tables, h, strs) && hit_fits(c, h);
		h->package = p->meta.name;
		h->package_version = p->meta.version;
		h->pkg = &p->meta;
		h->archive = p->file;
	}
	ok = ok && r == SQLITE_DONE;
	sqlite3_finalize(q);
	scan_arena_free(&c->check.strs);	/* the texts searched again */
	if (ok && sqlite3_prepare_v2(c->db, "SELECT err, why FROM unread WHERE sha256 = ? AND"
				     " key = ? ORDER BY rowid", -1, &q, NULL) == SQLITE_OK) {
		sqlite3_bind_text(q, 1, p->sha256, -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 2, c->key, -1, SQLITE_STATIC);
		while ((r = sqlite3_step(q)) == SQLITE_ROW)
			scan_add_unreadable(res, p->file, sqlite3_column_int(q, 0), col(q, 1, strs));
		ok = r == SQLITE_DONE;
		sqlite3_finalize(q);
	}
	if (!ok) {
		res->nhits = nh;
		res->nunreadable = nu;
	}
	return ok;
}

bool scan_cache_load(struct scan_cache *c, const char *path, const struct stat *st,
		     const struct abi_set *tables, struct scan_package *p,
		     struct scan_result *res, struct scan_arena *strs)
{
	if (!known_sha(c, path, st, p->sha256) || !load_meta(c, p, strs) ||
	    !load_findings(c, tables, p, res, strs)) {
		memset(&p->meta, 0, sizeof(p->meta));
		p->sha256[0] = '\0';
		p->members = p->unpacked = 0;
		return false;
	}
	p->cached = true;
	*GROW(c->used, c->nused, c->ucap) = xstrdup(p->sha256);
	return true;
}

/* Start the transaction that stores go in, once. */
static bool begin(struct scan_cache *c)
{
	static const char *const now = "BEGIN IMMEDIATE";

	if (c->failed)
		return false;
	if (sqlite3_get_autocommit(c->db) && exec_sql(c, now))
		c->failed = true;
	return !c->failed;
}

static void bind_stat(sqlite3_stmt *q, int i, const struct stat *st)
{
	sqlite3_bind_int64(q, i, (sqlite3_int64)st->st_dev);
	sqlite3_bind_int64(q, i + 1, (sqlite3_int64)st->st_ino);
	sqlite3_bind_int64(q, i + 2, (sqlite3_int64)st->st_size);
	sqlite3_bind_int64(q, i + 3, (sqlite3_int64)st->st_mtim.tv_sec * 1000000000 +
			   st->st_mtim.tv_nsec);
	sqlite3_bind_int64(q, i + 4, (sqlite3_int64)st->st_ctim.tv_sec * 1000000000 +
			   st->st_ctim.tv_nsec);
}

/* Run @q (its values bound) and finalize it; a failure fails the stores. */
static void run(struct scan_cache *c, sqlite3_stmt *q)
{
	if (!q || sqlite3_step(q) != SQLITE_DONE)
		c->failed = true;
	sqlite3_finalize(q);
}

static sqlite3_stmt *prep(struct scan_cache *c, const char *sql)
{
	sqlite3_stmt *q = NULL;

	if (sqlite3_prepare_v2(c->db, sql, -1, &q, NULL) != SQLITE_OK)
		c->failed = true;
	return q;
}

static void store_meta(struct scan_cache *c, const char *path, const struct stat *st,
		       const struct scan_package *p)
{
	sqlite3_stmt *q = prep(c, "INSERT OR REPLACE INTO file VALUES (?, ?, ?, ?, ?, ?, ?)");

	if (q) {
		sqlite3_bind_text(q, 1, path, -1, SQLITE_STATIC);
		bind_stat(q, 2, st);
		sqlite3_bind_text(q, 7, p->sha256, -1, SQLITE_STATIC);
	}
	run(c, q);
	q = prep(c, "INSERT OR REPLACE INTO pkg VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
	if (q) {
		sqlite3_bind_text(q, 1, p->sha256, -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 2, c->key, -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 3, p->meta.name, -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 4, p->meta.version, -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 5, p->meta.arch, -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 6, p->meta.source, -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 7, p->meta.maintainer, -1, SQLITE_STATIC);
		sqlite3_bind_int64(q, 8, p->members);
		sqlite3_bind_int64(q, 9, p->unpacked);
		sqlite3_bind_int64(q, 10, time(NULL));
	}
	run(c, q);
}

/* The position of @h's What in its entry. */
static int what_index(const struct scan_hit *h)
{
	int k;

	for (k = 0; k < h->entry->nwhat; k++)
		if (h->entry->what[k] == h->what)
			return k;
	return -1;
}

/* Forget the hits and unreadable members of @sha256 for this key. */
static void drop_findings(struct scan_cache *c, const char *sha256)
{
	static const char *const sql[] = {
		"DELETE FROM hit WHERE sha256 = ? AND key = ?",
		"DELETE FROM unread WHERE sha256 = ? AND key = ?",
	};
	sqlite3_stmt *q;
	size_t i;

	for (i = 0; i < sizeof(sql) / sizeof(sql[0]); i++) {
		q = prep(c, sql[i]);
		if (q) {
			sqlite3_bind_text(q, 1, sha256, -1, SQLITE_STATIC);
			sqlite3_bind_text(q, 2, c->key, -1, SQLITE_STATIC);
		}
		run(c, q);
	}
}

void scan_cache_store(struct scan_cache *c, const char *path, const struct stat *st,
		      const struct scan_package *p, const struct scan_hit *hits, size_t nhits,
		      const struct scan_unreadable *unread, size_t nunread,
		      const struct abi_set *tables)
{
	sqlite3_stmt *q;
	size_t i;

	if (!begin(c))
		return;
	store_meta(c, path, st, p);
	/*
	 * The same bytes may be stored again: a copy of the package, one
	 * touched, one whose rows did not fit the tables. Its findings are
	 * replaced, never added to.
	 */
	drop_findings(c, p->sha256);
	q = prep(c, "INSERT INTO hit VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
	for (i = 0; q && i < nhits; i++) {
		const struct scan_hit *h = &hits[i];

		sqlite3_reset(q);
		sqlite3_bind_text(q, 1, p->sha256, -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 2, c->key, -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 3, h->file, -1, SQLITE_STATIC);
		sqlite3_bind_int64(q, 4, h->line);
		sqlite3_bind_int64(q, 5, h->offset);
		sqlite3_bind_int64(q, 6, h->entry - tables->entries);
		sqlite3_bind_int64(q, 7, what_index(h));
		sqlite3_bind_text(q, 8, h->match, -1, SQLITE_STATIC);
		sqlite3_bind_int(q, 9, h->confidence);
		if (sqlite3_step(q) != SQLITE_DONE)
			c->failed = true;
	}
	sqlite3_finalize(q);
	q = prep(c, "INSERT INTO unread VALUES (?, ?, ?, ?, ?)");
	for (i = 0; q && i < nunread; i++) {
		sqlite3_reset(q);
		sqlite3_bind_text(q, 1, p->sha256, -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 2, c->key, -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 3, unread[i].file, -1, SQLITE_STATIC);
		sqlite3_bind_int(q, 4, unread[i].err);
		sqlite3_bind_text(q, 5, unread[i].why, -1, SQLITE_STATIC);
		if (sqlite3_step(q) != SQLITE_DONE)
			c->failed = true;
	}
	sqlite3_finalize(q);
}

/* Renew the time of the results used; drop those unused for CACHE_KEEP. */
static void renew(struct scan_cache *c)
{
	static const char *const drop[] = {
		"DELETE FROM hit WHERE (sha256, key) IN (SELECT sha256, key FROM pkg WHERE used < ?)",
		"DELETE FROM unread WHERE (sha256, key) IN (SELECT sha256, key FROM pkg WHERE used < ?)",
		"DELETE FROM pkg WHERE used < ?",
	};
	sqlite3_stmt *q;
	size_t i;

	q = prep(c, "UPDATE pkg SET used = ? WHERE sha256 = ? AND key = ?");
	for (i = 0; q && i < c->nused; i++) {
		sqlite3_reset(q);
		sqlite3_bind_int64(q, 1, time(NULL));
		sqlite3_bind_text(q, 2, c->used[i], -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 3, c->key, -1, SQLITE_STATIC);
		if (sqlite3_step(q) != SQLITE_DONE)
			c->failed = true;
	}
	sqlite3_finalize(q);
	for (i = 0; i < sizeof(drop) / sizeof(drop[0]); i++) {
		q = prep(c, drop[i]);
		if (q)
			sqlite3_bind_int64(q, 1, time(NULL) - CACHE_KEEP);
		run(c, q);
	}
}

int scan_cache_close(struct scan_cache *c, char *err, size_t errlen)
{
	int ret = 0;
	size_t i;

	if (begin(c))
		renew(c);
	if (!sqlite3_get_autocommit(c->db) && (c->failed || exec_sql(c, "COMMIT"))) {
		c->failed = true;
		exec_sql(c, "ROLLBACK");
	}
	if (c->failed) {
		snprintf(err, errlen, "the cache '%s' was not written: %s", c->path,
			 sqlite3_errmsg(c->db));
		ret = -1;
	}
	sqlite3_close(c->db);
	scan_reader_release(&c->check);
	for (i = 0; i < c->nused; i++)
		free(c->used[i]);
	free(c->used);
	free(c->path);
	free(c);
	return ret;
}
