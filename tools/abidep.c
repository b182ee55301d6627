// SPDX-License-Identifier: GPL-2.0
/*
 * abidep: the command for maintainers and distributions. One binary with
 * subcommands, in the manner of bpftool and git:
 *	abidep tables validate
 *	abidep -j tables list
 */
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "abidep.h"
#include "util.h"

#ifndef ABIDEP_VERSION
#define ABIDEP_VERSION "0.1"
#endif
#ifndef ABIDEP_DATADIR
#define ABIDEP_DATADIR "/usr/share/abidep"
#endif

struct abidep_opts cfg;

static bool is_dir(const char *p)
{
	struct stat st;

	return !stat(p, &st) && S_ISDIR(st.st_mode);
}

const char *abidep_default_tables(void)
{
	static char found[PATH_MAX];
	static const char *const rel[] = { "../migration-tables",
					   "../../migration-tables" };
	char exe[PATH_MAX];
	const char *env = getenv("ABIDEP_TABLES");
	ssize_t n;
	size_t i;

	if (env && *env)
		return env;
	if (found[0])
		return found;
	/* Run from a checkout (build/abidep): the checkout's tables. */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		char *dir;

		exe[n] = '\0';
		/* dirname() cuts exe in place: take it once, outside the loop. */
		dir = dirname(exe);
		for (i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
			char try[PATH_MAX + 32];

			snprintf(try, sizeof(try), "%s/%s", dir, rel[i]);
			if (is_dir(try) && realpath(try, found))
				return found;
		}
	}
	snprintf(found, sizeof(found), "%s/migration-tables", ABIDEP_DATADIR);
	return found;
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
		"Environment: ABIDEP_TABLES, the tables to use (now: %s).\n",
		abidep_default_tables());
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
		case 'V': printf("abidep %s\n", ABIDEP_VERSION); return 0;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	argc -= optind;
	argv += optind;
	if (!argc) {
		usage(stderr);
		return 2;
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
		return 0;
	}
	fprintf(stderr, "abidep: unknown object '%s' (see abidep --help)\n", argv[0]);
	return 2;
}
