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
#include "abidep.h"
#include "json.h"
#include "scan.h"
#include "scan_int.h"
#include "tables_load.h"
#include "util.h"

static void scan_usage(FILE *f)
{
	fprintf(f,
		"Usage: abidep scan [-t PATH]... [--weak] [-l] [--all-bytes] [--threads N] [-j|-p] [ROOT]\n"
		"       abidep scan [-t PATH]... --print-patterns\n"
		"\n"
		"Find the files under ROOT (default /) that reference the deprecated and\n"
		"removed attributes of the tables: ELF binaries and libraries (their strings),\n"
		"scripts, udev rules, systemd units, configs. Each hit: the file and line (or\n"
		"byte offset, in a binary file), the What it refers to, the text matched, a\n"
		"confidence (strong: a full /sys path the What matches; medium: directory\n"
		"plus name; weak: the bare name), and the package owning the file, from\n"
		"ROOT's dpkg or rpm database (both: dpkg's first; -j adds its version).\n"
		"Symlinks are not followed; /proc, /sys and other kernel filesystems are not\n"
		"entered; unreadable files are listed, not fatal.\n"
		"\n"
		"  -t, --tables PATH   tables to use (default: %s)\n"
		"      --weak          also show weak hits of common names (only lowercase\n"
		"                      letters, like 'enable'); distinctive ones are shown anyway\n"
		"  -l, --files         only the names of the files with hits\n"
		"      --all-bytes     read ELF files whole; by default only the sections\n"
		"                      that can hold strings (not code, relocations, symbols,\n"
		"                      unwind or debug information)\n"
		"      --threads N     read files with N threads (default: one per CPU)\n"
		"      --print-patterns  the names searched for, one a line (for grep -wF -f)\n"
		"  -j, --json, -p, --pretty, -h, --help\n"
		"\n",
		abidep_default_tables());
	abidep_exit_help(f, "0 no hit; 1 hits found", EXB(EX_USAGE));
}

static int load(struct abi_set *set, char **paths, int npaths)
{
	if (abidep_load_tables(set, paths, npaths, true))
		return -1;
	if (set->nentries)
		return 0;
	fprintf(stderr, "abidep scan: the tables (%s) have no entry: give a table file or directory with -t\n",
		npaths ? paths[0] : abidep_default_tables());
	return -1;
}

static void where(const struct scan_hit *h, char *buf, size_t len)
{
	if (h->line)
		snprintf(buf, len, "%s:%lu", h->file, h->line);
	else
		snprintf(buf, len, "%s@%llu", h->file, h->offset);
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
		json_kstr(&j, "error", strerror(r->unreadable[i].err));
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_obj_end(&j);
	json_end(&j);
}

static void print_text(const struct scan_result *r, bool files_only)
{
	size_t i, nfiles = 0, n[3] = { 0 };
	int ww = 5, wp = 7, wt = 4;
	char buf[8192];

	for (i = 0; i < r->nhits; i++) {
		const struct scan_hit *h = &r->hits[i];
		int l;

		if (!i || strcmp(h->file, r->hits[i - 1].file)) {
			nfiles++;
			if (files_only)
				printf("%s\n", h->file);
		}
		n[h->confidence]++;
		where(h, buf, sizeof(buf));
		l = strlen(buf);
		ww = l > ww ? l : ww;
		l = h->package ? strlen(h->package) : 1;
		wp = l > wp ? l : wp;
		l = strlen(h->what);
		wt = l > wt ? l : wt;
	}
	if (files_only)
		return;
	if (r->nhits)
		printf("%-10s  %-*s  %-*s  %-*s  %s\n", "CONFIDENCE", wp, "PACKAGE",
		       ww, "WHERE", wt, "WHAT", "MATCH");
	for (i = 0; i < r->nhits; i++) {
		const struct scan_hit *h = &r->hits[i];

		where(h, buf, sizeof(buf));
		printf("%-10s  %-*s  %-*s  %-*s  %s\n",
		       scan_confidence_name(h->confidence), wp,
		       h->package ? h->package : "-", ww, buf, wt, h->what, h->match);
	}
	for (i = 0; i < r->nunreadable; i++)
		printf("unreadable: %s: %s\n", r->unreadable[i].file,
		       strerror(r->unreadable[i].err));
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
		fprintf(stderr, "abidep scan: not searched (no literal attribute name): %s\n",
			ns.skipped[i]);
	scan_needles_free(&ns);
	return EX_OK;
}

int cmd_scan(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "tables", required_argument, NULL, 't' },
		{ "weak", no_argument, NULL, 'w' },
		{ "files", no_argument, NULL, 'l' },
		{ "threads", required_argument, NULL, 'T' },
		{ "print-patterns", no_argument, NULL, 'P' },
		{ "all-bytes", no_argument, NULL, 'A' },
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct scan_opts opts = { 0 };
	bool files_only = false, patterns = false;
	char **paths = NULL, err[512], *end;
	struct scan_result res;
	struct abi_set set;
	int npaths = 0, c, ret;
	const char *root = "/";
	long v;

	getopt_restart();
	while ((c = getopt_long(argc, argv, "t:ljph", lopts, NULL)) != -1) {
		switch (c) {
		case 't':
			paths = xrealloc(paths, (npaths + 1) * sizeof(*paths));
			paths[npaths++] = optarg;
			break;
		case 'w': opts.weak = true; break;
		case 'l': files_only = opts.first_only = true; break;
		case 'T':
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (errno || *end || v < 1 || v > 64) {
				fprintf(stderr, "abidep scan: --threads takes a number from 1 to 64, not '%s'\n",
					optarg);
				free(paths);
				return EX_USAGE;
			}
			opts.threads = v;
			break;
		case 'P': patterns = true; break;
		case 'A': opts.all_bytes = true; break;
		case 'j': cfg.json = true; break;
		case 'p': cfg.json = cfg.pretty = true; break;
		case 'h': scan_usage(stdout); free(paths); return EX_OK;
		default: scan_usage(stderr); free(paths); return EX_USAGE;
		}
	}
	if (argc - optind > 1 || (patterns && argc - optind)) {
		fprintf(stderr, "abidep scan: %s (see abidep scan --help)\n",
			patterns ? "--print-patterns takes no ROOT" : "one ROOT at most");
		free(paths);
		return EX_USAGE;
	}
	if (optind < argc)
		root = argv[optind];
	if (load(&set, paths, npaths)) {
		abi_set_free(&set);
		free(paths);
		return EX_USAGE;
	}
	free(paths);
	if (patterns) {
		ret = print_patterns(&set);
		abi_set_free(&set);
		return ret;
	}
	if (scan_tree_opts(root, &set, &opts, &res, err, sizeof(err))) {
		fprintf(stderr, "abidep scan: %s\n", err);
		abi_set_free(&set);
		return EX_USAGE;
	}
	if (cfg.json)
		print_json(&res, files_only);
	else
		print_text(&res, files_only);
	ret = res.nhits ? EX_FAIL : EX_OK;
	scan_result_free(&res);
	abi_set_free(&set);
	return ret;
}
