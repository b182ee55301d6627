// SPDX-License-Identifier: GPL-2.0
/*
 * Dates, kernel versions and when an entry is due (when.h). Built into the
 * module and, unchanged, into the abidep command and its unit tests.
 *
 * Due is defined once, here: an entry is due once the whole period its
 * Remove-after: date names has passed ("2027" from 2028-01-01, "2027-03"
 * from 2027-04-01, "2027-03-05" from 2027-03-06), or on a kernel of a later
 * series than its kernel version (after "6.12" is 6.13; 6.12.5 is still
 * 6.12).
 */
#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/string.h>
#else
#include <errno.h>
#include <string.h>
#endif

#include "when.h"

static bool abidep_leap(unsigned int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static unsigned int abidep_days_in_month(unsigned int y, unsigned int m)
{
	static const u8 days[12] = { 31, 28, 31, 30, 31, 30,
				     31, 31, 30, 31, 30, 31 };

	return days[m - 1] + (m == 2 && abidep_leap(y));
}

static bool abidep_isdigit(char c)
{
	return c >= '0' && c <= '9';
}

/* Exactly @n decimal digits; no sign, no spaces. */
static int abidep_digits(const char *s, unsigned int n, unsigned int *val)
{
	unsigned int i, v = 0;

	for (i = 0; i < n; i++) {
		if (!abidep_isdigit(s[i]))
			return -EINVAL;
		v = v * 10 + (s[i] - '0');
	}
	*val = v;
	return 0;
}

/**
 * abidep_parse_date() - parse a table date
 * @s: "YYYY-MM-DD", or "YYYY-MM" or "YYYY" when the sources give no more;
 *	nothing before or after; years 1970 to 9999
 * @d: the date, on success; a month or day not given is 0
 *
 * Return: 0, or -EINVAL for anything else, including 2010-02-30.
 */
int abidep_parse_date(const char *s, struct abidep_date *d)
{
	unsigned int y, m = 0, day = 0;
	size_t len = s ? strlen(s) : 0;

	if (len != 4 && len != 7 && len != 10)
		return -EINVAL;
	if (abidep_digits(s, 4, &y) || y < 1970)
		return -EINVAL;
	if (len >= 7 && (s[4] != '-' || abidep_digits(s + 5, 2, &m) ||
			 m < 1 || m > 12))
		return -EINVAL;
	if (len == 10 && (s[7] != '-' || abidep_digits(s + 8, 2, &day) ||
			  day < 1 || day > abidep_days_in_month(y, m)))
		return -EINVAL;
	d->year = y;
	d->month = m;
	d->day = day;
	return 0;
}

/* Up to 5 digits of at most @max at *@sp, moving past them. */
static int abidep_number(const char **sp, unsigned int max, unsigned int *val)
{
	const char *s = *sp;
	unsigned int v = 0, len = 0;

	while (abidep_isdigit(*s)) {
		if (++len > 5)
			return -EINVAL;
		v = v * 10 + (*s++ - '0');
	}
	if (!len || v > max)
		return -EINVAL;
	*sp = s;
	*val = v;
	return 0;
}

/* "v6.12.3-rc1" at *@sp: the numbers and the -rc; *@sp is left after them. */
static int abidep_kver_scan(const char **sp, struct abidep_kver *k)
{
	const char *s = *sp + (**sp == 'v');
	unsigned int v;

	memset(k, 0, sizeof(*k));
	for (;;) {
		if (k->nr == ABIDEP_KVER_PARTS || abidep_number(&s, 65535, &v))
			return -EINVAL;
		k->part[k->nr++] = v;
		if (s[0] != '.' || !abidep_isdigit(s[1]))
			break;
		s++;
	}
	if (k->nr < 2)
		return -EINVAL;
	if (!strncmp(s, "-rc", 3) && abidep_isdigit(s[3])) {
		s += 3;
		if (abidep_number(&s, 255, &v) || !v)
			return -EINVAL;
		k->rc = v;
	}
	*sp = s;
	return 0;
}

/**
 * abidep_parse_kver() - parse a kernel version of the tables
 * @s: two to four numbers (each up to 65535) joined by dots, maybe a
 *	leading 'v' and a trailing -rcN: "6.12", "v2.6.35", "2.6.34-rc1";
 *	nothing after
 * @k: the version, on success
 *
 * Return: 0, or -EINVAL.
 */
int abidep_parse_kver(const char *s, struct abidep_kver *k)
{
	if (!s || abidep_kver_scan(&s, k) || *s)
		return -EINVAL;
	return 0;
}

/**
 * abidep_parse_uname() - the version at the start of a kernel release
 * @s: what uname -r prints, e.g. "6.12.118+deb12-amd64", "6.1.0-57-amd64",
 *	or a version as abidep_parse_kver() takes it
 * @k: the version, on success
 *
 * What follows the numbers (and an -rcN) must start with '-', '+' or '~'.
 *
 * Return: 0, or -EINVAL.
 */
int abidep_parse_uname(const char *s, struct abidep_kver *k)
{
	if (!s || abidep_kver_scan(&s, k))
		return -EINVAL;
	return *s && !strchr("-+~", *s) ? -EINVAL : 0;
}

/**
 * abidep_parse_when() - parse a Remove-after: or Removed: value
 * @s: a date, a kernel version, or both separated by a comma, in either
 *	order: "2012-04-08", "6.12", "2012-04-08, 3.5"
 * @w: what it names, on success
 *
 * Return: 0, or -EINVAL (also for two dates or two versions).
 */
int abidep_parse_when(const char *s, struct abidep_when *w)
{
	char tok[32];

	memset(w, 0, sizeof(*w));
	if (!s)
		return -EINVAL;
	for (;;) {
		size_t len = strcspn(s, ",");
		const char *end = s + len;

		while (len && *s == ' ') {
			s++;
			len--;
		}
		while (len && s[len - 1] == ' ')
			len--;
		if (!len || len >= sizeof(tok))
			return -EINVAL;
		memcpy(tok, s, len);
		tok[len] = '\0';
		if (!w->has_date && !abidep_parse_date(tok, &w->date))
			w->has_date = true;
		else if (!w->has_kver && !abidep_parse_kver(tok, &w->kver))
			w->has_kver = true;
		else
			return -EINVAL;
		if (!*end)
			return 0;
		s = end + 1;
	}
}

/**
 * abidep_date_from_days() - the date @days after 1970-01-01
 * @days: days since the epoch (a UTC time divided by 86400)
 * @d: its date
 *
 * The civil-from-days conversion of the proleptic Gregorian calendar, so
 * that the module and the tools call the same day "today".
 */
void abidep_date_from_days(unsigned int days, struct abidep_date *d)
{
	unsigned int z = days + 719468, era = z / 146097, doe = z - era * 146097;
	unsigned int yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	unsigned int doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	unsigned int mp = (5 * doy + 2) / 153;

	d->day = doy - (153 * mp + 2) / 5 + 1;
	d->month = mp < 10 ? mp + 3 : mp - 9;
	d->year = yoe + era * 400 + (d->month <= 2);
}

/**
 * abidep_date_cmp() - order two dates
 * @a: a date
 * @b: another date
 *
 * A month or day not given counts as before the first.
 *
 * Return: <0, 0 or >0 as @a is before, on, or after @b.
 */
int abidep_date_cmp(const struct abidep_date *a, const struct abidep_date *b)
{
	if (a->year != b->year)
		return a->year < b->year ? -1 : 1;
	if (a->month != b->month)
		return a->month < b->month ? -1 : 1;
	if (a->day != b->day)
		return a->day < b->day ? -1 : 1;
	return 0;
}

/**
 * abidep_kver_cmp() - compare a kernel with a version of the tables
 * @k: the kernel
 * @ref: the version, compared over as many numbers as it gives (6.12.5 is
 *	6.12); an -rc is not compared
 *
 * Return: -1, 0 or 1 as @k is before, in, or after @ref.
 */
int abidep_kver_cmp(const struct abidep_kver *k, const struct abidep_kver *ref)
{
	unsigned int i;

	for (i = 0; i < ref->nr; i++)
		if (k->part[i] != ref->part[i])
			return k->part[i] < ref->part[i] ? -1 : 1;
	return 0;
}

/**
 * abidep_date_due_from() - the first day after the period a date names
 * @d: a date; a month or day not given makes it a year or a month
 * @first: the day after that year, month or day
 */
void abidep_date_due_from(const struct abidep_date *d, struct abidep_date *first)
{
	*first = *d;
	if (d->month && d->day &&
	    d->day < abidep_days_in_month(d->year, d->month)) {
		first->day++;
		return;
	}
	first->day = 1;
	if (d->month && d->month < 12) {
		first->month++;
		return;
	}
	first->year++;
	first->month = 1;
}

/**
 * abidep_date_due() - is an entry removable after @d due on @today?
 * @d: its Remove-after: date
 * @today: a whole date
 *
 * Return: true once the whole period @d names has passed.
 */
bool abidep_date_due(const struct abidep_date *d, const struct abidep_date *today)
{
	struct abidep_date first;

	abidep_date_due_from(d, &first);
	return abidep_date_cmp(today, &first) >= 0;
}

/**
 * abidep_kver_due() - is an entry removable after a version due on @kernel?
 * @kernel: the kernel
 * @remove_after: its Remove-after: kernel version
 *
 * Return: true if @kernel is of a later series than @remove_after.
 */
bool abidep_kver_due(const struct abidep_kver *kernel,
		     const struct abidep_kver *remove_after)
{
	return abidep_kver_cmp(kernel, remove_after) > 0;
}

/**
 * abidep_when_due() - is an entry with this Remove-after: value due?
 * @w: its Remove-after: value (neither a date nor a version: never due)
 * @today: the date to judge on
 * @kernel: the kernel to judge a version against, or NULL if none is known
 *
 * The one definition of due, used by the module's state file and by
 * abidep check: the whole period of the date has passed, or @kernel is of a
 * later series than the version, whichever comes first.
 *
 * Return: true if due.
 */
bool abidep_when_due(const struct abidep_when *w, const struct abidep_date *today,
		     const struct abidep_kver *kernel)
{
	if (w->has_date && abidep_date_due(&w->date, today))
		return true;
	return w->has_kver && kernel && abidep_kver_due(kernel, &w->kver);
}
