/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The text layer of abidep's typed sysfs attributes: parse what userspace
 * writes and format what it reads, for enums, sets, booleans, durations and
 * sizes. Nothing here knows about devices, locks or kobjects, so the same
 * file also builds in userspace (through typed_shim.h) for the fuzzer.
 *
 * Every parser takes the bytes of one write, @buf and @len (no NUL needed),
 * and either returns 0 with the new value or a negative errno having
 * written nothing. The formats are in
 * Documentation/driver-api/typed-attributes.rst.
 */
#ifndef _ABIDEP_TYPED_PARSE_H
#define _ABIDEP_TYPED_PARSE_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include "typed_shim.h"
#endif

/* Durations and numbers: the grammar the module and the tools share. */
#include "../duration.h"

/*
 * Bounds that keep every read within a page: at most 32 names (a set is an
 * unsigned long on every architecture) of at most 31 characters each, so
 * "[name] " * 32 stays under 1.1 KiB.
 */
#define ABIDEP_TYPED_NAMES_MAX	32
#define ABIDEP_TYPED_NAME_MAX	31

bool abidep_typed_names_valid(const char * const *names, unsigned int nr,
			      bool is_set);
int abidep_parse_enum(const char * const *names, unsigned int nr,
		      const char *buf, size_t len, unsigned int *out);
int abidep_parse_set(const char * const *names, unsigned int nr,
		     unsigned long cur, const char *buf, size_t len,
		     unsigned long *out);
int abidep_parse_bool(const char *buf, size_t len, bool *out);
int abidep_parse_duration(enum abidep_duration_unit unit, const char *buf,
			  size_t len, u64 *out);
int abidep_parse_size(const char *buf, size_t len, u64 *out);

int abidep_format_enum(const char * const *names, unsigned int nr,
		       unsigned int cur, char *buf);
int abidep_format_set(const char * const *names, unsigned int nr,
		      unsigned long cur, char *buf);
int abidep_format_u64(u64 val, char *buf);

#endif /* _ABIDEP_TYPED_PARSE_H */
