/* SPDX-License-Identifier: GPL-2.0 */
/*
 * abidep check's output for people (text), tickets (Markdown) and
 * spreadsheets (CSV); check.c prints JSON.
 */
#ifndef ABIDEP_CHECK_TEXT_H
#define ABIDEP_CHECK_TEXT_H

#include <stdbool.h>
#include <stdio.h>

#include "check_eval.h"
#include "output.h"

/* Why an enumerated use does not block: its Ignore: reason, or its sweep. */
const char *check_enum_reason(const struct check_use *u);

/* The distinct uids, or hosts, of @x's uses, as a list capped at @cap (text.c). */
char *check_exe_uids(const struct check_exe *x, int cap);
char *check_exe_hosts(const struct check_exe *x, int cap);

/*
 * The judged @c (its usage DB @db) as @f: FMT_TEXT fitted to @width (0:
 * not), FMT_MARKDOWN or FMT_CSV. Uses are summed per executable across
 * hosts and uids, host lists capped, unless @by_host: a line per (exe,
 * uid, host) and every list in full. CSV has a row per use, as JSON.
 */
void check_print(const struct check *c, const char *db, bool by_host, FILE *out,
		 enum out_format f, int width);

#endif
