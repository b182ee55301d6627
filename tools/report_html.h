/* SPDX-License-Identifier: GPL-2.0 */
/* abidep report --format html: report_html.c. */
#ifndef ABIDEP_REPORT_HTML_H
#define ABIDEP_REPORT_HTML_H

#include <stdio.h>

#include "report.h"

struct report_html;

/*
 * The page's own state: report_html_new() sets @r's read_more, which
 * reads the daily history and the sessions in report's snapshot.
 */
struct report_html *report_html_new(struct report *r);

/* The page of @r (the DB @db, of @rows rows), to @f. */
void report_html_print(struct report_html *h, const struct report *r, const char *db,
		       long long rows, FILE *f);

void report_html_free(struct report_html *h, const struct report *r);

#endif
