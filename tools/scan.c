// SPDX-License-Identifier: GPL-2.0
/*
 * abidep scan [ROOT]: which files under ROOT reference deprecated sysfs
 * attributes, how surely, and which package owns them. The search is in
 * scan_tree.c; this is the command: options, tables, output.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi.h"
#include "main.h"
#include "json.h"
#include "rootfs.h"
#include "scan.h"
#include "scan_int.h"
#include "tables_load.h"
#include "text.h"
#include "util.h"

void scan_usage(FILE *f)
{
	fprintf(f,
		"Usage: abidep scan [-t PATH]... [--weak] [-l] [--all-bytes] [--threads N]\n"
		"                   [--max-size SIZE] [-j|-p] [ROOT]\n"
		"       abidep scan [-t PATH]... --print-patterns\n"
		"\n"
		"Find the files under ROOT (default /) that reference the deprecated and\n"
		"removed attributes of the tables: ELF binaries and libraries (their strings),\n"
		"scripts, udev rules, systemd units, configs. Each hit: the file and line (or\n"
		"byte offset, in a binary file), the What it refers to, the text matched, a\n"
		"confidence (strong: a full /sys path the What matches; medium: directory\n"
		"plus name; weak: the bare name), and the package owning the file, from\n"
		"ROOT's dpkg or rpm database (both: dpkg's first; -j adds its version).\n"
		"ROOT is anyone's: nothing outside it is opened (no symlink followed, at any\n"
		"level), nothing but regular files read (not FIFOs, sockets or devices); /proc,\n"
		"/sys and other kernel filesystems are not entered; files that cannot be read\n"
		"or are over the size cap are listed, with why, not fatal.\n"
		"\n"
		"  -t, --tables PATH   tables to use (default: %s)\n"
		"      --weak          also show weak hits of common names (only lowercase\n"
		"                      letters, like 'enable'); distinctive ones are shown anyway\n"
		"  -l, --files         only the names of the files with hits\n"
		"      --all-bytes     read ELF files whole; by default only the sections\n"
		"                      that can hold strings (not code, relocations, symbols,\n"
		"                      unwind or debug information)\n"
		"      --threads N     read files with N threads (default: one per CPU)\n"
		"      --max-size SIZE  do not read files larger (listed; default 1G; K, M, G,\n"
		"                      T: powers of 1024; 0: no cap)\n"
		"      --print-patterns  the names searched for, one a line (for grep -wF -f)\n"
		"  -j, --json, -p, --pretty, -h, --help\n"
		"\n",
		abidep_default_tables());
	abidep_exit_help(f, "0 no hit; 1 hits found", EXB(EXIT_USAGE));
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

/* Where a hit is, cleaned for a terminal (text_clean()): malloc'd. */
static char *where(const struct scan_hit *h)
{
	char *file = text_clean(h->file), *s;

	if (h->line)
		s = xasprintf("%s:%lu", file, h->line);
	else
		s = xasprintf("%s@%llu", file, h->offset);
	free(file);
	return s;
}

static int max_width(int w, const char *s)
{
	int l = text_width(s);

	return l > w ? l : w;
}

static void print_json(const struct scan_result *r, bool files_only)
{
	struct json j;
	size_t i;

	json_init(&j, stdout, cfg.pretty);
	json_obj_start(&j);
	json_kstr(&j, "root", r->root);
	json_kstr(&j, "scanned", *r->prefix ? r->prefix : "/");
	json_kint(&j, "files", r->files);
	json_kint(&j, "bytes", r->bytes);
	json_kint(&j, "patterns", r->npatterns);
	json_kint(&j, "weak_hidden", r->weak_hidden);
	json_key(&j, files_only ? "files_with_hits" : "hits");
	json_arr_start(&j);
	for (i = 0; i < r->nhits; i++) {
		const struct scan_hit *h = &r->hits[i];

		if (files_only) {
			if (!i || strcmp(h->file, r->hits[i - 1].file))
				json_str(&j, h->file);
			continue;
		}
		json_obj_start(&j);
		json_kstr(&j, "file", h->file);
		if (h->line)
			json_kint(&j, "line", h->line);
		else
			json_kstr(&j, "line", NULL);
		json_kint(&j, "offset", h->offset);
		json_kstr(&j, "what", h->what);
		json_kstr(&j, "status", abi_status_name(h->entry->status));
		json_kstr(&j, "table", h->entry->file);
		json_kint(&j, "table_line", h->entry->line);
		json_kstr(&j, "match", h->match);
		json_kstr(&j, "confidence", scan_confidence_name(h->confidence));
		json_kstr(&j, "package", h->package);
		json_kstr(&j, "package_version", h->package_version);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_key(&j, "unreadable");
	json_arr_start(&j);
	for (i = 0; i < r->nunreadable; i++) {
		json_obj_start(&j);
		json_kstr(&j, "file", r->unreadable[i].file);
		json_kstr(&j, "error", root_strerror(r->unreadable[i].err));
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_obj_end(&j);
	json_end(&j);
}

/*
 * Every name here is the scanned image's (file names, the packages' names,
 * the matched bytes): each is cleaned (text_clean()) before it is printed
 * or measured, so that none drives the terminal or forges a line.
 */
static void print_text(const struct scan_result *r, bool files_only)
{
	size_t i, nfiles = 0, n[3] = { 0 };
	int ww = 5, wp = 7, wt = 4;
	char *c[4];

	for (i = 0; i < r->nhits; i++) {
		const struct scan_hit *h = &r->hits[i];

		if (!i || strcmp(h->file, r->hits[i - 1].file)) {
			nfiles++;
			if (files_only) {
				c[0] = text_clean(h->file);
				printf("%s\n", c[0]);
				free(c[0]);
			}
		}
		n[h->confidence]++;
		c[0] = where(h);
		c[1] = text_clean(h->package ? h->package : "-");
		c[2] = text_clean(h->what);
		ww = max_width(ww, c[0]);
		wp = max_width(wp, c[1]);
		wt = max_width(wt, c[2]);
		free(c[0]);
		free(c[1]);
		free(c[2]);
	}
	if (files_only)
		return;
	if (r->nhits)
		printf("%-10s  %-*s  %-*s  %-*s  %s\n", "CONFIDENCE", wp, "PACKAGE",
		       ww, "WHERE", wt, "WHAT", "MATCH");
	for (i = 0; i < r->nhits; i++) {
		const struct scan_hit *h = &r->hits[i];

		c[0] = where(h);
		c[1] = text_clean(h->package ? h->package : "-");
		c[2] = text_clean(h->what);
		c[3] = text_clean(h->match);
		/* Padded by display width: the cleaned names may be UTF-8. */
		printf("%-10s  %s%*s  %s%*s  %s%*s  %s\n",
		       scan_confidence_name(h->confidence),
		       c[1], wp - text_width(c[1]), "", c[0], ww - text_width(c[0]), "",
		       c[2], wt - text_width(c[2]), "", c[3]);
		for (int k = 0; k < 4; k++)
			free(c[k]);
	}
	for (i = 0; i < r->nunreadable; i++) {
		c[0] = text_clean(r->unreadable[i].file);
		printf("unreadable: %s: %s\n", c[0], root_strerror(r->unreadable[i].err));
		free(c[0]);
	}
	printf("%zu hits in %zu files (%zu strong, %zu medium, %zu weak); %llu files, %llu bytes examined; %zu unreadable",
	       r->nhits, nfiles, n[SCAN_STRONG], n[SCAN_MEDIUM], n[SCAN_WEAK],
	       r->files, r->bytes, r->nunreadable);
	if (r->weak_hidden)
		printf("; %llu weak hits of common names not shown (--weak)",
		       r->weak_hidden);
	printf("\n");
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

/* What scan was asked: its options and ROOT. */
struct scan_args {
	struct scan_opts opts;
	bool files_only;	/* -l */
	bool patterns;		/* --print-patterns */
	const char *root;
};

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
	case 'S':
		if (parse_size(optarg, &a->opts.max_size)) {
			fprintf(stderr, "abidep: --max-size takes a size in bytes (1048576, 64M, 2G; 0: no cap), not '%s'\n",
				optarg);
			return EXIT_USAGE;
		}
		if (!a->opts.max_size)
			a->opts.max_size = SCAN_NO_MAX_SIZE;
		break;
	}
	return EXIT_OK;
}

/* Scan a->root for @set's Whats and print the hits: 1 if any, else 0. */
static int run_scan(const struct scan_args *a, const struct abi_set *set)
{
	struct scan_result res;
	char err[512];
	int ret;

	if (scan_tree_opts(a->root, set, &a->opts, &res, err, sizeof(err))) {
		fprintf(stderr, "abidep: %s\n", err);
		return EXIT_USAGE;
	}
	if (cfg.json)
		print_json(&res, a->files_only);
	else
		print_text(&res, a->files_only);
	ret = res.nhits ? EXIT_FAIL : EXIT_OK;
	scan_result_free(&res);
	return ret;
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
		{ 0 }
	};
	static const struct cmd_opts spec = { "l", lopts, OPT_TABLES, 0, scan_usage };
	struct scan_args a = { .root = "/" };
	struct abi_set set;
	struct opts o;
	int c, ret = EXIT_OK;

	opts_start(&o, &spec);
	while (!ret && (c = opts_next(&o, argc, argv)) != -1)
		ret = scan_option(c, &a);
	if (ret || o.done >= 0)
		return opts_end(&o, ret);
	if (argc - optind > 1 || (a.patterns && argc - optind)) {
		fprintf(stderr, "abidep: %s (see abidep scan --help)\n",
			a.patterns ? "--print-patterns takes no ROOT" : "one ROOT at most");
		return opts_end(&o, EXIT_USAGE);
	}
	if (optind < argc)
		a.root = argv[optind];
	ret = load(&set, o.tables, o.ntables);
	opts_end(&o, EXIT_OK);
	if (!ret)
		ret = a.patterns ? print_patterns(&set) : run_scan(&a, &set);
	else
		ret = EXIT_USAGE;
	abi_set_free(&set);
	return ret;
}
