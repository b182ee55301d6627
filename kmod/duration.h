/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Durations: one grammar, built into the module (brownout.c, typed/) and
 * into the abidep command (tools/brownout.c), as when.h is for dates, so
 * that the two cannot disagree; and the bounds of the brownout control's
 * line, which the module enforces and the command checks first. Pure text
 * and arithmetic: no allocation, no lock. The grammar is in
 * Documentation/driver-api/typed-attributes.rst (duration); the test
 * vectors both sides run are in duration_vectors.h.
 */
#ifndef _ABIDEP_DURATION_H
#define _ABIDEP_DURATION_H

#ifdef __KERNEL__
#include <linux/limits.h>
#include <linux/types.h>
#else
#include <limits.h>
#include <stddef.h>
typedef unsigned long long u64;
#endif

/* The canonical unit of a duration: a typed attribute's, named in its file. */
enum abidep_duration_unit {
	ABIDEP_US,
	ABIDEP_MS,
	ABIDEP_S,
};

/* The longest number written, unit included (a u64 has 20 digits). */
#define ABIDEP_NUMBER_LEN_MAX		31

/* A brownout window: long enough for any rehearsal, short enough to be noticed. */
#define ABIDEP_BROWNOUT_SECONDS_MAX	86400
/* An entry's name in the control: OLD, or CLASS/OLD or MODULE/OLD. */
#define ABIDEP_BROWNOUT_NAME_MAX	(2 * NAME_MAX + 1)
/* The longest line the control takes: "NAME DURATION hide\n". */
#define ABIDEP_BROWNOUT_LINE_MAX	(ABIDEP_BROWNOUT_NAME_MAX + 1 + \
					 ABIDEP_NUMBER_LEN_MAX + sizeof(" hide\n") - 1)

int abidep_parse_number(const char *s, size_t len, u64 *num,
			const char **unit, size_t *unit_len);
int abidep_duration_parse(const char *s, size_t len,
			  enum abidep_duration_unit unit, u64 *out);
int abidep_brownout_seconds(const char *s, unsigned int *seconds);

#endif /* _ABIDEP_DURATION_H */
