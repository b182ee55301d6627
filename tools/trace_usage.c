// SPDX-License-Identifier: GPL-2.0
/*
 * abidep trace: the usage map the programs count into, and its replacement
 * at each sync of a pinned tracer.
 *
 * The pinned "usage" map is a map of maps holding one hash of usage keys
 * (bpf/abidep.bpf.c). A sync puts an empty hash in its place, the kernel
 * waiting for the programs running meanwhile, and then writes the old one's
 * counts, which can no longer grow, to the DB (store_add()): so the hash
 * holds what happened since the last sync, and a host that syncs every five
 * minutes does not fill it in normal use.
 *
 * A sync killed on the way loses nothing and counts nothing twice: the old
 * hash is pinned as usage_draining before it is replaced, and unpinned once
 * its counts are committed, with its id as the session's drained map (in
 * the same transaction). A sync that finds usage_draining writes it first,
 * unless the DB says it was written, or it is still the one counted into
 * (the sync before was killed before replacing it).
 *
 * A tracer pinned by an abidep from before has a plain hash as "usage",
 * whose counts are the session's totals: it is read whole, never replaced
 * (USAGE_TOTALS). So is a live tracer's, whose session is its run.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "abidep.h"
#include "trace.h"

#define DRAINING	PIN_DIR "/usage_draining"

static __u32 map_id(int fd, struct bpf_map_info *info)
{
	__u32 len = sizeof(*info);

	memset(info, 0, sizeof(*info));
	return bpf_obj_get_info_by_fd(fd, info, &len) ? 0 : info->id;
}

/* The hash the map of maps holds now, opened. */
static int usage_inner(struct tracer *tr)
{
	__u32 zero = 0, id;
	int fd;

	if (bpf_map_lookup_elem(tr->fd[M_USAGE], &zero, &id))
		return -1;
	fd = bpf_map_get_fd_by_id(id);
	return fd;
}

int usage_open(struct tracer *tr)
{
	struct bpf_map_info info;

	if (!map_id(tr->fd[M_USAGE], &info)) {
		fprintf(stderr, "abidep: cannot read the usage map: %s\n", strerror(errno));
		return EX_FAIL;
	}
	if (info.type != BPF_MAP_TYPE_ARRAY_OF_MAPS) {
		tr->usage_mode = USAGE_TOTALS;
		tr->usage_fd = tr->fd[M_USAGE];
		return EX_OK;
	}
	tr->usage_mode = tr->live ? USAGE_TOTALS : USAGE_DRAINED;
	tr->usage_fd = usage_inner(tr);
	if (tr->usage_fd < 0) {
		fprintf(stderr, "abidep: cannot open the usage map's counts: %s\n", strerror(errno));
		return EX_FAIL;
	}
	return EX_OK;
}

void usage_close(struct tracer *tr)
{
	if (tr->usage_fd >= 0 && tr->usage_fd != tr->fd[M_USAGE])
		close(tr->usage_fd);
	tr->usage_fd = -1;
}

int usage_draining(struct tracer *tr, bool *current)
{
	struct bpf_map_info a, b;
	int fd;

	*current = false;
	if (tr->skel || tr->usage_mode != USAGE_DRAINED)
		return -1;
	fd = bpf_obj_get(DRAINING);
	if (fd < 0)
		return -1;
	*current = map_id(fd, &a) == map_id(tr->usage_fd, &b);
	return fd;
}

void usage_drained(struct tracer *tr)
{
	if (!tr->skel && unlink(DRAINING) && errno != ENOENT)
		fprintf(stderr, "abidep: cannot unpin %s: %s\n", DRAINING, strerror(errno));
}

/*
 * An empty map like @info's, with its BTF: the kernel takes an inner map
 * only if it matches the first in all (a map without BTF differs in
 * what BTF tells of its values), and bpftool shows its keys by it.
 */
static int usage_new(const struct bpf_map_info *info)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts,
		    .btf_key_type_id = info->btf_key_type_id,
		    .btf_value_type_id = info->btf_value_type_id,
		    .map_flags = info->map_flags);
	int btf = info->btf_id ? bpf_btf_get_fd_by_id(info->btf_id) : -1;
	int fd, err;

	if (btf >= 0)
		opts.btf_fd = btf;
	else
		opts.btf_key_type_id = opts.btf_value_type_id = 0;
	fd = bpf_map_create(BPF_MAP_TYPE_HASH, "usage_keys", info->key_size, info->value_size,
			    info->max_entries, &opts);
	err = errno;
	if (btf >= 0)
		close(btf);
	errno = err;
	return fd;
}

int usage_swap(struct tracer *tr)
{
	struct bpf_map_info info;
	__u32 zero = 0;
	int old = tr->usage_fd, fresh;

	if (!map_id(old, &info))
		return -1;
	fresh = usage_new(&info);
	if (fresh < 0)
		return -1;
	/* Pinned first: a sync killed after the swap leaves it for the next. */
	if (!tr->skel && bpf_obj_pin(old, DRAINING))
		goto fail;
	/* Returns once no program can be counting into the old one. */
	if (bpf_map_update_elem(tr->fd[M_USAGE], &zero, &fresh, BPF_ANY)) {
		usage_drained(tr);
		goto fail;
	}
	tr->usage_fd = fresh;
	return old;
fail:
	close(fresh);
	return -1;
}

__u32 usage_id(int fd)
{
	struct bpf_map_info info;

	return map_id(fd, &info);
}
