// SPDX-License-Identifier: GPL-2.0
/*
 * abidep trace: the watched set. The tables' What patterns resolved against
 * /sys into files, each in the files map (what it is) and the watched map
 * (its inode number), with the slots index kept in step; or, for a process
 * working on pinned maps, learnt back from those maps.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <bpf/bpf.h>

#include "pattern.h"
#include "trace.h"
#include "util.h"

static struct wfile *find_file(struct tracer *tr, const char *path)
{
	int i;

	for (i = 0; i < tr->nfiles; i++)
		if (!strcmp(tr->files[i].path, path))
			return &tr->files[i];
	return NULL;
}

struct resolve_arg {
	struct tracer *tr;
	const struct abi_entry *e;
	const char *what;
	int added;
	int found;		/* files of the What watched, new or not */
};

/* The inode number of @path's directory (sweeps: bpf/abidep.h), or 0. */
static __u64 dir_ino(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	struct stat st;

	if (!slash || slash == path || (size_t)(slash - path) >= sizeof(dir))
		return 0;
	memcpy(dir, path, slash - path);
	dir[slash - path] = '\0';
	return stat(dir, &st) ? 0 : st.st_ino;
}

static int watch_one(const char *path, void *arg)
{
	struct resolve_arg *ra = arg;
	struct tracer *tr = ra->tr;
	struct abidep_watch w;
	struct abidep_file f = { 0 };
	struct wfile *wf = find_file(tr, path);
	struct stat st;
	char *copy;

	if (stat(path, &st) || st.st_dev != tr->sysfs_dev || !S_ISREG(st.st_mode))
		return 0;
	ra->found++;
	if (wf && wf->ino == st.st_ino) {
		wf->present = true;
		wf->dir_ino = dir_ino(path);
		return 0;
	}
	if (!wf) {
		wf = GROW(tr->files, tr->nfiles, tr->cap);
		wf->path = xstrdup(path);
		wf->id = tr->next_id++;
	} else if (wf->ino) {
		/* The file was removed and made again (a device re-added). */
		bpf_map_delete_elem(tr->fd[M_WATCHED], &wf->ino);
	}
	wf->ino = st.st_ino;
	wf->dir_ino = dir_ino(path);
	wf->present = true;
	snprintf(f.path, sizeof(f.path), "%s", path);
	snprintf(f.what, sizeof(f.what), "%s", ra->what);
	copy = xstrdup(ra->e->file);
	snprintf(f.table, sizeof(f.table), "%s", strrchr(copy, '/') ? strrchr(copy, '/') + 1 : copy);
	free(copy);
	f.status = ra->e->status;
	f.watched = 1;
	w.file_id = wf->id;
	w.entry_id = ra->e - tr->tables.entries;
	slots_more(&tr->slots, wf->ino);
	if (bpf_map_update_elem(tr->fd[M_FILES], &wf->id, &f, BPF_ANY) ||
	    bpf_map_update_elem(tr->fd[M_WATCHED], &wf->ino, &w, BPF_ANY)) {
		fprintf(stderr, "abidep: cannot watch %s: %s\n", path, strerror(errno));
		ra->found--;
		return 0;
	}
	ra->added++;
	return 0;
}

/*
 * A sweep of a directory opens most of its regular files: 3 in 4. The
 * programs count each file as a bit, its rank (bpf/abidep.h); those of a
 * tracer pinned by an abidep from before ranks, as bits of a hashed
 * bitmap, of which that many files are expected to set fewer. A program
 * that lists it and opens a few by name stays by-name; so does one in a
 * directory with fewer than ABIDEP_SWEEP_FILES files.
 */
#define SWEEP_SHARE_NUM	3
#define SWEEP_SHARE_DEN	4

/* How many distinct bits a sweep of a directory of @nfiles files sets. */
__u32 sweep_need(unsigned int nfiles, bool ranked)
{
	double unset = 1, expected = nfiles;
	unsigned int i;
	__u32 need;

	if (!ranked) {
		/* Each file leaves a bit unset with probability 1 - 1/BITS. */
		for (i = 0; i < nfiles; i++)
			unset *= 1.0 - 1.0 / ABIDEP_SWEEP_BITS;
		expected = ABIDEP_SWEEP_BITS * (1 - unset);
	}
	need = (__u32)(expected * SWEEP_SHARE_NUM / SWEEP_SHARE_DEN + 0.999999);
	return need > ABIDEP_SWEEP_FILES ? need : ABIDEP_SWEEP_FILES;
}

/*
 * Names as glibc's locales built on ISO 14651 (en_US.UTF-8 and most
 * others) collate them, near enough for sysfs's names: letters and digits
 * alone first, case and punctuation aside ("address" before "addr_len");
 * ties bytewise (ABIDEP_ORDER_COLLATE).
 */
static int collate_cmp(const char *a, const char *b)
{
	const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;

	for (;;) {
		while (*x && !isalnum(*x))
			x++;
		while (*y && !isalnum(*y))
			y++;
		if (!*x || !*y || tolower(*x) != tolower(*y))
			break;
		x++;
		y++;
	}
	if (*x || *y)
		return !*x ? -1 : !*y ? 1 : tolower(*x) - tolower(*y);
	return strcmp(a, b);
}

/* The ranks of the regular files of the watched directories (bpf/abidep.h). */
struct ranked {
	__u64 ino;
	struct abidep_rank r;
};

struct rank_set {
	struct ranked *v;
	int n, cap;
};

/* A regular file of a directory being ranked. */
struct dent {
	char *name;
	__u64 ino;
	struct ranked *out;
};

static int cmp_dent_name(const void *a, const void *b)
{
	return strcmp((*(struct dent *const *)a)->name, (*(struct dent *const *)b)->name);
}

static int cmp_dent_collate(const void *a, const void *b)
{
	return collate_cmp((*(struct dent *const *)a)->name, (*(struct dent *const *)b)->name);
}

/* Ranks from 1, in u16 (a directory of more files: the last ones tie). */
static __u16 rank_of(int i)
{
	return i < 0xffff ? i + 1 : 0xffff;
}

/* The ranks in @order of the @n files of @d, sorted by @cmp. */
static void rank_sorted(struct dent *d, int n, int order,
			int (*cmp)(const void *, const void *))
{
	struct dent **p = xcalloc(n + 1, sizeof(*p));
	int i;

	for (i = 0; i < n; i++)
		p[i] = &d[i];
	qsort(p, n, sizeof(*p), cmp);
	for (i = 0; i < n; i++)
		p[i]->out->r.rank[order] = rank_of(i);
	free(p);
}

/*
 * The regular files (attributes) in @path's directory, 0 if unreadable;
 * with @rs, each file's ranks added to it: readdir order (kernfs's), then
 * sorted by name, bytewise and as locales collate.
 */
static unsigned int dir_files(const char *path, struct rank_set *rs)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	struct dent *d = NULL;
	int n = 0, cap = 0, i;
	struct dirent *e;
	DIR *dp;

	if (!slash || (size_t)(slash - path) >= sizeof(dir))
		return 0;
	memcpy(dir, path, slash - path);
	dir[slash - path] = '\0';
	dp = opendir(dir);
	while (dp && (e = readdir(dp)))
		if (e->d_type == DT_REG)
			*GROW(d, n, cap) = (struct dent){ .name = xstrdup(e->d_name), .ino = e->d_ino };
	if (dp)
		closedir(dp);
	for (i = 0; rs && i < n; i++)
		GROW(rs->v, rs->n, rs->cap)->ino = d[i].ino;
	/* Pointers once it has grown: it does not move again here. */
	for (i = 0; rs && i < n; i++) {
		d[i].out = &rs->v[rs->n - n + i];
		d[i].out->r.rank[ABIDEP_ORDER_READDIR] = rank_of(i);
	}
	if (rs && n) {
		rank_sorted(d, n, ABIDEP_ORDER_NAME, cmp_dent_name);
		rank_sorted(d, n, ABIDEP_ORDER_COLLATE, cmp_dent_collate);
	}
	for (i = 0; i < n; i++)
		free(d[i].name);
	free(d);
	return n;
}

struct dir_need {
	__u64 ino;
	__u32 need;
	int file;		/* a file in it, tr->files index */
};

static int cmp_dir(const void *a, const void *b)
{
	__u64 x = ((const struct dir_need *)a)->ino, y = ((const struct dir_need *)b)->ino;

	return x < y ? -1 : x > y;
}

static int cmp_ranked(const void *a, const void *b)
{
	__u64 x = ((const struct ranked *)a)->ino, y = ((const struct ranked *)b)->ino;

	return x < y ? -1 : x > y;
}

/*
 * The ranks map: the regular files of the dirs map's directories, no
 * others, each with its ranks. A tracer pinned by an abidep from before
 * ranks has none.
 */
static void ranks_sync(struct tracer *tr, struct rank_set *rs)
{
	__u64 key, next, *prev = NULL, *gone = NULL;
	int i, ngone = 0, cap = 0;
	struct ranked k;

	qsort(rs->v, rs->n, sizeof(*rs->v), cmp_ranked);
	/* The files gone, deleted once the walk is over: it does not restart. */
	while (!bpf_map_get_next_key(tr->fd[M_RANKS], prev, &next)) {
		key = next;
		prev = &key;
		k.ino = key;
		if (!bsearch(&k, rs->v, rs->n, sizeof(*rs->v), cmp_ranked))
			*GROW(gone, ngone, cap) = key;
	}
	for (i = 0; i < ngone; i++)
		bpf_map_delete_elem(tr->fd[M_RANKS], &gone[i]);
	free(gone);
	for (i = 0; i < rs->n; i++)
		if (bpf_map_update_elem(tr->fd[M_RANKS], &rs->v[i].ino, &rs->v[i].r, BPF_ANY)) {
			fprintf(stderr, "abidep: cannot rank the files of the watched directories: %s\n",
				strerror(errno));
			break;
		}
}

/*
 * The dirs map: the directories of the present files, no others, each
 * with what its sweeps need (sweep_need()); and the ranks of their files.
 * A tracer pinned by an abidep from before sweeps has no dirs map.
 */
static void dirs_sync(struct tracer *tr)
{
	struct dir_need *want = xcalloc(tr->nfiles + 1, sizeof(*want)), k;
	struct rank_set rs = { 0 }, *ranks = tr->fd[M_RANKS] >= 0 ? &rs : NULL;
	__u64 key, next, *prev = NULL;
	int i, n = 0, m = 0;

	if (tr->fd[M_DIRS] < 0)
		goto out;
	for (i = 0; i < tr->nfiles; i++)
		if (tr->files[i].present && tr->files[i].dir_ino)
			want[n++] = (struct dir_need){ .ino = tr->files[i].dir_ino, .file = i };
	qsort(want, n, sizeof(*want), cmp_dir);
	/* One entry per directory, its files counted (and ranked) once. */
	for (i = 0; i < n; i++) {
		if (m && want[m - 1].ino == want[i].ino)
			continue;
		want[m] = want[i];
		want[m].need = sweep_need(dir_files(tr->files[want[i].file].path, ranks), ranks);
		m++;
	}
	n = m;
	while (!bpf_map_get_next_key(tr->fd[M_DIRS], prev, &next)) {
		key = next;
		k.ino = key;
		if (!bsearch(&k, want, n, sizeof(*want), cmp_dir)) {
			/* Deleted: the walk goes on from the start. */
			bpf_map_delete_elem(tr->fd[M_DIRS], &key);
			prev = NULL;
			continue;
		}
		prev = &key;
	}
	for (i = 0; i < n; i++)
		if (bpf_map_update_elem(tr->fd[M_DIRS], &want[i].ino, &want[i].need, BPF_ANY))
			fprintf(stderr, "abidep: cannot note a watched directory: %s\n",
				strerror(errno));
	if (ranks)
		ranks_sync(tr, ranks);
out:
	free(rs.v);
	free(want);
}

/*
 * A special (trace_special.c) is watched when it has a file id: chosen at
 * load (the kernel has its function), or found in the pinned files map.
 */
static int special_watched(const struct tracer *tr, const char *what)
{
	int i;

	for (i = 0; i < tr->nfiles; i++)
		if (!strcmp(tr->files[i].path, what))
			return 1;
	return 0;
}

/* A deprecation's What, and the files watched for it (tr->watch). */
static void note_watch(struct tracer *tr, const struct abi_entry *e, const char *what,
		       int files)
{
	struct store_watch *w;

	if (e->status == ABI_ST_NONE)
		return;
	w = GROW(tr->watch, tr->nwatch, tr->wcap);
	w->what = what;
	w->files = files;
}

/* Resolve the tables against /sys; watch what appeared, unwatch what went. */
int watch_refresh(struct tracer *tr, bool verbose)
{
	int i, k, m, added = 0, gone = 0, watched = 0;

	for (i = 0; i < tr->nfiles; i++)
		tr->files[i].present = false;
	tr->nwatch = 0;
	for (i = 0; i < tr->tables.nentries; i++) {
		const struct abi_entry *e = &tr->tables.entries[i];

		for (k = 0; k < e->nwhat; k++) {
			struct resolve_arg ra = { tr, e, e->what[k], 0, 0 };
			struct abi_glob *g;
			int n;

			/* Not in sysfs (not watched: 0 files), or a special. */
			if (special_of(e->what[k]) >= 0)
				ra.found = special_watched(tr, e->what[k]);
			if (!what_in_sysfs(e->what[k])) {
				note_watch(tr, e, e->what[k], ra.found);
				continue;
			}
			n = abi_pattern_globs(e->what[k], &g);
			for (m = 0; m < n; m++)
				abi_glob_resolve(&g[m], "/sys", watch_one, &ra);
			abi_globs_free(g, n);
			added += ra.added;
			note_watch(tr, e, e->what[k], ra.found);
		}
	}
	tr->watch_known = true;
	for (i = 0; i < tr->nfiles; i++) {
		struct wfile *wf = &tr->files[i];
		struct abidep_file f;

		if (wf->present) {
			watched++;
			continue;
		}
		if (!wf->ino)
			continue;
		bpf_map_delete_elem(tr->fd[M_WATCHED], &wf->ino);
		if (!bpf_map_lookup_elem(tr->fd[M_FILES], &wf->id, &f)) {
			f.watched = 0;
			bpf_map_update_elem(tr->fd[M_FILES], &wf->id, &f, BPF_ANY);
		}
		wf->ino = 0;
		gone++;
	}
	slots_sync(&tr->slots, tr->files, tr->nfiles);
	dirs_sync(tr);
	if (verbose && (added || gone))
		fprintf(stderr, "abidep: watching %d files (%d new, %d gone)\n",
			watched, added, gone);
	return watched;
}

/*
 * A process working on pinned maps learns the files from the files map, and
 * their inode numbers from the watched map: a file's path may name a new
 * inode by now (removed and made again), which is not watched yet.
 */
void files_from_map(struct tracer *tr)
{
	__u32 key, next, *prev = NULL;
	__u64 ino, nino, *iprev = NULL;
	struct abidep_watch w;
	struct abidep_file f;
	struct wfile **by_id;
	int i;

	while (!bpf_map_get_next_key(tr->fd[M_FILES], prev, &next)) {
		key = next;
		prev = &key;
		/* An id abidep never writes (the map is root's, but pinned). */
		if (key > INT_MAX || bpf_map_lookup_elem(tr->fd[M_FILES], &key, &f))
			continue;
		struct wfile *wf = GROW(tr->files, tr->nfiles, tr->cap);

		f.path[sizeof(f.path) - 1] = '\0';
		wf->path = xstrdup(f.path);
		wf->id = key;
		wf->ino = 0;
		wf->present = false;
		if (key >= tr->next_id)
			tr->next_id = key + 1;
	}
	/* File ids are below next_id: index the files by id. */
	by_id = xcalloc(tr->next_id + 1, sizeof(*by_id));
	for (i = 0; i < tr->nfiles; i++)
		by_id[tr->files[i].id] = &tr->files[i];
	while (!bpf_map_get_next_key(tr->fd[M_WATCHED], iprev, &nino)) {
		ino = nino;
		iprev = &ino;
		if (bpf_map_lookup_elem(tr->fd[M_WATCHED], &ino, &w) ||
		    w.file_id >= tr->next_id || !by_id[w.file_id])
			continue;
		by_id[w.file_id]->ino = ino;
	}
	free(by_id);
}
