// SPDX-License-Identifier: GPL-2.0
/*
 * Text for people (text.h): what a traced process chose as its name must
 * not reach a terminal raw, and a fleet's lists must not fill it. The one
 * walk over such a name, text_escape(), serves every output: each says
 * with flags what to make of what the walk finds.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "util.h"

/*
 * The length of the valid UTF-8 sequence at @s, of at most @avail bytes,
 * and its code point in *@cp; 0 when there is none.
 */
static size_t utf8_seq(const unsigned char *s, size_t avail, unsigned int *cp)
{
	unsigned int c = s[0];
	size_t n, i;

	*cp = c;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, *cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, *cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, *cp = c & 0x07;
	else
		return 0;
	if (n > avail)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		*cp = *cp << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms, UTF-16 surrogates, past U+10FFFF. */
	if ((n == 3 && *cp < 0x800) || (n == 4 && *cp < 0x10000) ||
	    (*cp >= 0xd800 && *cp <= 0xdfff) || *cp > 0x10ffff)
		return 0;
	return n;
}

/* utf8_seq() in a NUL-terminated string: the NUL ends any sequence. */
static size_t utf8_len(const unsigned char *s)
{
	unsigned int cp;

	return utf8_seq(s, 4, &cp);
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

/* A backslash, @kind ('x', 'u') and @v in @digits hex digits: its length. */
static int hex_escape(char *out, unsigned int flags, char kind, int digits,
		      unsigned int v)
{
	/* Markdown would take the backslash for its own: it gets one too. */
	const char *bs = flags & ESC_MD ? "\\\\" : "\\";

	return sprintf(out, flags & ESC_LOWER ? "%s%c%0*x" : "%s%c%0*X",
		       bs, kind, digits, v);
}

/* The byte @c, not part of valid UTF-8, as @flags write it (0: as it is). */
static int escape_bad(char *out, unsigned int c, unsigned int flags)
{
	if (flags & ESC_BAD_HEX)
		return hex_escape(out, flags, 'x', 2, c);
	if (flags & ESC_BAD_DC)
		return hex_escape(out, flags, 'u', 4, 0xdc00 | c);
	if (flags & ESC_BAD_FFFD)
		return sprintf(out, "\xef\xbf\xbd");
	return 0;
}

/* The C0 control character or DEL @c as @flags write it (0: as it is). */
static int escape_ctrl(char *out, unsigned int c, unsigned int flags)
{
	static const char json_short[] = { ['\t'] = 't', ['\n'] = 'n', ['\r'] = 'r' };

	if (flags & ESC_CTRL_HEX)
		return hex_escape(out, flags, 'x', 2, c);
	if (flags & ESC_CTRL_JSON)
		return c < sizeof(json_short) && json_short[c] ?
		       sprintf(out, "\\%c", json_short[c]) :
		       hex_escape(out, flags, 'u', 4, c);
	/* A newline in a name must not pass for a space: its picture. */
	if (flags & ESC_CTRL_PIC)
		return sprintf(out, "&#x%x;", c == 0x7f ? 0x2421 : 0x2400 + c);
	if ((flags & ESC_LF) && c == '\n')
		return sprintf(out, "\\n");
	return 0;
}

/* The printable ASCII @c, when special to the output (0: as it is). */
static int escape_special(char *out, unsigned int c, unsigned int flags)
{
	static const char *const entity[0x80] = {
		['&'] = "&amp;", ['<'] = "&lt;", ['>'] = "&gt;",
		['"'] = "&quot;", ['\''] = "&#39;",
	};

	if ((flags & ESC_HTML) && entity[c])
		return sprintf(out, "%s", entity[c]);
	if ((flags & ESC_CSV) && c == '"')
		return sprintf(out, "\"\"");
	if (((flags & ESC_BSLASH) && c == '\\') ||
	    ((flags & ESC_DQUOTE) && c == '"') ||
	    ((flags & ESC_PIPE) && c == '|') ||
	    ((flags & ESC_MD) && strchr("\\`*_[]<>&|~#!@{}", c)))
		return sprintf(out, "\\%c", c);
	return 0;
}

/*
 * What @flags make of the character at @p, @n bytes long (0: the byte *@p
 * is not UTF-8), code point @cp, in @out: its length; 0 to keep it.
 */
static int escape_one(char *out, const unsigned char *p, size_t n,
		      unsigned int cp, unsigned int flags)
{
	if (!n)
		return escape_bad(out, *p, flags);
	if (n > 1)
		return (flags & ESC_HIDDEN) && hidden_cp(cp) ?
		       hex_escape(out, flags, 'u', 4, cp) : 0;
	if (cp < 0x20 || cp == 0x7f)
		return escape_ctrl(out, cp, flags);
	return escape_special(out, cp, flags);
}

void text_escape(const char *s, size_t len, unsigned int flags,
		 text_emit_fn *emit, void *ctx)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;
	const unsigned char *kept = p;	/* the run written as it is */
	char esc[16];			/* at most "&#x2421;" */
	unsigned int cp;
	size_t n;
	int k;

	while (p < end) {
		n = utf8_seq(p, end - p, &cp);
		k = escape_one(esc, p, n, cp, flags);
		n = n ? n : 1;
		if (k) {
			if (p > kept)
				emit(ctx, (const char *)kept, p - kept);
			emit(ctx, esc, k);
			kept = p + n;
		}
		p += n;
	}
	if (p > kept)
		emit(ctx, (const char *)kept, p - kept);
}

static void emit_file(void *ctx, const char *s, size_t n)
{
	fwrite(s, 1, n, ctx);
}

void text_fputs(FILE *f, const char *s, unsigned int flags)
{
	if (s)
		text_escape(s, strlen(s), flags, emit_file, f);
}

struct text_buf {
	char *s;
	size_t len, cap;
};

static void emit_buf(void *ctx, const char *s, size_t n)
{
	struct text_buf *b = ctx;

	if (b->len + n >= b->cap) {
		b->cap = 2 * (b->len + n) + 1;
		b->s = xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
}

char *text_escaped(const char *s, unsigned int flags)
{
	struct text_buf b = { NULL, 0, 0 };

	s = s ? s : "";
	/* Most names need no escape: one allocation. */
	b.cap = strlen(s) + 1;
	b.s = xmalloc(b.cap);
	text_escape(s, b.cap - 1, flags, emit_buf, &b);
	b.s[b.len] = '\0';
	return b.s;
}

char *text_clean(const char *s)
{
	return text_escaped(s, TEXT_TERMINAL);
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
