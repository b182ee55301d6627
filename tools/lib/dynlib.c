// SPDX-License-Identifier: GPL-2.0
/*
 * dlopen() of a library some commands need (see dynlib.h). RTLD_NOW: a
 * library that loads is complete, no call fails later for a missing
 * symbol. RTLD_GLOBAL is not needed: each function is taken by name from
 * the library's handle, which also searches what it depends on (librpm's
 * librpmio). A dependency abidep is linked with itself (libsqlite3, which
 * librpm uses too) is the one already loaded, never a second copy.
 */
#include <dlfcn.h>
#include <stdio.h>

#include "dynlib.h"

int dynlib_load(struct dynlib *l)
{
	void *h;
	size_t i;

	if (l->state)
		return l->state > 0 ? 0 : -1;
	l->state = -1;
	h = dlopen(l->soname, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(l->why, sizeof(l->why), "%s", dlerror());
		return -1;
	}
	for (i = 0; i < l->n; i++) {
		void *f = dlsym(h, l->names[i]);

		if (!f) {
			snprintf(l->why, sizeof(l->why), "it has no %s: another version than abidep was built for",
				 l->names[i]);
			dlclose(h);
			return -1;
		}
		*(void **)l->ptrs[i] = f;
	}
	l->state = 1;
	return 0;
}

void dynlib_error(const struct dynlib *l, const char *for_what, char *buf, size_t len)
{
	snprintf(buf, len, "%s needs %s, which cannot be loaded (%s): install Debian's %s package (or your distribution's package of %s)",
		 for_what, l->soname, l->why[0] ? l->why : "not tried", l->package, l->soname);
}
