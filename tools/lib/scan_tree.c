// SPDX-License-Identifier: GPL-2.0
/*
 * scan_tree(): find references to deprecated sysfs attributes in the files
 * of a tree. See Documentation/admin-guide/scan.rst for what counts as a reference and
 * how sure each one is.
 *
 * The search: every needle (an attribute name) is a run of word characters
 * ([A-Za-z0-9_]), and a reference must be a whole word, as with grep -w. So
 * instead of a multi-pattern string search we cut each file into its
 * maximal word runs (bit masks from SSE2 compares) and look up only the
 * runs that could be a name, in a small hash table. One pass over each
 * file's bytes (of ELF files, the sections that can hold strings), read
 * once in cache-sized chunks, no allocation per file; one thread walks the
 * tree while the others read the files.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <libelf.h>

#include "owner.h"
#include "pattern.h"
#include "rootfs.h"
#include "scan.h"
#include "scan_int.h"
#include "util.h"

#define MAX_NEEDLE	SCAN_MAX_NEEDLE
#define CTX_MAX		SCAN_CTX_MAX
/*
 * Files are read in chunks into one buffer per thread, small enough to stay
 * in the CPU's cache between read() copying and the search reading it.
 * Measured on 1 GB of libraries: mmap() spent a third of the time on page
 * tables; whole-file reads into a large buffer a third on copying through
 * memory.
 */
#define CHUNK		(128 << 10)
/* Kept from one chunk to the next: the context before a name... */
#define KEEP		CTX_MAX
/* ... and what a run starting in a chunk may need after it. */
#define TAIL		(MAX_NEEDLE + CTX_MAX + 64)
#define BINARY_PROBE	8192	/* a NUL in the first bytes: binary */
#define MAX_THREADS	8

/* ---- strings owned by a result: a list of blocks ---- */

struct arena_blk {
	struct arena_blk *next;
	size_t used, cap;
	char data[];
};

struct arena {
	struct arena_blk *head;
};

static char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	struct arena_blk *b = a->head;
	char *p;

	if (!b || b->cap - b->used < n + 1) {
		size_t cap = n + 1 > 65536 ? n + 1 : 65536;

		b = xmalloc(sizeof(*b) + cap);
		b->cap = cap;
		b->used = 0;
		b->next = a->head;
		a->head = b;
	}
	p = b->data + b->used;
	memcpy(p, s, n);
	p[n] = '\0';
	b->used += n + 1;
	return p;
}

static char *arena_strdup(struct arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

/* Move @from's blocks to @to. */
static void arena_take(struct arena *to, struct arena *from)
{
	struct arena_blk *b = from->head, *next;

	for (; b; b = next) {
		next = b->next;
		b->next = to->head;
		to->head = b;
	}
	from->head = NULL;
}

static void arena_free(struct arena *a)
{
	struct arena_blk *b = a->head, *next;

	for (; b; b = next) {
		next = b->next;
		free(b);
	}
	a->head = NULL;
}

/* ---- the walk ---- */

struct file_ent {
	char *rel;		/* relative to ROOT, in the walk arena */
};

struct walk {
	int rootfd;
	struct file_ent *files;
	size_t nfiles, fcap;
	struct arena *strs;
	struct scan_result *res;
	struct arena *res_strs;
	const char *prefix;	/* ROOT as seen from the system root, "" for it */
	/* Files go to the threads as directories are read. */
	pthread_mutex_t *lock;
	pthread_cond_t *more;
	bool done;
	char **dir_files;	/* the files of the directory being read */
	size_t ndir, dcap;
};

static void add_unreadable(struct walk *w, const char *rel, int err)
{
	struct scan_unreadable *u = GROW(w->res->unreadable, w->res->nunreadable,
					 w->res->ucap);
	char *s = xasprintf("%s/%s", w->prefix, rel);

	u->file = arena_strdup(w->res_strs, s);
	u->err = err;
	free(s);
}

/* Filesystems with no files of programs in them, only the kernel's. */
static bool pseudo_fs(int fd)
{
	struct statfs sf;

	if (fstatfs(fd, &sf))
		return false;
	switch ((unsigned long)sf.f_type) {
	case PROC_SUPER_MAGIC: case SYSFS_MAGIC: case DEVPTS_SUPER_MAGIC:
	case CGROUP_SUPER_MAGIC: case CGROUP2_SUPER_MAGIC: case DEBUGFS_MAGIC:
	case TRACEFS_MAGIC: case SECURITYFS_MAGIC: case BPF_FS_MAGIC:
	case PSTOREFS_MAGIC: case EFIVARFS_MAGIC: case HUGETLBFS_MAGIC:
	case 0x19800202 /* mqueue */: case BINFMTFS_MAGIC: case 0x62656570 /* configfs */:
	case 0x65735543 /* fusectl */:
		return true;
	}
	return false;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Walk directory @rel ("" for ROOT), whose device is @dev. */
static void walk_dir(struct walk *w, const char *rel, dev_t dev)
{
	char **subdirs = NULL;
	int nsub = 0, scap = 0, fd;
	size_t i;
	struct dirent *de;
	struct stat st;
	DIR *dir;

	fd = root_openat(w->rootfd, rel, O_RDONLY | O_DIRECTORY);
	if (fd < 0) {
		add_unreadable(w, rel, errno);
		return;
	}
	if (!fstat(fd, &st) && st.st_dev != dev && pseudo_fs(fd)) {
		close(fd);
		return;
	}
	dev = st.st_dev;
	dir = fdopendir(fd);
	if (!dir) {
		add_unreadable(w, rel, errno);
		close(fd);
		return;
	}
	while ((de = readdir(dir))) {
		const char *n = de->d_name;
		unsigned char type = de->d_type;
		char *path;

		if (n[0] == '.' && (!n[1] || (n[1] == '.' && !n[2])))
			continue;
		if (type == DT_UNKNOWN) {
			struct stat s2;

			if (fstatat(fd, n, &s2, AT_SYMLINK_NOFOLLOW))
				continue;
			type = S_ISREG(s2.st_mode) ? DT_REG : S_ISDIR(s2.st_mode) ?
				DT_DIR : DT_LNK;
		}
		/* Symlinks are never followed; devices, fifos, sockets never read. */
		if (type != DT_REG && type != DT_DIR)
			continue;
		path = *rel ? xasprintf("%s/%s", rel, n) : xstrdup(n);
		if (type == DT_DIR) {
			*GROW(subdirs, nsub, scap) = path;
		} else {
			*GROW(w->dir_files, w->ndir, w->dcap) = arena_strdup(w->strs, path);
			free(path);
		}
	}
	closedir(dir);
	if (w->ndir) {
		/* The directory's files to the threads, in one go. */
		pthread_mutex_lock(w->lock);
		for (i = 0; i < w->ndir; i++)
			GROW(w->files, w->nfiles, w->fcap)->rel = w->dir_files[i];
		pthread_cond_broadcast(w->more);
		pthread_mutex_unlock(w->lock);
		w->ndir = 0;
	}
	if (nsub)
		qsort(subdirs, nsub, sizeof(*subdirs), name_cmp);
	for (i = 0; i < (size_t)nsub; i++) {
		walk_dir(w, subdirs[i], dev);
		free(subdirs[i]);
	}
	free(subdirs);
}

/* ---- searching the files ---- */

struct whit {
	size_t file;		/* index in the walk's files */
	unsigned long line;
	unsigned long long offset;
	const struct scan_cand *cand;
	const char *match;	/* in the worker's arena */
	enum scan_confidence conf;
};

struct worker {
	pthread_t tid;
	struct shared *sh;
	struct whit *hits;
	size_t nhits, hcap;
	struct arena strs;
	unsigned long long files, bytes, weak_hidden;
	struct { size_t file; int err; } *unread;
	size_t nunread, ucap;
	unsigned char *buf;		/* KEEP + CHUNK + TAIL + 64 bytes */
	/* the file being read */
	size_t cur;
	const unsigned char *base;	/* buf */
	size_t len;			/* bytes in buf */
	unsigned long long base_off;	/* file offset of buf[0] */
	bool binary;
	unsigned long long line_pos;	/* newlines counted before this offset */
	unsigned long line_no;
	bool file_hit;			/* the file has a hit already */
	bool doc;			/* the file is documentation (scan_is_doc()) */
	struct scan_range *ranges;		/* of an ELF file */
	size_t rcap;
};

struct shared {
	const struct scan_needles *ns;
	const struct scan_opts *opts;
	struct walk *w;
	size_t next;			/* next file to take */
	pthread_mutex_t lock;
	pthread_cond_t more;		/* files added, or the walk is done */
};

/* Newlines in [p, p+n). */
static unsigned long count_nl(const unsigned char *p, size_t n)
{
	unsigned long c = 0;
	size_t i = 0;

#ifdef __SSE2__
	const __m128i nl = _mm_set1_epi8('\n');

	for (; i + 16 <= n; i += 16)
		c += __builtin_popcount(_mm_movemask_epi8(
			_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + i)), nl)));
#endif
	for (; i < n; i++)
		c += p[i] == '\n';
	return c;
}

/* Count newlines up to buffer position @pos (hits come in file order). */
static unsigned long line_of(struct worker *wk, size_t pos)
{
	size_t from = wk->line_pos - wk->base_off;

	if (pos > from) {
		wk->line_no += count_nl(wk->base + from, pos - from);
		wk->line_pos = wk->base_off + pos;
	}
	return wk->line_no;
}

/* A needle's word [ns, ne) in the buffer, within its path [ts, te). */
struct run {
	const char *ns, *ne, *ts, *te;
};

/* Rate each of the @nc first candidates of @nd for @r into @conf: the best. */
static enum scan_confidence rate_cands(const struct worker *wk, const struct scan_needle *nd,
				       int nc, const struct run *r,
				       enum scan_confidence *conf)
{
	const char *b = (const char *)wk->base;
	enum scan_confidence best = SCAN_NONE;
	int i;

	for (i = 0; i < nc; i++) {
		const struct scan_cand *c = &nd->cands[i];
		const char *cs = r->ns - c->plen;

		/* A dotted name's start: its prefix, not after a word or dot. */
		if (c->plen && (cs < r->ts || memcmp(cs, c->prefix, c->plen) ||
				(cs > b && (scan_word_tab()[(unsigned char)cs[-1]] || cs[-1] == '.'))))
			conf[i] = SCAN_NONE;
		else
			conf[i] = scan_classify(c->glob, r->ts, cs, r->ne, r->te);
		/* A mention in documentation never says a program uses it. */
		if (wk->doc && conf[i] > SCAN_WEAK)
			conf[i] = SCAN_WEAK;
		if (conf[i] > best)
			best = conf[i];
	}
	return best;
}

/* How many entries the @nc first candidates of @nd are of (one per entry). */
static int cand_entries(const struct scan_needle *nd, int nc)
{
	int i, k, entries = 0;

	for (i = 0; i < nc; i++) {
		for (k = 0; k < i && nd->cands[k].entry != nd->cands[i].entry; k++)
			;
		entries += k == i;
	}
	return entries;
}

/* Record @r as a hit of each entry of a candidate rated @best. */
static void add_hits(struct worker *wk, const struct scan_needle *nd, int nc,
		     const struct run *r, const enum scan_confidence *conf,
		     enum scan_confidence best)
{
	const char *b = (const char *)wk->base;
	unsigned long line = wk->binary ? 0 : line_of(wk, r->ts - b) + 1;
	const char *match = NULL;
	int i, k;

	for (i = 0; i < nc; i++) {
		const struct scan_cand *c = &nd->cands[i];

		if (conf[i] != best)
			continue;
		/* One hit per entry and occurrence: the first of its Whats. */
		for (k = 0; k < i; k++)
			if (conf[k] == best && nd->cands[k].entry == c->entry)
				break;
		if (k < i)
			continue;
		if (!match)
			match = arena_strndup(&wk->strs, r->ts, r->te - r->ts);
		struct whit *h = GROW(wk->hits, wk->nhits, wk->hcap);

		h->file = wk->cur;
		h->line = line;
		h->offset = wk->base_off + (r->ts - b);
		h->cand = c;
		h->match = match;
		h->conf = best;
	}
}

/* A word run [s, s+n) equal to needle @nd: record its hits. */
static void found(struct worker *wk, const struct scan_needle *nd, size_t s, size_t n)
{
	const char *b = (const char *)wk->base;
	struct run r = { .ns = b + s, .ne = b + s + n, .ts = b + s, .te = b + s + n };
	const char *lo = s > CTX_MAX ? r.ns - CTX_MAX : b;
	const char *hi = wk->len - (s + n) > CTX_MAX ? r.ne + CTX_MAX : b + wk->len;
	enum scan_confidence conf[256], best;
	int nc = nd->ncands < 256 ? nd->ncands : 256;

	while (r.ts > lo && scan_path_byte(r.ts[-1]))
		r.ts--;
	while (r.te < hi && scan_path_byte(*r.te))
		r.te++;
	best = rate_cands(wk, nd, nc, &r, conf);
	if (best == SCAN_NONE)
		return;
	if (best == SCAN_WEAK && nd->common && !wk->sh->opts->weak) {
		/* Counted as they would be listed: one per entry. */
		wk->weak_hidden += cand_entries(nd, nc);
		return;
	}
	/* For a list of files, millions of hits of --weak need not be kept. */
	if (wk->file_hit && wk->sh->opts->first_only)
		return;
	wk->file_hit = true;
	add_hits(wk, nd, nc, &r, conf, best);
}

static inline void run_end(struct worker *wk, const struct scan_needles *ns,
			   size_t start, size_t end)
{
	size_t n = end - start;
	const unsigned char *p;
	size_t slot;

	if (n > MAX_NEEDLE)
		return;
	p = wk->base + start;
	/* Some name has this length and ends with this byte? */
	if (!(ns->last[n][p[n - 1] >> 3] & (1 << (p[n - 1] & 7))))
		return;
	slot = scan_run_hash(p, n) & ns->mask;
	for (; ns->slots[slot]; slot = (slot + 1) & ns->mask) {
		const struct scan_needle *nd = ns->slots[slot];

		if (nd->len == n && !memcmp(nd->name, p, n)) {
			found(wk, nd, start, n);
			return;
		}
	}
}

#ifdef __SSE2__
/* Bit i set: byte i of the 16 at @p is a word character. */
static inline uint32_t word_mask16(const unsigned char *p)
{
	__m128i v = _mm_loadu_si128((const __m128i *)p);
	__m128i l = _mm_or_si128(v, _mm_set1_epi8(0x20));
	__m128i dig = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)),
				    _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1)));
	__m128i let = _mm_and_si128(_mm_cmpgt_epi8(l, _mm_set1_epi8('a' - 1)),
				    _mm_cmplt_epi8(l, _mm_set1_epi8('z' + 1)));
	__m128i und = _mm_cmpeq_epi8(v, _mm_set1_epi8('_'));

	return _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(dig, let), und));
}

static inline uint64_t word_mask64(const unsigned char *p)
{
	return (uint64_t)word_mask16(p) | (uint64_t)word_mask16(p + 16) << 16 |
	       (uint64_t)word_mask16(p + 32) << 32 | (uint64_t)word_mask16(p + 48) << 48;
}
#else
static inline uint64_t word_mask64(const unsigned char *p)
{
	const unsigned char *t = scan_word_tab();
	uint64_t m = 0;
	int i;

	for (i = 0; i < 64; i++)
		m |= (uint64_t)t[p[i]] << i;
	return m;
}
#endif

static inline uint64_t block_mask(const unsigned char *p, size_t avail)
{
	unsigned char tail[64] = { 0 };

	if (avail >= 64)
		return word_mask64(p);
	memcpy(tail, p, avail);
	return word_mask64(tail);
}

/*
 * Every maximal word run starting in [from, to) of the buffer, at least
 * minlen long and starting with the first two bytes of some needle, through
 * run_end(). Runs are found 64 bytes at a time from bit masks: a start is a
 * word byte after a non-word byte, "long enough" is minlen word bytes in a
 * row, so short runs (most of them, in binaries) and runs starting with the
 * wrong two bytes cost a bit test each. (An AVX2 mask, 32 bytes a step, was
 * measured no faster: the time is in the runs, not the mask.)
 */
static void search(struct worker *wk, const struct scan_needles *ns,
		   size_t from, size_t to)
{
	const unsigned char *p = wk->base;
	const unsigned char *wt = scan_word_tab();
	size_t len = wk->len, i, k;
	uint64_t prev, w, next;
	unsigned minl = ns->minlen;

	prev = from ? wt[p[from - 1]] : 0;
	w = block_mask(p + from, len - from);
	for (i = from; i < to; i += 64) {
		uint64_t starts, lng;

		next = len - i > 64 ? block_mask(p + i + 64, len - i - 64) : 0;
		starts = w & ~((w << 1) | prev);
		prev = w >> 63;
		lng = w;
		for (k = 1; k < minl && k < 64; k++)
			lng &= (w >> k) | (next << (64 - k));
		starts &= lng;
		if (to - i < 64)
			starts &= (1ull << (to - i)) - 1;
		while (starts) {
			unsigned b = __builtin_ctzll(starts);
			size_t s = i + b, e;
			unsigned bg;
			uint64_t rest;

			starts &= starts - 1;
			bg = p[s] | p[s + 1] << 8;
			if (!(ns->bigram[bg >> 3] & (1 << (bg & 7))))
				continue;
			/* The run's end: in this block, or further. */
			rest = ~w >> b;
			if (rest) {
				e = s + __builtin_ctzll(rest);
			} else {
				e = i + 64;
				while (e < len && wt[p[e]] && e - s <= MAX_NEEDLE)
					e++;
			}
			if (e > len)
				e = len;
			run_end(wk, ns, s, e);
		}
		w = next;
	}
}

/* Read up to @want bytes at @off; the count, or -1. */
static ssize_t pread_full(int fd, unsigned char *p, size_t want, off_t off)
{
	size_t n = 0;
	ssize_t r;

	while (n < want) {
		r = pread(fd, p + n, want - n, off + n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (!r)
			break;
		n += r;
	}
	return n;
}

/*
 * Search bytes [@a, @b) of the file, in chunks; the buffer holds @have
 * bytes from @a already. -1 on a read error.
 */
static int scan_region(struct worker *wk, int fd, unsigned long long a,
		       unsigned long long b, size_t have)
{
	const size_t cap = KEEP + CHUNK + TAIL;
	size_t from = 0;
	bool eof = false;

	wk->base = wk->buf;
	wk->len = have;
	wk->base_off = a;
	/* Bytes read: those already here are counted by the caller. */
	wk->line_pos = a;
	while (!eof) {
		unsigned long long pos = wk->base_off + wk->len;
		size_t want = cap - wk->len, to, keep;
		ssize_t r = 0;

		if (b - pos < want)
			want = b - pos;
		if (want) {
			r = pread_full(fd, wk->buf + wk->len, want, pos);
			if (r < 0)
				return -1;
		}
		/* Less than the buffer could take: the region or file ended. */
		eof = wk->len + r < cap;
		wk->len += r;
		wk->bytes += r;
		to = eof ? wk->len : wk->len - TAIL;
		if (to > from)
			search(wk, wk->sh->ns, from, to);
		if (eof)
			break;
		/* Keep the context of the next runs; count the lines left. */
		keep = to - KEEP;
		if (!wk->binary)
			line_of(wk, keep);
		memmove(wk->buf, wk->buf + keep, wk->len - keep);
		wk->base_off += keep;
		wk->len -= keep;
		from = to - keep;
	}
	return 0;
}

/*
 * Search a sparse file's data only: its holes read as zeros, which hold no
 * name and no newline, so skipping them changes no hit, offset or line
 * (a sparse terabyte in an image costs no disk, and would cost the scan
 * most of an hour). A file system without SEEK_DATA gives the whole file
 * as data.
 */
static int scan_extents(struct worker *wk, int fd)
{
	off_t data, hole = 0;

	for (;;) {
		data = lseek(fd, hole, SEEK_DATA);
		if (data < 0)
			return errno == ENXIO ? 0 : -1;	/* ENXIO: no data past @hole */
		hole = lseek(fd, data, SEEK_HOLE);
		if (hole < 0)
			return -1;
		if (scan_region(wk, fd, data, hole, 0))
			return -1;
	}
}

/*
 * Search the open regular file @fd (the walk's file @idx): all its bytes,
 * or an ELF file's ranges that can hold strings. 0, or -1 with errno.
 */
static int scan_contents(struct worker *wk, size_t idx, int fd, const struct stat *st)
{
	struct shared *sh = wk->sh;
	const size_t cap = KEEP + CHUNK + TAIL;
	ssize_t r;
	int nr = -1;

	if (!wk->buf)
		wk->buf = xmalloc(cap + 64);
	wk->cur = idx;
	wk->line_no = 0;
	wk->file_hit = false;
	r = pread_full(fd, wk->buf, cap, 0);
	if (r < 0)
		return -1;
	wk->binary = memchr(wk->buf, '\0', r < BINARY_PROBE ? r : BINARY_PROBE) != NULL;
	if (!sh->opts->all_bytes && r >= SELFMAG && !memcmp(wk->buf, ELFMAG, SELFMAG))
		nr = scan_elf_ranges(fd, st->st_size, &wk->ranges, &wk->rcap);
	if (nr <= 0) {
		/* Not ELF, or none libelf can make sense of: every byte. */
		if ((unsigned long long)st->st_blocks * 512 < (unsigned long long)st->st_size &&
		    (size_t)r >= cap)
			return scan_extents(wk, fd);
		wk->bytes += r;
		return scan_region(wk, fd, 0, ~0ull, r);
	}
	if ((size_t)r >= cap) {
		for (int i = 0; i < nr; i++)
			if (scan_region(wk, fd, wk->ranges[i].a, wk->ranges[i].b, 0))
				return -1;
		return 0;
	}
	/* The whole file is in the buffer: search its ranges there. */
	for (int i = 0; i < nr; i++) {
		struct scan_range g = wk->ranges[i];

		if (g.b > (unsigned long long)r)
			g.b = r;
		if (g.a >= g.b)
			continue;
		wk->base = wk->buf + g.a;
		wk->len = g.b - g.a;
		wk->base_off = g.a;
		wk->bytes += wk->len;
		search(wk, sh->ns, 0, wk->len);
	}
	return 0;
}

static unsigned long long max_size(const struct scan_opts *opts)
{
	if (!opts->max_size)
		return ROOT_MAX_SIZE_DEFAULT;
	return opts->max_size == SCAN_NO_MAX_SIZE ? 0 : opts->max_size;
}

static void scan_file(struct worker *wk, size_t idx, const char *rel)
{
	struct shared *sh = wk->sh;
	struct stat st;
	bool unreadable = false;
	int fd;

	wk->doc = scan_is_doc(rel);
	if (!sh->ns->n) {
		/* Nothing to search for: the files are only counted. */
		wk->files++;
		return;
	}
	/* Regular, under the cap, beneath ROOT: anything else is listed. */
	fd = root_open_regular(sh->w->rootfd, rel, max_size(sh->opts), &st);
	if (fd < 0) {
		unreadable = true;
	} else {
		wk->files++;
		/* Too short to hold any name: no need to read it. */
		if ((size_t)st.st_size >= sh->ns->minlen && scan_contents(wk, idx, fd, &st))
			unreadable = true;
	}
	if (unreadable) {
		typeof(*wk->unread) *u = GROW(wk->unread, wk->nunread, wk->ucap);

		u->file = idx;
		u->err = errno;
	}
	if (fd >= 0)
		close(fd);
}

static void *worker_main(void *arg)
{
	struct worker *wk = arg;
	struct shared *sh = wk->sh;

	for (;;) {
		const char *rel[16];
		size_t i, first, last;

		/*
		 * Files in batches of 16: one lock per batch. Their names are
		 * copied under the lock: the walk may grow (move) the array.
		 */
		pthread_mutex_lock(&sh->lock);
		while (sh->next >= sh->w->nfiles && !sh->w->done)
			pthread_cond_wait(&sh->more, &sh->lock);
		first = sh->next;
		last = first + 16 < sh->w->nfiles ? first + 16 : sh->w->nfiles;
		sh->next = last;
		for (i = first; i < last; i++)
			rel[i - first] = sh->w->files[i].rel;
		pthread_mutex_unlock(&sh->lock);
		if (first >= last)
			break;
		for (i = first; i < last; i++)
			scan_file(wk, i, rel[i - first]);
	}
	return NULL;
}

/* ---- the result ---- */

struct scan_priv {
	struct arena strs;
};

static int hit_cmp(const void *a, const void *b)
{
	const struct scan_hit *x = a, *y = b;
	int c = strcmp(x->file, y->file);

	if (c)
		return c;
	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	if (x->entry != y->entry)
		return x->entry < y->entry ? -1 : 1;
	return 0;
}

static int unread_cmp(const void *a, const void *b)
{
	return strcmp(((const struct scan_unreadable *)a)->file,
		      ((const struct scan_unreadable *)b)->file);
}

/*
 * The system root @root belongs to: @root itself or its nearest ancestor
 * with a dpkg or rpm database (so "scan /usr" names /usr/bin/x and uses /'s
 * database); @root itself when none has. Returns the root's realpath in
 * *@sys and @root's path below it (with a leading '/', or "") in *@prefix.
 */
static int find_sysroot(const char *root, char **sys, char **prefix)
{
	char *real = realpath(root, NULL);
	size_t cut;

	if (!real)
		return -1;
	for (cut = strlen(real);;) {
		char save = real[cut];
		bool ok;

		real[cut] = '\0';
		ok = owner_has_db(cut ? real : "/");
		real[cut] = save;
		if (ok) {
			*sys = cut ? xstrndup(real, cut) : xstrdup("/");
			*prefix = xstrdup(real + cut);
			free(real);
			return 0;
		}
		if (!cut)
			break;
		while (cut > 0 && real[--cut] != '/')
			;
	}
	/* None: paths are shown as below ROOT. */
	*sys = real;
	*prefix = xstrdup("");
	return 0;
}

/*
 * Check ROOT and open it into @w->rootfd, with the system root and prefix
 * of its paths (find_sysroot()); -1 with a message in @err.
 */
static int open_root(const char *root, struct walk *w, char **sys, char **prefix,
		     char *err, size_t errlen)
{
	struct stat st;

	if (stat(root, &st)) {
		snprintf(err, errlen, "cannot read ROOT '%s': %s", root, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "ROOT '%s' is not a directory", root);
		return -1;
	}
	w->rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (w->rootfd < 0) {
		snprintf(err, errlen, "cannot open ROOT '%s': %s", root, strerror(errno));
		return -1;
	}
	if (pseudo_fs(w->rootfd)) {
		snprintf(err, errlen, "ROOT '%s' is on a kernel filesystem (proc, sysfs, ...): it holds no installed files to scan",
			 root);
		close(w->rootfd);
		return -1;
	}
	if (find_sysroot(root, sys, prefix)) {
		snprintf(err, errlen, "cannot resolve ROOT '%s': %s", root, strerror(errno));
		close(w->rootfd);
		return -1;
	}
	return 0;
}

static int thread_count(const struct scan_opts *opts)
{
	int n = opts->threads;

	if (n <= 0) {
		long c = sysconf(_SC_NPROCESSORS_ONLN);

		n = c > 0 ? (int)c : 1;
	}
	return n > MAX_THREADS ? MAX_THREADS : n;
}

/*
 * Walk the tree while @nthreads workers read the files it finds; returns
 * the workers (their number in *@nthreads: those that started, or one, run
 * here, when none could).
 */
static struct worker *run_workers(struct shared *sh, struct walk *w, int *nthreads)
{
	struct worker *wks = xcalloc(*nthreads, sizeof(*wks));
	int t, started;

	pthread_mutex_init(&sh->lock, NULL);
	pthread_cond_init(&sh->more, NULL);
	w->lock = &sh->lock;
	w->more = &sh->more;
	elf_version(EV_CURRENT);
	/* The threads read files while this one walks the tree. */
	for (t = 0; t < *nthreads; t++) {
		wks[t].sh = sh;
		if (pthread_create(&wks[t].tid, NULL, worker_main, &wks[t]))
			break;
	}
	started = t;
	walk_dir(w, "", (dev_t)-1);
	pthread_mutex_lock(&sh->lock);
	w->done = true;
	pthread_cond_broadcast(&sh->more);
	pthread_mutex_unlock(&sh->lock);
	if (!started) {
		/* No thread could start: read the files here. */
		worker_main(&wks[0]);
		started = 1;
	} else {
		for (t = 0; t < started; t++)
			pthread_join(wks[t].tid, NULL);
	}
	*nthreads = started;
	pthread_cond_destroy(&sh->more);
	pthread_mutex_destroy(&sh->lock);
	return wks;
}

/*
 * A worker's hits and unreadable files into @res (file names and packages
 * in the result's strings); the worker's memory is freed.
 */
static void merge_worker(struct scan_result *res, struct scan_priv *priv,
			 struct owner *owner, const struct walk *w,
			 const char *prefix, struct worker *wk)
{
	size_t last_file = (size_t)-1, i, k;
	const char *fname = NULL, *pkg = NULL, *ver = NULL;

	res->files += wk->files;
	res->bytes += wk->bytes;
	res->weak_hidden += wk->weak_hidden;
	for (i = 0; i < wk->nhits; i++) {
		const struct whit *h = &wk->hits[i];
		struct scan_hit *o = GROW(res->hits, res->nhits, res->hcap);

		if (h->file != last_file) {
			char *s = xasprintf("%s/%s", prefix, w->files[h->file].rel);
			const char *v, *p = owner_of(owner, s, &v);

			fname = arena_strdup(&priv->strs, s);
			pkg = p ? arena_strdup(&priv->strs, p) : NULL;
			ver = v ? arena_strdup(&priv->strs, v) : NULL;
			free(s);
			last_file = h->file;
		}
		o->file = fname;
		o->line = h->line;
		o->offset = h->offset;
		o->entry = h->cand->entry;
		o->what = h->cand->what;
		o->match = h->match;
		o->confidence = h->conf;
		o->package = pkg;
		o->package_version = ver;
	}
	for (k = 0; k < wk->nunread; k++) {
		struct scan_unreadable *u = GROW(res->unreadable,
						 res->nunreadable, res->ucap);
		char *s = xasprintf("%s/%s", prefix, w->files[wk->unread[k].file].rel);

		u->file = arena_strdup(&priv->strs, s);
		u->err = wk->unread[k].err;
		free(s);
	}
	arena_take(&priv->strs, &wk->strs);
	free(wk->hits);
	free(wk->unread);
	free(wk->buf);
	free(wk->ranges);
}

int scan_tree_opts(const char *root, const struct abi_set *tables,
		   const struct scan_opts *opts, struct scan_result *res,
		   char *err, size_t errlen)
{
	static const struct scan_opts defaults;
	struct scan_needles ns;
	struct scan_priv *priv;
	struct arena walk_strs = { 0 };
	struct walk w = { 0 };
	struct shared sh = { 0 };
	struct worker *wks;
	char *sys = NULL, *prefix = NULL;
	struct owner *owner;
	int nthreads, t;

	if (!opts)
		opts = &defaults;
	memset(res, 0, sizeof(*res));
	if (!root || !*root)
		root = "/";
	if (open_root(root, &w, &sys, &prefix, err, errlen))
		return -1;
	priv = xcalloc(1, sizeof(*priv));
	res->priv = priv;
	res->root = arena_strdup(&priv->strs, sys);
	res->prefix = arena_strdup(&priv->strs, prefix);
	scan_needles_build(&ns, tables);
	res->npatterns = ns.n;

	w.strs = &walk_strs;
	w.res = res;
	w.res_strs = &priv->strs;
	w.prefix = prefix;
	sh.ns = &ns;
	sh.opts = opts;
	sh.w = &w;
	nthreads = thread_count(opts);
	wks = run_workers(&sh, &w, &nthreads);

	/* Merge: the file names of files with hits go to the result. */
	owner = owner_new(sys);
	for (t = 0; t < nthreads; t++)
		merge_worker(res, priv, owner, &w, prefix, &wks[t]);
	free(wks);
	owner_free(owner);
	if (res->nhits)
		qsort(res->hits, res->nhits, sizeof(*res->hits), hit_cmp);
	if (res->nunreadable)
		qsort(res->unreadable, res->nunreadable, sizeof(*res->unreadable),
		      unread_cmp);
	/* The hits point at the What strings of @tables, not at the needles. */
	scan_needles_free(&ns);
	arena_free(&walk_strs);
	free(w.files);
	free(w.dir_files);
	free(sys);
	free(prefix);
	close(w.rootfd);
	return 0;
}

int scan_tree(const char *root, const struct abi_set *tables,
	      struct scan_result *res, char *err, size_t errlen)
{
	return scan_tree_opts(root, tables, NULL, res, err, errlen);
}

void scan_result_free(struct scan_result *res)
{
	struct scan_priv *priv = res->priv;

	if (priv) {
		arena_free(&priv->strs);
		free(priv);
	}
	free(res->hits);
	free(res->unreadable);
	memset(res, 0, sizeof(*res));
}

const char *scan_confidence_name(enum scan_confidence c)
{
	switch (c) {
	case SCAN_NONE: break;
	case SCAN_WEAK: return "weak";
	case SCAN_MEDIUM: return "medium";
	case SCAN_STRONG: return "strong";
	}
	return "?";
}
