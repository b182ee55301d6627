// SPDX-License-Identifier: GPL-2.0
/*
 * An attribute with two aliases in a group whose is_visible() hides or
 * narrows it, for the guest tests of the kernel series patches/linux-6.12/
 * (tests/guest/patches.sh). It builds only against a kernel carrying
 * the series: scripts/patches-check.sh builds it against the debug kernel.
 *
 * /sys/kernel/alias_visible/new is 0644 as declared and reads what was last
 * written to it ("value" at first); old is a 0644 alias of it, old_ro a
 * 0444 one, listed before it. is_visible() gives new the mode in the
 * target_mode parameter (0: no file), and writing the parameter applies it
 * at once, through sysfs_update_group().
 */
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <linux/sysfs.h>

/*
 * av_lock protects av_kobj and its group's updates; av_value_lock the
 * value. Two locks: an update waits for the readers of the files it
 * removes, which take av_value_lock.
 */
static DEFINE_MUTEX(av_lock);
static DEFINE_MUTEX(av_value_lock);
static struct kobject *av_kobj;
static char av_value[32] = "value\n";
static unsigned int target_mode = 0644;

static ssize_t new_show(struct kobject *kobj, struct kobj_attribute *attr,
			char *buf)
{
	ssize_t ret;

	mutex_lock(&av_value_lock);
	ret = sysfs_emit(buf, "%s", av_value);
	mutex_unlock(&av_value_lock);
	return ret;
}

static ssize_t new_store(struct kobject *kobj, struct kobj_attribute *attr,
			 const char *buf, size_t count)
{
	if (count >= sizeof(av_value))
		return -EINVAL;
	mutex_lock(&av_value_lock);
	memcpy(av_value, buf, count);
	av_value[count] = '\0';
	mutex_unlock(&av_value_lock);
	return count;
}

static struct kobj_attribute av_new = __ATTR_RW(new);
static struct attribute_alias av_old =
	__ATTR_ALIAS(old, 0644, &av_new.attr, "2020-04", "6.18", "use new");
static struct attribute_alias av_old_ro =
	__ATTR_ALIAS(old_ro, 0444, &av_new.attr, "2020-04", "6.18", "use new");

/* The aliases first: a group makes their files after the others anyway. */
static struct attribute *av_attrs[] = {
	&av_old.attr,
	&av_old_ro.attr,
	&av_new.attr,
	NULL
};

/* The aliases are not special-cased: they follow new's file. */
static umode_t av_is_visible(struct kobject *kobj, struct attribute *attr,
			     int n)
{
	return attr == &av_new.attr ? READ_ONCE(target_mode) : attr->mode;
}

static const struct attribute_group av_group = {
	.attrs = av_attrs,
	.is_visible = av_is_visible,
};

static int target_mode_set(const char *val, const struct kernel_param *kp)
{
	unsigned int mode;
	int ret;

	ret = kstrtouint(val, 8, &mode);
	if (ret)
		return ret;
	if (mode & ~0664)
		return -EINVAL;
	mutex_lock(&av_lock);
	WRITE_ONCE(target_mode, mode);
	if (av_kobj)
		ret = sysfs_update_group(av_kobj, &av_group);
	mutex_unlock(&av_lock);
	return ret;
}

static int target_mode_get(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%04o\n", READ_ONCE(target_mode));
}

static const struct kernel_param_ops target_mode_ops = {
	.set = target_mode_set,
	.get = target_mode_get,
};

module_param_cb(target_mode, &target_mode_ops, NULL, 0644);
MODULE_PARM_DESC(target_mode,
		 "The mode is_visible() gives new, octal (0: no file); a write applies it");

static int __init alias_visible_init(void)
{
	struct kobject *kobj;
	int ret;

	kobj = kobject_create_and_add("alias_visible", kernel_kobj);
	if (!kobj)
		return -ENOMEM;
	mutex_lock(&av_lock);
	ret = sysfs_create_group(kobj, &av_group);
	if (!ret)
		av_kobj = kobj;
	mutex_unlock(&av_lock);
	if (ret)
		kobject_put(kobj);
	return ret;
}

static void __exit alias_visible_exit(void)
{
	/* Out of sysfs before the module goes, whenever the release comes. */
	mutex_lock(&av_lock);
	kobject_del(av_kobj);
	kobject_put(av_kobj);
	av_kobj = NULL;
	mutex_unlock(&av_lock);
}

module_init(alias_visible_init);
module_exit(alias_visible_exit);
MODULE_DESCRIPTION("A group hiding and narrowing an aliased attribute, for tests");
MODULE_LICENSE("GPL");
