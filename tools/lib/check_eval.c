// SPDX-License-Identifier: GPL-2.0
/*
 * abidep check's judgement. Documentation/admin-guide/check.rst states the rules for
 * users; in short, at --now:
 *
 *	due	  Status removed; or the Remove-after date is over (the whole
 *		  day, month or year it names); or --kernel is later than its
 *		  Remove-after kernel version.
 *	blocked	  due, and used since now - quiet-days (any host), or
 *		  referenced by a strong or medium scan hit. A use by a known
 *		  enumerator, or a row whose every access was swept (the
 *		  program had opened most of the files of the directory its
 *		  process group, or its parent's, had listed), is no use, unless
 *		  --count-sweeps.
 *	no-data	  due, not blocked, and the usage DB cannot vouch for the quiet
 *		  window: some host's tracer did not run through it (below), or
 *		  did not watch the entry's files through it (check_watch.c).
 *	ready	  due, not blocked, and the DB covers the window.
 *	not-due	  otherwise.
 *	removed	  Status removed, and --kernel is at or past its Removed:
 *		  kernel version: that kernel no longer has what the entry
 *		  documents (its file may stay as a stub, as selinuxfs's do),
 *		  so there is nothing left to decide; uses are still listed.
 *
 * Uses alone cannot show when the tracer ran (a quiet host writes no
 * usage row), so the store has a sessions table: each tracer session's
 * first and latest sync. A host covers the window when its sessions,
 * sorted by start, chain from the window's start to now with no gap
 * longer than CHECK_GRACE; the window is covered when every host of the
 * sessions table covers it, since a release gate must not pass on a host
 * whose tracer stopped. Nor does a host with a session that lost accesses
 * (not recorded, or runs the kernel skipped) in the window: what it lost
 * may have been a use. A DB without session rows (written before there
 * were any) keeps the old, weaker rule: covered when some use of anything
 * was recorded before the window began. check.rst says all this for users.
 *
 * Nor does a host with a boot observed only late (add_boot()): a tracer
 * loaded after systemd-udevd started never saw udev's coldplug, nor the
 * units before it, and the programs that read a file there run at boot
 * only: their uses are not in the DB, however long the tracer ran after.
 * A host's sessions are grouped by boot (the boot id of the session id);
 * a boot overlaps the window when a session of it does ([started,
 * last_sync] meets [quiet_since, now]); it was observed from early boot
 * when its earliest session's stage is initramfs or early, and only late
 * when that stage is late or unknown (an older tracer's, or a pin of
 * another session). Any boot overlapping the window observed only late
 * leaves the host uncovered, unless --allow-late-boot (allow_late_boot).
 * A boot observed from early boot is so for an entry only where the pin
 * watched its files: check_watch.c's pin_run() decides, per entry, from
 * the watched runs of the boot's earliest session (its start and first
 * sync, kept here).
 *
 * The times come placed by each boot's best mapping of its wall clock
 * (bootclock.h); check_clock.c says what a wrong clock still does to a
 * verdict: a use of a boot never synchronized is in the window when it
 * may be, and a host whose clock was wrong in the window (two boots that
 * overlap once placed, or a boot never synchronized that was set back)
 * covers none of it.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check_eval.h"
#include "entry.h"
#include "utctime.h"
#include "owner.h"
#include "store.h"
#include "text.h"
#include "util.h"

const char *const check_op_names[NOPS] = { "open", "read", "write", "other" };
const char *const check_stage_names[4] = {
	STORE_STAGE_INITRAMFS, STORE_STAGE_EARLY, STORE_STAGE_LATE, "unknown",
};

/* The check_stage_names index of a session's @stage; 3: unknown (NULL, or another). */
static int stage_index(const char *stage)
{
	int i;

	for (i = 0; i < 3 && (!stage || strcmp(stage, check_stage_names[i])); i++)
		;
	return i;
}

/*
 * A session that may vouch for the window (its last sync at most the grace
 * before it: add_session()), counted by how early in its boot it began.
 */
static void count_stage(struct check *c, const struct usage_session *u)
{
	if (u->last_sync >= c->quiet_since - CHECK_GRACE)
		c->nstage[stage_index(u->stage)]++;
}

const char *verdict_name(enum verdict v)
{
	static const char *const names[V_COUNT] = {
		"ready", "blocked", "not-due", "no-data", "removed",
	};

	return v < V_COUNT ? names[v] : "?";
}

/* ---- which entries ---- */

int check_select(struct check *c, const struct abi_set *set, const char *pattern)
{
	int i;

	c->set = set;
	c->entries = xcalloc(set->nentries, sizeof(*c->entries));
	c->of_entry = xcalloc(set->nentries + 1, sizeof(*c->of_entry));
	for (i = 0; i < set->nentries; i++) {
		const struct abi_entry *e = &set->entries[i];
		struct check_entry *ce;

		/* Entries without our fields are not deprecations. */
		if (e->status == ABI_ST_NONE || !entry_selected(e, pattern))
			continue;
		ce = &c->entries[c->n++];
		ce->e = e;
		ce->last_use = LLONG_MIN;
		c->of_entry[i] = ce;
	}
	c->quiet_since = c->has_since ? c->since : c->now - (long long)c->quiet_days * 86400;
	c->first_use = LLONG_MAX;
	c->last_use = LLONG_MIN;
	return c->n ? 0 : -1;
}

bool check_name_ambiguous(struct check *c, const char *pattern)
{
	bool *chosen = xcalloc(c->set->nentries + 1, sizeof(*chosen));
	bool ambiguous;
	int i, n = 0;

	for (i = 0; i < c->set->nentries; i++)
		chosen[i] = c->of_entry[i];
	ambiguous = entry_name_pick(c->set, chosen, pattern) < 0;
	/* Only the entries left chosen: their models, rows of the others unmatched. */
	for (i = 0; !ambiguous && i < c->n; i++) {
		int idx = c->entries[i].e - c->set->entries;

		if (!chosen[idx]) {
			c->of_entry[idx] = NULL;
			continue;
		}
		c->entries[n] = c->entries[i];
		c->of_entry[idx] = &c->entries[n++];
	}
	if (!ambiguous)
		c->n = n;
	free(chosen);
	return ambiguous;
}

/* ---- the usage DB ---- */

/* Rows come ordered by host (store_each_row()): a new host is a new last. */
static void add_host(struct check *c, const char *host)
{
	if (c->nhosts && !strcmp(c->hosts[c->nhosts - 1], host))
		return;
	*GROW(c->hosts, c->nhosts, c->hcap) = xstrdup(host);
}

int check_what_index(const struct check *c, const char *what)
{
	int k = entry_what_pos(c->set, what);

	return k < 0 || !check_what_entry(c, k) ? -1 : k;
}

struct check_entry *check_what_entry(const struct check *c, int k)
{
	return c->of_entry[c->set->whats[k].entry];
}

struct check_entry *check_entry_of_what(const struct check *c, const char *what)
{
	int k = check_what_index(c, what);

	return k < 0 ? NULL : check_what_entry(c, k);
}

/*
 * The selected entry a row belongs to: by its What, else the first selected
 * entry covering its path; rows come in path order within a session, so
 * the last answer by path is kept.
 */
static struct check_entry *entry_of_row(struct check *c, const struct usage_row *r)
{
	int i;

	if (r->what)
		return check_entry_of_what(c, r->what);
	if (c->last_path && !strcmp(c->last_path, r->path))
		return c->last_path_ce;
	free(c->last_path);
	c->last_path = xstrdup(r->path);
	/*
	 * The first selected entry covering it: under --entry, a path covered
	 * by an unselected entry first must still block the selected one.
	 */
	i = entry_covering(c->set, r->path, 0);
	while (i >= 0 && !c->of_entry[i])
		i = entry_covering(c->set, r->path, i + 1);
	c->last_path_ce = i < 0 ? NULL : c->of_entry[i];
	return c->last_path_ce;
}

static int op_bit(const char *op)
{
	int i;

	for (i = 0; i < OP_OTHER; i++)
		if (!strcmp(op, check_op_names[i]))
			return i;
	return OP_OTHER;
}

/* @u's recent uses plus a row's (@recent NULL: the row has no history). */
static void add_recent(struct check_use *u, const struct usage_counts *recent)
{
	unsigned long long n = recent ? recent->count : 0;

	if (!recent || u->recent < 0)
		u->recent = -1;
	else
		u->recent = n > (unsigned long long)(LLONG_MAX - u->recent) ? LLONG_MAX :
			    u->recent + (long long)n;
}

/*
 * The use of (exe, uid, host) in *@uses (@n of them, room for @cap): found,
 * or added with @r's counts; either way, @recent (the row's uses in the
 * window's days) added.
 */
static struct check_use *use_of(struct check *c, struct check_use **uses, int *n,
				int *cap, const struct usage_row *r,
				const struct usage_counts *recent)
{
	const struct pkg_meta *m;
	struct check_use *u;
	int i;

	for (i = 0; i < *n; i++)
		if ((*uses)[i].uid == r->uid && !strcmp((*uses)[i].exe, r->exe) &&
		    !strcmp((*uses)[i].host, r->host)) {
			usage_add(&(*uses)[i].counts, &r->counts);
			add_recent(&(*uses)[i], recent);
			return &(*uses)[i];
		}
	u = GROW(*uses, *n, *cap);
	memset(u, 0, sizeof(*u));
	u->exe = xstrdup(r->exe);
	m = owner_lookup(c->owner, r->exe);
	if (m) {
		u->package = m->name;
		u->package_version = m->version;
		u->package_maintainer = m->maintainer;
		u->package_source = m->source;
	}
	u->uid = r->uid;
	u->host = xstrdup(r->host);
	u->counts = r->counts;
	add_recent(u, recent);
	return u;
}

static int add_row(const struct usage_row *r, const struct usage_counts *recent,
		   void *arg)
{
	struct check *c = arg;
	const struct abi_ignore *ig;
	struct check_entry *ce;
	struct check_use *u;
	bool sweep;

	c->rows++;
	add_host(c, r->host);
	if (r->first_seen < c->first_use)
		c->first_use = r->first_seen;
	if (r->last_seen > c->last_use)
		c->last_use = r->last_seen;
	ce = entry_of_row(c, r);
	if (!ce) {
		c->unmatched_rows++;
		return 0;
	}
	if (r->last_seen > ce->last_use)
		ce->last_use = r->last_seen;
	/*
	 * A session whose last use is in the window: it used the entry then;
	 * or may have, for a clock never synchronized (check_clock.c).
	 */
	if (check_clock_last_seen(c, r) < c->quiet_since)
		return 0;
	/*
	 * Unless --count-sweeps, a known enumerator's reads are no use of it,
	 * nor are a sweep's: a row whose every access was swept. One access
	 * by name makes the row a use: the program may need the file.
	 */
	ig = c->count_sweeps ? NULL : abi_ignored(c->set, ce->e, r->exe);
	sweep = !c->count_sweeps && !ig && usage_all_swept(&r->counts);
	if (ig || sweep)
		u = use_of(c, &ce->enums, &ce->nenums, &ce->ecap, r, recent);
	else
		u = use_of(c, &ce->uses, &ce->nuses, &ce->ucap, r, recent);
	u->ignored = ig;
	u->sweep = sweep;
	u->ops |= 1u << op_bit(r->op);
	return 0;
}

static int cmp_use(const void *a, const void *b)
{
	const struct check_use *x = a, *y = b;
	int r = strcmp(x->exe, y->exe);

	if (!r)
		r = strcmp(x->host, y->host);
	if (!r)
		r = x->uid < y->uid ? -1 : x->uid > y->uid;
	return r;
}

/*
 * Group @h's sessions by boot. They come in order of start, and a boot
 * ends before the next begins, so a boot's sessions come one after the
 * other, its first the earliest: its stage says how early the tracer saw
 * that boot (a restart later in the boot does not change it). A boot id
 * seen again after another's (a clock set back) starts a new group, whose
 * first session may be a late one: judged late, never wrongly early.
 * Only boots that overlap the window are kept (the last, until the next
 * comes).
 */
static void add_boot(const struct check *c, struct check_host *h,
		     const struct usage_session *u)
{
	struct check_boot *b = h->nboots ? &h->boots[h->nboots - 1] : NULL;
	/* A session of an unknown boot is one of its own, grouped with none: it vouches by its stage alone. */
	size_t n = usage_session_boot_len(u->session);

	if (!b || !n || b->alone || strlen(b->id) != n || strncmp(b->id, u->session, n)) {
		if (b && !b->overlaps) {
			free(b->id);
			free(b->session);
			h->nboots--;
		}
		b = GROW(h->boots, h->nboots, h->bcap);
		memset(b, 0, sizeof(*b));
		b->id = n ? xstrndup(u->session, n) : xstrdup(u->session);
		b->alone = !n;
		b->stage = stage_index(u->stage);
		b->early = b->stage <= 1;
		b->session = xstrdup(u->session);
		b->started = u->started;
		/*
		 * Written before schema 7, its first sync unknown: its earliest
		 * watched run stands for it, as for report's uses during boot
		 * (store.c). check_watch.c looks at a session with a run at its
		 * start only, for which that is the start: no file is then
		 * found to have come after the pin, as before first_sync.
		 */
		b->first_sync = u->first_sync ? u->first_sync : u->started;
		b->clock = clock_history_find(&c->clocks, h->host, u->session);
	}
	/* A boot never synchronized may have been later than placed (check_clock.c). */
	b->overlaps |= u->last_sync + (b->clock ? b->clock->doubt : 0) >= c->quiet_since &&
		       u->started <= c->now;
}

char *check_boot_name(const struct check_boot *b)
{
	return b->alone ? xstrdup(b->id) : xstrndup(b->id, CHECK_BOOT_SHOWN);
}

char *check_late_boots(const struct check_host *h)
{
	char *r = xstrdup(""), *name, *next;
	int k;

	for (k = 0; k < h->nboots; k++) {
		const struct check_boot *b = &h->boots[k];

		if (!b->overlaps || b->early)
			continue;
		name = check_boot_name(b);
		next = xasprintf("%s%sboot %s: %s", r, *r ? ", " : "", name,
				 check_stage_names[b->stage]);
		free(name);
		free(r);
		r = next;
	}
	return r;
}

/* A host with boots observed only late, for the reason: "h1 (boot 3f2a9c0e: late)". */
static char *late_name(const struct check_host *h)
{
	char *boots = check_late_boots(h), *r;

	r = xasprintf("%s (%s)", h->host, boots);
	free(boots);
	return r;
}

/*
 * Walk a host's sessions in order of start (store_each_session() gives
 * them so), from the window's start: a session that starts at most
 * CHECK_GRACE after the point covered so far carries it on to its last
 * sync; a later one leaves a gap, and so does every one after it. The host
 * covers the window when the covered point reaches now - CHECK_GRACE.
 *
 * CHECK_GRACE, one day, absorbs the tracer's sync interval (the last sync
 * is a little before now), a reboot (the next session starts a little
 * after the last sync of the one before) and --quiet-days counting whole
 * days. covered_until is the latest sync of the sessions so chained: it
 * must itself be within CHECK_GRACE of now, so that a window shorter than
 * CHECK_GRACE is not covered by a tracer that stopped before it.
 */
static int add_session(const struct usage_session *u, void *arg)
{
	const char *host = u->host;
	long long started = u->started, last_sync = u->last_sync;
	struct check *c = arg;
	struct check_host *h = c->nshosts ? &c->shosts[c->nshosts - 1] : NULL;
	struct usage_span *sp;
	long long cursor;

	c->nsessions++;
	count_stage(c, u);
	if (!h || strcmp(h->host, host)) {
		h = GROW(c->shosts, c->nshosts, c->shcap);
		memset(h, 0, sizeof(*h));
		h->host = xstrdup(host);
		h->host_id = u->host_id ? xstrdup(u->host_id) : NULL;
		h->last_sync = LLONG_MIN;
		h->covered_until = LLONG_MIN;
		h->lost_at = STORE_NO_LOSS;
	}
	h->nsessions++;
	sp = GROW(h->spans, h->nspans, h->spcap);
	sp->start = started;
	sp->end = last_sync;
	add_boot(c, h, u);
	check_clock_session(c, u);
	/*
	 * Its losses were after the sync before lost_at: in the window if
	 * lost_at is (a loss just before the window, seen at the first sync
	 * in it, counts too: nothing tells it apart).
	 */
	if (u->lost_at != STORE_NO_LOSS && u->lost_at >= c->quiet_since) {
		h->unrecorded += u->unrecorded;
		h->skipped += u->skipped;
		if (u->lost_at > h->lost_at)
			h->lost_at = u->lost_at;
	}
	if (last_sync > h->last_sync)
		h->last_sync = last_sync;
	/* The latest session's says how the host is keyed now. */
	if (u->host_id && (!h->host_id || strcmp(h->host_id, u->host_id))) {
		free(h->host_id);
		h->host_id = xstrdup(u->host_id);
	}
	cursor = h->covered_until > c->quiet_since ? h->covered_until : c->quiet_since;
	if (started <= cursor + CHECK_GRACE && last_sync > h->covered_until)
		h->covered_until = last_sync;
	return 0;
}

/* A host that lost accesses, named with how many: "h1 (418 not recorded, 2 runs skipped)". */
static char *lost_name(const struct check_host *h)
{
	if (!h->skipped)
		return xasprintf("%s (%llu not recorded)", h->host, h->unrecorded);
	if (!h->unrecorded)
		return xasprintf("%s (%llu runs skipped)", h->host, h->skipped);
	return xasprintf("%s (%llu not recorded, %llu runs skipped)", h->host,
			 h->unrecorded, h->skipped);
}

/* The hosts that do not cover the window, by why: judge_hosts(). */
enum { U_STOPPED, U_LOSSY, U_LATE, U_CLOCK, U_KINDS };

/* Why the hosts of kind @k do not cover a window that began at @since. */
static char *kind_reason(int k, const char *since)
{
	switch (k) {
	case U_STOPPED:
		return xasprintf("the tracer did not run through the quiet window (since %s)", since);
	case U_LOSSY:
		return xasprintf("the tracer lost accesses in the quiet window (since %s), any of which may have been a use,",
				 since);
	case U_LATE:
		return xasprintf("a boot in the quiet window (since %s) was not traced from before udev's coldplug (its first session's stage late, or unknown): readers at boot unseen (--allow-late-boot accepts it),",
				 since);
	default:
		return xasprintf("the wall clock was wrong in the quiet window (since %s), not the tracer: the times it gave cannot show the window quiet,",
				 since);
	}
}

/*
 * Why the window is not covered, naming the hosts of each kind (@names[k],
 * @n[k] of them), @cap of each (0: all).
 */
static char *uncovered_reason(const struct check *c, char **names[U_KINDS],
			      const int n[U_KINDS], int cap)
{
	char t[64], *r = NULL, *why, *list, *part;
	int k;

	iso_time(c->quiet_since, t, sizeof(t));
	for (k = 0; k < U_KINDS; k++) {
		if (!n[k])
			continue;
		why = kind_reason(k, t);
		list = names_list(names[k], n[k], cap);
		part = xasprintf("%s%s%s on %d of %d host%s: %s", r ? r : "", r ? "; " : "",
				 why, n[k], c->nshosts, c->nshosts == 1 ? "" : "s", list);
		free(why);
		free(list);
		free(r);
		r = part;
	}
	return r;
}

/* Does a boot of @h that overlaps the window rest on a late (or unknown) stage? */
static bool has_late_boot(const struct check_host *h)
{
	int k;

	for (k = 0; k < h->nboots; k++)
		if (h->boots[k].overlaps && !h->boots[k].early)
			return true;
	return false;
}

/* Which hosts cover the window, and why the others do not, for the reasons. */
static void judge_hosts(struct check *c)
{
	char **names[U_KINDS];
	int i, k, n[U_KINDS] = { 0 };

	for (k = 0; k < U_KINDS; k++)
		names[k] = xcalloc(c->nshosts + 1, sizeof(char *));
	for (i = 0; i < c->nshosts; i++) {
		struct check_host *h = &c->shosts[i];

		h->ran = h->covered_until != LLONG_MIN &&
			 h->covered_until >= c->now - CHECK_GRACE;
		h->late = has_late_boot(h);
		check_clock_judge(c, h);
		h->covers = h->ran && h->lost_at == STORE_NO_LOSS &&
			    (!h->late || c->allow_late_boot) && !h->clock_why;
		/*
		 * A span placed by a clock never synchronized: said with the
		 * host. A host whose clock was wrong is named for that alone:
		 * where its spans fall, the clock decided.
		 */
		if (!h->ran && !h->clock_why)
			names[U_STOPPED][n[U_STOPPED]++] = h->nunsynced ?
				xasprintf("%s (its clock never synchronized in %d boot%s: spans placed by their last reading)",
					  h->host, h->nunsynced, h->nunsynced == 1 ? "" : "s") :
				xstrdup(h->host);
		if (h->clock_why)
			names[U_CLOCK][n[U_CLOCK]++] = xasprintf("%s (%s)", h->host, h->clock_why);
		c->nclock_wrong += h->clock_why != NULL;
		c->nunsynced += h->nunsynced > 0;
		if (h->lost_at != STORE_NO_LOSS)
			names[U_LOSSY][n[U_LOSSY]++] = lost_name(h);
		if (h->late && !c->allow_late_boot && !h->clock_why)
			names[U_LATE][n[U_LATE]++] = late_name(h);
		c->nlate += h->late;
		c->nuncovered += !h->covers;
	}
	if (c->nuncovered) {
		/* JSON names them all; text, the first few (its lines must fit). */
		c->uncovered = uncovered_reason(c, names, n, 0);
		if (n[U_STOPPED] > NAMES_SHOWN || n[U_LOSSY] > NAMES_SHOWN ||
		    n[U_LATE] > NAMES_SHOWN || n[U_CLOCK] > NAMES_SHOWN)
			c->uncovered_brief = uncovered_reason(c, names, n, NAMES_SHOWN);
	}
	for (k = 0; k < U_KINDS; k++) {
		for (i = 0; i < n[k]; i++)
			free(names[k][i]);
		free(names[k]);
	}
}

/* A day of an entry's use; days of a What the tracer did not record cannot be placed. */
static int add_day(const struct usage_day *d, void *arg)
{
	struct check_entry *ce = check_entry_of_what(arg, d->what);

	if (ce)
		usage_daily_add(&ce->days, d);
	return 0;
}

/* Every walk of check_read_usage(), in its snapshot. */
static int read_walks(struct check *c, struct usage_source *src)
{
	const struct usage_source_ops *ops = src->ops;
	struct store_filter all = { 0 };
	int ret;

	/* The clocks first: they say how a row's times may be wrong. */
	ret = check_clock_read(c, src);
	if (!ret)
		ret = ops->each_row_since(src, c->quiet_since, add_row, c);
	if (!ret)
		ret = ops->each_session(src, add_session, c);
	if (!ret)
		judge_hosts(c);
	if (!ret)
		ret = check_read_watched(src, c);
	if (!ret)
		c->has_days = ops->has_days(src);
	if (!ret && c->read_days && c->has_days)
		ret = ops->each_day(src, &all, add_day, c);
	return ret;
}

/* @u[0..n), sorted by exe (cmp_use()), summed per executable into *@exes. */
static int sum_exes(const struct check_use *u, int n, struct check_exe **exes)
{
	struct check_exe *x = NULL;
	int i, nexes = 0;

	*exes = xcalloc(n + 1, sizeof(**exes));
	for (i = 0; i < n; i++) {
		if (x && !strcmp(u[i].exe, x->uses[0].exe)) {
			usage_add(&x->sum, &u[i].counts);
			x->ops |= u[i].ops;
			x->nhosts += strcmp(u[i].host, u[i - 1].host) != 0;
			x->recent = x->recent < 0 || u[i].recent < 0 ? -1 :
				    u[i].recent > LLONG_MAX - x->recent ? LLONG_MAX :
				    x->recent + u[i].recent;
			x->n++;
			continue;
		}
		x = &(*exes)[nexes++];
		x->uses = &u[i];
		x->n = 1;
		x->sum = u[i].counts;
		x->ops = u[i].ops;
		x->nhosts = 1;
		x->recent = u[i].recent;
	}
	return nexes;
}

int check_read_usage(struct check *c, struct usage_source *src, char *err, size_t errlen)
{
	int i, ret;

	/* One snapshot of a source the tracer writes. */
	ret = src->ops->begin(src);
	if (!ret)
		ret = read_walks(c, src);
	if (ret || src->ops->end(src, false)) {
		src->ops->error(src, err, errlen);
		if (ret)
			src->ops->end(src, true);
		return -1;
	}
	/* qsort() of no elements may not be given the NULL of an empty array. */
	for (i = 0; i < c->n; i++) {
		struct check_entry *ce = &c->entries[i];

		if (ce->nuses > 1)
			qsort(ce->uses, ce->nuses, sizeof(struct check_use), cmp_use);
		if (ce->nenums > 1)
			qsort(ce->enums, ce->nenums, sizeof(struct check_use), cmp_use);
		ce->nuse_exes = sum_exes(ce->uses, ce->nuses, &ce->use_exes);
		ce->nenum_exes = sum_exes(ce->enums, ce->nenums, &ce->enum_exes);
	}
	return 0;
}

/* ---- the scan ---- */

static int cmp_ref(const void *a, const void *b)
{
	const struct scan_hit *x = ((const struct check_ref *)a)->hit;
	const struct scan_hit *y = ((const struct check_ref *)b)->hit;
	int r = strcmp(x->archive ? x->archive : "", y->archive ? y->archive : "");

	if (!r)
		r = strcmp(x->file, y->file);

	if (!r)
		r = x->offset < y->offset ? -1 : x->offset > y->offset;
	return r;
}

/* The hits of @res as references of the selected entries they are of. */
static void add_refs(struct check *c, const struct scan_result *res)
{
	size_t h;
	int i;

	for (h = 0; h < res->nhits; h++) {
		const struct scan_hit *hit = &res->hits[h];

		for (i = 0; i < c->n; i++) {
			struct check_entry *ce = &c->entries[i];
			struct check_ref *r;

			if (ce->e != hit->entry)
				continue;
			r = GROW(ce->refs, ce->nrefs, ce->rcap);
			r->hit = hit;
			/* A bare name ("enable") is too common to hold a removal. */
			r->blocks = hit->confidence != SCAN_WEAK;
			ce->nblocking_refs += r->blocks;
			break;
		}
	}
	for (i = 0; i < c->n; i++)
		if (c->entries[i].nrefs > 1)
			qsort(c->entries[i].refs, c->entries[i].nrefs,
			      sizeof(struct check_ref), cmp_ref);
}

int check_scan(struct check *c, const char *root, const struct abi_set *set,
	       char *err, size_t errlen)
{
	if (scan_tree(root, set, &c->scan, err, errlen)) {
		scan_result_free(&c->scan);
		return -1;
	}
	c->scanned = true;
	add_refs(c, &c->scan);
	return 0;
}

int check_scan_packages(struct check *c, char *const *paths, int npaths,
			const struct abi_set *set, const char *cache_dir,
			char *err, size_t errlen)
{
	struct scan_opts opts = { .cache_dir = cache_dir };

	if (scan_packages(paths, npaths, set, &opts, &c->pkgscan, err, errlen))
		return -1;
	c->pkgs_scanned = true;
	add_refs(c, &c->pkgscan);
	return 0;
}

/* ---- the verdicts ---- */

/* The UTC date of @t, as the module takes it (../kmod/when.c). */
static void date_of(time_t t, struct abidep_date *d)
{
	abidep_date_from_days(t > 0 ? t / 86400 : 0, d);
}

bool kver_valid(const char *kernel)
{
	struct abidep_kver k;

	return !abidep_parse_uname(kernel, &k);
}

/* The kernel --kernel names, if it was given. */
static bool kernel_of(const struct check *c, struct abidep_kver *k)
{
	return c->kernel && !abidep_parse_uname(c->kernel, k);
}

/*
 * Is the entry removed from the kernel --kernel names? Only a Removed:
 * kernel version can say: a removal date does not tell which kernel, and
 * without --kernel there is no kernel to ask about.
 */
static bool removed_in_kernel(const struct check *c, const struct abi_entry *e)
{
	struct abidep_kver k;

	return e->status == ABI_ST_REMOVED && e->removed.when.has_kver && kernel_of(c, &k) &&
	       abidep_kver_cmp(&k, &e->removed.when.kver) >= 0;
}

static void judge_due(struct check *c, struct check_entry *ce)
{
	const struct abi_entry *e = ce->e;
	const struct abidep_when *w = &e->remove_after.when;
	const char *kver = e->remove_after.kver;
	struct abidep_date today;
	struct abidep_kver k;
	char t[64];

	if (e->status == ABI_ST_REMOVED) {
		ce->due = true;
		return;
	}
	if (!e->field[ABI_REMOVE_AFTER]) {
		ce->reason = xstrdup("no removal scheduled (no Remove-after)");
		return;
	}
	date_of(c->now, &today);
	if (abidep_when_due(w, &today, kernel_of(c, &k) ? &k : NULL)) {
		ce->due = true;
		return;
	}
	if (w->has_date) {
		struct abidep_date first;

		abidep_date_due_from(&w->date, &first);
		snprintf(t, sizeof(t), "%04u-%02u-%02u", first.year, first.month, first.day);
		ce->reason = xasprintf("due on %s%s%s%s", t,
				       w->has_kver ? " or after kernel " : "",
				       w->has_kver ? kver : "",
				       w->has_kver && !c->kernel ? " (see --kernel)" : "");
	} else if (!c->kernel) {
		ce->reason = xasprintf("due after kernel %s: give --kernel to judge it",
				       kver);
	} else {
		ce->reason = xasprintf("due after kernel %s (--kernel %s)", kver, c->kernel);
	}
}

/*
 * The first option of the entry's Config: that --kernel's configuration
 * (c->config) says "is not set": its files are not built in that kernel.
 * An option the configuration does not name at all is not taken as off: it
 * may not exist in that kernel yet (CONFIG_MEMCG_V1 came in 6.11; 6.1
 * builds cgroup v1 memory without it). NULL when they may be built: no
 * Config:, no --kernel, no such file.
 */
static char *config_off(const struct check *c, const struct abi_entry *e)
{
	const char *s = e->field[ABI_CONFIG];
	char line[512], *off = NULL;
	FILE *f;

	if (!s || !c->config)
		return NULL;
	f = fopen(c->config, "r");
	if (!f)
		return NULL;
	while (!off && *(s += strspn(s, " \t"))) {
		size_t n = strcspn(s, " \t");
		bool unset = false;

		rewind(f);
		while (!unset && fgets(line, sizeof(line), f))
			unset = !strncmp(line, "# ", 2) && !strncmp(line + 2, s, n) &&
				!strcmp(line + 2 + n, " is not set\n");
		if (unset)
			off = xstrndup(s, n);
		s += n;
	}
	fclose(f);
	return off;
}

/* Why V_REMOVED for an entry not built in --kernel (@opt is not set). */
static char *judge_not_built(const struct check *c, const struct check_entry *ce, char *opt)
{
	char t[64], *r;

	if (!ce->nuses)
		r = xasprintf("not built in kernel %s: %s is not set in %s", c->kernel, opt, c->config);
	else
		r = xasprintf("not built in kernel %s: %s is not set in %s, yet used by %d program%s since %s",
			      c->kernel, opt, c->config, ce->nuses, ce->nuses == 1 ? "" : "s",
			      iso_time(c->quiet_since, t, sizeof(t)));
	free(opt);
	return r;
}

/* Why V_REMOVED, and who still used the file in the window anyway. */
static char *judge_removed(const struct check *c, const struct check_entry *ce)
{
	const char *kver = ce->e->removed.kver;
	char t[64];

	if (!ce->nuses)
		return xasprintf("removed in kernel %s (--kernel %s)", kver, c->kernel);
	return xasprintf("removed in kernel %s (--kernel %s), yet used by %d program%s since %s",
			 kver, c->kernel, ce->nuses, ce->nuses == 1 ? "" : "s",
			 iso_time(c->quiet_since, t, sizeof(t)));
}

/* Who the ready entry's uses were by, if any: " but by known enumerators". */
static const char *enums_text(const struct check_entry *ce)
{
	bool known = false, sweeps = false;
	int k;

	for (k = 0; k < ce->nenums; k++) {
		known |= ce->enums[k].ignored != NULL;
		sweeps |= ce->enums[k].sweep;
	}
	return known && sweeps ? " but by known enumerators and sweeps" :
	       known ? " but by known enumerators" : sweeps ? " but by sweeps" : "";
}

/* "A; B" of two reasons, either NULL; NULL when both are. */
static char *join_reasons(const char *a, const char *b)
{
	if (a && b)
		return xasprintf("%s; %s", a, b);
	return a || b ? xstrdup(a ? a : b) : NULL;
}

/*
 * No data: hosts whose tracer stopped or lost accesses (c->uncovered), and
 * hosts where the entry was not watched through the window.
 */
static void judge_no_data(const struct check *c, struct check_entry *ce)
{
	char *all = ce->nunwatched ? check_unwatched_reason(c, ce, 0) : NULL;
	char *few = ce->nunwatched > NAMES_SHOWN ? check_unwatched_reason(c, ce, NAMES_SHOWN) : NULL;

	ce->reason = join_reasons(c->uncovered, all);
	if (c->uncovered_brief || few)
		ce->brief = join_reasons(c->uncovered_brief ? c->uncovered_brief : c->uncovered,
					 few ? few : all);
	free(all);
	free(few);
}

/* The verdict rests on hosts whose watched set is unknown: say so in its reason. */
static void add_unknown(const struct check *c, struct check_entry *ce)
{
	char *u, *r;

	if (!ce->nwatch_unknown)
		return;
	u = check_unknown_reason(c, ce);
	r = join_reasons(ce->reason, u);
	free(ce->reason);
	ce->reason = r;
	if (ce->brief) {
		r = join_reasons(ce->brief, u);
		free(ce->brief);
		ce->brief = r;
	}
	free(u);
}

/*
 * Why a scan leaves an entry without data: the files (@one, @many: "file",
 * "files") it could not read, NAMES_SHOWN of them named, from @r
 * (unreadable sorted by file: a package's members are together).
 */
static char *unread_reason(const struct scan_result *r, const char *one, const char *many,
			   const char *opt)
{
	size_t i, n = 0, shown = 0;
	char *s = xstrdup(""), *t;

	for (i = 0; i < r->nunreadable; i++) {
		if (i && !strcmp(r->unreadable[i].file, r->unreadable[i - 1].file))
			continue;
		n++;
		if (shown++ >= NAMES_SHOWN)
			continue;
		t = xasprintf("%s%s%s", s, *s ? ", " : "", r->unreadable[i].file);
		free(s);
		s = t;
	}
	t = xasprintf("%zu %s could not be read whole (%s): %s%s", n, n == 1 ? one : many, opt, s,
		      shown > NAMES_SHOWN ? " and more" : "");
	free(s);
	return t;
}

/* What the scans could not read, as no-data's reason; NULL: they read all. */
static char *unread_scans(const struct check *c)
{
	char *a = NULL, *b = NULL, *r;

	if (c->scanned && c->scan.nunreadable)
		a = unread_reason(&c->scan, "file", "files", "--scan");
	if (c->pkgs_scanned && c->pkgscan.nunreadable)
		b = unread_reason(&c->pkgscan, "package file", "package files", "--scan-packages");
	r = join_reasons(a, b);
	free(a);
	free(b);
	return r;
}

/* check.no_db: nothing read, nothing can show an entry unused. */
#define NO_DB_REASON "no usage DB: nothing traced shows that no program uses it"

void check_judge(struct check *c)
{
	char t[64], t2[64], *off;
	int i;

	for (i = 0; i < c->n; i++) {
		struct check_entry *ce = &c->entries[i];
		int blockers = ce->nuses + ce->nblocking_refs;

		judge_due(c, ce);
		off = config_off(c, ce->e);
		if (removed_in_kernel(c, ce->e)) {
			ce->verdict = V_REMOVED;
			free(ce->reason);
			ce->reason = judge_removed(c, ce);
			free(off);
		} else if (off) {
			ce->verdict = V_REMOVED;
			free(ce->reason);
			ce->reason = judge_not_built(c, ce, off);
		} else if (!ce->due) {
			ce->verdict = V_NOT_DUE;
		} else if (blockers) {
			ce->verdict = V_BLOCKED;
			if (ce->nuses && ce->nblocking_refs)
				ce->reason = xasprintf("used by %d program%s since %s, and referenced %d time%s",
						       ce->nuses, ce->nuses == 1 ? "" : "s",
						       iso_time(c->quiet_since, t, sizeof(t)),
						       ce->nblocking_refs, ce->nblocking_refs == 1 ? "" : "s");
			else if (ce->nuses)
				ce->reason = xasprintf("used by %d program%s since %s",
						       ce->nuses, ce->nuses == 1 ? "" : "s",
						       iso_time(c->quiet_since, t, sizeof(t)));
			else
				ce->reason = xasprintf("referenced %d time%s (strong or medium)",
						       ce->nblocking_refs, ce->nblocking_refs == 1 ? "" : "s");
		} else if (c->nsessions && (c->nuncovered || ce->nunwatched)) {
			ce->verdict = V_NO_DATA;
			judge_no_data(c, ce);
		} else if (c->nsessions) {
			ce->verdict = V_READY;
		} else if (!c->rows) {
			ce->verdict = V_NO_DATA;
			ce->reason = xstrdup(c->no_db ? NO_DB_REASON :
					     "the usage DB is empty: nothing shows the tracer ran");
		} else if (c->first_use > c->quiet_since) {
			ce->verdict = V_NO_DATA;
			ce->reason = xasprintf("the usage DB starts %s, after the quiet window began (%s)",
					       iso_time(c->first_use, t, sizeof(t)),
					       iso_time(c->quiet_since, t2, sizeof(t2)));
		} else {
			ce->verdict = V_READY;
		}
		if (ce->verdict == V_READY && (ce->reason = unread_scans(c))) {
			/* What a file or package that was not read holds is not known. */
			ce->verdict = V_NO_DATA;
		}
		if (ce->verdict == V_READY)
			ce->reason = xasprintf("no use since %s%s%s",
					       iso_time(c->quiet_since, t, sizeof(t)),
					       enums_text(ce),
					       c->scanned || c->pkgs_scanned ?
					       ", no strong or medium reference" : "");
		if (ce->verdict == V_READY || ce->verdict == V_NO_DATA)
			add_unknown(c, ce);
		c->counts[ce->verdict]++;
	}
}

static void uses_free(struct check_use *u, int n)
{
	int k;

	for (k = 0; k < n; k++) {
		free(u[k].exe);
		free(u[k].host);
	}
	free(u);
}

void check_free(struct check *c)
{
	int i, k;

	for (i = 0; i < c->n; i++) {
		struct check_entry *ce = &c->entries[i];

		uses_free(ce->uses, ce->nuses);
		uses_free(ce->enums, ce->nenums);
		free(ce->use_exes);
		free(ce->enum_exes);
		usage_daily_free(&ce->days);
		free(ce->refs);
		for (k = 0; k < ce->nunwatched; k++)
			free(ce->unwatched[k].boots);
		free(ce->unwatched);
		free(ce->reason);
		free(ce->brief);
	}
	free(c->entries);
	free(c->of_entry);
	free(c->last_path);
	for (i = 0; i < c->nhosts; i++)
		free(c->hosts[i]);
	free(c->hosts);
	for (i = 0; i < c->nshosts; i++) {
		struct check_host *h = &c->shosts[i];

		for (k = 0; k < h->nboots; k++) {
			free(h->boots[k].id);
			free(h->boots[k].session);
			free(h->boots[k].after_pin);
		}
		free(h->boots);
		free(h->spans);
		free(h->host);
		free(h->host_id);
		free(h->clock_why);
	}
	free(c->shosts);
	check_clock_free(c);
	free(c->uncovered);
	free(c->uncovered_brief);
	if (c->scanned)
		scan_result_free(&c->scan);
	if (c->pkgs_scanned)
		scan_result_free(&c->pkgscan);
}
