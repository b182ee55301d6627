// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/abidep/: root-only controls.
 *
 * rescan (0200): any write looks again for devices of the table's classes.
 * The udev rule in kmod/udev/ writes it when a device of such a class is
 * added, for the one case the module notifier cannot see: the first device
 * of a class hot-plugged into a driver that was already loaded.
 *
 * brownout (0200): "NAME SECONDS [fail|hide]" or "NAME off", see brownout.c.
 */
#include <linux/kobject.h>
#include <linux/sysfs.h>

#include "abidep_internal.h"

static struct kobject *abidep_kobj;

static ssize_t rescan_store(struct kobject *kobj, struct kobj_attribute *attr,
			    const char *buf, size_t count)
{
	abidep_class_scan();
	return count;
}

static struct kobj_attribute rescan_attr = __ATTR_WO(rescan);

static ssize_t brownout_store(struct kobject *kobj, struct kobj_attribute *attr,
			      const char *buf, size_t count)
{
	return abidep_brownout_write(buf, count);
}

static struct kobj_attribute brownout_attr = __ATTR_WO(brownout);

static struct attribute *abidep_control_attrs[] = {
	&rescan_attr.attr,
	&brownout_attr.attr,
	NULL,
};

static const struct attribute_group abidep_control_group = {
	.attrs = abidep_control_attrs,
};

int abidep_control_init(void)
{
	int ret;

	abidep_kobj = kobject_create_and_add("abidep", kernel_kobj);
	if (!abidep_kobj)
		return -ENOMEM;
	ret = sysfs_create_group(abidep_kobj, &abidep_control_group);
	if (ret)
		abidep_control_exit();
	return ret;
}

/*
 * Removed from sysfs now, not at the last put: with the kobject's release
 * delayed (CONFIG_DEBUG_KOBJECT_RELEASE), or a reference still held, the
 * directory would outlive the module and an insmod right after would find
 * /sys/kernel/abidep taken.
 */
void abidep_control_exit(void)
{
	kobject_del(abidep_kobj);
	kobject_put(abidep_kobj);
}
