// SPDX-License-Identifier: GPL-2.0
/*
 * The model for maintainers: the ir-core rename of 2010 (commit b320f80a6a02),
 * done with abidep, and today's value format done with a typed attribute.
 *
 * The device has the new attributes: protocol, a set (every supported
 * protocol, the enabled ones in brackets, "+x", "-x", "x", "none" to change
 * it; see Documentation/driver-api/typed-attributes.rst), declared with
 * typed/typed.h, and supported_protocols, read-only. It keeps the old
 * current_protocol working with abidep.h: reads show the old format (one
 * protocol, "NEC"), writes take the old values ("nec", "rc5", "pd"), and
 * every program still using it is named in the kernel log.
 *
 *	/sys/devices/platform/abidep-ir-example/protocol
 *	/sys/devices/platform/abidep-ir-example/supported_protocols
 *	/sys/devices/platform/abidep-ir-example/current_protocol (deprecated)
 */
#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "abidep.h"
#include "typed/typed.h"

#define DRV_NAME "abidep-ir-example"

/* The protocols the receiver decodes; bit i of the protocol set is i. */
enum ir_proto {
	IR_RC5,
	IR_PD,
	IR_NEC,
	IR_NR_PROTOS
};

/* Today's names: the values of the protocol set. */
static const char * const ir_names[] = {
	[IR_RC5] = "rc-5",
	[IR_PD] = "pulse-distance",
	[IR_NEC] = "nec",
};

/*
 * What current_protocol showed for each, with its newline and length (the
 * show hook copies it: no formatting), and another spelling it took.
 */
#define IR_SHOWN(s)	.shown = s "\n", .shown_len = sizeof(s "\n") - 1
static const struct ir_old_name {
	const char *shown;
	size_t shown_len;
	const char *alt;
} ir_old[] = {
	[IR_RC5] = { IR_SHOWN("RC-5"), .alt = "rc5" },
	[IR_PD] = { IR_SHOWN("Pulse/distance"), .alt = "pd" },
	[IR_NEC] = { IR_SHOWN("NEC") },
};

static_assert(ARRAY_SIZE(ir_old) == IR_NR_PROTOS);

struct ir_example {
	struct mutex lock;	/* protects enabled */
	unsigned long enabled;	/* bit i: protocol i (enum ir_proto) */
};

/*
 * Called with ir->lock held before a new set is stored; an error would refuse
 * the write. A real receiver reprograms its decoders here, as rc-core's
 * change_protocol() does. This one has no hardware: it takes the time that
 * would, so writers of protocol wait for each other on the lock as they
 * would on a real device (tests/guest/module.sh has two at once).
 */
static int ir_example_apply(struct device *dev,
			    const struct abidep_typed_attr *ta, u64 val)
{
	usleep_range(200, 400);
	return 0;
}

static ABIDEP_ATTR_SET(protocol, 0644, struct ir_example, enabled, lock,
		       ir_names, IR_NR_PROTOS, .apply = ir_example_apply);

static ssize_t supported_protocols_show(struct device *dev,
					struct device_attribute *attr, char *buf)
{
	/* A set's format with nothing in brackets: the names. */
	return abidep_format_set(ir_names, IR_NR_PROTOS, 0, buf);
}
static DEVICE_ATTR_RO(supported_protocols);

static struct attribute *ir_example_attrs[] = {
	&abidep_attr_protocol.dattr.attr,
	&dev_attr_supported_protocols.attr,
	NULL,
};

static const struct attribute_group ir_example_group = {
	.attrs = ir_example_attrs,
};

/* An old spelling current_protocol took, in any case: its index. */
static int ir_old_find(const char *word, size_t len)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ir_old); i++)
		if (ir_old[i].alt && strlen(ir_old[i].alt) == len &&
		    !strncasecmp(word, ir_old[i].alt, len))
			return i;
	return -EINVAL;
}

/*
 * protocol "rc-5 pulse-distance [nec]" -> current_protocol "NEC": the old
 * file held one, so the first enabled one; "Unknown" when none is, as ir-core
 * showed then. Every read of the old name runs this, so it reads the set the
 * new show() just formatted, under the same lock, rather than parse that
 * text back, and copies a string of known length rather than format one.
 */
static ssize_t current_protocol_show_xlate(struct device *dev, char *buf,
					   ssize_t len)
{
	struct ir_example *ir = dev_get_drvdata(dev);
	const struct ir_old_name *old;
	unsigned long enabled;

	mutex_lock(&ir->lock);
	enabled = ir->enabled;
	mutex_unlock(&ir->lock);
	if (!enabled) {
		memcpy(buf, "Unknown\n", sizeof("Unknown\n") - 1);
		return sizeof("Unknown\n") - 1;
	}
	old = &ir_old[__ffs(enabled)];
	memcpy(buf, old->shown, old->shown_len);
	return old->shown_len;
}

/*
 * current_protocol took exactly one name, in any case, or rc5 or pd; a bare
 * name written to the protocol set enables that one only, as it did.
 */
static ssize_t current_protocol_store_xlate(struct device *dev, const char *buf,
					    size_t count, char *out, size_t size)
{
	size_t len = strcspn(buf, "\n");
	unsigned int idx;
	int i;

	/* Today's names as the set takes them (one newline allowed), ... */
	if (!abidep_parse_enum(ir_names, IR_NR_PROTOS, buf, count, &idx))
		return scnprintf(out, size, "%s", ir_names[idx]);
	/* ... or an old spelling, alone in the write but for a newline. */
	i = ir_old_find(buf, len);
	if (i < 0 || count != len + (buf[len] == '\n'))
		return -EINVAL;
	return scnprintf(out, size, "%s", ir_names[i]);
}

static struct abidep_entry current_protocol_entry = {
	.old_name = "current_protocol",
	.new_name = "protocol",
	.deprecated = "2010-04-08",
	.remove_after = "2012-04-08",
	.hint = "protocol lists the supported protocols, the enabled ones in brackets",
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
	ir->enabled = BIT(IR_NEC);
	platform_set_drvdata(pdev, ir);

	ret = devm_device_add_group(dev, &ir_example_group);
	if (ret)
		return ret;
	/* After the group: the alias needs the new attribute in place. */
	return devm_abidep_device_alias_add(dev, &current_protocol_entry,
					    &abidep_attr_protocol.dattr);
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
