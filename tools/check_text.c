// SPDX-License-Identifier: GPL-2.0
/*
 * abidep check's output for people, tickets and spreadsheets
 * (check_text.h). A fleet's DB has a use per (executable, uid, host): the
 * text and Markdown sum them per executable across hosts, one row each,
 * with the hosts and uids as capped lists; --by-host gives the line per
 * (executable, uid, host). CSV, like JSON, has every use.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "check_text.h"
#include "utctime.h"
#include "tabular.h"
#include "text.h"
#include "util.h"

const char *check_enum_reason(const struct check_use *u)
{
	return u->ignored ? u->ignored->reason : "swept its directory";
}

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

static char *ops_text(unsigned int ops)
{
	char buf[64] = "";
	int i;

	for (i = 0; i < NOPS; i++)
		if (ops & (1u << i)) {
			if (buf[0])
				strcat(buf, ",");
			strcat(buf, check_op_names[i]);
		}
	return xstrdup(buf);
}

/* ---- the verdict table ---- */

enum { V_ENTRY, V_REPL, V_DEPR, V_REMOVE, V_VERDICT, V_BLOCKERS, V_NCOLS };

static const struct table_col verdict_cols[V_NCOLS] = {
	{ "ENTRY", TC_FLEX | TC_LITERAL }, { "REPLACED-BY", TC_FLEX | TC_LITERAL },
	{ "DEPRECATED", 0 }, { "REMOVE-AFTER", 0 }, { "VERDICT", 0 }, { "BLOCKERS", 0 },
};

static void add_verdict(struct table *t, int layout, const struct check_entry *ce)
{
	const struct abi_entry *e = ce->e;
	char **col = table_row(t, layout);

	/* The first of several, as "(+N)": JSON has them all. */
	col[V_ENTRY] = e->nwhat > 1 ? xasprintf("%s (+%d)", e->what[0], e->nwhat - 1) :
				      xstrdup(e->what[0]);
	col[V_REPL] = !e->nreplaced ? xstrdup("none") :
		      e->nreplaced > 1 ? xasprintf("%s (+%d)", e->replaced_by[0], e->nreplaced - 1) :
		      xstrdup(e->replaced_by[0]);
	col[V_DEPR] = xstrdup(or_dash(e->field[ABI_DEPRECATED]));
	col[V_REMOVE] = e->status == ABI_ST_REMOVED ?
		xasprintf("removed%s%s", e->field[ABI_REMOVED] ? " " : "",
			  e->field[ABI_REMOVED] ? e->field[ABI_REMOVED] : "") :
		xstrdup(or_dash(e->field[ABI_REMOVE_AFTER]));
	col[V_VERDICT] = xstrdup(verdict_name(ce->verdict));
	col[V_BLOCKERS] = ce->verdict == V_BLOCKED ?
		xasprintf("%d", ce->nuses + ce->nblocking_refs) : xstrdup("-");
}

/* ---- uses, per (exe, uid, host): --by-host ---- */

/*
 * "3 uses (open,read)", how many were swept if any, and how many were of
 * the quiet window's days when the daily history tells.
 */
static char *uses_text(const struct check_use *u)
{
	char *ops = ops_text(u->ops), swept[48] = "", window[48] = "", *text;

	if (u->swept)
		snprintf(swept, sizeof(swept), ", %llu swept", u->swept);
	if (u->recent >= 0)
		snprintf(window, sizeof(window), ", %lld in the window", u->recent);
	text = xasprintf("%llu uses (%s)%s%s", u->count, ops, swept, window);
	free(ops);
	return text;
}

static void add_use_lines(struct table *t, const struct check_entry *ce)
{
	char tm[64], *uses;
	int k;

	for (k = 0; k < ce->nuses; k++) {
		const struct check_use *u = &ce->uses[k];

		uses = uses_text(u);
		table_line(t, 2, "used by %s (package %s, uid %u, host %s): %s, %llu failed, last %s",
			   u->exe, or_dash(u->package), u->uid, u->host, uses, u->errors,
			   iso_time(u->last_seen, tm, sizeof(tm)));
		free(uses);
	}
	for (k = 0; k < ce->nenums; k++) {
		const struct check_use *u = &ce->enums[k];

		uses = uses_text(u);
		table_line(t, 2, "enumerated by %s (%s), not blocking (package %s, uid %u, host %s): %s, %llu failed, last %s",
			   u->exe, check_enum_reason(u), or_dash(u->package), u->uid, u->host,
			   uses, u->errors, iso_time(u->last_seen, tm, sizeof(tm)));
		free(uses);
	}
}

/* ---- uses summed per executable ---- */

enum {
	U_EXE, U_PKG, U_MAINT, U_UIDS, U_USES, U_WINDOW, U_FAILED, U_OPS, U_LAST, U_HOSTS,
	U_WHY, U_NCOLS
};

/*
 * IN-WINDOW: of USES, those of the quiet window's days (the daily history).
 * MAINTAINER: the package's, in Markdown only (a terminal has no room).
 */
static const struct table_col use_cols[U_NCOLS] = {
	{ "USED BY", TC_FLEX | TC_LITERAL }, { "PACKAGE", TC_SHRINK | TC_LITERAL },
	{ "MAINTAINER", TC_NOTEXT | TC_LITERAL }, { "UIDS", TC_SHRINK }, { "USES", TC_RIGHT },
	{ "IN-WINDOW", TC_RIGHT }, { "FAILED", TC_RIGHT }, { "OPS", 0 }, { "LAST-SEEN", 0 },
	{ "HOSTS", TC_SHRINK | TC_LITERAL }, { "WHY", TC_SHRINK },
};
static const char *const used_head[U_NCOLS] = {
	"USED BY", "PACKAGE", "MAINTAINER", "UIDS", "USES", "IN-WINDOW", "FAILED", "OPS",
	"LAST-SEEN", "HOSTS", NULL,
};
static const char *const enum_head[U_NCOLS] = {
	"ENUMERATED BY", "PACKAGE", "MAINTAINER", "UIDS", "USES", "IN-WINDOW", "FAILED", "OPS",
	"LAST-SEEN", "HOSTS", "WHY",
};

char *check_exe_uids(const struct check_exe *x, int cap)
{
	unsigned int *uid = xmalloc((x->n + 1) * sizeof(*uid));
	char *text;
	int i;

	for (i = 0; i < x->n; i++)
		uid[i] = x->uses[i].uid;
	text = uids_list(uid, x->n, cap);
	free(uid);
	return text;
}

char *check_exe_hosts(const struct check_exe *x, int cap)
{
	char **names = xmalloc((x->n + 1) * sizeof(char *)), *text;
	int i;

	for (i = 0; i < x->n; i++)
		names[i] = x->uses[i].host;
	text = distinct_list(names, x->n, cap);
	free(names);
	return text;
}

/* One row for the uses of one executable, summed. */
static void add_use_sum(struct table *t, int layout, const struct check_exe *x, bool enumerated)
{
	const struct check_use *u = x->uses;
	char **col = table_row(t, layout), tm[64];

	col[U_EXE] = xstrdup(u->exe);
	col[U_PKG] = xstrdup(or_dash(u->package));
	col[U_MAINT] = xstrdup(or_dash(u->package_maintainer));
	col[U_UIDS] = check_exe_uids(x, NAMES_SHOWN);
	col[U_USES] = xasprintf("%llu", x->sum.count);
	/* "-" when the DB cannot tell for one of them. */
	col[U_WINDOW] = x->recent < 0 ? xstrdup("-") : xasprintf("%lld", x->recent);
	col[U_FAILED] = xasprintf("%llu", x->sum.errors);
	col[U_OPS] = ops_text(x->ops);
	col[U_LAST] = xstrdup(iso_time(x->sum.last_seen, tm, sizeof(tm)));
	col[U_HOSTS] = check_exe_hosts(x, NAMES_SHOWN);
	if (enumerated)
		col[U_WHY] = xstrdup(check_enum_reason(u));
}

/* A row per executable. */
static void add_use_sums(struct table *t, int layout, const struct check_exe *x, int n,
			 bool enumerated)
{
	int i;

	for (i = 0; i < n; i++)
		add_use_sum(t, layout, &x[i], enumerated);
}

/* ---- the document ---- */

static bool has_details(const struct check_entry *ce)
{
	return ce->verdict == V_BLOCKED || ce->verdict == V_NO_DATA ||
	       (ce->verdict == V_REMOVED && ce->nuses) ||
	       (ce->verdict != V_NOT_DUE && (ce->nrefs || ce->nenums));
}

/* Who uses or references the entry: for blocked entries, the blockers. */
static void add_details(struct table *t, int layout, const struct check_entry *ce,
			bool by_host)
{
	int k;

	table_blank(t);
	table_title(t, "%s (%s): %s", ce->e->what[0], verdict_name(ce->verdict),
		    ce->brief && !by_host ? ce->brief : ce->reason);
	if (by_host) {
		add_use_lines(t, ce);
	} else {
		if (ce->nuses) {
			table_head(t, layout, used_head);
			add_use_sums(t, layout, ce->use_exes, ce->nuse_exes, false);
		}
		if (ce->nenums) {
			table_head(t, layout, enum_head);
			add_use_sums(t, layout, ce->enum_exes, ce->nenum_exes, true);
		}
	}
	for (k = 0; k < ce->nrefs; k++) {
		const struct scan_hit *h = ce->refs[k].hit;

		table_line(t, 2, "%s %s%s%s:%lu (package %s, %s): %s",
			   ce->refs[k].blocks ? "referenced in" : "weak reference, not blocking, in",
			   h->archive ? h->archive : "", h->archive ? ": " : "",
			   h->file, h->line, or_dash(h->package),
			   scan_confidence_name(h->confidence), h->match);
	}
}

/* How early in their boots the sessions in the window began. */
static void add_stages(struct table *t, const struct check *c)
{
	const long long *n = c->nstage;

	if (!n[0] && !n[1] && !n[2] && !n[3])
		return;
	table_line(t, 0, "sessions in the window by boot stage: %lld from the initramfs, %lld early (before udev), %lld late (after udev's coldplug: readers at boot unseen), %lld unknown (an older tracer's)",
		   n[0], n[1], n[2], n[3]);
}

/* Verdicts that rest on sessions which did not record what they watched. */
static void add_watch_unknown(struct table *t, const struct check *c)
{
	if (c->nwatch_unknown)
		table_line(t, 0, "watched set unknown on %d of %d host%s: sessions of an abidep that did not record what it watched, taken as watching every entry (a file may not have existed there)",
			   c->nwatch_unknown, c->nshosts, c->nshosts == 1 ? "" : "s");
}

/* "host h1: boot 3f2a9c0e: late, ...: @what" */
static void late_line(struct table *t, const struct check_host *h, const char *what)
{
	char *boots = check_late_boots(h);

	table_line(t, 2, "host %s: %s: %s", h->host, boots, what);
	free(boots);
}

/* When the tracer ran, and the hosts on which it did not cover the window. */
static void add_sessions(struct table *t, const struct check *c, bool by_host)
{
	char tm[64], tm2[64];
	int i, shown = 0;

	if (c->no_db)
		return;
	if (!c->nsessions) {
		table_line(t, 0, "sessions: none (the DB predates them): the quiet window counts as covered by any use from before it, which cannot show the tracer kept running");
		return;
	}
	if (!c->nuncovered) {
		table_line(t, 0, "sessions: %lld on %d host%s, the tracer ran through the quiet window on each",
			   c->nsessions, c->nshosts, c->nshosts == 1 ? "" : "s");
		return;
	}
	table_line(t, 0, "sessions: %lld on %d host%s, the quiet window is not covered on %d:",
		   c->nsessions, c->nshosts, c->nshosts == 1 ? "" : "s", c->nuncovered);
	for (i = 0; i < c->nshosts; i++) {
		const struct check_host *h = &c->shosts[i];

		if (h->covers)
			continue;
		if (!by_host && shown++ == NAMES_SHOWN) {
			table_line(t, 2, "and %d more (--by-host or -j lists them all)",
				   c->nuncovered - NAMES_SHOWN);
			break;
		}
		/* Covered until: from the window's start, without a longer gap. */
		if (h->ran)
			;
		else if (h->covered_until == LLONG_MIN)
			table_line(t, 2, "host %s: last sync %s, no session from the window's start",
				   h->host, iso_time(h->last_sync, tm, sizeof(tm)));
		else
			table_line(t, 2, "host %s: last sync %s, covered until %s", h->host,
				   iso_time(h->last_sync, tm, sizeof(tm)),
				   iso_time(h->covered_until, tm2, sizeof(tm2)));
		if (h->lost_at != STORE_NO_LOSS)
			table_line(t, 2, "host %s: %llu accesses not recorded (usage map full, or a uid over its quota) and %llu runs skipped by the kernel (up to as many accesses) in the window, the latest seen at the sync of %s",
				   h->host, h->unrecorded, h->skipped,
				   iso_time(h->lost_at, tm, sizeof(tm)));
		if (h->late && !c->allow_late_boot)
			late_line(t, h, "not traced from before udev's coldplug: readers at boot unseen (--allow-late-boot accepts it)");
		if (h->clock_why)
			table_line(t, 2, "host %s: its wall clock was wrong: %s", h->host, h->clock_why);
	}
}

/*
 * The wall clocks of the boots in the window: each step (the times before
 * it placed again by the boot's best reading), and the boots never
 * synchronized, placed by their last reading (check_clock.c).
 */
static void add_clocks(struct table *t, const struct check *c, bool by_host)
{
	char tm[64], *size, *id;
	int i, k, j, n = 0, shown = 0;

	if (c->nunsynced)
		table_line(t, 0, "clock: on %d of %d host%s, boots in the window whose wall clock was never synchronized: their times placed by its last reading",
			   c->nunsynced, c->nshosts, c->nshosts == 1 ? "" : "s");
	for (i = 0; i < c->nshosts; i++)
		for (k = 0; k < c->shosts[i].nboots; k++)
			if (c->shosts[i].boots[k].overlaps && c->shosts[i].boots[k].clock)
				n += c->shosts[i].boots[k].clock->nsteps;
	if (!n)
		return;
	table_line(t, 0, "clock: %d step%s of the wall clock in the window's boots, each boot's times placed by its best reading (its latest synchronized, or its last):",
		   n, n == 1 ? "" : "s");
	for (i = 0; i < c->nshosts; i++) {
		const struct check_host *h = &c->shosts[i];

		for (k = 0; k < h->nboots; k++) {
			const struct check_boot *b = &h->boots[k];

			for (j = 0; b->overlaps && b->clock && j < b->clock->nsteps; j++) {
				const struct clock_step *st = &b->clock->steps[j];

				if (!by_host && shown++ == NAMES_SHOWN) {
					table_line(t, 2, "and %d more (--by-host or -j lists them all)",
						   n - NAMES_SHOWN);
					return;
				}
				size = clock_step_text(st->seconds);
				id = check_boot_name(b);
				table_line(t, 2, "host %s: boot %s: stepped %s at %s (%s)", h->host, id,
					   size, iso_time(st->at, tm, sizeof(tm)),
					   st->synced ? "synchronized" : "not synchronized");
				free(size);
				free(id);
			}
		}
	}
}

/* With --allow-late-boot: the hosts whose late boots were let cover the window. */
static void add_late_allowed(struct table *t, const struct check *c, bool by_host)
{
	int i, shown = 0;

	if (!c->allow_late_boot || !c->nlate)
		return;
	table_line(t, 0, "boots in the window observed only late, taken as covering it (--allow-late-boot: readers at boot unseen), on %d of %d host%s:",
		   c->nlate, c->nshosts, c->nshosts == 1 ? "" : "s");
	for (i = 0; i < c->nshosts; i++) {
		if (!c->shosts[i].late)
			continue;
		if (!by_host && shown++ == NAMES_SHOWN) {
			table_line(t, 2, "and %d more (--by-host or -j lists them all)",
				   c->nlate - NAMES_SHOWN);
			break;
		}
		late_line(t, &c->shosts[i], "observed only late");
	}
}

/*
 * With --allow-late-boot: the hosts whose early boots had files of a What
 * appear after the pin, taken as observed from early boot all the same.
 */
static void add_after_pin_allowed(struct table *t, const struct check *c, bool by_host)
{
	int i, k, n = 0, shown = 0;

	if (!c->allow_late_boot || !c->nafter_pin)
		return;
	table_line(t, 0, "boots in the window whose files appeared after the tracer was pinned, unwatched until its first sync or a refresh before it, taken as observed from early boot (--allow-late-boot: readers at boot unseen), on %d of %d host%s:",
		   c->nafter_pin, c->nshosts, c->nshosts == 1 ? "" : "s");
	for (i = 0; i < c->nshosts; i++)
		for (k = 0; k < c->shosts[i].nboots; k++)
			n += c->shosts[i].boots[k].nafter_pin > 0;
	for (i = 0; i < c->nshosts; i++) {
		const struct check_host *h = &c->shosts[i];

		for (k = 0; k < h->nboots; k++) {
			char *name, *whats;

			if (!h->boots[k].nafter_pin)
				continue;
			if (!by_host && shown++ == NAMES_SHOWN) {
				table_line(t, 2, "and %d more boots (--by-host or -j lists them all)",
					   n - NAMES_SHOWN);
				return;
			}
			name = check_boot_name(&h->boots[k]);
			whats = check_after_pin_whats(&h->boots[k]);
			table_line(t, 2, "host %s: boot %s: %s", h->host, name, whats);
			free(name);
			free(whats);
		}
	}
}

/* The counts, the DB, the sessions and the scan. */
static void add_summary(struct table *t, const struct check *c, const char *db, bool by_host)
{
	char tm[64], tm2[64], *hosts = NULL, *kernel = NULL, *rows = NULL, *unmatched = NULL;

	table_blank(t);
	/* Only --kernel can make an entry removed: without it, the line stays as it was. */
	if (c->kernel)
		kernel = xasprintf(", %d removed (in kernel %s)", c->counts[V_REMOVED], c->kernel);
	table_line(t, 0, "%d entr%s at %s, quiet since %s: %d ready, %d blocked, %d not-due, %d no-data%s",
		   c->n, c->n == 1 ? "y" : "ies", iso_time(c->now, tm, sizeof(tm)),
		   iso_time(c->quiet_since, tm2, sizeof(tm2)), c->counts[V_READY],
		   c->counts[V_BLOCKED], c->counts[V_NOT_DUE], c->counts[V_NO_DATA],
		   kernel ? kernel : "");
	if (c->rows) {
		hosts = names_list(c->hosts, c->nhosts, by_host ? 0 : NAMES_SHOWN);
		rows = xasprintf(", uses from %s to %s, host%s %s",
				 iso_time(c->first_use, tm, sizeof(tm)),
				 iso_time(c->last_use, tm2, sizeof(tm2)),
				 c->nhosts == 1 ? "" : "s", hosts);
	}
	if (c->unmatched_rows)
		unmatched = xasprintf(", %lld row%s of entries not checked", c->unmatched_rows,
				      c->unmatched_rows == 1 ? "" : "s");
	if (c->no_db)
		table_line(t, 0, "usage DB %s: none (nothing traced): the references judged alone, no entry ready",
			   db);
	else
		table_line(t, 0, "usage DB %s: %lld row%s%s%s", db, c->rows,
			   c->rows == 1 ? "" : "s", rows ? rows : "", unmatched ? unmatched : "");
	add_sessions(t, c, by_host);
	add_clocks(t, c, by_host);
	add_stages(t, c);
	add_late_allowed(t, c, by_host);
	add_after_pin_allowed(t, c, by_host);
	add_watch_unknown(t, c);
	if (c->scanned)
		table_line(t, 0, "scan: %llu files, %zu references, %zu unreadable",
			   c->scan.files, c->scan.nhits, c->scan.nunreadable);
	if (c->pkgs_scanned)
		table_line(t, 0, "package scan: %zu package files (%zu from the cache), %llu files, %zu references, %zu unreadable",
			   c->pkgscan.npackages, c->pkgscan.ncached, c->pkgscan.files,
			   c->pkgscan.nhits, c->pkgscan.nunreadable);
	free(hosts);
	free(kernel);
	free(rows);
	free(unmatched);
}

/* The verdicts, the details of the entries that have any, the summary. */
static void build_text(struct table *t, const struct check *c, const char *db, bool by_host)
{
	int verdicts = table_layout(t, 0, V_NCOLS, verdict_cols);
	int uses = table_layout(t, 2, U_NCOLS, use_cols);
	int i;

	table_head(t, verdicts, NULL);
	for (i = 0; i < c->n; i++)
		add_verdict(t, verdicts, &c->entries[i]);
	/* Blocked entries' blockers, why no data, weak references of due ones. */
	for (i = 0; i < c->n; i++)
		if (has_details(&c->entries[i]))
			add_details(t, uses, &c->entries[i], by_host);
	add_summary(t, c, db, by_host);
}

/* ---- CSV: a row per use and reference ---- */

enum {
	S_ENTRY, S_REMOVE, S_VERDICT, S_REASON, S_KIND, S_BLOCKS, S_EXE, S_PKG, S_UID,
	S_HOST, S_OPS, S_COUNT, S_SWEPT, S_ERRORS, S_FIRST, S_LAST, S_WHY, S_FILE,
	S_LINE, S_CONF, S_MATCH, S_VERSION, S_WINDOW, S_MAINT, S_SOURCE, S_NCOLS
};

/* New columns go at the end: a script may read them by position. */
static const struct table_col csv_cols[S_NCOLS] = {
	{ "entry", 0 }, { "remove_after", 0 }, { "verdict", 0 }, { "reason", 0 },
	{ "kind", 0 }, { "blocks", 0 }, { "exe", 0 }, { "package", 0 }, { "uid", 0 },
	{ "host", 0 }, { "ops", 0 }, { "count", 0 }, { "swept", 0 }, { "errors", 0 },
	{ "first_seen", 0 }, { "last_seen", 0 }, { "why", 0 }, { "file", 0 },
	{ "line", 0 }, { "confidence", 0 }, { "match", 0 }, { "package_version", 0 },
	{ "uses_in_window", 0 }, { "maintainer", 0 }, { "source_package", 0 },
};

/* A row with the entry's columns filled. */
static char **csv_row(struct table *t, int layout, const struct check_entry *ce,
		      const char *kind, bool blocks)
{
	const struct abi_entry *e = ce->e;
	char **col = table_row(t, layout);

	col[S_ENTRY] = xstrdup(e->what[0]);
	col[S_REMOVE] = xstrdup(e->status == ABI_ST_REMOVED ? "removed" :
				e->field[ABI_REMOVE_AFTER] ? e->field[ABI_REMOVE_AFTER] : "");
	col[S_VERDICT] = xstrdup(verdict_name(ce->verdict));
	col[S_REASON] = xstrdup(ce->reason ? ce->reason : "");
	col[S_KIND] = xstrdup(kind);
	col[S_BLOCKS] = xstrdup(!*kind ? "" : blocks ? "yes" : "no");
	return col;
}

static void csv_use(struct table *t, int layout, const struct check_entry *ce,
		    const struct check_use *u, bool enumerated)
{
	char **col = csv_row(t, layout, ce, enumerated ? "enumerated" : "use", !enumerated);
	char tm[64];

	col[S_EXE] = xstrdup(u->exe);
	col[S_PKG] = xstrdup(u->package ? u->package : "");
	col[S_UID] = xasprintf("%u", u->uid);
	col[S_HOST] = xstrdup(u->host);
	col[S_OPS] = ops_text(u->ops);
	col[S_COUNT] = xasprintf("%llu", u->count);
	col[S_SWEPT] = xasprintf("%llu", u->swept);
	col[S_ERRORS] = xasprintf("%llu", u->errors);
	col[S_FIRST] = xstrdup(iso_time(u->first_seen, tm, sizeof(tm)));
	col[S_LAST] = xstrdup(iso_time(u->last_seen, tm, sizeof(tm)));
	col[S_VERSION] = xstrdup(u->package_version ? u->package_version : "");
	col[S_WINDOW] = u->recent < 0 ? xstrdup("") : xasprintf("%lld", u->recent);
	col[S_MAINT] = xstrdup(u->package_maintainer ? u->package_maintainer : "");
	col[S_SOURCE] = xstrdup(u->package_source ? u->package_source : "");
	if (enumerated)
		col[S_WHY] = xstrdup(check_enum_reason(u));
}

static void build_csv(struct table *t, const struct check *c)
{
	int layout = table_layout(t, 0, S_NCOLS, csv_cols), i, k;

	table_head(t, layout, NULL);
	for (i = 0; i < c->n; i++) {
		const struct check_entry *ce = &c->entries[i];

		/* An entry nobody uses still has its verdict. */
		if (!ce->nuses && !ce->nenums && !ce->nrefs)
			csv_row(t, layout, ce, "", false);
		for (k = 0; k < ce->nuses; k++)
			csv_use(t, layout, ce, &ce->uses[k], false);
		for (k = 0; k < ce->nenums; k++)
			csv_use(t, layout, ce, &ce->enums[k], true);
		for (k = 0; k < ce->nrefs; k++) {
			const struct scan_hit *h = ce->refs[k].hit;
			char **col = csv_row(t, layout, ce, "reference", ce->refs[k].blocks);

			col[S_PKG] = xstrdup(h->package ? h->package : "");
			col[S_FILE] = xstrdup(h->file);
			col[S_LINE] = xasprintf("%lu", h->line);
			col[S_CONF] = xstrdup(scan_confidence_name(h->confidence));
			col[S_MATCH] = xstrdup(h->match);
			col[S_VERSION] = xstrdup(h->package_version ? h->package_version : "");
			col[S_MAINT] = xstrdup(h->pkg && h->pkg->maintainer ?
					       h->pkg->maintainer : "");
			col[S_SOURCE] = xstrdup(h->pkg && h->pkg->source ? h->pkg->source : "");
		}
	}
}

void check_print(const struct check *c, const char *db, bool by_host, FILE *out,
		 enum out_format f, int width)
{
	struct table *t = table_new();

	if (f == FMT_CSV)
		build_csv(t, c);
	else
		build_text(t, c, db, by_host);
	table_print(t, out, f, width);
	table_free(t);
}
