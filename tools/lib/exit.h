/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ABIDEP_EXIT_H
#define ABIDEP_EXIT_H

/*
 * Exit statuses: one list for every command, so that a number means one
 * thing whichever command returns it. abidep(8), EXIT STATUS, documents it;
 * abidep_exit_help() prints a command's share of it. Append, never
 * renumber: scripts and tests rely on these numbers. EXIT_, not EX_:
 * <sysexits.h> has EX_USAGE as 64, ours is 2.
 */
enum abidep_exit {
	EXIT_OK = 0,	/* done; or the command's answer is yes */
	EXIT_FAIL = 1,	/* failed; or the answer is no (errors, hits, blocked) */
	EXIT_USAGE = 2,	/* bad usage, or an input or output that cannot be used */
	EXIT_PERM = 3,	/* not privileged enough */
	EXIT_NOBTF = 4,	/* the kernel has no BTF */
	EXIT_NOBPFFS = 5,	/* no BPF file system on /sys/fs/bpf */
	EXIT_DB = 6,	/* the usage DB cannot be opened, read or written */
	EXIT_LOAD = 7,	/* the BPF programs cannot be loaded or attached */
	EXIT_PINNED = 8,	/* a tracer is pinned already, or none is */
	EXIT_NOMOD = 9,	/* the abidep module is not loaded, or has no brownouts */
	EXIT_ENTRY = 10,	/* no such entry, or a name that names several */
	EXIT_BUSY = 11,	/* the entry is in a brownout window already */
	EXIT_NODATA = 12,	/* check: none blocked, a due entry without data */
	EXIT_NOTDUE = 13,	/* check: none blocked or without data, one not due */
	EXIT_UNREAD = 14,	/* scan: a package file could not be read whole */
	EXIT_PROM = 15,	/* check: Prometheus unreachable, slow, in error or partial */
	EXIT_NR
};

/* A set of exit statuses, for abidep_exit_help(). */
#define EXB(code)	(1u << (code))

#endif
