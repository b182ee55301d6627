// SPDX-License-Identifier: GPL-2.0
/*
 * abidep trace: cgroup v2 ids (the cgroup directories' inode numbers, as the
 * programs record them) to paths under /sys/fs/cgroup, cached.
 */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "trace.h"
#include "util.h"

#define CGROUP_ROOT "/sys/fs/cgroup"

struct cg_entry {
	__u64 ino;
	char *path;		/* "/" for the root */
};

/*
 * Ids a rescan did not find: cgroups deleted since (a container that used a
 * file and went). Each is looked for again only after CG_MISS_SECONDS, and
 * misses within CG_RESCAN_SECONDS of a rescan share it, so that a DB full of
 * gone containers does not cost a walk of /sys/fs/cgroup per row and sync.
 */
#define CG_MISS_SECONDS		10
#define CG_RESCAN_SECONDS	1
#define CG_MS			1000	/* the times below are milliseconds */

struct cg_miss {
	__u64 ino;
	long long when;
};

void cg_cache_init(struct cg_cache *cg)
{
	memset(cg, 0, sizeof(*cg));
	cg->scanned = -1;
}

void cg_cache_free(struct cg_cache *cg)
{
	int i;

	for (i = 0; i < cg->n; i++)
		free(cg->ent[i].path);
	free(cg->ent);
	free(cg->miss);
	cg_cache_init(cg);
}

/*
 * CLOCK_MONOTONIC in milliseconds: in whole seconds, two misses a moment
 * apart across a second's turn would each cost a rescan.
 */
static long long mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static const char *cg_cached(const struct cg_cache *cg, __u64 id)
{
	int i;

	for (i = 0; i < cg->n; i++)
		if (cg->ent[i].ino == id)
			return cg->ent[i].path;
	return NULL;
}

/*
 * Add the directory @fd (@rel under CGROUP_ROOT, "" for the root) and the
 * cgroups below it; takes @fd. Symbolic links are not followed.
 */
static void cg_walk(struct cg_cache *cg, int fd, char *rel, size_t size)
{
	size_t len = strlen(rel);
	struct dirent *d;
	struct stat st;
	DIR *dir;

	if (fstat(fd, &st)) {
		close(fd);
		return;
	}
	if (!cg_cached(cg, st.st_ino)) {
		struct cg_entry *c = GROW(cg->ent, cg->n, cg->cap);

		c->ino = st.st_ino;
		c->path = xstrdup(len ? rel : "/");
	}
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return;
	}
	while ((d = readdir(dir))) {
		int sub;

		if (d->d_type != DT_DIR || !strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		if ((size_t)snprintf(rel + len, size - len, "/%s", d->d_name) >= size - len)
			continue;
		sub = openat(dirfd(dir), d->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub >= 0)
			cg_walk(cg, sub, rel, size);
	}
	rel[len] = '\0';
	closedir(dir);
}

static void cg_rescan(struct cg_cache *cg)
{
	char rel[PATH_MAX] = "";
	int fd = open(CGROUP_ROOT, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0)
		cg_walk(cg, fd, rel, sizeof(rel));
}

/*
 * The paths returned stay valid for the cache's life: a rescan only adds
 * cgroups (sync_db() holds on to paths while later rows cause rescans). NULL
 * for a cgroup gone before it was named.
 */
const char *cgroup_path(struct cg_cache *cg, __u64 id)
{
	const char *path = cg_cached(cg, id);
	struct cg_miss *m = NULL;
	long long now;
	int i;

	if (path)
		return path;
	now = mono_ms();
	for (i = 0; i < cg->nmiss && !m; i++)
		if (cg->miss[i].ino == id)
			m = &cg->miss[i];
	if (m && now - m->when < CG_MISS_SECONDS * CG_MS)
		return NULL;
	if (cg->scanned < 0 || now - cg->scanned >= CG_RESCAN_SECONDS * CG_MS) {
		cg_rescan(cg);
		cg->scanned = now;
		path = cg_cached(cg, id);
		if (path)
			return path;
	}
	if (!m) {
		m = GROW(cg->miss, cg->nmiss, cg->mcap);
		m->ino = id;
	}
	m->when = now;
	return NULL;
}
