/* SPDX-License-Identifier: GPL-2.0 */
/* Small helpers: allocation that dies on OOM, file reading, paths. */
#ifndef ABIDEP_UTIL_H
#define ABIDEP_UTIL_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

void die_oom(void) __attribute__((noreturn));
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Append a zeroed element to a growable array; evaluates to its address. */
#define GROW(arr, n, cap)						\
	((n) == (cap) ?							\
	 ((cap) = (cap) ? 2 * (cap) : 16,				\
	  (arr) = xrealloc((arr), (cap) * sizeof(*(arr)))) : (arr),	\
	 memset(&(arr)[(n)], 0, sizeof(*(arr))),			\
	 &(arr)[(n)++])

/* All of @fp, NUL-terminated; NULL with errno set (EFBIG past @max). */
char *read_all(FILE *fp, size_t max, size_t *len);
char *path_join(const char *dir, const char *name);

/*
 * A size in bytes: digits, then K, M, G or T (powers of 1024; "iB" or "B"
 * after it allowed). 0, or -1 when @s is not one or overflows.
 */
int parse_size(const char *s, unsigned long long *out);

/*
 * A number from @min to @max, in decimal digits only (no sign, no space),
 * for an option's argument. 0, or -1 when @s is not one or is out of range.
 */
int parse_uint(const char *s, unsigned long min, unsigned long max, unsigned long *out);

/*
 * On merged-/usr systems /bin, /sbin and /lib* link to /usr/...: the kernel
 * names /usr/bin/cat where a package database may list /bin/cat, or the
 * other way round. The other name of @path (malloc'd), or NULL when it has
 * none (not under those directories, or not absolute).
 */
char *usr_twin(const char *path);

#endif
