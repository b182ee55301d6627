// SPDX-License-Identifier: GPL-2.0
/*
 * Prometheus's HTTP query API (prom_api.h): libcurl sends, jansson reads.
 * Nothing an answer holds is printed raw: a server's error text is cleaned
 * (text_clean()) and cut short before it reaches a message.
 */
#include <curl/curl.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prom_api.h"
#include "text.h"
#include "util.h"

/* How much of a server's own text (an error, a warning) a message shows. */
#define SHOWN_MAX	300

struct prom_client {
	CURL *curl;
	char *endpoint;		/* URL/api/v1/query, credentials included */
	char *shown;		/* the URL without credentials */
	char *secret;		/* its password, kept out of every message; NULL: none */
	long timeout;
};

/* The answer being received, bounded by PROM_ANSWER_MAX. */
struct answer {
	char *buf;
	size_t len, cap;
	bool too_big;
};

static size_t take_bytes(char *p, size_t size, size_t n, void *arg)
{
	struct answer *a = arg;
	size_t add = size * n;

	if (a->len + add > PROM_ANSWER_MAX) {
		a->too_big = true;
		return 0;
	}
	if (a->len + add + 1 > a->cap) {
		a->cap = (a->len + add + 1) * 2;
		a->buf = xrealloc(a->buf, a->cap);
	}
	memcpy(a->buf + a->len, p, add);
	a->len += add;
	a->buf[a->len] = '\0';
	return add;
}

/* The URL's parts: @shown without credentials, the password into *@secret. */
static int split_url(const char *url, char **shown, char **secret)
{
	CURLU *h = curl_url();
	char *s = NULL, *pw = NULL;
	int ret = -1;

	if (!h)
		die_oom();
	if (curl_url_set(h, CURLUPART_URL, url, 0) == CURLUE_OK) {
		curl_url_get(h, CURLUPART_PASSWORD, &pw, 0);
		if (curl_url_set(h, CURLUPART_USER, NULL, 0) == CURLUE_OK &&
		    curl_url_set(h, CURLUPART_PASSWORD, NULL, 0) == CURLUE_OK &&
		    curl_url_get(h, CURLUPART_URL, &s, 0) == CURLUE_OK)
			ret = 0;
	}
	*shown = s ? xstrdup(s) : NULL;
	*secret = pw && *pw ? xstrdup(pw) : NULL;
	curl_free(s);
	curl_free(pw);
	curl_url_cleanup(h);
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

struct prom_client *prom_client_new(const char *url, long timeout, char *err, size_t errlen)
{
	const char *why = url_problem(url);
	struct prom_client *c;
	size_t n = strlen(url);

	if (!why && curl_global_init(CURL_GLOBAL_DEFAULT))
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
	c->endpoint = xasprintf("%.*s/api/v1/query", (int)n, url);
	c->timeout = timeout;
	c->curl = curl_easy_init();
	if (!c->curl)
		die_oom();
	return c;
}

void prom_client_free(struct prom_client *c)
{
	if (!c)
		return;
	if (c->curl)
		curl_easy_cleanup(c->curl);
	free(c->endpoint);
	free(c->shown);
	free(c->secret);
	free(c);
}

const char *prom_client_url(const struct prom_client *c)
{
	return c->shown;
}

char *prom_url_shown(const char *url)
{
	char *shown = NULL, *secret = NULL;

	if (curl_global_init(CURL_GLOBAL_DEFAULT) || split_url(url, &shown, &secret)) {
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

/* POST the query; the answer into @a and the HTTP status into *@status. */
static int post(struct prom_client *c, const char *promql, long long at, struct answer *a,
		long *status, char *err, size_t errlen)
{
	char cerr[CURL_ERROR_SIZE] = "", *q = curl_easy_escape(c->curl, promql, 0), *body, *why;
	CURL *h = c->curl;
	CURLcode rc;

	if (!q)
		die_oom();
	body = xasprintf("query=%s&time=%lld", q, at);
	curl_free(q);
	curl_easy_reset(h);
	curl_easy_setopt(h, CURLOPT_URL, c->endpoint);
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(h, CURLOPT_TIMEOUT, c->timeout);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, cerr);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, take_bytes);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, a);
	curl_easy_setopt(h, CURLOPT_USERAGENT, "abidep");
	rc = curl_easy_perform(h);
	free(body);
	if (rc == CURLE_OK) {
		curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, status);
		return 0;
	}
	why = shown_text(c, *cerr ? cerr : curl_easy_strerror(rc));
	if (a->too_big)
		snprintf(err, errlen, "Prometheus at %s: its answer is over %llu MiB",
			 c->shown, PROM_ANSWER_MAX >> 20);
	else if (rc == CURLE_OPERATION_TIMEDOUT)
		snprintf(err, errlen, "Prometheus at %s did not answer within %ld s (--prometheus-timeout): %s",
			 c->shown, c->timeout, why);
	else
		snprintf(err, errlen, "Prometheus at %s cannot be reached: %s; is it running, and is the URL right?",
			 c->shown, why);
	free(why);
	return -1;
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

/* One sample of a vector answer into @s: its labels, its finite value. */
static int take_series(json_t *item, struct prom_series *s)
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
	s->labels = xcalloc(json_object_size(metric) + 1, sizeof(*s->labels));
	json_object_foreach(metric, name, lv) {
		if (!json_is_string(lv))
			return -1;
		s->labels[i].name = xstrdup(name);
		s->labels[i].value = xstrdup(json_string_value(lv));
		s->nlabels = ++i;
	}
	return 0;
}

/* A successful answer's data, a vector, appended to @out. */
static int take_vector(struct prom_client *c, json_t *root, struct prom_vector *out,
		       char *err, size_t errlen)
{
	json_t *data = json_object_get(root, "data"), *result, *warnings, *item;
	const char *type = member_str(data, "resultType");
	size_t i;

	warnings = json_object_get(root, "warnings");
	if (json_array_size(warnings)) {
		char *w = shown_text(c, json_is_string(json_array_get(warnings, 0)) ?
				     json_string_value(json_array_get(warnings, 0)) : "?");

		snprintf(err, errlen, "Prometheus at %s answered partial data (%zu warning%s, the first: %s): no verdict rests on it",
			 c->shown, json_array_size(warnings),
			 json_array_size(warnings) == 1 ? "" : "s", w);
		free(w);
		return -1;
	}
	result = json_object_get(data, "result");
	if (!type || strcmp(type, "vector") || !json_is_array(result)) {
		snprintf(err, errlen, "Prometheus at %s answered no instant vector (resultType %s)",
			 c->shown, type && strlen(type) < 16 ? type : "missing");
		return -1;
	}
	json_array_foreach(result, i, item) {
		struct prom_series *s = GROW(out->s, out->n, out->cap);

		memset(s, 0, sizeof(*s));
		if (take_series(item, s)) {
			snprintf(err, errlen, "Prometheus at %s answered a malformed sample (sample %zu of the answer)",
				 c->shown, i + 1);
			return -1;
		}
	}
	return 0;
}

int prom_query(struct prom_client *c, const char *promql, long long at,
	       struct prom_vector *out, char *err, size_t errlen)
{
	struct answer a = { 0 };
	json_error_t jerr;
	json_t *root;
	long status = 0;
	int ret = -1;

	if (post(c, promql, at, &a, &status, err, errlen)) {
		free(a.buf);
		return -1;
	}
	root = a.buf ? json_loadb(a.buf, a.len, 0, &jerr) : NULL;
	free(a.buf);
	if (!json_is_object(root))
		snprintf(err, errlen, "Prometheus at %s answered HTTP %ld, not a JSON object: is the URL a Prometheus server's?",
			 c->shown, status);
	else if (status != 200 || !member_str(root, "status") ||
		 strcmp(member_str(root, "status"), "success"))
		answered_error(c, root, status, err, errlen);
	else
		ret = take_vector(c, root, out, err, errlen);
	json_decref(root);
	return ret;
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
