// SPDX-License-Identifier: GPL-2.0
/*
 * Reading and searching one file for references to deprecated sysfs
 * attributes: a file of a root (scan_read_fd()) or a member of a package
 * file, as it is decompressed (scan_read_stream()), by one code path. See
 * Documentation/admin-guide/scan.rst for what counts as a reference and
 * how sure each one is.
 *
 * The search: every needle (an attribute name) is a run of word characters
 * ([A-Za-z0-9_]), and a reference must be a whole word, as with grep -w. So
 * instead of a multi-pattern string search we cut each file into its
 * maximal word runs (bit masks from SSE2 compares) and look up only the
 * runs that could be a name, in a small hash table. One pass over each
 * file's bytes (of ELF files, the sections that can hold strings), read
 * once in cache-sized chunks, no allocation per file. (Hyperscan 5.4, the
 * names as \bNAME\b in one stream-mode database, was measured on /usr/lib
 * reading the same 5.4 GB: no less CPU time in user space than this whole
 * scan, so it would add a dependency for nothing.)
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <libelf.h>

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

/* ---- strings owned by a result: a list of blocks ---- */

struct scan_arena_blk {
	struct scan_arena_blk *next;
	size_t used, cap;
	char data[] __attribute__((aligned(16)));
};

void *scan_arena_alloc(struct scan_arena *a, size_t n)
{
	struct scan_arena_blk *b = a->head;
	void *p;

	if (!b || b->cap - b->used < n) {
		size_t cap = n > 65536 ? n : 65536;

		b = xmalloc(sizeof(*b) + cap);
		b->cap = cap;
		b->used = 0;
		b->next = a->head;
		a->head = b;
	}
	p = b->data + b->used;
	/* The next one aligned as malloc()'s are: a struct may follow. */
	b->used += (n + 15) & ~(size_t)15;
	if (b->used > b->cap)
		b->used = b->cap;
	return p;
}

char *scan_arena_strndup(struct scan_arena *a, const char *s, size_t n)
{
	char *p = scan_arena_alloc(a, n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *scan_arena_strdup(struct scan_arena *a, const char *s)
{
	return scan_arena_strndup(a, s, strlen(s));
}

char *scan_arena_strdup0(struct scan_arena *a, const char *s)
{
	return s ? scan_arena_strdup(a, s) : NULL;
}

/* Move @from's blocks to @to. */
void scan_arena_take(struct scan_arena *to, struct scan_arena *from)
{
	struct scan_arena_blk *b = from->head, *next;

	for (; b; b = next) {
		next = b->next;
		b->next = to->head;
		to->head = b;
	}
	from->head = NULL;
}

void scan_arena_mark(const struct scan_arena *a, struct scan_arena_mark *m)
{
	m->head = a->head;
	m->used = a->head ? a->head->used : 0;
}

void scan_arena_release(struct scan_arena *a, const struct scan_arena_mark *m)
{
	struct scan_arena_blk *b, *next;

	for (b = a->head; b != m->head; b = next) {
		next = b->next;
		free(b);
	}
	a->head = m->head;
	if (a->head)
		a->head->used = m->used;
}

void scan_arena_free(struct scan_arena *a)
{
	struct scan_arena_blk *b = a->head, *next;

	for (; b; b = next) {
		next = b->next;
		free(b);
	}
	a->head = NULL;
}

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
static unsigned long line_of(struct scan_reader *wk, size_t pos)
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
static enum scan_confidence rate_cands(const struct scan_reader *wk, const struct scan_needle *nd,
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
static void add_hits(struct scan_reader *wk, const struct scan_needle *nd, int nc,
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
			match = scan_arena_strndup(&wk->strs, r->ts, r->te - r->ts);
		struct scan_whit *h = GROW(wk->hits, wk->nhits, wk->hcap);

		h->file = wk->cur;
		h->line = line;
		h->offset = wk->base_off + (r->ts - b);
		h->cand = c;
		h->match = match;
		h->conf = best;
	}
}

/* A word run [s, s+n) equal to needle @nd: record its hits. */
static void found(struct scan_reader *wk, const struct scan_needle *nd, size_t s, size_t n)
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
	if (best == SCAN_WEAK && nd->common && !wk->opts->weak) {
		/* Counted as they would be listed: one per entry. */
		wk->weak_hidden += cand_entries(nd, nc);
		return;
	}
	/* For a list of files, millions of hits of --weak need not be kept. */
	if (wk->file_hit && wk->opts->first_only)
		return;
	wk->file_hit = true;
	add_hits(wk, nd, nc, &r, conf, best);
	/*
	 * A list of files with every hit counted (-l --weak): the file is
	 * listed, and no later byte can change what is printed (no weak hit
	 * is hidden to be counted), so the rest is not read, as grep -l
	 * stops at a file's first match.
	 */
	wk->enough = wk->opts->first_only && wk->opts->weak;
}

static inline void run_end(struct scan_reader *wk, const struct scan_needles *ns,
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
static void search(struct scan_reader *wk, const struct scan_needles *ns,
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
		if (wk->enough)
			return;
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
 * The file's bytes at @off: read there from a file, the next ones of a
 * stream (whose reads are always at its position). The count (short only
 * at the end), or -1.
 */
static ssize_t read_at(struct scan_reader *wk, unsigned char *p, size_t want,
		       unsigned long long off)
{
	size_t n = 0;
	ssize_t r;

	if (wk->fd >= 0)
		return pread_full(wk->fd, p, want, off);
	if (off != wk->pos) {
		errno = ESPIPE;		/* a bug: a stream is read in order */
		return -1;
	}
	while (n < want) {
		r = wk->read(wk->ctx, p + n, want - n);
		if (r < 0)
			return -1;
		if (!r)
			break;
		n += r;
	}
	wk->pos += n;
	return n;
}

/*
 * Search bytes [@a, @b) of the file, in chunks; the buffer holds @have
 * bytes from @a already. -1 on a read error.
 */
static int scan_region(struct scan_reader *wk, unsigned long long a,
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
			r = read_at(wk, wk->buf + wk->len, want, pos);
			if (r < 0)
				return -1;
		}
		/* Less than the buffer could take: the region or file ended. */
		eof = wk->len + r < cap;
		wk->len += r;
		wk->bytes += r;
		to = eof ? wk->len : wk->len - TAIL;
		if (to > from)
			search(wk, wk->ns, from, to);
		/* A stream's rest is still read: its reader expects it consumed. */
		if (eof || (wk->enough && wk->fd >= 0))
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
static int scan_extents(struct scan_reader *wk)
{
	off_t data, hole = 0;

	while (!wk->enough) {
		data = lseek(wk->fd, hole, SEEK_DATA);
		if (data < 0)
			return errno == ENXIO ? 0 : -1;	/* ENXIO: no data past @hole */
		hole = lseek(wk->fd, data, SEEK_HOLE);
		if (hole < 0)
			return -1;
		if (scan_region(wk, data, hole, 0))
			return -1;
	}
	return 0;
}

/* Search the @nr ranges of an ELF file of @size bytes, all at @mem. */
static void search_ranges_mem(struct scan_reader *wk, const unsigned char *mem,
			      unsigned long long size, int nr)
{
	for (int i = 0; i < nr && !wk->enough; i++) {
		struct scan_range g = wk->ranges[i];

		if (g.b > size)
			g.b = size;
		if (g.a >= g.b)
			continue;
		wk->base = mem + g.a;
		wk->len = g.b - g.a;
		wk->base_off = g.a;
		wk->bytes += wk->len;
		search(wk, wk->ns, 0, wk->len);
	}
}

/*
 * Start file @idx: its first bytes, at most @want, into the buffer; their
 * count, or -1.
 */
static ssize_t start_file(struct scan_reader *wk, size_t idx, const char *rel, size_t want)
{
	const size_t cap = KEEP + CHUNK + TAIL;
	ssize_t r;

	if (!wk->buf)
		wk->buf = xmalloc(cap + 64);
	wk->cur = idx;
	wk->line_no = 0;
	wk->file_hit = false;
	wk->enough = false;
	wk->doc = scan_is_doc(rel);
	r = read_at(wk, wk->buf, want < cap ? want : cap, 0);
	if (r >= 0)
		wk->binary = memchr(wk->buf, '\0', r < BINARY_PROBE ? r : BINARY_PROBE) != NULL;
	return r;
}

static bool is_elf(const struct scan_reader *wk, ssize_t r)
{
	return !wk->opts->all_bytes && r >= SELFMAG && !memcmp(wk->buf, ELFMAG, SELFMAG);
}

int scan_read_fd(struct scan_reader *wk, size_t idx, const char *rel, int fd,
		 const struct stat *st)
{
	const size_t cap = KEEP + CHUNK + TAIL;
	ssize_t r;
	int nr = -1;

	wk->files++;
	/* Too short to hold any name: no need to read it. */
	if (!wk->ns->n || (size_t)st->st_size < wk->ns->minlen)
		return 0;
	wk->fd = fd;
	/*
	 * Read to its size at fstat(), not to a read that returns 0: most
	 * files fit one read, and the one after it would cost a system call
	 * per file for nothing (the size already decided that it is read).
	 */
	r = start_file(wk, idx, rel, st->st_size);
	if (r < 0)
		return -1;
	if (is_elf(wk, r))
		nr = scan_elf_ranges(fd, st->st_size, &wk->ranges, &wk->rcap);
	if (nr <= 0) {
		/* Not ELF, or none libelf can make sense of: every byte. */
		if ((unsigned long long)st->st_blocks * 512 < (unsigned long long)st->st_size &&
		    (size_t)r >= cap)
			return scan_extents(wk);
		wk->bytes += r;
		return scan_region(wk, 0, st->st_size, r);
	}
	if ((size_t)r >= cap) {
		for (int i = 0; i < nr && !wk->enough; i++)
			if (scan_region(wk, wk->ranges[i].a, wk->ranges[i].b, 0))
				return -1;
		return 0;
	}
	/* The whole file is in the buffer: search its ranges there. */
	search_ranges_mem(wk, wk->buf, r, nr);
	return 0;
}

/*
 * A streamed ELF file is held whole, its section table being at its end
 * and a stream read once: all threads' together at most a budget
 * (scan_opts.elf_budget). A thread whose file would pass it waits until
 * the others' files are done; holders never wait, so one always goes on.
 */
static pthread_mutex_t elf_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t elf_done = PTHREAD_COND_INITIALIZER;
static unsigned long long elf_held;

static unsigned long long elf_budget(const struct scan_opts *opts)
{
	return opts->elf_budget ? opts->elf_budget : SCAN_ELF_BUDGET_DEFAULT;
}

static void elf_take(unsigned long long n, unsigned long long budget)
{
	pthread_mutex_lock(&elf_lock);
	while (elf_held + n > budget)
		pthread_cond_wait(&elf_done, &elf_lock);
	elf_held += n;
	pthread_mutex_unlock(&elf_lock);
}

static void elf_give(unsigned long long n)
{
	pthread_mutex_lock(&elf_lock);
	elf_held -= n;
	pthread_cond_broadcast(&elf_done);
	pthread_mutex_unlock(&elf_lock);
}

/* Search the ELF file of @size bytes at @m: its ranges, or all of it. */
static void search_elf_mem(struct scan_reader *wk, const unsigned char *m, size_t size)
{
	int nr = scan_elf_ranges_mem(m, size, &wk->ranges, &wk->rcap);

	if (nr > 0) {
		search_ranges_mem(wk, m, size, nr);
		return;
	}
	/* None libelf makes sense of: every byte. */
	wk->base = m;
	wk->len = size;
	wk->base_off = 0;
	wk->line_pos = 0;
	wk->bytes += size;
	search(wk, wk->ns, 0, size);
}

/*
 * A streamed ELF file of @size bytes whose first @r bytes are in the
 * buffer: the rest read into memory, under the budget, and searched
 * there. One larger than the budget alone is searched as any file, every
 * byte through the chunk buffer (as --all-bytes reads ELF files). 0, or
 * -1 with errno.
 */
static int stream_elf(struct scan_reader *wk, unsigned long long size, ssize_t r)
{
	unsigned long long budget = elf_budget(wk->opts), need;
	unsigned char *m;
	ssize_t more;

	if ((unsigned long long)r > size)
		size = r;		/* a stream longer than it said */
	if (budget < 64 || size > budget - 64 || size > SIZE_MAX - 64) {
		wk->bytes += r;
		return scan_region(wk, 0, ~0ull, r);
	}
	need = size + 64;
	elf_take(need, budget);
	m = xmalloc(need);
	memcpy(m, wk->buf, r);
	more = read_at(wk, m + r, size - r, r);
	if (more >= 0)
		search_elf_mem(wk, m, r + more);
	free(m);
	elf_give(need);
	return more < 0 ? -1 : 0;
}

int scan_read_stream(struct scan_reader *wk, size_t idx, const char *rel,
		     unsigned long long size,
		     ssize_t (*read)(void *ctx, void *buf, size_t n), void *ctx)
{
	const size_t cap = KEEP + CHUNK + TAIL;
	ssize_t r;
	int nr;

	wk->files++;
	if (!wk->ns->n || size < wk->ns->minlen)
		return 0;
	wk->fd = -1;
	wk->read = read;
	wk->ctx = ctx;
	wk->pos = 0;
	r = start_file(wk, idx, rel, cap);
	if (r < 0)
		return -1;
	if (is_elf(wk, r)) {
		if ((size_t)r < cap) {
			nr = scan_elf_ranges_mem(wk->buf, r, &wk->ranges, &wk->rcap);
			if (nr > 0) {
				search_ranges_mem(wk, wk->buf, r, nr);
				return 0;
			}
		} else {
			return stream_elf(wk, size, r);
		}
	}
	wk->bytes += r;
	return scan_region(wk, 0, ~0ull, r);
}

void scan_read_text(struct scan_reader *wk, const char *text, size_t len, bool doc)
{
	if (!wk->ns->n || len < wk->ns->minlen)
		return;
	wk->cur = 0;
	wk->file_hit = false;
	wk->enough = false;
	wk->doc = doc;
	wk->binary = true;		/* no line: nothing to count them for */
	wk->base = (const unsigned char *)text;
	wk->len = len;
	wk->base_off = 0;
	search(wk, wk->ns, 0, len);
}

unsigned long long scan_max_size(const struct scan_opts *opts)
{
	if (!opts->max_size)
		return ROOT_MAX_SIZE_DEFAULT;
	return opts->max_size == SCAN_NO_MAX_SIZE ? 0 : opts->max_size;
}

void scan_reader_init(struct scan_reader *rd, const struct scan_needles *ns,
		      const struct scan_opts *opts)
{
	memset(rd, 0, sizeof(*rd));
	rd->ns = ns;
	rd->opts = opts;
	rd->fd = -1;
}

void scan_reader_unreadable(struct scan_reader *rd, size_t idx, int err, const char *why)
{
	struct scan_wunread *u = GROW(rd->unread, rd->nunread, rd->ucap);

	u->file = idx;
	u->err = err;
	u->why = why ? scan_arena_strdup(&rd->strs, why) : NULL;
}

void scan_reader_release(struct scan_reader *rd)
{
	free(rd->hits);
	free(rd->unread);
	free(rd->buf);
	free(rd->ranges);
	rd->hits = NULL;
	rd->unread = NULL;
	rd->buf = NULL;
	rd->ranges = NULL;
	rd->nhits = rd->hcap = rd->nunread = rd->ucap = rd->rcap = 0;
}
