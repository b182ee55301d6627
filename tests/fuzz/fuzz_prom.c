// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the parser of Prometheus's answers
 * (tools/lib/prom_api.c, prom_take_answer()): what a server, or anything
 * answering at its URL, could send check --prometheus. The first byte
 * picks the answer's kind and HTTP status (its low half) and the client's
 * memory bound (its high half); the rest is the body. Every answer is
 * taken whole or refused with a message; a taken one must have finite
 * values and labels with names and values.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prom_api.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const long statuses[] = { 200, 400, 422, 500, 503, 200, 200, 200 };
	struct prom_options o = { .timeout = 1 };
	struct prom_client *client;
	struct prom_vector v = { 0 };
	char err[1024];
	int i, k;

	if (!size)
		return 0;
	/*
	 * A client per input, as its bound counts every answer it took: the
	 * first byte's high half picks the bound, 8 MiB (0, the seeds') down
	 * to 256 bytes, so that jansson runs out of memory in its trees.
	 */
	o.memory = ((size_t)8 << 20) >> (data[0] >> 4);
	client = prom_client_new("http://user:secret@fuzz.invalid:9090/p", &o, err, sizeof(err));
	if (!client)
		abort();
	if (prom_take_answer(client, (const char *)data + 1, size - 1, statuses[data[0] & 7],
			     data[0] & 8, &v, err, sizeof(err))) {
		if (!*err || strstr(err, "secret"))
			abort();
	} else {
		for (i = 0; i < v.n; i++) {
			if (!isfinite(v.s[i].value))
				abort();
			for (k = 0; k < v.s[i].nlabels; k++)
				if (!v.s[i].labels[k].name || !v.s[i].labels[k].value)
					abort();
		}
	}
	/* The memory bound holds only if the estimate of a parse does. */
	if (prom_client_short_estimate(client))
		abort();
	prom_vector_free(&v);
	prom_client_free(client);
	return 0;
}
