/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which host a tracer runs on, as the usage DB keys it: the host name and
 * an id from the machine id (hostid.c says how, and why not the name alone).
 */
#ifndef ABIDEP_HOSTID_H
#define ABIDEP_HOSTID_H

#include <stddef.h>

/* The key's form: "NAME/ID", NAME at most HOST_NAME_MAX, ID HOST_ID_HEX hex digits. */
#define HOST_ID_HEX	16
#define HOST_KEY_MAX	(64 + 1 + HOST_ID_HEX + 1)

/* Where a host key's id comes from (sessions.host_id in the DB). */
#define HOST_FROM_MACHINE	"machine-id"
#define HOST_FROM_BOOT		"boot-id"

/*
 * This host's key into @key (HOST_KEY_MAX bytes), and where its id came
 * from (HOST_FROM_*). Without a usable /etc/machine-id (missing, empty,
 * all zeros, "uninitialized"), the id is the boot's, and @warn says so
 * (else it is ""). -1 only when neither id can be read (@warn says why).
 */
int host_key(char *key, const char **from, char *warn, size_t wlen);

/*
 * The name part of a key ("debian" of "debian/0123456789abcdef"): its
 * length, the whole of a key that has no id (written before schema 6).
 */
size_t host_key_name_len(const char *key);

#endif
