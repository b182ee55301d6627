// SPDX-License-Identifier: GPL-2.0
/*
 * abidep: the command for maintainers and distributions. One binary with
 * subcommands, in the manner of bpftool and git:
 *	abidep tables validate
 *	abidep -j tables list
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "main.h"
#include "tables_load.h"
#include "util.h"

#ifndef ABIDEP_VERSION
#define ABIDEP_VERSION "0.1"
#endif

struct abidep_opts cfg;

/* abidep(8)'s words for each status, short enough for a --help line. */
static const char *const exit_text[EXIT_NR] = {
	[EXIT_OK] = "done",
	[EXIT_FAIL] = "failed",
	[EXIT_USAGE] = "bad usage or input",
	[EXIT_PERM] = "not privileged",
	[EXIT_NOBTF] = "no BTF in the kernel",
	[EXIT_NOBPFFS] = "no BPF file system on /sys/fs/bpf",
	[EXIT_DB] = "the usage DB cannot be opened, read or written",
	[EXIT_LOAD] = "BPF load or attach failed",
	[EXIT_PINNED] = "a tracer is pinned already, or none is",
	[EXIT_NOMOD] = "the abidep module is not loaded",
	[EXIT_ENTRY] = "unknown or ambiguous entry",
	[EXIT_BUSY] = "the entry is in a brownout already",
	[EXIT_NODATA] = "none blocked, but a due entry has no data",
	[EXIT_NOTDUE] = "none blocked or without data, but an entry is not due",
};

#define HELP_WIDTH 78

/* Is the word @s, @n bytes long, a number? */
static bool is_number(const char *s, size_t n)
{
	return n && strspn(s, "0123456789") == n;
}

/*
 * The words of @s, after *@col columns of the line, broken before
 * HELP_WIDTH; a number stays on the line of the word after it.
 */
static void put_words(FILE *f, const char *s, int *col)
{
	size_t n, need;

	for (; *s; s += n) {
		while (*s == ' ')
			s++;
		n = strcspn(s, " ");
		if (!n)
			break;
		need = n;
		if (is_number(s, n) && s[n] == ' ')
			need += 1 + strcspn(s + n + 1, " ");
		/* Room for a space before and a semicolon or full stop after. */
		if (*col && *col + 1 + (int)need + 1 > HELP_WIDTH) {
			fputc('\n', f);
			*col = 0;
		} else if (*col) {
			fputc(' ', f);
			(*col)++;
		}
		fwrite(s, 1, n, f);
		*col += n;
	}
}

void abidep_exit_help(FILE *f, const char *answers, unsigned int codes)
{
	char item[96];
	int code, col = 0;

	put_words(f, "Exit status:", &col);
	if (answers) {
		put_words(f, answers, &col);
	} else {
		snprintf(item, sizeof(item), "%d %s; %d %s", EXIT_OK, exit_text[EXIT_OK],
			 EXIT_FAIL, exit_text[EXIT_FAIL]);
		put_words(f, item, &col);
	}
	for (code = EXIT_USAGE; code < EXIT_NR; code++) {
		if (!(codes & EXB(code)))
			continue;
		fputc(';', f);
		col++;
		snprintf(item, sizeof(item), "%d %s", code, exit_text[code]);
		put_words(f, item, &col);
	}
	put_words(f, "(see abidep(8)).", &col);
	fputc('\n', f);
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: abidep [OPTIONS] OBJECT COMMAND [ARGS]\n"
		"\n"
		"Deprecated sysfs attributes: the tables of what is deprecated, and\n"
		"who still uses it.\n"
		"\n"
		"Objects and commands:\n"
		"  tables validate|list|show|resolve|export   the migration tables\n"
		"  trace [--pin|--sync|--status|--stop]        trace who uses them (BPF)\n"
		"  report [--db PATH] [--entry PATTERN]        who used them, from the DB\n"
		"  scan [ROOT]                                 files that reference them\n"
		"  check [--db PATH] [--now DATE]              which entries can be removed\n"
		"  merge A.db B.db ... -o OUT.db               merge hosts' usage DBs\n"
		"  brownout ENTRY --for DURATION               rehearse a removal (module)\n"
		"  survey [DIR]                                census of sysfs values\n"
		"\n"
		"Options (also accepted after the command):\n"
		"  -j, --json      JSON output\n"
		"  -p, --pretty    pretty-printed JSON (implies -j)\n"
		"  -V, --version   print the version\n"
		"  -h, --help      this help; 'abidep OBJECT help' for an object's\n"
		"\n"
		"Environment: ABIDEP_TABLES, the tables to use (now: %s).\n"
		"\n",
		abidep_default_tables());
	/* All of them: the commands' shares are in their --help. */
	abidep_exit_help(f, "0 done; 1 failed, or the command's answer is no (errors, hits, blocked)",
			 EXB(EXIT_NR) - 1);
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c;

	while ((c = getopt_long(argc, argv, "+jpVh", lopts, NULL)) != -1) {
		switch (c) {
		case 'j': cfg.json = true; break;
		case 'p': cfg.json = cfg.pretty = true; break;
		case 'V': printf("abidep %s\n", ABIDEP_VERSION); return EXIT_OK;
		case 'h': usage(stdout); return EXIT_OK;
		default: usage(stderr); return EXIT_USAGE;
		}
	}
	argc -= optind;
	argv += optind;
	if (!argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[0], "tables"))
		return cmd_tables(argc, argv);
	if (!strcmp(argv[0], "trace"))
		return cmd_trace(argc, argv);
	if (!strcmp(argv[0], "report"))
		return cmd_report(argc, argv);
	if (!strcmp(argv[0], "scan"))
		return cmd_scan(argc, argv);
	if (!strcmp(argv[0], "check"))
		return cmd_check(argc, argv);
	if (!strcmp(argv[0], "merge"))
		return cmd_merge(argc, argv);
	if (!strcmp(argv[0], "brownout"))
		return cmd_brownout(argc, argv);
	if (!strcmp(argv[0], "survey"))
		return cmd_survey(argc, argv);
	if (!strcmp(argv[0], "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	fprintf(stderr, "abidep: unknown object '%s' (see abidep --help)\n", argv[0]);
	return EXIT_USAGE;
}
