// SPDX-License-Identifier: GPL-2.0
/*
 * abidep check: can a kernel drop a deprecated attribute yet? For every
 * migration entry, from the tables (dates), the usage DB (abidep trace, one
 * host or merged) and optionally a scan of a file tree: ready, blocked (by
 * whom), not-due or no-data, as kubent and pluto answer it for Kubernetes
 * APIs; removed when --kernel no longer has it. The rules are in
 * check_eval.c and Documentation/admin-guide/check.rst.
 *
 *	abidep check [--db PATH] [--now DATE] [--quiet-days N] [--scan ROOT]
 *	abidep -j check
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "abidep.h"
#include "check_eval.h"
#include "check_html.h"
#include "check_time.h"
#include "owner.h"
#include "json.h"
#include "store.h"
#include "tables_load.h"
#include "util.h"

#define DEFAULT_QUIET_DAYS 30

static void check_usage(FILE *f)
{
	fprintf(f,
		"Usage: abidep check [-j|-p] [-d PATH] [-t PATH]... [--entry PATTERN]\n"
		"                    [--now DATE] [--quiet-days N] [--kernel VERSION]\n"
		"                    [--scan ROOT] [--root DIR] [--count-sweeps]\n"
		"                    [--format text|json|html] [-o FILE]\n"
		"\n"
		"Which deprecated sysfs attributes can be removed now. For every migration\n"
		"entry: its removal due date (Remove-after, from the tables), its uses\n"
		"(the usage DB of 'abidep trace', one host or merged with 'abidep merge'),\n"
		"and with --scan the files that reference it. Verdicts:\n"
		"  ready    due; no use for --quiet-days; no strong or medium reference\n"
		"  blocked  due, and used in that time or referenced (blockers listed)\n"
		"  not-due  Remove-after not passed (or none; or a kernel version\n"
		"           without --kernel)\n"
		"  no-data  due, not blocked, but the DB cannot show the window was quiet:\n"
		"           on some host the tracer did not run through it (its sessions,\n"
		"           a day's gap allowed); a DB without sessions (older abidep):\n"
		"           no use of anything from before the window\n"
		"  removed  Status: removed, and --kernel is at or past its Removed: kernel\n"
		"           version: already removed from that kernel (uses still listed);\n"
		"           or an option of its Config: is not set in --kernel's\n"
		"           configuration (ROOT/boot/config-VERSION): not built there\n"
		"Status: removed entries are always due. The uses of known enumerators\n"
		"(tools that read every attribute: the tables' Ignore: fields and\n"
		"%s files) do not block, nor do a program's uses that were all\n"
		"swept (it or its parent listed the file's directory and opened at\n"
		"least 4 distinct files in it); one use by name blocks. They are\n"
		"listed as \"enumerated by\".\n"
		"\n"
		"  -d, --db PATH      the usage DB (default %s), read-only\n"
		"  -t, --tables PATH  the migration tables (default %s)\n"
		"  --entry PATTERN    only entries whose What contains or matches PATTERN,\n"
		"                     or that a concrete sysfs path PATTERN matches\n"
		"  --now DATE         judge as of DATE (UTC: YYYY-MM-DD,\n"
		"                     YYYY-MM-DDTHH:MM[:SS][Z] or @UNIXSECONDS); default now\n"
		"  --quiet-days N     how long without use makes ready (default %d)\n"
		"  --kernel VERSION   the kernel to judge Remove-after and Removed versions\n"
		"                     against\n"
		"  --scan ROOT        also scan ROOT's files for references (abidep scan)\n"
		"  --root DIR         name executables' packages from DIR's dpkg or rpm\n"
		"                     database (both: dpkg's first; -j adds their version),\n"
		"                     and read --kernel's configuration from DIR/boot\n"
		"                     (default /)\n"
		"  --count-sweeps     count the known enumerators' and the swept uses as\n"
		"                     blockers too\n"
		"  -j, --json         JSON; -p, --pretty: pretty-printed. Each use's\n"
		"                     uses_in_window counts its uses on the window's days\n"
		"                     (UTC), from the DB's daily history; null without it\n"
		"  --format FORMAT    text (default), json (as -j), or html: one\n"
		"                     self-contained page (no script, nothing fetched): the\n"
		"                     verdicts, per entry its users and daily use by\n"
		"                     executable, per host the tracer's sessions over the\n"
		"                     quiet window\n"
		"  -o, --output FILE  with --format html: write FILE atomically (a temporary\n"
		"                     file renamed), not standard output\n"
		"  -h, --help         this help\n"
		"\n",
		ABI_ENUMERATORS, STORE_DEFAULT_PATH, abidep_default_tables(),
		DEFAULT_QUIET_DAYS);
	abidep_exit_help(f, "0 every due entry is ready or removed (or none is due); 1 some entry is blocked",
			 EXB(EX_USAGE) | EXB(EX_DB) | EXB(EX_ENTRY) | EXB(EX_NODATA));
}

/* ---- text ---- */

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

enum { C_ENTRY, C_REPL, C_DEPR, C_REMOVE, C_VERDICT, C_BLOCKERS, NCOLS };

static const char *const col_names[NCOLS] = {
	"ENTRY", "REPLACED-BY", "DEPRECATED", "REMOVE-AFTER", "VERDICT", "BLOCKERS",
};

static void entry_cols(const struct check_entry *ce, char *col[NCOLS])
{
	const struct abi_entry *e = ce->e;

	/* The first of several, as "(+N)": JSON has them all. */
	col[C_ENTRY] = e->nwhat > 1 ? xasprintf("%s (+%d)", e->what[0], e->nwhat - 1) :
				      xstrdup(e->what[0]);
	col[C_REPL] = !e->nreplaced ? xstrdup("none") :
		      e->nreplaced > 1 ? xasprintf("%s (+%d)", e->replaced_by[0], e->nreplaced - 1) :
		      xstrdup(e->replaced_by[0]);
	col[C_DEPR] = xstrdup(or_dash(e->field[ABI_DEPRECATED]));
	col[C_REMOVE] = e->status == ABI_ST_REMOVED ?
		xasprintf("removed%s%s", e->field[ABI_REMOVED] ? " " : "",
			  e->field[ABI_REMOVED] ? e->field[ABI_REMOVED] : "") :
		xstrdup(or_dash(e->field[ABI_REMOVE_AFTER]));
	col[C_VERDICT] = xstrdup(verdict_name(ce->verdict));
	col[C_BLOCKERS] = ce->verdict == V_BLOCKED ?
		xasprintf("%d", ce->nuses + ce->nblocking_refs) : xstrdup("-");
}

static void print_row(char *const col[NCOLS], const int width[NCOLS])
{
	int c;

	for (c = 0; c < NCOLS; c++) {
		if (c == NCOLS - 1)
			printf("%s\n", col[c]);
		else
			printf("%-*s  ", width[c], col[c]);
	}
}

/* Why an enumerated use does not block: its Ignore: reason, or its sweep. */
static const char *enum_reason(const struct check_use *u)
{
	return u->ignored ? u->ignored->reason : "swept its directory";
}

/* "3 uses (open,read)", and how many were swept if any. */
static char *uses_text(const struct check_use *u)
{
	char *ops = ops_text(u->ops), *text;

	if (u->swept)
		text = xasprintf("%llu uses (%s), %llu swept", u->count, ops, u->swept);
	else
		text = xasprintf("%llu uses (%s)", u->count, ops);
	free(ops);
	return text;
}

/* Who uses or references the entry: for blocked entries, the blockers. */
static void print_details(const struct check *c, const struct check_entry *ce)
{
	char t[64], *uses;
	int k;

	printf("\n%s (%s): %s\n", ce->e->what[0], verdict_name(ce->verdict), ce->reason);
	for (k = 0; k < ce->nuses; k++) {
		const struct check_use *u = &ce->uses[k];

		uses = uses_text(u);
		printf("  used by %s (package %s, uid %u, host %s): %s, %llu failed, last %s\n",
		       u->exe, or_dash(u->package), u->uid, u->host, uses, u->errors,
		       iso_time(u->last_seen, t, sizeof(t)));
		free(uses);
	}
	for (k = 0; k < ce->nenums; k++) {
		const struct check_use *u = &ce->enums[k];

		uses = uses_text(u);
		printf("  enumerated by %s (%s), not blocking (package %s, uid %u, host %s): %s, %llu failed, last %s\n",
		       u->exe, enum_reason(u), or_dash(u->package), u->uid, u->host, uses,
		       u->errors, iso_time(u->last_seen, t, sizeof(t)));
		free(uses);
	}
	for (k = 0; k < ce->nrefs; k++) {
		const struct scan_hit *h = ce->refs[k].hit;

		printf("  %s %s:%lu (package %s, %s): %s\n",
		       ce->refs[k].blocks ? "referenced in" : "weak reference, not blocking, in",
		       h->file, h->line, or_dash(h->package),
		       scan_confidence_name(h->confidence), h->match);
	}
}

/* When the tracer ran, and the hosts on which it did not cover the window. */
static void print_sessions(const struct check *c)
{
	char t[64], t2[64];
	int i, shown = 0;

	if (!c->nsessions) {
		printf("sessions: none (the DB predates them): the quiet window counts as covered by any use from before it, which cannot show the tracer kept running\n");
		return;
	}
	printf("sessions: %lld on %d host%s", c->nsessions, c->nshosts,
	       c->nshosts == 1 ? "" : "s");
	if (!c->nuncovered) {
		printf(", the tracer ran through the quiet window on each\n");
		return;
	}
	printf(", the tracer did not run through the quiet window on %d:\n", c->nuncovered);
	for (i = 0; i < c->nshosts; i++) {
		const struct check_host *h = &c->shosts[i];

		if (h->covers)
			continue;
		if (shown++ == CHECK_HOSTS_SHOWN) {
			printf("  (+%d more: -j lists them all)\n", c->nuncovered - CHECK_HOSTS_SHOWN);
			break;
		}
		/* Covered until: from the window's start, without a longer gap. */
		if (h->covered_until == LLONG_MIN)
			printf("  host %s: last sync %s, no session from the window's start\n",
			       h->host, iso_time(h->last_sync, t, sizeof(t)));
		else
			printf("  host %s: last sync %s, covered until %s\n",
			       h->host, iso_time(h->last_sync, t, sizeof(t)),
			       iso_time(h->covered_until, t2, sizeof(t2)));
	}
}

static void print_text(const struct check *c, const char *db)
{
	int width[NCOLS], i, k;
	char *col[NCOLS], t[64], t2[64];

	for (k = 0; k < NCOLS; k++)
		width[k] = strlen(col_names[k]);
	for (i = 0; i < c->n; i++) {
		entry_cols(&c->entries[i], col);
		for (k = 0; k < NCOLS; k++) {
			if ((int)strlen(col[k]) > width[k])
				width[k] = strlen(col[k]);
			free(col[k]);
		}
	}
	print_row((char *const *)col_names, width);
	for (i = 0; i < c->n; i++) {
		entry_cols(&c->entries[i], col);
		print_row(col, width);
		for (k = 0; k < NCOLS; k++)
			free(col[k]);
	}
	/* Blocked entries' blockers, why no data, weak references of due ones. */
	for (i = 0; i < c->n; i++) {
		const struct check_entry *ce = &c->entries[i];

		if (ce->verdict == V_BLOCKED || ce->verdict == V_NO_DATA ||
		    (ce->verdict == V_REMOVED && ce->nuses) ||
		    (ce->verdict != V_NOT_DUE && (ce->nrefs || ce->nenums)))
			print_details(c, ce);
	}
	printf("\n%d entr%s at %s, quiet since %s: %d ready, %d blocked, %d not-due, %d no-data",
	       c->n, c->n == 1 ? "y" : "ies", iso_time(c->now, t, sizeof(t)),
	       iso_time(c->quiet_since, t2, sizeof(t2)), c->counts[V_READY],
	       c->counts[V_BLOCKED], c->counts[V_NOT_DUE], c->counts[V_NO_DATA]);
	/* Only --kernel can make an entry removed: without it, the line stays as it was. */
	if (c->kernel)
		printf(", %d removed (in kernel %s)", c->counts[V_REMOVED], c->kernel);
	printf("\n");
	printf("usage DB %s: %lld row%s", db, c->rows, c->rows == 1 ? "" : "s");
	if (c->rows) {
		printf(", uses from %s to %s, host%s", iso_time(c->first_use, t, sizeof(t)),
		       iso_time(c->last_use, t2, sizeof(t2)), c->nhosts == 1 ? "" : "s");
		/* A fleet's hosts are many: the first few (JSON has them all). */
		for (i = 0; i < c->nhosts && i < CHECK_HOSTS_SHOWN; i++)
			printf("%s%s", i ? "," : " ", c->hosts[i]);
		if (c->nhosts > CHECK_HOSTS_SHOWN)
			printf(" (+%d)", c->nhosts - CHECK_HOSTS_SHOWN);
	}
	if (c->unmatched_rows)
		printf(", %lld row%s of entries not checked", c->unmatched_rows,
		       c->unmatched_rows == 1 ? "" : "s");
	printf("\n");
	print_sessions(c);
	if (c->scanned)
		printf("scan: %llu files, %zu references, %zu unreadable\n", c->scan.files,
		       c->scan.nhits, c->scan.nunreadable);
}

/* ---- JSON ---- */

/* A time as an ISO 8601 string, or null when there is none. */
static void json_when_str(struct json *j, const char *key, long long t)
{
	char buf[64];

	json_kstr(j, key, t == LLONG_MIN || t == LLONG_MAX ? NULL : iso_time(t, buf, sizeof(buf)));
}

/* A use's members: {"kind": "use", "exe", ..., "last_seen"}, open. */
static void json_use(struct json *j, const struct check_use *u)
{
	char t[64];
	int o;

	json_obj_start(j);
	json_kstr(j, "kind", "use");
	json_kstr(j, "exe", u->exe);
	json_kstr(j, "package", u->package);
	json_kstr(j, "package_version", u->package_version);
	json_kint(j, "uid", u->uid);
	json_kstr(j, "host", u->host);
	json_key(j, "ops");
	json_arr_start(j);
	for (o = 0; o < NOPS; o++)
		if (u->ops & (1u << o))
			json_str(j, check_op_names[o]);
	json_arr_end(j);
	json_kint(j, "count", u->count > LLONG_MAX ? LLONG_MAX : (long long)u->count);
	json_kint(j, "swept", u->swept > LLONG_MAX ? LLONG_MAX : (long long)u->swept);
	json_kint(j, "errors", u->errors > LLONG_MAX ? LLONG_MAX : (long long)u->errors);
	json_kstr(j, "first_seen", iso_time(u->first_seen, t, sizeof(t)));
	json_kstr(j, "last_seen", iso_time(u->last_seen, t, sizeof(t)));
	/* Of count, those on the quiet window's days; null: the DB cannot tell. */
	json_key(j, "uses_in_window");
	if (u->recent < 0)
		json_null(j);
	else
		json_int(j, u->recent);
}

static void json_entry(struct json *j, const struct check_entry *ce)
{
	const struct abi_entry *e = ce->e;
	int k, pass;

	json_obj_start(j);
	abidep_json_migration(j, e);
	json_kstr(j, "file", e->file);
	json_kbool(j, "due", ce->due);
	json_kstr(j, "verdict", verdict_name(ce->verdict));
	json_kstr(j, "reason", ce->reason);
	json_when_str(j, "last_use", ce->last_use);
	/* Blocking first, then weak references (pass 1). */
	for (pass = 0; pass < 2; pass++) {
		json_key(j, pass ? "weak_references" : "blockers");
		json_arr_start(j);
		for (k = 0; !pass && k < ce->nuses; k++) {
			json_use(j, &ce->uses[k]);
			json_obj_end(j);
		}
		for (k = 0; k < ce->nrefs; k++) {
			const struct scan_hit *h = ce->refs[k].hit;

			if (ce->refs[k].blocks == (bool)pass)
				continue;
			json_obj_start(j);
			json_kstr(j, "kind", "reference");
			json_kstr(j, "file", h->file);
			json_kint(j, "line", (long long)h->line);
			json_kstr(j, "package", h->package);
			json_kstr(j, "package_version", h->package_version);
			json_kstr(j, "confidence", scan_confidence_name(h->confidence));
			json_kstr(j, "match", h->match);
			json_obj_end(j);
		}
		json_arr_end(j);
	}
	/*
	 * Uses that do not block, and why: a known enumerator's ("ignore"),
	 * with where it is listed, or a sweep's ("sweep"), listed nowhere.
	 */
	json_key(j, "enumerated");
	json_arr_start(j);
	for (k = 0; k < ce->nenums; k++) {
		const struct check_use *u = &ce->enums[k];

		json_use(j, u);
		json_kstr(j, "why", u->ignored ? "ignore" : "sweep");
		if (u->ignored) {
			abidep_json_ignore_members(j, e, u->ignored);
		} else {
			json_kstr(j, "reason", enum_reason(u));
			json_kstr(j, "scope", NULL);
			json_kstr(j, "file", NULL);
			json_key(j, "line");
			json_null(j);
		}
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

static void print_json(const struct check *c, const char *db, const char *scan_root)
{
	struct json j;
	char t[64];
	int i;

	json_init(&j, stdout, cfg.pretty);
	json_obj_start(&j);
	json_kstr(&j, "now", iso_time(c->now, t, sizeof(t)));
	json_kint(&j, "quiet_days", c->quiet_days);
	json_kstr(&j, "quiet_since", iso_time(c->quiet_since, t, sizeof(t)));
	json_kstr(&j, "kernel", c->kernel);
	json_kbool(&j, "count_sweeps", c->count_sweeps);
	json_key(&j, "db");
	json_obj_start(&j);
	json_kstr(&j, "path", db);
	json_kint(&j, "rows", c->rows);
	json_kint(&j, "unmatched_rows", c->unmatched_rows);
	json_kstrs(&j, "hosts", c->hosts, c->nhosts);
	json_when_str(&j, "first_use", c->first_use);
	json_when_str(&j, "last_use", c->last_use);
	json_kint(&j, "sessions", c->nsessions);
	/* Which rule judged the window: see check_eval.c. */
	json_kstr(&j, "coverage", c->nsessions ? "sessions" : "first-use");
	json_key(&j, "uncovered_hosts");
	json_arr_start(&j);
	for (i = 0; i < c->nshosts; i++) {
		const struct check_host *h = &c->shosts[i];

		if (h->covers)
			continue;
		json_obj_start(&j);
		json_kstr(&j, "host", h->host);
		json_when_str(&j, "last_sync", h->last_sync);
		json_when_str(&j, "covered_until", h->covered_until);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_obj_end(&j);
	json_key(&j, "scan");
	if (c->scanned) {
		json_obj_start(&j);
		json_kstr(&j, "root", scan_root);
		json_kint(&j, "files", (long long)c->scan.files);
		json_kint(&j, "references", (long long)c->scan.nhits);
		json_kint(&j, "unreadable", (long long)c->scan.nunreadable);
		json_obj_end(&j);
	} else {
		json_null(&j);
	}
	json_key(&j, "summary");
	json_obj_start(&j);
	for (i = 0; i < V_COUNT; i++)
		json_kint(&j, verdict_name(i), c->counts[i]);
	json_obj_end(&j);
	json_key(&j, "entries");
	json_arr_start(&j);
	for (i = 0; i < c->n; i++)
		json_entry(&j, &c->entries[i]);
	json_arr_end(&j);
	json_obj_end(&j);
	json_end(&j);
}

/* ---- the command ---- */

/* What the command line asks for, besides what goes into struct check. */
struct check_args {
	const char *db, *entry, *scan_root, *root;
	const char *out;	/* -o */
	bool html;		/* --format html */
	char **tables;		/* -t */
	int ntables;
	bool help;		/* --help printed */
};

/* --quiet-days: 0 to 36500. */
static int parse_quiet_days(const char *arg, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < 0 || v > 36500) {
		fprintf(stderr, "abidep: --quiet-days takes a number of days from 0 to 36500, not '%s'\n",
			arg);
		return EX_USAGE;
	}
	*out = v;
	return EX_OK;
}

/* --format: text, json or html. */
static int check_format(const char *arg, struct check_args *a)
{
	a->html = !strcmp(arg, "html");
	if (!strcmp(arg, "json")) {
		cfg.json = true;
	} else if (!strcmp(arg, "text") || a->html) {
		cfg.json = cfg.pretty = false;
	} else {
		fprintf(stderr, "abidep: --format takes text, json or html, not '%s'\n", arg);
		return EX_USAGE;
	}
	return EX_OK;
}

/* One option (getopt's @ch) into @c or @a. */
static int check_option(int ch, struct check *c, struct check_args *a)
{
	switch (ch) {
	case 'd': a->db = optarg; return EX_OK;
	case 't':
		a->tables = xrealloc(a->tables, (a->ntables + 1) * sizeof(char *));
		a->tables[a->ntables++] = optarg;
		return EX_OK;
	case 'e': a->entry = optarg; return EX_OK;
	case 'n':
		if (parse_utc_time(optarg, &c->now)) {
			fprintf(stderr, "abidep: --now takes YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS][Z] or @SECONDS (UTC), not '%s'\n",
				optarg);
			return EX_USAGE;
		}
		return EX_OK;
	case 'q': return parse_quiet_days(optarg, &c->quiet_days);
	case 'k':
		if (!kver_valid(optarg)) {
			fprintf(stderr, "abidep: --kernel takes a kernel version (6.1, v6.12.3), not '%s'\n",
				optarg);
			return EX_USAGE;
		}
		c->kernel = optarg;
		return EX_OK;
	case 's': a->scan_root = optarg; return EX_OK;
	case 'r': a->root = optarg; return EX_OK;
	case 'w': c->count_sweeps = true; return EX_OK;
	case 'f': return check_format(optarg, a);
	case 'o': a->out = optarg; return EX_OK;
	case 'j': cfg.json = true; return EX_OK;
	case 'p': cfg.json = cfg.pretty = true; return EX_OK;
	case 'h': check_usage(stdout); a->help = true; return EX_OK;
	default: check_usage(stderr); return EX_USAGE;
	}
}

static int check_args(int argc, char **argv, struct check *c, struct check_args *a)
{
	static const struct option lopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "tables", required_argument, NULL, 't' },
		{ "entry", required_argument, NULL, 'e' },
		{ "now", required_argument, NULL, 'n' },
		{ "quiet-days", required_argument, NULL, 'q' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "scan", required_argument, NULL, 's' },
		{ "root", required_argument, NULL, 'r' },
		{ "count-sweeps", no_argument, NULL, 'w' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int ch, ret;

	getopt_restart();
	while ((ch = getopt_long(argc, argv, "d:t:o:jph", lopts, NULL)) != -1) {
		ret = check_option(ch, c, a);
		if (ret || a->help)
			return ret;
	}
	if (a->out && !a->html) {
		fprintf(stderr, "abidep: check -o FILE is for --format html (text and JSON go to standard output)\n");
		return EX_USAGE;
	}
	if (optind != argc) {
		fprintf(stderr, "abidep: check takes no argument '%s' (see abidep check --help)\n",
			argv[optind]);
		return EX_USAGE;
	}
	return EX_OK;
}

/* The entries to judge (@set's, or --entry's); an exit status. */
static int check_entries(struct check *c, const struct abi_set *set, const struct check_args *a)
{
	if (!check_select(c, set, a->entry))
		return EX_OK;
	if (a->entry) {
		fprintf(stderr, "abidep: no migration entry matches --entry %s; 'abidep tables list' lists them\n",
			a->entry);
		return EX_ENTRY;
	}
	fprintf(stderr, "abidep: the tables %s have no migration entry (Status: deprecated or removed)\n",
		a->ntables ? a->tables[0] : abidep_default_tables());
	return EX_USAGE;
}

/* The verdicts as text, JSON or a page; 0, or an exit status. */
static int check_print(struct check *c, struct check_html *h, const struct check_args *a)
{
	char err[1024];

	if (h) {
		if (check_html_write(h, c, a->db, a->scan_root, a->out, err, sizeof(err))) {
			fprintf(stderr, "abidep: %s\n", err);
			return EX_USAGE;
		}
		return EX_OK;
	}
	if (cfg.json)
		print_json(c, a->db, a->scan_root);
	else
		print_text(c, a->db);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "abidep: cannot write the output: %s\n", strerror(errno));
		return EX_USAGE;
	}
	return EX_OK;
}

/* Tables, entries, DB, scan: the verdicts, printed; the exit status. */
static int check_run(struct check *c, struct abi_set *set, const struct check_args *a)
{
	struct check_html *h = NULL;
	char err[1024];
	int ret;

	/* check uses no Description: skip_text. */
	if (abidep_load_tables(set, a->tables, a->ntables, true))
		return EX_USAGE;
	ret = check_entries(c, set, a);
	if (ret)
		return ret;
	if (a->html)
		h = check_html_new(c);
	if (check_read_db(c, a->db, err, sizeof(err))) {
		fprintf(stderr, "abidep: %s\n", err);
		ret = EX_DB;
	} else if (a->scan_root && check_scan(c, a->scan_root, set, err, sizeof(err))) {
		fprintf(stderr, "abidep: %s\n", err);
		ret = EX_USAGE;
	} else {
		check_judge(c);
		ret = check_print(c, h, a);
	}
	check_html_free(h, c);
	if (ret)
		return ret;
	return c->counts[V_BLOCKED] ? EX_FAIL : c->counts[V_NO_DATA] ? EX_NODATA : EX_OK;
}

int cmd_check(int argc, char **argv)
{
	struct check_args a = { .db = STORE_DEFAULT_PATH };
	struct check c = { .quiet_days = DEFAULT_QUIET_DAYS, .now = time(NULL) };
	struct abi_set set = { 0 };
	char *config = NULL, err[1024];
	int ret;

	if (argc == 2 && !strcmp(argv[1], "help")) {
		check_usage(stdout);
		return EX_OK;
	}
	ret = check_args(argc, argv, &c, &a);
	if (ret || a.help) {
		free(a.tables);
		return ret;
	}
	c.owner = owner_new(a.root);
	/* A root named on purpose must have a package database; / need not. */
	if (a.root && owner_load(c.owner, err, sizeof(err))) {
		fprintf(stderr, "abidep: %s\n", err);
		owner_free(c.owner);
		free(a.tables);
		return EX_USAGE;
	}
	if (c.kernel)
		c.config = config = xasprintf("%s/boot/config-%s", a.root ? a.root : "", c.kernel);
	ret = check_run(&c, &set, &a);
	free(config);
	check_free(&c);
	abi_set_free(&set);
	owner_free(c.owner);
	free(a.tables);
	return ret;
}
