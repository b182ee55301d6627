// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the text layer of typed attributes (kmod/typed/
 * typed_parse.c, built in userspace through kmod/typed/typed_shim.h). The first
 * byte picks the type (and a name table or unit), the next four a current
 * set, the rest is the write. Beyond "no crash, no UB", each run checks:
 *
 *  - a rejected write leaves the output untouched and returns -EINVAL;
 *  - an accepted value reads back (through the show format) as a write that
 *    parses to the same value, and the read fits the page and ends in "\n";
 *  - enum, bool, duration and size agree with an independent reference
 *    (128-bit arithmetic for the numbers, so overflow cannot hide);
 *  - a set write is a bitwise function of the current set, within the
 *    names, and applying it twice is applying it once.
 *
 * A failed check calls abort(), which libFuzzer reports with the input.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../../kmod/typed/typed_parse.h"

#define CHECK(cond)							\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: check failed: %s\n",	\
				__FILE__, __LINE__, #cond);		\
			abort();					\
		}							\
	} while (0)

static const char * const small[] = { "rc-5", "pulse-distance", "nec", "NEC2",
				       "a", "b", "sony" };
static char big_store[ABIDEP_TYPED_NAMES_MAX][ABIDEP_TYPED_NAME_MAX + 1];
static const char *big[ABIDEP_TYPED_NAMES_MAX];

/* The largest legal table: 32 names of 31 characters. */
static void init_big(void)
{
	unsigned int i;

	if (big[0])
		return;
	for (i = 0; i < ABIDEP_TYPED_NAMES_MAX; i++) {
		memset(big_store[i], 'x', ABIDEP_TYPED_NAME_MAX);
		snprintf(big_store[i], sizeof(big_store[i]), "%02u", i);
		big_store[i][2] = 'x';
		big[i] = big_store[i];
	}
	CHECK(abidep_typed_names_valid(big, ABIDEP_TYPED_NAMES_MAX, true));
}

static char *page(void)
{
	static char *p;

	if (!p)
		p = aligned_alloc(PAGE_SIZE, PAGE_SIZE);
	CHECK(p);
	memset(p, 0x5a, PAGE_SIZE);
	return p;
}

static void check_read(const char *buf, int len)
{
	CHECK(len > 0 && len < PAGE_SIZE);
	CHECK(buf[len] == '\0' && buf[len - 1] == '\n');
	CHECK(strlen(buf) == (size_t)len);
}

static size_t strip_nl(const uint8_t *w, size_t n)
{
	return n && w[n - 1] == '\n' ? n - 1 : n;
}

static void fuzz_enum(const char * const *names, unsigned int nr,
		      const uint8_t *w, size_t n)
{
	unsigned int idx = 777, again = 778, i;
	size_t l = strip_nl(w, n);
	int want = -1, ret, len;
	char *buf, *open, *close;

	for (i = 0; i < nr; i++)
		if (strlen(names[i]) == l && !strncasecmp((const char *)w, names[i], l) &&
		    !memchr(w, 0, l))
			want = i;
	ret = abidep_parse_enum(names, nr, (const char *)w, n, &idx);
	if (want < 0) {
		CHECK(ret == -EINVAL && idx == 777);
		return;
	}
	CHECK(ret == 0 && idx == (unsigned int)want);
	buf = page();
	len = abidep_format_enum(names, nr, idx, buf);
	check_read(buf, len);
	open = strchr(buf, '[');
	close = open ? strchr(open, ']') : NULL;
	CHECK(open && close && !strchr(close + 1, '['));
	CHECK(abidep_parse_enum(names, nr, open + 1, close - open - 1, &again) == 0);
	CHECK(again == idx);
}

/* The bracketed names of a set's read, as one write of bare names. */
static unsigned long reparse_set(const char * const *names, unsigned int nr,
				 unsigned long out)
{
	char *buf = page(), write[PAGE_SIZE], *p, *q;
	unsigned long again = 0xdead;
	size_t wl = 0;
	int len = abidep_format_set(names, nr, out, buf);

	check_read(buf, len);
	for (p = buf; (p = strchr(p, '[')); p = q + 1) {
		q = strchr(p, ']');
		CHECK(q);
		memcpy(write + wl, p + 1, q - p - 1);
		wl += q - p - 1;
		write[wl++] = ' ';
	}
	if (!wl) {
		memcpy(write, "none\n", 5);
		wl = 5;
	}
	CHECK(abidep_parse_set(names, nr, ~0UL, write, wl, &again) == 0);
	return again;
}

static void fuzz_set(const char * const *names, unsigned int nr,
		     unsigned long cur, const uint8_t *w, size_t n)
{
	unsigned long all = ~0UL >> (BITS_PER_LONG - nr);
	unsigned long out = 0xdead, zero = 0xdead, full = 0xdead, twice = 0xdead;
	int ret = abidep_parse_set(names, nr, cur, (const char *)w, n, &out);

	if (ret) {
		CHECK(ret == -EINVAL && out == 0xdead);
		/* Whether a write is taken does not depend on the set. */
		CHECK(abidep_parse_set(names, nr, ~cur, (const char *)w, n,
				       &zero) == -EINVAL);
		return;
	}
	CHECK((out & ~all) == 0);
	CHECK(abidep_parse_set(names, nr, 0, (const char *)w, n, &zero) == 0);
	CHECK(abidep_parse_set(names, nr, ~0UL, (const char *)w, n, &full) == 0);
	/* Each bit is kept, set or cleared, whatever the others are. */
	CHECK(out == ((cur & full) | zero));
	CHECK(abidep_parse_set(names, nr, out, (const char *)w, n, &twice) == 0);
	CHECK(twice == out);
	CHECK(reparse_set(names, nr, out) == out);
}

static void fuzz_bool(const uint8_t *w, size_t n)
{
	static const char * const t[] = { "1", "y", "yes", "t", "true", "on" };
	static const char * const f[] = { "0", "n", "no", "f", "false", "off" };
	size_t l = strip_nl(w, n);
	int want = -1, ret, len;
	bool v = true, again;
	unsigned int i;
	char *buf;

	if (!memchr(w, 0, l))
		for (i = 0; i < 6; i++) {
			if (strlen(t[i]) == l && !strncasecmp((const char *)w, t[i], l))
				want = 1;
			if (strlen(f[i]) == l && !strncasecmp((const char *)w, f[i], l))
				want = 0;
		}
	ret = abidep_parse_bool((const char *)w, n, &v);
	if (want < 0) {
		CHECK(ret == -EINVAL && v == true);
		return;
	}
	CHECK(ret == 0 && v == want);
	buf = page();
	len = abidep_format_u64(v, buf);
	check_read(buf, len);
	CHECK(len == 2 && abidep_parse_bool(buf, len, &again) == 0 && again == v);
}

/*
 * The reference for durations and sizes: digits, then a suffix, in 128-bit
 * arithmetic. Returns 1 with *val when the write must be taken.
 */
static int ref_number(const uint8_t *w, size_t n, int kind, int unit, u64 *val)
{
	/* Microseconds in us, ms, s (the canonical units), m and h. */
	static const unsigned __int128 us[] = { 1, 1000, 1000000, 60000000, 3600000000 };
	unsigned __int128 v = 0, mul = 1, div = 1;
	size_t l = strip_nl(w, n), i = 0;
	const char *s;
	size_t sl;

	if (!l || l > ABIDEP_NUMBER_LEN_MAX)
		return 0;
	for (; i < l && w[i] >= '0' && w[i] <= '9'; i++)
		v = v * 10 + (w[i] - '0');	/* 31 digits fit in 128 bits */
	/* As written, before any conversion, it must fit in 64 bits too. */
	if (!i || v > UINT64_MAX)
		return 0;
	s = (const char *)w + i;
	sl = l - i;
	if (kind == 4) {
		if (sl == 1 && *s && strchr("kK", *s))
			mul = 1 << 10;
		else if (sl == 1 && *s && strchr("mM", *s))
			mul = 1 << 20;
		else if (sl == 1 && *s && strchr("gG", *s))
			mul = 1 << 30;
		else if (sl)
			return 0;
	} else if (sl) {
		int from;

		if (sl == 2 && !memcmp(s, "us", 2))
			from = 0;
		else if (sl == 2 && !memcmp(s, "ms", 2))
			from = 1;
		else if (sl == 1 && *s == 's')
			from = 2;
		else if (sl == 1 && *s == 'm')
			from = 3;
		else if (sl == 1 && *s == 'h')
			from = 4;
		else
			return 0;
		if (us[from] >= us[unit])
			mul = us[from] / us[unit];
		else
			div = us[unit] / us[from];
	}
	v *= mul;
	if (v % div)
		return 0;
	v /= div;
	if (v > UINT64_MAX)
		return 0;
	*val = (u64)v;
	return 1;
}

static void fuzz_number(int kind, int unit, const uint8_t *w, size_t n)
{
	u64 want = 0, v = 12345, again = 54321;
	int ret, len;
	char *buf;

	if (kind == 4)
		ret = abidep_parse_size((const char *)w, n, &v);
	else
		ret = abidep_parse_duration(unit, (const char *)w, n, &v);
	if (!ref_number(w, n, kind, unit, &want)) {
		CHECK(ret == -EINVAL && v == 12345);
		return;
	}
	CHECK(ret == 0 && v == want);
	buf = page();
	len = abidep_format_u64(v, buf);
	check_read(buf, len);
	if (kind == 4)
		CHECK(abidep_parse_size(buf, len, &again) == 0);
	else
		CHECK(abidep_parse_duration(unit, buf, len, &again) == 0);
	CHECK(again == v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char * const *names;
	unsigned int nr;
	unsigned long cur;
	uint32_t c32;
	int sel;

	if (size < 5)
		return 0;
	init_big();
	sel = data[0];
	memcpy(&c32, data + 1, 4);
	cur = c32 | (unsigned long)c32 << 16 << 16;
	data += 5;
	size -= 5;
	if (sel & 0x80) {
		names = big;
		nr = ABIDEP_TYPED_NAMES_MAX;
	} else {
		names = small;
		nr = sizeof(small) / sizeof(small[0]);
	}
	CHECK(abidep_typed_names_valid(names, nr, true));

	switch (sel & 7) {
	case 0:
		fuzz_enum(names, nr, data, size);
		break;
	case 1:
	case 5:
		fuzz_set(names, nr, cur, data, size);
		break;
	case 2:
		fuzz_bool(data, size);
		break;
	case 3:
	case 6:
		fuzz_number(3, (sel >> 3) % 3, data, size);
		break;
	default:
		fuzz_number(4, 0, data, size);
		break;
	}
	return 0;
}
