/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loading the migration tables (or a Documentation/ABI tree) for a command,
 * and what every command shows of their entries.
 */
#ifndef ABIDEP_TABLES_LOAD_H
#define ABIDEP_TABLES_LOAD_H

#include <stdbool.h>
#include <stdio.h>

struct abi_set;
struct abi_entry;
struct json;

enum {
	/* The command needs no Description or Users text. */
	TABLES_SKIP_TEXT = 1 << 0,
	/*
	 * Read a Documentation/ABI tree as the kernel's get_abi.pl does: the
	 * errors it reads through are warnings (abi_tolerate()), except in
	 * files with migration entries and in the default tables. Every
	 * warning is printed, the tables usable or not.
	 */
	TABLES_TOLERANT = 1 << 1,
	/* The command looks no What up: no index (abi_set's no_index). */
	TABLES_NO_INDEX = 1 << 2,
};

/*
 * Load and check the tables at @paths (the default ones when @npaths is 0)
 * into @set, for a command that uses them (TABLES_* @flags). On an error,
 * print the diagnostics and what to do on stderr and return -1 (@set is
 * still to be freed).
 */
int abidep_load_tables_flags(struct abi_set *set, char **paths, int npaths,
			     unsigned int flags);
/* The same, strictly: every error is fatal; @skip_text: TABLES_SKIP_TEXT. */
int abidep_load_tables(struct abi_set *set, char **paths, int npaths, bool skip_text);

/* @set's diagnostics in file order, then line order. */
void abidep_sort_diags(struct abi_set *set);
/* Sorted, then each as file:line: error|warning: what. */
void abidep_print_diags(struct abi_set *set, FILE *f);

/*
 * An entry's migration fields as JSON members, as every command gives them:
 * what, status (null if it has none of our fields), deprecated,
 * remove_after, removed, replaced_by.
 */
void abidep_json_migration(struct json *j, const struct abi_entry *e);

struct abi_ignore;
/* Known enumerators as @key: [{"exe", "reason", "file", "line"}]. */
void abidep_json_ignores(struct json *j, const char *key,
			 const struct abi_ignore *ig, int n);
/* One enumerator's reason and where it is listed: "reason", "scope", "file", "line". */
void abidep_json_ignore_members(struct json *j, const struct abi_entry *e,
				const struct abi_ignore *ig);

/*
 * The migration tables to use when none is named: $ABIDEP_TABLES, else
 * a checkout's own (the binary run from build/), else the installed ones.
 */
const char *abidep_default_tables(void);

#endif
