/* SPDX-License-Identifier: GPL-2.0 */
/* The unit tests' harness: CHECK() counts, names the failing test and line. */
#ifndef ABIDEP_TEST_CHECK_H
#define ABIDEP_TEST_CHECK_H

#include <stdio.h>

static int passed, failed;
static const char *current;

#define CHECK(cond) check((cond), #cond, __LINE__)

static inline void check(int ok, const char *what, int line)
{
	if (ok) {
		passed++;
		return;
	}
	failed++;
	printf("not ok - %s: line %d: %s\n", current, line, what);
}

#endif
