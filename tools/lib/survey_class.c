// SPDX-License-Identifier: GPL-2.0
/*
 * abidep survey: word counts and classes of sysfs values, and the names
 * they are grouped under. Pure functions over a buffer; the walk and the
 * reads are in survey.c and survey_read.c.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "survey_class.h"
#include "util.h"

const char *const vclass_names[VC_COUNT] = {
	[VC_ENUM] = "enum",
	[VC_LIST] = "list",
	[VC_KV] = "kv",
	[VC_TABLE] = "table",
	[VC_HEXDUMP] = "hexdump",
	[VC_TEXT] = "text",
	[VC_BINARY] = "binary",
	[VC_OTHER] = "other",
};

bool vclass_multi_value(enum vclass c)
{
	/*
	 * Text is one value that happens to hold spaces, binary one opaque
	 * value: the article lets both pass. The rest hold several values, or
	 * (enum) the current value and the choices in one file.
	 */
	return c != VC_TEXT && c != VC_BINARY;
}

/* wc's separators in the C locale: isspace() less nothing. */
static bool is_sep(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
	       c == '\r';
}

size_t count_words(const char *buf, size_t len)
{
	size_t i, words = 0;
	bool in_word = false;

	for (i = 0; i < len; i++) {
		unsigned char c = buf[i];

		if (is_sep(c)) {
			in_word = false;
		} else if (c > 0x20 && c < 0x7f) {
			if (!in_word)
				words++;
			in_word = true;
		}
		/* Anything else is neither: wc's "non-printable" bytes. */
	}
	return words;
}

/* ---- classes ---- */

struct tok {
	const char *s;
	size_t n;
};

struct line {
	size_t first, ntok;
};

struct split {
	struct tok *toks;
	struct line *lines;
	size_t ntoks, nlines;
};

/* Not text: NUL, a control byte other than whitespace, DEL, or bad UTF-8. */
static bool is_binary(const unsigned char *p, size_t len)
{
	size_t i = 0, k, more;

	while (i < len) {
		unsigned char c = p[i];

		if (c < 0x80) {
			if ((c < 0x20 && !is_sep(c)) || c == 0x7f)
				return true;
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf)
			more = 1;
		else if (c >= 0xe0 && c <= 0xef)
			more = 2;
		else if (c >= 0xf0 && c <= 0xf4)
			more = 3;
		else
			return true;
		/* A sequence cut by the one-page read is not bad data. */
		if (i + more >= len)
			return false;
		for (k = 1; k <= more; k++)
			if ((p[i + k] & 0xc0) != 0x80)
				return true;
		i += more + 1;
	}
	return false;
}

/* Lines (empty ones dropped) and their whitespace-separated tokens. */
static void split(const char *buf, size_t len, struct split *sp)
{
	size_t i = 0;

	sp->toks = xmalloc((len / 2 + 2) * sizeof(*sp->toks));
	sp->lines = xmalloc((len / 2 + 2) * sizeof(*sp->lines));
	sp->ntoks = sp->nlines = 0;
	while (i < len) {
		struct line ln = { sp->ntoks, 0 };

		while (i < len && buf[i] != '\n') {
			size_t start;

			while (i < len && buf[i] != '\n' && is_sep(buf[i]))
				i++;
			if (i >= len || buf[i] == '\n')
				break;
			start = i;
			while (i < len && !is_sep(buf[i]))
				i++;
			sp->toks[sp->ntoks].s = buf + start;
			sp->toks[sp->ntoks].n = i - start;
			sp->ntoks++;
			ln.ntok++;
		}
		if (ln.ntok)
			sp->lines[sp->nlines++] = ln;
		i++;	/* the newline */
	}
}

static bool all_of(const struct tok *t, int (*pred)(int))
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (!pred((unsigned char)t->s[i]))
			return false;
	return t->n > 0;
}

static bool is_hexbyte(const struct tok *t)
{
	return t->n == 2 && all_of(t, isxdigit);
}

/* 12, -3, 0.5, 0x1f, ff9f207a (bitmaps): a number of some base. */
static bool is_number(const struct tok *t)
{
	struct tok rest = *t;
	bool dot = false;
	size_t i;

	if (rest.n > 2 && rest.s[0] == '0' && (rest.s[1] == 'x' || rest.s[1] == 'X')) {
		rest.s += 2;
		rest.n -= 2;
		return all_of(&rest, isxdigit);
	}
	if (all_of(&rest, isxdigit))
		return true;
	if (rest.n && (rest.s[0] == '-' || rest.s[0] == '+')) {
		rest.s++;
		rest.n--;
	}
	if (!rest.n)
		return false;
	for (i = 0; i < rest.n; i++) {
		if (rest.s[i] == '.' && !dot && i)
			dot = true;
		else if (!isdigit((unsigned char)rest.s[i]))
			return false;
	}
	return true;
}

static int is_word_char(int c)
{
	return islower(c) || isdigit(c) || c == '_' || c == '-' || c == '.' ||
	       c == '+' || c == ':';
}

/* performance, rc-5, s2idle: a lower-case identifier, as lists hold. */
static bool is_ident(const struct tok *t)
{
	size_t i;

	if (!all_of(t, is_word_char) || t->s[t->n - 1] == ':')
		return false;
	for (i = 0; i < t->n; i++)
		if (isalnum((unsigned char)t->s[i]))
			return true;
	return false;	/* "--" */
}

static bool is_bracketed(const struct tok *t)
{
	return t->n >= 3 && t->s[0] == '[' && t->s[t->n - 1] == ']';
}

static bool has_eq(const struct tok *t)
{
	const char *eq = memchr(t->s, '=', t->n);

	return eq && eq != t->s;
}

/* KEY=value, or "key: value" / "Node 0 MemFree: 12 kB" (a key token
 * ending in ':' among the first three, with something after it). */
static bool is_kv_line(const struct split *sp, const struct line *ln)
{
	const struct tok *t = &sp->toks[ln->first];
	size_t i;

	if (has_eq(&t[0]))
		return true;
	for (i = 0; i < ln->ntok && i < 3; i++)
		if (t[i].n > 1 && t[i].s[t[i].n - 1] == ':' && i + 1 < ln->ntok)
			return true;
	return false;
}

/* Every line: an optional offset ("0000:" or "00000010") then at least
 * four two-digit hex bytes; eight bytes in all at least. */
static bool is_hexdump(const struct split *sp)
{
	size_t l, bytes = 0;

	for (l = 0; l < sp->nlines; l++) {
		const struct line *ln = &sp->lines[l];
		const struct tok *t = &sp->toks[ln->first];
		size_t i = 0, run = 0;

		if (ln->ntok && !is_hexbyte(&t[0]) && t[0].n > 2 &&
		    (t[0].s[t[0].n - 1] == ':' || all_of(&t[0], isxdigit)))
			i = 1;
		for (; i < ln->ntok && is_hexbyte(&t[i]); i++)
			run++;
		if (run < 4)
			return false;
		bytes += run;
	}
	return bytes >= 8;
}

static enum vclass classify_line(const struct split *sp)
{
	const struct tok *t = sp->toks;
	size_t i, brackets = 0, numbers = 0, idents = 0, eqs = 0;

	for (i = 0; i < sp->ntoks; i++) {
		struct tok bare = t[i];

		/* "0, 1": a list item keeps its comma */
		if (bare.n > 1 && bare.s[bare.n - 1] == ',')
			bare.n--;
		brackets += is_bracketed(&t[i]);
		numbers += is_number(&bare);
		idents += is_ident(&bare);
		eqs += has_eq(&t[i]);
	}
	/* Choices are words: "[overlay]" after a symbol is not an enum. */
	if (brackets && brackets + idents + numbers >= sp->ntoks)
		return VC_ENUM;
	/* a=1 b=2, or a total then per-node counts: "1184 N0=1184" */
	if (eqs && eqs + 1 >= sp->ntoks)
		return VC_KV;
	if (numbers == sp->ntoks || idents == sp->ntoks)
		return VC_LIST;
	/* Words with capitals or punctuation: "Dell Inc.", "Not affected". */
	for (i = 0; i < sp->ntoks; i++) {
		size_t k;

		for (k = 0; k < t[i].n; k++)
			if (isalpha((unsigned char)t[i].s[k]) ||
			    (unsigned char)t[i].s[k] >= 0x80)
				return VC_TEXT;
	}
	return VC_OTHER;
}

static enum vclass classify_lines(const struct split *sp)
{
	size_t l, n0, same = 0, kv = 0, single = 0;

	for (l = 0; l < sp->nlines; l++) {
		kv += is_kv_line(sp, &sp->lines[l]);
		single += sp->lines[l].ntok == 1;
	}
	if (kv == sp->nlines)
		return VC_KV;
	if (single == sp->nlines)
		return VC_LIST;
	/* The same number of columns, or the same after a header line. */
	n0 = sp->lines[sp->nlines - 1].ntok;
	for (l = 0; l < sp->nlines; l++)
		same += sp->lines[l].ntok == n0;
	if (n0 >= 2 && (same == sp->nlines ||
			(sp->nlines >= 3 && same == sp->nlines - 1 &&
			 sp->lines[0].ntok != n0)))
		return VC_TABLE;
	return VC_OTHER;
}

enum vclass classify(const char *buf, size_t len)
{
	struct split sp;
	enum vclass c;

	if (is_binary((const unsigned char *)buf, len))
		return VC_BINARY;
	split(buf, len, &sp);
	if (!sp.nlines)
		c = VC_OTHER;	/* not multi-word: callers do not ask */
	else if (is_hexdump(&sp))
		c = VC_HEXDUMP;
	else if (sp.nlines == 1)
		c = classify_line(&sp);
	else
		c = classify_lines(&sp);
	free(sp.toks);
	free(sp.lines);
	return c;
}

/* ---- names ---- */

char *attr_group_name(const char *base)
{
	size_t n = strlen(base), end = n, i, o = 0;
	char *out = xmalloc(n + 2);

	/* gpe1F, gpeA0: a trailing upper-case hex run after a lower-case letter. */
	while (end > 0 && (isdigit((unsigned char)base[end - 1]) ||
			   (base[end - 1] >= 'A' && base[end - 1] <= 'F')))
		end--;
	if (end == n || end == 0 || !islower((unsigned char)base[end - 1]))
		end = n;
	for (i = 0; i < end; i++) {
		size_t k = i;

		while (k < end && isdigit((unsigned char)base[k]))
			k++;
		/* An index: digits ending the name or a part (in0_input), not
		 * inside a word (l2cap, utf8). */
		if (k > i && (k == end || strchr("_-.:", base[k]))) {
			out[o++] = 'N';
			i = k - 1;
		} else {
			out[o++] = base[i];
		}
	}
	if (end < n)
		out[o++] = 'N';
	out[o] = '\0';
	return out;
}

/*
 * Words in a name that say it holds a duration or an amount of storage,
 * and the words that say in what unit. A name's words are its parts
 * between '_', '-' and '.'; "part" words match inside one (runtime_*),
 * "whole" ones only a whole part (age, not page).
 */
static const char *const time_part[] = {
	"timeout", "delay", "interval", "period", "latency", "duration",
	"expire", "residency", NULL
};
/* "time" whole only: runtime_usage is no time, runtime_active_time is. */
static const char *const time_whole[] = { "time", "age", "ttl", "wait", NULL };
static const char *const size_part[] = { "size", "length", NULL };
static const char *const size_whole[] = { "len", NULL };
/* Counters and ratios, not amounts: rx_length_errors, latency_factor. */
static const char *const counts[] = { "errors", "error", "count", "cnt",
	"nr", "num", "drops", "events", "factor", "ratio", "percent", "pct",
	"permil", "scale", NULL };
static const char *const units[] = {
	"s", "sec", "secs", "second", "seconds", "ms", "msec", "msecs",
	"us", "usec", "usecs", "ns", "nsec", "nsecs", "cs", "centisecs",
	"jiffies", "min", "mins", "minutes", "hours", "days", "hz",
	"b", "byte", "bytes", "kb", "kib", "kbytes", "mb", "mib", "mbytes",
	"gb", "gib", "sector", "sectors", "page", "pages", "block", "blocks",
	"bit", "bits", "kbps", "mbps", "cycles", "ticks", NULL
};

static bool word_in(const char *w, size_t n, const char *const *list, bool part)
{
	size_t i, k;

	for (i = 0; list[i]; i++) {
		size_t l = strlen(list[i]);

		if (!part) {
			if (l == n && !strncasecmp(w, list[i], n))
				return true;
			continue;
		}
		for (k = 0; k + l <= n; k++)
			if (!strncasecmp(w + k, list[i], l))
				return true;
	}
	return false;
}

/* A part that is a unit, or ends in one of the long units (_msecs,
 * dirty_expire_centisecs, read_ahead_kb, hugepagesize_kb). */
static bool is_unit(const char *w, size_t n)
{
	static const char *const tails[] = { "secs", "msec", "usec", "nsec",
		"bytes", "jiffies", NULL };
	size_t i;

	if (word_in(w, n, units, false))
		return true;
	for (i = 0; tails[i]; i++) {
		size_t l = strlen(tails[i]);

		if (n > l && !strncasecmp(w + n - l, tails[i], l))
			return true;
	}
	return false;
}

static bool is_decimal(const char *v, size_t len)
{
	size_t i = 0, digits = 0;

	while (len && is_sep(v[len - 1]))
		len--;
	while (i < len && is_sep(v[i]))
		i++;
	if (i < len && v[i] == '-')
		i++;
	for (; i < len; i++) {
		if (isdigit((unsigned char)v[i]))
			digits++;
		else if (v[i] != '.')
			return false;
	}
	return digits > 0;
}

const char *unitless_kind(const char *base, const char *value, size_t len)
{
	const char *kind = NULL, *p = base;

	if (!is_decimal(value, len))
		return NULL;
	while (*p) {
		size_t n = strcspn(p, "_-.");

		if (n) {
			if (is_unit(p, n) || word_in(p, n, counts, false))
				return NULL;
			if (!kind && (word_in(p, n, time_part, true) ||
				      word_in(p, n, time_whole, false)))
				kind = "time";
			if (!kind && (word_in(p, n, size_part, true) ||
				      word_in(p, n, size_whole, false)))
				kind = "size";
		}
		p += n;
		if (*p)
			p++;
	}
	return kind;
}
