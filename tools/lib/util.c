// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exit.h"
#include "util.h"

/*
 * EXIT_USAGE, not EXIT_FAIL: to the commands that answer a question (scan,
 * check, tables validate) 1 is an answer, and this is none.
 */
void die_oom(void)
{
	fputs("abidep: out of memory\n", stderr);
	exit(EXIT_USAGE);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die_oom();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		die_oom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die_oom();
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (!p)
		die_oom();
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		die_oom();
	va_end(ap);
	return s;
}

char *read_all(FILE *fp, size_t max, size_t *len)
{
	size_t cap = 65536, n = 0, r;
	char *buf = xmalloc(cap + 1);

	while ((r = fread(buf + n, 1, cap - n, fp)) > 0) {
		n += r;
		if (n > max) {
			free(buf);
			errno = EFBIG;
			return NULL;
		}
		if (n == cap) {
			cap *= 2;
			buf = xrealloc(buf, cap + 1);
		}
	}
	if (ferror(fp)) {
		free(buf);
		if (!errno)
			errno = EIO;
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

int parse_size(const char *s, unsigned long long *out)
{
	static const char units[] = "KMGT";
	unsigned long long v;
	const char *u;
	char *end;
	int shift;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	shift = 0;
	if (*end && (u = strchr(units, *end))) {
		shift = 10 * (int)(u - units + 1);
		end++;
		if (*end == 'i')
			end++;
		if (*end == 'B')
			end++;
	} else if (*end == 'B') {
		end++;
	}
	if (*end || (shift && v > (~0ull >> shift)))
		return -1;
	*out = v << shift;
	return 0;
}

int parse_uint(const char *s, unsigned long min, unsigned long max, unsigned long *out)
{
	unsigned long v;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

/* Copies, not xasprintf(): a thousand joins were 5% of tables validate. */
char *path_join(const char *dir, const char *name)
{
	size_t l = strlen(dir), n = strlen(name), slash = !l || dir[l - 1] != '/';
	char *p = xmalloc(l + slash + n + 1);

	memcpy(p, dir, l);
	p[l] = '/';
	memcpy(p + l + slash, name, n + 1);
	return p;
}

/* Is the first component of @p one that merged /usr links to /usr/...? */
static bool merged_dir(const char *p)
{
	static const char *const dirs[] = { "bin", "sbin", "lib", "lib32", "lib64", "libx32" };
	size_t i, l;

	if (*p++ != '/')
		return false;
	l = strcspn(p, "/");
	if (!p[l])
		return false;		/* the directory itself, or a file in / */
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (strlen(dirs[i]) == l && !strncmp(p, dirs[i], l))
			return true;
	return false;
}

char *usr_twin(const char *path)
{
	if (!path || *path != '/')
		return NULL;
	if (!strncmp(path, "/usr/", 5) && merged_dir(path + 4))
		return xstrdup(path + 4);
	return merged_dir(path) ? xasprintf("/usr%s", path) : NULL;
}
