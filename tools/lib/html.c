// SPDX-License-Identifier: GPL-2.0
/*
 * A self-contained HTML page: no script, no font, no style sheet or image
 * to fetch. The figures are inline SVG drawn here, so that the page is one
 * file a release team can attach to a ticket, and a Content-Security-Policy
 * forbids any script and any fetch: were a string ever written unescaped,
 * the browser would still run nothing and ask no server.
 *
 * Every string from the usage DB (exe paths, comms, cgroups, hosts, file
 * paths: chosen by the traced programs) and from the tables goes through
 * html_esc(); the page's own markup and numbers are printed as they are.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "utctime.h"
#include "html.h"
#include "text.h"
#include "util.h"

/*
 * A newline in a name must not pass for a space: control characters show
 * as their pictures. A right-to-left override must not show a name
 * backwards, and a byte that is not UTF-8 is named, as on a terminal.
 */
#define HTML_ESC	(ESC_BAD_HEX | ESC_CTRL_PIC | ESC_HIDDEN | ESC_HTML)

void html_esc(FILE *f, const char *s)
{
	text_fputs(f, s, HTML_ESC);
}

static const char style[] =
	"body{font-family:sans-serif;margin:1.5em;color:#1f2328;max-width:1400px}\n"
	"h1{font-size:1.5em}h2{font-size:1.25em;margin-top:1.6em;border-bottom:1px solid #d0d7de}\n"
	"h3{font-size:1.05em;margin-top:1.4em}\n"
	"table{border-collapse:collapse;margin:.5em 0}\n"
	"th,td{border:1px solid #d0d7de;padding:.2em .5em;text-align:left;vertical-align:top}\n"
	"th{background:#f6f8fa}td.n{text-align:right}\n"
	".path{overflow-wrap:anywhere;min-width:8em;max-width:40em}time,.t{white-space:nowrap}\n"
	".badge{display:inline-block;padding:.1em .6em;border-radius:1em;font-weight:bold;"
	"font-size:.9em;white-space:nowrap}\n"
	".v-ready{background:#1a7f37;color:#fff}.v-blocked{background:#cf222e;color:#fff}\n"
	".v-no-data{background:#bf8700;color:#fff}.v-not-due{background:#d0d7de;color:#1f2328}\n"
	".v-removed{background:#8250df;color:#fff}\n"
	".v-covered{background:#1a7f37;color:#fff}.v-not-covered,.v-lost-accesses,.v-late-boot,.v-wrong-clock{background:#cf222e;color:#fff}\n"
	".sw{display:inline-block;width:.9em;height:.9em;border:1px solid #888;vertical-align:middle}\n"
	".note{color:#59636e}svg{display:block}svg text{font-size:11px;fill:#59636e}\n"
	"ul.summary{list-style:none;padding:0}ul.summary li{display:inline-block;margin-right:1em}\n";

void html_begin(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      /* No script, no fetch: see the comment at the top. */
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'\">\n<title>", f);
	html_esc(f, title);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", style);
}

void html_end(FILE *f)
{
	fputs("</body>\n</html>\n", f);
}

void html_badge(FILE *f, const char *verdict)
{
	fputs("<span class=\"badge v-", f);
	html_esc(f, verdict);
	fputs("\">", f);
	html_esc(f, verdict);
	fputs("</span>", f);
}

void html_time(FILE *f, long long t)
{
	char buf[64];

	if (t == LLONG_MIN || t == LLONG_MAX)
		fputc('-', f);
	else
		html_esc(f, iso_time(t, buf, sizeof(buf)));
}

void html_date(FILE *f, long long t)
{
	char buf[64];

	if (t == LLONG_MIN || t == LLONG_MAX) {
		fputc('-', f);
		return;
	}
	iso_time(t, buf, sizeof(buf));
	buf[strcspn(buf, "T")] = '\0';
	html_esc(f, buf);
}

/* ---- the daily plot ---- */

/* Okabe and Ito's colours, told apart by most colour-blind readers; grey: other. */
static const char *const colours[HTML_PLOT_SERIES + 1] = {
	"#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00",
	"#f0e442", "#000000", "#999999",
};

void html_plot_add(struct html_plot *p, const char *name, long long day,
		   unsigned long long count)
{
	struct html_series *s = p->n ? &p->s[p->n - 1] : NULL;
	struct html_point *pt;
	int i;

	/* Days come ordered by executable: the last one first. */
	if (!s || strcmp(s->name, name)) {
		for (i = 0, s = NULL; i < p->n && !s; i++)
			if (!strcmp(p->s[i].name, name))
				s = &p->s[i];
		if (!s) {
			s = GROW(p->s, p->n, p->cap);
			memset(s, 0, sizeof(*s));
			s->name = xstrdup(name);
		}
	}
	s->total = s->total + count < s->total ? ULLONG_MAX : s->total + count;
	pt = GROW(s->pts, s->npts, s->pcap);
	pt->day = day;
	pt->count = count;
}

bool html_plot_days(const struct html_plot *p, long long *first, long long *last)
{
	int i, k;

	*first = LLONG_MAX;
	*last = LLONG_MIN;
	for (i = 0; i < p->n; i++)
		for (k = 0; k < p->s[i].npts; k++) {
			if (p->s[i].pts[k].day < *first)
				*first = p->s[i].pts[k].day;
			if (p->s[i].pts[k].day > *last)
				*last = p->s[i].pts[k].day;
		}
	return *first != LLONG_MAX;
}

/* Largest total first; by name among equals, so that the page is stable. */
static int cmp_series(const void *a, const void *b)
{
	const struct html_series *x = a, *y = b;

	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The plot's geometry, in SVG units. */
enum { PW = 900, PH = 190, PL = 60, PR = 10, PT = 10, PB = 30 };

/* One bar's segment: @n uses of @name on @day, from @y0 (bottom) up. */
static void plot_rect(FILE *f, double x, double w, double y0, double h,
		      const char *colour, const char *name, long long day,
		      unsigned long long n)
{
	fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\"><title>",
		x, y0 - h, w, h, colour);
	html_esc(f, name);
	fprintf(f, ": %llu use%s on ", n, n == 1 ? "" : "s");
	html_date(f, day);
	fputs("</title></rect>\n", f);
}

/* The axes: 0 and @max uses, the first and last day. */
static void plot_axes(FILE *f, unsigned long long max, long long from, long long to)
{
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#888\"/>\n",
		PL, PH - PB, PW - PR, PH - PB);
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#888\"/>\n",
		PL, PT, PL, PH - PB);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%llu</text>\n", PL - 4, PT + 10, max);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">0</text>\n", PL - 4, PH - PB);
	fprintf(f, "<text x=\"%d\" y=\"%d\">", PL, PH - 8);
	html_date(f, from);
	fprintf(f, "</text>\n<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", PW - PR, PH - 8);
	html_date(f, to);
	fputs("</text>\n", f);
}

/* The legend: every executable (up to HTML_LEGEND_ROWS), its colour, its total. */
#define HTML_LEGEND_ROWS 50
static void plot_legend(FILE *f, const struct html_plot *p, int shown)
{
	unsigned long long rest = 0;
	int i;

	fputs("<table class=\"legend\">\n<tr><th></th><th>executable</th><th>uses</th></tr>\n", f);
	for (i = 0; i < p->n; i++) {
		const struct html_series *s = &p->s[i];

		if (i >= HTML_LEGEND_ROWS) {
			rest += s->total;
			continue;
		}
		fputs("<tr class=\"series\" data-exe=\"", f);
		html_esc(f, s->name);
		fprintf(f, "\" data-total=\"%llu\"><td><span class=\"sw\" style=\"background:%s\"></span></td>"
			"<td class=\"path\">", s->total, colours[i < shown ? i : HTML_PLOT_SERIES]);
		html_esc(f, s->name);
		fprintf(f, "</td><td class=\"n\">%llu</td></tr>\n", s->total);
	}
	if (p->n > HTML_LEGEND_ROWS)
		fprintf(f, "<tr><td></td><td>and %d more executables</td><td class=\"n\">%llu</td></tr>\n",
			p->n - HTML_LEGEND_ROWS, rest);
	fputs("</table>\n", f);
}

/*
 * Sum each shown series' uses per day (@sums: @shown + 1 rows of @ndays,
 * the last row "other"); points before @from are left out.
 */
static unsigned long long plot_sums(const struct html_plot *p, int shown, long long from,
				    int ndays, unsigned long long *sums)
{
	unsigned long long max = 0, day;
	int i, k, d;

	for (i = 0; i < p->n; i++)
		for (k = 0; k < p->s[i].npts; k++) {
			const struct html_point *pt = &p->s[i].pts[k];
			unsigned long long *v;

			d = (pt->day - from) / 86400;
			if (pt->day < from || d >= ndays)
				continue;
			v = &sums[(i < shown ? i : shown) * ndays + d];
			*v = *v + pt->count < *v ? ULLONG_MAX : *v + pt->count;
		}
	for (d = 0; d < ndays; d++) {
		for (i = 0, day = 0; i <= shown; i++)
			day += sums[i * ndays + d];
		if (day > max)
			max = day;
	}
	return max;
}

void html_plot_svg(FILE *f, struct html_plot *p, long long from, long long to,
		   long long mark, const char *mark_label)
{
	int ndays, shown, i, d;
	unsigned long long *sums, max;
	double bw, x, y;

	if (p->n > 1)
		qsort(p->s, p->n, sizeof(*p->s), cmp_series);
	/* An "other" of one executable is that executable. */
	shown = p->n <= HTML_PLOT_SERIES + 1 ? p->n : HTML_PLOT_SERIES;
	from -= from % 86400;
	to -= to % 86400;
	if (to < from)
		to = from;
	if ((to - from) / 86400 >= HTML_PLOT_DAYS) {
		fprintf(f, "<p class=\"note\">The %lld days before ", (to - from) / 86400 + 1 - HTML_PLOT_DAYS);
		from = to - (HTML_PLOT_DAYS - 1) * 86400LL;
		html_date(f, from);
		fputs(" are not plotted (their uses are in the totals).</p>\n", f);
	}
	ndays = (to - from) / 86400 + 1;
	sums = xcalloc((size_t)(shown + 1) * ndays, sizeof(*sums));
	max = plot_sums(p, shown, from, ndays, sums);
	bw = (double)(PW - PL - PR) / ndays;
	fprintf(f, "<svg class=\"plot\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
		"aria-label=\"uses per day, by executable\" data-days=\"%d\" data-max=\"%llu\">\n",
		PW, PH, PW, PH, ndays, max);
	for (d = 0; max && d < ndays; d++) {
		x = PL + d * bw + (bw > 3 ? 0.5 : 0);
		y = PH - PB;
		for (i = 0; i <= shown; i++) {
			unsigned long long n = sums[i * ndays + d];
			double h = (double)n / max * (PH - PB - PT);

			if (!n)
				continue;
			plot_rect(f, x, bw > 3 ? bw - 1 : bw, y, h < 0.5 ? 0.5 : h,
				  colours[i < shown ? i : HTML_PLOT_SERIES],
				  i < shown ? p->s[i].name : "other executables", from + d * 86400LL, n);
			y -= h;
		}
	}
	if (mark != LLONG_MIN && mark >= from && mark < to + 86400) {
		x = PL + (double)(mark - from) / 86400 * bw;
		fprintf(f, "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" stroke=\"#cf222e\" stroke-dasharray=\"4 3\"/>\n",
			x, PT, x, PH - PB);
		fprintf(f, "<text x=\"%.2f\" y=\"%d\">", x + 3, PT + 10);
		html_esc(f, mark_label);
		fputs("</text>\n", f);
	}
	plot_axes(f, max, from, to);
	fputs("</svg>\n", f);
	if (!max)
		fputs("<p class=\"note\">No use on these days.</p>\n", f);
	plot_legend(f, p, shown);
	free(sums);
}

void html_plot_free(struct html_plot *p)
{
	int i;

	for (i = 0; i < p->n; i++) {
		free(p->s[i].name);
		free(p->s[i].pts);
	}
	free(p->s);
	memset(p, 0, sizeof(*p));
}

/* ---- the sessions timeline ---- */

enum { TW = 440, TH = 16 };

/* @t on a timeline of TW from @from to @to, clamped to it. */
static double tl_x(long long t, long long from, long long to)
{
	if (t <= from || to <= from)
		return 0;
	if (t >= to)
		return TW;
	return (double)(t - from) / (to - from) * TW;
}

void html_timeline_svg(FILE *f, long long from, long long to,
		       const struct html_span *spans, int n, long long gap_from)
{
	double x0, x1;
	int i;

	fprintf(f, "<svg class=\"timeline\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n"
		"<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#eaeef2\"/>\n",
		TW, TH, TW, TH, TW, TH);
	if (gap_from != LLONG_MAX) {
		x0 = tl_x(gap_from, from, to);
		fprintf(f, "<rect class=\"gap\" x=\"%.2f\" y=\"0\" width=\"%.2f\" height=\"%d\" fill=\"#ffcecb\"><title>not covered from ",
			x0, TW - x0, TH);
		html_time(f, gap_from > from ? gap_from : from);
		fputs("</title></rect>\n", f);
	}
	for (i = 0; i < n; i++) {
		if (spans[i].end < from || spans[i].start > to)
			continue;
		x0 = tl_x(spans[i].start, from, to);
		x1 = tl_x(spans[i].end, from, to);
		fprintf(f, "<rect class=\"session\" x=\"%.2f\" y=\"3\" width=\"%.2f\" height=\"%d\" fill=\"#1a7f37\"><title>session ",
			x0, x1 - x0 < 1 ? 1 : x1 - x0, TH - 6);
		html_time(f, spans[i].start);
		fputs(" to ", f);
		html_time(f, spans[i].end);
		fputs("</title></rect>\n", f);
	}
	fputs("</svg>", f);
}

void html_timeline_scale(FILE *f, long long from, long long to)
{
	fprintf(f, "<svg class=\"scale\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n"
		"<text x=\"0\" y=\"12\">", TW, TH, TW, TH);
	html_date(f, from);
	fprintf(f, "</text><text x=\"%d\" y=\"12\" text-anchor=\"middle\">", TW / 2);
	html_date(f, from + (to - from) / 2);
	fprintf(f, "</text><text x=\"%d\" y=\"12\" text-anchor=\"end\">", TW);
	html_date(f, to);
	fputs("</text></svg>", f);
}
