// SPDX-License-Identifier: GPL-2.0
/*
 * abidep scan [ROOT] and abidep scan --packages PATH...: which files under
 * ROOT or in package files reference deprecated sysfs attributes, how
 * surely, and which package (and maintainer) they are of. The search is in
 * lib/scan_*.c, the printers in scan_print.c, scan_table.c, scan_html.c;
 * this is the command: options, tables, output.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "abi.h"
#include "main.h"
#include "scan.h"
#include "scan_int.h"
#include "scan_print.h"
#include "tables_load.h"
#include "text.h"
#include "util.h"

void scan_usage(FILE *f)
{
	fprintf(f,
		"Usage: abidep scan [-t PATH]... [--weak] [-l] [--all-bytes] [--threads N]\n"
		"                   [--max-size SIZE] [--format FORMAT] [-o FILE] [ROOT]\n"
		"       abidep scan --packages [--cache DIR] [--max-unpacked SIZE] [options]\n"
		"                   PATH...\n"
		"       abidep scan --by-package [options] [ROOT | --packages PATH...]\n"
		"       abidep scan [-t PATH]... --print-patterns\n"
		"\n"
		"Find the files under ROOT (default /) that reference the deprecated and\n"
		"removed attributes of the tables: ELF binaries and libraries (their strings),\n"
		"scripts, udev rules, systemd units, configs. Each hit: the file and line (or\n"
		"byte offset, in a binary file), the What it refers to, the text matched, a\n"
		"confidence (strong: a full /sys path the What matches; medium: directory\n"
		"plus name; weak: the bare name), and the package owning the file, from\n"
		"ROOT's dpkg or rpm database (both: dpkg's first), with its maintainer.\n"
		"ROOT is anyone's: nothing outside it is opened (no symlink followed, at any\n"
		"level), nothing but regular files read (not FIFOs, sockets or devices); /proc,\n"
		"/sys and other kernel filesystems are not entered; files that cannot be read\n"
		"or are over the size cap are listed, with why, not fatal.\n"
		"\n"
		"With --packages, each PATH is a package file (.deb, .udeb, .rpm) or a\n"
		"directory searched for them (a mirror's pool/, a build's output), read in\n"
		"place, never unpacked to disk: the files and maintainer scripts in each,\n"
		"named by the package's own control data (name, version, architecture,\n"
		"source package, maintainer). Package file PATHs need no --packages. A\n"
		"package that cannot be read whole (truncated, corrupt, a member leaving the\n"
		"package, more than --max-unpacked, no control data) is named once with why,\n"
		"and the scan goes on.\n"
		"\n"
		"  -t, --tables PATH   tables to use (default: %s)\n"
		"      --weak          also show weak hits of common names (only lowercase\n"
		"                      letters, like 'enable'); distinctive ones are shown anyway\n"
		"  -l, --files         only the names of the files with hits (text, json)\n"
		"      --by-package    a row a package with hits: its files, hits (strong,\n"
		"                      medium, weak) and the Whats they reference; the files\n"
		"                      of no package in one row, \"(no package)\" (JSON: null)\n"
		"      --all-bytes     read ELF files whole; by default only the sections\n"
		"                      that can hold strings (not code, relocations, symbols,\n"
		"                      unwind or debug information)\n"
		"      --threads N     read files (packages) with N threads (default: one per\n"
		"                      online CPU); more than 8 read with 8\n"
		"      --max-size SIZE  do not read files larger (listed; default 1G; K, M, G,\n"
		"                      T: powers of 1024; 0: no cap)\n"
		"      --packages      PATHs are package files or directories of them\n"
		"      --cache DIR     keep what each package file held in DIR (made if\n"
		"                      missing): a package unchanged since (same file, same\n"
		"                      tables, options and abidep) is not read again\n"
		"      --max-unpacked SIZE  a package that unpacks to more is unreadable (a\n"
		"                      decompression bomb; its files, hard links counting\n"
		"                      their target's bytes, other entries' data, 512 bytes\n"
		"                      and the names of each entry; default 16G; 0: no cap)\n"
		"      --format FORMAT  text, json, csv, markdown, html or dd-list (the\n"
		"                      maintainers and their source packages with hits)\n"
		"  -o, --output FILE   write FILE (replaced whole, at the end)\n"
		"  -w, --wide          do not fit text to the terminal\n"
		"      --print-patterns  the names searched for, one a line (for grep -wF -f)\n"
		"  -j, --json, -p, --pretty, -h, --help\n"
		"\n",
		abidep_default_tables());
	abidep_exit_help(f, "0 no hit; 1 hits found", EXB(EXIT_USAGE) | EXB(EXIT_UNREAD));
}

static int load(struct abi_set *set, char **paths, int npaths)
{
	if (abidep_load_tables(set, paths, npaths, true))
		return -1;
	if (set->nentries)
		return 0;
	fprintf(stderr, "abidep: the tables (%s) have no entry: give a table file or directory with -t\n",
		npaths ? paths[0] : abidep_default_tables());
	return -1;
}

static int print_patterns(const struct abi_set *set)
{
	struct scan_needles ns;
	int i;

	scan_needles_build(&ns, set);
	for (i = 0; i < ns.n; i++)
		printf("%s\n", ns.v[i].name);
	for (i = 0; i < ns.nskipped; i++)
		fprintf(stderr, "abidep: not searched (no literal attribute name): %s\n",
			ns.skipped[i]);
	scan_needles_free(&ns);
	return EXIT_OK;
}

/* What scan was asked: its options, and ROOT or the package PATHs. */
struct scan_args {
	struct scan_opts opts;
	bool files_only;	/* -l */
	bool by_package;	/* --by-package */
	bool patterns;		/* --print-patterns */
	bool packages;		/* --packages, or package file PATHs */
	char **paths;		/* ROOT, or the package PATHs */
	int npaths;
	const char *out;	/* -o FILE */
	enum out_format format;
	bool wide;
};

/* A size option's value: EXIT_OK, or EXIT_USAGE (said). */
static int size_option(const char *name, unsigned long long *v)
{
	if (parse_size(optarg, v)) {
		fprintf(stderr, "abidep: %s takes a size in bytes (1048576, 64M, 2G; 0: no cap), not '%s'\n",
			name, optarg);
		return EXIT_USAGE;
	}
	if (!*v)
		*v = SCAN_NO_MAX_SIZE;
	return EXIT_OK;
}

/* One of scan's own options: EXIT_OK, or EXIT_USAGE (said). */
static int scan_option(int c, struct scan_args *a)
{
	unsigned long v;

	switch (c) {
	case 'W': a->opts.weak = true; break;
	case 'l': a->files_only = a->opts.first_only = true; break;
	case 'T':
		if (parse_uint(optarg, 1, 64, &v)) {
			fprintf(stderr, "abidep: --threads takes a number from 1 to 64, not '%s'\n",
				optarg);
			return EXIT_USAGE;
		}
		a->opts.threads = v;
		break;
	case 'P': a->patterns = true; break;
	case 'A': a->opts.all_bytes = true; break;
	case 'S': return size_option("--max-size", &a->opts.max_size);
	case 'U': return size_option("--max-unpacked", &a->opts.max_unpacked);
	case 'K': a->packages = true; break;
	case 'B': a->by_package = true; break;
	case 'C':
		if (!*optarg) {
			fprintf(stderr, "abidep: --cache takes a directory\n");
			return EXIT_USAGE;
		}
		a->opts.cache_dir = optarg;
		break;
	}
	return EXIT_OK;
}

/* -l of package files: "ARCHIVE: FILE", cleaned, a line each. */
static void print_package_files(const struct scan_result *r, FILE *f)
{
	size_t i;

	for (i = 0; i < r->nhits; i++) {
		const struct scan_hit *h = &r->hits[i];
		char *ar, *file;

		if (i && !strcmp(h->file, h[-1].file) && !strcmp(h->archive, h[-1].archive))
			continue;
		ar = text_clean(h->archive);
		file = text_clean(h->file);
		fprintf(f, "%s: %s\n", ar, file);
		free(ar);
		free(file);
	}
	/* Not among the names a script reads from standard output. */
	scan_print_unreadable(r, stderr, "abidep: ");
}

/* The hits in the format asked, to @o. */
static void print_hits(const struct scan_args *a, const struct scan_result *res, struct output *o)
{
	struct scan_view v;

	scan_view_build(&v, res, a->packages);
	switch (a->format) {
	case FMT_JSON: scan_print_json(&v, a->files_only, o->f); break;
	case FMT_HTML: scan_print_html(&v, o->f); break;
	case FMT_DDLIST: scan_print_ddlist(&v, o->f); break;
	case FMT_CSV: case FMT_MARKDOWN:
		scan_print_table(&v, o->f, a->format, output_width(o, a->wide));
		break;
	default:
		if (a->packages && !a->files_only)
			scan_print_table(&v, o->f, FMT_TEXT, output_width(o, a->wide));
		else if (a->packages)
			print_package_files(res, o->f);
		else
			scan_print_root_text(&v, a->files_only, o->f);
	}
	scan_view_free(&v);
}

/* The result in the format asked, to -o FILE or standard output; -1 on failure. */
static int print_result(const struct scan_args *a, const struct scan_result *res)
{
	struct output o;
	char err[1024];

	if (output_open(&o, a->out, err, sizeof(err))) {
		fprintf(stderr, "abidep: %s\n", err);
		return -1;
	}
	if (a->by_package) {
		struct scan_summary s;

		scan_summary_build(&s, res);
		scan_print_by_package(res, &s, a->packages, o.f, a->format,
				      output_width(&o, a->wide));
		scan_summary_free(&s);
	} else {
		print_hits(a, res, &o);
	}
	if (output_close(&o, err, sizeof(err))) {
		fprintf(stderr, "abidep: %s\n", err);
		return -1;
	}
	return 0;
}

/* Scan the root or the packages for @set's Whats and print the hits. */
static int run_scan(const struct scan_args *a, const struct abi_set *set)
{
	struct scan_result res;
	char err[1024];
	int ret;

	if (a->packages)
		ret = scan_packages(a->paths, a->npaths, set, &a->opts, &res, err, sizeof(err));
	else
		ret = scan_tree_opts(a->npaths ? a->paths[0] : "/", set, &a->opts, &res, err,
				     sizeof(err));
	if (ret) {
		fprintf(stderr, "abidep: %s\n", err);
		return EXIT_USAGE;
	}
	if (res.warning)
		fprintf(stderr, "abidep: warning: %s\n", res.warning);
	if (print_result(a, &res))
		ret = EXIT_USAGE;
	else if (a->packages && res.nunreadable)
		ret = EXIT_UNREAD;
	else
		ret = res.nhits ? EXIT_FAIL : EXIT_OK;
	scan_result_free(&res);
	return ret;
}

/* The operands: package files make it a package scan; else one ROOT at most. */
static int check_operands(struct scan_args *a)
{
	int i, files = 0;

	for (i = 0; i < a->npaths; i++) {
		struct stat st;

		/* By name, and a file: a ROOT may be a directory named x.deb. */
		files += scan_is_package_file(a->paths[i]) && !stat(a->paths[i], &st) &&
			 S_ISREG(st.st_mode);
	}
	if (a->npaths && files == a->npaths)
		a->packages = true;
	if (a->patterns && a->npaths) {
		fprintf(stderr, "abidep: --print-patterns takes no ROOT (see abidep scan --help)\n");
		return EXIT_USAGE;
	}
	if (a->packages && !a->npaths) {
		fprintf(stderr, "abidep: --packages needs a package file or directory (see abidep scan --help)\n");
		return EXIT_USAGE;
	}
	if (!a->packages && a->npaths > 1) {
		fprintf(stderr, "abidep: one ROOT at most; for package files and directories of them, --packages (see abidep scan --help)\n");
		return EXIT_USAGE;
	}
	if (!a->packages && (a->opts.cache_dir || a->opts.max_unpacked)) {
		fprintf(stderr, "abidep: --cache and --max-unpacked are for package files (--packages)\n");
		return EXIT_USAGE;
	}
	if (a->by_package && (a->files_only || a->patterns || a->format == FMT_DDLIST)) {
		fprintf(stderr, "abidep: --by-package is a summary of the hits: not with %s\n",
			a->files_only ? "-l" : a->patterns ? "--print-patterns" :
			"--format dd-list (which lists the maintainers already)");
		return EXIT_USAGE;
	}
	if (a->files_only && a->format != FMT_TEXT && a->format != FMT_JSON) {
		fprintf(stderr, "abidep: -l lists files as text or json, not %s\n",
			format_name(a->format));
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int cmd_scan(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "weak", no_argument, NULL, 'W' },
		{ "files", no_argument, NULL, 'l' },
		{ "threads", required_argument, NULL, 'T' },
		{ "print-patterns", no_argument, NULL, 'P' },
		{ "all-bytes", no_argument, NULL, 'A' },
		{ "max-size", required_argument, NULL, 'S' },
		{ "packages", no_argument, NULL, 'K' },
		{ "cache", required_argument, NULL, 'C' },
		{ "max-unpacked", required_argument, NULL, 'U' },
		{ "by-package", no_argument, NULL, 'B' },
		{ 0 }
	};
	static const struct cmd_opts spec = {
		"l", lopts, OPT_TABLES | OPT_OUTPUT | OPT_FORMAT | OPT_WIDE,
		FMTB(FMT_TEXT) | FMTB(FMT_JSON) | FMTB(FMT_CSV) | FMTB(FMT_MARKDOWN) |
		FMTB(FMT_HTML) | FMTB(FMT_DDLIST), scan_usage
	};
	struct scan_args a = { 0 };
	struct abi_set set;
	struct opts o;
	int c, ret = EXIT_OK;

	opts_start(&o, &spec);
	while (!ret && (c = opts_next(&o, argc, argv)) != -1)
		ret = scan_option(c, &a);
	if (ret || o.done >= 0)
		return opts_end(&o, ret);
	opts_keep(&o, NULL, NULL, NULL, &a.out, &a.format, &a.wide);
	a.paths = argv + optind;
	a.npaths = argc - optind;
	ret = check_operands(&a);
	if (ret)
		return opts_end(&o, ret);
	ret = load(&set, o.tables, o.ntables);
	opts_end(&o, EXIT_OK);
	if (!ret)
		ret = a.patterns ? print_patterns(&set) : run_scan(&a, &set);
	else
		ret = EXIT_USAGE;
	abi_set_free(&set);
	return ret;
}
