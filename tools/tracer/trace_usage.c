// SPDX-License-Identifier: GPL-2.0
/*
 * abidep trace: the usage map the programs count into, and its replacement
 * at each sync of a pinned tracer.
 *
 * The pinned "usage" map is a map of maps holding one hash of usage keys
 * (bpf/abidep.bpf.c), pinned too, as usage_keys. A sync puts an empty hash
 * in its place, the kernel waiting for the programs running meanwhile, and
 * then writes the old one's counts, which can no longer grow, to the DB
 * (store_add()): so the hash holds what happened since the last sync, and a
 * host that syncs every five minutes does not fill it in normal use.
 *
 * A sync killed on the way loses nothing and counts nothing twice. The new
 * hash is pinned as usage_next, the old one renamed usage_draining (bpffs
 * renames atomically), the new one put in place, then renamed usage_keys;
 * the old one is unpinned once its counts are committed, with its id as
 * the session's drained map (in the same transaction). usage_repair() puts
 * the names right after a kill, by the id the map of maps holds; a sync
 * that finds usage_draining writes it first, unless the DB says it was
 * written.
 *
 * Nothing here needs CAP_SYS_ADMIN (the units run with CAP_BPF and
 * CAP_PERFMON alone): the hashes are reached by their pins, not by id, and
 * a new hash gets its BTF from the tracer's own object, not the kernel's
 * copy of the first one's.
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
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "exit.h"
#include "abidep.skel.h"
#include "trace.h"

#define KEYS		PIN_DIR "/usage_keys"
#define NEXT		PIN_DIR "/usage_next"
#define DRAINING	PIN_DIR "/usage_draining"

static __u32 map_id(int fd, struct bpf_map_info *info)
{
	__u32 len = sizeof(*info);

	memset(info, 0, sizeof(*info));
	return bpf_obj_get_info_by_fd(fd, info, &len) ? 0 : info->id;
}

/* The id of the hash the map of maps holds now; 0 if it cannot be read. */
static __u32 current_id(struct tracer *tr)
{
	__u32 zero = 0, id;

	return bpf_map_lookup_elem(tr->fd[M_USAGE], &zero, &id) ? 0 : id;
}

/* The id of the map pinned at @path; 0 if none. */
static __u32 pin_id(const char *path)
{
	struct bpf_map_info info;
	int fd = bpf_obj_get(path);
	__u32 id;

	if (fd < 0)
		return 0;
	id = map_id(fd, &info);
	close(fd);
	return id;
}

/*
 * After a sync killed between its steps (see above): the hash counted
 * into is pinned as usage_keys, a new one never put in place is unpinned.
 */
static void usage_repair(struct tracer *tr)
{
	__u32 cur = current_id(tr);

	if (!cur)
		return;
	if (pin_id(NEXT) == cur)
		rename(NEXT, KEYS);
	else
		unlink(NEXT);
	if (pin_id(KEYS) != cur && pin_id(DRAINING) == cur)
		rename(DRAINING, KEYS);
}

int usage_open(struct tracer *tr)
{
	struct bpf_map_info info;

	if (!map_id(tr->fd[M_USAGE], &info)) {
		fprintf(stderr, "abidep: cannot read the usage map: %s\n", strerror(errno));
		return EXIT_FAIL;
	}
	if (info.type != BPF_MAP_TYPE_ARRAY_OF_MAPS) {
		tr->usage_mode = USAGE_TOTALS;
		tr->usage_fd = tr->fd[M_USAGE];
		return EXIT_OK;
	}
	tr->usage_mode = tr->live ? USAGE_TOTALS : USAGE_DRAINED;
	if (tr->skel) {
		tr->usage_fd = dup(bpf_map__fd(tr->skel->maps.usage_keys));
	} else {
		usage_repair(tr);
		tr->usage_fd = bpf_obj_get(KEYS);
	}
	if (tr->usage_fd < 0) {
		fprintf(stderr, "abidep: cannot open the usage map's counts (%s): %s\n",
			KEYS, strerror(errno));
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

void usage_close(struct tracer *tr)
{
	if (tr->usage_fd >= 0 && tr->usage_fd != tr->fd[M_USAGE])
		close(tr->usage_fd);
	tr->usage_fd = -1;
}

int usage_draining(struct tracer *tr, bool *current)
{
	struct bpf_map_info info;
	int fd;

	*current = false;
	if (tr->skel || tr->usage_mode != USAGE_DRAINED)
		return -1;
	fd = bpf_obj_get(DRAINING);
	if (fd < 0)
		return -1;
	*current = map_id(fd, &info) == current_id(tr);
	return fd;
}

void usage_drained(struct tracer *tr)
{
	if (!tr->skel && unlink(DRAINING) && errno != ENOENT)
		fprintf(stderr, "abidep: cannot unpin %s: %s\n", DRAINING, strerror(errno));
}

/*
 * The BTF of the usage keys and values, loaded from the tracer's own
 * object (the kernel takes an inner map only if it matches the first in
 * all, which a map without BTF does not; and bpftool shows its keys by
 * it): its fd, or -1.
 */
static int usage_btf(struct tracer *tr, __u32 *key_id, __u32 *value_id)
{
	struct abidep_bpf *obj = tr->skel ? tr->skel : abidep_bpf__open();
	struct btf *btf = obj ? bpf_object__btf(obj->obj) : NULL;
	int k, v, fd = -1;

	if (!btf)
		goto out;
	k = btf__find_by_name_kind(btf, "abidep_usage_key", BTF_KIND_STRUCT);
	v = btf__find_by_name_kind(btf, "abidep_usage", BTF_KIND_STRUCT);
	if (k > 0 && v > 0 && (btf__fd(btf) >= 0 || !btf__load_into_kernel(btf))) {
		fd = dup(btf__fd(btf));
		*key_id = k;
		*value_id = v;
	}
out:
	if (obj && obj != tr->skel)
		abidep_bpf__destroy(obj);
	return fd;
}

/* An empty hash like @info's. */
static int usage_new(struct tracer *tr, const struct bpf_map_info *info)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = info->map_flags);
	__u32 key_id = 0, value_id = 0;
	int btf = usage_btf(tr, &key_id, &value_id);
	int fd, err;

	if (btf >= 0) {
		opts.btf_fd = btf;
		opts.btf_key_type_id = key_id;
		opts.btf_value_type_id = value_id;
	}
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
	fresh = usage_new(tr, &info);
	if (fresh < 0)
		return -1;
	/* Named first: a sync killed after the swap leaves both for the next. */
	if (!tr->skel && (bpf_obj_pin(fresh, NEXT) || rename(KEYS, DRAINING)))
		goto fail;
	/* Returns once no program can be counting into the old one. */
	if (bpf_map_update_elem(tr->fd[M_USAGE], &zero, &fresh, BPF_ANY)) {
		if (!tr->skel)
			rename(DRAINING, KEYS);
		goto fail;
	}
	if (!tr->skel && rename(NEXT, KEYS))
		fprintf(stderr, "abidep: cannot rename %s to %s: %s (the next sync will)\n",
			NEXT, KEYS, strerror(errno));
	tr->usage_fd = fresh;
	return old;
fail:
	if (!tr->skel)
		unlink(NEXT);
	close(fresh);
	return -1;
}

__u32 usage_id(int fd)
{
	struct bpf_map_info info;

	return map_id(fd, &info);
}
