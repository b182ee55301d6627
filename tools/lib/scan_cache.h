/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The package scan's cache (scan_cache.c): what scanning each package file
 * found, keyed by the file's SHA-256 and by the scan's key (the tables'
 * content, the options, the abidep binary), so that a daily run over a
 * mirror reads only the packages that changed.
 */
#ifndef ABIDEP_SCAN_CACHE_H
#define ABIDEP_SCAN_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "abi.h"
#include "scan.h"
#include "scan_int.h"

struct scan_cache;

/*
 * The scan's key: SHA-256 (hex) of @tables (each entry's Whats and status,
 * in order, and every table file's bytes), the options that change hits,
 * and the running abidep binary; -1 with @err if a file cannot be read.
 */
int scan_cache_key(const struct abi_set *tables, const struct scan_opts *opts, char key[65],
		   char *err, size_t errlen);

/*
 * Open (creating it, mode 0700) the cache in @dir for scans of @key, with
 * the needles @ns of its tables and the scan's @opts (its rows are checked
 * against them); NULL with a message in @err: @dir, or a file SQLite reads
 * in it, not the caller's or writable by another user, or a symlink.
 */
struct scan_cache *scan_cache_open(const char *dir, const char *key,
				   const struct scan_needles *ns, const struct scan_opts *opts,
				   char *err, size_t errlen);

/*
 * Is the package at @path (stat @st) known, unchanged since it was
 * scanned (device, inode, size, mtime and ctime), with a result for this
 * key, each hit of which its own text gives again? Then its result goes
 * into @res as package @p (hits named by p's file and metadata, strings
 * in @strs), and true.
 */
bool scan_cache_load(struct scan_cache *c, const char *path, const struct stat *st,
		     const struct abi_set *tables, struct scan_package *p,
		     struct scan_result *res, struct scan_arena *strs);

/*
 * Remember package @p, read from @path (stat @st before it was read): its
 * metadata, its @nhits hits and @nunread unreadable members. Written at
 * scan_cache_close().
 */
void scan_cache_store(struct scan_cache *c, const char *path, const struct stat *st,
		      const struct scan_package *p, const struct scan_hit *hits, size_t nhits,
		      const struct scan_unreadable *unread, size_t nunread,
		      const struct abi_set *tables);

/* Write what was stored, and close: -1 with a message in @err. */
int scan_cache_close(struct scan_cache *c, char *err, size_t errlen);

#endif
