// SPDX-License-Identifier: GPL-2.0
/*
 * abidep brownout: rehearse the removal of a module alias. The module does
 * the work (kmod/brownout.c): for the window, reads and writes of the
 * entry's aliases fail (or the files vanish), then everything is put back.
 * The programs that still depend on the old name fail meanwhile, and the
 * tracer records the failures against them (abidep report, ERRORS).
 *
 *	abidep brownout ENTRY --for DURATION [--mode fail|hide] [--wait]
 *	abidep brownout ENTRY --off
 *	abidep brownout --status [-j|-p]
 *
 * The window is the kernel's: the command returns at once unless --wait.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "main.h"
#include "duration.h"
#include "json.h"
#include "util.h"

#define CONTROL "/sys/kernel/abidep/brownout"
#define MODDIR "/sys/kernel/abidep"
#define STATE "/sys/kernel/debug/abidep/state"

/* One line of the state file, the fields this command uses. */
struct bentry {
	char *old, *new, *class, *owner, *mode;
	char *name;		/* CLASS/OLD or OWNER/OLD, as the module qualifies */
	long long until;	/* -1: no window */
	long long failed, errors, aliases;
};

struct bstate {
	struct bentry *e;
	int n, cap;
};

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = 1;
}

void brownout_usage(FILE *f)
{
	fprintf(f,
		"Usage: abidep brownout ENTRY --for DURATION [--mode fail|hide] [--wait]\n"
		"       abidep brownout ENTRY --off\n"
		"       abidep brownout --status [-j|-p]\n"
		"\n"
		"Rehearses the removal of a module alias (root only; needs abidep.ko): for\n"
		"DURATION the entry's old name stops working, then it is put back. The\n"
		"programs that still use it fail meanwhile; with 'abidep trace' running,\n"
		"'abidep report' counts their failures (ERRORS) against each of them.\n"
		"\n"
		"  ENTRY            the entry's old name (current_protocol), or CLASS/OLD\n"
		"                   or MODULE/OLD when the old name alone names several\n"
		"                   (rc/current_protocol); --status lists them\n"
		"  --for DURATION   N, Ns, Nm or Nh (30s, 5m, 2h); at most 24h\n"
		"  --mode fail      (default) reads and writes of the old name return\n"
		"                   ENODEV, as a removed file does to a program holding it\n"
		"                   open: failures are counted, by the module and tracer\n"
		"  --mode hide      the old name's files are removed, as in a real removal\n"
		"                   (opens fail with ENOENT); nothing can count those\n"
		"  --wait           stay until the window ends and print how many accesses\n"
		"                   failed; ^C ends the window early\n"
		"  --off            end the entry's window now\n"
		"  --status         every entry and its window (needs debugfs)\n"
		"  -j, --json, -p, --pretty  --status in JSON; -h, --help\n"
		"\n"
		"Without --wait the command returns at once: the module ends the window.\n"
		"\n");
	abidep_exit_help(f, NULL, EXB(EXIT_USAGE) | EXB(EXIT_PERM) | EXB(EXIT_NOMOD) |
			 EXB(EXIT_ENTRY) | EXB(EXIT_BUSY));
}

/* ---- the state file ---- */

/* Undo the state file's \ooo escapes, in place. */
static void unescape(char *s)
{
	char *o = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '7' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			s += 4;
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
}

static long long num(const char *s)
{
	char *end;
	long long v;

	if (!s || !*s || !strcmp(s, "-"))
		return -1;
	v = strtoll(s, &end, 10);
	return *end ? -1 : v;
}

static void parse_line(struct bstate *bs, char *line)
{
	struct bentry e = { .until = -1 };
	char *tok, *save = NULL;

	for (tok = strtok_r(line, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *v = strchr(tok, '=');

		if (!v)
			continue;
		*v++ = '\0';
		unescape(v);
		if (!strcmp(tok, "old"))
			e.old = xstrdup(v);
		else if (!strcmp(tok, "new"))
			e.new = xstrdup(v);
		else if (!strcmp(tok, "class"))
			e.class = xstrdup(v);
		else if (!strcmp(tok, "owner"))
			e.owner = xstrdup(v);
		else if (!strcmp(tok, "brownout"))
			e.mode = xstrdup(v);
		else if (!strcmp(tok, "brownout_until"))
			e.until = num(v);
		else if (!strcmp(tok, "brownout_failed"))
			e.failed = num(v);
		else if (!strcmp(tok, "errors"))
			e.errors = num(v);
		else if (!strcmp(tok, "aliases"))
			e.aliases = num(v);
	}
	if (!e.old || !e.class || !e.owner) {
		free(e.old);
		free(e.new);
		free(e.class);
		free(e.owner);
		free(e.mode);
		return;
	}
	if (!e.mode)
		e.mode = xstrdup("?");	/* a module without brownouts */
	/* "-": an entry a driver declared; the module qualifies it by owner. */
	e.name = xasprintf("%s/%s", strcmp(e.class, "-") ? e.class : e.owner, e.old);
	*GROW(bs->e, bs->n, bs->cap) = e;
}

static void state_free(struct bstate *bs)
{
	int i;

	for (i = 0; i < bs->n; i++) {
		free(bs->e[i].old);
		free(bs->e[i].new);
		free(bs->e[i].class);
		free(bs->e[i].owner);
		free(bs->e[i].mode);
		free(bs->e[i].name);
	}
	free(bs->e);
	memset(bs, 0, sizeof(*bs));
}

/* Read the state file; 0, or -1 with errno set. */
static int state_read(struct bstate *bs)
{
	FILE *f = fopen(STATE, "r");
	char *buf, *line, *save = NULL;
	size_t len;

	memset(bs, 0, sizeof(*bs));
	if (!f)
		return -1;
	buf = read_all(f, 64 << 20, &len);
	fclose(f);
	if (!buf)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (line[0] != '#')
			parse_line(bs, line);
	free(buf);
	return 0;
}

/* Does @name (OLD or QUAL/OLD) name @e? As the module decides. */
static bool names(const struct bentry *e, const char *name)
{
	return !strcmp(e->name, name) || !strcmp(e->old, name);
}

static void list_entries(const struct bstate *bs, const char *name)
{
	int i, n = 0;

	for (i = 0; i < bs->n; i++) {
		if (name && !names(&bs->e[i], name))
			continue;
		fprintf(stderr, "%s%s", n++ ? ", " : "", bs->e[i].name);
	}
	fprintf(stderr, "%s\n", n ? "" : "(none)");
}

/* ---- the control ---- */

/* Why the control cannot be used, said; an exit code. */
static int control_missing(int err)
{
	if (err == EACCES || err == EPERM) {
		fprintf(stderr, "abidep: %s: %s: brownouts need root\n", CONTROL, strerror(err));
		return EXIT_PERM;
	}
	if (err == ENOENT && access(MODDIR, F_OK)) {
		fprintf(stderr, "abidep: the abidep module is not loaded (%s is missing): run 'modprobe abidep' first\n",
			MODDIR);
		return EXIT_NOMOD;
	}
	if (err == ENOENT) {
		fprintf(stderr, "abidep: the loaded abidep module has no brownout control (%s is missing): load a newer one\n",
			CONTROL);
		return EXIT_NOMOD;
	}
	fprintf(stderr, "abidep: cannot open %s: %s\n", CONTROL, strerror(err));
	return EXIT_FAIL;
}

/* Write one line to the control; an exit code, the error said. */
static int control_write(const char *name, const char *line)
{
	struct bstate bs;
	ssize_t n;
	int fd, err;

	fd = open(CONTROL, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return control_missing(errno);
	n = write(fd, line, strlen(line));
	err = errno;
	close(fd);
	if (n == (ssize_t)strlen(line))
		return EXIT_OK;
	if (n >= 0) {
		fprintf(stderr, "abidep: %s took %zd of %zu bytes\n", CONTROL, n, strlen(line));
		return EXIT_FAIL;
	}
	switch (err) {
	case ENOENT:
	case ENOTUNIQ:
		if (err == ENOENT)
			fprintf(stderr, "abidep: no entry '%s' in the abidep module. Known entries: ", name);
		else
			fprintf(stderr, "abidep: '%s' names several entries; use one of: ", name);
		if (state_read(&bs)) {
			fprintf(stderr, "(cannot read %s: %s; mount debugfs to list them)\n",
				STATE, strerror(errno));
			return EXIT_ENTRY;
		}
		list_entries(&bs, err == ENOENT ? NULL : name);
		state_free(&bs);
		return EXIT_ENTRY;
	case EBUSY:
		fprintf(stderr, "abidep: %s is already in a brownout window: end it with 'abidep brownout %s --off' first\n",
			name, name);
		return EXIT_BUSY;
	case EACCES:
	case EPERM:
		return control_missing(err);
	default:
		fprintf(stderr, "abidep: writing '%.*s' to %s: %s\n",
			(int)strcspn(line, "\n"), line, CONTROL, strerror(err));
		return EXIT_FAIL;
	}
}

/* The entry @name names in the state file, or NULL (said). */
static const struct bentry *find_entry(const struct bstate *bs, const char *name)
{
	const struct bentry *found = NULL;
	int i;

	for (i = 0; i < bs->n; i++) {
		if (!names(&bs->e[i], name))
			continue;
		if (found)
			return NULL;
		found = &bs->e[i];
	}
	return found;
}

/* Poll the state file until @name's window is over; ^C turns it off. */
static int wait_window(const char *name)
{
	struct sigaction sa = { .sa_handler = on_signal };
	const struct bentry *e;
	struct bstate bs;
	char *off;
	int ret;

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	for (;;) {
		if (state_read(&bs)) {
			if (errno == ENOENT && access(MODDIR, F_OK)) {
				printf("brownout of %s: over, the abidep module unloaded\n", name);
				return EXIT_OK;
			}
			fprintf(stderr, "abidep: cannot read %s to wait: %s (the window goes on)\n",
				STATE, strerror(errno));
			return EXIT_FAIL;
		}
		e = find_entry(&bs, name);
		if (!e) {
			printf("brownout of %s: the entry is gone (its module unloaded)\n", name);
			state_free(&bs);
			return EXIT_OK;
		}
		if (!strcmp(e->mode, "off")) {
			printf("brownout of %s over: %lld accesses failed\n", e->name, e->failed);
			state_free(&bs);
			return EXIT_OK;
		}
		state_free(&bs);
		if (interrupted) {
			off = xasprintf("%s off\n", name);
			ret = control_write(name, off);
			free(off);
			if (ret)
				return ret;
			interrupted = 0;	/* print the count, then stop */
			continue;
		}
		/* A signal cuts the sleep short: then the window is turned off. */
		sleep(1);
	}
}

static int start(const char *name, unsigned int seconds, const char *mode, bool wait)
{
	struct bstate bs;
	char *line;
	int ret;

	/* --wait follows the window in the state file: make sure it can. */
	if (wait && state_read(&bs)) {
		fprintf(stderr, "abidep: --wait reads %s: %s%s\n", STATE, strerror(errno),
			errno == ENOENT ? " (is debugfs mounted, the module loaded?)" : "");
		return errno == EACCES ? EXIT_PERM : errno == ENOENT ? EXIT_NOMOD : EXIT_FAIL;
	}
	if (wait)
		state_free(&bs);
	line = xasprintf("%s %u %s\n", name, seconds, mode);
	ret = control_write(name, line);
	free(line);
	if (ret)
		return ret;
	printf("brownout of %s: %s for %u s%s\n", name, mode, seconds,
	       wait ? "" : " (the module ends it; --status shows it)");
	fflush(stdout);
	return wait ? wait_window(name) : EXIT_OK;
}

static int status(void)
{
	struct bstate bs;
	struct json j;
	time_t now = time(NULL);
	int i;

	if (state_read(&bs)) {
		int err = errno;

		if (err == ENOENT && access(MODDIR, F_OK)) {
			fprintf(stderr, "abidep: the abidep module is not loaded: run 'modprobe abidep' first\n");
			return EXIT_NOMOD;
		}
		fprintf(stderr, "abidep: cannot read %s: %s%s\n", STATE, strerror(err),
			err == EACCES ? " (root only)" :
			err == ENOENT ? " (mount debugfs: mount -t debugfs none /sys/kernel/debug)" : "");
		return err == EACCES ? EXIT_PERM : EXIT_FAIL;
	}
	if (cfg.json) {
		json_init(&j, stdout, cfg.pretty);
		json_arr_start(&j);
		for (i = 0; i < bs.n; i++) {
			const struct bentry *e = &bs.e[i];

			json_obj_start(&j);
			json_kstr(&j, "entry", e->name);
			json_kstr(&j, "old", e->old);
			json_kstr(&j, "new", e->new);
			json_kstr(&j, "class", strcmp(e->class, "-") ? e->class : NULL);
			json_kstr(&j, "owner", e->owner);
			json_kint(&j, "aliases", e->aliases);
			json_kstr(&j, "brownout", e->mode);
			json_key(&j, "until");
			if (e->until < 0)
				json_null(&j);
			else
				json_int(&j, e->until);
			json_kint(&j, "failed", e->failed);
			json_obj_end(&j);
		}
		json_arr_end(&j);
		json_end(&j);
	} else {
		int w = 5;

		for (i = 0; i < bs.n; i++)
			if ((int)strlen(bs.e[i].name) > w)
				w = strlen(bs.e[i].name);
		printf("%-*s  %-8s  %8s  %8s\n", w, "ENTRY", "BROWNOUT", "LEFT", "FAILED");
		for (i = 0; i < bs.n; i++) {
			const struct bentry *e = &bs.e[i];
			char left[32] = "-";

			if (e->until >= 0)
				snprintf(left, sizeof(left), "%llds",
					 e->until > now ? e->until - (long long)now : 0);
			printf("%-*s  %-8s  %8s  %8lld\n", w, e->name, e->mode, left, e->failed);
		}
	}
	state_free(&bs);
	return EXIT_OK;
}

/* What brownout was asked. */
struct brownout_args {
	const char *dur, *mode, *name;
	bool wait, off, stat, mode_set;
};

/* --off: end @a->name's window. */
static int brownout_off(const struct brownout_args *a)
{
	char *line;
	int ret;

	if (a->dur || a->wait || a->mode_set) {
		fprintf(stderr, "abidep: --off takes no --for, --mode or --wait\n");
		return EXIT_USAGE;
	}
	line = xasprintf("%s off\n", a->name);
	ret = control_write(a->name, line);
	free(line);
	if (!ret)
		printf("brownout of %s: off\n", a->name);
	return ret;
}

/* --for: check the duration and the mode, then open the window. */
static int brownout_for(const struct brownout_args *a)
{
	unsigned int seconds;

	if (!a->dur) {
		fprintf(stderr, "abidep: brownout %s needs --for DURATION (like 30s, 5m, 2h) or --off\n",
			a->name);
		return EXIT_USAGE;
	}
	/* The module's parser and bounds (../kmod/duration.c): what passes, it takes. */
	if (abidep_brownout_seconds(a->dur, &seconds)) {
		fprintf(stderr, "abidep: bad duration '%s': use N, Ns, Nm or Nh (30s, 5m, 2h), from 1s to 24h\n",
			a->dur);
		return EXIT_USAGE;
	}
	if (strcmp(a->mode, "fail") && strcmp(a->mode, "hide")) {
		fprintf(stderr, "abidep: bad --mode '%s': fail or hide\n", a->mode);
		return EXIT_USAGE;
	}
	return start(a->name, seconds, a->mode, a->wait);
}

/* The entry named, after the options: its name, or a usage error. */
static int brownout_entry(int argc, char **argv, struct brownout_args *a)
{
	if (argc - optind != 1) {
		fprintf(stderr, "abidep: brownout needs %s ENTRY (see abidep brownout --help)\n",
			argc - optind ? "exactly one" : "an");
		return EXIT_USAGE;
	}
	a->name = argv[optind];
	if (!*a->name || strcspn(a->name, " \t\n") != strlen(a->name) ||
	    strlen(a->name) > ABIDEP_BROWNOUT_NAME_MAX) {
		fprintf(stderr, "abidep: '%s' is not an entry name: OLD, CLASS/OLD or MODULE/OLD, no spaces\n",
			a->name);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int cmd_brownout(int argc, char **argv)
{
	enum { O_FOR = 256, O_MODE, O_WAIT, O_OFF, O_STATUS };
	static const struct option lopts[] = {
		{ "for", required_argument, NULL, O_FOR },
		{ "mode", required_argument, NULL, O_MODE },
		{ "wait", no_argument, NULL, O_WAIT },
		{ "off", no_argument, NULL, O_OFF },
		{ "status", no_argument, NULL, O_STATUS },
		{ 0 }
	};
	static const struct cmd_opts spec = { "", lopts, 0, 0, brownout_usage };
	struct brownout_args a = { .mode = "fail" };
	struct opts o;
	int c, ret;

	opts_start(&o, &spec);
	while ((c = opts_next(&o, argc, argv)) != -1) {
		switch (c) {
		case O_FOR: a.dur = optarg; break;
		case O_MODE: a.mode = optarg; a.mode_set = true; break;
		case O_WAIT: a.wait = true; break;
		case O_OFF: a.off = true; break;
		case O_STATUS: a.stat = true; break;
		}
	}
	ret = opts_end(&o, EXIT_OK);
	if (ret >= 0)
		return ret;
	if (a.stat) {
		if (optind != argc || a.dur || a.off || a.wait || a.mode_set) {
			fprintf(stderr, "abidep: brownout --status takes no entry and no other option (see abidep brownout --help)\n");
			return EXIT_USAGE;
		}
		return status();
	}
	ret = brownout_entry(argc, argv, &a);
	if (ret)
		return ret;
	return a.off ? brownout_off(&a) : brownout_for(&a);
}
