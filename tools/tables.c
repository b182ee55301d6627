// SPDX-License-Identifier: GPL-2.0
/*
 * abidep tables: validate, list, show, resolve and export migration tables
 * (and plain Documentation/ABI files).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <time.h>

#include <sys/stat.h>

#include "abi.h"
#include "check_eval.h"
#include "entry.h"
#include "main.h"
#include "export.h"
#include "export_users.h"
#include "json.h"
#include "output.h"
#include "owner.h"
#include "pattern.h"
#include "scan_print.h"
#include "tables_load.h"
#include "utctime.h"
#include "util.h"

void tables_usage(FILE *f)
{
	fprintf(f,
		"Usage: abidep tables validate [--strict|--no-strict] [-q] [-t PATH]... [PATH...]\n"
		"       abidep tables list [-t PATH]... [--strict] [--status deprecated|removed]\n"
		"       abidep tables show [-t PATH]... [--strict] PATTERN\n"
		"       abidep tables resolve [-t PATH]... [--strict] [--sysfs DIR]\n"
		"       abidep tables export [-t PATH]... (--abi | --c) [-o FILE|DIR]\n"
		"       abidep tables export [-t PATH]... --abi --users [-d DB]\n"
		"                            [--scan-packages PATH]... [--cache DIR]\n"
		"                            [--root DIR] [--since DATE] [-o FILE|DIR]\n"
		"\n"
		"PATH is a table file or a directory of them (default: %s).\n"
		"validate also reads plain Documentation/ABI files; --strict (the default\n"
		"without PATH) requires every entry to be a migration entry.\n"
		"list, show and resolve read a Documentation/ABI tree as the kernel's\n"
		"get_abi.pl does: the errors it reads through (a field given twice, an\n"
		"unknown field...) are warnings; --strict makes them errors. Files with\n"
		"migration entries, and the default tables, are always read strictly.\n"
		"PATTERN is a What path, part of one, a glob, or a concrete file\n"
		"(/sys/class/rc/rc0/current_protocol finds the rcN entry).\n"
		"resolve expands What paths against DIR (default /sys) standing for /sys.\n"
		"export --abi -o DIR writes one Documentation/ABI file per table.\n"
		"export --abi --users writes each migration entry's Users: field from\n"
		"evidence, after its own text: the executables the usage DB saw using it\n"
		"(all of its history, or since --since; their packages in --root's package\n"
		"database), and the source packages, with their maintainers, whose files\n"
		"in --scan-packages' package files reference it (strong or medium; a few\n"
		"files per binary package). A first line says when and from what; an\n"
		"entry without evidence keeps its Users: as it is.\n"
		"\n"
		"  -t, --tables PATH   the tables to use; validate: as a PATH operand\n"
		"  -q, --quiet         validate: the summary only, not each diagnostic\n"
		"  -o, --output FILE   export: write FILE (or DIR) instead of standard output\n"
		"      --users         export --abi: Users: from -d and --scan-packages\n"
		"  -d, --db PATH       --users: the usage DB (one; 'abidep merge' joins hosts')\n"
		"      --scan-packages PATH  --users: .deb/.rpm files, or directories of them\n"
		"      --cache DIR     --users: the package scan's cache (as scan --cache)\n"
		"      --root DIR      --users: the executables' packages from DIR's package\n"
		"                      database (default /)\n"
		"      --since DATE    --users: the DB's uses since DATE (YYYY-MM-DD, UTC)\n"
		"  -j, --json, -p, --pretty, -h, --help\n"
		"\n",
		abidep_default_tables());
	abidep_exit_help(f, "0 done; 1 validate found errors, or show matched nothing",
			 EXB(EXIT_USAGE) | EXB(EXIT_DB) | EXB(EXIT_UNREAD));
}

static int count_what(const struct abi_set *set)
{
	int i, n = 0;

	for (i = 0; i < set->nentries; i++)
		n += set->entries[i].nwhat;
	return n;
}

/* validate -j: the counts, then each diagnostic. */
static void validate_json(struct abi_set *set)
{
	struct json j;
	int i;

	json_init(&j, stdout, cfg.pretty);
	json_obj_start(&j);
	json_kint(&j, "files", set->nfiles);
	json_kint(&j, "entries", set->nentries);
	json_kint(&j, "what", count_what(set));
	json_kint(&j, "errors", set->errors);
	json_kint(&j, "warnings", set->warnings);
	abidep_sort_diags(set);
	json_key(&j, "diagnostics");
	json_arr_start(&j);
	for (i = 0; i < set->ndiags; i++) {
		json_obj_start(&j);
		json_kstr(&j, "file", set->diags[i].file);
		json_kint(&j, "line", set->diags[i].line);
		json_kstr(&j, "severity", set->diags[i].error ? "error" : "warning");
		json_kstr(&j, "message", set->diags[i].msg);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_kstrs(&j, "unparsed", set->unparsed, set->nunparsed);
	abidep_json_ignores(&j, "enumerators", set->enumerators, set->nenumerators);
	json_obj_end(&j);
	json_end(&j);
}

static int do_validate(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "strict", no_argument, NULL, 's' },
		{ "no-strict", no_argument, NULL, 'n' },
		{ "quiet", no_argument, NULL, 'q' },
		{ 0 }
	};
	/* -t as every command takes it: one more PATH. */
	static const struct cmd_opts spec = { "q", lopts, OPT_TABLES, 0, tables_usage };
	int strict = -1, quiet = 0, ntables, c, i, ret = 0;
	struct abi_set set;
	struct opts o;

	opts_start(&o, &spec);
	while ((c = opts_next(&o, argc, argv)) != -1) {
		switch (c) {
		case 's': strict = 1; break;
		case 'n': strict = 0; break;
		case 'q': quiet = 1; break;
		}
	}
	if (o.done >= 0)
		return opts_end(&o, EXIT_OK);
	ntables = o.ntables;
	if (strict < 0)
		strict = optind == argc && !ntables;
	abi_set_init(&set);
	set.skip_text = true;
	set.no_index = true;
	if (optind == argc && !ntables)
		ret |= abi_load_path(&set, abidep_default_tables());
	for (i = 0; i < ntables; i++)
		ret |= abi_load_path(&set, o.tables[i]);
	for (i = optind; i < argc; i++)
		ret |= abi_load_path(&set, argv[i]);
	opts_end(&o, EXIT_OK);
	abi_check(&set, strict);

	if (cfg.json) {
		validate_json(&set);
	} else {
		if (!quiet)
			abidep_print_diags(&set, stderr);
		printf("%d files, %d entries, %d What lines: %d errors, %d warnings\n",
		       set.nfiles, set.nentries, count_what(&set), set.errors,
		       set.warnings);
		for (i = 0; i < set.nunparsed; i++)
			printf("not an ABI file (no What: line): %s\n", set.unparsed[i]);
		if (set.nenumerators)
			printf("%d known enumerator%s (%s files)\n", set.nenumerators,
			       set.nenumerators == 1 ? "" : "s", ABI_ENUMERATORS);
	}
	ret = set.errors ? EXIT_FAIL : EXIT_OK;
	abi_set_free(&set);
	return ret;
}

static const char *when_text(const struct abi_entry *e, int f)
{
	return e->field[f] ? e->field[f] : "-";
}

static void json_entry(struct json *j, const struct abi_entry *e)
{
	json_obj_start(j);
	json_kstr(j, "file", e->file);
	json_kint(j, "line", e->line);
	abidep_json_migration(j, e);
	json_kstr(j, "date", e->field[ABI_DATE]);
	json_kstr(j, "kernel_version", e->field[ABI_KERNELVERSION]);
	json_kstr(j, "contact", e->field[ABI_CONTACT]);
	json_kstr(j, "source", e->field[ABI_SOURCE]);
	abidep_json_ignores(j, "ignore", e->ignore, e->nignore);
	json_kstr(j, "description", e->field[ABI_DESCRIPTION]);
	json_obj_end(j);
}

/* -t PATH options shared by list, show, resolve and export. */
struct table_args {
	char **paths;
	int npaths;
	bool strict;		/* --strict: every error is fatal */
	const char *status;
	const char *sysfs;
	const char *output;
	int format;		/* 'a' (--abi) or 'c' (--c) */
	/* export --users, and where its evidence comes from: */
	bool users;
	const char *first;	/* the first of these options given, or NULL */
	const char *db;		/* -d */
	char **pkg_paths;	/* --scan-packages PATH... */
	int npkg_paths;
	const char *cache_dir;	/* --cache DIR */
	const char *root;	/* --root DIR: the executables' packages */
	long long since;	/* --since DATE; 0: all of the DB's history */
};

static void table_args_free(struct table_args *a)
{
	free(a->paths);
	free(a->pkg_paths);
}

/* One of export --users' own options (getopt's @c) into @a; an exit status. */
static int users_option(int c, struct table_args *a)
{
	static const char *const names[] = {
		['u'] = "--users", ['P'] = "--scan-packages", ['C'] = "--cache",
		['r'] = "--root", ['N'] = "--since",
	};

	if (!a->first)
		a->first = names[c];
	switch (c) {
	case 'u': a->users = true; break;
	case 'P':
		a->pkg_paths = xrealloc(a->pkg_paths, (a->npkg_paths + 1) * sizeof(char *));
		a->pkg_paths[a->npkg_paths++] = optarg;
		break;
	case 'C': a->cache_dir = optarg; break;
	case 'r': a->root = optarg; break;
	case 'N':
		if (parse_utc_time(optarg, &a->since) || a->since < 0) {
			fprintf(stderr, "abidep: --since takes YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS][Z] or @SECONDS (UTC), not '%s'\n",
				optarg);
			return EXIT_USAGE;
		}
		break;
	}
	return EXIT_OK;
}

/* -1 to go on, or the exit status (after --help, or a usage error). */
static int parse_table_args(int argc, char **argv, struct table_args *a)
{
	static const struct option lopts[] = {
		{ "strict", no_argument, NULL, 's' },
		{ "status", required_argument, NULL, 'S' },
		{ "sysfs", required_argument, NULL, 'D' },
		{ "abi", no_argument, NULL, 'a' },
		{ "c", no_argument, NULL, 'c' },
		{ "users", no_argument, NULL, 'u' },
		{ "scan-packages", required_argument, NULL, 'P' },
		{ "cache", required_argument, NULL, 'C' },
		{ "root", required_argument, NULL, 'r' },
		{ "since", required_argument, NULL, 'N' },
		{ 0 }
	};
	static const struct cmd_opts spec = { "", lopts, OPT_TABLES | OPT_DB | OPT_OUTPUT, 0,
					      tables_usage };
	struct opts o;
	int c, ret = EXIT_OK;

	memset(a, 0, sizeof(*a));
	opts_start(&o, &spec);
	while (!ret && (c = opts_next(&o, argc, argv)) != -1) {
		switch (c) {
		case 'S':
			if (strcmp(optarg, "deprecated") && strcmp(optarg, "removed")) {
				fprintf(stderr, "abidep: --status takes deprecated or removed, not '%s'\n",
					optarg);
				ret = EXIT_USAGE;
			} else {
				a->status = optarg;
			}
			break;
		case 's': a->strict = true; break;
		case 'D': a->sysfs = optarg; break;
		case 'a': a->format = 'a'; break;
		case 'c': a->format = 'c'; break;
		default: ret = users_option(c, a); break;
		}
	}
	if (!ret && o.ndbs > 1) {
		/* One model of one DB: several are merged first, each host kept. */
		fprintf(stderr, "abidep: tables export --users reads one usage DB (-d); join several with 'abidep merge'\n");
		ret = EXIT_USAGE;
	}
	if (o.ndbs && !a->first)
		a->first = "-d";
	opts_keep(&o, &a->db, &a->paths, &a->npaths, &a->output, NULL, NULL);
	return opts_end(&o, ret);
}

/*
 * The start of list, show, resolve and export: options, @nargs positional
 * arguments (@usage says which when they are wrong), then the tables, read
 * as get_abi.pl reads them unless --strict (export: always strictly, as
 * the module is built from them). Returns -1 to go on, or the exit status.
 */
static int tables_start(int argc, char **argv, struct table_args *a,
			struct abi_set *set, int nargs, const char *usage)
{
	bool export = !strcmp(argv[0], "export");
	int ret = parse_table_args(argc, argv, a);

	if (ret < 0 && argc - optind != nargs) {
		fprintf(stderr, "abidep: %s (see abidep tables --help)\n", usage);
		ret = EXIT_USAGE;
	}
	if (ret < 0 && export && a->strict) {
		fprintf(stderr, "abidep: tables export reads the tables strictly always: no --strict\n");
		ret = EXIT_USAGE;
	}
	if (ret < 0 && a->first && !(export && a->users)) {
		fprintf(stderr, "abidep: %s: only tables export --abi --users takes it (see abidep tables --help)\n",
			a->first);
		ret = EXIT_USAGE;
	}
	if (ret < 0 && abidep_load_tables_flags(set, a->paths, a->npaths,
						a->strict || export ? 0 :
						TABLES_TOLERANT | TABLES_NO_INDEX)) {
		abi_set_free(set);
		ret = EXIT_USAGE;
	}
	if (ret >= 0)
		table_args_free(a);
	return ret;
}

static int do_list(int argc, char **argv)
{
	struct table_args a;
	struct abi_set set;
	struct json j;
	int i, k, ret;

	ret = tables_start(argc, argv, &a, &set, 0,
			   "tables list takes no argument (use -t PATH)");
	if (ret >= 0)
		return ret;
	if (cfg.json) {
		json_init(&j, stdout, cfg.pretty);
		json_arr_start(&j);
	} else {
		printf("%-10s  %-10s  %-16s  %s\n", "STATUS", "DEPRECATED",
		       "REMOVE-AFTER", "WHAT -> REPLACED-BY");
	}
	for (i = 0; i < set.nentries; i++) {
		const struct abi_entry *e = &set.entries[i];

		if (a.status && strcmp(a.status, abi_status_name(e->status)))
			continue;
		if (cfg.json) {
			json_entry(&j, e);
			continue;
		}
		for (k = 0; k < e->nwhat; k++) {
			printf("%-10s  %-10s  %-16s  %s", abi_is_migration(e) ?
			       abi_status_name(e->status) : "-",
			       when_text(e, ABI_DEPRECATED),
			       e->status == ABI_ST_REMOVED ? when_text(e, ABI_REMOVED) :
			       when_text(e, ABI_REMOVE_AFTER), e->what[k]);
			if (e->nreplaced)
				printf(" -> %s", e->replaced_by[e->nreplaced > k ? k : 0]);
			printf("\n");
		}
	}
	if (cfg.json) {
		json_arr_end(&j);
		json_end(&j);
	}
	abi_set_free(&set);
	table_args_free(&a);
	return EXIT_OK;
}

static int do_show(int argc, char **argv)
{
	struct table_args a;
	struct abi_set set;
	struct json j;
	int i, found = 0, ret;

	ret = tables_start(argc, argv, &a, &set, 1, "tables show takes one PATTERN");
	if (ret >= 0)
		return ret;
	if (cfg.json) {
		json_init(&j, stdout, cfg.pretty);
		json_arr_start(&j);
	}
	for (i = 0; i < set.nentries; i++) {
		const struct abi_entry *e = &set.entries[i];

		if (!entry_selected(e, argv[optind]))
			continue;
		if (cfg.json) {
			json_entry(&j, e);
		} else {
			printf("%s# %s:%d\n", found ? "\n" : "", e->file, e->line);
			export_entry_text(stdout, e, true, NULL);
		}
		found++;
	}
	if (cfg.json) {
		json_arr_end(&j);
		json_end(&j);
	}
	if (!found)
		fprintf(stderr, "abidep: no entry matches '%s'\n", argv[optind]);
	abi_set_free(&set);
	table_args_free(&a);
	return found ? EXIT_OK : EXIT_FAIL;
}

struct resolve_ctx {
	struct json *j;
	int files;
};

static int resolve_one(const char *path, void *arg)
{
	struct resolve_ctx *r = arg;

	if (r->j)
		json_str(r->j, path);
	else
		printf("\t%s\n", path);
	r->files++;
	return 0;
}

/*
 * Expand What @k of @e under @sysfs: the files it matches (or "(no match)"),
 * in text or as a JSON object. A What that is not a good pattern is not
 * expanded (it might climb out of @sysfs with ".."). Returns how many
 * files match, or -1 if not expanded.
 */
static int resolve_what(const struct abi_entry *e, int k, const char *sysfs,
			struct json *j)
{
	struct resolve_ctx r = { .j = j };
	const char *why = abi_pattern_check(e->what[k]);
	struct abi_glob *g;
	int n, m;

	if (j) {
		json_obj_start(j);
		json_kstr(j, "what", e->what[k]);
		json_kstr(j, "file", e->file);
		json_kint(j, "line", e->what_line[k]);
		json_kstr(j, "status", abi_status_name(e->status));
		if (why)
			json_kstr(j, "not_expanded", why);
		json_key(j, "files");
		json_arr_start(j);
	} else {
		printf("%s\n", e->what[k]);
	}
	if (!why) {
		n = abi_pattern_globs(e->what[k], &g);
		for (m = 0; m < n; m++)
			abi_glob_resolve(&g[m], sysfs, resolve_one, &r);
		abi_globs_free(g, n);
	}
	if (j) {
		json_arr_end(j);
		json_obj_end(j);
	} else if (why) {
		printf("\t(not expanded: %s)\n", why);
	} else if (!r.files) {
		printf("\t(no match)\n");
	}
	return why ? -1 : r.files;
}

static int do_resolve(int argc, char **argv)
{
	struct table_args a;
	struct abi_set set;
	struct json j;
	int i, k, n, ret, matched = 0, unmatched = 0, total = 0, nonsys = 0, bad = 0;

	ret = tables_start(argc, argv, &a, &set, 0, "tables resolve takes no argument");
	if (ret >= 0)
		return ret;
	if (!a.sysfs)
		a.sysfs = "/sys";
	if (access(a.sysfs, R_OK | X_OK)) {
		fprintf(stderr, "abidep: cannot read the sysfs directory '%s'\n", a.sysfs);
		abi_set_free(&set);
		table_args_free(&a);
		return EXIT_USAGE;
	}
	if (cfg.json) {
		json_init(&j, stdout, cfg.pretty);
		json_arr_start(&j);
	}
	for (i = 0; i < set.nentries; i++) {
		const struct abi_entry *e = &set.entries[i];

		for (k = 0; k < e->nwhat; k++) {
			/* cgroup v1 files are under /sys/fs/cgroup, not in sysfs. */
			if (!what_in_sysfs(e->what[k])) {
				nonsys++;
				continue;
			}
			total++;
			n = resolve_what(e, k, a.sysfs, cfg.json ? &j : NULL);
			if (n < 0)
				bad++;
			else if (n)
				matched++;
			else
				unmatched++;
		}
	}
	if (cfg.json) {
		json_arr_end(&j);
		json_end(&j);
	} else {
		printf("%d What paths in sysfs: %d match files in %s, %d match nothing; %d not in sysfs",
		       total, matched, a.sysfs, unmatched, nonsys);
		if (bad)
			printf("; %d not expanded (bad patterns)", bad);
		printf("\n");
	}
	abi_set_free(&set);
	table_args_free(&a);
	return EXIT_OK;
}

static bool is_dir(const char *p)
{
	struct stat st;

	return !stat(p, &st) && S_ISDIR(st.st_mode);
}

/* export's own usage errors: the format, and --users with its evidence; -1 to go on. */
static int export_args_check(const struct table_args *a)
{
	const char *why = NULL;

	if (!a->format)
		why = "tables export needs --abi or --c";
	else if (a->users && a->format != 'a')
		why = "--users is for --abi: the module's table has no Users:";
	else if (a->users && !a->db && !a->npkg_paths)
		why = "--users needs a usage DB (-d) or package files (--scan-packages), or both";
	if (!why)
		return -1;
	fprintf(stderr, "abidep: %s (see abidep tables --help)\n", why);
	return EXIT_USAGE;
}

/*
 * export --users: one check model of the migration entries, its uses over
 * all of the DB's history (or from --since on) and the references in the
 * package files; each entry's Users: text from it into *@users, and
 * whether some package file could not be read into *@unread. -1 to go on,
 * or the exit status.
 */
static int users_of(const struct table_args *a, const struct abi_set *set,
		    char ***users, bool *unread)
{
	struct check c = { .now = time(NULL), .has_since = true, .since = a->since };
	char err[1024];
	int ret = -1;

	c.owner = owner_new(a->root);
	/* As check: a root named on purpose must have a package database; / need not. */
	if (a->root && owner_load(c.owner, err, sizeof(err))) {
		fprintf(stderr, "abidep: %s\n", err);
		ret = EXIT_USAGE;
	}
	/* No migration entry selected: all are exported as they are. */
	if (ret < 0)
		check_select(&c, set, NULL);
	if (ret < 0 && a->db && check_read_db(&c, a->db, err, sizeof(err))) {
		fprintf(stderr, "abidep: %s\n", err);
		ret = EXIT_DB;
	}
	if (ret < 0 && a->npkg_paths &&
	    check_scan_packages(&c, a->pkg_paths, a->npkg_paths, set, a->cache_dir, err,
				sizeof(err))) {
		fprintf(stderr, "abidep: %s\n", err);
		ret = EXIT_USAGE;
	}
	if (ret < 0 && c.pkgs_scanned) {
		if (c.pkgscan.warning)
			fprintf(stderr, "abidep: warning: %s\n", c.pkgscan.warning);
		scan_print_unreadable(&c.pkgscan, stderr, "abidep: ");
		*unread = users_unread(&c) > 0;
	}
	if (ret < 0)
		*users = users_texts(&c, a->db != NULL);
	check_free(&c);
	owner_free(c.owner);
	return ret;
}

/* The export to -o (a file, or the directory of files, replaced whole) or standard output. */
static int export_write(const struct table_args *a, const struct abi_set *set,
			char *const *users)
{
	struct output o;
	char err[1024];
	int ret;

	/* No silent drop: each alias the tables ask for is exported, or nothing is. */
	if (a->format == 'c' && export_c_unexpressible(stderr, set))
		return EXIT_USAGE;
	if (a->output && a->format == 'a' && is_dir(a->output)) {
		ret = export_abi_dir(a->output, set, users, err, sizeof(err));
	} else {
		ret = output_open(&o, a->output, err, sizeof(err));
		if (!ret && a->format == 'a')
			export_abi(o.f, set, users);
		else if (!ret && !export_c(o.f, set))
			fprintf(stderr, "abidep: export --c: no entry the module can alias\n");
		if (!ret)
			ret = output_close(&o, err, sizeof(err));
	}
	if (ret)
		fprintf(stderr, "abidep: %s\n", err);
	return ret ? EXIT_USAGE : EXIT_OK;
}

static int do_export(int argc, char **argv)
{
	struct table_args a;
	struct abi_set set;
	char **users = NULL;
	bool unread = false;
	int ret;

	ret = tables_start(argc, argv, &a, &set, 0, "tables export takes no argument");
	if (ret >= 0)
		return ret;
	ret = export_args_check(&a);
	if (ret < 0 && a.users)
		ret = users_of(&a, &set, &users, &unread);
	if (ret < 0)
		ret = export_write(&a, &set, users);
	/* Written, but what the unread packages hold is not in it. */
	if (ret == EXIT_OK && unread) {
		fprintf(stderr, "abidep: some package files could not be read: their references are not in the Users: text\n");
		ret = EXIT_UNREAD;
	}
	users_free(users, set.nentries);
	abi_set_free(&set);
	table_args_free(&a);
	return ret;
}

int cmd_tables(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int argc, char **argv);
	} cmds[] = {
		{ "validate", do_validate },
		{ "list", do_list },
		{ "show", do_show },
		{ "resolve", do_resolve },
		{ "export", do_export },
	};
	/* -j, -p and -h before the command too ("+": stop at the command). */
	static const struct cmd_opts spec = { "+", NULL, 0, 0, tables_usage };
	struct opts o;
	size_t i;

	opts_start(&o, &spec);
	opts_next(&o, argc, argv);
	if (o.done >= 0)
		return o.done;
	argc -= optind - 1;
	argv += optind - 1;
	if (argc < 2 || !strcmp(argv[1], "help")) {
		tables_usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : EXIT_OK;
	}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "abidep: unknown command 'tables %s' (see abidep tables --help)\n",
		argv[1]);
	return EXIT_USAGE;
}
