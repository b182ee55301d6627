// SPDX-License-Identifier: GPL-2.0
/*
 * Reading Documentation/ABI files and migration tables.
 *
 * The reading follows scripts/get_abi.pl: a line "Name: value" whose name is
 * a known field starts that field; "What:" starts an entry (consecutive What:
 * lines share one); inside Description, an unknown "Word:" is text; indented
 * lines continue the field above. Nothing in the input can make it fail:
 * problems become diagnostics with file and line.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "abi.h"
#include "util.h"

#define ABI_MAX_FILE (64 << 20)

/*
 * Under ASan, allocations from the arena keep a poisoned gap between them
 * and the free space stays poisoned, so overruns are still caught.
 */
#ifndef __has_feature
#define __has_feature(x) 0	/* gcc says __SANITIZE_ADDRESS__, clang this */
#endif
#if defined(__SANITIZE_ADDRESS__) || __has_feature(address_sanitizer)
#include <sanitizer/asan_interface.h>
#define ABI_REDZONE 16
#else
#define ABI_REDZONE 0
#define ASAN_POISON_MEMORY_REGION(p, n) ((void)(p), (void)(n))
#define ASAN_UNPOISON_MEMORY_REGION(p, n) ((void)(p), (void)(n))
#endif

/*
 * The arena: a malloc per string and per What array cost more than the
 * parsing of Documentation/ABI (allocator time, and a page fault for every
 * 4 KiB of chunk headers and rounding). Chunks are malloc'ed large, touched
 * only as far as they are used, and freed with the set.
 */
#define ABI_CHUNK (64 << 10)

struct abi_chunk {
	struct abi_chunk *next;
	size_t size;
	char data[];
};

static void *abi_alloc(struct abi_set *set, size_t n, size_t align)
{
	char *p = (char *)(((uintptr_t)set->apos + align - 1) & ~(uintptr_t)(align - 1));

	if (!set->apos || p > set->aend || (size_t)(set->aend - p) < n + ABI_REDZONE) {
		/* Large ones get room to grow in place (long descriptions). */
		size_t size = n + ABI_REDZONE > ABI_CHUNK / 4 ?
			      2 * (n + ABI_REDZONE) + 64 : ABI_CHUNK;
		struct abi_chunk *c = xmalloc(sizeof(*c) + size);

		c->next = set->chunks;
		c->size = size;
		set->chunks = c;
		set->aend = c->data + size;
		ASAN_POISON_MEMORY_REGION(c->data, size);
		p = c->data;
	}
	ASAN_UNPOISON_MEMORY_REGION(p, n);
	set->apos = p + n + ABI_REDZONE;
	set->alast = p;
	return p;
}

/*
 * @p (@old bytes, from the arena) resized to @n bytes: in place when it is
 * the last allocation and the chunk has room, which is the case for a field
 * whose continuation lines are being appended.
 */
static void *abi_regrow(struct abi_set *set, void *p, size_t old, size_t n)
{
	char *q;

	if (p && p == set->alast && (size_t)(set->aend - (char *)p) >= n + ABI_REDZONE) {
		ASAN_UNPOISON_MEMORY_REGION(p, n);
		set->apos = (char *)p + n + ABI_REDZONE;
		return p;
	}
	q = abi_alloc(set, n, 1);
	if (old)
		memcpy(q, p, old);
	return q;
}

static char *abi_strndup(struct abi_set *set, const char *s, size_t len)
{
	char *p = abi_alloc(set, len + 1, 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

/*
 * isspace() of the C locale abidep runs in, inline: through libc it was a
 * call per byte, a twentieth of parsing a kernel's tree.
 */
static inline bool abi_isspace(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

const char *const abi_field_names[ABI_NFIELDS] = {
	[ABI_WHAT] = "What",
	[ABI_DATE] = "Date",
	[ABI_KERNELVERSION] = "KernelVersion",
	[ABI_CONTACT] = "Contact",
	[ABI_DESCRIPTION] = "Description",
	[ABI_USERS] = "Users",
	[ABI_STATUS] = "Status",
	[ABI_DEPRECATED] = "Deprecated",
	[ABI_REMOVE_AFTER] = "Remove-after",
	[ABI_REMOVED] = "Removed",
	[ABI_REPLACED_BY] = "Replaced-by",
	[ABI_SOURCE] = "Source",
	[ABI_IGNORE] = "Ignore",
	[ABI_CONFIG] = "Config",
};

/* A copy of @s that lives as long as @set (for diagnostics' file names). */
static const char *abi_own(struct abi_set *set, const char *s)
{
	return abi_strndup(set, s, strlen(s));
}

void abi_set_init(struct abi_set *set)
{
	memset(set, 0, sizeof(*set));
}

void abi_set_free(struct abi_set *set)
{
	struct abi_chunk *c, *next;
	int i;

	/* The entries' and files' strings are in the arena. */
	free(set->entries);
	free(set->files);
	for (i = 0; i < set->ndiags; i++)
		free(set->diags[i].msg);
	free(set->diags);
	free(set->unparsed);
	free(set->whats);
	for (c = set->chunks; c; c = next) {
		next = c->next;
		ASAN_UNPOISON_MEMORY_REGION(c->data, c->size);
		free(c);
	}
	free(set->rbuf);
	memset(set, 0, sizeof(*set));
}

static void abi_diag_vadd(struct abi_set *set, const char *file, int line,
			  bool error, bool tolerable, const char *fmt, va_list ap)
{
	struct abi_diag *d;

	d = GROW(set->diags, set->ndiags, set->dcap);
	d->file = file;
	d->line = line;
	d->error = error;
	d->tolerable = tolerable;
	if (vasprintf(&d->msg, fmt, ap) < 0)
		die_oom();
	if (error)
		set->errors++;
	else
		set->warnings++;
}

void abi_diag_add(struct abi_set *set, const char *file, int line, bool error,
		  const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	abi_diag_vadd(set, file, line, error, false, fmt, ap);
	va_end(ap);
}

void abi_diag_tolerable(struct abi_set *set, const char *file, int line,
			const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	abi_diag_vadd(set, file, line, true, true, fmt, ap);
	va_end(ap);
}

/* The field named by the @len bytes at @name, or -1. */
static int abi_field_lookup(const char *name, size_t len)
{
	int i;

	if (!len)
		return -1;
	/* The first letter (ASCII, either case) rules out most names. */
	for (i = 0; i < ABI_NFIELDS; i++)
		if ((abi_field_names[i][0] | 0x20) == (name[0] | 0x20) &&
		    strlen(abi_field_names[i]) == len &&
		    !strncasecmp(name, abi_field_names[i], len))
			return i;
	return -1;
}

/*
 * Append @len bytes of @s to *@dst (holding *@used bytes, from the arena),
 * after a newline if it is not empty.
 */
static void abi_append(struct abi_set *set, char **dst, size_t *used,
		       const char *s, size_t len)
{
	*dst = abi_regrow(set, *dst, *dst ? *used + 1 : 0, *used + len + 2);
	if (*used)
		(*dst)[(*used)++] = '\n';
	memcpy(*dst + *used, s, len);
	*used += len;
	(*dst)[*used] = '\0';
}

/* @s without its leading and trailing white space, as (*@start, return). */
static size_t abi_trim_span(const char *s, size_t len, const char **start)
{
	while (len && abi_isspace((unsigned char)*s)) {
		s++;
		len--;
	}
	while (len && abi_isspace((unsigned char)s[len - 1]))
		len--;
	*start = s;
	return len;
}

/* A trimmed copy in the arena; its length in *@out_len if not NULL. */
static char *abi_trim(struct abi_set *set, const char *s, size_t len,
		      size_t *out_len)
{
	len = abi_trim_span(s, len, &s);
	if (out_len)
		*out_len = len;
	return abi_strndup(set, s, len);
}

/* Drop trailing blank lines (paragraph breaks before the next entry). */
static void abi_chomp(char *s)
{
	size_t len;

	if (!s)
		return;
	len = strlen(s);
	while (len && abi_isspace((unsigned char)s[len - 1]))
		s[--len] = '\0';
}

/*
 * Room for one more in an arena array of @n (arrays hold a power of two:
 * full at 0, 1, 2, 4, ...): the old one is left behind, at most as much
 * again as the final one.
 */
static void *abi_array_room(struct abi_set *set, void *arr, int n, size_t size)
{
	void *p;

	if (n & (n - 1))
		return arr;
	p = abi_alloc(set, (n ? 2 * (size_t)n : 1) * size, sizeof(void *));
	if (n)
		memcpy(p, arr, n * size);
	return p;
}

static void abi_add_what(struct abi_set *set, struct abi_entry *e, char *what,
			 int line)
{
	e->what = abi_array_room(set, e->what, e->nwhat, sizeof(*e->what));
	e->what_line = abi_array_room(set, e->what_line, e->nwhat,
				      sizeof(*e->what_line));
	e->what[e->nwhat] = what;
	e->what_line[e->nwhat] = line;
	e->nwhat++;
}

/* Split Replaced-by into paths; "none" means none. */
static void abi_split_replaced(struct abi_set *set, struct abi_entry *e)
{
	const char *p = e->field[ABI_REPLACED_BY];

	while (p && *p) {
		size_t len = strcspn(p, "\n");
		const char *start;
		size_t tlen = abi_trim_span(p, len, &start);

		if (tlen && !(tlen == 4 && !strncasecmp(start, "none", 4))) {
			e->replaced_by = abi_array_room(set, e->replaced_by,
							e->nreplaced,
							sizeof(*e->replaced_by));
			e->replaced_by[e->nreplaced++] = abi_strndup(set, start, tlen);
		}
		p += len;
		if (*p)
			p++;
	}
}

/*
 * One "EXE REASON" line (an Ignore: field's, or the enumerators file's)
 * onto *@list: the first word and the rest, trimmed. abi_check() judges
 * them; a blank line is none.
 */
static void abi_add_ignore(struct abi_set *set, struct abi_ignore **list, int *n,
			   const char *file, int line, const char *s, size_t len)
{
	struct abi_ignore *ig;
	const char *start, *rest;
	size_t wlen = 0;

	len = abi_trim_span(s, len, &start);
	if (!len)
		return;
	while (wlen < len && !abi_isspace((unsigned char)start[wlen]))
		wlen++;
	*list = abi_array_room(set, *list, *n, sizeof(**list));
	ig = &(*list)[(*n)++];
	ig->exe = abi_strndup(set, start, wlen);
	len = abi_trim_span(start + wlen, len - wlen, &rest);
	ig->reason = abi_strndup(set, rest, len);
	ig->file = file;
	ig->line = line;
}

static void abi_entry_done(struct abi_set *set, struct abi_entry *e)
{
	if (!e)
		return;
	abi_chomp(e->field[ABI_DESCRIPTION]);
	abi_chomp(e->field[ABI_USERS]);
	abi_split_replaced(set, e);
}

struct abi_parser {
	struct abi_set *set;
	const char *path;
	int file_idx;
	int entry;		/* index in set->entries, or -1 */
	int field;		/* current field, or -1 */
	int line;
	size_t used;		/* length of the current field's text (or the intro) */
};

static struct abi_entry *abi_cur(struct abi_parser *p)
{
	return p->entry < 0 ? NULL : &p->set->entries[p->entry];
}

static void abi_new_entry(struct abi_parser *p)
{
	struct abi_entry *e;

	abi_entry_done(p->set, abi_cur(p));
	e = GROW(p->set->entries, p->set->nentries, p->set->cap);
	memset(e, 0, sizeof(*e));
	e->file = p->set->files[p->file_idx].path;
	e->line = p->line;
	p->entry = e - p->set->entries;
	p->set->files[p->file_idx].nentries++;
	p->used = 0;
}

static void abi_field_line(struct abi_parser *p, int field, const char *val,
			   size_t len)
{
	struct abi_set *set = p->set;
	struct abi_entry *e;

	if (field == ABI_WHAT) {
		if (p->field != ABI_WHAT || !abi_cur(p))
			abi_new_entry(p);
		abi_add_what(set, abi_cur(p), abi_trim(set, val, len, NULL), p->line);
		p->field = ABI_WHAT;
		return;
	}
	e = abi_cur(p);
	if (!e) {
		abi_diag_add(set, p->path, p->line, true,
			     "'%s:' before any 'What:' (What: must come first)",
			     abi_field_names[field]);
		return;
	}
	if (e->field[field]) {
		abi_diag_tolerable(set, p->path, p->line,
				   "'%s:' given twice in the entry starting at line %d",
				   abi_field_names[field], e->line);
		p->field = -1;	/* and its continuation lines are dropped */
		return;
	}
	p->field = field;
	e->field_line[field] = p->line;
	if (set->skip_text && (field == ABI_DESCRIPTION || field == ABI_USERS)) {
		/* Only whether there is text (see abi_text_line()). */
		e->field[field] = abi_strndup(set, "-", abi_trim_span(val, len, &val) ? 1 : 0);
		p->used = 0;
		return;
	}
	e->field[field] = abi_trim(set, val, len, &p->used);
	if (field == ABI_IGNORE)
		abi_add_ignore(set, &e->ignore, &e->nignore, p->path, p->line, val, len);
}

static void abi_text_line(struct abi_parser *p, const char *s, size_t len,
			  bool indented)
{
	struct abi_file *f = &p->set->files[p->file_idx];
	struct abi_entry *e = abi_cur(p);

	if (!e) {
		abi_append(p->set, &f->intro, &p->used, s, len);
		return;
	}
	if (p->field < 0)
		return;
	if (p->field == ABI_WHAT) {
		const char *t;
		size_t tlen = abi_trim_span(s, len, &t);

		/* As in the kernel's files: more paths of the same entry. */
		if (tlen && *t == '/') {
			abi_add_what(p->set, e, abi_strndup(p->set, t, tlen), p->line);
			return;
		}
		if (tlen)
			abi_diag_add(p->set, p->path, p->line, false,
				     "text under What: that is not a path: ignored");
		return;
	}
	if (!indented && len && p->field != ABI_DESCRIPTION)
		abi_diag_add(p->set, p->path, p->line, false,
			     "line is neither a field nor indented: taken as part of %s",
			     abi_field_names[p->field]);
	if (p->set->skip_text && (p->field == ABI_DESCRIPTION || p->field == ABI_USERS)) {
		/* Only whether there is text: one character stands for it. */
		if (len && (!e->field[p->field] || !*e->field[p->field]))
			e->field[p->field] = abi_strndup(p->set, "-", 1);
		return;
	}
	if (p->field == ABI_DESCRIPTION || len)
		abi_append(p->set, &e->field[p->field], &p->used, s, len);
	if (p->field == ABI_IGNORE)
		abi_add_ignore(p->set, &e->ignore, &e->nignore, p->path, p->line, s, len);
}

static bool abi_blank(const char *s, size_t len)
{
	while (len--)
		if (!abi_isspace((unsigned char)*s++))
			return false;
	return true;
}

static void abi_line(struct abi_parser *p, const char *s, size_t len)
{
	size_t name_len = 0;
	int field;

	if (len && s[len - 1] == '\r')
		len--;
	if (abi_blank(s, len)) {
		abi_text_line(p, s, 0, true);
		return;
	}
	if (abi_isspace((unsigned char)*s)) {
		abi_text_line(p, s, len, true);
		return;
	}
	while (name_len < len && s[name_len] != ':' &&
	       !abi_isspace((unsigned char)s[name_len]))
		name_len++;
	if (name_len == len || s[name_len] != ':') {
		field = abi_field_lookup(s, name_len);
		/* "KernelVersion<TAB>5.7": a field missing its colon. */
		if (field > ABI_WHAT && abi_cur(p) && p->field != ABI_DESCRIPTION) {
			abi_diag_add(p->set, p->path, p->line, false,
				     "'%s' without ':' (taken as the field)",
				     abi_field_names[field]);
			abi_field_line(p, field, s + name_len, len - name_len);
			return;
		}
		abi_text_line(p, s, len, false);
		return;
	}
	field = abi_field_lookup(s, name_len);
	if (field < 0 && name_len == 5 && !strncasecmp(s, "Where", 5)) {
		abi_diag_tolerable(p->set, p->path, p->line,
				   "'Where:' is not a field: 'What:' was meant");
		field = ABI_WHAT;
	}
	if (field < 0) {
		/* As get_abi.pl: an unknown tag is text in a description. */
		if (abi_cur(p) && p->field != ABI_DESCRIPTION)
			abi_diag_tolerable(p->set, p->path, p->line,
					   "unknown field '%.*s:'", (int)name_len, s);
		else
			abi_text_line(p, s, len, false);
		return;
	}
	abi_field_line(p, field, s + name_len + 1, len - name_len - 1);
}

int abi_parse_buffer(struct abi_set *set, const char *path, const char *buf,
		     size_t len)
{
	struct abi_parser p = { .set = set, .path = NULL, .entry = -1, .field = -1 };
	struct abi_file *f;
	size_t off = 0;
	bool has_nul;

	f = GROW(set->files, set->nfiles, set->fcap);
	memset(f, 0, sizeof(*f));
	f->path = abi_strndup(set, path, strlen(path));
	f->first = set->nentries;
	p.file_idx = f - set->files;
	p.path = f->path;

	/* Binary junk is rare: look for NUL bytes once, per line only if any. */
	has_nul = memchr(buf, '\0', len) != NULL;
	while (off < len) {
		const char *line = buf + off, *nl = memchr(line, '\n', len - off);
		size_t l = nl ? (size_t)(nl - line) : len - off;
		const char *nul = has_nul ? memchr(line, '\0', l) : NULL;

		p.line++;
		/* A NUL byte ends the line's text, as it would for any C tool. */
		abi_line(&p, line, nul ? (size_t)(nul - line) : l);
		off += l + (nl ? 1 : 0);
	}
	abi_entry_done(set, abi_cur(&p));
	f = &set->files[p.file_idx];
	abi_chomp(f->intro);
	if (!f->nentries) {
		set->unparsed = xrealloc(set->unparsed,
					 (set->nunparsed + 1) * sizeof(char *));
		set->unparsed[set->nunparsed++] = f->path;
	}
	return 0;
}

/*
 * An enumerators file (ABI_ENUMERATORS): "EXE REASON" lines, with blank
 * lines and "#" comments between them. Not an ABI file: not in set->files.
 */
static void abi_parse_enumerators(struct abi_set *set, const char *path,
				  const char *buf, size_t len)
{
	const char *file = abi_own(set, path);
	size_t off = 0;
	int line = 0;

	while (off < len) {
		const char *s = buf + off, *nl = memchr(s, '\n', len - off);
		size_t l = nl ? (size_t)(nl - s) : len - off;
		const char *t;
		size_t tlen = abi_trim_span(s, l, &t);

		line++;
		off += l + (nl ? 1 : 0);
		if (memchr(s, '\0', l)) {
			abi_diag_add(set, file, line, true, "a NUL byte in the enumerators file");
			continue;
		}
		if (tlen && *t != '#')
			abi_add_ignore(set, &set->enumerators, &set->nenumerators,
				       file, line, t, tlen);
	}
}

static bool abi_is_enumerators(const char *path)
{
	const char *base = strrchr(path, '/');

	return !strcmp(base ? base + 1 : path, ABI_ENUMERATORS);
}

/*
 * Read @name (in directory @dfd; @path names it in messages) whole into the
 * set's reusable buffer. @regular: a regular file, which returns less than
 * asked only at its end, so the read that would return 0 is skipped.
 */
static int abi_load_file_at(struct abi_set *set, int dfd, const char *name,
			    const char *path, bool regular)
{
	int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC), err = 0;
	size_t len = 0;
	ssize_t r;

	if (fd < 0)
		err = errno;
	while (!err) {
		if (set->rcap - len < 65536) {
			if (set->rcap >= ABI_MAX_FILE) {
				err = EFBIG;
				break;
			}
			set->rcap = set->rcap ? 2 * set->rcap : 1 << 20;
			set->rbuf = xrealloc(set->rbuf, set->rcap);
		}
		r = read(fd, set->rbuf + len, set->rcap - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			err = errno;
		if (r <= 0)
			break;
		len += r;
		if (regular && (size_t)r < set->rcap - (len - r))
			break;
	}
	if (fd >= 0)
		close(fd);
	if (err) {
		abi_diag_add(set, abi_own(set, path), 0, true, "cannot read: %s",
			     err == EFBIG ? "larger than 64 MiB" : strerror(err));
		return -1;
	}
	if (abi_is_enumerators(path))
		abi_parse_enumerators(set, path, set->rbuf, len);
	else
		abi_parse_buffer(set, path, set->rbuf, len);
	return 0;
}

static int abi_load_file(struct abi_set *set, const char *path)
{
	return abi_load_file_at(set, AT_FDCWD, path, path, false);
}

static int abi_load_dir(struct abi_set *set, const char *path);

int abi_load_path(struct abi_set *set, const char *path)
{
	struct stat st;

	if (stat(path, &st)) {
		abi_diag_add(set, abi_own(set, path), 0, true, "cannot read: %s",
			     strerror(errno));
		return -1;
	}
	return S_ISDIR(st.st_mode) ? abi_load_dir(set, path) :
				     abi_load_file(set, path);
}

static int abi_name_cmp(const void *a, const void *b)
{
	/* Each name is prefixed with its d_type byte: compare after it. */
	return strcmp(*(char *const *)a + 1, *(char *const *)b + 1);
}

/* A directory's tables in name order, opened relative to it. */
static int abi_load_dir(struct abi_set *set, const char *path)
{
	char **names = NULL;
	int n = 0, cap = 0, i, ret = 0, dfd;
	struct dirent *d;
	DIR *dir;

	dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	dir = dfd < 0 ? NULL : fdopendir(dfd);
	if (!dir) {
		abi_diag_add(set, abi_own(set, path), 0, true, "cannot list: %s",
			     strerror(errno));
		if (dfd >= 0)
			close(dfd);
		return -1;
	}
	while ((d = readdir(dir))) {
		/* The enumerators file is read, as a list (not a table). */
		if ((d->d_name[0] == '.' && strcmp(d->d_name, ABI_ENUMERATORS)) ||
		    !strncmp(d->d_name, "README", 6))
			continue;
		size_t len = strlen(d->d_name);
		char *name = xmalloc(len + 2);

		/* The type, then the name: sorted by name, no stat() needed. */
		name[0] = d->d_type;
		memcpy(name + 1, d->d_name, len + 1);
		*GROW(names, n, cap) = name;
	}
	qsort(names, n, sizeof(*names), abi_name_cmp);
	for (i = 0; i < n; i++) {
		/* d_type saves a stat() per file; not every file system has it. */
		unsigned char type = names[i][0];
		char *sub = path_join(path, names[i] + 1);

		if (type == DT_REG ?
		    abi_load_file_at(set, dfd, names[i] + 1, sub, true) :
		    type == DT_DIR ? abi_load_dir(set, sub) : abi_load_path(set, sub))
			ret = -1;
		free(sub);
		free(names[i]);
	}
	free(names);
	closedir(dir);
	return ret;
}
