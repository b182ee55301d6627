// SPDX-License-Identifier: GPL-2.0
/*
 * The sysfs side of typed attributes: find the value and its lock in the
 * driver's structure, parse and check the write before taking the lock
 * where the result does not depend on the value, and hold the lock across
 * read, apply and store so that concurrent writers (a set's +x and -y)
 * cannot lose each other's change. The text is typed_parse.c's.
 */
#include <linux/device.h>
#include <linux/export.h>
#include <linux/mutex.h>

#include "abidep_typed.h"

enum abidep_kind {
	ABIDEP_KIND_ENUM,
	ABIDEP_KIND_SET,
	ABIDEP_KIND_BOOL,
	ABIDEP_KIND_DURATION,
	ABIDEP_KIND_SIZE,
};

#define to_typed(a) container_of(a, struct abidep_typed_attr, dattr)

static void *abidep_typed_base(struct device *dev,
			       const struct abidep_typed_attr *ta)
{
	return ta->base ? ta->base(dev) : dev_get_drvdata(dev);
}

static u64 abidep_typed_get(const void *p, enum abidep_kind kind)
{
	switch (kind) {
	case ABIDEP_KIND_ENUM:
		return *(const unsigned int *)p;
	case ABIDEP_KIND_SET:
		return *(const unsigned long *)p;
	case ABIDEP_KIND_BOOL:
		return *(const bool *)p;
	default:
		return *(const u64 *)p;
	}
}

static void abidep_typed_set(void *p, enum abidep_kind kind, u64 val)
{
	switch (kind) {
	case ABIDEP_KIND_ENUM:
		*(unsigned int *)p = val;
		break;
	case ABIDEP_KIND_SET:
		*(unsigned long *)p = val;
		break;
	case ABIDEP_KIND_BOOL:
		*(bool *)p = val;
		break;
	default:
		*(u64 *)p = val;
		break;
	}
}

/* A driver bug, not a user's: say so once, and refuse. */
static bool abidep_typed_names_ok(struct device *dev,
				  const struct abidep_typed_attr *ta,
				  enum abidep_kind kind)
{
	if (abidep_typed_names_valid(ta->names, ta->nr,
				     kind == ABIDEP_KIND_SET))
		return true;
	dev_err_once(dev, "abidep: %s: invalid value names\n",
		     ta->dattr.attr.name);
	return false;
}

static ssize_t abidep_typed_show(struct device *dev,
				 struct device_attribute *attr, char *buf,
				 enum abidep_kind kind)
{
	const struct abidep_typed_attr *ta = to_typed(attr);
	char *base = abidep_typed_base(dev, ta);
	u64 val;

	if (!base)
		return -ENODEV;
	if ((kind == ABIDEP_KIND_ENUM || kind == ABIDEP_KIND_SET) &&
	    !abidep_typed_names_ok(dev, ta, kind))
		return -EINVAL;
	mutex_lock((struct mutex *)(base + ta->lock_offset));
	val = abidep_typed_get(base + ta->value_offset, kind);
	mutex_unlock((struct mutex *)(base + ta->lock_offset));

	switch (kind) {
	case ABIDEP_KIND_ENUM:
		return abidep_format_enum(ta->names, ta->nr, val, buf);
	case ABIDEP_KIND_SET:
		return abidep_format_set(ta->names, ta->nr, val, buf);
	default:
		return abidep_format_u64(val, buf);
	}
}

static ssize_t abidep_typed_store(struct device *dev,
				  struct device_attribute *attr,
				  const char *buf, size_t count,
				  enum abidep_kind kind)
{
	const struct abidep_typed_attr *ta = to_typed(attr);
	char *base = abidep_typed_base(dev, ta);
	struct mutex *lock;	/* the driver's, protecting *p */
	void *p;
	unsigned long set;
	unsigned int idx;
	bool b;
	u64 val = 0;
	int ret;

	if (!base)
		return -ENODEV;
	lock = (struct mutex *)(base + ta->lock_offset);
	p = base + ta->value_offset;

	/* Everything that does not depend on the current value: unlocked. */
	switch (kind) {
	case ABIDEP_KIND_ENUM:
		if (!abidep_typed_names_ok(dev, ta, kind))
			return -EINVAL;
		ret = abidep_parse_enum(ta->names, ta->nr, buf, count, &idx);
		val = idx;
		break;
	case ABIDEP_KIND_SET:
		ret = abidep_typed_names_ok(dev, ta, kind) ? 0 : -EINVAL;
		break;
	case ABIDEP_KIND_BOOL:
		ret = abidep_parse_bool(buf, count, &b);
		val = b;
		break;
	case ABIDEP_KIND_DURATION:
		ret = abidep_parse_duration(ta->unit, buf, count, &val);
		break;
	default:
		ret = abidep_parse_size(buf, count, &val);
		break;
	}
	if (ret)
		return ret;
	if ((kind == ABIDEP_KIND_DURATION || kind == ABIDEP_KIND_SIZE) &&
	    (val < ta->min || val > ta->max))
		return -ERANGE;

	mutex_lock(lock);
	/* +x and -x change what is there: read it under the lock. */
	if (kind == ABIDEP_KIND_SET) {
		ret = abidep_parse_set(ta->names, ta->nr,
				       *(unsigned long *)p, buf, count, &set);
		val = set;
	}
	if (!ret && ta->apply)
		ret = ta->apply(dev, ta, val);
	if (!ret)
		abidep_typed_set(p, kind, val);
	mutex_unlock(lock);
	return ret ? ret : count;
}

/**
 * abidep_enum_show - show() of an enum attribute
 * @dev: the device.
 * @attr: the dattr of an ABIDEP_ATTR_ENUM().
 * @buf: the page to fill.
 *
 * Return: the length of "name [current] name\n", or -EINVAL if the
 * attribute's names break the rules of abidep_typed_names_valid().
 */
ssize_t abidep_enum_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return abidep_typed_show(dev, attr, buf, ABIDEP_KIND_ENUM);
}
EXPORT_SYMBOL_GPL(abidep_enum_show);

/**
 * abidep_enum_store - store() of an enum attribute
 * @dev: the device.
 * @attr: the dattr of an ABIDEP_ATTR_ENUM().
 * @buf: the write, one name.
 * @count: its length.
 *
 * Return: @count, -EINVAL for anything but one known name (nothing changes),
 * or the error of the attribute's apply().
 */
ssize_t abidep_enum_store(struct device *dev, struct device_attribute *attr,
			  const char *buf, size_t count)
{
	return abidep_typed_store(dev, attr, buf, count, ABIDEP_KIND_ENUM);
}
EXPORT_SYMBOL_GPL(abidep_enum_store);

/**
 * abidep_set_show - show() of a set attribute
 * @dev: the device.
 * @attr: the dattr of an ABIDEP_ATTR_SET().
 * @buf: the page to fill.
 *
 * Return: the length of "name [in] [in] name\n", or -EINVAL if the
 * attribute's names break the rules of abidep_typed_names_valid().
 */
ssize_t abidep_set_show(struct device *dev, struct device_attribute *attr,
			char *buf)
{
	return abidep_typed_show(dev, attr, buf, ABIDEP_KIND_SET);
}
EXPORT_SYMBOL_GPL(abidep_set_show);

/**
 * abidep_set_store - store() of a set attribute
 * @dev: the device.
 * @attr: the dattr of an ABIDEP_ATTR_SET().
 * @buf: the write: tokens as abidep_parse_set() takes them.
 * @count: its length.
 *
 * The whole write is applied under the lock, atomically.
 *
 * Return: @count, -EINVAL for an unknown token or an empty write (nothing
 * changes), or the error of the attribute's apply().
 */
ssize_t abidep_set_store(struct device *dev, struct device_attribute *attr,
			 const char *buf, size_t count)
{
	return abidep_typed_store(dev, attr, buf, count, ABIDEP_KIND_SET);
}
EXPORT_SYMBOL_GPL(abidep_set_store);

/**
 * abidep_bool_show - show() of a bool attribute
 * @dev: the device.
 * @attr: the dattr of an ABIDEP_ATTR_BOOL().
 * @buf: the page to fill.
 *
 * Return: 2, the length of "0\n" or "1\n".
 */
ssize_t abidep_bool_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return abidep_typed_show(dev, attr, buf, ABIDEP_KIND_BOOL);
}
EXPORT_SYMBOL_GPL(abidep_bool_show);

/**
 * abidep_bool_store - store() of a bool attribute
 * @dev: the device.
 * @attr: the dattr of an ABIDEP_ATTR_BOOL().
 * @buf: the write, a word abidep_parse_bool() takes.
 * @count: its length.
 *
 * Return: @count, -EINVAL for anything else (nothing changes), or the
 * error of the attribute's apply().
 */
ssize_t abidep_bool_store(struct device *dev, struct device_attribute *attr,
			  const char *buf, size_t count)
{
	return abidep_typed_store(dev, attr, buf, count, ABIDEP_KIND_BOOL);
}
EXPORT_SYMBOL_GPL(abidep_bool_store);

/**
 * abidep_duration_show - show() of a duration attribute
 * @dev: the device.
 * @attr: the dattr of an ABIDEP_ATTR_DURATION().
 * @buf: the page to fill.
 *
 * Return: the length of the value in the canonical unit and a newline.
 */
ssize_t abidep_duration_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return abidep_typed_show(dev, attr, buf, ABIDEP_KIND_DURATION);
}
EXPORT_SYMBOL_GPL(abidep_duration_show);

/**
 * abidep_duration_store - store() of a duration attribute
 * @dev: the device.
 * @attr: the dattr of an ABIDEP_ATTR_DURATION().
 * @buf: the write, as abidep_parse_duration() takes it.
 * @count: its length.
 *
 * Return: @count, -EINVAL for a malformed, inexact or overflowing value,
 * -ERANGE outside the attribute's min and max (nothing changes in either
 * case), or the error of the attribute's apply().
 */
ssize_t abidep_duration_store(struct device *dev, struct device_attribute *attr,
			      const char *buf, size_t count)
{
	return abidep_typed_store(dev, attr, buf, count, ABIDEP_KIND_DURATION);
}
EXPORT_SYMBOL_GPL(abidep_duration_store);

/**
 * abidep_size_show - show() of a size attribute
 * @dev: the device.
 * @attr: the dattr of an ABIDEP_ATTR_SIZE().
 * @buf: the page to fill.
 *
 * Return: the length of the value in bytes and a newline.
 */
ssize_t abidep_size_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return abidep_typed_show(dev, attr, buf, ABIDEP_KIND_SIZE);
}
EXPORT_SYMBOL_GPL(abidep_size_show);

/**
 * abidep_size_store - store() of a size attribute
 * @dev: the device.
 * @attr: the dattr of an ABIDEP_ATTR_SIZE().
 * @buf: the write, as abidep_parse_size() takes it.
 * @count: its length.
 *
 * Return: @count, -EINVAL for a malformed or overflowing value, -ERANGE
 * outside the attribute's min and max (nothing changes in either case), or
 * the error of the attribute's apply().
 */
ssize_t abidep_size_store(struct device *dev, struct device_attribute *attr,
			  const char *buf, size_t count)
{
	return abidep_typed_store(dev, attr, buf, count, ABIDEP_KIND_SIZE);
}
EXPORT_SYMBOL_GPL(abidep_size_store);
