// SPDX-License-Identifier: GPL-2.0
/*
 * abidep trace: what the loader's parts ask of libbpf alike. The kernel's
 * BTF (megabytes) is read once per tracer, however many parts ask for it;
 * a program's function; libbpf's print callback.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "trace.h"

const struct btf *tracer_btf(struct tracer *tr)
{
	if (!tr->vmlinux_read) {
		tr->vmlinux = btf__load_vmlinux_btf();
		tr->vmlinux_read = true;
	}
	return tr->vmlinux;
}

void tracer_btf_free(struct tracer *tr)
{
	btf__free(tr->vmlinux);
	tr->vmlinux = NULL;
}

/* libbpf's warnings but its per-program chatter; all of them with ABIDEP_DEBUG. */
int libbpf_quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_WARN && getenv("ABIDEP_DEBUG"))
		return vfprintf(stderr, fmt, ap);
	return level == LIBBPF_WARN && !strstr(fmt, "libbpf: prog") ?
		vfprintf(stderr, fmt, ap) : 0;
}

/* The kernel function a program hooks: its section name after the '/'. */
const char *prog_func(const struct bpf_program *prog)
{
	const char *s = strchr(bpf_program__section_name(prog), '/');

	return s ? s + 1 : bpf_program__name(prog);
}
