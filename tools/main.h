/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ABIDEP_MAIN_H
#define ABIDEP_MAIN_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "exit.h"
#include "output.h"

/*
 * The "Exit status:" paragraph of a command's --help: @answers, what 0 and
 * 1 mean to the command ("0 no hit; 1 hits found"; NULL: done, failed), then
 * the statuses of @codes (EXB()s) in abidep(8)'s words, all separated by
 * semicolons.
 */
void abidep_exit_help(FILE *f, const char *answers, unsigned int codes);

struct abidep_opts {
	bool json;
	bool pretty;
};

extern struct abidep_opts cfg;

/* Loading the tables, abidep_load_tables() and abidep_default_tables(): tables_load.h. */

/*
 * The options objects share (common.c), one letter for one thing. Every
 * command takes -j, --json, -p, --pretty and -h, --help; these when it
 * names them:
 */
enum {
	OPT_TABLES	= 1 << 0,	/* -t, --tables PATH, repeatable */
	OPT_DB		= 1 << 1,	/* -d, --db PATH, repeatable */
	OPT_OUTPUT	= 1 << 2,	/* -o, --output FILE */
	OPT_FORMAT	= 1 << 3,	/* --format FORMAT (no letter) */
	OPT_WIDE	= 1 << 4,	/* -w, --wide */
};

/* A command's options: its own, and the shared ones it takes. */
struct cmd_opts {
	const char *shorts;		/* its own letters; "+" first: stop at an operand */
	const struct option *longs;	/* its own long options, { 0 }-ended; or NULL */
	unsigned int shared;		/* OPT_*s */
	unsigned int formats;		/* with OPT_FORMAT: the FMTB()s it takes */
	void (*usage)(FILE *f);		/* its --help; to stderr after a usage error */
};

#define OPTS_MAX 32

/* What the shared options said, as a command parses its command line. */
struct opts {
	const struct cmd_opts *cmd;
	char **tables;			/* -t PATH..., in order */
	int ntables;
	char **dbs;			/* -d PATH..., in order (merge: its inputs) */
	int ndbs;
	const char *out;		/* -o FILE */
	enum out_format format;		/* -j, -p, --format; else FMT_TEXT (or JSON after abidep -j) */
	bool wide;			/* -w */
	int done;			/* -1 to go on; else the command's exit status */
	char shortopts[OPTS_MAX];
	struct option longopts[OPTS_MAX];
};

/* Start parsing @cmd's options (again from argv[1]). */
void opts_start(struct opts *o, const struct cmd_opts *cmd);

/*
 * The command's next own option (getopt_long()'s value, with optarg), the
 * shared ones taken into @o on the way: -1 at the end (and then cfg.json
 * is whether the output is JSON), or when o->done is an exit status: --help
 * printed (EXIT_OK), or a usage error said (EXIT_USAGE).
 */
int opts_next(struct opts *o, int argc, char **argv);

/*
 * For a command that keeps the shared values in its own fields (NULL: not
 * kept): the last -d into *@db, if there is one; the -t array (its to free
 * from now on); -o, the format and -w.
 */
void opts_keep(struct opts *o, const char **db, char ***tables, int *ntables,
	       const char **out, enum out_format *format, bool *wide);

/*
 * The end of the command's options: -1 to go on, or its exit status,
 * @ret (the failure of one of its own options) before o->done. The
 * arrays not kept are freed.
 */
int opts_end(struct opts *o, int ret);

/* The objects: what main() runs for "abidep OBJECT", and its --help. */
/* An ambiguous --entry NAME's message: the candidates @chosen marks (at most 10), cleaned. */
struct abi_set;
void entry_print_ambiguous(FILE *f, const struct abi_set *set, const bool *chosen,
			   const char *name);

int cmd_tables(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_scan(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_brownout(int argc, char **argv);
int cmd_survey(int argc, char **argv);

/*
 * check.c: the usage of the entries check_select() selected in @c, from the
 * usage DB at @db (check_read_usage()); -1 with a message in @err.
 */
struct check;
int check_read_db(struct check *c, const char *db, char *err, size_t errlen);

void tables_usage(FILE *f);
void trace_usage(FILE *f);
void report_usage(FILE *f);
void scan_usage(FILE *f);
void check_usage(FILE *f);
void merge_usage(FILE *f);
void brownout_usage(FILE *f);
void survey_usage(FILE *f);

#endif
