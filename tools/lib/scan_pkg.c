// SPDX-License-Identifier: GPL-2.0
/*
 * Reading one package file, a .deb or an .rpm, in place: never unpacked to
 * disk, each byte read from the file once and decompressed once, as
 * libarchive streams it. A .deb is an ar archive of debian-binary,
 * control.tar.* (the control file, the maintainer scripts) and data.tar.*
 * (the files); an .rpm is a lead, a signature header, a header (the
 * metadata and the scriptlets) and a cpio payload. The file is checksummed
 * as it is read (the cache's key, scan_cache.c).
 *
 * Everything in it is hostile: member names that leave the package (".."
 * or absolute), sizes past the caps, a truncated or corrupt stream, no
 * control data: the package is then unreadable, said once with what was
 * wrong, and none of its hits kept. Only the decompressors built into
 * libarchive are enabled: none that runs a program. See
 * Documentation/admin-guide/scan.rst, "Package files".
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <search.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include <nettle/sha2.h>

#include "dl_archive.h"
#include "dl_rpm.h"
#include "pkgmeta.h"
#include "rootfs.h"
#include "scan.h"
#include "scan_int.h"
#include "scan_pkg.h"
#include "util.h"

#define RAW_BUF		(64 << 10)
#define CONTROL_MAX	(1 << 20)	/* a control file larger is refused */
#define RPM_HEAD_MAX	(64u << 20)	/* the rpm headers, lead to payload */
#define RPM_LEAD	96

/* The package file, read once, checksummed as it is; some bytes replayed. */
struct raw {
	int fd;
	struct sha256_ctx sha;
	unsigned char *pre;		/* read ahead (an rpm's headers)... */
	size_t npre, ppos;		/* ...and handed to libarchive again */
	size_t precap;
	unsigned char buf[RAW_BUF];
};

/* Read from the file into @p, checksummed: the count, or -1 with errno. */
static ssize_t raw_read_fd(struct raw *r, void *p, size_t n)
{
	ssize_t k;

	do
		k = read(r->fd, p, n);
	while (k < 0 && errno == EINTR);
	if (k > 0)
		sha256_update(&r->sha, k, p);
	return k;
}

/* libarchive's read callback: the replayed bytes, then the file's. */
static la_ssize_t raw_cb(struct archive *a, void *ctx, const void **out)
{
	struct raw *r = ctx;
	ssize_t k;

	if (r->ppos < r->npre) {
		*out = r->pre + r->ppos;
		k = r->npre - r->ppos;
		r->ppos = r->npre;
		return k;
	}
	k = raw_read_fd(r, r->buf, sizeof(r->buf));
	if (k < 0)
		sym_archive_set_error(a, errno, "%s", strerror(errno));
	*out = r->buf;
	return k;
}

/* The rest of the file into the checksum (libarchive may stop short of its end). */
static int raw_finish(struct raw *r, char hex[65])
{
	uint8_t d[SHA256_DIGEST_SIZE];
	ssize_t k;
	int i;

	while ((k = raw_read_fd(r, r->buf, sizeof(r->buf))) > 0)
		;
	if (k < 0)
		return -1;
	sha256_digest(&r->sha, sizeof(d), d);
	for (i = 0; i < SHA256_DIGEST_SIZE; i++)
		sprintf(hex + 2 * i, "%02x", d[i]);
	return 0;
}

/* Say what was wrong with the package (the first thing only). */
static int bad(struct pkg_job *j, int err, const char *fmt, ...)
{
	va_list ap;

	if (!j->why[0]) {
		va_start(ap, fmt);
		vsnprintf(j->why, sizeof(j->why), fmt, ap);
		va_end(ap);
		j->err = err;
	}
	return -1;
}

static const char *la_err(struct archive *a)
{
	const char *s = sym_archive_error_string(a);

	return s ? s : "unknown error";
}

typedef int (*filter_fn)(struct archive *);

/* dl_archive's pointers to them, loaded before any package is read. */
static filter_fn *const filters[] = {
	&sym_archive_read_support_filter_gzip, &sym_archive_read_support_filter_xz,
	&sym_archive_read_support_filter_lzma, &sym_archive_read_support_filter_zstd,
	&sym_archive_read_support_filter_bzip2,
};

static bool builtin[sizeof(filters) / sizeof(filters[0])];

static void probe_filters(void)
{
	size_t i;

	for (i = 0; i < sizeof(filters) / sizeof(filters[0]); i++) {
		struct archive *a = sym_archive_read_new();

		builtin[i] = (*filters[i])(a) == ARCHIVE_OK;
		sym_archive_read_free(a);
	}
}

/*
 * Decompressors that are code in libarchive, never a program it runs: a
 * libarchive built without a library answers ARCHIVE_WARN and would run
 * the program (zstd -d, say) on the package's bytes. Asked once, of a
 * scratch archive; those that warn are left out.
 */
static void enable_filters(struct archive *a)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	size_t i;

	pthread_once(&once, probe_filters);
	for (i = 0; i < sizeof(filters) / sizeof(filters[0]); i++)
		if (builtin[i])
			(*filters[i])(a);
}

/* ---- one package's state ---- */

/*
 * A name in the package: a regular member's, a hard link's, or a link's
 * target. They are kept in a tree (tsearch(3), by name) for the hard
 * links, which look up their target by name: through the list of names,
 * a package of many links took time quadratic in their number.
 */
struct pkg_name {
	const char *file;		/* -> name[] (a key on the stack points elsewhere) */
	size_t member;			/* its first index in the names, or NO_MEMBER */
	unsigned long long size;	/* its bytes (a hard link's: its target's) */
	struct pkg_link {		/* the hard links to it, for cpio's bytes last */
		struct pkg_link *next;
		struct pkg_name *name;
	} *links, **last;		/* in the order read */
	char name[];
};

#define NO_MEMBER	SIZE_MAX

/*
 * What an entry of the package costs beyond its data: the header it
 * comes in (tar's is 512 bytes) and its names, kept while the package is
 * read. Counted against --max-unpacked, so that entries of no data (hard
 * links, directories) cannot be many and long for free.
 */
#define ENTRY_COST	512

/* The state of reading one package. */
struct pkg_ctx {
	struct pkg_job *j;
	struct scan_reader *rd;
	struct pkg_members *names;
	const struct scan_opts *opts;
	size_t names0, hits0, unread0;	/* the lists' lengths before it */
	struct scan_arena_mark strs0;	/* and its strings' */
	struct archive *cur;		/* the archive a member streams from */
	void *tree;			/* struct pkg_name, by name */
	/* Counted against --max-unpacked, by what (said when it is passed). */
	unsigned long long data;	/* regular members' bytes */
	unsigned long long linked;	/* their bytes again, under hard links' names */
	unsigned long long other;	/* data of other entries (GNU dumpdirs) */
	unsigned long long heads;	/* ENTRY_COST and names, an entry each */
	unsigned long long entries, nlinks;
};

/* Why @name cannot be a path in the package (absolute, or ".."), or NULL. */
static const char *name_leaves(const char *name)
{
	const char *p = name;

	if (*p == '/')
		return "is absolute";
	for (const char *q = p; *q;) {
		size_t n = strcspn(q, "/");

		if (n == 2 && q[0] == '.' && q[1] == '.')
			return "leaves the package (..)";
		q += n;
		q += *q == '/';
	}
	return NULL;
}

/*
 * A member's name as a path in the package, relative ("usr/bin/x" for
 * "./usr/bin/x"), in @out; -1 (said) for one that leaves the package.
 */
static int member_rel(struct pkg_ctx *c, const char *name, char *out, size_t outlen)
{
	const char *p = name, *why = name_leaves(name);

	if (why)
		return bad(c->j, EINVAL, "member '%s' %s", name, why);
	while (p[0] == '.' && p[1] == '/')
		p += 2;
	if (snprintf(out, outlen, "%s", p) >= (int)outlen)
		return bad(c->j, ENAMETOOLONG, "member '%.64s...' has too long a name", name);
	return 0;
}

/* ---- names ---- */

static int name_cmp(const void *a, const void *b)
{
	return strcmp(((const struct pkg_name *)a)->file, ((const struct pkg_name *)b)->file);
}

/* The name @file in the tree, or NULL. */
static struct pkg_name *name_find(struct pkg_ctx *c, const char *file)
{
	struct pkg_name key = { .file = file };
	struct pkg_name **n = tfind(&key, &c->tree, name_cmp);

	return n ? *n : NULL;
}

/* The name @file in the tree, added if new. */
static struct pkg_name *name_get(struct pkg_ctx *c, const char *file)
{
	struct pkg_name *n = name_find(c, file);
	size_t len = strlen(file);

	if (n)
		return n;
	n = xmalloc(sizeof(*n) + len + 1);
	memcpy(n->name, file, len + 1);
	n->file = n->name;
	n->member = NO_MEMBER;
	n->size = 0;
	n->links = NULL;
	n->last = &n->links;
	if (!tsearch(n, &c->tree, name_cmp))
		die_oom();
	return n;
}

static void name_free(void *p)
{
	struct pkg_name *n = p;
	struct pkg_link *l, *next;

	for (l = n->links; l; l = next) {
		next = l->next;
		free(l);
	}
	free(n);
}

/* ---- what reading the package costs: --max-unpacked ---- */

static void add_sat(unsigned long long *to, unsigned long long n)
{
	*to = n > ULLONG_MAX - *to ? ULLONG_MAX : *to + n;
}

/*
 * Past --max-unpacked? Then the package is unreadable, said with what its
 * entries added up to. Checked as each entry is reached, before its data
 * is decompressed: a bomb is stopped by the sizes it declares.
 */
static int over_cap(struct pkg_ctx *c)
{
	unsigned long long cap = c->opts->max_unpacked ? c->opts->max_unpacked :
				 SCAN_MAX_UNPACKED_DEFAULT, sum = 0;

	if (c->opts->max_unpacked == SCAN_NO_MAX_SIZE)
		return 0;
	add_sat(&sum, c->data);
	add_sat(&sum, c->linked);
	add_sat(&sum, c->other);
	add_sat(&sum, c->heads);
	if (sum <= cap)
		return 0;
	return bad(c->j, EFBIG, "unpacks to more than %llu bytes (--max-unpacked): files %llu, "
		   "%llu hard links %llu (their targets' bytes), other entries' data %llu, "
		   "%llu entries' headers and names %llu",
		   cap, c->data, c->nlinks, c->linked, c->other, c->entries, c->heads);
}

/*
 * An entry reached: its header and names, and the data of one that is not
 * read (a directory's, a GNU dumpdir's list of names), which libarchive
 * decompresses all the same to pass it. -1 (said) past the cap.
 */
static int count_entry(struct pkg_ctx *c, struct archive_entry *e, const char *name,
		       const char *link)
{
	la_int64_t size = sym_archive_entry_size(e);

	c->entries++;
	add_sat(&c->heads, ENTRY_COST + strlen(name) + (link ? strlen(link) : 0));
	if (!link && sym_archive_entry_filetype(e) != AE_IFREG && size > 0)
		add_sat(&c->other, size);
	return over_cap(c);
}

/* ---- members ---- */

static ssize_t member_read(void *ctx, void *buf, size_t n)
{
	struct pkg_ctx *c = ctx;
	la_ssize_t k = sym_archive_read_data(c->cur, buf, n);

	if (k < 0) {
		errno = EIO;
		return -1;
	}
	return k;
}

/* Name the member @n just read (index @idx) if it left hits or was unreadable. */
static void name_member(struct pkg_ctx *c, struct pkg_name *n, size_t idx, size_t h0, size_t u0)
{
	struct pkg_member *m;

	if (c->rd->nhits == h0 && c->rd->nunread == u0)
		return;
	m = GROW(c->names->v, c->names->n, c->names->cap);
	if (c->names->n - 1 != idx)
		abort();		/* a bug: names are made in order */
	m->file = scan_arena_strdup(&c->rd->strs, n->file);
	m->pkg = c->j->index;
	m->hstart = h0;
	m->hend = c->rd->nhits;
	if (n->member == NO_MEMBER)
		n->member = idx;
}

/* The hits of @target again, under the name @to. */
static void copy_hits(struct pkg_ctx *c, struct pkg_name *to, const struct pkg_name *target)
{
	size_t idx = c->names->n, h0 = c->rd->nhits, k;
	const struct pkg_member *m;

	if (target->member == NO_MEMBER)
		return;
	m = &c->names->v[target->member];
	for (k = m->hstart; k < m->hend; k++) {
		struct scan_whit *h = GROW(c->rd->hits, c->rd->nhits, c->rd->hcap);

		/* hits[k] read after GROW(), which may have moved it. */
		*h = c->rd->hits[k];
		h->file = idx;
	}
	name_member(c, to, idx, h0, c->rd->nunread);
}

/*
 * A hard link repeats an earlier member's bytes: its hits, under its own
 * name, as a root unpacked from the package would show both files; and
 * its bytes are counted again, as a search of that root would read them
 * (its hits are copies, as many as the target's).
 */
static int hard_link(struct pkg_ctx *c, const char *file, const char *target)
{
	struct pkg_name *t = name_get(c, target), *n = name_get(c, file);
	struct pkg_link *l = xmalloc(sizeof(*l));

	l->name = n;
	l->next = NULL;
	*t->last = l;
	t->last = &l->next;
	n->size = t->size;
	c->nlinks++;
	add_sat(&c->linked, t->size);
	if (over_cap(c))
		return -1;
	c->rd->files++;
	copy_hits(c, n, t);
	return 0;
}

/*
 * Search a regular member, @file as named in hits, @rel for scan_is_doc();
 * its name in *@np.
 */
static int read_member(struct pkg_ctx *c, const char *file, const char *rel,
		       unsigned long long size, struct pkg_name **np)
{
	size_t idx = c->names->n, h0 = c->rd->nhits, u0 = c->rd->nunread;
	unsigned long long cap = scan_max_size(c->opts);
	struct pkg_name *n;

	c->j->members++;
	c->j->unpacked += size;
	add_sat(&c->data, size);
	if (over_cap(c))
		return -1;
	n = name_get(c, file);
	n->size = size;
	if (np)
		*np = n;
	if (cap && size > cap) {
		char *why = xasprintf("member %s: larger than %llu bytes (--max-size)", file, cap);

		c->rd->files++;
		scan_reader_unreadable(c->rd, idx, EFBIG, why);
		free(why);
	} else if (scan_read_stream(c->rd, idx, rel, size, member_read, c)) {
		return bad(c->j, EIO, "member %s: %s", file, la_err(c->cur));
	}
	name_member(c, n, idx, h0, u0);
	return 0;
}

/*
 * cpio (an rpm's payload) keeps a file's bytes with its last name, a hard
 * link to its first: read them, and give their hits to the earlier names,
 * each counting the bytes again.
 */
static int linked_bytes(struct pkg_ctx *c, const char *file, const char *target,
			unsigned long long size)
{
	struct pkg_name *n, *t = name_get(c, target);
	struct pkg_link *l;

	/* The earlier names' counts first: nothing decompressed past the cap. */
	add_sat(&c->linked, size);
	for (l = t->links; l; l = l->next)
		add_sat(&c->linked, size);
	if (over_cap(c) || read_member(c, file, file + 1, size, &n))
		return -1;
	t->size = size;
	copy_hits(c, t, n);
	for (l = t->links; l; l = l->next) {
		l->name->size = size;
		copy_hits(c, l->name, n);
	}
	return 0;
}

/*
 * The entries of archive @a, each regular file searched: named "/" + its
 * path, or @prefix + its path (control members: "/DEBIAN/").
 */
static int read_entries(struct pkg_ctx *c, struct archive *a, const char *prefix)
{
	struct archive_entry *e;
	char rel[4096], file[4200], target[4200];
	int r;

	c->cur = a;
	while ((r = sym_archive_read_next_header(a, &e)) == ARCHIVE_OK || r == ARCHIVE_WARN) {
		const char *name = sym_archive_entry_pathname(e), *link = sym_archive_entry_hardlink(e);

		if (!name)
			return bad(c->j, EINVAL, "a member has no name");
		if (member_rel(c, name, rel, sizeof(rel)) || count_entry(c, e, name, link))
			return -1;
		snprintf(file, sizeof(file), "%s%s", prefix, rel);
		if (link) {
			const char *why = name_leaves(link);

			if (why)
				return bad(c->j, EINVAL, "member '%s' is a hard link to '%s', which %s",
					   name, link, why);
			if (member_rel(c, link, target, sizeof(target)))
				return -1;
			/* The target as named in hits: the same prefix. */
			memmove(target + strlen(prefix), target, strlen(target) + 1);
			memcpy(target, prefix, strlen(prefix));
			if (sym_archive_entry_filetype(e) == AE_IFREG && sym_archive_entry_size(e) > 0) {
				if (linked_bytes(c, file, target, sym_archive_entry_size(e)))
					return -1;
			} else if (hard_link(c, file, target)) {
				return -1;
			}
			continue;
		}
		/* Directories, symlinks, devices: nothing to read, as in a root. */
		if (sym_archive_entry_filetype(e) != AE_IFREG)
			continue;
		if (read_member(c, file, file + 1, sym_archive_entry_size(e), NULL))
			return -1;
	}
	if (r != ARCHIVE_EOF)
		return bad(c->j, EIO, "%s", la_err(a));
	return 0;
}

struct mem_src {
	const char *p;
	size_t left;
};

static ssize_t mem_read(void *ctx, void *buf, size_t n)
{
	struct mem_src *m = ctx;

	if (n > m->left)
		n = m->left;
	memcpy(buf, m->p, n);
	m->p += n;
	m->left -= n;
	return n;
}

/* Search @n bytes at @text, a member named @file ("/" left out: its rel). */
static void read_text(struct pkg_ctx *c, const char *file, const char *text, size_t n)
{
	size_t idx = c->names->n, h0 = c->rd->nhits, u0 = c->rd->nunread;
	struct mem_src m = { text, n };
	struct pkg_name *name = name_get(c, file);

	c->j->members++;
	c->j->unpacked += n;
	name->size = n;
	scan_read_stream(c->rd, idx, file + (*file == '/'), n, mem_read, &m);
	name_member(c, name, idx, h0, u0);
}

/* ---- .deb ---- */

struct nested {
	struct archive *outer;
	unsigned char buf[RAW_BUF];
};

static la_ssize_t nested_cb(struct archive *a, void *ctx, const void **out)
{
	struct nested *n = ctx;
	la_ssize_t k = sym_archive_read_data(n->outer, n->buf, sizeof(n->buf));

	if (k < 0)
		sym_archive_set_error(a, EIO, "%s", la_err(n->outer));
	*out = n->buf;
	return k;
}

/* The control file, read whole (bounded) into the package's metadata. */
static int read_control(struct pkg_ctx *c, struct archive *a)
{
	char *buf = xmalloc(CONTROL_MAX + 1);
	size_t n = 0;
	la_ssize_t k;

	while ((k = sym_archive_read_data(a, buf + n, CONTROL_MAX + 1 - n)) > 0 &&
	       (n += k) <= CONTROL_MAX)
		;
	if (k < 0 || n > CONTROL_MAX) {
		free(buf);
		return k < 0 ? bad(c->j, EIO, "control: %s", la_err(a)) :
			bad(c->j, EFBIG, "control file larger than %d bytes", CONTROL_MAX);
	}
	buf[n] = '\0';
	if (memchr(buf, '\0', n)) {
		free(buf);
		return bad(c->j, EINVAL, "control file holds a NUL byte");
	}
	/* Searched too, as dpkg-deb -R leaves it, before it is cut up. */
	read_text(c, "/DEBIAN/control", buf, n);
	struct pkg_meta m;

	pkg_meta_deb822(buf, &m);
	c->j->meta.name = scan_arena_strdup0(&c->rd->strs, m.name);
	c->j->meta.version = scan_arena_strdup0(&c->rd->strs, m.version);
	c->j->meta.arch = scan_arena_strdup0(&c->rd->strs, m.arch);
	c->j->meta.source = scan_arena_strdup0(&c->rd->strs, m.source);
	c->j->meta.maintainer = scan_arena_strdup0(&c->rd->strs, m.maintainer);
	free(buf);
	if (!c->j->meta.name || !c->j->meta.version)
		return bad(c->j, EINVAL, "control file has no Package or Version");
	return 0;
}

/* control.tar.*: the control file, and every member searched as /DEBIAN/NAME. */
static int read_control_tar(struct pkg_ctx *c, struct archive *a)
{
	struct archive_entry *e;
	char rel[4096], file[4200];
	int r;

	c->cur = a;
	while ((r = sym_archive_read_next_header(a, &e)) == ARCHIVE_OK || r == ARCHIVE_WARN) {
		const char *name = sym_archive_entry_pathname(e);

		if (!name || member_rel(c, name, rel, sizeof(rel)))
			return bad(c->j, EINVAL, "a control member has no name");
		if (count_entry(c, e, name, sym_archive_entry_hardlink(e)))
			return -1;
		if (sym_archive_entry_filetype(e) != AE_IFREG)
			continue;
		if (!strcmp(rel, "control")) {
			if (c->j->meta.name)
				return bad(c->j, EINVAL, "two control files");
			if (read_control(c, a))
				return -1;
			continue;
		}
		snprintf(file, sizeof(file), "/DEBIAN/%s", rel);
		if (read_member(c, file, file + 1, sym_archive_entry_size(e), NULL))
			return -1;
	}
	if (r != ARCHIVE_EOF)
		return bad(c->j, EIO, "control: %s", la_err(a));
	return 0;
}

/* One of the .deb's tar members, as an archive of its own. */
static int read_deb_tar(struct pkg_ctx *c, struct archive *outer, bool control)
{
	struct archive *a = sym_archive_read_new();
	struct nested *n = xmalloc(sizeof(*n));
	int ret;

	n->outer = outer;
	enable_filters(a);
	sym_archive_read_support_filter_none(a);
	sym_archive_read_support_format_tar(a);
	if (sym_archive_read_open(a, n, NULL, nested_cb, NULL) != ARCHIVE_OK)
		ret = bad(c->j, EIO, "%s: %s", control ? "control" : "data", la_err(a));
	else if (control)
		ret = read_control_tar(c, a);
	else
		ret = read_entries(c, a, "/");
	sym_archive_read_free(a);
	free(n);
	c->cur = outer;
	return ret;
}

static bool tar_member(const char *name, const char *base)
{
	size_t n = strlen(base);

	return !strncmp(name, base, n) && (!name[n] || name[n] == '.');
}

static int read_deb(struct pkg_ctx *c, struct raw *raw)
{
	struct archive *a = sym_archive_read_new();
	struct archive_entry *e;
	bool version = false, control = false, data = false;
	int r, ret = 0;

	sym_archive_read_support_format_ar(a);
	if (sym_archive_read_open(a, raw, NULL, raw_cb, NULL) != ARCHIVE_OK) {
		ret = bad(c->j, EINVAL, "not a Debian package: %s", la_err(a));
		goto out;
	}
	while (!ret && ((r = sym_archive_read_next_header(a, &e)) == ARCHIVE_OK || r == ARCHIVE_WARN)) {
		const char *name = sym_archive_entry_pathname(e);

		if (!name)
			name = "";
		if (!version) {
			char v[8] = "";

			version = !strcmp(name, "debian-binary") &&
				  sym_archive_read_data(a, v, sizeof(v) - 1) >= 4 && !strncmp(v, "2.", 2);
			if (!version)
				ret = bad(c->j, EINVAL, "not a Debian package: no debian-binary 2.x first");
		} else if (tar_member(name, "control.tar") && !control && !data) {
			control = true;
			ret = read_deb_tar(c, a, true);
		} else if (tar_member(name, "data.tar") && control && !data) {
			data = true;
			ret = read_deb_tar(c, a, false);
		}
	}
	if (!ret && r != ARCHIVE_EOF)
		ret = bad(c->j, EIO, "%s", la_err(a));
	else if (!ret && (!control || !c->j->meta.name))
		ret = bad(c->j, EINVAL, "no control data (control.tar with a control file)");
	else if (!ret && !data)
		ret = bad(c->j, EINVAL, "no data.tar member");
out:
	sym_archive_read_free(a);
	return ret;
}

/* ---- .rpm ---- */

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Read ahead to @want bytes of the file in raw->pre; -1 if it ends first. */
static int pre_fill(struct raw *r, size_t want)
{
	if (want > r->precap) {
		r->precap = want < RAW_BUF ? RAW_BUF : want;
		r->pre = xrealloc(r->pre, r->precap);
	}
	while (r->npre < want) {
		ssize_t k = raw_read_fd(r, r->pre + r->npre, want - r->npre);

		if (k <= 0)
			return -1;
		r->npre += k;
	}
	return 0;
}

/*
 * The header at @off of the read-ahead (8 bytes of magic, then the blob
 * sym_headerImport() takes): its blob size in *@bsize. -1 if malformed.
 */
static int rpm_header_at(struct raw *r, size_t off, size_t *bsize)
{
	static const unsigned char magic[4] = { 0x8e, 0xad, 0xe8, 0x01 };
	uint32_t il, dl;

	if (pre_fill(r, off + 16) || memcmp(r->pre + off, magic, 4))
		return -1;
	il = be32(r->pre + off + 8);
	dl = be32(r->pre + off + 12);
	/* librpm's own bounds (hdrchkTags, hdrchkData). */
	if (il > 0xffff || dl > 0x0fffffff)
		return -1;
	*bsize = 8 + 16 * (size_t)il + dl;
	if (off + 8 + *bsize > RPM_HEAD_MAX || pre_fill(r, off + 8 + *bsize))
		return -1;
	return 0;
}

static const char *hstr(Header h, rpmTagVal tag)
{
	return sym_headerGetString(h, tag);
}

static const struct {
	rpmTagVal tag;
	const char *name;
} scriptlets[] = {
	{ RPMTAG_PRETRANS, "%pretrans" }, { RPMTAG_PREIN, "%pre" },
	{ RPMTAG_POSTIN, "%post" }, { RPMTAG_PREUN, "%preun" },
	{ RPMTAG_POSTUN, "%postun" }, { RPMTAG_POSTTRANS, "%posttrans" },
	{ RPMTAG_VERIFYSCRIPT, "%verifyscript" },
};

/* Search the scriptlet @text, named @file ("%post"). */
static void read_scriptlet(struct pkg_ctx *c, const char *file, const char *text)
{
	read_text(c, file, text, strlen(text));
}

/* The header's metadata and scriptlets. */
static void rpm_meta(struct pkg_ctx *c, Header h)
{
	struct scan_arena *s = &c->rd->strs;
	char *evr = sym_headerGetAsString(h, RPMTAG_EVR), *src;
	struct rpmtd_s td;
	size_t i;

	c->j->meta.name = scan_arena_strdup0(s, hstr(h, RPMTAG_NAME));
	c->j->meta.version = scan_arena_strdup0(s, evr);
	c->j->meta.arch = scan_arena_strdup0(s, hstr(h, RPMTAG_ARCH));
	c->j->meta.maintainer = scan_arena_strdup0(s, hstr(h, RPMTAG_PACKAGER));
	src = pkg_source_of_srpm(hstr(h, RPMTAG_SOURCERPM));
	c->j->meta.source = src ? scan_arena_strdup(s, src) : c->j->meta.name;
	free(src);
	free(evr);
	for (i = 0; i < sizeof(scriptlets) / sizeof(scriptlets[0]); i++) {
		const char *t = hstr(h, scriptlets[i].tag);

		if (t)
			read_scriptlet(c, scriptlets[i].name, t);
	}
	if (sym_headerGet(h, RPMTAG_TRIGGERSCRIPTS, &td, HEADERGET_MINMEM)) {
		const char *t;
		char name[32];

		for (i = 0; (t = sym_rpmtdNextString(&td)); i++) {
			snprintf(name, sizeof(name), "%%trigger-%zu", i);
			read_scriptlet(c, name, t);
		}
		sym_rpmtdFreeData(&td);
	}
}

/* The lead and two headers, read ahead: the metadata; -1 (said) if malformed. */
static int rpm_headers(struct pkg_ctx *c, struct raw *raw)
{
	static const unsigned char lead[4] = { 0xed, 0xab, 0xee, 0xdb };
	size_t sig, off;
	Header h;
	void *blob;

	if (pre_fill(raw, RPM_LEAD) || memcmp(raw->pre, lead, 4))
		return bad(c->j, EINVAL, "not an rpm package: no lead");
	if (rpm_header_at(raw, RPM_LEAD, &sig))
		return bad(c->j, EINVAL, "malformed rpm signature header");
	off = RPM_LEAD + 8 + sig;
	off = (off + 7) & ~(size_t)7;		/* the signature is padded to 8 */
	if (rpm_header_at(raw, off, &sig))
		return bad(c->j, EINVAL, "malformed rpm header");
	blob = raw->pre + off + 8;
	h = sym_headerImport(blob, sig, HEADERIMPORT_COPY);
	if (!h)
		return bad(c->j, EINVAL, "malformed rpm header (librpm refused it)");
	rpm_meta(c, h);
	sym_headerFree(h);
	if (!c->j->meta.name || !c->j->meta.version)
		return bad(c->j, EINVAL, "rpm header has no name or version");
	return 0;
}

static int read_rpm(struct pkg_ctx *c, struct raw *raw)
{
	struct archive *a;
	int ret;

	if (rpm_headers(c, raw))
		return -1;
	a = sym_archive_read_new();
	sym_archive_read_support_filter_rpm(a);
	enable_filters(a);
	sym_archive_read_support_format_cpio(a);
	if (sym_archive_read_open(a, raw, NULL, raw_cb, NULL) != ARCHIVE_OK)
		ret = bad(c->j, EINVAL, "rpm payload: %s", la_err(a));
	else
		ret = read_entries(c, a, "/");
	sym_archive_read_free(a);
	return ret;
}

/* ---- one package ---- */

static bool has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), k = strlen(suf);

	return n > k && !strcmp(s + n - k, suf);
}

bool pkg_file_name(const char *name)
{
	return has_suffix(name, ".deb") || has_suffix(name, ".udeb") || has_suffix(name, ".rpm");
}

/*
 * Drop what reading a package that failed added to the lists, and its
 * strings: a scan of many hostile packages keeps none of theirs.
 */
static void roll_back(struct pkg_ctx *c)
{
	c->rd->nhits = c->hits0;
	c->rd->nunread = c->unread0;
	c->names->n = c->names0;
	memset(&c->j->meta, 0, sizeof(c->j->meta));
	scan_arena_release(&c->rd->strs, &c->strs0);
}

int pkg_read(struct pkg_job *j, struct scan_reader *rd, struct pkg_members *names)
{
	struct pkg_ctx c = {
		.j = j, .rd = rd, .names = names, .opts = rd->opts,
		.names0 = names->n, .hits0 = rd->nhits, .unread0 = rd->nunread,
	};
	struct raw *raw = xcalloc(1, sizeof(*raw));
	struct stat st;
	int ret;

	scan_arena_mark(&rd->strs, &c.strs0);
	/* O_NONBLOCK: a FIFO named x.deb must not stop the scan. */
	raw->fd = open(j->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | (j->found ? O_NOFOLLOW : 0));
	if (raw->fd < 0) {
		ret = bad(j, errno, "%s", root_strerror(errno));
	} else if (fstat(raw->fd, &st) || !S_ISREG(st.st_mode)) {
		ret = bad(j, ENXIO, "not a regular file");
	} else {
		sha256_init(&raw->sha);
		ret = has_suffix(j->path, ".rpm") ? read_rpm(&c, raw) : read_deb(&c, raw);
		if (!ret && raw_finish(raw, j->sha256))
			ret = bad(j, errno, "%s", strerror(errno));
	}
	if (raw->fd >= 0)
		close(raw->fd);
	free(raw->pre);
	free(raw);
	tdestroy(c.tree, name_free);
	if (ret)
		roll_back(&c);
	return ret;
}
