// SPDX-License-Identifier: GPL-2.0
/*
 * abidep check and each boot's own clock (bootclock.h). The times a
 * source gives are placed by each boot's best mapping; what can still be
 * wrong, and how check takes it (Documentation/admin-guide/check.rst,
 * "A wrong clock"):
 *
 *	A boot whose wall clock was never synchronized is placed by its last
 *	reading. Its uses may be later than placed, by as much as an
 *	earlier reading's mapping exceeds the last (its doubt): a use is
 *	in the window when it may be (check_clock_last_seen(); a source
 *	whose uses are summed over sessions, Prometheus's, gives the latest
 *	each may have been, as its exporter found it from the same
 *	readings: usage_row's last_seen_latest). Its span covers no more
 *	than itself, placed so; check names such boots.
 *
 *	A host's clock was wrong in the window, and the host covers none of
 *	it, when a boot of it there was never synchronized and was set back
 *	(a mapping before its last was later by more than CLOCK_SLACK_S:
 *	which one was right, nothing tells), or when two of its boots
 *	overlap once placed, or are placed out of the order the host's DB
 *	first saw them in (sessions.seq), by more than CLOCK_SLACK_S: a
 *	boot cannot begin before the one before it ended. The clock, not
 *	the tracer, is wrong there.
 *
 * Sessions written by an older abidep have no readings: their times are
 * the wall clock's as it was, and none of this applies to them.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "check_eval.h"
#include "util.h"

static int add_clock(const struct usage_clock *u, void *arg)
{
	clock_history_add(arg, u);
	return 0;
}

int check_clock_read(struct check *c, struct usage_source *src)
{
	int i, ret = src->ops->each_clock(src, add_clock, &c->clocks);

	if (ret)
		return ret;
	clock_history_done(&c->clocks);
	c->clock_spans = xcalloc(c->clocks.n + 1, sizeof(*c->clock_spans));
	c->clock_seqs = xcalloc(c->clocks.n + 1, sizeof(*c->clock_seqs));
	for (i = 0; i < c->clocks.n; i++)
		c->clock_spans[i] = (struct usage_span){ LLONG_MAX, LLONG_MIN };
	c->clock_last = -1;
	return 0;
}

/* The index of @session's boot on @host in c->clocks, or -1; the last one found is cached. */
static int boot_index(struct check *c, const char *host, const char *session)
{
	const struct boot_clock *b;
	size_t n = usage_session_boot_len(session);

	if (c->clock_last >= 0) {
		b = &c->clocks.b[c->clock_last];
		if (!strcmp(b->host, host) && n && strlen(b->boot) == n &&
		    !strncmp(b->boot, session, n))
			return c->clock_last;
	}
	b = clock_history_find(&c->clocks, host, session);
	if (b)
		c->clock_last = b - c->clocks.b;
	return b ? b - c->clocks.b : -1;
}

long long check_clock_last_seen(struct check *c, const struct usage_row *r)
{
	int i = boot_index(c, r->host, r->session);
	long long doubt = i < 0 ? 0 : c->clocks.b[i].doubt;
	long long last = r->last_seen > LLONG_MAX - doubt ? LLONG_MAX : r->last_seen + doubt;

	return r->last_seen_latest > last ? r->last_seen_latest : last;
}

void check_clock_session(struct check *c, const struct usage_session *u)
{
	struct usage_span *sp;
	int i;

	if (u->last_sync_bt <= STORE_NO_BT)
		return;
	i = boot_index(c, u->host, u->session);
	if (i < 0)
		return;
	sp = &c->clock_spans[i];
	if (u->started < sp->start)
		sp->start = u->started;
	if (u->last_sync > sp->end)
		sp->end = u->last_sync;
	if (u->seq > 0 && (!c->clock_seqs[i] || u->seq < c->clock_seqs[i]))
		c->clock_seqs[i] = u->seq;
}

/*
 * Does span @sp meet the window (or the grace before it), or may it, its
 * end @doubt later (clock_history.h)?
 */
static bool in_window(const struct check *c, const struct usage_span *sp, long long doubt)
{
	return sp->start != LLONG_MAX && sp->end + doubt >= c->quiet_since - CHECK_GRACE &&
	       sp->start <= c->now;
}

/* The first of @h's boots in c->clocks (they are sorted by host), and how many. */
static int host_boots(const struct check *c, const char *host, int *n)
{
	int lo = 0, hi = c->clocks.n, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (strcmp(c->clocks.b[mid].host, host) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (*n = 0; lo + *n < c->clocks.n && !strcmp(c->clocks.b[lo + *n].host, host); (*n)++)
		;
	return lo;
}

static char *short_boot(const struct boot_clock *b)
{
	return xstrndup(b->boot, CHECK_BOOT_SHOWN);
}

/* Why boot @b, never synchronized, set back: "boot 3f2a9c0e set back 60 days ...". */
static char *set_back_why(const struct boot_clock *b)
{
	char *id = short_boot(b), *size = clock_step_text(b->latest - b->most), *r;

	r = xasprintf("boot %s: its clock, never synchronized, was set back %s (which reading was right, nothing tells)",
		      id, size + 1);
	free(id);
	free(size);
	return r;
}

static char *overlap_why(const struct boot_clock *a, const struct boot_clock *b,
			 long long seconds)
{
	char *x = short_boot(a), *y = short_boot(b), *size = clock_step_text(seconds), *r;

	r = xasprintf("boots %s and %s overlap by %s once placed: the later began before the earlier ended",
		      x, y, size + 1);
	free(x);
	free(y);
	free(size);
	return r;
}

/* How find_overlap() orders a host's boots. */
struct order {
	const struct check *c;
	bool by_seq;		/* their seqs are known and tell them apart */
};

/*
 * Boots in the order they came: by their seq (the host's DB numbered its
 * sessions as they first synced), else by their start.
 */
static int cmp_order(const void *a, const void *b, void *arg)
{
	const struct order *o = arg;
	int i = *(const int *)a, j = *(const int *)b;
	long long x = o->c->clock_seqs[i], y = o->c->clock_seqs[j];

	if (!o->by_seq) {
		x = o->c->clock_spans[i].start;
		y = o->c->clock_spans[j].start;
	}
	return x < y ? -1 : x > y;
}

/*
 * Can @k[0..m) be ordered by seq? Not when one has none, nor when two
 * share one: a host whose DB was started anew (moved aside) numbers its
 * sessions from 1 again, and a fleet DB holding both copies has no order.
 */
static bool seqs_tell(const struct check *c, const int *k, int m)
{
	int i, j;

	for (i = 0; i < m; i++) {
		if (!c->clock_seqs[k[i]])
			return false;
		for (j = 0; j < i; j++)
			if (c->clock_seqs[k[j]] == c->clock_seqs[k[i]])
				return false;
	}
	return true;
}

/*
 * Two of the host's boots that overlap, or placed out of their order, one
 * of them in the window: why, or NULL.
 */
static char *find_overlap(const struct check *c, int first, int n)
{
	const struct usage_span *sp = c->clock_spans;
	int *k = xcalloc(n + 1, sizeof(*k)), m = 0, i, far = -1;
	struct order o = { .c = c };
	char *why = NULL;

	for (i = first; i < first + n; i++)
		if (sp[i].start != LLONG_MAX)
			k[m++] = i;
	o.by_seq = seqs_tell(c, k, m);
	qsort_r(k, m, sizeof(*k), cmp_order, &o);
	for (i = 0; i < m && !why; i++) {
		if (far >= 0 && sp[k[i]].start + CLOCK_SLACK_S < sp[far].end &&
		    (in_window(c, &sp[k[i]], c->clocks.b[k[i]].doubt) ||
		     in_window(c, &sp[far], c->clocks.b[far].doubt)))
			why = overlap_why(&c->clocks.b[far], &c->clocks.b[k[i]],
					  sp[far].end - sp[k[i]].start);
		if (far < 0 || sp[k[i]].end > sp[far].end)
			far = k[i];
	}
	free(k);
	return why;
}

void check_clock_judge(const struct check *c, struct check_host *h)
{
	int n, first = host_boots(c, h->host, &n), i;

	for (i = first; i < first + n; i++) {
		const struct boot_clock *b = &c->clocks.b[i];

		if (!in_window(c, &c->clock_spans[i], b->doubt) || b->synced)
			continue;
		h->nunsynced++;
		if (!h->clock_why && b->most - b->latest > CLOCK_SLACK_S)
			h->clock_why = set_back_why(b);
	}
	if (!h->clock_why)
		h->clock_why = find_overlap(c, first, n);
}

void check_clock_free(struct check *c)
{
	clock_history_free(&c->clocks);
	free(c->clock_spans);
	free(c->clock_seqs);
}
