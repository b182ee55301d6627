// SPDX-License-Identifier: GPL-2.0
/*
 * Which rpm package owns a file (Fedora, RHEL, SUSE and their kin), from
 * ROOT's rpm database through librpm.
 *
 * One indexed query per path (RPMDBI_INSTFILENAMES), each answer kept (the
 * owner's name, [EPOCH:]VERSION-RELEASE, ARCH, PACKAGER and SOURCERPM): the
 * callers look up the executables of a usage DB or the files of scan's hits,
 * a few to a few thousand distinct paths, while reading every header once
 * to build a map as dpkg.c does would cost about a second on a full system
 * (1e3 packages, 3e5 files), every run.
 *
 * Where the database is: usr/lib/sysimage/rpm (rpm >= 4.16: Fedora 36+,
 * openSUSE) or var/lib/rpm (RHEL 8, 9); its format by its file: rpmdb.sqlite
 * (sqlite), Packages (Berkeley DB, read by librpm's bdb_ro) or Packages.db
 * (ndb, which Debian's librpm cannot read: reported). Both are given to
 * librpm as macros, overriding the host's (Debian's rpm keeps its own
 * database in ~/.rpmdb). Opened read-only and, for SQLite, without writing
 * anything next to the file (rpmdb_ro.c). librpm's messages are caught, not
 * printed: the first problem is reported once, by path, and the database
 * is then left alone (owners '-').
 *
 * librpm itself is loaded then (dl_rpm.h), not at start-up: a root without
 * an rpm database never maps it; one with a database on a system without
 * librpm is reported the same way, with the package to install.
 *
 * librpm compares directories by stat() on the host, as rpm -qf does without
 * a chroot: a directory symlink on the host (merged /usr's /bin) makes its
 * two names one. An exact path is always found; the twin is tried anyway.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dl_rpm.h"
#include "rpmdb.h"
#include "rootfs.h"
#include "rpmdb_ro.h"
#include "util.h"

/*
 * An answer: @name NULL when no package owns @path. @meta points at the
 * strings here (its name is @name, its maintainer rpm's PACKAGER, its
 * source the name in SOURCERPM).
 */
struct memo {
	char *path;
	char *name, *version, *arch, *packager, *source;
	struct pkg_meta meta;
};

struct rpm_db {
	char *root;		/* realpath of ROOT; NULL: cannot be resolved */
	char *dir;		/* the database's directory; NULL: none */
	const char *dbpath;	/* that directory below ROOT: librpm's %_dbpath */
	const char *file;	/* the file that told its format */
	const char *backend;	/* librpm's %_db_backend for that format */
	bool loaded, failed;
	bool config;		/* config_get() called: config_put() owed */
	rpmts ts;
	void *memo;		/* tsearch() tree of struct memo, by path */
};

static const char *const dbpaths[] = { "/usr/lib/sysimage/rpm", "/var/lib/rpm" };
static const struct {
	const char *file, *backend;
} formats[] = {
	{ "rpmdb.sqlite", "sqlite" },
	{ "Packages", "bdb_ro" },
	{ "Packages.db", "ndb" },
};

/*
 * The database of the resolved root @root: its directory (malloc'd), its
 * %_dbpath and backend; -1 if none. Looked for beneath @root as every file
 * of a root is (rootfs.h): no symlink followed on the way, the database a
 * regular file. librpm then opens it by that same path, which nothing
 * resolved differently: a tree changed between the two (a live root's)
 * is not covered, as rpm --root does not cover it.
 */
static int find_db(const char *root, char **dir, const char **dbpath,
		   const char **file, const char **backend)
{
	int rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	size_t i, k;

	if (rootfd < 0)
		return -1;
	for (i = 0; i < sizeof(dbpaths) / sizeof(dbpaths[0]); i++) {
		for (k = 0; k < sizeof(formats) / sizeof(formats[0]); k++) {
			char *rel = xasprintf("%s/%s", dbpaths[i] + 1, formats[k].file);
			struct stat st;
			int fd = root_open_regular(rootfd, rel, 0, &st);

			free(rel);
			if (fd < 0)
				continue;
			close(fd);
			close(rootfd);
			*dir = xasprintf("%s%s", strcmp(root, "/") ? root : "", dbpaths[i]);
			*dbpath = dbpaths[i];
			*file = formats[k].file;
			*backend = formats[k].backend;
			return 0;
		}
	}
	close(rootfd);
	return -1;
}

bool rpm_db_exists(const char *root)
{
	char *real = realpath(root && *root ? root : "/", NULL), *dir = NULL;
	const char *dbpath, *file, *backend;
	bool found = real && !find_db(real, &dir, &dbpath, &file, &backend);

	free(dir);
	free(real);
	return found;
}

struct rpm_db *rpm_db_new(const char *root)
{
	struct rpm_db *r = xcalloc(1, sizeof(*r));

	r->root = realpath(root && *root ? root : "/", NULL);
	if (r->root && find_db(r->root, &r->dir, &r->dbpath, &r->file, &r->backend))
		r->dir = NULL;
	return r;
}

/* ---- librpm's configuration and messages, for the whole process ---- */

static int config_users;
static bool config_ok;
static char *logged;		/* librpm's first warning or error since log_clear() */

static int log_cb(rpmlogRec rec, rpmlogCallbackData data)
{
	if (sym_rpmlogRecPriority(rec) <= RPMLOG_WARNING && !logged) {
		const char *m = sym_rpmlogRecMessage(rec);

		logged = xstrndup(m, strcspn(m, "\n"));
	}
	return 0;	/* never printed by librpm */
}

static void log_clear(void)
{
	free(logged);
	logged = NULL;
}

/* Read librpm's configuration (the host's), once: 0 or -1. */
static int config_get(void)
{
	if (config_users++)
		return config_ok ? 0 : -1;
	sym_rpmlogSetCallback(log_cb, NULL);
	config_ok = !sym_rpmReadConfigFiles(NULL, NULL);
	return config_ok ? 0 : -1;
}

static void config_put(void)
{
	if (--config_users)
		return;
	sym_rpmFreeMacros(NULL);
	sym_rpmFreeRpmrc();
	sym_rpmlogSetCallback(NULL, NULL);
	log_clear();
}

/* ---- the database ---- */

/* Whether @dir was reported already in this process (check --scan and --root). */
static bool reported(const char *dir)
{
	static char **dirs;
	static int n, cap;
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(dirs[i], dir))
			return true;
	*GROW(dirs, n, cap) = xstrdup(dir);
	return false;
}

/*
 * Said once: the database cannot be used, why, what to do. Another format
 * than sqlite may be one this librpm was built without (Debian's reads
 * sqlite and bdb_ro, not SUSE's ndb). (librpm 4.18 keeps the SQLite
 * handle of a database it failed to open, about 100 KB: once.)
 */
static void fail(struct rpm_db *r, const char *why)
{
	if (!reported(r->dir))
		fprintf(stderr,
			"abidep: cannot read the rpm database %s/%s (%s; librpm: %s): the files it lists are shown without a package ('-'); check it with 'rpm --root %s --dbpath %s -qa', and repair it on its own system with 'rpmdb --rebuilddb'%s\n",
			r->dir, r->file, r->backend, why, r->root, r->dbpath,
			strcmp(r->backend, "sqlite") ? " (with --define '_db_backend sqlite': into the format Debian's librpm reads best)" : "");
	r->failed = true;
	if (r->ts) {
		rpmdb_ro_begin(r->dir);
		r->ts = sym_rpmtsFree(r->ts);
		rpmdb_ro_end();
	}
}

/* Said once: librpm itself cannot be loaded (dynlib.h), what to do. */
static void no_librpm(struct rpm_db *r)
{
	char why[512];

	if (!reported(r->dir)) {
		dynlib_error(&dl_rpm, "reading it", why, sizeof(why));
		fprintf(stderr, "abidep: cannot read the rpm database %s/%s: %s; until then the files it lists are shown without a package ('-')\n",
			r->dir, r->file, why);
	}
	r->failed = true;
}

/* A -wal file with content: changes the immutable read does not see. */
static void note_wal(const struct rpm_db *r)
{
	char *wal = path_join(r->dir, "rpmdb.sqlite-wal");
	struct stat st;

	if (!fstatat(AT_FDCWD, wal, &st, AT_SYMLINK_NOFOLLOW) && S_ISREG(st.st_mode) &&
	    st.st_size > 0)
		fprintf(stderr, "abidep: note: %s holds changes not yet in rpmdb.sqlite (rpm running, or interrupted): they are not read\n",
			wal);
	free(wal);
}

int rpm_db_load(struct rpm_db *r)
{
	int rc;

	if (r->loaded)
		return r->ts && !r->failed ? 0 : -1;
	r->loaded = true;
	if (!r->dir)
		return -1;
	if (dynlib_load(&dl_rpm)) {
		no_librpm(r);
		return -1;
	}
	r->config = true;
	if (config_get()) {
		fail(r, logged ? logged : "librpm cannot read its configuration, /usr/lib/rpm/rpmrc and macros (Debian's rpm-common)");
		return -1;
	}
	log_clear();
	/* Read when the database is opened; taken back right after. */
	sym_rpmPushMacro(NULL, "_dbpath", NULL, r->dbpath, RMIL_CMDLINE);
	sym_rpmPushMacro(NULL, "_db_backend", NULL, r->backend, RMIL_CMDLINE);
	r->ts = sym_rpmtsCreate();
	/* Headers' digests are checked; signatures would need the keyring. */
	sym_rpmtsSetVSFlags(r->ts, sym_rpmtsVSFlags(r->ts) | RPMVSF_MASK_NOSIGNATURES);
	rc = sym_rpmtsSetRootDir(r->ts, r->root);
	if (!rc) {
		rpmdb_ro_begin(r->dir);
		rc = sym_rpmtsOpenDB(r->ts, O_RDONLY);
		rpmdb_ro_end();
	}
	sym_rpmPopMacro(NULL, "_db_backend");
	sym_rpmPopMacro(NULL, "_dbpath");
	if (rc || logged) {
		fail(r, logged ? logged : "librpm cannot open it");
		return -1;
	}
	if (!strcmp(r->backend, "sqlite"))
		note_wal(r);
	return 0;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* Forget @m's package, keeping its path. */
static void memo_clear(struct memo *m)
{
	free(m->name);
	free(m->version);
	free(m->arch);
	free(m->packager);
	free(m->source);
	m->name = m->version = m->arch = m->packager = m->source = NULL;
}

/* The owner of @path alone into @m: the first package by name. */
static void query(struct rpm_db *r, const char *path, struct memo *m)
{
	rpmdbMatchIterator mi;
	Header h;

	rpmdb_ro_begin(r->dir);
	mi = sym_rpmtsInitIterator(r->ts, RPMDBI_INSTFILENAMES, path, 0);
	while (mi && (h = sym_rpmdbNextIterator(mi))) {
		const char *name = sym_headerGetString(h, RPMTAG_NAME);

		if (name && (!m->name || strcmp(name, m->name) < 0)) {
			memo_clear(m);
			m->name = xstrdup(name);
			m->version = sym_headerGetAsString(h, RPMTAG_EVR);
			m->arch = dup_or_null(sym_headerGetString(h, RPMTAG_ARCH));
			m->packager = dup_or_null(sym_headerGetString(h, RPMTAG_PACKAGER));
			m->source = pkg_source_of_srpm(sym_headerGetString(h, RPMTAG_SOURCERPM));
		}
	}
	sym_rpmdbFreeIterator(mi);
	rpmdb_ro_end();
}

static int memo_cmp(const void *a, const void *b)
{
	return strcmp(((const struct memo *)a)->path, ((const struct memo *)b)->path);
}

static void memo_free(void *p)
{
	struct memo *m = p;

	memo_clear(m);
	free(m->path);
	free(m);
}

const struct pkg_meta *rpm_db_lookup(struct rpm_db *r, const char *path)
{
	struct memo key = { .path = (char *)path }, *m;
	void **found;
	char *twin;

	if (!path || *path != '/' || rpm_db_load(r))
		return NULL;
	found = tfind(&key, &r->memo, memo_cmp);
	if (found) {
		m = *found;
	} else {
		m = xcalloc(1, sizeof(*m));
		m->path = xstrdup(path);
		/* Only this lookup's messages judge it (the flag is global). */
		log_clear();
		query(r, path, m);
		twin = m->name ? NULL : usr_twin(path);
		if (twin)
			query(r, twin, m);
		free(twin);
		if (logged) {
			/* A damaged index or header: no answer from it is trusted. */
			memo_free(m);
			fail(r, logged);
			return NULL;
		}
		m->meta = (struct pkg_meta){
			.name = m->name, .version = m->version, .arch = m->arch,
			.source = m->source, .maintainer = m->packager,
		};
		if (!tsearch(m, &r->memo, memo_cmp))
			die_oom();
	}
	return m->name ? &m->meta : NULL;
}


void rpm_db_free(struct rpm_db *r)
{
	if (!r)
		return;
	tdestroy(r->memo, memo_free);
	if (r->ts) {
		rpmdb_ro_begin(r->dir);
		sym_rpmtsFree(r->ts);
		rpmdb_ro_end();
	}
	if (r->config)
		config_put();
	free(r->dir);
	free(r->root);
	free(r);
}
