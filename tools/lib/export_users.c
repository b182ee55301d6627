// SPDX-License-Identifier: GPL-2.0
/*
 * tables export --users: the Users: text of each migration entry, from the
 * uses and references of a check model (export_users.h). An entry's text:
 *
 *	its own Users: text, if any
 *	Seen by abidep on DATE (usage DB, N hosts; package scan of N package files):
 *	Executables seen using it:
 *	  /usr/bin/foo (package foo), 12 uses, last 2026-11-30
 *	SOURCE (MAINTAINER):
 *	  PACKAGE VERSION: FILE, FILE, FILE and N more
 *
 * each line after the first a continuation line ("\t\t"), as
 * Documentation/ABI writes them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export_users.h"
#include "text.h"
#include "utctime.h"
#include "util.h"

/* A strong or medium reference, as the text groups it. */
struct uref {
	const char *source, *maintainer, *package, *version, *file;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The distinct strings of @v[0..n), sorted in place. */
static int distinct(const char **v, int n)
{
	int i, k = 0;

	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_str);
	for (i = 0; i < n; i++)
		if (!k || strcmp(v[k - 1], v[i]))
			v[k++] = v[i];
	return k;
}

int users_unread(const struct check *c)
{
	const struct scan_result *r = &c->pkgscan;
	const char **v;
	size_t i;
	int n;

	if (!c->pkgs_scanned || !r->nunreadable)
		return 0;
	v = xmalloc(r->nunreadable * sizeof(*v));
	for (i = 0; i < r->nunreadable; i++)
		v[i] = r->unreadable[i].file;
	n = distinct(v, (int)r->nunreadable);
	free(v);
	return n;
}

/* The hosts of the DB: those with uses and those with sessions. */
static int count_hosts(const struct check *c)
{
	const char **v = xmalloc((c->nhosts + c->nshosts + 1) * sizeof(*v));
	int i, n = 0;

	for (i = 0; i < c->nhosts; i++)
		v[n++] = c->hosts[i];
	for (i = 0; i < c->nshosts; i++)
		v[n++] = c->shosts[i].host;
	n = distinct(v, n);
	free(v);
	return n;
}

/* @t's UTC day, YYYY-MM-DD; its time too when not midnight (@whole). */
static const char *day(long long t, bool whole, char *buf, size_t size)
{
	char *T;

	iso_time(t, buf, size);
	T = strchr(buf, 'T');
	if (T && (!whole || !strcmp(T, "T00:00:00Z")))
		*T = '\0';
	return buf;
}

static const char *plural(long long n)
{
	return n == 1 ? "" : "s";
}

/* Where the evidence comes from, said once an entry (not a continuation line). */
static char *head(const struct check *c, bool db)
{
	char t[64], s[64], *dbs = NULL, *pkgs = NULL, *h;
	int n, unread = users_unread(c);

	if (db) {
		n = count_hosts(c);
		dbs = xasprintf("usage DB%s%s, %d host%s", c->has_since && c->since > 0 ?
				" since " : "", c->has_since && c->since > 0 ?
				day(c->since, true, s, sizeof(s)) : "", n, plural(n));
	}
	if (c->pkgs_scanned) {
		n = (int)c->pkgscan.npackages;
		pkgs = xasprintf("package scan of %d package file%s", n, plural(n));
		if (unread) {
			h = xasprintf("%s; %d package file%s could not be read", pkgs, unread,
				      plural(unread));
			free(pkgs);
			pkgs = h;
		}
	}
	h = xasprintf("Seen by abidep on %s (%s%s%s):", day(c->now, false, t, sizeof(t)),
		      dbs ? dbs : "", dbs && pkgs ? "; " : "", pkgs ? pkgs : "");
	free(dbs);
	free(pkgs);
	return h;
}

/* One line of the text, as a continuation line. */
static void __attribute__((format(printf, 2, 3))) line(FILE *m, const char *fmt, ...)
{
	va_list ap;

	fputs("\n\t\t", m);
	va_start(ap, fmt);
	vfprintf(m, fmt, ap);
	va_end(ap);
}

/* The executables that used @ce, each with its package, counts and last use. */
static void db_lines(FILE *m, const struct check_entry *ce)
{
	char t[64];
	int i;

	line(m, "Executables seen using it:");
	for (i = 0; i < ce->nuse_exes; i++) {
		const struct check_exe *x = &ce->use_exes[i];
		const char *pkg = x->uses[0].package;
		char *exe = text_clean(x->uses[0].exe), *p = pkg ? text_clean(pkg) : NULL;
		char hosts[32] = "";

		if (x->nhosts > 1)
			snprintf(hosts, sizeof(hosts), " on %d hosts", x->nhosts);
		line(m, "  %s%s%s%s, %llu use%s%s, last %s", exe, p ? " (package " : "",
		     p ? p : "", p ? ")" : "", x->sum.count, plural(x->sum.count), hosts,
		     day(x->sum.last_seen, false, t, sizeof(t)));
		free(exe);
		free(p);
	}
}

/* @ce's strong and medium references (of package files), sorted; their count. */
static int urefs_of(const struct check_entry *ce, struct uref **out)
{
	struct uref *v = xcalloc(ce->nrefs + 1, sizeof(*v));
	int i, n = 0;

	for (i = 0; i < ce->nrefs; i++) {
		const struct scan_hit *h = ce->refs[i].hit;
		const struct pkg_meta *pm = h->pkg;

		if (!ce->refs[i].blocks)
			continue;
		v[n].package = h->package ? h->package : "?";
		v[n].version = h->package_version;
		v[n].source = pm && pm->source ? pm->source : v[n].package;
		v[n].maintainer = pm ? pm->maintainer : NULL;
		v[n++].file = h->file;
	}
	*out = v;
	return n;
}

static int cmp_nullable(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

/* By source and maintainer, then package and version, then file. */
static int cmp_uref(const void *a, const void *b)
{
	const struct uref *x = a, *y = b;
	int r = strcmp(x->source, y->source);

	if (!r)
		r = cmp_nullable(x->maintainer, y->maintainer);
	if (!r)
		r = strcmp(x->package, y->package);
	if (!r)
		r = cmp_nullable(x->version, y->version);
	return r ? r : strcmp(x->file, y->file);
}

static bool same_source(const struct uref *x, const struct uref *y)
{
	return !strcmp(x->source, y->source) && !cmp_nullable(x->maintainer, y->maintainer);
}

static bool same_package(const struct uref *x, const struct uref *y)
{
	return same_source(x, y) && !strcmp(x->package, y->package) &&
	       !cmp_nullable(x->version, y->version);
}

/* A binary package of @r[0..n) (one package), and its distinct files; returns its end. */
static int package_line(FILE *m, const struct uref *r, int n)
{
	char **files = xmalloc(n * sizeof(*files)), *list, *pkg, *ver;
	int i, k, nf = 0;

	for (k = 0; k < n && same_package(&r[0], &r[k]); k++)
		if (!k || strcmp(r[k].file, r[k - 1].file))
			files[nf++] = text_clean(r[k].file);
	list = names_list(files, nf, USERS_FILES_SHOWN);
	pkg = text_clean(r[0].package);
	ver = r[0].version ? text_clean(r[0].version) : NULL;
	line(m, "  %s%s%s: %s", pkg, ver ? " " : "", ver ? ver : "", list);
	for (i = 0; i < nf; i++)
		free(files[i]);
	free(files);
	free(list);
	free(pkg);
	free(ver);
	return k;
}

/* Each source package of @r[0..n) with its maintainer, its binary packages under it. */
static void pkg_lines(FILE *m, struct uref *r, int n)
{
	int i = 0, j, k;

	if (n > 1)
		qsort(r, n, sizeof(*r), cmp_uref);
	while (i < n) {
		char *src = text_clean(r[i].source);
		char *mt = r[i].maintainer ? text_clean(r[i].maintainer) : NULL;

		line(m, "%s (%s):", src, mt ? mt : "no maintainer named");
		free(src);
		free(mt);
		for (j = i; j < n && same_source(&r[i], &r[j]); j++)
			;
		for (k = i; k < j; )
			k += package_line(m, &r[k], j - k);
		i = j;
	}
}

/* @ce's Users: text, or NULL without evidence. */
static char *entry_users(const struct check_entry *ce, const char *first, bool db)
{
	struct uref *r;
	int nr = urefs_of(ce, &r);
	const char *own = ce->e->field[ABI_USERS];
	char *buf = NULL, *text;
	size_t len = 0;
	FILE *m;

	if (!nr && !(db && ce->nuse_exes)) {
		free(r);
		return NULL;
	}
	m = open_memstream(&buf, &len);
	if (!m)
		die_oom();
	line(m, "%s", first);
	if (db && ce->nuse_exes)
		db_lines(m, ce);
	pkg_lines(m, r, nr);
	if (fclose(m))
		die_oom();
	free(r);
	/* The first line goes on the Users: line itself, unless the entry's own does. */
	text = own ? xasprintf("%s%s", own, buf) : xstrdup(buf + 3);
	free(buf);
	return text;
}

char **users_texts(const struct check *c, bool db)
{
	char **users = xcalloc(c->set->nentries + 1, sizeof(*users));
	char *h = head(c, db);
	int i;

	for (i = 0; i < c->set->nentries; i++)
		if (c->of_entry[i])
			users[i] = entry_users(c->of_entry[i], h, db);
	free(h);
	return users;
}

void users_free(char **users, int n)
{
	int i;

	for (i = 0; users && i < n; i++)
		free(users[i]);
	free(users);
}
