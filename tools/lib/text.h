/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text for people: strings from traced processes (executable paths, cgroup
 * and host names) made safe to show on a terminal, measured, cut to a
 * width, and lists of names capped. Used by the table printer (table.c)
 * and the commands' text output.
 */
#ifndef ABIDEP_TEXT_H
#define ABIDEP_TEXT_H

#include <stdio.h>

/*
 * How many names a capped list shows in text and Markdown: "h0000, h0001,
 * h0002 and 997 more". JSON and CSV list them all; so does --by-host.
 */
#define NAMES_SHOWN	3

/* The length of the valid UTF-8 sequence at @s, or 0. */
size_t utf8_len(const unsigned char *s);

/* @s with every invalid UTF-8 byte replaced by U+FFFD (malloc'd). */
char *utf8_fix(const char *s);

/*
 * The code point at @s when it is one a display acts on rather than shows
 * (a C1 control, a bidirectional mark, embedding, override or isolate),
 * with its length in bytes in *@len; else 0.
 */
unsigned int text_hidden(const char *s, size_t *len);

/*
 * @s safe to print on a terminal (malloc'd): control characters (C0, DEL,
 * C1, and the bidirectional overrides that reorder what is shown) and bytes
 * that are not UTF-8 written as \xNN or \uNNNN, so that an executable named
 * with a newline or an escape sequence cannot forge a line or drive the
 * terminal. NULL gives "".
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
