// SPDX-License-Identifier: GPL-2.0
/*
 * The rules of Documentation/migration-tables.rst: dates, statuses, required
 * fields, patterns, duplicate What lines.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "abi.h"
#include "pattern.h"
#include "util.h"

static bool abi_leap(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int abi_digits(const char *s, int n)
{
	int v = 0, i;

	for (i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + s[i] - '0';
	}
	return v;
}

/* "YYYY-MM-DD", "YYYY-MM" or "YYYY"; a real date from 1970 on. */
int abi_parse_date(const char *s, struct abi_date *d)
{
	static const int mdays[12] = { 31, 28, 31, 30, 31, 30,
				       31, 31, 30, 31, 30, 31 };
	size_t len = strlen(s);

	memset(d, 0, sizeof(*d));
	if (len != 4 && len != 7 && len != 10)
		return -1;
	d->year = abi_digits(s, 4);
	if (d->year < 1970)
		return -1;
	if (len >= 7) {
		d->month = s[4] == '-' ? abi_digits(s + 5, 2) : -1;
		if (d->month < 1 || d->month > 12)
			return -1;
	}
	if (len == 10) {
		d->day = s[7] == '-' ? abi_digits(s + 8, 2) : -1;
		if (d->day < 1 || d->day > mdays[d->month - 1] +
		    (d->month == 2 && abi_leap(d->year)))
			return -1;
	}
	return 0;
}

/* "6.12", "v2.6.35", "2.6.34-rc1": two to four numbers, maybe an -rc. */
static int abi_parse_kver(const char *s, char *out, size_t size)
{
	const char *p = s + (*s == 'v');
	int parts = 0;

	for (;;) {
		if (!isdigit((unsigned char)*p))
			return -1;
		while (isdigit((unsigned char)*p))
			p++;
		parts++;
		if (!*p)
			break;
		if (!strncmp(p, "-rc", 3) && isdigit((unsigned char)p[3])) {
			for (p += 3; isdigit((unsigned char)*p); p++)
				;
			if (*p)
				return -1;
			break;
		}
		if (*p++ != '.')
			return -1;
	}
	if (parts < 2 || parts > 4 || strlen(s) >= size)
		return -1;
	strcpy(out, s + (*s == 'v'));
	return 0;
}

int abi_parse_when(const char *s, struct abi_when *w)
{
	char *copy = xstrdup(s), *tok, *save = NULL;
	int ret = 0;

	memset(w, 0, sizeof(*w));
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *t = tok;
		size_t len;

		while (isspace((unsigned char)*t))
			t++;
		len = strlen(t);
		while (len && isspace((unsigned char)t[len - 1]))
			t[--len] = '\0';
		if (!w->has_date && !abi_parse_date(t, &w->date))
			w->has_date = true;
		else if (!w->has_kver && !abi_parse_kver(t, w->kver, sizeof(w->kver)))
			w->has_kver = true;
		else
			ret = -1;
	}
	free(copy);
	if (!w->has_date && !w->has_kver)
		ret = -1;
	return ret;
}

/* Unknown parts (month 0, day 0) count as the earliest. */
int abi_date_cmp(const struct abi_date *a, const struct abi_date *b)
{
	if (a->year != b->year)
		return a->year < b->year ? -1 : 1;
	if (a->month != b->month)
		return a->month < b->month ? -1 : 1;
	if (a->day != b->day)
		return a->day < b->day ? -1 : 1;
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

static void abi_check_when(struct abi_set *set, struct abi_entry *e, int f,
			   struct abi_when *w)
{
	if (e->field[f] && abi_parse_when(e->field[f], w))
		ERR(e, f, "bad date in %s: '%s' (YYYY-MM-DD, YYYY-MM, YYYY and/or a kernel version like 6.12)",
		    abi_field_names[f], e->field[f]);
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
		if (abi_parse_date(e->field[ABI_DEPRECATED], &e->deprecated))
			ERR(e, ABI_DEPRECATED, "bad date in Deprecated: '%s' (YYYY-MM-DD, YYYY-MM or YYYY)",
			    e->field[ABI_DEPRECATED]);
	} else if (e->status == ABI_ST_DEPRECATED) {
		ERR(e, ABI_DEPRECATED, "missing field Deprecated: (a date)");
	}
	abi_check_when(set, e, ABI_REMOVE_AFTER, &e->remove_after);
	abi_check_when(set, e, ABI_REMOVED, &e->removed);
	if (e->deprecated.year && e->remove_after.has_date &&
	    abi_date_cmp(&e->remove_after.date, &e->deprecated) < 0)
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
			abi_diag_add(set, e->file, e->what_line[i], true,
				     "bad pattern in What: '%s': %s", e->what[i], why);
	}
	if (!e->field[ABI_DESCRIPTION] || !*e->field[ABI_DESCRIPTION])
		ERR(e, ABI_DESCRIPTION, "What '%s' has no Description:",
		    e->nwhat ? e->what[0] : "");
	if (e->field[ABI_DATE] && !abi_date_has_year(e->field[ABI_DATE]))
		ERR(e, ABI_DATE, "bad date in Date: '%s' (no year)", e->field[ABI_DATE]);
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
			abi_diag_add(set, e->file, e->what_line[j], true,
				     "duplicate What '%s' (first at %s:%d)", what,
				     set->entries[tab[h].entry - 1].file,
				     set->entries[tab[h].entry - 1].what_line[tab[h].idx]);
		}
	}
	free(tab);
}

void abi_check(struct abi_set *set, bool strict)
{
	int i;

	for (i = 0; i < set->nentries; i++)
		abi_check_entry(set, &set->entries[i], strict);
	abi_check_duplicates(set);
}
