/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ABIDEP_MAIN_H
#define ABIDEP_MAIN_H

#include <stdbool.h>
#include <stdio.h>

#include "exit.h"


/*
 * The "Exit status:" paragraph of a command's --help: @answers, what 0 and
 * 1 mean to the command ("0 no hit; 1 hits found"; NULL: done, failed), then
 * the statuses of @codes (EXB()s) in abidep(8)'s words, all separated by
 * semicolons.
 */
void abidep_exit_help(FILE *f, const char *answers, unsigned int codes);

struct abidep_opts {
	bool json;
	bool pretty;
};

extern struct abidep_opts cfg;

/* Loading the tables, abidep_load_tables() and abidep_default_tables(): tables_load.h. */

int cmd_tables(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_scan(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_brownout(int argc, char **argv);
int cmd_survey(int argc, char **argv);

#endif
