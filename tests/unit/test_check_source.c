// SPDX-License-Identifier: GPL-2.0
/*
 * check's evaluation over a usage source of its own (usage_source.h): a
 * second implementation beside the store's, from arrays, as a package-file
 * scan would be one. Each test judges one entry from the rows, sessions,
 * watched runs and days given, and looks at the model the printers print.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "abi.h"
#include "check_eval.h"
#include "owner.h"
#include "usage_source.h"
#include "check.h"

#define WHAT	"/sys/class/foo/bar"
#define DAY	86400LL
#define NOW	1717200000LL	/* 2024-06-01 00:00 UTC */

static const char table[] =
	"What:\t\t" WHAT "\n"
	"Date:\t\tJanuary 2020\n"
	"Contact:\tnobody@example.org\n"
	"Status:\t\tdeprecated\n"
	"Remove-after:\t2021-01\n"
	"Replaced-by:\tnone\n"
	"Description:\n"
	"\tA file no one should need.\n";

/* The source: arrays, and what the evaluation did with it. */
struct fake {
	const struct usage_row *rows;
	int nrows;
	const struct usage_session *sessions;
	int nsessions;
	const struct usage_day *days;
	int ndays;
	const struct usage_clock *clocks;
	int nclocks;
	bool fail_rows;		/* the row walk fails */
	int begun, ended, failed_ends, closed;
};

static struct fake *fake_of(struct usage_source *src)
{
	return src->priv;
}

static int fake_begin(struct usage_source *src)
{
	fake_of(src)->begun++;
	return 0;
}

static int fake_end(struct usage_source *src, bool failed)
{
	fake_of(src)->ended++;
	fake_of(src)->failed_ends += failed;
	return failed ? -1 : 0;
}

static int fake_rows(struct usage_source *src, long long since,
		     int (*fn)(const struct usage_row *r, const struct usage_counts *recent,
			       void *arg),
		     void *arg)
{
	struct fake *f = fake_of(src);
	int i, ret = 0;

	if (f->fail_rows)
		return -1;
	for (i = 0; i < f->nrows && !ret; i++)
		ret = fn(&f->rows[i], NULL, arg);
	return ret;
}

static int fake_sessions(struct usage_source *src,
			 int (*fn)(const struct usage_session *u, void *arg), void *arg)
{
	struct fake *f = fake_of(src);
	int i, ret = 0;

	for (i = 0; i < f->nsessions && !ret; i++)
		ret = fn(&f->sessions[i], arg);
	return ret;
}

/* Each session watched WHAT's file from its start to its last sync. */
static int fake_watched(struct usage_source *src,
			int (*fn)(const struct usage_watched *w, void *arg), void *arg)
{
	struct fake *f = fake_of(src);
	int i, ret = 0;

	for (i = 0; i < f->nsessions && !ret; i++) {
		const struct usage_session *u = &f->sessions[i];
		struct usage_watched w = {
			.host = u->host, .session = u->session, .what = WHAT,
			.since = u->started, .last_sync = u->last_sync, .files = 1,
		};

		ret = fn(&w, arg);
	}
	return ret;
}

static int fake_clocks(struct usage_source *src,
		       int (*fn)(const struct usage_clock *c, void *arg), void *arg)
{
	struct fake *f = fake_of(src);
	int i, ret = 0;

	for (i = 0; i < f->nclocks && !ret; i++)
		ret = fn(&f->clocks[i], arg);
	return ret;
}

static bool fake_has_days(struct usage_source *src)
{
	return fake_of(src)->ndays > 0;
}

static int fake_days(struct usage_source *src, const struct store_filter *flt,
		     int (*fn)(const struct usage_day *d, void *arg), void *arg)
{
	struct fake *f = fake_of(src);
	int i, ret = 0;

	for (i = 0; i < f->ndays && !ret; i++)
		ret = fn(&f->days[i], arg);
	return ret;
}

static void fake_error(struct usage_source *src, char *err, size_t errlen)
{
	snprintf(err, errlen, "the fake source failed");
}

static void fake_close(struct usage_source *src)
{
	fake_of(src)->closed++;
}

static const struct usage_source_ops fake_ops = {
	.begin = fake_begin, .end = fake_end, .each_row_since = fake_rows,
	.each_session = fake_sessions, .each_watched = fake_watched, .each_clock = fake_clocks,
	.has_days = fake_has_days, .each_day = fake_days, .error = fake_error,
	.close = fake_close,
};

/* A session of @host from @started to @last_sync, begun early in its boot. */
static struct usage_session session(const char *host, const char *id, long long started,
				    long long last_sync)
{
	return (struct usage_session){
		.host = host, .session = id, .started = started, .last_sync = last_sync,
		.lost_at = STORE_NO_LOSS, .host_id = "machine-id", .stage = STORE_STAGE_EARLY,
		.boot_offset = 1, .first_sync = started,
	};
}

/* A use of WHAT's file by @exe on @host, @count times, the last at @last. */
static struct usage_row row(const char *host, const char *exe, unsigned long long count,
			    long long last)
{
	struct usage_row r = {
		.host = host, .session = "b0000001:1", .path = WHAT, .what = WHAT,
		.table = "t", .status = "deprecated", .op = "read", .exe = exe,
		.comm = "x", .pid = -1, .ppid = -1,
	};

	r.count = count;
	r.first_seen = last - DAY;
	r.last_seen = last;
	return r;
}

/* Judge the table's entry at NOW from @f, reading its days; 0, or -1 with @err. */
static int judge(struct check *c, struct abi_set *set, struct fake *f, char *err,
		 size_t errlen)
{
	struct usage_source src = { .ops = &fake_ops, .priv = f };
	int ret;

	memset(c, 0, sizeof(*c));
	c->now = NOW;
	c->quiet_days = 30;
	c->read_days = true;
	c->owner = owner_new("/nonexistent");
	abi_set_init(set);
	abi_parse_buffer(set, "t", table, strlen(table));
	abi_check(set, false);
	if (check_select(c, set, NULL))
		return -2;
	ret = check_read_usage(c, &src, err, errlen);
	src.ops->close(&src);
	if (!ret)
		check_judge(c);
	return ret;
}

static void done(struct check *c, struct abi_set *set)
{
	check_free(c);
	owner_free(c->owner);
	abi_set_free(set);
}

static void test_ready(void)
{
	struct usage_session s[] = { session("h1", "b0000001:1", NOW - 60 * DAY, NOW - 3600) };
	struct fake f = { .sessions = s, .nsessions = 1 };
	struct abi_set set;
	struct check c;
	char err[256];

	current = "ready";
	CHECK(!judge(&c, &set, &f, err, sizeof(err)));
	CHECK(c.n == 1 && c.entries[0].verdict == V_READY);
	CHECK(c.nshosts == 1 && c.shosts[0].covers && c.shosts[0].nspans == 1);
	CHECK(c.shosts[0].spans[0].start == NOW - 60 * DAY);
	CHECK(f.begun == 1 && f.ended == 1 && !f.failed_ends && f.closed == 1);
	CHECK(!c.has_days && !c.entries[0].days.n);
	done(&c, &set);
}

static void test_blocked(void)
{
	struct usage_session s[] = {
		session("h1", "b0000001:1", NOW - 60 * DAY, NOW - 3600),
		session("h2", "b0000002:1", NOW - 60 * DAY, NOW - 3600),
	};
	/* Rows come ordered by host, as the store gives them. */
	struct usage_row r[] = {
		row("h1", "/usr/bin/cat", 3, NOW - 2 * DAY),
		row("h1", "/usr/bin/old", 1, NOW - 90 * DAY),
		row("h2", "/usr/bin/cat", 4, NOW - DAY),
	};
	struct usage_day d[] = {
		{ .what = WHAT, .exe = "/usr/bin/cat", .op = "read", .host = "h1",
		  .day = NOW - 2 * DAY, .count = 3 },
		{ .what = "/sys/not/selected", .exe = "/usr/bin/cat", .op = "read",
		  .host = "h1", .day = NOW - 2 * DAY, .count = 9 },
	};
	struct fake f = { .rows = r, .nrows = 3, .sessions = s, .nsessions = 2, .days = d,
			  .ndays = 2 };
	const struct check_entry *ce;
	struct abi_set set;
	struct check c;
	char err[256];

	current = "blocked";
	CHECK(!judge(&c, &set, &f, err, sizeof(err)));
	ce = &c.entries[0];
	CHECK(ce->verdict == V_BLOCKED && c.rows == 3 && c.nhosts == 2);
	/* A use per (exe, uid, host) in the window; one executable, summed. */
	CHECK(ce->nuses == 2 && ce->nuse_exes == 1);
	CHECK(ce->use_exes[0].n == 2 && ce->use_exes[0].nhosts == 2);
	CHECK(ce->use_exes[0].sum.count == 7 && ce->use_exes[0].recent == -1);
	CHECK(ce->use_exes[0].sum.last_seen == NOW - DAY);
	CHECK(ce->last_use == NOW - DAY);
	/* Days of the entry only, in the source's order. */
	CHECK(c.has_days && ce->days.n == 1 && ce->days.rows[0].count == 3);
	done(&c, &set);
}

static void test_no_data(void)
{
	/* The tracer stopped ten days ago: the window is not covered. */
	struct usage_session s[] = {
		session("h1", "b0000001:1", NOW - 60 * DAY, NOW - 10 * DAY),
	};
	struct fake f = { .sessions = s, .nsessions = 1 };
	struct abi_set set;
	struct check c;
	char err[256];

	current = "no-data";
	CHECK(!judge(&c, &set, &f, err, sizeof(err)));
	CHECK(c.entries[0].verdict == V_NO_DATA && c.nuncovered == 1);
	CHECK(!c.shosts[0].ran && c.entries[0].reason &&
	      strstr(c.entries[0].reason, "did not run through the quiet window"));
	done(&c, &set);
}

/*
 * A session of @host placed by its boot's readings: booted at @booted (the
 * mapping, unix seconds), from @start to @end seconds after boot.
 */
static struct usage_session clocked(const char *host, const char *id, long long booted,
				    long long start, long long end)
{
	struct usage_session u = session(host, id, booted + start, booted + end);

	u.started_bt = u.first_sync_bt = start * NSEC_PER_SEC;
	u.last_sync_bt = end * NSEC_PER_SEC;
	u.clock_offset = booted;
	return u;
}

/* A reading of @session's clocks @bt seconds after boot, the wall clock saying @wall. */
static struct usage_clock reading(const char *host, const char *id, long long bt,
				  long long wall, bool synced)
{
	return (struct usage_clock){
		.host = host, .session = id,
		.r = { bt * NSEC_PER_SEC, wall * NSEC_PER_SEC, synced },
	};
}

/*
 * A boot whose clock, never synchronized, was right, then set back 60
 * days (a later reading): its times are placed by the last reading, a
 * use 60 days back; but it may have been now. Blocked, and the host
 * covers nothing (its clock, not its tracer, is wrong).
 */
static void test_clock_set_back(void)
{
	long long booted = NOW - 40 * DAY, back = booted - 60 * DAY;
	struct usage_session s[] = { clocked("h1", "b0000001:1", back, 100, 40 * DAY) };
	struct usage_clock k[] = {
		reading("h1", "b0000001:1", 100, booted + 100, false),
		reading("h1", "b0000001:1", 40 * DAY - 600, back + 40 * DAY - 600, false),
	};
	struct usage_row r[] = { row("h1", "/usr/bin/reader", 1, back + 40 * DAY - 3600) };
	struct fake f = { .rows = r, .nrows = 1, .sessions = s, .nsessions = 1,
			  .clocks = k, .nclocks = 2 };
	const struct check_host *h;
	struct abi_set set;
	struct check c;
	char err[256];

	current = "clock set back";
	CHECK(!judge(&c, &set, &f, err, sizeof(err)));
	h = &c.shosts[0];
	CHECK(c.entries[0].verdict == V_BLOCKED && c.entries[0].nuses == 1);
	CHECK(!h->covers && h->clock_why && strstr(h->clock_why, "set back 60 days"));
	CHECK(h->nunsynced == 1 && c.nclock_wrong == 1 && c.nunsynced == 1);
	CHECK(h->nboots == 1 && h->boots[0].clock && h->boots[0].clock->nsteps == 1);
	CHECK(h->boots[0].clock->steps[0].seconds == -60 * DAY);
	done(&c, &set);

	/* The same, the reader gone: no-data, naming the clock. */
	f.nrows = 0;
	CHECK(!judge(&c, &set, &f, err, sizeof(err)));
	CHECK(c.entries[0].verdict == V_NO_DATA && c.entries[0].reason &&
	      strstr(c.entries[0].reason, "the wall clock was wrong"));
	done(&c, &set);

	/* Synchronized at its last reading: that one is right, the step a correction. */
	k[1].r.synced = true;
	CHECK(!judge(&c, &set, &f, err, sizeof(err)));
	h = &c.shosts[0];
	CHECK(!h->clock_why && !h->nunsynced && c.entries[0].verdict == V_NO_DATA);
	CHECK(!strstr(c.entries[0].reason, "wall clock"));
	done(&c, &set);
}

/*
 * A boot whose clock was set forward (a use placed later) is placed by
 * its last reading; a boot that overlaps the one before once placed
 * makes the host's clock wrong.
 */
static void test_clock_overlap(void)
{
	long long b1 = NOW - 50 * DAY, b2 = NOW - 20 * DAY;
	struct usage_session s[] = {
		clocked("h1", "b0000001:1", b1, 10, 45 * DAY),
		/* Its RTC wrong: placed 35 days before boot 1 ended. */
		clocked("h1", "b0000002:1", b2 - 20 * DAY, 10, 40 * DAY),
	};
	struct usage_clock k[] = {
		reading("h1", "b0000001:1", 10, b1 + 10, true),
		reading("h1", "b0000002:1", 10, b2 - 20 * DAY + 10, false),
	};
	struct fake f = { .sessions = s, .nsessions = 2, .clocks = k, .nclocks = 2 };
	const struct check_host *h;
	struct abi_set set;
	struct check c;
	char err[256];

	current = "clock overlap";
	CHECK(!judge(&c, &set, &f, err, sizeof(err)));
	h = &c.shosts[0];
	CHECK(h->clock_why && strstr(h->clock_why, "boots b0000001 and b0000002 overlap by 35 days"));
	CHECK(!h->covers && c.entries[0].verdict == V_NO_DATA);
	done(&c, &set);

	/* Its clock right: boot 2 begins after boot 1 ended; covered, ready. */
	s[1] = clocked("h1", "b0000002:1", b1 + 45 * DAY + 60, 10, 5 * DAY - 3600);
	k[1] = reading("h1", "b0000002:1", 10, b1 + 45 * DAY + 70, true);
	CHECK(!judge(&c, &set, &f, err, sizeof(err)));
	h = &c.shosts[0];
	CHECK(!h->clock_why && h->covers && c.entries[0].verdict == V_READY);
	done(&c, &set);
}

/*
 * Boot 2's RTC two hours behind from its start, and both boots short:
 * boot 2 is placed before boot 1 began, overlapping nothing, but the
 * host's DB saw it second (seq): out of order, the clock wrong. Without
 * the order (a DB that has none), the spans alone, which do not meet.
 */
static void test_clock_order(void)
{
	long long b1 = NOW - DAY;
	struct usage_session s[] = {
		clocked("h1", "b0000001:1", b1, 10, 600),
		clocked("h1", "b0000002:1", b1 + 700 - 7200, 10, 600),
	};
	struct usage_clock k[] = {
		reading("h1", "b0000001:1", 10, b1 + 10, false),
		reading("h1", "b0000002:1", 10, b1 + 710 - 7200, false),
	};
	struct fake f = { .sessions = s, .nsessions = 2, .clocks = k, .nclocks = 2 };
	struct abi_set set;
	struct check c;
	char err[256];

	current = "clock order";
	s[0].seq = 1;
	s[1].seq = 2;
	CHECK(!judge(&c, &set, &f, err, sizeof(err)));
	CHECK(c.shosts[0].clock_why &&
	      strstr(c.shosts[0].clock_why, "boots b0000001 and b0000002 overlap by 1 h 58 min"));
	done(&c, &set);
	s[0].seq = s[1].seq = 0;
	CHECK(!judge(&c, &set, &f, err, sizeof(err)));
	CHECK(!c.shosts[0].clock_why);
	done(&c, &set);
	/* Two boots of one seq (a DB started anew, merged with the old): no order either. */
	s[0].seq = s[1].seq = 1;
	CHECK(!judge(&c, &set, &f, err, sizeof(err)));
	CHECK(!c.shosts[0].clock_why);
	done(&c, &set);
}

static void test_failure(void)
{
	struct fake f = { .fail_rows = true };
	struct abi_set set;
	struct check c;
	char err[256] = "";

	current = "failure";
	CHECK(judge(&c, &set, &f, err, sizeof(err)) == -1);
	CHECK(!strcmp(err, "the fake source failed"));
	CHECK(f.begun == 1 && f.ended == 1 && f.failed_ends == 1 && f.closed == 1);
	done(&c, &set);
}

int main(void)
{
	test_ready();
	test_blocked();
	test_no_data();
	test_clock_set_back();
	test_clock_overlap();
	test_clock_order();
	test_failure();
	printf("unit: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
