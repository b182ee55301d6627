// SPDX-License-Identifier: GPL-2.0
/*
 * abidep report's model (report_model.h), read from the usage store: per
 * table entry (What) the files used, and per executable, uid, cgroup and
 * operation the counts summed over the tracer's sessions and hosts, with
 * the package of the executable and whether a use was during boot; what
 * the tracer lost; and as the printers ask for them, the uses per file
 * (Prometheus) and the history (HTML: daily use, sessions).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "clock_history.h"
#include "entry.h"
#include "owner.h"
#include "report_model.h"
#include "util.h"

static bool same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* The entry of @what, if there is one: mostly the last, as the store walks in What order. */
static struct report_entry *entry_find(struct report *r, const char *what)
{
	int i;

	for (i = r->n - 1; i >= 0; i--)
		if (same(r->entries[i].what, what))
			return &r->entries[i];
	return NULL;
}

/* The entry of @what, added when there is none. */
static struct report_entry *entry_of(struct report *r, const char *what)
{
	struct report_entry *e = entry_find(r, what);

	if (e)
		return e;
	e = GROW(r->entries, r->n, r->cap);
	e->what = dup_or_null(what);
	e->last_seen = LLONG_MIN;
	e->abi = abi_entry_of_what(&r->set, what);
	return e;
}

static int add_file(const struct usage_file *f, void *arg)
{
	struct report_entry *e = entry_of(arg, f->what);

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
	struct report_entry *e = entry_of(r, s->what);
	struct report_user *u = e->nusers ? &e->users[e->nusers - 1] : NULL;
	const struct pkg_meta *m;
	struct report_user_host *h;

	if (!u || strcmp(u->exe, s->exe) || u->uid != s->uid ||
	    !same(u->cgroup, s->cgroup) || strcmp(u->op, s->op)) {
		u = GROW(e->users, e->nusers, e->ucap);
		u->exe = xstrdup(s->exe);
		m = owner_lookup(r->owner, s->exe);
		if (m) {
			u->package = m->name;
			u->package_version = m->version;
			u->package_maintainer = m->maintainer;
			u->package_source = m->source;
		}
		u->uid = s->uid;
		u->cgroup = dup_or_null(s->cgroup);
		u->op = xstrdup(s->op);
		u->counts = s->counts;
		u->ignored = abi_ignored(&r->set, e->abi, s->exe);
	} else {
		usage_add(&u->counts, &s->counts);
	}
	h = GROW(u->hosts, u->nhosts, u->hcap);
	h->host = xstrdup(s->host);
	h->counts = s->counts;
	return 0;
}

/*
 * Of two boots of a use, is @a earlier after boot than @b: during boot at
 * all, then known how long after, then sooner.
 */
static bool boot_earlier(const struct report_boot *a, const struct report_boot *b)
{
	if (!a->stage || !b->stage)
		return a->stage && !b->stage;
	if (a->after_boot < 0 || b->after_boot < 0)
		return a->after_boot >= 0 && b->after_boot < 0;
	return a->after_boot < b->after_boot;
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
	const struct report_user *u = elem;
	int r = cmp_text(b->exe, u->exe);

	if (!r)
		r = b->uid < u->uid ? -1 : b->uid > u->uid;
	if (!r)
		r = cmp_text(b->cgroup, u->cgroup);
	return r ? r : cmp_text(b->op, u->op);
}

static int cmp_host(const void *key, const void *elem)
{
	return strcmp(key, ((const struct report_user_host *)elem)->host);
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
	struct report_entry *e = entry_find(arg, b->what);
	struct report_user *u = e && e->nusers ?
		bsearch(b, e->users, e->nusers, sizeof(*u), cmp_user) : NULL;
	struct report_user_host *h = u ?
		bsearch(b->host, u->hosts, u->nhosts, sizeof(*h), cmp_host) : NULL;

	if (!h)
		return 0;
	if (boot_earlier(&boot, &h->boot))
		h->boot = boot;
	if (boot_earlier(&boot, &u->boot))
		u->boot = boot;
	return 0;
}

static int add_file_use(const struct usage_sum *s, void *arg)
{
	struct report *r = arg;
	struct report_file_use *u = GROW(r->file_uses, r->nfile_uses, r->fucap);

	u->what = dup_or_null(s->what);
	u->path = xstrdup(s->path);
	u->exe = xstrdup(s->exe);
	u->package = owner_of(r->owner, s->exe, NULL);
	u->uid = s->uid;
	u->op = xstrdup(s->op);
	u->host = xstrdup(s->host);
	u->counts = s->counts;
	u->last_seen_latest = s->counts.last_seen;
	return 0;
}

/* A session's losses, per host (sessions come in host order). */
static void add_loss(struct report *r, const struct usage_session *u)
{
	const struct store_filter *f = r->filter;
	struct report_loss *l = r->nlosses ? &r->losses[r->nlosses - 1] : NULL;

	if (u->lost_at == STORE_NO_LOSS || (f->since && u->lost_at < f->since))
		return;
	if (!l || strcmp(l->host, u->host)) {
		l = GROW(r->losses, r->nlosses, r->lcap);
		l->host = xstrdup(u->host);
		l->lost_at = u->lost_at;
	}
	l->unrecorded += u->unrecorded;
	l->skipped += u->skipped;
	if (u->lost_at > l->lost_at)
		l->lost_at = u->lost_at;
}

/* A session that ran since --since, onto its host's spans. */
static void add_span(struct report *r, const struct usage_session *u)
{
	struct report_host *h = r->nhosts ? &r->hosts[r->nhosts - 1] : NULL;
	struct usage_span *sp;

	if (r->filter->since && u->last_sync < r->filter->since)
		return;
	if (!h || strcmp(h->host, u->host)) {
		h = GROW(r->hosts, r->nhosts, r->hcap);
		h->host = xstrdup(u->host);
	}
	sp = GROW(h->spans, h->n, h->cap);
	sp->start = u->started;
	sp->end = u->last_sync;
	r->nsessions++;
	if (u->started < r->first)
		r->first = u->started;
	if (u->last_sync > r->last)
		r->last = u->last_sync;
}

/* REPORT_SESSIONS: a copy of a session row, its strings the model's. */
static void keep_session(struct report *r, const struct usage_session *u)
{
	struct usage_session *c = GROW(r->sessions, r->nsess, r->scap);

	*c = *u;
	c->host = xstrdup(u->host);
	c->session = xstrdup(u->session);
	c->host_id = dup_or_null(u->host_id);
	c->stage = dup_or_null(u->stage);
}

/* Sessions come ordered by host, then start. */
static int add_session(const struct usage_session *u, void *arg)
{
	struct report *r = arg;

	add_loss(r, u);
	if (r->parts & REPORT_HISTORY)
		add_span(r, u);
	if (r->parts & REPORT_SESSIONS)
		keep_session(r, u);
	return 0;
}

/* REPORT_SESSIONS: a copy of a watched run. */
static int keep_watched(const struct usage_watched *w, void *arg)
{
	struct report *r = arg;
	struct usage_watched *c = GROW(r->watched, r->nwatched, r->wcap);

	*c = *w;
	c->host = xstrdup(w->host);
	c->session = xstrdup(w->session);
	c->what = dup_or_null(w->what);
	return 0;
}

/* REPORT_SESSIONS: a copy of a reading of the clocks. */
static int keep_reading(const struct usage_clock *c, void *arg)
{
	struct report *r = arg;
	struct usage_clock *k = GROW(r->readings, r->nreadings, r->rcap);

	*k = *c;
	k->host = xstrdup(c->host);
	k->session = xstrdup(c->session);
	return 0;
}

/* File uses by their key (what, NULL first; path, exe, uid, op, host). */
static int cmp_file_use(const void *a, const void *b)
{
	const struct report_file_use *x = *(const struct report_file_use *const *)a;
	const struct report_file_use *y = *(const struct report_file_use *const *)b;
	int c = !x->what || !y->what ? !!x->what - !!y->what : strcmp(x->what, y->what);

	if (!c)
		c = strcmp(x->path, y->path);
	if (!c)
		c = strcmp(x->exe, y->exe);
	if (!c)
		c = x->uid < y->uid ? -1 : x->uid > y->uid;
	if (!c)
		c = strcmp(x->op, y->op);
	return c ? c : strcmp(x->host, y->host);
}

/* What file_uses_latest() walks the rows with. */
struct latest_walk {
	const struct clock_history *clocks;
	struct report_file_use **by_key;
	int n;
};

/* A row of a boot with a doubt: its file use's last use may be that much later. */
static int row_latest(const struct usage_row *row, void *arg)
{
	const struct latest_walk *w = arg;
	const struct boot_clock *b = clock_history_find(w->clocks, row->host, row->session);
	struct report_file_use key = {
		.what = (char *)row->what, .path = (char *)row->path, .exe = (char *)row->exe,
		.uid = row->uid, .op = (char *)row->op, .host = (char *)row->host,
	}, *k = &key, **u;

	if (!b || !b->doubt || row->last_seen > LLONG_MAX - b->doubt)
		return 0;
	u = bsearch(&k, w->by_key, w->n, sizeof(*w->by_key), cmp_file_use);
	if (u && row->last_seen + b->doubt > (*u)->last_seen_latest)
		(*u)->last_seen_latest = row->last_seen + b->doubt;
	return 0;
}

/*
 * Each file use's last_seen_latest, from the rows of the boots whose
 * readings give them a doubt (none, mostly: no row is read then).
 */
static int file_uses_latest(struct report *r, struct store *s)
{
	struct latest_walk w = { .clocks = &r->clocks };
	int i, ret = 0;
	bool doubt = false;

	for (i = 0; i < r->clocks.n; i++)
		doubt |= r->clocks.b[i].doubt > 0;
	if (doubt && r->nfile_uses) {
		w.by_key = xcalloc(r->nfile_uses, sizeof(*w.by_key));
		for (i = 0; i < r->nfile_uses; i++)
			w.by_key[w.n++] = &r->file_uses[i];
		qsort(w.by_key, w.n, sizeof(*w.by_key), cmp_file_use);
		ret = store_each_row(s, row_latest, &w);
		free(w.by_key);
	}
	return ret;
}

/* A day of an entry's use; days of an entry with no use in the window are left out. */
static int add_day(const struct usage_day *d, void *arg)
{
	struct report_entry *e = entry_find(arg, d->what);

	if (e)
		usage_daily_add(&e->days, d);
	return 0;
}

/* Entries unknown to the tracer (What NULL) come first: put them last. */
static void unknown_last(struct report *r)
{
	struct report_entry e;

	if (r->n < 2 || r->entries[0].what)
		return;
	e = r->entries[0];
	memmove(r->entries, r->entries + 1, (r->n - 1) * sizeof(e));
	r->entries[r->n - 1] = e;
}

/* The users of each entry per executable, and how many were during boot. */
static void sum_users(struct report *r)
{
	int i, k, n, j;

	for (i = 0; i < r->n; i++) {
		struct report_entry *e = &r->entries[i];

		e->exes = xcalloc(e->nusers + 1, sizeof(*e->exes));
		for (k = 0; k < e->nusers; k = n) {
			struct report_exe *x = &e->exes[e->nexes++];

			for (n = k + 1; n < e->nusers && !strcmp(e->users[n].exe, e->users[k].exe); n++)
				;
			x->users = &e->users[k];
			x->nusers = n - k;
			x->sum = e->users[k].counts;
			x->boot = e->users[k].boot;
			for (j = k + 1; j < n; j++) {
				usage_add(&x->sum, &e->users[j].counts);
				if (boot_earlier(&e->users[j].boot, &x->boot))
					x->boot = e->users[j].boot;
			}
		}
		for (k = 0; k < e->nusers; k++) {
			r->nusers++;
			r->nboot += e->users[k].boot.stage != NULL;
		}
	}
}

static int add_clock(const struct usage_clock *c, void *arg)
{
	struct report *r = arg;

	clock_history_add(&r->clocks, c);
	return 0;
}

/* The parts asked for, in the read transaction. */
static int read_parts(struct report *r, struct store *s)
{
	const struct store_filter *f = r->filter;
	int ret = 0;

	if (r->parts & REPORT_USERS) {
		ret = store_files(s, f, add_file, r);
		if (!ret)
			ret = store_sums(s, f, add_sum, r);
		if (!ret)
			ret = store_boot_uses(s, f, add_boot, r);
	}
	if (!ret && (r->parts & REPORT_FILE_USES))
		ret = store_path_sums(s, f, add_file_use, r);
	if (!ret)
		ret = store_each_session(s, add_session, r);
	if (!ret)
		ret = store_each_clock(s, add_clock, r);
	clock_history_done(&r->clocks);
	unknown_last(r);
	if (!ret && (r->parts & REPORT_SESSIONS))
		ret = store_each_watched(s, keep_watched, r);
	if (!ret && (r->parts & REPORT_SESSIONS))
		ret = store_each_clock(s, keep_reading, r);
	if (!ret && (r->parts & REPORT_SESSIONS) && (r->parts & REPORT_FILE_USES))
		ret = file_uses_latest(r, s);
	if (!ret && (r->parts & REPORT_HISTORY)) {
		r->has_days = store_has_days(s);
		if (r->has_days)
			ret = store_each_day(s, f, add_day, r);
	}
	return ret;
}

int report_read(struct report *r, struct store *s)
{
	r->first = LLONG_MAX;
	r->last = LLONG_MIN;
	if (r->parts & REPORT_USERS) {
		r->rows = store_rows(s);
		if (r->rows < 0)
			return -1;
		/* An empty DB has no use; the page shows its sessions all the same. */
		if (!r->rows && !(r->parts & REPORT_HISTORY))
			return 0;
	}
	if (store_begin(s))
		return -1;
	if (read_parts(r, s)) {
		store_rollback(s);
		return -1;
	}
	sum_users(r);
	return store_commit(s);
}

static void user_free(struct report_user *u)
{
	int h;

	free(u->exe);
	free(u->cgroup);
	free(u->op);
	for (h = 0; h < u->nhosts; h++)
		free(u->hosts[h].host);
	free(u->hosts);
}

static void entry_free(struct report_entry *e)
{
	int k;

	for (k = 0; k < e->nfiles; k++)
		free(e->files[k]);
	free(e->files);
	for (k = 0; k < e->nusers; k++)
		user_free(&e->users[k]);
	free(e->users);
	free(e->exes);
	free(e->what);
	free(e->table);
	free(e->status);
	usage_daily_free(&e->days);
}

static void file_use_free(struct report_file_use *u)
{
	free(u->what);
	free(u->path);
	free(u->exe);
	free(u->op);
	free(u->host);
}

/* The strings keep_session(), keep_watched() and keep_reading() copied. */
static void sessions_free(struct report *r)
{
	int i;

	for (i = 0; i < r->nsess; i++) {
		free((char *)r->sessions[i].host);
		free((char *)r->sessions[i].session);
		free((char *)r->sessions[i].host_id);
		free((char *)r->sessions[i].stage);
	}
	free(r->sessions);
	for (i = 0; i < r->nwatched; i++) {
		free((char *)r->watched[i].host);
		free((char *)r->watched[i].session);
		free((char *)r->watched[i].what);
	}
	free(r->watched);
	for (i = 0; i < r->nreadings; i++) {
		free((char *)r->readings[i].host);
		free((char *)r->readings[i].session);
	}
	free(r->readings);
}

void report_free(struct report *r)
{
	int i;

	for (i = 0; i < r->n; i++)
		entry_free(&r->entries[i]);
	free(r->entries);
	for (i = 0; i < r->nlosses; i++)
		free(r->losses[i].host);
	free(r->losses);
	for (i = 0; i < r->nfile_uses; i++)
		file_use_free(&r->file_uses[i]);
	free(r->file_uses);
	for (i = 0; i < r->nhosts; i++) {
		free(r->hosts[i].host);
		free(r->hosts[i].spans);
	}
	free(r->hosts);
	sessions_free(r);
	clock_history_free(&r->clocks);
	owner_free(r->owner);
	abi_set_free(&r->set);
}
