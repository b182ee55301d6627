/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Opening the files of a tree that is not ours: a scanned image, a running
 * container's root, check --root's ROOT. Its names are anyone's, and a live
 * one changes while it is read. Every path is taken relative to a directory
 * fd of the tree and resolved beneath it: no symlink followed (at any
 * level, not only the last), no "..", so that nothing outside the tree is
 * ever opened, however its directories are swapped; files are opened only
 * once known to be regular (a FIFO would block, a device node would act),
 * and only up to a size. The scan's walk, the dpkg reader and their
 * callers open the tree's files here, nowhere else.
 */
#ifndef ABIDEP_ROOTFS_H
#define ABIDEP_ROOTFS_H

#include <stdbool.h>
#include <sys/stat.h>

/* The default size cap of root_open_regular()'s callers (scan --max-size). */
#define ROOT_MAX_SIZE_DEFAULT	(1ull << 30)

/*
 * Open @rel ("" or "." for @dirfd itself; relative, '/'-separated) beneath
 * @dirfd with open(2)'s @flags (O_NOFOLLOW and O_CLOEXEC added): openat2()
 * with RESOLVE_BENEATH and RESOLVE_NO_SYMLINKS, or, where the kernel or a
 * seccomp filter refuses openat2(), one component at a time. -1 with errno:
 * ELOOP for a symlink on the way (ENOTDIR for one last, with O_DIRECTORY),
 * EXDEV for any ".." or a path from "/", as openat(2)'s otherwise.
 */
int root_openat(int dirfd, const char *rel, int flags);

/*
 * Open @rel beneath @dirfd for reading if it is a regular file of at most
 * @max bytes (0: any size), without opening anything else: it is looked at
 * through an O_PATH descriptor first. Its stat in *@st. -1 with errno:
 * ENXIO when it is not a regular file, EFBIG when larger than @max, as
 * root_openat()'s otherwise.
 */
int root_open_regular(int dirfd, const char *rel, unsigned long long max,
		      struct stat *st);

/* Why root_openat() or root_open_regular() refused, for people. */
const char *root_strerror(int err);

/* For the tests: never use openat2() (the fallback's walk), or again. */
void root_force_walk(bool on);

#endif
