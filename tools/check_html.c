// SPDX-License-Identifier: GPL-2.0
/*
 * abidep check --format html: one page (html.c) with
 *
 *	the summary: when judged, the quiet window, the counts per verdict;
 *	the verdict table, each verdict a coloured badge;
 *	per entry: its reason, its blockers and enumerators summed per
 *	  executable, its references, and its daily use by executable (the
 *	  store's daily history, over every uid, op and host);
 *	per host: the tracer's sessions over the quiet window, and whether
 *	  they cover it (check_eval.c's rule), uncovered hosts first.
 *
 * all of check's model (lib/check_eval.h, read with read_days), as every
 * format prints it. The figures are in the DOM too (data-* attributes),
 * for scripts and for tests/cli/html.sh, which compares them with check -j.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "check_html.h"
#include "check_text.h"
#include "utctime.h"
#include "html.h"
#include "html_figures.h"
#include "text.h"
#include "util.h"

/* ---- the page ---- */

static void summary(FILE *f, const struct check *c, const char *db, const char *scan_root)
{
	int v;

	fputs("<h1>abidep check</h1>\n<p>Judged at <time id=\"now\">", f);
	html_time(f, c->now);
	fprintf(f, "</time>; quiet window: <span id=\"quiet-days\">%d</span> days, since <time id=\"quiet-since\">",
		c->quiet_days);
	html_time(f, c->quiet_since);
	fputs("</time>", f);
	if (c->kernel) {
		fputs("; kernel ", f);
		html_esc(f, c->kernel);
	}
	if (c->count_sweeps)
		fputs("; enumerators and sweeps counted as uses (--count-sweeps)", f);
	if (c->allow_late_boot)
		fputs("; boots observed only late cover the window, and files that appeared after an early boot's pin count as watched from it (--allow-late-boot)", f);
	fputs(".<br>Usage DB <span class=\"path\">", f);
	html_esc(f, db);
	if (c->no_db)
		fputs("</span>: none (nothing traced): the references judged alone, no entry ready",
		      f);
	else
		fprintf(f, "</span>: %lld row%s, %d host%s, %lld session%s", c->rows,
			c->rows == 1 ? "" : "s", c->nhosts, c->nhosts == 1 ? "" : "s",
			c->nsessions, c->nsessions == 1 ? "" : "s");
	if (c->rows) {
		fputs(", uses from ", f);
		html_time(f, c->first_use);
		fputs(" to ", f);
		html_time(f, c->last_use);
	}
	if (c->unmatched_rows)
		fprintf(f, ", %lld row%s of entries not checked", c->unmatched_rows,
			c->unmatched_rows == 1 ? "" : "s");
	fputs(".", f);
	if (c->scanned) {
		fputs("<br>Scan of <span class=\"path\">", f);
		html_esc(f, scan_root);
		fprintf(f, "</span>: %llu files, %zu references, %zu unreadable.", c->scan.files,
			c->scan.nhits, c->scan.nunreadable);
	}
	if (c->pkgs_scanned)
		fprintf(f, "<br>Package scan: <span id=\"package-scan\" data-packages=\"%zu\" data-unreadable=\"%zu\">%zu package files (%zu from the cache), %llu files, %zu references, %zu unreadable</span>.",
			c->pkgscan.npackages, c->pkgscan.nunreadable, c->pkgscan.npackages,
			c->pkgscan.ncached, c->pkgscan.files, c->pkgscan.nhits,
			c->pkgscan.nunreadable);
	fprintf(f, "</p>\n<ul class=\"summary\" id=\"summary\" data-entries=\"%d\">\n", c->n);
	for (v = 0; v < V_COUNT; v++) {
		/* removed only with --kernel, as the text says it. */
		if (v == V_REMOVED && !c->kernel && !c->counts[v])
			continue;
		fprintf(f, "<li data-verdict=\"%s\" data-count=\"%d\">", verdict_name(v), c->counts[v]);
		html_badge(f, verdict_name(v));
		fprintf(f, " %d</li>\n", c->counts[v]);
	}
	fputs("</ul>\n", f);
}

/* A What and the rest of its entry's Whats, "(+N)" as a title. */
static void entry_name(FILE *f, const struct abi_entry *e)
{
	int k;

	html_esc(f, e->what[0]);
	if (e->nwhat < 2)
		return;
	fprintf(f, " <span class=\"note\" title=\"");
	for (k = 1; k < e->nwhat; k++) {
		html_esc(f, e->what[k]);
		if (k + 1 < e->nwhat)
			fputs(", ", f);
	}
	fprintf(f, "\">(+%d)</span>", e->nwhat - 1);
}

static void verdict_table(FILE *f, const struct check *c)
{
	const struct abi_entry *e;
	int i, k;

	fputs("<h2>Verdicts</h2>\n<table id=\"verdicts\">\n<tr><th>entry</th><th>replaced by</th>"
	      "<th>deprecated</th><th>remove after</th><th>verdict</th><th>blockers</th>"
	      "<th>last use</th><th>reason</th></tr>\n", f);
	for (i = 0; i < c->n; i++) {
		const struct check_entry *ce = &c->entries[i];

		e = ce->e;
		fputs("<tr class=\"entry\" data-what=\"", f);
		html_esc(f, e->what[0]);
		fprintf(f, "\" data-verdict=\"%s\" data-blockers=\"%d\" data-uses=\"%d\" data-enumerated=\"%d\" data-references=\"%d\">",
			verdict_name(ce->verdict), ce->nuses + ce->nblocking_refs, ce->nuses,
			ce->nenums, ce->nblocking_refs);
		fprintf(f, "<td class=\"path\"><a href=\"#entry-%d\">", i);
		entry_name(f, e);
		fputs("</a></td><td class=\"path\">", f);
		for (k = 0; k < e->nreplaced; k++) {
			html_esc(f, e->replaced_by[k]);
			fputs(k + 1 < e->nreplaced ? "<br>" : "", f);
		}
		fputs(e->nreplaced ? "" : "none", f);
		fputs("</td><td>", f);
		html_esc(f, e->field[ABI_DEPRECATED] ? e->field[ABI_DEPRECATED] : "-");
		fputs("</td><td>", f);
		if (e->status == ABI_ST_REMOVED) {
			fputs("removed ", f);
			html_esc(f, e->field[ABI_REMOVED]);
		} else {
			html_esc(f, e->field[ABI_REMOVE_AFTER] ? e->field[ABI_REMOVE_AFTER] : "-");
		}
		fputs("</td><td>", f);
		html_badge(f, verdict_name(ce->verdict));
		fprintf(f, "</td><td class=\"n\">%d</td><td class=\"t\">", ce->nuses + ce->nblocking_refs);
		html_time(f, ce->last_use);
		fputs("</td><td>", f);
		html_esc(f, ce->reason);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* ---- an entry's users, per executable ---- */

/*
 * The uses of one executable (sorted by host, then uid: cmp_use()) as one
 * row: how many hosts (the first few named) and uids, the ops, the sums,
 * the last use.
 */
static void exe_row(FILE *f, const struct check_exe *x, bool enumerated)
{
	const struct check_use *u = x->uses;
	char *list;
	int o, j;

	fputs("<tr class=\"exe\" data-exe=\"", f);
	html_esc(f, u[0].exe);
	fprintf(f, "\" data-uses=\"%llu\" data-hosts=\"%d\" data-rows=\"%d\"", x->sum.count,
		x->nhosts, x->n);
	if (x->recent >= 0)
		fprintf(f, " data-window=\"%lld\"", x->recent);
	fputs("><td class=\"path\">", f);
	html_esc(f, u[0].exe);
	fputs("</td><td>", f);
	html_esc(f, u[0].package ? u[0].package : "-");
	fputs("</td><td class=\"maintainer\">", f);
	html_esc(f, u[0].package_maintainer ? u[0].package_maintainer : "-");
	fputs("</td>", f);
	if (enumerated) {
		fputs("<td>", f);
		html_esc(f, check_enum_reason(&u[0]));
		fputs("</td>", f);
	}
	/* The text's capped lists (text.c), as check's table has them. */
	fprintf(f, "<td class=\"n\">%d</td><td>", x->nhosts);
	list = check_exe_hosts(x, NAMES_SHOWN);
	html_esc(f, list);
	free(list);
	fputs("</td><td>", f);
	list = check_exe_uids(x, NAMES_SHOWN);
	html_esc(f, list);
	free(list);
	fputs("</td><td>", f);
	for (o = 0, j = 0; o < NOPS; o++)
		if (x->ops & (1u << o))
			fprintf(f, "%s%s", j++ ? "," : "", check_op_names[o]);
	fprintf(f, "</td><td class=\"n\">%llu</td>", x->sum.count);
	if (x->recent < 0)
		fputs("<td class=\"n window\">-</td>", f);
	else
		fprintf(f, "<td class=\"n window\">%lld</td>", x->recent);
	fprintf(f, "<td class=\"n\">%llu</td><td class=\"n\">%llu</td><td class=\"t\">",
		x->sum.swept, x->sum.errors);
	html_time(f, x->sum.last_seen);
	fputs("</td></tr>\n", f);
}

/* Uses a row per executable. */
static void uses_table(FILE *f, const char *title, const char *cls,
		       const struct check_exe *x, int n, bool enumerated)
{
	int k;

	if (!n)
		return;
	fprintf(f, "<p>%s:</p>\n<table class=\"%s\">\n<tr><th>executable</th><th>package</th>"
		"<th>maintainer</th>%s"
		"<th>hosts</th><th>host names</th><th>uids</th><th>ops</th><th>uses</th>"
		"<th>in the window</th><th>swept</th><th>failed</th><th>last use</th></tr>\n",
		title, cls, enumerated ? "<th>why not blocking</th>" : "");
	for (k = 0; k < n; k++)
		exe_row(f, &x[k], enumerated);
	fputs("</table>\n", f);
}

/* References listed per entry; the rest counted (-j lists them all). */
#define REFS_SHOWN 100

static void refs_table(FILE *f, const struct check_entry *ce)
{
	int k;

	if (!ce->nrefs)
		return;
	fputs("<p>Referenced in (scan):</p>\n<table class=\"references\">\n<tr><th>file</th>"
	      "<th>line</th><th>package</th><th>maintainer</th><th>confidence</th><th>blocks</th>"
	      "<th>match</th></tr>\n", f);
	for (k = 0; k < ce->nrefs && k < REFS_SHOWN; k++) {
		const struct scan_hit *hit = ce->refs[k].hit;

		fprintf(f, "<tr class=\"reference\" data-blocks=\"%s\"><td class=\"path\">",
			ce->refs[k].blocks ? "true" : "false");
		if (hit->archive) {
			html_esc(f, hit->archive);
			fputs(": ", f);
		}
		html_esc(f, hit->file);
		fprintf(f, "</td><td class=\"n\">%lu</td><td>", hit->line);
		html_esc(f, hit->package ? hit->package : "-");
		fputs("</td><td class=\"maintainer\">", f);
		html_esc(f, hit->pkg && hit->pkg->maintainer ? hit->pkg->maintainer : "-");
		fputs("</td><td>", f);
		html_esc(f, scan_confidence_name(hit->confidence));
		fprintf(f, "</td><td>%s</td><td class=\"path\">", ce->refs[k].blocks ? "yes" : "no (weak)");
		html_esc(f, hit->match);
		fputs("</td></tr>\n", f);
	}
	if (ce->nrefs > REFS_SHOWN)
		fprintf(f, "<tr><td colspan=\"7\">and %d more (abidep check -j lists them all)</td></tr>\n",
			ce->nrefs - REFS_SHOWN);
	fputs("</table>\n", f);
}

/* The entry's daily use: from its first day (or the window's start) to now. */
static void entry_plot(FILE *f, const struct check *c, const struct check_entry *ce)
{
	struct html_plot p = { 0 };
	long long first, last;

	if (!c->has_days) {
		fputs("<p class=\"note plot-none\">No daily history in this DB (older abidep): "
		      "the tables above total the uses of the quiet window.</p>\n", f);
		return;
	}
	html_daily_plot(&p, &ce->days);
	if (!html_plot_days(&p, &first, &last)) {
		fputs("<p class=\"note plot-none\">No use in the daily history.</p>\n", f);
	} else {
		fputs("<p>Uses per day (UTC), by executable, every uid, op and host:</p>\n", f);
		html_plot_svg(f, &p, first < c->quiet_since ? first : c->quiet_since,
			      last > c->now ? last : c->now, c->quiet_since, "quiet window");
	}
	html_plot_free(&p);
}

/* Entries with something to show: a use ever, a reference, or no-data. */
static bool entry_shown(const struct check_entry *ce)
{
	return ce->nuses || ce->nenums || ce->nrefs || ce->days.n ||
	       ce->last_use != LLONG_MIN || ce->verdict == V_BLOCKED ||
	       ce->verdict == V_NO_DATA;
}

static void entries(FILE *f, const struct check *c)
{
	int i;

	fputs("<h2>Entries</h2>\n", f);
	for (i = 0; i < c->n; i++) {
		const struct check_entry *ce = &c->entries[i];

		if (!entry_shown(ce))
			continue;
		fprintf(f, "<section class=\"entry\" id=\"entry-%d\" data-what=\"", i);
		html_esc(f, ce->e->what[0]);
		fputs("\">\n<h3>", f);
		entry_name(f, ce->e);
		fputs(" ", f);
		html_badge(f, verdict_name(ce->verdict));
		fputs("</h3>\n<p class=\"reason\">", f);
		html_esc(f, ce->reason);
		fputs("</p>\n", f);
		uses_table(f, "Used in the quiet window by (blocking)", "blockers",
			   ce->use_exes, ce->nuse_exes, false);
		uses_table(f, "Enumerated by (not blocking)", "enumerated",
			   ce->enum_exes, ce->nenum_exes, true);
		refs_table(f, ce);
		entry_plot(f, c, ce);
		fputs("</section>\n", f);
	}
}

/* ---- the hosts ---- */

/* A host's boots in the window observed only late, as check's text says them. */
static void late_boots(FILE *f, const struct check *c, const struct check_host *sh)
{
	char *boots = check_late_boots(sh);

	fputs(" <span class=\"late-boots\">", f);
	html_esc(f, boots);
	fputs(c->allow_late_boot ? ": observed only late, accepted (--allow-late-boot)" :
	      ": not traced from before udev's coldplug, readers at boot unseen", f);
	fputs("</span>", f);
	free(boots);
}

/* A host's wall clock, as check's text says it: wrong in the window, or never synchronized. */
static void clock_notes(FILE *f, const struct check_host *sh)
{
	if (sh->clock_why) {
		fputs(" <span class=\"clock\">its wall clock was wrong: ", f);
		html_esc(f, sh->clock_why);
		fputs("</span>", f);
	}
	if (sh->nunsynced)
		fprintf(f, " <span class=\"clock\">%d boot%s in the window whose wall clock was never synchronized: times placed by its last reading</span>",
			sh->nunsynced, sh->nunsynced == 1 ? "" : "s");
}

static void host_row(FILE *f, const struct check *c, int i)
{
	const struct check_host *sh = &c->shosts[i];
	long long gap = sh->covers ? LLONG_MAX :
			sh->covered_until == LLONG_MIN ? c->quiet_since : sh->covered_until;
	int k;

	fputs("<tr class=\"host\" data-host=\"", f);
	html_esc(f, sh->host);
	fprintf(f, "\" data-covers=\"%s\" data-sessions=\"%d\" data-unrecorded=\"%llu\" data-skipped=\"%llu\" data-late-boot=\"%s\" data-clock-wrong=\"%s\" data-unsynchronized=\"%d\"><td class=\"path\">",
		sh->covers ? "true" : "false", sh->nsessions, sh->unrecorded, sh->skipped,
		sh->late ? "true" : "false", sh->clock_why ? "true" : "false", sh->nunsynced);
	html_esc(f, sh->host);
	fputs("</td><td>", f);
	/* Ran through the window, yet lost accesses or saw a boot late: why not covered. */
	html_badge(f, sh->covers ? "covered" : !sh->ran ? "not-covered" :
		   sh->lost_at != STORE_NO_LOSS ? "lost-accesses" :
		   sh->clock_why ? "wrong-clock" : "late-boot");
	if (sh->lost_at != STORE_NO_LOSS)
		fprintf(f, " %llu not recorded, %llu runs skipped", sh->unrecorded, sh->skipped);
	if (sh->late)
		late_boots(f, c, sh);
	clock_notes(f, sh);
	for (k = 0; k < sh->nboots; k++)
		if (sh->boots[k].overlaps)
			html_clock_steps(f, sh->boots[k].clock);
	fputs("</td><td class=\"t\">", f);
	html_time(f, sh->last_sync);
	fputs("</td><td class=\"t\">", f);
	html_time(f, sh->covered_until);
	fprintf(f, "</td><td class=\"n\">%d</td><td>", sh->nsessions);
	html_sessions_svg(f, c->quiet_since, c->now, sh->spans, sh->nspans, gap);
	fputs("</td></tr>\n", f);
}

/* Uncovered hosts first, then covered ones, CHECK_HTML_HOSTS in all. */
static void hosts(FILE *f, const struct check *c)
{
	int i, pass, shown = 0, shown_uncovered = 0;

	fprintf(f, "<h2>Tracer coverage of the quiet window</h2>\n<section id=\"coverage\" "
		"data-hosts=\"%d\" data-uncovered=\"%d\">\n", c->nshosts, c->nuncovered);
	if (c->no_db) {
		fputs("<p class=\"note\">No usage DB: nothing traced, nothing covered.</p>\n</section>\n",
		      f);
		return;
	}
	if (!c->nsessions) {
		fputs("<p class=\"note\">No sessions in this DB (older abidep): the quiet window "
		      "counts as covered by any use from before it, which cannot show the tracer "
		      "kept running.</p>\n</section>\n", f);
		return;
	}
	fprintf(f, "<p>%lld session%s on %d host%s; the quiet window is not covered on %d: "
		"the tracer did not run through it (a gap of more than a day, or a last sync "
		"more than a day before the judging time, shaded), lost accesses in it, saw "
		"a boot in it only late, or its wall clock was wrong there.</p>\n", c->nsessions, c->nsessions == 1 ? "" : "s",
		c->nshosts, c->nshosts == 1 ? "" : "s", c->nuncovered);
	fputs("<table id=\"hosts\">\n<tr><th>host</th><th>coverage</th><th>last sync</th>"
	      "<th>covered until</th><th>sessions</th><th>", f);
	html_timeline_scale(f, c->quiet_since, c->now);
	fputs("</th></tr>\n", f);
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < c->nshosts && shown < CHECK_HTML_HOSTS; i++)
			if (c->shosts[i].covers == (bool)pass) {
				host_row(f, c, i);
				shown++;
				shown_uncovered += !pass;
			}
	if (shown_uncovered < c->nuncovered)
		fprintf(f, "<tr class=\"more\"><td colspan=\"6\">and %d more hosts: %d not covered "
			"(abidep check -j lists them all), %d covered</td></tr>\n",
			c->nshosts - shown, c->nuncovered - shown_uncovered,
			c->nshosts - shown - (c->nuncovered - shown_uncovered));
	else if (shown < c->nshosts)
		fprintf(f, "<tr class=\"more\"><td colspan=\"6\">and %d more covered hosts</td></tr>\n",
			c->nshosts - shown);
	fputs("</table>\n</section>\n", f);
}

/* ---- writing ---- */

void check_html_print(const struct check *c, const char *db, const char *scan_root, FILE *f)
{
	char t[64];
	char *title = xasprintf("abidep check at %s", iso_time(c->now, t, sizeof(t)));

	html_begin(f, title);
	free(title);
	summary(f, c, db, scan_root);
	verdict_table(f, c);
	entries(f, c);
	hosts(f, c);
	html_end(f);
}
