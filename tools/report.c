// SPDX-License-Identifier: GPL-2.0
/*
 * abidep report: who uses the deprecated files (sysfs, /proc, cgroup v1), from
 * the usage store
 * the tracer keeps (store.c). Per table entry (What): the files used, and
 * per executable, uid, cgroup and operation the counts summed over the
 * tracer's sessions and hosts, with the package of the executable (dpkg or rpm).
 *
 *	abidep report [--db PATH] [--root DIR] [--entry PATTERN] [--since DATE] [--until DATE]
 *	abidep -j report
 *	abidep report --format prometheus [-o FILE]
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
 * The Prometheus form is node_exporter textfile-collector metrics, per
 * (entry, file, exe, package, uid, host, op): a fleet's Prometheus then shows
 * who uses what.
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

static void report_usage(FILE *f)
{
	fprintf(f,
		"Usage: abidep report [-j|-p] [-d PATH] [-t PATH]... [--root DIR] [--entry PATTERN]\n"
		"                     [--since DATE] [--until DATE] [--by-host] [-w] [-o FILE]\n"
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
		"                   (default %s); may be repeated\n"
		"  --root DIR       name executables' packages from DIR's dpkg or rpm\n"
		"                   database (both: dpkg's first; default /; '-' for a\n"
		"                   file no package owns; -j adds their version)\n"
		"  --entry PATTERN  only this entry: a What, part of one or a glob, or a\n"
		"                   concrete sysfs path or glob\n"
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
		"                   op (cgroups summed); or html: one self-contained page\n"
		"                   (no script, nothing fetched), per entry its users per\n"
		"                   executable and daily use, per host its tracer\n"
		"                   sessions on a timeline\n"
		"  -o, --output FILE  write FILE atomically (a temporary file renamed), not\n"
		"                   standard output\n"
		"  -w, --wide       text at full width; else it is fitted to $COLUMNS when\n"
		"                   set, or to a terminal's width (long columns cut in the\n"
		"                   middle with '...', lines wrapped); a pipe without\n"
		"                   $COLUMNS, and -o FILE, get full width\n"
		"  -h, --help       this help\n"
		"\n",
		ABI_ENUMERATORS, STORE_DEFAULT_PATH, abidep_default_tables(),
		STORE_HISTORY_DAYS, NAMES_SHOWN);
	abidep_exit_help(f, "0 done (an empty report too)", EXB(EXIT_USAGE) | EXB(EXIT_DB));
}

/* ---- collecting ---- */

static bool same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* The entry of @what, if there is one: mostly the last, as the store walks in What order. */
static struct entry *entry_find(struct report *r, const char *what)
{
	int i;

	for (i = r->n - 1; i >= 0; i--)
		if (same(r->entries[i].what, what))
			return &r->entries[i];
	return NULL;
}

/* The entry of @what, added when there is none. */
static struct entry *entry_of(struct report *r, const char *what)
{
	struct entry *e = entry_find(r, what);

	if (e)
		return e;
	e = GROW(r->entries, r->n, r->cap);
	memset(e, 0, sizeof(*e));
	e->what = dup_or_null(what);
	e->last_seen = LLONG_MIN;
	e->abi = abi_entry_of_what(&r->set, what);
	return e;
}

static int add_file(const struct usage_file *f, void *arg)
{
	struct entry *e = entry_of(arg, f->what);

	*GROW(e->files, e->nfiles, e->fcap) = xstrdup(f->path);
	/* The entry's table and status as of its latest use. */
	if (f->last_seen > e->last_seen || !e->status) {
		free(e->table);
		free(e->status);
		e->table = dup_or_null(f->table);
		e->status = dup_or_null(f->status);
		e->last_seen = f->last_seen;
	}
	return 0;
}

/* Sums come by (what, exe, uid, cgroup, op), then host: merge the hosts. */
static int add_sum(const struct usage_sum *s, void *arg)
{
	struct report *r = arg;
	struct entry *e = entry_of(r, s->what);
	struct user *u = e->nusers ? &e->users[e->nusers - 1] : NULL;
	struct user_host *h;

	if (!u || strcmp(u->exe, s->exe) || u->uid != s->uid ||
	    !same(u->cgroup, s->cgroup) || strcmp(u->op, s->op)) {
		u = GROW(e->users, e->nusers, e->ucap);
		memset(u, 0, sizeof(*u));
		u->exe = xstrdup(s->exe);
		u->package = owner_of(r->owner, s->exe, &u->package_version);
		u->uid = s->uid;
		u->cgroup = dup_or_null(s->cgroup);
		u->op = xstrdup(s->op);
		u->counts = s->counts;
		u->ignored = abi_ignored(&r->set, e->abi, s->exe);
	} else {
		usage_add(&u->counts, &s->counts);
	}
	h = GROW(u->hosts, u->nhosts, u->hcap);
	memset(h, 0, sizeof(*h));
	h->host = xstrdup(s->host);
	h->counts = s->counts;
	return 0;
}

/* SQLite's order of a text column (BINARY): NULL first, then by bytes. */
static int cmp_text(const char *a, const char *b)
{
	if (!a || !b)
		return !!a - !!b;
	return strcmp(a, b);
}

/* A use during boot against a user: the store's order of both (add_sum()). */
static int cmp_user(const void *key, const void *elem)
{
	const struct usage_boot *b = key;
	const struct user *u = elem;
	int r = cmp_text(b->exe, u->exe);

	if (!r)
		r = b->uid < u->uid ? -1 : b->uid > u->uid;
	if (!r)
		r = cmp_text(b->cgroup, u->cgroup);
	return r ? r : cmp_text(b->op, u->op);
}

static int cmp_host(const void *key, const void *elem)
{
	return strcmp(key, ((const struct user_host *)elem)->host);
}

/*
 * A use during boot, onto its user's host and the user: the earliest
 * after boot of each. A row of no user of the report (another window's)
 * is left out.
 */
static int add_boot(const struct usage_boot *b, void *arg)
{
	struct report_boot boot = {
		.stage = !strcmp(b->stage, STORE_STAGE_INITRAMFS) ? STORE_STAGE_INITRAMFS :
			 STORE_STAGE_EARLY,
		.after_boot = b->after_boot,
	};
	struct entry *e = entry_find(arg, b->what);
	struct user *u = e && e->nusers ? bsearch(b, e->users, e->nusers, sizeof(*u), cmp_user) : NULL;
	struct user_host *h = u ? bsearch(b->host, u->hosts, u->nhosts, sizeof(*h), cmp_host) : NULL;

	if (!h)
		return 0;
	if (report_boot_earlier(&boot, &h->boot))
		h->boot = boot;
	if (report_boot_earlier(&boot, &u->boot))
		u->boot = boot;
	return 0;
}

/* How many users there are, and how many of them during boot. */
static void count_boots(struct report *r)
{
	int i, k;

	for (i = 0; i < r->n; i++)
		for (k = 0; k < r->entries[i].nusers; k++) {
			r->nusers++;
			r->nboot += r->entries[i].users[k].boot.stage != NULL;
		}
}

/* A session's losses, per host (sessions come in host order). */
static int add_loss(const struct usage_session *u, void *arg)
{
	struct report *r = arg;
	const struct store_filter *f = r->filter;
	struct report_loss *l = r->nlosses ? &r->losses[r->nlosses - 1] : NULL;

	if (u->lost_at == STORE_NO_LOSS || (f->since && u->lost_at < f->since))
		return 0;
	if (!l || strcmp(l->host, u->host)) {
		l = GROW(r->losses, r->nlosses, r->lcap);
		memset(l, 0, sizeof(*l));
		l->host = xstrdup(u->host);
		l->lost_at = u->lost_at;
	}
	l->unrecorded += u->unrecorded;
	l->skipped += u->skipped;
	if (u->lost_at > l->lost_at)
		l->lost_at = u->lost_at;
	return 0;
}

static void report_free(struct report *r)
{
	int i, k, h;

	for (i = 0; i < r->nlosses; i++)
		free(r->losses[i].host);
	free(r->losses);
	for (i = 0; i < r->n; i++) {
		struct entry *e = &r->entries[i];

		for (k = 0; k < e->nfiles; k++)
			free(e->files[k]);
		for (k = 0; k < e->nusers; k++) {
			struct user *u = &e->users[k];

			for (h = 0; h < u->nhosts; h++)
				free(u->hosts[h].host);
			free(u->hosts);
			free(u->exe);
			free(u->cgroup);
			free(u->op);
		}
		free(e->files);
		free(e->users);
		free(e->what);
		free(e->table);
		free(e->status);
	}
	free(r->entries);
	owner_free(r->owner);
	abi_set_free(&r->set);
}

/* Every query in one read transaction: one snapshot of a DB in use. */
static int collect(struct store *s, const struct store_filter *f, struct report *r)
{
	int ret;

	if (store_begin(s))
		return -1;
	r->filter = f;
	ret = store_files(s, f, add_file, r);
	if (!ret)
		ret = store_sums(s, f, add_sum, r);
	if (!ret)
		ret = store_boot_uses(s, f, add_boot, r);
	if (!ret)
		ret = store_each_session(s, add_loss, r);
	/* Entries unknown to the tracer (What NULL) come first: put them last. */
	if (!ret && r->n > 1 && !r->entries[0].what) {
		struct entry e = r->entries[0];

		memmove(r->entries, r->entries + 1, (r->n - 1) * sizeof(e));
		r->entries[r->n - 1] = e;
	}
	if (!ret && r->read_more)
		ret = r->read_more(s, r, r->read_more_arg);
	if (ret) {
		store_rollback(s);
		return -1;
	}
	count_boots(r);
	return store_commit(s);
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
		const struct entry *e = &r->entries[i];

		json_obj_start(&j);
		json_kstr(&j, "what", e->what);
		json_kstr(&j, "table", e->table);
		json_kstr(&j, "status", e->status);
		json_kstrs(&j, "files", e->files, e->nfiles);
		json_key(&j, "users");
		json_arr_start(&j);
		for (k = 0; k < e->nusers; k++) {
			const struct user *u = &e->users[k];

			json_obj_start(&j);
			json_kstr(&j, "exe", u->exe);
			json_kstr(&j, "package", u->package);
			json_kstr(&j, "package_version", u->package_version);
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

/* ---- Prometheus ---- */

static const char *const prom_labels[] = {
	"entry", "file", "exe", "package", "uid", "host", "op",
};
#define NLABELS (int)(sizeof(prom_labels) / sizeof(prom_labels[0]))

struct prom_ctx {
	struct prom *p;
	struct owner *owner;
};

/* The four families get one sample each per (what, path, exe, uid, op, host). */
static int add_metric(const struct usage_sum *u, void *arg)
{
	struct prom_ctx *c = arg;
	char uid[16], v[32];
	const char *values[NLABELS] = {
		u->what, u->path, u->exe, owner_of(c->owner, u->exe, NULL), uid, u->host, u->op,
	};

	snprintf(uid, sizeof(uid), "%u", u->uid);
	prom_family(c->p, "abidep_deprecated_access_total", "counter", NULL);
	snprintf(v, sizeof(v), "%llu", u->count);
	prom_sample(c->p, prom_labels, values, NLABELS, v);
	prom_family(c->p, "abidep_deprecated_access_errors_total", "counter", NULL);
	snprintf(v, sizeof(v), "%llu", u->errors);
	prom_sample(c->p, prom_labels, values, NLABELS, v);
	prom_family(c->p, "abidep_deprecated_access_swept_total", "counter", NULL);
	snprintf(v, sizeof(v), "%llu", u->swept);
	prom_sample(c->p, prom_labels, values, NLABELS, v);
	prom_family(c->p, "abidep_deprecated_access_last_seen_timestamp_seconds", "gauge", NULL);
	snprintf(v, sizeof(v), "%lld", u->last_seen);
	prom_sample(c->p, prom_labels, values, NLABELS, v);
	return 0;
}

static void add_loss_metrics(struct prom *p, const struct report_loss *l)
{
	static const char *const names[] = { "host" };
	const char *values[] = { l->host };
	char v[32];

	prom_family(p, "abidep_tracer_unrecorded_total", "counter", NULL);
	snprintf(v, sizeof(v), "%llu", l->unrecorded);
	prom_sample(p, names, values, 1, v);
	prom_family(p, "abidep_tracer_skipped_runs_total", "counter", NULL);
	snprintf(v, sizeof(v), "%llu", l->skipped);
	prom_sample(p, names, values, 1, v);
}

/*
 * Metrics from the DB to @out (NULL: standard output). Counts are summed
 * over sessions, so they only grow while rows are added: counters.
 */
static int report_prometheus(struct store *s, const struct store_filter *f,
			     struct owner *owner, const char *db, const char *out)
{
	struct prom_ctx c = { .p = prom_new(), .owner = owner };
	struct report lr = { .filter = f };
	char err[1024];
	int ret = EXIT_OK, i;

	/* Families declared first: an empty DB still gives HELP and TYPE. */
	prom_family(c.p, "abidep_deprecated_access_total", "counter",
		    "Uses of deprecated sysfs files seen by the abidep tracer, summed over its sessions.");
	prom_family(c.p, "abidep_deprecated_access_errors_total", "counter",
		    "Of those uses, the ones that failed.");
	prom_family(c.p, "abidep_deprecated_access_swept_total", "counter",
		    "Of those uses, the ones made within a sweep: the program opened most of the files (3 in 4, at least 4) of the directory its process group, or its parent's, listed.");
	prom_family(c.p, "abidep_deprecated_access_last_seen_timestamp_seconds", "gauge",
		    "The last use, in unix seconds.");
	prom_family(c.p, "abidep_tracer_unrecorded_total", "counter",
		    "Accesses the abidep tracer saw but could not record (usage map full, or a uid over its new-key quota), summed over its sessions: any may have been a use.");
	prom_family(c.p, "abidep_tracer_skipped_runs_total", "counter",
		    "Runs of the abidep tracer's programs the kernel skipped (one already running on that CPU), summed over its sessions: up to as many accesses not seen.");
	if (store_begin(s) || store_path_sums(s, f, add_metric, &c) ||
	    store_each_session(s, add_loss, &lr) || store_commit(s)) {
		fprintf(stderr, "abidep: cannot read the usage DB %s: %s\n", db, store_errmsg(s));
		store_rollback(s);
		ret = EXIT_DB;
		goto out;
	}
	for (i = 0; i < lr.nlosses; i++)
		add_loss_metrics(c.p, &lr.losses[i]);
	if (out) {
		if (prom_write_file(c.p, out, err, sizeof(err))) {
			fprintf(stderr, "abidep: %s\n", err);
			ret = EXIT_USAGE;
		}
	} else if (prom_write(c.p, stdout)) {
		fprintf(stderr, "abidep: cannot write the metrics: %s\n", strerror(errno));
		ret = EXIT_USAGE;
	}
out:
	for (i = 0; i < lr.nlosses; i++)
		free(lr.losses[i].host);
	free(lr.losses);
	prom_free(c.p);
	return ret;
}

/* ---- the command ---- */

/* What the command line asks for. */
struct report_args {
	const char *db, *root, *since, *until, *out;
	char **tables;		/* -t */
	int ntables;
	const char *entry;	/* --entry PATTERN */
	struct entry_sel sel;	/* its selector, once the tables are read */
	struct store_filter f;
	enum out_format format;	/* --format, -j */
	bool wide;		/* -w: text not fitted to the terminal */
	bool by_host;		/* a row per host, lists in full */
	bool help;		/* --help printed */
};

static int report_option(int c, struct report_args *a)
{
	switch (c) {
	case 'd': a->db = optarg; return EXIT_OK;
	case 't':
		a->tables = xrealloc(a->tables, (a->ntables + 1) * sizeof(char *));
		a->tables[a->ntables++] = optarg;
		return EXIT_OK;
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
	case 'f':
		return format_parse(optarg, FMTB(FMT_TEXT) | FMTB(FMT_JSON) | FMTB(FMT_CSV) |
				    FMTB(FMT_MARKDOWN) | FMTB(FMT_PROMETHEUS) | FMTB(FMT_HTML),
				    &a->format);
	case 'o': a->out = optarg; return EXIT_OK;
	case 'w': a->wide = true; return EXIT_OK;
	case 'H': a->by_host = true; return EXIT_OK;
	case 'j': a->format = FMT_JSON; return EXIT_OK;
	case 'p': a->format = FMT_JSON; cfg.pretty = true; return EXIT_OK;
	case 'h': report_usage(stdout); a->help = true; return EXIT_OK;
	default: report_usage(stderr); return EXIT_USAGE;
	}
}

static int report_args(int argc, char **argv, struct report_args *a)
{
	static const struct option lopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "tables", required_argument, NULL, 't' },
		{ "root", required_argument, NULL, 'r' },
		{ "entry", required_argument, NULL, 'e' },
		{ "since", required_argument, NULL, 's' },
		{ "until", required_argument, NULL, 'u' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "wide", no_argument, NULL, 'w' },
		{ "by-host", no_argument, NULL, 'H' },
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c, ret;

	getopt_restart();
	a->format = cfg.json ? FMT_JSON : FMT_TEXT;
	while ((c = getopt_long(argc, argv, "d:t:o:wjph", lopts, NULL)) != -1) {
		ret = report_option(c, a);
		if (ret || a->help)
			return ret;
	}
	if (a->since && a->until && a->f.since > a->f.until) {
		fprintf(stderr, "abidep: report --since %s is after --until %s: nothing can match\n",
			a->since, a->until);
		return EXIT_USAGE;
	}
	cfg.json = a->format == FMT_JSON;
	if (optind != argc) {
		fprintf(stderr, "abidep: report takes no argument '%s' (see abidep report --help)\n",
			argv[optind]);
		return EXIT_USAGE;
	}
	return EXIT_OK;
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
static int report_output(const struct report *r, struct report_html *h,
			 const struct report_args *a, long long rows)
{
	struct output o;
	char err[1024];

	if (output_open(&o, a->out, err, sizeof(err))) {
		fprintf(stderr, "abidep: %s\n", err);
		return EXIT_USAGE;
	}
	if (a->format == FMT_JSON)
		print_json(r, o.f);
	else if (a->format == FMT_HTML)
		report_html_print(h, r, a->db, rows, o.f);
	else if (!r->n && a->format != FMT_CSV)
		print_none(a, rows, o.f);
	else
		report_print(r, a->by_host, o.f, a->format, output_width(&o, a->wide));
	if (output_close(&o, err, sizeof(err))) {
		fprintf(stderr, "abidep: %s\n", err);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* The report of the open store @s in --format's form. */
static int report_store(struct store *s, const struct report_args *a, struct report *r)
{
	long long rows = store_rows(s);
	struct report_html *h = NULL;
	int ret;

	r->filter = &a->f;
	/* The page shows the sessions of a DB without rows too. */
	if (a->format == FMT_HTML)
		h = report_html_new(r);
	if (rows < 0 || ((rows || h) && collect(s, &a->f, r))) {
		fprintf(stderr, "abidep: cannot read the usage DB %s: %s\n", a->db, store_errmsg(s));
		ret = EXIT_DB;
	} else {
		ret = report_output(r, h, a, rows);
	}
	report_html_free(h, r);
	return ret;
}

/*
 * The tables, for their enumerators (text and JSON only); an exit status.
 * Tables named with -t must load; without them the report still reads the
 * DB (a merged one, on a machine without abidep's tables), unmarked.
 */
static int report_tables(struct report *r, const struct report_args *a)
{
	if (a->format == FMT_PROMETHEUS) {
		if (a->ntables)
			fprintf(stderr, "abidep: report: -t is not used by --format prometheus\n");
		return EXIT_OK;
	}
	/* The report uses no Description: skip_text. */
	if (!abidep_load_tables(&r->set, a->tables, a->ntables, true))
		return EXIT_OK;
	if (a->ntables)
		return EXIT_USAGE;
	abi_set_free(&r->set);
	memset(&r->set, 0, sizeof(r->set));
	fprintf(stderr, "abidep: report: known enumerators are not marked (give the tables with -t)\n");
	return EXIT_OK;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = { .db = STORE_DEFAULT_PATH };
	struct report r = { 0 };
	struct store *s;
	char err[1024];
	int ret;

	if (argc == 2 && !strcmp(argv[1], "help")) {
		report_usage(stdout);
		return EXIT_OK;
	}
	ret = report_args(argc, argv, &a);
	if (ret || a.help || (ret = report_tables(&r, &a)))
		goto out;
	if (a.entry) {
		entry_sel_init(&a.sel, &r.set, a.entry);
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
	if (a.format == FMT_PROMETHEUS)
		ret = report_prometheus(s, &a.f, r.owner, a.db, a.out);
	else
		ret = report_store(s, &a, &r);
	store_close(s);
out:
	entry_sel_free(&a.sel);
	report_free(&r);
	free(a.tables);
	return ret;
}
