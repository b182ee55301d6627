/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which table entries a command means: the one rule for --entry PATTERN
 * (check, report) and tables show PATTERN; the tables' What index; the
 * entry a recorded use belongs to; the Whats outside sysfs the tracer
 * knows by name (specials). Documentation/admin-guide/migration-tables.rst
 * ("Selecting entries") says the rule for users; the commands' pages
 * point there.
 *
 * PATTERN selects a What W when
 *   1. W contains PATTERN ("rcN", "current_protocol"); or
 *   2. the glob PATTERN (fnmatch(3), no flags: '*' matches '/' too)
 *      matches W as a whole ("*cpuidle?current_governor*"); or
 *   3. PATTERN starts with '/' and is a concrete path that W covers
 *      (entry_what_covers()): "/sys/class/rc/rc0/current_protocol" is
 *      under "/sys/class/rc/rcN/current_protocol".
 * It selects an entry when it selects one of the entry's Whats, and the
 * recorded uses (a usage DB's rows) of the entries it selects: every What
 * of them, every file. A use belongs to the entry of the What the tracer
 * recorded with it; without one (an older tracer's), to the first entry,
 * in reading order, with a What that covers its path (the What the
 * tracer would have recorded). A use of no entry of the tables (a DB of
 * other tables; no tables read) stands alone: rules 1-3 on its What, or on
 * its path when it has none. A pattern may select many entries, or none.
 */
#ifndef ABIDEP_ENTRY_H
#define ABIDEP_ENTRY_H

#include <stdbool.h>

struct abi_set;
struct abi_entry;

/* One What of a set in its index (abi_set.whats): the set's entry @entry. */
struct abi_what {
	const char *what;
	int entry;
};

/*
 * Build @set's What index, sorted by What (strcmp()), equal Whats in
 * reading order; abi_check() does, after the tables are read.
 */
void entry_index_build(struct abi_set *set);

/* The index position of What @what (NULL: none): the first of equal ones, or -1. */
int entry_what_pos(const struct abi_set *set, const char *what);
/* The entry of @set with the What @what (the first, read first), or NULL. */
const struct abi_entry *abi_entry_of_what(const struct abi_set *set, const char *what);

/*
 * Does What @what cover the concrete @path? Component by component, W's
 * glob of it (a placeholder is a wildcard: migration-tables.rst) against
 * the path's name, as the tracer resolves W in /sys (abi_comp_match(): a
 * wildcard matches no name starting with '.'); empty components of @path
 * ("//", a trailing '/') are none, as the kernel reads a path. A W that
 * is not a good pattern covers nothing, as the tracer watches nothing of it.
 */
bool entry_what_covers(const char *what, const char *path);

/* Does @pattern select @what (rules 1-3 above)? */
bool entry_what_selected(const char *pattern, const char *what);
/* Does @pattern select an entry: one of its Whats? NULL selects all. */
bool entry_selected(const struct abi_entry *e, const char *pattern);

/*
 * The entry (its index in @set) a use of @path under What @what belongs
 * to (@what NULL: by @path), or -1: none of @set's. @set may be NULL.
 */
int entry_of_use(const struct abi_set *set, const char *what, const char *path);
/*
 * The first entry at or after index @from whose What covers @path, or -1.
 * A path may be covered by several: a use of it is a use of each, so a
 * caller selecting entries looks on past one it did not select.
 */
int entry_covering(const struct abi_set *set, const char *path, int from);

/*
 * --entry NAME, for every command that takes it: a @pattern that is a name
 * (no '/', no glob character) names one entry. Among the entries of @set
 * that @chosen marks (per index), when there are several: the one with a
 * What that is, or ends in, NAME as its last component is left alone in
 * @chosen and 0 returned; when none or several have one, -1 (the name is
 * ambiguous; @chosen left as it is). Any other pattern, or fewer than two
 * chosen: 0, @chosen as it is.
 */
int entry_name_pick(const struct abi_set *set, bool *chosen, const char *pattern);

/* The uses --entry PATTERN selects, for the reads of a usage DB. */
struct entry_sel {
	const char *pattern;		/* never NULL */
	const struct abi_set *set;	/* NULL: no tables */
	bool *chosen;			/* per entry of set: selected */
	char *memo;			/* the last use asked (what, or path), ... */
	bool memo_path, memo_hit;	/* ...whether it was a path, the answer */
};

/* Select with @pattern (not NULL) among the entries of @set (NULL: none). */
void entry_sel_init(struct entry_sel *s, const struct abi_set *set,
		    const char *pattern);
void entry_sel_free(struct entry_sel *s);
/* Does @s select a use of @path (NULL: unknown) under What @what (NULL: unknown)? */
bool entry_sel_use(struct entry_sel *s, const char *what, const char *path);

/*
 * Specials: the deprecated files outside sysfs the tracer knows by what
 * they are (bpf/abidep.h's enum abidep_special; tools/tracer/
 * trace_special.c hooks them), each named in the tables by one What.
 */
/* The special @what names exactly, or -1. */
int special_of(const char *what);
/* A What the tracer resolves in sysfs: under /sys/, and not a special. */
bool what_in_sysfs(const char *what);

#endif
