// SPDX-License-Identifier: GPL-2.0
/*
 * Entries: date and version parsing, checks, and the registry the state file
 * lists.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/time.h>
#include <linux/version.h>

#include "abidep_internal.h"

/* Protects abidep_registry and each entry's ->state pointer. */
DEFINE_MUTEX(abidep_lock);
LIST_HEAD(abidep_registry);

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

/* Parse exactly @n decimal digits; no sign, no spaces. */
static int abidep_digits(const char *s, unsigned int n, unsigned int *val)
{
	unsigned int i, v = 0;

	for (i = 0; i < n; i++) {
		if (!isdigit(s[i]))
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
 * @d: the date, on success; an unknown month or day is 0 (the earliest)
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

/**
 * abidep_parse_kver() - parse a kernel version for remove_after
 * @s: "MAJOR.MINOR" or "MAJOR.MINOR.PATCH", each part 0 to 255
 * @kver: KERNEL_VERSION() of it, on success
 *
 * Return: 0, or -EINVAL.
 */
int abidep_parse_kver(const char *s, u32 *kver)
{
	unsigned int part[3] = { 0, 0, 0 };
	unsigned int n = 0;

	if (!s || !*s)
		return -EINVAL;
	for (;;) {
		unsigned int v = 0, len = 0;

		while (isdigit(*s) && len < 4) {
			v = v * 10 + (*s++ - '0');
			len++;
		}
		if (!len || v > 255 || n == 3)
			return -EINVAL;
		part[n++] = v;
		if (!*s)
			break;
		if (*s++ != '.')
			return -EINVAL;
	}
	if (n < 2)
		return -EINVAL;
	*kver = KERNEL_VERSION(part[0], part[1], part[2]);
	return 0;
}

/**
 * abidep_date_cmp() - order two dates
 * @a: a date
 * @b: another date
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
 * abidep_date_from_time() - the UTC date of a time
 * @t: seconds since the epoch
 * @d: its date
 */
void abidep_date_from_time(time64_t t, struct abidep_date *d)
{
	struct tm tm;

	time64_to_tm(t, 0, &tm);
	d->year = tm.tm_year + 1900;
	d->month = tm.tm_mon + 1;
	d->day = tm.tm_mday;
}

static bool abidep_name_ok(const char *name)
{
	return name && *name && !strchr(name, '/') && strlen(name) < NAME_MAX;
}

/**
 * abidep_entry_check() - check an entry and parse its dates
 * @e: the entry
 * @st: where the parsed dates go
 *
 * Return: 0, or -EINVAL with the reason logged, naming the entry.
 */
int abidep_entry_check(const struct abidep_entry *e, struct abidep_state *st)
{
	const char *name = e->old_name ? e->old_name : "(null)";

	if (!abidep_name_ok(e->old_name) || !abidep_name_ok(e->new_name) ||
	    !strcmp(e->old_name, e->new_name)) {
		pr_err("entry %s: old and new names must be distinct file names\n",
		       name);
		return -EINVAL;
	}
	if (abidep_parse_date(e->deprecated, &st->deprecated)) {
		pr_err("entry %s: deprecated date '%s' is not YYYY-MM-DD\n",
		       name, e->deprecated ? e->deprecated : "");
		return -EINVAL;
	}
	if (!abidep_parse_date(e->remove_after, &st->remove_date)) {
		st->remove_is_date = true;
		if (abidep_date_cmp(&st->remove_date, &st->deprecated) < 0) {
			pr_err("entry %s: removal date %s is before deprecation date %s\n",
			       name, e->remove_after, e->deprecated);
			return -EINVAL;
		}
	} else if (abidep_parse_kver(e->remove_after, &st->remove_kver)) {
		pr_err("entry %s: remove_after '%s' is neither YYYY-MM-DD nor a kernel version\n",
		       name, e->remove_after ? e->remove_after : "");
		return -EINVAL;
	}
	return 0;
}

/**
 * __abidep_entry_register() - make an entry known to abidep
 * @entry: the entry; it must stay valid until abidep_entry_unregister()
 * @owner: the module declaring it, shown in the state file
 *
 * Use the abidep_entry_register() macro, which passes THIS_MODULE.
 *
 * Return: 0, -EINVAL for a malformed entry, -EEXIST if already registered,
 * -ENOMEM.
 */
int __abidep_entry_register(struct abidep_entry *entry, struct module *owner)
{
	struct abidep_state *st;
	int ret;

	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	ret = abidep_entry_check(entry, st);
	if (ret) {
		kfree(st);
		return ret;
	}
	st->entry = entry;
	st->owner = owner;
	abidep_users_init(&st->users);
	abidep_brownout_init(st);

	mutex_lock(&abidep_lock);
	if (entry->state) {
		mutex_unlock(&abidep_lock);
		kfree(st);
		return -EEXIST;
	}
	entry->state = st;
	list_add_tail(&st->node, &abidep_registry);
	mutex_unlock(&abidep_lock);
	return 0;
}
EXPORT_SYMBOL_GPL(__abidep_entry_register);

/**
 * abidep_entry_unregister() - forget an entry and its counters
 * @entry: a registered entry whose aliases have all been removed
 *
 * An entry that still has aliases is a caller bug: it is warned about and
 * kept, since the aliases still point at it.
 */
void abidep_entry_unregister(struct abidep_entry *entry)
{
	struct abidep_state *st;

	mutex_lock(&abidep_lock);
	st = entry->state;
	if (!st || WARN(atomic_read(&st->aliases),
			"abidep: entry %s unregistered with %d aliases left\n",
			entry->old_name, atomic_read(&st->aliases))) {
		mutex_unlock(&abidep_lock);
		return;
	}
	list_del(&st->node);
	entry->state = NULL;
	mutex_unlock(&abidep_lock);
	/* Off the registry: no window can start; end one that runs. */
	abidep_brownout_exit(st);
	kfree(st);
}
EXPORT_SYMBOL_GPL(abidep_entry_unregister);
