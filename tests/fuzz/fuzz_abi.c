// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the tables parser: parse, check (both modes), read
 * through what get_abi.pl reads through (half the time), expand
 * every What into globs, and export both ways. Run by tests/fuzz/run under
 * ASan and UBSan; any crash, leak or UB report fails.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "abi.h"
#include "export.h"
#include "pattern.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct abi_set set;
	struct abi_glob *g;
	FILE *null = fopen("/dev/null", "w");
	int i, k, n;

	abi_set_init(&set);
	abi_parse_buffer(&set, "fuzz", (const char *)data, size);
	abi_check(&set, size & 1);
	if (size & 2)
		abi_tolerate(&set);
	for (i = 0; i < set.nentries; i++)
		for (k = 0; k < set.entries[i].nwhat; k++) {
			abi_pattern_check(set.entries[i].what[k]);
			n = abi_pattern_globs(set.entries[i].what[k], &g);
			abi_globs_free(g, n);
		}
	if (null) {
		export_abi(null, &set, NULL);
		export_c(null, &set);
		fclose(null);
	}
	abi_set_free(&set);
	return 0;
}
