// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for abidep: date and duration parsing, the per-user log
 * limiter, alias forwarding with translate hooks, and class-table aliases on
 * devices that come and go. Run with tests/kunit/run (UML).
 */
#include <kunit/test.h>
#include <linux/device.h>
#include <linux/kernfs.h>
#include <linux/kstrtox.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "abidep_internal.h"
#include "duration_vectors.h"
#include "when_vectors.h"

/*
 * ---- dates and versions: when.c, on the vectors tests/unit runs too ----
 */

static void abidep_date_vec_desc(const struct abidep_date_vector *v, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "'%s'", v->in ? v->in : "NULL");
}

KUNIT_ARRAY_PARAM(abidep_date_vec, abidep_date_vectors, abidep_date_vec_desc);

static void abidep_date_test(struct kunit *test)
{
	const struct abidep_date_vector *v = test->param_value;
	struct abidep_date d = { };

	KUNIT_ASSERT_EQ(test, abidep_parse_date(v->in, &d), v->ret);
	if (v->ret)
		return;
	KUNIT_EXPECT_EQ(test, d.year, v->y);
	KUNIT_EXPECT_EQ(test, d.month, v->m);
	KUNIT_EXPECT_EQ(test, d.day, v->d);
}

static void abidep_kver_vec_desc(const struct abidep_kver_vector *v, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "'%s'", v->in);
}

KUNIT_ARRAY_PARAM(abidep_kver_vec, abidep_kver_vectors, abidep_kver_vec_desc);

static void abidep_kver_test(struct kunit *test)
{
	const struct abidep_kver_vector *v = test->param_value;
	struct abidep_kver k;
	unsigned int i;

	KUNIT_EXPECT_EQ(test, abidep_parse_kver(v->in, &k), v->ret);
	KUNIT_ASSERT_EQ(test, abidep_parse_uname(v->in, &k), v->uname_ret);
	if (v->uname_ret)
		return;
	KUNIT_EXPECT_EQ(test, k.nr, v->nr);
	for (i = 0; i < ABIDEP_KVER_PARTS; i++)
		KUNIT_EXPECT_EQ(test, k.part[i], v->part[i]);
	KUNIT_EXPECT_EQ(test, k.rc, v->rc);
}

static void abidep_when_vec_desc(const struct abidep_when_vector *v, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "'%s'", v->in);
}

KUNIT_ARRAY_PARAM(abidep_when_vec, abidep_when_vectors, abidep_when_vec_desc);

static void abidep_when_test(struct kunit *test)
{
	const struct abidep_when_vector *v = test->param_value;
	struct abidep_when w;

	KUNIT_ASSERT_EQ(test, abidep_parse_when(v->in, &w), v->ret);
	if (v->ret)
		return;
	KUNIT_EXPECT_EQ(test, w.has_date, v->has_date);
	KUNIT_EXPECT_EQ(test, w.has_kver, v->has_kver);
}

static void abidep_due_vec_desc(const struct abidep_due_vector *v, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s on %s", v->remove_after, v->today);
}

KUNIT_ARRAY_PARAM(abidep_due_vec, abidep_due_vectors, abidep_due_vec_desc);

static void abidep_due_test(struct kunit *test)
{
	const struct abidep_due_vector *v = test->param_value;
	struct abidep_date d, today;

	KUNIT_ASSERT_EQ(test, abidep_parse_date(v->remove_after, &d), 0);
	KUNIT_ASSERT_EQ(test, abidep_parse_date(v->today, &today), 0);
	KUNIT_EXPECT_EQ(test, abidep_date_due(&d, &today), v->due);
}

static void abidep_kdue_vec_desc(const struct abidep_kdue_vector *v, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s vs %s", v->kernel, v->ref);
}

KUNIT_ARRAY_PARAM(abidep_kdue_vec, abidep_kdue_vectors, abidep_kdue_vec_desc);

static void abidep_kdue_test(struct kunit *test)
{
	const struct abidep_kdue_vector *v = test->param_value;
	struct abidep_kver k, ref;

	KUNIT_ASSERT_EQ(test, abidep_parse_uname(v->kernel, &k), 0);
	KUNIT_ASSERT_EQ(test, abidep_parse_kver(v->ref, &ref), 0);
	KUNIT_EXPECT_EQ(test, abidep_kver_cmp(&k, &ref), v->cmp);
	KUNIT_EXPECT_EQ(test, abidep_kver_due(&k, &ref), v->due);
}

static void abidep_days_test(struct kunit *test)
{
	struct abidep_date got, want;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(abidep_days_vectors); i++) {
		abidep_date_from_days(abidep_days_vectors[i].days, &got);
		KUNIT_ASSERT_EQ(test, abidep_parse_date(abidep_days_vectors[i].date, &want), 0);
		KUNIT_EXPECT_EQ_MSG(test, abidep_date_cmp(&got, &want), 0, "day %u",
				    abidep_days_vectors[i].days);
	}
}

static void abidep_date_order_test(struct kunit *test)
{
	struct abidep_date a, b;

	abidep_date_from_time(0, &a);
	KUNIT_EXPECT_EQ(test, a.year, 1970);
	KUNIT_EXPECT_EQ(test, a.month, 1);
	KUNIT_EXPECT_EQ(test, a.day, 1);
	abidep_date_from_time(1270684800, &a);	/* 2010-04-08 00:00 UTC */
	KUNIT_ASSERT_EQ(test, abidep_parse_date("2010-04-08", &b), 0);
	KUNIT_EXPECT_EQ(test, abidep_date_cmp(&a, &b), 0);
	KUNIT_ASSERT_EQ(test, abidep_parse_date("2010-04-09", &b), 0);
	KUNIT_EXPECT_LT(test, abidep_date_cmp(&a, &b), 0);
	KUNIT_EXPECT_GT(test, abidep_date_cmp(&b, &a), 0);
	KUNIT_ASSERT_EQ(test, abidep_parse_date("2009-12-31", &b), 0);
	KUNIT_EXPECT_GT(test, abidep_date_cmp(&a, &b), 0);
	/* A month without a day counts as before its first day. */
	KUNIT_ASSERT_EQ(test, abidep_parse_date("2010-04", &b), 0);
	KUNIT_EXPECT_GT(test, abidep_date_cmp(&a, &b), 0);
	KUNIT_ASSERT_EQ(test, abidep_parse_date("2010", &b), 0);
	KUNIT_EXPECT_GT(test, abidep_date_cmp(&a, &b), 0);
}

static void abidep_entry_check_test(struct kunit *test)
{
	struct abidep_state *st = kunit_kzalloc(test, sizeof(*st), GFP_KERNEL);
	struct abidep_entry e = {
		.old_name = "current_protocol", .new_name = "protocols",
		.deprecated = "2010-04-08", .remove_after = "2012-04-08",
	};

	KUNIT_ASSERT_NOT_NULL(test, st);
	KUNIT_EXPECT_EQ(test, abidep_entry_check(&e, st), 0);
	KUNIT_EXPECT_TRUE(test, st->remove_after.has_date);
	KUNIT_EXPECT_FALSE(test, st->remove_after.has_kver);

	/* Whatever the tables accept (when.c parses both). */
	e.remove_after = "2.6.39";
	KUNIT_EXPECT_EQ(test, abidep_entry_check(&e, st), 0);
	KUNIT_EXPECT_TRUE(test, st->remove_after.has_kver);
	KUNIT_EXPECT_EQ(test, st->remove_after.kver.part[2], 39);
	e.remove_after = "2.6.34-rc1";
	KUNIT_EXPECT_EQ(test, abidep_entry_check(&e, st), 0);
	e.remove_after = "2012-04-08, 3.5";
	KUNIT_EXPECT_EQ(test, abidep_entry_check(&e, st), 0);
	KUNIT_EXPECT_TRUE(test, st->remove_after.has_date && st->remove_after.has_kver);

	e.remove_after = "2010-04-07";	/* before deprecation */
	KUNIT_EXPECT_EQ(test, abidep_entry_check(&e, st), -EINVAL);
	e.remove_after = "2010-04-08";	/* same day is allowed */
	KUNIT_EXPECT_EQ(test, abidep_entry_check(&e, st), 0);
	e.remove_after = "soon";
	KUNIT_EXPECT_EQ(test, abidep_entry_check(&e, st), -EINVAL);
	e.remove_after = "2012-04-08";
	e.deprecated = NULL;
	KUNIT_EXPECT_EQ(test, abidep_entry_check(&e, st), -EINVAL);
	e.deprecated = "2010-04-08";
	e.new_name = "current_protocol";
	KUNIT_EXPECT_EQ(test, abidep_entry_check(&e, st), -EINVAL);
	e.new_name = "../protocols";
	KUNIT_EXPECT_EQ(test, abidep_entry_check(&e, st), -EINVAL);
	e.new_name = "";
	KUNIT_EXPECT_EQ(test, abidep_entry_check(&e, st), -EINVAL);
}

static void abidep_when_due_vec_desc(const struct abidep_when_due_vector *v, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "'%s' on %s, kernel %s", v->remove_after,
		 v->today, v->kernel ? v->kernel : "unknown");
}

KUNIT_ARRAY_PARAM(abidep_when_due_vec, abidep_when_due_vectors, abidep_when_due_vec_desc);

static void abidep_when_due_test(struct kunit *test)
{
	const struct abidep_when_due_vector *v = test->param_value;
	struct abidep_date today;
	struct abidep_when w;
	struct abidep_kver k;

	KUNIT_ASSERT_EQ(test, abidep_parse_when(v->remove_after, &w), 0);
	KUNIT_ASSERT_EQ(test, abidep_parse_date(v->today, &today), 0);
	if (v->kernel)
		KUNIT_ASSERT_EQ(test, abidep_parse_uname(v->kernel, &k), 0);
	KUNIT_EXPECT_EQ(test, abidep_when_due(&w, &today, v->kernel ? &k : NULL), v->due);
}

/*
 * Every entry of migration-tables/ on a range of dates and kernels: the
 * Remove-after text as the module parses it and due as its state file's
 * overdue decides it, against abidep check's due, written by
 * tests/kunit/due-vectors into the header ABIDEP_TABLE_DUE names.
 */
#ifdef ABIDEP_TABLE_DUE
struct abidep_table_due_vector {
	const char *what, *remove_after;
	struct abidep_date today;
	const char *kernel;		/* as uname -r prints it, or NULL */
	bool due;			/* abidep check's */
};

#include ABIDEP_TABLE_DUE

static void abidep_table_due_test(struct kunit *test)
{
	const struct abidep_table_due_vector *v;
	struct abidep_when w;
	struct abidep_kver k;

	for (v = abidep_table_due_vectors;
	     v < abidep_table_due_vectors + ARRAY_SIZE(abidep_table_due_vectors); v++) {
		memset(&w, 0, sizeof(w));
		if (*v->remove_after)
			KUNIT_ASSERT_EQ_MSG(test, abidep_parse_when(v->remove_after, &w), 0,
					    "%s: Remove-after '%s'", v->what, v->remove_after);
		if (v->kernel)
			KUNIT_ASSERT_EQ(test, abidep_parse_uname(v->kernel, &k), 0);
		KUNIT_EXPECT_EQ_MSG(test, abidep_when_due(&w, &v->today, v->kernel ? &k : NULL),
				    v->due, "%s: Remove-after '%s' on %04u-%02u-%02u, kernel %s",
				    v->what, v->remove_after, v->today.year, v->today.month,
				    v->today.day, v->kernel ? v->kernel : "unknown");
	}
}
#else
static void abidep_table_due_test(struct kunit *test)
{
	kunit_skip(test, "no vectors: tests/kunit/run writes them (ABIDEP_TABLE_DUE)");
}
#endif

static struct kunit_case abidep_date_test_cases[] = {
	KUNIT_CASE_PARAM(abidep_date_test, abidep_date_vec_gen_params),
	KUNIT_CASE_PARAM(abidep_kver_test, abidep_kver_vec_gen_params),
	KUNIT_CASE_PARAM(abidep_when_test, abidep_when_vec_gen_params),
	KUNIT_CASE_PARAM(abidep_due_test, abidep_due_vec_gen_params),
	KUNIT_CASE_PARAM(abidep_kdue_test, abidep_kdue_vec_gen_params),
	KUNIT_CASE_PARAM(abidep_when_due_test, abidep_when_due_vec_gen_params),
	KUNIT_CASE(abidep_days_test),
	KUNIT_CASE(abidep_date_order_test),
	KUNIT_CASE(abidep_entry_check_test),
	KUNIT_CASE(abidep_table_due_test),
	{}
};

static struct kunit_suite abidep_date_suite = {
	.name = "abidep_date",
	.test_cases = abidep_date_test_cases,
};

/*
 * ---- durations: duration.c, on the vectors tests/unit runs too ----
 */

static void abidep_duration_vec_desc(const struct abidep_duration_vector *v,
				     char *desc)
{
	static const char * const units[] = { "us", "ms", "s" };

	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "'%s' in %s", v->in, units[v->unit]);
	strreplace(desc, '\n', '~');
}

KUNIT_ARRAY_PARAM(abidep_duration_vec, abidep_duration_vectors,
		  abidep_duration_vec_desc);

static void abidep_duration_test(struct kunit *test)
{
	const struct abidep_duration_vector *v = test->param_value;
	size_t len = v->len ? v->len : strlen(v->in);
	u64 val = 4242;

	KUNIT_EXPECT_EQ(test, abidep_duration_parse(v->in, len, v->unit, &val),
			v->ret);
	KUNIT_EXPECT_EQ(test, val, v->ret ? 4242ULL : v->val);
}

static void abidep_bo_seconds_vec_desc(const struct abidep_brownout_seconds_vector *v,
				       char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "'%s'", v->in);
}

KUNIT_ARRAY_PARAM(abidep_bo_seconds_vec, abidep_brownout_seconds_vectors,
		  abidep_bo_seconds_vec_desc);

static void abidep_bo_seconds_test(struct kunit *test)
{
	const struct abidep_brownout_seconds_vector *v = test->param_value;
	unsigned int seconds = 4242;

	KUNIT_EXPECT_EQ(test, abidep_brownout_seconds(v->in, &seconds), v->ret);
	KUNIT_EXPECT_EQ(test, seconds, v->ret ? 4242U : v->seconds);
}

static struct kunit_case abidep_duration_test_cases[] = {
	KUNIT_CASE_PARAM(abidep_duration_test, abidep_duration_vec_gen_params),
	KUNIT_CASE_PARAM(abidep_bo_seconds_test, abidep_bo_seconds_vec_gen_params),
	{}
};

static struct kunit_suite abidep_duration_suite = {
	.name = "abidep_duration",
	.test_cases = abidep_duration_test_cases,
};

/* ---- the per-user log limiter ---- */

#define T_INTERVAL	100

static struct abidep_who abidep_test_who(u64 key, const char *comm,
					 const char *exe)
{
	struct abidep_who who = { .key = key, .tgid = 100 + key, .uid = 1000 };

	strscpy(who.comm, comm, sizeof(who.comm));
	who.exe = exe;
	return who;
}

static void abidep_users_log_test(struct kunit *test)
{
	struct abidep_users *u = kunit_kzalloc(test, sizeof(*u), GFP_KERNEL);
	struct abidep_who who = abidep_test_who(7, "ir-keytable", NULL);
	unsigned long t0 = 5000;

	KUNIT_ASSERT_NOT_NULL(test, u);
	abidep_users_init(u);

	/* A new user without a path: nothing is counted, ask for the path. */
	KUNIT_EXPECT_EQ(test, abidep_users_note(u, &who, false, t0, 1, T_INTERVAL),
			ABIDEP_NOTE_MISS);
	KUNIT_EXPECT_EQ(test, u->nr, 0U);

	who.exe = "/usr/bin/ir-keytable";
	KUNIT_EXPECT_EQ(test, abidep_users_note(u, &who, false, t0, 1, T_INTERVAL),
			ABIDEP_NOTE_LOG);
	KUNIT_ASSERT_EQ(test, u->nr, 1U);
	KUNIT_EXPECT_STREQ(test, u->slot[0].exe, "/usr/bin/ir-keytable");
	KUNIT_EXPECT_STREQ(test, u->slot[0].comm, "ir-keytable");

	/* Within the interval: counted, not logged, even without a path. */
	who.exe = NULL;
	KUNIT_EXPECT_EQ(test, abidep_users_note(u, &who, true, t0 + 1, 2, T_INTERVAL),
			ABIDEP_NOTE_QUIET);
	KUNIT_EXPECT_EQ(test, abidep_users_note(u, &who, false,
						t0 + T_INTERVAL - 1, 3, T_INTERVAL),
			ABIDEP_NOTE_QUIET);
	/* A full interval after the last line: logged again, once. */
	KUNIT_EXPECT_EQ(test, abidep_users_note(u, &who, false, t0 + T_INTERVAL,
						4, T_INTERVAL),
			ABIDEP_NOTE_LOG);
	KUNIT_EXPECT_EQ(test, abidep_users_note(u, &who, false,
						t0 + T_INTERVAL + 1, 5, T_INTERVAL),
			ABIDEP_NOTE_QUIET);

	KUNIT_EXPECT_EQ(test, u->slot[0].reads, 4ULL);
	KUNIT_EXPECT_EQ(test, u->slot[0].writes, 1ULL);
	KUNIT_EXPECT_EQ(test, u->slot[0].first_seen, 1LL);
	KUNIT_EXPECT_EQ(test, u->slot[0].last_seen, 5LL);
	KUNIT_EXPECT_EQ(test, u->nr, 1U);
}

static void abidep_users_wrap_test(struct kunit *test)
{
	struct abidep_users *u = kunit_kzalloc(test, sizeof(*u), GFP_KERNEL);
	struct abidep_who who = abidep_test_who(9, "cat", "/usr/bin/cat");
	unsigned long t0 = ULONG_MAX - 10;

	KUNIT_ASSERT_NOT_NULL(test, u);
	abidep_users_init(u);
	KUNIT_EXPECT_EQ(test, abidep_users_note(u, &who, false, t0, 1, T_INTERVAL),
			ABIDEP_NOTE_LOG);
	/* jiffies wrapped: still within the interval. */
	KUNIT_EXPECT_EQ(test, abidep_users_note(u, &who, false, t0 + 20, 2, T_INTERVAL),
			ABIDEP_NOTE_QUIET);
	KUNIT_EXPECT_EQ(test, abidep_users_note(u, &who, false,
						t0 + T_INTERVAL, 3, T_INTERVAL),
			ABIDEP_NOTE_LOG);
}

static void abidep_users_distinct_test(struct kunit *test)
{
	struct abidep_users *u = kunit_kzalloc(test, sizeof(*u), GFP_KERNEL);
	struct abidep_who a = abidep_test_who(1, "sh", "/usr/bin/dash");
	struct abidep_who b = abidep_test_who(2, "udevadm", "/usr/bin/udevadm");

	KUNIT_ASSERT_NOT_NULL(test, u);
	abidep_users_init(u);
	KUNIT_EXPECT_EQ(test, abidep_users_note(u, &a, false, 0, 1, T_INTERVAL),
			ABIDEP_NOTE_LOG);
	KUNIT_EXPECT_EQ(test, abidep_users_note(u, &b, false, 0, 1, T_INTERVAL),
			ABIDEP_NOTE_LOG);
	KUNIT_EXPECT_EQ(test, abidep_users_note(u, &a, false, 1, 2, T_INTERVAL),
			ABIDEP_NOTE_QUIET);
	KUNIT_EXPECT_EQ(test, u->nr, 2U);

	/*
	 * A user is its executable and its comm: busybox's one inode as two
	 * commands, and one inode number on another device, are others.
	 */
	b = abidep_test_who(1, "mount", "/usr/bin/dash");
	KUNIT_EXPECT_EQ(test, abidep_users_note(u, &b, false, 1, 2, T_INTERVAL),
			ABIDEP_NOTE_LOG);
	b = abidep_test_who(1, "sh", "/mnt/usr/bin/dash");
	b.dev = 8;
	KUNIT_EXPECT_EQ(test, abidep_users_note(u, &b, false, 1, 2, T_INTERVAL),
			ABIDEP_NOTE_LOG);
	KUNIT_EXPECT_EQ(test, u->nr, 4U);
	KUNIT_EXPECT_EQ(test, u->evicted, 0ULL);
}

static void abidep_users_evict_test(struct kunit *test)
{
	struct abidep_users *u = kunit_kzalloc(test, sizeof(*u), GFP_KERNEL);
	struct abidep_who who;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, u);
	abidep_users_init(u);
	for (i = 0; i < ABIDEP_MAX_USERS; i++) {
		who = abidep_test_who(i + 1, "worker", "/usr/bin/worker");
		abidep_users_note(u, &who, false, 0, 100 + i, T_INTERVAL);
	}
	/* User 1 is seen again: user 2 is now the least recently seen. */
	who = abidep_test_who(1, "worker", NULL);
	KUNIT_EXPECT_EQ(test, abidep_users_note(u, &who, false, 1, 500, T_INTERVAL),
			ABIDEP_NOTE_QUIET);

	who = abidep_test_who(1000, "newcomer", "/opt/new");
	KUNIT_EXPECT_EQ(test, abidep_users_note(u, &who, false, 1, 501, T_INTERVAL),
			ABIDEP_NOTE_LOG);
	KUNIT_EXPECT_EQ(test, u->nr, (unsigned int)ABIDEP_MAX_USERS);
	KUNIT_EXPECT_EQ(test, u->evicted, 1ULL);
	for (i = 0; i < u->nr; i++)
		KUNIT_EXPECT_NE(test, u->slot[i].key, 2ULL);

	/* The evicted user comes back as new: logged again. */
	who = abidep_test_who(2, "worker", "/usr/bin/worker");
	KUNIT_EXPECT_EQ(test, abidep_users_note(u, &who, false, 2, 502, T_INTERVAL),
			ABIDEP_NOTE_LOG);
	KUNIT_EXPECT_EQ(test, u->evicted, 2ULL);
}

static unsigned int abidep_test_slots_of(const struct abidep_users *u, u32 uid)
{
	unsigned int i, n = 0;

	for (i = 0; i < u->nr; i++)
		n += u->slot[i].uid == uid;
	return n;
}

/*
 * A user of uid 1000 keeps changing its comm (PR_SET_NAME) while reading:
 * it evicts only its own users, never root's, nor another uid's that holds
 * fewer slots.
 */
static void abidep_users_churn_test(struct kunit *test)
{
	struct abidep_users *u = kunit_kzalloc(test, sizeof(*u), GFP_KERNEL);
	struct abidep_who root = abidep_test_who(1, "legacy-irctl", "/usr/sbin/legacy-irctl");
	struct abidep_who other = abidep_test_who(2, "monitor", "/usr/bin/monitor");
	struct abidep_who who;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, u);
	abidep_users_init(u);
	root.uid = 0;
	other.uid = 2000;
	KUNIT_EXPECT_EQ(test, abidep_users_note(u, &root, false, 0, 1, T_INTERVAL),
			ABIDEP_NOTE_LOG);
	KUNIT_EXPECT_EQ(test, abidep_users_note(u, &other, false, 0, 2, T_INTERVAL),
			ABIDEP_NOTE_LOG);
	for (i = 0; i < 1000; i++) {
		who = abidep_test_who(100 + i, "churn", "/tmp/churn");
		KUNIT_EXPECT_EQ(test, abidep_users_note(u, &who, false, 1, 10 + i, T_INTERVAL),
				ABIDEP_NOTE_LOG);
	}
	KUNIT_EXPECT_EQ(test, abidep_test_slots_of(u, 1000), (unsigned int)ABIDEP_MAX_USERS - 2);
	/* root and the other uid, least recently seen of all, are still there. */
	who = abidep_test_who(1, "legacy-irctl", NULL);
	who.uid = 0;
	KUNIT_EXPECT_EQ(test, abidep_users_note(u, &who, false, 2, 2000, T_INTERVAL),
			ABIDEP_NOTE_QUIET);
	who = abidep_test_who(2, "monitor", NULL);
	who.uid = 2000;
	KUNIT_EXPECT_EQ(test, abidep_users_note(u, &who, false, 2, 2001, T_INTERVAL),
			ABIDEP_NOTE_QUIET);
	KUNIT_EXPECT_EQ(test, u->evicted, 1000ULL - (ABIDEP_MAX_USERS - 2));
	/* A uid with fewer slots than the churner takes the churner's. */
	who = abidep_test_who(3, "other", "/usr/bin/other");
	who.uid = 2000;
	KUNIT_EXPECT_EQ(test, abidep_users_note(u, &who, false, 3, 2002, T_INTERVAL),
			ABIDEP_NOTE_LOG);
	KUNIT_EXPECT_EQ(test, abidep_test_slots_of(u, 2000), 2U);
}

/* The log budget: 10 lines a window, 5 for one uid; a new window, a new budget. */
static void abidep_budget_test(struct kunit *test)
{
	struct abidep_budget *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	unsigned long t0 = ULONG_MAX - 100;
	unsigned int i, n;

	KUNIT_ASSERT_NOT_NULL(test, b);
	spin_lock_init(&b->lock);
	b->interval = T_INTERVAL;
	for (i = n = 0; i < 100; i++)
		n += abidep_budget_take(b, 1000, t0);
	KUNIT_EXPECT_EQ(test, n, (unsigned int)ABIDEP_LOG_UID_BURST);
	/* The churning uid spent its share: root still gets a line. */
	KUNIT_EXPECT_TRUE(test, abidep_budget_take(b, 0, t0 + 1));
	for (i = 1; i <= ABIDEP_LOG_BURST; i++)
		abidep_budget_take(b, 5000 + i, t0 + 2);
	KUNIT_EXPECT_EQ(test, b->lines, (unsigned int)ABIDEP_LOG_BURST);
	KUNIT_EXPECT_FALSE(test, abidep_budget_take(b, 0, t0 + 3));
	/* The next window (jiffies wrapped meanwhile): a whole budget again. */
	KUNIT_EXPECT_TRUE(test, abidep_budget_take(b, 0, t0 + T_INTERVAL));
	KUNIT_EXPECT_EQ(test, b->lines, 1U);
}

static void abidep_users_long_exe_test(struct kunit *test)
{
	struct abidep_users *u = kunit_kzalloc(test, sizeof(*u), GFP_KERNEL);
	char *exe = kunit_kzalloc(test, 300, GFP_KERNEL);
	struct abidep_who who;
	size_t len;

	KUNIT_ASSERT_NOT_NULL(test, u);
	KUNIT_ASSERT_NOT_NULL(test, exe);
	memset(exe, 'a', 298);
	exe[0] = '/';
	memcpy(exe + 290, "/program", 8);
	abidep_users_init(u);
	who = abidep_test_who(3, "program", exe);
	abidep_users_note(u, &who, false, 0, 1, T_INTERVAL);
	len = strnlen(u->slot[0].exe, ABIDEP_EXE_LEN);
	KUNIT_EXPECT_EQ(test, len, (size_t)ABIDEP_EXE_LEN - 1);
	KUNIT_EXPECT_EQ(test, strncmp(u->slot[0].exe, "...", 3), 0);
	KUNIT_EXPECT_STREQ(test, u->slot[0].exe + len - 8, "/program");
}

/* The log line: exact, its names escaped, cut to its buffer. */
static void abidep_log_line_test(struct kunit *test)
{
	static const struct abidep_entry e = {
		.old_name = "current_protocol", .new_name = "protocols",
		.deprecated = "2010-04-08", .remove_after = "2012-04-08",
	};
	const char *path = "/sys/class/rc/rc0/current_protocol";
	struct abidep_who who = abidep_test_who(113, "ir-keytable",
						"/usr/bin/ir-keytable");
	char line[256];
	size_t size;

	KUNIT_EXPECT_EQ(test, abidep_log_line(line, sizeof(line), path, &e,
					      &who, false), strlen(line));
	KUNIT_EXPECT_STREQ(test, line,
			   "/sys/class/rc/rc0/current_protocol is deprecated since 2010-04-08, removal after 2012-04-08, use protocols: read by pid 213 (ir-keytable) /usr/bin/ir-keytable");

	/* A newline cannot start a forged line; \\, controls, non-ASCII. */
	who = abidep_test_who(1, "a\nabidep: x\\\033", "/tmp/caf\xc3\xa9\n[ 1.0] abidep: x");
	abidep_log_line(line, sizeof(line), path, &e, &who, true);
	KUNIT_EXPECT_STREQ(test, line,
			   "/sys/class/rc/rc0/current_protocol is deprecated since 2010-04-08, removal after 2012-04-08, use protocols: written by pid 101 (a\\012abidep: x\\134\\033) /tmp/caf\\303\\251\\012[ 1.0] abidep: x");

	for (size = 1; size < sizeof(line); size++) {
		memset(line, 'x', sizeof(line));
		KUNIT_EXPECT_EQ_MSG(test, abidep_log_line(line, size, path, &e,
							  &who, true),
				    strlen(line), "size %zu", size);
		KUNIT_EXPECT_LT_MSG(test, strlen(line), size, "size %zu", size);
		KUNIT_EXPECT_NULL_MSG(test, strchr(line, '\n'), "size %zu", size);
	}
}

static struct kunit_case abidep_users_test_cases[] = {
	KUNIT_CASE(abidep_users_log_test),
	KUNIT_CASE(abidep_users_wrap_test),
	KUNIT_CASE(abidep_users_distinct_test),
	KUNIT_CASE(abidep_users_evict_test),
	KUNIT_CASE(abidep_users_churn_test),
	KUNIT_CASE(abidep_budget_test),
	KUNIT_CASE(abidep_users_long_exe_test),
	KUNIT_CASE(abidep_log_line_test),
	{}
};

static struct kunit_suite abidep_users_suite = {
	.name = "abidep_users",
	.test_cases = abidep_users_test_cases,
};

/* ---- aliases on a real device ---- */

static int abidep_test_val;

static ssize_t kval_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%d\n", abidep_test_val);
}

static ssize_t kval_store(struct device *dev, struct device_attribute *attr,
			  const char *buf, size_t count)
{
	int v, ret = kstrtoint(buf, 10, &v);

	if (ret)
		return ret;
	if (v < 0 || v > 1000)
		return -ERANGE;
	abidep_test_val = v;
	return count;
}
static DEVICE_ATTR_RW(kval);

static ssize_t kstranger_show(struct device *dev, struct device_attribute *attr,
			      char *buf)
{
	return sysfs_emit(buf, "stranger\n");
}
static DEVICE_ATTR_RO(kstranger);

/* Old format: the value in words for 42, digits otherwise. */
static ssize_t kold_show_xlate(struct device *dev, char *buf, ssize_t len)
{
	if (!strcmp(buf, "42\n"))
		return sysfs_emit(buf, "forty-two\n");
	return len;
}

static ssize_t kold_store_xlate(struct device *dev, const char *buf,
				size_t count, char *out, size_t size)
{
	if (sysfs_streq(buf, "forty-two"))
		return scnprintf(out, size, "42");
	if (sysfs_streq(buf, "zero"))
		return scnprintf(out, size, "0");
	return -EINVAL;
}

struct abidep_alias_ctx {
	struct device *dev;
	struct abidep_entry plain;
	struct abidep_entry xlate;
};

static ssize_t abidep_test_read(struct abidep_alias_ctx *c, struct attribute *attr,
				char *buf)
{
	memset(buf, 0, PAGE_SIZE);
	return c->dev->kobj.ktype->sysfs_ops->show(&c->dev->kobj, attr, buf);
}

static ssize_t abidep_test_write(struct abidep_alias_ctx *c,
				 struct attribute *attr, const char *val)
{
	return c->dev->kobj.ktype->sysfs_ops->store(&c->dev->kobj, attr, val,
						    strlen(val));
}

static int abidep_alias_init(struct kunit *test)
{
	struct abidep_alias_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->dev = root_device_register("abidep-kunit");
	KUNIT_ASSERT_FALSE(test, IS_ERR(c->dev));
	KUNIT_ASSERT_EQ(test, device_create_file(c->dev, &dev_attr_kval), 0);
	abidep_test_val = 7;
	c->plain = (struct abidep_entry) {
		.old_name = "kold", .new_name = "kval",
		.deprecated = "2010-04-08", .remove_after = "6.12",
	};
	c->xlate = c->plain;
	c->xlate.old_name = "kold_words";
	c->xlate.show_xlate = kold_show_xlate;
	c->xlate.store_xlate = kold_store_xlate;
	KUNIT_ASSERT_EQ(test, abidep_entry_register(&c->plain), 0);
	KUNIT_ASSERT_EQ(test, abidep_entry_register(&c->xlate), 0);
	test->priv = c;
	return 0;
}

static void abidep_alias_exit(struct kunit *test)
{
	struct abidep_alias_ctx *c = test->priv;

	abidep_entry_unregister(&c->plain);
	abidep_entry_unregister(&c->xlate);
	device_remove_file(c->dev, &dev_attr_kval);
	root_device_unregister(c->dev);
}

static bool abidep_test_file(struct device *dev, const char *name, umode_t *mode)
{
	struct kernfs_node *kn = kernfs_find_and_get(dev->kobj.sd, name);

	if (!kn)
		return false;
	if (mode)
		*mode = kn->mode & 0777;
	kernfs_put(kn);
	return true;
}

static void abidep_alias_forward_test(struct kunit *test)
{
	struct abidep_alias_ctx *c = test->priv;
	struct abidep_state *st = c->plain.state;
	char *direct = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	char *alias = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	struct abidep_alias *a;
	umode_t mode_new, mode_old;

	KUNIT_ASSERT_NOT_NULL(test, direct);
	KUNIT_ASSERT_NOT_NULL(test, alias);
	a = abidep_device_alias_add(c->dev, &c->plain, &dev_attr_kval);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	KUNIT_ASSERT_TRUE(test, abidep_test_file(c->dev, "kold", &mode_old));
	KUNIT_ASSERT_TRUE(test, abidep_test_file(c->dev, "kval", &mode_new));
	KUNIT_EXPECT_EQ(test, mode_old, mode_new);
	KUNIT_EXPECT_EQ(test, atomic_read(&st->aliases), 1);

	/* Reads: same bytes as the new name. */
	KUNIT_EXPECT_EQ(test, abidep_test_read(c, &a->shim.attr, alias), 2);
	KUNIT_EXPECT_EQ(test, abidep_test_read(c, &dev_attr_kval.attr, direct), 2);
	KUNIT_EXPECT_STREQ(test, alias, direct);
	KUNIT_EXPECT_STREQ(test, alias, "7\n");

	/* Writes reach the new attribute. */
	KUNIT_EXPECT_EQ(test, abidep_test_write(c, &a->shim.attr, "42\n"), 3);
	KUNIT_EXPECT_EQ(test, abidep_test_val, 42);

	/* Bad writes: the new attribute's own error, nothing changed. */
	KUNIT_EXPECT_EQ(test, abidep_test_write(c, &a->shim.attr, "garbage"),
			abidep_test_write(c, &dev_attr_kval.attr, "garbage"));
	KUNIT_EXPECT_EQ(test, abidep_test_write(c, &a->shim.attr, "garbage"),
			(ssize_t)-EINVAL);
	KUNIT_EXPECT_EQ(test, abidep_test_write(c, &a->shim.attr, ""),
			(ssize_t)-EINVAL);
	KUNIT_EXPECT_EQ(test, abidep_test_write(c, &a->shim.attr, "5000"),
			(ssize_t)-ERANGE);
	KUNIT_EXPECT_EQ(test, abidep_test_val, 42);

	/* Counted per entry: 1 read, 5 writes of which 4 failed. */
	KUNIT_EXPECT_EQ(test, atomic64_read(&st->reads), 1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&st->writes), 5LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&st->errors), 4LL);

	/* This kthread is one user, named by comm, with no executable. */
	KUNIT_ASSERT_EQ(test, st->users.nr, 1U);
	KUNIT_EXPECT_STREQ(test, st->users.slot[0].comm, current->comm);
	KUNIT_EXPECT_STREQ(test, st->users.slot[0].exe, "(kernel)");
	KUNIT_EXPECT_EQ(test, st->users.slot[0].reads, 1ULL);
	KUNIT_EXPECT_EQ(test, st->users.slot[0].writes, 5ULL);

	abidep_alias_remove(a);
	KUNIT_EXPECT_FALSE(test, abidep_test_file(c->dev, "kold", NULL));
	KUNIT_EXPECT_TRUE(test, abidep_test_file(c->dev, "kval", NULL));
	KUNIT_EXPECT_EQ(test, atomic_read(&st->aliases), 0);
}

static void abidep_alias_xlate_test(struct kunit *test)
{
	struct abidep_alias_ctx *c = test->priv;
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	struct abidep_alias *a;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	a = abidep_device_alias_add(c->dev, &c->xlate, &dev_attr_kval);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));

	/* Old format in, new format stored; whole write reported taken. */
	KUNIT_EXPECT_EQ(test, abidep_test_write(c, &a->shim.attr, "forty-two\n"),
			(ssize_t)strlen("forty-two\n"));
	KUNIT_EXPECT_EQ(test, abidep_test_val, 42);
	abidep_test_read(c, &a->shim.attr, buf);
	KUNIT_EXPECT_STREQ(test, buf, "forty-two\n");
	abidep_test_read(c, &dev_attr_kval.attr, buf);
	KUNIT_EXPECT_STREQ(test, buf, "42\n");

	/* New-format values are not old-format values: rejected. */
	KUNIT_EXPECT_EQ(test, abidep_test_write(c, &a->shim.attr, "42"),
			(ssize_t)-EINVAL);
	KUNIT_EXPECT_EQ(test, abidep_test_val, 42);

	KUNIT_EXPECT_EQ(test, abidep_test_write(c, &a->shim.attr, "zero"), 4);
	KUNIT_EXPECT_EQ(test, abidep_test_val, 0);
	abidep_test_read(c, &a->shim.attr, buf);
	KUNIT_EXPECT_STREQ(test, buf, "0\n");
	KUNIT_EXPECT_EQ(test, atomic64_read(&c->xlate.state->errors), 1LL);

	abidep_alias_remove(a);
}

static void abidep_alias_refuse_test(struct kunit *test)
{
	struct abidep_alias_ctx *c = test->priv;
	struct abidep_entry unregistered = c->plain;
	struct abidep_alias *a;

	/* The new attribute is not on this device. */
	a = abidep_device_alias_add(c->dev, &c->plain, &dev_attr_kstranger);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(a), -ENOENT);

	/* Not registered. */
	unregistered.state = NULL;
	a = abidep_device_alias_add(c->dev, &unregistered, &dev_attr_kval);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(a), -EINVAL);

	/* Registered twice. */
	KUNIT_EXPECT_EQ(test, abidep_entry_register(&c->plain), -EEXIST);

	/* The old name exists already: the second alias is refused. */
	a = abidep_device_alias_add(c->dev, &c->plain, &dev_attr_kval);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	KUNIT_EXPECT_EQ(test,
			PTR_ERR_OR_ZERO(abidep_device_alias_add(c->dev, &c->plain,
								&dev_attr_kval)),
			-EEXIST);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->plain.state->aliases), 1);
	abidep_alias_remove(a);
	abidep_alias_remove(NULL);
	abidep_alias_remove(ERR_PTR(-ENOENT));
}

static struct kunit_case abidep_alias_test_cases[] = {
	KUNIT_CASE(abidep_alias_forward_test),
	KUNIT_CASE(abidep_alias_xlate_test),
	KUNIT_CASE(abidep_alias_refuse_test),
	{}
};

static struct kunit_suite abidep_alias_suite = {
	.name = "abidep_alias",
	.init = abidep_alias_init,
	.exit = abidep_alias_exit,
	.test_cases = abidep_alias_test_cases,
};

/* ---- class-table aliases on devices that come and go ---- */

static struct attribute *abidep_test_class_attrs[] = {
	&dev_attr_kval.attr,
	NULL,
};
ATTRIBUTE_GROUPS(abidep_test_class);

static struct class abidep_test_class = {
	.name = "abidep_kunit",
	.dev_groups = abidep_test_class_groups,
};

static struct abidep_entry abidep_class_entries[] = {
	{ .class_name = "abidep_kunit", .old_name = "kold",
	  .new_name = "kval", .deprecated = "2010-04-08",
	  .remove_after = "2012-04-08" },
	/* No such attribute: skipped on each device. */
	{ .class_name = "abidep_kunit", .old_name = "kold2",
	  .new_name = "nonexistent", .deprecated = "2010-04-08",
	  .remove_after = "2012-04-08" },
	/* No such class: waits, harmlessly. */
	{ .class_name = "abidep_kunit_absent", .old_name = "x",
	  .new_name = "y", .deprecated = "2010-04-08",
	  .remove_after = "2012-04-08" },
	/* Bad date: skipped, the table still loads. */
	{ .class_name = "abidep_kunit", .old_name = "kold3",
	  .new_name = "kval", .deprecated = "2010-04-31",
	  .remove_after = "2012-04-08" },
};

/* A second table on the same class: it waits until the first has gone. */
static struct abidep_entry abidep_class_entries2[] = {
	{ .class_name = "abidep_kunit", .old_name = "kother",
	  .new_name = "kval", .deprecated = "2010-04-08",
	  .remove_after = "2012-04-08" },
};

static struct abidep_class_ctx {
	struct abidep_table table, table2;
	bool loaded, loaded2;
	struct device *a, *b;
} abidep_class_ctx;

static int abidep_class_test_init(struct kunit *test)
{
	struct abidep_class_ctx *c = &abidep_class_ctx;

	memset(c, 0, sizeof(*c));
	c->table.entries = abidep_class_entries;
	c->table.nr = ARRAY_SIZE(abidep_class_entries);
	c->table2.entries = abidep_class_entries2;
	c->table2.nr = ARRAY_SIZE(abidep_class_entries2);
	return class_register(&abidep_test_class);
}

/* Runs even when an assertion ended the test early. */
static void abidep_class_test_exit(struct kunit *test)
{
	struct abidep_class_ctx *c = &abidep_class_ctx;

	if (c->loaded)
		abidep_table_unload(&c->table);
	if (c->loaded2)
		abidep_table_unload(&c->table2);
	if (!IS_ERR_OR_NULL(c->a))
		device_unregister(c->a);
	if (!IS_ERR_OR_NULL(c->b))
		device_unregister(c->b);
	class_unregister(&abidep_test_class);
}

static void abidep_class_test(struct kunit *test)
{
	struct abidep_class_ctx *c = &abidep_class_ctx;
	struct abidep_entry *e = abidep_class_entries;

	c->a = device_create(&abidep_test_class, NULL, 0, NULL, "kunit-a");
	KUNIT_ASSERT_FALSE(test, IS_ERR(c->a));

	/* A device present before the table loads gets the alias. */
	KUNIT_ASSERT_EQ(test, abidep_table_load(&c->table), 0);
	c->loaded = true;
	KUNIT_EXPECT_EQ(test, abidep_table_alias_count(&c->table), 1U);
	KUNIT_EXPECT_TRUE(test, abidep_test_file(c->a, "kold", NULL));
	KUNIT_EXPECT_FALSE(test, abidep_test_file(c->a, "kold2", NULL));
	KUNIT_EXPECT_FALSE(test, abidep_test_file(c->a, "kold3", NULL));
	KUNIT_EXPECT_NULL(test, e[3].state);

	/* So does one that appears later. */
	c->b = device_create(&abidep_test_class, NULL, 0, NULL, "kunit-b");
	KUNIT_ASSERT_FALSE(test, IS_ERR(c->b));
	KUNIT_EXPECT_EQ(test, abidep_table_alias_count(&c->table), 2U);
	KUNIT_EXPECT_TRUE(test, abidep_test_file(c->b, "kold", NULL));
	KUNIT_ASSERT_NOT_NULL(test, e[0].state);
	KUNIT_EXPECT_EQ(test, atomic_read(&e[0].state->aliases), 2);

	/* A device that goes takes its alias along. */
	device_unregister(c->a);
	c->a = NULL;
	KUNIT_EXPECT_EQ(test, abidep_table_alias_count(&c->table), 1U);
	KUNIT_EXPECT_EQ(test, atomic_read(&e[0].state->aliases), 1);

	abidep_class_scan();	/* harmless when everything is bound */
	KUNIT_EXPECT_EQ(test, abidep_table_alias_count(&c->table), 1U);

	/*
	 * A class has one abidep interface, found by the class in the
	 * callbacks (6.4 and later do not pass the interface): a second
	 * table on it is not bound, and the first is undisturbed.
	 */
	KUNIT_ASSERT_EQ(test, abidep_table_load(&c->table2), 0);
	c->loaded2 = true;
	KUNIT_EXPECT_EQ(test, abidep_table_alias_count(&c->table2), 0U);
	KUNIT_EXPECT_FALSE(test, abidep_test_file(c->b, "kother", NULL));
	KUNIT_EXPECT_EQ(test, abidep_table_alias_count(&c->table), 1U);

	abidep_table_unload(&c->table);
	c->loaded = false;
	KUNIT_EXPECT_FALSE(test, abidep_test_file(c->b, "kold", NULL));
	KUNIT_EXPECT_TRUE(test, abidep_test_file(c->b, "kval", NULL));
	KUNIT_EXPECT_NULL(test, e[0].state);

	/* Once the first has gone, a scan binds the second. */
	abidep_class_scan();
	KUNIT_EXPECT_EQ(test, abidep_table_alias_count(&c->table2), 1U);
	KUNIT_EXPECT_TRUE(test, abidep_test_file(c->b, "kother", NULL));

	/*
	 * The class's last device gone, its interface goes (kept until the
	 * class went, it would leak the class's private part on 6.4 and
	 * later); a new device binds it again at the next scan.
	 */
	device_unregister(c->b);
	c->b = NULL;
	abidep_class_flush();
	c->a = device_create(&abidep_test_class, NULL, 0, NULL, "kunit-a");
	KUNIT_ASSERT_FALSE(test, IS_ERR(c->a));
	KUNIT_EXPECT_EQ(test, abidep_table_alias_count(&c->table2), 0U);
	abidep_class_scan();
	KUNIT_EXPECT_EQ(test, abidep_table_alias_count(&c->table2), 1U);
	KUNIT_EXPECT_TRUE(test, abidep_test_file(c->a, "kother", NULL));

	abidep_table_unload(&c->table2);
	c->loaded2 = false;
	KUNIT_EXPECT_FALSE(test, abidep_test_file(c->a, "kother", NULL));
}

static struct kunit_case abidep_class_test_cases[] = {
	KUNIT_CASE(abidep_class_test),
	{}
};

static struct kunit_suite abidep_class_suite = {
	.name = "abidep_class",
	.init = abidep_class_test_init,
	.exit = abidep_class_test_exit,
	.test_cases = abidep_class_test_cases,
};

kunit_test_suites(&abidep_date_suite, &abidep_duration_suite, &abidep_users_suite,
		  &abidep_alias_suite, &abidep_class_suite);

MODULE_LICENSE("GPL");
