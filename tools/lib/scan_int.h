/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside abidep scan, shared by its files: scan.c (the command),
 * scan_tree.c (walk, read, search), scan_needles.c (the names searched
 * for), scan_classify.c (how sure a hit is), scan_elf.c (ELF sections).
 */
#ifndef ABIDEP_SCAN_INT_H
#define ABIDEP_SCAN_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "abi.h"
#include "pattern.h"
#include "scan.h"

#define SCAN_MAX_NEEDLE	255	/* longer names are not searched */
#define SCAN_CTX_MAX	512	/* bytes of path looked at around a name */

/* A What (one brace alternative of it) whose attribute name is a needle. */
struct scan_cand {
	const struct abi_entry *entry;
	const char *what;
	const struct abi_glob *glob;
	/*
	 * A name with dots (memory.oom_control) is searched for by its last
	 * word (oom_control): the rest must stand right before it.
	 */
	const char *prefix;
	size_t plen;
};

/* An attribute name, searched for as a whole word. */
struct scan_needle {
	char *name;
	size_t len;
	bool common;		/* only lowercase letters: "state", "enable" */
	struct scan_cand *cands;
	int ncands, ccap;
};

struct scan_globs {
	struct abi_glob *g;
	int n;
};

struct scan_needles {
	struct scan_needle *v;		/* sorted by name */
	int n, cap;
	struct scan_globs *globs;	/* owned: the candidates point here */
	int nglobs, gcap;
	char **skipped;			/* Whats with no name to search for */
	int nskipped, scap;
	/* lookup */
	const struct scan_needle **slots;
	size_t mask;
	size_t minlen;
	unsigned char bigram[8192];	/* a needle starts with these 2 bytes */
	unsigned char last[256][32];	/* a needle this long ends with this byte */
};

void scan_needles_build(struct scan_needles *ns, const struct abi_set *tables);
void scan_needles_free(struct scan_needles *ns);

/* 1 for a word byte ([A-Za-z0-9_]); built by scan_needles_build(). */
const unsigned char *scan_word_tab(void);

static inline uint64_t scan_load_part(const unsigned char *p, size_t n)
{
	uint64_t v = 0;

	memcpy(&v, p, n < 8 ? n : 8);
	return v;
}

/* Hash of a word run: its first and last 8 bytes and its length. */
static inline uint32_t scan_run_hash(const unsigned char *p, size_t n)
{
	uint64_t a = scan_load_part(p, n), b = n > 8 ? scan_load_part(p + n - 8, 8) : 0;
	uint64_t h = (a * 0x9E3779B97F4A7C15ull) ^ (b * 0xC2B2AE3D27D4EB4Full) ^ n;

	return (uint32_t)(h ^ (h >> 29) ^ (h >> 41));
}

/* scan_classify.c: what the text around a name says (scan.rst). */
bool scan_path_byte(unsigned char c);
enum scan_confidence scan_classify(const struct abi_glob *g, const char *ts,
				   const char *ns, const char *ne, const char *te);
bool scan_is_doc(const char *rel);

/* scan_elf.c: the byte ranges of an ELF file worth reading. */
struct scan_range {
	unsigned long long a, b;
};

int scan_elf_ranges(int fd, unsigned long long size, struct scan_range **out,
		    size_t *cap);

#endif
