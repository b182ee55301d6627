/* SPDX-License-Identifier: GPL-2.0 */
/*
 * abidep check's model and judgement: for each migration entry, is it due,
 * who still uses it (a usage source: usage_source.h, today the usage DB)
 * or references it (scan), and the verdict; the hosts' coverage of the
 * quiet window; the history the page draws. Built once, printed by every
 * format (check.c: JSON; check_text.c: text, Markdown, CSV; check_html.c:
 * HTML), none of which reads the source. The rules are in
 * Documentation/admin-guide/check.rst; check.c parses options.
 */
#ifndef ABIDEP_CHECK_EVAL_H
#define ABIDEP_CHECK_EVAL_H

#include <stdbool.h>
#include <stddef.h>

#include "abi.h"
#include "clock_history.h"
#include "scan.h"
#include "store.h"
#include "usage_history.h"
#include "usage_source.h"

struct owner;

/* V_REMOVED: Removed: names a kernel version --kernel has reached. */
enum verdict { V_READY, V_BLOCKED, V_NOT_DUE, V_NO_DATA, V_REMOVED, V_COUNT };

/* A program that used the entry in the quiet window, per (exe, uid, host). */
struct check_use {
	char *exe;
	const char *package;	/* owned by check.owner; NULL: none */
	const char *package_version;	/* the same; NULL: none or unknown */
	const char *package_maintainer;	/* the same (rpm: its packager) */
	const char *package_source;	/* the same: its source package */
	unsigned int uid;
	char *host;
	unsigned int ops;	/* 1 << OP_OPEN | ... */
	/* In check_entry.enums, why not counted: a known enumerator's, or... */
	const struct abi_ignore *ignored;
	bool sweep;		/* ...every access of its rows was swept */
	union {			/* summed over its sessions: usage_add() */
		struct { USAGE_COUNTS_MEMBERS; };
		struct usage_counts counts;
	};
	/*
	 * Of count, those made on the days (UTC) of the quiet window, from
	 * the DB's daily history: from 00:00 of quiet_since's day on. -1:
	 * unknown, a row of it has no history (a DB older than schema 4, or
	 * a row written before its upgrade).
	 */
	long long recent;
};

/*
 * An entry's uses (or enumerations) of one executable, summed: uses[0..n),
 * consecutive in check_entry.uses (or .enums), which are sorted by exe.
 */
struct check_exe {
	const struct check_use *uses;
	int n;
	struct usage_counts sum;
	unsigned int ops;
	int nhosts;		/* distinct hosts */
	long long recent;	/* of sum.count, on the window's days; -1: unknown */
};

enum { OP_OPEN, OP_READ, OP_WRITE, OP_OTHER, NOPS };
extern const char *const check_op_names[NOPS];

/* A static reference found by scan_tree(); strings owned by the scan. */
struct check_ref {
	const struct scan_hit *hit;
	bool blocks;		/* strong or medium confidence */
};

/*
 * A boot of a host, as its sessions tell it (check_eval.c's add_boot()):
 * those whose sessions overlap the quiet window are kept, and the last.
 */
struct check_boot {
	char *id;			/* the boot id; a session's own id when unknown */
	int stage;			/* of its earliest session: check_stage_names[] */
	bool early;			/* that stage is initramfs or early */
	bool overlaps;			/* a session of it overlaps the window */
	bool alone;			/* boot unknown: a boot of this session alone */
	/* Its earliest session: its id, its start (the pin) and first sync. */
	char *session;
	long long started, first_sync;
	/*
	 * When early and overlapping: the selected Whats whose files appeared
	 * after the pin and were not watched until its first sync
	 * (check_watch.c); strings of the tables.
	 */
	const char **after_pin;
	int nafter_pin, apcap;
	/* Its readings of the clocks (check.clocks); NULL: none, an older tracer's times. */
	const struct boot_clock *clock;
};

/* How much of a boot id the output shows. */
#define CHECK_BOOT_SHOWN	8

/*
 * A host of the sessions table: whether its tracer ran through the quiet
 * window (check_read_usage(); the rule is in check_eval.c).
 */
struct check_host {
	char *host;
	int nsessions;
	long long last_sync;		/* of its latest session */
	long long covered_until;	/* the window is covered up to here; LLONG_MIN: none of it */
	char *host_id;			/* where its key's id came from; NULL: a name alone */
	/*
	 * Lost in the window by its sessions (struct usage_session): accesses
	 * not recorded, runs skipped, the latest lost_at (STORE_NO_LOSS: none).
	 */
	unsigned long long unrecorded, skipped;
	long long lost_at;
	struct check_boot *boots;	/* in order of start */
	int nboots, bcap;
	bool late;			/* a boot overlapping the window observed only late */
	/*
	 * Its wall clock was wrong in the window (check_clock.c): two of its
	 * boots overlap once placed, or one never synchronized was set back.
	 * clock_why says which, for people; NULL when not.
	 */
	char *clock_why;
	/* Its boots in the window whose clock was never synchronized. */
	int nunsynced;
	bool ran;			/* its sessions chain through the window */
	bool covers;			/* ran, lost nothing in it, no late boot (unless allowed), clock right */
	struct usage_span *spans;	/* its sessions, in order of start */
	int nspans, spcap;
};

/*
 * The gap between sessions, and between the last sync and now, that still
 * counts as covered: see check_eval.c.
 */
#define CHECK_GRACE	86400

/*
 * A host whose tracer ran through the quiet window but did not watch the
 * entry's files through it (check_eval.c), and why.
 */
struct check_unwatched {
	const char *host;		/* in check.shosts */
	enum {
		W_NO_FILE,		/* it looked: no file matched a What */
		W_NOT_TABLED,		/* its tables lacked the entry */
		W_PART,			/* watched, not through the window */
		W_AT_BOOT,		/* watched, but not from its early boot's pin */
	} why;
	char *boots;			/* W_AT_BOOT: "boot 3f2a9c0e: WHAT, ..."; else NULL */
};

struct check_entry {
	const struct abi_entry *e;
	bool due;
	enum verdict verdict;
	char *reason;		/* why this verdict, one line, hosts all named */
	char *brief;		/* the same with NAMES_SHOWN hosts (text); NULL: as reason */
	struct check_use *uses;
	int nuses, ucap;
	/*
	 * Uses that do not block: by known enumerators (Ignore:,
	 * .enumerators), and rows whose every access was swept.
	 */
	struct check_use *enums;
	int nenums, ecap;
	/* uses and enums per executable */
	struct check_exe *use_exes, *enum_exes;
	int nuse_exes, nenum_exes;
	struct check_ref *refs;
	int nrefs, rcap;
	int nblocking_refs;
	long long last_use;	/* of any use ever; LLONG_MIN: none */
	struct check_unwatched *unwatched;
	int nunwatched, uwcap;
	/*
	 * Hosts with sessions in the window that did not record what they
	 * watched (an older tracer's): judged as if watched, and said so.
	 */
	int nwatch_unknown;
	struct usage_daily days;	/* check.read_days: its daily use, every day */
};

struct check {
	/* Input, set by the caller. */
	long long now;			/* unix seconds */
	int quiet_days;
	const char *kernel;		/* --kernel, or NULL */
	const char *config;		/* its configuration: ROOT/boot/config-KERNEL */
	struct owner *owner;		/* packages of the DB's executables */
	bool count_sweeps;		/* enumerators' and swept uses block too */
	/*
	 * No usage DB at all, nothing read (check --scan without one): the
	 * references still block; nothing else can show an entry unused, so
	 * none is ready (no-data).
	 */
	bool no_db;
	bool allow_late_boot;		/* a boot observed only late covers too */
	bool read_days;			/* read each entry's days (check --format html) */
	/*
	 * The quiet window from @since on instead of now - quiet_days:
	 * tables export --users takes the uses since --since, or all of them
	 * (0, before any a tracer records).
	 */
	bool has_since;
	long long since;

	/* Derived. */
	const struct abi_set *set;	/* check_select()'s: its enumerators */
	long long quiet_since;		/* now - quiet_days, or since */
	struct check_entry *entries;
	int n;
	/* The usage DB as a whole. */
	long long rows, unmatched_rows;	/* unmatched: no selected entry */
	long long first_use, last_use;	/* LLONG_MAX / LLONG_MIN: none */
	char **hosts;
	int nhosts, hcap;
	bool has_days;			/* the source keeps a daily history */
	/* The sessions table: none (an older DB) falls back to first_use. */
	long long nsessions;
	struct check_host *shosts;	/* ordered by host */
	int nshosts, shcap;
	int nuncovered;			/* shosts that do not cover the window */
	int nwatch_unknown;		/* shosts with a session in it that recorded no watched set */
	int nlate;			/* shosts with a boot in it observed only late */
	int nclock_wrong;		/* shosts whose clock was wrong in it (clock_why) */
	int nunsynced;			/* shosts with a boot in it never synchronized */
	/*
	 * Each boot's readings of the clocks (check_clock.c), and the span
	 * of its sessions that have boottimes, placed (clock_spans[i] is
	 * clocks.b[i]'s; start LLONG_MAX: none).
	 */
	struct clock_history clocks;
	struct usage_span *clock_spans;
	long long *clock_seqs;		/* each boot's earliest session's seq; 0: unknown */
	int clock_last;			/* boot_index()'s cache (check_clock.c): clocks.b index, -1 */
	/* shosts with an early boot in it whose files of a selected What came after the pin */
	int nafter_pin;
	/*
	 * The sessions in the window (or within CHECK_GRACE before it) by how
	 * early in their boot they began (check_stage_names; the last:
	 * unknown, an older tracer's).
	 */
	long long nstage[4];
	char *uncovered;		/* why, naming them all: no-data's reason */
	char *uncovered_brief;		/* the same naming NAMES_SHOWN of each kind; NULL: as uncovered */
	/* Rows to entries: per entry of set, its selected one, or NULL. */
	struct check_entry **of_entry;
	char *last_path;		/* of the last row without a What... */
	struct check_entry *last_path_ce;	/* ...and its entry */
	/* The scan of a root (--scan), if any... */
	bool scanned;
	struct scan_result scan;
	/* ...and of package files (--scan-packages). */
	bool pkgs_scanned;
	struct scan_result pkgscan;
	int counts[V_COUNT];
};

const char *verdict_name(enum verdict v);

/* The boot stages a session records (trace_stage.c), then "unknown". */
extern const char *const check_stage_names[4];

/* @b's boot, as the output shows it: "<boot>" (CHECK_BOOT_SHOWN) or "<boot>:<map>". */
char *check_boot_name(const struct check_boot *b);

/*
 * check_clock.c, for check_eval.c: the source's readings of the clocks
 * (before the rows and sessions); the latest row @r's last use may have
 * been (later than placed by its boot's doubt, clock_history.h, or as
 * its source says: r->last_seen_latest); a session's span, for its
 * boot; and whether @h's clock was wrong in the window (sets
 * h->clock_why and h->nunsynced).
 */
int check_clock_read(struct check *c, struct usage_source *src);
long long check_clock_last_seen(struct check *c, const struct usage_row *r);
void check_clock_session(struct check *c, const struct usage_session *u);
void check_clock_judge(const struct check *c, struct check_host *h);
void check_clock_free(struct check *c);

/*
 * @h's boots overlapping the window that were observed only late, and
 * their stage: "boot 3f2a9c0e: late, boot 77e1d2c4: unknown".
 */
char *check_late_boots(const struct check_host *h);

/*
 * Select the migration entries of @set that @pattern (NULL: all) names:
 * part of a What, a glob of one, or a concrete path one matches. 0, or -1
 * when it names none.
 */
int check_select(struct check *c, const struct abi_set *set, const char *pattern);
/*
 * --entry's name rule (entry_name_pick(), lib/entry.h) on the selection:
 * true when @pattern is an ambiguous name (the selection left as it is);
 * else false, with only the entry a name names left selected.
 */
bool check_name_ambiguous(struct check *c, const char *pattern);

/*
 * Read the usage of the selected entries from @src, in one snapshot of it;
 * -1 with a message in @err.
 */
int check_read_usage(struct check *c, struct usage_source *src, char *err, size_t errlen);

/* The selected entry with the What @what, or NULL (after check_read_usage()). */
struct check_entry *check_entry_of_what(const struct check *c, const char *what);

/*
 * The position of the What @what in the tables' What index (set->whats,
 * entry.h), or -1: not a selected entry's.
 */
int check_what_index(const struct check *c, const char *what);
/* The selected entry of the What at position @k (check_what_index()). */
struct check_entry *check_what_entry(const struct check *c, int k);

/* Add the references found by scan_tree() under @root; -1 with @err. */
int check_scan(struct check *c, const char *root, const struct abi_set *set,
	       char *err, size_t errlen);

/*
 * Add the references found by scan_packages() in the package files or
 * directories @paths, with the cache in @cache_dir (NULL: none); -1 with
 * @err. A package that could not be read leaves no entry ready: its
 * verdict is no-data.
 */
int check_scan_packages(struct check *c, char *const *paths, int npaths,
			const struct abi_set *set, const char *cache_dir,
			char *err, size_t errlen);

/* Judge every selected entry (after the DB and scan are in). */
void check_judge(struct check *c);

void check_free(struct check *c);

/*
 * check_watch.c: in check_read_usage(), after the sessions, which hosts
 * did not watch each entry through the window (check_entry.unwatched);
 * and why, as a reason naming @cap hosts of each kind (0: all).
 */
int check_read_watched(struct usage_source *src, struct check *c);
char *check_unwatched_reason(const struct check *c, const struct check_entry *ce, int cap);

/* @b's Whats whose files came after the pin: "WHAT, WHAT"; "" for none. */
char *check_after_pin_whats(const struct check_boot *b);
char *check_unknown_reason(const struct check *c, const struct check_entry *ce);

/*
 * Does @kernel ("6.12", "v6.12.3", or uname -r's "6.12.118+deb12-amd64")
 * name a kernel version, as ../kmod/when.c reads one?
 */
bool kver_valid(const char *kernel);

#endif
