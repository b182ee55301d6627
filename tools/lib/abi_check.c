// SPDX-License-Identifier: GPL-2.0
/*
 * The rules of Documentation/admin-guide/migration-tables.rst: dates, statuses, required
 * fields, patterns, duplicate What lines.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "abi.h"
#include "entry.h"
#include "pattern.h"
#include "util.h"

/* @k as text: "6.12", "2.6.34-rc1". */
static void abi_kver_text(const struct abidep_kver *k, char *buf, size_t size)
{
	size_t n = 0;
	int i;

	for (i = 0; i < k->nr; i++)
		n += snprintf(buf + n, size - n, "%s%u", i ? "." : "", k->part[i]);
	if (k->rc)
		snprintf(buf + n, size - n, "-rc%u", k->rc);
}

/* The module's grammar (../kmod/when.c), with the version as text. */
int abi_parse_when(const char *s, struct abi_when *w)
{
	memset(w, 0, sizeof(*w));
	if (abidep_parse_when(s, &w->when))
		return -1;
	if (w->when.has_kver)
		abi_kver_text(&w->when.kver, w->kver, sizeof(w->kver));
	return 0;
}

const char *abi_status_name(enum abi_status st)
{
	switch (st) {
	case ABI_ST_DEPRECATED:
		return "deprecated";
	case ABI_ST_REMOVED:
		return "removed";
	default:
		return "";
	}
}

bool abi_is_migration(const struct abi_entry *e)
{
	int f;

	for (f = ABI_FIRST_OURS; f < ABI_NFIELDS; f++)
		if (e->field[f])
			return true;
	return false;
}

/* Documentation/ABI's Date is free text: it must at least hold a year. */
static bool abi_date_has_year(const char *s)
{
	const char *p;

	for (p = s; *p; p++) {
		if (isdigit((unsigned char)*p) && (p == s || !isdigit((unsigned char)p[-1]))) {
			int n = 0, v = 0;

			while (isdigit((unsigned char)p[n]) && n < 5)
				v = v * 10 + p[n++] - '0';
			if (n == 4 && v >= 1990 && v <= 2099)
				return true;
		}
	}
	return false;
}

#define ERR(e, f, ...) \
	abi_diag_add(set, (e)->file, (e)->field_line[f] ?: (e)->line, true, __VA_ARGS__)
/* An error get_abi.pl reads through (see abi_diag_tolerable()). */
#define TOLERABLE(e, f, ...) \
	abi_diag_tolerable(set, (e)->file, (e)->field_line[f] ?: (e)->line, __VA_ARGS__)

static void abi_check_when(struct abi_set *set, struct abi_entry *e, int f,
			   struct abi_when *w)
{
	if (e->field[f] && abi_parse_when(e->field[f], w))
		ERR(e, f, "bad date in %s: '%s' (YYYY-MM-DD, YYYY-MM, YYYY and/or a kernel version like 6.12)",
		    abi_field_names[f], e->field[f]);
}

/* Config:'s words are kernel options: CONFIG_ and capitals, digits, '_'. */
static bool abi_config_ok(const char *s)
{
	size_t n;

	s += strspn(s, " \t");
	if (!*s)
		return false;
	while (*s) {
		n = strcspn(s, " \t");
		if (n <= 7 || strncmp(s, "CONFIG_", 7) ||
		    strspn(s + 7, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != n - 7)
			return false;
		s += n;
		s += strspn(s, " \t");
	}
	return true;
}

static void abi_check_migration(struct abi_set *set, struct abi_entry *e)
{
	const char *st = e->field[ABI_STATUS];
	int i;

	if (!st)
		ERR(e, ABI_STATUS, "missing field Status: (deprecated or removed)");
	else if (!strcasecmp(st, "deprecated"))
		e->status = ABI_ST_DEPRECATED;
	else if (!strcasecmp(st, "removed"))
		e->status = ABI_ST_REMOVED;
	else
		ERR(e, ABI_STATUS, "bad Status: '%s' (deprecated or removed)", st);

	if (e->field[ABI_DEPRECATED]) {
		if (abidep_parse_date(e->field[ABI_DEPRECATED], &e->deprecated))
			ERR(e, ABI_DEPRECATED, "bad date in Deprecated: '%s' (YYYY-MM-DD, YYYY-MM or YYYY)",
			    e->field[ABI_DEPRECATED]);
	} else if (e->status == ABI_ST_DEPRECATED) {
		ERR(e, ABI_DEPRECATED, "missing field Deprecated: (a date)");
	}
	abi_check_when(set, e, ABI_REMOVE_AFTER, &e->remove_after);
	abi_check_when(set, e, ABI_REMOVED, &e->removed);
	if (e->deprecated.year && e->remove_after.when.has_date &&
	    abidep_date_cmp(&e->remove_after.when.date, &e->deprecated) < 0)
		ERR(e, ABI_REMOVE_AFTER, "removal (%s) before deprecation (%s)",
		    e->field[ABI_REMOVE_AFTER], e->field[ABI_DEPRECATED]);
	if (e->field[ABI_REMOVED] && e->status != ABI_ST_REMOVED)
		ERR(e, ABI_REMOVED, "Removed: on an entry whose Status is not removed");

	if (!e->field[ABI_REPLACED_BY])
		ERR(e, ABI_REPLACED_BY, "missing field Replaced-by: (paths, or none)");
	for (i = 0; i < e->nreplaced; i++) {
		const char *why = abi_pattern_check(e->replaced_by[i]);

		if (why)
			ERR(e, ABI_REPLACED_BY, "bad pattern in Replaced-by: '%s': %s",
			    e->replaced_by[i], why);
	}
	if (!e->field[ABI_SOURCE] || !*e->field[ABI_SOURCE])
		ERR(e, ABI_SOURCE, "missing field Source: (where the facts come from)");
	if (e->field[ABI_IGNORE] && !e->nignore)
		ERR(e, ABI_IGNORE, "empty Ignore: (lines of an absolute executable path and a reason)");
	if (e->field[ABI_CONFIG] && !abi_config_ok(e->field[ABI_CONFIG]))
		ERR(e, ABI_CONFIG, "bad Config: '%s' (kernel options, CONFIG_X, separated by spaces)",
		    e->field[ABI_CONFIG]);
}

static void abi_check_entry(struct abi_set *set, struct abi_entry *e, bool strict)
{
	int i;

	for (i = 0; i < e->nwhat; i++) {
		const char *why;

		if (!*e->what[i]) {
			abi_diag_add(set, e->file, e->what_line[i], true, "empty What:");
			continue;
		}
		if (!abi_is_path(e->what[i]))
			continue;	/* names an interface ("devfs"), not a file */
		why = abi_pattern_check(e->what[i]);
		if (why)
			abi_diag_tolerable(set, e->file, e->what_line[i],
					   "bad pattern in What: '%s': %s", e->what[i], why);
	}
	if (!e->field[ABI_DESCRIPTION] || !*e->field[ABI_DESCRIPTION])
		TOLERABLE(e, ABI_DESCRIPTION, "What '%s' has no Description:",
		    e->nwhat ? e->what[0] : "");
	if (e->field[ABI_DATE] && !abi_date_has_year(e->field[ABI_DATE]))
		TOLERABLE(e, ABI_DATE, "bad date in Date: '%s' (no year)", e->field[ABI_DATE]);
	if (abi_is_migration(e))
		abi_check_migration(set, e);
	else if (strict)
		abi_diag_add(set, e->file, e->line, true,
			     "'%s' is not a migration entry (no Status:)",
			     e->nwhat ? e->what[0] : "");
}

/*
 * What strings into an open-addressing table. Eight bytes at a time: a
 * byte-at-a-time hash was a tenth of validate's time on Documentation/ABI.
 */
static uint64_t abi_hash(const char *s, size_t len)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ len, w;

	for (; len >= 8; s += 8, len -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, s, len);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 29);
}

/* A What line by position: 8 bytes, so the table stays small and warm. */
struct abi_what_ref {
	int entry;		/* + 1: 0 is an empty slot */
	int idx;
};

/*
 * What @j of @e was described first by What @k of @first. Between plain
 * Documentation/ABI entries, as get_abi.pl lets it be; where either is a
 * migration entry, which of them would the module alias?
 */
static void abi_diag_dup(struct abi_set *set, const struct abi_entry *e, int j,
			 const struct abi_entry *first, int k)
{
#define DUP_FMT "duplicate What '%s' (first at %s:%d)"
	if (abi_is_migration(e) || abi_is_migration(first))
		abi_diag_add(set, e->file, e->what_line[j], true, DUP_FMT,
			     e->what[j], first->file, first->what_line[k]);
	else
		abi_diag_tolerable(set, e->file, e->what_line[j], DUP_FMT,
				   e->what[j], first->file, first->what_line[k]);
#undef DUP_FMT
}

static void abi_check_duplicates(struct abi_set *set)
{
	struct abi_what_ref *tab;
	size_t size = 64, mask, n = 0;
	int i, j;

	for (i = 0; i < set->nentries; i++)
		n += set->entries[i].nwhat;
	while (size < 2 * n)
		size *= 2;
	mask = size - 1;
	tab = xcalloc(size, sizeof(*tab));
	/* In input order, so the first occurrence is the one kept. */
	for (i = 0; i < set->nentries; i++) {
		const struct abi_entry *e = &set->entries[i];

		for (j = 0; j < e->nwhat; j++) {
			const char *what = e->what[j];
			const struct abi_entry *first;
			size_t h;

			if (!*what)
				continue;
			h = abi_hash(what, strlen(what)) & mask;
			while (tab[h].entry &&
			       strcmp(set->entries[tab[h].entry - 1].what[tab[h].idx], what))
				h = (h + 1) & mask;
			if (!tab[h].entry) {
				tab[h] = (struct abi_what_ref){ i + 1, j };
				continue;
			}
			first = &set->entries[tab[h].entry - 1];
			abi_diag_dup(set, e, j, first, tab[h].idx);
		}
	}
	free(tab);
}

/*
 * An executable as the tracer records it: absolute, and with no empty,
 * "." or ".." component (the path the kernel resolved). NULL if so, else
 * what is wrong.
 */
static const char *abi_exe_check(const char *exe)
{
	const char *p = exe;

	if (*exe != '/')
		return "not an absolute path";
	while (*p) {
		size_t len;

		p++;
		len = strcspn(p, "/");
		if (!len)
			return "an empty component ('//' or a trailing '/')";
		if ((len == 1 && *p == '.') || (len == 2 && !strncmp(p, "..", 2)))
			return "a '.' or '..' component";
		p += len;
	}
	return NULL;
}

/*
 * The lines of one Ignore: field or of the enumerators files (@what names
 * which): each an executable path and a reason, no executable twice.
 */
static void abi_check_ignores(struct abi_set *set, const struct abi_ignore *ig,
			      int n, const char *what)
{
	int i, k;

	for (i = 0; i < n; i++) {
		const char *why = abi_exe_check(ig[i].exe);

		if (why)
			abi_diag_add(set, ig[i].file, ig[i].line, true,
				     "bad executable in %s%s '%s': %s", what,
				     what[strlen(what) - 1] == ':' ? "" : ":", ig[i].exe, why);
		if (!*ig[i].reason)
			abi_diag_add(set, ig[i].file, ig[i].line, true,
				     "no reason for '%s' in %s (EXE, then why it reads every attribute)",
				     ig[i].exe, what);
		for (k = 0; k < i; k++)
			if (!strcmp(ig[k].exe, ig[i].exe)) {
				abi_diag_add(set, ig[i].file, ig[i].line, true,
					     "'%s' given twice in %s (first at %s:%d)",
					     ig[i].exe, what, ig[k].file, ig[k].line);
				break;
			}
	}
}

const struct abi_ignore *abi_ignored(const struct abi_set *set,
				     const struct abi_entry *e, const char *exe)
{
	int i;

	for (i = 0; e && i < e->nignore; i++)
		if (!strcmp(e->ignore[i].exe, exe))
			return &e->ignore[i];
	for (i = 0; i < set->nenumerators; i++)
		if (!strcmp(set->enumerators[i].exe, exe))
			return &set->enumerators[i];
	return NULL;
}

const char *abi_ignore_scope(const struct abi_entry *e, const struct abi_ignore *ig)
{
	int i;

	for (i = 0; e && i < e->nignore; i++)
		if (&e->ignore[i] == ig)
			return "entry";
	return "global";
}

void abi_check(struct abi_set *set, bool strict)
{
	int i;

	for (i = 0; i < set->nentries; i++) {
		abi_check_entry(set, &set->entries[i], strict);
		abi_check_ignores(set, set->entries[i].ignore, set->entries[i].nignore,
				  "Ignore:");
	}
	abi_check_duplicates(set);
	abi_check_ignores(set, set->enumerators, set->nenumerators, ABI_ENUMERATORS);
	if (!set->no_index)
		entry_index_build(set);
}

/* Is @file (a path the set owns) one with a migration entry? */
static bool abi_file_is_table(const struct abi_set *set, const char *file)
{
	int i, k;

	for (i = 0; i < set->nfiles; i++) {
		const struct abi_file *f = &set->files[i];

		if (f->path != file)
			continue;
		for (k = f->first; k < f->first + f->nentries; k++)
			if (abi_is_migration(&set->entries[k]))
				return true;
		return false;
	}
	return false;
}

int abi_tolerate(struct abi_set *set)
{
	int i, n = 0;

	for (i = 0; i < set->ndiags; i++) {
		struct abi_diag *d = &set->diags[i];

		if (!d->error || !d->tolerable || abi_file_is_table(set, d->file))
			continue;
		d->error = false;
		set->errors--;
		set->warnings++;
		n++;
	}
	return n;
}
