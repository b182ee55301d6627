// SPDX-License-Identifier: GPL-2.0
/*
 * abidep report --format html: check's page (check_html.c) without the
 * verdicts. Per entry (What) report's users (report.c's model, as every
 * format prints it) summed per executable over uids, cgroups, ops and
 * hosts, and its daily use by executable; per host its tracer sessions on
 * one timeline. Those two are read in report's snapshot of the DB
 * (read_more()); the figures are in the DOM (data-*) as on check's page.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "entry.h"
#include "report_html.h"
#include "util.h"

/* An executable's use of an entry: report's users of it, summed. */
struct rexe {
	const char *exe;		/* the users' */
	const char *package;		/* the package database's; NULL: none */
	const struct abi_ignore *ignored;	/* a known enumerator */
	struct usage_counts sum;
	char ops[64];			/* "read,open" */
	const char **hosts;		/* distinct, in order of first use */
	int nhosts, hcap;
	unsigned int *uids;
	int nuids, ucap;
	struct report_boot boot;	/* the earliest after boot of its users' */
};

struct rhost {
	char *host;
	struct html_span *s;
	int n, cap;
};

/* What the page shows besides report's model: read in its snapshot. */
struct report_html {
	struct html_plot *plots;	/* per report.entries[i] */
	struct rhost *hosts;
	int nhosts, hcap;
	long long nsessions, first, last;	/* the sessions' span */
	bool has_days;
};

/* ---- reading, in collect()'s snapshot ---- */

struct read_ctx {
	const struct report *r;
	struct report_html *h;
	int last;		/* the entry of the last day */
};

static bool same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* The entry of @what: days come in What order, so mostly the one of the last day. */
static int entry_index(const struct report *r, const char *what, int last)
{
	int i;

	if (last >= 0 && last < r->n && same(r->entries[last].what, what))
		return last;
	for (i = 0; i < r->n; i++)
		if (same(r->entries[i].what, what))
			return i;
	return -1;
}

static int add_day(const struct usage_day *d, void *arg)
{
	struct read_ctx *c = arg;
	int i = entry_index(c->r, d->what, c->last);

	/* Days of an entry with no use in the window (--since) are not plotted. */
	if (i >= 0)
		html_plot_add(&c->h->plots[i], d->exe, d->day, d->count);
	c->last = i;
	return 0;
}

/* Sessions come ordered by host, then start. */
static int add_session(const struct usage_session *u, void *arg)
{
	const char *host = u->host;
	long long started = u->started, last_sync = u->last_sync;
	struct read_ctx *c = arg;
	struct report_html *p = c->h;
	struct rhost *h = p->nhosts ? &p->hosts[p->nhosts - 1] : NULL;
	struct html_span *sp;

	/* --since: the sessions that ran since. */
	if (c->r->filter->since && last_sync < c->r->filter->since)
		return 0;
	if (!h || strcmp(h->host, host)) {
		h = GROW(p->hosts, p->nhosts, p->hcap);
		memset(h, 0, sizeof(*h));
		h->host = xstrdup(host);
	}
	sp = GROW(h->s, h->n, h->cap);
	sp->start = started;
	sp->end = last_sync;
	p->nsessions++;
	if (started < p->first)
		p->first = started;
	if (last_sync > p->last)
		p->last = last_sync;
	return 0;
}

static int read_more(struct store *s, struct report *r, void *arg)
{
	struct read_ctx c = { r, arg, -1 };
	int ret = 0;

	c.h->plots = xcalloc(r->n + 1, sizeof(*c.h->plots));
	c.h->has_days = store_has_days(s);
	if (c.h->has_days)
		ret = store_each_day(s, r->filter, add_day, &c);
	if (!ret)
		ret = store_each_session(s, add_session, &c);
	return ret;
}

struct report_html *report_html_new(struct report *r)
{
	struct report_html *h = xcalloc(1, sizeof(*h));

	h->first = LLONG_MAX;
	h->last = LLONG_MIN;
	r->read_more = read_more;
	r->read_more_arg = h;
	return h;
}

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

/* report's users @u[0..n) of one executable (in its order), summed. */
static void exe_sum(struct rexe *x, const struct user *u, int n)
{
	int i, h, k;

	memset(x, 0, sizeof(*x));
	x->exe = u->exe;
	x->package = u->package;
	x->ignored = u->ignored;
	x->sum.first_seen = LLONG_MAX;
	x->sum.last_seen = LLONG_MIN;
	for (i = 0; i < n; i++) {
		usage_add(&x->sum, &u[i].counts);
		if (report_boot_earlier(&u[i].boot, &x->boot))
			x->boot = u[i].boot;
		for (h = 0; h < u[i].nhosts; h++) {
			for (k = 0; k < x->nhosts && strcmp(x->hosts[k], u[i].hosts[h].host); k++)
				;
			if (k == x->nhosts)
				*GROW(x->hosts, x->nhosts, x->hcap) = u[i].hosts[h].host;
		}
		for (k = 0; k < x->nuids && x->uids[k] != u[i].uid; k++)
			;
		if (k == x->nuids)
			*GROW(x->uids, x->nuids, x->ucap) = u[i].uid;
		add_op(x->ops, sizeof(x->ops), u[i].op);
	}
}

/* ---- the page ---- */

/* Hosts named per executable; the rest counted (-j lists them). */
#define HOSTS_NAMED 3

static void exe_row(FILE *f, const struct rexe *x)
{
	char *boot;
	int k;

	fputs("<tr class=\"exe\" data-exe=\"", f);
	html_esc(f, x->exe);
	fprintf(f, "\" data-uses=\"%llu\" data-hosts=\"%d\"", x->sum.count, x->nhosts);
	/* During boot: how early; the seconds after boot when known. */
	if (x->boot.stage)
		fprintf(f, " data-boot-stage=\"%s\"", x->boot.stage);
	if (x->boot.stage && x->boot.after_boot >= 0)
		fprintf(f, " data-after-boot=\"%lld\"", x->boot.after_boot);
	fputs("><td class=\"path\">", f);
	html_esc(f, x->exe);
	fputs("</td><td>", f);
	html_esc(f, x->package ? x->package : "-");
	fputs("</td><td>", f);
	if (x->ignored) {
		fputs("known enumerator: ", f);
		html_esc(f, x->ignored->reason);
	} else {
		fputs(usage_all_swept(&x->sum) ? "sweep" : "by-name", f);
	}
	fprintf(f, "</td><td class=\"n\">%d</td><td>", x->nhosts);
	for (k = 0; k < x->nhosts && k < HOSTS_NAMED; k++) {
		fputs(k ? ", " : "", f);
		html_esc(f, x->hosts[k]);
	}
	if (x->nhosts > HOSTS_NAMED)
		fprintf(f, " and %d more", x->nhosts - HOSTS_NAMED);
	fputs("</td><td>", f);
	for (k = 0; k < x->nuids && k < HOSTS_NAMED; k++)
		fprintf(f, "%s%u", k ? ", " : "", x->uids[k]);
	if (x->nuids > HOSTS_NAMED)
		fprintf(f, " and %d more", x->nuids - HOSTS_NAMED);
	fputs("</td><td>", f);
	html_esc(f, x->ops);
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

/* An entry's users, a row per executable (users come sorted by it). */
static void exe_rows(FILE *f, const struct entry *e)
{
	struct rexe x;
	int k, n;

	for (k = 0; k < e->nusers; k = n) {
		for (n = k + 1; n < e->nusers && !strcmp(e->users[n].exe, e->users[k].exe); n++)
			;
		exe_sum(&x, &e->users[k], n - k);
		exe_row(f, &x);
		free(x.hosts);
		free(x.uids);
	}
}

static void entry_section(FILE *f, const struct report *r, struct report_html *h, int i)
{
	const struct entry *e = &r->entries[i];
	struct html_plot *plot = &h->plots[i];
	long long first, last;

	fputs("<section class=\"entry\" data-what=\"", f);
	html_esc(f, e->what);
	fputs("\">\n<h3>", f);
	html_esc(f, e->what ? e->what : "(unknown entry)");
	fputs("</h3>\n<table class=\"users\">\n<tr><th>executable</th><th>package</th><th>how</th>"
	      "<th>hosts</th><th>host names</th><th>uids</th><th>ops</th><th>uses</th>"
	      "<th>swept</th><th>failed</th><th>first use</th><th>last use</th>"
	      "<th>during boot</th></tr>\n", f);
	exe_rows(f, e);
	fputs("</table>\n", f);
	if (!h->has_days)
		fputs("<p class=\"note plot-none\">No daily history in this DB (older abidep): "
		      "the table above totals the uses.</p>\n", f);
	else if (!html_plot_days(plot, &first, &last))
		fputs("<p class=\"note plot-none\">No use in the daily history.</p>\n", f);
	else {
		fputs("<p>Uses per day (UTC), by executable, every uid, op and host:</p>\n", f);
		html_plot_svg(f, plot, r->filter->since && r->filter->since < first ?
			      r->filter->since : first, last, LLONG_MIN, NULL);
	}
	fputs("</section>\n", f);
}

/* Hosts on the timeline; the rest counted. */
#define REPORT_HTML_HOSTS 100

static void hosts(FILE *f, const struct report_html *p)
{
	int i;

	fprintf(f, "<h2>Tracer sessions</h2>\n<section id=\"sessions\" data-hosts=\"%d\" data-sessions=\"%lld\">\n",
		p->nhosts, p->nsessions);
	if (!p->nsessions) {
		fputs("<p class=\"note\">No sessions in this DB (older abidep, or none since --since).</p>\n</section>\n", f);
		return;
	}
	fputs("<table id=\"hosts\">\n<tr><th>host</th><th>sessions</th><th>first start</th>"
	      "<th>last sync</th><th>", f);
	html_timeline_scale(f, p->first, p->last);
	fputs("</th></tr>\n", f);
	for (i = 0; i < p->nhosts && i < REPORT_HTML_HOSTS; i++) {
		const struct rhost *h = &p->hosts[i];
		long long last = LLONG_MIN;
		int k;

		for (k = 0; k < h->n; k++)
			if (h->s[k].end > last)
				last = h->s[k].end;
		fputs("<tr class=\"host\" data-host=\"", f);
		html_esc(f, h->host);
		fprintf(f, "\" data-sessions=\"%d\"><td class=\"path\">", h->n);
		html_esc(f, h->host);
		fprintf(f, "</td><td class=\"n\">%d</td><td class=\"t\">", h->n);
		html_time(f, h->s[0].start);
		fputs("</td><td class=\"t\">", f);
		html_time(f, last);
		fputs("</td><td>", f);
		html_timeline_svg(f, p->first, p->last, h->s, h->n, LLONG_MAX);
		fputs("</td></tr>\n", f);
	}
	if (p->nhosts > REPORT_HTML_HOSTS)
		fprintf(f, "<tr class=\"more\"><td colspan=\"5\">and %d more hosts</td></tr>\n",
			p->nhosts - REPORT_HTML_HOSTS);
	fputs("</table>\n</section>\n", f);
}

void report_html_print(struct report_html *h, const struct report *r, const char *db,
		       long long rows, FILE *f)
{
	const struct store_filter *sf = r->filter;
	int i;

	html_begin(f, "abidep report");
	fputs("<h1>abidep report</h1>\n<p>Usage DB <span class=\"path\">", f);
	html_esc(f, db);
	fprintf(f, "</span>: %lld row%s", rows, rows == 1 ? "" : "s");
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
	/* Entries unknown to the tracer (What NULL) last: collect() puts them so. */
	for (i = 0; i < r->n; i++)
		entry_section(f, r, h, i);
	hosts(f, h);
	html_end(f);
}

void report_html_free(struct report_html *h, const struct report *r)
{
	int i;

	if (!h)
		return;
	for (i = 0; h->plots && i < r->n; i++)
		html_plot_free(&h->plots[i]);
	free(h->plots);
	for (i = 0; i < h->nhosts; i++) {
		free(h->hosts[i].host);
		free(h->hosts[i].s);
	}
	free(h->hosts);
	free(h);
}
