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
#include "pkgmeta.h"

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
	/* Added for package files and maintainers: */
	const struct pkg_meta *pkg;	/* the package, all it says of itself
					 * (package and package_version are
					 * its name and version); NULL: none */
	const char *archive;		/* the package file (.deb, .rpm) @file
					 * is a member of; NULL in a root */
};

struct scan_unreadable {
	const char *file;		/* a file, or a package file */
	int err;			/* errno */
	const char *why;		/* what was wrong, for people; NULL:
					 * root_strerror(err) says it */
};

/* A package file scanned (scan_packages()). */
struct scan_package {
	const char *file;		/* as given, or found under a directory given */
	struct pkg_meta meta;		/* from its control data; name NULL: unreadable */
	char sha256[65];		/* of the file, hex */
	bool cached;			/* its hits came from the cache */
	bool unreadable;		/* listed in unreadable, no hit kept */
	unsigned long long members;	/* regular files in it, scripts included */
	unsigned long long unpacked;	/* their bytes */
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
	/* Package files (scan_packages()); none for a root: */
	struct scan_package *packages;	/* in the order given and found */
	size_t npackages, pcap;
	size_t ncached;			/* of them, from the cache */
	const char *warning;		/* the cache could not be written: why */
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
	/*
	 * scan_packages(): a package whose files add up to more is not read
	 * further, and listed as unreadable (a decompression bomb): 0 is
	 * SCAN_MAX_UNPACKED_DEFAULT, SCAN_NO_MAX_SIZE no cap.
	 */
	unsigned long long max_unpacked;
	/*
	 * scan_packages(): the bytes of ELF members all threads together
	 * hold whole, to read their section tables (at their end) before
	 * their sections; 0 is SCAN_ELF_BUDGET_DEFAULT. A member larger is
	 * searched every byte. No option of the command sets it: the tests'.
	 */
	unsigned long long elf_budget;
	const char *cache_dir;		/* scan_packages()' cache; NULL: none */
};

#define SCAN_MAX_UNPACKED_DEFAULT	(16ull << 30)
#define SCAN_ELF_BUDGET_DEFAULT		(256ull << 20)

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

/*
 * Scan package files: each of @paths is a .deb, .udeb or .rpm file, or a
 * directory searched (not following symlinks) for them. Each package is
 * read as a stream, never unpacked to disk: its control data (dpkg's
 * control file, rpm's header) names it, its files and maintainer scripts
 * are searched as scan_tree() searches a root's, hits named by the file's
 * path in the package ("/usr/bin/x"; control members as "/DEBIAN/postinst",
 * rpm scriptlets as "%post"). A package that cannot be read whole is
 * listed in @res->unreadable with why, and none of its hits kept. With
 * opts->cache_dir, a package already scanned with the same tables and
 * options is not read again. Returns 0, or -1 with a message in @err
 * (none of @paths exists, the cache cannot be opened).
 */
int scan_packages(char *const *paths, int npaths, const struct abi_set *tables,
		  const struct scan_opts *opts, struct scan_result *res,
		  char *err, size_t errlen);

/* Is @name a package file scan_packages() reads (by its suffix)? */
bool scan_is_package_file(const char *name);
const char *scan_confidence_name(enum scan_confidence c);

#endif
