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
 * rows (when each tracer session ran) are merged by store_merge_session():
 * the earliest start and the latest sync win. Merging a DB twice, or an
 * older copy after a newer one, therefore changes nothing.
 *
 * An existing fleet.db is merged too, so hosts can be added one at a time.
 * The result is written into a temporary file next to fleet.db and renamed
 * over it once complete: a merge that fails or is killed leaves fleet.db as
 * it was (and at worst a .fleet.db.merge-XXXXXX file behind).
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

#include "abidep.h"
#include "json.h"
#include "store.h"
#include "util.h"

static void merge_usage(FILE *f)
{
	fprintf(f,
		"Usage: abidep merge [-j|-p] [-d DB]... DB... -o OUT\n"
		"\n"
		"Merge usage DBs written by 'abidep trace' on several hosts into OUT, for\n"
		"'abidep report' and 'abidep check' over a fleet. Rows keep their host and\n"
		"session; the same row in several inputs (or merged twice) is counted once,\n"
		"with the largest counts; session rows keep the earliest start and the\n"
		"latest sync. An existing OUT is merged too. OUT is replaced\n"
		"atomically (a temporary file in its directory, renamed): an interrupted\n"
		"merge leaves it as it was. OUT may not be one of the inputs.\n"
		"\n"
		"  -d, --db DB       an input DB, as a DB operand\n"
		"  -o, --output OUT  the merged DB (required)\n"
		"  -j, --json        JSON summary; -p, --pretty: pretty-printed\n"
		"  -h, --help        this help\n"
		"\n");
	abidep_exit_help(f, "0 merged (on any other status OUT is unchanged)",
			 EXB(EX_USAGE) | EXB(EX_DB));
}

/* The temporary file, for the signal handler to remove. */
static char *tmp_path, *tmp_wal, *tmp_shm;

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

static int merge_session(const char *host, const char *session, long long started,
			 long long last_sync, void *arg)
{
	struct merge *m = arg;

	if (store_merge_session(m->out, host, session, started, last_sync))
		return -2;	/* as merge_row() */
	add_host(m, host);
	return 0;
}

/*
 * Every row and session row of @in (at @path) into m->out, from one
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
		ret = store_each_session(in, merge_session, m);
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

static void print_summary(const struct merge *m, const char *out, char **in,
			  int nin, unsigned long long *rows, long long total)
{
	struct json j;
	int i;

	if (!cfg.json) {
		printf("merged %d DB%s into %s: %lld rows; hosts:", nin,
		       nin == 1 ? "" : "s", out, total);
		for (i = 0; i < m->nhosts; i++)
			printf(" %s", m->hosts[i]);
		printf("%s\n", m->nhosts ? "" : " none");
		return;
	}
	json_init(&j, stdout, cfg.pretty);
	json_obj_start(&j);
	json_kstr(&j, "output", out);
	json_kint(&j, "rows", total);
	json_kstrs(&j, "hosts", m->hosts, m->nhosts);
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

/* fsync a file or directory by name; 0 or -1 with errno. */
static int sync_path(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC), ret;

	if (fd < 0)
		return -1;
	ret = fsync(fd);
	close(fd);
	return ret;
}

int cmd_merge(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "output", required_argument, NULL, 'o' },
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *out = NULL;
	struct merge m = { 0 };
	struct stat out_st, st;
	unsigned long long *rows = NULL;
	char err[1024], *dir = NULL, *base, *wal = NULL, **in = NULL;
	bool out_exists;
	long long total = -1;
	int c, i, nin = 0, fd, ret = EX_USAGE;

	if (argc == 2 && !strcmp(argv[1], "help")) {
		merge_usage(stdout);
		return EX_OK;
	}
	getopt_restart();
	while ((c = getopt_long(argc, argv, "d:o:jph", lopts, NULL)) != -1) {
		switch (c) {
		/* -d as every command takes a DB: one more input. */
		case 'd':
			in = xrealloc(in, (nin + 1) * sizeof(*in));
			in[nin++] = optarg;
			break;
		case 'o': out = optarg; break;
		case 'j': cfg.json = true; break;
		case 'p': cfg.json = cfg.pretty = true; break;
		case 'h': merge_usage(stdout); ret = EX_OK; goto out;
		default: merge_usage(stderr); goto out;
		}
	}
	in = xrealloc(in, (nin + argc - optind + 1) * sizeof(*in));
	for (i = optind; i < argc; i++)
		in[nin++] = argv[i];
	if (!out || !nin) {
		fprintf(stderr, "abidep: merge needs %s (abidep merge A.db B.db ... -o OUT.db; see abidep merge --help)\n",
			!out ? "the output, -o OUT.db" : "at least one input DB");
		goto out;
	}
	out_exists = !stat(out, &out_st);
	if (!out_exists && errno != ENOENT) {
		fprintf(stderr, "abidep: merge: cannot use the output %s: %s\n", out, strerror(errno));
		ret = EX_DB;
		goto out;
	}
	if (out_exists && !S_ISREG(out_st.st_mode)) {
		fprintf(stderr, "abidep: merge: the output %s is not a regular file; name a DB file with -o\n", out);
		goto out;
	}
	for (i = 0; i < nin; i++) {
		/* A missing input is store_open()'s to report, in order. */
		if (out_exists && !stat(in[i], &st) && same_file(&st, &out_st)) {
			fprintf(stderr, "abidep: merge: refusing to merge into one of the inputs (%s is the output %s): name another output with -o\n",
				in[i], out);
			goto out;
		}
	}
	/* From here on, what fails is reading or writing a DB. */
	ret = EX_DB;

	/* The temporary file: in OUT's directory, so that rename() is atomic. */
	dir = xstrdup(out);
	base = xstrdup(out);
	tmp_path = xasprintf("%s/.%s.merge-XXXXXX", dirname(dir), basename(base));
	free(base);
	free(dir);
	dir = xstrdup(tmp_path);
	*strrchr(dir, '/') = '\0';
	fd = mkstemp(tmp_path);
	if (fd < 0) {
		fprintf(stderr, "abidep: merge: cannot create a temporary file in %s for %s: %s; check the directory, or name another output with -o\n",
			dir, out, strerror(errno));
		free(tmp_path);
		tmp_path = NULL;
		goto out;
	}
	close(fd);
	tmp_wal = xasprintf("%s-wal", tmp_path);
	tmp_shm = xasprintf("%s-shm", tmp_path);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);

	m.out = store_open(tmp_path, false, err, sizeof(err));
	if (!m.out) {
		fprintf(stderr, "abidep: merge: %s\n", err);
		goto out;
	}
	if (store_begin(m.out)) {
		fprintf(stderr, "abidep: merge: cannot write %s: %s\n", tmp_path, store_errmsg(m.out));
		goto out;
	}
	if (out_exists) {
		/*
		 * Read OUT through a writer: when it closes, SQLite folds OUT's
		 * WAL into it and removes it, so that no -wal file of the old
		 * OUT is left to be read with the new one.
		 */
		struct store *o = store_open(out, false, err, sizeof(err));

		if (!o) {
			fprintf(stderr, "abidep: merge: the output is not a usable usage DB (it is merged into, not overwritten): %s\n",
				err);
			goto fail;
		}
		int failed = merge_store(&m, o, out, out);

		store_close(o);
		if (failed)
			goto fail;
	}
	rows = xcalloc(nin, sizeof(*rows));
	for (i = 0; i < nin; i++) {
		if (merge_one(&m, in[i], out))
			goto fail;
		rows[i] = m.rows;
	}
	if (store_commit(m.out)) {
		fprintf(stderr, "abidep: merge: cannot write %s: %s\n", tmp_path, store_errmsg(m.out));
		goto fail;
	}
	total = store_rows(m.out);
	/* The last connection's close moves the WAL into the file. */
	store_close(m.out);
	m.out = NULL;
	wal = xasprintf("%s-wal", out);
	if (!access(tmp_wal, F_OK) || !access(wal, F_OK)) {
		fprintf(stderr, "abidep: merge: %s is in use by another process (%s exists); stop it, or merge into another file\n",
			access(wal, F_OK) ? tmp_path : out, access(wal, F_OK) ? tmp_wal : wal);
		goto fail;
	}
	if (sync_path(tmp_path, O_RDONLY) || rename(tmp_path, out)) {
		fprintf(stderr, "abidep: merge: cannot replace %s with the merged DB %s: %s\n",
			out, tmp_path, strerror(errno));
		goto fail;
	}
	free(tmp_path);
	tmp_path = NULL;
	sync_path(dir, O_RDONLY | O_DIRECTORY);	/* the rename; best effort */
	print_summary(&m, out, in, nin, rows, total);
	ret = EX_OK;
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
	tmp_path = tmp_wal = tmp_shm = NULL;
	for (i = 0; i < m.nhosts; i++)
		free(m.hosts[i]);
	free(m.hosts);
	free(rows);
	free(wal);
	free(dir);
	free(in);
	return ret;
}
