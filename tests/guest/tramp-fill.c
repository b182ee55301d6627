// SPDX-License-Identifier: GPL-2.0
/*
 * Fill a kernel function's BPF trampoline, so that one more fentry or fexit
 * program cannot attach there: the real condition under which abidep trace
 * falls back to kprobes (tests/guest/trace.sh). A trampoline takes at
 * most BPF_MAX_TRAMP_LINKS programs (38 on x86-64); each one here is a
 * distinct, empty fentry program ("return 0"), its link pinned under DIR.
 *	tramp-fill FUNCTION DIR
 * Prints how many attached; exits 0 once an attach fails with E2BIG, 1 on
 * any other error. Remove DIR to undo.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

int main(int argc, char **argv)
{
	const struct bpf_insn ret0[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	char path[4096];
	int id, n;

	if (argc != 3) {
		fprintf(stderr, "usage: tramp-fill FUNCTION DIR\n");
		return 2;
	}
	id = libbpf_find_vmlinux_btf_id(argv[1], BPF_TRACE_FENTRY);
	if (id < 0) {
		fprintf(stderr, "tramp-fill: %s: no BTF id: %s\n", argv[1], strerror(-id));
		return 1;
	}
	if (mkdir(argv[2], 0700) && errno != EEXIST) {
		perror(argv[2]);
		return 1;
	}
	for (n = 0; n < 256; n++) {
		LIBBPF_OPTS(bpf_prog_load_opts, opts,
			    .expected_attach_type = BPF_TRACE_FENTRY,
			    .attach_btf_id = id);
		int prog, link;

		prog = bpf_prog_load(BPF_PROG_TYPE_TRACING, "tramp_fill", "GPL",
				     ret0, 2, &opts);
		if (prog < 0) {
			fprintf(stderr, "tramp-fill: load: %s\n", strerror(errno));
			return 1;
		}
		link = bpf_link_create(prog, 0, BPF_TRACE_FENTRY, NULL);
		if (link < 0) {
			int err = errno;

			printf("%d programs attached to %s; the next one: %s\n",
			       n, argv[1], strerror(err));
			return err == E2BIG ? 0 : 1;
		}
		snprintf(path, sizeof(path), "%s/link%d", argv[2], n);
		if (bpf_obj_pin(link, path)) {
			fprintf(stderr, "tramp-fill: pin %s: %s\n", path, strerror(errno));
			return 1;
		}
		close(link);
		close(prog);
	}
	fprintf(stderr, "tramp-fill: %d programs attached, and still room\n", n);
	return 1;
}
