// SPDX-License-Identifier: GPL-2.0
/*
 * Tables and lines for people, tickets and spreadsheets (table.h). The
 * rows are kept as given; each format cleans or escapes them as it prints,
 * so that what a traced process chose as its name reaches no terminal,
 * ticket or spreadsheet as anything but text.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "tabular.h"
#include "text.h"
#include "util.h"

/* A cut column keeps at least this much (or all of it when narrower). */
#define MIN_FLEX	8
#define GAP		2

enum row_kind { R_HEAD, R_CELLS, R_TITLE, R_LINE, R_BLANK };

struct row {
	enum row_kind kind;
	int layout;		/* R_HEAD, R_CELLS */
	char **cells;		/* R_HEAD, R_CELLS: one per column */
	char *text;		/* R_TITLE, R_LINE */
	int indent;		/* R_LINE */
};

struct layout {
	int indent, ncols;
	const struct table_col *cols;
};

struct table {
	struct row *rows;
	int n, cap;
	struct layout *layouts;
	int nlayouts, lcap;
};

struct table *table_new(void)
{
	return xcalloc(1, sizeof(struct table));
}

void table_free(struct table *t)
{
	int i, c;

	if (!t)
		return;
	for (i = 0; i < t->n; i++) {
		struct row *r = &t->rows[i];

		if (r->cells)
			for (c = 0; c < t->layouts[r->layout].ncols; c++)
				free(r->cells[c]);
		free(r->cells);
		free(r->text);
	}
	free(t->rows);
	free(t->layouts);
	free(t);
}

int table_layout(struct table *t, int indent, int ncols, const struct table_col *cols)
{
	struct layout *l = GROW(t->layouts, t->nlayouts, t->lcap);

	l->indent = indent;
	l->ncols = ncols;
	l->cols = cols;
	return t->nlayouts - 1;
}

static struct row *add_row(struct table *t, enum row_kind kind)
{
	struct row *r = GROW(t->rows, t->n, t->cap);

	memset(r, 0, sizeof(*r));
	r->kind = kind;
	return r;
}

void table_head(struct table *t, int layout, const char *const *names)
{
	const struct layout *l = &t->layouts[layout];
	struct row *r = add_row(t, R_HEAD);
	int c;

	r->layout = layout;
	r->cells = xcalloc(l->ncols, sizeof(char *));
	for (c = 0; c < l->ncols; c++) {
		const char *name = names ? names[c] : l->cols[c].name;

		r->cells[c] = name ? xstrdup(name) : NULL;
	}
}

char **table_row(struct table *t, int layout)
{
	struct row *r = add_row(t, R_CELLS);

	r->layout = layout;
	r->cells = xcalloc(t->layouts[layout].ncols, sizeof(char *));
	return r->cells;
}

static void add_text(struct table *t, enum row_kind kind, int indent, const char *fmt,
		     va_list ap)
{
	struct row *r = add_row(t, kind);

	if (vasprintf(&r->text, fmt, ap) < 0)
		die_oom();
	r->indent = indent;
}

void table_title(struct table *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_text(t, R_TITLE, 0, fmt, ap);
	va_end(ap);
}

void table_line(struct table *t, int indent, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_text(t, R_LINE, indent, fmt, ap);
	va_end(ap);
}

void table_blank(struct table *t)
{
	add_row(t, R_BLANK);
}

/* ---- text ---- */

static bool in_text(const struct layout *l, int c)
{
	return !(l->cols[c].flags & TC_NOTEXT);
}

/*
 * Cut the columns of @l that have a flag of @flags until the rows fit
 * @width: each gets an equal share of the room left, the narrower ones
 * keeping their width and giving the rest to the others; none below
 * MIN_FLEX (the rows then stay wider than @width).
 */
static void fill_widths(const struct layout *l, int *w, int width, unsigned int flags)
{
	int c, total = l->indent - GAP, room, left = 0, share;
	bool *done = xcalloc(l->ncols, sizeof(bool)), again = true;

	for (c = 0; c < l->ncols; c++) {
		if (in_text(l, c))
			total += w[c] + GAP;
		done[c] = !in_text(l, c) || !(l->cols[c].flags & flags);
	}
	/* The room the columns to cut have, and how many share it. */
	room = width - total;
	for (c = 0; c < l->ncols; c++)
		if (!done[c]) {
			room += w[c];
			left++;
		}
	/* Columns narrower than a share keep their width, until none is. */
	while (total > width && again && left) {
		again = false;
		share = room / left;
		for (c = 0; c < l->ncols; c++)
			if (!done[c] && w[c] <= share) {
				done[c] = true;
				room -= w[c];
				left--;
				again = true;
			}
	}
	for (c = 0; total > width && c < l->ncols; c++)
		if (!done[c]) {
			share = room / left--;
			w[c] = share < MIN_FLEX ? MIN_FLEX : share;
			room -= share;
		}
	free(done);
}

/* Fit @l's rows to @width (0: as they are): TC_SHRINK columns first, then TC_FLEX. */
static void fit_widths(const struct layout *l, int *w, int width)
{
	if (!width)
		return;
	fill_widths(l, w, width, TC_SHRINK);
	fill_widths(l, w, width, TC_SHRINK | TC_FLEX);
}

/* Each layout's column widths: the widest cleaned cell, then fitted. */
static int **text_widths(const struct table *t, int width)
{
	int **w = xcalloc(t->nlayouts, sizeof(int *)), i, c, n;
	char *s;

	for (i = 0; i < t->nlayouts; i++)
		w[i] = xcalloc(t->layouts[i].ncols, sizeof(int));
	for (i = 0; i < t->n; i++) {
		const struct row *r = &t->rows[i];

		if (r->kind != R_HEAD && r->kind != R_CELLS)
			continue;
		for (c = 0; c < t->layouts[r->layout].ncols; c++) {
			if (!in_text(&t->layouts[r->layout], c))
				continue;
			s = text_clean(r->cells[c]);
			n = text_width(s);
			if (n > w[r->layout][c])
				w[r->layout][c] = n;
			free(s);
		}
	}
	for (i = 0; i < t->nlayouts; i++)
		fit_widths(&t->layouts[i], w[i], width);
	return w;
}

/* A row's cells, cleaned, cut and padded; no trailing blanks. */
static void text_cells(FILE *out, const struct layout *l, char *const *cells, const int *w)
{
	size_t len = 0, cap = l->indent + 1;
	char *line, *s, *cut;
	bool first = true;
	int c, pad;

	for (c = 0; c < l->ncols; c++)
		cap += 4 * (size_t)w[c] + GAP + 8;
	line = xmalloc(cap);
	len = sprintf(line, "%*s", l->indent, "");
	for (c = 0; c < l->ncols; c++) {
		if (!in_text(l, c))
			continue;
		if (!first)
			len += sprintf(line + len, "%*s", GAP, "");
		first = false;
		s = text_clean(cells[c]);
		cut = text_fit(s, w[c]);
		pad = w[c] - text_width(cut);
		if (l->cols[c].flags & TC_RIGHT)
			len += sprintf(line + len, "%*s%s", pad, "", cut);
		else
			len += sprintf(line + len, "%s%*s", cut, pad, "");
		free(cut);
		free(s);
	}
	while (len && line[len - 1] == ' ')
		len--;
	fprintf(out, "%.*s\n", (int)len, line);
	free(line);
}

static void print_text(const struct table *t, FILE *out, int width)
{
	int **w = text_widths(t, width), i;
	char *s, *line;

	for (i = 0; i < t->n; i++) {
		const struct row *r = &t->rows[i];

		switch (r->kind) {
		case R_HEAD:
		case R_CELLS:
			text_cells(out, &t->layouts[r->layout], r->cells, w[r->layout]);
			break;
		case R_TITLE:
		case R_LINE:
			s = text_clean(r->text);
			line = xasprintf("%*s%s", r->indent, "", s);
			text_wrap(out, line, width);
			free(line);
			free(s);
			break;
		case R_BLANK:
			fputc('\n', out);
			break;
		}
	}
	for (i = 0; i < t->nlayouts; i++)
		free(w[i]);
	free(w);
}

/* ---- Markdown ---- */

/*
 * Text outside code: characters that would start emphasis, code, a link,
 * an HTML tag or entity, strikethrough or a table cell are
 * backslash-escaped (CommonMark allows it before any ASCII punctuation);
 * so is the backslash of the terminal's escapes (\xNN), to show.
 */
static void md_text(FILE *out, const char *s)
{
	text_fputs(out, s, TEXT_TERMINAL | ESC_MD);
}

/*
 * A name or path as a code span, whatever it holds: a fence of one more
 * backtick than its longest run, spaces inside when it starts or ends with
 * a backtick or a space, '|' escaped (GFM takes \| in a cell as |, in code
 * too).
 */
static void md_code(FILE *out, const char *s)
{
	char *clean = text_escaped(s, TEXT_TERMINAL | ESC_PIPE), *p;
	int run = 0, longest = 0, len = strlen(clean), k;
	bool pad;

	if (!len) {
		free(clean);
		return;
	}
	for (p = clean; *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	/* '|' is escaped already: the fence and spaces do not depend on it. */
	pad = clean[0] == '`' || clean[len - 1] == '`' ||
	      (clean[0] == ' ' && clean[len - 1] == ' ');
	for (k = 0; k <= longest; k++)
		fputc('`', out);
	if (pad)
		fputc(' ', out);
	fputs(clean, out);
	if (pad)
		fputc(' ', out);
	for (k = 0; k <= longest; k++)
		fputc('`', out);
	free(clean);
}

/*
 * A header's or row's cells as "| a | b |"; the columns without a name in
 * the table's header (@head) are left out.
 */
static void md_cells(FILE *out, const struct layout *l, char *const *cells,
		     char *const *head, bool is_head)
{
	int c;

	for (c = 0; c < l->ncols; c++) {
		if (!head[c] || !*head[c])
			continue;
		fputs("| ", out);
		if (cells[c] && *cells[c]) {
			if (!is_head && (l->cols[c].flags & TC_LITERAL))
				md_code(out, cells[c]);
			else
				md_text(out, cells[c]);
		}
		fputc(' ', out);
	}
	fputs("|\n", out);
	if (!is_head)
		return;
	for (c = 0; c < l->ncols; c++)
		if (head[c] && *head[c])
			fputs(l->cols[c].flags & TC_RIGHT ? "| ---: " : "| --- ", out);
	fputs("|\n", out);
}

static void print_markdown(const struct table *t, FILE *out)
{
	enum { NONE, PARA, LIST, TABLE } prev = NONE;
	char *const *head = NULL;
	int i;

	for (i = 0; i < t->n; i++) {
		const struct row *r = &t->rows[i];

		switch (r->kind) {
		case R_HEAD:
			if (prev != NONE)
				fputc('\n', out);
			head = r->cells;
			md_cells(out, &t->layouts[r->layout], r->cells, head, true);
			prev = TABLE;
			break;
		case R_CELLS:
			if (head)
				md_cells(out, &t->layouts[r->layout], r->cells, head, false);
			break;
		case R_TITLE:
		case R_LINE:
			if (prev != NONE && !(r->indent && prev == LIST))
				fputc('\n', out);
			fputs(r->kind == R_TITLE ? "#### " : r->indent ? "- " : "", out);
			md_text(out, r->text);
			fputc('\n', out);
			prev = r->indent ? LIST : PARA;
			head = NULL;
			break;
		case R_BLANK:
			break;
		}
	}
}

/* ---- CSV ---- */

/*
 * A cell: bytes that are not UTF-8 as U+FFFD, C1 controls and the
 * bidirectional overrides as \uNNNN (a spreadsheet would show a name
 * backwards), quotes doubled; newlines and other controls kept, quoted.
 * What is quoted and what looks like a formula is ASCII, which the
 * cleaning keeps: @s tells.
 */
#define CSV_ESC		(ESC_BAD_FFFD | ESC_HIDDEN | ESC_CSV)

/* A cell with a quote, a comma or any control character is quoted. */
static bool csv_quoted(const char *s)
{
	for (; *s; s++)
		if (*s == '"' || *s == ',' || (unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

static void csv_cell(FILE *out, const char *s)
{
	bool quote = csv_quoted(s);
	/* Formula injection: a spreadsheet would run "=HYPERLINK(...)". */
	bool formula = *s && strchr("=+-@\t\r'", *s);

	fprintf(out, "%s%s", quote ? "\"" : "", formula ? "'" : "");
	text_fputs(out, s, CSV_ESC);
	if (quote)
		fputc('"', out);
}

static void print_csv(const struct table *t, FILE *out)
{
	bool head = false;
	int i, c;

	for (i = 0; i < t->n; i++) {
		const struct row *r = &t->rows[i];

		/* One header, the first: the rest are for the eye. */
		if ((r->kind != R_HEAD && r->kind != R_CELLS) || (r->kind == R_HEAD && head))
			continue;
		head |= r->kind == R_HEAD;
		for (c = 0; c < t->layouts[r->layout].ncols; c++) {
			if (c)
				fputc(',', out);
			csv_cell(out, r->cells[c] ? r->cells[c] : "");
		}
		fputs("\r\n", out);
	}
}

void table_print(const struct table *t, FILE *out, enum out_format f, int width)
{
	if (f == FMT_MARKDOWN)
		print_markdown(t, out);
	else if (f == FMT_CSV)
		print_csv(t, out);
	else
		print_text(t, out, width);
}
