/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where and in which form a command's output goes: --format's names (one
 * table for every command that takes it), -o FILE written atomically, and
 * the width text is fitted to.
 */
#ifndef ABIDEP_OUTPUT_H
#define ABIDEP_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Append a format here and to format_names in output.c. */
enum out_format {
	FMT_TEXT,
	FMT_JSON,
	FMT_CSV,
	FMT_MARKDOWN,
	FMT_PROMETHEUS,
	FMT_HTML,
	FMT_DDLIST,
	FMT_COUNT
};

/* A set of formats, for format_parse(). */
#define FMTB(f)	(1u << (f))

const char *format_name(enum out_format f);

/*
 * --format @arg, one of the @allowed formats, into *@f: EXIT_OK, or
 * EXIT_USAGE with a message that names the allowed ones.
 */
int format_parse(const char *arg, unsigned int allowed, enum out_format *f);

struct output {
	FILE *f;		/* standard output, or the temporary file */
	const char *path;	/* -o FILE; NULL: standard output */
	int dirfd;		/* FILE's directory (safedir.h), -1 */
	char *base;		/* FILE's name in it */
	char *tmp;		/* .FILE.XXXXXX beside it, renamed over it at the end */
};

/*
 * Start the output to @path (NULL: standard output). A file is written to
 * a temporary file in its directory, with the mode a new file gets (0666
 * less the umask), and replaces @path only when output_close() succeeds:
 * a reader (node_exporter's textfile collector, a web server) never sees
 * half of it. The directory is reached as safedir.h's rule says (no
 * symlink that a user other than root or the caller could have placed),
 * and held open: both files are made and renamed there, a symlink at
 * @path replaced, not followed. -1 with a message in @err.
 */
int output_open(struct output *o, const char *path, char *err, size_t errlen);

/* Flush (and for a file sync and rename); -1 with a message in @err. */
int output_close(struct output *o, char *err, size_t errlen);

/* Give up a file's output: the temporary file removed, @path untouched. */
void output_abort(struct output *o);

/*
 * The width to fit text to, 0 for none: none with @wide (-w) or to a file
 * (-o); else $COLUMNS when set; else the terminal's, when standard output
 * is one; else none (a pipe or a file gets whole lines). At least 40.
 */
int output_width(const struct output *o, bool wide);

#endif
