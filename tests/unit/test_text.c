// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the one cleaning of untrusted names (tools/lib/text.c's
 * text_escape()) and of every printer that goes through it: the terminal's
 * text, JSON strings, HTML, CSV and Markdown cells, Prometheus labels and
 * HELP. Hostile vectors (bytes that are not UTF-8, every bidirectional
 * control, C0, DEL, C1, NUL in length-bounded input, terminal escapes, each
 * format's own characters) and ordinary UTF-8 that must pass unchanged.
 * Ends with "unit: N passed, N failed".
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "html.h"
#include "json.h"
#include "prom.h"
#include "tabular.h"
#include "text.h"
#include "util.h"

/* @s as a C string literal would write it, for a failure's message. */
static void show(const char *s, size_t len)
{
	size_t i;

	putchar('"');
	for (i = 0; i < len; i++) {
		unsigned char c = s[i];

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			printf("\\x%02x", c);
		else
			putchar(c);
	}
	putchar('"');
}

/*
 * Check that @got (malloc'd, freed here), @what made of the @inlen bytes at
 * @in, is @want; say why not.
 */
#define expect(what, in, inlen, got, want) \
	expect_at(__LINE__, what, in, inlen, got, want)

static void expect_at(int line, const char *what, const char *in, size_t inlen,
		      char *got, const char *want)
{
	int ok = !strcmp(got, want);

	check(ok, what, line);
	if (!ok) {
		printf("#   %s of ", what);
		show(in, inlen);
		printf(": got ");
		show(got, strlen(got));
		printf(", want ");
		show(want, strlen(want));
		putchar('\n');
	}
	free(got);
}

struct buf {
	char *s;
	size_t len;
};

static void emit(void *ctx, const char *s, size_t n)
{
	struct buf *b = ctx;

	b->s = xrealloc(b->s, b->len + n + 1);
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

/*
 * text_escape() of the @len bytes at @s, copied to a buffer of exactly
 * @len bytes: ASan sees a read past the bound.
 */
static char *escape(const char *s, size_t len, unsigned int flags)
{
	char *in = xmalloc(len ? len : 1);
	struct buf b = { xstrdup(""), 0 };

	memcpy(in, s, len);
	text_escape(in, len, flags, emit, &b);
	free(in);
	return b.s;
}

/* A printer's output to a FILE, as a string. */
#define CAPTURE(out, f, stmt)						\
	do {								\
		size_t len_;						\
		FILE *f = open_memstream(&(out), &len_);		\
		stmt;							\
		fclose(f);						\
	} while (0)

static char *json_of(const char *s)
{
	struct json j;
	char *out;

	CAPTURE(out, f, (json_init(&j, f, false), json_str(&j, s)));
	return out;
}

static char *html_of(const char *s)
{
	char *out;

	CAPTURE(out, f, html_esc(f, s));
	return out;
}

/* A one-column table of the row @s, printed as @fmt. */
static char *table_of(const char *s, enum out_format fmt, unsigned int flags)
{
	static struct table_col col[] = { { "c", 0 } };
	struct table *t = table_new();
	char *out;
	int l;

	col[0].flags = flags;
	l = table_layout(t, 0, 1, col);
	if (fmt != FMT_CSV)
		table_head(t, l, NULL);
	table_row(t, l)[0] = xstrdup(s);
	CAPTURE(out, f, table_print(t, f, fmt, 0));
	table_free(t);
	return out;
}

/* The CSV cell of @s, without its line end. */
static char *csv_of(const char *s)
{
	char *out = table_of(s, FMT_CSV, 0);
	size_t n = strlen(out);

	if (n >= 2 && !strcmp(out + n - 2, "\r\n"))
		out[n - 2] = '\0';
	return out;
}

/* What each output makes of a name. */
struct vec {
	const char *in;
	const char *term, *json, *html, *csv, *prom;
};

static void check_vec(const struct vec *v)
{
	size_t len = strlen(v->in);

	expect("text_clean", v->in, len, text_clean(v->in), v->term);
	expect("text_escape", v->in, len, escape(v->in, len, TEXT_TERMINAL), v->term);
	expect("json_str", v->in, len, json_of(v->in), v->json);
	expect("html_esc", v->in, len, html_of(v->in), v->html);
	expect("csv", v->in, len, csv_of(v->in), v->csv);
	expect("prom label", v->in, len, prom_escape_label(v->in), v->prom);
}

#define FFFD "\xef\xbf\xbd"

/* Bytes that are not UTF-8: \xNN, \udcNN, \xNN, U+FFFD, U+FFFD. */
static void test_bad_utf8(void)
{
	static const struct vec v[] = {
		{ "a\xff" "b", "a\\xFFb", "\"a\\udcffb\"", "a\\xFFb", "a" FFFD "b", "a" FFFD "b" },
		/* a lone continuation byte */
		{ "\x80x", "\\x80x", "\"\\udc80x\"", "\\x80x", FFFD "x", FFFD "x" },
		/* cut short at the end: two bytes of three, three of four */
		{ "ab\xe2\x82", "ab\\xE2\\x82", "\"ab\\udce2\\udc82\"", "ab\\xE2\\x82",
		  "ab" FFFD FFFD, "ab" FFFD FFFD },
		{ "\xf0\x9f\x98", "\\xF0\\x9F\\x98", "\"\\udcf0\\udc9f\\udc98\"",
		  "\\xF0\\x9F\\x98", FFFD FFFD FFFD, FFFD FFFD FFFD },
		/* cut short by the next character */
		{ "\xe2\x82z", "\\xE2\\x82z", "\"\\udce2\\udc82z\"", "\\xE2\\x82z",
		  FFFD FFFD "z", FFFD FFFD "z" },
		/* overlong '/': two, three and four bytes */
		{ "\xc0\xaf", "\\xC0\\xAF", "\"\\udcc0\\udcaf\"", "\\xC0\\xAF", FFFD FFFD, FFFD FFFD },
		{ "\xe0\x80\xaf", "\\xE0\\x80\\xAF", "\"\\udce0\\udc80\\udcaf\"",
		  "\\xE0\\x80\\xAF", FFFD FFFD FFFD, FFFD FFFD FFFD },
		{ "\xf0\x80\x80\xaf", "\\xF0\\x80\\x80\\xAF",
		  "\"\\udcf0\\udc80\\udc80\\udcaf\"", "\\xF0\\x80\\x80\\xAF",
		  FFFD FFFD FFFD FFFD, FFFD FFFD FFFD FFFD },
		/* UTF-16 surrogates U+D800 and U+DFFF */
		{ "\xed\xa0\x80", "\\xED\\xA0\\x80", "\"\\udced\\udca0\\udc80\"",
		  "\\xED\\xA0\\x80", FFFD FFFD FFFD, FFFD FFFD FFFD },
		{ "\xed\xbf\xbf", "\\xED\\xBF\\xBF", "\"\\udced\\udcbf\\udcbf\"",
		  "\\xED\\xBF\\xBF", FFFD FFFD FFFD, FFFD FFFD FFFD },
		/* past U+10FFFF: U+110000, and a lead byte that cannot start one */
		{ "\xf4\x90\x80\x80", "\\xF4\\x90\\x80\\x80",
		  "\"\\udcf4\\udc90\\udc80\\udc80\"", "\\xF4\\x90\\x80\\x80",
		  FFFD FFFD FFFD FFFD, FFFD FFFD FFFD FFFD },
		{ "\xf8\x88\x80\x80\x80", "\\xF8\\x88\\x80\\x80\\x80",
		  "\"\\udcf8\\udc88\\udc80\\udc80\\udc80\"", "\\xF8\\x88\\x80\\x80\\x80",
		  FFFD FFFD FFFD FFFD FFFD, FFFD FFFD FFFD FFFD FFFD },
		/* an invalid byte before a quote and a comma: CSV still quotes */
		{ "\xfe\",", "\\xFE\",", "\"\\udcfe\\\",\"", "\\xFE&quot;,",
		  "\"" FFFD "\"\",\"", FFFD "\\\"," },
	};
	/* The valid neighbours pass: U+D7FF, U+E000, U+10FFFF. */
	static const char *const ok[] = {
		"\xed\x9f\xbf", "\xee\x80\x80", "\xf4\x8f\xbf\xbf",
	};
	size_t i;

	current = "bad_utf8";
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		check_vec(&v[i]);
	current = "bad_utf8 edges";
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		char *want = xasprintf("\"%s\"", ok[i]);

		check_vec(&(struct vec){ ok[i], ok[i], want, ok[i], ok[i], ok[i] });
		free(want);
	}
}

/* @cp (below U+10000) as UTF-8 in @out. */
static void utf8_put(char *out, unsigned int cp)
{
	if (cp < 0x800)
		sprintf(out, "%c%c", 0xc0 | cp >> 6, 0x80 | (cp & 0x3f));
	else
		sprintf(out, "%c%c%c", 0xe0 | cp >> 12, 0x80 | ((cp >> 6) & 0x3f),
			0x80 | (cp & 0x3f));
}

/* Every bidirectional control and every C1 control: \uNNNN everywhere. */
static void test_hidden(void)
{
	static const unsigned int bidi[] = {
		0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e,
		0x2066, 0x2067, 0x2068, 0x2069,
	};
	/* Their neighbours, and the joiner emoji are made of, are shown. */
	static const unsigned int shown[] = {
		0xa0, 0x200d, 0x2029, 0x202f, 0x2065, 0x206a, 0xfeff,
	};
	const size_t nbidi = sizeof(bidi) / sizeof(bidi[0]);
	char in[16], term[32], json[32];
	unsigned int cp;
	size_t i;

	current = "hidden";
	for (i = 0; i < nbidi + 0x20; i++) {
		cp = i < nbidi ? bidi[i] : 0x80 + (i - nbidi);
		in[0] = 'x';
		utf8_put(in + 1, cp);
		strcat(in, "y");
		sprintf(term, "x\\u%04Xy", cp);
		sprintf(json, "\"x\\u%04xy\"", cp);
		check_vec(&(struct vec){ in, term, json, term, term, term });
	}
	/* An override first: CSV sees no formula in what follows it. */
	check_vec(&(struct vec){ "\xe2\x80\xae=1+1", "\\u202E=1+1", "\"\\u202e=1+1\"",
				 "\\u202E=1+1", "\\u202E=1+1", "\\u202E=1+1" });
	current = "hidden neighbours";
	for (i = 0; i < sizeof(shown) / sizeof(shown[0]); i++) {
		utf8_put(in, shown[i]);
		sprintf(json, "\"%s\"", in);
		check_vec(&(struct vec){ in, in, json, in, in, in });
	}
}

/* C0 controls and DEL: \xNN; \n \t \r or \u00NN; pictures; kept; \n only. */
static void test_controls(void)
{
	char in[4], term[16], json[16], html[16], csv[16], prom[16];
	unsigned int c;

	current = "controls";
	for (c = 1; c <= 0x7f; c = c == 0x1f ? 0x7f : c + 1) {
		sprintf(in, "%c", c);
		sprintf(term, "\\x%02X", c);
		if (c == '\n' || c == '\t' || c == '\r')
			sprintf(json, "\"\\%c\"", c == '\n' ? 'n' : c == '\t' ? 't' : 'r');
		else
			sprintf(json, "\"\\u%04x\"", c);
		sprintf(html, "&#x%x;", c == 0x7f ? 0x2421 : 0x2400 + c);
		/* CSV keeps them, quoted; a leading TAB or CR is a formula's. */
		sprintf(csv, "\"%s%c\"", c == '\t' || c == '\r' ? "'" : "", c);
		strcpy(prom, c == '\n' ? "\\n" : in);
		check_vec(&(struct vec){ in, term, json, html, csv, prom });
	}
	/* A terminal's escape sequences: colour, a window title. */
	check_vec(&(struct vec){ "\x1b[31mred\x1b[0m", "\\x1B[31mred\\x1B[0m",
				 "\"\\u001b[31mred\\u001b[0m\"",
				 "&#x241b;[31mred&#x241b;[0m",
				 "\"\x1b[31mred\x1b[0m\"", "\x1b[31mred\x1b[0m" });
	check_vec(&(struct vec){ "\x1b]0;pwn\x07", "\\x1B]0;pwn\\x07",
				 "\"\\u001b]0;pwn\\u0007\"", "&#x241b;]0;pwn&#x2407;",
				 "\"\x1b]0;pwn\x07\"", "\x1b]0;pwn\x07" });
}

/* A NUL inside length-bounded input is a control; the bound is kept. */
static void test_bounded(void)
{
	current = "bounded";
	expect("terminal", "a\0b", 3, escape("a\0b", 3, TEXT_TERMINAL), "a\\x00b");
	expect("html", "a\0b", 3, escape("a\0b", 3, ESC_CTRL_PIC | ESC_HTML), "a&#x2400;b");
	expect("json", "a\0b", 3,
	       escape("a\0b", 3, ESC_CTRL_JSON | ESC_LOWER), "a\\u0000b");
	/* A sequence cut by a NUL, and by the bound (the euro sign's third byte). */
	expect("terminal", "\xe2\0", 2, escape("\xe2\0", 2, TEXT_TERMINAL), "\\xE2\\x00");
	expect("terminal", "\xe2\x82\xac", 2,
	       escape("\xe2\x82\xac", 2, TEXT_TERMINAL), "\\xE2\\x82");
	expect("terminal", "\xe2\x82\xac", 3,
	       escape("\xe2\x82\xac", 3, TEXT_TERMINAL), "\xe2\x82\xac");
	expect("terminal", "", 0, escape("", 0, TEXT_TERMINAL), "");
	/* No flag: every kind as it is. */
	expect("no flags", "\xff\x1b\xe2\x80\xae\"<|\0", 9,
	       escape("\xff\x1b\xe2\x80\xae\"<|\0", 9, 0), "\xff\x1b\xe2\x80\xae\"<|");
	/* NULL: nothing, "". */
	expect("NULL", "", 0, text_escaped(NULL, TEXT_TERMINAL), "");
	expect("NULL", "", 0, html_of(NULL), "");
}

/* Each format's own characters, and text that needs nothing. */
static void test_specials(void)
{
	static const struct vec v[] = {
		{ "a\"b\\c<d>&'e|f,g\nh", "a\"b\\c<d>&'e|f,g\\x0Ah",
		  "\"a\\\"b\\\\c<d>&'e|f,g\\nh\"",
		  "a&quot;b\\c&lt;d&gt;&amp;&#39;e|f,g&#x240a;h",
		  "\"a\"\"b\\c<d>&'e|f,g\nh\"", "a\\\"b\\\\c<d>&'e|f,g\\nh" },
		{ "/tmp/\"><script>x</script>", "/tmp/\"><script>x</script>",
		  "\"/tmp/\\\"><script>x</script>\"",
		  "/tmp/&quot;&gt;&lt;script&gt;x&lt;/script&gt;",
		  "\"/tmp/\"\"><script>x</script>\"", "/tmp/\\\"><script>x</script>" },
		/* spreadsheet formulas */
		{ "=HYPERLINK(1)", "=HYPERLINK(1)", "\"=HYPERLINK(1)\"", "=HYPERLINK(1)",
		  "'=HYPERLINK(1)", "=HYPERLINK(1)" },
		{ "-2,3", "-2,3", "\"-2,3\"", "-2,3", "\"'-2,3\"", "-2,3" },
		/* ordinary UTF-8: é, CJK, an emoji, a family joined by U+200D, U+FFFD */
		{ "/usr/bin/caf\xc3\xa9", "/usr/bin/caf\xc3\xa9", "\"/usr/bin/caf\xc3\xa9\"",
		  "/usr/bin/caf\xc3\xa9", "/usr/bin/caf\xc3\xa9", "/usr/bin/caf\xc3\xa9" },
		{ "\xe6\x96\x87\xe5\xad\x97", "\xe6\x96\x87\xe5\xad\x97",
		  "\"\xe6\x96\x87\xe5\xad\x97\"", "\xe6\x96\x87\xe5\xad\x97",
		  "\xe6\x96\x87\xe5\xad\x97", "\xe6\x96\x87\xe5\xad\x97" },
#define FAMILY "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7"
		{ "\xf0\x9f\x98\x80" FAMILY FFFD, "\xf0\x9f\x98\x80" FAMILY FFFD,
		  "\"\xf0\x9f\x98\x80" FAMILY FFFD "\"", "\xf0\x9f\x98\x80" FAMILY FFFD,
		  "\xf0\x9f\x98\x80" FAMILY FFFD, "\xf0\x9f\x98\x80" FAMILY FFFD },
		{ "", "", "\"\"", "", "", "" },
	};
	size_t i;

	current = "specials";
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		check_vec(&v[i]);
}

/* Markdown: text escaped (the escapes' backslashes too), names as code. */
static void test_markdown(void)
{
	static const struct {
		const char *in, *text, *code;
	} v[] = {
		{ "a*b_[x](y)\x1b|", "a\\*b\\_\\[x\\](y)\\\\x1B\\|", "`a*b_[x](y)\\x1B\\|`" },
		{ "`x`", "\\`x\\`", "`` `x` ``" },
		{ " a ", " a ", "`  a  `" },
		{ "\xe2\x80\xae" "exe.txt", "\\\\u202Eexe.txt", "`\\u202Eexe.txt`" },
		{ "\xff<b>&#1;", "\\\\xFF\\<b\\>\\&\\#1;", "`\\xFF<b>&#1;`" },
		{ "caf\xc3\xa9 ~@!{}", "caf\xc3\xa9 \\~\\@\\!\\{\\}", "`caf\xc3\xa9 ~@!{}`" },
	};
	char *want, *got, *line;
	size_t i;

	current = "markdown";
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct table *t = table_new();

		table_line(t, 0, "%s", v[i].in);
		CAPTURE(got, f, table_print(t, f, FMT_MARKDOWN, 0));
		table_free(t);
		line = xasprintf("%s\n", v[i].text);
		expect("markdown text", v[i].in, strlen(v[i].in), got, line);
		free(line);
		want = xasprintf("| c |\n| --- |\n| %s |\n", v[i].code);
		expect("markdown code", v[i].in, strlen(v[i].in),
		       table_of(v[i].in, FMT_MARKDOWN, TC_LITERAL), want);
		free(want);
	}
}

/* The text table: the cell cleaned, measured as cleaned. */
static void test_text_table(void)
{
	current = "text table";
	expect("text", "x\ny\xe2\x80\xae", 7, table_of("x\ny\xe2\x80\xae", FMT_TEXT, 0),
	       "c\nx\\x0Ay\\u202E\n");
	expect("text", "\xc3\xa9t\xc3\xa9", 6, table_of("\xc3\xa9t\xc3\xa9", FMT_TEXT, TC_RIGHT),
	       "  c\n\xc3\xa9t\xc3\xa9\n");
}

/* Prometheus: a whole sample, its HELP escaped as HELP is. */
static void test_prom(void)
{
	const char *names[] = { "exe", "host" };
	const char *values[] = { "/tmp/a\"b\\c\nd\xff\xe2\x80\xae", NULL };
	struct prom *p = prom_new();
	char *got;

	current = "prometheus";
	prom_family(p, "abidep_x", "gauge", "Uses\\ of\nx \"y\"");
	prom_sample(p, names, values, 2, "1");
	CAPTURE(got, f, prom_write(p, f));
	expect("prom_write", "", 0, got,
	       "# HELP abidep_x Uses\\\\ of\\nx \"y\"\n# TYPE abidep_x gauge\n"
	       "abidep_x{exe=\"/tmp/a\\\"b\\\\c\\nd" FFFD "\\u202E\",host=\"\"} 1\n");
	prom_free(p);
}

int main(void)
{
	test_bad_utf8();
	test_hidden();
	test_controls();
	test_bounded();
	test_specials();
	test_markdown();
	test_text_table();
	test_prom();
	printf("unit: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
