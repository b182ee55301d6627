/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test vectors of when.c, one table run both by KUnit (abidep_test.c, in
 * the kernel build) and by the unit tests (tests/unit/test_when.c, in the
 * tools' build): the two sides of abidep parse and decide the same.
 */
#ifndef _ABIDEP_WHEN_VECTORS_H
#define _ABIDEP_WHEN_VECTORS_H

#include "when.h"

struct abidep_date_vector {
	const char *in;
	int ret;
	unsigned int y, m, d;
};

static const struct abidep_date_vector abidep_date_vectors[] = {
	{ "2010-04-08", 0, 2010, 4, 8 },
	{ "2010-04", 0, 2010, 4, 0 },
	{ "2010", 0, 2010, 0, 0 },
	{ "1970-01-01", 0, 1970, 1, 1 },
	{ "9999-12-31", 0, 9999, 12, 31 },
	{ "2024-02-29", 0, 2024, 2, 29 },
	{ "2000-02-29", 0, 2000, 2, 29 },
	{ "1900-02-28", -EINVAL },
	{ "2100-02-29", -EINVAL },
	{ "2023-02-29", -EINVAL },
	{ "2010-02-30", -EINVAL },
	{ "2010-04-31", -EINVAL },
	{ "2010-13", -EINVAL },
	{ "2010-00", -EINVAL },
	{ "2010-04-00", -EINVAL },
	{ "1969-12-31", -EINVAL },
	{ "2010-4-8", -EINVAL },
	{ "2010/04/08", -EINVAL },
	{ " 2010-04-08", -EINVAL },
	{ "2010-04-08 ", -EINVAL },
	{ "+010-04-08", -EINVAL },
	{ "April 2010", -EINVAL },
	{ "6.12", -EINVAL },
	{ "", -EINVAL },
	{ NULL, -EINVAL },
};

struct abidep_kver_vector {
	const char *in;
	int ret;		/* of abidep_parse_kver() */
	int uname_ret;		/* of abidep_parse_uname() */
	unsigned int nr, part[4], rc;
};

static const struct abidep_kver_vector abidep_kver_vectors[] = {
	{ "6.12", 0, 0, 2, { 6, 12 } },
	{ "v6.12", 0, 0, 2, { 6, 12 } },
	{ "2.6.35", 0, 0, 3, { 2, 6, 35 } },
	{ "2.6.32.5", 0, 0, 4, { 2, 6, 32, 5 } },
	{ "2.6.34-rc1", 0, 0, 3, { 2, 6, 34 }, 1 },
	{ "5.10.255", 0, 0, 3, { 5, 10, 255 } },
	{ "6.1.192", 0, 0, 3, { 6, 1, 192 } },
	{ "6.65535", 0, 0, 2, { 6, 65535 } },
	{ "6.1.0-57-amd64", -EINVAL, 0, 3, { 6, 1, 0 } },
	{ "6.12.118+deb12-amd64", -EINVAL, 0, 3, { 6, 12, 118 } },
	{ "6.13.0-rc3-amd64", -EINVAL, 0, 3, { 6, 13, 0 }, 3 },
	{ "6.65536", -EINVAL, -EINVAL },
	{ "6", -EINVAL, -EINVAL },
	{ "6.", -EINVAL, -EINVAL },
	{ ".6", -EINVAL, -EINVAL },
	{ "6..1", -EINVAL, -EINVAL },
	{ "6.1.2.3.4", -EINVAL, -EINVAL },
	{ "6.1a", -EINVAL, -EINVAL },
	{ "6.1-rc", -EINVAL, 0, 2, { 6, 1 } },
	{ "6.1-rc0", -EINVAL, -EINVAL },
	{ "V6.1", -EINVAL, -EINVAL },
	{ "vv6.1", -EINVAL, -EINVAL },
	{ "2012-04-08", -EINVAL, -EINVAL },
	{ "", -EINVAL, -EINVAL },
};

/* abidep_parse_when(): a date, a version, or both. */
struct abidep_when_vector {
	const char *in;
	int ret;
	bool has_date, has_kver;
};

static const struct abidep_when_vector abidep_when_vectors[] = {
	{ "2012-04-08", 0, true, false },
	{ "6.12", 0, false, true },
	{ "2012-04-08, 3.5", 0, true, true },
	{ "3.5,2012-04-08", 0, true, true },
	{ "2.6.34-rc1", 0, false, true },
	{ "2012-04-08, 2013-01-01", -EINVAL },
	{ "3.5, 3.6", -EINVAL },
	{ "2012-04-08,", -EINVAL },
	{ ", 3.5", -EINVAL },
	{ "soon", -EINVAL },
	{ "", -EINVAL },
};

/* A UTC time, in days since the epoch, as a date. */
struct abidep_days_vector {
	unsigned int days;
	const char *date;
};

static const struct abidep_days_vector abidep_days_vectors[] = {
	{ 0, "1970-01-01" },
	{ 59, "1970-03-01" },
	{ 10957, "2000-01-01" },
	{ 11016, "2000-02-29" },
	{ 14707, "2010-04-08" },
	{ 19782, "2024-02-29" },
	{ 20790, "2026-12-03" },
	{ 2932896, "9999-12-31" },
};

/* Due: once the whole period of the Remove-after: date has passed. */
struct abidep_due_vector {
	const char *remove_after, *today;
	bool due;
};

static const struct abidep_due_vector abidep_due_vectors[] = {
	{ "2012-04-08", "2012-04-08", false },
	{ "2012-04-08", "2012-04-09", true },
	{ "2012-04-08", "2011-12-31", false },
	{ "2012-04", "2012-04-30", false },
	{ "2012-04", "2012-05-01", true },
	{ "2012-12", "2012-12-31", false },
	{ "2012-12", "2013-01-01", true },
	{ "2027", "2027-03-01", false },
	{ "2027", "2027-12-31", false },
	{ "2027", "2028-01-01", true },
	{ "2024-02-28", "2024-02-29", true },
	{ "2024-02-28", "2024-03-01", true },
	{ "2024-02-29", "2024-03-01", true },
	{ "2023-02-28", "2023-03-01", true },
	{ "2012-12-31", "2013-01-01", true },
	{ "2012-12-31", "2012-12-31", false },
};

/* A kernel (as uname -r gives it) against a table's kernel version. */
struct abidep_kdue_vector {
	const char *kernel, *ref;
	int cmp;		/* abidep_kver_cmp(): removed when >= 0 */
	bool due;		/* abidep_kver_due(): after the series */
};

static const struct abidep_kdue_vector abidep_kdue_vectors[] = {
	{ "6.12.118+deb12-amd64", "6.12", 0, false },
	{ "6.13", "6.12", 1, true },
	{ "6.1.0-57-amd64", "6.4", -1, false },
	{ "6.12", "6.4", 1, true },
	{ "6.4", "6.4", 0, false },
	{ "6.4.2", "6.4", 0, false },
	{ "6.3.9", "6.4", -1, false },
	{ "7.0", "6.12", 1, true },
	{ "2.6.35", "2.6.34-rc1", 1, true },
	{ "2.6.34", "2.6.34-rc1", 0, false },
	{ "2.6.32.6", "2.6.32.5", 1, true },
	{ "2.6.32", "2.6.32.5", -1, false },
	{ "6.1", "6.1.200", -1, false },
};

/*
 * abidep_when_due(): a Remove-after: value on a date, with the kernel known
 * or not (NULL); due when the date's period has passed or the kernel is past
 * the version, whichever comes first.
 */
struct abidep_when_due_vector {
	const char *remove_after, *today, *kernel;
	bool due;
};

static const struct abidep_when_due_vector abidep_when_due_vectors[] = {
	{ "2027", "2027-12-31", NULL, false },
	{ "2027", "2028-01-01", NULL, true },
	{ "6.12", "2000-01-01", NULL, false },
	{ "6.12", "2000-01-01", "6.12.118+deb12-amd64", false },
	{ "6.12", "2000-01-01", "6.13", true },
	{ "2027-06, 6.12", "2027-07-01", "6.1.0-57-amd64", true },
	{ "2027-06, 6.12", "2027-06-30", "6.13", true },
	{ "2027-06, 6.12", "2027-06-30", "6.12", false },
	{ "2027-06, 6.12", "2027-06-30", NULL, false },
	{ "v2.6.34-rc1", "2030-01-01", "2.6.34", false },
	{ "v2.6.34-rc1", "2030-01-01", "2.6.35-rc1", true },
};

#endif /* _ABIDEP_WHEN_VECTORS_H */
