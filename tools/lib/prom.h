/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Prometheus text exposition format, for node_exporter's textfile
 * collector (abidep report --format prometheus). Samples are collected,
 * then written sorted: families by name, samples by their labels, so the
 * same data always gives the same bytes.
 */
#ifndef ABIDEP_PROM_H
#define ABIDEP_PROM_H

#include <stddef.h>
#include <stdio.h>

/*
 * The sessions report --format prometheus exports: those that synced in
 * the last this many days (and each host's latest), so that a long-lived
 * fleet DB does not export every session it ever had; check --prometheus
 * looks back as far.
 */
#define PROM_HORIZON_DAYS	45

struct prom;

struct prom *prom_new(void);
void prom_free(struct prom *p);

/* Start (or go back to) the family @name; @type "counter" or "gauge". */
void prom_family(struct prom *p, const char *name, const char *type,
		 const char *help);

/*
 * A sample of the current family: @n label names and values (values
 * escaped here; NULL is ""), and the value as text.
 */
void prom_sample(struct prom *p, const char *const *names,
		 const char *const *values, int n, const char *value);

/* Everything, sorted; -1 with errno on a write error. */
int prom_write(const struct prom *p, FILE *out);

/*
 * Write to @path atomically, as the textfile collector requires: a
 * temporary file in the same directory (named .NAME.XXXXXX: the collector
 * reads only *.prom), synced, then renamed over @path. -1 with a message
 * in @err, and @path untouched, on failure.
 */
int prom_write_file(const struct prom *p, const char *path, char *err, size_t errlen);

/*
 * @s as a label value (malloc'd): \ " and newline escaped, invalid UTF-8
 * as U+FFFD, C1 controls and bidirectional overrides as \uNNNN.
 */
char *prom_escape_label(const char *s);

#endif
