// SPDX-License-Identifier: GPL-2.0
/*
 * abidep trace: open the BPF object (bpf/abidep.bpf.c, through its
 * skeleton), set what is set before load, load and attach one of its two
 * sets of programs: fexit, or kprobes where fexit cannot be used.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "exit.h"
#include "abidep.skel.h"
#include "trace.h"

/*
 * Functions only some kernels have, whose programs are loaded where the
 * kernel's BTF names them: the seq_show of the in-tree aliases
 * (patches/linux-6.12/).
 */
static const char *const optional_funcs[] = { "sysfs_kf_alias_seq_show" };

static bool optional_func(const char *func)
{
	size_t i;

	for (i = 0; i < sizeof(optional_funcs) / sizeof(optional_funcs[0]); i++)
		if (!strcmp(func, optional_funcs[i]))
			return true;
	return false;
}

/*
 * The object holds two sets of programs (bpf/abidep.bpf.c): fexit, and
 * kprobe/kretprobe pairs for kernels without trampolines or without BTF for
 * the kernfs functions. Load one, less the optional functions the kernel's
 * BTF (@vmlinux, NULL if unreadable) does not have; pending is the kprobes'
 * only.
 */
static void choose_progs(struct abidep_bpf *skel, bool kprobe,
			 const struct btf *vmlinux)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, skel->obj) {
		const char *func = prog_func(prog);
		bool on = (bpf_program__type(prog) == BPF_PROG_TYPE_KPROBE) == kprobe;

		if (on && optional_func(func))
			on = vmlinux && btf__find_by_name_kind(vmlinux, func, BTF_KIND_FUNC) >= 0;
		bpf_program__set_autoload(prog, on);
	}
	if (!kprobe)
		bpf_map__set_max_entries(skel->maps.pending, 1);
}

/*
 * The first function a loaded fentry/fexit program hooks that the kernel's
 * BTF does not have (renamed, or inlined everywhere), or NULL; programs not
 * loaded (an unwatched special's, an optional function's) do not count.
 * Asked before loading, so that the fallback names the function, where the
 * verifier would only say ESRCH. NULL too when the BTF cannot be read: the
 * load then says why.
 */
static const char *fexit_missing_func(struct abidep_bpf *skel,
				      const struct btf *vmlinux)
{
	struct bpf_program *prog;
	const char *missing = NULL;

	if (!vmlinux)
		return NULL;
	bpf_object__for_each_program(prog, skel->obj) {
		if (bpf_program__type(prog) == BPF_PROG_TYPE_TRACING &&
		    bpf_program__autoload(prog) &&
		    btf__find_by_name_kind(vmlinux, prog_func(prog), BTF_KIND_FUNC) < 0) {
			missing = prog_func(prog);
			break;
		}
	}
	return missing;
}

/* The function of the first loaded program that attach left without a link. */
static const char *unattached_func(struct abidep_bpf *skel)
{
	const struct bpf_object_skeleton *s = skel->skeleton;
	int i;

	for (i = 0; i < s->prog_cnt; i++)
		if (bpf_program__autoload(*s->progs[i].prog) && !*s->progs[i].link)
			return prog_func(*s->progs[i].prog);
	return "?";
}

/*
 * ABIDEP_SWEEP_WINDOW_NS in the running kernel's jiffies, rounded up: the
 * coarse clocks advance a tick (a jiffy) at a time, and say so as their
 * resolution (TICK_NSEC, on every kernel; no Kconfig file needed, which
 * the initramfs and the guest do not have). Outside 1 ms to 100 ms (HZ
 * 1000 to 10, what Linux allows and more), a jiffy a millisecond: at
 * least the window on any kernel.
 */
static __u32 window_jiffies(void)
{
	struct timespec res;
	__u64 tick;

	if (clock_getres(CLOCK_MONOTONIC_COARSE, &res) || res.tv_sec)
		return ABIDEP_SWEEP_WINDOW_NS / 1000000;
	tick = res.tv_nsec;
	if (tick < 1000000 || tick > 100000000)
		return ABIDEP_SWEEP_WINDOW_NS / 1000000;
	return (ABIDEP_SWEEP_WINDOW_NS + tick - 1) / tick;
}

/* Open the object and set what is set before load: sizes, tunables, programs. */
static int open_skel(struct tracer *tr, const struct btf *vmlinux)
{
	tr->skel = abidep_bpf__open();
	if (!tr->skel) {
		fprintf(stderr, "abidep: cannot open the BPF object: %s\n", strerror(errno));
		return EXIT_LOAD;
	}
	if (bpf_map__set_max_entries(tr->skel->maps.usage_keys, tr->max_usage)) {
		fprintf(stderr, "abidep: cannot size the usage map to %u keys\n", tr->max_usage);
		return EXIT_LOAD;
	}
	if (bpf_map__set_max_entries(tr->skel->maps.slots, tr->nr_slots)) {
		fprintf(stderr, "abidep: cannot size the slots map to %u\n", tr->nr_slots);
		return EXIT_LOAD;
	}
	/* .rodata: read-only once loaded (bpf/abidep.bpf.c). */
	tr->skel->rodata->slot_mask = tr->nr_slots - 1;
	tr->skel->rodata->uid_quota = tr->uid_quota;
	tr->skel->rodata->events_on = tr->live;
	tr->skel->rodata->sweep_jiffies = window_jiffies();
	/* Nobody reads a pinned tracer's ring buffer: the least there is. */
	if (!tr->live)
		bpf_map__set_max_entries(tr->skel->maps.events, getpagesize());
	choose_progs(tr->skel, tr->kprobe, vmlinux);
	specials_apply(tr, tr->skel);
	return EXIT_OK;
}

/* try_load(): fexit cannot be used here (it said why); try kprobes. */
#define TRY_KPROBES (-1)

/* Load and attach the opened object's set of programs (tr->kprobe's). */
static int try_load(struct tracer *tr, const struct btf *vmlinux)
{
	const char *missing = tr->kprobe ? NULL : fexit_missing_func(tr->skel, vmlinux);
	int err;

	if (missing) {
		fprintf(stderr, "abidep: the kernel's BTF has no function %s for fexit: using kprobes\n",
			missing);
		return TRY_KPROBES;
	}
	if (abidep_bpf__load(tr->skel)) {
		err = errno;
		if (tr->kprobe || err == EPERM) {
			fprintf(stderr, "abidep: cannot load the BPF programs: %s (ABIDEP_DEBUG=1 shows the verifier log)\n",
				strerror(err));
			return err == EPERM ? EXIT_PERM : EXIT_LOAD;
		}
		/* No trampolines here. */
		fprintf(stderr, "abidep: fexit is not available (%s): using kprobes\n",
			strerror(err));
		return TRY_KPROBES;
	}
	if (abidep_bpf__attach(tr->skel)) {
		err = errno;
		if (tr->kprobe) {
			fprintf(stderr, "abidep: cannot attach a kprobe to %s: %s (is it in /proc/kallsyms?)\n",
				unattached_func(tr->skel), strerror(err));
			return EXIT_LOAD;
		}
		fprintf(stderr, "abidep: fexit cannot attach to %s (%s): using kprobes\n",
			unattached_func(tr->skel), strerror(err));
		return TRY_KPROBES;
	}
	return EXIT_OK;
}

/* A live tracer, or one to pin: fexit, or kprobes where fexit cannot be. */
int load_bpf(struct tracer *tr)
{
	const struct btf *vmlinux = tracer_btf(tr);
	int i, ret;

	for (;;) {
		ret = open_skel(tr, vmlinux);
		if (!ret)
			ret = try_load(tr, vmlinux);
		if (ret != TRY_KPROBES)
			break;
		abidep_bpf__destroy(tr->skel);
		tr->skel = NULL;
		tr->kprobe = true;
	}
	/* Megabytes, and not asked again once loaded. */
	tracer_btf_free(tr);
	if (ret)
		return ret;
	tr->fd[M_WATCHED] = bpf_map__fd(tr->skel->maps.watched);
	tr->fd[M_USAGE] = bpf_map__fd(tr->skel->maps.usage);
	tr->fd[M_FILES] = bpf_map__fd(tr->skel->maps.files);
	tr->fd[M_STATS] = bpf_map__fd(tr->skel->maps.stats);
	tr->fd[M_EVENTS] = bpf_map__fd(tr->skel->maps.events);
	tr->fd[M_SLOTS] = bpf_map__fd(tr->skel->maps.slots);
	tr->fd[M_DIRS] = bpf_map__fd(tr->skel->maps.dirs);
	tr->fd[M_RANKS] = bpf_map__fd(tr->skel->maps.ranks);
	for (i = 0; i < NR_MAPS; i++)
		if (tr->fd[i] < 0)
			return EXIT_LOAD;
	return slots_map(&tr->slots, tr->fd[M_SLOTS]);
}
