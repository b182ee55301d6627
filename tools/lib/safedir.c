// SPDX-License-Identifier: GPL-2.0
/*
 * Reaching the directory abidep writes into without following a symlink
 * another user could have placed (safedir.h says the rule).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "safedir.h"
#include "util.h"

/* As the kernel's path walk: more symlinks than this is a loop. */
#define MAX_LINKS	40

struct walk {
	const char *file;	/* what is to be written, for messages */
	unsigned int flags;
	mode_t mode;
	uid_t me;
	int fd;			/* the directory the walk is in, O_PATH */
	struct stat st;		/* its stat */
	char *real;		/* its path, "" for "/" */
	int links;
	char *err;
	size_t errlen;
};

mode_t safe_umasked(mode_t mode)
{
	/* umask(2) only sets it: set it, and put it back. */
	mode_t mask = umask(0);

	umask(mask);
	return mode & ~mask;
}

const char *safe_who(uid_t uid, char *buf, size_t len)
{
	struct passwd *pw = getpwuid(uid);

	if (pw)
		snprintf(buf, len, "uid %u (%s)", (unsigned int)uid, pw->pw_name);
	else
		snprintf(buf, len, "uid %u", (unsigned int)uid);
	return buf;
}

static bool trusted_owner(const struct walk *w, uid_t uid)
{
	return uid == 0 || uid == w->me;
}

/*
 * Whether nobody but root and the caller can change what @st's names
 * refer to: theirs, and group and others cannot write it, or it is sticky.
 */
static bool steady(const struct walk *w, const struct stat *st)
{
	return trusted_owner(w, st->st_uid) &&
	       (!(st->st_mode & (S_IWGRP | S_IWOTH)) || (st->st_mode & S_ISVTX));
}

static const char *whose(const struct walk *w)
{
	return w->me ? "root's or yours" : "root's";
}

/* The path of the walk's directory, "/" for the root. */
static const char *here(const struct walk *w)
{
	return *w->real ? w->real : "/";
}

/* What @st is, for a refusal: "a directory of uid 107 (x)", "a directory others can write". */
static const char *what_dir(const struct walk *w, const struct stat *st, char *buf, size_t len)
{
	char who[96];

	if (!trusted_owner(w, st->st_uid))
		snprintf(buf, len, "a directory of %s", safe_who(st->st_uid, who, sizeof(who)));
	else
		snprintf(buf, len, "a directory %s can write",
			 st->st_mode & S_IWOTH ? "others" : "its group");
	return buf;
}

static int refuse_steady(struct walk *w)
{
	char what[128];

	snprintf(w->err, w->errlen,
		 "refusing to write %s: %s is %s, who could put a symlink on the path after it is checked: SQLite opens the file (and its -wal and -shm) by name, so every directory on the path must be %s and not writable by group or others (or sticky); name a file elsewhere",
		 w->file, here(w), what_dir(w, &w->st, what, sizeof(what)), whose(w));
	return SAFE_REFUSED;
}

/* Into the directory @fd (@name in the walk's directory). */
static int enter(struct walk *w, int fd, const struct stat *st, const char *name)
{
	char *real = xasprintf("%s/%s", w->real, name);

	close(w->fd);
	free(w->real);
	w->fd = fd;
	w->st = *st;
	w->real = real;
	return (w->flags & SAFE_STEADY) && !steady(w, st) ? refuse_steady(w) : 0;
}

/* To "/" (the walk's start, and an absolute symlink's). */
static int go_root(struct walk *w)
{
	int fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &w->st)) {
		snprintf(w->err, w->errlen, "cannot write %s: cannot open /: %s", w->file,
			 strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (w->fd >= 0)
		close(w->fd);
	w->fd = fd;
	w->real[0] = '\0';
	return (w->flags & SAFE_STEADY) && !steady(w, &w->st) ? refuse_steady(w) : 0;
}

/* ".." from the walk's directory: every directory above it was walked. */
static int go_up(struct walk *w)
{
	char *slash = strrchr(w->real, '/');
	int fd;

	if (!slash)	/* at "/": ".." is "/" */
		return 0;
	fd = openat(w->fd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &w->st)) {
		snprintf(w->err, w->errlen, "cannot write %s: cannot open %s/..: %s", w->file,
			 w->real, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(w->fd);
	w->fd = fd;
	*slash = '\0';
	return 0;
}

static int walk_fail(struct walk *w, const char *name, int e)
{
	if (w->flags & SAFE_MKDIR)
		snprintf(w->err, w->errlen, "cannot create the directory %s/%s for %s: %s",
			 w->real, name, w->file, strerror(e));
	else
		snprintf(w->err, w->errlen, "cannot write %s: %s/%s: %s", w->file, w->real, name,
			 strerror(e));
	errno = e;
	return -1;
}

/*
 * A symlink at @name in the walk's directory, open as @fd (O_PATH): followed
 * if trusted, its target put before *@rest (which the caller walks on).
 */
static int follow(struct walk *w, int fd, const struct stat *st, const char *name,
		  char **rest)
{
	char target[PATH_MAX], why[PATH_MAX + 160], who[128], *next;
	ssize_t n;

	if (!trusted_owner(w, st->st_uid) || !steady(w, &w->st)) {
		/* The directory first: there even root's symlink can be replaced. */
		if (!steady(w, &w->st))
			snprintf(why, sizeof(why), "in %s, %s", here(w),
				 what_dir(w, &w->st, who, sizeof(who)));
		else
			snprintf(why, sizeof(why), "of %s", safe_who(st->st_uid, who, sizeof(who)));
		snprintf(w->err, w->errlen,
			 "refusing to write %s: %s/%s is a symlink %s: a symlink on the way is followed only if it and its directory are %s and nobody else can write the directory (sticky excepted); name the file by a path without it",
			 w->file, w->real, name, why, whose(w));
		close(fd);
		return SAFE_REFUSED;
	}
	n = readlinkat(fd, "", target, sizeof(target));
	close(fd);
	if (n < 0 || n == sizeof(target))
		return walk_fail(w, name, n < 0 ? errno : ENAMETOOLONG);
	target[n] = '\0';
	if (++w->links > MAX_LINKS)
		return walk_fail(w, name, ELOOP);
	next = xasprintf("%s/%s", target, *rest);
	free(*rest);
	*rest = next;
	return target[0] == '/' ? go_root(w) : 0;
}

/*
 * A missing @name made (SAFE_MKDIR), with w->mode whatever the umask. One
 * another made meanwhile (EEXIST) keeps its mode: step() judges it.
 */
static int make_dir(struct walk *w, const char *name)
{
	int fd;

	if (mkdirat(w->fd, name, w->mode))
		return errno == EEXIST ? 0 : -1;
	/* O_RDONLY, for fchmod(); O_NOFOLLOW: what another put there meanwhile is not ours. */
	fd = openat(w->fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOTDIR || errno == ELOOP ? 0 : -1;	/* step() sees what it is */
	fchmod(fd, w->mode);
	close(fd);
	return 0;
}

/* One component: a directory entered, a symlink followed, or a refusal. */
static int step(struct walk *w, const char *name, char **rest)
{
	struct stat st;
	int fd;

	fd = openat(w->fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && (w->flags & SAFE_MKDIR)) {
		if (make_dir(w, name))
			return walk_fail(w, name, errno);
		fd = openat(w->fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	}
	if (fd < 0)
		return walk_fail(w, name, errno);
	if (fstat(fd, &st)) {
		close(fd);
		return walk_fail(w, name, errno);
	}
	if (S_ISLNK(st.st_mode))
		return follow(w, fd, &st, name, rest);
	if (!S_ISDIR(st.st_mode)) {
		close(fd);
		return walk_fail(w, name, ENOTDIR);
	}
	return enter(w, fd, &st, name);
}

/* @path from the walk's directory, component by component. */
static int walk(struct walk *w, const char *path)
{
	char *rest = xstrdup(path), *p, *slash;
	int ret = 0;

	while (!ret && *rest) {
		p = rest + strspn(rest, "/");
		slash = strchrnul(p, '/');
		if (*slash)
			*slash++ = '\0';
		/* The component is copied: follow() replaces rest. */
		p = xstrdup(p);
		memmove(rest, slash, strlen(slash) + 1);
		if (strlen(p) > NAME_MAX)
			ret = walk_fail(w, p, ENAMETOOLONG);
		else if (!strcmp(p, ".."))
			ret = go_up(w);
		else if (*p && strcmp(p, "."))
			ret = step(w, p, &rest);
		free(p);
	}
	free(rest);
	return ret;
}

int safe_dir_open(const char *dir, const char *file, unsigned int flags, mode_t mode,
		  char **real, char *err, size_t errlen)
{
	struct walk w = {
		.file = file, .flags = flags, .mode = mode, .me = geteuid(), .fd = -1,
		.real = xstrdup(""), .err = err, .errlen = errlen,
	};
	char *cwd = NULL;
	int ret;

	/*
	 * A relative path from the current directory's path, walked from "/"
	 * too: a DB's directories must be steady wherever it is named from.
	 */
	if (dir[0] != '/') {
		cwd = getcwd(NULL, 0);
		if (!cwd) {
			snprintf(err, errlen, "cannot write %s: cannot find the current directory: %s",
				 file, strerror(errno));
			free(w.real);
			return -1;
		}
	}
	ret = go_root(&w);
	if (!ret && cwd)
		ret = walk(&w, cwd);
	if (!ret)
		ret = walk(&w, dir);
	free(cwd);
	if (ret) {
		int e = errno;

		if (w.fd >= 0)
			close(w.fd);
		free(w.real);
		errno = e;
		return ret;
	}
	if (real)
		*real = xstrdup(here(&w));
	free(w.real);
	return w.fd;
}

int safe_parent_open(const char *path, const char *what, unsigned int flags, mode_t mode,
		     char **base, char **real, char *err, size_t errlen)
{
	const char *slash = strrchr(path, '/');
	const char *b = slash ? slash + 1 : path;
	char *dir;
	int fd;

	if (!*b || !strcmp(b, ".") || !strcmp(b, "..")) {
		snprintf(err, errlen, "cannot write %s: it names a directory, not a file in one",
			 what ? what : path);
		errno = EISDIR;
		return -1;
	}
	dir = !slash ? xstrdup(".") : slash == path ? xstrdup("/") :
	      xstrndup(path, slash - path);
	fd = safe_dir_open(dir, what ? what : path, flags, mode, real, err, errlen);
	free(dir);
	if (fd >= 0)
		*base = xstrdup(b);
	return fd;
}

int safe_tmpfile(int dirfd, const char *base, const char *tag, char **name)
{
	static const char chars[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	unsigned char rnd[6];
	char *n;
	int tries, fd, i;

	for (tries = 0; tries < 100; tries++) {
		if (getrandom(rnd, sizeof(rnd), 0) != sizeof(rnd))
			return -1;
		n = xasprintf(".%s.%sXXXXXX", base, tag);
		for (i = 0; i < 6; i++)
			n[strlen(n) - 6 + i] = chars[rnd[i] % (sizeof(chars) - 1)];
		fd = openat(dirfd, n, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0) {
			*name = n;
			return fd;
		}
		free(n);
		if (errno != EEXIST)
			return -1;
	}
	errno = EEXIST;
	return -1;
}
