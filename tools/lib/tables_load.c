// SPDX-License-Identifier: GPL-2.0
/*
 * Loading the migration tables for a command (tables, check, report, scan,
 * trace), strictly or as the kernel's get_abi.pl reads Documentation/ABI,
 * and what every command shows of their entries.
 */
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "abi.h"
#include "json.h"
#include "tables_load.h"
#include "util.h"

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

/* A file of the set by its path's address (diagnostics point at it). */
struct file_at {
	const char *path;
	int i;
};

/* A diagnostic's sort key: its file's position in the set (-1: none). */
struct diag_key {
	int file, i;
	const struct abi_diag *d;
};

static int file_at_cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)((const struct file_at *)a)->path;
	uintptr_t y = (uintptr_t)((const struct file_at *)b)->path;

	return (x > y) - (x < y);
}

/* File order (reading order), then line, then the order they were said. */
static int diag_key_cmp(const void *a, const void *b)
{
	const struct diag_key *x = a, *y = b;
	int c;

	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	if (x->d->file != y->d->file && (c = strcmp(x->d->file, y->d->file)))
		return c;
	if (x->d->line != y->d->line)
		return x->d->line < y->d->line ? -1 : 1;
	return x->i - y->i;
}

/*
 * Each diagnostic's file looked up once, by address: comparing by a walk of
 * the files cost as much as the rest of show's diagnostics.
 */
void abidep_sort_diags(struct abi_set *set)
{
	struct file_at *at = xcalloc(set->nfiles + 1, sizeof(*at)), *f;
	struct diag_key *k = xcalloc(set->ndiags + 1, sizeof(*k));
	struct abi_diag *sorted = xcalloc(set->ndiags + 1, sizeof(*sorted));
	int i;

	for (i = 0; i < set->nfiles; i++)
		at[i] = (struct file_at){ set->files[i].path, i };
	qsort(at, set->nfiles, sizeof(*at), file_at_cmp);
	for (i = 0; i < set->ndiags; i++) {
		struct file_at key = { set->diags[i].file, 0 };

		f = bsearch(&key, at, set->nfiles, sizeof(*at), file_at_cmp);
		k[i] = (struct diag_key){ f ? f->i : -1, i, &set->diags[i] };
	}
	qsort(k, set->ndiags, sizeof(*k), diag_key_cmp);
	for (i = 0; i < set->ndiags; i++)
		sorted[i] = *k[i].d;
	if (set->ndiags)
		memcpy(set->diags, sorted, set->ndiags * sizeof(*sorted));
	free(sorted);
	free(k);
	free(at);
}

/*
 * Printed into memory, then written at once: stderr is unbuffered, and a
 * write per line was most of show's system time on a kernel's tree.
 */
void abidep_print_diags(struct abi_set *set, FILE *f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int i;

	if (!m)
		die_oom();
	abidep_sort_diags(set);
	for (i = 0; i < set->ndiags; i++) {
		const struct abi_diag *d = &set->diags[i];

		if (d->line)
			fprintf(m, "%s:%d: %s: %s\n", d->file, d->line,
				d->error ? "error" : "warning", d->msg);
		else
			fprintf(m, "%s: %s: %s\n", d->file,
				d->error ? "error" : "warning", d->msg);
	}
	if (fclose(m))
		die_oom();
	fwrite(buf, 1, len, f);
	free(buf);
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
	set->no_index = flags & TABLES_NO_INDEX;
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
