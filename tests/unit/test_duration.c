// SPDX-License-Identifier: GPL-2.0
/*
 * ../kmod/duration.c built as the abidep command builds it, on the vectors
 * KUnit runs in the kernel build (kmod/duration_vectors.h): both sides of
 * abidep read a duration, and bound a brownout window, the same.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "duration_vectors.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_duration_vectors(void)
{
	unsigned int i;

	current = "duration vectors";
	for (i = 0; i < N(abidep_duration_vectors); i++) {
		const struct abidep_duration_vector *v = &abidep_duration_vectors[i];
		size_t len = v->len ? v->len : strlen(v->in);
		u64 val = 4242;
		int ret = abidep_duration_parse(v->in, len, v->unit, &val);

		CHECK(ret == v->ret);
		CHECK(val == (ret ? 4242 : v->val));
		if (ret != v->ret || (!ret && val != v->val))
			printf("#   '%s' in unit %d: %d %llu, not %d %llu\n", v->in, v->unit,
			       ret, val, v->ret, v->val);
	}
}

static void test_brownout_seconds_vectors(void)
{
	unsigned int i;

	current = "brownout window vectors";
	for (i = 0; i < N(abidep_brownout_seconds_vectors); i++) {
		const struct abidep_brownout_seconds_vector *v =
			&abidep_brownout_seconds_vectors[i];
		unsigned int seconds = 4242;
		int ret = abidep_brownout_seconds(v->in, &seconds);

		CHECK(ret == v->ret);
		CHECK(seconds == (ret ? 4242 : v->seconds));
		if (ret != v->ret)
			printf("#   '%s': %d, not %d\n", v->in, ret, v->ret);
	}
}

/* The longest line abidep brownout writes ("%s %u %s\n") fits the control. */
static void test_brownout_line(void)
{
	char name[ABIDEP_BROWNOUT_NAME_MAX + 1], line[2 * ABIDEP_BROWNOUT_LINE_MAX];
	int n;

	current = "brownout line";
	memset(name, 'n', ABIDEP_BROWNOUT_NAME_MAX);
	name[ABIDEP_BROWNOUT_NAME_MAX] = '\0';
	n = snprintf(line, sizeof(line), "%s %u %s\n", name,
		     ABIDEP_BROWNOUT_SECONDS_MAX, "hide");
	CHECK(n > 0 && (size_t)n <= ABIDEP_BROWNOUT_LINE_MAX);
	/* NAME_MAX here is the kernel's (255): the two sides' limits agree. */
	CHECK(ABIDEP_BROWNOUT_NAME_MAX == 2 * 255 + 1);
}

int main(void)
{
	test_duration_vectors();
	test_brownout_seconds_vectors();
	test_brownout_line();
	printf("duration: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
