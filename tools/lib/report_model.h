/* SPDX-License-Identifier: GPL-2.0 */
/*
 * abidep report's model: who used the deprecated files, per table entry
 * (What) and user, read once from the usage store (report_read()), for
 * every printer of the command (report.c: JSON, Prometheus;
 * report_text.c: text, Markdown, CSV; report_html.c: HTML), none of which
 * reads the store.
 */
#ifndef ABIDEP_REPORT_MODEL_H
#define ABIDEP_REPORT_MODEL_H

#include <stdbool.h>

#include "abi.h"
#include "clock_history.h"
#include "store.h"
#include "usage_history.h"

struct owner;

/*
 * Whether a use happened during boot (store_boot_uses()): first seen in a
 * session begun in the initramfs or before systemd-udevd, before that
 * session's first sync. Of several such rows, the earliest after boot.
 */
struct report_boot {
	const char *stage;	/* STORE_STAGE_INITRAMFS or _EARLY; NULL: not during boot */
	long long after_boot;	/* seconds from boot to the use; -1: unknown */
};

/* A user's counts on one host. */
struct report_user_host {
	char *host;
	struct usage_counts counts;
	struct report_boot boot;	/* on that host */
};

/* Who used an entry: per (exe, uid, cgroup, op), summed over hosts. */
struct report_user {
	char *exe;
	const char *package;	/* owned by report.owner; NULL: none */
	const char *package_version;	/* the same; NULL: none or unknown */
	const char *package_maintainer;	/* the same (rpm: its packager) */
	const char *package_source;	/* the same: its source package */
	unsigned int uid;
	char *cgroup;		/* NULL: unknown */
	char *op;
	union {			/* summed over hosts: usage_add() */
		struct { USAGE_COUNTS_MEMBERS; };
		struct usage_counts counts;
	};
	struct report_user_host *hosts;	/* in host order */
	int nhosts, hcap;
	const struct abi_ignore *ignored;	/* a known enumerator: check does not count it */
	struct report_boot boot;	/* the earliest after boot of its hosts' */
};

/* An entry's users of one executable (consecutive in its users), summed. */
struct report_exe {
	const struct report_user *users;
	int nusers;
	struct usage_counts sum;
	struct report_boot boot;	/* the earliest after boot of its users' */
};

struct report_entry {
	char *what;		/* NULL: unknown to the tracer */
	char *table, *status;	/* of the file used last */
	long long last_seen;
	char **files;
	int nfiles, fcap;
	struct report_user *users;	/* in (exe, uid, cgroup, op) order */
	int nusers, ucap;
	struct report_exe *exes;	/* the users per executable, in their order */
	int nexes;
	const struct abi_entry *abi;	/* its table entry, if the tables have it */
	struct usage_daily days;	/* REPORT_HISTORY: its daily use */
};

/*
 * What the tracer lost on a host (struct usage_session), summed over its
 * sessions whose losses were seen since --since: the counts above are
 * then lower bounds.
 */
struct report_loss {
	char *host;
	unsigned long long unrecorded, skipped;
	long long lost_at;	/* the latest */
};

/* A use of one file: per (what, path, exe, uid, op, host), cgroups summed. */
struct report_file_use {
	char *what;		/* NULL: unknown to the tracer */
	char *path, *exe;
	const char *package;	/* owned by report.owner; NULL: none */
	unsigned int uid;
	char *op, *host;
	struct usage_counts counts;
	/*
	 * REPORT_SESSIONS too: the latest its last use may have been. A use
	 * of a boot whose wall clock was never synchronized and was set back
	 * is placed by the boot's last reading, and an earlier one would put
	 * it up to the boot's doubt later (clock_history.h); counts.last_seen
	 * when no such use is the later.
	 */
	long long last_seen_latest;
};

/* A host's tracer sessions that ran since --since, in order of start. */
struct report_host {
	char *host;
	struct usage_span *spans;
	int n, cap;
};

/* The parts of the model to read (report.parts). */
enum {
	REPORT_USERS = 1 << 0,		/* rows, entries, their files, users, boots */
	REPORT_FILE_USES = 1 << 1,	/* file_uses */
	REPORT_HISTORY = 1 << 2,	/* daily use per entry, sessions per host */
	REPORT_SESSIONS = 1 << 3,	/* sessions and watched runs, whole */
};

struct report {
	/* Input, set by the caller. */
	const struct store_filter *filter;	/* what to read */
	unsigned int parts;		/* REPORT_*; the losses are always read */
	struct owner *owner;		/* packages of the executables */
	struct abi_set set;		/* the tables: their known enumerators */

	/* REPORT_USERS. */
	long long rows;			/* of the store; 0: the rest is not read */
	struct report_entry *entries;	/* those unknown to the tracer last */
	int n, cap;
	int nusers;			/* of all entries */
	int nboot;			/* of them, the users during boot */
	/* Always. */
	struct report_loss *losses;	/* in host order */
	int nlosses, lcap;
	struct clock_history clocks;	/* each boot's readings of its clocks, and its steps */
	/* REPORT_FILE_USES, in (what, path, exe, uid, op, host) order. */
	struct report_file_use *file_uses;
	int nfile_uses, fucap;
	/* REPORT_HISTORY (entries' days too; read even when rows is 0). */
	bool has_days;			/* the store keeps a daily history */
	struct report_host *hosts;	/* in host order */
	int nhosts, hcap;
	long long nsessions;
	long long first, last;		/* the sessions' span; LLONG_MAX, LLONG_MIN: none */
	/*
	 * REPORT_SESSIONS: every session, watched run and reading of the
	 * clocks as the store has them (its order: by host, then start; the
	 * readings by host, session, boottime), whatever the filter; the
	 * strings are the model's.
	 */
	struct usage_session *sessions;
	int nsess, scap;
	struct usage_watched *watched;
	int nwatched, wcap;
	struct usage_clock *readings;
	int nreadings, rcap;
};

/*
 * Read @r->parts of the model from @s, in one read transaction: one
 * snapshot of a DB in use. -1 on an error of the store (store_errmsg()).
 */
int report_read(struct report *r, struct store *s);

void report_free(struct report *r);

#endif
