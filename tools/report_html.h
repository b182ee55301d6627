/* SPDX-License-Identifier: GPL-2.0 */
/* abidep report --format html: report_html.c. */
#ifndef ABIDEP_REPORT_HTML_H
#define ABIDEP_REPORT_HTML_H

#include "abi.h"
#include "store.h"

struct owner;

/*
 * The page of the open store @s (rows as @f selects them), executables'
 * packages from @owner, known enumerators from @set, to @out atomically
 * (NULL: standard output). An exit status; the message printed.
 */
int report_html(struct store *s, const struct store_filter *f, struct owner *owner,
		const struct abi_set *set, const char *db, const char *out);

#endif
