/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Static references to deprecated sysfs attributes in a file tree: what
 * abidep scan prints and abidep check weighs. Written by scan.c.
 */
#ifndef ABIDEP_SCAN_H
#define ABIDEP_SCAN_H

#include <stddef.h>

#include "abi.h"

/* How sure a hit is: a bare name alone is weak for common names. */
enum scan_confidence {
	SCAN_WEAK,	/* bare attribute name, e.g. "current_protocol" */
	SCAN_MEDIUM,	/* directory plus name, e.g. "rc0/current_protocol" */
	SCAN_STRONG,	/* a full /sys path the entry's pattern matches */
};

struct scan_hit {
	const char *file;		/* as seen under ROOT, starting with '/' */
	unsigned long line;		/* 1-based; 0 in a binary file */
	unsigned long long offset;	/* byte offset of the match */
	const struct abi_entry *entry;	/* in the tables given to scan_tree() */
	const char *what;		/* the entry's What path that matched */
	const char *match;		/* the text matched */
	enum scan_confidence confidence;
	const char *package;		/* owning package in ROOT's dpkg DB, or NULL */
};

struct scan_unreadable {
	const char *file;
	int err;			/* errno */
};

struct scan_result {
	struct scan_hit *hits;
	size_t nhits, hcap;
	struct scan_unreadable *unreadable;
	size_t nunreadable, ucap;
	unsigned long long files, bytes;	/* examined */
	void *priv;			/* strings owned by the result */
};

/*
 * Scan every regular file under @root (not following symlinks out of it)
 * for references to the entries of @tables. Unreadable files are listed in
 * @res, never fatal. Returns 0, or -1 with a message in @err (e.g. @root
 * does not exist).
 */
int scan_tree(const char *root, const struct abi_set *tables,
	      struct scan_result *res, char *err, size_t errlen);
void scan_result_free(struct scan_result *res);
const char *scan_confidence_name(enum scan_confidence c);

#endif
