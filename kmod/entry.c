// SPDX-License-Identifier: GPL-2.0
/*
 * Entries: their checks (dates and versions are when.c's), and the registry
 * the state file lists.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/math64.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/time.h>

#include "abidep_internal.h"

/* Protects abidep_registry and each entry's ->state pointer. */
DEFINE_MUTEX(abidep_lock);
LIST_HEAD(abidep_registry);

/**
 * abidep_date_from_time() - the UTC date of a time, as the tools take it
 * @t: seconds since the epoch (a clock before 1970 counts as 1970-01-01)
 * @d: its date
 */
void abidep_date_from_time(time64_t t, struct abidep_date *d)
{
	abidep_date_from_days(t > 0 ? div_u64(t, 86400) : 0, d);
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
		pr_err("entry %s: deprecated date '%s' is not YYYY-MM-DD, YYYY-MM or YYYY\n",
		       name, e->deprecated ? e->deprecated : "");
		return -EINVAL;
	}
	if (abidep_parse_when(e->remove_after, &st->remove_after)) {
		pr_err("entry %s: remove_after '%s' is not a date, a kernel version or both\n",
		       name, e->remove_after ? e->remove_after : "");
		return -EINVAL;
	}
	if (st->remove_after.has_date &&
	    abidep_date_cmp(&st->remove_after.date, &st->deprecated) < 0) {
		pr_err("entry %s: removal date %s is before deprecation date %s\n",
		       name, e->remove_after, e->deprecated);
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
