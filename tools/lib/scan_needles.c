// SPDX-License-Identifier: GPL-2.0
/*
 * abidep scan: the names searched for. Each deprecated or removed What
 * gives its last component (character classes expanded) as a whole-word
 * needle, with the Whats it may stand for. See Documentation/admin-guide/scan.rst.
 */
#include <stdlib.h>
#include <string.h>

#include "pattern.h"
#include "scan_int.h"
#include "util.h"

/* Built on the first call, which scan_needles_build() makes before any thread. */
const unsigned char *scan_word_tab(void)
{
	static unsigned char t[256];
	static int done;
	int c;

	if (!done) {
		for (c = 0; c < 256; c++)
			t[c] = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
			       (c >= 'A' && c <= 'Z') || c == '_';
		done = 1;
	}
	return t;
}

static void cands_add(struct scan_needle *nd, const struct abi_entry *e,
		      const char *what, const struct abi_glob *g,
		      const char *prefix, size_t plen)
{
	struct scan_cand *c = GROW(nd->cands, nd->ncands, nd->ccap);

	c->entry = e;
	c->what = what;
	c->glob = g;
	c->prefix = plen ? xstrndup(prefix, plen) : NULL;
	c->plen = plen;
}

static struct scan_needle *needle_get(struct scan_needles *ns, const char *name,
				      size_t len)
{
	int i;

	for (i = 0; i < ns->n; i++)
		if (ns->v[i].len == len && !memcmp(ns->v[i].name, name, len))
			return &ns->v[i];
	struct scan_needle *nd = GROW(ns->v, ns->n, ns->cap);

	memset(nd, 0, sizeof(*nd));
	nd->name = xstrndup(name, len);
	nd->len = len;
	nd->common = true;
	for (i = 0; i < (int)len; i++)
		if (name[i] < 'a' || name[i] > 'z')
			nd->common = false;
	return nd;
}

static bool all_word(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!scan_word_tab()[(unsigned char)s[i]])
			return false;
	return n > 0;
}

/*
 * The literal names a last component stands for: itself, or with its
 * character classes ([1-5], [0-9]) expanded, at most 64 of them. A '*'
 * (a placeholder like Y in in_voltageY_en) cannot be listed: 0.
 */
static int expand_classes(const char *comp, char ***out)
{
	char **v = NULL, **nv;
	int n = 0, cap = 0, i;
	const char *p;

	*GROW(v, n, cap) = xstrdup("");
	for (p = comp; *p; p++) {
		const char *close;
		char set[256];
		int ns = 0, nn = 0, ncap = 0, k;

		if (*p == '*' || *p == '?')
			goto none;
		if (*p != '[') {
			for (i = 0; i < n; i++) {
				char *t = xasprintf("%s%c", v[i], *p);

				free(v[i]);
				v[i] = t;
			}
			continue;
		}
		close = strchr(p + 1, ']');
		if (!close || p[1] == '!' || p[1] == '^')
			goto none;
		for (const char *q = p + 1; q < close; q++) {
			if (q + 2 < close && q[1] == '-') {
				for (int c = (unsigned char)q[0]; c <= (unsigned char)q[2]; c++)
					set[ns++ & 255] = c;
				q += 2;
			} else {
				set[ns++ & 255] = *q;
			}
		}
		if (ns > 16 || (long)n * ns > 64)
			goto none;
		nv = NULL;
		for (i = 0; i < n; i++)
			for (k = 0; k < ns; k++)
				*GROW(nv, nn, ncap) = xasprintf("%s%c", v[i], set[k]);
		for (i = 0; i < n; i++)
			free(v[i]);
		free(v);
		v = nv;
		n = nn;
		cap = ncap;
		p = close;
	}
	*out = v;
	return n;
none:
	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
	*out = NULL;
	return 0;
}

void scan_needles_free(struct scan_needles *ns)
{
	int i;

	for (i = 0; i < ns->n; i++) {
		int c;

		for (c = 0; c < ns->v[i].ncands; c++)
			free((char *)ns->v[i].cands[c].prefix);
		free(ns->v[i].name);
		free(ns->v[i].cands);
	}
	free(ns->v);
	for (i = 0; i < ns->nglobs; i++)
		abi_globs_free(ns->globs[i].g, ns->globs[i].n);
	free(ns->globs);
	for (i = 0; i < ns->nskipped; i++)
		free(ns->skipped[i]);
	free(ns->skipped);
	free(ns->slots);
	memset(ns, 0, sizeof(*ns));
}

static void needles_index(struct scan_needles *ns)
{
	size_t cap = 64;
	int i;

	while (cap < 4 * (size_t)ns->n)
		cap *= 2;
	ns->mask = cap - 1;
	ns->slots = xcalloc(cap, sizeof(*ns->slots));
	ns->minlen = SCAN_MAX_NEEDLE;
	for (i = 0; i < ns->n; i++) {
		struct scan_needle *nd = &ns->v[i];
		size_t s = scan_run_hash((const unsigned char *)nd->name, nd->len) & ns->mask;

		while (ns->slots[s])
			s = (s + 1) & ns->mask;
		ns->slots[s] = nd;
		ns->last[nd->len][(unsigned char)nd->name[nd->len - 1] >> 3] |=
			1 << (nd->name[nd->len - 1] & 7);
		if (nd->len >= 2) {
			unsigned bg = (unsigned char)nd->name[0] |
				      (unsigned char)nd->name[1] << 8;

			ns->bigram[bg >> 3] |= 1 << (bg & 7);
		}
		if (nd->len < ns->minlen)
			ns->minlen = nd->len;
	}
}

static int needle_cmp(const void *a, const void *b)
{
	return strcmp(((const struct scan_needle *)a)->name,
		      ((const struct scan_needle *)b)->name);
}

/* Which entries are searched: deprecated or removed ones. */
static bool entry_wanted(const struct abi_entry *e)
{
	return e->status == ABI_ST_DEPRECATED || e->status == ABI_ST_REMOVED;
}

/*
 * The needle of the word @name ends with (after its last dot), with a
 * candidate for @what's glob @g: false when that is no word to search for.
 */
static bool add_name(struct scan_needles *ns, const struct abi_entry *e, const char *what,
		     const struct abi_glob *g, const char *name)
{
	/* memory.oom_control: oom_control, after "memory." */
	const char *dot = strrchr(name, '.');
	const char *word = dot ? dot + 1 : name;
	size_t plen = word - name, l = strlen(word);
	struct scan_needle *nd;
	int c;

	/* 2 bytes at least: the search's first test. */
	if (l < 2 || l > SCAN_MAX_NEEDLE || !all_word(word, l) || plen + l > SCAN_MAX_NEEDLE)
		return false;
	nd = needle_get(ns, word, l);
	/* One candidate per What and glob. */
	for (c = 0; c < nd->ncands; c++)
		if (nd->cands[c].what == what && nd->cands[c].glob == g)
			break;
	if (c == nd->ncands)
		cands_add(nd, e, what, g, name, plen);
	return true;
}

/* The needles of @what, of entry @e: how many names of its globs it added. */
static int add_what(struct scan_needles *ns, const struct abi_entry *e, const char *what)
{
	struct abi_glob *g;
	int a, x, n = abi_pattern_globs(what, &g), added = 0;
	struct scan_globs *sg = GROW(ns->globs, ns->nglobs, ns->gcap);

	sg->g = g;
	sg->n = n;
	for (a = 0; a < n; a++) {
		char **names;
		int nn;

		if (!g[a].ncomp)
			continue;
		nn = expand_classes(g[a].comp[g[a].ncomp - 1], &names);
		for (x = 0; x < nn; x++) {
			added += add_name(ns, e, what, &g[a], names[x]);
			free(names[x]);
		}
		free(names);
	}
	return added;
}

void scan_needles_build(struct scan_needles *ns, const struct abi_set *tables)
{
	int i, k;

	memset(ns, 0, sizeof(*ns));
	for (i = 0; i < tables->nentries; i++) {
		const struct abi_entry *e = &tables->entries[i];

		if (!entry_wanted(e))
			continue;
		for (k = 0; k < e->nwhat; k++) {
			const char *what = e->what[k];

			if (!abi_is_path(what) || abi_pattern_check(what) ||
			    !add_what(ns, e, what))
				*GROW(ns->skipped, ns->nskipped, ns->scap) = xstrdup(what);
		}
	}
	if (ns->n)
		qsort(ns->v, ns->n, sizeof(*ns->v), needle_cmp);
	needles_index(ns);
}
