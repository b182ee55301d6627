/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Each boot's own clock. The tracer's times are CLOCK_BOOTTIME (elapsed
 * since boot, suspend included, set by nobody); a wall time is that plus
 * the boot's *mapping* (the wall clock's reading less CLOCK_BOOTTIME's,
 * taken together). A wall clock set wrong at boot (no RTC battery, a VM
 * restored from a snapshot) and stepped later moves the mapping; the
 * boottimes stay right. So the tracer keeps a reading of both clocks at
 * its pin and at every sync where the mapping moved, and every time it
 * stores is placed by its boot's best mapping (clock_best()): re-dated
 * when a better one comes. The rules are here once, for the tracer, the
 * store, merge and check; Documentation/admin-guide/tracer.rst ("Times")
 * says them for users.
 */
#ifndef ABIDEP_BOOTCLOCK_H
#define ABIDEP_BOOTCLOCK_H

#include <stdbool.h>
#include <stddef.h>

#define NSEC_PER_SEC		1000000000LL

/*
 * A mapping that moved by less is the same one (two readings of the
 * clocks are a few microseconds apart; the store keeps seconds); by this
 * much or more, the wall clock was stepped.
 */
#define CLOCK_STEP_NS		NSEC_PER_SEC

/*
 * How far two boots' spans may overlap, once placed, and how far a boot
 * whose clock was never synchronized may have been set back, before
 * check takes the clock for wrong (check_clock.c): a boot's first
 * reading comes from the RTC, which keeps whole seconds.
 */
#define CLOCK_SLACK_S		60

/* Both clocks read together, and whether the wall clock was synchronized. */
struct clock_reading {
	long long boottime;	/* CLOCK_BOOTTIME, ns */
	long long wall;		/* CLOCK_REALTIME, ns */
	bool synced;
};

/*
 * Read them now: the wall clock between two readings of CLOCK_BOOTTIME,
 * whose middle it is taken at. Synchronized is what the kernel says
 * (adjtimex(2) with no change: not TIME_ERROR, no STA_UNSYNC) and, where
 * systemd-timesyncd keeps /run/systemd/timesync/, its "synchronized" file
 * too. When the kernel cannot be asked (a sandbox without adjtimex), it is
 * not synchronized: the reading is trusted less, never more. 0, or -1 when
 * a clock cannot be read.
 */
int clock_read(struct clock_reading *r);

/* The reading's mapping: wall less boottime, ns. */
long long clock_offset(const struct clock_reading *r);

/*
 * The same in whole seconds (rounded), which is what places times: a
 * placement by whole seconds moves every time of a boot by the same
 * seconds when its mapping changes, so two times in different seconds
 * never become one.
 */
long long clock_mapping(const struct clock_reading *r);

/* Has the mapping moved from @a's to @b's (a step, or the sync state changed)? */
bool clock_moved(const struct clock_reading *a, const struct clock_reading *b);

/*
 * Of one boot's @n readings, the index of its best mapping: a
 * synchronized reading beats one that was not, a later one (boottime) an
 * earlier one; -1 for none.
 */
int clock_best(const struct clock_reading *r, int n);

/* @boottime (ns, not negative) placed by @mapping (clock_mapping()): unix seconds. */
long long clock_place(long long boottime, long long mapping);

#endif
