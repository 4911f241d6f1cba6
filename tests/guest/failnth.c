// SPDX-License-Identifier: GPL-2.0
/*
 * failnth - load a kernel module with its Nth slab allocation failing.
 *
 *   failnth N MODULE.ko [PARAMS]
 *
 * Runs inside the irqcore test guest only (tests/guest/init, "fault
 * failslab", "fault fail_page_alloc"); tests/run builds it statically into
 * the initramfs. N = 0 injects nothing: a plain load that reports the
 * error by name ("fault fail_alloc", also on kernels without fail-nth).
 *
 * The kernel's fail-nth (Documentation/fault-injection/fault-injection.rst)
 * makes the Nth fault-injection site reached by the *writing task* fail.
 * A shell cannot use it for insmod: whatever the shell runs after its own
 * write -- fork, exec, the dynamic loader -- reaches the sites first, and
 * those retry. This program opens everything it needs first, writes N,
 * and makes finit_module() its very next system call, so the count starts
 * in the module loader: the kernel's part of the load, then the module's
 * init (irqcore's allocations and ic_request_irq()'s).
 *
 * The count covers every fault-injection site whose filters let it count:
 * failslab's and fail_page_alloc's alike, each with its own stack filter
 * (the guest arms one and disarms the other).
 *
 * Prints one line, "failnth: N=<n> load=ok|<errno name> injected=yes|no",
 * and exits 0 if the load succeeded, 1 if it failed, 2 on a usage or setup
 * error. injected=no means the load finished before the Nth site: every
 * allocation of the load has then been failed once by earlier N.
 */
#define _GNU_SOURCE	/* strerrorname_np() */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int usage(void)
{
	fprintf(stderr, "usage: failnth N MODULE.ko [PARAMS]  (N: 0..100000; 0 injects nothing)\n");
	return 2;
}

int main(int argc, char **argv)
{
	char buf[32], *end;
	const char *params;
	int mfd, ffd = -1, len, err;
	long n, left = 1;
	long ret;

	if (argc < 3 || argc > 4)
		return usage();
	n = strtol(argv[1], &end, 10);
	if (*end || end == argv[1] || n < 0 || n > 100000)
		return usage();
	params = argc == 4 ? argv[3] : "";

	mfd = open(argv[2], O_RDONLY | O_CLOEXEC);
	if (mfd < 0) {
		fprintf(stderr, "failnth: %s: %s\n", argv[2], strerror(errno));
		return 2;
	}
	if (n) {
		ffd = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
		if (ffd < 0) {
			fprintf(stderr, "failnth: /proc/thread-self/fail-nth: %s %s\n",
				strerror(errno), "(a kernel without CONFIG_FAULT_INJECTION?)");
			return 2;
		}
		len = snprintf(buf, sizeof(buf), "%ld", n);
		if (write(ffd, buf, len) != len) {
			fprintf(stderr, "failnth: write fail-nth: %s\n", strerror(errno));
			return 2;
		}
	}

	/* Nothing between the write above and this call. */
	ret = syscall(SYS_finit_module, mfd, params, 0);
	err = errno;

	if (n) {
		/* What is left of the count: 0 means the Nth site was reached. */
		len = pread(ffd, buf, sizeof(buf) - 1, 0);
		buf[len > 0 ? len : 0] = '\0';
		left = strtol(buf, NULL, 10);
		if (write(ffd, "0", 1) != 1)
			fprintf(stderr, "failnth: reset fail-nth: %s\n", strerror(errno));
	}

	printf("failnth: N=%ld load=%s injected=%s\n", n, ret ? strerrorname_np(err) : "ok",
	       left ? "no" : "yes");
	return ret ? 1 : 0;
}
