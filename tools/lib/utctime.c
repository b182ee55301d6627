// SPDX-License-Identifier: GPL-2.0
/* Times on the command line and in output, for report and check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "utctime.h"

int parse_utc_time(const char *s, long long *out)
{
	static const char *const fmts[] = {
		"%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M:%S",
		"%Y-%m-%d %H:%M", "%Y-%m-%d",
	};
	struct tm tm;
	char *end;
	size_t i;

	if (*s == '@') {
		*out = strtoll(s + 1, &end, 10);
		return end == s + 1 || *end ? -1 : 0;
	}
	for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		memset(&tm, 0, sizeof(tm));
		end = strptime(s, fmts[i], &tm);
		if (end && (!*end || !strcmp(end, "Z"))) {
			struct tm given = tm;

			*out = timegm(&tm);
			/* timegm() makes February 31 March 3: refuse it. */
			return tm.tm_mday == given.tm_mday && tm.tm_mon == given.tm_mon ? 0 : -1;
		}
	}
	return -1;
}

const char *iso_time(long long t, char *buf, size_t size)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm) || !strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, size, "%lld", t);
	return buf;
}
