// SPDX-License-Identifier: GPL-2.0
/*
 * The alias: a sysfs file under the old name, on the same kobject as the new
 * attribute, whose reads and writes go through the kobject's own sysfs_ops
 * with the new attribute, so they behave exactly like the new name (same
 * locking, same errors), plus counting, logging and a tracepoint.
 *
 * Lifetime: sysfs_remove_file() drains every show()/store() in progress on
 * the alias before it returns, and a file left open afterwards gets -ENODEV
 * from kernfs without calling into this module. So an alias is freed right
 * after its file is removed, and the module can go while files are open.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cred.h>
#include <linux/dcache.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/kernfs.h>
#include <linux/rcupdate.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/timekeeping.h>

#include "abidep_internal.h"

#define CREATE_TRACE_POINTS
#include "abidep_trace.h"

atomic64_t abidep_log_suppressed = ATOMIC64_INIT(0);

/*
 * At most 10 lines each 5 s from all entries together, at most 5 of them
 * naming one uid's users; the rest are counted.
 */
static struct abidep_budget abidep_log_budget =
	ABIDEP_BUDGET_INIT(abidep_log_budget, 5 * HZ);

/* current's executable, with a reference; NULL for kernel threads. */
static struct file *abidep_current_exe(void)
{
	struct mm_struct *mm = current->mm;
	struct file *exe;

	if (!mm)
		return NULL;
	rcu_read_lock();
	exe = abidep_exe_file_get_rcu(mm);
	rcu_read_unlock();
	return exe;
}

/*
 * Identify current: its executable (inode number and device) and comm.
 * Every access to an alias comes here, so it takes no reference and no
 * lock: the executable is looked at under RCU only (a reference is taken
 * later, for a new user's path), and comm is read as printk reads it (a
 * rename racing with this can only make it a new user). The pid is the
 * global one and the uid the initial namespace's, as the kernel log and
 * the tracer give them.
 */
static void abidep_who_current(struct abidep_who *who)
{
	struct mm_struct *mm = current->mm;
	struct file *exe;

	memcpy(who->comm, current->comm, sizeof(who->comm));
	who->comm[sizeof(who->comm) - 1] = '\0';
	who->tgid = task_tgid_nr(current);
	who->uid = __kuid_val(current_uid());
	who->exe = NULL;
	who->key = 0;
	who->dev = 0;
	if (!mm)
		return;
	rcu_read_lock();
	exe = rcu_dereference(mm->exe_file);
	if (exe) {
		const struct inode *inode = file_inode(exe);

		who->key = inode->i_ino;
		who->dev = inode->i_sb->s_dev;
	}
	rcu_read_unlock();
}

static void abidep_log(const struct abidep_alias *a,
		       const struct abidep_who *who, bool write)
{
	char *line;

	if (!abidep_budget_take(&abidep_log_budget, who->uid, jiffies)) {
		atomic64_inc(&abidep_log_suppressed);
		return;
	}
	line = kmalloc(ABIDEP_LOG_LINE_MAX, GFP_KERNEL);
	if (!line)
		return;
	abidep_log_line(line, ABIDEP_LOG_LINE_MAX, a->path, a->st->entry, who,
			write);
	pr_warn("%s\n", line);
	kfree(line);
}

/* The path of @exe, in *@buf (a PATH_MAX buffer the caller frees). */
static const char *abidep_exe_path(struct file *exe, char **buf)
{
	char *p;

	if (!exe)
		return "(kernel)";
	*buf = __getname();
	if (!*buf)
		return "(unknown)";
	p = d_path(&exe->f_path, *buf, PATH_MAX);
	return IS_ERR(p) ? "(unknown)" : p;
}

/**
 * abidep_note_access() - count an access to an alias, trace it, log its user
 * @a: the alias
 * @write: a write (else a read)
 * @ret: what the access returned to userspace
 */
void abidep_note_access(struct abidep_alias *a, bool write, ssize_t ret)
{
	struct abidep_state *st = a->st;
	unsigned long interval = (unsigned long)abidep_log_interval * HZ;
	unsigned long now = jiffies;
	time64_t wall = ktime_get_real_seconds();
	struct abidep_who who;
	enum abidep_note note;
	struct file *exe = NULL;
	char *buf = NULL;

	atomic64_inc(write ? &st->writes : &st->reads);
	if (ret < 0)
		atomic64_inc(&st->errors);
	trace_abidep_access(a->path, st->entry->old_name, st->entry->new_name,
			    write, ret);

	abidep_who_current(&who);
	note = abidep_users_note(&st->users, &who, write, now, wall, interval);
	if (note != ABIDEP_NOTE_QUIET) {
		/* A new user, or one due a log line: only now is d_path() worth it. */
		exe = abidep_current_exe();
		who.exe = abidep_exe_path(exe, &buf);
		if (note == ABIDEP_NOTE_MISS)
			note = abidep_users_note(&st->users, &who, write, now,
						 wall, interval);
		if (note == ABIDEP_NOTE_LOG)
			abidep_log(a, &who, write);
	}
	if (buf)
		__putname(buf);
	if (exe)
		fput(exe);
}

static ssize_t abidep_alias_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct abidep_alias *a = container_of(attr, struct abidep_alias, shim);
	const struct abidep_entry *e = a->st->entry;
	ssize_t ret;

	if (abidep_brownout_fails(a->st)) {
		abidep_note_access(a, false, -ENODEV);
		return -ENODEV;
	}
	ret = a->kobj->ktype->sysfs_ops->show(a->kobj, a->target, buf);
	if (ret >= 0 && e->show_xlate) {
		ret = e->show_xlate(dev, buf, ret);
		if (WARN_ON_ONCE(ret >= (ssize_t)PAGE_SIZE))
			ret = -EIO;
	}
	abidep_note_access(a, false, ret);
	return ret;
}

static ssize_t abidep_alias_store(struct device *dev,
				  struct device_attribute *attr,
				  const char *buf, size_t count)
{
	struct abidep_alias *a = container_of(attr, struct abidep_alias, shim);
	const struct sysfs_ops *ops = a->kobj->ktype->sysfs_ops;
	const struct abidep_entry *e = a->st->entry;
	ssize_t ret, len;
	char *out;

	if (abidep_brownout_fails(a->st)) {
		abidep_note_access(a, true, -ENODEV);
		return -ENODEV;
	}
	if (!e->store_xlate) {
		ret = ops->store(a->kobj, a->target, buf, count);
		abidep_note_access(a, true, ret);
		return ret;
	}
	out = kzalloc(PAGE_SIZE, GFP_KERNEL);
	if (!out) {
		ret = -ENOMEM;
	} else {
		len = e->store_xlate(dev, buf, count, out, PAGE_SIZE);
		if (len >= 0 && WARN_ON_ONCE(len >= (ssize_t)PAGE_SIZE))
			len = -EIO;
		ret = len < 0 ? len : ops->store(a->kobj, a->target, out, len);
		/* The caller wrote count bytes in the old format: all taken. */
		if (ret >= 0)
			ret = count;
		kfree(out);
	}
	abidep_note_access(a, true, ret);
	return ret;
}

/* "/sys/class/rc/rc0/old" for class devices, the device path otherwise. */
static char *abidep_alias_path(struct device *dev, const char *old_name)
{
	char *kpath, *path;

	if (dev->class)
		return kasprintf(GFP_KERNEL, "/sys/class/%s/%s/%s",
				 dev->class->name, dev_name(dev), old_name);
	kpath = kobject_get_path(&dev->kobj, GFP_KERNEL);
	if (!kpath)
		return NULL;
	path = kasprintf(GFP_KERNEL, "/sys%s/%s", kpath, old_name);
	kfree(kpath);
	return path;
}

/*
 * Every alias file abidep creates is created here, under one lock, its name
 * looked up first: of two of abidep's creators of one name on one device (a
 * device added while a brownout window ends, a driver's own alias and a
 * class table's), the second finds the first's file and gets -EEXIST, and
 * sysfs, which warns with a stack trace of a duplicate, never sees one. A
 * file the device's own driver makes by that name is outside the lock: the
 * driver would be making an attribute its subsystem removed.
 */
static DEFINE_MUTEX(abidep_create_lock);

int abidep_alias_create_file(struct abidep_alias *a)
{
	struct kernfs_node *kn;
	int ret;

	mutex_lock(&abidep_create_lock);
	kn = kernfs_find_and_get(a->kobj->sd, a->shim.attr.name);
	if (kn) {
		kernfs_put(kn);
		ret = -EEXIST;
	} else {
		ret = sysfs_create_file(a->kobj, &a->shim.attr);
	}
	mutex_unlock(&abidep_create_lock);
	return ret;
}

/* The new attribute's file on @dev: its mode, or a negative errno. */
static int abidep_target_mode(struct device *dev, const char *name,
			      const struct attribute *attr)
{
	struct kernfs_node *kn;
	int mode;

	kn = kernfs_find_and_get(dev->kobj.sd, name);
	if (!kn)
		return -ENOENT;
	mode = kn->priv == attr ? kn->mode & 0777 : -ENOENT;
	kernfs_put(kn);
	return mode;
}

/**
 * abidep_device_alias_add() - keep an old attribute name working on a device
 * @dev: the device
 * @entry: the entry naming the old and new attribute, registered with
 *	abidep_entry_register()
 * @new_attr: the new attribute, already present on @dev (e.g. from the
 *	driver's dev_groups); its mode is the alias's mode
 *
 * Creates @entry->old_name on @dev (during a brownout that hides the entry,
 * when the window ends). Reading or writing it calls @new_attr's show() and
 * store() through the device's sysfs_ops (translated by the entry's hooks,
 * if any), counts the access, and logs each distinct user once per
 * interval. The caller must not hold a lock that @new_attr's show() or
 * store() takes (see brownout.c).
 *
 * Return: the alias, to pass to abidep_alias_remove(), or an ERR_PTR():
 * -EINVAL (entry not registered), -ENOENT (@new_attr is not on @dev),
 * -EEXIST (@dev already has a file by the old name, or a hidden alias of
 * the entry), -ENOMEM.
 */
struct abidep_alias *abidep_device_alias_add(struct device *dev,
					     struct abidep_entry *entry,
					     struct device_attribute *new_attr)
{
	struct abidep_state *st = entry->state;
	struct abidep_alias *a;
	struct kernfs_node *kn;
	int mode, ret;

	if (!st)
		return ERR_PTR(-EINVAL);
	mode = abidep_target_mode(dev, entry->new_name, &new_attr->attr);
	if (mode < 0)
		return ERR_PTR(mode);
	/*
	 * Refused before anything is made; abidep_alias_create_file() looks
	 * again, under its lock, when it creates the file.
	 */
	kn = kernfs_find_and_get(dev->kobj.sd, entry->old_name);
	if (kn) {
		kernfs_put(kn);
		return ERR_PTR(-EEXIST);
	}

	a = kzalloc(sizeof(*a), GFP_KERNEL);
	if (!a)
		return ERR_PTR(-ENOMEM);
	a->path = abidep_alias_path(dev, entry->old_name);
	if (!a->path) {
		kfree(a);
		return ERR_PTR(-ENOMEM);
	}
	a->st = st;
	a->kobj = &dev->kobj;
	a->target = &new_attr->attr;
	sysfs_attr_init(&a->shim.attr);
	a->shim.attr.name = entry->old_name;
	a->shim.attr.mode = mode;
	if (new_attr->show)
		a->shim.show = abidep_alias_show;
	if (new_attr->store)
		a->shim.store = abidep_alias_store;

	/* Creates the file, unless a brownout hides the entry's aliases. */
	ret = abidep_brownout_alias_add(a);
	if (ret) {
		kfree(a->path);
		kfree(a);
		return ERR_PTR(ret);
	}
	atomic_inc(&st->aliases);
	return a;
}
EXPORT_SYMBOL_GPL(abidep_device_alias_add);

/**
 * abidep_alias_remove() - remove an alias
 * @alias: from abidep_device_alias_add(); NULL or an ERR_PTR() is ignored
 *
 * Waits for reads and writes in progress on the alias, then frees it. Files
 * still open on it get -ENODEV from then on.
 */
void abidep_alias_remove(struct abidep_alias *alias)
{
	if (IS_ERR_OR_NULL(alias))
		return;
	abidep_brownout_alias_remove(alias);
	atomic_dec(&alias->st->aliases);
	kfree(alias->path);
	kfree(alias);
}
EXPORT_SYMBOL_GPL(abidep_alias_remove);

static void abidep_devm_remove(void *alias)
{
	abidep_alias_remove(alias);
}

/**
 * devm_abidep_device_alias_add() - abidep_device_alias_add(), undone on unbind
 * @dev: the device
 * @entry: a registered entry
 * @new_attr: the new attribute, present on @dev
 *
 * Return: 0 or the negative errno of abidep_device_alias_add().
 */
int devm_abidep_device_alias_add(struct device *dev, struct abidep_entry *entry,
				 struct device_attribute *new_attr)
{
	struct abidep_alias *a;

	a = abidep_device_alias_add(dev, entry, new_attr);
	if (IS_ERR(a))
		return PTR_ERR(a);
	return devm_add_action_or_reset(dev, abidep_devm_remove, a);
}
EXPORT_SYMBOL_GPL(devm_abidep_device_alias_add);

/**
 * abidep_find_dev_attr() - find a device attribute by name in @dev's groups
 * @dev: the device
 * @name: the attribute's name
 *
 * Looks in the unnamed groups of the device, its type and its class: the
 * only places where an attribute is known to be a struct device_attribute
 * (a binary attribute by the same name is not one, and is not returned).
 *
 * Return: the attribute, or NULL.
 */
struct device_attribute *abidep_find_dev_attr(struct device *dev,
					      const char *name)
{
	const struct attribute_group *const *lists[3] = {
		dev->groups,
		dev->type ? dev->type->groups : NULL,
		dev->class ? dev->class->dev_groups : NULL,
	};
	const struct attribute_group *const *g;
	struct attribute **attr;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(lists); i++) {
		for (g = lists[i]; g && *g; g++) {
			if ((*g)->name || !(*g)->attrs)
				continue;
			for (attr = (*g)->attrs; *attr; attr++)
				if (!strcmp((*attr)->name, name))
					return container_of(*attr,
							    struct device_attribute,
							    attr);
		}
	}
	return NULL;
}
