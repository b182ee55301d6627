/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test vectors of duration.c, one table run both by KUnit (abidep_test.c,
 * in the kernel build) and by the unit tests (tests/unit/test_duration.c,
 * in the tools' build): the module and the abidep command read a duration
 * the same.
 */
#ifndef _ABIDEP_DURATION_VECTORS_H
#define _ABIDEP_DURATION_VECTORS_H

#include "duration.h"

struct abidep_duration_vector {
	const char *in;
	size_t len;		/* of @in, if it holds a NUL; else 0 */
	enum abidep_duration_unit unit;
	int ret;
	u64 val;
};

static const struct abidep_duration_vector abidep_duration_vectors[] = {
	/* valid, and each unit */
	{ "30", 0, ABIDEP_S, 0, 30 },
	{ "30s", 0, ABIDEP_S, 0, 30 },
	{ "5m", 0, ABIDEP_S, 0, 300 },
	{ "2h", 0, ABIDEP_S, 0, 7200 },
	{ "2000ms", 0, ABIDEP_S, 0, 2 },
	{ "3000000us", 0, ABIDEP_S, 0, 3 },
	{ "1500", 0, ABIDEP_MS, 0, 1500 },
	{ "1500ms", 0, ABIDEP_MS, 0, 1500 },
	{ "2s", 0, ABIDEP_MS, 0, 2000 },
	{ "250000us", 0, ABIDEP_MS, 0, 250 },
	{ "5m", 0, ABIDEP_MS, 0, 300000 },
	{ "1h", 0, ABIDEP_MS, 0, 3600000 },
	{ "3s", 0, ABIDEP_US, 0, 3000000 },
	{ "1h", 0, ABIDEP_US, 0, 3600000000ULL },
	/* zero, and leading zeros */
	{ "0", 0, ABIDEP_S, 0, 0 },
	{ "0h", 0, ABIDEP_US, 0, 0 },
	{ "007", 0, ABIDEP_MS, 0, 7 },
	{ "0000000000000000000000000001500", 0, ABIDEP_MS, 0, 1500 },	/* 31 */
	{ "00000000000000000000000000001500", 0, ABIDEP_MS, -EINVAL },	/* 32 */
	/* not a whole number of the canonical unit: refused, not rounded */
	{ "1500us", 0, ABIDEP_MS, -EINVAL },
	{ "1500ms", 0, ABIDEP_S, -EINVAL },
	/* the 64-bit maximum, and one more */
	{ "18446744073709551615", 0, ABIDEP_US, 0, 18446744073709551615ULL },
	{ "18446744073709551615us", 0, ABIDEP_US, 0, 18446744073709551615ULL },
	{ "18446744073709551615ms", 0, ABIDEP_MS, 0, 18446744073709551615ULL },
	{ "18446744073709551000us", 0, ABIDEP_MS, 0, 18446744073709551ULL },
	{ "18446744073709551616", 0, ABIDEP_US, -EINVAL },
	{ "99999999999999999999", 0, ABIDEP_US, -EINVAL },
	/* overflows once converted */
	{ "18446744073709552s", 0, ABIDEP_MS, -EINVAL },
	{ "18446744073709552ms", 0, ABIDEP_US, -EINVAL },
	{ "5124095576h", 0, ABIDEP_US, 0, 18446744073600000000ULL },
	{ "5124095577h", 0, ABIDEP_US, -EINVAL },
	/* empty */
	{ "", 0, ABIDEP_S, -EINVAL },
	{ "s", 0, ABIDEP_S, -EINVAL },
	/* trailing junk, and other spellings */
	{ "5x", 0, ABIDEP_S, -EINVAL },
	{ "5s ", 0, ABIDEP_S, -EINVAL },
	{ "5\n", 0, ABIDEP_S, -EINVAL },	/* a newline is the caller's */
	{ "5\0s", 3, ABIDEP_S, -EINVAL },
	{ "5 s", 0, ABIDEP_S, -EINVAL },
	{ " 5", 0, ABIDEP_S, -EINVAL },
	{ "5sm", 0, ABIDEP_S, -EINVAL },
	{ "5S", 0, ABIDEP_S, -EINVAL },
	{ "5MS", 0, ABIDEP_MS, -EINVAL },
	{ "5min", 0, ABIDEP_S, -EINVAL },
	{ "5sec", 0, ABIDEP_S, -EINVAL },
	{ "5ns", 0, ABIDEP_US, -EINVAL },
	{ "5d", 0, ABIDEP_S, -EINVAL },
	{ "1.5m", 0, ABIDEP_S, -EINVAL },
	{ "1e3", 0, ABIDEP_S, -EINVAL },
	{ "-5", 0, ABIDEP_S, -EINVAL },
	{ "+5", 0, ABIDEP_S, -EINVAL },
	{ "0x10", 0, ABIDEP_S, -EINVAL },
};

struct abidep_brownout_seconds_vector {
	const char *in;
	int ret;
	unsigned int seconds;
};

static const struct abidep_brownout_seconds_vector abidep_brownout_seconds_vectors[] = {
	{ "1", 0, 1 },
	{ "30", 0, 30 },
	{ "30s", 0, 30 },
	{ "5m", 0, 300 },
	{ "2h", 0, 7200 },
	{ "1000ms", 0, 1 },
	{ "05", 0, 5 },
	/* the maximum, and one more */
	{ "86400", 0, 86400 },
	{ "24h", 0, 86400 },
	{ "1440m", 0, 86400 },
	{ "86401", -ERANGE },
	{ "86401s", -ERANGE },
	{ "1441m", -ERANGE },
	{ "25h", -ERANGE },
	{ "4294967301", -ERANGE },	/* 5 once truncated to 32 bits */
	/* zero */
	{ "0", -ERANGE },
	{ "0s", -ERANGE },
	/* malformed */
	{ "", -EINVAL },
	{ "500ms", -EINVAL },
	{ "18446744073709551616", -EINVAL },
	{ "5x", -EINVAL },
	{ "-5s", -EINVAL },
	{ "1.5m", -EINVAL },
	{ "off", -EINVAL },
};

#endif /* _ABIDEP_DURATION_VECTORS_H */
