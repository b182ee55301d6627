// SPDX-License-Identifier: GPL-2.0
/*
 * scan_tree(): find references to deprecated sysfs attributes in the files
 * of a tree. One thread walks the tree while the others read the files it
 * finds (scan_search.c); their hits are named, with the files' owning
 * packages, at the end.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include <libelf.h>

#include "owner.h"
#include "pattern.h"
#include "rootfs.h"
#include "scan.h"
#include "scan_int.h"
#include "util.h"

/* ---- the walk ---- */

struct file_ent {
	char *rel;		/* relative to ROOT, in the walk arena */
};

struct walk {
	int rootfd;
	struct file_ent *files;
	size_t nfiles, fcap;
	struct scan_arena *strs;
	struct scan_result *res;
	struct scan_arena *res_strs;
	const char *prefix;	/* ROOT as seen from the system root, "" for it */
	/* Files go to the threads as directories are read. */
	pthread_mutex_t *lock;
	pthread_cond_t *more;
	bool done;
	char **dir_files;	/* the files of the directory being read */
	size_t ndir, dcap;
};

static void add_unreadable(struct walk *w, const char *rel, int err)
{
	char *s = xasprintf("%s/%s", w->prefix, rel);

	scan_add_unreadable(w->res, scan_arena_strdup(w->res_strs, s), err, NULL);
	free(s);
}

/* Filesystems with no files of programs in them, only the kernel's. */
static bool pseudo_fs(int fd)
{
	struct statfs sf;

	if (fstatfs(fd, &sf))
		return false;
	switch ((unsigned long)sf.f_type) {
	case PROC_SUPER_MAGIC: case SYSFS_MAGIC: case DEVPTS_SUPER_MAGIC:
	case CGROUP_SUPER_MAGIC: case CGROUP2_SUPER_MAGIC: case DEBUGFS_MAGIC:
	case TRACEFS_MAGIC: case SECURITYFS_MAGIC: case BPF_FS_MAGIC:
	case PSTOREFS_MAGIC: case EFIVARFS_MAGIC: case HUGETLBFS_MAGIC:
	case 0x19800202 /* mqueue */: case BINFMTFS_MAGIC: case 0x62656570 /* configfs */:
	case 0x65735543 /* fusectl */:
		return true;
	}
	return false;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Walk directory @rel ("" for ROOT), whose device is @dev. */
static void walk_dir(struct walk *w, const char *rel, dev_t dev)
{
	char **subdirs = NULL;
	int nsub = 0, scap = 0, fd;
	size_t i;
	struct dirent *de;
	struct stat st;
	DIR *dir;

	fd = root_openat(w->rootfd, rel, O_RDONLY | O_DIRECTORY);
	if (fd < 0) {
		add_unreadable(w, rel, errno);
		return;
	}
	if (!fstat(fd, &st) && st.st_dev != dev && pseudo_fs(fd)) {
		close(fd);
		return;
	}
	dev = st.st_dev;
	dir = fdopendir(fd);
	if (!dir) {
		add_unreadable(w, rel, errno);
		close(fd);
		return;
	}
	while ((de = readdir(dir))) {
		const char *n = de->d_name;
		unsigned char type = de->d_type;
		char *path;

		if (n[0] == '.' && (!n[1] || (n[1] == '.' && !n[2])))
			continue;
		if (type == DT_UNKNOWN) {
			struct stat s2;

			if (fstatat(fd, n, &s2, AT_SYMLINK_NOFOLLOW))
				continue;
			type = S_ISREG(s2.st_mode) ? DT_REG : S_ISDIR(s2.st_mode) ?
				DT_DIR : DT_LNK;
		}
		/* Symlinks are never followed; devices, fifos, sockets never read. */
		if (type != DT_REG && type != DT_DIR)
			continue;
		path = *rel ? xasprintf("%s/%s", rel, n) : xstrdup(n);
		if (type == DT_DIR) {
			*GROW(subdirs, nsub, scap) = path;
		} else {
			*GROW(w->dir_files, w->ndir, w->dcap) = scan_arena_strdup(w->strs, path);
			free(path);
		}
	}
	closedir(dir);
	if (w->ndir) {
		/* The directory's files to the threads, in one go. */
		pthread_mutex_lock(w->lock);
		for (i = 0; i < w->ndir; i++)
			GROW(w->files, w->nfiles, w->fcap)->rel = w->dir_files[i];
		pthread_cond_broadcast(w->more);
		pthread_mutex_unlock(w->lock);
		w->ndir = 0;
	}
	if (nsub)
		qsort(subdirs, nsub, sizeof(*subdirs), name_cmp);
	for (i = 0; i < (size_t)nsub; i++) {
		walk_dir(w, subdirs[i], dev);
		free(subdirs[i]);
	}
	free(subdirs);
}

/* ---- reading the files ---- */

struct shared {
	const struct scan_needles *ns;
	const struct scan_opts *opts;
	struct walk *w;
	size_t next;			/* next file to take */
	pthread_mutex_t lock;
	pthread_cond_t more;		/* files added, or the walk is done */
};

struct worker {
	pthread_t tid;
	struct shared *sh;
	struct scan_reader rd;
};

static void scan_file(struct worker *wk, size_t idx, const char *rel)
{
	struct shared *sh = wk->sh;
	struct stat st;
	int fd;

	if (!sh->ns->n) {
		/* Nothing to search for: the files are only counted. */
		wk->rd.files++;
		return;
	}
	/* Regular, under the cap, beneath ROOT: anything else is listed. */
	fd = root_open_regular(sh->w->rootfd, rel, scan_max_size(sh->opts), &st);
	if (fd < 0 || scan_read_fd(&wk->rd, idx, rel, fd, &st))
		scan_reader_unreadable(&wk->rd, idx, errno, NULL);
	if (fd >= 0)
		close(fd);
}

static void *worker_main(void *arg)
{
	struct worker *wk = arg;
	struct shared *sh = wk->sh;

	for (;;) {
		const char *rel[16];
		size_t i, first, last;

		/*
		 * Files in batches of 16: one lock per batch. Their names are
		 * copied under the lock: the walk may grow (move) the array.
		 */
		pthread_mutex_lock(&sh->lock);
		while (sh->next >= sh->w->nfiles && !sh->w->done)
			pthread_cond_wait(&sh->more, &sh->lock);
		first = sh->next;
		last = first + 16 < sh->w->nfiles ? first + 16 : sh->w->nfiles;
		sh->next = last;
		for (i = first; i < last; i++)
			rel[i - first] = sh->w->files[i].rel;
		pthread_mutex_unlock(&sh->lock);
		if (first >= last)
			break;
		for (i = first; i < last; i++)
			scan_file(wk, i, rel[i - first]);
	}
	return NULL;
}

/* ---- the result ---- */

/*
 * The system root @root belongs to: @root itself or its nearest ancestor
 * with a dpkg or rpm database (so "scan /usr" names /usr/bin/x and uses /'s
 * database); @root itself when none has. Returns the root's realpath in
 * *@sys and @root's path below it (with a leading '/', or "") in *@prefix.
 */
static int find_sysroot(const char *root, char **sys, char **prefix)
{
	char *real = realpath(root, NULL);
	size_t cut;

	if (!real)
		return -1;
	for (cut = strlen(real);;) {
		char save = real[cut];
		bool ok;

		real[cut] = '\0';
		ok = owner_has_db(cut ? real : "/");
		real[cut] = save;
		if (ok) {
			*sys = cut ? xstrndup(real, cut) : xstrdup("/");
			*prefix = xstrdup(real + cut);
			free(real);
			return 0;
		}
		if (!cut)
			break;
		while (cut > 0 && real[--cut] != '/')
			;
	}
	/* None: paths are shown as below ROOT. */
	*sys = real;
	*prefix = xstrdup("");
	return 0;
}

/*
 * Check ROOT and open it into @w->rootfd, with the system root and prefix
 * of its paths (find_sysroot()); -1 with a message in @err.
 */
static int open_root(const char *root, struct walk *w, char **sys, char **prefix,
		     char *err, size_t errlen)
{
	struct stat st;

	if (stat(root, &st)) {
		snprintf(err, errlen, "cannot read ROOT '%s': %s", root, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "ROOT '%s' is not a directory", root);
		return -1;
	}
	w->rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (w->rootfd < 0) {
		snprintf(err, errlen, "cannot open ROOT '%s': %s", root, strerror(errno));
		return -1;
	}
	if (pseudo_fs(w->rootfd)) {
		snprintf(err, errlen, "ROOT '%s' is on a kernel filesystem (proc, sysfs, ...): it holds no installed files to scan",
			 root);
		close(w->rootfd);
		return -1;
	}
	if (find_sysroot(root, sys, prefix)) {
		snprintf(err, errlen, "cannot resolve ROOT '%s': %s", root, strerror(errno));
		close(w->rootfd);
		return -1;
	}
	return 0;
}

/*
 * Walk the tree while @nthreads workers read the files it finds; returns
 * the workers (their number in *@nthreads: those that started, or one, run
 * here, when none could).
 */
static struct worker *run_workers(struct shared *sh, struct walk *w, int *nthreads)
{
	struct worker *wks = xcalloc(*nthreads, sizeof(*wks));
	int t, started;

	pthread_mutex_init(&sh->lock, NULL);
	pthread_cond_init(&sh->more, NULL);
	w->lock = &sh->lock;
	w->more = &sh->more;
	elf_version(EV_CURRENT);
	/* The threads read files while this one walks the tree. */
	for (t = 0; t < *nthreads; t++) {
		wks[t].sh = sh;
		scan_reader_init(&wks[t].rd, sh->ns, sh->opts);
		if (pthread_create(&wks[t].tid, NULL, worker_main, &wks[t]))
			break;
	}
	started = t;
	walk_dir(w, "", (dev_t)-1);
	pthread_mutex_lock(&sh->lock);
	w->done = true;
	pthread_cond_broadcast(&sh->more);
	pthread_mutex_unlock(&sh->lock);
	if (!started) {
		/* No thread could start: read the files here. */
		worker_main(&wks[0]);
		started = 1;
	} else {
		for (t = 0; t < started; t++)
			pthread_join(wks[t].tid, NULL);
	}
	*nthreads = started;
	pthread_cond_destroy(&sh->more);
	pthread_mutex_destroy(&sh->lock);
	return wks;
}

/* @m (the owner's, freed with it) into @strs; NULL for NULL. */
static const struct pkg_meta *copy_meta(struct scan_arena *strs, const struct pkg_meta *m)
{
	struct pkg_meta *c;

	if (!m)
		return NULL;
	c = scan_arena_alloc(strs, sizeof(*c));
	c->name = scan_arena_strdup0(strs, m->name);
	c->version = scan_arena_strdup0(strs, m->version);
	c->arch = scan_arena_strdup0(strs, m->arch);
	c->source = scan_arena_strdup0(strs, m->source);
	c->maintainer = scan_arena_strdup0(strs, m->maintainer);
	return c;
}

/*
 * A worker's hits and unreadable files into @res (file names and packages
 * in the result's strings); the worker's memory is freed.
 */
static void merge_worker(struct scan_result *res, struct scan_priv *priv,
			 struct owner *owner, const struct walk *w,
			 const char *prefix, struct worker *wk)
{
	struct scan_reader *rd = &wk->rd;
	size_t last_file = (size_t)-1, i, k;
	const char *fname = NULL;
	const struct pkg_meta *meta = NULL;

	res->files += rd->files;
	res->bytes += rd->bytes;
	res->weak_hidden += rd->weak_hidden;
	for (i = 0; i < rd->nhits; i++) {
		const struct scan_whit *h = &rd->hits[i];

		if (h->file != last_file) {
			char *s = xasprintf("%s/%s", prefix, w->files[h->file].rel);

			fname = scan_arena_strdup(&priv->strs, s);
			meta = copy_meta(&priv->strs, owner_lookup(owner, s));
			free(s);
			last_file = h->file;
		}
		scan_add_hit(res, h, fname, meta ? meta->name : NULL,
			     meta ? meta->version : NULL, meta, NULL);
	}
	for (k = 0; k < rd->nunread; k++) {
		char *s = xasprintf("%s/%s", prefix, w->files[rd->unread[k].file].rel);

		scan_add_unreadable(res, scan_arena_strdup(&priv->strs, s),
				    rd->unread[k].err, rd->unread[k].why);
		free(s);
	}
	scan_arena_take(&priv->strs, &rd->strs);
	scan_reader_release(rd);
}

int scan_tree_opts(const char *root, const struct abi_set *tables,
		   const struct scan_opts *opts, struct scan_result *res,
		   char *err, size_t errlen)
{
	static const struct scan_opts defaults;
	struct scan_needles ns;
	struct scan_priv *priv;
	struct scan_arena walk_strs = { 0 };
	struct walk w = { 0 };
	struct shared sh = { 0 };
	struct worker *wks;
	char *sys = NULL, *prefix = NULL;
	struct owner *owner;
	int nthreads, t;

	if (!opts)
		opts = &defaults;
	memset(res, 0, sizeof(*res));
	if (!root || !*root)
		root = "/";
	if (open_root(root, &w, &sys, &prefix, err, errlen))
		return -1;
	priv = xcalloc(1, sizeof(*priv));
	res->priv = priv;
	res->root = scan_arena_strdup(&priv->strs, sys);
	res->prefix = scan_arena_strdup(&priv->strs, prefix);
	scan_needles_build(&ns, tables);
	res->npatterns = ns.n;

	w.strs = &walk_strs;
	w.res = res;
	w.res_strs = &priv->strs;
	w.prefix = prefix;
	sh.ns = &ns;
	sh.opts = opts;
	sh.w = &w;
	nthreads = scan_thread_count(opts);
	wks = run_workers(&sh, &w, &nthreads);

	/* Merge: the file names of files with hits go to the result. */
	owner = owner_new(sys);
	for (t = 0; t < nthreads; t++)
		merge_worker(res, priv, owner, &w, prefix, &wks[t]);
	free(wks);
	owner_free(owner);
	scan_result_sort(res);
	/* The hits point at the What strings of @tables, not at the needles. */
	scan_needles_free(&ns);
	scan_arena_free(&walk_strs);
	free(w.files);
	free(w.dir_files);
	free(sys);
	free(prefix);
	close(w.rootfd);
	return 0;
}

int scan_tree(const char *root, const struct abi_set *tables,
	      struct scan_result *res, char *err, size_t errlen)
{
	return scan_tree_opts(root, tables, NULL, res, err, errlen);
}

