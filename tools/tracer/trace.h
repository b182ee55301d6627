/* SPDX-License-Identifier: GPL-2.0 */
/*
 * abidep trace's own header: the tracer's state, passed to every part of
 * it, and what each file (one job each) offers the others.
 *
 *	../trace.c	the command: options, checks, one action per mode
 *	trace_libbpf.c	the kernel's BTF read once; a program's function
 *	trace_load.c	open, size, load and attach the BPF object (fexit or kprobes)
 *	trace_pin.c	pin, open the pinned maps, unpin
 *	trace_tables.c	the tables a pinned tracer watches, for its later syncs
 *	trace_watch.c	the watched set: tables -> sysfs files -> the maps
 *	trace_slots.c	the slots map, the direct-mapped index of the watched hash
 *	trace_special.c	the deprecated files outside sysfs ("specials")
 *	trace_usage.c	the usage map, and its replacement at each sync
 *	trace_cgroup.c	cgroup ids -> paths, cached
 *	trace_stage.c	how early in its boot a session began
 *	trace_sync.c	the usage map -> the DB; the stats
 *	trace_status.c	--status
 *	trace_live.c	the foreground tracer: events, uevents, periodic syncs
 */
#ifndef ABIDEP_TRACE_H
#define ABIDEP_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

#include <stdarg.h>

#include <bpf/libbpf.h>
#include <linux/types.h>

#include "abi.h"
#include "entry.h"
#include "store.h"
#include "bpf/abidep.h"

#define PIN_DIR "/sys/fs/bpf/abidep"
/* What a pin records for the syncs after it (trace_tables.c, trace_stage.c). */
#define RUN_DIR "/run/abidep"
#define DEFAULT_DB "/var/lib/abidep/usage.db"
/*
 * The largest usage map --max-entries loads: each key is preallocated
 * (about 400 bytes of kernel memory with the hash's own), twice during a
 * sync (the old hash and the new), and a sync holds about 1 KiB per key
 * in memory while it writes them.
 */
#define USAGE_MAX_KEYS	(1 << 18)

/* The maps this process uses, by their index in tracer.fd[] (trace_pin.c names them). */
enum { M_WATCHED, M_USAGE, M_FILES, M_STATS, M_EVENTS, M_SLOTS, M_DIRS, M_RANKS, NR_MAPS };

/* A watched file, as this process knows it. */
struct wfile {
	char *path;
	__u64 ino;
	__u64 dir_ino;		/* its directory's: in the dirs map (sweeps) */
	__u32 id;
	bool present;		/* found by the last resolve */
};

/* The slots map, mapped (trace_slots.c). */
struct slot_index {
	struct abidep_slot *map;	/* NULL: none (a tracer pinned before the slots) */
	__u32 n;			/* its size, a power of two */
	struct abidep_slot *want;	/* n slots: slots_sync()'s plan */
};

/* cgroup id -> path (trace_cgroup.c); zeroed, then cg_cache_init(). */
struct cg_cache {
	struct cg_entry *ent;
	int n, cap;
	struct cg_miss *miss;		/* ids a rescan did not find */
	int nmiss, mcap;
	long long scanned;		/* of the last rescan, ms (trace_cgroup.c); -1: none */
};

struct abidep_bpf;
struct store;

struct tracer {
	struct abidep_bpf *skel;	/* NULL when working on pinned maps */
	int fd[NR_MAPS];		/* by map index; -1: not open */
	struct slot_index slots;
	int pin_lock;			/* PIN_DIR, locked while working on pinned maps */
	struct abi_set tables;
	struct wfile *files;
	int nfiles, cap;
	__u32 next_id;
	dev_t sysfs_dev;
	struct cg_cache cg;
	struct store *db;
	const char *db_path;
	char session[96];
	char host[256];		/* its key, hostid.h */
	const char *host_from;	/* where the key's id came from */
	bool say_host;		/* warn of a host without a machine id */
	/*
	 * What the last watch_refresh() found: the files of each What of the
	 * tables' deprecations (store_watched.c); none before one ran.
	 */
	struct store_watch *watch;
	int nwatch, wcap;
	bool watch_known;
	/*
	 * How early in its boot the session began (trace_stage.c): STAGE_*,
	 * or NULL (unknown); the clocks read at the pin, or at a live
	 * tracer's start (boottime STORE_NO_BT: unknown, a pin of an older
	 * abidep, whose record gives the wall time alone, or none: wall 0),
	 * and the seconds since boot then (-1: unknown).
	 */
	const char *stage;
	struct clock_reading pinned;
	long long boot_offset;
	/*
	 * The files of each What the pin watched, and each refresh of the
	 * set before the first sync (--pin --early --adopt): the record's
	 * counts, for the syncs; pin_watch_at[i], the clocks when
	 * pin_watch[i] was seen (as pinned).
	 */
	struct store_watch *pin_watch;
	struct clock_reading *pin_watch_at;
	int npin_watch, pin_wcap, pin_at_cap;
	bool early;		/* --pin --early: no DB until the first sync */
	__u32 max_usage;	/* --max-entries: the usage map's size at load */
	__u32 uid_quota;	/* --uid-quota: a uid's new keys per sync */
	__u32 nr_slots;		/* --slots: the slots map's size at load */
	bool print;
	bool kprobe;		/* kprobes rather than fexit (forced, or fallen back to) */
	bool live;		/* foreground: reads the events ring buffer */
	/* The usage counts (trace_usage.c): their map, and what its counts are. */
	int usage_fd;
	enum { USAGE_TOTALS, USAGE_DRAINED } usage_mode;
	/* Specials (trace_special.c): index into files, -1 if not watched; its entry. */
	int special_file[ABIDEP_NR_SPECIALS];
	int special_entry[ABIDEP_NR_SPECIALS];
	/* The kernel's BTF (trace_libbpf.c): NULL if unreadable, or not read yet. */
	struct btf *vmlinux;
	bool vmlinux_read;
};

/* trace_libbpf.c */
/* The kernel's BTF, read at the first call; NULL if it cannot be read. */
const struct btf *tracer_btf(struct tracer *tr);
/* Free it (load_bpf() does, once loaded; tracer_free() too). */
void tracer_btf_free(struct tracer *tr);
/* The kernel function a program hooks. */
const char *prog_func(const struct bpf_program *prog);
int libbpf_quiet(enum libbpf_print_level level, const char *fmt, va_list ap);

/* trace_load.c */
int load_bpf(struct tracer *tr);

/* trace_pin.c */
int open_pinned(struct tracer *tr);
int pin_all(struct tracer *tr);
int unpin_all(void);

/*
 * trace_usage.c: usage_open() opens the map counted into (tr->usage_fd)
 * and says what its counts are (tr->usage_mode); usage_swap() puts an
 * empty one in its place and returns the old one; usage_draining() opens
 * the map a killed sync left pinned (-1: none), @current if it is still
 * the one counted into; usage_drained() unpins it.
 */
int usage_open(struct tracer *tr);
void usage_close(struct tracer *tr);
int usage_swap(struct tracer *tr);
int usage_draining(struct tracer *tr, bool *current);
void usage_drained(struct tracer *tr);
__u32 usage_id(int fd);

/* trace_watch.c */
int watch_refresh(struct tracer *tr, bool verbose);

/* trace_tables.c: the tables a pin watches, for the syncs after it. */
struct pin_tables {
	char **paths;		/* absolute; none: the default tables */
	int n;
};
/* @text into @path (in RUN_DIR) atomically; -1 with a message naming @what. */
int run_file_save(const char *path, const char *text, const char *what);
int pin_tables_save(char *const *paths, int n);
int pin_tables_load(struct pin_tables *pt);	/* 0; 1 none recorded; -1 */
bool pin_tables_same(const struct pin_tables *pt, char *const *paths, int n);
void pin_tables_free(struct pin_tables *pt);
void pin_tables_forget(void);
void files_from_map(struct tracer *tr);

/* trace_stage.c: how early in its boot the session began. */
#define STAGE_INITRAMFS	STORE_STAGE_INITRAMFS
#define STAGE_EARLY	STORE_STAGE_EARLY
#define STAGE_LATE	STORE_STAGE_LATE
void stage_now(struct tracer *tr);
int pin_stage_save(const struct tracer *tr);
int pin_stage_refresh(const struct tracer *tr);
void pin_stage_load(struct tracer *tr);
void pin_stage_forget(void);

/* trace_special.c (special_of(): entry.h) */
void specials_choose(struct tracer *tr);
void specials_apply(struct tracer *tr, struct abidep_bpf *skel);
void specials_publish(struct tracer *tr);

/* trace_slots.c */
int slots_map(struct slot_index *si, int fd);
void slots_unmap(struct slot_index *si);
void slots_more(struct slot_index *si, __u64 ino);
void slots_sync(struct slot_index *si, const struct wfile *files, int nfiles);

/*
 * trace_watch.c: the distinct files (bits) a sweep of a directory of
 * @nfiles opens; @ranked: the tracer's programs count them by their ranks
 * (one bit a file), not by a hash of their inode numbers.
 */
__u32 sweep_need(unsigned int nfiles, bool ranked);

/* trace_cgroup.c */
void cg_cache_init(struct cg_cache *cg);
void cg_cache_free(struct cg_cache *cg);
const char *cgroup_path(struct cg_cache *cg, __u64 id);

/* trace_sync.c */
const char *trace_op_name(__u32 op);
void exe_string(const struct abidep_usage *u, const struct abidep_usage_key *k,
		char *out, size_t size);
int open_db(struct tracer *tr);
int sync_db(struct tracer *tr);
void read_stats(struct tracer *tr, __u64 out[ABIDEP_NR_STATS]);
__u32 usage_max(struct tracer *tr);
__u64 progs_missed(struct tracer *tr);
void report_drops(struct tracer *tr);

/* trace_status.c */
int show_status(struct tracer *tr, bool json, bool pretty);

/* trace_live.c */
int run_live(struct tracer *tr, double interval, double duration);

#endif
