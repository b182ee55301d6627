// SPDX-License-Identifier: GPL-2.0
/*
 * Which table entries a command means, and the tables' What index:
 * entry.h states the rule, Documentation/admin-guide/migration-tables.rst
 * ("Selecting entries") says it for users.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include <linux/types.h>

#include "abi.h"
#include "entry.h"
#include "pattern.h"
#include "util.h"
#include "bpf/abidep.h"

/* ---- the What index ---- */

/* By What, then reading order: a lookup finds the What read first. */
static int cmp_what(const void *a, const void *b)
{
	const struct abi_what *x = a, *y = b;
	int c = strcmp(x->what, y->what);

	return c ? c : (x->entry > y->entry) - (x->entry < y->entry);
}

void entry_index_build(struct abi_set *set)
{
	int i, k, n = 0;

	for (i = 0; i < set->nentries; i++)
		n += set->entries[i].nwhat;
	free(set->whats);
	set->whats = xcalloc(n + 1, sizeof(*set->whats));
	set->nwhats = 0;
	for (i = 0; i < set->nentries; i++)
		for (k = 0; k < set->entries[i].nwhat; k++)
			set->whats[set->nwhats++] = (struct abi_what){
				set->entries[i].what[k], i };
	qsort(set->whats, set->nwhats, sizeof(*set->whats), cmp_what);
}

int entry_what_pos(const struct abi_set *set, const char *what)
{
	int lo = 0, hi = set ? set->nwhats : 0;

	if (!what)
		return -1;
	/* The first position whose What is not below @what. */
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (strcmp(set->whats[mid].what, what) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return set && lo < set->nwhats && !strcmp(set->whats[lo].what, what) ? lo : -1;
}

const struct abi_entry *abi_entry_of_what(const struct abi_set *set, const char *what)
{
	int k = entry_what_pos(set, what);

	return k < 0 ? NULL : &set->entries[set->whats[k].entry];
}

/* ---- the rule ---- */

/* The next component of a path from @p, empty ones skipped, and its length; NULL: none. */
static const char *next_comp(const char *p, size_t *len)
{
	while (*p == '/')
		p++;
	*len = strcspn(p, "/");
	return *len ? p : NULL;
}

static bool glob_covers(const struct abi_glob *g, const char *path)
{
	const char *p = path, *c;
	size_t len;
	int k;

	for (k = 0; k < g->ncomp; k++) {
		char *name;
		bool ok;

		c = next_comp(p, &len);
		if (!c)
			return false;
		name = xstrndup(c, len);
		ok = abi_comp_match(g->comp[k], name);
		free(name);
		if (!ok)
			return false;
		p = c + len;
	}
	return !next_comp(p, &len);
}

bool entry_what_covers(const char *what, const char *path)
{
	struct abi_glob *g;
	bool hit = false;
	int n, i;

	if (path[0] != '/' || abi_pattern_check(what))
		return false;
	n = abi_pattern_globs(what, &g);
	for (i = 0; i < n && !hit; i++)
		hit = glob_covers(&g[i], path);
	abi_globs_free(g, n);
	return hit;
}

bool entry_what_selected(const char *pattern, const char *what)
{
	return strstr(what, pattern) || !fnmatch(pattern, what, 0) ||
	       (pattern[0] == '/' && entry_what_covers(what, pattern));
}

bool entry_selected(const struct abi_entry *e, const char *pattern)
{
	int k;

	if (!pattern)
		return true;
	for (k = 0; k < e->nwhat; k++)
		if (entry_what_selected(pattern, e->what[k]))
			return true;
	return false;
}

/* Whether @what is @name, or ends in it as its last component. */
static bool what_named(const char *what, const char *name)
{
	size_t wl = strlen(what), nl = strlen(name);

	return wl >= nl && !strcmp(what + wl - nl, name) &&
	       (wl == nl || what[wl - nl - 1] == '/');
}

static bool entry_named(const struct abi_entry *e, const char *name)
{
	int k;

	for (k = 0; k < e->nwhat; k++)
		if (what_named(e->what[k], name))
			return true;
	return false;
}

int entry_name_pick(const struct abi_set *set, bool *chosen, const char *pattern)
{
	int i, n = 0, hit = -1;

	if (!pattern || strpbrk(pattern, "/*?["))
		return 0;
	for (i = 0; i < set->nentries; i++)
		n += chosen[i];
	if (n < 2)
		return 0;
	for (i = 0; i < set->nentries; i++) {
		if (!chosen[i] || !entry_named(&set->entries[i], pattern))
			continue;
		if (hit >= 0)
			return -1;
		hit = i;
	}
	if (hit < 0)
		return -1;
	for (i = 0; i < set->nentries; i++)
		chosen[i] = i == hit;
	return 0;
}

int entry_covering(const struct abi_set *set, const char *path, int from)
{
	int i, k;

	for (i = from; set && path && i < set->nentries; i++)
		for (k = 0; k < set->entries[i].nwhat; k++)
			if (entry_what_covers(set->entries[i].what[k], path))
				return i;
	return -1;
}

int entry_of_use(const struct abi_set *set, const char *what, const char *path)
{
	int k;

	if (!set)
		return -1;
	if (what) {
		k = entry_what_pos(set, what);
		return k < 0 ? -1 : set->whats[k].entry;
	}
	return entry_covering(set, path, 0);
}

/* ---- the uses a pattern selects ---- */

void entry_sel_init(struct entry_sel *s, const struct abi_set *set,
		    const char *pattern)
{
	int i;

	memset(s, 0, sizeof(*s));
	s->pattern = pattern;
	s->set = set;
	if (!set)
		return;
	s->chosen = xcalloc(set->nentries + 1, sizeof(*s->chosen));
	for (i = 0; i < set->nentries; i++)
		s->chosen[i] = entry_selected(&set->entries[i], pattern);
}

void entry_sel_free(struct entry_sel *s)
{
	free(s->chosen);
	free(s->memo);
	memset(s, 0, sizeof(*s));
}

/*
 * The reads of a DB ask row by row, mostly of the same What over and
 * over: the last answer is kept.
 */
bool entry_sel_use(struct entry_sel *s, const char *what, const char *path)
{
	const char *key = what ? what : path;
	int i;

	if (!key)
		return false;
	if (s->memo && s->memo_path == !what && !strcmp(s->memo, key))
		return s->memo_hit;
	i = entry_of_use(s->set, what, path);
	free(s->memo);
	s->memo = xstrdup(key);
	s->memo_path = !what;
	if (i < 0) {
		s->memo_hit = entry_what_selected(s->pattern, key);
		return s->memo_hit;
	}
	/* A path without its What: selected if any entry covering it is. */
	while (i >= 0 && !what && !s->chosen[i])
		i = entry_covering(s->set, path, i + 1);
	s->memo_hit = i >= 0 && s->chosen[i];
	return s->memo_hit;
}

/* ---- specials ---- */

#define NEIGH6 "/proc/sys/net/ipv6/neigh/<interface>/"
#define MEMCG1 "/sys/fs/cgroup/memory/<cgroup>/memory."

static const char *const specials[ABIDEP_NR_SPECIALS] = {
	[ABIDEP_SP_NEIGH6_RETRANS_TIME] = NEIGH6 "retrans_time",
	[ABIDEP_SP_NEIGH6_BASE_REACHABLE_TIME] = NEIGH6 "base_reachable_time",
	[ABIDEP_SP_OOM_ADJ] = "/proc/<pid>/oom_adj",
	[ABIDEP_SP_MEMCG1_KMEM_LIMIT] = MEMCG1 "kmem.limit_in_bytes",
	[ABIDEP_SP_MEMCG1_KMEM_TCP_LIMIT] = MEMCG1 "kmem.tcp.limit_in_bytes",
	[ABIDEP_SP_MEMCG1_SOFT_LIMIT] = MEMCG1 "soft_limit_in_bytes",
	[ABIDEP_SP_MEMCG1_OOM_CONTROL] = MEMCG1 "oom_control",
	[ABIDEP_SP_MEMCG1_PRESSURE_LEVEL] = MEMCG1 "pressure_level",
	[ABIDEP_SP_MEMCG1_MOVE_CHARGE] = MEMCG1 "move_charge_at_immigrate",
};

int special_of(const char *what)
{
	int k;

	for (k = 0; k < ABIDEP_NR_SPECIALS; k++)
		if (!strcmp(what, specials[k]))
			return k;
	return -1;
}

bool what_in_sysfs(const char *what)
{
	return !strncmp(what, "/sys/", 5) && special_of(what) < 0;
}
