// SPDX-License-Identifier: GPL-2.0
/*
 * The host key: "NAME/ID", the host name as a label and, to tell hosts
 * apart, the first HOST_ID_HEX hex digits of an id derived from the
 * machine id. Host names repeat (every image that was never renamed is
 * "debian" or "localhost"): hosts keyed by name alone merge into one, and
 * one host's tracer vouches for the other's quiet window.
 *
 * The id is systemd's application-specific id (machine-id(5): the machine
 * id itself is confidential, and usage DBs are shared across a fleet): an
 * HMAC-SHA256 of the machine id keyed with abidep's application id, the
 * same as `systemd-id128 machine-id --app-specific=ABIDEP_APP_ID`. A
 * machine without a usable machine id (missing, all zeros: an image meant
 * to get one at first boot and cloned before it did) gets the boot id's
 * instead: a host per boot, never two clones as one. A host whose name
 * changes gets a new key, and so starts as a new host.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "dl_systemd.h"
#include "hostid.h"

/* abidep's application id (systemd-id128 new): never change it. */
#define ABIDEP_APP_ID SD_ID128_MAKE(31, 6a, 57, bd, 6e, dc, 46, 5e, 9a, 50, 36, 90, 58, c5, 74, 16)

/* The host name, as a label: printable, no '/' (the key's separator). */
static void host_name(char *name, size_t len)
{
	char *p;

	if (gethostname(name, len) || !name[0])
		snprintf(name, len, "localhost");
	name[len - 1] = '\0';
	for (p = name; *p; p++)
		if (*p <= ' ' || *p >= 0x7f || *p == '/')
			*p = '_';
}

int host_key(char *key, const char **from, char *warn, size_t wlen)
{
	char name[65], hex[SD_ID128_STRING_MAX];
	sd_id128_t id;
	int r;

	warn[0] = '\0';
	host_name(name, sizeof(name));
	if (dynlib_load(&dl_systemd)) {
		dynlib_error(&dl_systemd, "telling this host apart", warn, wlen);
		return -1;
	}
	r = sym_sd_id128_get_machine_app_specific(ABIDEP_APP_ID, &id);
	*from = HOST_FROM_MACHINE;
	if (r < 0) {
		int rb = sym_sd_id128_get_boot_app_specific(ABIDEP_APP_ID, &id);

		if (rb < 0) {
			snprintf(warn, wlen, "cannot tell this host apart: no machine id (/etc/machine-id: %s) and no boot id (%s)",
				 strerror(-r), strerror(-rb));
			return -1;
		}
		snprintf(warn, wlen, "/etc/machine-id is %s: this host is keyed by its boot id, a new host at every boot (each earlier boot's tracer then counts as stopped); give it a machine id with systemd-machine-id-setup",
			 r == -ENOENT ? "missing" : r == -ENOMEDIUM ? "empty or not set up" :
			 strerror(-r));
		*from = HOST_FROM_BOOT;
	}
	sym_sd_id128_to_string(id, hex);
	snprintf(key, HOST_KEY_MAX, "%s/%.*s", name, HOST_ID_HEX, hex);
	return 0;
}

size_t host_key_name_len(const char *key)
{
	const char *slash = strrchr(key, '/');

	return slash ? (size_t)(slash - key) : strlen(key);
}
