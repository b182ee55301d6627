/* SPDX-License-Identifier: GPL-2.0 */
/* Times on the command line and in output: UTC, ISO 8601 (report, check). */
#ifndef ABIDEP_UTCTIME_H
#define ABIDEP_UTCTIME_H

#include <stddef.h>

/*
 * YYYY-MM-DD[THH:MM[:SS]][Z] (or a space for T), UTC; or @UNIXSECONDS.
 * 0 and the unix time in @out, or -1.
 */
int parse_utc_time(const char *s, long long *out);

/* 2024-05-01T10:00:00Z in @buf (the number if out of range); returns @buf. */
const char *iso_time(long long t, char *buf, size_t size);

#endif
