// SPDX-License-Identifier: GPL-2.0
/*
 * ../kmod/when.c built as the abidep command builds it, on the vectors
 * KUnit runs in the kernel build (kmod/when_vectors.h): both sides of
 * abidep parse dates and versions, and decide due, the same.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "when_vectors.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_date_vectors(void)
{
	unsigned int i;

	current = "date vectors";
	for (i = 0; i < N(abidep_date_vectors); i++) {
		const struct abidep_date_vector *v = &abidep_date_vectors[i];
		struct abidep_date d = { 0 };
		int ret = abidep_parse_date(v->in, &d);

		CHECK(ret == v->ret);
		CHECK(ret || (d.year == v->y && d.month == v->m && d.day == v->d));
		if (ret != v->ret)
			printf("#   '%s': %d, not %d\n", v->in ? v->in : "NULL", ret, v->ret);
	}
}

static void test_kver_vectors(void)
{
	unsigned int i;

	current = "kernel version vectors";
	for (i = 0; i < N(abidep_kver_vectors); i++) {
		const struct abidep_kver_vector *v = &abidep_kver_vectors[i];
		struct abidep_kver k;
		int ret = abidep_parse_kver(v->in, &k), uret = abidep_parse_uname(v->in, &k);

		CHECK(ret == v->ret);
		CHECK(uret == v->uname_ret);
		CHECK(uret || (k.nr == v->nr && k.rc == v->rc &&
			       k.part[0] == v->part[0] && k.part[1] == v->part[1] &&
			       k.part[2] == v->part[2] && k.part[3] == v->part[3]));
		if (ret != v->ret || uret != v->uname_ret)
			printf("#   '%s': %d/%d, not %d/%d\n", v->in, ret, uret, v->ret, v->uname_ret);
	}
}

static void test_when_vectors(void)
{
	unsigned int i;

	current = "when vectors";
	for (i = 0; i < N(abidep_when_vectors); i++) {
		const struct abidep_when_vector *v = &abidep_when_vectors[i];
		struct abidep_when w;
		int ret = abidep_parse_when(v->in, &w);

		CHECK(ret == v->ret);
		CHECK(ret || (w.has_date == v->has_date && w.has_kver == v->has_kver));
	}
}

static void test_due_vectors(void)
{
	unsigned int i;

	current = "due vectors";
	for (i = 0; i < N(abidep_due_vectors); i++) {
		const struct abidep_due_vector *v = &abidep_due_vectors[i];
		struct abidep_date d, today;

		CHECK(!abidep_parse_date(v->remove_after, &d));
		CHECK(!abidep_parse_date(v->today, &today));
		CHECK(abidep_date_due(&d, &today) == v->due);
		if (abidep_date_due(&d, &today) != v->due)
			printf("#   %s on %s\n", v->remove_after, v->today);
	}
	current = "kernel due vectors";
	for (i = 0; i < N(abidep_kdue_vectors); i++) {
		const struct abidep_kdue_vector *v = &abidep_kdue_vectors[i];
		struct abidep_kver k, ref;

		CHECK(!abidep_parse_uname(v->kernel, &k));
		CHECK(!abidep_parse_kver(v->ref, &ref));
		CHECK(abidep_kver_cmp(&k, &ref) == v->cmp);
		CHECK(abidep_kver_due(&k, &ref) == v->due);
	}
}

static void test_days_vectors(void)
{
	struct abidep_date got, want;
	unsigned int i;

	current = "days since the epoch";
	for (i = 0; i < N(abidep_days_vectors); i++) {
		abidep_date_from_days(abidep_days_vectors[i].days, &got);
		CHECK(!abidep_parse_date(abidep_days_vectors[i].date, &want));
		CHECK(!abidep_date_cmp(&got, &want));
	}
}

static void test_when_due_vectors(void)
{
	struct abidep_date today;
	struct abidep_when w;
	struct abidep_kver k;
	unsigned int i;

	current = "due: a Remove-after value on a date and a kernel";
	for (i = 0; i < N(abidep_when_due_vectors); i++) {
		const struct abidep_when_due_vector *v = &abidep_when_due_vectors[i];

		CHECK(!abidep_parse_when(v->remove_after, &w));
		CHECK(!abidep_parse_date(v->today, &today));
		CHECK(!v->kernel || !abidep_parse_uname(v->kernel, &k));
		CHECK(abidep_when_due(&w, &today, v->kernel ? &k : NULL) == v->due);
	}
}

int main(void)
{
	test_days_vectors();
	test_date_vectors();
	test_kver_vectors();
	test_when_vectors();
	test_due_vectors();
	test_when_due_vectors();
	printf("when: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
