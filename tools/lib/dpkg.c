// SPDX-License-Identifier: GPL-2.0
/*
 * Which Debian package owns a file. dpkg keeps, for each installed package,
 * the list of its paths in ROOT/var/lib/dpkg/info/PKG.list (PKG:ARCH.list
 * for Multi-Arch: same packages). We read them all once, into a hash table
 * path -> package: about 1e5 paths in 1e3 files, a few tens of
 * milliseconds and a few MB. The file buffers are kept: the keys point
 * into them. What the packages say of themselves (version, architecture,
 * source, maintainer) comes from ROOT/var/lib/dpkg/status, read at the
 * same time (about 1 MB for 1e3 packages) by pkgmeta.c's deb822 reader.
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
#include "pkgmeta.h"
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
	char *status;		/* the status file: metas' fields point here */
	struct pkg_meta *metas;	/* of pkgs[i]: name only when not in the status file */
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
	free(d->metas);
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

/* A package's stanza in the status file. */
struct stanza {
	struct pkg_meta meta;
	int order;		/* in the file: the first of a name wins */
};

static int stanza_cmp(const void *a, const void *b)
{
	const struct stanza *x = a, *y = b;
	int c = strcmp(x->meta.name, y->meta.name);

	return c ? c : x->order - y->order;
}

/*
 * The stanzas of the status file @buf (cut in place) that have a Package
 * and a Version; *@n of them.
 */
static struct stanza *parse_status(char *buf, int *n)
{
	struct stanza *v = NULL, cur;
	int cap = 0;
	char *p = buf, *next;

	*n = 0;
	while (*p) {
		next = pkg_meta_deb822(p, &cur.meta);
		if (cur.meta.name && cur.meta.version) {
			cur.order = *n;
			*GROW(v, *n, cap) = cur;
		}
		if (next == p)		/* cannot be: each call reads a line at least */
			break;
		p = next;
	}
	return v;
}

/* The first of @name in @v (sorted), or NULL. */
static const struct stanza *first_of(const struct stanza *v, int n, const char *name)
{
	int lo = 0, hi = n;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (strcmp(v[mid].meta.name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && !strcmp(v[lo].meta.name, name) ? &v[lo] : NULL;
}

/*
 * What each package says of itself, from the status file next to the info
 * directory; its name alone when the file does not have it.
 */
static void load_metas(struct dpkg *d, int rootfd)
{
	const struct stanza *hit;
	struct stanza *v;
	struct stat st;
	size_t len;
	int n, i, fd;
	FILE *f;

	d->metas = xcalloc(d->npkgs ? d->npkgs : 1, sizeof(*d->metas));
	for (i = 0; i < d->npkgs; i++)
		d->metas[i].name = d->pkgs[i];
	fd = root_open_regular(rootfd, STATUS_FILE, ROOT_MAX_SIZE_DEFAULT, &st);
	f = fd < 0 ? NULL : fdopen(fd, "r");
	if (fd >= 0 && !f)
		close(fd);
	if (!f)
		return;
	d->status = read_all(f, ROOT_MAX_SIZE_DEFAULT, &len);
	fclose(f);
	if (!d->status)
		return;
	v = parse_status(d->status, &n);
	if (n)
		qsort(v, n, sizeof(*v), stanza_cmp);
	for (i = 0; i < d->npkgs; i++) {
		hit = first_of(v, n, d->pkgs[i]);
		if (hit) {
			d->metas[i] = hit->meta;
			d->metas[i].name = d->pkgs[i];
		}
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
	load_metas(d, rootfd);
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

const struct pkg_meta *dpkg_lookup(struct dpkg *d, const char *path)
{
	const struct slot *sl;
	char *twin;

	dpkg_load(d);
	if (!path || *path != '/')
		return NULL;
	sl = lookup(d, path);
	if (!sl) {
		twin = usr_twin(path);
		sl = twin ? lookup(d, twin) : NULL;
		free(twin);
	}
	return sl ? &d->metas[sl->pkg] : NULL;
}

const char *dpkg_owner(struct dpkg *d, const char *path, const char **version)
{
	const struct pkg_meta *m = dpkg_lookup(d, path);

	if (version)
		*version = m ? m->version : NULL;
	return m ? m->name : NULL;
}
