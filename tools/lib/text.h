/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text for people: strings from traced processes (executable paths, cgroup
 * and host names) made safe to show on a terminal, measured, cut to a
 * width, and lists of names capped. Used by the table printer (tabular.c)
 * and the commands' text output; the cleaning, text_escape(), by every
 * output format.
 */
#ifndef ABIDEP_TEXT_H
#define ABIDEP_TEXT_H

#include <stddef.h>
#include <stdio.h>

/*
 * How many names a capped list shows in text and Markdown: "h0000, h0001,
 * h0002 and 997 more". JSON and CSV list them all; so does --by-host.
 */
#define NAMES_SHOWN	3

/*
 * The one cleaning of untrusted names (executables, comms, cgroups, hosts,
 * paths: what traced processes and scanned trees chose), as the kernel's
 * string_escape_mem(): text_escape() walks the name once, decoding UTF-8,
 * and each output says with these flags what becomes of each kind of
 * character. A kind with no flag is written as it is.
 *
 * A byte that is not part of valid UTF-8 (overlong, a surrogate, past
 * U+10FFFF, cut short, a stray continuation byte): at most one of
 */
#define ESC_BAD_HEX	(1u << 0)	/* \xNN */
#define ESC_BAD_FFFD	(1u << 1)	/* U+FFFD, the replacement character */
#define ESC_BAD_DC	(1u << 2)	/* \udcNN: PEP 383's surrogateescape */
/* A C0 control character or DEL: at most one of */
#define ESC_CTRL_HEX	(1u << 3)	/* \xNN */
#define ESC_CTRL_JSON	(1u << 4)	/* \n \t \r, the others \u00NN */
#define ESC_CTRL_PIC	(1u << 5)	/* its U+2400 picture as &#x24NN; */
#define ESC_LF		(1u << 6)	/* only a newline, as \n */
/*
 * A code point a display acts on rather than shows: a C1 control (some
 * terminals take U+009B as CSI), a bidirectional mark, embedding, override
 * or isolate (a name shown backwards).
 */
#define ESC_HIDDEN	(1u << 7)	/* \uNNNN */
/* The output's own characters: */
#define ESC_BSLASH	(1u << 8)	/* \ as \\ */
#define ESC_DQUOTE	(1u << 9)	/* " as \" */
#define ESC_CSV		(1u << 10)	/* " as "" */
#define ESC_HTML	(1u << 11)	/* & < > " ' as &amp; &lt; &gt; &quot; &#39; */
/*
 * Markdown's punctuation (\ ` * _ [ ] < > & | ~ # ! @ { }) with a \ before
 * it, and the escapes above too, so that Markdown shows their backslash.
 */
#define ESC_MD		(1u << 12)
#define ESC_PIPE	(1u << 13)	/* | as \| (in a Markdown table's code) */
#define ESC_LOWER	(1u << 14)	/* the escapes' hex digits in lower case */

/* What a terminal is shown: see text_clean(). */
#define TEXT_TERMINAL	(ESC_BAD_HEX | ESC_CTRL_HEX | ESC_HIDDEN)

/* Where text_escape() writes: @n bytes at @s. */
typedef void text_emit_fn(void *ctx, const char *s, size_t n);

/*
 * The @len bytes at @s (a NUL among them is a control character), cleaned
 * as @flags say, to @emit in pieces; unchanged runs in one piece.
 */
void text_escape(const char *s, size_t len, unsigned int flags,
		 text_emit_fn *emit, void *ctx);

/* The string @s (NULL: nothing) cleaned as @flags say, to @f. */
void text_fputs(FILE *f, const char *s, unsigned int flags);

/* The string @s (NULL: "") cleaned as @flags say (malloc'd). */
char *text_escaped(const char *s, unsigned int flags);

/*
 * @s safe to print on a terminal (malloc'd): control characters (C0, DEL,
 * C1, and the bidirectional overrides that reorder what is shown) and bytes
 * that are not UTF-8 written as \xNN or \uNNNN, so that an executable named
 * with a newline or an escape sequence cannot forge a line or drive the
 * terminal. NULL gives "". text_escaped(@s, TEXT_TERMINAL).
 */
char *text_clean(const char *s);

/* The width of a cleaned string on a terminal: its code points. */
int text_width(const char *s);

/*
 * A cleaned string cut to @width code points (malloc'd): its start and end
 * kept, the middle as "...", so that a path keeps its root and its file.
 */
char *text_fit(const char *s, int width);

/*
 * Up to @cap of @names, then how many more (malloc'd): "a, b, c and 5
 * more"; @cap <= 0: all of them. "-" when there are none.
 */
char *names_list(char *const *names, int n, int cap);

/* names_list() of the distinct @names (sorted in place). */
char *distinct_list(char **names, int n, int cap);

/* names_list() of the distinct @uids (sorted in place), as numbers. */
char *uids_list(unsigned int *uids, int n, int cap);

/*
 * Print the cleaned line @s to @out, wrapped at spaces to @width columns
 * (0: not wrapped), continuation lines indented 2 more than @s is.
 */
void text_wrap(FILE *out, const char *s, int width);

#endif
