// SPDX-License-Identifier: GPL-2.0
/*
 * The floor of a scan: every file named in LIST (NUL-separated paths, as
 * find -print0 writes them) opened and read whole, in 128 KiB read()s into
 * one buffer that is then dropped, the bytes "read to /dev/null" without
 * the cost of a write. The same system calls per file as abidep scan's
 * (open, read to the end, close) with nothing looked at. Prints
 * "FILES BYTES"; a file that cannot be opened or read is counted as not
 * read, and the exit status is 1 if there was one.
 *	readfiles LIST
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define BUF	(128 << 10)

int main(int argc, char **argv)
{
	static char buf[BUF];
	unsigned long long files = 0, bytes = 0;
	char *path = NULL;
	size_t cap = 0;
	int bad = 0;
	FILE *list;

	if (argc != 2 || !(list = fopen(argv[1], "r"))) {
		fprintf(stderr, "usage: readfiles LIST\n");
		return 2;
	}
	while (getdelim(&path, &cap, '\0', list) > 0) {
		int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
		ssize_t r;

		if (fd < 0) {
			bad = 1;
			continue;
		}
		while ((r = read(fd, buf, BUF)) > 0)
			bytes += r;
		if (r < 0)
			bad = 1;
		else
			files++;
		close(fd);
	}
	free(path);
	fclose(list);
	printf("%llu %llu\n", files, bytes);
	return bad;
}
