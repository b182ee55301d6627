// SPDX-License-Identifier: GPL-2.0
/*
 * Brownouts: rehearse the removal of an old name for a while, so that the
 * programs still using it show themselves by failing, then put it back.
 *
 * /sys/kernel/abidep/brownout (0200, root only) takes one line:
 *
 *	NAME DURATION [fail|hide]	start a window (fail is the default)
 *	NAME off			end the window now
 *
 * DURATION is seconds, or a number with a unit (30s, 5m, 2h): the grammar
 * of duration.c, which the abidep command shares.
 *
 * NAME is the entry's old name, or CLASS/OLD (table entries), MODULE/OLD
 * (entries a driver declared) or kernel/OLD (those of built-in code) when
 * the old name alone is ambiguous.
 *
 * fail: every read and write through the entry's aliases returns -ENODEV,
 * which is what kernfs returns to a program that kept a sysfs file open
 * across its removal. The files stay, so the failures reach the tracer's
 * fexit programs and the counters: this is the mode that names who breaks.
 *
 * hide: the alias files are removed and created again when the window ends,
 * as a removal looks to a program that opens the path (ENOENT). Those opens
 * fail in the path walk, before sysfs: nobody can count them.
 *
 * The window ends in a delayed work. An entry that is unregistered (its
 * module unloads, abidep itself included) ends its window first and
 * cancels the work; an alias removed with its device during a hide window
 * has no file to remove and is not restored.
 *
 * Locking: abidep_lock (registry) before bo->lock. bo->lock is held while
 * alias files are created and removed, and sysfs_remove_file() waits for
 * show() and store() in progress: those never take bo->lock. So a window
 * that hides an entry's aliases waits for the show() and store() of every
 * device with one: whoever adds or removes an alias (under bo->lock) must
 * not hold a lock that the new attribute's show() or store() takes, on any
 * device (sysfs asks the same of a device's own files).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jiffies.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/timekeeping.h>

#include "abidep_internal.h"
#include "duration.h"

static const char *const abidep_brownout_modes[] = {
	[ABIDEP_BROWNOUT_OFF] = "off",
	[ABIDEP_BROWNOUT_FAIL] = "fail",
	[ABIDEP_BROWNOUT_HIDE] = "hide",
};

/* What qualifies an entry's old name: its class, or its owner module. */
static const char *abidep_brownout_qual(const struct abidep_state *st)
{
	if (st->entry->class_name)
		return st->entry->class_name;
	return st->owner ? module_name(st->owner) : "kernel";
}

/* Remove or create every alias file of the entry; the count done. */
static unsigned int abidep_brownout_set_hidden(struct abidep_state *st,
					       bool hide)
{
	struct abidep_brownout *bo = &st->bo;
	struct abidep_alias *a;
	unsigned int n = 0;
	int ret;

	lockdep_assert_held(&bo->lock);
	list_for_each_entry(a, &bo->aliases, bo_node) {
		if (a->hidden == hide)
			continue;
		if (hide) {
			sysfs_remove_file(a->kobj, &a->shim.attr);
		} else {
			ret = abidep_alias_create_file(a);
			if (ret) {
				/* It stays hidden: removing it later is skipped. */
				pr_err("brownout of %s/%s: %s not restored (%d)\n",
				       abidep_brownout_qual(st),
				       st->entry->old_name, a->path, ret);
				continue;
			}
		}
		a->hidden = hide;
		n++;
	}
	return n;
}

static void abidep_brownout_end(struct abidep_state *st, const char *why)
{
	struct abidep_brownout *bo = &st->bo;
	unsigned int restored = 0;

	lockdep_assert_held(&bo->lock);
	if (bo->mode == ABIDEP_BROWNOUT_HIDE)
		restored = abidep_brownout_set_hidden(st, false);
	WRITE_ONCE(bo->mode, ABIDEP_BROWNOUT_OFF);
	pr_info("brownout of %s/%s ended (%s): %lld accesses failed, %u alias files restored\n",
		abidep_brownout_qual(st), st->entry->old_name, why,
		atomic64_read(&bo->failed), restored);
}

static void abidep_brownout_expire(struct work_struct *work)
{
	struct abidep_brownout *bo = container_of(to_delayed_work(work),
						  struct abidep_brownout, work);
	struct abidep_state *st = container_of(bo, struct abidep_state, bo);

	mutex_lock(&bo->lock);
	/*
	 * A window turned off and started again while this work waited for
	 * the lock has a later end, and its own work queued: leave it.
	 */
	if (bo->mode != ABIDEP_BROWNOUT_OFF && !time_before(jiffies, bo->end))
		abidep_brownout_end(st, "time up");
	mutex_unlock(&bo->lock);
}

static void abidep_brownout_start(struct abidep_state *st,
				  enum abidep_brownout_mode mode,
				  unsigned int seconds)
{
	struct abidep_brownout *bo = &st->bo;
	unsigned long delay = (unsigned long)seconds * HZ;
	unsigned int hidden = 0;

	lockdep_assert_held(&bo->lock);
	atomic64_set(&bo->failed, 0);
	bo->end = jiffies + delay;
	bo->until = ktime_get_real_seconds() + seconds;
	if (mode == ABIDEP_BROWNOUT_HIDE)
		hidden = abidep_brownout_set_hidden(st, true);
	WRITE_ONCE(bo->mode, mode);
	mod_delayed_work(system_wq, &bo->work, delay);
	if (mode == ABIDEP_BROWNOUT_FAIL)
		pr_info("brownout of %s/%s started: fail for %u s, accesses return ENODEV\n",
			abidep_brownout_qual(st), st->entry->old_name, seconds);
	else
		pr_info("brownout of %s/%s started: hide for %u s, %u alias files removed\n",
			abidep_brownout_qual(st), st->entry->old_name, seconds,
			hidden);
}

/**
 * abidep_brownout_init() - set up an entry's brownout state
 * @st: a new entry's state, before it is listed
 */
void abidep_brownout_init(struct abidep_state *st)
{
	struct abidep_brownout *bo = &st->bo;

	mutex_init(&bo->lock);
	bo->mode = ABIDEP_BROWNOUT_OFF;
	INIT_LIST_HEAD(&bo->aliases);
	INIT_DELAYED_WORK(&bo->work, abidep_brownout_expire);
	atomic64_set(&bo->failed, 0);
}

/**
 * abidep_brownout_exit() - end an entry's window, before it is freed
 * @st: the state of an entry no longer in the registry (so no new window
 *	can start) and without aliases
 *
 * Nothing is restored: an entry is unregistered only once its aliases are
 * gone. Waits for the work that ends the window, if it is running.
 */
void abidep_brownout_exit(struct abidep_state *st)
{
	struct abidep_brownout *bo = &st->bo;

	mutex_lock(&bo->lock);
	if (bo->mode != ABIDEP_BROWNOUT_OFF)
		abidep_brownout_end(st, "entry unregistered");
	mutex_unlock(&bo->lock);
	cancel_delayed_work_sync(&bo->work);
	mutex_destroy(&bo->lock);
}

/**
 * abidep_brownout_alias_add() - create an alias's file, unless hidden
 * @a: a new alias, not yet visible
 *
 * During a hide window the file is not created (the window creates it when
 * it ends), so a device that appears meanwhile is browned out too.
 *
 * Return: 0, -EEXIST (a hidden alias of the entry on the same device, or a
 * file by its name), or the error of sysfs_create_file().
 */
int abidep_brownout_alias_add(struct abidep_alias *a)
{
	struct abidep_brownout *bo = &a->st->bo;
	struct abidep_alias *other;
	int ret = 0;

	mutex_lock(&bo->lock);
	if (bo->mode == ABIDEP_BROWNOUT_HIDE) {
		/* No file tells of a second alias on the device: the list does. */
		list_for_each_entry(other, &bo->aliases, bo_node)
			if (other->kobj == a->kobj)
				ret = -EEXIST;
		a->hidden = !ret;
	} else {
		ret = abidep_alias_create_file(a);
	}
	if (!ret)
		list_add_tail(&a->bo_node, &bo->aliases);
	mutex_unlock(&bo->lock);
	return ret;
}

/**
 * abidep_brownout_alias_remove() - remove an alias's file, if it has one
 * @a: an alias added with abidep_brownout_alias_add()
 *
 * Once off the entry's list no window touches the alias, so its file (if
 * not hidden) is removed outside the lock.
 */
void abidep_brownout_alias_remove(struct abidep_alias *a)
{
	struct abidep_brownout *bo = &a->st->bo;
	bool hidden;

	mutex_lock(&bo->lock);
	list_del(&a->bo_node);
	hidden = a->hidden;
	mutex_unlock(&bo->lock);
	if (!hidden)
		sysfs_remove_file(a->kobj, &a->shim.attr);
}

/**
 * abidep_brownout_fails() - whether an access to an alias must fail now
 * @st: the alias's entry
 *
 * Counts the access as failed when it must. Lockless: an access racing
 * with the start or end of a window may go either way.
 *
 * Return: true in a fail window; the access then returns -ENODEV.
 */
bool abidep_brownout_fails(struct abidep_state *st)
{
	if (READ_ONCE(st->bo.mode) != ABIDEP_BROWNOUT_FAIL)
		return false;
	atomic64_inc(&st->bo.failed);
	return true;
}

/**
 * abidep_brownout_parse() - parse a line written to the brownout control
 * @s: the line, NUL-terminated, one trailing newline allowed; split in place
 * @name: the entry's name, as written
 * @seconds: the window's length (0 for "off")
 * @mode: the window's mode, or ABIDEP_BROWNOUT_OFF for "NAME off"
 *
 * The words are separated by exactly one space: "NAME DURATION",
 * "NAME DURATION fail", "NAME DURATION hide" or "NAME off". DURATION is
 * what abidep_brownout_seconds() takes, as `abidep brownout --for` does:
 * "30", "30s", "5m", up to a day.
 *
 * Return: 0, or -EINVAL for anything else.
 */
int abidep_brownout_parse(char *s, char **name, unsigned int *seconds,
			  enum abidep_brownout_mode *mode)
{
	char *word[4];
	size_t len = strlen(s);
	unsigned int n = 0;

	if (len && s[len - 1] == '\n')
		s[--len] = '\0';
	if (!len)
		return -EINVAL;
	while (s && n < ARRAY_SIZE(word)) {
		word[n] = strsep(&s, " ");
		if (!*word[n])
			return -EINVAL;	/* leading, trailing or double space */
		n++;
	}
	if (s || n < 2 || n > 3 || strchr(word[0], '\n'))
		return -EINVAL;
	*name = word[0];
	if (!strcmp(word[1], "off")) {
		if (n != 2)
			return -EINVAL;
		*seconds = 0;
		*mode = ABIDEP_BROWNOUT_OFF;
		return 0;
	}
	if (abidep_brownout_seconds(word[1], seconds))
		return -EINVAL;	/* out of range too */
	if (n == 2 || !strcmp(word[2], "fail"))
		*mode = ABIDEP_BROWNOUT_FAIL;
	else if (!strcmp(word[2], "hide"))
		*mode = ABIDEP_BROWNOUT_HIDE;
	else
		return -EINVAL;
	return 0;
}

/*
 * The one entry @name names, or an ERR_PTR(): -ENOENT, -ENOTUNIQ. A name
 * with a slash is qualified, even by nothing: "/OLD" names no entry.
 */
static struct abidep_state *abidep_brownout_find(const char *name)
{
	struct abidep_state *st, *found = NULL;
	const char *slash = strchr(name, '/');
	const char *old = slash ? slash + 1 : name;
	size_t qlen = slash ? slash - name : 0;

	lockdep_assert_held(&abidep_lock);
	list_for_each_entry(st, &abidep_registry, node) {
		const char *q = abidep_brownout_qual(st);

		if (strcmp(st->entry->old_name, old))
			continue;
		if (slash && (strlen(q) != qlen || strncmp(q, name, qlen)))
			continue;
		if (found)
			return ERR_PTR(-ENOTUNIQ);
		found = st;
	}
	return found ? found : ERR_PTR(-ENOENT);
}

/**
 * abidep_brownout_write() - act on a line written to the brownout control
 * @buf: what was written (sysfs NUL-terminates it)
 * @count: its length
 *
 * Return: @count, or -EINVAL (malformed or longer than a qualified name and
 * its arguments), -ENOENT (no such entry), -ENOTUNIQ (the old name alone
 * names several entries: qualify it), -EBUSY (the entry is in a window:
 * turn it off first), -ENOMEM.
 */
ssize_t abidep_brownout_write(const char *buf, size_t count)
{
	enum abidep_brownout_mode mode;
	struct abidep_state *st;
	unsigned int seconds;
	char *line, *name;
	ssize_t ret;

	if (count > ABIDEP_BROWNOUT_LINE_MAX || memchr(buf, '\0', count))
		return -EINVAL;
	line = kmemdup_nul(buf, count, GFP_KERNEL);
	if (!line)
		return -ENOMEM;
	ret = abidep_brownout_parse(line, &name, &seconds, &mode);
	if (ret)
		goto out;

	mutex_lock(&abidep_lock);
	st = abidep_brownout_find(name);
	if (IS_ERR(st)) {
		ret = PTR_ERR(st);
	} else {
		mutex_lock(&st->bo.lock);
		if (mode == ABIDEP_BROWNOUT_OFF) {
			/* Its work finds the window over and does nothing. */
			if (st->bo.mode != ABIDEP_BROWNOUT_OFF)
				abidep_brownout_end(st, "turned off");
		} else if (st->bo.mode != ABIDEP_BROWNOUT_OFF) {
			ret = -EBUSY;
		} else {
			abidep_brownout_start(st, mode, seconds);
		}
		mutex_unlock(&st->bo.lock);
	}
	mutex_unlock(&abidep_lock);
out:
	kfree(line);
	return ret ? ret : count;
}

/**
 * abidep_brownout_show() - an entry's brownout fields in the state file
 * @m: the state file
 * @st: the entry
 */
void abidep_brownout_show(struct seq_file *m, struct abidep_state *st)
{
	struct abidep_brownout *bo = &st->bo;

	mutex_lock(&bo->lock);
	seq_printf(m, " brownout=%s", abidep_brownout_modes[bo->mode]);
	if (bo->mode != ABIDEP_BROWNOUT_OFF)
		seq_printf(m, " brownout_until=%lld", bo->until);
	else
		seq_puts(m, " brownout_until=-");
	seq_printf(m, " brownout_failed=%lld", atomic64_read(&bo->failed));
	mutex_unlock(&bo->lock);
}
