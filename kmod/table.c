// SPDX-License-Identifier: GPL-2.0
/*
 * The compiled-in table: aliases abidep adds to devices of unmodified
 * drivers. Each entry is the rename of a real kernel attribute.
 */
#include "abidep_internal.h"

static struct abidep_entry abidep_builtin_entries[] = {
	{
		/*
		 * ir-core, commit b320f80a6a02 (2.6.35): current_protocol
		 * became protocol plus supported_protocols; rc-core since
		 * shows both in protocols, the active ones in brackets.
		 */
		.class_name = "rc",
		.old_name = "current_protocol",
		.new_name = "protocols",
		.deprecated = "2010-04-08",
		.remove_after = "2012-04-08",
		.hint = "protocols lists the supported protocols, the enabled ones in brackets",
	},
};

struct abidep_table abidep_builtin_table = {
	.entries = abidep_builtin_entries,
	.nr = ARRAY_SIZE(abidep_builtin_entries),
};
