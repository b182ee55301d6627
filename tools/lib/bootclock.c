// SPDX-License-Identifier: GPL-2.0
/* Each boot's own clock: readings and mappings (bootclock.h). */
#include <time.h>
#include <unistd.h>
#include <sys/timex.h>

#include "bootclock.h"

#define TIMESYNC_DIR	"/run/systemd/timesync"

static long long ns_of(const struct timespec *t)
{
	return t->tv_sec * NSEC_PER_SEC + t->tv_nsec;
}

/*
 * The kernel's word: adjtimex(2) with no mode changes nothing and needs
 * no privilege; TIME_ERROR (or STA_UNSYNC) while no NTP daemon keeps the
 * clock, after a settimeofday() (date -s), and when the error grew past
 * what the kernel allows. A call refused (seccomp) says nothing: not
 * synchronized.
 */
static bool kernel_synced(void)
{
	struct timex tx = { 0 };
	int state = adjtimex(&tx);

	return state >= 0 && state != TIME_ERROR && !(tx.status & STA_UNSYNC);
}

/*
 * systemd-timesyncd's: while it runs, TIMESYNC_DIR exists, and its
 * "synchronized" file once it has synchronized the clock this boot.
 */
static bool timesyncd_agrees(void)
{
	return access(TIMESYNC_DIR, F_OK) || !access(TIMESYNC_DIR "/synchronized", F_OK);
}

int clock_read(struct clock_reading *r)
{
	struct timespec b0, w, b1;

	if (clock_gettime(CLOCK_BOOTTIME, &b0) || clock_gettime(CLOCK_REALTIME, &w) ||
	    clock_gettime(CLOCK_BOOTTIME, &b1))
		return -1;
	r->boottime = ns_of(&b0) + (ns_of(&b1) - ns_of(&b0)) / 2;
	r->wall = ns_of(&w);
	r->synced = kernel_synced() && timesyncd_agrees();
	return 0;
}

long long clock_offset(const struct clock_reading *r)
{
	return r->wall - r->boottime;
}

long long clock_mapping(const struct clock_reading *r)
{
	long long o = clock_offset(r);

	return o >= 0 ? (o + NSEC_PER_SEC / 2) / NSEC_PER_SEC :
			-((-o + NSEC_PER_SEC / 2) / NSEC_PER_SEC);
}

bool clock_moved(const struct clock_reading *a, const struct clock_reading *b)
{
	long long d = clock_offset(b) - clock_offset(a);

	return a->synced != b->synced || d >= CLOCK_STEP_NS || d <= -CLOCK_STEP_NS;
}

int clock_best(const struct clock_reading *r, int n)
{
	int i, best = -1;

	for (i = 0; i < n; i++)
		if (best < 0 || r[i].synced > r[best].synced ||
		    (r[i].synced == r[best].synced && r[i].boottime >= r[best].boottime))
			best = i;
	return best;
}

long long clock_place(long long boottime, long long mapping)
{
	return boottime / NSEC_PER_SEC + mapping;
}
