// SPDX-License-Identifier: GPL-2.0
/*
 * abidep trace: the usage map to the store (one session per load of the
 * maps; the counts since the last sync, or the session's totals, as
 * trace_usage.c says), and the stats of what was not recorded.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "exit.h"
#include "abidep.skel.h"
#include "store.h"
#include "hostid.h"
#include "trace.h"
#include "util.h"

static const char *const op_names[ABIDEP_NR_OPS] = { "open", "read", "write" };

const char *trace_op_name(__u32 op)
{
	return op < ABIDEP_NR_OPS ? op_names[op] : "?";
}

/* The executable's path from a key's components (leaf first), or what it is. */
void exe_string(const struct abidep_usage *u, const struct abidep_usage_key *k,
		char *out, size_t size)
{
	int n, len = 0;

	if (!k->exe_ino) {
		snprintf(out, size, "(kernel)");
		return;
	}
	out[0] = '\0';
	if (u->exe_truncated)
		len = snprintf(out, size, "...");
	for (n = ABIDEP_EXE_DEPTH - 1; n >= 0; n--) {
		if (!u->exe[n][0])
			continue;
		len += snprintf(out + len, size - len, "/%.*s", ABIDEP_EXE_COMP, u->exe[n]);
		if ((size_t)len >= size)
			break;
	}
	if (!out[0])
		snprintf(out, size, "(unknown)");
}

/* A usage row with the strings it owns, for merging before the upsert. */
struct sync_row {
	struct usage_row r;
	struct abidep_file f;
	char exe[ABIDEP_EXE_DEPTH * (ABIDEP_EXE_COMP + 1) + 8];
	char comm[ABIDEP_TASK_COMM_LEN];
};

/* Point a row's strings at its own buffers (after it was moved). */
static void sync_row_fix(struct sync_row *sr)
{
	sr->r.path = sr->f.path;
	sr->r.what = sr->f.what[0] ? sr->f.what : NULL;
	sr->r.table = sr->f.table[0] ? sr->f.table : NULL;
	sr->r.exe = sr->exe;
	sr->r.comm = sr->comm;
}

/*
 * The store's key: (path, op, uid, cgroup_id, exe); host and session are
 * fixed. Compares the rows' own buffers, not the r.* pointers to them: those
 * go stale when the array grows (realloc) or qsort moves the rows.
 */
static int sync_row_cmp(const void *a, const void *b)
{
	const struct sync_row *sa = a, *sb = b;
	const struct usage_row *x = &sa->r, *y = &sb->r;
	int c;

	if ((c = strcmp(sa->f.path, sb->f.path)) || (c = strcmp(x->op, y->op)) ||
	    (c = strcmp(sa->exe, sb->exe)))
		return c;
	if (x->uid != y->uid)
		return x->uid < y->uid ? -1 : 1;
	if (x->cgroup_id != y->cgroup_id)
		return x->cgroup_id < y->cgroup_id ? -1 : 1;
	return 0;
}

/* One key of the usage map as a row of the store, with its file's names. */
static void sync_row_read(struct tracer *tr, struct sync_row *sr,
			  const struct abidep_usage_key *key, const struct abidep_usage *u)
{
	memset(sr, 0, sizeof(*sr));
	if (bpf_map_lookup_elem(tr->fd[M_FILES], &key->file_id, &sr->f))
		snprintf(sr->f.path, sizeof(sr->f.path), "(file %u)", key->file_id);
	sr->f.path[sizeof(sr->f.path) - 1] = '\0';
	sr->f.what[sizeof(sr->f.what) - 1] = '\0';
	sr->f.table[sizeof(sr->f.table) - 1] = '\0';
	memcpy(sr->comm, u->comm, sizeof(sr->comm));
	sr->comm[sizeof(sr->comm) - 1] = '\0';
	exe_string(u, key, sr->exe, sizeof(sr->exe));
	sr->r = (struct usage_row) {
		.host = tr->host,
		.session = tr->session,
		.status = sr->f.status == 2 ? "removed" : "deprecated",
		.op = trace_op_name(key->op),
		.uid = key->uid,
		.cgroup_id = key->cgroup_id,
		.cgroup = cgroup_path(&tr->cg, key->cgroup_id),
		.pid = u->pid,
		.ppid = u->ppid,
		.count = u->count,
		.errors = u->errors,
		/* At most count: see sweep_resolve() in bpf/abidep.bpf.c. */
		.swept = u->swept < u->count ? u->swept : u->count,
		/* CLOCK_BOOTTIME: placed when written (sync_rows_write()). */
		.first_bt = u->first_ns,
		.last_bt = u->last_ns,
	};
	sync_row_fix(sr);
}

/* Every key of the usage map @fd as a row, into *@rows; returns how many. */
static int sync_rows_read(struct tracer *tr, int fd, struct sync_row **rows)
{
	struct abidep_usage_key key, next, *prev = NULL;
	struct abidep_usage u;
	int n = 0, cap = 0;

	*rows = NULL;
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (!bpf_map_lookup_elem(fd, &key, &u))
			sync_row_read(tr, GROW(*rows, n, cap), &key, &u);
	}
	return n;
}

/*
 * Several BPF keys can be one store key (a binary replaced mid-session has
 * a new inode but the same path): add their counts up, or one would replace
 * another. Returns the number of rows left.
 */
static int sync_rows_merge(struct sync_row *rows, int n)
{
	int i, out = 0;

	if (!n)
		return 0;
	/* Sorting moves the rows: point their strings at their new places. */
	qsort(rows, n, sizeof(*rows), sync_row_cmp);
	for (i = 0; i < n; i++)
		sync_row_fix(&rows[i]);
	for (i = 1; i < n; i++) {
		if (sync_row_cmp(&rows[out], &rows[i])) {
			rows[++out] = rows[i];
			sync_row_fix(&rows[out]);
			continue;
		}
		usage_add(&rows[out].r.counts, &rows[i].r.counts);
		if (rows[i].r.first_bt < rows[out].r.first_bt)
			rows[out].r.first_bt = rows[i].r.first_bt;
		if (rows[i].r.last_bt > rows[out].r.last_bt)
			rows[out].r.last_bt = rows[i].r.last_bt;
	}
	return out + 1;
}

/*
 * When the clocks read @r: placed by @mapping, the boot's best; a reading
 * an older abidep's pin recorded has no boottime, and its wall time stays.
 */
static struct store_when when_of(const struct clock_reading *r, long long mapping)
{
	if (r->boottime <= STORE_NO_BT)
		return (struct store_when){ .wall = r->wall / NSEC_PER_SEC };
	return (struct store_when){
		.wall = clock_place(r->boottime, mapping), .bt = r->boottime, .offset = mapping,
	};
}

/* One reading of the clocks, field by field (a struct's padding is not). */
static bool same_reading(const struct clock_reading *a, const struct clock_reading *b)
{
	return a->boottime == b->boottime && a->wall == b->wall && a->synced == b->synced;
}

/*
 * What the pin watched, and each refresh before the first sync, from their
 * times (trace_stage.c): a group of the record's counts per time.
 */
static int pin_watched_write(struct tracer *tr, const struct store_session_info *info,
			     long long mapping)
{
	struct store_when at;
	int i, j;

	for (i = 0; i < tr->npin_watch; i = j) {
		for (j = i; j < tr->npin_watch &&
		     same_reading(&tr->pin_watch_at[j], &tr->pin_watch_at[i]); j++)
			;
		at = when_of(&tr->pin_watch_at[i], mapping);
		if (store_session_watched(tr->db, tr->host, tr->session, info, &at,
					  tr->pin_watch + i, j - i))
			return -1;
	}
	return 0;
}

/*
 * The session's readings of the clocks: the pin's, each refresh's before
 * the first sync (trace_stage.c), then @now's; the store keeps those
 * where the mapping moved (store_clock_note()). *@mapping: the boot's
 * best, which places this sync's times.
 */
static int note_clocks(struct tracer *tr, const struct clock_reading *now, long long *mapping)
{
	int i;

	if (tr->pinned.boottime > STORE_NO_BT &&
	    store_clock_note(tr->db, tr->host, tr->session, &tr->pinned, mapping))
		return -1;
	for (i = 0; i < tr->npin_watch; i++)
		if (tr->pin_watch_at[i].boottime > STORE_NO_BT &&
		    store_clock_note(tr->db, tr->host, tr->session, &tr->pin_watch_at[i], mapping))
			return -1;
	return store_clock_note(tr->db, tr->host, tr->session, now, mapping);
}

/* The rows' times, from their boottimes, placed by @mapping. */
static void place_rows(struct sync_row *rows, int n, long long mapping)
{
	int i;

	for (i = 0; i < n; i++) {
		rows[i].r.first_seen = clock_place(rows[i].r.first_bt, mapping);
		rows[i].r.last_seen = clock_place(rows[i].r.last_bt, mapping);
	}
}

/* When the session began: the pin's reading, or its boottime alone from an older pin's record. */
static struct store_when pinned_when(const struct tracer *tr, long long mapping)
{
	struct store_when w = when_of(&tr->pinned, mapping);

	if (!w.bt && tr->pinned.wall && tr->boot_offset >= 0) {
		w.bt = tr->boot_offset * NSEC_PER_SEC;
		w.offset = mapping;
		w.wall = clock_place(w.bt, mapping);
	}
	return w;
}

/*
 * The rows and the session's mark, in one transaction: @drained, the id of
 * the map they were drained from (their counts added), or 0 (the session's
 * totals, replacing). Their times are placed here, by the boot's best
 * mapping with this sync's reading of the clocks: 0; -1 the store failed;
 * -2 the clocks could not be read (said).
 */
static int sync_rows_write(struct tracer *tr, struct sync_row *rows, int n,
			   __u32 drained)
{
	struct store_session_info info = {
		.host_id = tr->host_from, .stage = tr->stage,
		.boot_offset = tr->stage ? tr->boot_offset : -1,
	};
	/*
	 * One time for the session row and the runs: a What's run that
	 * starts at this sync starts at the session's first_sync, if this is
	 * its first (check tells files that appeared before it so).
	 */
	struct clock_reading clocks;
	struct store_when now;
	long long mapping;
	__u64 s[ABIDEP_NR_STATS];
	int i;

	/* No clock, nothing to place the counts by: kept for the next sync. */
	if (clock_read(&clocks)) {
		fprintf(stderr, "abidep: cannot read the clocks: %s\n", strerror(errno));
		return -2;
	}
	if (store_begin(tr->db))
		return -1;
	/*
	 * A mapping better than the one before: what the boot stored before
	 * is placed again first, so that this sync's times (the pin's record
	 * among them, written again at each sync) meet them where they are.
	 */
	if (note_clocks(tr, &clocks, &mapping) ||
	    store_clock_redate(tr->db, tr->host, tr->session, false)) {
		store_rollback(tr->db);
		return -1;
	}
	now = when_of(&clocks, mapping);
	info.pinned = pinned_when(tr, mapping);
	place_rows(rows, n, mapping);
	for (i = 0; i < n; i++)
		if (drained ? store_add(tr->db, &rows[i].r) : store_upsert(tr->db, &rows[i].r)) {
			store_rollback(tr->db);
			return -1;
		}
	/*
	 * That the tracer ran until now, rows or none: a session that saw
	 * nothing deprecated is what vouches for a quiet window (abidep check),
	 * unless it lost accesses, which it keeps as evidence too.
	 */
	read_stats(tr, s);
	if (store_session(tr->db, tr->host, tr->session, &now,
			  s[ABIDEP_STAT_DROPPED] + s[ABIDEP_STAT_QUOTA], progs_missed(tr)) ||
	    (drained && store_set_drained(tr->db, tr->host, tr->session, drained)) ||
	    pin_watched_write(tr, &info, mapping) ||
	    store_session_watched(tr->db, tr->host, tr->session, &info, &now,
				  tr->watch, tr->watch_known ? tr->nwatch : 0)) {
		store_rollback(tr->db);
		return -1;
	}
	return store_commit(tr->db);
}

/*
 * A sync of pinned maps (--sync, --stop) that failed has lost nothing: the
 * counts are cumulative and stay in the maps for the next sync to write.
 */
static void say_kept(struct tracer *tr)
{
	if (!tr->skel)
		fprintf(stderr, "abidep: nothing is lost: the counts stay in the pinned maps ('abidep trace --status') until a sync succeeds\n");
}

static int write_failed(struct tracer *tr)
{
	fprintf(stderr, "abidep: cannot write %s: %s%s\n", tr->db_path,
		store_errmsg(tr->db), store_damaged(tr->db) ?
		"; it is damaged: move it aside with its -wal and -shm files (a sync then starts a new one), or restore a copy" :
		"");
	say_kept(tr);
	return -1;
}

/*
 * The counts of usage map @fd to the DB: added, with its id as the
 * session's drained map, when @drained; else the session's totals. The
 * number of rows, or -1.
 */
static int sync_map(struct tracer *tr, int fd, bool drained)
{
	struct sync_row *rows;
	int n;

	n = sync_rows_read(tr, fd, &rows);
	n = sync_rows_merge(rows, n);
	switch (sync_rows_write(tr, rows, n, drained ? usage_id(fd) : 0)) {
	case 0:
		break;
	case -2:
		say_kept(tr);
		n = -1;
		break;
	default:
		n = write_failed(tr);
	}
	free(rows);
	return n;
}

/* A map a killed sync left pinned, written unless the DB has it. */
static int sync_leftover(struct tracer *tr)
{
	bool current;
	int fd = usage_draining(tr, &current), ret = 0;
	long long done;

	if (fd < 0)
		return 0;
	/* Still counted into: the sync before stopped short of replacing it. */
	if (!current) {
		done = store_drained(tr->db, tr->host, tr->session);
		if (done == -2)
			ret = write_failed(tr);
		else if (done != usage_id(fd) && sync_map(tr, fd, true) < 0)
			ret = -1;
	}
	close(fd);
	if (!ret)
		usage_drained(tr);
	return ret;
}

/* Write what the tracer counted; the number of rows, or -1. */
int sync_db(struct tracer *tr)
{
	int n, old;

	if (tr->usage_mode == USAGE_TOTALS)
		return sync_map(tr, tr->usage_fd, false);
	if (sync_leftover(tr))
		return -1;
	old = usage_swap(tr);
	if (old < 0) {
		fprintf(stderr, "abidep: cannot replace the usage map with an empty one: %s\n",
			strerror(errno));
		say_kept(tr);
		return -1;
	}
	n = sync_map(tr, old, true);
	if (n >= 0)
		usage_drained(tr);
	close(old);
	return n;
}

void read_stats(struct tracer *tr, __u64 out[ABIDEP_NR_STATS])
{
	int ncpu = libbpf_num_possible_cpus(), i, c;
	__u64 *v = xcalloc(ncpu > 0 ? ncpu : 1, sizeof(__u64));

	for (i = 0; i < ABIDEP_NR_STATS; i++) {
		__u32 k = i;

		out[i] = 0;
		if (ncpu > 0 && !bpf_map_lookup_elem(tr->fd[M_STATS], &k, v))
			for (c = 0; c < ncpu; c++)
				out[i] += v[c];
	}
	free(v);
}

static __u64 prog_missed(int fd)
{
	struct bpf_prog_info info = { 0 };
	__u32 len = sizeof(info);

	return bpf_obj_get_info_by_fd(fd, &info, &len) ? 0 : info.recursion_misses;
}

/*
 * The runs the kernel skipped: a program is not entered on a CPU where it
 * is already running (a task preempted inside it, or an interrupt), and
 * counts the skip in its recursion_misses. Each skip is an access uncounted,
 * or an unwatched one: the programs run before they know. kprobes count
 * theirs there from 6.7 on, fentry and fexit always.
 */
__u64 progs_missed(struct tracer *tr)
{
	char path[sizeof(PIN_DIR) + 256];
	struct dirent *d;
	__u64 n = 0;
	DIR *dir;
	int i, fd;

	if (tr->skel) {
		for (i = 0; i < tr->skel->skeleton->prog_cnt; i++)
			if (*tr->skel->skeleton->progs[i].link)
				n += prog_missed(bpf_program__fd(*tr->skel->skeleton->progs[i].prog));
		return n;
	}
	dir = opendir(PIN_DIR);
	while (dir && (d = readdir(dir))) {
		if (strncmp(d->d_name, "prog_", 5))
			continue;
		snprintf(path, sizeof(path), PIN_DIR "/%s", d->d_name);
		fd = bpf_obj_get(path);
		if (fd >= 0) {
			n += prog_missed(fd);
			close(fd);
		}
	}
	if (dir)
		closedir(dir);
	return n;
}

/* The usage map's size as loaded (--max-entries), pinned maps included. */
__u32 usage_max(struct tracer *tr)
{
	struct bpf_map_info info = { 0 };
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(tr->usage_fd, &info, &len))
		return ABIDEP_MAX_USAGE;
	return info.max_entries;
}

void report_drops(struct tracer *tr)
{
	__u64 s[ABIDEP_NR_STATS], missed;

	read_stats(tr, s);
	if (s[ABIDEP_STAT_DROPPED])
		fprintf(stderr, "abidep: %llu accesses not recorded (usage map full, %u keys)\n",
			(unsigned long long)s[ABIDEP_STAT_DROPPED], usage_max(tr));
	if (s[ABIDEP_STAT_QUOTA])
		fprintf(stderr, "abidep: %llu accesses not recorded (their uids had added as many new users as --uid-quota lets one uid between two syncs)\n",
			(unsigned long long)s[ABIDEP_STAT_QUOTA]);
	missed = progs_missed(tr);
	if (missed)
		fprintf(stderr, "abidep: the kernel skipped the tracer %llu times (already running on that CPU): up to %llu accesses not recorded\n",
			(unsigned long long)missed, (unsigned long long)missed);
	/* The ring buffer only feeds the live display: the counts are whole. */
	if (s[ABIDEP_STAT_EVENTS_LOST])
		fprintf(stderr, "abidep: %llu new users were not shown as they came (ring buffer full); their counts are recorded\n",
			(unsigned long long)s[ABIDEP_STAT_EVENTS_LOST]);
}

/*
 * A DB this host's tracer wrote before host keys had ids (its rows keyed
 * by host name alone) goes on as this host's: rekeyed once, and said.
 */
static int adopt_host(struct tracer *tr)
{
	char name[HOST_KEY_MAX];
	size_t n = host_key_name_len(tr->host);
	int r;

	snprintf(name, sizeof(name), "%.*s", (int)n, tr->host);
	r = store_adopt_host(tr->db, name, tr->host);
	if (r < 0) {
		write_failed(tr);
		return EXIT_DB;
	}
	if (r)
		fprintf(stderr, "abidep: the rows of host %s, written before hosts had ids, are this host's: now keyed %s\n",
			name, tr->host);
	return EXIT_OK;
}

int open_db(struct tracer *tr)
{
	char err[512];
	char boot[64] = "unknown";
	struct bpf_map_info info = { 0 };
	__u32 len = sizeof(info);
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");

	if (f) {
		if (fgets(boot, sizeof(boot), f))
			boot[strcspn(boot, "\n")] = '\0';
		fclose(f);
	}
	/* One session per load of the maps: counts are cumulative within it. */
	bpf_obj_get_info_by_fd(tr->fd[M_USAGE], &info, &len);
	snprintf(tr->session, sizeof(tr->session), "%s:%u", boot, info.id);
	if (host_key(tr->host, &tr->host_from, err, sizeof(err))) {
		fprintf(stderr, "abidep: %s\n", err);
		return EXIT_FAIL;
	}
	if (err[0] && tr->say_host)
		fprintf(stderr, "abidep: warning: %s\n", err);
	/* Pinned maps: the stage their pin recorded, if it is this session's. */
	if (!tr->skel)
		pin_stage_load(tr);
	/* --pin --early: the DB waits for the first sync (trace_stage.c). */
	if (tr->early)
		return EXIT_OK;
	tr->db = store_open(tr->db_path, false, err, sizeof(err));
	if (!tr->db) {
		fprintf(stderr, "abidep: %s\n", err);
		say_kept(tr);
		return EXIT_DB;
	}
	return adopt_host(tr);
}
