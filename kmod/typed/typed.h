/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Typed sysfs attributes: enum, set, bool, duration and size device
 * attributes that read and write one well-defined text format each, the
 * way moduleparam makes an int parameter the easy path. This header is all
 * a driver includes for them: they have nothing to do with deprecation.
 *
 * The value lives in the driver's own structure, next to the mutex that
 * protects it; the attribute records where:
 *
 *	enum foo_mode { FOO_OFF, FOO_AUTO, FOO_MANUAL, FOO_NR_MODES };
 *	struct foo {
 *		struct mutex lock;	// protects mode, delay_ms
 *		unsigned int mode;	// enum foo_mode
 *		u64 delay_ms;
 *	};
 *	static const char * const foo_modes[] = {
 *		[FOO_OFF] = "off", [FOO_AUTO] = "auto", [FOO_MANUAL] = "manual",
 *	};
 *	static ABIDEP_ATTR_ENUM(mode, 0644, struct foo, mode, lock, foo_modes,
 *				FOO_NR_MODES);
 *	static ABIDEP_ATTR_DURATION(delay_ms, 0644, struct foo, delay_ms, lock,
 *				    ABIDEP_MS, 0, 10000);
 *
 * and &abidep_attr_mode.dattr.attr goes into the device's attribute group.
 * By default dev_get_drvdata() points at the structure. The functions are
 * in abidep.ko. Formats, errors and the whole how-to:
 * Documentation/driver-api/typed-attributes.rst.
 */
#ifndef _ABIDEP_TYPED_H
#define _ABIDEP_TYPED_H

#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/stddef.h>
#include <linux/types.h>

#include "typed_parse.h"

/* The types; struct abidep_typed_attr's @kind. */
enum abidep_kind {
	ABIDEP_KIND_ENUM,
	ABIDEP_KIND_SET,
	ABIDEP_KIND_BOOL,
	ABIDEP_KIND_DURATION,
	ABIDEP_KIND_SIZE,
};

/**
 * struct abidep_typed_attr - a device attribute of a standard type
 * @dattr: the sysfs attribute; its show() and store() are abidep's
 *	(abidep_typed_show() and abidep_typed_store()).
 * @kind: the type, which the show() and store() follow.
 * @value_offset: offset of the value in the driver's structure (see @base).
 *	Its type is unsigned int for an enum (an index into @names), unsigned
 *	long for a set (bit i: name i of @names), bool, or u64 for a duration (in
 *	@unit) or a size (in bytes).
 * @lock_offset: offset of the struct mutex protecting the value, in the same
 *	structure. show() holds it to read the value; store() holds it from
 *	reading the old value (a set's +x/-x) to storing the new one.
 * @base: optional; returns the driver's structure for @dev. NULL means
 *	dev_get_drvdata(@dev).
 * @names: enum and set: the values, in the order they are shown; see
 *	abidep_typed_names_valid() for the rules.
 * @nr: enum and set: the number of @names, 1 to %ABIDEP_TYPED_NAMES_MAX,
 *	checked at compile time by the declaring macro.
 * @names_state: enum and set: private to show() and store(): 0 until the
 *	first access checks @names with abidep_typed_names_valid(), then 1
 *	if they are valid or -EINVAL if not. Nothing else checks them again.
 * @unit: duration: the canonical unit, which the attribute's name should
 *	carry ("timeout_ms").
 * @min: duration and size: the smallest value accepted, inclusive.
 * @max: duration and size: the largest value accepted, inclusive.
 * @apply: optional; called by store() with the lock held and the new value
 *	(enum: index, set: bits, bool: 0 or 1, duration and size: the value)
 *	before it is stored, to hand it to the hardware. A negative errno
 *	refuses the write: the value stays as it was and the errno is what
 *	write(2) returns.
 *
 * Declare one with ABIDEP_ATTR_ENUM(), ABIDEP_ATTR_SET(), ABIDEP_ATTR_BOOL(),
 * ABIDEP_ATTR_DURATION() or ABIDEP_ATTR_SIZE(), not by hand: the macros
 * check at compile time the value's type, the lock's, and that an enum or
 * a set has as many names as its values. Not const, nor __ro_after_init:
 * the first access writes @names_state.
 */
struct abidep_typed_attr {
	struct device_attribute dattr;
	enum abidep_kind kind;
	size_t value_offset;
	size_t lock_offset;
	void *(*base)(struct device *dev);
	const char * const *names;
	unsigned int nr;
	int names_state;
	enum abidep_duration_unit unit;
	u64 min;
	u64 max;
	int (*apply)(struct device *dev, const struct abidep_typed_attr *ta,
		     u64 val);
};

ssize_t abidep_typed_show(struct device *dev, struct device_attribute *attr,
			  char *buf);
ssize_t abidep_typed_store(struct device *dev, struct device_attribute *attr,
			   const char *buf, size_t count);

/*
 * Compile-time checks: the field has the type its show/store expect, the
 * lock is a mutex. (Arguments pass through "type" and "..." so that each
 * macro names each of its own arguments once.)
 */
#define __ABIDEP_MEMBER(type, ...)	(((type *)0)->__VA_ARGS__)
#define __ABIDEP_TYPED_OFFSET(_ftype, ...)				\
	(offsetof(__VA_ARGS__) +					\
	 BUILD_BUG_ON_ZERO(!__same_type(__ABIDEP_MEMBER(__VA_ARGS__), _ftype)))

#define __ABIDEP_TYPED(_name, _mode, _kind, type, _field, _ftype, _lock) \
	.dattr = __ATTR(_name, _mode, abidep_typed_show, abidep_typed_store), \
	.kind = ABIDEP_KIND_##_kind,					\
	.value_offset = __ABIDEP_TYPED_OFFSET(_ftype, type, _field),	\
	.lock_offset = __ABIDEP_TYPED_OFFSET(struct mutex, type, _lock)

/* 0, or a build error saying @msg: a static_assert() in an expression. */
#define __ABIDEP_CHECK(cond, msg)					\
	((int)(0 * sizeof(struct { static_assert(cond, msg); char c; })))

/*
 * An enum's or a set's names: an array (__must_be_array(): not a pointer)
 * of exactly as many names as the values the driver declares (typically the
 * last constant of its C enum), within the bounds that keep a read within a
 * page and a set within an unsigned long. The count goes through "...", as
 * the offsets above do. What the names say is checked by the attribute's
 * first access (abidep_typed_names_valid()): it cannot be at compile time.
 */
#define __ABIDEP_NAMES(_names, ...)					\
	.names = (_names),						\
	.nr = __ABIDEP_NR(sizeof(_names) / sizeof((_names)[0]) +	\
			  __must_be_array(_names), #_names, __VA_ARGS__)

#define __ABIDEP_NR(_count, _what, ...)					\
	((__VA_ARGS__) +						\
	 __ABIDEP_CHECK((_count) == (__VA_ARGS__), "abidep: " _what	\
			" does not have " #__VA_ARGS__ " names") +	\
	 __ABIDEP_CHECK((__VA_ARGS__) >= 1 &&				\
			(__VA_ARGS__) <= ABIDEP_TYPED_NAMES_MAX,	\
			"abidep: " #__VA_ARGS__ " names: not 1 to "	\
			"ABIDEP_TYPED_NAMES_MAX"))

/**
 * ABIDEP_ATTR_ENUM - declare an enum attribute, abidep_attr_<name>
 * @_name: the attribute's file name.
 * @_mode: its permissions (0644, or 0444 for read-only).
 * @_type: the driver's structure holding the value and lock.
 * @_field: the value: an unsigned int, the index of the current name.
 * @_lock: the struct mutex protecting it.
 * @_names: an array of the value names (const char * const []).
 * @_nr: the number of values, 1 to %ABIDEP_TYPED_NAMES_MAX; @_names must
 *	have exactly that many, or the declaration does not build.
 * @...: more initialisers, e.g. .apply = fn, .base = fn.
 *
 * Reads "noop deadline [cfq]\n"; a write is one name.
 */
#define ABIDEP_ATTR_ENUM(_name, _mode, _type, _field, _lock, _names, _nr, \
			 ...)						\
	struct abidep_typed_attr abidep_attr_##_name = {		\
		__ABIDEP_TYPED(_name, _mode, ENUM, _type, _field,	\
			       unsigned int, _lock),			\
		__ABIDEP_NAMES(_names, _nr),				\
		__VA_ARGS__						\
	}

/**
 * ABIDEP_ATTR_SET - declare a set attribute, abidep_attr_<name>
 * @_name: the attribute's file name.
 * @_mode: its permissions.
 * @_type: the driver's structure holding the value and lock.
 * @_field: the value: an unsigned long, bit i set when name i of @_names is in.
 * @_lock: the struct mutex protecting it.
 * @_names: an array of the value names (const char * const []).
 * @_nr: the number of values, 1 to %ABIDEP_TYPED_NAMES_MAX; @_names must
 *	have exactly that many, or the declaration does not build.
 * @...: more initialisers, e.g. .apply = fn, .base = fn.
 *
 * Reads "rc-5 [nec] [sony]\n"; writes "+x", "-x", "x", "none", several.
 */
#define ABIDEP_ATTR_SET(_name, _mode, _type, _field, _lock, _names, _nr, \
			...)						\
	struct abidep_typed_attr abidep_attr_##_name = {		\
		__ABIDEP_TYPED(_name, _mode, SET, _type, _field,	\
			       unsigned long, _lock),			\
		__ABIDEP_NAMES(_names, _nr),				\
		__VA_ARGS__						\
	}

/**
 * ABIDEP_ATTR_BOOL - declare a bool attribute, abidep_attr_<name>
 * @_name: the attribute's file name.
 * @_mode: its permissions.
 * @_type: the driver's structure holding the value and lock.
 * @_field: the value, a bool.
 * @_lock: the struct mutex protecting it.
 * @...: more initialisers, e.g. .apply = fn, .base = fn.
 *
 * Reads "0\n" or "1\n"; writes the words kstrtobool() takes, whole.
 */
#define ABIDEP_ATTR_BOOL(_name, _mode, _type, _field, _lock, ...)	\
	struct abidep_typed_attr abidep_attr_##_name = {		\
		__ABIDEP_TYPED(_name, _mode, BOOL, _type, _field, bool,	\
			       _lock),					\
		__VA_ARGS__						\
	}

/**
 * ABIDEP_ATTR_DURATION - declare a duration attribute, abidep_attr_<name>
 * @_name: the attribute's file name, which should end in the unit ("_ms").
 * @_mode: its permissions.
 * @_type: the driver's structure holding the value and lock.
 * @_field: the value, a u64 in @_unit.
 * @_lock: the struct mutex protecting it.
 * @_unit: ABIDEP_US, ABIDEP_MS or ABIDEP_S.
 * @_min: the smallest value accepted, in @_unit.
 * @_max: the largest value accepted, in @_unit.
 * @...: more initialisers, e.g. .apply = fn, .base = fn.
 *
 * Reads "1500\n" (in @_unit); writes "1500", "1500ms", "2s", "250us".
 */
#define ABIDEP_ATTR_DURATION(_name, _mode, _type, _field, _lock, _unit,	\
			     _min, _max, ...)				\
	struct abidep_typed_attr abidep_attr_##_name = {		\
		__ABIDEP_TYPED(_name, _mode, DURATION, _type, _field, u64, \
			       _lock),					\
		.unit = _unit,						\
		.min = _min,						\
		.max = _max,						\
		__VA_ARGS__						\
	}

/**
 * ABIDEP_ATTR_SIZE - declare a size attribute, abidep_attr_<name>
 * @_name: the attribute's file name, which should end in "_bytes".
 * @_mode: its permissions.
 * @_type: the driver's structure holding the value and lock.
 * @_field: the value, a u64 in bytes.
 * @_lock: the struct mutex protecting it.
 * @_min: the smallest value accepted, in bytes.
 * @_max: the largest value accepted, in bytes.
 * @...: more initialisers, e.g. .apply = fn, .base = fn.
 *
 * Reads "4096\n"; writes "4096", "4K", "16M", "1G".
 */
#define ABIDEP_ATTR_SIZE(_name, _mode, _type, _field, _lock, _min, _max, ...) \
	struct abidep_typed_attr abidep_attr_##_name = {		\
		__ABIDEP_TYPED(_name, _mode, SIZE, _type, _field, u64,	\
			       _lock),					\
		.min = _min,						\
		.max = _max,						\
		__VA_ARGS__						\
	}

#endif /* _ABIDEP_TYPED_H */
