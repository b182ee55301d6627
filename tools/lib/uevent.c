// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel uevent parser (see uevent.h). Separate from the tracer so that
 * tests/fuzz/fuzz_uevent.c can feed it hostile input: the live tracer reads
 * these messages from a netlink socket, and only the sender check in
 * trace_live.c stands between it and whatever arrives there.
 */
#include <stdlib.h>
#include <string.h>

#include "uevent.h"

static const char *const action_names[UEVENT_NR_ACTIONS] = {
	[UEVENT_ADD] = "add", [UEVENT_REMOVE] = "remove",
	[UEVENT_CHANGE] = "change", [UEVENT_MOVE] = "move",
	[UEVENT_ONLINE] = "online", [UEVENT_OFFLINE] = "offline",
	[UEVENT_BIND] = "bind", [UEVENT_UNBIND] = "unbind",
};

const char *uevent_action_name(enum uevent_action a)
{
	return (unsigned int)a < UEVENT_NR_ACTIONS ? action_names[a] : "?";
}

static int action_lookup(const char *s, size_t n)
{
	int i;

	for (i = 0; i < UEVENT_NR_ACTIONS; i++)
		if (strlen(action_names[i]) == n && !memcmp(s, action_names[i], n))
			return i;
	return -1;
}

/* A decimal number, the whole string: SEQNUM is one. */
static int parse_u64(const char *s, unsigned long long *out)
{
	unsigned long long v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (~0ULL - 9) / 10)
			return -1;
		v = v * 10 + (*s - '0');
	}
	*out = v;
	return 0;
}

int uevent_parse(const void *msg, size_t len, struct uevent *ev)
{
	const char *p = msg, *end = p + len, *nul, *at;
	int a;

	memset(ev, 0, sizeof(*ev));
	/* The header, "ACTION@DEVPATH", NUL-terminated inside the message. */
	nul = len ? memchr(p, '\0', len) : NULL;
	if (!nul)
		return -1;
	at = memchr(p, '@', nul - p);
	if (!at)
		return -1;
	a = action_lookup(p, at - p);
	if (a < 0 || at[1] != '/')
		return -1;
	ev->action = a;
	ev->devpath = at + 1;

	/* KEY=VALUE strings; an unterminated last one is cut off, not read. */
	for (p = nul + 1; p < end; p = nul + 1) {
		const char *eq;

		nul = memchr(p, '\0', end - p);
		if (!nul)
			break;
		eq = memchr(p, '=', nul - p);
		if (!eq || eq == p)
			continue;
		ev->nvars++;
		if (eq - p == 6 && !memcmp(p, "ACTION", 6)) {
			if (action_lookup(eq + 1, nul - eq - 1) != a)
				return -1;
		} else if (eq - p == 7 && !memcmp(p, "DEVPATH", 7)) {
			if (strcmp(eq + 1, ev->devpath))
				return -1;
		} else if (eq - p == 9 && !memcmp(p, "SUBSYSTEM", 9)) {
			ev->subsystem = eq + 1;
		} else if (eq - p == 6 && !memcmp(p, "SEQNUM", 6)) {
			if (parse_u64(eq + 1, &ev->seqnum))
				return -1;
		}
	}
	return 0;
}

bool uevent_changes_devices(const struct uevent *ev)
{
	switch (ev->action) {
	case UEVENT_ADD:
	case UEVENT_REMOVE:
	case UEVENT_BIND:
	case UEVENT_UNBIND:
	/* A renamed device (net interfaces) moves its files too. */
	case UEVENT_MOVE:
		return true;
	default:
		return false;
	}
}
