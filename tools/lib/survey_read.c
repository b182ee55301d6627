// SPDX-License-Identifier: GPL-2.0
/*
 * Bounded reads. The open and the read of each file run in a helper thread
 * while the caller waits on a condition variable until a deadline:
 *
 * - Past the deadline the helper is sent SIGUSR1, whose handler is installed
 *   without SA_RESTART: a read sleeping interruptibly (most blocking sysfs
 *   reads) returns EINTR and the helper is used again. The signal is sent
 *   again every 10 ms for a grace period, as one that arrives just before
 *   the helper enters read() is lost.
 * - A helper still stuck after the grace period (an uninterruptible or
 *   killable sleep, which no signal but SIGKILL ends) is abandoned: it keeps
 *   its own copy of the directory fd, its buffer and its job, frees them if
 *   the call ever returns, and a new helper takes the next file. The
 *   survey goes on; the process may wait for the stuck call when it exits.
 *
 * So a file costs the survey at most the bound plus the grace period.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "survey_read.h"
#include "util.h"

#define GRACE_MS 200
#define KICK_MS 10

struct worker {
	pthread_mutex_t mu;
	pthread_cond_t cv;		/* a job posted, a job done, quit */
	pthread_t tid;
	bool has_job, done, quit;	/* quit: the worker frees itself */
	int dirfd;			/* the worker's own dup, closed by it */
	char *name;
	size_t cap, len;
	int err;
	enum read_status st;
	char *buf;
};

struct reader {
	unsigned int timeout_ms;
	unsigned int abandoned;
	struct worker *w;		/* NULL: start one at the next read */
};

static void on_kick(int sig)
{
	(void)sig;	/* only to interrupt a read: no SA_RESTART */
}

static void do_read(struct worker *w, int dirfd, const char *name, size_t cap)
{
	ssize_t r;
	int fd;

	w->len = 0;
	w->err = 0;
	fd = openat(dirfd, name, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW |
		    O_CLOEXEC);
	close(dirfd);
	if (fd < 0) {
		w->st = RD_OPEN_ERR;
		w->err = errno;
		return;
	}
	w->st = RD_OK;
	while (w->len < cap) {
		r = read(fd, w->buf + w->len, cap - w->len);
		if (r < 0) {
			w->st = RD_READ_ERR;
			w->err = errno;
			break;
		}
		if (!r)
			break;
		w->len += r;
	}
	close(fd);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	sigset_t kick;

	sigemptyset(&kick);
	sigaddset(&kick, SIGUSR1);
	pthread_sigmask(SIG_UNBLOCK, &kick, NULL);
	pthread_mutex_lock(&w->mu);
	for (;;) {
		int dirfd;
		char *name;
		size_t cap;

		while (!w->has_job && !w->quit)
			pthread_cond_wait(&w->cv, &w->mu);
		if (w->quit && !w->has_job)
			break;
		dirfd = w->dirfd;
		name = w->name;
		cap = w->cap;
		pthread_mutex_unlock(&w->mu);
		do_read(w, dirfd, name, cap);
		pthread_mutex_lock(&w->mu);
		w->has_job = false;
		w->done = true;
		pthread_cond_broadcast(&w->cv);
		if (w->quit)
			break;
	}
	pthread_mutex_unlock(&w->mu);
	/* Abandoned or told to quit: nobody else holds this any more. */
	pthread_cond_destroy(&w->cv);
	pthread_mutex_destroy(&w->mu);
	free(w->name);
	free(w->buf);
	free(w);
	return NULL;
}

static struct worker *worker_start(size_t cap)
{
	struct worker *w = xcalloc(1, sizeof(*w));
	pthread_condattr_t ca;
	pthread_attr_t a;
	sigset_t all, old;
	int e;

	pthread_mutex_init(&w->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&w->cv, &ca);
	pthread_condattr_destroy(&ca);
	w->buf = xmalloc(cap);
	w->cap = cap;
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&a, 64 * 1024);
	/* The helper takes no signal but the kick; it unblocks that itself. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	e = pthread_create(&w->tid, &a, worker_main, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&a);
	if (e) {
		pthread_cond_destroy(&w->cv);
		pthread_mutex_destroy(&w->mu);
		free(w->buf);
		free(w);
		errno = e;
		return NULL;
	}
	return w;
}

struct reader *reader_new(unsigned int timeout_ms)
{
	struct reader *r = xcalloc(1, sizeof(*r));
	struct sigaction sa;
	sigset_t kick;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_kick;	/* no SA_RESTART: read() gives EINTR */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	/* The walking thread keeps its getdents() free of the kick. */
	sigemptyset(&kick);
	sigaddset(&kick, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &kick, NULL);
	r->timeout_ms = timeout_ms;
	r->w = worker_start(4096);
	if (!r->w) {
		free(r);
		return NULL;
	}
	return r;
}

static void add_ms(struct timespec *ts, unsigned int ms)
{
	ts->tv_sec += ms / 1000;
	ts->tv_nsec += (long)(ms % 1000) * 1000000;
	if (ts->tv_nsec >= 1000000000) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000;
	}
}

enum read_status reader_read(struct reader *r, int dirfd, const char *name,
			     char *buf, size_t cap, size_t *len, int *err)
{
	struct timespec deadline, kick;
	struct worker *w;
	int i, dfd;

	*len = 0;
	*err = 0;
	if (!r->w) {
		r->w = worker_start(cap);
		if (!r->w) {
			*err = errno;
			return RD_OPEN_ERR;
		}
	}
	w = r->w;
	if (w->cap < cap) {
		/* Only between jobs: the worker touches buf only in one. */
		pthread_mutex_lock(&w->mu);
		free(w->buf);
		w->buf = xmalloc(cap);
		w->cap = cap;
		pthread_mutex_unlock(&w->mu);
	}
	/* The helper's own fd: the walk may close dirfd while it is stuck. */
	dfd = fcntl(dirfd, F_DUPFD_CLOEXEC, 0);
	if (dfd < 0) {
		*err = errno;
		return RD_OPEN_ERR;
	}
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	add_ms(&deadline, r->timeout_ms);
	pthread_mutex_lock(&w->mu);
	free(w->name);
	w->name = xstrdup(name);
	w->dirfd = dfd;
	w->cap = cap;
	w->done = false;
	w->has_job = true;
	pthread_cond_broadcast(&w->cv);
	while (!w->done)
		if (pthread_cond_timedwait(&w->cv, &w->mu, &deadline) == ETIMEDOUT)
			break;
	if (w->done) {
		*len = w->len;
		*err = w->err;
		memcpy(buf, w->buf, w->len);
		pthread_mutex_unlock(&w->mu);
		return w->st;
	}
	for (i = 0; !w->done && i < GRACE_MS / KICK_MS; i++) {
		pthread_kill(w->tid, SIGUSR1);
		clock_gettime(CLOCK_MONOTONIC, &kick);
		add_ms(&kick, KICK_MS);
		while (!w->done)
			if (pthread_cond_timedwait(&w->cv, &w->mu, &kick) == ETIMEDOUT)
				break;
	}
	if (!w->done) {
		/* Stuck for good: the helper owns its job and frees it. */
		w->quit = true;
		r->w = NULL;
		r->abandoned++;
	}
	pthread_mutex_unlock(&w->mu);
	return RD_TIMEOUT;
}

unsigned int reader_abandoned(const struct reader *r)
{
	return r->abandoned;
}

void reader_free(struct reader *r)
{
	if (!r)
		return;
	if (r->w) {
		pthread_mutex_lock(&r->w->mu);
		r->w->quit = true;
		pthread_cond_broadcast(&r->w->cv);
		pthread_mutex_unlock(&r->w->mu);
	}
	free(r);
}
