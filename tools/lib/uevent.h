/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel uevents as the netlink socket delivers them (lib/kobject_uevent.c):
 * "ACTION@DEVPATH\0" then "KEY=VALUE\0" pairs. Parsed without trusting the
 * message: any length, no terminating NUL required, fields bounded by it.
 */
#ifndef ABIDEP_UEVENT_H
#define ABIDEP_UEVENT_H

#include <stdbool.h>
#include <stddef.h>

enum uevent_action {
	UEVENT_ADD, UEVENT_REMOVE, UEVENT_CHANGE, UEVENT_MOVE, UEVENT_ONLINE,
	UEVENT_OFFLINE, UEVENT_BIND, UEVENT_UNBIND, UEVENT_NR_ACTIONS,
};

struct uevent {
	enum uevent_action action;
	/* Point into the message, each NUL-terminated inside it. */
	const char *devpath;		/* "/devices/..." */
	const char *subsystem;		/* SUBSYSTEM=, or NULL */
	unsigned long long seqnum;	/* SEQNUM=, or 0 */
	int nvars;			/* KEY=VALUE pairs taken */
};

/*
 * Parse @len bytes at @msg. 0 and *@ev filled for a well-formed kernel
 * uevent; -1 for anything else (libudev's re-broadcasts, truncated or forged
 * headers, an ACTION= or DEVPATH= that contradicts the header).
 */
int uevent_parse(const void *msg, size_t len, struct uevent *ev);

/* The action's name ("add"), for UEVENT_NR_ACTIONS "?". */
const char *uevent_action_name(enum uevent_action a);

/* Devices or their drivers came or went: sysfs files may have too. */
bool uevent_changes_devices(const struct uevent *ev);

#endif
