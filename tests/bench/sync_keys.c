// SPDX-License-Identifier: GPL-2.0
/*
 * make bench's sync part (tests/bench/sync.sh): distinct users of one
 * watched file, for the tracer's keys. For each of USERS uids from UID0
 * on, as that uid (real, effective and filesystem: the tracer keys on the
 * real one), ITERS times open(2), one read(2), close(2) of FILE: two keys
 * (open, read) per uid, in this executable's path and its cgroup. With
 * "zipf", ITERS is the total, user i (from 1) making ITERS / (i * H) of
 * them (H, the harmonic number of USERS; the remainder to user 1, each at
 * least one): a few busy users and a tail, as on a host.
 *
 * It stays root in its saved uid, so as to take the next uid: one process
 * makes every user, with no fork per uid. Prints "OPENS READS": the opens,
 * and the reads that returned data, that the tracer must have counted.
 * Exits 1, printing nothing on stdout, if any call fails.
 *	sync_keys FILE UID0 USERS ITERS [zipf]
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* User @i's (from 0) iterations, Zipf-like: @total / ((i + 1) * @h), at least 1. */
static long zipf_share(long i, double h, long total)
{
	long n = (long)(total / ((i + 1) * h));

	return n > 0 ? n : 1;
}

/* The iterations of each of @users, @total in all (the remainder to the first). */
static long *zipf_iters(long users, long total)
{
	long *n = calloc(users, sizeof(*n)), i, rest = total;
	double h = 0;

	if (!n)
		return NULL;
	for (i = 1; i <= users; i++)
		h += 1.0 / i;
	for (i = users - 1; i > 0; i--)
		rest -= n[i] = zipf_share(i, h, total);
	n[0] = rest > 0 ? rest : 1;
	return n;
}

/* One user's accesses, as @uid; adds them to @opens and @reads. */
static int user(const char *file, uid_t uid, long iters, long *opens, long *reads)
{
	char buf[4096];
	long i;

	if (setresuid(uid, uid, 0)) {
		perror("setresuid");
		return 1;
	}
	for (i = 0; i < iters; i++) {
		int fd = open(file, O_RDONLY);
		ssize_t r;

		if (fd < 0) {
			perror(file);
			return 1;
		}
		++*opens;
		r = read(fd, buf, sizeof(buf));
		if (r < 0) {
			perror(file);
			return 1;
		}
		*reads += r > 0;
		close(fd);
	}
	/* Back to root: the saved uid allows it. */
	if (setresuid(0, 0, 0)) {
		perror("setresuid back");
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	long uid0, users, iters, i, opens = 0, reads = 0, *zipf;

	if (argc < 5 || argc > 6 || (uid0 = atol(argv[2])) <= 0 ||
	    (users = atol(argv[3])) <= 0 || (iters = atol(argv[4])) <= 0 ||
	    (argc == 6 && strcmp(argv[5], "zipf"))) {
		fprintf(stderr, "usage: sync_keys FILE UID0 USERS ITERS [zipf]\n");
		return 2;
	}
	zipf = argc == 6 ? zipf_iters(users, iters) : NULL;
	if (argc == 6 && !zipf) {
		perror("sync_keys");
		return 1;
	}
	for (i = 0; i < users; i++)
		if (user(argv[1], uid0 + i, zipf ? zipf[i] : iters, &opens, &reads))
			return 1;
	free(zipf);
	printf("%ld %ld\n", opens, reads);
	return 0;
}
