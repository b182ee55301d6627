/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Static references to deprecated sysfs attributes in a file tree: what
 * abidep scan prints and abidep check weighs. Written by scan.c.
 */
#ifndef ABIDEP_SCAN_H
#define ABIDEP_SCAN_H

#include <stdbool.h>
#include <stddef.h>

#include "abi.h"

/* How sure a hit is: a bare name alone is weak for common names. */
enum scan_confidence {
	SCAN_NONE = -1,	/* not a reference after all (scan_classify() only) */
	SCAN_WEAK,	/* bare attribute name, e.g. "current_protocol" */
	SCAN_MEDIUM,	/* directory plus name, e.g. "rc0/current_protocol" */
	SCAN_STRONG,	/* a full /sys path the entry's pattern matches */
};

struct scan_hit {
	const char *file;		/* as seen under ROOT, starting with '/';
					 * under the system root ROOT belongs to
					 * when ROOT has no dpkg or rpm database
					 * of its own ("/usr/bin/x" for ROOT /usr) */
	unsigned long line;		/* 1-based; 0 in a binary file */
	unsigned long long offset;	/* byte offset of the match */
	const struct abi_entry *entry;	/* in the tables given to scan_tree() */
	const char *what;		/* the entry's What path that matched */
	const char *match;		/* the text matched */
	enum scan_confidence confidence;
	const char *package;		/* owning package in ROOT's dpkg or rpm
					 * DB, or NULL */
	const char *package_version;	/* its version; NULL: none or unknown */
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
	/* Added after the first version of this header: */
	const char *root;		/* the system root the files are under */
	const char *prefix;		/* ROOT below it ("" or e.g. "/usr") */
	unsigned long long weak_hidden;	/* weak hits of common names not kept
					 * (without scan_opts.weak) */
	int npatterns;			/* names searched for */
};

/* How to scan; scan_tree() uses the defaults (all zero). */
struct scan_opts {
	bool weak;		/* keep weak hits of common names too */
	int threads;		/* 0: one per online CPU, at most 8 */
	bool first_only;	/* one hit per file is enough (scan -l) */
	bool all_bytes;		/* ELF files whole, code included, as grep */
	/*
	 * Files larger are listed as unreadable (EFBIG), not read: 0 is
	 * ROOT_MAX_SIZE_DEFAULT, SCAN_NO_MAX_SIZE no cap.
	 */
	unsigned long long max_size;
};

#define SCAN_NO_MAX_SIZE	(~0ull)

/*
 * Scan every regular file under @root (not following symlinks out of it)
 * for references to the entries of @tables. Unreadable files are listed in
 * @res, never fatal. Returns 0, or -1 with a message in @err (e.g. @root
 * does not exist). @res is overwritten (zeroed first), and is empty after
 * -1; free it with scan_result_free() either way. Hits are sorted by file,
 * then offset. See Documentation/admin-guide/scan.rst.
 */
int scan_tree(const char *root, const struct abi_set *tables,
	      struct scan_result *res, char *err, size_t errlen);
int scan_tree_opts(const char *root, const struct abi_set *tables,
		   const struct scan_opts *opts, struct scan_result *res,
		   char *err, size_t errlen);
void scan_result_free(struct scan_result *res);
const char *scan_confidence_name(enum scan_confidence c);

#endif
