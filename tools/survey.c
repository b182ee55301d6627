// SPDX-License-Identifier: GPL-2.0
/*
 * abidep survey: the census of sysfs attribute values that Neil Brown's
 * "A critical look at sysfs attribute values" (LWN, 2010) took with
 *	find /sys -mount -type f | xargs wc -w
 * done on a live system, reading and never writing: how many files are
 * empty, hold one word or several, which shapes the multi-word ones take,
 * the distinct attributes behind them, and the candidates for migration.
 *
 *	abidep survey [-j|-p] [--timeout-ms MS] [--top N] [--save DIR] [DIR]
 *
 * Walk (as find -mount -type f): regular files on DIR's file system only,
 * symlinks never followed, debugfs and tracefs never entered. Reads: see
 * survey_read.c; classes and names: survey_class.c.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "main.h"
#include "json.h"
#include "safedir.h"
#include "survey_class.h"
#include "survey_read.h"
#include "text.h"
#include "util.h"

#define PAGE_BYTES 4096		/* sysfs' limit for a text attribute */
#define DEBUGFS_MAGIC 0x64626720
#define TRACEFS_MAGIC 0x74726163
#define MAX_DEPTH 256
#define DEFAULT_TIMEOUT_MS 1000
#define EXAMPLE_CHARS 60

struct rec {
	char *path;
	char *group;		/* attr_group_name() of the base name */
	const char *base;	/* in path */
	const char *kind;	/* unit records: "time" or "size" */
	char *value;		/* printable start of the value */
	enum vclass cls;
	size_t words;
};

struct errcount {
	int err;
	unsigned long n;
};

struct survey {
	const char *root;
	dev_t dev;
	struct reader *rd;
	char *buf;
	/* census */
	unsigned long files, empty, one, multi, write_only, timeouts;
	unsigned long unr_perm, unr_open, unr_read, larger, two_words;
	size_t max_words;
	char *max_path, *timeout_path;
	unsigned long classes[VC_COUNT];
	struct errcount *errs;
	int nerrs, ecap;
	/* not surveyed */
	unsigned long other_fs, special_fs, symlinks, special, dir_errors,
		      loops, vanished, too_deep;
	/* multi-word files and unit candidates */
	struct rec *mrecs, *urecs;
	int nmulti, mcap, nunit, ucap;
	/* ancestors' inodes, against bind-mount loops */
	ino_t stack[MAX_DEPTH + 1];
	/* --save */
	const char *save;
	char *save_real;	/* its path, as safe_dir_open() walked it */
	mode_t save_mode;	/* of the directories made: 0755 less the umask */
	char *save_dir;		/* the last directory made under save */
	int save_dirfd;		/* open, O_PATH */
	unsigned long save_errors;
	/* euid's groups, for the permission check */
	uid_t euid;
	gid_t *groups;
	int ngroups;
};

void survey_usage(FILE *f)
{
	fprintf(f,
		"Usage: abidep survey [-j|-p] [--timeout-ms MS] [--top N] [--save DIR] [DIR]\n"
		"\n"
		"A census of sysfs attribute values, as LWN's 2010 review of them took it\n"
		"with 'find /sys -mount -type f | xargs wc -w': files that are empty, hold\n"
		"one word or several; multi-word values by shape (enum, list, kv, table,\n"
		"hexdump, text, binary, other) and grouped by base name into distinct\n"
		"attributes; candidates for migration (several values in one file; a time\n"
		"or a size whose unit is not in the name). DIR defaults to /sys.\n"
		"\n"
		"Files are only read, never written: opened O_RDONLY|O_NONBLOCK, at most one\n"
		"page (%d bytes) each. Files without a read bit (write-only) are counted,\n"
		"not opened. Stays on DIR's file system (like find -mount), follows no\n"
		"symlink, never enters debugfs or tracefs.\n"
		"\n"
		"  --timeout-ms MS  bound on each file's open and read (default %d, at\n"
		"                   most 600000); a file past it counts as timed out\n"
		"  --top N          list the N largest groups (default 20, all with -j;\n"
		"                   0: all)\n"
		"  --save DIR       copy each value read into DIR (new or empty, outside\n"
		"                   the surveyed tree), to check the counts with wc\n"
		"  -j, --json       JSON; -p, --pretty: pretty-printed\n"
		"  -h, --help       this help\n"
		"\n",
		PAGE_BYTES, DEFAULT_TIMEOUT_MS);
	abidep_exit_help(f, "0 the census was taken (unreadable files are counted, not errors)",
			 EXB(EXIT_USAGE));
}

/* ---- helpers ---- */

/* Printable ASCII only (JSON- and terminal-safe), newlines as " | ". */
static char *printable(const char *s, size_t len, size_t max)
{
	char *out = xmalloc(max * 3 + 4);
	size_t i, o = 0;

	while (len && (s[len - 1] == '\n' || s[len - 1] == ' '))
		len--;
	for (i = 0; i < len && o < max; i++) {
		unsigned char c = s[i];

		if (c == '\t') {
			out[o++] = ' ';
		} else if (c == '\n') {
			memcpy(out + o, " | ", 3);
			o += 3;
		} else {
			out[o++] = (c >= 0x20 && c < 0x7f) ? c : '?';
		}
	}
	if (i < len) {
		memcpy(out + o, "...", 3);
		o += 3;
	}
	out[o] = '\0';
	return out;
}

static void count_err(struct survey *s, int err)
{
	struct errcount *e;
	int i;

	for (i = 0; i < s->nerrs; i++)
		if (s->errs[i].err == err) {
			s->errs[i].n++;
			return;
		}
	e = GROW(s->errs, s->nerrs, s->ecap);
	e->err = err;
	e->n = 1;
}

static const char *errname(int err)
{
	const char *n = strerrorname_np(err);

	return n ? n : "unknown";
}

/* What the mode bits let this process read: as the kernel checks them,
 * root reading anything with a read bit (kernfs refuses a read open of a
 * file without one, even to root). */
static bool may_read(const struct survey *s, const struct stat *st)
{
	int i;

	if (!s->euid)
		return true;
	if (st->st_uid == s->euid)
		return st->st_mode & S_IRUSR;
	if (st->st_gid == getegid())
		return st->st_mode & S_IRGRP;
	for (i = 0; i < s->ngroups; i++)
		if (st->st_gid == s->groups[i])
			return st->st_mode & S_IRGRP;
	return st->st_mode & S_IROTH;
}

static void keep_min(char **slot, const char *path)
{
	if (!*slot || strcmp(path, *slot) < 0) {
		free(*slot);
		*slot = xstrdup(path);
	}
}

/*
 * The directory @dir (under --save's, absolute) made, as safedir.h's rule
 * has it: no symlink another user could have placed followed on the way,
 * even if --save's directory is another's. Kept open for the next value:
 * the walk goes a directory at a time.
 */
static int save_dir(struct survey *s, const char *dir, const char *file)
{
	char err[PATH_MAX + 512];

	if (s->save_dir && !strcmp(s->save_dir, dir))
		return s->save_dirfd;
	if (s->save_dirfd >= 0)
		close(s->save_dirfd);
	free(s->save_dir);
	s->save_dir = NULL;
	s->save_dirfd = safe_dir_open(dir, file, SAFE_MKDIR, s->save_mode, NULL, err, sizeof(err));
	if (s->save_dirfd < 0) {
		fprintf(stderr, "abidep: --save: %s\n", err);
		return -1;
	}
	s->save_dir = xstrdup(dir);
	return s->save_dirfd;
}

/* The value read, under --save DIR at the file's path below the root. */
static void save_value(struct survey *s, const char *rel, const char *buf, size_t len)
{
	char *file = path_join(s->save_real, rel);
	char *slash = strrchr(file, '/');
	int dirfd, fd;

	*slash = '\0';
	dirfd = save_dir(s, file, rel);
	*slash = '/';
	if (dirfd < 0) {
		s->save_errors++;
		free(file);
		return;
	}
	fd = openat(dirfd, slash + 1, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, buf, len) != (ssize_t)len) {
		fprintf(stderr, "abidep: --save: cannot write %s: %s\n", file, strerror(errno));
		s->save_errors++;
	}
	if (fd >= 0)
		close(fd);
	free(file);
}

/* ---- the walk ---- */

/* A one-word value with a unit in its name (unitless_kind()): a candidate. */
static void add_unit_rec(struct survey *s, const char *name, const char *path,
			 size_t len, const char *kind)
{
	struct rec *r = GROW(s->urecs, s->nunit, s->ucap);

	memset(r, 0, sizeof(*r));	/* GROW does not zero */
	r->cls = VC_OTHER;
	r->words = 1;
	r->path = xstrdup(path);
	r->base = strrchr(r->path, '/') + 1;
	r->group = attr_group_name(name);
	r->kind = kind;
	r->value = printable(s->buf, len, 24);
}

/* A value of several words, classified. */
static void add_multi_rec(struct survey *s, const char *name, const char *path,
			  size_t len, size_t words)
{
	struct rec *r = GROW(s->mrecs, s->nmulti, s->mcap);

	memset(r, 0, sizeof(*r));
	s->multi++;
	s->two_words += words == 2;
	r->path = xstrdup(path);
	r->base = strrchr(r->path, '/') + 1;
	r->group = attr_group_name(name);
	r->cls = classify(s->buf, len);
	r->words = words;
	r->value = printable(s->buf, len, EXAMPLE_CHARS);
	s->classes[r->cls]++;
}

/* The value read (s->buf, @len bytes) counted by its words. */
static void survey_value(struct survey *s, const char *name, const char *path, size_t len)
{
	size_t words = count_words(s->buf, len);

	if (words > s->max_words || (words == s->max_words && words &&
				      strcmp(path, s->max_path) < 0)) {
		s->max_words = words;
		free(s->max_path);
		s->max_path = xstrdup(path);
	}
	if (!words) {
		s->empty++;
	} else if (words == 1) {
		const char *kind = unitless_kind(name, s->buf, len);

		s->one++;
		if (kind)
			add_unit_rec(s, name, path, len, kind);
	} else {
		add_multi_rec(s, name, path, len, words);
	}
}

static void survey_file(struct survey *s, int dfd, const char *name,
			const char *path, const struct stat *st)
{
	enum read_status rs;
	size_t len;
	int err;

	s->files++;
	/* As find | wc would see them fail: counted from the mode, not opened. */
	if (!(st->st_mode & 0444)) {
		s->write_only++;
		return;
	}
	if (!may_read(s, st)) {
		s->unr_perm++;
		return;
	}
	rs = reader_read(s->rd, dfd, name, s->buf, PAGE_BYTES + 1, &len, &err);
	switch (rs) {
	case RD_TIMEOUT:
		s->timeouts++;
		keep_min(&s->timeout_path, path);
		return;
	case RD_OPEN_ERR:
		s->unr_open++;
		count_err(s, err);
		return;
	case RD_READ_ERR:
		s->unr_read++;
		count_err(s, err);
		return;
	case RD_OK:
		break;
	}
	/* One more byte than a page was asked for, to know. */
	if (len > PAGE_BYTES) {
		s->larger++;
		len = PAGE_BYTES;
	}
	if (s->save)
		save_value(s, path + strlen(s->root), s->buf, len);
	survey_value(s, name, path, len);
}

static bool is_special_fs(int fd)
{
	struct statfs sf;

	return !fstatfs(fd, &sf) && (sf.f_type == DEBUGFS_MAGIC ||
				     sf.f_type == TRACEFS_MAGIC);
}

static void walk(struct survey *s, int dfd, char **path, size_t *pcap, int depth);

/*
 * Walk directory @name (inode @ino, named @path) of @dfd, at @depth + 1:
 * not when it is one of its ancestors again, or debugfs or tracefs.
 */
static void walk_subdir(struct survey *s, int dfd, const char *name, ino_t ino,
			char **path, size_t *pcap, int depth)
{
	int i, cfd;

	for (i = 0; i <= depth; i++) {
		if (s->stack[i] == ino) {
			s->loops++;	/* a bind mount of an ancestor */
			return;
		}
	}
	cfd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (cfd < 0) {
		s->dir_errors++;
	} else if (is_special_fs(cfd)) {
		s->special_fs++;
		close(cfd);
	} else {
		s->stack[depth + 1] = ino;
		walk(s, cfd, path, pcap, depth + 1);
	}
}

/* @path (with room to grow) names @dfd; consumes @dfd. */
static void walk(struct survey *s, int dfd, char **path, size_t *pcap, int depth)
{
	size_t plen = strlen(*path);
	struct dirent *de;
	DIR *d = fdopendir(dfd);

	if (!d) {
		s->dir_errors++;
		close(dfd);
		return;
	}
	while ((errno = 0, de = readdir(d))) {
		const char *name = de->d_name;
		size_t need = plen + strlen(name) + 2;
		struct stat st;

		if (!strcmp(name, ".") || !strcmp(name, ".."))
			continue;
		if (need > *pcap) {
			*pcap = need * 2;
			*path = xrealloc(*path, *pcap);
		}
		sprintf(*path + plen, "%s%s", plen && (*path)[plen - 1] == '/' ? "" : "/", name);
		if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW)) {
			s->vanished++;	/* gone since readdir: a device went away */
			continue;
		}
		if (S_ISLNK(st.st_mode)) {
			s->symlinks++;
		} else if (S_ISREG(st.st_mode)) {
			survey_file(s, dfd, name, *path, &st);
		} else if (!S_ISDIR(st.st_mode)) {
			s->special++;
		} else if (st.st_dev != s->dev) {
			s->other_fs++;	/* find -mount */
		} else if (depth >= MAX_DEPTH) {
			s->too_deep++;
		} else {
			walk_subdir(s, dfd, name, st.st_ino, path, pcap, depth);
		}
		(*path)[plen] = '\0';
	}
	if (errno)
		s->dir_errors++;	/* the rest of this directory is unseen */
	closedir(d);
}

/* ---- the report ---- */

static int cmp_rec(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;
	int c = strcmp(x->group, y->group);

	return c ? c : strcmp(x->path, y->path);
}

static int cmp_base(const void *a, const void *b)
{
	const struct rec *const *x = a, *const *y = b;

	return strcmp((*x)->base, (*y)->base);
}

struct group {
	const struct rec *first;	/* smallest path: the example */
	int n;
	unsigned long classes[VC_COUNT];
	unsigned long multi_value;
	enum vclass cls;		/* the most common */
	size_t max_words;
};

static int cmp_group(const void *a, const void *b)
{
	const struct group *x = a, *y = b;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return strcmp(x->first->group, y->first->group);
}

/* Sort @recs by group and path; fill @out with one group each, largest first. */
static int make_groups(struct rec *recs, int n, struct group **out)
{
	struct group *g = NULL;
	int i, ng = 0, cap = 0;

	if (n)
		qsort(recs, n, sizeof(*recs), cmp_rec);
	for (i = 0; i < n; i++) {
		struct group *cur;
		int c;

		if (!i || strcmp(recs[i].group, recs[i - 1].group)) {
			cur = GROW(g, ng, cap);
			memset(cur, 0, sizeof(*cur));
			cur->first = &recs[i];
		}
		cur = &g[ng - 1];
		cur->n++;
		cur->classes[recs[i].cls]++;
		cur->multi_value += vclass_multi_value(recs[i].cls);
		if (recs[i].words > cur->max_words)
			cur->max_words = recs[i].words;
		for (c = 0; c < VC_COUNT; c++)
			if (cur->classes[c] > cur->classes[cur->cls])
				cur->cls = c;
	}
	if (ng)
		qsort(g, ng, sizeof(*g), cmp_group);
	*out = g;
	return ng;
}

static int distinct_bases(struct rec *recs, int n)
{
	const struct rec **p = xmalloc((n + 1) * sizeof(*p));
	int i, d = 0;

	for (i = 0; i < n; i++)
		p[i] = &recs[i];
	if (n)
		qsort(p, n, sizeof(*p), cmp_base);
	for (i = 0; i < n; i++)
		d += !i || strcmp(p[i]->base, p[i - 1]->base);
	free(p);
	return d;
}

struct totals {
	struct group *groups, *ugroups;
	int ngroups, nugroups, bases, mv_groups;
	unsigned long mv_files;
};

static unsigned long unreadable(const struct survey *s)
{
	return s->unr_perm + s->unr_open + s->unr_read;
}

/* How many of @n groups are shown: the @top largest (0: all). */
static int shown(int top, int n)
{
	return top && top < n ? top : n;
}

static double pct(unsigned long n, unsigned long of)
{
	return of ? 100.0 * n / of : 0;
}

/*
 * Paths and values are the surveyed tree's, anyone's: each is cleaned
 * (text_clean()) before it is printed. A ring of the last few: a line
 * prints at most four.
 */
static const char *clean(const char *str)
{
	static char *ring[8];
	static unsigned int next;
	char **slot = &ring[next++ % 8];

	free(*slot);
	*slot = text_clean(str);
	return *slot;
}

/* How many files were read, and how they read. */
static void print_text_files(const struct survey *s, unsigned int timeout_ms)
{
	int i;

	printf("Survey of %s (read only, at most %d bytes and %u ms a file)\n\n",
	       clean(s->root), PAGE_BYTES, timeout_ms);
	printf("files         %8lu\n", s->files);
	printf("  empty       %8lu  %5.1f%%\n", s->empty, pct(s->empty, s->files));
	printf("  one word    %8lu  %5.1f%%\n", s->one, pct(s->one, s->files));
	printf("  multi-word  %8lu  %5.1f%%\n", s->multi, pct(s->multi, s->files));
	printf("  unreadable  %8lu  %5.1f%%  (permission %lu, open %lu, read %lu)\n",
	       unreadable(s), pct(unreadable(s), s->files), s->unr_perm, s->unr_open,
	       s->unr_read);
	printf("  write-only  %8lu  %5.1f%%\n", s->write_only, pct(s->write_only, s->files));
	printf("  timed out   %8lu  %5.1f%%", s->timeouts, pct(s->timeouts, s->files));
	if (s->timeout_path)
		printf("  (%s%s)", clean(s->timeout_path), s->timeouts > 1 ? ", ..." : "");
	printf("\n");
	if (s->nerrs) {
		printf("errors:");
		for (i = 0; i < s->nerrs; i++)
			printf(" %s %lu", errname(s->errs[i].err), s->errs[i].n);
		printf("\n");
	}
	printf("as find | xargs wc -w counts (read errors as empty, no line for\n"
	       "  files that do not open): %lu files, %lu empty, %lu one word, %lu multi-word\n",
	       s->empty + s->one + s->multi + s->unr_read, s->empty + s->unr_read,
	       s->one, s->multi);
	if (s->larger)
		printf("larger than a page (first page counted): %lu\n", s->larger);
}

/* What the walk passed over. */
static void print_text_not_surveyed(const struct survey *s)
{
	printf("not surveyed: %lu directories on other file systems, %lu symlinks, "
	       "%lu other files (devices, fifos, sockets)",
	       s->other_fs, s->symlinks, s->special);
	if (s->special_fs)
		printf(", %lu debugfs/tracefs", s->special_fs);
	if (s->dir_errors)
		printf(", %lu unreadable directories", s->dir_errors);
	if (s->vanished)
		printf(", %lu vanished", s->vanished);
	if (s->loops + s->too_deep)
		printf(", %lu loops or too deep", s->loops + s->too_deep);
	printf("\n");
}

/* The multi-word values: their classes, and the @top largest attributes. */
static void print_text_groups(const struct survey *s, const struct totals *t, int top)
{
	int i, c, n = shown(top, t->ngroups);

	printf("\nmulti-word: %lu of two words; the most, %zu words: %s\n",
	       s->two_words, s->max_words, clean(s->max_path));
	printf("  ");
	for (c = 0; c < VC_COUNT; c++)
		printf("%s %s %lu", c ? "," : "", vclass_names[c], s->classes[c]);
	printf("\n  %d base names, %d distinct attributes (digits in names as N)\n",
	       t->bases, t->ngroups);

	printf("\ndistinct multi-word attributes (%d of %d, most files first):\n",
	       n, t->ngroups);
	printf("  %6s  %-7s  %5s  %-24s  %s\n", "files", "class", "words", "name",
	       "example");
	for (i = 0; i < n; i++) {
		const struct group *g = &t->groups[i];

		printf("  %6d  %-7s  %5zu  %-24s  %s\n", g->n, vclass_names[g->cls],
		       g->max_words, clean(g->first->group), clean(g->first->path));
		printf("  %6s  %-7s  %5s  %-24s    %s\n", "", "", "", "", clean(g->first->value));
	}
}

/* The candidates for migration: multi-value attributes, and values with units. */
static void print_text_candidates(const struct survey *s, const struct totals *t, int top)
{
	int i, n = shown(top, t->nugroups);

	printf("\nmigration candidates:\n");
	printf("  several values in one file (enum, list, kv, table, hexdump, other):\n"
	       "    %lu files, %d attributes\n", t->mv_files, t->mv_groups);
	printf("  a time or a size without its unit in the name: %d files, %d attributes\n",
	       s->nunit, t->nugroups);
	for (i = 0; i < n; i++) {
		const struct group *g = &t->ugroups[i];

		printf("  %6d  %-4s  %-28s  %s = %s\n", g->n, g->first->kind,
		       clean(g->first->group), clean(g->first->path), clean(g->first->value));
	}
}

static void print_text(const struct survey *s, const struct totals *t, int top,
		       unsigned int timeout_ms)
{
	print_text_files(s, timeout_ms);
	print_text_not_surveyed(s);
	if (!s->multi)
		return;
	print_text_groups(s, t, top);
	print_text_candidates(s, t, top);
}

static void json_classes(struct json *j, const char *key, const unsigned long *classes)
{
	int c;

	json_key(j, key);
	json_obj_start(j);
	for (c = 0; c < VC_COUNT; c++)
		json_kint(j, vclass_names[c], classes[c]);
	json_obj_end(j);
}

/* Why files were not read, and what find | xargs wc -w would have shown. */
static void json_unread(struct json *j, const struct survey *s)
{
	int i;

	json_key(j, "unreadable_by");
	json_obj_start(j);
	json_kint(j, "permission", s->unr_perm);
	json_kint(j, "open", s->unr_open);
	json_kint(j, "read", s->unr_read);
	json_obj_end(j);
	json_key(j, "errors");
	json_obj_start(j);
	for (i = 0; i < s->nerrs; i++)
		json_kint(j, errname(s->errs[i].err), s->errs[i].n);
	json_obj_end(j);
	/* What find | xargs wc -w shows: a line for every file opened, 0 words
	 * for one whose read failed, no line for one that did not open. */
	json_key(j, "wc_method");
	json_obj_start(j);
	json_kint(j, "files", s->empty + s->one + s->multi + s->unr_read);
	json_kint(j, "empty", s->empty + s->unr_read);
	json_kint(j, "one_word", s->one);
	json_kint(j, "multi_word", s->multi);
	json_obj_end(j);
}

static void json_not_surveyed(struct json *j, const struct survey *s)
{
	json_key(j, "not_surveyed");
	json_obj_start(j);
	json_kint(j, "other_fs_dirs", s->other_fs);
	json_kint(j, "debugfs_tracefs", s->special_fs);
	json_kint(j, "symlinks", s->symlinks);
	json_kint(j, "special_files", s->special);
	json_kint(j, "dir_errors", s->dir_errors);
	json_kint(j, "vanished", s->vanished);
	json_kint(j, "loops", s->loops);
	json_kint(j, "too_deep", s->too_deep);
	json_obj_end(j);
}

/* A group: a multi-word attribute, or (@unit) a value without its unit. */
static void json_group(struct json *j, const struct group *g, bool unit)
{
	json_obj_start(j);
	json_kstr(j, "name", g->first->group);
	if (unit)
		json_kstr(j, "kind", g->first->kind);
	json_kint(j, "files", g->n);
	if (!unit) {
		json_kstr(j, "class", vclass_names[g->cls]);
		json_classes(j, "classes", g->classes);
		json_kint(j, "multi_value", g->multi_value);
		json_kint(j, "max_words", g->max_words);
	}
	json_kstr(j, "example", g->first->path);
	json_kstr(j, "value", g->first->value);
	json_obj_end(j);
}

/* The @top largest (0: all) of the @n groups @g, as @key's array. */
static void json_group_array(struct json *j, const char *key, const struct group *g,
			     int n, int top, bool unit)
{
	int i, m = shown(top, n);

	json_key(j, key);
	json_arr_start(j);
	for (i = 0; i < m; i++)
		json_group(j, &g[i], unit);
	json_arr_end(j);
}

/* The candidates for migration: multi-value attributes, and values with units. */
static void json_candidates(struct json *j, const struct survey *s, const struct totals *t,
			    int top)
{
	json_key(j, "candidates");
	json_obj_start(j);
	json_kint(j, "multi_value_files", t->mv_files);
	json_kint(j, "multi_value_attributes", t->mv_groups);
	json_kint(j, "unit_files", s->nunit);
	json_kint(j, "unit_attributes", t->nugroups);
	json_group_array(j, "unit", t->ugroups, t->nugroups, top, true);
	json_obj_end(j);
}

static void print_json(const struct survey *s, const struct totals *t, int top,
		       unsigned int timeout_ms)
{
	struct json j;

	json_init(&j, stdout, cfg.pretty);
	json_obj_start(&j);
	json_kstr(&j, "root", s->root);
	json_kint(&j, "timeout_ms", timeout_ms);
	json_kint(&j, "page_bytes", PAGE_BYTES);
	json_kint(&j, "files", s->files);
	json_kint(&j, "empty", s->empty);
	json_kint(&j, "one_word", s->one);
	json_kint(&j, "multi_word", s->multi);
	json_kint(&j, "unreadable", unreadable(s));
	json_kint(&j, "write_only", s->write_only);
	json_kint(&j, "timeouts", s->timeouts);
	json_kstr(&j, "timeout_example", s->timeout_path);
	json_unread(&j, s);
	json_kint(&j, "larger_than_page", s->larger);
	json_kint(&j, "abandoned_reads", reader_abandoned(s->rd));
	json_not_surveyed(&j, s);
	json_kint(&j, "two_words", s->two_words);
	json_kint(&j, "max_words", s->max_words);
	json_kstr(&j, "max_words_path", s->max_path);
	json_classes(&j, "classes", s->classes);
	json_kint(&j, "base_names", t->bases);
	json_kint(&j, "attributes", t->ngroups);
	json_group_array(&j, "groups", t->groups, t->ngroups, top, false);
	json_candidates(&j, s, t, top);
	json_obj_end(&j);
	json_end(&j);
}

static void free_recs(struct rec *r, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		free(r[i].path);
		free(r[i].group);
		free(r[i].value);
	}
	free(r);
}

/* ---- the command ---- */

/*
 * --save DIR: new or empty, and not inside the tree being surveyed; made,
 * and reached, as safedir.h's rule says.
 */
static int check_save(struct survey *s)
{
	char rroot[PATH_MAX], err[PATH_MAX + 512];
	struct dirent *de;
	size_t l;
	DIR *d;
	int fd;

	s->save_mode = safe_umasked(0755);
	fd = safe_dir_open(s->save, s->save, SAFE_MKDIR, s->save_mode, &s->save_real, err,
			   sizeof(err));
	if (fd < 0) {
		fprintf(stderr, "abidep: --save: %s\n", err);
		return -1;
	}
	d = fdopendir(openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
	close(fd);
	if (!d) {
		fprintf(stderr, "abidep: --save: cannot open %s: %s\n", s->save, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
			closedir(d);
			fprintf(stderr, "abidep: --save: %s is not empty; name a new or empty directory\n",
				s->save);
			return -1;
		}
	closedir(d);
	if (!realpath(s->root, rroot)) {
		fprintf(stderr, "abidep: --save: cannot resolve %s: %s\n", s->root, strerror(errno));
		return -1;
	}
	l = strlen(rroot);
	if (!strncmp(s->save_real, rroot, l) &&
	    (s->save_real[l] == '/' || !s->save_real[l] || l == 1)) {
		fprintf(stderr, "abidep: --save: %s is inside the surveyed %s; name a directory outside it\n",
			s->save, s->root);
		return -1;
	}
	return 0;
}

/* What the command line asks for, besides struct survey's --save and root. */
struct survey_args {
	unsigned long timeout_ms, top;
	bool help;		/* --help printed */
};

static int survey_args(int argc, char **argv, struct survey *s, struct survey_args *a)
{
	static const struct option lopts[] = {
		{ "timeout-ms", required_argument, NULL, 'T' },
		{ "top", required_argument, NULL, 'n' },
		{ "save", required_argument, NULL, 's' },
		{ 0 }
	};
	static const struct cmd_opts spec = { "", lopts, 0, 0, survey_usage };
	bool top_set = false;
	struct opts o;
	int c, ret = EXIT_OK;

	opts_start(&o, &spec);
	while (!ret && (c = opts_next(&o, argc, argv)) != -1) {
		switch (c) {
		case 'T':
			if (parse_uint(optarg, 1, 600000, &a->timeout_ms)) {
				fprintf(stderr, "abidep: --timeout-ms takes 1 to 600000 (milliseconds), not '%s'\n",
					optarg);
				ret = EXIT_USAGE;
			}
			break;
		case 'n':
			if (parse_uint(optarg, 0, INT_MAX, &a->top)) {
				fprintf(stderr, "abidep: --top takes a count (0: all), not '%s'\n", optarg);
				ret = EXIT_USAGE;
			}
			top_set = true;
			break;
		case 's': s->save = optarg; break;
		}
	}
	ret = opts_end(&o, ret);
	a->help = ret == EXIT_OK;
	if (ret >= 0)
		return ret;
	if (argc - optind > 1) {
		fprintf(stderr, "abidep: survey takes one DIR, not also '%s' (see abidep survey --help)\n",
			argv[optind + 1]);
		return EXIT_USAGE;
	}
	/* JSON is for programs: every group unless --top says otherwise. */
	if (cfg.json && !top_set)
		a->top = 0;
	s->root = optind < argc ? argv[optind] : "/sys";
	return EXIT_OK;
}

/* The directory to survey, opened: a directory, not on debugfs or tracefs. */
static int open_survey_root(struct survey *s)
{
	struct stat st;
	int fd = open(s->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0) {
		int e = errno;

		if (e == ENOTDIR)
			fprintf(stderr, "abidep: cannot survey %s: not a directory; name a directory such as /sys\n",
				s->root);
		else
			fprintf(stderr, "abidep: cannot survey %s: %s\n", s->root, strerror(e));
		return -1;
	}
	if (is_special_fs(fd)) {
		fprintf(stderr, "abidep: %s is on debugfs or tracefs, which survey never reads (reads there can have effects); name a sysfs directory\n",
			s->root);
		close(fd);
		return -1;
	}
	if (fstat(fd, &st)) {
		fprintf(stderr, "abidep: cannot survey %s: %s\n", s->root, strerror(errno));
		close(fd);
		return -1;
	}
	s->dev = st.st_dev;
	s->stack[0] = st.st_ino;
	return fd;
}

/* Who reads: the effective uid and groups, for the permission checks. */
static void survey_creds(struct survey *s)
{
	s->euid = geteuid();
	s->ngroups = getgroups(0, NULL);
	if (s->ngroups > 0) {
		s->groups = xmalloc(s->ngroups * sizeof(*s->groups));
		s->ngroups = getgroups(s->ngroups, s->groups);
	}
	if (s->ngroups < 0)
		s->ngroups = 0;
}

/* Walk the tree from @fd (taken), then group what was read into @t. */
static void survey_walk(struct survey *s, int fd, struct totals *t)
{
	size_t pcap = strlen(s->root) + 256;
	char *path = xmalloc(pcap);
	int i;

	s->buf = xmalloc(PAGE_BYTES + 1);
	strcpy(path, s->root);
	walk(s, fd, &path, &pcap, 0);
	free(path);

	t->ngroups = make_groups(s->mrecs, s->nmulti, &t->groups);
	t->bases = distinct_bases(s->mrecs, s->nmulti);
	for (i = 0; i < t->ngroups; i++) {
		t->mv_files += t->groups[i].multi_value;
		t->mv_groups += t->groups[i].multi_value > 0;
	}
	t->nugroups = make_groups(s->urecs, s->nunit, &t->ugroups);
}

static void survey_free(struct survey *s, struct totals *t)
{
	reader_free(s->rd);
	free(t->groups);
	free(t->ugroups);
	free_recs(s->mrecs, s->nmulti);
	free_recs(s->urecs, s->nunit);
	free(s->errs);
	free(s->groups);
	free(s->buf);
	free(s->max_path);
	free(s->timeout_path);
	free(s->save_dir);
	free(s->save_real);
	if (s->save_dirfd >= 0)
		close(s->save_dirfd);
}

int cmd_survey(int argc, char **argv)
{
	struct survey_args a = { .timeout_ms = DEFAULT_TIMEOUT_MS, .top = 20 };
	struct survey s = { 0 };
	struct totals t = { 0 };
	int fd, ret;

	ret = survey_args(argc, argv, &s, &a);
	if (ret || a.help)
		return ret;
	fd = open_survey_root(&s);
	if (fd < 0)
		return EXIT_USAGE;
	s.save_dirfd = -1;
	if (s.save && check_save(&s)) {
		close(fd);
		return EXIT_USAGE;
	}
	survey_creds(&s);
	s.rd = reader_new(a.timeout_ms);
	if (!s.rd) {
		fprintf(stderr, "abidep: cannot start a reading thread: %s\n", strerror(errno));
		close(fd);
		free(s.groups);
		return EXIT_USAGE;
	}
	survey_walk(&s, fd, &t);
	if (cfg.json)
		print_json(&s, &t, a.top, a.timeout_ms);
	else
		print_text(&s, &t, a.top, a.timeout_ms);
	survey_free(&s, &t);
	if (s.save_errors) {
		fprintf(stderr, "abidep: --save: %lu values not saved (see above)\n", s.save_errors);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}
