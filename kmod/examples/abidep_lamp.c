// SPDX-License-Identifier: GPL-2.0
/*
 * The driver of Documentation/driver-api/walkthrough-new-deprecation.rst,
 * which builds it out of tree against the abidep-dkms package: a lamp whose
 * attribute "level" is renamed "brightness". abidep.ko keeps "level" working
 * as an alias of "brightness" and names in the kernel log every program that
 * still reads or writes it.
 *
 *	/sys/devices/platform/abidep-lamp/brightness	0 to 255
 *	/sys/devices/platform/abidep-lamp/level		(deprecated)
 */
#include <linux/device.h>
#include <linux/kstrtox.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/sysfs.h>

#include "abidep.h"

#define DRV_NAME "abidep-lamp"
#define LAMP_MAX 255

struct lamp {
	unsigned int brightness;	/* READ_ONCE/WRITE_ONCE: one word */
};

static ssize_t brightness_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct lamp *lamp = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%u\n", READ_ONCE(lamp->brightness));
}

static ssize_t brightness_store(struct device *dev,
				struct device_attribute *attr,
				const char *buf, size_t count)
{
	struct lamp *lamp = dev_get_drvdata(dev);
	unsigned int val;
	int ret;

	ret = kstrtouint(buf, 0, &val);
	if (ret)
		return ret;
	if (val > LAMP_MAX)
		return -EINVAL;
	WRITE_ONCE(lamp->brightness, val);
	return count;
}
static DEVICE_ATTR_RW(brightness);

static struct attribute *lamp_attrs[] = {
	&dev_attr_brightness.attr,
	NULL,
};

static const struct attribute_group lamp_group = {
	.attrs = lamp_attrs,
};

/* The old name. The same facts as the migration tables' entry for it. */
static struct abidep_entry level_entry = {
	.old_name = "level",
	.new_name = "brightness",
	.deprecated = "2026-12-01",
	.remove_after = "2028-12-01",
	.hint = "read and write brightness",
};

static int lamp_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct lamp *lamp;
	int ret;

	lamp = devm_kzalloc(dev, sizeof(*lamp), GFP_KERNEL);
	if (!lamp)
		return -ENOMEM;
	lamp->brightness = LAMP_MAX;
	platform_set_drvdata(pdev, lamp);

	/*
	 * Not the driver's dev_groups: the core adds those after probe(),
	 * and the alias needs its new attribute in place.
	 */
	ret = devm_device_add_group(dev, &lamp_group);
	if (ret)
		return ret;
	return devm_abidep_device_alias_add(dev, &level_entry,
					    &dev_attr_brightness);
}

static struct platform_driver lamp_driver = {
	.probe = lamp_probe,
	.driver = {
		.name = DRV_NAME,
	},
};

/* No hardware: the module makes its own device, as a board file would. */
static struct platform_device *lamp_pdev;

static int __init lamp_init(void)
{
	int ret;

	/* Before any alias: the entry owns the counters and the users. */
	ret = abidep_entry_register(&level_entry);
	if (ret)
		return ret;
	ret = platform_driver_register(&lamp_driver);
	if (ret)
		goto err_entry;
	lamp_pdev = platform_device_register_simple(DRV_NAME, -1, NULL, 0);
	if (IS_ERR(lamp_pdev)) {
		ret = PTR_ERR(lamp_pdev);
		goto err_driver;
	}
	return 0;

err_driver:
	platform_driver_unregister(&lamp_driver);
err_entry:
	abidep_entry_unregister(&level_entry);
	return ret;
}

static void __exit lamp_exit(void)
{
	/* The device goes first: its alias (devm) goes with it. */
	platform_device_unregister(lamp_pdev);
	platform_driver_unregister(&lamp_driver);
	abidep_entry_unregister(&level_entry);
}

module_init(lamp_init);
module_exit(lamp_exit);

MODULE_DESCRIPTION("abidep example: a lamp whose level is now brightness");
MODULE_AUTHOR("The abidep developers");
/* abidep.ko's functions are EXPORT_SYMBOL_GPL. */
MODULE_LICENSE("GPL");
