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
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "main.h"
#include "check_eval.h"
#include "entry.h"
#include "usage_source.h"
#include "prom.h"
#include "prom_api.h"
#include "check_html.h"
#include "check_text.h"
#include "utctime.h"
#include "owner.h"
#include "json.h"
#include "output.h"
#include "rootfs.h"
#include "text.h"
#include "store.h"
#include "tables_load.h"
#include "util.h"

#define DEFAULT_QUIET_DAYS 30
/* --prometheus-timeout: seconds for all of the requests to Prometheus. */
#define DEFAULT_PROM_TIMEOUT 60
/* --prometheus-memory: up to a TiB, in MiB. */
#define PROM_MEMORY_MIB_MAX (1UL << 20)

void check_usage(FILE *f)
{
	fprintf(f,
		"Usage: abidep check [-j|-p] [-d PATH | --prometheus URL] [-t PATH]...\n"
		"                    [--prometheus-timeout SECONDS] [--prometheus-memory MIB]\n"
		"                    [--prometheus-netrc FILE]\n"
		"                    [--entry PATTERN] [--now DATE] [--quiet-days N]\n"
		"                    [--kernel VERSION] [--scan ROOT] [--root DIR]\n"
		"                    [--scan-packages PATH]... [--cache DIR]\n"
		"                    [--count-sweeps] [--allow-late-boot] [--by-host]\n"
		"                    [--format text|json|csv|markdown|html] [-o FILE] [-w]\n"
		"\n"
		"Which deprecated sysfs attributes can be removed now. For every migration\n"
		"entry: its removal due date (Remove-after, from the tables), its uses\n"
		"(the usage DB of 'abidep trace', one host or merged with 'abidep merge'),\n"
		"and with --scan (--scan-packages) the files (package files) that reference\n"
		"it. Verdicts:\n"
		"  ready    due; no use for --quiet-days; no strong or medium reference\n"
		"  blocked  due, and used in that time or referenced (blockers listed)\n"
		"  not-due  Remove-after not passed (or none; or a kernel version\n"
		"           without --kernel)\n"
		"  no-data  due, not blocked, but the DB cannot show the window was quiet:\n"
		"           on some host the tracer did not run through it (its sessions,\n"
		"           a day's gap allowed), or did not watch the entry's files\n"
		"           through it (no such file there: abidep.ko not loaded, no\n"
		"           device), or a boot of it in the window was observed only late,\n"
		"           or the entry's files appeared after an early boot's pin\n"
		"           (below); a DB without sessions (older abidep): no use of\n"
		"           anything from before the window\n"
		"  removed  Status: removed, and --kernel is at or past its Removed: kernel\n"
		"           version: already removed from that kernel (uses still listed);\n"
		"           or an option of its Config: is not set in --kernel's\n"
		"           configuration (ROOT/boot/config-VERSION): not built there\n"
		"Status: removed entries are always due. The uses of known enumerators\n"
		"(tools that read every attribute: the tables' Ignore: fields and\n"
		"%s files) do not block, nor do a program's uses that were all\n"
		"swept (the program opened most of the files, 3 in 4 and at least 4, of\n"
		"the directory its process group or its parent's listed); one use by\n"
		"name blocks. They are\n"
		"listed as \"enumerated by\".\n"
		"\n"
		"Programs that read a file at boot only (udev rules at coldplug, early\n"
		"units) are seen only by a tracer loaded before them. A host's sessions\n"
		"are grouped by boot (the boot id in the session id); a boot overlaps the\n"
		"window when any of its sessions' [started, last sync] does; it was\n"
		"observed from early boot when its earliest session's stage is initramfs\n"
		"or early (before systemd-udevd started), only late when that stage is\n"
		"late or unknown (an older tracer's). A host with a boot overlapping the\n"
		"window observed only late does not cover the window: entries ready on\n"
		"its evidence are no-data, the reason naming the host and the boot\n"
		"(--allow-late-boot lets such boots cover it). A boot observed from\n"
		"early boot is so for an entry only if its files were watched from the\n"
		"pin: where a What's run at its earliest session's start had no file,\n"
		"and its next run, with files, began by that session's first sync (the\n"
		"files appeared after the pin, at coldplug, unwatched until then), the\n"
		"entry is no-data on that host, unless --allow-late-boot. Files that\n"
		"appear after the first sync (a device added later) are not this case;\n"
		"a session with no run at its start (no pin recorded) is judged by its\n"
		"stage alone.\n"
		"\n"
		"Times are each boot's own (CLOCK_BOOTTIME), placed by its best reading\n"
		"of the wall clock: its latest synchronized one, else its last. A use\n"
		"in a boot whose clock was never synchronized counts in the window when\n"
		"any of its readings puts it there. A host two of whose boots overlap\n"
		"once placed, or whose boot never synchronized was set back, does not\n"
		"cover the window: its clock, not the tracer, is wrong there.\n"
		"\n"
		"  -d, --db PATH      the usage DB (default %s), read-only.\n"
		"                     With --scan or --scan-packages and no file at the\n"
		"                     default path (nothing traced), the references are\n"
		"                     judged alone: they block, and no entry is ready\n"
		"                     (no-data); a DB named with -d must exist\n"
		"  --prometheus URL   the uses and coverage a fleet's hosts export\n"
		"                     (abidep-metrics.timer), read from the Prometheus\n"
		"                     server at URL (http://host:9090), not a DB: the same\n"
		"                     verdicts as on their merged DB; credentials in URL\n"
		"                     are never printed, but every user reads the command\n"
		"                     line (ps): give them with --prometheus-netrc;\n"
		"                     --quiet-days at most 44 (the hosts export 45 days\n"
		"                     of sessions)\n"
		"  --prometheus-timeout SECONDS  the bound of all the requests to the\n"
		"                     server together, not of each (default %d); past\n"
		"                     it, no verdict (exit 15)\n"
		"  --prometheus-memory MIB  the bound of the memory the server's answers\n"
		"                     take together (default %d): as text, parsed, kept,\n"
		"                     and the tables made of them; past it, no verdict\n"
		"                     (exit 15), never one on part of them\n"
		"  --prometheus-netrc FILE  the user name and password for --prometheus\n"
		"                     from FILE, a netrc file, as curl reads it (machine\n"
		"                     HOST login USER password PASSWORD), for what URL\n"
		"                     does not give; read by libcurl, never printed;\n"
		"                     keep it mode 0600\n"
		"  -t, --tables PATH  the migration tables (default %s)\n"
		"  --entry PATTERN    only entries whose What contains or matches PATTERN,\n"
		"                     or that a concrete sysfs path PATTERN matches; a\n"
		"                     name (no '/', no glob) names one entry: the one\n"
		"                     it selects, or whose What ends in it; else exit 10\n"
		"  --now DATE         judge as of DATE (UTC: YYYY-MM-DD,\n"
		"                     YYYY-MM-DDTHH:MM[:SS][Z] or @UNIXSECONDS); default now\n"
		"  --quiet-days N     how long without use makes ready (default %d)\n"
		"  --kernel VERSION   the kernel to judge Remove-after and Removed versions\n"
		"                     against\n"
		"  --scan ROOT        also scan ROOT's files for references (abidep scan); a\n"
		"                     file it cannot read leaves no entry ready (no-data)\n"
		"  --scan-packages PATH  also scan package files (.deb, .rpm) or directories\n"
		"                     of them, as abidep scan reads them; repeatable. A\n"
		"                     package that cannot be read leaves no entry ready\n"
		"                     (no-data)\n"
		"  --cache DIR        the package scan's cache (abidep scan --cache)\n"
		"  --root DIR         name executables' packages from DIR's dpkg or rpm\n"
		"                     database (both: dpkg's first; -j adds their version),\n"
		"                     and read --kernel's configuration from DIR/boot\n"
		"                     (default /)\n"
		"  --count-sweeps     count the known enumerators' and the swept uses as\n"
		"                     blockers too\n"
		"  --allow-late-boot  let a boot observed only late (stage late or unknown)\n"
		"                     cover the window, as before abidep recorded stages,\n"
		"                     and an entry's files that appeared after an early\n"
		"                     boot's pin count as watched from it: readers at\n"
		"                     boot go unseen\n"
		"  --by-host          a line per (executable, uid, host) and every host named;\n"
		"                     without it, uses are summed per executable across\n"
		"                     hosts and uids, and lists of hosts show %d and how\n"
		"                     many more\n"
		"  --format FORMAT    text (default), json (as -j), csv (a row per use or\n"
		"                     reference, every host) or markdown (the tables, to\n"
		"                     paste into a ticket), or html: one self-contained page\n"
		"                     (no script, nothing fetched): the verdicts, per entry\n"
		"                     its users and daily use by executable, per host the\n"
		"                     tracer's sessions over the quiet window\n"
		"  -o, --output FILE  write FILE (atomically: a temporary file renamed), not\n"
		"                     standard output\n"
		"  -w, --wide         text at full width; else it is fitted to $COLUMNS when\n"
		"                     set, or to a terminal's width (long columns cut in\n"
		"                     the middle with '...', lines wrapped); a pipe\n"
		"                     without $COLUMNS, and -o FILE, get full width\n"
		"  -j, --json         JSON; -p, --pretty: pretty-printed. Each use's\n"
		"                     uses_in_window counts its uses on the window's days\n"
		"                     (UTC), from the DB's daily history; null without it\n"
		"  -h, --help         this help\n"
		"\n",
		ABI_ENUMERATORS, STORE_DEFAULT_PATH, DEFAULT_PROM_TIMEOUT, PROM_MEMORY_MIB,
		abidep_default_tables(), DEFAULT_QUIET_DAYS, NAMES_SHOWN);
	abidep_exit_help(f, "0 every entry judged is ready or removed; 1 some entry is blocked",
			 EXB(EXIT_USAGE) | EXB(EXIT_DB) | EXB(EXIT_ENTRY) | EXB(EXIT_NODATA) |
			 EXB(EXIT_NOTDUE) | EXB(EXIT_PROM));
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
	json_kstr(j, "maintainer", u->package_maintainer);
	json_kstr(j, "source_package", u->package_source);
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

/* The hosts that did not watch the entry through the window, and why. */
static void json_unwatched(struct json *j, const struct check_entry *ce)
{
	static const char *const why[] = {
		[W_NO_FILE] = "no-file", [W_NOT_TABLED] = "not-in-tables", [W_PART] = "part",
		[W_AT_BOOT] = "unwatched-at-boot",
	};
	int k;

	json_key(j, "unwatched_hosts");
	json_arr_start(j);
	for (k = 0; k < ce->nunwatched; k++) {
		json_obj_start(j);
		json_kstr(j, "host", ce->unwatched[k].host);
		json_kstr(j, "why", why[ce->unwatched[k].why]);
		json_obj_end(j);
	}
	json_arr_end(j);
	/* Hosts whose sessions in the window did not record what they watched. */
	json_kint(j, "watched_set_unknown", ce->nwatch_unknown);
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
	json_unwatched(j, ce);
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
			if (h->archive)
				json_kstr(j, "archive", h->archive);
			json_kstr(j, "file", h->file);
			json_kint(j, "line", (long long)h->line);
			json_kstr(j, "package", h->package);
			json_kstr(j, "package_version", h->package_version);
			json_kstr(j, "maintainer", h->pkg ? h->pkg->maintainer : NULL);
			json_kstr(j, "source_package", h->pkg ? h->pkg->source : NULL);
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
			json_kstr(j, "reason", check_enum_reason(u));
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

/*
 * A boot's wall clock (check_clock.c): null for an older tracer's, which
 * kept no reading; else whether it was ever synchronized, how much later
 * than placed its times may be, and its steps.
 */
static void json_boot_clock(struct json *j, const struct boot_clock *b)
{
	int i;

	json_key(j, "clock");
	if (!b) {
		json_null(j);
		return;
	}
	json_obj_start(j);
	json_kbool(j, "synchronized", b->synced);
	json_kint(j, "doubt_seconds", b->doubt);
	json_key(j, "steps");
	json_arr_start(j);
	for (i = 0; i < b->nsteps; i++) {
		json_obj_start(j);
		json_when_str(j, "at", b->steps[i].at);
		json_kint(j, "seconds", b->steps[i].seconds);
		json_kbool(j, "synchronized", b->steps[i].synced);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

/*
 * Each host's boots that overlap the quiet window, and how early the
 * tracer saw each: the rule of check_eval.c's add_boot().
 */
static void json_host_boots(struct json *j, const struct check *c)
{
	int i, k;

	json_key(j, "host_boots");
	json_arr_start(j);
	for (i = 0; i < c->nshosts; i++) {
		const struct check_host *h = &c->shosts[i];

		json_obj_start(j);
		json_kstr(j, "host", h->host);
		json_key(j, "boots");
		json_arr_start(j);
		for (k = 0; k < h->nboots; k++) {
			const struct check_boot *b = &h->boots[k];
			char *name;

			if (!b->overlaps)
				continue;
			name = check_boot_name(b);
			json_obj_start(j);
			json_kstr(j, "boot", name);
			/* null: unknown (an older tracer's, or a pin of another session). */
			json_kstr(j, "stage", b->stage < 3 ? check_stage_names[b->stage] : NULL);
			json_kbool(j, "observed_early", b->early);
			/* Of an early boot: the Whats whose files came after the pin. */
			json_kstrs(j, "unwatched_at_boot", (char *const *)b->after_pin,
				   b->nafter_pin);
			json_boot_clock(j, b->clock);
			json_obj_end(j);
			free(name);
		}
		json_arr_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
}

/* The hosts that do not cover the window, and why. */
static void json_uncovered(struct json *j, const struct check *c)
{
	int i;

	json_key(j, "uncovered_hosts");
	json_arr_start(j);
	for (i = 0; i < c->nshosts; i++) {
		const struct check_host *h = &c->shosts[i];

		if (h->covers)
			continue;
		json_obj_start(j);
		json_kstr(j, "host", h->host);
		/* Where its key's id came from: machine-id, boot-id; null: a name alone. */
		json_kstr(j, "host_id", h->host_id);
		json_when_str(j, "last_sync", h->last_sync);
		json_when_str(j, "covered_until", h->covered_until);
		/* ran: its sessions chain through the window; lost: in it. */
		json_kbool(j, "ran", h->ran);
		json_kint(j, "unrecorded", h->unrecorded);
		json_kint(j, "skipped", h->skipped);
		json_when_str(j, "lost_at", h->lost_at);
		/* A boot in the window observed only late, not allowed. */
		json_kbool(j, "late_boot", h->late && !c->allow_late_boot);
		/* Its wall clock was wrong in the window: why (check_clock.c); null: not. */
		json_kstr(j, "clock", h->clock_why);
		json_obj_end(j);
	}
	json_arr_end(j);
}

static void json_db(struct json *j, const struct check *c, const char *db)
{
	int i;

	json_key(j, "db");
	json_obj_start(j);
	json_kstr(j, "path", db);
	/* false: no DB there, the references judged alone (none ready). */
	json_kbool(j, "exists", !c->no_db);
	json_kint(j, "rows", c->rows);
	json_kint(j, "unmatched_rows", c->unmatched_rows);
	json_kstrs(j, "hosts", c->hosts, c->nhosts);
	json_when_str(j, "first_use", c->first_use);
	json_when_str(j, "last_use", c->last_use);
	json_kint(j, "sessions", c->nsessions);
	/* Which rule judged the window: see check_eval.c. */
	json_kstr(j, "coverage", c->no_db ? "none" : c->nsessions ? "sessions" : "first-use");
	json_kint(j, "watched_set_unknown_hosts", c->nwatch_unknown);
	/* The sessions in the window by how early in their boot they began. */
	json_key(j, "sessions_by_stage");
	json_obj_start(j);
	for (i = 0; i < 4; i++)
		json_kint(j, check_stage_names[i], c->nstage[i]);
	json_obj_end(j);
	/* Hosts with a boot in the window observed only late, allowed or not. */
	json_kint(j, "late_boot_hosts", c->nlate);
	/* Hosts with an early boot in it whose files of a What came after the pin. */
	json_kint(j, "unwatched_at_boot_hosts", c->nafter_pin);
	/* Hosts whose clock was wrong in the window; with a boot never synchronized in it. */
	json_kint(j, "clock_wrong_hosts", c->nclock_wrong);
	json_kint(j, "unsynchronized_hosts", c->nunsynced);
	json_host_boots(j, c);
	json_uncovered(j, c);
	json_obj_end(j);
}

/* The package scan: its totals and what could not be read; null without one. */
static void json_scan_packages(struct json *j, const struct check *c)
{
	const struct scan_result *r = &c->pkgscan;
	size_t i;

	if (!c->pkgs_scanned) {
		json_null(j);
		return;
	}
	json_obj_start(j);
	json_kint(j, "packages", (long long)r->npackages);
	json_kint(j, "cached", (long long)r->ncached);
	json_kint(j, "files", (long long)r->files);
	json_kint(j, "references", (long long)r->nhits);
	json_key(j, "unreadable");
	json_arr_start(j);
	for (i = 0; i < r->nunreadable; i++) {
		json_obj_start(j);
		json_kstr(j, "file", r->unreadable[i].file);
		json_kstr(j, "error", r->unreadable[i].why ? r->unreadable[i].why :
			  root_strerror(r->unreadable[i].err));
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

static void print_json(const struct check *c, const char *db, const char *scan_root, FILE *out)
{
	struct json j;
	char t[64];
	int i;

	json_init(&j, out, cfg.pretty);
	json_obj_start(&j);
	json_kstr(&j, "now", iso_time(c->now, t, sizeof(t)));
	json_kint(&j, "quiet_days", c->quiet_days);
	json_kstr(&j, "quiet_since", iso_time(c->quiet_since, t, sizeof(t)));
	json_kstr(&j, "kernel", c->kernel);
	json_kbool(&j, "count_sweeps", c->count_sweeps);
	json_kbool(&j, "allow_late_boot", c->allow_late_boot);
	json_db(&j, c, db);
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
	json_key(&j, "scan_packages");
	json_scan_packages(&j, c);
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
	bool db_given;		/* -d: the DB must exist */
	const char *prom_url;	/* --prometheus URL: the usage source, not the DB */
	long prom_timeout;
	unsigned long prom_memory_mib;
	const char *prom_netrc;	/* --prometheus-netrc FILE */
	char **pkg_paths;	/* --scan-packages PATH... */
	int npkg_paths;
	const char *cache_dir;	/* --cache DIR, for them */
	char **tables;		/* -t */
	int ntables;
	enum out_format format;	/* --format, -j */
	const char *out;	/* -o FILE */
	bool wide;		/* -w: text not fitted to the terminal */
	bool by_host;		/* a line per (exe, uid, host), lists in full */
};

/* --quiet-days: 0 to 36500. */
static int parse_quiet_days(const char *arg, int *out)
{
	unsigned long v;

	if (parse_uint(arg, 0, 36500, &v)) {
		fprintf(stderr, "abidep: --quiet-days takes a number of days from 0 to 36500, not '%s'\n",
			arg);
		return EXIT_USAGE;
	}
	*out = v;
	return EXIT_OK;
}

/* One of check's own options (getopt's @ch) into @c or @a. */
static int check_option(int ch, struct check *c, struct check_args *a)
{
	unsigned long v;

	switch (ch) {
	case 'e': a->entry = optarg; return EXIT_OK;
	case 'n':
		if (parse_utc_time(optarg, &c->now)) {
			fprintf(stderr, "abidep: --now takes YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS][Z] or @SECONDS (UTC), not '%s'\n",
				optarg);
			return EXIT_USAGE;
		}
		return EXIT_OK;
	case 'q': return parse_quiet_days(optarg, &c->quiet_days);
	case 'k':
		if (!kver_valid(optarg)) {
			fprintf(stderr, "abidep: --kernel takes a kernel version (6.1, v6.12.3), not '%s'\n",
				optarg);
			return EXIT_USAGE;
		}
		c->kernel = optarg;
		return EXIT_OK;
	case 's': a->scan_root = optarg; return EXIT_OK;
	case 'P':
		a->pkg_paths = xrealloc(a->pkg_paths, (a->npkg_paths + 1) * sizeof(char *));
		a->pkg_paths[a->npkg_paths++] = optarg;
		return EXIT_OK;
	case 'C': a->cache_dir = optarg; return EXIT_OK;
	case 'r': a->root = optarg; return EXIT_OK;
	case 'S': c->count_sweeps = true; return EXIT_OK;
	case 'B': c->allow_late_boot = true; return EXIT_OK;
	case 'H': a->by_host = true; return EXIT_OK;
	case 'M': a->prom_url = optarg; return EXIT_OK;
	case 'N': a->prom_netrc = optarg; return EXIT_OK;
	case 'T':
		if (parse_uint(optarg, 1, 3600, &v)) {
			fprintf(stderr, "abidep: --prometheus-timeout takes seconds from 1 to 3600, not '%s'\n",
				optarg);
			return EXIT_USAGE;
		}
		a->prom_timeout = v;
		return EXIT_OK;
	case 'Y':
		if (parse_uint(optarg, 1, PROM_MEMORY_MIB_MAX, &v)) {
			fprintf(stderr, "abidep: --prometheus-memory takes MiB from 1 to %lu, not '%s'\n",
				PROM_MEMORY_MIB_MAX, optarg);
			return EXIT_USAGE;
		}
		a->prom_memory_mib = v;
		return EXIT_OK;
	default: return EXIT_OK;
	}
}

/* -1 to go on, or the exit status (after --help, or a usage error). */
static int check_args(int argc, char **argv, struct check *c, struct check_args *a)
{
	static const struct option lopts[] = {
		{ "entry", required_argument, NULL, 'e' },
		{ "now", required_argument, NULL, 'n' },
		{ "quiet-days", required_argument, NULL, 'q' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "scan", required_argument, NULL, 's' },
		{ "scan-packages", required_argument, NULL, 'P' },
		{ "cache", required_argument, NULL, 'C' },
		{ "root", required_argument, NULL, 'r' },
		{ "count-sweeps", no_argument, NULL, 'S' },
		{ "allow-late-boot", no_argument, NULL, 'B' },
		{ "by-host", no_argument, NULL, 'H' },
		{ "prometheus", required_argument, NULL, 'M' },
		{ "prometheus-timeout", required_argument, NULL, 'T' },
		{ "prometheus-memory", required_argument, NULL, 'Y' },
		{ "prometheus-netrc", required_argument, NULL, 'N' },
		{ 0 }
	};
	static const struct cmd_opts spec = {
		"", lopts, OPT_TABLES | OPT_DB | OPT_OUTPUT | OPT_FORMAT | OPT_WIDE,
		FMTB(FMT_TEXT) | FMTB(FMT_JSON) | FMTB(FMT_CSV) | FMTB(FMT_MARKDOWN) |
		FMTB(FMT_HTML), check_usage
	};
	struct opts o;
	int ch, ret = EXIT_OK;

	opts_start(&o, &spec);
	while (!ret && (ch = opts_next(&o, argc, argv)) != -1)
		ret = check_option(ch, c, a);
	if (!ret && a->prom_url && o.ndbs) {
		fprintf(stderr, "abidep: --prometheus and --db are two sources of usage: give one\n");
		ret = EXIT_USAGE;
	}
	/*
	 * The hosts export the sessions of PROM_HORIZON_DAYS, and a window is
	 * covered from a day (CHECK_GRACE) after its start: a longer one would
	 * find every host uncovered, or miss one silent since before it.
	 */
	if (!ret && a->prom_url && c->quiet_days > PROM_HORIZON_DAYS - 1) {
		fprintf(stderr, "abidep: --prometheus serves a --quiet-days of at most %d: the hosts export %d days of sessions (for a longer window, merge their DBs)\n",
			PROM_HORIZON_DAYS - 1, PROM_HORIZON_DAYS);
		ret = EXIT_USAGE;
	}
	a->db_given = o.ndbs > 0;
	opts_keep(&o, &a->db, &a->tables, &a->ntables, &a->out, &a->format, &a->wide);
	ret = opts_end(&o, ret);
	if (ret >= 0)
		return ret;
	if (optind != argc) {
		fprintf(stderr, "abidep: check takes no argument '%s' (see abidep check --help)\n",
			argv[optind]);
		return EXIT_USAGE;
	}
	return -1;
}

/* A name that selected several entries: exit 10, with the candidates. */
static int check_ambiguous(const struct check *c, const char *name)
{
	bool *chosen = xcalloc(c->set->nentries + 1, sizeof(*chosen));
	int i;

	for (i = 0; i < c->set->nentries; i++)
		chosen[i] = c->of_entry[i];
	entry_print_ambiguous(stderr, c->set, chosen, name);
	free(chosen);
	return EXIT_ENTRY;
}

/* The entries to judge (@set's, or --entry's); an exit status. */
static int check_entries(struct check *c, const struct abi_set *set, const struct check_args *a)
{
	if (!check_select(c, set, a->entry))
		return check_name_ambiguous(c, a->entry) ? check_ambiguous(c, a->entry) : EXIT_OK;
	if (a->entry) {
		fprintf(stderr, "abidep: no migration entry matches --entry %s; 'abidep tables list' lists them\n",
			a->entry);
		return EXIT_ENTRY;
	}
	fprintf(stderr, "abidep: the tables %s have no migration entry (Status: deprecated or removed)\n",
		a->ntables ? a->tables[0] : abidep_default_tables());
	return EXIT_USAGE;
}

/* The verdicts in --format's form, to -o FILE or standard output; -1 on failure. */
static int check_output(const struct check *c, const struct check_args *a)
{
	struct output o;
	char err[1024];

	if (output_open(&o, a->out, err, sizeof(err))) {
		fprintf(stderr, "abidep: %s\n", err);
		return -1;
	}
	if (a->format == FMT_JSON)
		print_json(c, a->db, a->scan_root, o.f);
	else if (a->format == FMT_HTML)
		check_html_print(c, a->db, a->scan_root, o.f);
	else
		check_print(c, a->db, a->by_host, o.f, a->format, output_width(&o, a->wide));
	if (output_close(&o, err, sizeof(err))) {
		fprintf(stderr, "abidep: %s\n", err);
		return -1;
	}
	return 0;
}

int check_read_db(struct check *c, const char *db, char *err, size_t errlen)
{
	struct usage_source src;
	int ret;

	if (usage_source_store(&src, db, err, errlen))
		return -1;
	ret = check_read_usage(c, &src, err, errlen);
	src.ops->close(&src);
	return ret;
}

/* The usage from --prometheus's server, as of --now; -1 with @err. */
static int check_read_prom(struct check *c, const struct check_args *a, char *err, size_t errlen)
{
	struct prom_options o = {
		.timeout = a->prom_timeout,
		.memory = (size_t)a->prom_memory_mib << 20,
		.netrc = a->prom_netrc,
	};
	struct usage_source src;
	int ret;

	if (usage_source_prom(&src, a->prom_url, &o, c->now, err, errlen))
		return -1;
	ret = check_read_usage(c, &src, err, errlen);
	src.ops->close(&src);
	return ret;
}

/*
 * --prometheus-netrc FILE can be read: libcurl would go on without
 * credentials, and the server's refusal would not say why. A file others
 * may read holds no secret: said, as ssh would, but used.
 */
static int check_netrc(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;

	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "abidep: --prometheus-netrc %s cannot be read: %s\n", path,
			strerror(errno));
		if (fd >= 0)
			close(fd);
		return EXIT_USAGE;
	}
	close(fd);
	if (!S_ISREG(st.st_mode)) {
		fprintf(stderr, "abidep: --prometheus-netrc %s is not a file\n", path);
		return EXIT_USAGE;
	}
	if (st.st_mode & (S_IRGRP | S_IROTH))
		fprintf(stderr, "abidep: warning: --prometheus-netrc %s can be read by other users (mode %04o): its password is theirs; chmod 600 it\n",
			path, (unsigned int)(st.st_mode & 07777));
	return EXIT_OK;
}

/* No file at the default DB path (none named with -d). */
static bool no_default_db(const struct check_args *a)
{
	struct stat st;

	return !a->db_given && stat(a->db, &st) && errno == ENOENT;
}

/*
 * The usage DB into @c. Missing at the default path, with a scan to judge,
 * it is missing evidence, not an error: the references block, and nothing
 * else is ready (check_judge(): no-data). An exit status.
 */
static int read_db(struct check *c, const struct check_args *a)
{
	bool scans = a->scan_root || a->npkg_paths;
	char err[1024];

	if (scans && no_default_db(a)) {
		c->no_db = true;
		fprintf(stderr, "abidep: no usage DB at %s: judging the references alone; no entry can be ready (no-data)\n",
			a->db);
		return EXIT_OK;
	}
	if (!check_read_db(c, a->db, err, sizeof(err)))
		return EXIT_OK;
	fprintf(stderr, "abidep: %s\n", err);
	if (!scans && no_default_db(a))
		fprintf(stderr, "abidep: without one, --scan ROOT or --scan-packages PATH judges the references alone (none ready); 'abidep scan --by-package' lists the packages with references\n");
	return EXIT_DB;
}

/* Tables, entries, DB, scan: the verdicts, printed; the exit status. */
static int check_run(struct check *c, struct abi_set *set, const struct check_args *a)
{
	char err[1024];
	int ret;

	/* check uses no Description: skip_text. */
	if (abidep_load_tables(set, a->tables, a->ntables, true))
		return EXIT_USAGE;
	ret = check_entries(c, set, a);
	if (ret)
		return ret;
	/* The page draws each entry's daily use. */
	c->read_days = a->format == FMT_HTML;
	if (a->prom_url) {
		if (check_read_prom(c, a, err, sizeof(err))) {
			fprintf(stderr, "abidep: %s\n", err);
			return EXIT_PROM;
		}
	} else {
		ret = read_db(c, a);
		if (ret)
			return ret;
	}
	if (a->scan_root && check_scan(c, a->scan_root, set, err, sizeof(err))) {
		fprintf(stderr, "abidep: %s\n", err);
		return EXIT_USAGE;
	}
	if (a->npkg_paths && check_scan_packages(c, a->pkg_paths, a->npkg_paths, set,
						 a->cache_dir, err, sizeof(err))) {
		fprintf(stderr, "abidep: %s\n", err);
		return EXIT_USAGE;
	}
	if (c->pkgs_scanned && c->pkgscan.warning)
		fprintf(stderr, "abidep: warning: %s\n", c->pkgscan.warning);
	check_judge(c);
	if (check_output(c, a))
		return EXIT_USAGE;
	/* 0 only when every entry judged may go: a gate removes what exits 0. */
	if (c->counts[V_BLOCKED])
		return EXIT_FAIL;
	if (c->counts[V_NO_DATA])
		return EXIT_NODATA;
	return c->counts[V_NOT_DUE] ? EXIT_NOTDUE : EXIT_OK;
}

int cmd_check(int argc, char **argv)
{
	struct check_args a = {
		.db = STORE_DEFAULT_PATH, .prom_timeout = DEFAULT_PROM_TIMEOUT,
		.prom_memory_mib = PROM_MEMORY_MIB,
	};
	struct check c = { .quiet_days = DEFAULT_QUIET_DAYS, .now = time(NULL) };
	struct abi_set set = { 0 };
	char *config = NULL, *source = NULL, *shown, err[1024];
	int ret;

	ret = check_args(argc, argv, &c, &a);
	if (ret >= 0) {
		free(a.tables);
		free(a.pkg_paths);
		return ret;
	}
	/* The output names the server where it names a DB, credentials left out. */
	if (a.prom_url) {
		if (prom_api_load(err, sizeof(err))) {
			fprintf(stderr, "abidep: %s\n", err);
			free(a.tables);
			free(a.pkg_paths);
			return EXIT_PROM;
		}
		shown = prom_url_shown(a.prom_url);
		a.db = source = shown ? xasprintf("Prometheus at %s", shown) : NULL;
		free(shown);
		if (!source)
			fprintf(stderr, "abidep: --prometheus: the URL cannot be used: it is not a URL libcurl reads\n");
		if (!source || (a.prom_netrc && check_netrc(a.prom_netrc))) {
			free(source);
			free(a.tables);
			free(a.pkg_paths);
			return EXIT_USAGE;
		}
	}
	c.owner = owner_new(a.root);
	/* A root named on purpose must have a package database; / need not. */
	if (a.root && owner_load(c.owner, err, sizeof(err))) {
		fprintf(stderr, "abidep: %s\n", err);
		owner_free(c.owner);
		free(source);
		free(a.tables);
		free(a.pkg_paths);
		return EXIT_USAGE;
	}
	if (c.kernel)
		c.config = config = xasprintf("%s/boot/config-%s", a.root ? a.root : "", c.kernel);
	ret = check_run(&c, &set, &a);
	free(config);
	free(source);
	check_free(&c);
	abi_set_free(&set);
	owner_free(c.owner);
	free(a.tables);
	free(a.pkg_paths);
	return ret;
}
