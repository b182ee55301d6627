/* SPDX-License-Identifier: GPL-2.0 */
/*
 * abidep check --format html: the verdicts as one self-contained page
 * (html.h), with per entry its daily use by executable and per host the
 * tracer's coverage of the quiet window.
 */
#ifndef ABIDEP_CHECK_HTML_H
#define ABIDEP_CHECK_HTML_H

#include <stddef.h>
#include <stdio.h>

#include "check_eval.h"

struct check_html;

/*
 * Before check_read_db(): have it read, in its snapshot, what the page
 * needs besides the verdicts (the daily history, the sessions' spans).
 */
struct check_html *check_html_new(struct check *c);

/*
 * After check_judge(): the page, to @out (a write error is the caller's
 * to find, as ferror(@out)).
 */
void check_html_print(struct check_html *h, const struct check *c, const char *db,
		      const char *scan_root, FILE *out);

void check_html_free(struct check_html *h, const struct check *c);

/* Hosts in the coverage table; the rest are counted (-j lists them). */
#define CHECK_HTML_HOSTS	100

#endif
