// SPDX-License-Identifier: GPL-2.0
/*
 * The CLI tests' DB writer (tests/cli/check.sh, report.sh): rows on stdin,
 * fields separated by '|' (- for NULL, %XX for any byte, so that names may
 * hold newlines and quotes), one upsert each, one transaction, as the
 * tracer writes them; a 19th field is swept (left out: 0). A line
 * S|host|session|started|last_sync[|unrecorded|skipped|lost_at[|host_id[|stage[|boot_offset[|first_sync]]]]]
 * is a session row instead (store_merge_session(); - for NULL; first_sync
 * left out is started, as a live tracer's or a pin with its DB has it,
 * and - is a session written before schema 7, its first sync unknown), and
 * W|host|session|what|since|last_sync|files a watched run (store_merge_watched();
 * what - for NULL). Their host, session and what take %XX as rows do.
 *
 * Each boot's own clock (schema 8): a session line may go on with
 * |started_bt|last_sync_bt (CLOCK_BOOTTIME, in seconds: its first sync is
 * at its start) and then |seq (its place in its host's order), a row with |first_bt|last_bt after swept, and a line
 * C|host|session|boottime|wall|synced is a reading of the session's
 * clocks (seconds; synced 0 or 1; store_merge_clock()). Once all are in,
 * each boot of a session with boottimes is placed by its readings
 * (store_clock_redate()): its times are then the boottimes placed, those
 * given being overwritten.
 * With WHATS (a file, one What a line), each session line also gets a run
 * per What over its span, 1 file watched, host_id "machine-id" and the
 * stage "early": a tracer of today, pinned before udev, that watched them
 * all.
 *	fill DB [WHATS] <rows
 *	fill DB <rows
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "store.h"

static char whats[512][256];
static int nwhats;

static void read_whats(const char *path)
{
	FILE *w = fopen(path, "r");

	while (w && nwhats < 512 && fgets(whats[nwhats], sizeof(whats[0]), w))
		whats[nwhats][strcspn(whats[nwhats], "\n")] = '\0', nwhats++;
	if (w)
		fclose(w);
}

/* The runs of a session that watched every What of WHATS throughout. */
static int watched_all(struct store *s, const struct usage_session *u)
{
	int i;

	for (i = 0; i < nwhats; i++) {
		struct usage_watched w = {
			.host = u->host, .session = u->session, .what = whats[i],
			.since = u->started, .last_sync = u->last_sync, .files = 1,
		};

		if (store_merge_watched(s, &w))
			return -1;
	}
	return 0;
}

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
	char line[4096], err[1024], *v[21], **placed = NULL;
	struct store *s = store_open(argv[1], false, err, sizeof(err));
	int n, k, nplaced = 0;

	if (!s) {
		fprintf(stderr, "fill: %s\n", err);
		return 6;
	}
	if (argc > 2)
		read_whats(argv[2]);
	if (store_begin(s))
		goto fail;
	while (fgets(line, sizeof(line), stdin)) {
		struct usage_row r;
		char *p = line;

		line[strcspn(line, "\n")] = '\0';
		for (n = 0; n < 21 && (v[n] = strsep(&p, "|")); n++)
			;
		if (n == 6 && !strcmp(v[0], "C")) {
			struct usage_clock c = {
				.host = f(v[1]), .session = f(v[2]),
				.r = {
					.boottime = strtoll(v[3], NULL, 10) * NSEC_PER_SEC,
					.wall = strtoll(v[4], NULL, 10) * NSEC_PER_SEC,
					.synced = atoi(v[5]),
				},
			};

			if (store_merge_clock(s, &c))
				goto fail;
			continue;
		}
		if (n == 7 && !strcmp(v[0], "W")) {
			struct usage_watched w = {
				.host = f(v[1]), .session = f(v[2]), .what = f(v[3]),
				.since = strtoll(v[4], NULL, 10),
				.last_sync = strtoll(v[5], NULL, 10),
				.files = strtoll(v[6], NULL, 10),
			};

			if (store_merge_watched(s, &w))
				goto fail;
			continue;
		}
		if ((n == 5 || (n >= 8 && n <= 12) || n == 14 || n == 15) && !strcmp(v[0], "S")) {
			struct usage_session u = {
				.host = f(v[1]), .session = f(v[2]),
				.started = strtoll(v[3], NULL, 10),
				.last_sync = strtoll(v[4], NULL, 10),
				.lost_at = STORE_NO_LOSS,
				.boot_offset = -1,
				.first_sync = strtoll(v[3], NULL, 10),
			};

			if (n >= 8) {
				u.unrecorded = strtoull(v[5], NULL, 10);
				u.skipped = strtoull(v[6], NULL, 10);
				u.lost_at = strcmp(v[7], "-") ? strtoll(v[7], NULL, 10) : STORE_NO_LOSS;
			}
			if (nwhats) {
				u.stage = "early";
				u.host_id = "machine-id";
			}
			if (n >= 9)
				u.host_id = f(v[8]);
			if (n >= 10)
				u.stage = f(v[9]);
			if (n >= 11 && strcmp(v[10], "-"))
				u.boot_offset = strtoll(v[10], NULL, 10);
			if (n >= 12)
				u.first_sync = strcmp(v[11], "-") ? strtoll(v[11], NULL, 10) : 0;
			if (n == 15)
				u.seq = strtoll(v[14], NULL, 10);
			if (n >= 14) {
				u.started_bt = u.first_sync_bt = strtoll(v[12], NULL, 10) * NSEC_PER_SEC;
				u.last_sync_bt = strtoll(v[13], NULL, 10) * NSEC_PER_SEC;
				placed = realloc(placed, (nplaced + 1) * sizeof(*placed));
				if (!placed || asprintf(&placed[nplaced++], "%s|%s", u.host, u.session) < 0)
					return 1;
			}
			if (store_merge_session(s, &u) || watched_all(s, &u))
				goto fail;
			continue;
		}
		if ((n != 18 && n != 19 && n != 21) || p) {
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
			.swept = n >= 19 ? strtoull(v[18], NULL, 10) : 0,
		};
		if (n == 21) {
			r.first_bt = strtoll(v[19], NULL, 10) * NSEC_PER_SEC;
			r.last_bt = strtoll(v[20], NULL, 10) * NSEC_PER_SEC;
		}
		if (store_upsert(s, &r))
			goto fail;
	}
	/* Each boot with boottimes, placed by its readings. */
	for (k = 0; k < nplaced; k++) {
		char *session = strchr(placed[k], '|');

		*session++ = '\0';
		if (store_clock_redate(s, placed[k], session, true))
			goto fail;
		free(placed[k]);
	}
	free(placed);
	if (store_commit(s))
		goto fail;
	store_close(s);
	return 0;
fail:
	fprintf(stderr, "fill: %s\n", store_errmsg(s));
	store_close(s);
	return 1;
}
