// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the tables parser, checks, patterns and exports
 * (tools/abi_*.c, pattern.c, export.c, json.c). Ends with
 * "unit: N passed, N failed"; exit 1 on any failure.
 */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "abi.h"
#include "export.h"
#include "json.h"
#include "pattern.h"
#include "check.h"


/* Parse @text as one file and check it (strict or not). */
static void load(struct abi_set *set, const char *text, bool strict)
{
	abi_set_init(set);
	abi_parse_buffer(set, "t", text, strlen(text));
	abi_check(set, strict);
}

/* Is there a diagnostic at @line containing @needle? */
static bool has_diag(const struct abi_set *set, int line, const char *needle)
{
	int i;

	for (i = 0; i < set->ndiags; i++)
		if ((line < 0 || set->diags[i].line == line) &&
		    strstr(set->diags[i].msg, needle))
			return true;
	return false;
}

static const char *rc_entry =
	"intro text\n"
	"\n"
	"What:\t\t/sys/class/rc/rcN/current_protocol\n"
	"Date:\t\tApril 2010\n"
	"KernelVersion:\t2.6.33\n"
	"Contact:\tsomeone\n"
	"Status:\t\tdeprecated\n"
	"Deprecated:\t2010-04-08\n"
	"Remove-after:\t2012-04-08, 3.5\n"
	"Replaced-by:\t/sys/class/rc/rcN/protocols\n"
	"Source:\t\tcommit b320f80a6a02\n"
	"Description:\n"
	"\t\tThe protocol.\n"
	"\t\tValues: one of NEC, RC-5\n"
	"\n"
	"\t\tSecond paragraph.\n"
	"Users:\t\tir-keytable\n";

static void test_parse_fields(void)
{
	struct abi_set s;
	struct abi_entry *e;

	current = "parse fields";
	load(&s, rc_entry, true);
	CHECK(s.nentries == 1);
	CHECK(s.errors == 0 && s.warnings == 0);
	e = &s.entries[0];
	CHECK(e->nwhat == 1 && !strcmp(e->what[0], "/sys/class/rc/rcN/current_protocol"));
	CHECK(e->line == 3);
	CHECK(!strcmp(e->field[ABI_DATE], "April 2010"));
	CHECK(e->status == ABI_ST_DEPRECATED);
	CHECK(e->deprecated.year == 2010 && e->deprecated.month == 4 && e->deprecated.day == 8);
	CHECK(e->remove_after.when.has_date && e->remove_after.when.has_kver);
	CHECK(!strcmp(e->remove_after.kver, "3.5"));
	CHECK(e->nreplaced == 1 && !strcmp(e->replaced_by[0], "/sys/class/rc/rcN/protocols"));
	/* "Values:" inside Description is text, and paragraphs are kept. */
	CHECK(strstr(e->field[ABI_DESCRIPTION], "Values: one of NEC") != NULL);
	CHECK(strstr(e->field[ABI_DESCRIPTION], "\n\n\t\tSecond paragraph.") != NULL);
	CHECK(!strcmp(e->field[ABI_USERS], "ir-keytable"));
	CHECK(s.files[0].intro && !strcmp(s.files[0].intro, "intro text"));
	CHECK(abi_is_migration(e));
	abi_set_free(&s);
}

static void test_parse_groups(void)
{
	struct abi_set s;

	current = "What grouping";
	load(&s,
	     "What:\t/sys/a/x\n"
	     "What:\t/sys/a/y\n"
	     "\t/sys/a/z\n"
	     "\tformerly\n"
	     "Description:\tone text for three files\n"
	     "\n"
	     "What:\t/sys/b\n"
	     "Description:\tanother\n", false);
	CHECK(s.nentries == 2);
	CHECK(s.entries[0].nwhat == 3);
	CHECK(!strcmp(s.entries[0].what[2], "/sys/a/z") && s.entries[0].what_line[2] == 3);
	CHECK(has_diag(&s, 4, "not a path"));
	CHECK(s.errors == 0);
	CHECK(!strcmp(s.entries[0].field[ABI_DESCRIPTION], "one text for three files"));
	CHECK(s.entries[1].nwhat == 1 && s.entries[1].line == 7);
	abi_set_free(&s);
}

/* One of each format error; line numbers as the comments say. */
static const char format_errors[] =
	"Date:\tJan 2020\n"				/* 1: before What */
	"What:\t/sys/a\n"
	"Bogus:\tvalue\n"					/* 3: unknown */
	"Date:\tJan 2020\n"
	"Date:\tFeb 2020\n"				/* 5: twice */
	"KernelVersion\t5.7\n"				/* 6: no colon */
	"Description:\ttext\n"
	"\n"
	"Where:\t/sys/b\n"					/* 9: Where */
	"Date:\tsometime\n"				/* 10: no year */
	"\n"
	"What:\t/sys/c\n";					/* 12: no description */

static void test_parse_errors(void)
{
	struct abi_set s;

	current = "parse errors";
	load(&s, format_errors, false);
	CHECK(has_diag(&s, 1, "What: must come first"));
	CHECK(has_diag(&s, 3, "unknown field 'Bogus:'"));
	CHECK(has_diag(&s, 5, "given twice"));
	CHECK(has_diag(&s, 6, "without ':'"));
	CHECK(s.entries[0].field[ABI_KERNELVERSION] &&
	      !strcmp(s.entries[0].field[ABI_KERNELVERSION], "5.7"));
	CHECK(has_diag(&s, 9, "'Where:' is not a field"));
	CHECK(has_diag(&s, 10, "bad date in Date"));
	CHECK(has_diag(&s, 12, "has no Description"));
	CHECK(s.nentries == 3);
	abi_set_free(&s);
}

static void test_parse_hostile(void)
{
	static const char nul[] = "What:\t/sys/a\0junk\nDescription:\tx\n";
	char *big;
	struct abi_set s;
	size_t i;

	current = "hostile input";
	load(&s, "", false);
	CHECK(s.nentries == 0 && s.nunparsed == 1);
	abi_set_free(&s);

	abi_set_init(&s);
	abi_parse_buffer(&s, "t", nul, sizeof(nul) - 1);
	abi_check(&s, false);
	CHECK(s.nentries == 1 && !strcmp(s.entries[0].what[0], "/sys/a"));
	abi_set_free(&s);

	load(&s, "What:\t/sys/a\r\nDescription:\tx\r\n", false);
	CHECK(s.errors == 0 && !strcmp(s.entries[0].what[0], "/sys/a"));
	abi_set_free(&s);

	load(&s, "just prose\nwith: colons\n", false);
	CHECK(s.nentries == 0 && s.nunparsed == 1 && s.errors == 0);
	abi_set_free(&s);

	/* A long line of colons and brackets: no crash, no hang. */
	big = malloc(200001);
	for (i = 0; i < 200000; i++)
		big[i] = "What:{[<"[i % 8];
	big[200000] = '\0';
	load(&s, big, true);
	/* One What line, its pattern refused: one entry, with its errors. */
	CHECK(s.nentries == 1 && s.errors == 2);
	abi_set_free(&s);
	free(big);
}

/* The tables' fields, as the module reads them (the vectors: test_when.c). */
static void test_dates(void)
{
	struct abi_when w;

	current = "dates";
	CHECK(!abi_parse_when("2012-04-08, 3.5", &w) && w.when.has_date && w.when.has_kver &&
	      !strcmp(w.kver, "3.5") && w.when.date.day == 8);
	CHECK(!abi_parse_when("v6.12", &w) && !w.when.has_date && !strcmp(w.kver, "6.12"));
	CHECK(!abi_parse_when("2.6.34-rc1", &w) && !strcmp(w.kver, "2.6.34-rc1"));
	CHECK(!abi_parse_when("2.6.32.5", &w) && w.when.kver.nr == 4);
	CHECK(abi_parse_when("soon", &w));
	CHECK(abi_parse_when("2012-04-08, 2013-01-01", &w));
	CHECK(abi_parse_when("6", &w));
	CHECK(abi_parse_when("", &w));
}

static const char *with(const char *field_lines)
{
	static char buf[1024];

	snprintf(buf, sizeof(buf),
		 "What:\t/sys/class/x/xN/old\n%sDescription:\ttext\n", field_lines);
	return buf;
}

static void test_migration_rules(void)
{
	struct abi_set s;

	current = "migration rules";
	load(&s, with("Status:\tdeprecated\nDeprecated:\t2010-04-08\n"
		      "Replaced-by:\tnone\nSource:\tx\n"), true);
	CHECK(s.errors == 0 && s.entries[0].nreplaced == 0);
	abi_set_free(&s);

	load(&s, with("Status:\tobsolete\nReplaced-by:\tnone\nSource:\tx\n"), false);
	CHECK(has_diag(&s, 2, "bad Status"));
	abi_set_free(&s);

	load(&s, with("Status:\tdeprecated\nReplaced-by:\tnone\nSource:\tx\n"), false);
	CHECK(has_diag(&s, -1, "missing field Deprecated"));
	abi_set_free(&s);

	load(&s, with("Deprecated:\t2010-04-08\n"), false);
	CHECK(has_diag(&s, -1, "missing field Status"));
	CHECK(has_diag(&s, -1, "missing field Replaced-by"));
	CHECK(has_diag(&s, -1, "missing field Source"));
	abi_set_free(&s);

	load(&s, with("Status:\tdeprecated\nDeprecated:\t2010-04-08\n"
		      "Remove-after:\t2010-04-07\nReplaced-by:\tnone\nSource:\tx\n"), false);
	CHECK(has_diag(&s, 4, "removal (2010-04-07) before deprecation"));
	abi_set_free(&s);

	load(&s, with("Status:\tdeprecated\nDeprecated:\t2010-02-30\n"
		      "Replaced-by:\tnone\nSource:\tx\n"), false);
	CHECK(has_diag(&s, 3, "bad date in Deprecated"));
	abi_set_free(&s);

	load(&s, with("Status:\tdeprecated\nDeprecated:\t2010\n"
		      "Replaced-by:\t/sys/a//b\n\t/sys/ok\nSource:\tx\n"), false);
	CHECK(has_diag(&s, 4, "bad pattern in Replaced-by: '/sys/a//b'"));
	CHECK(s.entries[0].nreplaced == 2);
	abi_set_free(&s);

	load(&s, with("Status:\tdeprecated\nDeprecated:\t2010\nRemoved:\t3.5\n"
		      "Replaced-by:\tnone\nSource:\tx\n"), false);
	CHECK(has_diag(&s, 4, "Status is not removed"));
	abi_set_free(&s);

	/* Plain ABI is fine unless strict. */
	load(&s, with(""), false);
	CHECK(s.errors == 0);
	abi_set_free(&s);
	load(&s, with(""), true);
	CHECK(has_diag(&s, 1, "not a migration entry"));
	abi_set_free(&s);
}

static void test_duplicates(void)
{
	struct abi_set s;
	const char *a = "What:\t/sys/a\nDescription:\tx\n";
	const char *b = "What:\t/sys/b\nDescription:\tx\n\nWhat:\t/sys/a\nDescription:\ty\n";

	current = "duplicate What";
	abi_set_init(&s);
	abi_parse_buffer(&s, "one", a, strlen(a));
	abi_parse_buffer(&s, "two", b, strlen(b));
	abi_check(&s, false);
	CHECK(s.errors == 1);
	CHECK(has_diag(&s, 4, "duplicate What '/sys/a' (first at one:1)"));
	CHECK(!strcmp(s.diags[0].file, "two"));
	abi_set_free(&s);
}

/* Is there an error (@error) or a warning at @line containing @needle? */
static bool diag_is(const struct abi_set *set, int line, const char *needle,
		    bool error)
{
	int i;

	for (i = 0; i < set->ndiags; i++)
		if (set->diags[i].line == line && strstr(set->diags[i].msg, needle))
			return set->diags[i].error == error;
	return false;
}

/* What list, show and resolve read through, as get_abi.pl does, and what not. */
static void test_tolerate(void)
{
	static const char *table =
		"What:\t/sys/t/old\nStatus:\tdeprecated\nDeprecated:\t2010-04-08\n"
		"Replaced-by:\tnone\nSource:\tx\nDescription:\tx\n"
		"\n"
		"What:\t/sys/t/plain\nContact:\ta\nContact:\tb\nDescription:\tx\n";	/* 10 */
	static const char *plain =
		"What:\t/sys/p\nContact:\ta\nContact:\tb\nDescription:\tx\n"	/* 3 */
		"\n"
		"What:\t/sys/t/old\nDescription:\tdescribed again\n"		/* 6 */
		"\n"
		"What:\t/sys/a/../b\nDescription:\tx\n"			/* 9 */
		"\n"
		"What:\nDescription:\tx\n";					/* 12 */
	struct abi_set s;

	current = "tolerate";
	load(&s, format_errors, false);
	CHECK(s.errors == 7 && s.warnings == 1);
	CHECK(abi_tolerate(&s) == 6);
	CHECK(s.errors == 1 && s.warnings == 7);
	CHECK(diag_is(&s, 1, "What: must come first", true));
	CHECK(diag_is(&s, 3, "unknown field 'Bogus:'", false));
	CHECK(diag_is(&s, 5, "given twice", false));
	CHECK(diag_is(&s, 9, "'Where:' is not a field", false));
	CHECK(diag_is(&s, 9, "What '/sys/b' has no Description", false));
	CHECK(diag_is(&s, 10, "bad date in Date", false));
	CHECK(diag_is(&s, 12, "has no Description", false));
	CHECK(abi_tolerate(&s) == 0);
	abi_set_free(&s);

	/* A file with a migration entry is a table: all its errors stay. */
	abi_set_init(&s);
	abi_parse_buffer(&s, "table", table, strlen(table));
	abi_parse_buffer(&s, "plain", plain, strlen(plain));
	abi_check(&s, false);
	CHECK(s.errors == 5);
	CHECK(abi_tolerate(&s) == 2);
	CHECK(s.errors == 3);
	CHECK(!strcmp(s.diags[0].file, "table") && diag_is(&s, 10, "given twice", true));
	CHECK(diag_is(&s, 3, "given twice", false));
	/* A What a migration entry describes too: which would be aliased? */
	CHECK(diag_is(&s, 6, "duplicate What '/sys/t/old' (first at table:1)", true));
	CHECK(diag_is(&s, 9, "bad pattern in What: '/sys/a/../b'", false));
	/* An entry without a What names nothing to list. */
	CHECK(diag_is(&s, 12, "empty What:", true));
	abi_set_free(&s);

	/* The same What in two plain files: as get_abi.pl, a warning. */
	abi_set_init(&s);
	abi_parse_buffer(&s, "one", "What:\t/sys/a\nDescription:\tx\n", 28);
	abi_parse_buffer(&s, "two", "What:\t/sys/a\nDescription:\ty\n", 28);
	abi_check(&s, false);
	CHECK(s.errors == 1 && abi_tolerate(&s) == 1 && s.errors == 0);
	abi_set_free(&s);
}

static void test_patterns(void)
{
	struct abi_glob *g;
	int n;

	current = "patterns";
	CHECK(!abi_pattern_check("/sys/class/rc/rc<N>/protocols"));
	CHECK(!abi_pattern_check("/sys/bus/usb/devices/<busnum>-<devnum>:<config num>/x"));
	CHECK(!abi_pattern_check("/sys/o2cb symlink"));
	CHECK(!abi_pattern_check("/sys/devices/TOS{1900,620{0,7,8}}:00/kbd"));
	CHECK(!abi_pattern_check("/sys/class/gpio/"));
	CHECK(abi_pattern_check("sys/relative") != NULL);
	CHECK(abi_pattern_check("/sys//x") != NULL);
	CHECK(abi_pattern_check("/sys/../etc") != NULL);
	CHECK(abi_pattern_check("/sys/a/.") != NULL);
	CHECK(abi_pattern_check("/sys/rc<N/x") != NULL);
	CHECK(abi_pattern_check("/sys/rc[0-9/x") != NULL);
	CHECK(abi_pattern_check("/sys/a{b,c/d}") != NULL);
	CHECK(abi_pattern_check("/sys/a}") != NULL);
	CHECK(abi_pattern_check("/sys/a\x01") != NULL);
	CHECK(!abi_is_path("devfs"));

	n = abi_pattern_globs("/sys/class/rc/rcN/current_protocol", &g);
	CHECK(n == 1 && g[0].ncomp == 5);
	CHECK(!strcmp(g[0].comp[3], "rc*"));
	abi_globs_free(g, n);

	n = abi_pattern_globs("/sys/x/gpioX/<N>/rfkill[0-9]+/DRIVER/in_accelX_raw", &g);
	CHECK(n == 1 && !strcmp(g[0].comp[2], "gpio*") && !strcmp(g[0].comp[3], "*"));
	CHECK(!strcmp(g[0].comp[4], "rfkill[0-9]*") && !strcmp(g[0].comp[5], "DRIVER"));
	CHECK(!strcmp(g[0].comp[6], "in_accel*_raw"));
	abi_globs_free(g, n);

	n = abi_pattern_globs("/sys/devices/TOS{1900,620{0,7,8}}:00/kbd", &g);
	CHECK(n == 4);
	CHECK(n == 4 && !strcmp(g[0].comp[2], "TOS1900:00") &&
	      !strcmp(g[3].comp[2], "TOS6208:00"));
	abi_globs_free(g, n);

	n = abi_pattern_globs("/sys/class/gpio/", &g);
	CHECK(n == 1 && g[0].dir && g[0].ncomp == 3);
	abi_globs_free(g, n);

	/* A placeholder whose text holds '/' is one component (6.12's qat). */
	CHECK(!abi_pattern_check("/sys/kernel/debug/qat_<device>_<BDF>/telemetry/rp_<A/B/C/D>_data"));
	n = abi_pattern_globs("/sys/kernel/debug/qat_<device>_<BDF>/telemetry/rp_<A/B/C/D>_data", &g);
	CHECK(n == 1 && g[0].ncomp == 6 && !strcmp(g[0].comp[5], "rp_*_data"));
	abi_globs_free(g, n);
}

static int collect(const char *path, void *arg)
{
	char *buf = arg;

	strcat(buf, path);
	strcat(buf, ";");
	return 0;
}

static void mk(const char *root, const char *rel, bool dir)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	if (dir) {
		mkdir(p, 0755);
		return;
	}
	f = fopen(p, "w");
	if (f)
		fclose(f);
}

static void test_resolve(void)
{
	char root[] = "/tmp/abidep-unit-XXXXXX", got[2048] = "", want[1024];
	struct abi_glob *g;
	int n, i;

	current = "resolve";
	if (!mkdtemp(root)) {
		CHECK(!"mkdtemp");
		return;
	}
	mk(root, "class", true);
	mk(root, "class/rc", true);
	mk(root, "class/rc/rc0", true);
	mk(root, "class/rc/rc1", true);
	mk(root, "class/rc/rc0/current_protocol", false);
	mk(root, "class/rc/rc1/current_protocol", false);
	mk(root, "class/rc/rc1/protocols", false);
	mk(root, "class/rc/.hidden", true);

	n = abi_pattern_globs("/sys/class/rc/rcN/current_protocol", &g);
	for (i = 0; i < n; i++)
		abi_glob_resolve(&g[i], root, collect, got);
	abi_globs_free(g, n);
	snprintf(want, sizeof(want),
		 "%s/class/rc/rc0/current_protocol;%s/class/rc/rc1/current_protocol;",
		 root, root);
	CHECK(!strcmp(got, want));

	got[0] = '\0';
	n = abi_pattern_globs("/sys/class/rc/rc<N>/", &g);
	abi_glob_resolve(&g[0], root, collect, got);
	abi_globs_free(g, n);
	CHECK(strstr(got, "/class/rc/rc0;") && strstr(got, "/class/rc/rc1;"));

	got[0] = '\0';
	n = abi_pattern_globs("/sys/class/rc/rcN/missing", &g);
	abi_glob_resolve(&g[0], root, collect, got);
	abi_globs_free(g, n);
	CHECK(got[0] == '\0');

	/* A directory What does not match a file, nor the reverse. */
	got[0] = '\0';
	n = abi_pattern_globs("/sys/class/rc/rc0/current_protocol/", &g);
	abi_glob_resolve(&g[0], root, collect, got);
	abi_globs_free(g, n);
	CHECK(got[0] == '\0');

	snprintf(want, sizeof(want), "rm -rf '%s'", root);
	if (system(want))
		CHECK(!"cleanup");
}

static void test_export(void)
{
	char *buf = NULL;
	size_t len = 0;
	struct abi_set s, again;
	FILE *f;

	current = "export";
	load(&s, rc_entry, true);

	f = open_memstream(&buf, &len);
	export_c(f, &s);
	fclose(f);
	CHECK(strstr(buf, ".class_name = \"rc\",") != NULL);
	CHECK(strstr(buf, ".old_name = \"current_protocol\",") != NULL);
	CHECK(strstr(buf, ".new_name = \"protocols\",") != NULL);
	/* Both: the module parses Remove-after: as validate does. */
	CHECK(strstr(buf, ".remove_after = \"2012-04-08, 3.5\",") != NULL);
	free(buf);

	f = open_memstream(&buf, &len);
	export_abi(f, &s, NULL);
	fclose(f);
	CHECK(strstr(buf, "Status:") == NULL && strstr(buf, "Source:") == NULL);
	CHECK(strstr(buf, "Deprecated since 2010-04-08, to be removed after 2012-04-08, 3.5; use /sys/class/rc/rcN/protocols.") != NULL);
	/* What it writes reads back as clean Documentation/ABI. */
	abi_set_init(&again);
	abi_parse_buffer(&again, "again", buf, len);
	abi_check(&again, false);
	CHECK(again.errors == 0 && again.warnings == 0 && again.nentries == 1);
	CHECK(!abi_is_migration(&again.entries[0]));
	abi_set_free(&again);
	free(buf);
	abi_set_free(&s);

	/* Not aliasable: another directory, or two replacements. */
	load(&s, with("Status:\tdeprecated\nDeprecated:\t2010\nRemove-after:\t2012\n"
		      "Replaced-by:\t/sys/class/y/yN/new\nSource:\tx\n"), false);
	f = open_memstream(&buf, &len);
	export_c(f, &s);
	fclose(f);
	CHECK(strstr(buf, ".old_name") == NULL);
	free(buf);
	abi_set_free(&s);
}

static void test_json(void)
{
	char *buf = NULL;
	size_t len = 0;
	struct json j;
	FILE *f;

	current = "json";
	f = open_memstream(&buf, &len);
	json_init(&j, f, false);
	json_obj_start(&j);
	json_kstr(&j, "a", "q\"\\\n\x01");
	json_key(&j, "l");
	json_arr_start(&j);
	json_int(&j, 1);
	json_null(&j);
	json_arr_end(&j);
	json_key(&j, "e");
	json_arr_start(&j);
	json_arr_end(&j);
	json_obj_end(&j);
	fclose(f);
	CHECK(!strcmp(buf, "{\"a\":\"q\\\"\\\\\\n\\u0001\",\"l\":[1,null],\"e\":[]}"));
	free(buf);
}

/* Strings of any bytes: valid JSON, each byte given back (surrogateescape). */
static void test_json_hostile(void)
{
	static const struct {
		const char *in, *out;
	} v[] = {
		{ "a\xff" "b", "\"a\\udcffb\"" },		/* not UTF-8 */
		{ "\xc0\xaf", "\"\\udcc0\\udcaf\"" },		/* overlong '/' */
		{ "\xed\xa0\x80", "\"\\udced\\udca0\\udc80\"" },	/* a surrogate */
		{ "\xe2\x82", "\"\\udce2\\udc82\"" },		/* cut short */
		{ "\x1b[31m\x7f", "\"\\u001b[31m\\u007f\"" },	/* ESC, DEL */
		{ "\xc2\x9b", "\"\\u009b\"" },			/* C1 CSI */
		{ "x\xe2\x80\xae" "y", "\"x\\u202ey\"" },	/* bidi override */
		{ "\xc3\xa9\xf0\x9f\x98\x80", "\"\xc3\xa9\xf0\x9f\x98\x80\"" }, /* kept */
	};
	char *buf = NULL;
	size_t len = 0, i;
	struct json j;
	FILE *f;

	current = "json_hostile";
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		f = open_memstream(&buf, &len);
		json_init(&j, f, false);
		json_str(&j, v[i].in);
		fclose(f);
		CHECK(!strcmp(buf, v[i].out));
		if (strcmp(buf, v[i].out))
			printf("#   %zu: got %s\n", i, buf);
		free(buf);
		buf = NULL;
	}
}

int main(void)
{
	test_parse_fields();
	test_parse_groups();
	test_parse_errors();
	test_parse_hostile();
	test_dates();
	test_migration_rules();
	test_duplicates();
	test_tolerate();
	test_patterns();
	test_resolve();
	test_export();
	test_json();
	test_json_hostile();
	printf("unit: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
