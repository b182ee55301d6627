// SPDX-License-Identifier: GPL-2.0
/*
 * The load of tests/guest/stress.sh: one process opening, reading or
 * writing, and closing sysfs files in a loop, counting exactly what it did,
 * so that the module's and the tracer's counters can be compared with it.
 *
 *	stress-hammer r|w SECONDS[/MIN] GLOB [VALUE]
 *	stress-hammer u COUNT FILE [FIRST]
 *
 * GLOB is matched again whenever an access fails (devices come and go in
 * the churn phase); each iteration takes the next match. Runs until SECONDS
 * pass and MIN reads (r) or writes (w) worked (0 when not given: a count a
 * check needs, however slow the kernel), or SIGTERM, then prints one line:
 *	opens=N open_errors=N reads=N read_errors=N writes=N write_errors=N
 * where reads counts read(2) calls that returned data or an error (the ones
 * abidep counts; the read returning 0 at end of file is not counted).
 * u: COUNT processes, each as its own uid (FIRST, FIRST + 1, ...; FIRST
 * 20000 when not given), open and read FILE once: COUNT new keys for the
 * tracer (for the fault tests).
 *	stress-hammer g COUNT FILE UID
 * g: the same as one uid, each process in a cgroup of its own (made under
 * /sys/fs/cgroup, removed after): one user making COUNT new keys.
 * Exit status 0, or 2 on bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	stop = 1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The child of by_uids() as @uid, in @cg if not NULL: exits 0 to 3. */
static void open_read_as(uid_t uid, const char *cg, const char *path)
{
	char buf[8192];
	int fd;

	if (cg) {
		fd = open(cg, O_WRONLY);
		if (fd < 0 || write(fd, "0\n", 2) != 2)
			_exit(3);
		close(fd);
	}
	if (setgroups(0, NULL) || setgid(uid) || setuid(uid))
		_exit(3);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		_exit(1);
	_exit(read(fd, buf, sizeof(buf)) < 0 ? 2 : 0);
}

/*
 * One process per uid from @first, each opening and reading @path once; or
 * (@one_uid) all as uid @first, each in a cgroup of its own.
 */
static int by_uids(long count, const char *path, long first, int one_uid)
{
	unsigned long long opens = 0, open_err = 0, reads = 0, read_err = 0;
	char dir[64], procs[96];
	long i;

	for (i = 0; i < count; i++) {
		pid_t pid;
		int st;

		snprintf(dir, sizeof(dir), "/sys/fs/cgroup/abidep-hammer-%ld", i);
		snprintf(procs, sizeof(procs), "%s/cgroup.procs", dir);
		if (one_uid && mkdir(dir, 0755) && errno != EEXIST) {
			perror("stress-hammer: mkdir cgroup");
			return 1;
		}
		pid = fork();
		if (pid < 0) {
			perror("stress-hammer: fork");
			return 1;
		}
		if (!pid)
			open_read_as(one_uid ? first : first + i, one_uid ? procs : NULL, path);
		waitpid(pid, &st, 0);
		if (one_uid)
			rmdir(dir);
		if (!WIFEXITED(st) || WEXITSTATUS(st) == 3) {
			fprintf(stderr, "stress-hammer: process %ld: cgroup or setuid failed\n", i);
			return 1;
		}
		opens++;
		if (WEXITSTATUS(st) == 1) {
			open_err++;
			continue;
		}
		reads++;
		read_err += WEXITSTATUS(st) == 2;
	}
	printf("opens=%llu open_errors=%llu reads=%llu read_errors=%llu writes=0 write_errors=0\n",
	       opens, open_err, reads, read_err);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long long opens = 0, open_err = 0, reads = 0, read_err = 0;
	unsigned long long writes = 0, write_err = 0;
	glob_t g = { 0 };
	size_t next = 0, vlen = 0;
	const char *value = NULL;
	int writer, have_glob = 0;
	unsigned long long min = 0;
	const char *slash;
	double end;
	char buf[8192];

	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "u") && atol(argv[2]) > 0)
		return by_uids(atol(argv[2]), argv[3], argc == 5 ? atol(argv[4]) : 20000, 0);
	if (argc == 5 && !strcmp(argv[1], "g") && atol(argv[2]) > 0)
		return by_uids(atol(argv[2]), argv[3], atol(argv[4]), 1);
	if (argc < 4 || (argv[1][0] != 'r' && argv[1][0] != 'w') ||
	    (argv[1][0] == 'w' && argc != 5) || atof(argv[2]) <= 0) {
		fprintf(stderr, "usage: stress-hammer r|w SECONDS[/MIN] GLOB [VALUE] | u COUNT FILE [FIRST] | g COUNT FILE UID\n");
		return 2;
	}
	writer = argv[1][0] == 'w';
	if (writer) {
		value = argv[4];
		vlen = strlen(value);
	}
	slash = strchr(argv[2], '/');
	if (slash)
		min = strtoull(slash + 1, NULL, 10);
	signal(SIGTERM, on_term);
	signal(SIGINT, on_term);
	end = now() + atof(argv[2]);
	while (!stop && (now() < end || (writer ? writes - write_err : reads - read_err) < min)) {
		const char *path;
		ssize_t n;
		int fd;

		if (!have_glob) {
			globfree(&g);
			if (glob(argv[3], 0, NULL, &g) || !g.gl_pathc) {
				/* Nothing there now (a device being re-added). */
				usleep(1000);
				continue;
			}
			have_glob = 1;
		}
		path = g.gl_pathv[next++ % g.gl_pathc];
		fd = open(path, writer ? O_WRONLY : O_RDONLY);
		opens++;
		if (fd < 0) {
			open_err++;
			have_glob = 0;
			continue;
		}
		if (writer) {
			n = write(fd, value, vlen);
			writes++;
			if (n < 0) {
				write_err++;
				have_glob = 0;
			}
		} else {
			while ((n = read(fd, buf, sizeof(buf))) != 0) {
				reads++;
				if (n < 0) {
					read_err++;
					have_glob = 0;
					break;
				}
			}
		}
		close(fd);
	}
	globfree(&g);
	printf("opens=%llu open_errors=%llu reads=%llu read_errors=%llu writes=%llu write_errors=%llu\n",
	       opens, open_err, reads, read_err, writes, write_err);
	return 0;
}
