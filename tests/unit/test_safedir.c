// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of tools/lib/safedir.c, the rule for where abidep writes: a
 * symlink followed only if it and its directory are root's (or the
 * caller's) and the directory is writable by nobody else (sticky
 * excepted); SAFE_STEADY refusing a directory another can write;
 * SAFE_MKDIR's mode; "..", relative paths, loops; safe_tmpfile(). Run as
 * root, another user's files are made with chown to nobody (65534); as
 * another user, those cases are skipped (they need root). Ends with
 * "safedir: N passed, N failed".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include "check.h"
#include "safedir.h"

#define NOBODY	65534

static char tmp[] = "/tmp/abidep-safedir-XXXXXX";
static char err[8192];

static char *tp(const char *rel)
{
	static char buf[4][512];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", tmp, rel);
	return buf[i];
}

/* Open @dir with @flags; the fd closed, its real path in *@real if asked. */
static int try(const char *dir, unsigned int flags, char **real)
{
	int fd = safe_dir_open(dir, "FILE", flags, 0700, real, err, sizeof(err));

	if (fd >= 0)
		close(fd);
	return fd < 0 ? fd : 0;
}

static void test_symlinks(void)
{
	char *real = NULL;

	current = "symlinks";
	mkdir(tp("root"), 0755);
	mkdir(tp("root/sub"), 0755);
	if (symlink("sub", tp("root/mine")))
		exit(2);
	/* Root's (the caller's) symlink in root's directory: followed. */
	CHECK(try(tp("root/mine"), 0, &real) == 0);
	CHECK(real && !strcmp(real, tp("root/sub")));
	free(real);
	real = NULL;
	/* Through it and back up: the physical parent. */
	CHECK(try(tp("root/mine/../sub/./"), 0, &real) == 0);
	CHECK(real && !strcmp(real, tp("root/sub")));
	free(real);
	/* A loop of trusted symlinks: ELOOP, not a hang. */
	if (symlink("loop", tp("root/loop")))
		exit(2);
	CHECK(try(tp("root/loop"), 0, NULL) == -1 && errno == ELOOP);
	/* A missing directory: an error, named. */
	CHECK(try(tp("root/none/x"), 0, NULL) == -1 && errno == ENOENT);
	CHECK(strstr(err, tp("root/none")) != NULL);
	/* A file on the way. */
	close(open(tp("root/file"), O_CREAT | O_WRONLY, 0644));
	CHECK(try(tp("root/file/x"), 0, NULL) == -1 && errno == ENOTDIR);
	/* Group or others may write the directory: its symlinks are not trusted. */
	mkdir(tp("gw"), 0775);
	chmod(tp("gw"), 0775);
	if (symlink(tp("root/sub"), tp("gw/l")))
		exit(2);
	CHECK(try(tp("gw/l"), 0, NULL) == SAFE_REFUSED);
	CHECK(strstr(err, "refusing to write FILE: ") &&
	      strstr(err, "/gw/l is a symlink in ") && strstr(err, "a directory its group can write"));
	/* ...unless it is sticky: only an entry's owner may rename it there. */
	chmod(tp("gw"), 01777);
	CHECK(try(tp("gw/l"), 0, NULL) == 0);
	/* A real directory in such a directory: entered (written through its fd). */
	mkdir(tp("ow"), 0777);
	chmod(tp("ow"), 0777);
	mkdir(tp("ow/d"), 0755);
	CHECK(try(tp("ow/d"), 0, NULL) == 0);
	/* But not for SAFE_STEADY (SQLite's names). */
	CHECK(try(tp("ow/d"), SAFE_STEADY, NULL) == SAFE_REFUSED);
	CHECK(strstr(err, "/ow is a directory others can write") != NULL);
	CHECK(try(tp("gw"), SAFE_STEADY, NULL) == 0);	/* sticky */
	CHECK(try(tp("root/sub"), SAFE_STEADY, NULL) == 0);
}

/* Another user's symlinks and directories: root only (chown). */
static void test_others(void)
{
	current = "another user's";
	if (geteuid()) {
		printf("# skipped: %s needs root\n", current);
		return;
	}
	mkdir(tp("theirs"), 0755);
	mkdir(tp("theirs/sub"), 0755);
	if (chown(tp("theirs"), NOBODY, NOBODY))
		exit(2);
	/* Root's symlink in nobody's directory: nobody can replace it. */
	if (symlink("sub", tp("theirs/l")))
		exit(2);
	CHECK(try(tp("theirs/l"), 0, NULL) == SAFE_REFUSED);
	CHECK(strstr(err, "/theirs/l is a symlink in ") &&
	      strstr(err, "a directory of uid 65534"));
	/* Nobody's real directory there: entered, but not steady. */
	CHECK(try(tp("theirs/sub"), 0, NULL) == 0);
	CHECK(try(tp("theirs/sub"), SAFE_STEADY, NULL) == SAFE_REFUSED);
	CHECK(strstr(err, "/theirs is a directory of uid 65534") != NULL);
	/* Nobody's symlink in root's directory. */
	mkdir(tp("mine"), 0755);
	mkdir(tp("mine/sub"), 0755);
	if (symlink("sub", tp("mine/l")) || lchown(tp("mine/l"), NOBODY, NOBODY))
		exit(2);
	CHECK(try(tp("mine/l"), 0, NULL) == SAFE_REFUSED);
	CHECK(strstr(err, "/mine/l is a symlink of uid 65534") != NULL);
	/* ...in a sticky directory too (fs.protected_symlinks would refuse it). */
	mkdir(tp("sticky"), 01777);
	chmod(tp("sticky"), 01777);
	mkdir(tp("sticky/sub"), 0755);
	if (symlink("sub", tp("sticky/l")) || lchown(tp("sticky/l"), NOBODY, NOBODY))
		exit(2);
	CHECK(try(tp("sticky/l"), 0, NULL) == SAFE_REFUSED);
	/* And an absolute symlink leading through nobody's directory. */
	if (symlink(tp("theirs/l"), tp("mine/far")))
		exit(2);
	CHECK(try(tp("mine/far"), 0, NULL) == SAFE_REFUSED);
}

static void test_mkdir(void)
{
	struct stat st;
	mode_t old;

	current = "SAFE_MKDIR";
	/* The mode given, whatever the umask; every missing level made. */
	old = umask(0277);
	CHECK(try(tp("made/a/b"), SAFE_MKDIR, NULL) == 0);
	umask(old);
	CHECK(!stat(tp("made/a/b"), &st) && (st.st_mode & 07777) == 0700);
	CHECK(!stat(tp("made"), &st) && (st.st_mode & 07777) == 0700);
	/* A file where a directory is to be made: named. */
	CHECK(try(tp("root/file/x"), SAFE_MKDIR, NULL) == -1 && errno == ENOTDIR);
	CHECK(strstr(err, "cannot create the directory ") && strstr(err, "Not a directory"));
}

static void test_parent(void)
{
	char *base = NULL, *real = NULL, *cwd;
	int fd;

	current = "safe_parent_open";
	/* A relative path: from the current directory's. */
	cwd = getcwd(NULL, 0);
	if (!cwd || chdir(tp("root")))
		exit(2);
	fd = safe_parent_open("mine/f.db", NULL, 0, 0, &base, &real, err, sizeof(err));
	CHECK(fd >= 0 && !strcmp(base, "f.db") && !strcmp(real, tp("root/sub")));
	if (fd >= 0)
		close(fd);
	free(base);
	free(real);
	base = real = NULL;
	fd = safe_parent_open("f.db", "the thing", 0, 0, &base, &real, err, sizeof(err));
	CHECK(fd >= 0 && !strcmp(base, "f.db") && !strcmp(real, tp("root")));
	if (fd >= 0)
		close(fd);
	free(base);
	free(real);
	if (chdir(cwd))
		exit(2);
	free(cwd);
	/* No file named. */
	CHECK(safe_parent_open(tp("root/"), NULL, 0, 0, &base, NULL, err, sizeof(err)) == -1 &&
	      errno == EISDIR);
	CHECK(safe_parent_open(tp("root/.."), NULL, 0, 0, &base, NULL, err, sizeof(err)) == -1 &&
	      errno == EISDIR);
	fd = safe_parent_open("/", "the root", 0, 0, &base, NULL, err, sizeof(err));
	CHECK(fd == -1 && strstr(err, "the root"));
}

static void test_tmpfile(void)
{
	struct stat st;
	char *name = NULL;
	int dfd, fd;

	current = "safe_tmpfile";
	dfd = open(tp("root/sub"), O_PATH | O_DIRECTORY);
	fd = safe_tmpfile(dfd, "out.prom", "t-", &name);
	CHECK(fd >= 0 && name && !strncmp(name, ".out.prom.t-", 12) && strlen(name) == 18);
	CHECK(fd >= 0 && !fstat(fd, &st) && S_ISREG(st.st_mode) && (st.st_mode & 0777) == 0600);
	if (fd >= 0)
		close(fd);
	CHECK(name && !fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW));
	free(name);
	close(dfd);
}

static int rm_tree(void)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	return system(cmd);
}

int main(void)
{
	if (!mkdtemp(tmp)) {
		perror(tmp);
		return 2;
	}
	test_symlinks();
	test_others();
	test_mkdir();
	test_parent();
	test_tmpfile();
	if (rm_tree())
		fprintf(stderr, "cannot remove %s\n", tmp);
	printf("safedir: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
