// SPDX-License-Identifier: GPL-2.0
/*
 * The sysfs side of typed attributes: find the value and its lock in the
 * driver's structure, parse and check the write before taking the lock
 * where the result does not depend on the value, and hold the lock across
 * read, apply and store so that concurrent writers (a set's +x and -y)
 * cannot lose each other's change. The text is typed_parse.c's.
 */
#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/device.h>
#include <linux/export.h>
#include <linux/mutex.h>

#include "typed.h"

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

/*
 * An enum's or a set's names are checked once, by the attribute's first
 * access: their number was checked at compile time, and they are constant.
 * Names breaking the rules are a driver bug, not a user's: say so once, and
 * refuse every access. Concurrent first accesses compute the same answer.
 */
static bool abidep_typed_names_ok(struct device *dev,
				  struct abidep_typed_attr *ta)
{
	int state = READ_ONCE(ta->names_state);

	if (!state) {
		state = abidep_typed_names_valid(ta->names, ta->nr,
						 ta->kind == ABIDEP_KIND_SET) ?
			1 : -EINVAL;
		if (!cmpxchg(&ta->names_state, 0, state) && state < 0)
			dev_err(dev, "abidep: %s: invalid value names\n",
				ta->dattr.attr.name);
	}
	return state > 0;
}

/**
 * abidep_typed_show - show() of a typed attribute
 * @dev: the device.
 * @attr: the dattr of an ABIDEP_ATTR_ENUM(), _SET(), _BOOL(), _DURATION()
 *	or _SIZE().
 * @buf: the page to fill.
 *
 * Return: the length of the value's line (typed_parse.c's formats), -ENODEV
 * if the driver's structure is gone, or -EINVAL if an enum's or a set's
 * names break the rules of abidep_typed_names_valid().
 */
ssize_t abidep_typed_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct abidep_typed_attr *ta = to_typed(attr);
	enum abidep_kind kind = ta->kind;
	char *base = abidep_typed_base(dev, ta);
	u64 val;

	if (!base)
		return -ENODEV;
	if ((kind == ABIDEP_KIND_ENUM || kind == ABIDEP_KIND_SET) &&
	    !abidep_typed_names_ok(dev, ta))
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
EXPORT_SYMBOL_GPL(abidep_typed_show);

/**
 * abidep_typed_store - store() of a typed attribute
 * @dev: the device.
 * @attr: the dattr of an ABIDEP_ATTR_ENUM(), _SET(), _BOOL(), _DURATION()
 *	or _SIZE().
 * @buf: the write, in the type's format.
 * @count: its length.
 *
 * Return: @count; -EINVAL for a write the type's parser refuses, or an
 * enum's or a set's invalid names; -ERANGE for a duration or size outside
 * [min, max]; -ENODEV; or the error of the attribute's apply(). On an
 * error nothing changes.
 */
ssize_t abidep_typed_store(struct device *dev, struct device_attribute *attr,
			   const char *buf, size_t count)
{
	struct abidep_typed_attr *ta = to_typed(attr);
	enum abidep_kind kind = ta->kind;
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
		if (!abidep_typed_names_ok(dev, ta))
			return -EINVAL;
		ret = abidep_parse_enum(ta->names, ta->nr, buf, count, &idx);
		val = idx;
		break;
	case ABIDEP_KIND_SET:
		ret = abidep_typed_names_ok(dev, ta) ? 0 : -EINVAL;
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
EXPORT_SYMBOL_GPL(abidep_typed_store);
