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
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "check_eval.h"
#include "check_time.h"
#include "export.h"
#include "text.h"
#include "util.h"

/* One entry on the host being read. */
struct entry_watch {
	long long covered_until;	/* LLONG_MIN: none of the window */
	bool looked;			/* a run names it: the tracer had it */
	bool found;			/* a run watched files of it */
	bool unknown;			/* an unrecorded session in the window */
};

struct watch_walk {
	struct check *c;
	struct entry_watch *ew;		/* c->n of them */
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

static void add_unwatched(struct check_entry *ce, const char *host, int why)
{
	struct check_unwatched *u = GROW(ce->unwatched, ce->nunwatched, ce->uwcap);

	u->host = host;
	u->why = why;
}

/* The host read (ww->cur): each entry it did not watch through the window. */
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

		ce->nwatch_unknown += ew->unknown;
		/* A host that did not run through it is no-data already, and says why. */
		if (!h->covers || (ew->covered_until != LLONG_MIN &&
				   ew->covered_until >= c->now - CHECK_GRACE))
			continue;
		add_unwatched(ce, h->host, !ew->looked ? W_NOT_TABLED :
					   !ew->found ? W_NO_FILE : W_PART);
	}
	c->nwatch_unknown += ww->unknown;
	ww->unknown = false;
	memset(ww->ew, 0, c->n * sizeof(*ww->ew));
	for (i = 0; i < c->n; i++)
		ww->ew[i].covered_until = LLONG_MIN;
	ww->cur = -1;
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
	struct check_entry *ce;
	int i;

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
	ce = check_entry_of_what(c, w->what);
	if (!ce)
		return 0;
	i = ce - c->entries;
	ww->ew[i].looked = true;
	if (w->files > 0) {
		ww->ew[i].found = true;
		chain(c, &ww->ew[i], w);
	}
	return 0;
}

int check_read_watched(struct store *s, struct check *c)
{
	struct watch_walk ww = { c, xcalloc(c->n + 1, sizeof(*ww.ew)), -1, 0, false };
	int i, ret;

	for (i = 0; i < c->n; i++)
		ww.ew[i].covered_until = LLONG_MIN;
	ret = store_each_watched(s, add_run, &ww);
	if (!ret) {
		host_done(&ww);
		/* The hosts after the last run: they watched nothing. */
		while (ww.next < c->nshosts) {
			ww.cur = ww.next++;
			host_done(&ww);
		}
	}
	free(ww.ew);
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
	default:
		if (module_made(ce->e))
			return "the file did not exist (abidep.ko makes it: load the module with 'modprobe abidep', which abidep-dkms does at boot, and trace again) on";
		if (in_sysfs(ce->e))
			return "the file did not exist (no device or driver made it; a program opening it got ENOENT, unseen) on";
		return "the tracer could not watch the file (outside sysfs, or not in that kernel) on";
	}
}

char *check_unwatched_reason(const struct check *c, const struct check_entry *ce, int cap)
{
	char t[64], *r = NULL, *full;
	int why, k;

	for (why = W_NO_FILE; why <= W_PART; why++) {
		const char **names = xcalloc(ce->nunwatched + 1, sizeof(*names));
		char *list, *part, *joined;
		int n = 0;

		for (k = 0; k < ce->nunwatched; k++)
			if ((int)ce->unwatched[k].why == why)
				names[n++] = ce->unwatched[k].host;
		if (n) {
			list = names_list((char *const *)names, n, cap);
			part = xasprintf("%s %d of %d host%s: %s", kind_text(ce, why), n,
					 c->nshosts, c->nshosts == 1 ? "" : "s", list);
			joined = r ? xasprintf("%s; %s", r, part) : xstrdup(part);
			free(r);
			free(part);
			free(list);
			r = joined;
		}
		free(names);
	}
	full = xasprintf("not watched through the quiet window (since %s): %s",
			 iso_time(c->quiet_since, t, sizeof(t)), r ? r : "");
	free(r);
	return full;
}

char *check_unknown_reason(const struct check *c, const struct check_entry *ce)
{
	return xasprintf("watched set unknown on %d of %d host%s (sessions of an abidep that did not record what it watched: the file may not have existed there)",
			 ce->nwatch_unknown, c->nshosts, c->nshosts == 1 ? "" : "s");
}
