// SPDX-License-Identifier: GPL-2.0
/*
 * A fleet's Prometheus as a source of usage for abidep check
 * (usage_source.h): the series the hosts export (abidep report --format
 * prometheus; Documentation/admin-guide/prometheus.rst lists them) read
 * back into the usage store's records, so that the one evaluation
 * (check_eval.c) judges them as it judges a merged DB.
 *
 * Each host's export is a snapshot of its DB: use counters summed over its
 * sessions, and each session's span and losses, and the files it watched.
 * So each series is read at its latest value within the lookback
 * (last_over_time), and a scrape missed in between hides nothing the next
 * scrape does not restore; a host whose exports stop keeps its last
 * samples, and its tracer's last sync then ages as a stopped tracer's
 * does. The uses in the quiet window are increase() of the counters.
 *
 * Series that differ only in their scrape target's labels (a host scraped
 * twice, or moved to a new address) are one: counts and syncs the larger,
 * starts the earlier, as abidep merge takes them. Two targets exporting
 * one host key at once are two hosts taken for one: an error.
 *
 * Each boot's clock (bootclock.h) comes as the readings of its sessions'
 * clocks, which check judges a host's clock from as from a DB's; a
 * session with readings has its times on its boot's clock too (the
 * tracer takes a reading at its first sync). A use, summed over sessions,
 * has no boot of its own: the exporter says the latest it may have been
 * when a boot's doubt makes it later than placed.
 */
#include <limits.h>
#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prom.h"
#include "prom_api.h"
#include "text.h"
#include "usage_source.h"
#include "util.h"

/* The lookback of every series: the hosts' export horizon. */
#define LOOKBACK	((long long)PROM_HORIZON_DAYS * 86400)

/* The series read at begin(): their latest values. */
enum {
	Q_COUNT, Q_ERRORS, Q_SWEPT, Q_LAST, Q_FIRST, Q_LATEST,	/* per use */
	Q_START, Q_FSYNC, Q_LSYNC, Q_UNREC, Q_SKIP, Q_LOST, Q_ORDER,	/* per session */
	Q_WATCHED,						/* per watched run */
	Q_HOSTLOSS,						/* per host */
	Q_CLOCK,						/* per reading */
	NQ
};

static const char *const q_metric[NQ] = {
	[Q_COUNT] = "abidep_deprecated_access_total",
	[Q_ERRORS] = "abidep_deprecated_access_errors_total",
	[Q_SWEPT] = "abidep_deprecated_access_swept_total",
	[Q_LAST] = "abidep_deprecated_access_last_seen_timestamp_seconds",
	[Q_FIRST] = "abidep_deprecated_access_first_seen_timestamp_seconds",
	[Q_LATEST] = "abidep_deprecated_access_last_seen_latest_timestamp_seconds",
	[Q_START] = "abidep_tracer_session_start_timestamp_seconds",
	[Q_FSYNC] = "abidep_tracer_session_first_sync_timestamp_seconds",
	[Q_LSYNC] = "abidep_tracer_session_last_sync_timestamp_seconds",
	[Q_UNREC] = "abidep_tracer_session_unrecorded_total",
	[Q_SKIP] = "abidep_tracer_session_skipped_runs_total",
	[Q_LOST] = "abidep_tracer_session_lost_timestamp_seconds",
	[Q_ORDER] = "abidep_tracer_session_order",
	[Q_WATCHED] = "abidep_tracer_watched_last_sync_timestamp_seconds",
	[Q_HOSTLOSS] = "abidep_tracer_unrecorded_total",
	[Q_CLOCK] = "abidep_tracer_clock_reading_wall_seconds",
};

/* The labels that name a series' subject (the target's labels left out). */
static const char *const use_key[] = { "entry", "file", "exe", "package", "uid", "host", "op", NULL };
static const char *const session_key[] = { "host", "session", NULL };
static const char *const run_key[] = { "host", "session", "entry", "since", "found", NULL };
static const char *const host_key[] = { "host", NULL };
static const char *const reading_key[] = { "host", "session", "boottime_ns", "synchronized", NULL };

/* Of duplicates (one subject from two targets), which value stands. */
enum pick { PICK_MAX, PICK_MIN };

static const char *const *const q_key[NQ] = {
	use_key, use_key, use_key, use_key, use_key, use_key,
	session_key, session_key, session_key, session_key, session_key, session_key,
	session_key, run_key, host_key, reading_key,
};

/* A series by its subject: the key labels' values, each length-prefixed. */
struct keyed {
	char *key;
	const struct prom_series *s;
	double v;
};

struct table {
	struct keyed *k;
	int n;
};

struct prom_source {
	struct prom_client *cl;
	long long now;
	struct prom_vector vec[NQ], recent[3];
	struct table t[NQ], rt[3];
	/* The readings of Q_CLOCK (readings()), by host, session, boottime; NULL: not yet read. */
	struct usage_clock *clocks;
	int nclocks;
	char err[1024];
};

static char *key_of(const struct prom_series *s, const char *const *names)
{
	char *k = xstrdup(""), *next;
	const char *v;

	for (; *names; names++) {
		v = prom_label_value(s, *names);
		if (!v)
			v = "";
		next = xasprintf("%s%zu:%s;", k, strlen(v), v);
		free(k);
		k = next;
	}
	return k;
}

static int cmp_keyed(const void *a, const void *b)
{
	return strcmp(((const struct keyed *)a)->key, ((const struct keyed *)b)->key);
}

/*
 * @v by subject, sorted, duplicates made one by @pick; -1 with @err when
 * the table passes the client's memory bound, which counts it with the
 * answers (prom_client_charge()).
 */
static int build_table(struct prom_client *cl, struct table *t, const struct prom_vector *v,
		       const char *const *names, enum pick pick, char *err, size_t errlen)
{
	int i, n = 0;

	if (prom_client_charge(cl, (v->n + 1) * sizeof(*t->k), err, errlen))
		return -1;
	t->k = xcalloc(v->n + 1, sizeof(*t->k));
	for (i = 0; i < v->n; i++) {
		t->k[i].key = key_of(&v->s[i], names);
		t->k[i].s = &v->s[i];
		t->k[i].v = v->s[i].value;
		if (prom_client_charge(cl, malloc_usable_size(t->k[i].key), err, errlen)) {
			t->n = i + 1;
			return -1;
		}
	}
	qsort(t->k, v->n, sizeof(*t->k), cmp_keyed);
	for (i = 0; i < v->n; i++) {
		struct keyed *last = n ? &t->k[n - 1] : NULL;

		if (last && !strcmp(last->key, t->k[i].key)) {
			if (pick == PICK_MAX ? t->k[i].v > last->v : t->k[i].v < last->v)
				last->v = t->k[i].v;
			free(t->k[i].key);
			continue;
		}
		t->k[n++] = t->k[i];
	}
	t->n = n;
	return 0;
}

static void free_table(struct table *t)
{
	int i;

	for (i = 0; i < t->n; i++)
		free(t->k[i].key);
	free(t->k);
	memset(t, 0, sizeof(*t));
}

/* The value of subject @key in @t, or NAN. */
static double lookup(const struct table *t, const char *key)
{
	struct keyed probe = { .key = (char *)key }, *k;

	k = t->n ? bsearch(&probe, t->k, t->n, sizeof(*t->k), cmp_keyed) : NULL;
	return k ? k->v : NAN;
}

static const enum pick q_pick[NQ] = {
	[Q_FIRST] = PICK_MIN, [Q_START] = PICK_MIN, [Q_FSYNC] = PICK_MIN,
};

static struct prom_source *ps_of(struct usage_source *src)
{
	return src->priv;
}

/* A timestamp or count as answered, in range whatever a server says. */
static long long to_ll(double v)
{
	if (isnan(v))
		return 0;
	if (v >= 9.2e18)
		return LLONG_MAX;
	return v <= -9.2e18 ? LLONG_MIN + 1 : llround(v);
}

static unsigned long long to_count(double v)
{
	if (isnan(v) || v < 0.5)
		return 0;
	return v >= 1.8e19 ? ULLONG_MAX : (unsigned long long)llround(v);
}

/* Query @promql at the source's now into @v; -1 with the source's error. */
static int ask(struct prom_source *ps, const char *promql, struct prom_vector *v)
{
	return prom_query(ps->cl, promql, ps->now, v, ps->err, sizeof(ps->err));
}

/*
 * Two scrape targets exporting one host's sessions now: two machines with
 * one host key (a cloned machine id), whose uses and sessions would be
 * summed as one host's.
 */
static int check_twins(struct prom_source *ps)
{
	struct prom_vector v = { 0 };
	char *names = xstrdup(""), *next;
	int i, ret;

	ret = ask(ps, "count by (host) (count by (host, instance, job) "
		  "(abidep_tracer_session_last_sync_timestamp_seconds)) > 1", &v);
	for (i = 0; !ret && i < v.n && i < 5; i++) {
		const char *h = prom_label_value(&v.s[i], "host");
		char *shown = text_clean(h ? h : "");

		next = xasprintf("%s%s%s", names, i ? ", " : "", shown);
		free(shown);
		free(names);
		names = next;
	}
	if (!ret && v.n) {
		snprintf(ps->err, sizeof(ps->err),
			 "Prometheus at %s: %d host key%s exported by more than one scrape target at once (%s%s): two machines taken for one (a cloned /etc/machine-id?); give each its own machine id",
			 prom_client_url(ps->cl), v.n, v.n == 1 ? " is" : "s are", names,
			 v.n > 5 ? ", ..." : "");
		ret = -1;
	}
	free(names);
	prom_vector_free(&v);
	return ret;
}

/* The distinct "host" labels of @v, sorted, appended to *@hosts (@n of them). */
static void add_hosts(const struct prom_vector *v, const char ***hosts, int *n)
{
	const char *h;
	int i;

	*hosts = xrealloc(*hosts, (*n + v->n + 1) * sizeof(**hosts));
	for (i = 0; i < v->n; i++)
		if ((h = prom_label_value(&v->s[i], "host")))
			(*hosts)[(*n)++] = h;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* @h[0..n) sorted, each once; the new n. */
static int sort_unique(const char **h, int n)
{
	int i, k = 0;

	qsort(h, n, sizeof(*h), cmp_str);
	for (i = 0; i < n; i++)
		if (!k || strcmp(h[k - 1], h[i]))
			h[k++] = h[i];
	return k;
}

/*
 * The hosts with series in the lookback (the index: /api/v1/series) but
 * none now, in @ps->vec's live answers: their scrapes stopped, or their
 * metrics file went away. Their last snapshot is read from the samples,
 * theirs only, so that a query reads the history of silent hosts, not of
 * the whole fleet. A regex of them into *@re, or NULL for none.
 */
static int silent_hosts(struct prom_source *ps, char **re)
{
	static const int which[] = { Q_LSYNC, Q_COUNT, Q_HOSTLOSS };
	const char *match[3], **live = NULL, **silent = NULL;
	struct prom_vector seen = { 0 };
	int i, nlive = 0, nseen = 0, nsilent = 0;

	*re = NULL;
	for (i = 0; i < 3; i++) {
		match[i] = q_metric[which[i]];
		add_hosts(&ps->vec[which[i]], &live, &nlive);
	}
	if (prom_series_query(ps->cl, match, 3, ps->now - LOOKBACK, ps->now, &seen,
			      ps->err, sizeof(ps->err))) {
		free(live);
		return -1;
	}
	nlive = sort_unique(live, nlive);
	add_hosts(&seen, &silent, &nseen);
	nseen = sort_unique(silent, nseen);
	for (i = 0; i < nseen; i++)
		if (!bsearch(&silent[i], live, nlive, sizeof(*live), cmp_str))
			silent[nsilent++] = silent[i];
	if (nsilent)
		*re = promql_regex_of(silent, nsilent);
	free(live);
	free(silent);
	prom_vector_free(&seen);
	return 0;
}

static int source_begin(struct usage_source *src)
{
	struct prom_source *ps = ps_of(src);
	char *q, *re = NULL;
	int i, ret = 0;

	/* Now's samples: the snapshot of every host whose export is scraped. */
	for (i = 0; !ret && i < NQ; i++)
		ret = ask(ps, q_metric[i], &ps->vec[i]);
	if (!ret)
		ret = silent_hosts(ps, &re);
	for (i = 0; !ret && re && i < NQ; i++) {
		q = xasprintf("last_over_time(%s{host=~%s}[%llds])", q_metric[i], re, LOOKBACK);
		ret = ask(ps, q, &ps->vec[i]);
		free(q);
	}
	free(re);
	for (i = 0; !ret && i < NQ; i++)
		ret = build_table(ps->cl, &ps->t[i], &ps->vec[i], q_key[i], q_pick[i],
				  ps->err, sizeof(ps->err));
	if (!ret && !ps->t[Q_LSYNC].n && !ps->t[Q_COUNT].n) {
		snprintf(ps->err, sizeof(ps->err),
			 "Prometheus at %s has no abidep series of the last %d days (%s): are the hosts' metrics (abidep-metrics.timer) scraped, and is this the right server?",
			 prom_client_url(ps->cl), PROM_HORIZON_DAYS, q_metric[Q_LSYNC]);
		ret = -1;
	}
	return ret ? ret : check_twins(ps);
}

static void free_answers(struct prom_source *ps)
{
	int i;

	for (i = 0; i < NQ; i++) {
		free_table(&ps->t[i]);
		prom_vector_free(&ps->vec[i]);
	}
	for (i = 0; i < 3; i++) {
		free_table(&ps->rt[i]);
		prom_vector_free(&ps->recent[i]);
	}
	free(ps->clocks);
	ps->clocks = NULL;
	ps->nclocks = 0;
}

static int source_end(struct usage_source *src, bool failed)
{
	free_answers(ps_of(src));
	return failed ? -1 : 0;
}

/* Sort order of a walk: by host, then a number (start, since), then subject. */
struct walk_item {
	const struct keyed *k;
	const char *host;
	long long when;
};

static int cmp_item(const void *a, const void *b)
{
	const struct walk_item *x = a, *y = b;
	int r = strcmp(x->host, y->host);

	if (!r)
		r = x->when < y->when ? -1 : x->when > y->when;
	return r ? r : strcmp(x->k->key, y->k->key);
}

/* @t's subjects in walk order; @when_of (NULL: none) their number. */
static struct walk_item *walk_order(const struct table *t,
				    long long (*when_of)(const struct keyed *k))
{
	struct walk_item *w = xcalloc(t->n + 1, sizeof(*w));
	const char *h;
	int i;

	for (i = 0; i < t->n; i++) {
		h = prom_label_value(t->k[i].s, "host");
		w[i].k = &t->k[i];
		w[i].host = h ? h : "";
		w[i].when = when_of ? when_of(&t->k[i]) : 0;
	}
	qsort(w, t->n, sizeof(*w), cmp_item);
	return w;
}

/*
 * The uses in the window [@since, now]: increase() of the three counters,
 * of the hosts with a use in it (a row whose last use is before the window
 * made none in it), so that the query reads their samples only.
 */
static int ask_recent(struct prom_source *ps, long long since)
{
	static const int counter[3] = { Q_COUNT, Q_ERRORS, Q_SWEPT };
	const struct table *t = &ps->t[Q_COUNT];
	const char **users = xcalloc(t->n + 1, sizeof(*users)), *h;
	char *q, *re;
	int i, n = 0, ret = 0;

	for (i = 0; i < t->n; i++)
		if (to_ll(lookup(&ps->t[Q_LAST], t->k[i].key)) >= since &&
		    (h = prom_label_value(t->k[i].s, "host")))
			users[n++] = h;
	n = sort_unique(users, n);
	re = n ? promql_regex_of(users, n) : NULL;
	free(users);
	for (i = 0; !ret && re && i < 3; i++) {
		q = xasprintf("increase(%s{host=~%s}[%llds])", q_metric[counter[i]], re,
			      ps->now - since);
		ret = ask(ps, q, &ps->recent[i]);
		free(q);
		if (!ret)
			ret = build_table(ps->cl, &ps->rt[i], &ps->recent[i], use_key, PICK_MAX,
					  ps->err, sizeof(ps->err));
	}
	free(re);
	return ret;
}

/* A label of @s as a store string: "" is NULL (unknown), as the exporter writes it. */
static const char *label_or_null(const struct prom_series *s, const char *name)
{
	const char *v = prom_label_value(s, name);

	return v && *v ? v : NULL;
}

/*
 * Row @k's record; its uses in the window into *@recent: none when its
 * last use is before it, else the increase; *@has_recent false when that
 * is unknown (no samples in the window) or misses a use its last_seen
 * shows (a series first scraped in the window starts at its count, which
 * increase() does not count).
 */
static int fill_row(struct prom_source *ps, const struct keyed *k, long long since,
		    struct usage_row *r, struct usage_counts *recent, bool *has_recent)
{
	const struct prom_series *s = k->s;
	const char *uid = prom_label_value(s, "uid");
	unsigned long u;

	memset(r, 0, sizeof(*r));
	if (!uid || parse_uint(uid, 0, UINT_MAX, &u)) {
		snprintf(ps->err, sizeof(ps->err), "Prometheus at %s: a series of %s has no uid label, or one that is not a number",
			 prom_client_url(ps->cl), q_metric[Q_COUNT]);
		return -1;
	}
	r->host = prom_label_value(s, "host");
	r->session = "prometheus";
	r->path = prom_label_value(s, "file");
	r->op = prom_label_value(s, "op");
	r->exe = prom_label_value(s, "exe");
	if (!r->host || !r->path || !r->op || !r->exe) {
		snprintf(ps->err, sizeof(ps->err), "Prometheus at %s: a series of %s lacks a host, file, op or exe label",
			 prom_client_url(ps->cl), q_metric[Q_COUNT]);
		return -1;
	}
	r->uid = u;
	r->what = label_or_null(s, "entry");
	r->pid = r->ppid = -1;
	r->count = to_count(k->v);
	r->errors = to_count(lookup(&ps->t[Q_ERRORS], k->key));
	r->swept = to_count(lookup(&ps->t[Q_SWEPT], k->key));
	r->last_seen = to_ll(lookup(&ps->t[Q_LAST], k->key));
	r->first_seen = isnan(lookup(&ps->t[Q_FIRST], k->key)) ? r->last_seen :
			to_ll(lookup(&ps->t[Q_FIRST], k->key));
	if (!isnan(lookup(&ps->t[Q_LATEST], k->key)))
		r->last_seen_latest = to_ll(lookup(&ps->t[Q_LATEST], k->key));
	memset(recent, 0, sizeof(*recent));
	*has_recent = true;
	if (r->last_seen < since)
		return 0;
	recent->count = to_count(lookup(&ps->rt[0], k->key));
	recent->errors = to_count(lookup(&ps->rt[1], k->key));
	recent->swept = to_count(lookup(&ps->rt[2], k->key));
	*has_recent = !isnan(lookup(&ps->rt[0], k->key)) && recent->count;
	return 0;
}

static int source_each_row_since(struct usage_source *src, long long since,
				 int (*fn)(const struct usage_row *r,
					   const struct usage_counts *recent, void *arg),
				 void *arg)
{
	struct prom_source *ps = ps_of(src);
	struct usage_counts recent;
	struct walk_item *w;
	struct usage_row r;
	bool has_recent;
	int i, ret = 0;

	if (since < ps->now && ask_recent(ps, since))
		return -1;
	w = walk_order(&ps->t[Q_COUNT], NULL);
	for (i = 0; !ret && i < ps->t[Q_COUNT].n; i++) {
		ret = fill_row(ps, w[i].k, since, &r, &recent, &has_recent);
		if (!ret)
			ret = fn(&r, has_recent ? &recent : NULL, arg);
	}
	free(w);
	return ret;
}

/* A boottime label: an integer as the exporter writes it, at most 18 digits (no overflow). */
static bool parse_boottime(const char *s, long long *out)
{
	size_t n;

	if (!s)
		return false;
	n = strlen(s + (*s == '-'));
	if (!n || n > 18 || strspn(s + (*s == '-'), "0123456789") != n)
		return false;
	*out = strtoll(s, NULL, 10);
	return true;
}

/*
 * A wall time in seconds as nanoseconds: the nanosecond nearest to the
 * double the server keeps (some 0.2 us apart near today's times; the
 * exporter writes them exactly, and whole seconds come back exactly).
 * False out of range.
 */
static bool wall_ns(double v, long long *out)
{
	double sec = floor(v);

	if (!(sec > -9.2e9 && sec < 9.2e9))
		return false;
	*out = (long long)sec * NSEC_PER_SEC + llround((v - sec) * NSEC_PER_SEC);
	return true;
}

static int cmp_reading(const void *a, const void *b)
{
	const struct usage_clock *x = a, *y = b;
	int r = strcmp(x->host, y->host);

	if (!r)
		r = strcmp(x->session, y->session);
	if (!r)
		r = x->r.boottime < y->r.boottime ? -1 : x->r.boottime > y->r.boottime;
	if (!r)
		r = x->r.synced - y->r.synced;
	return r ? r : (x->r.wall > y->r.wall) - (x->r.wall < y->r.wall);
}

/*
 * The readings of the clocks, once per snapshot, into ps->clocks: each
 * (host, session, boottime) once. Copies of one DB's reading are equal;
 * of two that differ (not one DB's), the synchronized, then the later
 * wall time, stands, whatever the order of the answer.
 */
static int readings(struct prom_source *ps)
{
	const struct table *t = &ps->t[Q_CLOCK];
	const char *synced;
	int i, n = 0;

	if (ps->clocks)
		return 0;
	ps->clocks = xcalloc(t->n + 1, sizeof(*ps->clocks));
	for (i = 0; i < t->n; i++) {
		struct usage_clock *c = &ps->clocks[i];

		c->host = prom_label_value(t->k[i].s, "host");
		c->session = prom_label_value(t->k[i].s, "session");
		synced = prom_label_value(t->k[i].s, "synchronized");
		if (!c->host || !c->session ||
		    !parse_boottime(prom_label_value(t->k[i].s, "boottime_ns"), &c->r.boottime) ||
		    !synced || (strcmp(synced, "0") && strcmp(synced, "1")) ||
		    !wall_ns(t->k[i].v, &c->r.wall)) {
			snprintf(ps->err, sizeof(ps->err), "Prometheus at %s: a series of %s lacks its host, session, boottime_ns or synchronized label, or has one (or its value) out of form",
				 prom_client_url(ps->cl), q_metric[Q_CLOCK]);
			free(ps->clocks);
			ps->clocks = NULL;
			return -1;
		}
		c->r.synced = *synced == '1';
	}
	qsort(ps->clocks, t->n, sizeof(*ps->clocks), cmp_reading);
	for (i = 0; i < t->n; i++) {
		struct usage_clock *c = &ps->clocks[i], *last = n ? &ps->clocks[n - 1] : NULL;

		if (last && !strcmp(last->host, c->host) && !strcmp(last->session, c->session) &&
		    last->r.boottime == c->r.boottime)
			*last = *c;
		else
			ps->clocks[n++] = *c;
	}
	ps->nclocks = n;
	return 0;
}

static int source_each_clock(struct usage_source *src,
			     int (*fn)(const struct usage_clock *c, void *arg), void *arg)
{
	struct prom_source *ps = ps_of(src);
	int i, ret = readings(ps);

	for (i = 0; !ret && i < ps->nclocks; i++)
		ret = fn(&ps->clocks[i], arg);
	return ret;
}

/*
 * The boottime of @session's latest reading, or STORE_NO_BT: a session
 * with readings has its times on its boot's clock, which is all check
 * asks of its last_sync_bt (check_clock.c); the exporter does not say
 * which boottime its last sync was.
 */
static long long session_bt(const struct prom_source *ps, const char *host, const char *session)
{
	int lo = 0, hi = ps->nclocks, mid, r;

	/* lo: past the last reading of (host, session). */
	while (lo < hi) {
		mid = (lo + hi) / 2;
		r = strcmp(ps->clocks[mid].host, host);
		if (!r)
			r = strcmp(ps->clocks[mid].session, session) <= 0 ? -1 : 1;
		if (r < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || strcmp(ps->clocks[lo - 1].host, host) ||
	    strcmp(ps->clocks[lo - 1].session, session))
		return STORE_NO_BT;
	return ps->clocks[lo - 1].r.boottime > STORE_NO_BT ? ps->clocks[lo - 1].r.boottime :
							     STORE_NO_BT + 1;
}

static long long start_of(const struct keyed *k)
{
	return to_ll(k->v);
}

/* Session @k's record, its strings the answer's. */
static void fill_session(struct prom_source *ps, const struct keyed *k, struct usage_session *u)
{
	double lost = lookup(&ps->t[Q_LOST], k->key), first = lookup(&ps->t[Q_FSYNC], k->key);

	memset(u, 0, sizeof(*u));
	u->host = prom_label_value(k->s, "host");
	u->session = prom_label_value(k->s, "session");
	u->started = to_ll(k->v);
	u->last_sync = to_ll(lookup(&ps->t[Q_LSYNC], k->key));
	if (isnan(lookup(&ps->t[Q_LSYNC], k->key)))
		u->last_sync = u->started;
	u->first_sync = isnan(first) ? 0 : to_ll(first);
	u->unrecorded = to_count(lookup(&ps->t[Q_UNREC], k->key));
	u->skipped = to_count(lookup(&ps->t[Q_SKIP], k->key));
	u->lost_at = isnan(lost) ? STORE_NO_LOSS : to_ll(lost);
	u->seq = to_ll(lookup(&ps->t[Q_ORDER], k->key));	/* none: 0 */
	u->host_id = label_or_null(k->s, "host_id");
	u->stage = label_or_null(k->s, "stage");
	u->boot_offset = -1;
	if (u->host && u->session)
		u->last_sync_bt = session_bt(ps, u->host, u->session);
}

/* Is @host among @w's (@n, sorted by host)? */
static bool has_host(const struct walk_item *w, int n, const char *host)
{
	int lo = 0, hi = n, mid, r;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		r = strcmp(w[mid].host, host);
		if (!r)
			return true;
		if (r < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* The records of a walk of sessions, to be sorted as one. */
struct session_list {
	struct usage_session *u;
	int n, cap;
};

/*
 * The hosts of table @t (uses, or losses) that export no session: an
 * abidep too old to export them, or a host whose sessions are gone. With
 * no span to vouch for, each is a host whose tracer did not run through
 * the window: one session that ended at the epoch stands for it.
 */
static void add_stand_ins(struct session_list *l, const struct table *t,
			  const struct walk_item *sessions, int n)
{
	struct walk_item *w = walk_order(t, NULL);
	struct usage_session *u;
	int i, k;

	for (i = 0; i < t->n; i++) {
		if ((i && !strcmp(w[i].host, w[i - 1].host)) || has_host(sessions, n, w[i].host))
			continue;
		for (k = 0; k < l->n && strcmp(l->u[k].host, w[i].host); k++)
			;
		if (k < l->n)
			continue;
		u = GROW(l->u, l->n, l->cap);
		u->host = w[i].host;
		u->session = "(no session exported)";
		u->lost_at = STORE_NO_LOSS;
		u->boot_offset = -1;
	}
	free(w);
}

static int cmp_session(const void *a, const void *b)
{
	const struct usage_session *x = a, *y = b;
	int r = strcmp(x->host, y->host);

	if (!r)
		r = x->started < y->started ? -1 : x->started > y->started;
	return r ? r : strcmp(x->session, y->session);
}

static int source_each_session(struct usage_source *src,
			       int (*fn)(const struct usage_session *u, void *arg), void *arg)
{
	struct prom_source *ps = ps_of(src);
	const struct table *t = &ps->t[Q_START];
	struct walk_item *w = walk_order(t, start_of);
	struct session_list l = { 0 };
	int i, ret = 0;

	if (readings(ps)) {
		free(w);
		return -1;
	}
	for (i = 0; i < t->n; i++) {
		struct usage_session u;

		fill_session(ps, w[i].k, &u);
		if (u.host && u.session)
			*GROW(l.u, l.n, l.cap) = u;
	}
	add_stand_ins(&l, &ps->t[Q_COUNT], w, t->n);
	add_stand_ins(&l, &ps->t[Q_HOSTLOSS], w, t->n);
	qsort(l.u, l.n, sizeof(*l.u), cmp_session);
	for (i = 0; !ret && i < l.n; i++)
		ret = fn(&l.u[i], arg);
	free(l.u);
	free(w);
	return ret;
}

static long long since_of(const struct keyed *k)
{
	const char *since = prom_label_value(k->s, "since");
	size_t n = since ? strlen(since) : 0;

	/* Digits only, as the exporter writes it, at most 18 of them: no overflow. */
	if (!n || n > 18 || strspn(since, "0123456789") != n)
		return -1;
	return strtoll(since, NULL, 10);
}

static int source_each_watched(struct usage_source *src,
			       int (*fn)(const struct usage_watched *w, void *arg), void *arg)
{
	struct prom_source *ps = ps_of(src);
	const struct table *t = &ps->t[Q_WATCHED];
	struct walk_item *w = walk_order(t, since_of);
	struct usage_watched run;
	const char *found;
	int i, ret = 0;

	for (i = 0; !ret && i < t->n; i++) {
		memset(&run, 0, sizeof(run));
		run.host = prom_label_value(w[i].k->s, "host");
		run.session = prom_label_value(w[i].k->s, "session");
		run.what = label_or_null(w[i].k->s, "entry");
		found = prom_label_value(w[i].k->s, "found");
		run.since = w[i].when;
		run.last_sync = to_ll(w[i].k->v);
		if (!run.host || !run.session || run.since < 0 || !found ||
		    (strcmp(found, "0") && strcmp(found, "1"))) {
			snprintf(ps->err, sizeof(ps->err), "Prometheus at %s: a series of %s lacks its host, session, since or found label, or has one out of form",
				 prom_client_url(ps->cl), q_metric[Q_WATCHED]);
			ret = -1;
			break;
		}
		run.files = *found == '1';
		ret = fn(&run, arg);
	}
	free(w);
	return ret;
}

/* Prometheus keeps samples, not abidep's daily history: the page draws no days. */
static bool source_has_days(struct usage_source *src)
{
	return false;
}

static int source_each_day(struct usage_source *src, const struct store_filter *f,
			   int (*fn)(const struct usage_day *d, void *arg), void *arg)
{
	return 0;
}

static void source_error(struct usage_source *src, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s", ps_of(src)->err);
}

static void source_close(struct usage_source *src)
{
	struct prom_source *ps = ps_of(src);

	free_answers(ps);
	prom_client_free(ps->cl);
	free(ps);
	src->priv = NULL;
}

static const struct usage_source_ops prom_ops = {
	.begin = source_begin,
	.end = source_end,
	.each_row_since = source_each_row_since,
	.each_session = source_each_session,
	.each_clock = source_each_clock,
	.each_watched = source_each_watched,
	.has_days = source_has_days,
	.each_day = source_each_day,
	.error = source_error,
	.close = source_close,
};

int usage_source_prom(struct usage_source *src, const char *url, const struct prom_options *o,
		      long long now, char *err, size_t errlen)
{
	struct prom_client *cl = prom_client_new(url, o, err, errlen);
	struct prom_source *ps;

	if (!cl)
		return -1;
	ps = xcalloc(1, sizeof(*ps));
	ps->cl = cl;
	ps->now = now;
	src->ops = &prom_ops;
	src->priv = ps;
	return 0;
}
