// SPDX-License-Identifier: GPL-2.0
/*
 * The time one run of a command takes, in microseconds: from just before
 * fork() to the end of waitpid(), its output discarded, its exit status
 * ignored. scripts/bench.sh used to take `date +%s%N` before and after,
 * which counted the second date's own fork, exec and dynamic loading (1 to
 * 2 ms here) against the command: a sixth of abidep's time, a hundredth of
 * get_abi.pl's.
 *	timeit CMD [ARG...]
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct timespec a, b;
	int null, status;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: timeit CMD [ARG...]\n");
		return 2;
	}
	null = open("/dev/null", O_WRONLY);
	if (null < 0) {
		perror("/dev/null");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 2;
	}
	if (!pid) {
		dup2(null, 1);
		dup2(null, 2);
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0) {
		perror("waitpid");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		fprintf(stderr, "timeit: cannot run %s\n", argv[1]);
		return 2;
	}
	printf("%ld\n", (long)((b.tv_sec - a.tv_sec) * 1000000L + (b.tv_nsec - a.tv_nsec) / 1000));
	return 0;
}
