// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the entry selector (tools/lib/entry.c): --entry's rule as
 * vectors, the What index, the entry of a use, the specials, and that the
 * usage store's reads select the rows the rule does. Ends with
 * "entry: N passed, N failed"; exit 1 on any failure.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/types.h>

#include "abi.h"
#include "entry.h"
#include "store.h"
#include "util.h"
#include "bpf/abidep.h"
#include "check.h"

#define RC "/sys/class/rc/rcN/current_protocol"
#define RX "/sys/class/net/<iface>/statistics/rx_bytes"
#define TX "/sys/class/net/<iface>/statistics/tx_bytes"
#define STAT "/sys/class/net/<iface>/statistics/<counter>"
#define GOV "/sys/devices/system/cpu/cpuidle/current_governor_ro"
#define DIR "/sys/bus/foo/devices/<dev>/"
#define BRACE "/sys/kernel/{alpha,beta}/knob"
#define OOM "/proc/<pid>/oom_adj"
#define BAD "/sys/bad/../x"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * The tables of the vectors, in reading order: 0 rc, 1 net (two Whats),
 * 2 every statistics counter (covers 1's files too), 3 cpuidle, 4 a
 * directory, 5 braces, 6 a special, 7 a bad pattern, 8 rc's What again.
 */
static const char tables[] =
	"What:\t\t" RC "\nDescription:\tx\n\n"
	"What:\t\t" RX "\nWhat:\t\t" TX "\nDescription:\tx\n\n"
	"What:\t\t" STAT "\nDescription:\tx\n\n"
	"What:\t\t" GOV "\nDescription:\tx\n\n"
	"What:\t\t" DIR "\nDescription:\tx\n\n"
	"What:\t\t" BRACE "\nDescription:\tx\n\n"
	"What:\t\t" OOM "\nDescription:\tx\n\n"
	"What:\t\t" BAD "\nDescription:\tx\n\n"
	"What:\t\t" RC "\nDescription:\tagain\n";

static void load(struct abi_set *set)
{
	abi_set_init(set);
	abi_parse_buffer(set, "t", tables, strlen(tables));
	abi_check(set, false);
}

/* Does @pattern select What @what? */
static const struct {
	const char *pattern, *what;
	bool selects;
} what_vectors[] = {
	/* 1. part of a What, placeholders as written */
	{ "rcN", RC, true },
	{ "current_", RC, true },
	{ "current_", GOV, true },	/* one pattern, two entries */
	{ "", GOV, true },		/* every What contains "" */
	{ "nothing", RC, false },
	{ "/sys/class/rc/", RC, true },	/* a trailing '/' too, as text */
	{ "bad/..", BAD, true },	/* a bad pattern is still text */
	/* 2. a glob of the What: '*' and '?' span '/' and placeholders */
	{ "*cpuidle*", GOV, true },
	{ "/sys/class/rc/*", RC, true },
	{ "/sys/class/rc/rc?/current_protocol", RC, true },
	{ "*/statistics/[rt]x_bytes", RX, true },
	{ "*/statistics/[!rt]x_bytes", RX, false },
	{ "/sys/class/rc/rc0/*", RC, false },	/* rc0 is not rcN */
	/* 3. a concrete path the What covers */
	{ "/sys/class/rc/rc0/current_protocol", RC, true },
	{ "/sys/class/rc/rc12/current_protocol", RC, true },
	{ "/sys/class/rc/rc0/current_protocol/", RC, true },	/* trailing '/' */
	{ "/sys/class/rc//rc0/current_protocol", RC, true },	/* "//" is '/' */
	/* a wildcard matches no name starting with '.' (as the tracer's /sys walk) */
	{ "/sys/class/rc/.rc0/current_protocol", RC, false },
	{ "/sys/class/net/.eth0/statistics/rx_bytes", RX, false },
	{ "/sys/bus/foo/devices/.hidden", DIR, false },
	{ "/sys/class/net/eth0/statistics/.x", STAT, false },
	{ "/sys/class/rc/rc0", RC, false },			/* a prefix */
	{ "/sys/class/rc/rc0/current_protocol/x", RC, false },	/* longer */
	{ "/sys/class/rc/rc0/protocols", RC, false },
	{ "/sys/class/rc/rc0/current_protocolx", RC, false },
	{ "sys/class/rc/rc0/current_protocol", RC, false },	/* not absolute */
	/* a path's brackets are its name's; rc* matches it */
	{ "/sys/class/rc/rc[01]/current_protocol", RC, true },
	{ "/sys/class/net/eth0/statistics/rx_bytes", RX, true },
	{ "/sys/class/net/eth0/statistics/rx_bytes", STAT, true },	/* both */
	{ "/sys/class/net/eth0/statistics/rx_bytes", TX, false },
	{ "/sys/bus/foo/devices/foo0", DIR, true },
	{ "/sys/bus/foo/devices/foo0/", DIR, true },
	{ "/sys/kernel/beta/knob", BRACE, true },
	{ "/sys/kernel/gamma/knob", BRACE, false },
	{ "/proc/1234/oom_adj", OOM, true },
	{ "/proc/self/oom_adj", OOM, true },
	{ "/sys/x", BAD, false },			/* a bad pattern covers nothing */
	{ "/sys/bad/../x", BAD, true },			/* ...but is text (1) */
	{ "/sys/bad/y/x", BAD, false },
};

static void test_rule(void)
{
	size_t i;

	current = "rule";
	for (i = 0; i < ARRAY_SIZE(what_vectors); i++) {
		bool got = entry_what_selected(what_vectors[i].pattern, what_vectors[i].what);

		if (got != what_vectors[i].selects)
			printf("# '%s' selects '%s': %d\n", what_vectors[i].pattern,
			       what_vectors[i].what, got);
		CHECK(got == what_vectors[i].selects);
	}
	CHECK(entry_what_covers(RC, "/sys/class/rc/rc0/current_protocol"));
	CHECK(!entry_what_covers(RC, "sys/class/rc/rc0/current_protocol"));
	CHECK(!entry_what_covers(RC, ""));
	CHECK(!entry_what_covers("devfs", "/devfs"));
}

/* The entries @pattern selects, as "0 3 " (their indexes). */
static bool entries_are(const struct abi_set *set, const char *pattern, const char *want)
{
	char got[256] = "";
	int i;

	for (i = 0; i < set->nentries; i++)
		if (entry_selected(&set->entries[i], pattern))
			snprintf(got + strlen(got), sizeof(got) - strlen(got), "%d ", i);
	if (strcmp(got, want))
		printf("# '%s' selects entries '%s', want '%s'\n", pattern ? pattern : "NULL",
		       got, want);
	return !strcmp(got, want);
}

static void test_entries(void)
{
	struct abi_set set;

	current = "entries";
	load(&set);
	CHECK(set.nentries == 9);
	CHECK(entries_are(&set, NULL, "0 1 2 3 4 5 6 7 8 "));
	CHECK(entries_are(&set, "rcN", "0 8 "));
	CHECK(entries_are(&set, "current_", "0 3 8 "));
	/* Ambiguous: a file two entries' Whats cover selects both. */
	CHECK(entries_are(&set, "/sys/class/net/eth0/statistics/rx_bytes", "1 2 "));
	CHECK(entries_are(&set, "/sys/class/net/eth0/statistics/rx_errors", "2 "));
	CHECK(entries_are(&set, "tx_bytes", "1 "));
	CHECK(entries_are(&set, "/proc/1/oom_adj", "6 "));
	CHECK(entries_are(&set, "/sys/nothing/here", ""));
	abi_set_free(&set);
}

/* The linear search the index replaces: the first entry with the What. */
static int entry_of_what_linear(const struct abi_set *set, const char *what)
{
	int i, k;

	for (i = 0; i < set->nentries; i++)
		for (k = 0; k < set->entries[i].nwhat; k++)
			if (!strcmp(set->entries[i].what[k], what))
				return i;
	return -1;
}

static void test_index(void)
{
	static const char *const absent[] = {
		"", "/", "/sys", "/sys/class/rc/rc0/current_protocol", "~", RC "x",
	};
	struct abi_set set;
	int i, k, n = 0;
	size_t j;

	current = "index";
	load(&set);
	for (i = 0; i < set.nentries; i++)
		n += set.entries[i].nwhat;
	CHECK(set.nwhats == n);
	for (k = 1; k < set.nwhats; k++)
		CHECK(strcmp(set.whats[k - 1].what, set.whats[k].what) <= 0);
	for (i = 0; i < set.nentries; i++)
		for (k = 0; k < set.entries[i].nwhat; k++) {
			const char *w = set.entries[i].what[k];
			int pos = entry_what_pos(&set, w);

			CHECK(pos >= 0 && !strcmp(set.whats[pos].what, w));
			CHECK(abi_entry_of_what(&set, w) ==
			      &set.entries[entry_of_what_linear(&set, w)]);
		}
	/* RC twice: the one read first. */
	CHECK(abi_entry_of_what(&set, RC) == &set.entries[0]);
	for (j = 0; j < ARRAY_SIZE(absent); j++)
		CHECK(entry_what_pos(&set, absent[j]) < 0 && !abi_entry_of_what(&set, absent[j]));
	CHECK(entry_what_pos(&set, NULL) < 0 && entry_what_pos(NULL, RC) < 0);
	/* Read again: built again, for what is read now. */
	abi_check(&set, false);
	CHECK(set.nwhats == n && abi_entry_of_what(&set, GOV) == &set.entries[3]);
	abi_set_free(&set);
	CHECK(!set.whats && !abi_entry_of_what(&set, GOV));
}

static void test_uses(void)
{
	struct entry_sel sel;
	struct abi_set set;

	current = "uses";
	load(&set);
	/* The entry of a use: its What's; without one, the first covering its path. */
	CHECK(entry_of_use(&set, TX, "/anything") == 1);
	CHECK(entry_of_use(&set, RC, NULL) == 0);
	CHECK(entry_of_use(&set, NULL, "/sys/class/rc/rc0/current_protocol") == 0);
	CHECK(entry_of_use(&set, NULL, "/sys/class/net/eth0/statistics/rx_bytes") == 1);
	CHECK(entry_of_use(&set, NULL, "/sys/class/net/eth0/statistics/rx_errors") == 2);
	CHECK(entry_of_use(&set, "/sys/not/tabled", "/sys/class/rc/rc0/current_protocol") < 0);
	CHECK(entry_of_use(&set, NULL, "/nowhere") < 0);
	CHECK(entry_of_use(&set, NULL, NULL) < 0);
	CHECK(entry_of_use(NULL, RC, NULL) < 0);

	/* Selected by entry: every What of it. */
	entry_sel_init(&sel, &set, "rx_bytes");
	CHECK(entry_sel_use(&sel, RX, "/sys/class/net/eth0/statistics/rx_bytes"));
	CHECK(entry_sel_use(&sel, TX, "/sys/class/net/eth0/statistics/tx_bytes"));
	CHECK(!entry_sel_use(&sel, STAT, "/sys/class/net/eth0/statistics/rx_errors"));
	/*
	 * Asked twice, and the same text as a path: answers of their own (a
	 * What of no entry stands alone; the path is 2's, not selected).
	 */
	CHECK(entry_sel_use(&sel, STAT "_rx_bytes", "/x"));
	CHECK(entry_sel_use(&sel, STAT "_rx_bytes", "/x"));
	CHECK(!entry_sel_use(&sel, NULL, STAT "_rx_bytes"));
	CHECK(entry_sel_use(&sel, STAT "_rx_bytes", "/x"));
	CHECK(entry_sel_use(&sel, NULL, "/sys/class/net/eth0/statistics/rx_bytes"));
	CHECK(entry_sel_use(&sel, NULL, "/sys/class/net/eth0/statistics/tx_bytes"));
	CHECK(!entry_sel_use(&sel, NULL, "/sys/class/net/eth0/statistics/rx_errors"));
	/*
	 * A path two entries cover (1 first, then 2): selecting 2 alone still
	 * takes its uses, or --entry would hide a user of the entry.
	 */
	entry_sel_free(&sel);
	entry_sel_init(&sel, &set, "<counter>");
	CHECK(entry_sel_use(&sel, NULL, "/sys/class/net/eth0/statistics/rx_bytes"));
	CHECK(!entry_sel_use(&sel, RX, "/sys/class/net/eth0/statistics/rx_bytes"));
	entry_sel_free(&sel);
	entry_sel_init(&sel, &set, "rx_bytes");
	/* No entry of the tables: the What alone, or the path. */
	CHECK(entry_sel_use(&sel, "/sys/old/rx_bytes", "/sys/old/rx_bytes"));
	CHECK(!entry_sel_use(&sel, "/sys/old/tx_bytes", "/sys/old/rx_bytes"));
	CHECK(entry_sel_use(&sel, NULL, "/sys/other/rx_bytes"));
	CHECK(!entry_sel_use(&sel, NULL, NULL));
	entry_sel_free(&sel);

	/* A concrete path: its entries, every file of them. */
	entry_sel_init(&sel, &set, "/sys/class/rc/rc3/current_protocol");
	CHECK(entry_sel_use(&sel, RC, "/sys/class/rc/rc0/current_protocol"));
	CHECK(entry_sel_use(&sel, NULL, "/sys/class/rc/rc0/current_protocol"));
	CHECK(!entry_sel_use(&sel, GOV, GOV));
	entry_sel_free(&sel);

	/* Without tables, each What stands alone. */
	entry_sel_init(&sel, NULL, "rx_bytes");
	CHECK(entry_sel_use(&sel, RX, "/sys/class/net/eth0/statistics/rx_bytes"));
	CHECK(!entry_sel_use(&sel, TX, "/sys/class/net/eth0/statistics/tx_bytes"));
	CHECK(entry_sel_use(&sel, NULL, "/sys/class/net/eth0/statistics/rx_bytes"));
	entry_sel_free(&sel);
	abi_set_free(&set);
}

static void test_specials(void)
{
	current = "specials";
	CHECK(special_of(OOM) == ABIDEP_SP_OOM_ADJ);
	CHECK(special_of("/proc/sys/net/ipv6/neigh/<interface>/retrans_time") ==
	      ABIDEP_SP_NEIGH6_RETRANS_TIME);
	CHECK(special_of("/sys/fs/cgroup/memory/<cgroup>/memory.move_charge_at_immigrate") ==
	      ABIDEP_SP_MEMCG1_MOVE_CHARGE);
	/* Exactly: not a concrete file of it, nor part of it. */
	CHECK(special_of("/proc/1/oom_adj") < 0);
	CHECK(special_of("oom_adj") < 0);
	CHECK(special_of(OOM " ") < 0);
	CHECK(special_of(RC) < 0);
	CHECK(what_in_sysfs(RC));
	CHECK(what_in_sysfs("/sys/fs/cgroup/memory/<cgroup>/memory.stat"));
	CHECK(!what_in_sysfs("/sys/fs/cgroup/memory/<cgroup>/memory.oom_control"));
	CHECK(!what_in_sysfs(OOM));
	CHECK(!what_in_sysfs("/sysfoo/x"));
	CHECK(!what_in_sysfs("devfs"));
}

/* ---- the store's reads: the rows the rule selects ---- */

struct lines {
	char buf[2048];
	struct entry_sel *sel;	/* for rows_line(): the rule, row by row */
};

static int cmp_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* @l's lines sorted: store_files() gives them by What, store_each_row() by path. */
static void sort_lines(struct lines *l)
{
	char *copy = xstrdup(l->buf), *line[64], *p;
	int n = 0, i;

	for (p = strtok(copy, "\n"); p && n < 64; p = strtok(NULL, "\n"))
		line[n++] = p;
	qsort(line, n, sizeof(*line), cmp_line);
	l->buf[0] = '\0';
	for (i = 0; i < n; i++)
		snprintf(l->buf + strlen(l->buf), sizeof(l->buf) - strlen(l->buf), "%s\n", line[i]);
	free(copy);
}

static int file_line(const struct usage_file *f, void *arg)
{
	struct lines *l = arg;

	snprintf(l->buf + strlen(l->buf), sizeof(l->buf) - strlen(l->buf), "%s|%s\n",
		 f->what ? f->what : "NULL", f->path);
	return 0;
}

/* The rows the rule selects, as store_files() gives them (one a file here). */
static int rows_line(const struct usage_row *r, void *arg)
{
	struct lines *l = arg;

	if (entry_sel_use(l->sel, r->what, r->path))
		snprintf(l->buf + strlen(l->buf), sizeof(l->buf) - strlen(l->buf), "%s|%s\n",
			 r->what ? r->what : "NULL", r->path);
	return 0;
}

/* A use a file, each its own row. */
static const struct { const char *what, *path; } uses[] = {
	{ NULL, "/sys/class/net/eth1/statistics/rx_bytes" },
	{ NULL, "/sys/other/rx_bytes" },
	{ "/sys/old/rx_bytes", "/sys/old/rx_bytes" },
	{ GOV, GOV },
	{ STAT, "/sys/class/net/eth0/statistics/rx_errors" },
	{ RX, "/sys/class/net/eth0/statistics/rx_bytes" },
	{ TX, "/sys/class/net/eth0/statistics/tx_bytes" },
	{ RC, "/sys/class/rc/rc0/current_protocol" },
	{ RC, "/sys/class/rc/rc3/current_protocol" },
};

static struct store *fill(const char *db)
{
	char err[512];
	struct store *s = store_open(db, false, err, sizeof(err));
	size_t i;
	int ret;

	if (!s) {
		printf("# %s\n", err);
		return NULL;
	}
	ret = store_begin(s);
	for (i = 0; !ret && i < ARRAY_SIZE(uses); i++) {
		struct usage_row r = {
			.host = "h1", .session = "b:1", .path = uses[i].path,
			.what = uses[i].what, .op = "read", .exe = "/usr/bin/cat",
			.count = 1, .first_seen = 100, .last_seen = 200,
		};

		ret = store_upsert(s, &r);
	}
	if (!ret)
		ret = store_commit(s);
	CHECK(!ret);
	return s;
}

static void test_store_reads(const char *dir)
{
	static const char *const patterns[] = {
		"rx_bytes", "/sys/class/net/eth0/statistics/rx_bytes", "rcN",
		"/sys/class/rc/rc3/current_protocol", "/sys/class/rc/rc3/*", "*cpuidle*",
		"/sys/old/rx_bytes", "", "nothing",
	};
	char *db = xasprintf("%s/u.db", dir);
	struct store *s;
	struct abi_set set;
	size_t i;
	int t;

	current = "store reads";
	load(&set);
	s = fill(db);
	for (t = 0; s && t < 2; t++)
		for (i = 0; i < ARRAY_SIZE(patterns); i++) {
			struct entry_sel sel;
			struct store_filter f = { .entry = &sel };
			struct lines sql = { "", NULL }, rule = { "", &sel };

			entry_sel_init(&sel, t ? &set : NULL, patterns[i]);
			CHECK(!store_files(s, &f, file_line, &sql));
			CHECK(!store_each_row(s, rows_line, &rule));
			sort_lines(&sql);
			sort_lines(&rule);
			if (strcmp(sql.buf, rule.buf))
				printf("# %s tables, '%s': SQL\n%s# the rule\n%s", t ? "with" : "no",
				       patterns[i], sql.buf, rule.buf);
			CHECK(!strcmp(sql.buf, rule.buf));
			entry_sel_free(&sel);
		}
	/* The vectors: what the tables make of a concrete path. */
	{
		struct entry_sel sel;
		struct store_filter f = { .entry = &sel };
		struct lines l = { "", NULL };

		entry_sel_init(&sel, &set, "/sys/class/net/eth0/statistics/rx_bytes");
		CHECK(s && !store_files(s, &f, file_line, &l));
		CHECK(!strcmp(l.buf, "NULL|/sys/class/net/eth1/statistics/rx_bytes\n"
			      STAT "|/sys/class/net/eth0/statistics/rx_errors\n"
			      RX "|/sys/class/net/eth0/statistics/rx_bytes\n"
			      TX "|/sys/class/net/eth0/statistics/tx_bytes\n"));
		entry_sel_free(&sel);
	}
	store_close(s);
	abi_set_free(&set);
	unlink(db);
	free(db);
	db = xasprintf("%s/u.db-wal", dir);
	unlink(db);
	free(db);
	db = xasprintf("%s/u.db-shm", dir);
	unlink(db);
	free(db);
}

int main(void)
{
	char dir[] = "/tmp/test_entry.XXXXXX";

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 2;
	}
	test_rule();
	test_entries();
	test_index();
	test_uses();
	test_specials();
	test_store_reads(dir);
	rmdir(dir);
	printf("entry: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
