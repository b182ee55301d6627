/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading one package file (scan_pkg.c) for scan_packages() (scan_pkgs.c):
 * its control data, then its files and scripts, each searched as it is
 * decompressed by a scan_reader.
 */
#ifndef ABIDEP_SCAN_PKG_H
#define ABIDEP_SCAN_PKG_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "pkgmeta.h"
#include "scan_int.h"

/*
 * The members of a thread's packages that had hits, or could not be read,
 * by the index their hits and unread carry (scan_whit.file).
 */
struct pkg_member {
	const char *file;		/* "/usr/bin/x", "/DEBIAN/postinst", "%post" */
	size_t pkg;			/* the job's index */
	size_t hstart, hend;		/* its hits in the reader's list */
};

struct pkg_members {
	struct pkg_member *v;
	size_t n, cap;
};

/* One package file to read, and what reading it found. */
struct pkg_job {
	const char *path;		/* as given, or found under a directory */
	size_t index;			/* in the set */
	struct stat st;			/* before it was read: the cache's key */
	bool found;			/* under a directory given: no symlink followed */
	/* out: the strings in the reader's arena */
	struct pkg_meta meta;
	char sha256[65];
	unsigned long long members, unpacked;
	char why[512];			/* unreadable: what was wrong ("" if not) */
	int err;
};

/*
 * Read the package file @j->path with @rd, members that have hits named
 * in @names. 0; or -1 when the package could not be read whole (j->why
 * says why; its hits and names are dropped again).
 */
int pkg_read(struct pkg_job *j, struct scan_reader *rd, struct pkg_members *names);

/* Is @name a package file pkg_read() reads, by its suffix? */
bool pkg_file_name(const char *name);

#endif
