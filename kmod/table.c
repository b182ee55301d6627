// SPDX-License-Identifier: GPL-2.0
/*
 * The compiled-in table: aliases abidep adds to devices of unmodified
 * drivers, generated from migration-tables/ into table_gen.h by
 * `make tables` (abidep tables export --c).
 */
#include "abidep_internal.h"

#include "table_gen.h"

struct abidep_table abidep_builtin_table = {
	.entries = abidep_builtin_entries,
	.nr = ARRAY_SIZE(abidep_builtin_entries),
};
