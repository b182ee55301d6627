// SPDX-License-Identifier: GPL-2.0
/*
 * The memory bound of check --prometheus's answers (tools/lib/prom_api.c):
 * the parse of an answer, estimated before jansson runs, is never short of
 * what jansson then takes, whatever the answer's shape; answers taken
 * whole while they fit, and once their sum passes the bound, the one that
 * passes it refused with the bound named, and every answer after it. Built
 * without ASan (tests/Makefile): the bound is of glibc's allocations, and
 * ASan's allocator counts others.
 * Ends with "unit: N passed, N failed".
 */
#include <stdlib.h>
#include <string.h>

#include "prom_api.h"
#include "util.h"
#include "check.h"

#define URL	"http://user:secret@prom.invalid:9090"

static struct prom_client *client(size_t bound)
{
	struct prom_options o = { .timeout = 1, .memory = bound };
	char err[1024];
	struct prom_client *c = prom_client_new(URL, &o, err, sizeof(err));

	if (!c) {
		printf("not ok - %s: %s\n", current, err);
		exit(1);
	}
	return c;
}

/* @n copies of @item, joined by commas, in @open ... @close (malloc'd). */
static char *repeat(const char *open, const char *item, int n, const char *close)
{
	size_t il = strlen(item), len = strlen(open) + n * (il + 1) + strlen(close) + 1;
	char *s = xmalloc(len), *p = s;
	int i;

	p = stpcpy(p, open);
	for (i = 0; i < n; i++) {
		if (i)
			*p++ = ',';
		p = stpcpy(p, item);
	}
	strcpy(p, close);
	return s;
}

/* An object of @n distinct keys, each of value @value: rehashed as it grows. */
static char *many_keys(int n, const char *value)
{
	char *s = xmalloc(n * (strlen(value) + 16) + 64), *p = s;
	int i;

	p = stpcpy(p, "{\"status\":\"success\",\"data\":{");
	for (i = 0; i < n; i++)
		p += sprintf(p, "%s\"k%d\":%s", i ? "," : "", i, value);
	strcpy(p, "}}");
	return s;
}

/* Nested @depth deep: [[[...]]]. */
static char *nested(int depth)
{
	char *s = xmalloc(2 * depth + 64), *p = s;

	p = stpcpy(p, "{\"status\":\"success\",\"data\":");
	memset(p, '[', depth);
	memset(p + depth, ']', depth);
	strcpy(p + 2 * depth, "}");
	return s;
}

/* A string of @n bytes in an answer: the lexer's buffer grows to hold it. */
static char *long_string(size_t n, const char *unit)
{
	size_t ul = strlen(unit), k;
	char *s = xmalloc(n * ul + 64), *p = s;

	p = stpcpy(p, "{\"status\":\"success\",\"data\":[\"");
	for (k = 0; k < n; k++)
		p = stpcpy(p, unit);
	strcpy(p, "\"]}");
	return s;
}

/*
 * jansson's parse of each shape, under a bound it fits: taken or refused
 * as the shape is an answer or not, never more memory than estimated.
 */
static void test_estimate(void)
{
	const char *vec = "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[";
	char *shapes[32];
	int i, n = 0;

	current = "estimate";
	shapes[n++] = repeat(vec, "[]", 100000, "]}}");
	shapes[n++] = repeat(vec, "{}", 100000, "]}}");
	shapes[n++] = repeat(vec, "\"\"", 100000, "]}}");
	shapes[n++] = repeat(vec, "0", 100000, "]}}");
	shapes[n++] = repeat(vec, "-1.5e300", 100000, "]}}");
	shapes[n++] = repeat(vec, "true", 100000, "]}}");
	shapes[n++] = repeat(vec, "{\"a\":{}}", 50000, "]}}");
	shapes[n++] = repeat(vec, "[[[[[[[[]]]]]]]]", 20000, "]}}");
	shapes[n++] = repeat(vec, "{\"metric\":{\"a\":\"\",\"b\":\"\",\"c\":\"\",\"d\":\"\",\"e\":\"\",\"f\":\"\",\"g\":\"\",\"h\":\"\",\"i\":\"\"},\"value\":[1,\"1\"]}",
			     20000, "]}}");
	shapes[n++] = repeat(vec, "{\"metric\":{\"__name__\":\"abidep_deprecated_access_total\",\"entry\":\"/sys/class/rc/rcN/current_protocol\",\"exe\":\"/usr/bin/cat\",\"host\":\"h1\",\"uid\":\"0\",\"op\":\"read\",\"instance\":\"127.0.0.1:9100\",\"job\":\"abidep\"},\"value\":[1796573518.123,\"3\"]}",
			     20000, "]}}");
	shapes[n++] = repeat("{\"status\":\"success\",\"data\":[", "{\"host\":\"h\",\"i\":\"x\"}", 50000, "]}");
	shapes[n++] = many_keys(100000, "{}");
	shapes[n++] = many_keys(100000, "\"\"");
	shapes[n++] = many_keys(9, "[]");
	shapes[n++] = nested(2000);
	shapes[n++] = nested(3000);	/* past jansson's depth: refused */
	shapes[n++] = long_string(1 << 20, "a");
	shapes[n++] = long_string(1 << 18, "\\u00e9");
	shapes[n++] = long_string(1 << 18, "\\ud83d\\ude00");
	shapes[n++] = repeat(vec, "QQQQQQQQ", 1000, "]}}");
	shapes[n++] = repeat("", "Q", 1 << 20, "");
	shapes[n++] = repeat("[\"", "\\\"", 1 << 18, "");	/* an unended string */
	for (i = 0; i < n; i++) {
		struct prom_client *c = client((size_t)4 << 30);
		struct prom_vector v = { 0 };
		char err[1024];

		prom_take_answer(c, shapes[i], strlen(shapes[i]), 200, i == 10, &v, err, sizeof(err));
		if (prom_client_short_estimate(c))
			printf("not ok - estimate: shape %d (%.40s...): jansson took more than estimated\n",
			       i, shapes[i]);
		CHECK(!prom_client_short_estimate(c));
		CHECK(!strstr(err, "--prometheus-memory"));
		prom_vector_free(&v);
		prom_client_free(c);
		free(shapes[i]);
	}
}

/*
 * Answers of 3,000 samples each (a parse estimated at 7 MB, some 1 MB
 * kept), under a bound of 16 MiB: taken whole while they fit (10 or so);
 * the one that would pass it refused, naming the bound, and so is a small
 * one after it; no credentials in the message.
 */
static void test_sum(void)
{
	const char *sample = "{\"metric\":{\"__name__\":\"abidep_deprecated_access_total\",\"exe\":\"/usr/bin/cat\",\"host\":\"h1\",\"uid\":\"0\"},\"value\":[1,\"3\"]}";
	char *big = repeat("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[", sample,
			   3000, "]}}");
	const char *small = "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]}}";
	struct prom_client *c = client((size_t)16 << 20);
	struct prom_vector v = { 0 };
	char err[1024] = "";
	int taken = 0, ret = 0, i;

	current = "sum";
	for (i = 0; i < 1000 && !ret; i++) {
		int before = v.n;

		ret = prom_take_answer(c, big, strlen(big), 200, false, &v, err, sizeof(err));
		if (!ret) {
			taken++;
			CHECK(v.n == before + 3000);
		}
	}
	CHECK(taken > 1 && i < 1000);
	CHECK(ret == -1);
	CHECK(strstr(err, "the answers passed 16 MiB (--prometheus-memory)") != NULL);
	CHECK(!strstr(err, "secret") && !strstr(err, "user"));
	*err = '\0';
	CHECK(prom_take_answer(c, small, strlen(small), 200, false, &v, err, sizeof(err)) == -1);
	CHECK(strstr(err, "the answers passed 16 MiB") != NULL);
	prom_vector_free(&v);
	prom_client_free(c);

	/* One answer whose parse alone cannot fit: refused before jansson runs. */
	current = "one";
	c = client(1 << 20);
	CHECK(prom_take_answer(c, big, strlen(big), 200, false, &v, err, sizeof(err)) == -1);
	CHECK(v.n == 0);
	CHECK(strstr(err, "the answers passed 1 MiB") != NULL);
	CHECK(!prom_client_short_estimate(c));
	prom_vector_free(&v);
	prom_client_free(c);
	free(big);
}

int main(void)
{
	test_estimate();
	test_sum();
	printf("unit: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
