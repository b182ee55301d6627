// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of tools/lib/rootfs.c: a tree with what a hostile image holds
 * (symlinks out of it at every level, "..", a FIFO, a device node, a file
 * over the cap), opened through openat2() and through the fallback's walk;
 * both must give the same answers. Ends with "unit: N passed, N failed".
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>

#include "check.h"
#include "rootfs.h"

static char tree[] = "/tmp/abidep-rootfs-XXXXXX";

static void mk(const char *rel, const char *text)
{
	char *p;
	int fd;

	if (asprintf(&p, "%s/%s", tree, rel) < 0)
		exit(2);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, text, strlen(text)) < 0)
		exit(2);
	close(fd);
	free(p);
}

static void build(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int dfd, s;

	if (!mkdtemp(tree) || (dfd = open(tree, O_DIRECTORY)) < 0)
		exit(2);
	if (mkdirat(dfd, "a", 0755) || mkdirat(dfd, "a/b", 0755) ||
	    symlinkat("/etc", dfd, "a/out") ||		/* out, absolute */
	    symlinkat("../..", dfd, "a/b/up") ||	/* out, relative */
	    symlinkat("b", dfd, "a/in") ||		/* in, but a symlink */
	    symlinkat("loop", dfd, "a/loop") ||
	    mkfifoat(dfd, "a/fifo", 0644) ||
	    mknodat(dfd, "a/null", S_IFCHR | 0644, makedev(1, 3)))
		exit(2);
	mk("a/b/file", "hello\n");
	mk("a/big", "");
	if (truncate(strcat(strcpy((char[256]){ 0 }, tree), "/a/big"), 2 << 20))
		exit(2);
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/a/sock", tree);
	if (s < 0 || bind(s, (struct sockaddr *)&sa, sizeof(sa)))
		exit(2);
	close(s);
	close(dfd);
}

/* @rel opened for reading (regular, cap 1 MiB): 0, or its errno. */
static int regular(int dfd, const char *rel)
{
	struct stat st;
	int fd = root_open_regular(dfd, rel, 1 << 20, &st);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static int dir(int dfd, const char *rel)
{
	int fd = root_openat(dfd, rel, O_RDONLY | O_DIRECTORY);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static void cases(const char *mode)
{
	int dfd = open(tree, O_DIRECTORY | O_CLOEXEC);

	current = mode;
	CHECK(regular(dfd, "a/b/file") == 0);
	CHECK(regular(dfd, "./a//b/./file") == 0);
	CHECK(dir(dfd, "") == 0);
	CHECK(dir(dfd, "a/b") == 0);
	/* Symlinks: never followed, at any level. */
	CHECK(regular(dfd, "a/out/passwd") == ELOOP);
	CHECK(dir(dfd, "a/out") == ENOTDIR);	/* the link, not a directory */
	CHECK(regular(dfd, "a/b/up/etc/passwd") == ELOOP);
	CHECK(regular(dfd, "a/in/file") == ELOOP);
	CHECK(regular(dfd, "a/loop") == ENXIO);	/* O_PATH: the link itself */
	CHECK(dir(dfd, "a/loop/x") == ELOOP);
	/* "..", and paths from the real root. */
	CHECK(regular(dfd, "a/b/../b/file") == EXDEV);
	CHECK(regular(dfd, "../etc/passwd") == EXDEV);
	CHECK(regular(dfd, "/etc/passwd") == EXDEV);
	/* Never opened: a FIFO would block, a device act. */
	CHECK(regular(dfd, "a/fifo") == ENXIO);
	CHECK(regular(dfd, "a/null") == ENXIO);
	CHECK(regular(dfd, "a/sock") == ENXIO);
	CHECK(regular(dfd, "a/b") == ENXIO);
	CHECK(regular(dfd, "a/big") == EFBIG);
	CHECK(regular(dfd, "a/none") == ENOENT);
	CHECK(regular(dfd, "a/b..c") == ENOENT);	/* not a ".." */
	close(dfd);
}

int main(void)
{
	char *cmd;

	alarm(30);	/* a FIFO opened for reading would block: fail, not hang */
	build();
	cases("rootfs_openat2");
	root_force_walk(true);
	cases("rootfs_walk");
	root_force_walk(false);
	if (asprintf(&cmd, "rm -rf '%s'", tree) > 0 && system(cmd))
		printf("# could not remove %s\n", tree);
	printf("unit: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
