/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ABIDEP_EXPORT_H
#define ABIDEP_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "abi.h"

/*
 * One entry as Documentation/ABI text; with @ours, our fields too; @users
 * its Users: text instead of its own (NULL: its own).
 */
void export_entry_text(FILE *f, const struct abi_entry *e, bool ours, const char *users);
/*
 * Strict Documentation/ABI text of every entry, as one stream; @users
 * (NULL: none), indexed as set->entries, the Users: text of each entry
 * (export_users.h), NULL where the entry keeps its own.
 */
void export_abi(FILE *f, const struct abi_set *set, char *const *users);
/*
 * The same, one file per table (with its introduction) in @dir, each
 * written as -o writes (output.h); -1 with a message in @err.
 */
int export_abi_dir(const char *dir, const struct abi_set *set, char *const *users,
		   char *err, size_t errlen);
/*
 * The What lines of the alias form (deprecated /sys/class/CLASS/<dev>/OLD
 * replaced by one file beside it) that export_c() cannot export, having no
 * Remove-after:, each named on @f with what to add; returns their count.
 */
int export_c_unexpressible(FILE *f, const struct abi_set *set);
/* The kernel module's table (kmod/table_gen.h); returns its entry count. */
int export_c(FILE *f, const struct abi_set *set);
/* Whether the module makes What @k of @e itself (an entry export_c() exports). */
bool export_module_alias(const struct abi_entry *e, int k);

#endif
