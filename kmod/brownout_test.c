// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of brownouts (brownout.c): the control's parser and longest
 * line, and windows on a real device's aliases: fail, hide, a device added
 * meanwhile, the time running out, turning off, and unregistering in a
 * window.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/kernfs.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "abidep_internal.h"
#include "duration.h"

struct abidep_bo_parse_case {
	const char *line;
	int ret;
	const char *name;
	unsigned int seconds;
	enum abidep_brownout_mode mode;
};

static const struct abidep_bo_parse_case abidep_bo_parse_cases[] = {
	{ "current_protocol 30", 0, "current_protocol", 30, ABIDEP_BROWNOUT_FAIL },
	{ "current_protocol 30\n", 0, "current_protocol", 30, ABIDEP_BROWNOUT_FAIL },
	{ "rc/current_protocol 1 fail", 0, "rc/current_protocol", 1, ABIDEP_BROWNOUT_FAIL },
	{ "rc/current_protocol 86400 hide\n", 0, "rc/current_protocol", 86400,
	  ABIDEP_BROWNOUT_HIDE },
	{ "x off", 0, "x", 0, ABIDEP_BROWNOUT_OFF },
	{ "x off\n", 0, "x", 0, ABIDEP_BROWNOUT_OFF },
	{ "", -EINVAL }, { "\n", -EINVAL }, { "x", -EINVAL }, { "x\n", -EINVAL },
	/* The duration's grammar is duration.c's (duration_vectors.h). */
	{ "x 1s", 0, "x", 1, ABIDEP_BROWNOUT_FAIL },
	{ "x 05", 0, "x", 5, ABIDEP_BROWNOUT_FAIL },
	{ "x 24h hide", 0, "x", 86400, ABIDEP_BROWNOUT_HIDE },
	{ "x 0", -EINVAL }, { "x 86401", -EINVAL }, { "x 1441m", -EINVAL },
	{ "x 100000", -EINVAL }, { "x -1", -EINVAL }, { "x +1", -EINVAL },
	{ "x 500ms", -EINVAL }, { "x 1 off", -EINVAL }, { "x off 1", -EINVAL },
	{ "x 1 Fail", -EINVAL }, { "x 1 fail extra", -EINVAL },
	{ "x  1", -EINVAL }, { " x 1", -EINVAL }, { "x 1 ", -EINVAL },
	{ "x 1\n\n", -EINVAL }, { "x\t1", -EINVAL },
};

static void abidep_bo_parse_desc(const struct abidep_bo_parse_case *c,
				 char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "'%s'", c->line);
	strreplace(desc, '\n', '~');
}

KUNIT_ARRAY_PARAM(abidep_bo_parse, abidep_bo_parse_cases, abidep_bo_parse_desc);

static void abidep_bo_parse_test(struct kunit *test)
{
	const struct abidep_bo_parse_case *c = test->param_value;
	size_t size = strlen(c->line) + 1;
	char *line = kunit_kzalloc(test, size, GFP_KERNEL);
	enum abidep_brownout_mode mode = -1;
	unsigned int seconds = 12345;
	char *name = NULL;

	KUNIT_ASSERT_NOT_NULL(test, line);
	memcpy(line, c->line, size);
	KUNIT_ASSERT_EQ(test, abidep_brownout_parse(line, &name, &seconds, &mode),
			c->ret);
	if (c->ret)
		return;
	KUNIT_EXPECT_STREQ(test, name, c->name);
	KUNIT_EXPECT_EQ(test, seconds, c->seconds);
	KUNIT_EXPECT_EQ(test, mode, c->mode);
}

/* The new attribute the aliases forward to. */
static ssize_t bo_val_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "42\n");
}

static ssize_t bo_val_store(struct device *dev, struct device_attribute *attr,
			    const char *buf, size_t count)
{
	return count;
}

static DEVICE_ATTR_RW(bo_val);

struct abidep_bo_ctx {
	struct device *dev[2];
	struct abidep_entry entry;
	char by_owner[64];	/* "OWNER/bo_old 60 hide" */
	char *buf;		/* a page, page-aligned as sysfs_emit() wants */
};

static int abidep_bo_init(struct kunit *test)
{
	struct abidep_bo_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c->buf);
	for (i = 0; i < ARRAY_SIZE(c->dev); i++) {
		c->dev[i] = root_device_register(i ? "abidep-bo-kunit1" :
						 "abidep-bo-kunit0");
		KUNIT_ASSERT_FALSE(test, IS_ERR(c->dev[i]));
		KUNIT_ASSERT_EQ(test, device_create_file(c->dev[i], &dev_attr_bo_val), 0);
	}
	c->entry = (struct abidep_entry) {
		.old_name = "bo_old", .new_name = "bo_val",
		.deprecated = "2010-04-08", .remove_after = "6.12",
	};
	KUNIT_ASSERT_EQ(test, abidep_entry_register(&c->entry), 0);
	/* Built in, the entry's owner is the kernel; as a module, this one. */
	snprintf(c->by_owner, sizeof(c->by_owner), "%s/bo_old 60 hide",
		 THIS_MODULE ? module_name(THIS_MODULE) : "kernel");
	test->priv = c;
	return 0;
}

static void abidep_bo_exit(struct kunit *test)
{
	struct abidep_bo_ctx *c = test->priv;
	unsigned int i;

	if (c->entry.state)
		abidep_entry_unregister(&c->entry);
	for (i = 0; i < ARRAY_SIZE(c->dev); i++) {
		device_remove_file(c->dev[i], &dev_attr_bo_val);
		root_device_unregister(c->dev[i]);
	}
}

static bool abidep_bo_has_file(struct device *dev, const char *name)
{
	struct kernfs_node *kn = kernfs_find_and_get(dev->kobj.sd, name);

	kernfs_put(kn);
	return kn;
}

/* Write @line to the control: 0 when all of it is taken, or the error. */
static ssize_t abidep_bo_ctl(const char *line)
{
	ssize_t ret = abidep_brownout_write(line, strlen(line));

	return ret == (ssize_t)strlen(line) ? 0 : ret;
}

static ssize_t abidep_bo_read(struct abidep_bo_ctx *c, struct abidep_alias *a)
{
	return a->kobj->ktype->sysfs_ops->show(a->kobj, &a->shim.attr, c->buf);
}

static ssize_t abidep_bo_write(struct abidep_alias *a)
{
	return a->kobj->ktype->sysfs_ops->store(a->kobj, &a->shim.attr, "1", 1);
}

/* fail: accesses fail with -ENODEV and are counted; off ends it at once. */
static void abidep_bo_fail_test(struct kunit *test)
{
	struct abidep_bo_ctx *c = test->priv;
	struct abidep_state *st = c->entry.state;
	struct abidep_alias *a;

	a = abidep_device_alias_add(c->dev[0], &c->entry, &dev_attr_bo_val);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	KUNIT_EXPECT_EQ(test, abidep_bo_read(c, a), 3);

	KUNIT_ASSERT_EQ(test, abidep_bo_ctl("bo_old 60\n"), 0);
	KUNIT_EXPECT_EQ(test, st->bo.mode, ABIDEP_BROWNOUT_FAIL);
	KUNIT_EXPECT_TRUE(test, delayed_work_pending(&st->bo.work));
	KUNIT_EXPECT_EQ(test, abidep_bo_read(c, a), -ENODEV);
	KUNIT_EXPECT_EQ(test, abidep_bo_write(a), -ENODEV);
	KUNIT_EXPECT_EQ(test, abidep_bo_read(c, a), -ENODEV);
	KUNIT_EXPECT_TRUE(test, abidep_bo_has_file(c->dev[0], "bo_old"));
	KUNIT_EXPECT_EQ(test, atomic64_read(&st->bo.failed), 3LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&st->errors), 3LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&st->reads), 3LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&st->writes), 1LL);

	/* A second window while one runs: refused, the first goes on. */
	KUNIT_EXPECT_EQ(test, abidep_bo_ctl("bo_old 5 hide"), -EBUSY);
	KUNIT_EXPECT_EQ(test, st->bo.mode, ABIDEP_BROWNOUT_FAIL);

	KUNIT_EXPECT_EQ(test, abidep_bo_ctl("bo_old off"), 0);
	KUNIT_EXPECT_EQ(test, st->bo.mode, ABIDEP_BROWNOUT_OFF);
	KUNIT_EXPECT_EQ(test, abidep_bo_read(c, a), 3);
	KUNIT_EXPECT_EQ(test, abidep_bo_write(a), 1);
	/* The count of the last window stays until the next one. */
	KUNIT_EXPECT_EQ(test, atomic64_read(&st->bo.failed), 3LL);
	abidep_alias_remove(a);
}

/* hide: the files go, a device added meanwhile gets none, off restores. */
static void abidep_bo_hide_test(struct kunit *test)
{
	struct abidep_bo_ctx *c = test->priv;
	struct abidep_state *st = c->entry.state;
	struct abidep_alias *a, *b;

	a = abidep_device_alias_add(c->dev[0], &c->entry, &dev_attr_bo_val);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	KUNIT_ASSERT_EQ(test, abidep_bo_ctl(c->by_owner), 0);
	KUNIT_EXPECT_FALSE(test, abidep_bo_has_file(c->dev[0], "bo_old"));
	KUNIT_EXPECT_TRUE(test, a->hidden);

	b = abidep_device_alias_add(c->dev[1], &c->entry, &dev_attr_bo_val);
	KUNIT_ASSERT_FALSE(test, IS_ERR(b));
	KUNIT_EXPECT_FALSE(test, abidep_bo_has_file(c->dev[1], "bo_old"));
	KUNIT_EXPECT_EQ(test, atomic_read(&st->aliases), 2);

	KUNIT_ASSERT_EQ(test, abidep_bo_ctl("bo_old off"), 0);
	KUNIT_EXPECT_TRUE(test, abidep_bo_has_file(c->dev[0], "bo_old"));
	KUNIT_EXPECT_TRUE(test, abidep_bo_has_file(c->dev[1], "bo_old"));
	KUNIT_EXPECT_EQ(test, abidep_bo_read(c, b), 3);

	/* An alias removed in a window is neither removed twice nor restored. */
	KUNIT_ASSERT_EQ(test, abidep_bo_ctl("bo_old 60 hide"), 0);
	abidep_alias_remove(b);
	KUNIT_ASSERT_EQ(test, abidep_bo_ctl("bo_old off"), 0);
	KUNIT_EXPECT_FALSE(test, abidep_bo_has_file(c->dev[1], "bo_old"));
	KUNIT_EXPECT_TRUE(test, abidep_bo_has_file(c->dev[0], "bo_old"));
	abidep_alias_remove(a);
	KUNIT_EXPECT_FALSE(test, abidep_bo_has_file(c->dev[0], "bo_old"));
}

/* The window ends by itself: the files come back. */
static void abidep_bo_expire_test(struct kunit *test)
{
	struct abidep_bo_ctx *c = test->priv;
	struct abidep_state *st = c->entry.state;
	struct abidep_alias *a;

	a = abidep_device_alias_add(c->dev[0], &c->entry, &dev_attr_bo_val);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	KUNIT_ASSERT_EQ(test, abidep_bo_ctl("bo_old 1 hide"), 0);
	KUNIT_EXPECT_FALSE(test, abidep_bo_has_file(c->dev[0], "bo_old"));
	/* Not flush_delayed_work(): run early, the work sees time left. */
	msleep(2000);
	KUNIT_EXPECT_EQ(test, st->bo.mode, ABIDEP_BROWNOUT_OFF);
	KUNIT_EXPECT_TRUE(test, abidep_bo_has_file(c->dev[0], "bo_old"));
	KUNIT_EXPECT_FALSE(test, a->hidden);

	/* Off, then on again: the first window's work must not end the second. */
	KUNIT_ASSERT_EQ(test, abidep_bo_ctl("bo_old 1"), 0);
	KUNIT_ASSERT_EQ(test, abidep_bo_ctl("bo_old off"), 0);
	KUNIT_ASSERT_EQ(test, abidep_bo_ctl("bo_old 60"), 0);
	msleep(1500);
	KUNIT_EXPECT_EQ(test, st->bo.mode, ABIDEP_BROWNOUT_FAIL);
	KUNIT_ASSERT_EQ(test, abidep_bo_ctl("bo_old off"), 0);
	abidep_alias_remove(a);
}

/* A file of the device's own by the entry's old name. */
static ssize_t bo_old_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	return bo_val_show(dev, attr, buf);
}
static DEVICE_ATTR_RO(bo_old);

/*
 * A file by the old name made on the device in a hide window: the window's
 * end finds it (abidep_alias_create_file() looks before it creates) and
 * leaves the alias hidden, and removing the alias leaves the device's file.
 */
static void abidep_bo_taken_test(struct kunit *test)
{
	struct abidep_bo_ctx *c = test->priv;
	struct abidep_alias *a;

	a = abidep_device_alias_add(c->dev[0], &c->entry, &dev_attr_bo_val);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	KUNIT_ASSERT_EQ(test, abidep_bo_ctl(c->by_owner), 0);
	KUNIT_ASSERT_EQ(test, device_create_file(c->dev[0], &dev_attr_bo_old), 0);
	KUNIT_ASSERT_EQ(test, abidep_bo_ctl("bo_old off"), 0);
	KUNIT_EXPECT_TRUE(test, a->hidden);
	KUNIT_EXPECT_TRUE(test, abidep_bo_has_file(c->dev[0], "bo_old"));
	/* A second alias on the device is refused: the name is taken. */
	KUNIT_EXPECT_EQ(test, PTR_ERR(abidep_device_alias_add(c->dev[0], &c->entry,
							      &dev_attr_bo_val)),
			-EEXIST);
	abidep_alias_remove(a);
	KUNIT_EXPECT_TRUE(test, abidep_bo_has_file(c->dev[0], "bo_old"));
	device_remove_file(c->dev[0], &dev_attr_bo_old);
}

/* Names: unknown, ambiguous, qualified by class or by owner. */
static void abidep_bo_names_test(struct kunit *test)
{
	struct abidep_bo_ctx *c = test->priv;
	struct abidep_entry other = {
		.class_name = "bo_class", .old_name = "bo_old", .new_name = "bo_val",
		.deprecated = "2010-04-08", .remove_after = "6.12",
	};

	KUNIT_EXPECT_EQ(test, abidep_bo_ctl("bo_nothing 5"), -ENOENT);
	KUNIT_EXPECT_EQ(test, abidep_bo_ctl("other/bo_old 5"), -ENOENT);
	KUNIT_EXPECT_EQ(test, abidep_bo_ctl("bo_old 5 maybe"), -EINVAL);
	KUNIT_ASSERT_EQ(test, abidep_entry_register(&other), 0);
	KUNIT_EXPECT_EQ(test, abidep_bo_ctl("bo_old 5"), -ENOTUNIQ);
	KUNIT_EXPECT_EQ(test, abidep_bo_ctl("bo_class/bo_old 5"), 0);
	KUNIT_EXPECT_EQ(test, other.state->bo.mode, ABIDEP_BROWNOUT_FAIL);
	KUNIT_EXPECT_EQ(test, c->entry.state->bo.mode, ABIDEP_BROWNOUT_OFF);
	KUNIT_EXPECT_EQ(test, abidep_bo_ctl("bo_clas/bo_old 5"), -ENOENT);
	KUNIT_EXPECT_EQ(test, abidep_bo_ctl(c->by_owner), 0);
	KUNIT_EXPECT_EQ(test, c->entry.state->bo.mode, ABIDEP_BROWNOUT_HIDE);
	/* Unregistered in its window: ended, its work cancelled. */
	abidep_entry_unregister(&other);
	KUNIT_EXPECT_NULL(test, other.state);
	KUNIT_EXPECT_EQ(test, abidep_bo_ctl("bo_class/bo_old off"), -ENOENT);
	abidep_entry_unregister(&c->entry);
	KUNIT_EXPECT_EQ(test, abidep_bo_ctl("bo_old off"), -ENOENT);
}

/*
 * The longest line (duration.h): the longest name and the longest duration
 * are read (and name no entry); one byte more is refused unread.
 */
static void abidep_bo_line_max_test(struct kunit *test)
{
	size_t max = ABIDEP_BROWNOUT_LINE_MAX;
	char *line = kunit_kzalloc(test, max + 2, GFP_KERNEL);
	char *p = line + 1;

	KUNIT_ASSERT_NOT_NULL(test, line);
	memset(p, 'n', ABIDEP_BROWNOUT_NAME_MAX);
	p += ABIDEP_BROWNOUT_NAME_MAX;
	*p++ = ' ';
	memset(p, '0', ABIDEP_NUMBER_LEN_MAX - 1);
	p += ABIDEP_NUMBER_LEN_MAX - 1;
	strscpy(p, "5 hide\n", line + max + 2 - p);
	KUNIT_ASSERT_EQ(test, strlen(line + 1), max);
	KUNIT_EXPECT_EQ(test, abidep_bo_ctl(line + 1), -ENOENT);
	line[0] = 'n';
	KUNIT_EXPECT_EQ(test, abidep_bo_ctl(line), -EINVAL);
}

static struct kunit_case abidep_brownout_cases[] = {
	KUNIT_CASE_PARAM(abidep_bo_parse_test, abidep_bo_parse_gen_params),
	KUNIT_CASE(abidep_bo_fail_test),
	KUNIT_CASE(abidep_bo_hide_test),
	KUNIT_CASE(abidep_bo_expire_test),
	KUNIT_CASE(abidep_bo_taken_test),
	KUNIT_CASE(abidep_bo_names_test),
	KUNIT_CASE(abidep_bo_line_max_test),
	{}
};

static struct kunit_suite abidep_brownout_suite = {
	.name = "abidep_brownout",
	.init = abidep_bo_init,
	.exit = abidep_bo_exit,
	.test_cases = abidep_brownout_cases,
};

kunit_test_suite(abidep_brownout_suite);

MODULE_DESCRIPTION("KUnit tests for abidep brownouts");
MODULE_LICENSE("GPL");
