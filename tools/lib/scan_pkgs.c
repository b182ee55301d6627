// SPDX-License-Identifier: GPL-2.0
/*
 * scan_packages(): find references to deprecated sysfs attributes in
 * package files, a mirror's pool or a build's output. The files are found
 * (directories walked without following symlinks), those the cache knows
 * unchanged are taken from it, and the rest read by a pool of threads, one
 * package at a time each (scan_pkg.c); their hits are named by package at
 * the end, and stored in the cache.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libelf.h>
#include <sys/stat.h>

#include "dl_archive.h"
#include "dl_rpm.h"
#include "scan.h"
#include "scan_cache.h"
#include "scan_int.h"
#include "scan_pkg.h"
#include "util.h"

/* The package files to read. */
struct pset {
	struct pkg_job *jobs;
	size_t n, cap;
	struct scan_result *res;	/* directories that cannot be read */
	struct scan_arena *strs;
};

static void add_job(struct pset *s, const char *path, const struct stat *st, bool found)
{
	struct pkg_job *j;
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->jobs[i].path, path))
			return;		/* given twice: read once */
	j = GROW(s->jobs, s->n, s->cap);
	memset(j, 0, sizeof(*j));
	j->path = scan_arena_strdup(s->strs, path);
	j->index = s->n - 1;
	j->st = *st;
	j->found = found;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The package files under @dir, in name order, none through a symlink. */
static void walk_dir(struct pset *s, const char *dir)
{
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	struct dirent *de;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;

	if (!d) {
		scan_add_unreadable(s->res, scan_arena_strdup(s->strs, dir), errno, NULL);
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			*GROW(names, n, cap) = xstrdup(de->d_name);
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), name_cmp);
	for (i = 0; i < n; i++) {
		char *p = path_join(dir, names[i]);
		struct stat st;

		if (!lstat(p, &st)) {
			if (S_ISDIR(st.st_mode))
				walk_dir(s, p);
			else if (S_ISREG(st.st_mode) && pkg_file_name(names[i]))
				add_job(s, p, &st, true);
		}
		free(p);
		free(names[i]);
	}
	free(names);
}

/* Each of @paths: a package file, or a directory of them; -1 with @err. */
static int find_packages(struct pset *s, char *const *paths, int npaths,
			 char *err, size_t errlen)
{
	int i;

	for (i = 0; i < npaths; i++) {
		struct stat st;

		if (stat(paths[i], &st)) {
			snprintf(err, errlen, "cannot read '%s': %s", paths[i], strerror(errno));
			return -1;
		}
		if (S_ISDIR(st.st_mode)) {
			walk_dir(s, paths[i]);
		} else if (S_ISREG(st.st_mode) && pkg_file_name(paths[i])) {
			add_job(s, paths[i], &st, false);
		} else {
			snprintf(err, errlen, "'%s' is not a package file (.deb, .udeb, .rpm) or a directory",
				 paths[i]);
			return -1;
		}
	}
	return 0;
}

/* ---- reading them ---- */

struct shared {
	struct pkg_job *jobs;
	size_t *todo;			/* the jobs not in the cache */
	size_t ntodo, next;
	pthread_mutex_t lock;
};

struct worker {
	pthread_t tid;
	struct shared *sh;
	struct scan_reader rd;
	struct pkg_members names;
};

static void *worker_main(void *arg)
{
	struct worker *wk = arg;
	struct shared *sh = wk->sh;

	for (;;) {
		size_t i;

		pthread_mutex_lock(&sh->lock);
		i = sh->next++;
		pthread_mutex_unlock(&sh->lock);
		if (i >= sh->ntodo)
			break;
		pkg_read(&sh->jobs[sh->todo[i]], &wk->rd, &wk->names);
	}
	return NULL;
}

/* Read the jobs @sh->todo with @n threads; the workers (*@n: how many ran). */
static struct worker *run_workers(struct shared *sh, const struct scan_needles *ns,
				  const struct scan_opts *opts, int *n)
{
	struct worker *wks = xcalloc(*n, sizeof(*wks));
	int t, started;

	pthread_mutex_init(&sh->lock, NULL);
	elf_version(EV_CURRENT);
	for (t = 0; t < *n; t++) {
		wks[t].sh = sh;
		scan_reader_init(&wks[t].rd, ns, opts);
		if (pthread_create(&wks[t].tid, NULL, worker_main, &wks[t]))
			break;
	}
	started = t;
	if (!started) {
		worker_main(&wks[0]);
		started = 1;
	}
	for (t = 0; t < started && wks[t].tid; t++)
		pthread_join(wks[t].tid, NULL);
	pthread_mutex_destroy(&sh->lock);
	*n = started;
	return wks;
}

/* A worker's hits and unreadable members into @res, named by package. */
static void merge_worker(struct scan_result *res, struct scan_priv *priv, struct worker *wk)
{
	struct scan_reader *rd = &wk->rd;
	size_t i, k;

	res->files += rd->files;
	res->bytes += rd->bytes;
	res->weak_hidden += rd->weak_hidden;
	for (i = 0; i < wk->names.n; i++) {
		const struct pkg_member *m = &wk->names.v[i];
		const struct scan_package *p = &res->packages[m->pkg];

		for (k = m->hstart; k < m->hend; k++)
			scan_add_hit(res, &rd->hits[k], m->file, p->meta.name, p->meta.version,
				     &p->meta, p->file);
	}
	for (k = 0; k < rd->nunread; k++)
		scan_add_unreadable(res, res->packages[wk->names.v[rd->unread[k].file].pkg].file,
				    rd->unread[k].err, rd->unread[k].why);
	scan_arena_take(&priv->strs, &rd->strs);
	scan_reader_release(rd);
	free(wk->names.v);
}

/* The jobs read into @res->packages: what each said of itself, or why not. */
static void take_jobs(struct scan_result *res, struct scan_priv *priv, const struct pset *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct pkg_job *j = &s->jobs[i];
		struct scan_package *p = &res->packages[i];

		if (p->cached)
			continue;
		if (j->why[0]) {
			p->unreadable = true;
			scan_add_unreadable(res, p->file, j->err,
					    scan_arena_strdup(&priv->strs, j->why));
			continue;
		}
		p->meta = j->meta;
		memcpy(p->sha256, j->sha256, sizeof(p->sha256));
		p->members = j->members;
		p->unpacked = j->unpacked;
	}
}

static const char *hit_archive(const struct scan_result *res, size_t i)
{
	return res->hits[i].archive;
}

static const char *unread_file(const struct scan_result *res, size_t i)
{
	return res->unreadable[i].file;
}

/*
 * The run of @n items, sorted by @key, whose key is @file: its first in
 * *@first, its length returned.
 */
static size_t run_of(const struct scan_result *res, size_t n, const char *file,
		     const char *(*key)(const struct scan_result *, size_t), size_t *first)
{
	size_t lo = 0, hi = n, k;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(key(res, mid), file) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (k = lo; k < n && !strcmp(key(res, k), file); k++)
		;
	*first = lo;
	return k - lo;
}

/* The packages read (not from the cache, not unreadable) into @c. */
static void store_all(struct scan_cache *c, const struct scan_result *res,
		      const struct pset *s, const struct abi_set *tables)
{
	size_t i, h, u, nh, nu;

	for (i = 0; i < res->npackages; i++) {
		const struct scan_package *p = &res->packages[i];

		if (p->cached || p->unreadable)
			continue;
		nh = run_of(res, res->nhits, p->file, hit_archive, &h);
		nu = run_of(res, res->nunreadable, p->file, unread_file, &u);
		scan_cache_store(c, p->file, &s->jobs[i].st, p, res->hits + h, nh,
				 res->unreadable + u, nu, tables);
	}
}

/*
 * The cache of @opts, opened for @tables (their needles @ns); NULL: none,
 * or -1 with @err.
 */
static int open_cache(const struct abi_set *tables, const struct scan_needles *ns,
		      const struct scan_opts *opts, struct scan_cache **c,
		      char *err, size_t errlen)
{
	char key[65];

	*c = NULL;
	if (!opts->cache_dir)
		return 0;
	if (scan_cache_key(tables, opts, key, err, errlen))
		return -1;
	*c = scan_cache_open(opts->cache_dir, key, ns, opts, err, errlen);
	return *c ? 0 : -1;
}

/* Read the packages the cache has not, with threads; their findings into @res. */
static void read_packages(struct pset *s, size_t *todo, size_t ntodo,
			  const struct scan_needles *ns, const struct scan_opts *opts,
			  struct scan_result *res, struct scan_priv *priv)
{
	struct shared sh = { .jobs = s->jobs, .todo = todo, .ntodo = ntodo };
	struct worker *wks;
	int n = scan_thread_count(opts), t;

	if ((size_t)n > ntodo)
		n = ntodo ? ntodo : 1;
	wks = run_workers(&sh, ns, opts, &n);
	/* The packages' names first: the hits are named by them. */
	take_jobs(res, priv, s);
	for (t = 0; t < n; t++)
		merge_worker(res, priv, &wks[t]);
	free(wks);
}

/*
 * libarchive for the packages, librpm for .rpm headers (dynlib.h), loaded
 * before the threads start: 0, or -1 with why and what to do in @err.
 */
static int load_libraries(const struct pset *s, char *err, size_t errlen)
{
	size_t i;

	if (!s->n)
		return 0;
	if (dynlib_load(&dl_archive)) {
		dynlib_error(&dl_archive, "reading package files", err, errlen);
		return -1;
	}
	for (i = 0; i < s->n; i++) {
		size_t n = strlen(s->jobs[i].path);

		if (n > 4 && !strcmp(s->jobs[i].path + n - 4, ".rpm") && dynlib_load(&dl_rpm)) {
			dynlib_error(&dl_rpm, "reading .rpm files", err, errlen);
			return -1;
		}
	}
	return 0;
}

int scan_packages(char *const *paths, int npaths, const struct abi_set *tables,
		  const struct scan_opts *opts, struct scan_result *res,
		  char *err, size_t errlen)
{
	static const struct scan_opts defaults;
	struct scan_priv *priv;
	struct scan_needles ns;
	struct scan_cache *cache;
	struct pset s = { 0 };
	size_t *todo, ntodo = 0, i;

	if (!opts)
		opts = &defaults;
	memset(res, 0, sizeof(*res));
	priv = xcalloc(1, sizeof(*priv));
	res->priv = priv;
	res->prefix = "";
	s.res = res;
	s.strs = &priv->strs;
	if (find_packages(&s, paths, npaths, err, errlen) || load_libraries(&s, err, errlen)) {
		free(s.jobs);
		scan_result_free(res);
		return -1;
	}
	/* Before the cache: its rows are checked against them. */
	scan_needles_build(&ns, tables);
	if (open_cache(tables, &ns, opts, &cache, err, errlen)) {
		scan_needles_free(&ns);
		free(s.jobs);
		scan_result_free(res);
		return -1;
	}
	res->packages = xcalloc(s.n ? s.n : 1, sizeof(*res->packages));
	res->npackages = s.n;
	todo = xcalloc(s.n ? s.n : 1, sizeof(*todo));
	for (i = 0; i < s.n; i++) {
		res->packages[i].file = s.jobs[i].path;
		if (cache && scan_cache_load(cache, s.jobs[i].path, &s.jobs[i].st, tables,
					     &res->packages[i], res, &priv->strs))
			res->ncached++;
		else
			todo[ntodo++] = i;
	}
	res->npatterns = ns.n;
	read_packages(&s, todo, ntodo, &ns, opts, res, priv);
	scan_result_sort(res);
	if (cache) {
		store_all(cache, res, &s, tables);
		if (scan_cache_close(cache, err, errlen))
			res->warning = scan_arena_strdup(&priv->strs, err);
	}
	scan_needles_free(&ns);
	free(todo);
	free(s.jobs);
	return 0;
}

bool scan_is_package_file(const char *name)
{
	return pkg_file_name(name);
}
