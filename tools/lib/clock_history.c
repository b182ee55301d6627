// SPDX-License-Identifier: GPL-2.0
/* Each boot's readings of the clocks, and what they say (clock_history.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock_history.h"
#include "util.h"

void clock_history_add(struct clock_history *h, const struct usage_clock *c)
{
	struct boot_clock *b = h->n ? &h->b[h->n - 1] : NULL;
	size_t n = usage_session_clock_boot_len(c->session);

	/* A boot's sessions follow each other: "BOOT:MAP" sorts by boot first. */
	if (!b || strcmp(b->host, c->host) || strlen(b->boot) != n ||
	    strncmp(b->boot, c->session, n)) {
		b = GROW(h->b, h->n, h->cap);
		memset(b, 0, sizeof(*b));
		b->host = xstrdup(c->host);
		b->boot = xstrndup(c->session, n);
	}
	*GROW(b->r, b->n, b->cap) = c->r;
}

static int cmp_reading(const void *a, const void *b)
{
	const struct clock_reading *x = a, *y = b;

	return x->boottime < y->boottime ? -1 : x->boottime > y->boottime;
}

static int cmp_boot(const void *a, const void *b)
{
	const struct boot_clock *x = a, *y = b;
	int r = strcmp(x->host, y->host);

	return r ? r : strcmp(x->boot, y->boot);
}

/*
 * The steps of @b: each reading whose mapping moved from the one before
 * it (in boottime order, across the boot's sessions) by a step.
 */
static void find_steps(struct boot_clock *b)
{
	int i;

	b->steps = xcalloc(b->n + 1, sizeof(*b->steps));
	for (i = 1; i < b->n; i++) {
		long long d = clock_offset(&b->r[i]) - clock_offset(&b->r[i - 1]);

		if (d < CLOCK_STEP_NS && d > -CLOCK_STEP_NS)
			continue;
		b->steps[b->nsteps++] = (struct clock_step){
			.at = clock_place(b->r[i].boottime, b->best),
			.seconds = clock_mapping(&b->r[i]) - clock_mapping(&b->r[i - 1]),
			.synced = b->r[i].synced,
		};
	}
}

static void boot_done(struct boot_clock *b)
{
	int i;

	qsort(b->r, b->n, sizeof(*b->r), cmp_reading);
	b->best = clock_mapping(&b->r[clock_best(b->r, b->n)]);
	b->latest = clock_mapping(&b->r[b->n - 1]);
	b->most = b->latest;
	for (i = 0; i < b->n; i++) {
		b->synced |= b->r[i].synced;
		if (clock_mapping(&b->r[i]) > b->most)
			b->most = clock_mapping(&b->r[i]);
	}
	b->doubt = b->synced ? 0 : b->most - b->latest;
	find_steps(b);
}

/* A boot's readings that came apart (a source not in session order): one boot. */
static void join_boots(struct clock_history *h)
{
	int i, out = 0, k;

	for (i = 1; i < h->n; i++) {
		struct boot_clock *o = &h->b[out], *b = &h->b[i];

		if (cmp_boot(o, b)) {
			h->b[++out] = *b;
			continue;
		}
		for (k = 0; k < b->n; k++)
			*GROW(o->r, o->n, o->cap) = b->r[k];
		free(b->host);
		free(b->boot);
		free(b->r);
	}
	if (h->n)
		h->n = out + 1;
}

void clock_history_done(struct clock_history *h)
{
	int i;

	if (h->n > 1)
		qsort(h->b, h->n, sizeof(*h->b), cmp_boot);
	join_boots(h);
	for (i = 0; i < h->n; i++)
		boot_done(&h->b[i]);
}

const struct boot_clock *clock_history_find(const struct clock_history *h, const char *host,
					    const char *session)
{
	size_t n = usage_session_clock_boot_len(session);
	char *boot = xstrndup(session, n);
	struct boot_clock key = { .host = (char *)host, .boot = boot }, *b = NULL;

	if (h->n)
		b = bsearch(&key, h->b, h->n, sizeof(*h->b), cmp_boot);
	free(boot);
	return b;
}

void clock_history_free(struct clock_history *h)
{
	int i;

	for (i = 0; i < h->n; i++) {
		free(h->b[i].host);
		free(h->b[i].boot);
		free(h->b[i].r);
		free(h->b[i].steps);
	}
	free(h->b);
	memset(h, 0, sizeof(*h));
}

char *clock_step_text(long long seconds)
{
	unsigned long long a = seconds < 0 ? -(unsigned long long)seconds : (unsigned long long)seconds;
	char sign = seconds < 0 ? '-' : '+';

	if (a >= 2 * 86400ULL)
		return xasprintf("%c%llu days", sign, (a + 43200) / 86400);
	if (a >= 3600)
		return xasprintf("%c%llu h %llu min", sign, a / 3600, a % 3600 / 60);
	if (a >= 60)
		return xasprintf("%c%llu min %llu s", sign, a / 60, a % 60);
	return xasprintf("%c%llu s", sign, a);
}
