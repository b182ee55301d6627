/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside abidep scan, shared by its files: scan.c (the command),
 * scan_search.c (read a file, search it), scan_tree.c (walk a root),
 * scan_pkgs.c (package files: the set, threads, cache), scan_pkg.c (read
 * one package file), scan_cache.c (the package cache), scan_needles.c
 * (the names searched for), scan_classify.c (how sure a hit is),
 * scan_elf.c (ELF sections).
 */
#ifndef ABIDEP_SCAN_INT_H
#define ABIDEP_SCAN_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include "abi.h"
#include "pattern.h"
#include "scan.h"

struct stat;

#define SCAN_MAX_NEEDLE	255	/* longer names are not searched */
#define SCAN_CTX_MAX	512	/* bytes of path looked at around a name */

/* A What (one brace alternative of it) whose attribute name is a needle. */
struct scan_cand {
	const struct abi_entry *entry;
	const char *what;
	const struct abi_glob *glob;
	/*
	 * A name with dots (memory.oom_control) is searched for by its last
	 * word (oom_control): the rest must stand right before it.
	 */
	const char *prefix;
	size_t plen;
};

/* An attribute name, searched for as a whole word. */
struct scan_needle {
	char *name;
	size_t len;
	bool common;		/* only lowercase letters: "state", "enable" */
	struct scan_cand *cands;
	int ncands, ccap;
};

struct scan_globs {
	struct abi_glob *g;
	int n;
};

struct scan_needles {
	struct scan_needle *v;		/* sorted by name */
	int n, cap;
	struct scan_globs *globs;	/* owned: the candidates point here */
	int nglobs, gcap;
	char **skipped;			/* Whats with no name to search for */
	int nskipped, scap;
	/* lookup */
	const struct scan_needle **slots;
	size_t mask;
	size_t minlen;
	unsigned char bigram[8192];	/* a needle starts with these 2 bytes */
	unsigned char last[256][32];	/* a needle this long ends with this byte */
};

void scan_needles_build(struct scan_needles *ns, const struct abi_set *tables);
void scan_needles_free(struct scan_needles *ns);

/* 1 for a word byte ([A-Za-z0-9_]); built by scan_needles_build(). */
const unsigned char *scan_word_tab(void);

static inline uint64_t scan_load_part(const unsigned char *p, size_t n)
{
	uint64_t v = 0;

	memcpy(&v, p, n < 8 ? n : 8);
	return v;
}

/* Hash of a word run: its first and last 8 bytes and its length. */
static inline uint32_t scan_run_hash(const unsigned char *p, size_t n)
{
	uint64_t a = scan_load_part(p, n), b = n > 8 ? scan_load_part(p + n - 8, 8) : 0;
	uint64_t h = (a * 0x9E3779B97F4A7C15ull) ^ (b * 0xC2B2AE3D27D4EB4Full) ^ n;

	return (uint32_t)(h ^ (h >> 29) ^ (h >> 41));
}

/* scan_classify.c: what the text around a name says (scan.rst). */
bool scan_path_byte(unsigned char c);
enum scan_confidence scan_classify(const struct abi_glob *g, const char *ts,
				   const char *ns, const char *ne, const char *te);
bool scan_is_doc(const char *rel);

/* scan_elf.c: the byte ranges of an ELF file worth reading. */
struct scan_range {
	unsigned long long a, b;
};

int scan_elf_ranges(int fd, unsigned long long size, struct scan_range **out,
		    size_t *cap);
/* The same, of an ELF file in memory. */
int scan_elf_ranges_mem(const void *buf, size_t size, struct scan_range **out,
			size_t *cap);

/* scan_search.c: strings owned by a result, in blocks. */
struct scan_arena {
	struct scan_arena_blk *head;
};

/* @n bytes, aligned to 16 (the blocks are malloc()'d, data[] at 16). */
void *scan_arena_alloc(struct scan_arena *a, size_t n);
char *scan_arena_strndup(struct scan_arena *a, const char *s, size_t n);
char *scan_arena_strdup(struct scan_arena *a, const char *s);
/* @s, or NULL for NULL. */
char *scan_arena_strdup0(struct scan_arena *a, const char *s);
void scan_arena_take(struct scan_arena *to, struct scan_arena *from);

/* Where @a is: what is allocated after it can be released together. */
struct scan_arena_mark {
	struct scan_arena_blk *head;
	size_t used;
};

void scan_arena_mark(const struct scan_arena *a, struct scan_arena_mark *m);
/* Free what @a allocated since @m (those strings must no longer be used). */
void scan_arena_release(struct scan_arena *a, const struct scan_arena_mark *m);
void scan_arena_free(struct scan_arena *a);

/* A hit as a reader finds it: @file is its caller's index of the file. */
struct scan_whit {
	size_t file;
	unsigned long line;
	unsigned long long offset;
	const struct scan_cand *cand;
	const char *match;		/* in the reader's arena */
	enum scan_confidence conf;
};

/* A file its caller could not read: by index, with errno and why. */
struct scan_wunread {
	size_t file;
	int err;
	const char *why;		/* in the reader's arena; NULL: err says it */
};

/*
 * One thread's reader of files: what it found, and its buffers. Files are
 * searched one at a time, by scan_read_fd() or scan_read_stream(); the
 * caller turns the file indexes of hits and unread into names.
 */
struct scan_reader {
	const struct scan_needles *ns;
	const struct scan_opts *opts;
	struct scan_whit *hits;
	size_t nhits, hcap;
	struct scan_wunread *unread;
	size_t nunread, ucap;
	struct scan_arena strs;
	unsigned long long files, bytes, weak_hidden;
	/* private to scan_search.c */
	unsigned char *buf;		/* the chunk buffer */
	struct scan_range *ranges;	/* of an ELF file */
	size_t rcap;
	size_t cur;			/* the file being read */
	const unsigned char *base;	/* its bytes in memory... */
	size_t len;
	unsigned long long base_off;	/* ...from this offset */
	bool binary, file_hit, doc;
	bool enough;			/* nothing more of this file can count */
	unsigned long long line_pos;	/* newlines counted before this offset */
	unsigned long line_no;
	int fd;				/* the file, or -1: a stream */
	ssize_t (*read)(void *ctx, void *buf, size_t n);
	void *ctx;
	unsigned long long pos;		/* a stream's bytes read */
};

/* The file size cap @opts gives (scan_opts.max_size); 0: none. */
unsigned long long scan_max_size(const struct scan_opts *opts);

void scan_reader_init(struct scan_reader *rd, const struct scan_needles *ns,
		      const struct scan_opts *opts);
/* Its buffers and lists freed; its strings stay (take them first). */
void scan_reader_release(struct scan_reader *rd);

/*
 * Search the regular file open as @fd (stat in @st), the caller's file
 * @idx, named @rel (for scan_is_doc()); counted in files and bytes.
 * 0, or -1 with errno (a read error).
 */
int scan_read_fd(struct scan_reader *rd, size_t idx, const char *rel, int fd,
		 const struct stat *st);

/*
 * Search a file of @size bytes that comes as a stream: @read(@ctx, buf, n)
 * gives its next bytes (0 at its end, -1 with errno on an error). It is
 * read once, front to back: an ELF file (whose section table is at its
 * end) is read whole into memory first, under a budget all threads share
 * (scan_opts.elf_budget); one larger than the budget is searched every
 * byte, as any file. 0, or -1 with errno.
 */
int scan_read_stream(struct scan_reader *rd, size_t idx, const char *rel,
		     unsigned long long size,
		     ssize_t (*read)(void *ctx, void *buf, size_t n), void *ctx);

/*
 * Search @len bytes of text at @text (a NUL after them) as a file's bytes
 * are searched, as a documentation file's (@doc: every hit weak) or not:
 * its hits (file 0, line 0) added to @rd's. The package cache checks its
 * rows by it.
 */
void scan_read_text(struct scan_reader *rd, const char *text, size_t len, bool doc);

/* scan_result.c: building a result. */
struct scan_priv {
	struct scan_arena strs;
};

/* The threads to read with: opts->threads, or one per online CPU; at most 8. */
int scan_thread_count(const struct scan_opts *opts);

/* Add @h as a hit of @file (the strings: the result's already). */
void scan_add_hit(struct scan_result *res, const struct scan_whit *h, const char *file,
		  const char *pkg, const char *version, const struct pkg_meta *meta,
		  const char *archive);
void scan_add_unreadable(struct scan_result *res, const char *file, int err,
			 const char *why);
/* Hits by file (archive first), offset, entry; unreadable by file. */
void scan_result_sort(struct scan_result *res);

/* List the caller's file @idx as unreadable: @err, and @why (copied; NULL: none). */
void scan_reader_unreadable(struct scan_reader *rd, size_t idx, int err, const char *why);

#endif
