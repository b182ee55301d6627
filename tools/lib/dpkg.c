// SPDX-License-Identifier: GPL-2.0
/*
 * Which Debian package owns a file. dpkg keeps, for each installed package,
 * the list of its paths in ROOT/var/lib/dpkg/info/PKG.list (PKG:ARCH.list
 * for Multi-Arch: same packages). We read them all once, into a hash table
 * path -> package: about 1e5 paths in 1e3 files, a few tens of
 * milliseconds and a few MB. The file buffers are kept: the keys point
 * into them. The packages' versions come from ROOT/var/lib/dpkg/status,
 * read at the same time (about 1 MB for 1e3 packages).
 *
 * The database is the image's, read beneath its root (rootfs.h): a
 * symlink anywhere on the way (ROOT/var/lib/dpkg/info pointing at the
 * host's) is not followed, a list file that is not a regular file (a FIFO)
 * or larger than LIST_MAX is skipped.
 *
 * Not handled: dpkg-divert (a diverted file is reported under the package
 * that lists the original path) and files no package lists (/usr/local).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dpkg.h"
#include "rootfs.h"
#include "util.h"

struct slot {
	const char *path;	/* NULL: free */
	uint32_t hash;
	uint32_t pkg;		/* index in pkgs */
};

/* The largest list file read: Debian's largest are a few MB. */
#define LIST_MAX	(64ull << 20)
#define INFO_DIR	"var/lib/dpkg/info"
#define STATUS_FILE	"var/lib/dpkg/status"

struct dpkg {
	char *root;
	bool loaded;
	int load_errno;
	struct slot *slots;
	size_t cap, n;		/* cap: a power of two, at most 3/4 full */
	char **pkgs;		/* package names */
	int npkgs, pkgcap;
	char **bufs;		/* list file contents: the keys point here */
	int nbufs, bufcap;
	char *status;		/* the status file: versions point here */
	const char **versions;	/* of pkgs[i]; NULL: not in the status file */
};

struct dpkg *dpkg_new(const char *root)
{
	struct dpkg *d = xcalloc(1, sizeof(*d));

	d->root = xstrdup(root && *root ? root : "/");
	return d;
}

void dpkg_free(struct dpkg *d)
{
	int i;

	if (!d)
		return;
	for (i = 0; i < d->nbufs; i++)
		free(d->bufs[i]);
	free(d->bufs);
	for (i = 0; i < d->npkgs; i++)
		free(d->pkgs[i]);
	free(d->pkgs);
	free(d->versions);
	free(d->status);
	free(d->slots);
	free(d->root);
	free(d);
}

/* FNV-1a: short keys with long common prefixes hash well enough. */
static uint32_t hash_str(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 16777619u;
	}
	return h;
}

static struct slot *find_slot(struct slot *slots, size_t cap, const char *path,
			      uint32_t h)
{
	size_t i = h & (cap - 1);

	while (slots[i].path && (slots[i].hash != h || strcmp(slots[i].path, path)))
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

static void grow(struct dpkg *d)
{
	size_t cap = d->cap ? 2 * d->cap : 1 << 14, i;
	struct slot *slots = xcalloc(cap, sizeof(*slots));

	for (i = 0; i < d->cap; i++)
		if (d->slots[i].path)
			*find_slot(slots, cap, d->slots[i].path, d->slots[i].hash) =
				d->slots[i];
	free(d->slots);
	d->slots = slots;
	d->cap = cap;
}

/* The first package to list a path keeps it (directories are shared). */
static void add(struct dpkg *d, const char *path, uint32_t pkg)
{
	uint32_t h = hash_str(path);
	struct slot *sl;

	if (4 * (d->n + 1) > 3 * d->cap)
		grow(d);
	sl = find_slot(d->slots, d->cap, path, h);
	if (sl->path)
		return;
	sl->path = path;
	sl->pkg = pkg;
	sl->hash = h;
	d->n++;
}

/* Read one list file (relative to @dfd) whole, and add its lines. */
static void load_list(struct dpkg *d, int dfd, const char *name)
{
	size_t len = strlen(name) - strlen(".list"), n = 0;
	const char *colon = memchr(name, ':', len);
	char *buf, *p, *nl;
	struct stat st;
	uint32_t pkg;
	ssize_t r;
	int fd;

	fd = root_open_regular(dfd, name, LIST_MAX, &st);
	if (fd < 0)
		return;
	buf = xmalloc(st.st_size + 1);
	while (n < (size_t)st.st_size &&
	       (r = read(fd, buf + n, st.st_size - n)) > 0)
		n += r;
	close(fd);
	buf[n] = '\0';
	*GROW(d->bufs, d->nbufs, d->bufcap) = buf;
	pkg = d->npkgs;
	*GROW(d->pkgs, d->npkgs, d->pkgcap) =
		xstrndup(name, colon ? (size_t)(colon - name) : len);
	for (p = buf; *p; p = nl) {
		nl = strchrnul(p, '\n');
		if (*nl)
			*nl++ = '\0';
		if (*p == '/')
			add(d, p, pkg);
	}
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A package's version in the status file. */
struct pkgver {
	const char *name, *version;
	int order;		/* in the file: the first of a name wins */
};

static int pkgver_cmp(const void *a, const void *b)
{
	const struct pkgver *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : x->order - y->order;
}

/* The stanzas' Package and Version fields (cut in place in @buf). */
static struct pkgver *parse_status(char *buf, int *n)
{
	struct pkgver *v = NULL, cur = { 0 };
	int cap = 0;
	char *p, *nl;

	*n = 0;
	for (p = buf;; p = nl) {
		bool end = !*p;

		nl = end ? p : strchrnul(p, '\n');
		if (*nl)
			*nl++ = '\0';
		if (!*p) {		/* a blank line, or the end: the stanza's end */
			if (cur.name && cur.version) {
				cur.order = *n;
				*GROW(v, *n, cap) = cur;
			}
			cur.name = cur.version = NULL;
			if (end)
				return v;
		} else if (!strncmp(p, "Package: ", 9)) {
			cur.name = p + 9;
		} else if (!strncmp(p, "Version: ", 9)) {
			cur.version = p + 9;
		}
	}
}

/* The first of @name in @v (sorted), or NULL. */
static const struct pkgver *first_of(const struct pkgver *v, int n, const char *name)
{
	int lo = 0, hi = n;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (strcmp(v[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && !strcmp(v[lo].name, name) ? &v[lo] : NULL;
}

/* Each package's version, from the status file next to the info directory. */
static void load_versions(struct dpkg *d, int rootfd)
{
	const struct pkgver *hit;
	struct pkgver *v;
	struct stat st;
	size_t len;
	int n, i, fd;
	FILE *f;

	fd = root_open_regular(rootfd, STATUS_FILE, ROOT_MAX_SIZE_DEFAULT, &st);
	f = fd < 0 ? NULL : fdopen(fd, "r");
	if (fd >= 0 && !f)
		close(fd);
	d->versions = xcalloc(d->npkgs ? d->npkgs : 1, sizeof(*d->versions));
	if (!f)
		return;
	d->status = read_all(f, ROOT_MAX_SIZE_DEFAULT, &len);
	fclose(f);
	if (!d->status)
		return;
	v = parse_status(d->status, &n);
	if (n)
		qsort(v, n, sizeof(*v), pkgver_cmp);
	for (i = 0; i < d->npkgs; i++) {
		hit = first_of(v, n, d->pkgs[i]);
		if (hit)
			d->versions[i] = hit->version;
	}
	free(v);
}

/*
 * @root's info directory, opened beneath it (the one rule that says
 * whether @root has a dpkg database), and @root in *@rootfd; NULL with
 * errno, nothing left open.
 */
static DIR *open_info(const char *root, int *rootfd)
{
	DIR *dir = NULL;
	int fd, err;

	*rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (*rootfd < 0)
		return NULL;
	fd = root_openat(*rootfd, INFO_DIR, O_RDONLY | O_DIRECTORY);
	if (fd >= 0 && !(dir = fdopendir(fd)))
		err = errno, close(fd), errno = err;
	if (!dir)
		err = errno, close(*rootfd), errno = err;
	return dir;
}

bool dpkg_db_exists(const char *root)
{
	int rootfd;
	DIR *dir = open_info(root && *root ? root : "/", &rootfd);

	if (!dir)
		return false;
	closedir(dir);
	close(rootfd);
	return true;
}

int dpkg_load(struct dpkg *d)
{
	char **names = NULL;
	int n = 0, cap = 0, i, dfd, rootfd;
	struct dirent *de;
	DIR *dir;

	if (d->loaded)
		return d->load_errno ? (errno = d->load_errno, -1) : 0;
	d->loaded = true;
	dir = open_info(d->root, &rootfd);
	if (!dir) {
		d->load_errno = errno;
		return -1;
	}
	while ((de = readdir(dir))) {
		size_t l = strlen(de->d_name);

		if (l > 5 && !strcmp(de->d_name + l - 5, ".list"))
			*GROW(names, n, cap) = xstrdup(de->d_name);
	}
	/* In name order: which package keeps a shared path does not vary. */
	if (n)
		qsort(names, n, sizeof(*names), name_cmp);
	dfd = dirfd(dir);
	for (i = 0; i < n; i++) {
		load_list(d, dfd, names[i]);
		free(names[i]);
	}
	free(names);
	closedir(dir);
	load_versions(d, rootfd);
	close(rootfd);
	return 0;
}

size_t dpkg_npaths(const struct dpkg *d)
{
	return d->n;
}

/* The slot of @path, or NULL. */
static const struct slot *lookup(struct dpkg *d, const char *path)
{
	const struct slot *sl;

	if (!d->n)
		return NULL;
	sl = find_slot(d->slots, d->cap, path, hash_str(path));
	return sl->path ? sl : NULL;
}

const char *dpkg_owner(struct dpkg *d, const char *path, const char **version)
{
	const struct slot *sl;
	char *twin;

	if (version)
		*version = NULL;
	dpkg_load(d);
	if (!path || *path != '/')
		return NULL;
	sl = lookup(d, path);
	if (!sl) {
		twin = usr_twin(path);
		sl = twin ? lookup(d, twin) : NULL;
		free(twin);
	}
	if (!sl)
		return NULL;
	if (version)
		*version = d->versions[sl->pkg];
	return d->pkgs[sl->pkg];
}
