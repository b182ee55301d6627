/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A client of Prometheus's HTTP query API (GET-free: instant queries are
 * POSTed to /api/v1/query), over libcurl and jansson, for check's
 * Prometheus usage source (usage_source_prom.c). Any server speaking that
 * API answers it (Prometheus, or a long-term store that implements it).
 *
 * An answer is taken whole or not at all: an error, a timeout, an answer
 * that is not a vector, a sample that is not a finite number, or one that
 * carries warnings (a server's partial data) is a failure with a message,
 * never an empty answer. The URL's credentials are never in a message.
 *
 * A client's answers together hold at most its memory bound: the answer
 * being received (its text, then jansson's tree of it), every vector
 * taken so far, freed or not, and what its caller built from them
 * (prom_client_charge()). One that would pass it is a failure, and so is
 * every request after it: a client that cannot hold the whole answer
 * takes none of it, so that fewer samples are never taken for fewer uses.
 */
#ifndef ABIDEP_PROM_API_H
#define ABIDEP_PROM_API_H

#include <stdbool.h>
#include <stddef.h>

/* The default bound of a client's answers, in MiB (check --prometheus-memory). */
#define PROM_MEMORY_MIB		1024

struct prom_label {
	char *name, *value;
};

/* One sample of an instant vector: its labels (as answered) and value. */
struct prom_series {
	struct prom_label *labels;
	int nlabels;
	double value;
};

struct prom_vector {
	struct prom_series *s;
	int n, cap;
};

struct prom_client;

/* How a client asks. */
struct prom_options {
	long timeout;			/* seconds: the bound of all its requests */
	size_t memory;			/* bytes: the bound of its answers, above */
	/*
	 * A netrc file (curl's --netrc-file) of the user name and password,
	 * or NULL: libcurl reads it, for what the URL does not give.
	 */
	const char *netrc;
};

/*
 * A client of the server at @url ("http://host:9090", a path prefix
 * allowed; http and https only), asking as @o says. NULL with a message
 * in @err for a URL that cannot be used.
 */
struct prom_client *prom_client_new(const char *url, const struct prom_options *o,
				    char *err, size_t errlen);
void prom_client_free(struct prom_client *c);

/*
 * Count @n more bytes against @c's memory bound, for what its caller
 * builds from the answers: 0, or -1 with the bound's message in @err, and
 * the client then takes no answer any more.
 */
int prom_client_charge(struct prom_client *c, size_t n, char *err, size_t errlen);

/* The URL as messages show it: without user name or password. */
const char *prom_client_url(const struct prom_client *c);

/*
 * Load libcurl (dynlib.h), once: 0, or -1 with why and what to do in @err.
 * prom_client_new() does; prom_url_shown() needs it done.
 */
int prom_api_load(char *err, size_t errlen);

/* @url so (malloc'd); NULL for a URL libcurl cannot read, or no libcurl. */
char *prom_url_shown(const char *url);

/*
 * Evaluate @promql at unix time @at into @out (appended to); -1 with a
 * message in @err (what failed, and what to do).
 */
int prom_query(struct prom_client *c, const char *promql, long long at,
	       struct prom_vector *out, char *err, size_t errlen);

/*
 * The label sets of the series matching any of @match[0..@n) with samples
 * in [@start, @end] (the index, not the samples: /api/v1/series), into
 * @out, values 0; -1 with a message in @err.
 */
int prom_series_query(struct prom_client *c, const char *const *match, int n,
		      long long start, long long end, struct prom_vector *out,
		      char *err, size_t errlen);

/*
 * A PromQL string literal of a regular expression matching exactly the
 * strings @v[0..@n) (malloc'd, quotes included): each escaped for RE2,
 * then for PromQL, so that any label value (a host's name) matches itself.
 */
char *promql_regex_of(const char *const *v, int n);

/*
 * The answer @buf (@len bytes, HTTP @status) taken as prom_query()'s
 * (@label_sets false) or prom_series_query()'s would be: the requests'
 * parser, apart for the fuzzer (tests/fuzz/fuzz_prom.c).
 */
int prom_take_answer(struct prom_client *c, const char *buf, size_t len, long status,
		     bool label_sets, struct prom_vector *out, char *err, size_t errlen);

/*
 * Did jansson ever take more memory to parse an answer than the client
 * had estimated before (and held it to)? Never, if the estimate is right:
 * the fuzzer's check of it.
 */
bool prom_client_short_estimate(const struct prom_client *c);

/* The value of label @name of @s, or NULL when it has none. */
const char *prom_label_value(const struct prom_series *s, const char *name);

void prom_vector_free(struct prom_vector *v);

#endif
