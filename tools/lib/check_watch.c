// SPDX-License-Identifier: GPL-2.0
/*
 * abidep check: was each entry watched where its tracer ran? A session
 * that ran through the quiet window vouches for the files it watched, not
 * for the others: on a host without abidep.ko, or without the device, the
 * entry's file does not exist, a program that opens it gets ENOENT, and
 * the tracer sees nothing (check.rst states the rule for users).
 *
 * Each session records, per What of its tables, the runs of syncs at
 * which the What's files were watched or not (store_watched.c). An entry
 * is watched on a host when any of its Whats is; its watched runs chain
 * through the window as sessions do (check_eval.c's add_session(), the
 * same CHECK_GRACE). A host whose tracer ran through the window (covers)
 * but did not watch the entry through it leaves the entry no-data. A
 * session written before schema 6 (no host_id: it recorded no watched
 * set) counts as watching everything, and the verdict says the watched
 * set is unknown; one of today with no run watched nothing.
 *
 * A boot observed from early boot (check_eval.c's add_boot()) is so for an
 * entry only if its tracer watched the entry's files from the pin: see
 * pin_run(). An entry whose files came after the pin, unwatched until the
 * first sync, is no-data on that host (W_AT_BOOT) unless
 * --allow-late-boot, as a boot observed only late is.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "check_eval.h"
#include "entry.h"
#include "utctime.h"
#include "export.h"
#include "text.h"
#include "util.h"

/* One entry on the host being read. */
struct entry_watch {
	long long covered_until;	/* LLONG_MIN: none of the window */
	bool looked;			/* a run names it: the tracer had it */
	bool found;			/* a run watched files of it */
	bool unknown;			/* an unrecorded session in the window */
	char *at_boot;			/* "boot 3f2a9c0e: WHAT, ...": files after the pin; NULL: none */
};

struct watch_walk {
	struct check *c;
	struct entry_watch *ew;		/* c->n of them */
	/*
	 * Per What of the tables' index (check_what_index()): the early
	 * boot whose pin found none of its files, until the What's next run
	 * in that session (pin_run()).
	 */
	const struct check_boot **pin_empty;
	int cur;			/* the c->shosts index being read; -1: none */
	int next;			/* the first host not read yet */
	bool unknown;			/* it has a session in the window with no watched set */
};

/* @w's span carries the entry's coverage on, as add_session() does a host's. */
static void chain(const struct check *c, struct entry_watch *ew, const struct usage_watched *w)
{
	long long cursor = ew->covered_until > c->quiet_since ? ew->covered_until : c->quiet_since;

	if (w->since <= cursor + CHECK_GRACE && w->last_sync > ew->covered_until)
		ew->covered_until = w->last_sync;
}

/* @boots: W_AT_BOOT's, taken over; NULL for the others. */
static void add_unwatched(struct check_entry *ce, const char *host, int why, char *boots)
{
	struct check_unwatched *u = GROW(ce->unwatched, ce->nunwatched, ce->uwcap);

	u->host = host;
	u->why = why;
	u->boots = boots;
}

/* Has @h an early boot in the window whose files of a selected What came after the pin? */
static bool has_after_pin(const struct check_host *h)
{
	int k;

	for (k = 0; k < h->nboots; k++)
		if (h->boots[k].nafter_pin)
			return true;
	return false;
}

/*
 * The host read (ww->cur): each entry it did not watch through the
 * window, or (only then) not from an early boot's pin.
 */
static void host_done(struct watch_walk *ww)
{
	struct check *c = ww->c;
	const struct check_host *h;
	int i;

	if (ww->cur < 0)
		return;
	h = &c->shosts[ww->cur];
	for (i = 0; i < c->n; i++) {
		struct entry_watch *ew = &ww->ew[i];
		struct check_entry *ce = &c->entries[i];
		bool through = ew->covered_until != LLONG_MIN &&
			       ew->covered_until >= c->now - CHECK_GRACE;

		ce->nwatch_unknown += ew->unknown;
		/* A host that did not run through it is no-data already, and says why. */
		if (!h->covers)
			;
		else if (!through)
			add_unwatched(ce, h->host, !ew->looked ? W_NOT_TABLED :
						   !ew->found ? W_NO_FILE : W_PART, NULL);
		else if (ew->at_boot && !c->allow_late_boot)
			add_unwatched(ce, h->host, W_AT_BOOT, xstrdup(ew->at_boot));
		free(ew->at_boot);
	}
	c->nwatch_unknown += ww->unknown;
	c->nafter_pin += has_after_pin(h);
	ww->unknown = false;
	memset(ww->ew, 0, c->n * sizeof(*ww->ew));
	memset(ww->pin_empty, 0, c->set->nwhats * sizeof(*ww->pin_empty));
	for (i = 0; i < c->n; i++)
		ww->ew[i].covered_until = LLONG_MIN;
	ww->cur = -1;
}

/* The early boot in the window whose earliest session is @session, of the host read. */
static struct check_boot *early_boot_of(const struct watch_walk *ww, const char *session)
{
	struct check_host *h = &ww->c->shosts[ww->cur];
	int k;

	for (k = 0; k < h->nboots; k++) {
		struct check_boot *b = &h->boots[k];

		if (b->early && b->overlaps && !strcmp(b->session, session))
			return b;
	}
	return NULL;
}

/* The files of What @k came after @b's pin: say so on the boot, and on its entry. */
static void after_pin(struct watch_walk *ww, struct check_boot *b, int k)
{
	const char *what = ww->c->set->whats[k].what;
	struct entry_watch *ew = &ww->ew[check_what_entry(ww->c, k) - ww->c->entries];
	char *name = check_boot_name(b), *next;

	*GROW(b->after_pin, b->nafter_pin, b->apcap) = what;
	next = xasprintf("%s%sboot %s: %s", ew->at_boot ? ew->at_boot : "",
			 ew->at_boot ? ", " : "", name, what);
	free(name);
	free(ew->at_boot);
	ew->at_boot = next;
}

/*
 * Was What @k watched from the pin, in a boot observed from early boot?
 * A pinned tracer watches the files there are at the pin and finds new
 * ones at its syncs only (trace_stage.c), and the pin's record is the
 * run at the session's start (since == started). files > 0 there: it
 * was. No run there: a tracer that recorded no pin (an older one),
 * judged on the boot's stage alone, as before pins recorded it. (A live
 * tracer's run at its start is its first sync's: a later run is never
 * before that.) files 0 there, and the What's next
 * run, of files, begins by the session's first sync: the files appeared
 * between the pin and the first sync (udev's coldplug adds most devices
 * then), and their readers at boot went unseen until the tracer looked
 * again, at the first sync or at a refresh before it (--pin --early
 * --adopt, whose runs the first sync writes at their times). A next run
 * after the first sync is a device added later, watched from that sync
 * on: chain() judges it as any other run.
 */
static void pin_run(struct watch_walk *ww, const struct usage_watched *w, int k)
{
	struct check_boot *b = early_boot_of(ww, w->session);

	if (!b)
		return;
	if (w->since == b->started) {
		ww->pin_empty[k] = w->files > 0 ? NULL : b;
		return;
	}
	/* Runs come by since: the pin's, at the start, before any other. */
	if (ww->pin_empty[k] != b)
		return;
	ww->pin_empty[k] = NULL;
	if (w->files > 0 && w->since <= b->first_sync)
		after_pin(ww, b, k);
}

/*
 * Make @host the host being read. Both walks come in the same order (by
 * host, SQLite's binary order, strcmp()'s): the hosts before it that had
 * no run of their own are done, as watching nothing. false: not a host of
 * the sessions (a damaged DB); its runs are skipped.
 */
static bool host_start(struct watch_walk *ww, const char *host)
{
	const struct check *c = ww->c;

	if (ww->cur >= 0 && !strcmp(c->shosts[ww->cur].host, host))
		return true;
	host_done(ww);
	while (ww->next < c->nshosts && strcmp(c->shosts[ww->next].host, host) < 0) {
		ww->cur = ww->next++;
		host_done(ww);
	}
	if (ww->next == c->nshosts || strcmp(c->shosts[ww->next].host, host))
		return false;
	ww->cur = ww->next++;
	return true;
}

static int add_run(const struct usage_watched *w, void *arg)
{
	struct watch_walk *ww = arg;
	struct check *c = ww->c;
	int i, k;

	if (!host_start(ww, w->host))
		return 0;
	if (!w->what) {
		ww->unknown |= w->last_sync >= c->quiet_since;
		for (i = 0; i < c->n; i++) {
			ww->ew[i].looked = ww->ew[i].found = true;
			ww->ew[i].unknown |= w->last_sync >= c->quiet_since;
			chain(c, &ww->ew[i], w);
		}
		return 0;
	}
	k = check_what_index(c, w->what);
	if (k < 0)
		return 0;
	pin_run(ww, w, k);
	i = check_what_entry(c, k) - c->entries;
	ww->ew[i].looked = true;
	if (w->files > 0) {
		ww->ew[i].found = true;
		chain(c, &ww->ew[i], w);
	}
	return 0;
}

int check_read_watched(struct usage_source *src, struct check *c)
{
	struct watch_walk ww = {
		c, xcalloc(c->n + 1, sizeof(*ww.ew)), xcalloc(c->set->nwhats + 1, sizeof(*ww.pin_empty)),
		-1, 0, false,
	};
	int i, ret;

	for (i = 0; i < c->n; i++)
		ww.ew[i].covered_until = LLONG_MIN;
	ret = src->ops->each_watched(src, add_run, &ww);
	if (!ret) {
		host_done(&ww);
		/* The hosts after the last run: they watched nothing. */
		while (ww.next < c->nshosts) {
			ww.cur = ww.next++;
			host_done(&ww);
		}
	}
	/* Stopped by an error, a host's walk may hold its entries' boots. */
	for (i = 0; i < c->n; i++)
		free(ww.ew[i].at_boot);
	free(ww.ew);
	free(ww.pin_empty);
	return ret;
}

/* Is any What of @e a file abidep.ko makes (an alias)? */
static bool module_made(const struct abi_entry *e)
{
	int k;

	for (k = 0; k < e->nwhat; k++)
		if (export_module_alias(e, k))
			return true;
	return false;
}

/* Is any What of @e in sysfs proper, where a missing file is just missing? */
static bool in_sysfs(const struct abi_entry *e)
{
	int k;

	for (k = 0; k < e->nwhat; k++)
		if (!strncmp(e->what[k], "/sys/", 5) && strncmp(e->what[k], "/sys/fs/cgroup/", 15))
			return true;
	return false;
}

/* What a host of kind @why did, and what to do about it. */
static const char *kind_text(const struct check_entry *ce, int why)
{
	switch (why) {
	case W_NOT_TABLED:
		return "the tracer's tables lacked the entry (it watched other files) on";
	case W_PART:
		return "the file was watched for part of the window only on";
	case W_AT_BOOT:
		return "the files appeared after the tracer was pinned (at coldplug) and were not watched until its first sync or a refresh before it, readers at boot unseen (--allow-late-boot accepts it), on";
	default:
		if (module_made(ce->e))
			return "the file did not exist (abidep.ko makes it: load the module with 'modprobe abidep', which abidep-dkms does at boot, and trace again) on";
		if (in_sysfs(ce->e))
			return "the file did not exist (no device or driver made it; a program opening it got ENOENT, unseen) on";
		return "the tracer could not watch the file (outside sysfs, or not in that kernel) on";
	}
}

/*
 * The part of the reason for the hosts of kind @why, @cap of them (0:
 * all), W_AT_BOOT's with their boots: "h1 (boot 3f2a9c0e: WHAT)"; NULL
 * when there are none.
 */
static char *kind_part(const struct check *c, const struct check_entry *ce, int why, int cap)
{
	char **names = xcalloc(ce->nunwatched + 1, sizeof(*names)), *list, *part = NULL;
	int n = 0, k;

	for (k = 0; k < ce->nunwatched; k++) {
		const struct check_unwatched *u = &ce->unwatched[k];

		if ((int)u->why == why)
			names[n++] = u->boots ? xasprintf("%s (%s)", u->host, u->boots) :
						xstrdup(u->host);
	}
	if (n) {
		list = names_list(names, n, cap);
		part = xasprintf("%s %d of %d host%s: %s", kind_text(ce, why), n, c->nshosts,
				 c->nshosts == 1 ? "" : "s", list);
		free(list);
	}
	for (k = 0; k < n; k++)
		free(names[k]);
	free(names);
	return part;
}

/* "A; B", either NULL, taking both over. */
static char *join_parts(char *a, char *b)
{
	char *r;

	if (!a || !b)
		return a ? a : b;
	r = xasprintf("%s; %s", a, b);
	free(a);
	free(b);
	return r;
}

char *check_unwatched_reason(const struct check *c, const struct check_entry *ce, int cap)
{
	char t[64], *r = NULL, *through = NULL, *boot = NULL, *part;
	int why;

	iso_time(c->quiet_since, t, sizeof(t));
	for (why = W_NO_FILE; why <= W_PART; why++)
		r = join_parts(r, kind_part(c, ce, why, cap));
	if (r)
		through = xasprintf("not watched through the quiet window (since %s): %s", t, r);
	/* Watched through the window, yet not at an early boot in it. */
	part = kind_part(c, ce, W_AT_BOOT, cap);
	if (part)
		boot = xasprintf("not watched from early boot in the quiet window (since %s): %s",
				 t, part);
	free(r);
	free(part);
	return join_parts(through, boot);
}

char *check_after_pin_whats(const struct check_boot *b)
{
	if (!b->nafter_pin)
		return xstrdup("");
	return names_list((char *const *)b->after_pin, b->nafter_pin, 0);
}

char *check_unknown_reason(const struct check *c, const struct check_entry *ce)
{
	return xasprintf("watched set unknown on %d of %d host%s (sessions of an abidep that did not record what it watched: the file may not have existed there)",
			 ce->nwatch_unknown, c->nshosts, c->nshosts == 1 ? "" : "s");
}
