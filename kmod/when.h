/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Dates, kernel versions and when an entry is due: one grammar and one
 * meaning, built into the module (kmod/entry.c, state.c) and into the
 * abidep command (tools/), so that the two cannot disagree. Pure text and
 * arithmetic: no allocation, no lock. The grammar is documented once, in
 * Documentation/driver-api/table-format.rst ("Dates and kernel versions");
 * the test vectors both sides run are in when_vectors.h.
 */
#ifndef _ABIDEP_WHEN_H
#define _ABIDEP_WHEN_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdbool.h>
typedef unsigned char u8;
typedef unsigned short u16;
#endif

/* A day, month or year: a month or day of 0 was not given. */
struct abidep_date {
	u16 year;
	u8 month;
	u8 day;
};

#define ABIDEP_KVER_PARTS	4

/* "6.12", "v2.6.35", "2.6.34-rc1": two to four numbers, maybe an -rc. */
struct abidep_kver {
	u16 part[ABIDEP_KVER_PARTS];	/* the numbers given; the rest 0 */
	u8 nr;				/* how many were given */
	u8 rc;				/* N of -rcN, or 0 */
};

/* A Remove-after: or Removed: value: a date, a kernel version or both. */
struct abidep_when {
	bool has_date, has_kver;
	struct abidep_date date;
	struct abidep_kver kver;
};

int abidep_parse_date(const char *s, struct abidep_date *d);
int abidep_parse_kver(const char *s, struct abidep_kver *k);
int abidep_parse_uname(const char *s, struct abidep_kver *k);
int abidep_parse_when(const char *s, struct abidep_when *w);
void abidep_date_from_days(unsigned int days, struct abidep_date *d);
int abidep_date_cmp(const struct abidep_date *a, const struct abidep_date *b);
int abidep_kver_cmp(const struct abidep_kver *k, const struct abidep_kver *ref);
void abidep_date_due_from(const struct abidep_date *d, struct abidep_date *first);
bool abidep_date_due(const struct abidep_date *d, const struct abidep_date *today);
bool abidep_kver_due(const struct abidep_kver *kernel,
		     const struct abidep_kver *remove_after);
bool abidep_when_due(const struct abidep_when *w, const struct abidep_date *today,
		     const struct abidep_kver *kernel);

#endif /* _ABIDEP_WHEN_H */
