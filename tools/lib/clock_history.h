/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a usage source's readings of the clocks (struct usage_clock, the
 * store's clock table or the series exported from it) say of each boot:
 * its mappings, its steps, whether its wall clock was ever synchronized,
 * and how much later than placed its times may be. Built once by report's
 * and check's models (report_model.c, check_clock.c) from the same walk,
 * with bootclock.h's rules.
 */
#ifndef ABIDEP_CLOCK_HISTORY_H
#define ABIDEP_CLOCK_HISTORY_H

#include <stdbool.h>

#include "bootclock.h"
#include "store.h"

/* A step of a boot's wall clock: its mapping moved by CLOCK_STEP_NS or more. */
struct clock_step {
	long long at;		/* unix seconds, placed by the boot's best mapping */
	long long seconds;	/* how far the wall clock moved: > 0 forward */
	bool synced;		/* the reading after it was synchronized */
};

/* One boot of one host, as its sessions' readings tell it. */
struct boot_clock {
	char *host;
	char *boot;		/* the boot id; a session's own id when unknown */
	struct clock_reading *r;	/* by boottime */
	int n, cap;
	bool synced;		/* a reading was synchronized */
	/* Mappings (whole seconds): the best, which places its times; the latest; the largest. */
	long long best, latest, most;
	/*
	 * How much later than placed its times may be: a boot never
	 * synchronized was placed by its latest reading, and an earlier
	 * one may have been right. 0 otherwise.
	 */
	long long doubt;
	struct clock_step *steps;
	int nsteps;
};

/* The boots of a source, ordered by host and boot. */
struct clock_history {
	struct boot_clock *b;
	int n, cap;
};

/*
 * Add a reading (a walk's record, ordered by host and session as
 * store_each_clock() gives them); then clock_history_done() once all
 * are in.
 */
void clock_history_add(struct clock_history *h, const struct usage_clock *c);
void clock_history_done(struct clock_history *h);

/* The boot of @session on @host, or NULL: none of its readings is known. */
const struct boot_clock *clock_history_find(const struct clock_history *h, const char *host,
					    const char *session);

void clock_history_free(struct clock_history *h);

/* "+60 days", "-3 h 20 min", "+5 s": a step's size for people; free() it. */
char *clock_step_text(long long seconds);

#endif
