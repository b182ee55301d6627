/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The figures of report's and check's pages (report_html.c,
 * check_html.c), drawn from their models' history (lib/usage_history.h)
 * with lib/html.h's plot and timeline.
 */
#ifndef ABIDEP_HTML_FIGURES_H
#define ABIDEP_HTML_FIGURES_H

#include <stdio.h>

#include "clock_history.h"
#include "html.h"
#include "usage_history.h"

/* @d's days of use onto @p (zeroed, or with days already), by executable. */
void html_daily_plot(struct html_plot *p, const struct usage_daily *d);

/* html_timeline_svg() of a host's sessions @s[0..n). */
void html_sessions_svg(FILE *f, long long from, long long to, const struct usage_span *s,
		       int n, long long gap_from);

/*
 * A boot's steps of its wall clock, as a list ("boot 3f2a9c0e: stepped
 * -60 days at ..."), the same words as the text's; nothing without one.
 */
void html_clock_steps(FILE *f, const struct boot_clock *b);

#endif
