// SPDX-License-Identifier: GPL-2.0
/* The figures of report's and check's pages: html_figures.h. */
#include <stdlib.h>

#include "html_figures.h"
#include "util.h"

void html_daily_plot(struct html_plot *p, const struct usage_daily *d)
{
	int k;

	for (k = 0; k < d->n; k++)
		html_plot_add(p, d->rows[k].exe, d->rows[k].day, d->rows[k].count);
}

void html_sessions_svg(FILE *f, long long from, long long to, const struct usage_span *s,
		       int n, long long gap_from)
{
	struct html_span *spans = xcalloc(n + 1, sizeof(*spans));
	int k;

	for (k = 0; k < n; k++) {
		spans[k].start = s[k].start;
		spans[k].end = s[k].end;
	}
	html_timeline_svg(f, from, to, spans, n, gap_from);
	free(spans);
}

void html_clock_steps(FILE *f, const struct boot_clock *b)
{
	char *size, *boot;
	int i;

	if (!b || !b->nsteps)
		return;
	boot = xstrndup(b->boot, 8);
	fputs("<ul class=\"clock-steps\">", f);
	for (i = 0; i < b->nsteps; i++) {
		size = clock_step_text(b->steps[i].seconds);
		fputs("<li>boot ", f);
		html_esc(f, boot);
		fprintf(f, ": the wall clock stepped %s at ", size);
		html_time(f, b->steps[i].at);
		fprintf(f, " (%s)</li>", b->steps[i].synced ? "synchronized" : "not synchronized");
		free(size);
	}
	fputs("</ul>", f);
	free(boot);
}
