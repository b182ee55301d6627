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

/*
 * After check_judge(), of a model read with read_days: the page, to @out
 * (a write error is the caller's to find, as ferror(@out)).
 */
void check_html_print(const struct check *c, const char *db, const char *scan_root,
		      FILE *out);

/* Hosts in the coverage table; the rest are counted (-j lists them). */
#define CHECK_HTML_HOSTS	100

#endif
