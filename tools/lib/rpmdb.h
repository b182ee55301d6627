/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which rpm package owns a file: from ROOT's rpm database, through librpm,
 * one indexed query per path (see rpmdb.c). owner.h puts it together with
 * dpkg's.
 */
#ifndef ABIDEP_RPMDB_H
#define ABIDEP_RPMDB_H

#include <stdbool.h>

#include "pkgmeta.h"

struct rpm_db;

/*
 * Does @root (NULL: "/") hold an rpm database: a database file in
 * usr/lib/sysimage/rpm or var/lib/rpm? Only stat(), no librpm.
 */
bool rpm_db_exists(const char *root);

/* For the rpm database under @root (NULL: "/"); reads nothing yet. */
struct rpm_db *rpm_db_new(const char *root);
void rpm_db_free(struct rpm_db *r);

/*
 * Open the database, if not done yet: 0; -1 when @root has none (nothing
 * said, librpm not called) or it cannot be read (said once on stderr, by
 * path, with what to do; lookups then find nothing).
 */
int rpm_db_load(struct rpm_db *r);

/*
 * The package owning @path and what its header says of it: NAME, its
 * version as [EPOCH:]VERSION-RELEASE, ARCH, PACKAGER (as the maintainer),
 * the source package named in SOURCERPM; each NULL when the header lacks
 * it (or SOURCERPM is not NAME-VERSION-RELEASE.src.rpm). NULL if none owns
 * @path or there is no usable database. The merged-/usr twin (usr_twin())
 * is tried too. When several packages own it, the first by name. Valid
 * until rpm_db_free().
 */
const struct pkg_meta *rpm_db_lookup(struct rpm_db *r, const char *path);

#endif
