// SPDX-License-Identifier: GPL-2.0
/*
 * The options the objects share (main.h): one letter for one thing, taken
 * in one place. A command names the shared options it takes and its own;
 * opts_next() gives it its own only.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi.h"
#include "main.h"
#include "text.h"
#include "util.h"

/* Every command takes -j, -p and -h; the others when it names them. */
#define OPT_ALWAYS	(1u << 31)

static const struct shared_opt {
	unsigned int bit;
	const char *letter;	/* its short form for getopt; NULL: long only */
	struct option lopt;
} shared[] = {
	{ OPT_TABLES, "t:", { "tables", required_argument, NULL, 't' } },
	{ OPT_DB, "d:", { "db", required_argument, NULL, 'd' } },
	{ OPT_OUTPUT, "o:", { "output", required_argument, NULL, 'o' } },
	{ OPT_FORMAT, NULL, { "format", required_argument, NULL, 'f' } },
	{ OPT_WIDE, "w", { "wide", no_argument, NULL, 'w' } },
	{ OPT_ALWAYS, "j", { "json", no_argument, NULL, 'j' } },
	{ OPT_ALWAYS, "p", { "pretty", no_argument, NULL, 'p' } },
	{ OPT_ALWAYS, "h", { "help", no_argument, NULL, 'h' } },
};

#define NSHARED (sizeof(shared) / sizeof(shared[0]))

static bool takes(const struct opts *o, const struct shared_opt *s)
{
	return s->bit == OPT_ALWAYS || (o->cmd->shared & s->bit);
}

void opts_start(struct opts *o, const struct cmd_opts *cmd)
{
	const struct option *l;
	size_t i, n = 0;

	memset(o, 0, sizeof(*o));
	for (l = cmd->longs; l && l->name; l++)
		n++;
	/* A programmer's error, found by the command's first run. */
	if (n + NSHARED + 1 > OPTS_MAX || strlen(cmd->shorts) + 2 * NSHARED + 1 > OPTS_MAX)
		abort();
	n = 0;
	o->cmd = cmd;
	o->done = -1;
	o->format = cfg.json ? FMT_JSON : FMT_TEXT;
	/* The command's own first: its "+" must lead. */
	strcpy(o->shortopts, cmd->shorts);
	for (l = cmd->longs; l && l->name; l++)
		o->longopts[n++] = *l;
	for (i = 0; i < NSHARED; i++) {
		if (!takes(o, &shared[i]))
			continue;
		if (shared[i].letter)
			strcat(o->shortopts, shared[i].letter);
		o->longopts[n++] = shared[i].lopt;
	}
	/*
	 * 0, not 1: glibc initialises again, so the options are taken in any
	 * position (it permutes) unless the command's own begin with "+".
	 */
	optind = 0;
}

/* Shared option @c, a letter of shared[], into @o; -1 to go on, or the exit status. */
static int shared_option(struct opts *o, int c)
{
	switch (c) {
	case 't':
		o->tables = xrealloc(o->tables, (o->ntables + 1) * sizeof(char *));
		o->tables[o->ntables++] = optarg;
		return -1;
	case 'd':
		o->dbs = xrealloc(o->dbs, (o->ndbs + 1) * sizeof(char *));
		o->dbs[o->ndbs++] = optarg;
		return -1;
	case 'o': o->out = optarg; return -1;
	case 'f': return format_parse(optarg, o->cmd->formats, &o->format) ? EXIT_USAGE : -1;
	case 'w': o->wide = true; return -1;
	case 'j': o->format = FMT_JSON; return -1;
	case 'p': o->format = FMT_JSON; cfg.pretty = true; return -1;
	case 'h': o->cmd->usage(stdout); return EXIT_OK;
	default: o->cmd->usage(stderr); return EXIT_USAGE;
	}
}

/* Is @c the letter of a shared option the command takes? */
static bool is_shared(const struct opts *o, int c)
{
	size_t i;

	for (i = 0; i < NSHARED; i++)
		if (shared[i].lopt.val == c)
			return takes(o, &shared[i]);
	return false;
}

int opts_next(struct opts *o, int argc, char **argv)
{
	int c;

	while (o->done < 0) {
		c = getopt_long(argc, argv, o->shortopts, o->longopts, NULL);
		if (c == -1) {
			cfg.json = o->format == FMT_JSON;
			return -1;
		}
		if (c != '?' && c != ':' && !is_shared(o, c))
			return c;
		o->done = shared_option(o, c);
	}
	return -1;
}

void opts_keep(struct opts *o, const char **db, char ***tables, int *ntables,
	       const char **out, enum out_format *format, bool *wide)
{
	if (db && o->ndbs)
		*db = o->dbs[o->ndbs - 1];
	if (tables) {
		*tables = o->tables;
		*ntables = o->ntables;
		o->tables = NULL;
	}
	if (out)
		*out = o->out;
	if (format)
		*format = o->format;
	if (wide)
		*wide = o->wide;
}

int opts_end(struct opts *o, int ret)
{
	free(o->tables);
	free(o->dbs);
	o->tables = o->dbs = NULL;
	return ret ? ret : o->done;
}

/* --entry NAME (check, report): entry_name_pick() found it ambiguous. */
/* How many candidates an ambiguous name's message lists. */
#define CANDIDATES_SHOWN	10

void entry_print_ambiguous(FILE *f, const struct abi_set *set, const bool *chosen,
			   const char *name)
{
	int i, n = 0, shown = 0;

	for (i = 0; i < set->nentries; i++)
		n += chosen[i];
	fputs("abidep: --entry ", f);
	text_fputs(f, name, TEXT_TERMINAL);
	fprintf(f, " names %d entries; give one's What (or a glob or a path to select several):\n",
		n);
	for (i = 0; i < set->nentries && shown < CANDIDATES_SHOWN; i++) {
		if (!chosen[i])
			continue;
		fputs("  ", f);
		text_fputs(f, set->entries[i].what[0], TEXT_TERMINAL);
		fputc('\n', f);
		shown++;
	}
	if (n > shown)
		fprintf(f, "  and %d more ('abidep tables list' lists them)\n", n - shown);
}
