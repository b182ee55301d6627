// SPDX-License-Identifier: GPL-2.0
/*
 * The CLI tests' DB writer (tests/cli/check.sh, report.sh): rows on stdin,
 * fields separated by '|' (- for NULL, %XX for any byte, so that names may
 * hold newlines and quotes), one upsert each, one transaction, as the
 * tracer writes them; a 19th field is swept (left out: 0). A line
 * S|host|session|started|last_sync[|unrecorded|skipped|lost_at] is a
 * session row instead
 * (store_merge_session()).
 *	fill DB <rows
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "store.h"

static char *f(char *s)
{
	char *p = s, *q = s;

	if (!strcmp(s, "-"))
		return NULL;
	while (*p) {
		if (*p == '%' && p[1] && p[2]) {
			char hex[3] = { p[1], p[2], 0 };

			*q++ = (char)strtol(hex, NULL, 16);
			p += 3;
		} else {
			*q++ = *p++;
		}
	}
	*q = '\0';
	return s;
}

int main(int argc, char **argv)
{
	char line[4096], err[1024], *v[19];
	struct store *s = store_open(argv[1], false, err, sizeof(err));
	int n, k;

	if (!s) {
		fprintf(stderr, "fill: %s\n", err);
		return 6;
	}
	if (store_begin(s))
		goto fail;
	while (fgets(line, sizeof(line), stdin)) {
		struct usage_row r;
		char *p = line;

		line[strcspn(line, "\n")] = '\0';
		for (n = 0; n < 19 && (v[n] = strsep(&p, "|")); n++)
			;
		if ((n == 5 || n == 8) && !strcmp(v[0], "S")) {
			struct usage_session u = {
				.host = v[1], .session = v[2],
				.started = strtoll(v[3], NULL, 10),
				.last_sync = strtoll(v[4], NULL, 10),
				.lost_at = STORE_NO_LOSS,
			};

			if (n == 8) {
				u.unrecorded = strtoull(v[5], NULL, 10);
				u.skipped = strtoull(v[6], NULL, 10);
				u.lost_at = strtoll(v[7], NULL, 10);
			}
			if (store_merge_session(s, &u))
				goto fail;
			continue;
		}
		if ((n != 18 && n != 19) || p) {
			fprintf(stderr, "fill: %d fields: %s\n", n, line);
			return 2;
		}
		for (k = 0; k < n; k++)
			v[k] = f(v[k]);
		r = (struct usage_row){
			.host = v[0], .session = v[1], .path = v[2],
			.what = v[3], .table = v[4], .status = v[5],
			.op = v[6], .uid = strtoul(v[7], NULL, 10),
			.cgroup_id = strtoull(v[8], NULL, 10), .cgroup = v[9],
			.exe = v[10], .comm = v[11], .pid = atoi(v[12]),
			.ppid = atoi(v[13]), .count = strtoull(v[14], NULL, 10),
			.errors = strtoull(v[15], NULL, 10),
			.first_seen = strtoll(v[16], NULL, 10),
			.last_seen = strtoll(v[17], NULL, 10),
			.swept = n == 19 ? strtoull(v[18], NULL, 10) : 0,
		};
		if (store_upsert(s, &r))
			goto fail;
	}
	if (store_commit(s))
		goto fail;
	store_close(s);
	return 0;
fail:
	fprintf(stderr, "fill: %s\n", store_errmsg(s));
	store_close(s);
	return 1;
}
