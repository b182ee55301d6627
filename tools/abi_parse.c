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
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "abi.h"
#include "util.h"

#define ABI_MAX_FILE (64 << 20)

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
};

/* A copy of @s that lives as long as @set (for diagnostics' file names). */
static const char *abi_own(struct abi_set *set, const char *s)
{
	char **slot = GROW(set->owned, set->nowned, set->ocap);

	*slot = xstrdup(s);
	return *slot;
}

void abi_set_init(struct abi_set *set)
{
	memset(set, 0, sizeof(*set));
}

void abi_set_free(struct abi_set *set)
{
	int i, j;

	for (i = 0; i < set->nentries; i++) {
		struct abi_entry *e = &set->entries[i];

		for (j = 0; j < e->nwhat; j++)
			free(e->what[j]);
		free(e->what);
		free(e->what_line);
		for (j = 0; j < ABI_NFIELDS; j++)
			free(e->field[j]);
		for (j = 0; j < e->nreplaced; j++)
			free(e->replaced_by[j]);
		free(e->replaced_by);
	}
	free(set->entries);
	for (i = 0; i < set->nfiles; i++) {
		free(set->files[i].path);
		free(set->files[i].intro);
	}
	free(set->files);
	for (i = 0; i < set->ndiags; i++)
		free(set->diags[i].msg);
	free(set->diags);
	free(set->unparsed);
	for (i = 0; i < set->nowned; i++)
		free(set->owned[i]);
	free(set->owned);
	free(set->rbuf);
	memset(set, 0, sizeof(*set));
}

void abi_diag_add(struct abi_set *set, const char *file, int line, bool error,
		  const char *fmt, ...)
{
	struct abi_diag *d;
	va_list ap;

	d = GROW(set->diags, set->ndiags, set->dcap);
	d->file = file;
	d->line = line;
	d->error = error;
	va_start(ap, fmt);
	if (vasprintf(&d->msg, fmt, ap) < 0)
		die_oom();
	va_end(ap);
	if (error)
		set->errors++;
	else
		set->warnings++;
}

/* The field named by the @len bytes at @name, or -1. */
static int abi_field_lookup(const char *name, size_t len)
{
	int i;

	for (i = 0; i < ABI_NFIELDS; i++)
		if (strlen(abi_field_names[i]) == len &&
		    !strncasecmp(name, abi_field_names[i], len))
			return i;
	return -1;
}

/*
 * Append @len bytes of @s to *@dst (holding *@used bytes in *@cap), after a
 * newline if it is not empty. Capacity doubles: descriptions are long.
 */
static void abi_append(char **dst, size_t *used, size_t *cap, const char *s,
		       size_t len)
{
	size_t need = *used + len + 2;

	if (need > *cap) {
		*cap = need < 2 * *cap ? 2 * *cap : need + 64;
		*dst = xrealloc(*dst, *cap);
	}
	if (*used)
		(*dst)[(*used)++] = '\n';
	memcpy(*dst + *used, s, len);
	*used += len;
	(*dst)[*used] = '\0';
}

static char *abi_trim(const char *s, size_t len)
{
	while (len && isspace((unsigned char)*s)) {
		s++;
		len--;
	}
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	return xstrndup(s, len);
}

/* Drop trailing blank lines (paragraph breaks before the next entry). */
static void abi_chomp(char *s)
{
	size_t len;

	if (!s)
		return;
	len = strlen(s);
	while (len && isspace((unsigned char)s[len - 1]))
		s[--len] = '\0';
}

static void abi_add_what(struct abi_entry *e, char *what, int line)
{
	int n = e->nwhat + 1;

	e->what = xrealloc(e->what, n * sizeof(*e->what));
	e->what_line = xrealloc(e->what_line, n * sizeof(*e->what_line));
	e->what[e->nwhat] = what;
	e->what_line[e->nwhat] = line;
	e->nwhat = n;
}

/* Split Replaced-by into paths; "none" means none. */
static void abi_split_replaced(struct abi_entry *e)
{
	const char *p = e->field[ABI_REPLACED_BY];

	while (p && *p) {
		size_t len = strcspn(p, "\n");
		char *path = abi_trim(p, len);

		if (*path && strcasecmp(path, "none")) {
			e->replaced_by = xrealloc(e->replaced_by,
						  (e->nreplaced + 1) *
						  sizeof(*e->replaced_by));
			e->replaced_by[e->nreplaced++] = path;
		} else {
			free(path);
		}
		p += len;
		if (*p)
			p++;
	}
}

static void abi_entry_done(struct abi_entry *e)
{
	if (!e)
		return;
	abi_chomp(e->field[ABI_DESCRIPTION]);
	abi_chomp(e->field[ABI_USERS]);
	abi_split_replaced(e);
}

struct abi_parser {
	struct abi_set *set;
	const char *path;
	int file_idx;
	int entry;		/* index in set->entries, or -1 */
	int field;		/* current field, or -1 */
	int line;
	size_t used, cap;	/* of the current field's text (or the intro) */
};

static struct abi_entry *abi_cur(struct abi_parser *p)
{
	return p->entry < 0 ? NULL : &p->set->entries[p->entry];
}

static void abi_new_entry(struct abi_parser *p)
{
	struct abi_entry *e;

	abi_entry_done(abi_cur(p));
	e = GROW(p->set->entries, p->set->nentries, p->set->cap);
	memset(e, 0, sizeof(*e));
	e->file = p->set->files[p->file_idx].path;
	e->line = p->line;
	p->entry = e - p->set->entries;
	p->set->files[p->file_idx].nentries++;
	p->used = p->cap = 0;
}

static void abi_field_line(struct abi_parser *p, int field, const char *val,
			   size_t len)
{
	struct abi_set *set = p->set;
	struct abi_entry *e;

	if (field == ABI_WHAT) {
		if (p->field != ABI_WHAT || !abi_cur(p))
			abi_new_entry(p);
		abi_add_what(abi_cur(p), abi_trim(val, len), p->line);
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
		abi_diag_add(set, p->path, p->line, true,
			     "'%s:' given twice in the entry starting at line %d",
			     abi_field_names[field], e->line);
		p->field = -1;	/* and its continuation lines are dropped */
		return;
	}
	p->field = field;
	e->field_line[field] = p->line;
	e->field[field] = abi_trim(val, len);
	p->used = strlen(e->field[field]);
	p->cap = p->used + 1;
}

static void abi_text_line(struct abi_parser *p, const char *s, size_t len,
			  bool indented)
{
	struct abi_file *f = &p->set->files[p->file_idx];
	struct abi_entry *e = abi_cur(p);

	if (!e) {
		abi_append(&f->intro, &p->used, &p->cap, s, len);
		return;
	}
	if (p->field < 0)
		return;
	if (p->field == ABI_WHAT) {
		char *t = abi_trim(s, len);

		/* As in the kernel's files: more paths of the same entry. */
		if (*t == '/') {
			abi_add_what(e, t, p->line);
			return;
		}
		if (*t)
			abi_diag_add(p->set, p->path, p->line, false,
				     "text under What: that is not a path: ignored");
		free(t);
		return;
	}
	if (!indented && len && p->field != ABI_DESCRIPTION)
		abi_diag_add(p->set, p->path, p->line, false,
			     "line is neither a field nor indented: taken as part of %s",
			     abi_field_names[p->field]);
	if (p->set->skip_text && (p->field == ABI_DESCRIPTION || p->field == ABI_USERS)) {
		/* Only whether there is text: one character stands for it. */
		if (len && (!e->field[p->field] || !*e->field[p->field])) {
			free(e->field[p->field]);
			e->field[p->field] = xstrdup("-");
		}
		return;
	}
	if (p->field == ABI_DESCRIPTION || len)
		abi_append(&e->field[p->field], &p->used, &p->cap, s, len);
}

static bool abi_blank(const char *s, size_t len)
{
	while (len--)
		if (!isspace((unsigned char)*s++))
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
	if (isspace((unsigned char)*s)) {
		abi_text_line(p, s, len, true);
		return;
	}
	while (name_len < len && s[name_len] != ':' &&
	       !isspace((unsigned char)s[name_len]))
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
		abi_diag_add(p->set, p->path, p->line, true,
			     "'Where:' is not a field: 'What:' was meant");
		field = ABI_WHAT;
	}
	if (field < 0) {
		/* As get_abi.pl: an unknown tag is text in a description. */
		if (abi_cur(p) && p->field != ABI_DESCRIPTION)
			abi_diag_add(p->set, p->path, p->line, true,
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
	f->path = xstrdup(path);
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
	abi_entry_done(abi_cur(&p));
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
		if (d->d_name[0] == '.' || !strncmp(d->d_name, "README", 6))
			continue;
		*GROW(names, n, cap) = xasprintf("%c%s", d->d_type, d->d_name);
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
