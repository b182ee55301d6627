// SPDX-License-Identifier: GPL-2.0
/*
 * Durations (duration.h). Built into the module and, unchanged, into the
 * abidep command and its unit tests.
 *
 * One grammar: decimal digits, then a unit, "us", "ms", "s", "m" or "h"
 * (none: the caller's canonical unit), nothing else. It is the union of
 * what the typed attributes, the brownout control and `abidep brownout
 * --for` each took before they shared it, so that no input any of them
 * took is refused now, or read differently.
 */
#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/overflow.h>
#include <linux/string.h>
#else
#include <errno.h>
#include <string.h>
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define check_add_overflow(a, b, d)	__builtin_add_overflow(a, b, d)
#define check_mul_overflow(a, b, d)	__builtin_mul_overflow(a, b, d)
#endif

#include "duration.h"

/* Every unit a duration may be written in, the canonical ones first. */
static const struct {
	const char *name;
	u64 us;
} abidep_units[] = {
	[ABIDEP_US] = { "us", 1 },
	[ABIDEP_MS] = { "ms", 1000 },
	[ABIDEP_S] = { "s", 1000000 },
	{ "m", 60 * 1000000ULL },
	{ "h", 3600 * 1000000ULL },
};

/**
 * abidep_parse_number() - a number and the unit written after it
 * @s: the text, 1 to %ABIDEP_NUMBER_LEN_MAX bytes (no NUL needed): decimal
 *	digits, then the unit; no sign, base prefix or blank, so that a value
 *	has one spelling (leading zeros aside)
 * @len: its length
 * @num: the number, on success
 * @unit: where the unit starts in @s, on success
 * @unit_len: the unit's length (0: none), on success
 *
 * Return: 0, or -EINVAL (no digits, too long, or more than 64 bits).
 */
int abidep_parse_number(const char *s, size_t len, u64 *num,
			const char **unit, size_t *unit_len)
{
	size_t i;
	u64 v = 0;

	if (!len || len > ABIDEP_NUMBER_LEN_MAX)
		return -EINVAL;
	for (i = 0; i < len && s[i] >= '0' && s[i] <= '9'; i++)
		if (check_mul_overflow(v, (u64)10, &v) ||
		    check_add_overflow(v, (u64)(s[i] - '0'), &v))
			return -EINVAL;
	if (!i)
		return -EINVAL;
	*num = v;
	*unit = s + i;
	*unit_len = len - i;
	return 0;
}

/* The unit @s (of @len bytes) names, or -EINVAL. */
static int abidep_unit_of(const char *s, size_t len)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(abidep_units); i++)
		if (strlen(abidep_units[i].name) == len &&
		    !strncmp(s, abidep_units[i].name, len))
			return i;
	return -EINVAL;
}

/**
 * abidep_duration_parse() - parse a duration
 * @s: the text (no NUL needed, no trailing newline: that is the caller's
 *	to strip): digits, then "us", "ms", "s", "m" or "h", or no unit for
 *	@unit; "1500ms", "30s", "5m"
 * @len: its length
 * @unit: the canonical unit, the result's
 * @out: the duration in @unit, on success only
 *
 * A duration that is not a whole number of @unit ("1500us" for
 * milliseconds) is refused, not rounded. Zero is a duration: callers bound
 * the value.
 *
 * Return: 0, or -EINVAL for anything else, overflow of 64 bits included.
 */
int abidep_duration_parse(const char *s, size_t len,
			  enum abidep_duration_unit unit, u64 *out)
{
	const char *suffix;
	size_t slen;
	u64 v, from, to;
	int ret;

	if (unit > ABIDEP_S)
		return -EINVAL;
	ret = abidep_parse_number(s, len, &v, &suffix, &slen);
	if (ret)
		return ret;
	to = abidep_units[unit].us;
	from = to;
	if (slen) {
		ret = abidep_unit_of(suffix, slen);
		if (ret < 0)
			return ret;
		from = abidep_units[ret].us;
	}
	/* Each unit is a whole number of every smaller one. */
	if (from >= to) {
		if (check_mul_overflow(v, from / to, &v))
			return -EINVAL;
	} else {
		if (v % (to / from))
			return -EINVAL;
		v /= to / from;
	}
	*out = v;
	return 0;
}

/**
 * abidep_brownout_seconds() - parse the length of a brownout window
 * @s: a duration (see abidep_duration_parse()), NUL-terminated; no unit
 *	is seconds
 * @seconds: the window's length, on success only
 *
 * Return: 0 for 1 second to %ABIDEP_BROWNOUT_SECONDS_MAX, -ERANGE for a
 * well-formed duration outside them (0 included), -EINVAL for anything
 * else, whole seconds only.
 */
int abidep_brownout_seconds(const char *s, unsigned int *seconds)
{
	u64 v;

	if (abidep_duration_parse(s, strlen(s), ABIDEP_S, &v))
		return -EINVAL;
	if (!v || v > ABIDEP_BROWNOUT_SECONDS_MAX)
		return -ERANGE;
	*seconds = v;
	return 0;
}
