// SPDX-License-Identifier: GPL-2.0
/*
 * abidep scan: how sure a name found in a file is a reference to a What
 * (strong, medium, weak), from the path-like text around it. The rules are
 * in Documentation/admin-guide/scan.rst.
 */
#include <fnmatch.h>
#include <string.h>

#include "pattern.h"
#include "scan_int.h"

static bool is_word(unsigned char c)
{
	return scan_word_tab()[c];
}

/* A byte that may be part of a path as programs write it. */
bool scan_path_byte(unsigned char c)
{
	if (c <= 0x20 || c >= 0x7f)
		return false;
	return !strchr("\"'`<>|;,=()\\", c);
}

/* Length of a printf conversion or shell variable at @p (in [p, end)), or 0. */
static size_t var_len(const char *p, const char *end)
{
	const char *q = p + 1;

	if (q >= end)
		return 0;
	if (*p == '%') {
		while (q < end && strchr("-+ #0123456789.*lhjztL", *q))
			q++;
		return q < end && ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z')) ?
			(size_t)(q + 1 - p) : 0;
	}
	if (*p == '$') {
		if (*q == '{') {
			const char *c = memchr(q, '}', end - q);

			return c ? (size_t)(c + 1 - p) : 0;
		}
		while (q < end && is_word(*q))
			q++;
		return q - p > 1 ? (size_t)(q - p) : 0;
	}
	return 0;
}

/*
 * Does concrete component [c, c+n) match glob @g? A component that is one
 * variable ($dev, ${dev}, %s, %k, *) matches any when @vars; within a
 * component, variables stand for "0" ("rc%u" is "rc0", which rc* matches).
 */
static bool comp_match(const char *g, const char *c, size_t n, bool vars)
{
	char buf[2 * SCAN_CTX_MAX + SCAN_MAX_NEEDLE + 1], *o = buf;
	const char *p = c, *end = c + n;
	bool had_var = false;

	if (n == 1 && *c == '*')
		return vars;
	while (p < end) {
		size_t v = var_len(p, end);

		if (v) {
			if (v == n)
				return vars;
			*o++ = '0';
			p += v;
			had_var = true;
		} else {
			*o++ = *p++;
		}
	}
	*o = '\0';
	if (had_var && !vars)
		return false;
	return !fnmatch(g, buf, 0);
}

struct comp {
	const char *s;
	size_t n;
};

/* Match token components t[ti..] against glob components from gi; "..." is
 * one or more components. */
static bool comps_match(const struct abi_glob *g, int gi, const struct comp *t,
			int nt, int ti)
{
	if (gi == g->ncomp)
		return ti == nt;
	if (ti == nt)
		return false;
	if (!strcmp(g->comp[gi], "...")) {
		int k;

		for (k = ti + 1; k <= nt; k++)
			if (comps_match(g, gi + 1, t, nt, k))
				return true;
		return false;
	}
	return comp_match(g->comp[gi], t[ti].s, t[ti].n, true) &&
	       comps_match(g, gi + 1, t, nt, ti + 1);
}

/*
 * A sysctl's key, as sysctl(8) and /etc/sysctl.d write it
 * (net.ipv6.neigh.default.retrans_time): for a glob under /proc/sys, STRONG
 * if it is the key of a file @g matches, and NONE if not (another sysctl's,
 * as ipv4's of the same name); WEAK for any other glob.
 */
static enum scan_confidence sysctl_key(const struct abi_glob *g, const char *ts,
				       const char *ne)
{
	struct comp t[SCAN_CTX_MAX + SCAN_MAX_NEEDLE] = { { 0 } };
	const char *p = ts, *q;
	int nt = 0;

	if (g->ncomp < 3 || strcmp(g->comp[0], "proc") || strcmp(g->comp[1], "sys"))
		return SCAN_WEAK;
	while (p < ne && nt < (int)(sizeof(t) / sizeof(t[0]))) {
		q = memchr(p, '.', ne - p);
		if (!q)
			q = ne;
		t[nt].s = p;
		t[nt].n = q - p;
		nt++;
		p = q + 1;
	}
	return comps_match(g, 2, t, nt, 0) ? SCAN_STRONG : SCAN_NONE;
}

/*
 * udev's keys that read the device's attribute they name (udev(7)): the
 * match keys ATTR{name} and ATTRS{name} (ATTRS: of the device or a parent)
 * and the substitutions $attr{name} and %s{name}.
 */
static bool udev_attr(const char *ts, const char *ns, const char *ne, const char *te)
{
	static const char *const keys[] = { "ATTR{", "ATTRS{", "$attr{", "%s{" };
	size_t i;

	if (ne >= te || *ne != '}')
		return false;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if ((size_t)(ns - ts) == strlen(keys[i]) && !memcmp(ts, keys[i], ns - ts))
			return true;
	return false;
}

/*
 * Is the file at @rel (relative to the root) documentation: under
 * usr/share/doc, man or info, or named README*, NEWS*, CHANGELOG* or *.md?
 * A name there is a mention, not a use (scan.rst).
 */
bool scan_is_doc(const char *rel)
{
	static const char *const dirs[] = {
		"usr/share/doc/", "usr/share/man/", "usr/share/info/",
	};
	const char *base = strrchr(rel, '/');
	size_t i, n;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (!strncmp(rel, dirs[i], strlen(dirs[i])))
			return true;
	base = base ? base + 1 : rel;
	n = strlen(base);
	return !strncmp(base, "README", 6) || !strncmp(base, "NEWS", 4) ||
	       !strncmp(base, "CHANGELOG", 9) || (n > 3 && !strcmp(base + n - 3, ".md"));
}

/*
 * How sure is it that the token [ts, te) (the name at [ns, ne)) refers to
 * glob @g: STRONG, the whole token up to the name's end is an absolute
 * path @g matches, a sysctl key that names it, or a udev key that reads
 * the attribute (ATTR{name}); MEDIUM, the component before the name
 * matches @g's; else WEAK; NONE, the key of another sysctl.
 */
enum scan_confidence scan_classify(const struct abi_glob *g, const char *ts,
				   const char *ns, const char *ne, const char *te)
{
	struct comp t[SCAN_CTX_MAX + SCAN_MAX_NEEDLE] = { { 0 } };
	int nt = 0;
	const char *p = ts, *q;

	if (ns > ts && ns[-1] == '.' && !memchr(ts, '/', ns - ts))
		return sysctl_key(g, ts, ne);
	if (ns > ts && ns[-1] == '{' && udev_attr(ts, ns, ne, te))
		return SCAN_STRONG;

	/* The name must be a whole component. */
	if (ns > ts && ns[-1] != '/')
		return SCAN_WEAK;
	if (ns == ts)
		return SCAN_WEAK;
	while (p < ne) {
		q = memchr(p, '/', ne - p);
		if (!q)
			q = ne;
		if (q > p && !(q - p == 1 && *p == '.')) {
			t[nt].s = p;
			t[nt].n = q - p;
			nt++;
		}
		p = q + 1;
	}
	if (*ts == '/' && comps_match(g, 0, t, nt, 0))
		return SCAN_STRONG;
	if (nt >= 2 && g->ncomp >= 2) {
		const char *gp = g->comp[g->ncomp - 2];

		if (!strcmp(gp, "...") ||
		    comp_match(gp, t[nt - 2].s, t[nt - 2].n, false))
			return SCAN_MEDIUM;
	}
	return SCAN_WEAK;
}
