/* SPDX-License-Identifier: GPL-2.0 */
/*
 * abidep: keep a renamed sysfs attribute working under its old name, with
 * deprecation and removal dates, and name every process that still uses it.
 *
 * A driver that renames an attribute declares the old name once:
 *
 *	static struct abidep_entry current_protocol = {
 *		.old_name = "current_protocol",
 *		.new_name = "protocol",
 *		.deprecated = "2010-04-08",
 *		.remove_after = "2012-04-08",
 *		.hint = "read protocol and supported_protocols instead",
 *	};
 *
 * registers it at module init with abidep_entry_register() and adds the alias
 * to each device with devm_abidep_device_alias_add(). Reads and writes of the
 * old name go through the new attribute's own show() and store().
 *
 * See Documentation/driver-api/maintainer-guide.rst for the whole story.
 */
#ifndef _ABIDEP_H
#define _ABIDEP_H

#include <linux/device.h>
#include <linux/module.h>
#include <linux/types.h>

struct abidep_state;
struct abidep_alias;

/**
 * struct abidep_entry - one deprecated sysfs attribute name
 * @class_name: for table entries only: the device class whose devices get the
 *	alias (e.g. "rc"); NULL for entries a driver declares in code.
 * @old_name: the deprecated attribute name, created as an alias.
 * @new_name: the attribute that replaces it, on the same kobject.
 * @deprecated: the date the old name was deprecated, "YYYY-MM-DD" (or
 *	"YYYY-MM", "YYYY" when no more is known).
 * @remove_after: the date (as @deprecated) or kernel version ("6.12") after
 *	which the old name may be removed.
 * @hint: one line telling users what to do instead; may be NULL.
 * @show_xlate: optional; turns the new attribute's output in @buf (@len bytes,
 *	a page) into the old format in place. Returns the new length, which must
 *	be below PAGE_SIZE, or a negative errno.
 * @store_xlate: optional; turns a write in the old format (@buf, @count bytes,
 *	NUL-terminated) into the new format in @out (@size bytes). Returns the
 *	length written to @out, which must be below @size, or a negative errno
 *	(-EINVAL for values the old format did not accept).
 * @state: private to abidep, set by abidep_entry_register().
 *
 * Entries are declarative: everything but @state is read-only to abidep.
 */
struct abidep_entry {
	const char *class_name;
	const char *old_name;
	const char *new_name;
	const char *deprecated;
	const char *remove_after;
	const char *hint;
	ssize_t (*show_xlate)(struct device *dev, char *buf, ssize_t len);
	ssize_t (*store_xlate)(struct device *dev, const char *buf,
			       size_t count, char *out, size_t size);
	struct abidep_state *state;
};

int __abidep_entry_register(struct abidep_entry *entry, struct module *owner);

/**
 * abidep_entry_register - make an entry known to abidep
 * @entry: the entry; it must stay valid until abidep_entry_unregister().
 *
 * Checks the dates, allocates the entry's counters and user table, and lists
 * the entry in the state file. Call it once, before adding aliases.
 *
 * Return: 0, -EINVAL for a malformed date or name, -EEXIST if already
 * registered, -ENOMEM.
 */
#define abidep_entry_register(entry) __abidep_entry_register(entry, THIS_MODULE)

void abidep_entry_unregister(struct abidep_entry *entry);

struct abidep_alias *abidep_device_alias_add(struct device *dev,
					     struct abidep_entry *entry,
					     struct device_attribute *new_attr);
void abidep_alias_remove(struct abidep_alias *alias);
int devm_abidep_device_alias_add(struct device *dev, struct abidep_entry *entry,
				 struct device_attribute *new_attr);

#endif /* _ABIDEP_H */
