/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one printer of check's and report's output for people and tickets: a
 * document of tables (rows under a header, in a layout of columns) and
 * lines between them, printed as
 *
 *	text	  columns aligned across the document (per layout), the long
 *		  ones (TC_FLEX, TC_SHRINK) cut in the middle ("/sys/cla...protocol") to
 *		  fit a width, lines wrapped to it; every string cleaned of
 *		  control characters (text_clean()); TC_NOTEXT columns left out
 *	markdown  GitHub-flavoured pipe tables, a new one at each header;
 *		  TC_LITERAL cells as code spans, other text with Markdown's
 *		  characters escaped; '|' escaped everywhere
 *	csv	  RFC 4180: the first header, then the rows (lines are left
 *		  out); see table_print()
 */
#ifndef ABIDEP_TABULAR_H
#define ABIDEP_TABULAR_H

#include <stdio.h>

#include "output.h"

/* Column flags. */
#define TC_RIGHT	1u	/* a number: right-aligned */
#define TC_FLEX		2u	/* may be cut to fit the width */
#define TC_SHRINK	4u	/* the same, and cut before the TC_FLEX ones */
#define TC_LITERAL	8u	/* a name or path: Markdown shows it as code */
#define TC_NOTEXT	16u	/* not in text, which a terminal's width bounds:
				 * Markdown and CSV only */

struct table_col {
	const char *name;
	unsigned int flags;
};

struct table;

struct table *table_new(void);
void table_free(struct table *t);

/* A layout of @ncols columns (@cols: kept, not copied), rows indented @indent; its id. */
int table_layout(struct table *t, int indent, int ncols, const struct table_col *cols);

/* A header row of @layout: @names (NULL: the columns' names; a NULL name: none). */
void table_head(struct table *t, int layout, const char *const *names);

/*
 * A row of @layout: its cells, to be filled with malloc'd strings the
 * table then owns (NULL: empty).
 */
char **table_row(struct table *t, int layout);

/* Lines between tables: a heading, a line (indented: a list item in Markdown), a blank line in text. */
void table_title(struct table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void table_line(struct table *t, int indent, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void table_blank(struct table *t);

/*
 * Print the document as @f (FMT_TEXT, FMT_MARKDOWN or FMT_CSV), text fitted
 * to @width (0: not fitted). CSV: lines CRLF-terminated; a cell quoted when
 * it holds a quote, a comma or a control character (CR, LF, ESC...); bytes
 * that are not UTF-8 as U+FFFD, C1 controls and bidirectional overrides as \uNNNN (text_escape()); a
 * cell that starts with = + - @ TAB CR or ' gets a ' put before it, so that
 * a spreadsheet takes it as text, not a formula (drop one leading ' to read
 * the value back).
 */
void table_print(const struct table *t, FILE *out, enum out_format f, int width);

#endif
