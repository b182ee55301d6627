// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark's workload: N times open(2), read(2) until EOF, close(2) of
 * one sysfs file, by READERS processes at once (default 1), each pinned to
 * a CPU of its own when there are enough. Prints one line:
 *
 *	NS OPENS READS BYTES
 *
 * NS: nanoseconds of CLOCK_MONOTONIC per iteration (from the moment every
 * reader is ready to the moment the last one is done, divided by N; under
 * QEMU -icount shift=0, guest instructions); OPENS: the opens that
 * succeeded; READS: the read(2) calls that returned data; BYTES: their
 * bytes. All totals over the readers: what the tracers must have counted.
 * Exits 1, printing nothing on stdout, if any open or read fails.
 *	sysfs_loop FILE N [READERS]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct counts {
	long opens, reads, bytes;
};

static int loop(const char *file, long n, struct counts *c)
{
	char buf[4096];
	long i;

	for (i = 0; i < n; i++) {
		int fd = open(file, O_RDONLY);
		ssize_t r;

		if (fd < 0) {
			perror(file);
			return 1;
		}
		c->opens++;
		while ((r = read(fd, buf, sizeof(buf))) > 0) {
			c->reads++;
			c->bytes += r;
		}
		if (r < 0) {
			perror(file);
			return 1;
		}
		close(fd);
	}
	return 0;
}

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(int argc, char **argv)
{
	struct counts total = { 0 };
	int go[2], res[2], ok = 1;
	long n, readers = 1, i, cpus;
	double a, b;
	char c;

	if (argc < 3 || argc > 4 || (n = atol(argv[2])) <= 0 ||
	    (argc == 4 && (readers = atol(argv[3])) <= 0)) {
		fprintf(stderr, "usage: sysfs_loop FILE N [READERS]\n");
		return 2;
	}
	if (readers == 1) {
		a = now_ns();
		if (loop(argv[1], n, &total))
			return 1;
		b = now_ns();
		printf("%.0f %ld %ld %ld\n", (b - a) / n, total.opens, total.reads, total.bytes);
		return 0;
	}
	/* Several readers: they start together, at a byte on the go pipe. */
	if (pipe(go) || pipe(res)) {
		perror("pipe");
		return 1;
	}
	cpus = sysconf(_SC_NPROCESSORS_ONLN);
	for (i = 0; i < readers; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (!pid) {
			struct counts mine = { 0 };
			cpu_set_t set;
			int rc;

			if (cpus >= readers) {
				CPU_ZERO(&set);
				CPU_SET(i, &set);
				sched_setaffinity(0, sizeof(set), &set);
			}
			close(go[1]);
			if (read(go[0], &c, 1) < 0)
				_exit(1);
			rc = loop(argv[1], n, &mine);
			if (write(res[1], &mine, sizeof(mine)) != sizeof(mine))
				_exit(1);
			_exit(rc);
		}
	}
	close(go[0]);
	close(res[1]);
	usleep(100000);			/* every reader at its read(go) */
	a = now_ns();
	close(go[1]);			/* EOF: all go at once */
	for (i = 0; i < readers; i++) {
		int status;

		if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			ok = 0;
	}
	b = now_ns();
	for (i = 0; i < readers; i++) {
		struct counts mine;

		if (read(res[0], &mine, sizeof(mine)) != sizeof(mine)) {
			ok = 0;
			break;
		}
		total.opens += mine.opens;
		total.reads += mine.reads;
		total.bytes += mine.bytes;
	}
	if (!ok) {
		fprintf(stderr, "sysfs_loop: a reader failed\n");
		return 1;
	}
	printf("%.0f %ld %ld %ld\n", (b - a) / n, total.opens, total.reads, total.bytes);
	return 0;
}
