// SPDX-License-Identifier: GPL-2.0
/* The history part of report's and check's models: usage_history.h. */
#include <stdlib.h>
#include <string.h>

#include "usage_history.h"
#include "util.h"

void usage_daily_add(struct usage_daily *d, const struct usage_day *day)
{
	struct usage_daily_row *r = GROW(d->rows, d->n, d->cap);

	r->exe = xstrdup(day->exe);
	r->day = day->day;
	r->count = day->count;
}

void usage_daily_free(struct usage_daily *d)
{
	int i;

	for (i = 0; i < d->n; i++)
		free(d->rows[i].exe);
	free(d->rows);
	d->rows = NULL;
	d->n = d->cap = 0;
}
