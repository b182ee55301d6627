// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for typed attributes: the text parsers, good and bad input for
 * each type, then the sysfs show() and store() of each type on a real device
 * (exact read-back after every write, nothing changed by a refused one), the
 * names checked once per attribute, and concurrent set writers. Run with
 * tests/kunit/run (UML).
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "typed.h"

/* ---- the text layer ---- */

/* A write as a one-line test name: KTAP lines cannot hold a newline. */
static void ktyped_quote(char *desc, const char *prefix, const char *in)
{
	int at = scnprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s'", prefix);

	for (; *in && at < KUNIT_PARAM_DESC_SIZE - 4; in++) {
		if (*in == '\n')
			at += scnprintf(desc + at, KUNIT_PARAM_DESC_SIZE - at, "\\n");
		else if (*in == '\t')
			at += scnprintf(desc + at, KUNIT_PARAM_DESC_SIZE - at, "\\t");
		else if (*in == '\r')
			at += scnprintf(desc + at, KUNIT_PARAM_DESC_SIZE - at, "\\r");
		else
			desc[at++] = *in;
	}
	scnprintf(desc + at, KUNIT_PARAM_DESC_SIZE - at, "'");
}

static const char * const ktyped_sched[] = { "noop", "deadline", "cfq" };
static const char * const ktyped_protos[] = { "rc-5", "nec", "sony", "jvc" };

struct ktyped_names_case {
	const char *desc;
	const char *names[3];
	unsigned int nr;
	bool is_set;
	bool valid;
};

static const struct ktyped_names_case ktyped_names_cases[] = {
	{ "plain", { "noop", "deadline", "cfq" }, 3, true, true },
	{ "punctuation", { "rc-5", "pulse/distance", "a_b.c" }, 3, true, true },
	{ "none in an enum", { "none", "some" }, 2, false, true },
	{ "none in a set", { "none", "some" }, 2, true, false },
	{ "NONE in a set", { "NONE", "some" }, 2, true, false },
	{ "duplicate", { "nec", "sony", "nec" }, 3, false, false },
	{ "duplicate but case", { "nec", "NEC" }, 2, false, false },
	{ "empty name", { "nec", "" }, 2, false, false },
	{ "NULL name", { "nec", NULL }, 2, false, false },
	{ "space", { "rc 5" }, 1, false, false },
	{ "tab", { "rc\t5" }, 1, false, false },
	{ "bracket", { "[nec]" }, 1, false, false },
	{ "plus", { "+nec" }, 1, false, false },
	{ "minus", { "-nec" }, 1, false, false },
	{ "non-ASCII", { "n\xc3\xa9" }, 1, false, false },
	{ "31 chars", { "abcdefghijklmnopqrstuvwxyz01234" }, 1, true, true },
	{ "32 chars", { "abcdefghijklmnopqrstuvwxyz012345" }, 1, true, false },
	{ "no names", { "nec" }, 0, true, false },
	{ "33 names", { "nec" }, 33, true, false },
};

static void ktyped_names_desc(const struct ktyped_names_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ktyped_names, ktyped_names_cases, ktyped_names_desc);

static void ktyped_names_test(struct kunit *test)
{
	const struct ktyped_names_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, abidep_typed_names_valid(c->names, c->nr, c->is_set),
			c->valid);
}

struct ktyped_enum_case {
	const char *in;
	int ret;
	unsigned int idx;
};

static const struct ktyped_enum_case ktyped_enum_cases[] = {
	{ "noop", 0, 0 },
	{ "deadline\n", 0, 1 },
	{ "CFQ", 0, 2 },
	{ "Deadline\n", 0, 1 },
	{ "bfq", -EINVAL },
	{ "", -EINVAL },
	{ "\n", -EINVAL },
	{ "noop deadline", -EINVAL },
	{ " noop", -EINVAL },
	{ "noop ", -EINVAL },
	{ "noop\n\n", -EINVAL },
	{ "[cfq]", -EINVAL },
	{ "cf", -EINVAL },
	{ "cfqq", -EINVAL },
	{ "noopnoopnoopnoopnoopnoopnoopnoopnoop", -EINVAL },
};

static void ktyped_enum_desc(const struct ktyped_enum_case *c, char *desc)
{
	ktyped_quote(desc, "", c->in);
}

KUNIT_ARRAY_PARAM(ktyped_enum, ktyped_enum_cases, ktyped_enum_desc);

static void ktyped_enum_test(struct kunit *test)
{
	const struct ktyped_enum_case *c = test->param_value;
	unsigned int idx = 99;

	KUNIT_EXPECT_EQ(test, abidep_parse_enum(ktyped_sched,
						ARRAY_SIZE(ktyped_sched), c->in,
						strlen(c->in), &idx), c->ret);
	KUNIT_EXPECT_EQ(test, idx, c->ret ? 99U : c->idx);
}

struct ktyped_set_case {
	unsigned long cur;
	const char *in;
	int ret;
	unsigned long out;
};

/* Bits: 0 rc-5, 1 nec, 2 sony, 3 jvc. */
static const struct ktyped_set_case ktyped_set_cases[] = {
	{ 0x2, "+sony", 0, 0x6 },
	{ 0x2, "+nec", 0, 0x2 },
	{ 0x2, "-nec\n", 0, 0x0 },
	{ 0x2, "-sony", 0, 0x2 },
	{ 0x2, "sony", 0, 0x4 },
	{ 0x2, "SONY\n", 0, 0x4 },
	{ 0x6, "none", 0, 0x0 },
	{ 0x6, "None\n", 0, 0x0 },
	{ 0x2, "rc-5 jvc", 0, 0x9 },
	{ 0x2, "+rc-5 +jvc -nec", 0, 0x9 },
	{ 0x2, "none +sony", 0, 0x4 },
	{ 0x2, "sony none", 0, 0x0 },
	{ 0x2, "+jvc sony", 0, 0x4 },
	{ 0x2, "sony +jvc rc-5", 0, 0xd },
	{ 0x2, "+sony -sony", 0, 0x2 },
	{ 0x2, "  +sony\t+jvc\n", 0, 0xe },
	{ 0x2, "nec\nsony\n", 0, 0x6 },
	{ 0xf0, "+nec", 0, 0x2 },	/* bits past the names are dropped */
	{ 0x2, "+bogus", -EINVAL },
	{ 0x2, "+sony +bogus", -EINVAL },
	{ 0x2, "bogus", -EINVAL },
	{ 0x2, "", -EINVAL },
	{ 0x2, "\n", -EINVAL },
	{ 0x2, "\t \t\n", -EINVAL },
	{ 0x2, "+", -EINVAL },
	{ 0x2, "-", -EINVAL },
	{ 0x2, "+none", -EINVAL },
	{ 0x2, "-none", -EINVAL },
	{ 0x2, "++nec", -EINVAL },
	{ 0x2, "+-nec", -EINVAL },
	{ 0x2, "nec,sony", -EINVAL },
	{ 0x2, "[nec]", -EINVAL },
	{ 0x2, "nec\r\n", -EINVAL },
	{ 0x2, "+sonysonysonysonysonysonysonysony", -EINVAL },
};

static void ktyped_set_desc(const struct ktyped_set_case *c, char *desc)
{
	char prefix[16];

	snprintf(prefix, sizeof(prefix), "%#lx ", c->cur);
	ktyped_quote(desc, prefix, c->in);
}

KUNIT_ARRAY_PARAM(ktyped_set, ktyped_set_cases, ktyped_set_desc);

static void ktyped_set_test(struct kunit *test)
{
	const struct ktyped_set_case *c = test->param_value;
	unsigned long out = 0xdead;

	KUNIT_EXPECT_EQ(test, abidep_parse_set(ktyped_protos,
					       ARRAY_SIZE(ktyped_protos), c->cur,
					       c->in, strlen(c->in), &out),
			c->ret);
	KUNIT_EXPECT_EQ(test, out, c->ret ? 0xdeadUL : c->out);
}

struct ktyped_bool_case {
	const char *in;
	int ret;
	bool val;
};

static const struct ktyped_bool_case ktyped_bool_cases[] = {
	{ "1", 0, true }, { "0", 0, false }, { "y", 0, true }, { "N", 0, false },
	{ "yes\n", 0, true }, { "No", 0, false }, { "t", 0, true },
	{ "f", 0, false }, { "TRUE", 0, true }, { "false\n", 0, false },
	{ "on", 0, true }, { "OFF\n", 0, false },
	{ "yesterday", -EINVAL }, { "nonsense", -EINVAL }, { "2", -EINVAL },
	{ "10", -EINVAL }, { "", -EINVAL }, { "\n", -EINVAL }, { "o", -EINVAL },
	{ "of", -EINVAL }, { "onn", -EINVAL }, { " 1", -EINVAL },
	{ "1 ", -EINVAL }, { "+1", -EINVAL }, { "1\n\n", -EINVAL },
	{ "enable", -EINVAL },
};

static void ktyped_bool_desc(const struct ktyped_bool_case *c, char *desc)
{
	ktyped_quote(desc, "", c->in);
}

KUNIT_ARRAY_PARAM(ktyped_bool, ktyped_bool_cases, ktyped_bool_desc);

static void ktyped_bool_test(struct kunit *test)
{
	const struct ktyped_bool_case *c = test->param_value;
	bool val = false, k;
	int kret;

	/* Poison with the opposite of what a success would write. */
	val = !c->val;
	KUNIT_EXPECT_EQ(test, abidep_parse_bool(c->in, strlen(c->in), &val),
			c->ret);
	KUNIT_EXPECT_EQ(test, val, c->ret ? !c->val : c->val);
	/* Everything taken is taken by kstrtobool() too, with its meaning. */
	if (!c->ret) {
		kret = kstrtobool(c->in, &k);
		KUNIT_EXPECT_EQ(test, kret, 0);
		KUNIT_EXPECT_EQ(test, k, c->val);
	}
}

struct ktyped_num_case {
	int kind;		/* 0..2: duration in that unit, 3: size */
	const char *in;
	int ret;
	u64 val;
};

#define KD_US 0
#define KD_MS 1
#define KD_S 2
#define KSIZE 3

static const struct ktyped_num_case ktyped_num_cases[] = {
	{ KD_MS, "1500", 0, 1500 },
	{ KD_MS, "1500ms\n", 0, 1500 },
	{ KD_MS, "2s", 0, 2000 },
	{ KD_MS, "250000us", 0, 250 },
	{ KD_MS, "0", 0, 0 },
	{ KD_MS, "007", 0, 7 },
	{ KD_US, "3s", 0, 3000000 },
	{ KD_US, "3", 0, 3 },
	{ KD_S, "120000ms", 0, 120 },
	{ KD_S, "5000000us", 0, 5 },
	{ KD_US, "18446744073709551615", 0, U64_MAX },
	{ KD_US, "18446744073709551615us", 0, U64_MAX },
	{ KD_MS, "18446744073709551615ms", 0, U64_MAX },
	{ KD_MS, "18446744073709551000us", 0, 18446744073709551ULL },
	{ KD_MS, "1500us", -EINVAL },	/* not whole milliseconds */
	{ KD_S, "1500ms", -EINVAL },
	{ KD_US, "18446744073709551616", -EINVAL },	/* 2^64 */
	{ KD_US, "99999999999999999999", -EINVAL },
	{ KD_MS, "18446744073709552s", -EINVAL },	/* overflows in ms */
	{ KD_US, "18446744073709552ms", -EINVAL },
	{ KD_MS, "1.5s", -EINVAL },
	{ KD_MS, "1500 ms", -EINVAL },
	{ KD_MS, " 1500", -EINVAL },
	{ KD_MS, "1500\n\n", -EINVAL },
	{ KD_MS, "-5", -EINVAL },
	{ KD_MS, "+5", -EINVAL },
	{ KD_MS, "0x10", -EINVAL },
	{ KD_MS, "1500MS", -EINVAL },
	{ KD_MS, "5m", 0, 300000 },	/* minutes: duration.c's grammar */
	{ KD_MS, "5min", -EINVAL },
	{ KD_MS, "5ns", -EINVAL },
	{ KD_MS, "ms", -EINVAL },
	{ KD_MS, "", -EINVAL },
	{ KD_MS, "\n", -EINVAL },
	{ KD_MS, "00000000000000000000000000001500", -EINVAL },	/* 32 chars */
	{ KD_MS, "0000000000000000000000000001500\n", 0, 1500 },	/* 31 */
	{ KSIZE, "4096", 0, 4096 },
	{ KSIZE, "4K", 0, 4096 },
	{ KSIZE, "4k\n", 0, 4096 },
	{ KSIZE, "16M", 0, 16777216 },
	{ KSIZE, "1G", 0, 1073741824 },
	{ KSIZE, "3g", 0, 3221225472ULL },
	{ KSIZE, "0", 0, 0 },
	{ KSIZE, "17179869183G", 0, 17179869183ULL << 30 },
	{ KSIZE, "18446744073709551615", 0, U64_MAX },
	{ KSIZE, "17179869184G", -EINVAL },	/* 2^64 */
	{ KSIZE, "18014398509481984K", -EINVAL },
	{ KSIZE, "18446744073709551616", -EINVAL },
	{ KSIZE, "4KB", -EINVAL },
	{ KSIZE, "4KiB", -EINVAL },
	{ KSIZE, "4 K", -EINVAL },
	{ KSIZE, "4T", -EINVAL },
	{ KSIZE, "K", -EINVAL },
	{ KSIZE, "-4K", -EINVAL },
	{ KSIZE, "1.5M", -EINVAL },
	{ KSIZE, "", -EINVAL },
};

static void ktyped_num_desc(const struct ktyped_num_case *c, char *desc)
{
	static const char * const kinds[] = { "us ", "ms ", "s ", "bytes " };

	ktyped_quote(desc, kinds[c->kind], c->in);
}

KUNIT_ARRAY_PARAM(ktyped_num, ktyped_num_cases, ktyped_num_desc);

static void ktyped_num_test(struct kunit *test)
{
	const struct ktyped_num_case *c = test->param_value;
	u64 val = 4242;
	int ret;

	if (c->kind == KSIZE)
		ret = abidep_parse_size(c->in, strlen(c->in), &val);
	else
		ret = abidep_parse_duration(c->kind, c->in, strlen(c->in), &val);
	KUNIT_EXPECT_EQ(test, ret, c->ret);
	KUNIT_EXPECT_EQ(test, val, c->ret ? 4242ULL : c->val);
}

/* The largest legal set, all in: still well within a page. */
static void ktyped_format_bound_test(struct kunit *test)
{
	static char names[ABIDEP_TYPED_NAMES_MAX][ABIDEP_TYPED_NAME_MAX + 1];
	const char *ptrs[ABIDEP_TYPED_NAMES_MAX];
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	char tok[ABIDEP_TYPED_NAME_MAX + 2];
	unsigned long out;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; i < ABIDEP_TYPED_NAMES_MAX; i++) {
		memset(names[i], 'x', ABIDEP_TYPED_NAME_MAX);
		names[i][0] = 'a' + i / 26;
		names[i][1] = 'a' + i % 26;
		ptrs[i] = names[i];
	}
	KUNIT_ASSERT_TRUE(test, abidep_typed_names_valid(ptrs, i, true));
	/* 32 "[name]" of 33 characters, 31 spaces, a newline. */
	KUNIT_EXPECT_EQ(test, abidep_format_set(ptrs, i, ~0UL, buf),
			32 * 33 + 31 + 1);
	KUNIT_EXPECT_EQ(test, strlen(buf), (size_t)(32 * 33 + 31 + 1));
	/* The last name is bit 31 on every architecture. */
	snprintf(tok, sizeof(tok), "+%s", ptrs[31]);
	KUNIT_EXPECT_EQ(test, abidep_parse_set(ptrs, i, 0, tok, strlen(tok), &out),
			0);
	KUNIT_EXPECT_EQ(test, out, BIT(31));
	KUNIT_EXPECT_EQ(test, abidep_format_enum(ktyped_sched, 3, 2, buf), 20);
	KUNIT_EXPECT_STREQ(test, buf, "noop deadline [cfq]\n");
	KUNIT_EXPECT_EQ(test, abidep_format_enum(ktyped_sched, 3, 7, buf), 18);
	KUNIT_EXPECT_STREQ(test, buf, "noop deadline cfq\n");
	KUNIT_EXPECT_EQ(test, abidep_format_u64(U64_MAX, buf), 21);
	KUNIT_EXPECT_STREQ(test, buf, "18446744073709551615\n");
}

static struct kunit_case ktyped_parse_test_cases[] = {
	KUNIT_CASE_PARAM(ktyped_names_test, ktyped_names_gen_params),
	KUNIT_CASE_PARAM(ktyped_enum_test, ktyped_enum_gen_params),
	KUNIT_CASE_PARAM(ktyped_set_test, ktyped_set_gen_params),
	KUNIT_CASE_PARAM(ktyped_bool_test, ktyped_bool_gen_params),
	KUNIT_CASE_PARAM(ktyped_num_test, ktyped_num_gen_params),
	KUNIT_CASE(ktyped_format_bound_test),
	{}
};

static struct kunit_suite ktyped_parse_suite = {
	.name = "abidep_typed_parse",
	.test_cases = ktyped_parse_test_cases,
};

/* ---- show() and store() on a real device ---- */

struct ktyped_dev {
	struct mutex lock;	/* protects the values and the counters */
	unsigned int sched;
	unsigned long protos;
	bool on;
	u64 delay_ms;
	u64 buf_bytes;
	unsigned int applied;
	unsigned int apply_sleep_ms;
};

/* Refuses the one set the "hardware" cannot do: all four at once. */
static int ktyped_protos_apply(struct device *dev,
			       const struct abidep_typed_attr *ta, u64 val)
{
	struct ktyped_dev *td = dev_get_drvdata(dev);

	lockdep_assert_held(&td->lock);
	if (td->apply_sleep_ms)
		msleep(td->apply_sleep_ms);
	if (val == 0xf)
		return -EBUSY;
	td->applied++;
	return 0;
}

static ABIDEP_ATTR_ENUM(ksched, 0644, struct ktyped_dev, sched, lock,
			ktyped_sched, 3);
static ABIDEP_ATTR_SET(kprotos, 0644, struct ktyped_dev, protos, lock,
		       ktyped_protos, 4, .apply = ktyped_protos_apply);
static ABIDEP_ATTR_BOOL(kon, 0644, struct ktyped_dev, on, lock);
static ABIDEP_ATTR_DURATION(kdelay_ms, 0644, struct ktyped_dev, delay_ms, lock,
			    ABIDEP_MS, 10, 60000);
static ABIDEP_ATTR_SIZE(kbuf_bytes, 0644, struct ktyped_dev, buf_bytes, lock,
			SZ_4K, SZ_1G);

static const char * const ktyped_bad_names[] = { "some", "none" };
static ABIDEP_ATTR_SET(kbadset, 0644, struct ktyped_dev, protos, lock,
		       ktyped_bad_names, 2);

static struct abidep_typed_attr *ktyped_attrs[] = {
	&abidep_attr_ksched, &abidep_attr_kprotos, &abidep_attr_kon,
	&abidep_attr_kdelay_ms, &abidep_attr_kbuf_bytes, &abidep_attr_kbadset,
};

struct ktyped_ctx {
	struct device *dev;
	struct ktyped_dev td;
	char *buf;
};

static int ktyped_dev_init(struct kunit *test)
{
	struct ktyped_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c->buf);
	mutex_init(&c->td.lock);
	c->td.sched = 2;		/* cfq */
	c->td.protos = BIT(1);		/* nec */
	c->td.delay_ms = 1000;
	c->td.buf_bytes = SZ_64K;
	c->dev = root_device_register("abidep-typed-kunit");
	KUNIT_ASSERT_FALSE(test, IS_ERR(c->dev));
	dev_set_drvdata(c->dev, &c->td);
	test->priv = c;
	for (i = 0; i < ARRAY_SIZE(ktyped_attrs); i++)
		KUNIT_ASSERT_EQ(test, device_create_file(c->dev,
							 &ktyped_attrs[i]->dattr),
				0);
	return 0;
}

static void ktyped_dev_exit(struct kunit *test)
{
	struct ktyped_ctx *c = test->priv;
	unsigned int i;

	if (!c || IS_ERR_OR_NULL(c->dev))
		return;
	for (i = 0; i < ARRAY_SIZE(ktyped_attrs); i++)
		device_remove_file(c->dev, &ktyped_attrs[i]->dattr);
	root_device_unregister(c->dev);
}

/* Through the kobject's sysfs_ops, as a read(2) or write(2) gets there. */
static ssize_t ktyped_read(struct ktyped_ctx *c, struct abidep_typed_attr *ta)
{
	memset(c->buf, 0, PAGE_SIZE);
	return c->dev->kobj.ktype->sysfs_ops->show(&c->dev->kobj,
						   &ta->dattr.attr, c->buf);
}

static ssize_t ktyped_write(struct ktyped_ctx *c, struct abidep_typed_attr *ta,
			    const char *val)
{
	return c->dev->kobj.ktype->sysfs_ops->store(&c->dev->kobj,
						    &ta->dattr.attr, val,
						    strlen(val));
}

struct ktyped_sysfs_case {
	struct abidep_typed_attr *ta;
	const char *pre;	/* written first, must succeed; may be NULL */
	const char *in;
	int err;		/* 0: the write returns its length */
	const char *read;	/* what the file reads afterwards */
};

#define KS(attr) (&abidep_attr_##attr)

static const struct ktyped_sysfs_case ktyped_sysfs_cases[] = {
	/* enum, initially cfq */
	{ KS(ksched), NULL, "deadline\n", 0, "noop [deadline] cfq\n" },
	{ KS(ksched), NULL, "NOOP", 0, "[noop] deadline cfq\n" },
	{ KS(ksched), NULL, "cfq", 0, "noop deadline [cfq]\n" },
	{ KS(ksched), "noop", "bfq", -EINVAL, "[noop] deadline cfq\n" },
	{ KS(ksched), "noop", "", -EINVAL, "[noop] deadline cfq\n" },
	{ KS(ksched), "noop", "noop deadline", -EINVAL, "[noop] deadline cfq\n" },
	{ KS(ksched), "noop", "cfq\n\n", -EINVAL, "[noop] deadline cfq\n" },
	/* set, initially nec; the apply hook refuses all four */
	{ KS(kprotos), NULL, "+sony", 0, "rc-5 [nec] [sony] jvc\n" },
	{ KS(kprotos), NULL, "-nec\n", 0, "rc-5 nec sony jvc\n" },
	{ KS(kprotos), NULL, "sony", 0, "rc-5 nec [sony] jvc\n" },
	{ KS(kprotos), NULL, "none", 0, "rc-5 nec sony jvc\n" },
	{ KS(kprotos), NULL, "rc-5 jvc", 0, "[rc-5] nec sony [jvc]\n" },
	{ KS(kprotos), NULL, "+rc-5 +jvc -nec\n", 0, "[rc-5] nec sony [jvc]\n" },
	{ KS(kprotos), NULL, "+nec", 0, "rc-5 [nec] sony jvc\n" },
	{ KS(kprotos), "+sony", "+sony +bogus", -EINVAL, "rc-5 [nec] [sony] jvc\n" },
	{ KS(kprotos), "+sony", "", -EINVAL, "rc-5 [nec] [sony] jvc\n" },
	{ KS(kprotos), "+sony", "+", -EINVAL, "rc-5 [nec] [sony] jvc\n" },
	{ KS(kprotos), "+sony", "+none", -EINVAL, "rc-5 [nec] [sony] jvc\n" },
	{ KS(kprotos), "+sony", "+rc-5 +jvc", -EBUSY, "rc-5 [nec] [sony] jvc\n" },
	/* bool, initially 0 */
	{ KS(kon), NULL, "1", 0, "1\n" },
	{ KS(kon), NULL, "yes\n", 0, "1\n" },
	{ KS(kon), NULL, "On", 0, "1\n" },
	{ KS(kon), "1", "off\n", 0, "0\n" },
	{ KS(kon), "1", "N", 0, "0\n" },
	{ KS(kon), "1", "false", 0, "0\n" },
	{ KS(kon), "1", "yesterday", -EINVAL, "1\n" },
	{ KS(kon), "1", "2", -EINVAL, "1\n" },
	{ KS(kon), "1", "", -EINVAL, "1\n" },
	/* duration in ms, 10 to 60000, initially 1000 */
	{ KS(kdelay_ms), NULL, "1500\n", 0, "1500\n" },
	{ KS(kdelay_ms), NULL, "2s", 0, "2000\n" },
	{ KS(kdelay_ms), NULL, "250000us", 0, "250\n" },
	{ KS(kdelay_ms), NULL, "60s", 0, "60000\n" },
	{ KS(kdelay_ms), NULL, "10ms", 0, "10\n" },
	{ KS(kdelay_ms), NULL, "9", -ERANGE, "1000\n" },
	{ KS(kdelay_ms), NULL, "61s", -ERANGE, "1000\n" },
	{ KS(kdelay_ms), NULL, "18446744073709551615", -ERANGE, "1000\n" },
	{ KS(kdelay_ms), NULL, "18446744073709551616", -EINVAL, "1000\n" },
	{ KS(kdelay_ms), NULL, "18446744073709552s", -EINVAL, "1000\n" },
	{ KS(kdelay_ms), NULL, "1500us", -EINVAL, "1000\n" },
	{ KS(kdelay_ms), NULL, "1.5s", -EINVAL, "1000\n" },
	{ KS(kdelay_ms), NULL, "15 s", -EINVAL, "1000\n" },
	/* size in bytes, 4K to 1G, initially 64K */
	{ KS(kbuf_bytes), NULL, "4096", 0, "4096\n" },
	{ KS(kbuf_bytes), NULL, "16M\n", 0, "16777216\n" },
	{ KS(kbuf_bytes), NULL, "1G", 0, "1073741824\n" },
	{ KS(kbuf_bytes), NULL, "8k", 0, "8192\n" },
	{ KS(kbuf_bytes), NULL, "2G", -ERANGE, "65536\n" },
	{ KS(kbuf_bytes), NULL, "4095", -ERANGE, "65536\n" },
	{ KS(kbuf_bytes), NULL, "17179869184G", -EINVAL, "65536\n" },
	{ KS(kbuf_bytes), NULL, "4KB", -EINVAL, "65536\n" },
	{ KS(kbuf_bytes), NULL, "4T", -EINVAL, "65536\n" },
	/* a driver's bad names: refused both ways, nothing changes */
	{ KS(kbadset), NULL, "some", -EINVAL, NULL },
};

static void ktyped_sysfs_desc(const struct ktyped_sysfs_case *c, char *desc)
{
	char prefix[32];

	snprintf(prefix, sizeof(prefix), "%s ", c->ta->dattr.attr.name);
	ktyped_quote(desc, prefix, c->in);
}

KUNIT_ARRAY_PARAM(ktyped_sysfs, ktyped_sysfs_cases, ktyped_sysfs_desc);

static void ktyped_sysfs_test(struct kunit *test)
{
	const struct ktyped_sysfs_case *c = test->param_value;
	struct ktyped_ctx *ctx = test->priv;
	ssize_t want = c->err ? c->err : (ssize_t)strlen(c->in);
	unsigned long protos;

	if (c->pre)
		KUNIT_ASSERT_EQ(test, ktyped_write(ctx, c->ta, c->pre),
				(ssize_t)strlen(c->pre));
	protos = ctx->td.protos;
	KUNIT_EXPECT_EQ(test, ktyped_write(ctx, c->ta, c->in), want);
	if (!c->read) {
		KUNIT_EXPECT_EQ(test, ktyped_read(ctx, c->ta), (ssize_t)-EINVAL);
		KUNIT_EXPECT_EQ(test, ctx->td.protos, protos);
		return;
	}
	KUNIT_EXPECT_EQ(test, ktyped_read(ctx, c->ta), (ssize_t)strlen(c->read));
	KUNIT_EXPECT_STREQ(test, ctx->buf, c->read);
}

/* The set's apply hook runs once per accepted write, under the lock. */
static void ktyped_apply_test(struct kunit *test)
{
	struct ktyped_ctx *c = test->priv;

	KUNIT_EXPECT_EQ(test, ktyped_write(c, &abidep_attr_kprotos, "+sony"), 5);
	KUNIT_EXPECT_EQ(test, ktyped_write(c, &abidep_attr_kprotos, "+bogus"),
			(ssize_t)-EINVAL);
	KUNIT_EXPECT_EQ(test, ktyped_write(c, &abidep_attr_kprotos,
					   "rc-5 nec sony jvc"),
			(ssize_t)-EBUSY);
	KUNIT_EXPECT_EQ(test, c->td.applied, 1U);
	KUNIT_EXPECT_EQ(test, c->td.protos, BIT(1) | BIT(2));
}

/*
 * The names are checked by the first access, once: the verdict stays in the
 * attribute, for every later access and every device.
 */
static void ktyped_names_once_test(struct kunit *test)
{
	struct ktyped_ctx *c = test->priv;

	KUNIT_EXPECT_EQ(test, ktyped_read(c, &abidep_attr_ksched), 20);
	KUNIT_EXPECT_EQ(test, abidep_attr_ksched.names_state, 1);
	KUNIT_EXPECT_EQ(test, ktyped_read(c, &abidep_attr_kbadset),
			(ssize_t)-EINVAL);
	KUNIT_EXPECT_EQ(test, abidep_attr_kbadset.names_state, -EINVAL);
	KUNIT_EXPECT_EQ(test, ktyped_write(c, &abidep_attr_kbadset, "some"),
			(ssize_t)-EINVAL);
	KUNIT_EXPECT_EQ(test, abidep_attr_kbadset.names_state, -EINVAL);
	/* Bool, duration and size have no names to check. */
	KUNIT_EXPECT_EQ(test, ktyped_read(c, &abidep_attr_kon), 2);
	KUNIT_EXPECT_EQ(test, abidep_attr_kon.names_state, 0);
}

struct ktyped_writer {
	struct ktyped_ctx *c;
	const char *val;
	ssize_t ret;
	struct completion done;
};

static int ktyped_writer_fn(void *data)
{
	struct ktyped_writer *w = data;

	w->ret = ktyped_write(w->c, &abidep_attr_kprotos, w->val);
	complete(&w->done);
	return 0;
}

/*
 * Two writers add different values at once while the apply hook sleeps with
 * the lock held. If the old value were read outside the lock, the second
 * writer would store its stale copy and drop the first one's change.
 */
static void ktyped_concurrent_test(struct kunit *test)
{
	struct ktyped_ctx *c = test->priv;
	struct ktyped_writer w[2] = {
		{ .c = c, .val = "+sony" }, { .c = c, .val = "-nec +jvc" },
	};
	struct task_struct *t;
	unsigned int round, i;

	c->td.apply_sleep_ms = 20;
	for (round = 0; round < 3; round++) {
		c->td.protos = BIT(1);
		for (i = 0; i < 2; i++) {
			init_completion(&w[i].done);
			t = kthread_run(ktyped_writer_fn, &w[i], "ktyped-%u", i);
			KUNIT_ASSERT_FALSE(test, IS_ERR(t));
		}
		for (i = 0; i < 2; i++)
			wait_for_completion(&w[i].done);
		KUNIT_EXPECT_EQ(test, w[0].ret, 5);
		KUNIT_EXPECT_EQ(test, w[1].ret, 9);
		KUNIT_EXPECT_EQ(test, c->td.protos, BIT(2) | BIT(3));
	}
	c->td.apply_sleep_ms = 0;
}

static struct kunit_case ktyped_sysfs_test_cases[] = {
	KUNIT_CASE_PARAM(ktyped_sysfs_test, ktyped_sysfs_gen_params),
	KUNIT_CASE(ktyped_apply_test),
	KUNIT_CASE(ktyped_names_once_test),
	KUNIT_CASE(ktyped_concurrent_test),
	{}
};

static struct kunit_suite ktyped_sysfs_suite = {
	.name = "abidep_typed_sysfs",
	.init = ktyped_dev_init,
	.exit = ktyped_dev_exit,
	.test_cases = ktyped_sysfs_test_cases,
};

kunit_test_suites(&ktyped_parse_suite, &ktyped_sysfs_suite);

MODULE_LICENSE("GPL");
