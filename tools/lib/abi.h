/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Documentation/ABI files and abidep migration tables: the parsed form.
 * See Documentation/admin-guide/migration-tables.rst for the format.
 */
#ifndef ABIDEP_ABI_H
#define ABIDEP_ABI_H

#include <stdbool.h>
#include <stddef.h>

#include "when.h"

/* The fields an entry may have; Documentation/ABI's first, then ours. */
enum abi_field {
	ABI_WHAT,
	ABI_DATE,
	ABI_KERNELVERSION,
	ABI_CONTACT,
	ABI_DESCRIPTION,
	ABI_USERS,
	ABI_STATUS,		/* ours from here on */
	ABI_DEPRECATED,
	ABI_REMOVE_AFTER,
	ABI_REMOVED,
	ABI_REPLACED_BY,
	ABI_SOURCE,
	ABI_IGNORE,
	ABI_CONFIG,
	ABI_NFIELDS,
};

#define ABI_FIRST_OURS ABI_STATUS

extern const char *const abi_field_names[ABI_NFIELDS];

enum abi_status { ABI_ST_NONE, ABI_ST_DEPRECATED, ABI_ST_REMOVED };

/*
 * "2012-04-08, 3.5": a date, a kernel version, or both, as the module
 * parses it (../kmod/when.c); kver is the version as text, for messages.
 */
struct abi_when {
	struct abidep_when when;	/* as kmod/when.c reads it */
	char kver[32];			/* its version as text, or "" */
};

/*
 * A known enumerator: an executable that reads every attribute it finds
 * (udevadm info -a, tar), whose reads are no use of an entry. One line
 * "EXE REASON" of an entry's Ignore: field, or of the tables' enumerators
 * file (ABI_ENUMERATORS), which names them for every entry.
 */
struct abi_ignore {
	const char *exe;		/* as the tracer records it: absolute */
	const char *reason;		/* "" if none was given (an error) */
	const char *file;		/* owned by the set */
	int line;
};

/*
 * The enumerators file of a tables directory: a dot file, so that neither
 * abidep's nor the kernel's get_abi.pl reading of the directory takes it
 * for a Documentation/ABI file (both skip names starting with '.').
 */
#define ABI_ENUMERATORS ".enumerators"

/*
 * Pointers first, then ints: no padding holes (Documentation/ABI has
 * thousands of entries, and their array is the parser's largest memory).
 * The strings and arrays an entry points to belong to the set (its arena).
 */
struct abi_entry {
	const char *file;		/* owned by the set */
	char **what;			/* the What: paths */
	int *what_line;
	char *field[ABI_NFIELDS];	/* text; NULL if absent (What: joined) */
	char **replaced_by;		/* Replaced-by: paths; none -> 0 of them */
	struct abi_ignore *ignore;	/* Ignore: lines */
	int line;			/* of the first What: */
	int nwhat;
	int field_line[ABI_NFIELDS];
	int nreplaced;
	int nignore;
	/* Parsed by abi_check(): */
	enum abi_status status;
	struct abidep_date deprecated;
	struct abi_when remove_after, removed;
};

struct abi_diag {
	const char *file;
	int line;
	bool error;			/* else a warning */
	bool tolerable;			/* an error abi_tolerate() may make a warning */
	char *msg;
};

struct abi_file {
	char *path;
	char *intro;			/* text before the first What:, or NULL */
	int first, nentries;		/* its entries in the set */
};

struct abi_set {
	/*
	 * Keep Description and Users text. validate needs only to know there
	 * is some: without the copies it touches a quarter of the memory.
	 */
	bool skip_text;
	/*
	 * Build no What index (whats): tables validate, list and show never
	 * look a What up (export --users does), and sorting every What was a
	 * sixth of validate's time.
	 */
	bool no_index;
	struct abi_entry *entries;
	int nentries, cap;
	struct abi_file *files;
	int nfiles, fcap;
	struct abi_diag *diags;
	int ndiags, dcap;
	int errors, warnings;
	char **unparsed;		/* files with no entry at all */
	int nunparsed;
	/* The enumerators files' lines, of every directory read. */
	struct abi_ignore *enumerators;
	int nenumerators;
	/* Every What, sorted: abi_check() builds it unless no_index (entry.h). */
	struct abi_what *whats;
	int nwhats;
	/*
	 * Arena: the entries' strings and arrays, the files' paths and
	 * intros, carved from large chunks and freed with the set.
	 */
	struct abi_chunk *chunks;
	char *apos, *aend;		/* free space in the newest chunk */
	char *alast;			/* the last allocation (may grow in place) */
	char *rbuf;			/* file read buffer, reused */
	size_t rcap;
};

void abi_set_init(struct abi_set *set);
void abi_set_free(struct abi_set *set);

/* Parse one file's text; never fails on content (problems become diags). */
int abi_parse_buffer(struct abi_set *set, const char *path, const char *buf,
		     size_t len);
/* Read files and directories (recursively, sorted); -1 if one is unreadable. */
int abi_load_path(struct abi_set *set, const char *path);

/*
 * Check every entry; strict: each must be a migration entry. Then index
 * the Whats (entry.h's lookups), for the set as read so far, unless the
 * set says no_index.
 */
void abi_check(struct abi_set *set, bool strict);

void abi_diag_add(struct abi_set *set, const char *file, int line, bool error,
		  const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/*
 * An error in Documentation/ABI's own format that the kernel's reader
 * (scripts/get_abi.pl) reads through, and so can abidep: a field given twice
 * (the first is kept), an unknown field or "Where:" (dropped; taken as
 * What:), a What that is not a good pattern, no Description, a Date without
 * a year, a What described twice.
 */
void abi_diag_tolerable(struct abi_set *set, const char *file, int line,
			const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/*
 * After abi_check(): the tolerable errors become warnings, except in a file
 * that holds a migration entry (abidep's tables are held to every rule).
 * Returns how many did.
 */
int abi_tolerate(struct abi_set *set);

bool abi_is_migration(const struct abi_entry *e);
/*
 * Is @exe a known enumerator for @e (NULL: for any entry)? Its Ignore:
 * line, else the enumerators file's; NULL if neither names it.
 */
const struct abi_ignore *abi_ignored(const struct abi_set *set,
				     const struct abi_entry *e, const char *exe);
/* "entry" for an Ignore: line, "global" for an enumerators file's. */
const char *abi_ignore_scope(const struct abi_entry *e, const struct abi_ignore *ig);
int abi_parse_when(const char *s, struct abi_when *w);
const char *abi_status_name(enum abi_status st);

#endif
