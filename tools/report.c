// SPDX-License-Identifier: GPL-2.0
/*
 * abidep report: who uses the deprecated files (sysfs, /proc, cgroup v1), from
 * the usage store the tracer keeps (store.c), read once into report's model
 * (lib/report_model.c), which every format prints. Per table entry (What):
 * the files used, and per executable, uid, cgroup and operation the counts
 * summed over the tracer's sessions and hosts, with the package of the
 * executable (dpkg or rpm).
 *
 *	abidep report [--db PATH] [--root DIR] [--entry PATTERN] [--since DATE] [--until DATE]
 *	abidep -j report
 *	abidep report --format prometheus [--now DATE] [-o FILE]
 *
 * --since and --until count the uses of the days they span, from the
 * store's daily history (store_filter); a DB without it, whole sessions.
 *
 * Each user is shown as a sweep (every access of it made within a sweep
 * of the file's directory: an enumerator, which abidep check does not
 * count) or by-name, and whether it was during boot (store_boot_uses():
 * a reader at boot, which a tracer loaded late misses), the earliest
 * after boot of its rows.
 *
 * The Prometheus form (report_prom.c) is node_exporter textfile-collector
 * metrics, per (entry, file, exe, package, uid, host, op), and the tracer's
 * sessions: a fleet's Prometheus then shows who uses what, and check
 * --prometheus judges from it.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "abi.h"
#include "entry.h"
#include "main.h"
#include "utctime.h"
#include "owner.h"
#include "json.h"
#include "prom.h"
#include "report.h"
#include "report_html.h"
#include "tabular.h"
#include "text.h"
#include "store.h"
#include "tables_load.h"
#include "util.h"

void report_usage(FILE *f)
{
	fprintf(f,
		"Usage: abidep report [-j|-p] [-d PATH] [-t PATH]... [--root DIR] [--entry PATTERN]\n"
		"                     [--since DATE] [--until DATE] [--by-host] [-w] [-o FILE]\n"
		"                     [--now DATE]\n"
		"                     [--format text|json|csv|markdown|prometheus|html]\n"
		"\n"
		"Who uses the deprecated files (sysfs, /proc, cgroup v1), as 'abidep trace'\n"
		"recorded it: per table entry (What), the files used, and per executable,\n"
		"uid, cgroup and operation the number of uses and of errors, first and\n"
		"last use (UTC), and the hosts, summed over the tracer's sessions\n"
		"(reboots, restarts). HOW is sweep when every use was swept (the program\n"
		"opened most of the files, 3 in 4 and at least 4, of the directory its\n"
		"process group, or its parent's, listed, as support tools, archivers and\n"
		"find | xargs cat do), by-name\n"
		"otherwise; SWEPT counts the swept uses. abidep check does not count\n"
		"sweeps, nor the uses of known enumerators (the tables' Ignore: fields\n"
		"and %s files), which are marked, unless told to (abidep-check(8)).\n"
		"BOOT says a use was during boot: first seen before its session's first\n"
		"sync, in a session begun in the initramfs or before systemd-udevd\n"
		"(\"early, +3 s\": the stage, and how long after boot when known; \"-\":\n"
		"not during boot), as a tracer loaded late would not have seen it.\n"
		"\n"
		"  -d, --db PATH    the usage DB (default %s); opened read-only\n"
		"  -t, --tables PATH  the migration tables, for their known enumerators\n"
		"                   and (prometheus) Remove-after dates (default %s);\n"
		"                   may be repeated\n"
		"  --root DIR       name executables' packages from DIR's dpkg or rpm\n"
		"                   database (both: dpkg's first; default /; '-' for a\n"
		"                   file no package owns; -j adds their version)\n"
		"  --entry PATTERN  only this entry: a What, part of one or a glob, or a\n"
		"                   concrete sysfs path or glob; a name (no '/', no glob)\n"
		"                   names one entry, whose What ends in it; else exit 10\n"
		"  --since DATE     only the uses from DATE on (UTC): YYYY-MM-DD,\n"
		"                   YYYY-MM-DDTHH:MM[:SS][Z] or @UNIXSECONDS\n"
		"  --until DATE     only the uses up to DATE (UTC), as --since. Both count\n"
		"                   whole days (UTC), from the DB's daily history (its\n"
		"                   last %d days): the uses of the days from --since's\n"
		"                   to --until's, first and last use clipped to those\n"
		"                   days. A row with no day at all (a DB of schema 3 or\n"
		"                   older, a row not written since its upgrade) counts\n"
		"                   by session, whole: when it has a use at or after\n"
		"                   --since and a first use at or before --until; a\n"
		"                   session that spans the upgrade counts only its days\n"
		"                   since\n"
		"  --by-host        text and markdown: a row per (exe, uid, cgroup, op, host)\n"
		"                   and every list in full; without it, users are summed per\n"
		"                   executable across hosts, uids, cgroups and ops, and lists\n"
		"                   show %d and how many more\n"
		"  -j, --json       JSON; -p, --pretty: pretty-printed\n"
		"  --format FORMAT  text (default), json (as -j), csv (a row per exe, uid,\n"
		"                   cgroup and op, summed over hosts, every host named),\n"
		"                   markdown (the tables, to paste into a ticket), or\n"
		"                   prometheus: metrics for node_exporter's textfile\n"
		"                   collector, per entry, file, exe, package, uid, host and\n"
		"                   op (cgroups summed), the tracer's sessions and what\n"
		"                   they watched, and the tables' Remove-after dates; or\n"
		"                   html: one self-contained page (no script, nothing\n"
		"                   fetched), per entry its users per executable and daily\n"
		"                   use, per host its tracer sessions on a timeline\n"
		"  --now DATE       prometheus: the time the sessions are exported as of\n"
		"                   (as --since; default now): those that synced in the\n"
		"                   %d days before it, and each host's latest\n"
		"  -o, --output FILE  write FILE atomically (a temporary file renamed), not\n"
		"                   standard output\n"
		"  -w, --wide       text at full width; else it is fitted to $COLUMNS when\n"
		"                   set, or to a terminal's width (long columns cut in the\n"
		"                   middle with '...', lines wrapped); a pipe without\n"
		"                   $COLUMNS, and -o FILE, get full width\n"
		"  -h, --help       this help\n"
		"\n",
		ABI_ENUMERATORS, STORE_DEFAULT_PATH, abidep_default_tables(),
		STORE_HISTORY_DAYS, NAMES_SHOWN, PROM_HORIZON_DAYS);
	abidep_exit_help(f, "0 done (an empty report too)", EXB(EXIT_USAGE) | EXB(EXIT_DB));
}

/* ---- printing ---- */

/* "boot": {"stage", "after_boot_s"} when the use was during boot, else null. */
static void json_boot(struct json *j, const struct report_boot *b)
{
	json_key(j, "boot");
	if (!b->stage) {
		json_null(j);
		return;
	}
	json_obj_start(j);
	json_kstr(j, "stage", b->stage);
	json_key(j, "after_boot_s");
	if (b->after_boot < 0)
		json_null(j);
	else
		json_int(j, b->after_boot);
	json_obj_end(j);
}

static void print_json(const struct report *r, FILE *out)
{
	struct json j;
	char t[64];
	int i, k, h;

	json_init(&j, out, cfg.pretty);
	json_arr_start(&j);
	for (i = 0; i < r->n; i++) {
		const struct report_entry *e = &r->entries[i];

		json_obj_start(&j);
		json_kstr(&j, "what", e->what);
		json_kstr(&j, "table", e->table);
		json_kstr(&j, "status", e->status);
		json_kstrs(&j, "files", e->files, e->nfiles);
		json_key(&j, "users");
		json_arr_start(&j);
		for (k = 0; k < e->nusers; k++) {
			const struct report_user *u = &e->users[k];

			json_obj_start(&j);
			json_kstr(&j, "exe", u->exe);
			json_kstr(&j, "package", u->package);
			json_kstr(&j, "package_version", u->package_version);
			json_kstr(&j, "maintainer", u->package_maintainer);
			json_kstr(&j, "source_package", u->package_source);
			json_kint(&j, "uid", u->uid);
			json_kstr(&j, "cgroup", u->cgroup);
			json_kstr(&j, "op", u->op);
			json_kstr(&j, "how", report_how(&u->counts));
			json_kint(&j, "count", u->count > LLONG_MAX ? LLONG_MAX : (long long)u->count);
			json_kint(&j, "swept", u->swept > LLONG_MAX ? LLONG_MAX : (long long)u->swept);
			json_kint(&j, "errors", u->errors > LLONG_MAX ? LLONG_MAX : (long long)u->errors);
			json_kstr(&j, "first_seen", iso_time(u->first_seen, t, sizeof(t)));
			json_kstr(&j, "last_seen", iso_time(u->last_seen, t, sizeof(t)));
			json_key(&j, "hosts");
			json_arr_start(&j);
			for (h = 0; h < u->nhosts; h++)
				json_str(&j, u->hosts[h].host);
			json_arr_end(&j);
			json_boot(&j, &u->boot);
			/* A known enumerator: why, and where it is listed. */
			json_key(&j, "enumerated");
			if (u->ignored) {
				json_obj_start(&j);
				abidep_json_ignore_members(&j, e->abi, u->ignored);
				json_obj_end(&j);
			} else {
				json_null(&j);
			}
			json_obj_end(&j);
		}
		json_arr_end(&j);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_end(&j);
}

/* ---- the command ---- */

/* What the command line asks for. */
struct report_args {
	const char *db, *root, *since, *until, *out;
	long long now;		/* --now: the sessions' horizon (prometheus) */
	char **tables;		/* -t */
	int ntables;
	const char *entry;	/* --entry PATTERN */
	struct entry_sel sel;	/* its selector, once the tables are read */
	struct store_filter f;
	enum out_format format;	/* --format, -j */
	bool wide;		/* -w: text not fitted to the terminal */
	bool by_host;		/* a row per host, lists in full */
};

/* One of report's own options (getopt's @c) into @a. */
static int report_option(int c, struct report_args *a)
{
	switch (c) {
	case 'r': a->root = optarg; return EXIT_OK;
	case 'e': a->entry = optarg; return EXIT_OK;
	case 's':
	case 'u':
		if (parse_utc_time(optarg, c == 's' ? &a->f.since : &a->f.until)) {
			fprintf(stderr, "abidep: --%s takes YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS][Z] or @SECONDS (UTC), not '%s'\n",
				c == 's' ? "since" : "until", optarg);
			return EXIT_USAGE;
		}
		*(c == 's' ? &a->since : &a->until) = optarg;
		return EXIT_OK;
	case 'n':
		if (parse_utc_time(optarg, &a->now)) {
			fprintf(stderr, "abidep: --now takes YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS][Z] or @SECONDS (UTC), not '%s'\n",
				optarg);
			return EXIT_USAGE;
		}
		return EXIT_OK;
	case 'H': a->by_host = true; return EXIT_OK;
	default: return EXIT_OK;
	}
}

/* -1 to go on, or the exit status (after --help, or a usage error). */
static int report_args(int argc, char **argv, struct report_args *a)
{
	static const struct option lopts[] = {
		{ "root", required_argument, NULL, 'r' },
		{ "entry", required_argument, NULL, 'e' },
		{ "since", required_argument, NULL, 's' },
		{ "until", required_argument, NULL, 'u' },
		{ "by-host", no_argument, NULL, 'H' },
		{ "now", required_argument, NULL, 'n' },
		{ 0 }
	};
	static const struct cmd_opts spec = {
		"", lopts, OPT_TABLES | OPT_DB | OPT_OUTPUT | OPT_FORMAT | OPT_WIDE,
		FMTB(FMT_TEXT) | FMTB(FMT_JSON) | FMTB(FMT_CSV) | FMTB(FMT_MARKDOWN) |
		FMTB(FMT_PROMETHEUS) | FMTB(FMT_HTML), report_usage
	};
	struct opts o;
	int c, ret = EXIT_OK;

	opts_start(&o, &spec);
	while (!ret && (c = opts_next(&o, argc, argv)) != -1)
		ret = report_option(c, a);
	opts_keep(&o, &a->db, &a->tables, &a->ntables, &a->out, &a->format, &a->wide);
	ret = opts_end(&o, ret);
	if (ret >= 0)
		return ret;
	if (a->since && a->until && a->f.since > a->f.until) {
		fprintf(stderr, "abidep: report --since %s is after --until %s: nothing can match\n",
			a->since, a->until);
		return EXIT_USAGE;
	}
	if (optind != argc) {
		fprintf(stderr, "abidep: report takes no argument '%s' (see abidep report --help)\n",
			argv[optind]);
		return EXIT_USAGE;
	}
	return -1;
}

/* Why a text or Markdown report has no table: an empty DB, or nothing matched. */
static void print_none(const struct report_args *a, long long rows, FILE *out)
{
	struct table *t = table_new();

	if (!rows)
		table_line(t, 0, "The usage DB %s is empty: nothing traced yet.", a->db);
	else
		table_line(t, 0, "No use recorded in %s matches%s%s%s%s%s%s.", a->db,
			   a->entry ? " --entry " : "", a->entry ? a->entry : "",
			   a->since ? " --since " : "", a->since ? a->since : "",
			   a->until ? " --until " : "", a->until ? a->until : "");
	table_print(t, out, a->format, 0);
	table_free(t);
}

/* @r in --format's form, to -o FILE or standard output; an exit status. */
static int report_output(const struct report *r, const struct report_args *a)
{
	struct output o;
	char err[1024];

	if (a->format == FMT_PROMETHEUS)
		return report_prom_print(r, a->entry, a->now, a->out);
	if (output_open(&o, a->out, err, sizeof(err))) {
		fprintf(stderr, "abidep: %s\n", err);
		return EXIT_USAGE;
	}
	if (a->format == FMT_JSON)
		print_json(r, o.f);
	else if (a->format == FMT_HTML)
		report_html_print(r, a->db, o.f);
	else if (!r->n && a->format != FMT_CSV)
		print_none(a, r->rows, o.f);
	else
		report_print(r, a->by_host, o.f, a->format, output_width(&o, a->wide));
	if (output_close(&o, err, sizeof(err))) {
		fprintf(stderr, "abidep: %s\n", err);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* The parts of the model --format prints. */
static unsigned int report_parts(enum out_format f)
{
	if (f == FMT_PROMETHEUS)
		return REPORT_FILE_USES | REPORT_SESSIONS;
	return f == FMT_HTML ? REPORT_USERS | REPORT_HISTORY : REPORT_USERS;
}

/* The report of the open store @s, read once, in --format's form. */
static int report_store(struct store *s, const struct report_args *a, struct report *r)
{
	r->filter = &a->f;
	r->parts = report_parts(a->format);
	if (report_read(r, s)) {
		fprintf(stderr, "abidep: cannot read the usage DB %s: %s\n", a->db, store_errmsg(s));
		return EXIT_DB;
	}
	return report_output(r, a);
}

/*
 * The tables, for their enumerators (text, JSON) and Remove-after dates
 * (prometheus); an exit status. Tables named with -t must load; without
 * them the report still reads the DB (a merged one, on a machine without
 * abidep's tables), unmarked.
 */
static int report_tables(struct report *r, const struct report_args *a)
{
	/* The report uses no Description: skip_text. */
	if (!abidep_load_tables(&r->set, a->tables, a->ntables, true))
		return EXIT_OK;
	if (a->ntables)
		return EXIT_USAGE;
	abi_set_free(&r->set);
	memset(&r->set, 0, sizeof(r->set));
	if (a->format == FMT_PROMETHEUS)
		fprintf(stderr, "abidep: report: no Remove-after dates in the metrics (give the tables with -t)\n");
	else
		fprintf(stderr, "abidep: report: known enumerators are not marked (give the tables with -t)\n");
	return EXIT_OK;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = { .db = STORE_DEFAULT_PATH, .now = time(NULL) };
	struct report r = { 0 };
	struct store *s;
	char err[1024];
	int ret;

	ret = report_args(argc, argv, &a);
	if (ret >= 0 || (ret = report_tables(&r, &a)))
		goto out;
	if (a.entry) {
		entry_sel_init(&a.sel, &r.set, a.entry);
		/* A name names one entry, as check's --entry does. */
		if (r.set.nentries && entry_name_pick(&r.set, a.sel.chosen, a.entry) < 0) {
			entry_print_ambiguous(stderr, &r.set, a.sel.chosen, a.entry);
			ret = EXIT_ENTRY;
			goto out;
		}
		a.f.entry = &a.sel;
	}
	r.owner = owner_new(a.root);
	/* A root named on purpose must have a package database; / need not. */
	if (a.root && owner_load(r.owner, err, sizeof(err))) {
		fprintf(stderr, "abidep: %s\n", err);
		ret = EXIT_USAGE;
		goto out;
	}
	s = store_open(a.db, true, err, sizeof(err));
	if (!s) {
		fprintf(stderr, "abidep: %s\n", err);
		ret = EXIT_DB;
		goto out;
	}
	ret = report_store(s, &a, &r);
	store_close(s);
out:
	entry_sel_free(&a.sel);
	report_free(&r);
	free(a.tables);
	return ret;
}
