// SPDX-License-Identifier: GPL-2.0
/*
 * Loading the migration tables for a command (tables, check, report, scan,
 * trace), strictly or as the kernel's get_abi.pl reads Documentation/ABI,
 * and what every command shows of their entries.
 */
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "abi.h"
#include "json.h"
#include "tables_load.h"

#ifndef ABIDEP_DATADIR
#define ABIDEP_DATADIR "/usr/share/abidep"
#endif

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

/* Diagnostics in file order, then line. */
static int diag_cmp(const void *a, const void *b, void *arg)
{
	const struct abi_diag *x = a, *y = b;
	const struct abi_set *set = arg;
	int fx = -1, fy = -1, i;

	for (i = 0; i < set->nfiles && (fx < 0 || fy < 0); i++) {
		if (set->files[i].path == x->file)
			fx = i;
		if (set->files[i].path == y->file)
			fy = i;
	}
	if (fx != fy)
		return fx < fy ? -1 : 1;
	if (x->file != y->file)
		return strcmp(x->file, y->file);
	return x->line - y->line;
}

void abidep_sort_diags(struct abi_set *set)
{
	qsort_r(set->diags, set->ndiags, sizeof(*set->diags), diag_cmp, set);
}

void abidep_print_diags(struct abi_set *set, FILE *f)
{
	int i;

	abidep_sort_diags(set);
	for (i = 0; i < set->ndiags; i++) {
		const struct abi_diag *d = &set->diags[i];

		if (d->line)
			fprintf(f, "%s:%d: %s: %s\n", d->file, d->line,
				d->error ? "error" : "warning", d->msg);
		else
			fprintf(f, "%s: %s: %s\n", d->file,
				d->error ? "error" : "warning", d->msg);
	}
}

int abidep_load_tables_flags(struct abi_set *set, char **paths, int npaths,
			     unsigned int flags)
{
	const char *what = npaths ? paths[0] : abidep_default_tables();
	/* Our own tables are held to every rule, however they are read. */
	bool tolerant = (flags & TABLES_TOLERANT) && npaths;
	int i, ret = 0, tolerated = 0;

	abi_set_init(set);
	set->skip_text = flags & TABLES_SKIP_TEXT;
	if (!npaths)
		ret = abi_load_path(set, what);
	for (i = 0; i < npaths; i++)
		ret |= abi_load_path(set, paths[i]);
	abi_check(set, false);
	if (tolerant)
		tolerated = abi_tolerate(set);
	if (!ret && !set->errors) {
		if (flags & TABLES_TOLERANT)
			abidep_print_diags(set, stderr);
		if (tolerated)
			fprintf(stderr, "abidep: %s: %d error(s) read as warnings, as the kernel's get_abi.pl reads them (--strict refuses them)\n",
				what, tolerated);
		return 0;
	}
	abidep_print_diags(set, stderr);
	fprintf(stderr, "abidep: cannot use the tables %s: %d error(s)%s; 'abidep tables validate %s' shows them\n",
		what, set->errors, ret ? ", or unreadable" : "", what);
	return -1;
}

int abidep_load_tables(struct abi_set *set, char **paths, int npaths, bool skip_text)
{
	return abidep_load_tables_flags(set, paths, npaths,
					skip_text ? TABLES_SKIP_TEXT : 0);
}

void abidep_json_migration(struct json *j, const struct abi_entry *e)
{
	json_kstrs(j, "what", e->what, e->nwhat);
	json_kstr(j, "status", abi_is_migration(e) ? abi_status_name(e->status) : NULL);
	json_kstr(j, "deprecated", e->field[ABI_DEPRECATED]);
	json_kstr(j, "remove_after", e->field[ABI_REMOVE_AFTER]);
	json_kstr(j, "removed", e->field[ABI_REMOVED]);
	json_kstrs(j, "replaced_by", e->replaced_by, e->nreplaced);
}

void abidep_json_ignores(struct json *j, const char *key,
			 const struct abi_ignore *ig, int n)
{
	int i;

	json_key(j, key);
	json_arr_start(j);
	for (i = 0; i < n; i++) {
		json_obj_start(j);
		json_kstr(j, "exe", ig[i].exe);
		json_kstr(j, "reason", ig[i].reason);
		json_kstr(j, "file", ig[i].file);
		json_kint(j, "line", ig[i].line);
		json_obj_end(j);
	}
	json_arr_end(j);
}

void abidep_json_ignore_members(struct json *j, const struct abi_entry *e,
				const struct abi_ignore *ig)
{
	json_kstr(j, "reason", ig->reason);
	json_kstr(j, "scope", abi_ignore_scope(e, ig));
	json_kstr(j, "file", ig->file);
	json_kint(j, "line", ig->line);
}
