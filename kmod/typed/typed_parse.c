// SPDX-License-Identifier: GPL-2.0
/*
 * Parse and format the values of abidep's typed sysfs attributes. Pure text:
 * no device, lock or allocation, so tests/fuzz/fuzz_typed.c runs this very
 * file in userspace. The formats are in
 * Documentation/driver-api/typed-attributes.rst.
 */
#ifdef __KERNEL__
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/overflow.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#endif

#include "typed_parse.h"

/* sysfs hands store() what was written: one trailing newline is echo's. */
static size_t abidep_strip_newline(const char *buf, size_t len)
{
	return len && buf[len - 1] == '\n' ? len - 1 : len;
}

/* The exact bytes of @word, ignoring ASCII case; false for embedded NULs. */
static bool abidep_word_is(const char *tok, size_t len, const char *word)
{
	return strlen(word) == len && !strncasecmp(tok, word, len);
}

static int abidep_match_name(const char * const *names, unsigned int nr,
			     const char *tok, size_t len)
{
	unsigned int i;

	if (!len || len > ABIDEP_TYPED_NAME_MAX)
		return -EINVAL;
	for (i = 0; i < nr; i++)
		if (abidep_word_is(tok, len, names[i]))
			return i;
	return -EINVAL;
}

/**
 * abidep_typed_names_valid - check the value names of an enum or set
 * @names: the names, in the order they are shown.
 * @nr: how many; 1 to %ABIDEP_TYPED_NAMES_MAX.
 * @is_set: the names are a set's, where "none" is a keyword.
 *
 * Each name must be 1 to %ABIDEP_TYPED_NAME_MAX printable ASCII characters
 * without spaces or brackets, not start with '+' or '-', and differ from the
 * others ignoring case; a set's may not be "none". These bounds are what
 * keep a read within a page and every write unambiguous.
 *
 * Return: true if @names may be used.
 */
bool abidep_typed_names_valid(const char * const *names, unsigned int nr,
			      bool is_set)
{
	unsigned int i, k;

	if (!names || !nr || nr > ABIDEP_TYPED_NAMES_MAX)
		return false;
	for (i = 0; i < nr; i++) {
		const char *s = names[i];
		size_t len;

		if (!s)
			return false;
		len = strlen(s);
		if (!len || len > ABIDEP_TYPED_NAME_MAX || *s == '+' || *s == '-')
			return false;
		for (k = 0; k < len; k++)
			if (s[k] <= ' ' || s[k] > '~' || s[k] == '[' || s[k] == ']')
				return false;
		if (is_set && abidep_word_is(s, len, "none"))
			return false;
		for (k = 0; k < i; k++)
			if (abidep_word_is(s, len, names[k]))
				return false;
	}
	return true;
}
EXPORT_SYMBOL_GPL(abidep_typed_names_valid);

/**
 * abidep_parse_enum - parse a write to an enum attribute
 * @names: the values (see abidep_typed_names_valid()).
 * @nr: how many.
 * @buf: what was written.
 * @len: its length in bytes.
 * @out: set to the index of the value written, on success only.
 *
 * Exactly one name, in any case, optionally followed by one newline.
 *
 * Return: 0, or -EINVAL for anything else (empty, unknown, several names,
 * surrounding blanks).
 */
int abidep_parse_enum(const char * const *names, unsigned int nr,
		      const char *buf, size_t len, unsigned int *out)
{
	int i = abidep_match_name(names, nr, buf,
				  abidep_strip_newline(buf, len));

	if (i < 0)
		return i;
	*out = i;
	return 0;
}
EXPORT_SYMBOL_GPL(abidep_parse_enum);

static bool abidep_is_sep(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/**
 * abidep_parse_set - parse a write to a set attribute
 * @names: the values (see abidep_typed_names_valid()); bit i is name i of @names.
 * @nr: how many.
 * @cur: the current set; bits at @nr and above are dropped.
 * @buf: what was written.
 * @len: its length in bytes.
 * @out: set to the new set, on success only.
 *
 * The write is one or more tokens separated by spaces, tabs or newlines,
 * applied left to right, as rc-core's protocols file takes them: "+name"
 * adds a value, "-name" removes one, "none" empties the set. A bare "name"
 * asks for exactly the bare names of this write: the first one empties the
 * set, the others add to it ("nec rc-5" is both; rc-core would keep only
 * the last). Names match in any case.
 *
 * Return: 0, or -EINVAL with @out untouched if any token is unknown or
 * there is none.
 */
int abidep_parse_set(const char * const *names, unsigned int nr,
		     unsigned long cur, const char *buf, size_t len,
		     unsigned long *out)
{
	unsigned long set;
	bool replaced = false;
	unsigned int tokens = 0;
	size_t pos = 0;

	if (!nr || nr > ABIDEP_TYPED_NAMES_MAX)
		return -EINVAL;
	set = cur & (~0UL >> (BITS_PER_LONG - nr));
	while (pos < len) {
		const char *tok;
		size_t tlen;
		char op = 0;
		int i;

		while (pos < len && abidep_is_sep(buf[pos]))
			pos++;
		if (pos == len)
			break;
		tok = buf + pos;
		while (pos < len && !abidep_is_sep(buf[pos]))
			pos++;
		tlen = buf + pos - tok;
		tokens++;

		if (*tok == '+' || *tok == '-') {
			op = *tok++;
			tlen--;
		} else if (abidep_word_is(tok, tlen, "none")) {
			set = 0;
			replaced = true;
			continue;
		}
		i = abidep_match_name(names, nr, tok, tlen);
		if (i < 0)
			return i;
		if (op == '+') {
			set |= BIT(i);
		} else if (op == '-') {
			set &= ~BIT(i);
		} else {
			if (!replaced)
				set = 0;
			replaced = true;
			set |= BIT(i);
		}
	}
	if (!tokens)
		return -EINVAL;
	*out = set;
	return 0;
}
EXPORT_SYMBOL_GPL(abidep_parse_set);

/**
 * abidep_parse_bool - parse a write to a bool attribute
 * @buf: what was written.
 * @len: its length in bytes.
 * @out: set to the value written, on success only.
 *
 * The words kstrtobool() takes, whole, in any case: 1 y yes t true on for
 * true, 0 n no f false off for false, optionally followed by one newline.
 * kstrtobool() itself looks at one or two characters only and would take
 * "yesterday"; a typed attribute does not.
 *
 * Return: 0, or -EINVAL for anything else.
 */
int abidep_parse_bool(const char *buf, size_t len, bool *out)
{
	static const char * const words[] = {
		"0", "1", "n", "y", "no", "yes", "f", "t", "false", "true",
		"off", "on",
	};
	unsigned int i;

	len = abidep_strip_newline(buf, len);
	for (i = 0; i < ARRAY_SIZE(words); i++) {
		if (abidep_word_is(buf, len, words[i])) {
			*out = i & 1;	/* true words at odd indexes */
			return 0;
		}
	}
	return -EINVAL;
}
EXPORT_SYMBOL_GPL(abidep_parse_bool);

/**
 * abidep_parse_duration - parse a write to a duration attribute
 * @unit: the attribute's canonical unit.
 * @buf: what was written.
 * @len: its length in bytes.
 * @out: set to the duration in @unit, on success only.
 *
 * A duration as abidep_duration_parse() (kmod/duration.c) reads it, the
 * module's and the abidep command's one grammar: decimal digits, optionally
 * followed by "us", "ms", "s", "m" or "h" (no unit: @unit), optionally
 * followed by one newline. A value that is not a whole number of @unit
 * ("1500us" for milliseconds) is refused, not rounded.
 *
 * Return: 0, or -EINVAL for anything else, overflow of 64 bits included.
 */
int abidep_parse_duration(enum abidep_duration_unit unit, const char *buf,
			  size_t len, u64 *out)
{
	return abidep_duration_parse(buf, abidep_strip_newline(buf, len), unit,
				     out);
}
EXPORT_SYMBOL_GPL(abidep_parse_duration);

/**
 * abidep_parse_size - parse a write to a size attribute
 * @buf: what was written.
 * @len: its length in bytes.
 * @out: set to the size in bytes, on success only.
 *
 * Decimal digits, optionally followed by K, M or G (either case; powers of
 * 1024, as memparse() reads them), optionally followed by one newline.
 *
 * Return: 0, or -EINVAL for anything else, overflow of 64 bits included.
 */
int abidep_parse_size(const char *buf, size_t len, u64 *out)
{
	const char *suffix;
	size_t slen;
	u64 v, mul = 1;
	int ret;

	ret = abidep_parse_number(buf, abidep_strip_newline(buf, len), &v,
				  &suffix, &slen);
	if (ret)
		return ret;
	if (slen > 1)
		return -EINVAL;
	if (slen) {
		switch (*suffix) {
		case 'K':
		case 'k':
			mul = 1ULL << 10;
			break;
		case 'M':
		case 'm':
			mul = 1ULL << 20;
			break;
		case 'G':
		case 'g':
			mul = 1ULL << 30;
			break;
		default:
			return -EINVAL;
		}
	}
	if (check_mul_overflow(v, mul, &v))
		return -EINVAL;
	*out = v;
	return 0;
}
EXPORT_SYMBOL_GPL(abidep_parse_size);

/**
 * abidep_format_enum - what an enum attribute reads
 * @names: the values (see abidep_typed_names_valid()).
 * @nr: how many.
 * @cur: the index of the current value; out of range shows no brackets.
 * @buf: the page sysfs gave show().
 *
 * Every name, separated by one space, the current one in brackets, then a
 * newline: "noop deadline [cfq]\n".
 *
 * Return: the length written.
 */
int abidep_format_enum(const char * const *names, unsigned int nr,
		       unsigned int cur, char *buf)
{
	return abidep_format_set(names, nr, cur < nr ? BIT(cur) : 0, buf);
}
EXPORT_SYMBOL_GPL(abidep_format_enum);

/**
 * abidep_format_set - what a set attribute reads
 * @names: the values (see abidep_typed_names_valid()); bit i is name i of @names.
 * @nr: how many.
 * @cur: the current set.
 * @buf: the page sysfs gave show().
 *
 * Every name, separated by one space, those in @cur in brackets, then a
 * newline: "rc-5 [nec] [sony]\n", as rc-core's protocols file.
 *
 * Return: the length written.
 */
int abidep_format_set(const char * const *names, unsigned int nr,
		      unsigned long cur, char *buf)
{
	unsigned int i;
	int at = 0;

	for (i = 0; i < nr; i++)
		at += sysfs_emit_at(buf, at, cur & BIT(i) ? "%s[%s]" : "%s%s",
				    i ? " " : "", names[i]);
	return at + sysfs_emit_at(buf, at, "\n");
}
EXPORT_SYMBOL_GPL(abidep_format_set);

/**
 * abidep_format_u64 - what a bool, duration or size attribute reads
 * @val: the value, in the attribute's canonical unit (0 or 1 for a bool).
 * @buf: the page sysfs gave show().
 *
 * Return: the length written: decimal digits and a newline.
 */
int abidep_format_u64(u64 val, char *buf)
{
	return sysfs_emit_at(buf, 0, "%llu\n", val);
}
EXPORT_SYMBOL_GPL(abidep_format_u64);
