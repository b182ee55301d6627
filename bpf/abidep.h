/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Shared by abidep.bpf.c and the abidep command (tools/trace*.c): the maps'
 * key and value layouts. Kept in kernel types (__u32...) for both sides.
 */
#ifndef __ABIDEP_BPF_H
#define __ABIDEP_BPF_H

#define ABIDEP_MAX_WATCHED	16384
#define ABIDEP_MAX_USAGE	16384
#define ABIDEP_TASK_COMM_LEN	16
/* The executable's path, as components from the leaf up (walked in the kernel). */
#define ABIDEP_EXE_DEPTH	8
#define ABIDEP_EXE_COMP		32

enum abidep_op {
	ABIDEP_OP_OPEN,
	ABIDEP_OP_READ,
	ABIDEP_OP_WRITE,
	ABIDEP_NR_OPS,
};

/*
 * slots: a direct-mapped index of the watched hash, by inode number modulo
 * its size (ABIDEP_SLOTS, a power of two; abidep trace --slots for tests).
 * A slot holds one watched file whose number falls there; "more" says that
 * others do too, and are in the hash only. So an access to an unwatched file
 * costs an array load (the verifier inlines array lookups) and most watched
 * ones find their file without the hash. Userspace (tools/tracer/trace_slots.c) keeps
 * it, writing through a shared mapping.
 */
#define ABIDEP_SLOTS		16384

struct abidep_slot {
	__u64 ino;		/* 0: empty */
	__u32 file_id;
	__u32 more;		/* other watched files have this slot */
};

/* watched: kernfs node id (the file's inode number) -> which file. */
struct abidep_watch {
	__u32 file_id;		/* index into the tracer's list of files */
	__u32 entry_id;		/* index of the table entry it resolves */
};

/*
 * files: file id -> what it is. Written and read by userspace only, kept in
 * the BPF object so that it is pinned with the rest and a later process
 * (abidep trace --sync) can name the files. Allocated on use.
 */
#define ABIDEP_PATH_LEN		256
#define ABIDEP_TABLE_LEN	64
struct abidep_file {
	char path[ABIDEP_PATH_LEN];	/* e.g. /sys/class/rc/rc0/current_protocol */
	char what[ABIDEP_PATH_LEN];	/* the table's What pattern */
	char table[ABIDEP_TABLE_LEN];	/* the table file's name */
	__u32 status;			/* 1 deprecated, 2 removed */
	__u32 watched;			/* still in the watched map */
};

/* usage: one row per (file, op, uid, cgroup, executable). */
struct abidep_usage_key {
	__u32 file_id;
	__u32 op;
	__u32 uid;
	__u32 exe_dev;
	__u64 exe_ino;
	__u64 cgroup_id;
};

struct abidep_usage {
	__u64 count;
	__u64 errors;		/* accesses that returned an error */
	__u64 first_ns;		/* CLOCK_BOOTTIME */
	__u64 last_ns;
	/* Who made the first access: kept here so that no daemon is needed. */
	__u32 pid;		/* tgid */
	__u32 ppid;
	char comm[ABIDEP_TASK_COMM_LEN];
	char exe[ABIDEP_EXE_DEPTH][ABIDEP_EXE_COMP];	/* leaf first */
	__u8 exe_truncated;	/* deeper than ABIDEP_EXE_DEPTH */
	__u8 pad[3];
	/*
	 * Of count, the accesses made within a sweep (see struct
	 * abidep_listing). In what was padding: a tracer pinned by an abidep
	 * from before it leaves it 0, and those accesses read as by-name.
	 */
	__u32 swept;
};

/*
 * Sweeps: a process that lists a directory and opens many of its files
 * (udevadm info -a, grep -r, find | xargs cat, tar, a shell's glob) reads a
 * deprecated file without meaning to use it. dirs holds the directories of
 * the watched files, by inode number (kernfs node id); a readdir of one
 * marks a listing, keyed by the lister's side and the directory. The side
 * is the lister's process group: a pipeline (find | xargs cat) or a
 * command's helpers (find -exec sh -c 'cat "$1"'), whose group they
 * inherit; an opener's side is its own group, or its parent's (a shell
 * that expands a glob, then runs cat in a job of its own). A readdir from
 * the start of the directory (offset 0) is a new listing: the mark's gen
 * grows.
 *
 * While the mark is fresh (its last activity less than
 * ABIDEP_SWEEP_WINDOW_NS ago), each program (executable) on that side
 * that opens files in the directory has a tally of its own, of the side's
 * last listing (gen): the files it opened, each as a bit, its place in
 * the directory's readdir order (ranks, written by userspace: a bit a
 * file up to ABIDEP_SWEEP_BITS files). A sweep opens each file once, in
 * an order that comes from the directory (enum abidep_order); a program
 * that picks its files opens them in an order of its own. So a file is
 * opened by name (byname), and every access of it under the tally is by
 * name, neither held nor swept, when:
 *  - the tally holds it already (opened again);
 *  - it comes in none of the orders that the tally's files so far were
 *    all in (orders), unless the program listed a subdirectory of the
 *    directory itself (walked): it walks the tree, as udevadm info -a
 *    does, which opens the files in an order of its own. Before the tally
 *    is a sweep, such a file ends every order: the program is not a
 *    sweep, unless it walks;
 *  - the tracer has not ranked it (made since its last refresh of the
 *    watched set); an access of a file the tally did not open (before the
 *    listing) is by name too.
 * Once a tally has as many files, not by name, as its directory's dirs
 * value (need), set by userspace from the number of regular files in it
 * (tools/tracer/trace_watch.c: 3 in 4 of them, and at least
 * ABIDEP_SWEEP_FILES), it is a sweep: the other accesses that program
 * made under it, before (held in pending) and after, count as swept. So
 * a program that lists the directory, then opens a few files it wants,
 * or many in an order of its own, stays by name; so does another program
 * of the same script that reads a file right after a sweep (a tally is
 * per program), and the same program reading again a file it swept.
 * What it cannot tell apart: the same program on the sweep's side, within
 * the window and before the side lists the directory again, opening by
 * name a file the sweep did not open, later in an order the sweep kept
 * (in any order if it walked); and a program that opens 3 in 4 of the
 * files by name in one of the orders, or after listing a subdirectory.
 */
#define ABIDEP_MAX_DIRS		ABIDEP_MAX_WATCHED
#define ABIDEP_MAX_RANKED	65536
#define ABIDEP_MAX_LISTINGS	1024
/* The fewest distinct files a sweep opens, in any directory. */
#define ABIDEP_SWEEP_FILES	4
/* Powers of two: the programs index with a mask. */
#define ABIDEP_SWEEP_BITS	512
#define ABIDEP_SWEEP_PENDING	8
#define ABIDEP_SWEEP_WINDOW_NS	(5ULL * 1000000000ULL)

/*
 * The orders a sweep opens a directory's files in, each checked on the
 * clients that use it (Documentation/admin-guide/tracer.rst).
 */
enum abidep_order {
	ABIDEP_ORDER_READDIR,	/* kernfs's (by name hash): find, grep -r, tar, os.listdir() */
	ABIDEP_ORDER_NAME,	/* bytewise: dash's glob, python's sorted(), LC_COLLATE=C */
	ABIDEP_ORDER_COLLATE,	/* as glibc's locales collate: bash's glob under en_US.UTF-8 */
	ABIDEP_SWEEP_ORDERS,
};

/* ranks: a watched directory's regular file (inode number) -> its places, from 1. */
struct abidep_rank {
	__u16 rank[ABIDEP_SWEEP_ORDERS];
	__u16 pad;
};

/*
 * A side's mark (exe_dev and exe_ino 0: the listing itself, made at the
 * readdir, its need, gen and freshness), or one program's tally on that
 * side.
 */
struct abidep_listing_key {
	__u32 side;		/* the lister's process group */
	__u32 exe_dev;		/* the opener's executable, as in the usage key */
	__u64 exe_ino;
	__u64 dir;
};

/* abidep_listing.flags of a tally */
#define ABIDEP_TALLY_WALKED	1	/* the program listed a subdirectory */
#define ABIDEP_TALLY_SWEEP	2	/* it reached its need */

struct abidep_listing {
	__u64 last_ns;				/* CLOCK_BOOTTIME: readdir or open */
	__u64 seen[ABIDEP_SWEEP_BITS / 64];	/* files opened under it, by rank */
	__u64 byname[ABIDEP_SWEEP_BITS / 64];	/* of those, the ones opened by name */
	__u32 nseen;				/* files counted toward need */
	__u32 need;				/* its directory's dirs value */
	__u32 npending;
	__u32 gen;				/* listings of a mark; a tally's, its mark's then */
	__u16 last[ABIDEP_SWEEP_ORDERS];	/* the last counted file's ranks */
	__u8 orders;				/* bit per order its files are all in */
	__u8 flags;				/* ABIDEP_TALLY_* */
	/* Watched accesses made before it was a sweep: key, how many, file's bit. */
	struct abidep_usage_key pending[ABIDEP_SWEEP_PENDING];
	__u32 pending_count[ABIDEP_SWEEP_PENDING];
	__u16 pending_bit[ABIDEP_SWEEP_PENDING];
};

/*
 * Deprecated files outside sysfs ("specials"): no stable inode to watch
 * (a /proc/<pid> file is made per process, a sysctl's inode per lookup, a
 * cgroup v1 file per cgroup), so each is known to the programs by what it
 * is: a handler that serves it alone, or its name where a handler serves
 * many. The tracer gives each one watched a file id (special_id[], set at
 * load, +1: 0 is not watched); special_of() (tools/lib/entry.c) maps the
 * tables' What to them.
 */
enum abidep_special {
	ABIDEP_SP_NEIGH6_RETRANS_TIME,		/* /proc/sys/net/ipv6/neigh/X/retrans_time */
	ABIDEP_SP_NEIGH6_BASE_REACHABLE_TIME,	/* .../base_reachable_time */
	ABIDEP_SP_OOM_ADJ,			/* /proc/<pid>/oom_adj */
	ABIDEP_SP_MEMCG1_KMEM_LIMIT,		/* cgroup v1 memory.kmem.limit_in_bytes */
	ABIDEP_SP_MEMCG1_KMEM_TCP_LIMIT,	/* memory.kmem.tcp.limit_in_bytes */
	ABIDEP_SP_MEMCG1_SOFT_LIMIT,		/* memory.soft_limit_in_bytes */
	ABIDEP_SP_MEMCG1_OOM_CONTROL,		/* memory.oom_control */
	ABIDEP_SP_MEMCG1_PRESSURE_LEVEL,	/* memory.pressure_level */
	ABIDEP_SP_MEMCG1_MOVE_CHARGE,		/* memory.move_charge_at_immigrate */
	ABIDEP_NR_SPECIALS,
};

/* The cgroup v1 memory files: from here to the end. */
#define ABIDEP_SP_MEMCG1_FIRST	ABIDEP_SP_MEMCG1_KMEM_LIMIT

/*
 * stats: per-CPU counters of what could not be recorded. Its indexes are
 * shared with tracers pinned by other versions of abidep (read by a later
 * --sync, --status or --stop, and the other way round after a downgrade), so
 * they never move and the map keeps its size: a counter that goes leaves its
 * index reserved. Index 0 once counted every access; no program of this
 * version writes it, and --status gives the accesses seen as the counts'
 * sum and the drops, which is what it held.
 */
enum abidep_stat {
	ABIDEP_STAT_RESERVED_0 = 0,	/* written by no program; never reused */
	ABIDEP_STAT_DROPPED = 1,	/* usage map full: access not recorded */
	ABIDEP_STAT_EVENTS_LOST = 2,	/* ring buffer full: new-key event lost */
	ABIDEP_STAT_QUOTA = 3,		/* uid quota spent: access not recorded */
	ABIDEP_NR_STATS = 4,
};

/*
 * The new keys a uid other than root may add to the usage hash in place
 * (one sync interval's), by default: an eighth of the largest map, so one
 * unprivileged user cannot fill it and push the others out; what it is
 * refused is counted (ABIDEP_STAT_QUOTA). abidep trace --uid-quota.
 */
#define ABIDEP_UID_QUOTA	(ABIDEP_MAX_USAGE / 8)
#define ABIDEP_MAX_QUOTA_UIDS	1024

/*
 * A uid's new keys in the hash in place, which @gen names (its address:
 * each sync puts a new one in place while the old one is still held, so
 * the two differ, and a new hash starts every uid at 0).
 */
struct abidep_quota {
	__u64 gen;
	__u32 keys;
	__u32 pad;
};

/* Ring buffer event: a usage key seen for the first time. */
struct abidep_event {
	struct abidep_usage_key key;
};

#endif /* __ABIDEP_BPF_H */
