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
 *
 * This file is the command: its options, what it checks first, and the
 * action of each mode. trace.h says which file does the rest.
 */
#include <errno.h>
#include <getopt.h>
#include <linux/capability.h>
#include <linux/magic.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "abi.h"
#include "main.h"
#include "abidep.skel.h"
#include "store.h"
#include "tables_load.h"
#include "trace.h"
#include "util.h"

/* What the command line asks for, besides what goes into struct tracer. */
struct trace_args {
	int mode;		/* 0: live; 'P' --pin, 'Y' --sync, 'S' --stop, 's' --status */
	double interval, duration;
	char **tpaths;		/* --tables, or pinned's paths */
	int ntpaths;
	struct pin_tables pinned;	/* --sync, --stop: the pin's tables */
	bool help;		/* -h: usage printed, nothing else to do */
	bool adopt;		/* --pin --adopt: a tracer pinned already is kept */
};

void trace_usage(FILE *f)
{
	fprintf(f,
		"Usage: abidep trace [-d PATH] [-t PATH]... [-i S] [--duration S] [-q]\n"
		"       abidep trace --pin [--early] [--adopt] [-d PATH] [-t PATH]... [--uid-quota N]\n"
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
		"Each session records how early in its boot it began: in the initramfs,\n"
		"early (before systemd-udevd), or late.\n"
		"\n"
		"      --early          with --pin: write no DB (early boot, before /var is\n"
		"                       mounted); the first --sync records the session\n"
		"      --adopt          with --pin: if a tracer is pinned already (earlier in\n"
		"                       the boot, or in the initramfs), keep it: sync it\n"
		"                       (with --early: check it, no DB) instead of failing\n"
		"  -d, --db PATH        the usage DB (default %s)\n"
		"  -t, --tables PATH    the tables to use (default: %s)\n"
		"  -i, --interval S     foreground: write the DB every S seconds (default 5)\n"
		"      --duration S     foreground: stop after S seconds (default: at ^C)\n"
		"  -q, --quiet          foreground: no line per new user\n"
		"      --max-entries N  the usage map's size: the distinct users one sync\n"
		"                       interval holds (default %d keys, at most %d)\n"
		"      --uid-quota N    the new keys a uid but root may add between two\n"
		"                       syncs (default %d; 0: no bound); the accesses\n"
		"                       refused are counted as not recorded\n"
		"      --slots N        the watched files' index size (a power of two,\n"
		"                       default %d; for testing: files that share a slot\n"
		"                       are found in the watched hash)\n"
		"      --kprobe         kprobes even where fexit works (the fallback where\n"
		"                       it does not; for testing)\n"
		"  -j, --json, -p, --pretty  --status in JSON; -h, --help\n"
		"\n",
		PIN_DIR, DEFAULT_DB, abidep_default_tables(), ABIDEP_MAX_USAGE, USAGE_MAX_KEYS,
		ABIDEP_UID_QUOTA, ABIDEP_SLOTS);
	abidep_exit_help(f, NULL, EXB(EXIT_USAGE) | EXB(EXIT_PERM) | EXB(EXIT_NOBTF) |
			 EXB(EXIT_NOBPFFS) | EXB(EXIT_DB) | EXB(EXIT_LOAD) | EXB(EXIT_PINNED));
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
		return EXIT_PERM;
	}
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		fprintf(stderr, "abidep: this kernel has no BTF (/sys/kernel/btf/vmlinux): the tracer needs CONFIG_DEBUG_INFO_BTF=y\n");
		return EXIT_NOBTF;
	}
	if (need_bpffs && (statfs("/sys/fs/bpf", &fs) || fs.f_type != BPF_FS_MAGIC)) {
		fprintf(stderr, "abidep: no BPF file system on /sys/fs/bpf: mount it (mount -t bpf bpf /sys/fs/bpf)\n");
		return EXIT_NOBPFFS;
	}
	return EXIT_OK;
}

/* A number of seconds for --interval (> 0) or --duration (>= 0). */
static int parse_seconds(int c, const char *arg, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(arg, &end);
	if (errno || *end || !isfinite(*out) || (c == 'i' ? *out <= 0 : *out < 0)) {
		fprintf(stderr, "abidep: --%s takes a positive number of seconds, not '%s'\n",
			c == 'i' ? "interval" : "duration", arg);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* --max-entries (1 to USAGE_MAX_KEYS) or --slots (a power of two to ABIDEP_SLOTS). */
static int parse_map_size(int c, const char *arg, __u32 *out)
{
	unsigned long max = c == 'M' ? USAGE_MAX_KEYS : ABIDEP_SLOTS, v;

	if (parse_uint(arg, 1, max, &v) || (c == 'L' && (v & (v - 1)))) {
		if (c == 'M')
			fprintf(stderr, "abidep: --max-entries takes a number of keys from 1 to %lu, not '%s'\n",
				max, arg);
		else
			fprintf(stderr, "abidep: --slots takes a power of two from 1 to %lu, not '%s'\n",
				max, arg);
		return EXIT_USAGE;
	}
	*out = v;
	return EXIT_OK;
}

/* --uid-quota: 0 (no bound) to the largest map's size. */
static int parse_quota(const char *arg, __u32 *out)
{
	unsigned long v;

	if (parse_uint(arg, 0, ABIDEP_MAX_USAGE, &v)) {
		fprintf(stderr, "abidep: --uid-quota takes a number of keys from 0 (no bound) to %d, not '%s'\n",
			ABIDEP_MAX_USAGE, arg);
		return EXIT_USAGE;
	}
	*out = v;
	return EXIT_OK;
}

/* One of trace's own options (getopt's @c) into @tr or @a. */
static int trace_option(int c, struct tracer *tr, struct trace_args *a)
{
	switch (c) {
	case 'P': case 'S': case 'Y': case 's':
		if (a->mode) {
			fprintf(stderr, "abidep: --pin, --sync, --status and --stop exclude each other\n");
			return EXIT_USAGE;
		}
		a->mode = c;
		return EXIT_OK;
	case 'i': return parse_seconds(c, optarg, &a->interval);
	case 'D': return parse_seconds(c, optarg, &a->duration);
	case 'M': return parse_map_size(c, optarg, &tr->max_usage);
	case 'L': return parse_map_size(c, optarg, &tr->nr_slots);
	case 'Q': return parse_quota(optarg, &tr->uid_quota);
	case 'q': tr->print = false; return EXIT_OK;
	case 'K': tr->kprobe = true; return EXIT_OK;
	case 'E': tr->early = true; return EXIT_OK;
	case 'A': a->adopt = true; return EXIT_OK;
	default: return EXIT_OK;
	}
}

static int trace_args(int argc, char **argv, struct tracer *tr, struct trace_args *a)
{
	static const struct option lopts[] = {
		{ "pin", no_argument, NULL, 'P' },
		{ "stop", no_argument, NULL, 'S' },
		{ "sync", no_argument, NULL, 'Y' },
		{ "status", no_argument, NULL, 's' },
		{ "interval", required_argument, NULL, 'i' },
		{ "duration", required_argument, NULL, 'D' },
		{ "max-entries", required_argument, NULL, 'M' },
		{ "slots", required_argument, NULL, 'L' },
		{ "uid-quota", required_argument, NULL, 'Q' },
		{ "kprobe", no_argument, NULL, 'K' },
		{ "early", no_argument, NULL, 'E' },
		{ "adopt", no_argument, NULL, 'A' },
		{ "quiet", no_argument, NULL, 'q' },
		{ 0 }
	};
	static const struct cmd_opts spec = { "i:q", lopts, OPT_TABLES | OPT_DB, 0,
					      trace_usage };
	struct opts o;
	int c, ret = EXIT_OK;

	opts_start(&o, &spec);
	while (!ret && (c = opts_next(&o, argc, argv)) != -1)
		ret = trace_option(c, tr, a);
	opts_keep(&o, &tr->db_path, &a->tpaths, &a->ntpaths, NULL, NULL, NULL);
	ret = opts_end(&o, ret);
	a->help = ret == EXIT_OK;
	if (ret >= 0)
		return ret;
	if (optind != argc) {
		fprintf(stderr, "abidep: trace takes no argument '%s' (see abidep trace --help)\n",
			argv[optind]);
		return EXIT_USAGE;
	}
	if ((tr->early || a->adopt) && a->mode != 'P') {
		fprintf(stderr, "abidep: --%s goes with --pin only (see abidep trace --help)\n",
			tr->early ? "early" : "adopt");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/*
 * --pin: load, write a first sync (none with --early), pin, and remember
 * the tables and the boot stage; nothing is left pinned on failure.
 */
static int trace_pin(struct tracer *tr, const struct trace_args *a)
{
	int ret = !tr->early && sync_db(tr) < 0 ? EXIT_DB : pin_all(tr);

	if (!ret && (pin_tables_save(a->tpaths, a->ntpaths) || pin_stage_save(tr)))
		ret = EXIT_FAIL;
	if (ret)
		unpin_all();
	return ret;
}

/*
 * --pin --early --adopt, pinned already: no DB; watch the files there are
 * now (devices added since the pin: the initramfs's modules, say) and add
 * their counts to the pin's record; say whose pin it is.
 */
static int trace_adopted(struct tracer *tr)
{
	int ret = open_db(tr);

	if (ret)
		return ret;
	watch_refresh(tr, false);
	if (pin_stage_refresh(tr))
		return EXIT_FAIL;
	fprintf(stderr, "abidep: kept the tracer pinned already under %s (session %s, pinned %s)\n",
		PIN_DIR, tr->session, tr->stage ? tr->stage : "at an unknown stage");
	return EXIT_OK;
}

/* --sync, or --stop: the counts to the DB; --stop then unpins (detaches). */
static int trace_sync(struct tracer *tr, bool stop)
{
	int ret = sync_db(tr) < 0 ? EXIT_DB : EXIT_OK;

	report_drops(tr);
	/* Keep counting rather than lose what could not be written. */
	if (stop && !ret) {
		ret = unpin_all();
		pin_tables_forget();
		pin_stage_forget();
	}
	return ret;
}

/*
 * --sync and --stop watch what the pin was made to watch: its tables,
 * whatever -t says (trace_tables.c); told so when -t names others.
 */
static void pinned_tables(struct trace_args *a)
{
	struct pin_tables *pt = &a->pinned;
	int i;

	if (pin_tables_load(pt))
		return;
	if (a->ntpaths && !pin_tables_same(pt, a->tpaths, a->ntpaths)) {
		fprintf(stderr, "abidep: the pinned tracer watches the tables it was pinned with (");
		for (i = 0; i < pt->n; i++)
			fprintf(stderr, "%s%s", i ? ", " : "", pt->paths[i]);
		fprintf(stderr, "%s), not those of -t: --stop and --pin again to change them\n",
			pt->n ? "" : "the default tables");
	}
	free(a->tpaths);
	a->tpaths = pt->paths;
	a->ntpaths = pt->n;
}

/* Every mode but --status: the tables, the maps, the DB, then the action. */
static int trace_run(struct tracer *tr, struct trace_args *a)
{
	bool pinned = a->mode == 'S' || a->mode == 'Y';
	int ret;

	if (a->mode == 'P' && !access(PIN_DIR "/usage", F_OK)) {
		if (!a->adopt) {
			fprintf(stderr, "abidep: a tracer is pinned already under %s ('abidep trace --stop' first)\n",
				PIN_DIR);
			return EXIT_PINNED;
		}
		/*
		 * Pinned earlier in this boot (bpffs does not outlive it): by
		 * the initramfs, or by the early unit. Pinning again would
		 * lose its counts and its stage; the late unit syncs it.
		 */
		a->mode = tr->early ? 'a' : 'Y';
		pinned = true;
	}
	if (pinned)
		pinned_tables(a);
	/* Tables that cannot be used are bad input, as in every command. */
	if (abidep_load_tables(&tr->tables, a->tpaths, a->ntpaths, true))
		return EXIT_USAGE;
	tr->live = a->mode == 0;
	if (!pinned)
		specials_choose(tr);
	ret = pinned ? open_pinned(tr) : load_bpf(tr);
	if (ret)
		return ret;
	if (pinned)
		files_from_map(tr);
	else
		specials_publish(tr);
	ret = usage_open(tr);
	if (a->mode == 'a')
		return ret ? ret : trace_adopted(tr);
	tr->say_host = a->mode != 'Y';
	/* A pin, or a live tracer: how early in the boot; a sync reads the pin's. */
	if (!pinned)
		stage_now(tr);
	if (!ret)
		ret = open_db(tr);
	if (ret)
		return ret;
	if (a->mode != 'S')
		watch_refresh(tr, a->mode == 0);
	switch (a->mode) {
	case 'P': return trace_pin(tr, a);
	case 'Y': return trace_sync(tr, false);
	case 'S': return trace_sync(tr, true);
	default: return run_live(tr, a->interval, a->duration);
	}
}

static void tracer_init(struct tracer *tr)
{
	int i;

	memset(tr, 0, sizeof(*tr));
	tr->db_path = DEFAULT_DB;
	tr->print = true;
	tr->pin_lock = -1;
	tr->usage_fd = -1;
	tr->max_usage = ABIDEP_MAX_USAGE;
	tr->uid_quota = ABIDEP_UID_QUOTA;
	tr->nr_slots = ABIDEP_SLOTS;
	for (i = 0; i < NR_MAPS; i++)
		tr->fd[i] = -1;
	for (i = 0; i < ABIDEP_NR_SPECIALS; i++)
		tr->special_file[i] = -1;
	cg_cache_init(&tr->cg);
}

static void tracer_free(struct tracer *tr)
{
	int i;

	if (tr->db)
		store_close(tr->db);
	usage_close(tr);
	if (tr->skel)
		abidep_bpf__destroy(tr->skel);
	else
		for (i = 0; i < NR_MAPS; i++)
			if (tr->fd[i] >= 0)
				close(tr->fd[i]);
	slots_unmap(&tr->slots);
	tracer_btf_free(tr);
	if (tr->pin_lock >= 0)
		close(tr->pin_lock);
	for (i = 0; i < tr->nfiles; i++)
		free(tr->files[i].path);
	free(tr->files);
	free(tr->watch);
	for (i = 0; i < tr->npin_watch; i++)
		free((char *)tr->pin_watch[i].what);
	free(tr->pin_watch);
	free(tr->pin_watch_at);
	cg_cache_free(&tr->cg);
	abi_set_free(&tr->tables);
}

int cmd_trace(int argc, char **argv)
{
	struct trace_args a = { .interval = 5 };
	struct tracer tr;
	struct stat st;
	int ret;

	tracer_init(&tr);
	ret = trace_args(argc, argv, &tr, &a);
	if (!ret && !a.help)
		ret = check_env(a.mode != 0);
	/* Watched files must be on sysfs itself (see watch_one()). */
	if (!ret && !a.help && stat("/sys", &st)) {
		perror("abidep: /sys");
		ret = EXIT_FAIL;
	}
	if (!ret && !a.help) {
		tr.sysfs_dev = st.st_dev;
		libbpf_set_print(libbpf_quiet);
		if (a.mode == 's') {
			ret = open_pinned(&tr);
			if (!ret)
				ret = usage_open(&tr);
			if (!ret)
				ret = show_status(&tr, cfg.json, cfg.pretty);
		} else {
			ret = trace_run(&tr, &a);
		}
	}
	tracer_free(&tr);
	if (a.tpaths && a.tpaths == a.pinned.paths)
		pin_tables_free(&a.pinned);
	else
		free(a.tpaths);
	return ret;
}
