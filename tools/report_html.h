/* SPDX-License-Identifier: GPL-2.0 */
/* abidep report --format html: report_html.c. */
#ifndef ABIDEP_REPORT_HTML_H
#define ABIDEP_REPORT_HTML_H

#include <stdio.h>

#include "report.h"

/* The page of @r (read with REPORT_HISTORY from the DB @db), to @f. */
void report_html_print(const struct report *r, const char *db, FILE *f);

#endif
