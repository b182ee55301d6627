// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the parser of Prometheus's answers
 * (tools/lib/prom_api.c, prom_take_answer()): what a server, or anything
 * answering at its URL, could send check --prometheus. The first byte
 * picks the answer's kind and HTTP status; the rest is the body. Every
 * answer is taken whole or refused with a message; a taken one must have
 * finite values and labels with names and values.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prom_api.h"

static struct prom_client *client;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const long statuses[] = { 200, 400, 422, 500, 503, 200, 200, 200 };
	struct prom_vector v = { 0 };
	char err[1024];
	int i, k;

	if (!size)
		return 0;
	if (!client)
		client = prom_client_new("http://user:secret@fuzz.invalid:9090/p", 1, err, sizeof(err));
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
	prom_vector_free(&v);
	return 0;
}
