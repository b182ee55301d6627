/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which package owns a file, from ROOT's package databases: dpkg's
 * (dpkg.c: Debian, Ubuntu) and rpm's (rpmdb.c: Fedora, RHEL, SUSE). A root
 * with both asks dpkg first; with neither, no file has an owner.
 */
#ifndef ABIDEP_OWNER_H
#define ABIDEP_OWNER_H

#include <stdbool.h>
#include <stddef.h>

#include "pkgmeta.h"

struct owner;

/* Does @root (NULL: "/") hold a dpkg or an rpm database? Only stat(). */
bool owner_has_db(const char *root);

/* For the databases under @root (NULL: "/"); reads nothing yet. */
struct owner *owner_new(const char *root);
void owner_free(struct owner *o);

/*
 * Read them now rather than on the first lookup: 0 if @root has one or
 * both (an rpm database that cannot be read counts: rpmdb.c reports it);
 * -1 with a message in @err if it has neither.
 */
int owner_load(struct owner *o, char *err, size_t errlen);

/*
 * The package owning @path ("coreutils"), or NULL; its version in
 * *@version (@version may be NULL): rpm's [EPOCH:]VERSION-RELEASE, dpkg's
 * Version, NULL when not known. Merged-/usr twins count (usr_twin()).
 * Valid until owner_free().
 */
const char *owner_of(struct owner *o, const char *path, const char **version);

/*
 * The package owning @path with all its database says of it (name,
 * version, architecture, source, maintainer: dpkg's status stanza, rpm's
 * header), or NULL. Valid until owner_free().
 */
const struct pkg_meta *owner_lookup(struct owner *o, const char *path);

#endif
