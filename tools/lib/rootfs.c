// SPDX-License-Identifier: GPL-2.0
/*
 * Opening the files of a tree that is not ours, beneath it (rootfs.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "rootfs.h"

/* 1: openat2() works here; 0: it does not (or the tests said so); -1: unknown. */
static int have_openat2 = -1;

void root_force_walk(bool on)
{
	__atomic_store_n(&have_openat2, on ? 0 : -1, __ATOMIC_RELAXED);
}

static int openat2_beneath(int dirfd, const char *rel, int flags)
{
	struct open_how how = {
		.flags = (unsigned int)(flags | O_NOFOLLOW | O_CLOEXEC),
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	int fd, tries = 0;

	/* EAGAIN: a rename raced the lookup (RESOLVE_BENEATH's check); again. */
	do
		fd = syscall(SYS_openat2, dirfd, rel, &how, sizeof(how));
	while (fd < 0 && errno == EAGAIN && ++tries < 16);
	return fd;
}

/*
 * Without openat2(): a component at a time, each opened with O_NOFOLLOW
 * from the directory before it, ".." refused. The same answers as
 * RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS.
 */
static int walk_beneath(int dirfd, const char *rel, int flags)
{
	char name[NAME_MAX + 1];
	const char *p = rel, *slash;
	int cur = dirfd, fd, err;
	size_t n;

	for (;;) {
		while (*p == '/')
			p++;
		slash = strchrnul(p, '/');
		n = slash - p;
		while (*slash == '/')
			slash++;
		if (n > NAME_MAX) {
			err = ENAMETOOLONG;
			goto fail;
		}
		memcpy(name, p, n);
		name[n] = '\0';
		if (!strcmp(name, "..")) {
			err = EXDEV;
			goto fail;
		}
		if (!*slash)	/* the last component ("": the directory itself) */
			break;
		if (n && strcmp(name, ".")) {
			fd = openat(cur, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (fd < 0) {
				struct stat lst;

				/* O_PATH | O_NOFOLLOW took the symlink: ENOTDIR. */
				err = errno == ENOTDIR && !fstatat(cur, name, &lst, AT_SYMLINK_NOFOLLOW) &&
				      S_ISLNK(lst.st_mode) ? ELOOP : errno;
				goto fail;
			}
			if (cur != dirfd)
				close(cur);
			cur = fd;
		}
		p = slash;
	}
	fd = openat(cur, n ? name : ".", flags | O_NOFOLLOW | O_CLOEXEC);
	err = errno;
	if (cur != dirfd)
		close(cur);
	errno = err;
	return fd;
fail:
	if (cur != dirfd)
		close(cur);
	errno = err;
	return -1;
}

/* Whether @rel has a ".." component (RESOLVE_BENEATH allows one that stays beneath). */
static bool has_dotdot(const char *rel)
{
	const char *p = rel;

	while ((p = strstr(p, ".."))) {
		if ((p == rel || p[-1] == '/') && (!p[2] || p[2] == '/'))
			return true;
		p += 2;
	}
	return false;
}

int root_openat(int dirfd, const char *rel, int flags)
{
	int have = __atomic_load_n(&have_openat2, __ATOMIC_RELAXED), fd;

	if (!*rel)
		rel = ".";
	/* Beneath @dirfd: never from the real root, never up and down again. */
	if (*rel == '/' || has_dotdot(rel)) {
		errno = EXDEV;
		return -1;
	}
	if (have) {
		fd = openat2_beneath(dirfd, rel, flags);
		if (fd >= 0 || (errno != ENOSYS && errno != EPERM)) {
			if (have < 0)
				__atomic_store_n(&have_openat2, 1, __ATOMIC_RELAXED);
			return fd;
		}
		/*
		 * ENOSYS: an older kernel; EPERM: a seccomp filter (containers'
		 * defaults refused it for years). EPERM is also a file's own
		 * answer to some opens: the walk gives that answer again.
		 */
		if (errno == ENOSYS || have < 0)
			__atomic_store_n(&have_openat2, 0, __ATOMIC_RELAXED);
	}
	return walk_beneath(dirfd, rel, flags);
}

int root_open_regular(int dirfd, const char *rel, unsigned long long max,
		      struct stat *st)
{
	char proc[64];
	struct stat st2;
	int pfd, fd, err;

	pfd = root_openat(dirfd, rel, O_PATH);
	if (pfd < 0)
		return -1;
	if (fstat(pfd, st)) {
		err = errno;
		goto fail;
	}
	if (!S_ISREG(st->st_mode)) {
		err = ENXIO;
		goto fail;
	}
	if (max && (unsigned long long)st->st_size > max) {
		err = EFBIG;
		goto fail;
	}
	/* The same inode, opened for reading: nothing swapped in between. */
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", pfd);
	fd = open(proc, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT) {
		/*
		 * No /proc: open the path again, never blocking, and keep it
		 * only if it is the inode looked at.
		 */
		fd = root_openat(dirfd, rel, O_RDONLY | O_NOCTTY | O_NONBLOCK);
		if (fd >= 0 && (fstat(fd, &st2) || st2.st_dev != st->st_dev ||
				st2.st_ino != st->st_ino)) {
			close(fd);
			fd = -1;
			errno = ENXIO;
		}
	}
	err = errno;
	close(pfd);
	errno = err;
	return fd;
fail:
	close(pfd);
	errno = err;
	return -1;
}

const char *root_strerror(int err)
{
	switch (err) {
	case ENXIO:
		return "not a regular file: not read";
	case EFBIG:
		return "larger than the size cap: not read";
	case ELOOP:
		return "a symlink on the way: not followed";
	case EXDEV:
		return "leads out of the tree: not followed";
	default:
		return strerror(err);
	}
}
