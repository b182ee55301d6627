// SPDX-License-Identifier: GPL-2.0
/*
 * What: paths as patterns. A path uses the kernel's placeholders (<N>, rcN,
 * gpioX, *, [0-9]+, {a,b}); each becomes a shell glob per path component, and
 * braces expand into several globs. See Documentation/admin-guide/migration-tables.rst.
 */
#include <ctype.h>
#include <dirent.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pattern.h"
#include "util.h"

#define PATTERN_MAX_ALTS 4096

static inline bool abi_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Length of the path part: up to white space outside <...>. */
size_t abi_path_len(const char *what)
{
	size_t i;
	int angle = 0;

	for (i = 0; what[i]; i++) {
		char c = what[i];

		if (c == '<')
			angle++;
		else if (c == '>' && angle)
			angle--;
		else if (!angle && abi_space(c))
			break;
	}
	return i;
}

bool abi_is_path(const char *what)
{
	return what[0] == '/';
}

/*
 * The characters abi_pattern_check() does nothing about outside <...>:
 * printable, not white space, no bracket, brace or '/'. Most of a What;
 * skipping them by table made the check a third of what it cost.
 */
#define PLAIN(c) ((c) > 0x20 && (c) < 0x7f && (c) != '<' && (c) != '>' && (c) != '[' && \
		  (c) != ']' && (c) != '{' && (c) != '}' && (c) != '/')
#define PLAIN4(c) PLAIN(c), PLAIN((c) + 1), PLAIN((c) + 2), PLAIN((c) + 3)
#define PLAIN16(c) PLAIN4(c), PLAIN4((c) + 4), PLAIN4((c) + 8), PLAIN4((c) + 12)
#define PLAIN64(c) PLAIN16(c), PLAIN16((c) + 16), PLAIN16((c) + 32), PLAIN16((c) + 48)
static const bool plain[256] = { PLAIN64(0), PLAIN64(64), PLAIN64(128), PLAIN64(192) };

const char *abi_pattern_check(const char *what)
{
	size_t len, i, comp = 0;
	int angle = 0, square = 0, brace = 0;

	if (!abi_is_path(what))
		return "not an absolute path";
	/* One pass: the path ends at white space outside <...>. */
	for (i = 0; what[i]; i++) {
		unsigned char c;

		while (!angle && plain[(unsigned char)what[i]])
			i++;
		c = what[i];
		if (!c)
			break;
		if (!angle && abi_space(c))
			break;

		if (c < 0x20 || c >= 0x7f)
			return "control or non-ASCII character";
		/*
		 * A placeholder is one name, whatever its text: 6.12's
		 * rp_<A/B/C/D>_data is one component, not four.
		 */
		if (angle) {
			if (c == '>')
				angle = 0;
			else if (c == '<')
				return "'<' without '>'";
			continue;
		}
		switch (c) {
		case '<':
			angle = 1;
			break;
		case '[':
			if (square)
				return "'[' inside '[...]'";
			square = 1;
			if (what[i + 1] == ']')
				return "empty '[]'";
			break;
		case ']':
			if (!square)
				return "']' without '['";
			square = 0;
			break;
		case '{':
			brace++;
			break;
		case '}':
			if (!brace)
				return "'}' without '{'";
			brace--;
			break;
		case '>':
			return "'>' without '<'";
		case '/':
			if (square || brace)
				return "'/' inside '[...]' or '{...}'";
			if (i && comp == i) {
				/* "//" inside; a trailing "/" names a directory */
				if (what[i + 1] && !abi_space(what[i + 1]))
					return "empty path component ('//')";
			} else if (i) {
				size_t n = i - comp;

				if ((n == 1 && what[comp] == '.') ||
				    (n == 2 && !strncmp(what + comp, "..", 2)))
					return "'.' or '..' component";
			}
			comp = i + 1;
			break;
		}
	}
	len = i;
	if (angle)
		return "'<' without '>'";
	if (square)
		return "'[' without ']'";
	if (brace)
		return "'{' without '}'";
	if (comp < len && ((len - comp == 1 && what[comp] == '.') ||
			   (len - comp == 2 && !strncmp(what + comp, "..", 2))))
		return "'.' or '..' component";
	return NULL;
}

/* The '}' closing the '{' at @open, or NULL. */
static const char *abi_close_brace(const char *open)
{
	int depth = 0;

	for (; *open; open++) {
		if (*open == '{')
			depth++;
		else if (*open == '}' && !--depth)
			return open;
	}
	return NULL;
}

/* Expand @s's braces ({a,b}, {a|b}, nested) into @out, at most a few thousand. */
static void abi_expand(const char *s, char ***out, int *n, int *cap)
{
	const char *open = strchr(s, '{'), *close, *alt, *q;
	int depth = 0;

	if (*n >= PATTERN_MAX_ALTS)
		return;
	close = open ? abi_close_brace(open) : NULL;
	if (!close) {
		*GROW(*out, *n, *cap) = xstrdup(s);
		return;
	}
	alt = open + 1;
	for (q = open + 1; q <= close; q++) {
		if (*q == '{') {
			depth++;
		} else if (*q == '}' && depth) {
			depth--;
		} else if (!depth && (*q == ',' || *q == '|' || q == close)) {
			char *t = xasprintf("%.*s%.*s%s", (int)(open - s), s,
					    (int)(q - alt), alt, close + 1);

			abi_expand(t, out, n, cap);
			free(t);
			alt = q + 1;
		}
	}
}

/* One component to a glob: placeholders to *, [0-9]+ to [0-9]*. */
static char *abi_comp_glob(const char *c, size_t len)
{
	char *g = xmalloc(2 * len + 2), *o = g;
	size_t i;

	for (i = 0; i < len; i++) {
		char ch = c[i];

		if (ch == '<') {
			const char *end = memchr(c + i, '>', len - i);

			if (end) {
				*o++ = '*';
				i = end - c;
				continue;
			}
		}
		if (ch == ']' && i + 1 < len && c[i + 1] == '+') {
			*o++ = ']';
			*o++ = '*';
			i++;
			continue;
		}
		if (strchr("NXYZ", ch) &&
		    !(i && isupper((unsigned char)c[i - 1])) &&
		    !(i + 1 < len && isupper((unsigned char)c[i + 1]))) {
			*o++ = '*';
			continue;
		}
		*o++ = ch;
	}
	*o = '\0';
	return g;
}

/* The length of the component at @p: up to a '/' outside <...>. */
static size_t abi_comp_len(const char *p)
{
	size_t n;
	int angle = 0;

	for (n = 0; p[n] && (angle || p[n] != '/'); n++) {
		if (p[n] == '<')
			angle = 1;
		else if (p[n] == '>')
			angle = 0;
	}
	return n;
}

static void abi_glob_from(const char *path, struct abi_glob *g)
{
	const char *p = path;
	size_t len = strlen(path);
	int cap = 0;

	memset(g, 0, sizeof(*g));
	g->dir = len > 1 && path[len - 1] == '/';
	while (*p) {
		size_t n;

		while (*p == '/')
			p++;
		n = abi_comp_len(p);
		if (n)
			*GROW(g->comp, g->ncomp, cap) = abi_comp_glob(p, n);
		p += n;
	}
}

int abi_pattern_globs(const char *what, struct abi_glob **out)
{
	char *path = xstrndup(what, abi_path_len(what));
	char **alts = NULL;
	int n = 0, cap = 0, i;
	struct abi_glob *g;

	abi_expand(path, &alts, &n, &cap);
	free(path);
	g = xcalloc(n, sizeof(*g));
	for (i = 0; i < n; i++) {
		abi_glob_from(alts[i], &g[i]);
		free(alts[i]);
	}
	free(alts);
	*out = g;
	return n;
}

void abi_globs_free(struct abi_glob *g, int n)
{
	int i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < g[i].ncomp; j++)
			free(g[i].comp[j]);
		free(g[i].comp);
	}
	free(g);
}

static bool abi_has_meta(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

bool abi_comp_match(const char *glob, const char *name)
{
	if (!abi_has_meta(glob))
		return !strcmp(glob, name);
	return name[0] != '.' && !fnmatch(glob, name, 0);
}

static int abi_walk(const struct abi_glob *g, int k, char *path,
		    abi_resolve_cb cb, void *arg)
{
	struct stat st;
	int ret = 0;

	if (k == g->ncomp) {
		if (stat(path, &st))
			return 0;
		if (g->dir != !!S_ISDIR(st.st_mode))
			return 0;
		return cb(path, arg);
	}
	if (!abi_has_meta(g->comp[k])) {
		char *sub = path_join(path, g->comp[k]);

		if (!lstat(sub, &st))
			ret = abi_walk(g, k + 1, sub, cb, arg);
		free(sub);
		return ret;
	}

	struct dirent **names;
	int i, n = scandir(path, &names, NULL, alphasort);

	for (i = 0; i < n; i++) {
		const char *name = names[i]->d_name;

		if (!ret && abi_comp_match(g->comp[k], name)) {
			char *sub = path_join(path, name);

			ret = abi_walk(g, k + 1, sub, cb, arg);
			free(sub);
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	return ret;
}

int abi_glob_resolve(const struct abi_glob *g, const char *root,
		     abi_resolve_cb cb, void *arg)
{
	char *start;
	int ret;

	/* A What under /sys: @root stands for /sys. */
	if (!g->ncomp || strcmp(g->comp[0], "sys"))
		return 0;
	start = xstrdup(root);
	ret = abi_walk(g, 1, start, cb, arg);
	free(start);
	return ret;
}
