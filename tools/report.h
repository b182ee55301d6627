/* SPDX-License-Identifier: GPL-2.0 */
/*
 * abidep report's data, as report.c collects it from the usage DB, for
 * its printers: JSON (report.c), text, Markdown and CSV (report_text.c),
 * HTML (report_html.c). Prometheus reads its sums per file apart.
 */
#ifndef ABIDEP_REPORT_H
#define ABIDEP_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "abi.h"
#include "output.h"
#include "store.h"

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

/* "early, +3 s", "initramfs" (how long after boot unknown), or "-": as every format says it. */
char *report_boot_text(const struct report_boot *b);

/* A user's counts on one host. */
struct user_host {
	char *host;
	struct usage_counts counts;
	struct report_boot boot;	/* on that host */
};

/* Who used an entry: per (exe, uid, cgroup, op), summed over hosts. */
struct user {
	char *exe;
	const char *package;	/* owned by report.owner; NULL: none */
	const char *package_version;	/* the same; NULL: none or unknown */
	unsigned int uid;
	char *cgroup;		/* NULL: unknown */
	char *op;
	union {			/* summed over hosts: usage_add() */
		struct { USAGE_COUNTS_MEMBERS; };
		struct usage_counts counts;
	};
	struct user_host *hosts;	/* in host order */
	int nhosts, hcap;
	const struct abi_ignore *ignored;	/* a known enumerator: check does not count it */
	struct report_boot boot;	/* the earliest after boot of its hosts' */
};

struct entry {
	char *what;		/* NULL: unknown to the tracer */
	char *table, *status;	/* of the file used last */
	long long last_seen;
	char **files;
	int nfiles, fcap;
	struct user *users;	/* in (exe, uid, cgroup, op) order */
	int nusers, ucap;
	const struct abi_entry *abi;	/* its table entry, if the tables have it */
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

struct report {
	struct entry *entries;
	int n, cap;
	struct report_loss *losses;	/* in host order */
	int nlosses, lcap;
	const struct store_filter *filter;	/* what was collected */
	struct owner *owner;
	struct abi_set set;		/* the tables: their known enumerators */
	int nusers;			/* of all entries */
	int nboot;			/* of them, the users during boot */
	/*
	 * More to read in the snapshot the model is read in (--format html:
	 * the daily history, the sessions), after it; NULL: none. Non-zero:
	 * an error of the store.
	 */
	int (*read_more)(struct store *s, struct report *r, void *arg);
	void *read_more_arg;
};

/*
 * Of two boots of a use, is @a earlier after boot than @b: during boot at
 * all, then known how long after, then sooner.
 */
bool report_boot_earlier(const struct report_boot *a, const struct report_boot *b);

/* A sweep, or a user by name: see usage_all_swept(). */
const char *report_how(const struct usage_counts *c);

/*
 * @r as @f: FMT_TEXT fitted to @width (0: not), FMT_MARKDOWN or FMT_CSV.
 * Text and Markdown sum each entry's users per executable across hosts,
 * host lists capped, unless @by_host: a row per (exe, uid, cgroup, op,
 * host) and lists in full. CSV has a row per user, as JSON.
 */
void report_print(const struct report *r, bool by_host, FILE *out, enum out_format f,
		  int width);

#endif
