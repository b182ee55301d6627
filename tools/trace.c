// SPDX-License-Identifier: GPL-2.0
/*
 * abidep trace: load the BPF usage tracer (bpf/abidep.bpf.c), watch every
 * sysfs file the migration tables resolve to, and keep the usage history in
 * the store.
 *
 *	abidep trace [--db PATH] [--interval S]	live, until ^C
 *	abidep trace --pin			load, pin, exit: counting goes on
 *	abidep trace --sync			pinned maps -> DB, refresh watched files
 *	abidep trace --status			what the pinned tracer has seen
 *	abidep trace --stop			sync, then unpin (detaches)
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <linux/capability.h>
#include <linux/magic.h>
#include <linux/netlink.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "abi.h"
#include "abidep.h"
#include "abidep.skel.h"
#include "json.h"
#include "pattern.h"
#include "store.h"
#include "tables_load.h"
#include "uevent.h"
#include "util.h"
#include "../bpf/abidep.h"

#define PIN_DIR "/sys/fs/bpf/abidep"
#define DEFAULT_DB "/var/lib/abidep/usage.db"

static const char *const map_names[] = { "watched", "usage", "files", "stats", "events", "slots" };
static const char *const op_names[ABIDEP_NR_OPS] = { "open", "read", "write" };

/* A watched file, as this process knows it. */
struct wfile {
	char *path;
	__u64 ino;
	__u32 id;
	bool present;		/* found by the last resolve */
};

struct tracer {
	struct abidep_bpf *skel;	/* NULL when working on pinned maps */
	int fd[6];			/* by map_names */
	struct abidep_slot *slots;	/* the slots map, mapped (see slots_sync()) */
	__u32 nslots;			/* its size, a power of two */
	int pin_lock;			/* PIN_DIR, locked while working on pinned maps */
	struct abi_set tables;
	struct wfile *files;
	int nfiles, cap;
	__u32 next_id;
	dev_t sysfs_dev;
	struct store *db;
	const char *db_path;
	char session[96];
	char host[256];
	bool print;
	bool kprobe;		/* kprobes rather than fexit (forced, or fallen back to) */
	bool live;		/* foreground: reads the events ring buffer */
};

enum { M_WATCHED, M_USAGE, M_FILES, M_STATS, M_EVENTS, M_SLOTS, NR_MAPS };

static volatile sig_atomic_t exiting;

/* --max-entries: a smaller usage map, to test what happens when it is full. */
static __u32 max_usage = ABIDEP_MAX_USAGE;
/* --slots: fewer slots, so that files share them (the watched hash's path). */
static __u32 nr_slots = ABIDEP_SLOTS;

static void on_signal(int sig)
{
	exiting = 1;
}

static void trace_usage(FILE *f)
{
	fprintf(f,
		"Usage: abidep trace [-d PATH] [-t PATH]... [-i S] [--duration S] [-q]\n"
		"       abidep trace --pin [-d PATH] [-t PATH]...\n"
		"       abidep trace --sync | --stop [-d PATH] [-t PATH]...\n"
		"       abidep trace --status [-j|-p]\n"
		"\n"
		"Traces opens, reads and writes of every sysfs file the migration tables\n"
		"resolve to (module aliases included), by file, executable, uid and cgroup,\n"
		"and keeps the history in an SQLite DB.\n"
		"Without --pin it runs in the foreground: one line per new user of a file,\n"
		"the DB written every --interval seconds and on exit; the watched set\n"
		"follows devices as they come and go (uevents).\n"
		"--pin loads and pins programs, links and maps under %s\n"
		"and exits: counting goes on with no daemon. --sync writes the pinned\n"
		"counts to the DB and refreshes the watched files; --stop syncs and unpins.\n"
		"\n"
		"  -d, --db PATH        the usage DB (default %s)\n"
		"  -t, --tables PATH    the tables to use (default: %s)\n"
		"  -i, --interval S     foreground: write the DB every S seconds (default 5)\n"
		"      --duration S     foreground: stop after S seconds (default: at ^C)\n"
		"  -q, --quiet          foreground: no line per new user\n"
		"      --max-entries N  the usage map's size (default %d keys; for testing)\n"
		"      --slots N        the watched files' index size (a power of two,\n"
		"                       default %d; for testing: files that share a slot\n"
		"                       are found in the watched hash)\n"
		"      --kprobe         kprobes even where fexit works (the fallback where\n"
		"                       it does not; for testing)\n"
		"  -j, --json, -p, --pretty  --status in JSON; -h, --help\n"
		"\n",
		PIN_DIR, DEFAULT_DB, abidep_default_tables(), ABIDEP_MAX_USAGE, ABIDEP_SLOTS);
	abidep_exit_help(f, NULL, EXB(EX_USAGE) | EXB(EX_PERM) | EXB(EX_NOBTF) |
			 EXB(EX_NOBPFFS) | EXB(EX_DB) | EXB(EX_LOAD) | EXB(EX_PINNED));
}

/* Whether this process may trace; if not, @lacks names what it misses. */
static bool has_caps(char *lacks, size_t size)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2] = { 0 };
	bool bpf, perfmon;
	__u64 eff;

	snprintf(lacks, size, "CAP_BPF, CAP_PERFMON");
	if (syscall(SYS_capget, &hdr, data))
		return geteuid() == 0;
	eff = data[0].effective | (__u64)data[1].effective << 32;
	if (eff & (1ULL << CAP_SYS_ADMIN))
		return true;
	bpf = eff & (1ULL << CAP_BPF);
	perfmon = eff & (1ULL << CAP_PERFMON);
	snprintf(lacks, size, "%s%s%s", bpf ? "" : "CAP_BPF",
		 !bpf && !perfmon ? ", " : "", perfmon ? "" : "CAP_PERFMON");
	return bpf && perfmon;
}

static int check_env(bool need_bpffs)
{
	struct statfs fs;
	char lacks[64];

	if (!has_caps(lacks, sizeof(lacks))) {
		fprintf(stderr, "abidep: tracing needs root, or CAP_BPF and CAP_PERFMON; this process lacks %s; run it with sudo\n",
			lacks);
		return EX_PERM;
	}
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		fprintf(stderr, "abidep: this kernel has no BTF (/sys/kernel/btf/vmlinux): the tracer needs CONFIG_DEBUG_INFO_BTF=y\n");
		return EX_NOBTF;
	}
	if (need_bpffs && (statfs("/sys/fs/bpf", &fs) || fs.f_type != BPF_FS_MAGIC)) {
		fprintf(stderr, "abidep: no BPF file system on /sys/fs/bpf: mount it (mount -t bpf bpf /sys/fs/bpf)\n");
		return EX_NOBPFFS;
	}
	return EX_OK;
}

static int libbpf_quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_WARN && getenv("ABIDEP_DEBUG"))
		return vfprintf(stderr, fmt, ap);
	return level == LIBBPF_WARN && !strstr(fmt, "libbpf: prog") ?
		vfprintf(stderr, fmt, ap) : 0;
}

/* ---- the watched set ---- */

static struct wfile *find_file(struct tracer *tr, const char *path)
{
	int i;

	for (i = 0; i < tr->nfiles; i++)
		if (!strcmp(tr->files[i].path, path))
			return &tr->files[i];
	return NULL;
}

/*
 * The slots map (bpf/abidep.h), an index of the watched hash, which stays
 * the whole truth. Written through a shared mapping while the programs read
 * it, in an order that keeps every watched file findable and never gives
 * the programs a wrong one:
 * - a new file's slot says "more" (unless it names the file) before the file
 *   goes into the hash: slots_more();
 * - in slots_sync(), after a refresh, a slot being changed says "more" first
 *   and until the next sync, and is emptied (ino 0) before its file_id
 *   changes, its ino set last. A removed file's slot may name it until then:
 *   only a file still open on the removed node could reach it, and it is
 *   that file.
 */
static void slots_more(struct tracer *tr, __u64 ino)
{
	struct abidep_slot *s;

	if (!tr->slots)
		return;
	s = &tr->slots[ino % tr->nslots];
	if (__atomic_load_n(&s->ino, __ATOMIC_ACQUIRE) != ino)
		__atomic_store_n(&s->more, 1, __ATOMIC_SEQ_CST);
}

/*
 * Make every slot what the present files want. A file keeps the slot that
 * names it while it is watched (processes of one pinned tracer know the
 * files in different orders, and would otherwise hand slots back and forth);
 * a free slot goes to the first other file that falls there.
 */
static void slots_sync(struct tracer *tr)
{
	static struct abidep_slot want[ABIDEP_SLOTS];
	__u32 i, pass;

	if (!tr->slots)
		return;
	memset(want, 0, sizeof(want));
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < (__u32)tr->nfiles; i++) {
			const struct wfile *wf = &tr->files[i];
			const struct abidep_slot *s;
			struct abidep_slot *w;
			bool holder;

			if (!wf->ino)
				continue;
			s = &tr->slots[wf->ino % tr->nslots];
			w = &want[wf->ino % tr->nslots];
			holder = s->ino == wf->ino && s->file_id == wf->id;
			if (holder != !pass)
				continue;
			if (!w->ino) {
				w->ino = wf->ino;
				w->file_id = wf->id;
			} else {
				w->more = 1;
			}
		}
	for (i = 0; i < tr->nslots; i++) {
		struct abidep_slot *s = &tr->slots[i];

		if (s->ino != want[i].ino || s->file_id != want[i].file_id) {
			/*
			 * "more" first, and kept until the next sync: a program
			 * that read the old ino reads "more" after it, maybe
			 * only once all of this is done.
			 */
			__atomic_store_n(&s->more, 1, __ATOMIC_SEQ_CST);
			__atomic_store_n(&s->ino, 0, __ATOMIC_SEQ_CST);
			__atomic_store_n(&s->file_id, want[i].file_id, __ATOMIC_SEQ_CST);
			__atomic_store_n(&s->ino, want[i].ino, __ATOMIC_SEQ_CST);
		} else if (s->more != want[i].more) {
			__atomic_store_n(&s->more, want[i].more, __ATOMIC_SEQ_CST);
		}
	}
}

static int slots_map(struct tracer *tr)
{
	struct bpf_map_info info = { 0 };
	__u32 len = sizeof(info);
	void *p;

	if (bpf_obj_get_info_by_fd(tr->fd[M_SLOTS], &info, &len) ||
	    info.max_entries > ABIDEP_SLOTS || !info.max_entries ||
	    (info.max_entries & (info.max_entries - 1))) {
		fprintf(stderr, "abidep: the slots map is not one abidep made\n");
		return EX_LOAD;
	}
	tr->nslots = info.max_entries;
	p = mmap(NULL, tr->nslots * sizeof(struct abidep_slot), PROT_READ | PROT_WRITE,
		 MAP_SHARED, tr->fd[M_SLOTS], 0);
	if (p == MAP_FAILED) {
		fprintf(stderr, "abidep: cannot map the slots map: %s\n", strerror(errno));
		return EX_LOAD;
	}
	tr->slots = p;
	return EX_OK;
}

struct resolve_arg {
	struct tracer *tr;
	const struct abi_entry *e;
	const char *what;
	int added;
};

static int watch_one(const char *path, void *arg)
{
	struct resolve_arg *ra = arg;
	struct tracer *tr = ra->tr;
	struct abidep_watch w;
	struct abidep_file f = { 0 };
	struct wfile *wf = find_file(tr, path);
	struct stat st;
	char *copy;

	if (stat(path, &st) || st.st_dev != tr->sysfs_dev || !S_ISREG(st.st_mode))
		return 0;
	if (wf && wf->ino == st.st_ino) {
		wf->present = true;
		return 0;
	}
	if (!wf) {
		wf = GROW(tr->files, tr->nfiles, tr->cap);
		wf->path = xstrdup(path);
		wf->id = tr->next_id++;
	} else if (wf->ino) {
		/* The file was removed and made again (a device re-added). */
		bpf_map_delete_elem(tr->fd[M_WATCHED], &wf->ino);
	}
	wf->ino = st.st_ino;
	wf->present = true;
	snprintf(f.path, sizeof(f.path), "%s", path);
	snprintf(f.what, sizeof(f.what), "%s", ra->what);
	copy = xstrdup(ra->e->file);
	snprintf(f.table, sizeof(f.table), "%s", strrchr(copy, '/') ? strrchr(copy, '/') + 1 : copy);
	free(copy);
	f.status = ra->e->status;
	f.watched = 1;
	w.file_id = wf->id;
	w.entry_id = ra->e - tr->tables.entries;
	slots_more(tr, wf->ino);
	if (bpf_map_update_elem(tr->fd[M_FILES], &wf->id, &f, BPF_ANY) ||
	    bpf_map_update_elem(tr->fd[M_WATCHED], &wf->ino, &w, BPF_ANY)) {
		fprintf(stderr, "abidep: cannot watch %s: %s\n", path, strerror(errno));
		return 0;
	}
	ra->added++;
	return 0;
}

/* Resolve the tables against /sys; watch what appeared, unwatch what went. */
static int watch_refresh(struct tracer *tr, bool verbose)
{
	int i, k, m, added = 0, gone = 0, watched = 0;

	for (i = 0; i < tr->nfiles; i++)
		tr->files[i].present = false;
	for (i = 0; i < tr->tables.nentries; i++) {
		const struct abi_entry *e = &tr->tables.entries[i];

		for (k = 0; k < e->nwhat; k++) {
			struct resolve_arg ra = { tr, e, e->what[k], 0 };
			struct abi_glob *g;
			int n;

			if (strncmp(e->what[k], "/sys/", 5))
				continue;
			n = abi_pattern_globs(e->what[k], &g);
			for (m = 0; m < n; m++)
				abi_glob_resolve(&g[m], "/sys", watch_one, &ra);
			abi_globs_free(g, n);
			added += ra.added;
		}
	}
	for (i = 0; i < tr->nfiles; i++) {
		struct wfile *wf = &tr->files[i];
		struct abidep_file f;

		if (wf->present) {
			watched++;
			continue;
		}
		if (!wf->ino)
			continue;
		bpf_map_delete_elem(tr->fd[M_WATCHED], &wf->ino);
		if (!bpf_map_lookup_elem(tr->fd[M_FILES], &wf->id, &f)) {
			f.watched = 0;
			bpf_map_update_elem(tr->fd[M_FILES], &wf->id, &f, BPF_ANY);
		}
		wf->ino = 0;
		gone++;
	}
	slots_sync(tr);
	if (verbose && (added || gone))
		fprintf(stderr, "abidep: watching %d files (%d new, %d gone)\n",
			watched, added, gone);
	return watched;
}

/*
 * A process working on pinned maps learns the files from the files map, and
 * their inode numbers from the watched map: a file's path may name a new
 * inode by now (removed and made again), which is not watched yet.
 */
static void files_from_map(struct tracer *tr)
{
	__u32 key, next, *prev = NULL;
	__u64 ino, nino, *iprev = NULL;
	struct abidep_watch w;
	struct abidep_file f;
	struct wfile **by_id;
	int i;

	while (!bpf_map_get_next_key(tr->fd[M_FILES], prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(tr->fd[M_FILES], &key, &f))
			continue;
		struct wfile *wf = GROW(tr->files, tr->nfiles, tr->cap);

		f.path[sizeof(f.path) - 1] = '\0';
		wf->path = xstrdup(f.path);
		wf->id = key;
		wf->ino = 0;
		wf->present = false;
		if (key >= tr->next_id)
			tr->next_id = key + 1;
	}
	/* File ids are below next_id: index the files by id. */
	by_id = xcalloc(tr->next_id + 1, sizeof(*by_id));
	for (i = 0; i < tr->nfiles; i++)
		by_id[tr->files[i].id] = &tr->files[i];
	while (!bpf_map_get_next_key(tr->fd[M_WATCHED], iprev, &nino)) {
		ino = nino;
		iprev = &ino;
		if (bpf_map_lookup_elem(tr->fd[M_WATCHED], &ino, &w) ||
		    w.file_id >= tr->next_id || !by_id[w.file_id])
			continue;
		by_id[w.file_id]->ino = ino;
	}
	free(by_id);
}

/* ---- usage -> store ---- */

struct cg_entry {
	__u64 ino;
	char *path;
};

static struct cg_entry *cg_cache;
static int cg_n, cg_cap;

static int cg_visit(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	struct cg_entry *c;
	int i;

	if (flag != FTW_D)
		return 0;
	for (i = 0; i < cg_n; i++)
		if (cg_cache[i].ino == st->st_ino)
			return 0;
	c = GROW(cg_cache, cg_n, cg_cap);
	c->ino = st->st_ino;
	c->path = xstrdup(path + strlen("/sys/fs/cgroup"));
	if (!*c->path) {
		free(c->path);
		c->path = xstrdup("/");
	}
	return 0;
}

/*
 * Ids a rescan did not find: cgroups deleted since (a container that used a
 * file and went). Each is looked for again only after CG_MISS_SECONDS, and
 * misses within CG_RESCAN_SECONDS of a rescan share it, so that a DB full of
 * gone containers does not cost a walk of /sys/fs/cgroup per row and sync.
 */
#define CG_MISS_SECONDS		10
#define CG_RESCAN_SECONDS	1

struct cg_miss {
	__u64 ino;
	time_t when;
};

static struct cg_miss *cg_misses;
static int cg_nmiss, cg_mcap;
static time_t cg_scanned = -1;

static time_t mono_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

static const char *cg_cached(__u64 id)
{
	int i;

	for (i = 0; i < cg_n; i++)
		if (cg_cache[i].ino == id)
			return cg_cache[i].path;
	return NULL;
}

/*
 * cgroup v2 ids are the cgroup directories' inode numbers. The paths
 * returned stay valid for the process's life: a rescan only adds cgroups
 * (sync_db() holds on to paths while later rows cause rescans). NULL for a
 * cgroup gone before it was named.
 */
static const char *cgroup_path(__u64 id)
{
	const char *path = cg_cached(id);
	struct cg_miss *m = NULL;
	time_t now;
	int i;

	if (path)
		return path;
	now = mono_seconds();
	for (i = 0; i < cg_nmiss && !m; i++)
		if (cg_misses[i].ino == id)
			m = &cg_misses[i];
	if (m && now - m->when < CG_MISS_SECONDS)
		return NULL;
	if (cg_scanned < 0 || now - cg_scanned >= CG_RESCAN_SECONDS) {
		nftw("/sys/fs/cgroup", cg_visit, 16, FTW_PHYS);
		cg_scanned = now;
		path = cg_cached(id);
		if (path)
			return path;
	}
	if (!m) {
		m = GROW(cg_misses, cg_nmiss, cg_mcap);
		m->ino = id;
	}
	m->when = now;
	return NULL;
}

static void exe_string(const struct abidep_usage *u, const struct abidep_usage_key *k,
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

/* The BPF side's clock (CLOCK_BOOTTIME) to unix seconds. */
static long long boot_to_unix(__u64 ns)
{
	struct timespec rt, mt;

	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_BOOTTIME, &mt);
	return rt.tv_sec - (mt.tv_sec - (long long)(ns / 1000000000ULL));
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

/*
 * Write the session's cumulative counts in one transaction. Several BPF keys
 * can be one store key (a binary replaced mid-session has a new inode but the
 * same path): their counts are added up first, or one would replace another.
 */
static int sync_db(struct tracer *tr)
{
	struct abidep_usage_key key, next, *prev = NULL;
	struct sync_row *rows = NULL;
	int n = 0, cap = 0, i, out = 0;
	struct abidep_usage u;

	while (!bpf_map_get_next_key(tr->fd[M_USAGE], prev, &next)) {
		struct sync_row *sr;

		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(tr->fd[M_USAGE], &key, &u))
			continue;
		sr = GROW(rows, n, cap);
		memset(sr, 0, sizeof(*sr));
		if (bpf_map_lookup_elem(tr->fd[M_FILES], &key.file_id, &sr->f))
			snprintf(sr->f.path, sizeof(sr->f.path), "(file %u)", key.file_id);
		sr->f.path[sizeof(sr->f.path) - 1] = '\0';
		sr->f.what[sizeof(sr->f.what) - 1] = '\0';
		sr->f.table[sizeof(sr->f.table) - 1] = '\0';
		memcpy(sr->comm, u.comm, sizeof(sr->comm));
		sr->comm[sizeof(sr->comm) - 1] = '\0';
		exe_string(&u, &key, sr->exe, sizeof(sr->exe));
		sr->r = (struct usage_row) {
			.host = tr->host,
			.session = tr->session,
			.status = sr->f.status == 2 ? "removed" : "deprecated",
			.op = key.op < ABIDEP_NR_OPS ? op_names[key.op] : "?",
			.uid = key.uid,
			.cgroup_id = key.cgroup_id,
			.cgroup = cgroup_path(key.cgroup_id),
			.pid = u.pid,
			.ppid = u.ppid,
			.count = u.count,
			.errors = u.errors,
			.first_seen = boot_to_unix(u.first_ns),
			.last_seen = boot_to_unix(u.last_ns),
		};
		sync_row_fix(sr);
	}
	/* Sorting moves the rows: point their strings at their new places. */
	if (n)
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
	}
	n = n ? out + 1 : 0;

	if (store_begin(tr->db))
		goto fail;
	for (i = 0; i < n; i++)
		if (store_upsert(tr->db, &rows[i].r)) {
			store_rollback(tr->db);
			goto fail;
		}
	/*
	 * That the tracer ran until now, rows or none: a session that saw
	 * nothing deprecated is what vouches for a quiet window (abidep check).
	 */
	if (store_session(tr->db, tr->host, tr->session, time(NULL))) {
		store_rollback(tr->db);
		goto fail;
	}
	if (store_commit(tr->db))
		goto fail;
	free(rows);
	return n;
fail:
	fprintf(stderr, "abidep: cannot write %s: %s\n", tr->db_path, store_errmsg(tr->db));
	free(rows);
	return -1;
}

static void read_stats(struct tracer *tr, __u64 out[ABIDEP_NR_STATS])
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

/* The usage map's size as loaded (--max-entries), pinned maps included. */
static __u32 usage_max(struct tracer *tr)
{
	struct bpf_map_info info = { 0 };
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(tr->fd[M_USAGE], &info, &len))
		return ABIDEP_MAX_USAGE;
	return info.max_entries;
}

static void report_drops(struct tracer *tr)
{
	__u64 s[ABIDEP_NR_STATS];

	read_stats(tr, s);
	if (s[ABIDEP_STAT_DROPPED])
		fprintf(stderr, "abidep: %llu accesses not recorded (usage map full, %u keys)\n",
			(unsigned long long)s[ABIDEP_STAT_DROPPED], usage_max(tr));
	/* The ring buffer only feeds the live display: the counts are whole. */
	if (s[ABIDEP_STAT_EVENTS_LOST])
		fprintf(stderr, "abidep: %llu new users were not shown as they came (ring buffer full); their counts are recorded\n",
			(unsigned long long)s[ABIDEP_STAT_EVENTS_LOST]);
}

/* ---- setup ---- */

static int open_db(struct tracer *tr)
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
	if (gethostname(tr->host, sizeof(tr->host)))
		snprintf(tr->host, sizeof(tr->host), "localhost");
	tr->db = store_open(tr->db_path, false, err, sizeof(err));
	if (!tr->db) {
		fprintf(stderr, "abidep: %s\n", err);
		return EX_DB;
	}
	return EX_OK;
}

/* Tables that cannot be used are bad input, as in every command. */
static int load_tables_for(struct tracer *tr, char **paths, int npaths)
{
	return abidep_load_tables(&tr->tables, paths, npaths, true) ? EX_USAGE : EX_OK;
}

/*
 * The object holds two sets of programs (bpf/abidep.bpf.c): fexit, and
 * kprobe/kretprobe pairs for kernels without trampolines or without BTF for
 * the kernfs functions. Load one; pending is the kprobes' only.
 */
static void choose_progs(struct abidep_bpf *skel, bool kprobe)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, skel->obj)
		bpf_program__set_autoload(prog, (bpf_program__type(prog) ==
						 BPF_PROG_TYPE_KPROBE) == kprobe);
	if (!kprobe)
		bpf_map__set_max_entries(skel->maps.pending, 1);
}

/* The kernel function a program hooks: its section name after the '/'. */
static const char *prog_func(const struct bpf_program *prog)
{
	const char *s = strchr(bpf_program__section_name(prog), '/');

	return s ? s + 1 : bpf_program__name(prog);
}

/*
 * The first function an fentry/fexit program hooks that the kernel's BTF
 * does not have (renamed, or inlined everywhere), or NULL. Asked before
 * loading, so that the fallback names the function, where the verifier
 * would only say ESRCH. NULL too when the BTF cannot be read: the load
 * then says why.
 */
static const char *fexit_missing_func(struct abidep_bpf *skel)
{
	struct btf *vmlinux = btf__load_vmlinux_btf();
	struct bpf_program *prog;
	const char *missing = NULL;

	if (!vmlinux)
		return NULL;
	bpf_object__for_each_program(prog, skel->obj) {
		if (bpf_program__type(prog) == BPF_PROG_TYPE_TRACING &&
		    btf__find_by_name_kind(vmlinux, prog_func(prog), BTF_KIND_FUNC) < 0) {
			missing = prog_func(prog);
			break;
		}
	}
	btf__free(vmlinux);
	return missing;
}

/* The function of the first loaded program that attach left without a link. */
static const char *unattached_func(struct abidep_bpf *skel)
{
	const struct bpf_object_skeleton *s = skel->skeleton;
	int i;

	for (i = 0; i < s->prog_cnt; i++)
		if (bpf_program__autoload(*s->progs[i].prog) && !*s->progs[i].link)
			return prog_func(*s->progs[i].prog);
	return "?";
}

static int load_bpf(struct tracer *tr)
{
	const char *missing;
	int i, err;

	for (;;) {
		tr->skel = abidep_bpf__open();
		if (!tr->skel) {
			fprintf(stderr, "abidep: cannot open the BPF object: %s\n", strerror(errno));
			return EX_LOAD;
		}
		if (bpf_map__set_max_entries(tr->skel->maps.usage, max_usage)) {
			fprintf(stderr, "abidep: cannot size the usage map to %u keys\n", max_usage);
			return EX_LOAD;
		}
		if (bpf_map__set_max_entries(tr->skel->maps.slots, nr_slots)) {
			fprintf(stderr, "abidep: cannot size the slots map to %u\n", nr_slots);
			return EX_LOAD;
		}
		tr->skel->rodata->slot_mask = nr_slots - 1;
		tr->skel->rodata->events_on = tr->live;
		/* Nobody reads a pinned tracer's ring buffer: the least there is. */
		if (!tr->live)
			bpf_map__set_max_entries(tr->skel->maps.events, getpagesize());
		choose_progs(tr->skel, tr->kprobe);
		missing = tr->kprobe ? NULL : fexit_missing_func(tr->skel);
		if (missing) {
			fprintf(stderr, "abidep: the kernel's BTF has no function %s for fexit: using kprobes\n",
				missing);
			abidep_bpf__destroy(tr->skel);
			tr->skel = NULL;
			tr->kprobe = true;
			continue;
		}
		if (abidep_bpf__load(tr->skel)) {
			err = errno;
			if (tr->kprobe || err == EPERM) {
				fprintf(stderr, "abidep: cannot load the BPF programs: %s (ABIDEP_DEBUG=1 shows the verifier log)\n",
					strerror(err));
				return err == EPERM ? EX_PERM : EX_LOAD;
			}
			/* No trampolines here. */
			fprintf(stderr, "abidep: fexit is not available (%s): using kprobes\n",
				strerror(err));
		} else if (abidep_bpf__attach(tr->skel)) {
			err = errno;
			if (tr->kprobe) {
				fprintf(stderr, "abidep: cannot attach a kprobe to %s: %s (is it in /proc/kallsyms?)\n",
					unattached_func(tr->skel), strerror(err));
				return EX_LOAD;
			}
			fprintf(stderr, "abidep: fexit cannot attach to %s (%s): using kprobes\n",
				unattached_func(tr->skel), strerror(err));
		} else {
			break;
		}
		abidep_bpf__destroy(tr->skel);
		tr->skel = NULL;
		tr->kprobe = true;
	}
	tr->fd[M_WATCHED] = bpf_map__fd(tr->skel->maps.watched);
	tr->fd[M_USAGE] = bpf_map__fd(tr->skel->maps.usage);
	tr->fd[M_FILES] = bpf_map__fd(tr->skel->maps.files);
	tr->fd[M_STATS] = bpf_map__fd(tr->skel->maps.stats);
	tr->fd[M_EVENTS] = bpf_map__fd(tr->skel->maps.events);
	tr->fd[M_SLOTS] = bpf_map__fd(tr->skel->maps.slots);
	for (i = 0; i < NR_MAPS; i++)
		if (tr->fd[i] < 0)
			return EX_LOAD;
	return slots_map(tr);
}

/*
 * The pinned maps, for --sync, --stop and --status. Two such processes (a
 * timer's sync and a hand-run one) take turns: each makes the slots what its
 * own view of the files wants.
 */
static int open_pinned(struct tracer *tr)
{
	char path[128];
	int i;

	tr->pin_lock = open(PIN_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (tr->pin_lock >= 0 && flock(tr->pin_lock, LOCK_EX)) {
		fprintf(stderr, "abidep: cannot lock %s: %s\n", PIN_DIR, strerror(errno));
		return EX_FAIL;
	}
	for (i = 0; i < NR_MAPS; i++) {
		snprintf(path, sizeof(path), PIN_DIR "/%s", map_names[i]);
		tr->fd[i] = bpf_obj_get(path);
		/* Pinned by an abidep from before the slots: its programs use none. */
		if (tr->fd[i] < 0 && i == M_SLOTS && errno == ENOENT &&
		    !access(PIN_DIR "/usage", F_OK))
			return EX_OK;
		if (tr->fd[i] < 0) {
			fprintf(stderr, "abidep: no pinned tracer (%s: %s); start one with 'abidep trace --pin'\n",
				path, strerror(errno));
			return EX_PINNED;
		}
	}
	return slots_map(tr);
}

static int pin_all(struct tracer *tr)
{
	struct bpf_map *map;
	char path[256];
	int i;

	if (mkdir(PIN_DIR, 0700) && errno != EEXIST) {
		fprintf(stderr, "abidep: cannot create %s: %s\n", PIN_DIR, strerror(errno));
		return EX_FAIL;
	}
	bpf_object__for_each_map(map, tr->skel->obj) {
		/* internal maps (.rodata, .data.clock): bpffs takes no dotted names; not needed */
		if (strchr(bpf_map__name(map), '.'))
			continue;
		snprintf(path, sizeof(path), PIN_DIR "/%s", bpf_map__name(map));
		if (bpf_map__pin(map, path))
			goto fail;
		chmod(path, 0600);
	}
	/*
	 * Pinned links keep the programs attached when this process exits.
	 * The programs of the set not loaded (fexit or kprobe) have no link.
	 */
	for (i = 0; i < tr->skel->skeleton->prog_cnt; i++) {
		struct bpf_program *prog = *tr->skel->skeleton->progs[i].prog;
		struct bpf_link *link = *tr->skel->skeleton->progs[i].link;

		if (!link)
			continue;
		snprintf(path, sizeof(path), PIN_DIR "/prog_%s", bpf_program__name(prog));
		if (bpf_program__pin(prog, path))
			goto fail;
		chmod(path, 0600);
		snprintf(path, sizeof(path), PIN_DIR "/link_%s", bpf_program__name(prog));
		if (bpf_link__pin(link, path))
			goto fail;
		chmod(path, 0600);
	}
	return EX_OK;
fail:
	fprintf(stderr, "abidep: cannot pin %s: %s\n", path, strerror(errno));
	return EX_FAIL;
}

/* Everything under PIN_DIR is ours: unpinning the links detaches. */
static int unpin_all(void)
{
	struct dirent *d;
	DIR *dir = opendir(PIN_DIR);
	int ret = EX_OK;

	if (!dir)
		return errno == ENOENT ? EX_OK : EX_FAIL;
	while ((d = readdir(dir)))
		if (d->d_name[0] != '.' && unlinkat(dirfd(dir), d->d_name, 0)) {
			fprintf(stderr, "abidep: cannot unpin %s/%s: %s\n", PIN_DIR,
				d->d_name, strerror(errno));
			ret = EX_FAIL;
		}
	closedir(dir);
	if (rmdir(PIN_DIR) && errno != ENOENT) {
		fprintf(stderr, "abidep: cannot remove %s: %s\n", PIN_DIR, strerror(errno));
		ret = EX_FAIL;
	}
	return ret;
}

/* ---- live mode ---- */

static int on_event(void *ctx, void *data, size_t len)
{
	struct tracer *tr = ctx;
	const struct abidep_usage_key *k = data;
	struct abidep_usage u;
	struct abidep_file f = { 0 };
	char exe[ABIDEP_EXE_DEPTH * (ABIDEP_EXE_COMP + 1) + 8];
	const char *cg;

	if (!tr->print || len < sizeof(*k) ||
	    bpf_map_lookup_elem(tr->fd[M_USAGE], k, &u))
		return 0;
	bpf_map_lookup_elem(tr->fd[M_FILES], &k->file_id, &f);
	u.comm[sizeof(u.comm) - 1] = '\0';
	exe_string(&u, k, exe, sizeof(exe));
	cg = cgroup_path(k->cgroup_id);
	printf("%-5s %7u %-16s %5u %-24s %s %s\n", k->op < ABIDEP_NR_OPS ? op_names[k->op] : "?",
	       u.pid, u.comm, k->uid, cg ? cg : "-", f.path, exe);
	fflush(stdout);
	return 0;
}

static int uevent_socket(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
			NETLINK_KOBJECT_UEVENT);

	if (fd >= 0 && bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/*
 * Drain pending uevents; true if a device was added or removed. Only the
 * kernel's own messages count (sender port 0): the rest are ignored.
 */
static bool uevents_pending(int fd)
{
	char buf[8192];
	struct sockaddr_nl from;
	socklen_t flen;
	struct uevent ev;
	bool any = false;
	ssize_t n;

	for (;;) {
		flen = sizeof(from);
		n = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&from, &flen);
		if (n <= 0)
			break;
		if (flen < sizeof(from) || from.nl_pid)
			continue;
		if (!uevent_parse(buf, n, &ev) && uevent_changes_devices(&ev))
			any = true;
	}
	return any;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int run_live(struct tracer *tr, double interval, double duration)
{
	struct ring_buffer *rb;
	struct pollfd pfd[2];
	double start = now_s(), last_sync = start, refresh_at = 0;
	int ufd, ret = EX_OK;

	rb = ring_buffer__new(tr->fd[M_EVENTS], on_event, tr, NULL);
	if (!rb) {
		fprintf(stderr, "abidep: cannot read the ring buffer: %s\n", strerror(errno));
		return EX_LOAD;
	}
	ufd = uevent_socket();
	if (ufd < 0)
		fprintf(stderr, "abidep: no uevents (%s): devices added later are not watched\n",
			strerror(errno));
	pfd[0].fd = ring_buffer__epoll_fd(rb);
	pfd[0].events = POLLIN;
	pfd[1].fd = ufd;
	pfd[1].events = POLLIN;
	if (tr->print) {
		printf("%-5s %7s %-16s %5s %-24s %s %s\n", "OP", "PID", "COMM", "UID",
		       "CGROUP", "FILE", "EXE");
		fflush(stdout);
	}
	while (!exiting) {
		double t = now_s();
		int timeout = 200;

		if (duration > 0 && t - start >= duration)
			break;
		poll(pfd, ufd >= 0 ? 2 : 1, timeout);
		ring_buffer__consume(rb);
		/*
		 * A device's uevent goes out before class interfaces (abidep's
		 * aliases) add their files: look a moment later.
		 */
		if (ufd >= 0 && uevents_pending(ufd))
			refresh_at = now_s() + 0.3;
		if (refresh_at && now_s() >= refresh_at) {
			refresh_at = 0;
			watch_refresh(tr, true);
		}
		if (now_s() - last_sync >= interval) {
			last_sync = now_s();
			/* Slots changed by a refresh stop saying "more". */
			slots_sync(tr);
			if (sync_db(tr) < 0)
				ret = EX_DB;
		}
	}
	ring_buffer__consume(rb);
	if (sync_db(tr) < 0)
		ret = EX_DB;
	report_drops(tr);
	ring_buffer__free(rb);
	if (ufd >= 0)
		close(ufd);
	return ret;
}

static int show_status(struct tracer *tr)
{
	__u64 s[ABIDEP_NR_STATS];
	__u32 fk, fn, *fprev = NULL;
	struct abidep_usage_key uk, un, *uprev = NULL;
	int files = 0, watched = 0, keys = 0;
	struct abidep_usage u;
	struct abidep_file f;
	__u64 seen = 0;

	while (!bpf_map_get_next_key(tr->fd[M_FILES], fprev, &fn)) {
		fk = fn;
		fprev = &fk;
		files++;
		if (!bpf_map_lookup_elem(tr->fd[M_FILES], &fk, &f) && f.watched)
			watched++;
	}
	while (!bpf_map_get_next_key(tr->fd[M_USAGE], uprev, &un)) {
		uk = un;
		uprev = &uk;
		keys++;
		if (!bpf_map_lookup_elem(tr->fd[M_USAGE], &uk, &u))
			seen += u.count;
	}
	read_stats(tr, s);
	/*
	 * The accesses seen: the programs do not count them, since each one
	 * adds one to a key's count (keys are never removed) or is dropped.
	 */
	seen += s[ABIDEP_STAT_DROPPED];
	if (cfg.json) {
		struct json j;

		json_init(&j, stdout, cfg.pretty);
		json_obj_start(&j);
		json_kstr(&j, "pinned", PIN_DIR);
		json_kint(&j, "files", files);
		json_kint(&j, "watched", watched);
		json_kint(&j, "usage_keys", keys);
		json_kint(&j, "usage_max", usage_max(tr));
		json_kint(&j, "hits", seen);
		json_kint(&j, "dropped", s[ABIDEP_STAT_DROPPED]);
		json_kint(&j, "events_lost", s[ABIDEP_STAT_EVENTS_LOST]);
		json_obj_end(&j);
		json_end(&j);
	} else {
		printf("pinned under %s: %d files known, %d watched; %d of %u usage keys;\n"
		       "%llu accesses seen, %llu not recorded (map full), %llu events lost\n",
		       PIN_DIR, files, watched, keys, usage_max(tr),
		       (unsigned long long)seen, (unsigned long long)s[ABIDEP_STAT_DROPPED],
		       (unsigned long long)s[ABIDEP_STAT_EVENTS_LOST]);
	}
	return EX_OK;
}

int cmd_trace(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "pin", no_argument, NULL, 'P' },
		{ "stop", no_argument, NULL, 'S' },
		{ "sync", no_argument, NULL, 'Y' },
		{ "status", no_argument, NULL, 's' },
		{ "db", required_argument, NULL, 'd' },
		{ "interval", required_argument, NULL, 'i' },
		{ "duration", required_argument, NULL, 'D' },
		{ "max-entries", required_argument, NULL, 'M' },
		{ "slots", required_argument, NULL, 'L' },
		{ "kprobe", no_argument, NULL, 'K' },
		{ "tables", required_argument, NULL, 't' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct tracer tr = { .db_path = DEFAULT_DB, .print = true, .pin_lock = -1 };
	double interval = 5, duration = 0;
	char **tpaths = NULL;
	struct stat st;
	int ntpaths = 0, mode = 0, c, ret, i;
	char *end;

	getopt_restart();
	while ((c = getopt_long(argc, argv, "d:i:t:qjph", lopts, NULL)) != -1) {
		switch (c) {
		case 'P': case 'S': case 'Y': case 's':
			if (mode) {
				fprintf(stderr, "abidep: --pin, --sync, --status and --stop exclude each other\n");
				return EX_USAGE;
			}
			mode = c;
			break;
		case 'd': tr.db_path = optarg; break;
		case 'i': case 'D':
			errno = 0;
			*(c == 'i' ? &interval : &duration) = strtod(optarg, &end);
			if (errno || *end || (c == 'i' ? interval <= 0 : duration < 0)) {
				fprintf(stderr, "abidep: --%s takes a positive number of seconds, not '%s'\n",
					c == 'i' ? "interval" : "duration", optarg);
				return EX_USAGE;
			}
			break;
		case 'M': {
			unsigned long v;

			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (errno || *end || !v || v > ABIDEP_MAX_USAGE || optarg[0] == '-') {
				fprintf(stderr, "abidep: --max-entries takes a number of keys from 1 to %d, not '%s'\n",
					ABIDEP_MAX_USAGE, optarg);
				return EX_USAGE;
			}
			max_usage = v;
			break;
		}
		case 'L': {
			unsigned long v;

			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (errno || *end || !v || v > ABIDEP_SLOTS || (v & (v - 1)) ||
			    optarg[0] == '-') {
				fprintf(stderr, "abidep: --slots takes a power of two from 1 to %d, not '%s'\n",
					ABIDEP_SLOTS, optarg);
				return EX_USAGE;
			}
			nr_slots = v;
			break;
		}
		case 't':
			tpaths = xrealloc(tpaths, (ntpaths + 1) * sizeof(char *));
			tpaths[ntpaths++] = optarg;
			break;
		case 'q': tr.print = false; break;
		case 'K': tr.kprobe = true; break;
		case 'j': cfg.json = true; break;
		case 'p': cfg.json = cfg.pretty = true; break;
		case 'h': trace_usage(stdout); return EX_OK;
		default: trace_usage(stderr); return EX_USAGE;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "abidep: trace takes no argument '%s' (see abidep trace --help)\n",
			argv[optind]);
		free(tpaths);
		return EX_USAGE;
	}
	ret = check_env(mode != 0);
	if (ret)
		goto out_args;
	/* Watched files must be on sysfs itself (see watch_one()). */
	if (stat("/sys", &st)) {
		perror("abidep: /sys");
		ret = EX_FAIL;
		goto out_args;
	}
	tr.sysfs_dev = st.st_dev;
	libbpf_set_print(libbpf_quiet);

	if (mode == 's') {
		ret = open_pinned(&tr);
		if (!ret)
			ret = show_status(&tr);
		goto out;
	}
	if (mode == 'P' && !access(PIN_DIR "/usage", F_OK)) {
		fprintf(stderr, "abidep: a tracer is pinned already under %s ('abidep trace --stop' first)\n",
			PIN_DIR);
		ret = EX_PINNED;
		goto out_args;
	}
	ret = load_tables_for(&tr, tpaths, ntpaths);
	if (ret)
		goto out;
	tr.live = mode == 0;
	ret = mode == 'S' || mode == 'Y' ? open_pinned(&tr) : load_bpf(&tr);
	if (ret)
		goto out;
	if (mode == 'S' || mode == 'Y')
		files_from_map(&tr);
	ret = open_db(&tr);
	if (ret)
		goto out;
	if (mode != 'S')
		watch_refresh(&tr, mode == 0);

	switch (mode) {
	case 'P':
		ret = sync_db(&tr) < 0 ? EX_DB : pin_all(&tr);
		if (ret)
			unpin_all();
		break;
	case 'Y':
		ret = sync_db(&tr) < 0 ? EX_DB : EX_OK;
		report_drops(&tr);
		break;
	case 'S':
		ret = sync_db(&tr) < 0 ? EX_DB : EX_OK;
		report_drops(&tr);
		/* Keep counting rather than lose what could not be written. */
		if (!ret)
			ret = unpin_all();
		break;
	default:
		signal(SIGINT, on_signal);
		signal(SIGTERM, on_signal);
		ret = run_live(&tr, interval, duration);
	}
out:
	if (tr.db)
		store_close(tr.db);
	if (tr.skel)
		abidep_bpf__destroy(tr.skel);
	else
		for (i = 0; i < NR_MAPS; i++)
			if (tr.fd[i] > 0)
				close(tr.fd[i]);
	if (tr.slots)
		munmap(tr.slots, tr.nslots * sizeof(struct abidep_slot));
	if (tr.pin_lock >= 0)
		close(tr.pin_lock);
	for (i = 0; i < tr.nfiles; i++)
		free(tr.files[i].path);
	free(tr.files);
	abi_set_free(&tr.tables);
out_args:
	free(tpaths);
	return ret;
}
