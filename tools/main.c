// SPDX-License-Identifier: GPL-2.0
/*
 * abidep: the command for maintainers and distributions. One binary with
 * subcommands, in the manner of bpftool and git:
 *	abidep tables validate
 *	abidep -j tables list
 */
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
	[EXIT_UNREAD] = "a package file, or a file in one, could not be read (hits or not)",
	[EXIT_PROM] = "Prometheus could not be reached, timed out, answered an error or partial data",
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

/* The objects, in the order the usage text lists them. */
static const struct cmd {
	const char *name;
	int (*func)(int argc, char **argv);
	void (*help)(FILE *f);
	const char *args;	/* the usage text's, after the name */
	const char *synopsis;
} cmds[] = {
	{ "tables", cmd_tables, tables_usage, "validate|list|show|resolve|export",
	  "the migration tables" },
	{ "trace", cmd_trace, trace_usage, "[--pin|--sync|--status|--stop]",
	  "trace who uses them (BPF)" },
	{ "report", cmd_report, report_usage, "[--db PATH] [--entry PATTERN]",
	  "who used them, from the DB" },
	{ "scan", cmd_scan, scan_usage, "[ROOT]", "files that reference them" },
	{ "check", cmd_check, check_usage, "[--db PATH] [--now DATE]",
	  "which entries can be removed" },
	{ "merge", cmd_merge, merge_usage, "A.db B.db ... -o OUT.db", "merge hosts' usage DBs" },
	{ "brownout", cmd_brownout, brownout_usage, "ENTRY --for DURATION",
	  "rehearse a removal (module)" },
	{ "survey", cmd_survey, survey_usage, "[DIR]", "census of sysfs values" },
};

#define NCMDS (sizeof(cmds) / sizeof(cmds[0]))

/* The usage text's column of synopses. */
#define CMD_WIDTH 44

static void usage(FILE *f)
{
	char head[64];
	size_t i;

	fprintf(f,
		"Usage: abidep [OPTIONS] OBJECT COMMAND [ARGS]\n"
		"\n"
		"Deprecated sysfs attributes: the tables of what is deprecated, and\n"
		"who still uses it.\n"
		"\n"
		"Objects and commands:\n");
	for (i = 0; i < NCMDS; i++) {
		snprintf(head, sizeof(head), "%s %s", cmds[i].name, cmds[i].args);
		fprintf(f, "  %-*s%s\n", CMD_WIDTH, head, cmds[i].synopsis);
	}
	fprintf(f,
		"\n"
		"Options (also accepted after the command):\n"
		"  -j, --json      JSON output\n"
		"  -p, --pretty    pretty-printed JSON (implies -j)\n"
		"  -V, --version   print the version\n"
		"  -h, --help      this help; 'abidep OBJECT --help' for an object's\n"
		"\n"
		"Environment: ABIDEP_TABLES, the tables to use (now: %s).\n"
		"\n",
		abidep_default_tables());
	/* All of them: the commands' shares are in their --help. */
	abidep_exit_help(f, "0 done; 1 failed, or the command's answer is no (errors, hits, blocked)",
			 EXB(EXIT_NR) - 1);
}

static const struct cmd *cmd_find(const char *name)
{
	size_t i;

	for (i = 0; i < NCMDS; i++)
		if (!strcmp(name, cmds[i].name))
			return &cmds[i];
	fprintf(stderr, "abidep: unknown object '%s' (see abidep --help)\n", name);
	return NULL;
}

/* abidep help [OBJECT]: the usage text, or OBJECT's --help. */
static int do_help(int argc, char **argv)
{
	const struct cmd *cmd;

	if (argc > 2) {
		fprintf(stderr, "abidep: help takes one OBJECT at most (see abidep --help)\n");
		return EXIT_USAGE;
	}
	if (argc < 2) {
		usage(stdout);
		return EXIT_OK;
	}
	cmd = cmd_find(argv[1]);
	if (!cmd)
		return EXIT_USAGE;
	cmd->help(stdout);
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	static const struct cmd_opts spec = { "+V", lopts, 0, 0, usage };
	const struct cmd *cmd;
	struct opts o;

	opts_start(&o, &spec);
	/* Only -V is main's own: -j, -p and -h are every command's. */
	if (opts_next(&o, argc, argv) == 'V') {
		printf("abidep %s\n", ABIDEP_VERSION);
		return EXIT_OK;
	}
	if (o.done >= 0)
		return o.done;
	argc -= optind;
	argv += optind;
	if (!argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[0], "help"))
		return do_help(argc, argv);
	cmd = cmd_find(argv[0]);
	if (!cmd)
		return EXIT_USAGE;
	/* abidep OBJECT help, as abidep help OBJECT. */
	if (argc == 2 && !strcmp(argv[1], "help")) {
		cmd->help(stdout);
		return EXIT_OK;
	}
	return cmd->func(argc, argv);
}
