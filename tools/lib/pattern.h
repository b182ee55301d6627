/* SPDX-License-Identifier: GPL-2.0 */
/* What: paths as patterns and globs; see Documentation/admin-guide/migration-tables.rst. */
#ifndef ABIDEP_PATTERN_H
#define ABIDEP_PATTERN_H

#include <stdbool.h>
#include <stddef.h>

/* One alternative of a What path: a glob per component. */
struct abi_glob {
	char **comp;
	int ncomp;
	bool dir;	/* the What ends in '/' */
};

/* The path part of a What (a note may follow: "/sys/o2cb symlink"). */
size_t abi_path_len(const char *what);
/* A What that names a file rather than an interface ("devfs"). */
bool abi_is_path(const char *what);
/* NULL if @what's path is a good pattern, else why not. */
const char *abi_pattern_check(const char *what);
/* Brace-expanded globs of @what; returns how many (>= 1). */
int abi_pattern_globs(const char *what, struct abi_glob **out);
void abi_globs_free(struct abi_glob *g, int n);

/*
 * Does the component glob @glob match the file name @name? A wildcard
 * matches no name starting with '.' (as a shell's, and no pattern means
 * one); a glob without one is the name itself.
 */
bool abi_comp_match(const char *glob, const char *name);

typedef int (*abi_resolve_cb)(const char *path, void *arg);
/* Call @cb for each existing file matching @g, with @root standing for /sys;
 * stops at the first non-zero return and returns it. */
int abi_glob_resolve(const struct abi_glob *g, const char *root,
		     abi_resolve_cb cb, void *arg);

#endif
