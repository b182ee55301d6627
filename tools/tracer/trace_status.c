// SPDX-License-Identifier: GPL-2.0
/*
 * abidep trace --status: what the pinned tracer knows and has counted,
 * read from its maps (text, or JSON with -j).
 */
#include <stdio.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "exit.h"
#include "json.h"
#include "trace.h"

/* The keys of usage map @fd, their counts and swept counts added to *@held, *@swept. */
static int usage_sum(int fd, __u64 *held, __u64 *swept)
{
	struct abidep_usage_key k, next, *prev = NULL;
	struct abidep_usage u;
	int keys = 0;

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		k = next;
		prev = &k;
		keys++;
		if (!bpf_map_lookup_elem(fd, &k, &u)) {
			*held += u.count;
			*swept += u.swept < u.count ? u.swept : u.count;
		}
	}
	return keys;
}

/* What the pinned tracer has seen, from its maps. */
int show_status(struct tracer *tr, bool json, bool pretty)
{
	__u64 s[ABIDEP_NR_STATS];
	__u32 fk, fn, *fprev = NULL;
	__u64 dk, dn, *dprev = NULL;
	int files = 0, watched = 0, keys = 0, dirs = 0, draining = 0, drain_fd;
	struct abidep_file f;
	__u64 held = 0, swept = 0, missed = progs_missed(tr);
	bool current;

	while (!bpf_map_get_next_key(tr->fd[M_FILES], fprev, &fn)) {
		fk = fn;
		fprev = &fk;
		files++;
		if (!bpf_map_lookup_elem(tr->fd[M_FILES], &fk, &f) && f.watched)
			watched++;
	}
	keys = usage_sum(tr->usage_fd, &held, &swept);
	/* What a sync that failed left pinned, not yet in the DB either. */
	drain_fd = usage_draining(tr, &current);
	if (drain_fd >= 0) {
		if (!current)
			draining = usage_sum(drain_fd, &held, &swept);
		close(drain_fd);
	}
	/* A tracer pinned by an abidep from before sweeps has no dirs map. */
	while (tr->fd[M_DIRS] >= 0 && !bpf_map_get_next_key(tr->fd[M_DIRS], dprev, &dn)) {
		dk = dn;
		dprev = &dk;
		dirs++;
	}
	read_stats(tr, s);
	/*
	 * held: the accesses counted and not yet in the DB (since the last
	 * sync; a tracer pinned by an abidep from before, or a live one: in
	 * the session). The drops are the session's.
	 */
	if (json) {
		struct json j;

		json_init(&j, stdout, pretty);
		json_obj_start(&j);
		json_kstr(&j, "pinned", PIN_DIR);
		json_kint(&j, "files", files);
		json_kint(&j, "watched", watched);
		json_kint(&j, "usage_keys", keys);
		json_kint(&j, "usage_max", usage_max(tr));
		json_kint(&j, "hits", held);
		json_kint(&j, "draining_keys", draining);
		json_kint(&j, "dropped", s[ABIDEP_STAT_DROPPED]);
		json_kint(&j, "quota_refused", s[ABIDEP_STAT_QUOTA]);
		json_kint(&j, "events_lost", s[ABIDEP_STAT_EVENTS_LOST]);
		json_kint(&j, "missed", missed);
		json_kint(&j, "swept", swept);
		json_kint(&j, "dirs", dirs);
		json_obj_end(&j);
		json_end(&j);
	} else {
		printf("pinned under %s: %d files known, %d watched; %d of %u usage keys%s;\n"
		       "%llu accesses %s, %llu not recorded (map full), %llu not recorded (uid quota), %llu events lost\n",
		       PIN_DIR, files, watched, keys, usage_max(tr),
		       draining ? ", and those of a sync that failed" : "", (unsigned long long)held,
		       tr->usage_mode == USAGE_DRAINED ? "since the last sync" : "in the session",
		       (unsigned long long)s[ABIDEP_STAT_DROPPED],
		       (unsigned long long)s[ABIDEP_STAT_QUOTA],
		       (unsigned long long)s[ABIDEP_STAT_EVENTS_LOST]);
		printf("%llu of the accesses in sweeps, of the %d directories with watched files\n",
		       (unsigned long long)swept, dirs);
		printf("%llu runs skipped by the kernel (the tracer already running on that CPU): up to as many accesses not seen\n",
		       (unsigned long long)missed);
	}
	return EXIT_OK;
}
