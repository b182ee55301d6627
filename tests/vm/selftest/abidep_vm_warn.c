// SPDX-License-Identifier: GPL-2.0
/*
 * Self-test helper for tests/vm/run: loading this module makes the kernel
 * print one deliberate report, so that the runner's kernel-log check can be
 * tested on the real text. report=warn (default): a WARNING. report=dup:
 * sysfs's "cannot create duplicate filename" (a pr_warn and a stack dump, no
 * WARNING:), by creating the same file twice. Harmless either way: the file
 * is removed and the module refuses to load. Guest only, never on the host.
 */
#include <linux/bug.h>
#include <linux/device.h>
#include <linux/errno.h>
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/sysfs.h>

static char *report = "warn";
module_param(report, charp, 0444);
MODULE_PARM_DESC(report, "the report to trigger: warn or dup");

static ssize_t abidep_vm_dup_show(struct kobject *kobj, struct kobj_attribute *attr,
				  char *buf)
{
	return sysfs_emit(buf, "1\n");
}

static struct kobj_attribute abidep_vm_dup_attr = __ATTR_RO_MODE(abidep_vm_dup, 0444);

static int __init abidep_vm_warn_init(void)
{
	if (!strcmp(report, "dup")) {
		if (!sysfs_create_file(kernel_kobj, &abidep_vm_dup_attr.attr)) {
			if (!sysfs_create_file(kernel_kobj, &abidep_vm_dup_attr.attr))
				sysfs_remove_file(kernel_kobj, &abidep_vm_dup_attr.attr);
			sysfs_remove_file(kernel_kobj, &abidep_vm_dup_attr.attr);
		}
		return -ECANCELED;
	}
	WARN(1, "abidep_vm_warn: deliberate warning for the tests/vm/run self-test\n");
	return -ECANCELED;
}
module_init(abidep_vm_warn_init);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("abidep tests/vm/run self-test: trigger a kernel report");
