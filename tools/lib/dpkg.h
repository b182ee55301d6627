/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which Debian package owns a file: from the *.list files in
 * ROOT/var/lib/dpkg/info, read once, on the first lookup, with what the
 * packages say of themselves in ROOT/var/lib/dpkg/status. owner.h puts it
 * together with rpm's.
 */
#ifndef ABIDEP_DPKG_H
#define ABIDEP_DPKG_H

#include <stdbool.h>
#include <stddef.h>

#include "pkgmeta.h"

struct dpkg;

/*
 * Whether @root (NULL: "/") has a dpkg database: its var/lib/dpkg/info
 * directory, reached beneath @root through no symlink, as dpkg_load()
 * reads it.
 */
bool dpkg_db_exists(const char *root);

/* For the dpkg database under @root (NULL: "/"); reads nothing yet. */
struct dpkg *dpkg_new(const char *root);
void dpkg_free(struct dpkg *d);

/*
 * Read the database, if not done yet. -1 with errno if its info directory
 * cannot be read (then lookups find nothing); a list file that cannot be
 * read is skipped.
 */
int dpkg_load(struct dpkg *d);

/* Paths known, after dpkg_load(). */
size_t dpkg_npaths(const struct dpkg *d);

/*
 * The package owning @path ("coreutils", without ":arch"), or NULL; its
 * Version in *@version (NULL if the status file does not have it; @version
 * may be NULL). On merged-/usr systems the kernel names /usr/bin/cat where
 * dpkg lists /bin/cat (or the other way round): the twin (usr_twin()) is
 * tried too. Valid until dpkg_free().
 */
const char *dpkg_owner(struct dpkg *d, const char *path, const char **version);

/*
 * The same package with its status stanza's fields: Version,
 * Architecture, Source (or its own name), Maintainer, each NULL when the
 * status file does not have them (the first stanza of its name with a
 * Version; none: the name alone). Valid until dpkg_free().
 */
const struct pkg_meta *dpkg_lookup(struct dpkg *d, const char *path);

#endif
