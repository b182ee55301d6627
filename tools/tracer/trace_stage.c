// SPDX-License-Identifier: GPL-2.0
/*
 * abidep trace: how early in its boot a session began. Boot is where
 * removing a sysfs file has broken machines (udev rules reading attributes
 * at coldplug, early units), and a tracer pinned after them never sees
 * those readers. The stage is taken when the tracer is loaded:
 *
 *	initramfs  the root is the kernel's rootfs (an initramfs not yet left
 *		   by switch_root: initramfs-tools', which has no marker
 *		   file), or /etc/initrd-release exists (systemd's and
 *		   dracut's marker of an initrd)
 *	early      udev has not started: no /run/udev/control (the socket
 *		   systemd-udevd-control.socket makes before udevd starts)
 *	late       after it: udev's coldplug may have run unseen
 *
 * with a reading of the clocks at the load (bootclock.h: CLOCK_BOOTTIME,
 * how long after boot, and the wall clock with whether it was
 * synchronized). A live tracer takes them at its start. --pin records
 * them in PIN_STAGE with the session they belong to, for the syncs after
 * it: --pin --early writes no DB (at early boot /var may not be mounted),
 * and the first sync records the session from the pin's boottime, placed
 * by the boot's best mapping, and the pin's reading among the session's.
 * A sync finding no record (a pin of an older abidep, or of another
 * session) leaves the stage unknown.
 *
 * The record's first line is "SESSION STAGE WALL BOOT_S BOOTTIME WALL_NS
 * SYNCED": an abidep of before schema 8 read the first four, and writes
 * those alone (BOOTTIME then unknown).
 *
 * The record also keeps how many files of each What the pin watched: a
 * pinned tracer watches the files there are (a device's appear when it is
 * added), and the set is refreshed at each sync only. The syncs write
 * those counts as the session's watched runs from the pin's time on, so
 * that a What whose files appeared between the pin and the first sync
 * (unwatched then: at boot, udev's coldplug adds most devices) shows as
 * not watched from the pin, never as watched all along (abidep check).
 * Each refresh's counts follow a line "@WALL BOOTTIME WALL_NS SYNCED", its
 * reading of the clocks ("@WALL" alone from an older abidep).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <errno.h>
#include <limits.h>
#include <unistd.h>

#include "trace.h"
#include "util.h"

#define PIN_STAGE	RUN_DIR "/pinned-stage"

static const char *const stages[] = { STAGE_INITRAMFS, STAGE_EARLY, STAGE_LATE };

/* Whether this process's root is the kernel's rootfs (mountinfo's "/"). */
static bool root_is_rootfs(void)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char line[4096], mnt[8], fstype[16];
	bool yes = false;

	if (!f)
		return false;
	/* id parent major:minor root mount-point options... - fstype source */
	while (!yes && fgets(line, sizeof(line), f)) {
		char *sep = strstr(line, " - ");

		yes = sep && sscanf(line, "%*s %*s %*s %*s %7s", mnt) == 1 &&
		      !strcmp(mnt, "/") && sscanf(sep, " - %15s", fstype) == 1 &&
		      !strcmp(fstype, "rootfs");
	}
	fclose(f);
	return yes;
}

void stage_now(struct tracer *tr)
{
	if (root_is_rootfs() || !access("/etc/initrd-release", F_OK))
		tr->stage = STAGE_INITRAMFS;
	else if (access("/run/udev/control", F_OK))
		tr->stage = STAGE_EARLY;
	else
		tr->stage = STAGE_LATE;
	if (clock_read(&tr->pinned)) {
		tr->pinned = (struct clock_reading){ .wall = time(NULL) * NSEC_PER_SEC };
		tr->boot_offset = -1;
		return;
	}
	tr->boot_offset = tr->pinned.boottime / NSEC_PER_SEC;
}

/* A reading's fields in the record, after its unix seconds. */
static void reading_print(FILE *f, const struct clock_reading *r)
{
	fprintf(f, " %lld %lld %d", r->boottime, r->wall, r->synced);
}

/* More lines than any tables have Whats: not a record --pin wrote. */
#define PIN_WATCH_MAX	65536

int pin_stage_save(const struct tracer *tr)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	int i, ret;

	if (!f)
		return run_file_save(PIN_STAGE, "", "the pin's boot stage");
	fprintf(f, "%s %s %lld %lld", tr->session, tr->stage, tr->pinned.wall / NSEC_PER_SEC,
		tr->boot_offset);
	reading_print(f, &tr->pinned);
	fputc('\n', f);
	/* A What is a path from the tables: no tab, no newline (abi_parse.c). */
	for (i = 0; tr->watch_known && i < tr->nwatch; i++)
		fprintf(f, "%lld\t%s\n", tr->watch[i].files, tr->watch[i].what);
	ret = fclose(f) ? -1 : run_file_save(PIN_STAGE, text, "the pin's boot stage");
	free(text);
	return ret;
}

/* A refresh of the pin's watched set: its counts, after the record's. */
int pin_stage_refresh(const struct tracer *tr)
{
	struct clock_reading now;
	FILE *f;
	int i;

	/* Only to this session's record (pin_stage_load() found it). */
	if (!tr->npin_watch)
		return 0;
	if (clock_read(&now)) {
		fprintf(stderr, "abidep: cannot read the clocks: %s\n", strerror(errno));
		return -1;
	}
	f = fopen(PIN_STAGE, "a");
	if (!f) {
		fprintf(stderr, "abidep: cannot add to %s: %s\n", PIN_STAGE, strerror(errno));
		return -1;
	}
	fprintf(f, "@%lld", now.wall / NSEC_PER_SEC);
	reading_print(f, &now);
	fputc('\n', f);
	for (i = 0; tr->watch_known && i < tr->nwatch; i++)
		fprintf(f, "%lld\t%s\n", tr->watch[i].files, tr->watch[i].what);
	return fclose(f);
}

/*
 * A reading of the record after its unix seconds @wall_s: "BOOTTIME
 * WALL_NS SYNCED", or nothing (an older abidep's: the wall time alone).
 * 0, or -1 for a line out of form.
 */
static int reading_parse(const char *s, long long wall_s, struct clock_reading *r)
{
	long long bt, wall;
	int synced, n = -1;

	*r = (struct clock_reading){ .wall = wall_s * NSEC_PER_SEC };
	if (*s == '\n' || !*s)
		return 0;
	if (sscanf(s, " %lld %lld %d%n", &bt, &wall, &synced, &n) != 3 || n < 0 ||
	    (s[n] != '\n' && s[n]) || bt <= 0 || (synced != 0 && synced != 1))
		return -1;
	*r = (struct clock_reading){ .boottime = bt, .wall = wall, .synced = synced };
	return 0;
}

/* The files of each What the pin watched: the record's lines after the first. */
static void pin_watch_load(struct tracer *tr, FILE *f)
{
	char line[PATH_MAX + 32], *tab, *end;
	struct clock_reading at = tr->pinned, r;
	struct store_watch *w;
	long long files;

	while (tr->npin_watch < PIN_WATCH_MAX && fgets(line, sizeof(line), f)) {
		/* "@TIME [READING]": the counts of a refresh then follow. */
		if (line[0] == '@') {
			files = strtoll(line + 1, &end, 10);
			if (end != line + 1 && !reading_parse(end, files, &r) &&
			    (r.boottime ? r.boottime >= at.boottime : r.wall >= at.wall))
				at = r;
			continue;
		}
		tab = strchr(line, '\t');
		end = strchr(line, '\n');
		if (!tab || !end)
			continue;
		*tab = *end = '\0';
		files = strtoll(line, &end, 10);
		if (*end || files < 0 || tab[1] != '/')
			continue;
		/* pin_watch_at[] beside pin_watch[]: GROW() counts for one. */
		if (tr->npin_watch == tr->pin_at_cap) {
			tr->pin_at_cap = tr->pin_at_cap ? 2 * tr->pin_at_cap : 16;
			tr->pin_watch_at = xrealloc(tr->pin_watch_at,
						    tr->pin_at_cap * sizeof(*tr->pin_watch_at));
		}
		tr->pin_watch_at[tr->npin_watch] = at;
		w = GROW(tr->pin_watch, tr->npin_watch, tr->pin_wcap);
		w->what = xstrdup(tab + 1);
		w->files = files;
	}
}

void pin_stage_load(struct tracer *tr)
{
	char session[sizeof(tr->session)], stage[16], rest[128];
	long long at, offset;
	struct clock_reading r;
	FILE *f = fopen(PIN_STAGE, "r");
	size_t i;
	int n;

	if (!f)
		return;
	rest[0] = '\0';
	n = fscanf(f, "%95s %15s %lld %lld%127[^\n]", session, stage, &at, &offset, rest);
	/* Another session's (a pin since stopped), or not ours: unknown. */
	if (n < 4 || strcmp(session, tr->session) || at <= 0 || reading_parse(rest, at, &r)) {
		fclose(f);
		return;
	}
	for (i = 0; i < sizeof(stages) / sizeof(stages[0]); i++)
		if (!strcmp(stage, stages[i])) {
			tr->stage = stages[i];
			tr->pinned = r;
			tr->boot_offset = offset < 0 ? -1 : offset;
		}
	if (tr->stage && fgetc(f) == '\n')
		pin_watch_load(tr, f);
	fclose(f);
}

void pin_stage_forget(void)
{
	unlink(PIN_STAGE);
}
