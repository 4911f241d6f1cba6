// SPDX-License-Identifier: GPL-2.0
/*
 * irqctl closefire: the file's flush stops a fire.
 *
 * A paced fire of IC_CTL_MAX_FIRE raises lasts minutes to hours; it holds
 * the file while it runs, so the release that tears the session down waits
 * for it. What ends it early, besides a fatal signal, is a close that
 * leaves the firing process no descriptor of the file (the file's flush,
 * module/ctl.c). The check:
 *
 *   fire thread                       main thread
 *   IC_CTL_FIRE (line L, 100000)      L is raised, the fire runs
 *       ...                           [dup: close the second descriptor:
 *       ...                            the process still has the file, the
 *       ...                            fire must go on]
 *       ...                           close the last descriptor
 *   returns EBADF                     within 2 s (the fire's pace is about
 *                                     2 ms; the close wakes it at once)
 *   (its file's release)              L has no handler, and its raises
 *                                     stopped: its timer and the fire
 *
 * Line L's handler spins 1000 us and a timer raises it 100 times a
 * second, so the fire is paced by the budget (about 390 raises a second).
 * A second file, opened only to look, reads L's counts with "any".
 * Prints "closefire: ..." lines; exit 4 when a check failed (the fire is
 * then killed with the process, so nothing is left either way).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "irqctl.h"

/* How long the fire may take to end once its last descriptor is closed. */
#define CF_BOUND_MS	2000

struct cf_fire {
	int fd;
	unsigned int line;
	int err;
	uint64_t ended_ms;
	volatile int done;
};

static uint64_t cf_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void *cf_fire_fn(void *arg)
{
	struct cf_fire *f = arg;
	struct ic_ctl_fire req = { .line = f->line, .count = IC_CTL_MAX_FIRE };

	f->err = ioctl(f->fd, IC_CTL_FIRE, &req) ? errno : 0;
	f->ended_ms = cf_now_ms();
	__atomic_store_n(&f->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static bool cf_done(struct cf_fire *f)
{
	return __atomic_load_n(&f->done, __ATOMIC_ACQUIRE);
}

/* Line @line as the looking file sees it; false if it cannot. */
static bool cf_stats(int obs, unsigned int line, struct ic_ctl_line_stats *s)
{
	*s = (struct ic_ctl_line_stats){ .line = line, .flags = IC_CTL_F_ANY };
	return ioctl(obs, IC_CTL_LINE_STATS, s) == 0;
}

/* Raises of @line over @ms. */
static uint64_t cf_raises(int obs, unsigned int line, long ms)
{
	struct ic_ctl_line_stats a, b;

	if (!cf_stats(obs, line, &a))
		return 0;
	ic_sleep_ms(ms);
	if (!cf_stats(obs, line, &b))
		return 0;
	return b.raised - a.raised;
}

static int cf_open(void)
{
	int fd = open(IC_CTL_DEVICE, O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		fprintf(stderr, "irqctl: closefire: %s: %s\n", IC_CTL_DEVICE, strerror(errno));
		exit(3);
	}
	return fd;
}

/**
 * cmd_closefire() - "closefire [dup]": the check above.
 * @argc: arguments, the command's name first.
 * @argv: them; "dup" closes a second descriptor of the file first.
 */
void cmd_closefire(int argc, char **argv)
{
	struct ic_ctl_source src = { .cpu = -1, .rate_hz = 100, .busy_us = 1000 };
	struct cf_fire f = { .err = -1 };
	struct ic_ctl_line_stats s;
	bool dup_first = false, ok = true;
	uint64_t closed_ms, n;
	int obs, fd2 = -1;
	pthread_t tid;

	if (argc > 2 || (argc == 2 && strcmp(argv[1], "dup")))
		ic_usage("closefire: unknown argument '%s' (valid: dup)", argv[argc - 1]);
	dup_first = argc == 2;
	obs = cf_open();
	f.fd = cf_open();
	if (ioctl(f.fd, IC_CTL_CREATE, &src)) {
		fprintf(stderr, "irqctl: closefire: create: %s\n", strerror(errno));
		exit(1);
	}
	f.line = src.line;
	if (dup_first)
		fd2 = dup(f.fd);
	if (pthread_create(&tid, NULL, cf_fire_fn, &f)) {
		fprintf(stderr, "irqctl: closefire: no thread\n");
		exit(1);
	}
	n = cf_raises(obs, f.line, 300);
	printf("closefire: line %u: %" PRIu64 " raises in 0.3 s, the fire %s\n", f.line, n,
	       cf_done(&f) ? "ended" : "running");
	if (cf_done(&f) || n < 20) {
		printf("closefire: FAILED: the fire did not run (%s)\n",
		       cf_done(&f) ? ic_errname(f.err) : "too few raises");
		exit(4);
	}
	if (dup_first) {
		/* The process keeps the file: the fire goes on. */
		close(fd2);
		n = cf_raises(obs, f.line, 300);
		printf("closefire: a second descriptor closed: %" PRIu64 " raises in 0.3 s, the fire %s\n",
		       n, cf_done(&f) ? "ended" : "running");
		if (cf_done(&f) || n < 20) {
			printf("closefire: FAILED: a close that left the process the file stopped its fire (%s)\n",
			       cf_done(&f) ? ic_errname(f.err) : "too few raises");
			ok = false;
		}
	}
	closed_ms = cf_now_ms();
	close(f.fd);
	while (!cf_done(&f) && cf_now_ms() - closed_ms < CF_BOUND_MS)
		ic_sleep_ms(5);
	if (!cf_done(&f)) {
		printf("closefire: FAILED: the fire still ran %d ms after its file's last close\n",
		       CF_BOUND_MS);
		exit(4);
	}
	pthread_join(tid, NULL);
	printf("closefire: the fire ended with %s %" PRIu64 " ms after the last close\n",
	       f.err ? ic_errname(f.err) : "success", f.ended_ms - closed_ms);
	if (f.err != EBADF) {
		printf("closefire: FAILED: want EBADF\n");
		ok = false;
	}
	/* The fire's thread has returned: its file's release has run. */
	if (!cf_stats(obs, f.line, &s) || !(s.status & IC_IRQ_DISABLED)) {
		printf("closefire: FAILED: line %u still has a handler (status 0x%x)\n", f.line,
		       s.status);
		ok = false;
	}
	n = cf_raises(obs, f.line, 300);
	printf("closefire: line %u: no handler; %" PRIu64 " raises in 0.3 s since\n", f.line, n);
	if (n) {
		printf("closefire: FAILED: something still raises line %u\n", f.line);
		ok = false;
	}
	close(obs);
	if (!ok)
		exit(4);
	printf("closefire: ok\n");
}
