/* SPDX-License-Identifier: GPL-2.0 */
/*
 * abidep report's printers, of the one model report.c has read
 * (lib/report_model.h): JSON (report.c), Prometheus (report_prom.c), text,
 * Markdown and CSV (report_text.c), HTML (report_html.h). None reads the
 * store.
 */
#ifndef ABIDEP_REPORT_H
#define ABIDEP_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "output.h"
#include "report_model.h"

/* "early, +3 s", "initramfs" (how long after boot unknown), or "-": as every format says it. */
char *report_boot_text(const struct report_boot *b);

/* A sweep, or a user by name: see usage_all_swept(). */
const char *report_how(const struct usage_counts *c);

/*
 * @r as @f: FMT_TEXT fitted to @width (0: not), FMT_MARKDOWN or FMT_CSV.
 * Text and Markdown sum each entry's users per executable across hosts,
 * host lists capped, unless @by_host: a row per (exe, uid, cgroup, op,
 * host) and lists in full. CSV has a row per user, as JSON.
 */
void report_print(const struct report *r, bool by_host, FILE *out, enum out_format f,
		  int width);

/*
 * @r (REPORT_FILE_USES and REPORT_SESSIONS read) as node_exporter textfile
 * metrics, to @out (NULL: standard output): the sessions of the
 * PROM_HORIZON_DAYS before @now and each host's latest, the Remove-after
 * dates of @r's tables' entries @pattern (--entry; NULL: all) selects.
 * An exit status.
 */
int report_prom_print(const struct report *r, const char *pattern, long long now,
		      const char *out);

#endif
