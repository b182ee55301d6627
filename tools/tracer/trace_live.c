// SPDX-License-Identifier: GPL-2.0
/*
 * abidep trace in the foreground: a line per new user of a file (the
 * events ring buffer), the watched set following devices as they come and
 * go (uevents), the DB written every interval and at the end.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/netlink.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "exit.h"
#include "trace.h"
#include "uevent.h"

/*
 * Set by SIGINT and SIGTERM: the one file-level variable of the tracer,
 * since a signal handler takes no argument.
 */
static volatile sig_atomic_t exiting;

static void on_signal(int sig)
{
	exiting = 1;
}

static int on_event(void *ctx, void *data, size_t len)
{
	struct tracer *tr = ctx;
	const struct abidep_usage_key *k = data;
	struct abidep_usage u;
	struct abidep_file f = { 0 };
	char exe[ABIDEP_EXE_DEPTH * (ABIDEP_EXE_COMP + 1) + 8];
	const char *cg;

	if (!tr->print || len < sizeof(*k) ||
	    bpf_map_lookup_elem(tr->usage_fd, k, &u))
		return 0;
	bpf_map_lookup_elem(tr->fd[M_FILES], &k->file_id, &f);
	u.comm[sizeof(u.comm) - 1] = '\0';
	exe_string(&u, k, exe, sizeof(exe));
	cg = cgroup_path(&tr->cg, k->cgroup_id);
	printf("%-5s %7u %-16s %5u %-24s %s %s\n", trace_op_name(k->op),
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

/* The foreground tracer, until ^C (SIGINT, SIGTERM) or @duration seconds. */
int run_live(struct tracer *tr, double interval, double duration)
{
	struct ring_buffer *rb;
	struct pollfd pfd[2];
	double start = now_s(), last_sync = start, refresh_at = 0;
	int ufd, ret = EXIT_OK;

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	rb = ring_buffer__new(tr->fd[M_EVENTS], on_event, tr, NULL);
	if (!rb) {
		fprintf(stderr, "abidep: cannot read the ring buffer: %s\n", strerror(errno));
		return EXIT_LOAD;
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
			slots_sync(&tr->slots, tr->files, tr->nfiles);
			if (sync_db(tr) < 0)
				ret = EXIT_DB;
		}
	}
	ring_buffer__consume(rb);
	if (sync_db(tr) < 0)
		ret = EXIT_DB;
	report_drops(tr);
	ring_buffer__free(rb);
	if (ufd >= 0)
		close(ufd);
	return ret;
}
