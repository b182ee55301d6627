// SPDX-License-Identifier: GPL-2.0
/*
 * The time one run of a command takes: from just before fork() to the end
 * of wait4(), its output discarded. Prints "WALL_US CPU_US" (microseconds
 * of wall time, and of user + system CPU time of the command and what it
 * waited for). A `date +%s%N` before and after would count the second
 * date's own fork, exec and dynamic loading (1 to 2 ms) against the
 * command.
 *
 * The command's exit status is checked, so that a crash cannot pass for a
 * fast run: it must exit with STATUS (-e, default 0). Otherwise (another
 * status, a signal, or it could not run) timeit says so on stderr, prints
 * nothing on stdout, and exits 3.
 *	timeit [-e STATUS] CMD [ARG...]
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct timespec a, b;
	struct rusage ru;
	int null, status, want = 0, arg = 1;
	pid_t pid;

	if (argc > 2 && !strcmp(argv[1], "-e")) {
		want = atoi(argv[2]);
		arg = 3;
	}
	if (arg >= argc) {
		fprintf(stderr, "usage: timeit [-e STATUS] CMD [ARG...]\n");
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
		execvp(argv[arg], argv + arg);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("wait4");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	if (WIFSIGNALED(status)) {
		fprintf(stderr, "timeit: %s killed by signal %d\n", argv[arg], WTERMSIG(status));
		return 3;
	}
	if (WEXITSTATUS(status) != want) {
		fprintf(stderr, "timeit: %s exited %d, not %d%s\n", argv[arg], WEXITSTATUS(status),
			want, WEXITSTATUS(status) == 127 ? " (cannot run it?)" : "");
		return 3;
	}
	printf("%ld %ld\n", (long)((b.tv_sec - a.tv_sec) * 1000000L + (b.tv_nsec - a.tv_nsec) / 1000),
	       (long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000L +
	       ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
	return 0;
}
