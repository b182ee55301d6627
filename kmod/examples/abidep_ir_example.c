// SPDX-License-Identifier: GPL-2.0
/*
 * The model for maintainers: the ir-core rename of 2010 (commit b320f80a6a02),
 * done with abidep.
 *
 * The device has the new attributes, protocol (the enabled protocols, a
 * list) and supported_protocols, and keeps the old current_protocol working:
 * reads show the old format (one protocol, "NEC"), writes take the old
 * values ("nec", "rc5", "pd"), and every program still using it is named in
 * the kernel log.
 *
 *	/sys/devices/platform/abidep-ir-example/protocol
 *	/sys/devices/platform/abidep-ir-example/supported_protocols
 *	/sys/devices/platform/abidep-ir-example/current_protocol (deprecated)
 */
#include <linux/bits.h>
#include <linux/device.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "../abidep.h"

#define DRV_NAME "abidep-ir-example"

struct ir_proto {
	const char *name;	/* today's name */
	const char *old_name;	/* what current_protocol showed */
	const char *old_alt;	/* another spelling it accepted */
};

static const struct ir_proto ir_protos[] = {
	{ "rc-5", "RC-5", "rc5" },
	{ "pulse-distance", "Pulse/distance", "pd" },
	{ "nec", "NEC", NULL },
};

#define IR_SUPPORTED	GENMASK(ARRAY_SIZE(ir_protos) - 1, 0)

struct ir_example {
	struct mutex lock;	/* protects enabled */
	unsigned long enabled;	/* bit i: ir_protos[i] */
};

static int ir_proto_find(const char *word, size_t len, bool old_names)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ir_protos); i++) {
		const struct ir_proto *p = &ir_protos[i];

		if (strlen(p->name) == len && !strncasecmp(word, p->name, len))
			return i;
		if (old_names && p->old_alt && strlen(p->old_alt) == len &&
		    !strncasecmp(word, p->old_alt, len))
			return i;
	}
	return -EINVAL;
}

static ssize_t protocol_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	struct ir_example *ir = dev_get_drvdata(dev);
	ssize_t len = 0;
	unsigned int i;

	mutex_lock(&ir->lock);
	for_each_set_bit(i, &ir->enabled, ARRAY_SIZE(ir_protos))
		len += sysfs_emit_at(buf, len, "%s%s", len ? " " : "",
				     ir_protos[i].name);
	mutex_unlock(&ir->lock);
	return len + sysfs_emit_at(buf, len, "\n");
}

/* One or more protocol names separated by spaces; all must be supported. */
static ssize_t protocol_store(struct device *dev, struct device_attribute *attr,
			      const char *buf, size_t count)
{
	struct ir_example *ir = dev_get_drvdata(dev);
	unsigned long want = 0;
	const char *p = buf;
	int i;

	for (;;) {
		size_t len;

		p = skip_spaces(p);
		len = strcspn(p, " \t\n");
		if (!len)
			break;
		i = ir_proto_find(p, len, false);
		if (i < 0)
			return -EINVAL;
		want |= BIT(i);
		p += len;
	}
	if (!want || want & ~IR_SUPPORTED)
		return -EINVAL;
	mutex_lock(&ir->lock);
	ir->enabled = want;
	mutex_unlock(&ir->lock);
	return count;
}
static DEVICE_ATTR_RW(protocol);

static ssize_t supported_protocols_show(struct device *dev,
					struct device_attribute *attr, char *buf)
{
	ssize_t len = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ir_protos); i++)
		len += sysfs_emit_at(buf, len, "%s%s", i ? " " : "",
				     ir_protos[i].name);
	return len + sysfs_emit_at(buf, len, "\n");
}
static DEVICE_ATTR_RO(supported_protocols);

static struct attribute *ir_example_attrs[] = {
	&dev_attr_protocol.attr,
	&dev_attr_supported_protocols.attr,
	NULL,
};

static const struct attribute_group ir_example_group = {
	.attrs = ir_example_attrs,
};

/* protocol "nec rc-5" -> current_protocol "NEC": the old file held one. */
static ssize_t current_protocol_show_xlate(struct device *dev, char *buf,
					   ssize_t len)
{
	size_t word = strcspn(buf, "\n ");
	int i = ir_proto_find(buf, word, false);

	return sysfs_emit(buf, "%s\n", i < 0 ? "Unknown" : ir_protos[i].old_name);
}

/* current_protocol took exactly one name, in any case, or rc5 or pd. */
static ssize_t current_protocol_store_xlate(struct device *dev, const char *buf,
					    size_t count, char *out, size_t size)
{
	size_t len = strcspn(buf, "\n");
	int i = ir_proto_find(buf, len, true);

	if (i < 0 || (buf[len] && buf[len + 1]))
		return -EINVAL;
	return scnprintf(out, size, "%s", ir_protos[i].name);
}

static struct abidep_entry current_protocol_entry = {
	.old_name = "current_protocol",
	.new_name = "protocol",
	.deprecated = "2010-04-08",
	.remove_after = "2012-04-08",
	.hint = "protocol lists the enabled protocols, supported_protocols the rest",
	.show_xlate = current_protocol_show_xlate,
	.store_xlate = current_protocol_store_xlate,
};

static int ir_example_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct ir_example *ir;
	int ret;

	ir = devm_kzalloc(dev, sizeof(*ir), GFP_KERNEL);
	if (!ir)
		return -ENOMEM;
	mutex_init(&ir->lock);
	ir->enabled = BIT(2);	/* nec */
	platform_set_drvdata(pdev, ir);

	ret = devm_device_add_group(dev, &ir_example_group);
	if (ret)
		return ret;
	/* After the group: the alias needs the new attribute in place. */
	return devm_abidep_device_alias_add(dev, &current_protocol_entry,
					    &dev_attr_protocol);
}

static struct platform_driver ir_example_driver = {
	.probe = ir_example_probe,
	.driver = {
		.name = DRV_NAME,
	},
};

static struct platform_device *ir_example_pdev;

static int __init ir_example_init(void)
{
	int ret;

	ret = abidep_entry_register(&current_protocol_entry);
	if (ret)
		return ret;
	ret = platform_driver_register(&ir_example_driver);
	if (ret)
		goto err_entry;
	ir_example_pdev = platform_device_register_simple(DRV_NAME, -1, NULL, 0);
	if (IS_ERR(ir_example_pdev)) {
		ret = PTR_ERR(ir_example_pdev);
		goto err_driver;
	}
	return 0;

err_driver:
	platform_driver_unregister(&ir_example_driver);
err_entry:
	abidep_entry_unregister(&current_protocol_entry);
	return ret;
}

static void __exit ir_example_exit(void)
{
	platform_device_unregister(ir_example_pdev);
	platform_driver_unregister(&ir_example_driver);
	abidep_entry_unregister(&current_protocol_entry);
}

module_init(ir_example_init);
module_exit(ir_example_exit);

MODULE_DESCRIPTION("abidep example: the ir-core current_protocol rename");
MODULE_AUTHOR("The abidep developers");
MODULE_LICENSE("GPL");
