// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the uevent parser the tracer runs on every netlink
 * message (tools/lib/uevent.c). The input is copied to a buffer of exactly its
 * size, with no NUL after it, so that ASan catches any read past the
 * message; a parse that succeeds must also be consistent with the bytes it
 * came from (checked below: a wrong answer aborts, like a crash).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "uevent.h"

/* s points inside buf and its string ends inside it. */
static int inside(const char *buf, size_t size, const char *s)
{
	return s >= buf && s < buf + size && memchr(s, '\0', buf + size - s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size ? size : 1);
	struct uevent ev;
	const char *name;
	size_t n;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	if (uevent_parse(buf, size, &ev) == 0) {
		name = uevent_action_name(ev.action);
		n = strlen(name);
		/* The header is "ACTION@/...", ACTION a known one. */
		if (ev.action >= UEVENT_NR_ACTIONS || size < n + 3 ||
		    memcmp(buf, name, n) || buf[n] != '@')
			abort();
		if (ev.devpath != buf + n + 1 || !inside(buf, size, ev.devpath) ||
		    ev.devpath[0] != '/')
			abort();
		if (ev.subsystem && !inside(buf, size, ev.subsystem))
			abort();
		if (ev.nvars < 0 || (size_t)ev.nvars > size / 2)
			abort();
		if (uevent_changes_devices(&ev) !=
		    (ev.action == UEVENT_ADD || ev.action == UEVENT_REMOVE ||
		     ev.action == UEVENT_BIND || ev.action == UEVENT_UNBIND ||
		     ev.action == UEVENT_MOVE))
			abort();
	}
	free(buf);
	return 0;
}
