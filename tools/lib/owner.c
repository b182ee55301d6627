// SPDX-License-Identifier: GPL-2.0
/*
 * Which package owns a file: dpkg's database, then rpm's. Each backend
 * reads nothing until asked, and a root without an rpm database never
 * calls librpm (rpmdb.c), so a Debian root pays for rpm nothing but two
 * stat() calls.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dpkg.h"
#include "owner.h"
#include "rootfs.h"
#include "rpmdb.h"
#include "util.h"

struct owner {
	char *root;
	struct dpkg *dpkg;
	struct rpm_db *rpm;
};

bool owner_has_db(const char *root)
{
	return dpkg_db_exists(root) || rpm_db_exists(root);
}

struct owner *owner_new(const char *root)
{
	struct owner *o = xcalloc(1, sizeof(*o));

	o->root = xstrdup(root && *root ? root : "/");
	o->dpkg = dpkg_new(o->root);
	o->rpm = rpm_db_new(o->root);
	return o;
}

void owner_free(struct owner *o)
{
	if (!o)
		return;
	dpkg_free(o->dpkg);
	rpm_db_free(o->rpm);
	free(o->root);
	free(o);
}

int owner_load(struct owner *o, char *err, size_t errlen)
{
	int dpkg = dpkg_load(o->dpkg) ? errno : 0;

	/* Opened now, so that a damaged one is reported before any output. */
	rpm_db_load(o->rpm);
	if (!dpkg || rpm_db_exists(o->root))
		return 0;
	snprintf(err, errlen, "no dpkg or rpm database in %s (cannot read %s/var/lib/dpkg/info: %s; no rpm database in %s/usr/lib/sysimage/rpm or %s/var/lib/rpm)",
		 o->root, o->root, root_strerror(dpkg), o->root, o->root);
	return -1;
}

const struct pkg_meta *owner_lookup(struct owner *o, const char *path)
{
	const struct pkg_meta *m = dpkg_lookup(o->dpkg, path);

	return m ? m : rpm_db_lookup(o->rpm, path);
}

const char *owner_of(struct owner *o, const char *path, const char **version)
{
	const struct pkg_meta *m = owner_lookup(o, path);

	if (version)
		*version = m ? m->version : NULL;
	return m ? m->name : NULL;
}
