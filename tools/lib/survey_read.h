/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reads with a bound on their time, for abidep survey: some sysfs files
 * block or take long to read, and a census must not hang on one.
 */
#ifndef ABIDEP_SURVEY_READ_H
#define ABIDEP_SURVEY_READ_H

#include <stddef.h>

enum read_status {
	RD_OK,
	RD_OPEN_ERR,	/* *err: open's errno */
	RD_READ_ERR,	/* *err: read's errno */
	RD_TIMEOUT,	/* open and read together took longer than the bound */
};

struct reader;

/* NULL with errno set if the first helper thread cannot be started. */
struct reader *reader_new(unsigned int timeout_ms);

/*
 * Open @name in @dirfd read-only (O_NONBLOCK, O_NOCTTY, O_NOFOLLOW) and read
 * up to @cap bytes into @buf, within the bound. The file is never written.
 */
enum read_status reader_read(struct reader *r, int dirfd, const char *name,
			     char *buf, size_t cap, size_t *len, int *err);

/* Helper threads given up on, still stuck in the kernel. */
unsigned int reader_abandoned(const struct reader *r);

void reader_free(struct reader *r);

#endif
