// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark's workload: N times open(2), read(2) until EOF, close(2) of
 * one sysfs file; prints the nanoseconds per iteration.
 *	sysfs_loop FILE N
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct timespec a, b;
	char buf[4096];
	long i, n;

	if (argc != 3 || (n = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: sysfs_loop FILE N\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < n; i++) {
		int fd = open(argv[1], O_RDONLY);

		if (fd < 0) {
			perror(argv[1]);
			return 1;
		}
		while (read(fd, buf, sizeof(buf)) > 0)
			;
		close(fd);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.0f\n", ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / n);
	return 0;
}
