// SPDX-License-Identifier: GPL-2.0
/*
 * abidep report --format prometheus: node_exporter textfile-collector
 * metrics (lib/prom.c writes the format, sorted) of report's model, the
 * series Documentation/admin-guide/prometheus.rst lists:
 *
 *	per (entry, file, exe, package, uid, host, op)	the uses, cgroups summed
 *	per host					the losses; whether a tracer is pinned here
 *	per session (the horizon's, each host's latest)	start, syncs, losses
 *	per watched run of those sessions		its last sync
 *	per reading of the clocks of those sessions' boots	the wall clock's
 *	per use of a boot whose clock was set back	the latest it may have been
 *	per What of the tables				its Remove-after date
 *
 * Counts are summed over sessions, whose rows the DB keeps: they only grow
 * while the DB is kept, so they are counters.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "entry.h"
#include "hostid.h"
#include "main.h"
#include "prom.h"
#include "report.h"
#include "trace.h"
#include "util.h"

/* A family of metrics: its name, type and help. */
struct metric {
	const char *name, *type, *help;
};

/* Per (entry, file, exe, package, uid, host, op): struct report_file_use. */
static const struct metric use_metrics[] = {
	{ "abidep_deprecated_access_total", "counter",
	  "Uses of deprecated sysfs files seen by the abidep tracer, summed over its sessions." },
	{ "abidep_deprecated_access_errors_total", "counter",
	  "Of those uses, the ones that failed." },
	{ "abidep_deprecated_access_swept_total", "counter",
	  "Of those uses, the ones made within a sweep: the program opened most of the files (3 in 4, at least 4) of the directory its process group, or its parent's, listed, each once and in an order that comes from the directory, or as it walked the directory's tree." },
	{ "abidep_deprecated_access_last_seen_timestamp_seconds", "gauge",
	  "The last use, in unix seconds." },
	{ "abidep_deprecated_access_first_seen_timestamp_seconds", "gauge",
	  "The first use, in unix seconds." },
};
#define NUSE_METRICS (int)(sizeof(use_metrics) / sizeof(use_metrics[0]))

/* Per the same, when later than the last use: report_file_use.last_seen_latest. */
static const struct metric latest_metric = {
	"abidep_deprecated_access_last_seen_latest_timestamp_seconds", "gauge",
	"The latest the last use may have been, in unix seconds, when later than it was placed: a use of a boot whose wall clock was never synchronized and was set back is placed by the boot's last reading of the clocks, and an earlier reading would put it up to this late."
};

/* Per host: struct report_loss. */
static const struct metric loss_metrics[] = {
	{ "abidep_tracer_unrecorded_total", "counter",
	  "Accesses the abidep tracer saw but could not record (usage map full, or a uid over its new-key quota), summed over its sessions: any may have been a use." },
	{ "abidep_tracer_skipped_runs_total", "counter",
	  "Runs of the abidep tracer's programs the kernel skipped (one already running on that CPU), summed over its sessions: up to as many accesses not seen." },
};
#define NLOSS_METRICS (int)(sizeof(loss_metrics) / sizeof(loss_metrics[0]))

static const struct metric pinned_metric = {
	"abidep_tracer_pinned", "gauge",
	"1 when an abidep tracer is pinned (" PIN_DIR "/usage exists) on the machine that wrote these metrics, 0 when not."
};

/* Per session: the first with the session's description as labels. */
enum { SM_START, SM_FIRST_SYNC, SM_LAST_SYNC, SM_UNRECORDED, SM_SKIPPED, SM_LOST, SM_ORDER,
       NSESS_METRICS };
static const struct metric sess_metrics[NSESS_METRICS] = {
	[SM_START] = { "abidep_tracer_session_start_timestamp_seconds", "gauge",
		       "When the abidep tracer session (one load of the tracer) began, in unix seconds." },
	[SM_FIRST_SYNC] = { "abidep_tracer_session_first_sync_timestamp_seconds", "gauge",
			    "The session's first sync into the usage DB, in unix seconds." },
	[SM_LAST_SYNC] = { "abidep_tracer_session_last_sync_timestamp_seconds", "gauge",
			   "The session's last sync into the usage DB, in unix seconds." },
	[SM_UNRECORDED] = { "abidep_tracer_session_unrecorded_total", "counter",
			    "Accesses the session saw but could not record (a session with a loss only)." },
	[SM_SKIPPED] = { "abidep_tracer_session_skipped_runs_total", "counter",
			 "Runs of the session's programs the kernel skipped (a session with a loss only)." },
	[SM_LOST] = { "abidep_tracer_session_lost_timestamp_seconds", "gauge",
		      "The sync that first saw the session's losses at their latest values, in unix seconds." },
	[SM_ORDER] = { "abidep_tracer_session_order", "gauge",
		       "The session's place among its host's sessions in the order of their first syncs (1, 2, ...), which no wall clock changes." },
};

static const struct metric watched_metric = {
	"abidep_tracer_watched_last_sync_timestamp_seconds", "gauge",
	"The last sync of a run of a session's syncs in one state for an entry: since its first sync, found 1 when files were watched, 0 when looked for and none found; entry empty for a session that recorded no watched set."
};

static const struct metric reading_metric = {
	"abidep_tracer_clock_reading_wall_seconds", "gauge",
	"A reading of a tracer session's clocks: what the wall clock read, in unix seconds, when the boot's own clock (CLOCK_BOOTTIME) read boottime_ns, and whether the wall clock was synchronized then (1 or 0). A session's first reading, and each one where the wall clock was stepped (by a second or more) or its synchronization changed; of every session of the boots of the sessions exported."
};

static const struct metric remove_after_metric = {
	"abidep_entry_due_timestamp_seconds", "gauge",
	"When the entry is due by its Remove-after date, as abidep check decides it: 00:00 UTC of the day after the period the date names (2024-03: 2024-04-01), in unix seconds."
};

static const char *const use_labels[] = {
	"entry", "file", "exe", "package", "uid", "host", "op",
};
#define NLABELS (int)(sizeof(use_labels) / sizeof(use_labels[0]))

static const char *const host_label[] = { "host" };
static const char *const sess_labels[] = { "host", "session", "boot_id", "stage", "host_id" };
static const char *const watched_labels[] = { "host", "session", "entry", "since", "found" };
static const char *const reading_labels[] = { "host", "session", "boottime_ns", "synchronized" };
static const char *const entry_label[] = { "entry" };

/* A sample of each family of @m, whose values @v are in its order. */
static void add_samples(struct prom *p, const struct metric *m, int n,
			const char *const *labels, const char **label_values, int nlabels,
			char v[][32])
{
	int k;

	for (k = 0; k < n; k++) {
		prom_family(p, m[k].name, m[k].type, NULL);
		prom_sample(p, labels, label_values, nlabels, v[k]);
	}
}

/* One sample of the family @m. */
static void add_one(struct prom *p, const struct metric *m, const char *const *labels,
		    const char **label_values, int nlabels, long long v)
{
	char s[32];

	snprintf(s, sizeof(s), "%lld", v);
	prom_family(p, m->name, m->type, NULL);
	prom_sample(p, labels, label_values, nlabels, s);
}

static void add_use_metrics(struct prom *p, const struct report_file_use *u)
{
	char uid[16], v[NUSE_METRICS][32];
	const char *values[NLABELS] = {
		u->what, u->path, u->exe, u->package, uid, u->host, u->op,
	};

	snprintf(uid, sizeof(uid), "%u", u->uid);
	snprintf(v[0], sizeof(v[0]), "%llu", u->counts.count);
	snprintf(v[1], sizeof(v[1]), "%llu", u->counts.errors);
	snprintf(v[2], sizeof(v[2]), "%llu", u->counts.swept);
	snprintf(v[3], sizeof(v[3]), "%lld", u->counts.last_seen);
	snprintf(v[4], sizeof(v[4]), "%lld", u->counts.first_seen);
	add_samples(p, use_metrics, NUSE_METRICS, use_labels, values, NLABELS, v);
	if (u->last_seen_latest > u->counts.last_seen)
		add_one(p, &latest_metric, use_labels, values, NLABELS, u->last_seen_latest);
}

static void add_loss_metrics(struct prom *p, const struct report_loss *l)
{
	const char *values[] = { l->host };
	char v[NLOSS_METRICS][32];

	snprintf(v[0], sizeof(v[0]), "%llu", l->unrecorded);
	snprintf(v[1], sizeof(v[1]), "%llu", l->skipped);
	add_samples(p, loss_metrics, NLOSS_METRICS, host_label, values, 1, v);
}

/*
 * Whether a tracer is pinned on this machine, under its host key. Only
 * what is known is written: no sample when the key or the pin cannot be
 * read (said on stderr), as a 0 would claim no tracer runs here.
 */
static void add_pinned(struct prom *p)
{
	char key[HOST_KEY_MAX], warn[256];
	const char *from, *values[] = { key };
	int pinned = !access(PIN_DIR "/usage", F_OK), why = errno;

	if (host_key(key, &from, warn, sizeof(warn))) {
		fprintf(stderr, "abidep: report: no %s: %s\n", pinned_metric.name, warn);
		return;
	}
	if (!pinned && why != ENOENT && why != ENOTDIR) {
		fprintf(stderr, "abidep: report: no %s: cannot look for %s: %s\n",
			pinned_metric.name, PIN_DIR "/usage", strerror(why));
		return;
	}
	add_one(p, &pinned_metric, host_label, values, 1, pinned);
}

/*
 * Which sessions are exported (@keep): those whose last sync is at or
 * after @since, and each host's latest (the largest last sync; of equal
 * ones the later started), so that a host whose tracer stopped long ago
 * still says when it last ran; and every session that came after a kept
 * one in its host's order (seq), wherever a wrong clock placed it: check
 * takes a boot placed before the one before it for a wrong clock
 * (check_clock.c), which it must see. Sessions come by host, then start.
 */
static void sessions_kept(const struct report *r, long long since, bool *keep)
{
	int i, k, first = 0, latest = -1;
	long long seq;

	for (i = 0; i < r->nsess; i++) {
		const struct usage_session *u = &r->sessions[i];

		keep[i] = u->last_sync >= since;
		if (latest < 0 || strcmp(r->sessions[latest].host, u->host))
			latest = first = i;
		else if (u->last_sync >= r->sessions[latest].last_sync)
			latest = i;
		if (i + 1 < r->nsess && !strcmp(r->sessions[i + 1].host, u->host))
			continue;
		keep[latest] = true;
		/* The host's sessions first..i: the earliest kept in its order. */
		seq = LLONG_MAX;
		for (k = first; k <= i; k++)
			if (keep[k] && r->sessions[k].seq > 0 && r->sessions[k].seq < seq)
				seq = r->sessions[k].seq;
		for (k = first; k <= i; k++)
			keep[k] |= r->sessions[k].seq > seq;
	}
}

static void add_session_metrics(struct prom *p, const struct usage_session *u)
{
	char *boot_id = xstrndup(u->session, usage_session_boot_len(u->session));
	const char *values[] = { u->host, u->session, boot_id, u->stage, u->host_id };

	add_one(p, &sess_metrics[SM_START], sess_labels, values, 5, u->started);
	if (u->first_sync)
		add_one(p, &sess_metrics[SM_FIRST_SYNC], sess_labels, values, 2, u->first_sync);
	add_one(p, &sess_metrics[SM_LAST_SYNC], sess_labels, values, 2, u->last_sync);
	if (u->seq > 0)
		add_one(p, &sess_metrics[SM_ORDER], sess_labels, values, 2, u->seq);
	if (u->lost_at != STORE_NO_LOSS) {
		add_one(p, &sess_metrics[SM_UNRECORDED], sess_labels, values, 2,
			u->unrecorded > LLONG_MAX ? LLONG_MAX : (long long)u->unrecorded);
		add_one(p, &sess_metrics[SM_SKIPPED], sess_labels, values, 2,
			u->skipped > LLONG_MAX ? LLONG_MAX : (long long)u->skipped);
		add_one(p, &sess_metrics[SM_LOST], sess_labels, values, 2, u->lost_at);
	}
	free(boot_id);
}

static int cmp_session(const void *a, const void *b)
{
	const struct usage_session *x = *(const struct usage_session *const *)a;
	const struct usage_session *y = *(const struct usage_session *const *)b;
	int c = strcmp(x->host, y->host);

	return c ? c : strcmp(x->session, y->session);
}

static void add_watched_metrics(struct prom *p, const struct usage_watched *w)
{
	char since[32];
	const char *values[] = { w->host, w->session, w->what, since, w->files ? "1" : "0" };

	snprintf(since, sizeof(since), "%lld", w->since);
	add_one(p, &watched_metric, watched_labels, values, 5, w->last_sync);
}

/* @ns as seconds, exactly: "1714557600", "1714557600.25", "-0.000000001". */
static void ns_as_seconds(char *s, size_t n, long long ns)
{
	unsigned long long a = ns < 0 ? -(unsigned long long)ns : (unsigned long long)ns;
	size_t len = snprintf(s, n, "%s%llu.%09llu", ns < 0 ? "-" : "", a / NSEC_PER_SEC,
			      a % NSEC_PER_SEC);

	while (len > 1 && s[len - 1] == '0')
		s[--len] = '\0';
	if (s[len - 1] == '.')
		s[len - 1] = '\0';
}

static void add_reading(struct prom *p, const struct usage_clock *c)
{
	char boottime[32], wall[32];
	const char *values[] = { c->host, c->session, boottime, c->r.synced ? "1" : "0" };

	snprintf(boottime, sizeof(boottime), "%lld", c->r.boottime);
	ns_as_seconds(wall, sizeof(wall), c->r.wall);
	prom_family(p, reading_metric.name, reading_metric.type, NULL);
	prom_sample(p, reading_labels, values, 4, wall);
}

/* Sessions by host and boot (the session id's boot id; all of it when it names none). */
static int cmp_boot(const void *a, const void *b)
{
	const struct usage_session *x = *(const struct usage_session *const *)a;
	const struct usage_session *y = *(const struct usage_session *const *)b;
	size_t n = usage_session_boot_len(x->session), m = usage_session_boot_len(y->session);
	int c = strcmp(x->host, y->host);

	if (c)
		return c;
	n = n ? n : strlen(x->session);
	m = m ? m : strlen(y->session);
	c = strncmp(x->session, y->session, n < m ? n : m);
	return c ? c : (n > m) - (n < m);
}

/*
 * Is @host's @session among the @n sessions @kept, sorted by @cmp, which
 * also says what matches: the session, or its boot?
 */
static bool is_kept(const struct usage_session **kept, int n, const char *host,
		    const char *session, int (*cmp)(const void *, const void *))
{
	struct usage_session key = { .host = host, .session = session };
	const struct usage_session *k = &key;

	return bsearch(&k, kept, n, sizeof(*kept), cmp);
}

/*
 * The sessions synced since @now - PROM_HORIZON_DAYS and each host's
 * latest, the watched runs of those, and the readings of their boots'
 * clocks (check judges a boot from all of its readings).
 */
static void add_sessions(struct prom *p, const struct report *r, long long now)
{
	bool *keep = xcalloc(r->nsess + 1, sizeof(*keep));
	const struct usage_session **kept = xcalloc(r->nsess + 1, sizeof(*kept));
	int i, n = 0;

	sessions_kept(r, now - PROM_HORIZON_DAYS * 86400LL, keep);
	for (i = 0; i < r->nsess; i++)
		if (keep[i]) {
			add_session_metrics(p, &r->sessions[i]);
			kept[n++] = &r->sessions[i];
		}
	qsort(kept, n, sizeof(*kept), cmp_session);
	for (i = 0; i < r->nwatched; i++)
		if (is_kept(kept, n, r->watched[i].host, r->watched[i].session, cmp_session))
			add_watched_metrics(p, &r->watched[i]);
	/* Of every session of their boots. */
	qsort(kept, n, sizeof(*kept), cmp_boot);
	for (i = 0; i < r->nreadings; i++)
		if (is_kept(kept, n, r->readings[i].host, r->readings[i].session, cmp_boot))
			add_reading(p, &r->readings[i]);
	free(kept);
	free(keep);
}

/*
 * Each What's Remove-after date, of the tables' entries --entry selects
 * (@pattern; NULL: all): a What in several entries has its first's, the
 * entry its uses belong to: when check calls the entry due by it, the
 * day after the period the date names.
 */
static void add_remove_after(struct prom *p, const struct abi_set *set, const char *pattern)
{
	int i;

	for (i = 0; i < set->nwhats; i++) {
		const struct abi_entry *e = &set->entries[set->whats[i].entry];
		const struct abidep_date *d = &e->remove_after.when.date;
		const char *values[] = { set->whats[i].what };
		struct abidep_date first;
		struct tm tm = { 0 };

		if (i && !strcmp(set->whats[i - 1].what, set->whats[i].what))
			continue;
		if (!e->remove_after.when.has_date || !entry_selected(e, pattern))
			continue;
		/* Due once the whole period has passed: kmod/when.c decides it, for check too. */
		abidep_date_due_from(d, &first);
		tm.tm_year = first.year - 1900;
		tm.tm_mon = first.month - 1;
		tm.tm_mday = first.day;
		add_one(p, &remove_after_metric, entry_label, values, 1, timegm(&tm));
	}
}

/* Every family declared first: an empty DB still gives HELP and TYPE. */
static void declare_families(struct prom *p)
{
	const struct metric *one[] = {
		&latest_metric, &pinned_metric, &watched_metric, &reading_metric,
		&remove_after_metric,
	};
	int i;

	for (i = 0; i < NUSE_METRICS; i++)
		prom_family(p, use_metrics[i].name, use_metrics[i].type, use_metrics[i].help);
	for (i = 0; i < NLOSS_METRICS; i++)
		prom_family(p, loss_metrics[i].name, loss_metrics[i].type, loss_metrics[i].help);
	for (i = 0; i < NSESS_METRICS; i++)
		prom_family(p, sess_metrics[i].name, sess_metrics[i].type, sess_metrics[i].help);
	for (i = 0; i < (int)(sizeof(one) / sizeof(one[0])); i++)
		prom_family(p, one[i]->name, one[i]->type, one[i]->help);
}

int report_prom_print(const struct report *r, const char *pattern, long long now,
		      const char *out)
{
	struct prom *p = prom_new();
	char err[1024];
	int ret = EXIT_OK, i;

	declare_families(p);
	for (i = 0; i < r->nfile_uses; i++)
		add_use_metrics(p, &r->file_uses[i]);
	for (i = 0; i < r->nlosses; i++)
		add_loss_metrics(p, &r->losses[i]);
	add_pinned(p);
	add_sessions(p, r, now);
	add_remove_after(p, &r->set, pattern);
	if (out) {
		if (prom_write_file(p, out, err, sizeof(err))) {
			fprintf(stderr, "abidep: %s\n", err);
			ret = EXIT_USAGE;
		}
	} else if (prom_write(p, stdout)) {
		fprintf(stderr, "abidep: cannot write the metrics: %s\n", strerror(errno));
		ret = EXIT_USAGE;
	}
	prom_free(p);
	return ret;
}
