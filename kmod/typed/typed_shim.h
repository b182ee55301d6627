/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Just enough of the kernel for typed_parse.c to build in userspace, for the
 * fuzzer (tests/fuzz/fuzz_typed.c). sysfs_emit_at() keeps the kernel's
 * bounds (a negative offset, or one past the page) and aborts where the
 * kernel would WARN, so a format that could outgrow its page is a crash the
 * fuzzer reports. It does not check that buf is page-aligned, as the
 * kernel's does: the harness's buffers are not pages.
 */
#ifndef _ABIDEP_TYPED_SHIM_H
#define _ABIDEP_TYPED_SHIM_H

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef unsigned long long u64;

#define PAGE_SIZE	4096
#define BITS_PER_LONG	((int)(sizeof(long) * CHAR_BIT))
#define BIT(n)		(1UL << (n))
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
/* No modules here: an export is a harmless declaration. */
#define EXPORT_SYMBOL_GPL(sym)	extern int abidep_shim_exported_##sym
#define check_add_overflow(a, b, d)	__builtin_add_overflow(a, b, d)
#define check_mul_overflow(a, b, d)	__builtin_mul_overflow(a, b, d)

static inline int sysfs_emit_at(char *buf, int at, const char *fmt, ...)
{
	va_list args;
	int len;

	if (!buf || at < 0 || at >= PAGE_SIZE)
		abort();
	va_start(args, fmt);
	len = vsnprintf(buf + at, PAGE_SIZE - at, fmt, args);
	va_end(args);
	if (len < 0)
		return 0;
	return len >= PAGE_SIZE - at ? PAGE_SIZE - at - 1 : len;
}

#endif /* _ABIDEP_TYPED_SHIM_H */
