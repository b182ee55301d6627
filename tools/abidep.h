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

int cmd_tables(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_scan(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_brownout(int argc, char **argv);
int cmd_survey(int argc, char **argv);

#endif
