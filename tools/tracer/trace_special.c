// SPDX-License-Identifier: GPL-2.0
/*
 * abidep trace: the deprecated files outside sysfs ("specials", bpf/abidep.h).
 * Each is named in the tables by one What, exactly as special_of()
 * (tools/lib/entry.c) knows it; it has no inode to watch, so the
 * programs know it by a handler or a name, and this gives
 * it a file id before the load (special_id[] in .rodata), attaches only the
 * programs of the specials watched, and skips, by name, those the running
 * kernel does not have, and the paths outside sysfs it does not know.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "abidep.skel.h"
#include "entry.h"
#include "pattern.h"
#include "trace.h"
#include "util.h"

/* What the tracer needs of a special, beyond its What (special_of()). */
struct special_def {
	const char *needs;	/* a kernel function only kernels that have the file have */
	const char *why;	/* what a kernel without it lacks */
	const char *funcs[2];	/* the functions its programs hook */
};

#define NEIGH6_DEF { "ndisc_ifinfo_sysctl_change", "no IPv6", \
	{ "ndisc_ifinfo_sysctl_change", "proc_sys_open" } }
#define MEMCG1_DEF { "mem_cgroup_move_charge_write", \
	"no cgroup v1 memory controller (CONFIG_MEMCG_V1)", { "cgroup_seqfile_show" } }

static const struct special_def defs[ABIDEP_NR_SPECIALS] = {
	[ABIDEP_SP_NEIGH6_RETRANS_TIME] = NEIGH6_DEF,
	[ABIDEP_SP_NEIGH6_BASE_REACHABLE_TIME] = NEIGH6_DEF,
	[ABIDEP_SP_OOM_ADJ] = { "oom_adj_write", "no oom_adj",
		{ "oom_adj_read", "oom_adj_write" } },
	[ABIDEP_SP_MEMCG1_KMEM_LIMIT] = MEMCG1_DEF,
	[ABIDEP_SP_MEMCG1_KMEM_TCP_LIMIT] = MEMCG1_DEF,
	[ABIDEP_SP_MEMCG1_SOFT_LIMIT] = MEMCG1_DEF,
	[ABIDEP_SP_MEMCG1_OOM_CONTROL] = MEMCG1_DEF,
	[ABIDEP_SP_MEMCG1_PRESSURE_LEVEL] = MEMCG1_DEF,
	[ABIDEP_SP_MEMCG1_MOVE_CHARGE] = MEMCG1_DEF,
};

/*
 * Whether the running kernel has function @name: its BTF says (what fentry
 * needs), or, without BTF (kprobe mode), its symbols.
 */
static bool kernel_has(const struct btf *btf, const char *name)
{
	char line[256], sym[128];
	bool found = false;
	FILE *f;

	if (btf)
		return btf__find_by_name_kind(btf, name, BTF_KIND_FUNC) >= 0;
	f = fopen("/proc/kallsyms", "r");
	while (f && !found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%*s %*s %127s", sym) == 1 && !strcmp(sym, name);
	if (f)
		fclose(f);
	return found;
}

/*
 * A deprecated entry's What @j that is a path outside sysfs (cgroup v1's
 * mount included) and not a special: the tracer cannot watch it.
 */
static bool unwatchable(const struct abi_entry *e, int j)
{
	const char *w = e->what[j];

	return e->status == ABI_ST_DEPRECATED && abi_is_path(w) &&
	       (strncmp(w, "/sys/", 5) || !strncmp(w, "/sys/fs/cgroup/", 15));
}

/*
 * Once, after the tables are read and before the first load: a file id for
 * each special the tables name and the kernel has; the others are said and
 * skipped.
 */
void specials_choose(struct tracer *tr)
{
	const struct btf *btf = tracer_btf(tr);
	int i, j, k;

	for (k = 0; k < ABIDEP_NR_SPECIALS; k++)
		tr->special_file[k] = -1;
	for (i = 0; i < tr->tables.nentries; i++) {
		const struct abi_entry *e = &tr->tables.entries[i];

		for (j = 0; j < e->nwhat; j++) {
			struct wfile *wf;

			k = special_of(e->what[j]);
			if (k < 0 && unwatchable(e, j))
				fprintf(stderr, "abidep: %s (%s:%d): outside sysfs, and not a file the tracer knows there: not watched\n",
					e->what[j], e->file, e->what_line[j]);
			if (k < 0 || tr->special_file[k] >= 0)
				continue;
			if (!kernel_has(btf, defs[k].needs)) {
				fprintf(stderr, "abidep: %s (%s:%d): not on this kernel (%s): not watched\n",
					e->what[j], e->file, e->what_line[j], defs[k].why);
				continue;
			}
			wf = GROW(tr->files, tr->nfiles, tr->cap);
			memset(wf, 0, sizeof(*wf));
			wf->path = xstrdup(e->what[j]);
			wf->id = tr->next_id++;
			tr->special_file[k] = wf - tr->files;
			tr->special_entry[k] = i;
		}
	}
}

static bool hooks(int k, const char *func)
{
	return (defs[k].funcs[0] && !strcmp(defs[k].funcs[0], func)) ||
	       (defs[k].funcs[1] && !strcmp(defs[k].funcs[1], func));
}

/*
 * At each open of the object (before its load): the ids into .rodata, and
 * the specials' programs loaded only for the specials watched.
 */
void specials_apply(struct tracer *tr, struct abidep_bpf *skel)
{
	struct bpf_program *prog;
	int k;

	for (k = 0; k < ABIDEP_NR_SPECIALS; k++) {
		int f = tr->special_file[k];

		skel->rodata->special_id[k] = f < 0 ? 0 : tr->files[f].id + 1;
		if (f >= 0 && k >= ABIDEP_SP_MEMCG1_FIRST)
			skel->rodata->memcg1_on = 1;
	}
	bpf_object__for_each_program(prog, skel->obj) {
		const char *func = prog_func(prog);
		bool special = false, watched = false;

		for (k = 0; k < ABIDEP_NR_SPECIALS; k++) {
			if (!hooks(k, func))
				continue;
			special = true;
			watched |= tr->special_file[k] >= 0;
		}
		if (special && !watched)
			bpf_program__set_autoload(prog, false);
	}
}

/* After the load: the specials in the files map, for the syncs to name. */
void specials_publish(struct tracer *tr)
{
	int k;

	for (k = 0; k < ABIDEP_NR_SPECIALS; k++) {
		const struct abi_entry *e;
		struct abidep_file f = { 0 };
		const char *base;
		struct wfile *wf;

		if (tr->special_file[k] < 0)
			continue;
		wf = &tr->files[tr->special_file[k]];
		e = &tr->tables.entries[tr->special_entry[k]];
		base = strrchr(e->file, '/');
		snprintf(f.path, sizeof(f.path), "%s", wf->path);
		snprintf(f.what, sizeof(f.what), "%s", wf->path);
		snprintf(f.table, sizeof(f.table), "%s", base ? base + 1 : e->file);
		f.status = e->status;
		f.watched = 1;
		if (bpf_map_update_elem(tr->fd[M_FILES], &wf->id, &f, BPF_ANY))
			fprintf(stderr, "abidep: cannot watch %s: %s\n", wf->path, strerror(errno));
	}
}
