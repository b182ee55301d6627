// SPDX-License-Identifier: GPL-2.0
/*
 * abidep trace: the watched set. The tables' What patterns resolved against
 * /sys into files, each in the files map (what it is) and the watched map
 * (its inode number), with the slots index kept in step; or, for a process
 * working on pinned maps, learnt back from those maps.
 */
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
 * A sweep of a directory opens most of its regular files: 3 in 4 (the
 * programs count them as bits of a hashed bitmap, bpf/abidep.h, so of
 * the bits that many files are expected to set). A program that lists it
 * and opens a few by name stays by-name; so does one in a directory with
 * fewer than ABIDEP_SWEEP_FILES files.
 */
#define SWEEP_SHARE_NUM	3
#define SWEEP_SHARE_DEN	4

/* How many distinct bits a sweep of a directory of @nfiles files sets. */
__u32 sweep_need(unsigned int nfiles)
{
	double unset = 1, expected;
	unsigned int i;
	__u32 need;

	/* Each file leaves a bit unset with probability 1 - 1/BITS. */
	for (i = 0; i < nfiles; i++)
		unset *= 1.0 - 1.0 / ABIDEP_SWEEP_BITS;
	expected = ABIDEP_SWEEP_BITS * (1 - unset);
	need = (__u32)(expected * SWEEP_SHARE_NUM / SWEEP_SHARE_DEN + 0.999999);
	return need > ABIDEP_SWEEP_FILES ? need : ABIDEP_SWEEP_FILES;
}

/* The regular files (attributes) in @path's directory; 0 if unreadable. */
static unsigned int dir_files(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	unsigned int n = 0;
	struct dirent *d;
	DIR *dp;

	if (!slash || (size_t)(slash - path) >= sizeof(dir))
		return 0;
	memcpy(dir, path, slash - path);
	dir[slash - path] = '\0';
	dp = opendir(dir);
	while (dp && (d = readdir(dp)))
		n += d->d_type == DT_REG;
	if (dp)
		closedir(dp);
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

/*
 * The dirs map: the directories of the present files, no others, each
 * with what its sweeps need (sweep_need()). A tracer pinned by an abidep
 * from before sweeps has none.
 */
static void dirs_sync(struct tracer *tr)
{
	struct dir_need *want = xcalloc(tr->nfiles + 1, sizeof(*want)), k;
	__u64 key, next, *prev = NULL;
	int i, n = 0, m = 0;

	if (tr->fd[M_DIRS] < 0)
		goto out;
	for (i = 0; i < tr->nfiles; i++)
		if (tr->files[i].present && tr->files[i].dir_ino)
			want[n++] = (struct dir_need){ .ino = tr->files[i].dir_ino, .file = i };
	qsort(want, n, sizeof(*want), cmp_dir);
	/* One entry per directory, its files counted once. */
	for (i = 0; i < n; i++) {
		if (m && want[m - 1].ino == want[i].ino)
			continue;
		want[m] = want[i];
		want[m].need = sweep_need(dir_files(tr->files[want[i].file].path));
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
out:
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
