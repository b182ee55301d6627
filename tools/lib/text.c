// SPDX-License-Identifier: GPL-2.0
/*
 * Text for people (text.h): what a traced process chose as its name must
 * not reach a terminal raw, and a fleet's lists must not fill it.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "util.h"

size_t utf8_len(const unsigned char *s)
{
	unsigned int c = s[0], cp;
	size_t n, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms, UTF-16 surrogates, past U+10FFFF. */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

/* The code point of the valid @n-byte sequence at @s. */
static unsigned int utf8_cp(const unsigned char *s, size_t n)
{
	static const unsigned char lead[5] = { 0, 0x7f, 0x1f, 0x0f, 0x07 };
	unsigned int cp = s[0] & lead[n];
	size_t i;

	for (i = 1; i < n; i++)
		cp = cp << 6 | (s[i] & 0x3f);
	return cp;
}

char *utf8_fix(const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	char *out = xmalloc(3 * strlen((const char *)p) + 1), *q = out;
	size_t n;

	while (*p) {
		if ((n = utf8_len(p))) {
			memcpy(q, p, n);
			q += n;
			p += n;
		} else {
			memcpy(q, "\xef\xbf\xbd", 3);	/* U+FFFD */
			q += 3;
			p++;
		}
	}
	*q = '\0';
	return out;
}

/*
 * Code points a terminal acts on rather than shows: C1 controls (some
 * terminals take U+009B as CSI), and the bidirectional marks, embeddings,
 * overrides and isolates, which can show a name backwards.
 */
static bool hidden_cp(unsigned int cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || cp == 0x200e || cp == 0x200f ||
	       (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

unsigned int text_hidden(const char *s, size_t *len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = utf8_len(p);
	unsigned int cp;

	if (n < 2)
		return 0;
	cp = utf8_cp(p, n);
	if (!hidden_cp(cp))
		return 0;
	*len = n;
	return cp;
}

char *text_clean(const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	/* \uNNNN (6) for at most 2 bytes, \xNN (4) for 1: 4 per byte is enough. */
	char *out = xmalloc(4 * strlen((const char *)p) + 1), *q = out;
	size_t n;

	while (*p) {
		n = utf8_len(p);
		if (!n || *p < 0x20 || *p == 0x7f) {
			q += sprintf(q, "\\x%02X", *p++);
		} else if (n > 1 && hidden_cp(utf8_cp(p, n))) {
			q += sprintf(q, "\\u%04X", utf8_cp(p, n));
			p += n;
		} else {
			memcpy(q, p, n);
			q += n;
			p += n;
		}
	}
	*q = '\0';
	return out;
}

/* The byte offset of the @k-th code point of the cleaned @s (or its end). */
static size_t cp_offset(const char *s, int k)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;

	while (*p && k-- > 0) {
		n = utf8_len(p);
		p += n ? n : 1;
	}
	return (const char *)p - s;
}

int text_width(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	int w = 0;

	for (; *p; p++)
		w += (*p & 0xc0) != 0x80;
	return w;
}

char *text_fit(const char *s, int width)
{
	int w = text_width(s), head, tail;
	size_t h, t;

	if (w <= width)
		return xstrdup(s);
	if (width <= 3)
		return xstrndup(s, cp_offset(s, width > 0 ? width : 0));
	/* A third from the start, the rest from the end: a path's file. */
	head = (width - 3) / 3;
	tail = width - 3 - head;
	h = cp_offset(s, head);
	t = cp_offset(s, w - tail);
	return xasprintf("%.*s...%s", (int)h, s, s + t);
}

char *names_list(char *const *names, int n, int cap)
{
	size_t len = 32;
	int i, shown = cap > 0 && n > cap ? cap : n;
	char *out, *q;

	if (!n)
		return xstrdup("-");
	for (i = 0; i < shown; i++)
		len += strlen(names[i]) + 2;
	out = q = xmalloc(len);
	for (i = 0; i < shown; i++)
		q += sprintf(q, "%s%s", i ? ", " : "", names[i]);
	if (shown < n)
		sprintf(q, " and %d more", n - shown);
	return out;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char *distinct_list(char **names, int n, int cap)
{
	int i, k = 0;

	if (n > 1)
		qsort(names, n, sizeof(char *), cmp_str);
	for (i = 0; i < n; i++)
		if (!k || strcmp(names[k - 1], names[i]))
			names[k++] = names[i];
	return names_list(names, k, cap);
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return x < y ? -1 : x > y;
}

char *uids_list(unsigned int *uids, int n, int cap)
{
	char **names = xmalloc((n + 1) * sizeof(char *)), *text;
	int i, k = 0;

	if (n > 1)
		qsort(uids, n, sizeof(*uids), cmp_uint);
	for (i = 0; i < n; i++)
		if (!i || uids[i] != uids[i - 1])
			names[k++] = xasprintf("%u", uids[i]);
	text = names_list(names, k, cap);
	for (i = 0; i < k; i++)
		free(names[i]);
	free(names);
	return text;
}

void text_wrap(FILE *out, const char *s, int width)
{
	int indent = strspn(s, " "), prefix = indent, avail, cps;
	const char *body = s + indent;
	size_t cut, brk;

	while (width > 0 && text_width(body) > width - prefix) {
		avail = width - prefix < 20 ? 20 : width - prefix;
		/* The last space at or before the width, else a hard cut. */
		cut = cp_offset(body, avail);
		for (brk = cut; brk > 0 && body[brk] != ' '; brk--)
			;
		if (brk > 0)
			cut = brk;
		cps = (int)cut;
		while (cps > 0 && body[cps - 1] == ' ')
			cps--;
		fprintf(out, "%*s%.*s\n", prefix, "", cps, body);
		body += cut;
		body += strspn(body, " ");
		prefix = indent + 2;
		if (!*body)
			return;
	}
	fprintf(out, "%*s%s\n", prefix, "", body);
}
