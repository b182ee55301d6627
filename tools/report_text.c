// SPDX-License-Identifier: GPL-2.0
/*
 * abidep report for people, tickets and spreadsheets (report.h). Per
 * entry a heading (What, status, table, files) and its users: text and
 * Markdown sum them per executable across hosts, uids, cgroups and
 * operations, with capped lists (a fleet's thousand hosts would fill a
 * line each); --by-host gives a row per (exe, uid, cgroup, op, host).
 * CSV has a row per (exe, uid, cgroup, op), summed over hosts, as JSON.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "utctime.h"
#include "report.h"
#include "tabular.h"
#include "text.h"
#include "util.h"

const char *report_how(const struct usage_counts *c)
{
	return usage_all_swept(c) ? "sweep" : "by-name";
}

char *report_boot_text(const struct report_boot *b)
{
	if (!b->stage)
		return xstrdup("-");
	if (b->after_boot < 0)
		return xstrdup(b->stage);
	return xasprintf("%s, +%lld s", b->stage, b->after_boot);
}

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

/* ---- summed per executable ---- */

enum { S_EXE, S_PKG, S_MAINT, S_UIDS, S_CGROUPS, S_OPS, S_HOW, S_BOOT, S_COUNT, S_ERRORS,
       S_LAST, S_HOSTS, S_NCOLS };

/*
 * BOOT: whether a use was during boot (report_boot_text()). MAINTAINER: the
 * package's, in Markdown only (a terminal has no room for it).
 */
static const struct table_col sum_cols[S_NCOLS] = {
	{ "EXE", TC_FLEX | TC_LITERAL }, { "PACKAGE", TC_SHRINK | TC_LITERAL },
	{ "MAINTAINER", TC_NOTEXT | TC_LITERAL }, { "UIDS", TC_SHRINK },
	{ "CGROUPS", TC_SHRINK | TC_LITERAL }, { "OPS", 0 }, { "HOW", 0 }, { "BOOT", 0 },
	{ "COUNT", TC_RIGHT }, { "ERRORS", TC_RIGHT }, { "LAST-SEEN", 0 },
	{ "HOSTS", TC_SHRINK | TC_LITERAL },
};

/* The distinct @ops as "open,read", as check shows them. */
static char *ops_text(char **ops, int n)
{
	char *text = distinct_list(ops, n, 0), *p, *q;

	for (p = q = text; *p; p++)
		if (!(*p == ' ' && p > text && p[-1] == ','))
			*q++ = *p;
	*q = '\0';
	return text;
}

/* One row for the users of one executable, summed. */
static void add_sum(struct table *t, int layout, const struct report_exe *x, int cap)
{
	const struct report_user *u = x->users;
	int i, h, n = x->nusers, nhosts = 0;
	unsigned int *uids = xmalloc(n * sizeof(*uids));
	char **cgroups = xmalloc(n * sizeof(char *)), **ops = xmalloc(n * sizeof(char *));
	char **hosts, **col = table_row(t, layout), tm[64];

	for (i = 0; i < n; i++) {
		uids[i] = u[i].uid;
		cgroups[i] = (char *)or_dash(u[i].cgroup);
		ops[i] = u[i].op;
		nhosts += u[i].nhosts;
	}
	hosts = xmalloc((nhosts + 1) * sizeof(char *));
	for (i = 0, nhosts = 0; i < n; i++)
		for (h = 0; h < u[i].nhosts; h++)
			hosts[nhosts++] = u[i].hosts[h].host;
	col[S_EXE] = xstrdup(u->exe);
	col[S_PKG] = xstrdup(or_dash(u->package));
	col[S_MAINT] = xstrdup(or_dash(u->package_maintainer));
	col[S_UIDS] = uids_list(uids, n, cap);
	col[S_CGROUPS] = distinct_list(cgroups, n, cap);
	col[S_OPS] = ops_text(ops, n);
	col[S_HOW] = xstrdup(report_how(&x->sum));
	col[S_BOOT] = report_boot_text(&x->boot);
	col[S_COUNT] = xasprintf("%llu", x->sum.count);
	col[S_ERRORS] = xasprintf("%llu", x->sum.errors);
	col[S_LAST] = xstrdup(iso_time(x->sum.last_seen, tm, sizeof(tm)));
	col[S_HOSTS] = distinct_list(hosts, nhosts, cap);
	free(uids);
	free(cgroups);
	free(ops);
	free(hosts);
}

/* ---- a row per host ---- */

enum { H_EXE, H_PKG, H_MAINT, H_UID, H_CGROUP, H_OP, H_HOW, H_BOOT, H_COUNT, H_SWEPT,
       H_ERRORS, H_FIRST, H_LAST, H_HOST, H_NCOLS };

static const struct table_col host_cols[H_NCOLS] = {
	{ "EXE", TC_FLEX | TC_LITERAL }, { "PACKAGE", TC_SHRINK | TC_LITERAL },
	{ "MAINTAINER", TC_NOTEXT | TC_LITERAL }, { "UID", TC_RIGHT },
	{ "CGROUP", TC_SHRINK | TC_LITERAL }, { "OP", 0 }, { "HOW", 0 }, { "BOOT", 0 },
	{ "COUNT", TC_RIGHT }, { "SWEPT", TC_RIGHT }, { "ERRORS", TC_RIGHT },
	{ "FIRST-SEEN", 0 }, { "LAST-SEEN", 0 }, { "HOST", TC_SHRINK | TC_LITERAL },
};

static void add_host_rows(struct table *t, int layout, const struct report_user *u)
{
	char tm[64];
	int h;

	for (h = 0; h < u->nhosts; h++) {
		const struct usage_counts *c = &u->hosts[h].counts;
		char **col = table_row(t, layout);

		col[H_EXE] = xstrdup(u->exe);
		col[H_PKG] = xstrdup(or_dash(u->package));
		col[H_MAINT] = xstrdup(or_dash(u->package_maintainer));
		col[H_UID] = xasprintf("%u", u->uid);
		col[H_CGROUP] = xstrdup(or_dash(u->cgroup));
		col[H_OP] = xstrdup(u->op);
		col[H_HOW] = xstrdup(report_how(c));
		col[H_BOOT] = report_boot_text(&u->hosts[h].boot);
		col[H_COUNT] = xasprintf("%llu", c->count);
		col[H_SWEPT] = xasprintf("%llu", c->swept);
		col[H_ERRORS] = xasprintf("%llu", c->errors);
		col[H_FIRST] = xstrdup(iso_time(c->first_seen, tm, sizeof(tm)));
		col[H_LAST] = xstrdup(iso_time(c->last_seen, tm, sizeof(tm)));
		col[H_HOST] = xstrdup(u->hosts[h].host);
	}
}

/* ---- the document ---- */

/* An entry's users that are known enumerators, each executable once. */
static void add_enumerators(struct table *t, const struct report_entry *e)
{
	int k;

	for (k = 0; k < e->nusers; k++) {
		const struct report_user *u = &e->users[k];

		if (!u->ignored || (k && !strcmp(e->users[k - 1].exe, u->exe)))
			continue;
		table_line(t, 2, "enumerated by %s (%s): abidep check does not count it",
			   u->exe, u->ignored->reason);
	}
}

/*
 * A heading per entry, then its users in columns, aligned across the
 * whole report:
 *
 * /sys/class/rc/rcN/current_protocol (deprecated, sysfs-class-rc): /sys/class/rc/rc0/current_protocol
 *   EXE           PACKAGE    UIDS  CGROUPS  OPS   HOW      COUNT  ERRORS  LAST-SEEN  HOSTS
 *   /usr/bin/cat  coreutils  0     -        read  by-name      3       0  ...        h1, h2
 */
/* How many of the uses were during boot: those a tracer loaded late would miss. */
static void add_boots(struct table *t, const struct report *r)
{
	if (!r->nboot)
		return;
	table_blank(t);
	table_line(t, 0, "uses during boot: %d of %d (first seen before their session's first sync, in a boot traced from the initramfs or before udev: BOOT)",
		   r->nboot, r->nusers);
}

/* What the tracer lost: the counts above are lower bounds. */
static void add_losses(struct table *t, const struct report *r)
{
	char tm[64];
	int i;

	if (!r->nlosses)
		return;
	if (r->n)
		table_blank(t);
	table_line(t, 0, "the tracer lost accesses on %d host%s: the counts above may miss uses",
		   r->nlosses, r->nlosses == 1 ? "" : "s");
	for (i = 0; i < r->nlosses; i++) {
		const struct report_loss *l = &r->losses[i];

		table_line(t, 2, "host %s: %llu accesses not recorded (usage map full, or a uid over its quota), %llu runs skipped by the kernel (up to as many accesses), the latest seen at the sync of %s",
			   l->host, l->unrecorded, l->skipped, iso_time(l->lost_at, tm, sizeof(tm)));
	}
}

/*
 * Where a boot's wall clock was stepped: its times are placed by its best
 * reading (the latest synchronized, or the last), those before the step
 * too.
 */
static void add_clock_steps(struct table *t, const struct report *r)
{
	char tm[64], *size;
	int i, k, n = 0;

	for (i = 0; i < r->clocks.n; i++)
		n += r->clocks.b[i].nsteps;
	if (!n)
		return;
	table_blank(t);
	table_line(t, 0, "the wall clock was stepped %d time%s: each boot's times above are placed by its best reading (its latest synchronized, else its last), those before a step too",
		   n, n == 1 ? "" : "s");
	for (i = 0; i < r->clocks.n; i++) {
		const struct boot_clock *b = &r->clocks.b[i];

		for (k = 0; k < b->nsteps; k++) {
			size = clock_step_text(b->steps[k].seconds);
			table_line(t, 2, "host %s: boot %.8s: stepped %s at %s (%s)%s", b->host, b->boot,
				   size, iso_time(b->steps[k].at, tm, sizeof(tm)),
				   b->steps[k].synced ? "synchronized" : "not synchronized",
				   b->synced ? "" : "; the boot's clock was never synchronized");
			free(size);
		}
	}
}

static void build_text(struct table *t, const struct report *r, bool by_host)
{
	int layout = by_host ? table_layout(t, 2, H_NCOLS, host_cols) :
			       table_layout(t, 2, S_NCOLS, sum_cols);
	int cap = by_host ? 0 : NAMES_SHOWN, i, k;
	char *files;

	for (i = 0; i < r->n; i++) {
		const struct report_entry *e = &r->entries[i];

		if (i)
			table_blank(t);
		files = names_list(e->files, e->nfiles, cap);
		table_title(t, "%s (%s, %s): %s", e->what ? e->what : "(unknown entry)",
			    e->status ? e->status : "?", e->table ? e->table : "?", files);
		free(files);
		table_head(t, layout, NULL);
		if (!by_host)
			for (k = 0; k < e->nexes; k++)
				add_sum(t, layout, &e->exes[k], cap);
		else
			for (k = 0; k < e->nusers; k++)
				add_host_rows(t, layout, &e->users[k]);
		add_enumerators(t, e);
	}
	add_boots(t, r);
	add_losses(t, r);
	add_clock_steps(t, r);
}

/* ---- CSV: a row per user ---- */

enum { C_ENTRY, C_TABLE, C_STATUS, C_EXE, C_PKG, C_UID, C_CGROUP, C_OP, C_HOW, C_COUNT,
       C_SWEPT, C_ERRORS, C_FIRST, C_LAST, C_NHOSTS, C_HOSTS, C_ENUM, C_BOOT, C_AFTER,
       C_MAINT, C_SOURCE, C_NCOLS };

/*
 * boot_stage and boot_after_s: empty when not during boot, or not known.
 * New columns go at the end: a script may read them by position.
 */
static const struct table_col csv_cols[C_NCOLS] = {
	{ "entry", 0 }, { "table", 0 }, { "status", 0 }, { "exe", 0 }, { "package", 0 },
	{ "uid", 0 }, { "cgroup", 0 }, { "op", 0 }, { "how", 0 }, { "count", 0 },
	{ "swept", 0 }, { "errors", 0 }, { "first_seen", 0 }, { "last_seen", 0 },
	{ "hosts", 0 }, { "host_names", 0 }, { "enumerated", 0 }, { "boot_stage", 0 },
	{ "boot_after_s", 0 }, { "maintainer", 0 }, { "source_package", 0 },
};

static void csv_user(struct table *t, int layout, const struct report_entry *e, const struct report_user *u)
{
	char **col = table_row(t, layout), tm[64], *p;
	size_t len = 1;
	int h;

	col[C_ENTRY] = xstrdup(e->what ? e->what : "");
	col[C_TABLE] = xstrdup(e->table ? e->table : "");
	col[C_STATUS] = xstrdup(e->status ? e->status : "");
	col[C_EXE] = xstrdup(u->exe);
	col[C_PKG] = xstrdup(u->package ? u->package : "");
	col[C_UID] = xasprintf("%u", u->uid);
	col[C_CGROUP] = xstrdup(u->cgroup ? u->cgroup : "");
	col[C_OP] = xstrdup(u->op);
	col[C_HOW] = xstrdup(report_how(&u->counts));
	col[C_COUNT] = xasprintf("%llu", u->count);
	col[C_SWEPT] = xasprintf("%llu", u->swept);
	col[C_ERRORS] = xasprintf("%llu", u->errors);
	col[C_FIRST] = xstrdup(iso_time(u->first_seen, tm, sizeof(tm)));
	col[C_LAST] = xstrdup(iso_time(u->last_seen, tm, sizeof(tm)));
	col[C_NHOSTS] = xasprintf("%d", u->nhosts);
	/* All of them, separated by spaces. */
	for (h = 0; h < u->nhosts; h++)
		len += strlen(u->hosts[h].host) + 1;
	col[C_HOSTS] = p = xcalloc(1, len);
	for (h = 0; h < u->nhosts; h++)
		p += sprintf(p, "%s%s", h ? " " : "", u->hosts[h].host);
	col[C_ENUM] = xstrdup(u->ignored ? u->ignored->reason : "");
	col[C_BOOT] = xstrdup(u->boot.stage ? u->boot.stage : "");
	col[C_AFTER] = u->boot.stage && u->boot.after_boot >= 0 ?
		       xasprintf("%lld", u->boot.after_boot) : xstrdup("");
	col[C_MAINT] = xstrdup(u->package_maintainer ? u->package_maintainer : "");
	col[C_SOURCE] = xstrdup(u->package_source ? u->package_source : "");
}

static void build_csv(struct table *t, const struct report *r)
{
	int layout = table_layout(t, 0, C_NCOLS, csv_cols), i, k;

	table_head(t, layout, NULL);
	for (i = 0; i < r->n; i++)
		for (k = 0; k < r->entries[i].nusers; k++)
			csv_user(t, layout, &r->entries[i], &r->entries[i].users[k]);
}

void report_print(const struct report *r, bool by_host, FILE *out, enum out_format f,
		  int width)
{
	struct table *t = table_new();

	if (f == FMT_CSV)
		build_csv(t, r);
	else
		build_text(t, r, by_host);
	table_print(t, out, f, width);
	table_free(t);
}
