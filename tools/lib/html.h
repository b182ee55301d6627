/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The parts of a self-contained HTML page (check and report --format html):
 * the escaper every string from the usage DB or the tables goes through,
 * the page's head (inline style, a Content-Security-Policy that allows no
 * script and no fetch) and the inline SVG figures: a stacked bar plot of
 * daily use and a timeline of tracer sessions. No script, no network.
 */
#ifndef ABIDEP_HTML_H
#define ABIDEP_HTML_H

#include <stdbool.h>
#include <stdio.h>

/*
 * @s (NULL: nothing) as HTML text or a double-quoted attribute value:
 * & < > " ' as entities, control characters as their visible U+2400
 * pictures, C1 controls and the bidirectional marks and overrides as
 * \uNNNN, bytes that are not UTF-8 as \xNN (text_escape()). Every string
 * that is not the page's own goes through here: exe paths and comms are
 * chosen by the traced programs.
 */
void html_esc(FILE *f, const char *s);

/* The page up to <body>'s first line, titled @title; and its end. */
void html_begin(FILE *f, const char *title);
void html_end(FILE *f);

/* A verdict (ready, blocked, ...) as a coloured badge. */
void html_badge(FILE *f, const char *verdict);

/* A date (UTC, YYYY-MM-DD) or an ISO 8601 time; "-" for LLONG_MIN/MAX. */
void html_date(FILE *f, long long t);
void html_time(FILE *f, long long t);

/* ---- the daily plot ---- */

/* One executable's daily uses. */
struct html_series {
	char *name;
	unsigned long long total;	/* every day's, plotted or not */
	struct html_point { long long day; unsigned long long count; } *pts;
	int npts, pcap;
};

struct html_plot {
	struct html_series *s;
	int n, cap;
};

/* Add @count uses by @name on @day (00:00 UTC). */
void html_plot_add(struct html_plot *p, const char *name, long long day,
		   unsigned long long count);

/* The first and last day with a use; false when there is none. */
bool html_plot_days(const struct html_plot *p, long long *first, long long *last);

/*
 * The plot of the days @from to @to (00:00 UTC, at most HTML_PLOT_DAYS of
 * them, the latest kept), stacked bars per executable (the
 * HTML_PLOT_SERIES largest; the rest as one "other"), a dashed line at
 * @mark (LLONG_MIN: none) labelled @mark_label; then its legend: a table
 * of every executable and its total uses (data-exe, data-total).
 */
void html_plot_svg(FILE *f, struct html_plot *p, long long from, long long to,
		   long long mark, const char *mark_label);
void html_plot_free(struct html_plot *p);

#define HTML_PLOT_DAYS		731
#define HTML_PLOT_SERIES	8

/* ---- the sessions timeline ---- */

struct html_span {
	long long start, end;
};

/*
 * A host's sessions, [start, end] each, on a timeline from @from to @to;
 * with @gap_from != LLONG_MAX, [@gap_from, @to] is marked not covered.
 */
void html_timeline_svg(FILE *f, long long from, long long to,
		       const struct html_span *spans, int n, long long gap_from);

/* The timeline's scale: @from, the middle and @to as dates. */
void html_timeline_scale(FILE *f, long long from, long long to);

#endif
