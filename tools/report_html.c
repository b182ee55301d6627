// SPDX-License-Identifier: GPL-2.0
/*
 * abidep report --format html: check's page (check_html.c) without the
 * verdicts. Per entry (What) its users summed per executable over uids,
 * cgroups, ops and hosts, and its daily use by executable; per host its
 * tracer sessions on one timeline. Read in one snapshot of the DB, as the
 * text report is; the figures are in the DOM (data-*) as on check's page.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "abidep.h"
#include "check_time.h"
#include "output.h"
#include "owner.h"
#include "html.h"
#include "report_html.h"
#include "util.h"

/* An executable's use of an entry, summed. */
struct rexe {
	char *exe;
	const char *package;		/* the package database's; NULL: none */
	const struct abi_ignore *ignored;	/* a known enumerator */
	struct usage_counts sum;
	char ops[64];			/* "read,open" */
	char **hosts;
	int nhosts, hcap;
	unsigned int *uids;
	int nuids, ucap;
};

struct rentry {
	char *what;			/* NULL: unknown to the tracer */
	const struct abi_entry *abi;
	struct rexe *exes;
	int n, cap;
	struct html_plot plot;
};

struct rhost {
	char *host;
	struct html_span *s;
	int n, cap;
};

struct rpage {
	const struct abi_set *set;
	struct owner *owner;
	const struct store_filter *f;
	const char *db;
	long long rows;
	struct rentry *e;
	int n, cap;
	struct rhost *hosts;
	int nhosts, hcap;
	long long nsessions, first, last;	/* the sessions' span */
	bool has_days;
};

/* ---- reading ---- */

static bool same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* The entry of @what: sums and days come in What order, so mostly the last. */
static struct rentry *entry_of(struct rpage *p, const char *what, bool add)
{
	struct rentry *e;
	int i;

	for (i = p->n - 1; i >= 0; i--)
		if (same(p->e[i].what, what))
			return &p->e[i];
	if (!add)
		return NULL;
	e = GROW(p->e, p->n, p->cap);
	memset(e, 0, sizeof(*e));
	e->what = what ? xstrdup(what) : NULL;
	e->abi = abi_entry_of_what(p->set, what);
	return e;
}

static struct rexe *exe_of(struct rpage *p, struct rentry *e, const char *exe)
{
	struct rexe *x = e->n ? &e->exes[e->n - 1] : NULL;

	if (x && !strcmp(x->exe, exe))
		return x;
	x = GROW(e->exes, e->n, e->cap);
	memset(x, 0, sizeof(*x));
	x->exe = xstrdup(exe);
	x->package = owner_of(p->owner, exe, NULL);
	x->ignored = p->set ? abi_ignored(p->set, e->abi, exe) : NULL;
	x->sum.first_seen = LLONG_MAX;
	x->sum.last_seen = LLONG_MIN;
	return x;
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

static int add_sum(const struct usage_sum *u, void *arg)
{
	struct rpage *p = arg;
	struct rexe *x = exe_of(p, entry_of(p, u->what, true), u->exe);
	int k;

	usage_add(&x->sum, &u->counts);
	for (k = 0; k < x->nhosts && strcmp(x->hosts[k], u->host); k++)
		;
	if (k == x->nhosts)
		*GROW(x->hosts, x->nhosts, x->hcap) = xstrdup(u->host);
	for (k = 0; k < x->nuids && x->uids[k] != u->uid; k++)
		;
	if (k == x->nuids)
		*GROW(x->uids, x->nuids, x->ucap) = u->uid;
	add_op(x->ops, sizeof(x->ops), u->op);
	return 0;
}

static int add_day(const struct usage_day *d, void *arg)
{
	struct rentry *e = entry_of(arg, d->what, false);

	if (e)
		html_plot_add(&e->plot, d->exe, d->day, d->count);
	return 0;
}

/* Sessions come ordered by host, then start. */
static int add_session(const struct usage_session *u, void *arg)
{
	const char *host = u->host;
	long long started = u->started, last_sync = u->last_sync;
	struct rpage *p = arg;
	struct rhost *h = p->nhosts ? &p->hosts[p->nhosts - 1] : NULL;
	struct html_span *sp;

	/* --since: the sessions that ran since. */
	if (p->f->since && last_sync < p->f->since)
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

static int read_page(struct store *s, struct rpage *p)
{
	int ret;

	if (store_begin(s))
		return -1;
	p->rows = store_rows(s);
	p->has_days = store_has_days(s);
	ret = p->rows < 0 ? -1 : store_sums(s, p->f, add_sum, p);
	if (!ret && p->has_days)
		ret = store_each_day(s, p->f, add_day, p);
	if (!ret)
		ret = store_each_session(s, add_session, p);
	if (ret) {
		store_rollback(s);
		return -1;
	}
	return store_commit(s);
}

/* ---- the page ---- */

/* Hosts named per executable; the rest counted (-j lists them). */
#define HOSTS_NAMED 3

static void exe_row(FILE *f, const struct rexe *x)
{
	int k;

	fputs("<tr class=\"exe\" data-exe=\"", f);
	html_esc(f, x->exe);
	fprintf(f, "\" data-uses=\"%llu\" data-hosts=\"%d\"><td class=\"path\">", x->sum.count,
		x->nhosts);
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
	fputs("</td></tr>\n", f);
}

static void entry_section(FILE *f, struct rpage *p, struct rentry *e)
{
	long long first, last;
	int k;

	fputs("<section class=\"entry\" data-what=\"", f);
	html_esc(f, e->what);
	fputs("\">\n<h3>", f);
	html_esc(f, e->what ? e->what : "(unknown entry)");
	fputs("</h3>\n<table class=\"users\">\n<tr><th>executable</th><th>package</th><th>how</th>"
	      "<th>hosts</th><th>host names</th><th>uids</th><th>ops</th><th>uses</th>"
	      "<th>swept</th><th>failed</th><th>first use</th><th>last use</th></tr>\n", f);
	for (k = 0; k < e->n; k++)
		exe_row(f, &e->exes[k]);
	fputs("</table>\n", f);
	if (!p->has_days)
		fputs("<p class=\"note plot-none\">No daily history in this DB (older abidep): "
		      "the table above totals the uses.</p>\n", f);
	else if (!html_plot_days(&e->plot, &first, &last))
		fputs("<p class=\"note plot-none\">No use in the daily history.</p>\n", f);
	else {
		fputs("<p>Uses per day (UTC), by executable, every uid, op and host:</p>\n", f);
		html_plot_svg(f, &e->plot, p->f->since && p->f->since < first ? p->f->since : first,
			      last, LLONG_MIN, NULL);
	}
	fputs("</section>\n", f);
}

/* Hosts on the timeline; the rest counted. */
#define REPORT_HTML_HOSTS 100

static void hosts(FILE *f, const struct rpage *p)
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

static void page(FILE *f, struct rpage *p)
{
	int i, pass;

	html_begin(f, "abidep report");
	fputs("<h1>abidep report</h1>\n<p>Usage DB <span class=\"path\">", f);
	html_esc(f, p->db);
	fprintf(f, "</span>: %lld row%s", p->rows, p->rows == 1 ? "" : "s");
	if (p->f->entry) {
		fputs("; --entry ", f);
		html_esc(f, p->f->entry);
	}
	if (p->f->since) {
		fputs("; uses since ", f);
		html_time(f, p->f->since);
	}
	if (p->f->until) {
		fputs("; uses until ", f);
		html_time(f, p->f->until);
	}
	fprintf(f, ".</p>\n<h2>Entries</h2>\n");
	if (!p->n)
		fputs("<p class=\"note\">No use recorded matches.</p>\n", f);
	/* Entries unknown to the tracer (What NULL) last, as in the text. */
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < p->n; i++)
			if (!p->e[i].what == (bool)pass)
				entry_section(f, p, &p->e[i]);
	hosts(f, p);
	html_end(f);
}

static void page_free(struct rpage *p)
{
	int i, k, h;

	for (i = 0; i < p->n; i++) {
		for (k = 0; k < p->e[i].n; k++) {
			struct rexe *x = &p->e[i].exes[k];

			for (h = 0; h < x->nhosts; h++)
				free(x->hosts[h]);
			free(x->hosts);
			free(x->uids);
			free(x->exe);
		}
		free(p->e[i].exes);
		free(p->e[i].what);
		html_plot_free(&p->e[i].plot);
	}
	free(p->e);
	for (i = 0; i < p->nhosts; i++) {
		free(p->hosts[i].host);
		free(p->hosts[i].s);
	}
	free(p->hosts);
}

int report_html(struct store *s, const struct store_filter *f, struct owner *owner,
		const struct abi_set *set, const char *db, const char *out)
{
	struct rpage p = { .set = set, .owner = owner, .f = f, .db = db,
			   .first = LLONG_MAX, .last = LLONG_MIN };
	struct output o;
	char err[1024];
	int ret = EX_OK;

	if (read_page(s, &p)) {
		fprintf(stderr, "abidep: cannot read the usage DB %s: %s\n", db, store_errmsg(s));
		ret = EX_DB;
	} else if (output_open(&o, out, err, sizeof(err))) {
		fprintf(stderr, "abidep: %s\n", err);
		ret = EX_USAGE;
	} else {
		page(o.f, &p);
		if (output_close(&o, err, sizeof(err))) {
			fprintf(stderr, "abidep: %s\n", err);
			ret = EX_USAGE;
		}
	}
	page_free(&p);
	return ret;
}
