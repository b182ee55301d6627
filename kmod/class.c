// SPDX-License-Identifier: GPL-2.0
/*
 * Table entries: aliases for drivers that cannot be changed. An entry names a
 * device class; abidep adds the alias to every device of that class, now and
 * later, and removes it when the device goes.
 *
 * A module cannot look a class up by name (class_kset and rc-core's
 * struct class are private), so abidep learns a class from any of its
 * devices: it walks the devices kset (under the kset's lock, taking a
 * reference) for a device whose class has the table's name, then registers a
 * class_interface on that class. The class core then calls add_dev() for
 * every device present and every later one, and remove_dev() for each device
 * that goes. Scans run at load, whenever a module finishes loading (its init
 * usually registers the devices), and on a write to
 * /sys/kernel/abidep/rescan (the udev rule, for a first device hot-plugged
 * into a driver that was already loaded).
 *
 * A class is let go when its last device goes, not when its module goes:
 * since 6.4 a class_interface holds a reference to the class's private
 * part (subsys_private), dropped by class_interface_unregister() only while
 * the class is still registered; the class module's GOING notification comes
 * after its exit() has unregistered the class, too late, and the reference
 * (and the subsys_private) would leak on every unload of rc-core. Devices of
 * a class go before it (rc-loopback before rc-core), so the interface is
 * unregistered, from a work item (remove_dev() runs under the class's
 * mutex, which unregistering takes), once the class is empty, and that work
 * is flushed in every module's GOING notification: after the module that
 * removed the last device, before any other can be unloaded. The next
 * device binds it again (a module's LIVE scan, or the udev rule's rescan).
 * A module that removes its own devices and unregisters its own class in
 * one exit() still leaks that reference on 6.4 and later; rc-core does not.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/platform_device.h>
#include <linux/slab.h>

#include "abidep_internal.h"

/* Every device is in devices_kset; platform_bus is an exported device. */
#define abidep_devices_kset() (platform_bus.kobj.kset)

struct abidep_binding {
	struct list_head node;		/* in the table's bindings */
	struct list_head bound_node;	/* in abidep_bound while registered */
	struct abidep_table *table;
	const char *class_name;
	struct class_interface intf;	/* .class set while bound */
	bool said_taken;		/* "already watched" logged, not bound since */
	struct mutex lock;		/* protects aliases and devices */
	struct list_head aliases;
	unsigned int devices;		/* of the class, while bound */
};

/* Protects abidep_tables, each table's bindings and their binding state. */
static DEFINE_MUTEX(abidep_class_lock);
static LIST_HEAD(abidep_tables);

static void abidep_unbind_empty(struct work_struct *work);
/* Unbinds the classes left without a device (see the top of this file). */
static DECLARE_WORK(abidep_unbind_work, abidep_unbind_empty);

/*
 * The bindings whose interface is registered, one per class at most. The
 * class core's callbacks find theirs here by the device's class: since 6.4
 * they are not given the interface. They run under the class's own mutex,
 * inside class_interface_register() too, where abidep_class_lock is held:
 * hence a lock of its own.
 */
static DEFINE_SPINLOCK(abidep_bound_lock);
static LIST_HEAD(abidep_bound);

/* The binding whose interface watches @class, or NULL. */
static struct abidep_binding *abidep_binding_of(const struct class *class)
{
	struct abidep_binding *b, *found = NULL;

	spin_lock(&abidep_bound_lock);
	list_for_each_entry(b, &abidep_bound, bound_node) {
		if (b->intf.class == class) {
			found = b;
			break;
		}
	}
	spin_unlock(&abidep_bound_lock);
	return found;
}

/*
 * A binding cannot go while the class core runs its callback: unbinding
 * unregisters the interface (which waits for the class's mutex) first.
 */
static int abidep_add_dev(ABIDEP_CLASS_INTF_PARAMS)
{
	struct abidep_binding *b = abidep_binding_of(dev->class);
	struct device_attribute *new_attr;
	struct abidep_alias *a;
	struct abidep_table *t;
	unsigned int i;

	if (!b)
		return 0;
	t = b->table;
	for (i = 0; i < t->nr; i++) {
		struct abidep_entry *e = &t->entries[i];

		if (!e->state || strcmp(e->class_name, b->class_name))
			continue;
		new_attr = abidep_find_dev_attr(dev, e->new_name);
		a = new_attr ? abidep_device_alias_add(dev, e, new_attr) :
			       ERR_PTR(-ENOENT);
		if (IS_ERR(a)) {
			dev_info(dev, "abidep: %s -> %s not added: %s\n",
				 e->old_name, e->new_name,
				 PTR_ERR(a) == -ENOENT ? "no such attribute" :
				 PTR_ERR(a) == -EEXIST ? "old name exists" :
				 "error");
			continue;
		}
		mutex_lock(&b->lock);
		list_add_tail(&a->node, &b->aliases);
		mutex_unlock(&b->lock);
	}
	mutex_lock(&b->lock);
	b->devices++;
	mutex_unlock(&b->lock);
	return 0;
}

static void abidep_remove_dev(ABIDEP_CLASS_INTF_PARAMS)
{
	struct abidep_binding *b = abidep_binding_of(dev->class);
	struct abidep_alias *a, *tmp;
	bool empty;
	LIST_HEAD(gone);

	if (!b)
		return;
	mutex_lock(&b->lock);
	list_for_each_entry_safe(a, tmp, &b->aliases, node)
		if (a->kobj == &dev->kobj)
			list_move(&a->node, &gone);
	empty = b->devices && !--b->devices;
	mutex_unlock(&b->lock);
	if (empty)
		schedule_work(&abidep_unbind_work);
	list_for_each_entry_safe(a, tmp, &gone, node)
		abidep_alias_remove(a);
}

/* A referenced device of class @name, or NULL. */
static struct device *abidep_find_class_device(const char *name)
{
	struct kset *kset = abidep_devices_kset();
	struct device *found = NULL;
	struct kobject *k;

	spin_lock(&kset->list_lock);
	list_for_each_entry(k, &kset->list, entry) {
		struct device *dev = kobj_to_dev(k);

		if (dev->class && !strcmp(dev->class->name, name) &&
		    kobject_get_unless_zero(k)) {
			found = dev;
			break;
		}
	}
	spin_unlock(&kset->list_lock);
	return found;
}

/* Forget @b's class once its interface is unregistered (or never was). */
static void abidep_unbound(struct abidep_binding *b)
{
	spin_lock(&abidep_bound_lock);
	list_del(&b->bound_node);
	spin_unlock(&abidep_bound_lock);
	b->intf.class = NULL;
}

static void abidep_bind(struct abidep_binding *b)
{
	struct device *dev;
	int ret;

	lockdep_assert_held(&abidep_class_lock);
	if (b->intf.class)
		return;
	dev = abidep_find_class_device(b->class_name);
	if (!dev)
		return;
	if (!device_is_registered(dev) || !dev->class)
		goto out;
	if (abidep_binding_of(dev->class)) {
		/* Every scan finds it so: say it once, until it binds. */
		if (!b->said_taken)
			pr_err("class %s: already watched for another table; its entries here are skipped\n",
			       b->class_name);
		b->said_taken = true;
		goto out;
	}
	b->said_taken = false;
	b->intf.class = dev->class;
	spin_lock(&abidep_bound_lock);
	list_add_tail(&b->bound_node, &abidep_bound);
	spin_unlock(&abidep_bound_lock);
	ret = class_interface_register(&b->intf);
	if (ret) {
		pr_err("class %s: cannot watch its devices (%d)\n",
		       b->class_name, ret);
		abidep_unbound(b);
	}
out:
	put_device(dev);
}

static void abidep_unbind(struct abidep_binding *b)
{
	lockdep_assert_held(&abidep_class_lock);
	if (!b->intf.class)
		return;
	/* Calls remove_dev() for each device still in the class. */
	class_interface_unregister(&b->intf);
	abidep_unbound(b);
}

/* The work: unbind each bound class that still has no device. */
static void abidep_unbind_empty(struct work_struct *work)
{
	struct abidep_binding *b;
	struct abidep_table *t;
	bool empty;

	mutex_lock(&abidep_class_lock);
	list_for_each_entry(t, &abidep_tables, node) {
		list_for_each_entry(b, &t->bindings, node) {
			if (!b->intf.class)
				continue;
			mutex_lock(&b->lock);
			empty = !b->devices;
			mutex_unlock(&b->lock);
			if (empty)
				abidep_unbind(b);
		}
	}
	mutex_unlock(&abidep_class_lock);
}

/**
 * abidep_class_flush() - let go now of the classes left without a device
 *
 * Waits for the work that unbinds them, queued when a class's last device
 * went.
 */
void abidep_class_flush(void)
{
	flush_work(&abidep_unbind_work);
}

/**
 * abidep_class_scan() - bind every table class that now has a device
 */
void abidep_class_scan(void)
{
	struct abidep_binding *b;
	struct abidep_table *t;

	mutex_lock(&abidep_class_lock);
	list_for_each_entry(t, &abidep_tables, node)
		list_for_each_entry(b, &t->bindings, node)
			abidep_bind(b);
	mutex_unlock(&abidep_class_lock);
}

static struct abidep_binding *abidep_binding_get(struct abidep_table *t,
						 const char *class_name)
{
	struct abidep_binding *b;

	list_for_each_entry(b, &t->bindings, node)
		if (!strcmp(b->class_name, class_name))
			return b;
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return NULL;
	b->table = t;
	b->class_name = class_name;
	b->intf.add_dev = abidep_add_dev;
	b->intf.remove_dev = abidep_remove_dev;
	mutex_init(&b->lock);
	INIT_LIST_HEAD(&b->aliases);
	list_add_tail(&b->node, &t->bindings);
	return b;
}

static void abidep_table_release(struct abidep_table *t)
{
	struct abidep_binding *b, *tmp;
	unsigned int i;

	list_for_each_entry_safe(b, tmp, &t->bindings, node) {
		abidep_unbind(b);
		list_del(&b->node);
		kfree(b);
	}
	for (i = 0; i < t->nr; i++)
		if (t->entries[i].state)
			abidep_entry_unregister(&t->entries[i]);
}

/**
 * abidep_table_load() - register a table's entries and watch their classes
 * @t: the table; entries without a class are skipped
 *
 * An entry that fails its checks is logged by name and skipped. A class with
 * no device yet is logged and watched for: it binds when a device appears.
 *
 * Return: 0, or -ENOMEM (and nothing of @t stays registered).
 */
int abidep_table_load(struct abidep_table *t)
{
	struct abidep_binding *b;
	unsigned int i;

	INIT_LIST_HEAD(&t->bindings);
	mutex_lock(&abidep_class_lock);
	for (i = 0; i < t->nr; i++) {
		struct abidep_entry *e = &t->entries[i];

		if (!e->class_name || !*e->class_name) {
			pr_err("table entry %s: no class, skipped\n",
			       e->old_name ? e->old_name : "(null)");
			continue;
		}
		if (abidep_entry_register(e)) {
			pr_err("table entry %s/%s: skipped\n", e->class_name,
			       e->old_name ? e->old_name : "(null)");
			continue;
		}
		if (!abidep_binding_get(t, e->class_name)) {
			abidep_table_release(t);
			mutex_unlock(&abidep_class_lock);
			return -ENOMEM;
		}
	}
	list_add_tail(&t->node, &abidep_tables);
	list_for_each_entry(b, &t->bindings, node) {
		abidep_bind(b);
		if (!b->intf.class)
			pr_info("class %s has no device yet; its aliases wait for one\n",
				b->class_name);
	}
	mutex_unlock(&abidep_class_lock);
	return 0;
}

/**
 * abidep_table_unload() - remove a table's aliases and entries
 * @t: a table loaded with abidep_table_load()
 */
void abidep_table_unload(struct abidep_table *t)
{
	mutex_lock(&abidep_class_lock);
	list_del(&t->node);
	abidep_table_release(t);
	mutex_unlock(&abidep_class_lock);
	/* Its bindings' remove_dev() may have queued it: done before they go. */
	abidep_class_flush();
}

/**
 * abidep_table_alias_count() - how many aliases a table has on devices now
 * @t: a loaded table
 *
 * Return: the number of aliases.
 */
unsigned int abidep_table_alias_count(struct abidep_table *t)
{
	struct abidep_binding *b;
	struct abidep_alias *a;
	unsigned int n = 0;

	mutex_lock(&abidep_class_lock);
	list_for_each_entry(b, &t->bindings, node) {
		mutex_lock(&b->lock);
		list_for_each_entry(a, &b->aliases, node)
			n++;
		mutex_unlock(&b->lock);
	}
	mutex_unlock(&abidep_class_lock);
	return n;
}

#ifdef CONFIG_MODULES
static int abidep_module_event(struct notifier_block *nb, unsigned long action,
			       void *data)
{
	struct module *mod = data;
	struct abidep_binding *b;
	struct abidep_table *t;

	switch (action) {
	case MODULE_STATE_LIVE:
		abidep_class_scan();
		break;
	case MODULE_STATE_GOING:
		/* Before another module can go: its class may be emptied. */
		abidep_class_flush();
		mutex_lock(&abidep_class_lock);
		list_for_each_entry(t, &abidep_tables, node)
			list_for_each_entry(b, &t->bindings, node)
				if (b->intf.class &&
				    within_module((unsigned long)b->intf.class, mod))
					abidep_unbind(b);
		mutex_unlock(&abidep_class_lock);
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block abidep_module_nb = {
	.notifier_call = abidep_module_event,
};

int abidep_class_init(void)
{
	return register_module_notifier(&abidep_module_nb);
}

void abidep_class_exit(void)
{
	unregister_module_notifier(&abidep_module_nb);
}
#else
/* No modules: every class and device comes from built-in code. */
int abidep_class_init(void)
{
	return 0;
}

void abidep_class_exit(void)
{
}
#endif
