// SPDX-License-Identifier: GPL-2.0
/*
 * The floor of the tracer's design: an empty BPF program ("return 0") on
 * each of the places abidep's tracer attaches to, the same way (fentry on
 * kernfs_fop_open and kernfs_fop_readdir, fexit on sysfs_kf_seq_show,
 * sysfs_kf_read, sysfs_kf_bin_read and kernfs_fop_write_iter). What any
 * tracer of those functions costs before it does anything: the trampolines
 * and the calls into the programs. make bench measures abidep above it.
 *
 *	floor DIR      load, attach, pin each program (DIR/prog_NAME) and its
 *	               link (DIR/link_NAME) and exit: the programs stay
 *	               attached until DIR is removed (rm -r DIR)
 *
 * Prints how many it attached; exits 0 when all six are, 1 otherwise.
 * Each program's run count (bpftool prog show pinned DIR/prog_NAME, with
 * kernel.bpf_stats_enabled=1) says it ran.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

static const struct {
	const char *func;
	enum bpf_attach_type type;
} points[] = {
	{ "kernfs_fop_open", BPF_TRACE_FENTRY },
	{ "kernfs_fop_readdir", BPF_TRACE_FENTRY },
	{ "sysfs_kf_seq_show", BPF_TRACE_FEXIT },
	{ "sysfs_kf_read", BPF_TRACE_FEXIT },
	{ "sysfs_kf_bin_read", BPF_TRACE_FEXIT },
	{ "kernfs_fop_write_iter", BPF_TRACE_FEXIT },
};

int main(int argc, char **argv)
{
	const struct bpf_insn ret0[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	char path[4096];
	unsigned int i, n = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: floor DIR\n");
		return 2;
	}
	if (mkdir(argv[1], 0700) && errno != EEXIST) {
		perror(argv[1]);
		return 1;
	}
	for (i = 0; i < sizeof(points) / sizeof(points[0]); i++) {
		int id = libbpf_find_vmlinux_btf_id(points[i].func, points[i].type);
		LIBBPF_OPTS(bpf_prog_load_opts, opts,
			    .expected_attach_type = points[i].type,
			    .attach_btf_id = id);
		int prog, link;

		if (id < 0) {
			fprintf(stderr, "floor: %s: no BTF id: %s\n", points[i].func, strerror(-id));
			continue;
		}
		prog = bpf_prog_load(BPF_PROG_TYPE_TRACING, "floor", "GPL", ret0, 2, &opts);
		if (prog < 0) {
			fprintf(stderr, "floor: load for %s: %s\n", points[i].func, strerror(errno));
			continue;
		}
		link = bpf_link_create(prog, 0, points[i].type, NULL);
		if (link < 0) {
			fprintf(stderr, "floor: attach to %s: %s\n", points[i].func, strerror(errno));
			close(prog);
			continue;
		}
		snprintf(path, sizeof(path), "%s/prog_%s", argv[1], points[i].func);
		if (bpf_obj_pin(prog, path)) {
			fprintf(stderr, "floor: pin %s: %s\n", path, strerror(errno));
			return 1;
		}
		snprintf(path, sizeof(path), "%s/link_%s", argv[1], points[i].func);
		if (bpf_obj_pin(link, path)) {
			fprintf(stderr, "floor: pin %s: %s\n", path, strerror(errno));
			return 1;
		}
		close(link);
		close(prog);
		n++;
	}
	printf("floor: %u of %zu programs attached\n", n, sizeof(points) / sizeof(points[0]));
	return n == sizeof(points) / sizeof(points[0]) ? 0 : 1;
}
