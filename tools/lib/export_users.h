/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tables export --users: each migration entry's Users: text from the
 * evidence of a check model (check_eval.h), for a maintainer to paste into
 * Documentation/ABI: the executables its usage DB saw using the entry, and
 * the source packages (with their maintainers) whose files reference it.
 * Every name in it comes from outside (a traced process, a package's
 * control data): each is cleaned to one line (text_clean()), so that none
 * can start a field of its own. Documentation/man/abidep-tables.rst shows
 * the form.
 */
#ifndef ABIDEP_EXPORT_USERS_H
#define ABIDEP_EXPORT_USERS_H

#include <stdbool.h>

#include "check_eval.h"

/* How many files of a package a Users: line names, then "and N more". */
#define USERS_FILES_SHOWN	3

/*
 * The Users: text of each entry of the model's tables, indexed as
 * c->set->entries (for export_abi()): the entry's own Users: text, then
 * a line saying where the evidence comes from (@db: the model read a
 * usage DB; c->pkgs_scanned: package files), then the evidence, as
 * Documentation/ABI continuation lines. NULL where there is none: the
 * entry keeps its own. The uses counted are check's (known enumerators
 * and sweeps are none), over check's quiet window; the references, the
 * strong and medium ones. Free with users_free().
 */
char **users_texts(const struct check *c, bool db);
void users_free(char **users, int n);

/* The package files of c->pkgscan that could not be read (whole). */
int users_unread(const struct check *c);

#endif
