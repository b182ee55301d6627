// SPDX-License-Identifier: GPL-2.0
/*
 * abidep report --format html: check's page (check_html.c) without the
 * verdicts, of report's model (lib/report_model.h, as every format prints
 * it, read with REPORT_HISTORY): per entry (What) its users summed per
 * executable over uids, cgroups, ops and hosts, and its daily use by
 * executable; per host its tracer sessions on one timeline. The figures
 * are in the DOM (data-*) as on check's page.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "entry.h"
#include "html_figures.h"
#include "report_html.h"
#include "util.h"

/* An executable's use of an entry, as the page lists it: report's sum, and its lists. */
struct rexe {
	const struct report_exe *x;
	char ops[64];			/* "read,open" */
	const char **hosts;		/* distinct, in order of first use */
	int nhosts, hcap;
	unsigned int *uids;
	int nuids, ucap;
};

/* @op into the list @ops ("open,read"), once; a list too long stops growing. */
static void add_op(char *ops, size_t size, const char *op)
{
	size_t n = strlen(op), len = strlen(ops);
	const char *p;

	for (p = ops; *p; p += strcspn(p, ",") + !!p[strcspn(p, ",")])
		if (strcspn(p, ",") == n && !strncmp(p, op, n))
			return;
	if (len + n + 2 < size)
		snprintf(ops + len, size - len, "%s%s", len ? "," : "", op);
}

/* The distinct hosts, uids and ops of an executable's users, in order of first use. */
static void exe_lists(struct rexe *r, const struct report_exe *x)
{
	const struct report_user *u = x->users;
	int i, h, k;

	memset(r, 0, sizeof(*r));
	r->x = x;
	for (i = 0; i < x->nusers; i++) {
		for (h = 0; h < u[i].nhosts; h++) {
			for (k = 0; k < r->nhosts && strcmp(r->hosts[k], u[i].hosts[h].host); k++)
				;
			if (k == r->nhosts)
				*GROW(r->hosts, r->nhosts, r->hcap) = u[i].hosts[h].host;
		}
		for (k = 0; k < r->nuids && r->uids[k] != u[i].uid; k++)
			;
		if (k == r->nuids)
			*GROW(r->uids, r->nuids, r->ucap) = u[i].uid;
		add_op(r->ops, sizeof(r->ops), u[i].op);
	}
}

/* ---- the page ---- */

/* Hosts named per executable; the rest counted (-j lists them). */
#define HOSTS_NAMED 3

static void exe_row(FILE *f, const struct rexe *r)
{
	const struct report_exe *x = r->x;
	const struct report_user *u = x->users;
	char *boot;
	int k;

	fputs("<tr class=\"exe\" data-exe=\"", f);
	html_esc(f, u->exe);
	fprintf(f, "\" data-uses=\"%llu\" data-hosts=\"%d\"", x->sum.count, r->nhosts);
	/* During boot: how early; the seconds after boot when known. */
	if (x->boot.stage)
		fprintf(f, " data-boot-stage=\"%s\"", x->boot.stage);
	if (x->boot.stage && x->boot.after_boot >= 0)
		fprintf(f, " data-after-boot=\"%lld\"", x->boot.after_boot);
	fputs("><td class=\"path\">", f);
	html_esc(f, u->exe);
	fputs("</td><td>", f);
	html_esc(f, u->package ? u->package : "-");
	fputs("</td><td class=\"maintainer\">", f);
	html_esc(f, u->package_maintainer ? u->package_maintainer : "-");
	fputs("</td><td>", f);
	if (u->ignored) {
		fputs("known enumerator: ", f);
		html_esc(f, u->ignored->reason);
	} else {
		fputs(report_how(&x->sum), f);
	}
	fprintf(f, "</td><td class=\"n\">%d</td><td>", r->nhosts);
	for (k = 0; k < r->nhosts && k < HOSTS_NAMED; k++) {
		fputs(k ? ", " : "", f);
		html_esc(f, r->hosts[k]);
	}
	if (r->nhosts > HOSTS_NAMED)
		fprintf(f, " and %d more", r->nhosts - HOSTS_NAMED);
	fputs("</td><td>", f);
	for (k = 0; k < r->nuids && k < HOSTS_NAMED; k++)
		fprintf(f, "%s%u", k ? ", " : "", r->uids[k]);
	if (r->nuids > HOSTS_NAMED)
		fprintf(f, " and %d more", r->nuids - HOSTS_NAMED);
	fputs("</td><td>", f);
	html_esc(f, r->ops);
	fprintf(f, "</td><td class=\"n\">%llu</td><td class=\"n\">%llu</td><td class=\"n\">%llu</td><td class=\"t\">",
		x->sum.count, x->sum.swept, x->sum.errors);
	html_time(f, x->sum.first_seen);
	fputs("</td><td class=\"t\">", f);
	html_time(f, x->sum.last_seen);
	boot = report_boot_text(&x->boot);
	fputs("</td><td class=\"boot\">", f);
	html_esc(f, boot);
	fputs("</td></tr>\n", f);
	free(boot);
}

/* An entry's users, a row per executable. */
static void exe_rows(FILE *f, const struct report_entry *e)
{
	struct rexe r;
	int k;

	for (k = 0; k < e->nexes; k++) {
		exe_lists(&r, &e->exes[k]);
		exe_row(f, &r);
		free(r.hosts);
		free(r.uids);
	}
}

static void entry_section(FILE *f, const struct report *r, const struct report_entry *e)
{
	struct html_plot plot = { 0 };
	long long first, last;

	fputs("<section class=\"entry\" data-what=\"", f);
	html_esc(f, e->what);
	fputs("\">\n<h3>", f);
	html_esc(f, e->what ? e->what : "(unknown entry)");
	fputs("</h3>\n<table class=\"users\">\n<tr><th>executable</th><th>package</th>"
	      "<th>maintainer</th><th>how</th>"
	      "<th>hosts</th><th>host names</th><th>uids</th><th>ops</th><th>uses</th>"
	      "<th>swept</th><th>failed</th><th>first use</th><th>last use</th>"
	      "<th>during boot</th></tr>\n", f);
	exe_rows(f, e);
	fputs("</table>\n", f);
	html_daily_plot(&plot, &e->days);
	if (!r->has_days)
		fputs("<p class=\"note plot-none\">No daily history in this DB (older abidep): "
		      "the table above totals the uses.</p>\n", f);
	else if (!html_plot_days(&plot, &first, &last))
		fputs("<p class=\"note plot-none\">No use in the daily history.</p>\n", f);
	else {
		fputs("<p>Uses per day (UTC), by executable, every uid, op and host:</p>\n", f);
		html_plot_svg(f, &plot, r->filter->since && r->filter->since < first ?
			      r->filter->since : first, last, LLONG_MIN, NULL);
	}
	html_plot_free(&plot);
	fputs("</section>\n", f);
}

/* Hosts on the timeline; the rest counted. */
#define REPORT_HTML_HOSTS 100

/* Where a boot's wall clock was stepped, host by host, as the text says it. */
static void clock_steps(FILE *f, const struct report *r)
{
	int i, n = 0;

	for (i = 0; i < r->clocks.n; i++)
		n += r->clocks.b[i].nsteps;
	if (!n)
		return;
	fprintf(f, "<p class=\"note\" id=\"clock-steps\" data-steps=\"%d\">The wall clock was stepped "
		"%d time%s: each boot's times are placed by its best reading (its latest "
		"synchronized, else its last), those before a step too.</p>\n", n, n, n == 1 ? "" : "s");
	for (i = 0; i < r->clocks.n; i++) {
		if (!r->clocks.b[i].nsteps)
			continue;
		fputs("<p class=\"path\">", f);
		html_esc(f, r->clocks.b[i].host);
		fputs("</p>", f);
		html_clock_steps(f, &r->clocks.b[i]);
		fputc('\n', f);
	}
}

static void hosts(FILE *f, const struct report *r)
{
	int i;

	fprintf(f, "<h2>Tracer sessions</h2>\n<section id=\"sessions\" data-hosts=\"%d\" data-sessions=\"%lld\">\n",
		r->nhosts, r->nsessions);
	if (!r->nsessions) {
		fputs("<p class=\"note\">No sessions in this DB (older abidep, or none since --since).</p>\n</section>\n", f);
		return;
	}
	fputs("<table id=\"hosts\">\n<tr><th>host</th><th>sessions</th><th>first start</th>"
	      "<th>last sync</th><th>", f);
	html_timeline_scale(f, r->first, r->last);
	fputs("</th></tr>\n", f);
	for (i = 0; i < r->nhosts && i < REPORT_HTML_HOSTS; i++) {
		const struct report_host *h = &r->hosts[i];
		long long last = LLONG_MIN;
		int k;

		for (k = 0; k < h->n; k++)
			if (h->spans[k].end > last)
				last = h->spans[k].end;
		fputs("<tr class=\"host\" data-host=\"", f);
		html_esc(f, h->host);
		fprintf(f, "\" data-sessions=\"%d\"><td class=\"path\">", h->n);
		html_esc(f, h->host);
		fprintf(f, "</td><td class=\"n\">%d</td><td class=\"t\">", h->n);
		html_time(f, h->spans[0].start);
		fputs("</td><td class=\"t\">", f);
		html_time(f, last);
		fputs("</td><td>", f);
		html_sessions_svg(f, r->first, r->last, h->spans, h->n, LLONG_MAX);
		fputs("</td></tr>\n", f);
	}
	if (r->nhosts > REPORT_HTML_HOSTS)
		fprintf(f, "<tr class=\"more\"><td colspan=\"5\">and %d more hosts</td></tr>\n",
			r->nhosts - REPORT_HTML_HOSTS);
	fputs("</table>\n", f);
	clock_steps(f, r);
	fputs("</section>\n", f);
}

void report_html_print(const struct report *r, const char *db, FILE *f)
{
	const struct store_filter *sf = r->filter;
	int i;

	html_begin(f, "abidep report");
	fputs("<h1>abidep report</h1>\n<p>Usage DB <span class=\"path\">", f);
	html_esc(f, db);
	fprintf(f, "</span>: %lld row%s", r->rows, r->rows == 1 ? "" : "s");
	if (sf->entry) {
		fputs("; --entry ", f);
		html_esc(f, sf->entry->pattern);
	}
	if (sf->since) {
		fputs("; uses since ", f);
		html_time(f, sf->since);
	}
	if (sf->until) {
		fputs("; uses until ", f);
		html_time(f, sf->until);
	}
	/* Those a tracer loaded late would have missed. */
	if (r->nboot)
		fprintf(f, "; <span id=\"boot-uses\" data-count=\"%d\">%d of %d uses during boot</span> "
			"(first seen before their session's first sync, in a boot traced from the "
			"initramfs or before udev)", r->nboot, r->nboot, r->nusers);
	fprintf(f, ".</p>\n<h2>Entries</h2>\n");
	if (!r->n)
		fputs("<p class=\"note\">No use recorded matches.</p>\n", f);
	/* Entries unknown to the tracer (What NULL) last: the model has them so. */
	for (i = 0; i < r->n; i++)
		entry_section(f, r, &r->entries[i]);
	hosts(f, r);
	html_end(f);
}
