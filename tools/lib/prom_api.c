// SPDX-License-Identifier: GPL-2.0
/*
 * Prometheus's HTTP query API (prom_api.h): libcurl sends, jansson reads.
 * Nothing an answer holds is printed raw: a server's error text is cleaned
 * (text_clean()) and cut short before it reaches a message.
 */
#include <jansson.h>
#include <malloc.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dl_curl.h"
#include "prom_api.h"
#include "text.h"
#include "util.h"

/* How much of a server's own text (an error, a warning) a message shows. */
#define SHOWN_MAX	300

struct prom_client {
	CURL *curl;
	char *base;		/* the URL without a trailing /, credentials included */
	char *shown;		/* the URL without credentials */
	char *secret;		/* its password, kept out of every message; NULL: none */
	char *netrc;		/* prom_options' netrc, or NULL */
	long timeout;		/* seconds, for all of the client's requests */
	long long deadline;	/* CLOCK_MONOTONIC ms by which they are all answered */
	/* The memory bound (prom_api.h), in bytes as malloc_usable_size() counts them. */
	size_t mem_max;
	size_t held;		/* the vectors taken so far, freed or not */
	size_t passing;		/* the answer in hand: its text, jansson's tree */
	bool over;		/* the bound was reached: no answer is taken any more */
	/* The parse in hand: what it took over @tree_base at most, and how it was estimated. */
	size_t tree_base, tree_peak;
	bool short_estimate;	/* jansson took more than tree_bound() said, once */
};

/* The monotonic clock in ms: the deadline's, which no clock step moves. */
static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* The bytes left under the client's bound. */
static size_t room(const struct prom_client *c)
{
	size_t used = c->held + c->passing;

	return c->over || used >= c->mem_max ? 0 : c->mem_max - used;
}

/*
 * Is there room for @n more bytes? If not, the client is over its bound,
 * for good: a later, smaller answer is not taken either.
 */
static bool room_for(struct prom_client *c, size_t n)
{
	if (n <= room(c))
		return true;
	c->over = true;
	return false;
}

/*
 * jansson's allocator, counting into the client whose answer it parses
 * (prom_take_answer()). It never fails: jansson 2.14 does not survive a
 * failed allocation in its lexer (an assertion), so the parse is bounded
 * before it starts (tree_bound()), and counted to check that bound.
 * jansson's allocator takes no argument; abidep parses one answer at a
 * time, in one thread. With no answer in hand, plain malloc(); what is
 * freed is uncounted only as far as it was counted.
 */
static struct prom_client *parsing;

static void *counted_malloc(size_t n)
{
	struct prom_client *c = parsing;
	void *p = malloc(n);

	if (p && c) {
		c->passing += malloc_usable_size(p);
		if (c->passing > c->tree_base + c->tree_peak)
			c->tree_peak = c->passing - c->tree_base;
	}
	return p;
}

static void counted_free(void *p)
{
	struct prom_client *c = parsing;
	size_t n;

	if (p && c) {
		n = malloc_usable_size(p);
		c->passing -= n < c->passing ? n : c->passing;
	}
	free(p);
}

/*
 * The most memory jansson 2.14 (Debian 12's) takes to parse @len bytes of
 * JSON at @p, in malloc chunks (a request, rounded up to 16 bytes, and 8
 * bytes of header), on 64-bit glibc: each value by its first byte outside
 * strings, and the lexer's buffers. Text that is not JSON is counted as
 * if it were (a run of other bytes as a literal); the parse refuses it.
 */
#define TREE_OBJECT	256	/* json_object_t 80, its 8 buckets 144, a slot 32 */
#define TREE_ARRAY	160	/* json_array_t 48, its table of 8 80, a slot 32 */
/*
 * The larger of a key and a string value, their bytes apart: a key's pair
 * (56 bytes and the key) 80, its share of buckets doubled by rehashing
 * 32, the old buckets while the new are filled 16; a string's
 * json_string_t 48, its copy's chunk 24, a slot 32.
 */
#define TREE_STRING	128
#define TREE_NUMBER	64	/* json_integer_t or json_real_t 32, a slot 32 */
#define TREE_LITERAL	32	/* true, false, null: shared, a slot */
/*
 * A slot: an array's table doubles as it grows, the old one freed once the
 * new is filled: 3 pointers an element at most, and a chunk's rounding.
 * The lexer keeps the text of the longest token, in a buffer that doubles
 * (the old freed after), and its decoded copy: 4 times the longest token;
 * and 4 KiB for jansson's fixed cost and take_label_sets()'s one series.
 */
static size_t max_size(size_t a, size_t b)
{
	return a > b ? a : b;
}

static size_t tree_bound(const char *p, size_t len)
{
	size_t i, sum = 4096, start = 0, longest = 0;
	bool in_string = false, in_run = false;

	for (i = 0; i < len; i++) {
		if (in_string) {
			if (p[i] == '\\') {
				i++;
			} else if (p[i] == '"') {
				in_string = false;
				sum += TREE_STRING + i + 1 - start;
				longest = max_size(longest, i + 1 - start);
			}
		} else if (p[i] && strchr(" \t\r\n,:{}[]\"", p[i])) {
			if (in_run)
				longest = max_size(longest, i - start);
			in_run = false;
			sum += p[i] == '{' ? TREE_OBJECT : p[i] == '[' ? TREE_ARRAY : 0;
			in_string = p[i] == '"';
			start = i;
		} else if (!in_run) {
			in_run = true;
			start = i;
			sum += p[i] && strchr("-0123456789", p[i]) ? TREE_NUMBER : TREE_LITERAL;
		}
	}
	/* An unended string or run: counted to the end. */
	if (in_string)
		sum += TREE_STRING + len - start;
	if (in_string || in_run)
		longest = max_size(longest, len - start);
	return sum + 4 * (longest + 16);
}

/* The answer being received, its buffer counted in its client's bound. */
struct answer {
	struct prom_client *c;
	char *buf;
	size_t len, cap;
};

static size_t take_bytes(char *p, size_t size, size_t n, void *arg)
{
	struct answer *a = arg;
	size_t add = size * n, need = a->len + add + 1, cap;

	if (need > a->cap) {
		if (!room_for(a->c, need - a->cap))
			return 0;
		/* Doubled where the bound leaves room, so that the text may fill it. */
		cap = 2 * need - a->cap <= room(a->c) ? 2 * need : need;
		a->c->passing += cap - a->cap;
		a->cap = cap;
		a->buf = xrealloc(a->buf, a->cap);
	}
	memcpy(a->buf + a->len, p, add);
	a->len += add;
	a->buf[a->len] = '\0';
	return add;
}

/* The answer's buffer freed, and uncounted. */
static void answer_free(struct answer *a)
{
	a->c->passing -= a->cap < a->c->passing ? a->cap : a->c->passing;
	free(a->buf);
}

/* The message of a client over its bound. */
static void over_error(const struct prom_client *c, char *err, size_t errlen)
{
	snprintf(err, errlen, "Prometheus at %s: the answers passed %zu MiB (--prometheus-memory): no verdict rests on part of them; if the fleet's series need more, raise it",
		 c->shown, c->mem_max >> 20);
}

/* The URL's parts: @shown without credentials, the password into *@secret. */
static int split_url(const char *url, char **shown, char **secret)
{
	CURLU *h = sym_curl_url();
	char *s = NULL, *pw = NULL;
	int ret = -1;

	if (!h)
		die_oom();
	if (sym_curl_url_set(h, CURLUPART_URL, url, 0) == CURLUE_OK) {
		sym_curl_url_get(h, CURLUPART_PASSWORD, &pw, 0);
		if (sym_curl_url_set(h, CURLUPART_USER, NULL, 0) == CURLUE_OK &&
		    sym_curl_url_set(h, CURLUPART_PASSWORD, NULL, 0) == CURLUE_OK &&
		    sym_curl_url_get(h, CURLUPART_URL, &s, 0) == CURLUE_OK)
			ret = 0;
	}
	*shown = s ? xstrdup(s) : NULL;
	*secret = pw && *pw ? xstrdup(pw) : NULL;
	sym_curl_free(s);
	sym_curl_free(pw);
	sym_curl_url_cleanup(h);
	return ret;
}

/* Is @url one we take: http or https, no query, no fragment? */
static const char *url_problem(const char *url)
{
	if (strncmp(url, "http://", 7) && strncmp(url, "https://", 8))
		return "it must begin http:// or https://";
	if (strpbrk(url, "?#"))
		return "it must have no query (?) or fragment (#): give the server's base URL";
	if (strpbrk(url, " \t\r\n"))
		return "it must have no white space";
	return NULL;
}

int prom_api_load(char *err, size_t errlen)
{
	/* malloc() and free(), counted while an answer is parsed (counted_malloc()). */
	json_set_alloc_funcs(counted_malloc, counted_free);
	if (!dynlib_load(&dl_curl))
		return 0;
	dynlib_error(&dl_curl, "--prometheus", err, errlen);
	return -1;
}

struct prom_client *prom_client_new(const char *url, const struct prom_options *o,
				    char *err, size_t errlen)
{
	const char *why = url_problem(url);
	struct prom_client *c;
	size_t n = strlen(url);

	if (prom_api_load(err, errlen))
		return NULL;
	if (!why && sym_curl_global_init(CURL_GLOBAL_DEFAULT))
		why = "libcurl cannot start";
	c = xcalloc(1, sizeof(*c));
	if (!why && split_url(url, &c->shown, &c->secret))
		why = "it is not a URL libcurl reads";
	if (why) {
		/* Not even a URL: say so without showing it, it may hold a password. */
		snprintf(err, errlen, "--prometheus: the URL cannot be used: %s", why);
		prom_client_free(c);
		return NULL;
	}
	while (n && url[n - 1] == '/')
		n--;
	c->base = xstrndup(url, n);
	c->timeout = o->timeout;
	c->netrc = o->netrc ? xstrdup(o->netrc) : NULL;
	c->deadline = now_ms() + o->timeout * 1000LL;
	c->mem_max = o->memory;
	c->curl = sym_curl_easy_init();
	if (!c->curl)
		die_oom();
	return c;
}

void prom_client_free(struct prom_client *c)
{
	if (!c)
		return;
	if (c->curl)
		sym_curl_easy_cleanup(c->curl);
	free(c->base);
	free(c->shown);
	free(c->secret);
	free(c->netrc);
	free(c);
}

int prom_client_charge(struct prom_client *c, size_t n, char *err, size_t errlen)
{
	if (!room_for(c, n)) {
		over_error(c, err, errlen);
		return -1;
	}
	c->held += n;
	return 0;
}

const char *prom_client_url(const struct prom_client *c)
{
	return c->shown;
}

char *prom_url_shown(const char *url)
{
	char *shown = NULL, *secret = NULL;

	if (dynlib_load(&dl_curl) || sym_curl_global_init(CURL_GLOBAL_DEFAULT) || split_url(url, &shown, &secret)) {
		free(shown);
		shown = NULL;
	}
	free(secret);
	return shown;
}

/* A server's text for a message: cleaned, cut to SHOWN_MAX, the password masked. */
static char *shown_text(const struct prom_client *c, const char *s)
{
	char *t = text_escaped(s, TEXT_TERMINAL), *p;
	size_t n;

	if (strlen(t) > SHOWN_MAX)
		strcpy(t + SHOWN_MAX - 3, "...");
	if (c->secret && (n = strlen(c->secret)))
		while ((p = strstr(t, c->secret)))
			memset(p, '*', n);
	return t;
}

/* @s form-encoded (malloc'd). */
static char *form_value(struct prom_client *c, const char *s)
{
	char *q = sym_curl_easy_escape(c->curl, s, 0), *r;

	if (!q)
		die_oom();
	r = xstrdup(q);
	sym_curl_free(q);
	return r;
}

/* The message of a client past its deadline; @why: libcurl's, or NULL. */
static void late_error(const struct prom_client *c, const char *why, char *err, size_t errlen)
{
	snprintf(err, errlen, "Prometheus at %s did not answer all of check's queries within %ld s (--prometheus-timeout, the bound of them all)%s%s",
		 c->shown, c->timeout, why ? ": " : "", why ? why : "");
}

/*
 * POST @body to the API's @path; the answer into @a and the HTTP status
 * into *@status. Each request has what is left of the client's time: a
 * server that answers each one slowly, but in time, still ends the run
 * at the deadline.
 */
static int post(struct prom_client *c, const char *path, const char *body, struct answer *a,
		long *status, char *err, size_t errlen)
{
	char cerr[CURL_ERROR_SIZE] = "", *url, *why;
	long long left = c->deadline - now_ms();
	CURL *h = c->curl;
	CURLcode rc;

	if (left <= 0) {
		late_error(c, NULL, err, errlen);
		return -1;
	}
	url = xasprintf("%s%s", c->base, path);
	sym_curl_easy_reset(h);
	sym_curl_easy_setopt(h, CURLOPT_URL, url);
	sym_curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
	sym_curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
	sym_curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)left);
	sym_curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	sym_curl_easy_setopt(h, CURLOPT_ERRORBUFFER, cerr);
	sym_curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, take_bytes);
	sym_curl_easy_setopt(h, CURLOPT_WRITEDATA, a);
	sym_curl_easy_setopt(h, CURLOPT_USERAGENT, "abidep");
	/*
	 * Credentials out of the command line, where every user reads them:
	 * the URL's first, the file for what it leaves out (a password for
	 * its user, or both for its host). Never followed to another host:
	 * no redirect is.
	 */
	if (c->netrc) {
		sym_curl_easy_setopt(h, CURLOPT_NETRC, (long)CURL_NETRC_OPTIONAL);
		sym_curl_easy_setopt(h, CURLOPT_NETRC_FILE, c->netrc);
	}
	rc = sym_curl_easy_perform(h);
	free(url);
	if (rc == CURLE_OK) {
		sym_curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, status);
		return 0;
	}
	why = shown_text(c, *cerr ? cerr : sym_curl_easy_strerror(rc));
	if (c->over)
		over_error(c, err, errlen);
	else if (rc == CURLE_OPERATION_TIMEDOUT)
		late_error(c, why, err, errlen);
	else
		snprintf(err, errlen, "Prometheus at %s cannot be reached: %s; is it running, and is the URL right?",
			 c->shown, why);
	free(why);
	return -1;
}

bool prom_client_short_estimate(const struct prom_client *c)
{
	return c->short_estimate;
}

/* @o's string member @key, or NULL. */
static const char *member_str(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* A failure the server answered: its errorType and error, or the HTTP status. */
static void answered_error(struct prom_client *c, json_t *root, long status,
			   char *err, size_t errlen)
{
	const char *type = member_str(root, "errorType"), *msg = member_str(root, "error");
	char *t = shown_text(c, type ? type : "?"), *m = shown_text(c, msg ? msg : "?");

	if (type || msg)
		snprintf(err, errlen, "Prometheus at %s answered an error (HTTP %ld, %s): %s",
			 c->shown, status, t, m);
	else
		snprintf(err, errlen, "Prometheus at %s answered HTTP %ld without a query answer",
			 c->shown, status);
	free(t);
	free(m);
}

/* @n bytes (zeroed) kept in a vector, counted; NULL over the client's bound. */
static void *keep(struct prom_client *c, size_t n)
{
	void *p;

	if (!room_for(c, n))
		return NULL;
	p = xcalloc(1, n);
	c->held += malloc_usable_size(p);
	return p;
}

static char *keep_str(struct prom_client *c, const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = keep(c, n);

	return p ? memcpy(p, s, n) : NULL;
}

/*
 * Room in @out for one more sample, counted; NULL over the client's
 * bound. The array doubles as it grows: the bound counts its capacity.
 */
static struct prom_series *keep_slot(struct prom_client *c, struct prom_vector *out)
{
	size_t grown = out->cap ? out->cap : 16;

	if (out->n == out->cap) {
		if (!room_for(c, grown * sizeof(*out->s)))
			return NULL;
		c->held += grown * sizeof(*out->s);
	}
	return GROW(out->s, out->n, out->cap);
}

/* One sample of a vector answer into @s: its labels, its finite value. */
static int take_series(struct prom_client *c, json_t *item, struct prom_series *s)
{
	json_t *metric = json_object_get(item, "metric"), *value = json_object_get(item, "value");
	const char *name, *v;
	json_t *lv;
	char *end;
	int i = 0;

	v = json_string_value(json_array_get(value, 1));
	if (!json_is_object(metric) || json_array_size(value) != 2 || !v)
		return -1;
	s->value = strtod(v, &end);
	if (end == v || *end || !isfinite(s->value))
		return -1;
	s->labels = keep(c, (json_object_size(metric) + 1) * sizeof(*s->labels));
	if (!s->labels)
		return -1;
	json_object_foreach(metric, name, lv) {
		if (!json_is_string(lv))
			return -1;
		s->labels[i].name = keep_str(c, name);
		s->labels[i].value = s->labels[i].name ? keep_str(c, json_string_value(lv)) : NULL;
		if (!s->labels[i].value) {
			free(s->labels[i].name);
			return -1;
		}
		s->nlabels = ++i;
	}
	return 0;
}

/* A successful answer's data, a vector, appended to @out. */
static int take_vector(struct prom_client *c, json_t *data, struct prom_vector *out,
		       char *err, size_t errlen)
{
	const char *type = member_str(data, "resultType");
	json_t *result = json_object_get(data, "result"), *item;
	size_t i;

	if (!type || strcmp(type, "vector") || !json_is_array(result)) {
		char *t = shown_text(c, type ? type : "missing");

		snprintf(err, errlen, "Prometheus at %s answered no instant vector (resultType %s)",
			 c->shown, t);
		free(t);
		return -1;
	}
	json_array_foreach(result, i, item) {
		struct prom_series *s = keep_slot(c, out);

		if (!s || take_series(c, item, s)) {
			if (c->over)
				over_error(c, err, errlen);
			else
				snprintf(err, errlen, "Prometheus at %s answered a malformed sample (sample %zu of the answer)",
					 c->shown, i + 1);
			return -1;
		}
	}
	return 0;
}

/* A successful answer's data, label sets (/api/v1/series), appended to @out. */
static int take_label_sets(struct prom_client *c, json_t *data, struct prom_vector *out,
			   char *err, size_t errlen)
{
	json_t *item, *wrapped;
	size_t i;
	int ret = 0;

	if (!json_is_array(data)) {
		snprintf(err, errlen, "Prometheus at %s answered no list of series", c->shown);
		return -1;
	}
	json_array_foreach(data, i, item) {
		struct prom_series *s = keep_slot(c, out);

		/* A sample of value 0: one parser for labels. */
		wrapped = s ? json_pack("{sOs[is]}", "metric", item, "value", 0, "0") : NULL;
		ret = wrapped ? take_series(c, wrapped, s) : -1;
		json_decref(wrapped);
		if (ret) {
			if (c->over)
				over_error(c, err, errlen);
			else
				snprintf(err, errlen, "Prometheus at %s answered a malformed series (%zu of the answer)",
					 c->shown, i + 1);
			return -1;
		}
	}
	return 0;
}

/* A failure if the answer carries warnings: a server's partial data. */
static int no_warnings(struct prom_client *c, json_t *root, char *err, size_t errlen)
{
	json_t *warnings = json_object_get(root, "warnings"), *first;
	char *w;

	if (!json_array_size(warnings))
		return 0;
	first = json_array_get(warnings, 0);
	w = shown_text(c, json_is_string(first) ? json_string_value(first) : "?");
	snprintf(err, errlen, "Prometheus at %s answered partial data (%zu warning%s, the first: %s): no verdict rests on it",
		 c->shown, json_array_size(warnings), json_array_size(warnings) == 1 ? "" : "s", w);
	free(w);
	return -1;
}

int prom_take_answer(struct prom_client *c, const char *buf, size_t len, long status,
		     bool label_sets, struct prom_vector *out, char *err, size_t errlen)
{
	json_error_t jerr;
	json_t *root;
	size_t most;
	int ret = -1;

	/* jansson counts into c (counted_malloc()) until its tree is freed. */
	parsing = c;
	c->tree_base = c->passing;
	c->tree_peak = 0;
	most = buf ? tree_bound(buf, len) : 0;
	root = buf && room_for(c, most) ? json_loadb(buf, len, 0, &jerr) : NULL;
	/* Should a jansson take more than its bound, the bound is checked here. */
	if (c->tree_peak > most) {
		c->short_estimate = true;
		if (c->held + c->tree_base + c->tree_peak > c->mem_max)
			c->over = true;
	}
	if (c->over)
		over_error(c, err, errlen);
	else if (!json_is_object(root))
		snprintf(err, errlen, "Prometheus at %s answered HTTP %ld, not a JSON object: is the URL a Prometheus server's?",
			 c->shown, status);
	else if (status != 200 || !member_str(root, "status") ||
		 strcmp(member_str(root, "status"), "success"))
		answered_error(c, root, status, err, errlen);
	else if (!no_warnings(c, root, err, errlen))
		ret = (label_sets ? take_label_sets : take_vector)(c, json_object_get(root, "data"),
								   out, err, errlen);
	json_decref(root);
	parsing = NULL;
	return ret;
}

/* POST @body to @path, and take the data of a successful, whole answer. */
static int call(struct prom_client *c, const char *path, const char *body, bool label_sets,
		struct prom_vector *out, char *err, size_t errlen)
{
	struct answer a = { .c = c };
	long status = 0;
	int ret = -1;

	if (!post(c, path, body, &a, &status, err, errlen))
		ret = prom_take_answer(c, a.buf, a.len, status, label_sets, out, err, errlen);
	answer_free(&a);
	return ret;
}

int prom_query(struct prom_client *c, const char *promql, long long at,
	       struct prom_vector *out, char *err, size_t errlen)
{
	char *q = form_value(c, promql), *body = xasprintf("query=%s&time=%lld", q, at);
	int ret = call(c, "/api/v1/query", body, false, out, err, errlen);

	free(q);
	free(body);
	return ret;
}

int prom_series_query(struct prom_client *c, const char *const *match, int n,
		      long long start, long long end, struct prom_vector *out,
		      char *err, size_t errlen)
{
	char *body = xasprintf("start=%lld&end=%lld", start, end), *m, *next;
	int i, ret;

	for (i = 0; i < n; i++) {
		m = form_value(c, match[i]);
		next = xasprintf("%s&match%%5B%%5D=%s", body, m);
		free(m);
		free(body);
		body = next;
	}
	ret = call(c, "/api/v1/series", body, true, out, err, errlen);
	free(body);
	return ret;
}

/*
 * Append @s to @b at @n, each byte not alphanumeric nor UTF-8 escaped for
 * RE2 (\. \x{0a}), and that for a PromQL string (each \ doubled, " as
 * \"); the new length.
 */
static size_t re2_escape(char *b, size_t n, const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			n += sprintf(b + n, "\\\\x{%02x}", *p);
		else if (*p >= 0x80 || (*p >= '0' && *p <= '9') || ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'z'))
			b[n++] = *p;
		else if (*p == '\\' || *p == '"')
			n += sprintf(b + n, "\\\\\\%c", *p);
		else
			n += sprintf(b + n, "\\\\%c", *p);
	}
	return n;
}

char *promql_regex_of(const char *const *v, int n)
{
	size_t len = 3, k = 0;
	char *b;
	int i;

	for (i = 0; i < n; i++)
		len += strlen(v[i]) * 8 + 1;
	b = xmalloc(len + 1);
	b[k++] = '"';
	for (i = 0; i < n; i++) {
		if (i)
			b[k++] = '|';
		k = re2_escape(b, k, v[i]);
	}
	b[k++] = '"';
	b[k] = '\0';
	return b;
}

const char *prom_label_value(const struct prom_series *s, const char *name)
{
	int i;

	for (i = 0; i < s->nlabels; i++)
		if (!strcmp(s->labels[i].name, name))
			return s->labels[i].value;
	return NULL;
}

void prom_vector_free(struct prom_vector *v)
{
	int i, k;

	for (i = 0; i < v->n; i++) {
		for (k = 0; k < v->s[i].nlabels; k++) {
			free(v->s[i].labels[k].name);
			free(v->s[i].labels[k].value);
		}
		free(v->s[i].labels);
	}
	free(v->s);
	memset(v, 0, sizeof(*v));
}
