/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The history part of report's and check's models (report_model.h,
 * check_eval.h), for the printers that draw it (their HTML pages): an
 * entry's daily use by executable, as the store's daily history gives it,
 * and a host's tracer sessions, each a span of time.
 */
#ifndef ABIDEP_USAGE_HISTORY_H
#define ABIDEP_USAGE_HISTORY_H

#include "store.h"

/*
 * Days of use, a row of the daily history each (struct usage_day: per
 * exe, uid, op and host), in the store's order: by executable, then day.
 */
struct usage_daily {
	struct usage_daily_row {
		char *exe;
		long long day;		/* 00:00 UTC, unix seconds */
		unsigned long long count;
	} *rows;
	int n, cap;
};

void usage_daily_add(struct usage_daily *d, const struct usage_day *day);
void usage_daily_free(struct usage_daily *d);

/* A tracer session: its start and its last sync (unix seconds). */
struct usage_span {
	long long start, end;
};

#endif
