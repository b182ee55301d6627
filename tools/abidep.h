/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ABIDEP_TOOL_H
#define ABIDEP_TOOL_H

#include <stdbool.h>

struct abidep_opts {
	bool json;
	bool pretty;
};

extern struct abidep_opts cfg;

/* The migration tables to use when none is named. */
const char *abidep_default_tables(void);

struct abi_set;
struct abi_entry;
struct json;
/*
 * Load and check the tables at @paths (the default ones when @npaths is 0)
 * into @set, for a command that uses them; @skip_text: it needs no
 * Description. On an error, print the diagnostics and what to do on stderr
 * and return -1 (@set is still to be freed).
 */
int abidep_load_tables(struct abi_set *set, char **paths, int npaths, bool skip_text);

/*
 * An entry's migration fields as JSON members, as every command gives them:
 * what, status (null if it has none of our fields), deprecated,
 * remove_after, removed, replaced_by.
 */
void abidep_json_migration(struct json *j, const struct abi_entry *e);

int cmd_tables(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_scan(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_brownout(int argc, char **argv);
int cmd_survey(int argc, char **argv);

#endif
