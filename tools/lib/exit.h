/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ABIDEP_EXIT_H
#define ABIDEP_EXIT_H

/*
 * Exit statuses: one list for every command, so that a number means one
 * thing whichever command returns it. abidep(8), EXIT STATUS, documents it;
 * abidep_exit_help() prints a command's share of it. Append, never
 * renumber: scripts and tests rely on these numbers.
 */
enum abidep_exit {
	EX_OK = 0,	/* done; or the command's answer is yes */
	EX_FAIL = 1,	/* failed; or the answer is no (errors, hits, blocked) */
	EX_USAGE = 2,	/* bad usage, or an input or output that cannot be used */
	EX_PERM = 3,	/* not privileged enough */
	EX_NOBTF = 4,	/* the kernel has no BTF */
	EX_NOBPFFS = 5,	/* no BPF file system on /sys/fs/bpf */
	EX_DB = 6,	/* the usage DB cannot be opened, read or written */
	EX_LOAD = 7,	/* the BPF programs cannot be loaded or attached */
	EX_PINNED = 8,	/* a tracer is pinned already, or none is */
	EX_NOMOD = 9,	/* the abidep module is not loaded, or has no brownouts */
	EX_ENTRY = 10,	/* no such entry, or a name that names several */
	EX_BUSY = 11,	/* the entry is in a brownout window already */
	EX_NODATA = 12,	/* check: none blocked, a due entry without data */
	EX_NOTDUE = 13,	/* check: none blocked or without data, one not due */
	EX_NR
};

/* A set of exit statuses, for abidep_exit_help(). */
#define EXB(code)	(1u << (code))

#endif
