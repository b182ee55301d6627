// SPDX-License-Identifier: GPL-2.0
/*
 * abidep merge: hosts' usage DBs into one fleet DB, which report and check
 * read like any other.
 *
 *	abidep merge A.db B.db ... -o fleet.db
 *
 * Every row keeps its key, host and session included (a session is
 * BOOT_ID:MAP_ID, so two machines never share one), and rows with the same
 * key are merged by store_merge_row(): the larger counts win. Sessions
 * rows (when each tracer session ran, and what it lost) are merged by
 * store_merge_session(): the earliest start, the latest sync and the larger
 * losses win; the daily history
 * (usage_days, per key, session and day) by store_merge_day(): the larger
 * counts win, and days older than the bound (STORE_HISTORY_DAYS before the
 * newest) go. Merging a DB twice, or an older copy after a newer one,
 * therefore changes nothing. An input older than schema 4 has no history:
 * its rows are merged, no days. What each session watched (schema 6's
 * watched runs) by store_merge_watched(): the later sync wins.
 *
 * Times are kept on each boot's own clock too (schema 8, store_clock.c):
 * the readings of the clocks are merged (store_merge_clock()), every
 * boottime with its row, and each boot an input brings is placed again by
 * its best mapping once all are in, so that two copies of one host's DB
 * taken before and after its clock was stepped give the later placing,
 * whichever is merged first.
 *
 * Hosts are keyed NAME/ID (hostid.c): two machines of one name stay two
 * hosts, and the summary says which names several hosts share. Rows written
 * before hosts had ids are keyed by name alone: those of one name, from
 * any input, are one host, as they always were.
 *
 * An existing fleet.db is merged too, so hosts can be added one at a time.
 * The result is written into a temporary file next to fleet.db and renamed
 * over it once complete: a merge that fails or is killed leaves fleet.db as
 * it was (and at worst a .fleet.db.merge-XXXXXX file behind). Both are
 * made in a directory reached as safedir.h says, SAFE_STEADY (SQLite opens
 * them by name); fleet.db may not be a symlink, and is read only once the
 * store knows it for a usage DB (store.c's open_writer()).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "main.h"
#include "hostid.h"
#include "json.h"
#include "safedir.h"
#include "text.h"
#include "store.h"
#include "util.h"

void merge_usage(FILE *f)
{
	fprintf(f,
		"Usage: abidep merge [-j|-p] [-d DB]... DB... -o OUT\n"
		"\n"
		"Merge usage DBs written by 'abidep trace' on several hosts into OUT, for\n"
		"'abidep report' and 'abidep check' over a fleet. Rows keep their host and\n"
		"session; the same row in several inputs (or merged twice) is counted once,\n"
		"with the largest counts; so is each day of the daily history (the last %d\n"
		"days of OUT are kept); session rows keep the earliest start, the latest\n"
		"sync and the larger count of accesses lost. Hosts are keyed by name and\n"
		"machine id: hosts of one name stay apart, and the summary says so. An\n"
		"existing OUT is merged too. OUT is replaced atomically (a temporary file\n"
		"in its directory, renamed): an interrupted merge leaves it as it was.\n"
		"OUT may not be one of the inputs, nor a symlink, and is merged only if it\n"
		"is a usage DB; its directories must be root's (or yours) and writable by\n"
		"nobody else, unless sticky (see abidep(8), WHERE ABIDEP WRITES).\n"
		"\n"
		"  -d, --db DB       an input DB, as a DB operand\n"
		"  -o, --output OUT  the merged DB (required)\n"
		"  -j, --json        JSON summary; -p, --pretty: pretty-printed\n"
		"  -h, --help        this help\n"
		"\n", STORE_HISTORY_DAYS);
	abidep_exit_help(f, "0 merged (on any other status OUT is unchanged)",
			 EXB(EXIT_USAGE) | EXB(EXIT_DB));
}

/* The temporary file, for the signal handler to remove; its name in OUT's directory. */
static char *tmp_path, *tmp_wal, *tmp_shm, *tmp_name;

static void remove_tmp(void)
{
	if (!tmp_path)
		return;
	unlink(tmp_path);
	unlink(tmp_wal);
	unlink(tmp_shm);
}

static void on_signal(int sig)
{
	/* unlink() is async-signal-safe; the strings are set before. */
	remove_tmp();
	signal(sig, SIG_DFL);
	raise(sig);
}

struct merge {
	struct store *out;
	unsigned long long rows;	/* read from the current input */
	char **hosts;			/* seen, sorted */
	int nhosts, hcap;
	/* The sessions the inputs brought ("HOST\nSESSION"), whose boots to place. */
	bool inputs;
	char **sessions;
	int nsessions, scap;
};

static void add_host(struct merge *m, const char *host)
{
	int lo = 0, hi = m->nhosts, mid, c;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		c = strcmp(m->hosts[mid], host);
		if (!c)
			return;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	GROW(m->hosts, m->nhosts, m->hcap);
	memmove(m->hosts + lo + 1, m->hosts + lo, (m->nhosts - 1 - lo) * sizeof(char *));
	m->hosts[lo] = xstrdup(host);
}

static int merge_row(const struct usage_row *r, void *arg)
{
	struct merge *m = arg;

	if (store_merge_row(m->out, r))
		return -2;	/* the output's error, not the input's */
	add_host(m, r->host);
	m->rows++;
	return 0;
}

static int merge_day(const struct usage_day_row *d, void *arg)
{
	struct merge *m = arg;

	return store_merge_day(m->out, d) ? -2 : 0;	/* as merge_row() */
}

static int merge_watched(const struct usage_watched *w, void *arg)
{
	struct merge *m = arg;

	/* A session that recorded no watched set: it stays so. */
	if (!w->what)
		return 0;
	return store_merge_watched(m->out, w) ? -2 : 0;	/* as merge_row() */
}

static int merge_session(const struct usage_session *u, void *arg)
{
	struct merge *m = arg;

	if (store_merge_session(m->out, u))
		return -2;	/* as merge_row() */
	add_host(m, u->host);
	if (m->inputs && u->last_sync_bt > STORE_NO_BT)
		*GROW(m->sessions, m->nsessions, m->scap) = xasprintf("%s\n%s", u->host, u->session);
	return 0;
}

static int merge_clock(const struct usage_clock *c, void *arg)
{
	struct merge *m = arg;

	return store_merge_clock(m->out, c) ? -2 : 0;	/* as merge_row() */
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Each boot of the sessions the inputs brought, placed by its best
 * mapping among every copy's readings: its rows' times came from copies
 * that may have placed them by different ones. 0, or -1.
 */
static int place_boots(struct merge *m)
{
	char *prev = NULL;
	int i, ret = 0;

	qsort(m->sessions, m->nsessions, sizeof(*m->sessions), cmp_str);
	for (i = 0; !ret && i < m->nsessions; i++) {
		char *host = m->sessions[i], *session = strchr(host, '\n') + 1;
		/* "HOST\nBOOT": sorted, a boot's sessions follow each other. */
		size_t n = session - host + usage_session_boot_len(session);

		if (prev && usage_session_boot_len(session) && !strncmp(prev, host, n) &&
		    (prev[n] == ':'))
			continue;
		prev = host;
		session[-1] = '\0';
		ret = store_clock_redate(m->out, host, session, true);
		session[-1] = '\n';
	}
	return ret;
}

/*
 * Every row, day row and session row of @in (at @path) into m->out, from one
 * snapshot of @in; 0, or -1 with a message printed.
 */
static int merge_store(struct merge *m, struct store *in, const char *path,
		       const char *out_path)
{
	int ret;

	m->rows = 0;
	ret = store_begin(in);
	if (!ret)
		ret = store_each_row(in, merge_row, m);
	if (!ret)
		ret = store_each_day_row(in, merge_day, m);
	if (!ret)
		ret = store_each_session(in, merge_session, m);
	if (!ret)
		ret = store_each_watched(in, merge_watched, m);
	if (!ret)
		ret = store_each_clock(in, merge_clock, m);
	if (ret == -2) {
		fprintf(stderr, "abidep: merge: cannot write the merged DB for %s: %s\n",
			out_path, store_errmsg(m->out));
		return -1;
	}
	if (ret || store_commit(in)) {
		fprintf(stderr, "abidep: merge: the usage DB %s: %s; check it with 'sqlite3 %s \"PRAGMA integrity_check\"', and restore a copy or leave it out\n",
			path, store_errmsg(in), path);
		store_rollback(in);
		return -1;
	}
	return 0;
}

static int merge_one(struct merge *m, const char *path, const char *out_path)
{
	char err[1024];
	struct store *in = store_open(path, true, err, sizeof(err));
	int ret;

	if (!in) {
		fprintf(stderr, "abidep: merge: %s\n", err);
		return -1;
	}
	ret = merge_store(m, in, path, out_path);
	store_close(in);
	return ret;
}

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* How many hosts from m->hosts[@i] on have its name (sorted: they follow it). */
static int same_name(const struct merge *m, int i)
{
	size_t n = host_key_name_len(m->hosts[i]);
	int k = i + 1;

	while (k < m->nhosts && host_key_name_len(m->hosts[k]) == n &&
	       !strncmp(m->hosts[k], m->hosts[i], n))
		k++;
	return k - i;
}

/* A host key from an input DB, safe on a terminal (text_clean()). */
static void print_host(const char *host)
{
	char *clean = text_clean(host);

	printf(" %s", clean);
	free(clean);
}

/* Hosts of one name stay apart, by their keys' ids: said, one line a name. */
static void print_same_names(const struct merge *m)
{
	char *name;
	int i, k, n;

	for (i = 0; i < m->nhosts; i += n) {
		n = same_name(m, i);
		if (n < 2)
			continue;
		name = xstrndup(m->hosts[i], host_key_name_len(m->hosts[i]));
		printf("%d hosts named", n);
		print_host(name);
		printf(", kept apart by machine id:");
		free(name);
		for (k = i; k < i + n; k++) {
			print_host(m->hosts[k]);
			if (!strchr(m->hosts[k], '/'))
				printf(" (no id: written before hosts had one)");
		}
		printf("\n");
	}
}

static void json_same_names(struct json *j, const struct merge *m)
{
	int i, k, n;

	json_key(j, "same_name_hosts");
	json_arr_start(j);
	for (i = 0; i < m->nhosts; i += n) {
		n = same_name(m, i);
		if (n < 2)
			continue;
		json_arr_start(j);
		for (k = i; k < i + n; k++)
			json_str(j, m->hosts[k]);
		json_arr_end(j);
	}
	json_arr_end(j);
}

static void print_summary(const struct merge *m, const char *out, char **in,
			  int nin, unsigned long long *rows, long long total)
{
	struct json j;
	int i;

	if (!cfg.json) {
		printf("merged %d DB%s into %s: %lld rows; hosts:", nin,
		       nin == 1 ? "" : "s", out, total);
		for (i = 0; i < m->nhosts; i++)
			print_host(m->hosts[i]);
		printf("%s\n", m->nhosts ? "" : " none");
		print_same_names(m);
		return;
	}
	json_init(&j, stdout, cfg.pretty);
	json_obj_start(&j);
	json_kstr(&j, "output", out);
	json_kint(&j, "rows", total);
	json_kstrs(&j, "hosts", m->hosts, m->nhosts);
	json_same_names(&j, m);
	json_key(&j, "inputs");
	json_arr_start(&j);
	for (i = 0; i < nin; i++) {
		json_obj_start(&j);
		json_kstr(&j, "path", in[i]);
		json_kint(&j, "rows", (long long)rows[i]);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_obj_end(&j);
	json_end(&j);
}

/* fsync a file or directory, @name in @dirfd; 0 or -1 with errno. */
static int sync_at(int dirfd, const char *name, int flags)
{
	int fd = openat(dirfd, name, flags | O_CLOEXEC), ret;

	if (fd < 0)
		return -1;
	ret = fsync(fd);
	close(fd);
	return ret;
}

/*
 * The inputs (-d and the arguments) and -o; EXIT_OK, or an exit status
 * (EXIT_OK with *@help: --help printed).
 */
static int merge_args(int argc, char **argv, const char **out, char ***in, int *nin,
		      bool *help)
{
	/* -d as every command takes a DB: one more input. */
	static const struct cmd_opts spec = { "", NULL, OPT_DB | OPT_OUTPUT, 0, merge_usage };
	struct opts o;
	int i, ret;

	opts_start(&o, &spec);
	opts_next(&o, argc, argv);
	*in = o.dbs;
	*nin = o.ndbs;
	*out = o.out;
	o.dbs = NULL;
	ret = opts_end(&o, EXIT_OK);
	*help = ret == EXIT_OK;
	if (ret >= 0)
		return ret;
	*in = xrealloc(*in, (*nin + argc - optind + 1) * sizeof(**in));
	for (i = optind; i < argc; i++)
		(*in)[(*nin)++] = argv[i];
	if (!*out || !*nin) {
		fprintf(stderr, "abidep: merge needs %s (abidep merge A.db B.db ... -o OUT.db; see abidep merge --help)\n",
			!*out ? "the output, -o OUT.db" : "at least one input DB");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/*
 * OUT's directory, reached as safedir.h's rule says (SAFE_STEADY: SQLite
 * opens the temporary file, and OUT, by name), held for the temporary
 * file and the rename; OUT's name in it; and the directory's path with
 * the symlinks the walk followed resolved, the name SQLite is given.
 */
static int out_dirfd = -1;
static char *out_base, *out_dir;

/*
 * OUT: a regular file or none, not a symlink (OUT is replaced by name,
 * and read only once known to be a usage DB: never written through a
 * symlink), and none of the inputs. Its size in *@out_size, -1: none.
 */
static int check_output(const char *out, char **in, int nin, off_t *out_size)
{
	struct stat out_st, st;
	char err[1024], *d;
	int i;

	*out_size = -1;
	out_dirfd = safe_parent_open(out, NULL, SAFE_STEADY, 0, &out_base, &out_dir, err,
				     sizeof(err));
	if (out_dirfd == SAFE_REFUSED || (out_dirfd < 0 && errno == EISDIR)) {
		fprintf(stderr, "abidep: merge: %s\n", err);
		return EXIT_USAGE;
	}
	if (out_dirfd < 0) {
		d = xstrdup(out);
		fprintf(stderr, "abidep: merge: cannot create a temporary file in %s for %s: %s; check the directory, or name another output with -o\n",
			dirname(d), out, strerror(errno));
		free(d);
		return EXIT_DB;
	}
	if (fstatat(out_dirfd, out_base, &out_st, AT_SYMLINK_NOFOLLOW)) {
		if (errno == ENOENT)
			return EXIT_OK;
		fprintf(stderr, "abidep: merge: cannot use the output %s: %s\n", out, strerror(errno));
		return EXIT_DB;
	}
	if (S_ISLNK(out_st.st_mode)) {
		fprintf(stderr, "abidep: merge: refusing the output %s: it is a symlink, which merge neither writes through nor replaces; name the file itself with -o\n",
			out);
		return EXIT_USAGE;
	}
	if (!S_ISREG(out_st.st_mode)) {
		fprintf(stderr, "abidep: merge: the output %s is not a regular file; name a DB file with -o\n", out);
		return EXIT_USAGE;
	}
	*out_size = out_st.st_size;
	for (i = 0; i < nin; i++) {
		/* A missing input is store_open()'s to report, in order. */
		if (!stat(in[i], &st) && same_file(&st, &out_st)) {
			fprintf(stderr, "abidep: merge: refusing to merge into one of the inputs (%s is the output %s): name another output with -o\n",
				in[i], out);
			return EXIT_USAGE;
		}
	}
	return EXIT_OK;
}

/*
 * The temporary file (tmp_path, removed on a signal), in OUT's directory
 * (the one check_output() holds), so that the rename is atomic. 0, or -1
 * said.
 */
static int make_tmp(const char *out)
{
	int fd = safe_tmpfile(out_dirfd, out_base, "merge-", &tmp_name);

	if (fd < 0) {
		fprintf(stderr, "abidep: merge: cannot create a temporary file in %s for %s: %s; check the directory, or name another output with -o\n",
			out_dir, out, strerror(errno));
		return -1;
	}
	close(fd);
	tmp_path = path_join(out_dir, tmp_name);
	tmp_wal = xasprintf("%s-wal", tmp_path);
	tmp_shm = xasprintf("%s-shm", tmp_path);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	return 0;
}

/*
 * Read OUT through a writer: when it closes, SQLite folds OUT's WAL into
 * it and removes it, so that no -wal file of the old OUT is left to be
 * read with the new one.
 */
static int merge_old_output(struct merge *m, const char *out)
{
	char err[1024];
	struct store *o = store_open(out, false, err, sizeof(err));
	int failed;

	if (!o) {
		fprintf(stderr, "abidep: merge: the output is not a usable usage DB (it is merged into, not overwritten): %s\n",
			err);
		return -1;
	}
	failed = merge_store(m, o, out, out);
	store_close(o);
	return failed;
}

/*
 * OUT (if it exists, and is not empty) and the inputs into the temporary file, in one
 * transaction; each input's row count in @rows. 0, or -1 said (and
 * m->out's transaction, if open, to roll back).
 */
static int merge_all(struct merge *m, const char *out, off_t out_size, char **in,
		     int nin, unsigned long long *rows)
{
	char err[1024];
	int i;

	m->out = store_open(tmp_path, false, err, sizeof(err));
	if (!m->out) {
		fprintf(stderr, "abidep: merge: %s\n", err);
		return -1;
	}
	if (store_begin(m->out)) {
		fprintf(stderr, "abidep: merge: cannot write %s: %s\n", tmp_path, store_errmsg(m->out));
		store_close(m->out);
		m->out = NULL;
		return -1;
	}
	/* An empty OUT has nothing to merge: it is only replaced, not made a DB. */
	if (out_size > 0 && merge_old_output(m, out))
		return -1;
	m->inputs = true;
	for (i = 0; i < nin; i++) {
		if (merge_one(m, in[i], out))
			return -1;
		rows[i] = m->rows;
	}
	if (place_boots(m)) {
		fprintf(stderr, "abidep: merge: cannot write %s: %s\n", tmp_path, store_errmsg(m->out));
		return -1;
	}
	if (store_commit(m->out)) {
		fprintf(stderr, "abidep: merge: cannot write %s: %s\n", tmp_path, store_errmsg(m->out));
		return -1;
	}
	return 0;
}

/* The closed temporary file becomes OUT (renamed in OUT's directory); 0, or -1 said. */
static int replace_output(const char *out)
{
	char *wal = xasprintf("%s-wal", out_base);
	bool wal_tmp = !access(tmp_wal, F_OK), wal_out = !faccessat(out_dirfd, wal, F_OK, 0);

	free(wal);
	if (wal_tmp || wal_out) {
		fprintf(stderr, "abidep: merge: %s is in use by another process (%s-wal exists); stop it, or merge into another file\n",
			wal_out ? out : tmp_path, wal_out ? out : tmp_path);
		return -1;
	}
	/* renameat() replaces whatever is at OUT's name since, a symlink too, not through it. */
	if (sync_at(out_dirfd, tmp_name, O_RDONLY | O_NOFOLLOW) ||
	    renameat(out_dirfd, tmp_name, out_dirfd, out_base)) {
		fprintf(stderr, "abidep: merge: cannot replace %s with the merged DB %s: %s\n",
			out, tmp_path, strerror(errno));
		return -1;
	}
	free(tmp_path);
	tmp_path = NULL;
	sync_at(out_dirfd, ".", O_RDONLY | O_DIRECTORY);	/* the rename; best effort */
	return 0;
}

int cmd_merge(int argc, char **argv)
{
	const char *out = NULL;
	struct merge m = { 0 };
	unsigned long long *rows = NULL;
	char **in = NULL;
	bool help = false;
	off_t out_size;
	long long total;
	int i, nin = 0, ret;

	ret = merge_args(argc, argv, &out, &in, &nin, &help);
	if (!ret && !help)
		ret = check_output(out, in, nin, &out_size);
	if (ret || help)
		goto out;
	/* From here on, what fails is reading or writing a DB. */
	ret = EXIT_DB;
	if (make_tmp(out))
		goto out;
	rows = xcalloc(nin, sizeof(*rows));
	if (merge_all(&m, out, out_size, in, nin, rows))
		goto fail;
	total = store_rows(m.out);
	/* The last connection's close moves the WAL into the file. */
	store_close(m.out);
	m.out = NULL;
	if (replace_output(out))
		goto out;
	print_summary(&m, out, in, nin, rows, total);
	ret = EXIT_OK;
	goto out;
fail:
	if (m.out)
		store_rollback(m.out);
out:
	store_close(m.out);
	remove_tmp();
	free(tmp_path);
	free(tmp_wal);
	free(tmp_shm);
	free(tmp_name);
	tmp_path = tmp_wal = tmp_shm = tmp_name = NULL;
	if (out_dirfd >= 0)
		close(out_dirfd);
	out_dirfd = -1;
	free(out_base);
	free(out_dir);
	out_base = out_dir = NULL;
	for (i = 0; i < m.nhosts; i++)
		free(m.hosts[i]);
	free(m.hosts);
	for (i = 0; i < m.nsessions; i++)
		free(m.sessions[i]);
	free(m.sessions);
	free(rows);
	free(in);
	return ret;
}
