// SPDX-License-Identifier: GPL-2.0
/*
 * An rpm database in SQLite (rpm >= 4.16: rpmdb.sqlite) is in WAL mode, and
 * SQLite opens a WAL database's -wal and -shm files for writing, creating
 * them, even on a read-only connection: librpm's O_RDONLY open of ROOT's
 * database would create ROOT/.../rpmdb.sqlite-wal and -shm, and fail on a
 * read-only ROOT (a mounted image). Its sqlite backend even retries a
 * database it cannot open read-only with SQLITE_OPEN_CREATE. librpm has no
 * option against either.
 *
 * So, while abidep calls librpm, the default SQLite VFS (librpm and abidep
 * share the one libsqlite3) is this shim of the default one: for files
 * under the rpm database's directory it takes write and create away, and
 * marks the database SQLITE_IOCAP_IMMUTABLE, which makes SQLite read the
 * file alone, without locks, journal, WAL or shared memory (the "immutable"
 * URI parameter, which librpm's file names cannot carry). What a -wal file
 * holds that is not yet in the database is not seen: rpmdb.c says so when
 * there is one. Other files (abidep's own usage DB) pass through untouched.
 */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "rpmdb_ro.h"
#include "util.h"

/* The default VFS has a few kinds of file (locking styles): one copy each. */
#define MAX_KINDS 4

static sqlite3_vfs shim, *base;
static char *ro_dir;
static sqlite3_io_methods kinds[MAX_KINDS];
static const sqlite3_io_methods *orig[MAX_KINDS];
static int nkinds;

static int immutable_dc(sqlite3_file *f)
{
	const sqlite3_io_methods *m = orig[f->pMethods - kinds];

	return m->xDeviceCharacteristics(f) | SQLITE_IOCAP_IMMUTABLE;
}

/* Our copy of @m, its device characteristics immutable; NULL: too many kinds. */
static const sqlite3_io_methods *immutable_kind(const sqlite3_io_methods *m)
{
	int i;

	for (i = 0; i < nkinds; i++)
		if (orig[i] == m)
			return &kinds[i];
	if (nkinds == MAX_KINDS || !m->xDeviceCharacteristics)
		return NULL;
	orig[nkinds] = m;
	kinds[nkinds] = *m;
	kinds[nkinds].xDeviceCharacteristics = immutable_dc;
	return &kinds[nkinds++];
}

static int under_ro_dir(const char *name)
{
	size_t l = ro_dir ? strlen(ro_dir) : 0;

	return name && l && !strncmp(name, ro_dir, l) && name[l] == '/';
}

static int shim_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *f,
		     int flags, int *out)
{
	const sqlite3_io_methods *m;
	int rc;

	if (!under_ro_dir(name))
		return base->xOpen(base, name, f, flags, out);
	flags &= ~(SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_DELETEONCLOSE);
	flags |= SQLITE_OPEN_READONLY;
	/* The file is the default VFS's own: its methods work on it as is. */
	rc = base->xOpen(base, name, f, flags, out);
	if (rc != SQLITE_OK || !(flags & SQLITE_OPEN_MAIN_DB) || !f->pMethods)
		return rc;
	m = immutable_kind(f->pMethods);
	if (!m) {
		/* Never read it with locks and a WAL: that would write. */
		f->pMethods->xClose(f);
		f->pMethods = NULL;
		return SQLITE_CANTOPEN;
	}
	f->pMethods = m;
	return SQLITE_OK;
}

void rpmdb_ro_begin(const char *dir)
{
	if (!base) {
		base = sqlite3_vfs_find(NULL);
		if (!base)
			return;
		shim = *base;
		shim.zName = "abidep-rpmdb-ro";
		shim.xOpen = shim_open;
	}
	free(ro_dir);
	ro_dir = xstrdup(dir);
	sqlite3_vfs_register(&shim, 1);
}

void rpmdb_ro_end(void)
{
	/* The shim stays registered (open files use it), not as the default. */
	if (base)
		sqlite3_vfs_register(base, 1);
}
