// SPDX-License-Identifier: GPL-2.0
/*
 * abidep trace --status: what the pinned tracer knows and has counted,
 * read from its maps (text, or JSON with -j).
 */
#include <stdio.h>
#include <string.h>
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

/*
 * What the pinned tracer has seen, from its maps. held: the accesses
 * counted and not yet in the DB (since the last sync; a tracer pinned by
 * an abidep from before, or a live one: in the session). The drops are
 * the session's.
 */
struct trace_status {
	int files, watched, keys, dirs, draining;
	__u32 usage_max;
	__u64 held, swept, missed;
	__u64 stats[ABIDEP_NR_STATS];
	bool drained;		/* held counts since the last sync */
};

/* The directories of the dirs map @fd (-1: none, 0). */
static int count_dirs(int fd)
{
	__u64 k, next, *prev = NULL;
	int n = 0;

	while (fd >= 0 && !bpf_map_get_next_key(fd, prev, &next)) {
		k = next;
		prev = &k;
		n++;
	}
	return n;
}

static void read_status(struct tracer *tr, struct trace_status *st)
{
	__u32 fk, fn, *fprev = NULL;
	struct abidep_file f;
	bool current;
	int drain_fd;

	memset(st, 0, sizeof(*st));
	while (!bpf_map_get_next_key(tr->fd[M_FILES], fprev, &fn)) {
		fk = fn;
		fprev = &fk;
		st->files++;
		if (!bpf_map_lookup_elem(tr->fd[M_FILES], &fk, &f) && f.watched)
			st->watched++;
	}
	st->keys = usage_sum(tr->usage_fd, &st->held, &st->swept);
	/* What a sync that failed left pinned, not yet in the DB either. */
	drain_fd = usage_draining(tr, &current);
	if (drain_fd >= 0) {
		if (!current)
			st->draining = usage_sum(drain_fd, &st->held, &st->swept);
		close(drain_fd);
	}
	/* A tracer pinned by an abidep from before sweeps has no dirs map. */
	st->dirs = count_dirs(tr->fd[M_DIRS]);
	read_stats(tr, st->stats);
	st->usage_max = usage_max(tr);
	st->missed = progs_missed(tr);
	st->drained = tr->usage_mode == USAGE_DRAINED;
}

static void print_status_json(const struct trace_status *st, bool pretty)
{
	struct json j;

	json_init(&j, stdout, pretty);
	json_obj_start(&j);
	json_kstr(&j, "pinned", PIN_DIR);
	json_kint(&j, "files", st->files);
	json_kint(&j, "watched", st->watched);
	json_kint(&j, "usage_keys", st->keys);
	json_kint(&j, "usage_max", st->usage_max);
	json_kint(&j, "hits", st->held);
	json_kint(&j, "draining_keys", st->draining);
	json_kint(&j, "dropped", st->stats[ABIDEP_STAT_DROPPED]);
	json_kint(&j, "quota_refused", st->stats[ABIDEP_STAT_QUOTA]);
	json_kint(&j, "events_lost", st->stats[ABIDEP_STAT_EVENTS_LOST]);
	json_kint(&j, "missed", st->missed);
	json_kint(&j, "swept", st->swept);
	json_kint(&j, "dirs", st->dirs);
	json_obj_end(&j);
	json_end(&j);
}

static void print_status_text(const struct trace_status *st)
{
	printf("pinned under %s: %d files known, %d watched; %d of %u usage keys%s;\n"
	       "%llu accesses %s, %llu not recorded (map full), %llu not recorded (uid quota), %llu events lost\n",
	       PIN_DIR, st->files, st->watched, st->keys, st->usage_max,
	       st->draining ? ", and those of a sync that failed" : "",
	       (unsigned long long)st->held,
	       st->drained ? "since the last sync" : "in the session",
	       (unsigned long long)st->stats[ABIDEP_STAT_DROPPED],
	       (unsigned long long)st->stats[ABIDEP_STAT_QUOTA],
	       (unsigned long long)st->stats[ABIDEP_STAT_EVENTS_LOST]);
	printf("%llu of the accesses in sweeps, of the %d directories with watched files\n",
	       (unsigned long long)st->swept, st->dirs);
	printf("%llu runs skipped by the kernel (the tracer already running on that CPU): up to as many accesses not seen\n",
	       (unsigned long long)st->missed);
}

int show_status(struct tracer *tr, bool json, bool pretty)
{
	struct trace_status st;

	read_status(tr, &st);
	if (json)
		print_status_json(&st, pretty);
	else
		print_status_text(&st);
	return EXIT_OK;
}
