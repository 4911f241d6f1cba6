// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore - fault points inside the module.
 *
 * failslab and fail_page_alloc fail only what goes through the slab and
 * page allocators, and only in the task that asked (fail-nth). irqcore's
 * init also allocates per-CPU memory, makes cpumasks that are no
 * allocation at all without CPUMASK_OFFSTACK, and creates threads; and
 * some of its races need a preemption at one instant to show. The fault
 * tests reach those through two knobs:
 *
 *   - fail_alloc=N (module parameter): the N-th of init's own allocations
 *     and thread creations fails, as if the allocator had said no, so that
 *     walking N = 1, 2, ... runs every error path of init once;
 *   - ic_fault_delay_set(): a self-test makes a marked point sleep, the
 *     way a preemption there would.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/delay.h>
#include <linux/errno.h>
#include <linux/printk.h>

#include "faultpoint.h"

/* Bit N set: ic_fault_delay(N) sleeps. Written by the self-tests only. */
unsigned long ic_fault_delays;
/* The CPU whose kicks are ignored, or -1. Written by the self-tests only. */
int ic_fault_deaf_cpu = -1;

/* Only module init counts, in one task: no lock needed. */
static unsigned int ic_fail_at;
static unsigned int ic_fail_seen;

/**
 * ic_fault_init() - arm fail_alloc for this load.
 * @fail_alloc: fail the @fail_alloc-th allocation of init; 0: none.
 *
 * Context: process (module init), first.
 */
void ic_fault_init(unsigned int fail_alloc)
{
	ic_fail_at = fail_alloc;
	ic_fail_seen = 0;
	ic_fault_delays = 0;
	ic_fault_deaf_cpu = -1;
}

/**
 * ic_fault_alloc() - count one allocation (or thread) of init; fail it if
 * it is the one fail_alloc names.
 * @site: what is allocated, for the message.
 *
 * Called just before the real allocation, whose own failure the caller
 * handles the same way.
 *
 * Context: process (module init).
 * Return: 0, or -ENOMEM for the chosen one.
 */
int ic_fault_alloc(const char *site)
{
	if (++ic_fail_seen != ic_fail_at)
		return 0;
	pr_info("fail_alloc: failing allocation %u (%s)\n", ic_fail_seen, site);
	return -ENOMEM;
}

/**
 * ic_fault_finish() - init got through: say whether fail_alloc was reached.
 *
 * The fault test walks fail_alloc upwards until this line says that init
 * made fewer allocations than asked: every error path has run by then.
 *
 * Context: process (module init), at its end.
 * Return: the number of allocations init made.
 */
int ic_fault_finish(void)
{
	if (ic_fail_at)
		pr_info("fail_alloc=%u not reached: init made %u allocations\n",
			ic_fail_at, ic_fail_seen);
	return ic_fail_seen;
}

/**
 * __ic_fault_delay() - the slow path of ic_fault_delay().
 * @point: the point reached.
 *
 * Context: process; sleeps 10 to 20 ms: long enough for whatever the test
 * races against it (a CPU going offline) to land inside the window.
 */
void __ic_fault_delay(enum ic_fault_point point)
{
	if (test_bit(point, &ic_fault_delays))
		usleep_range(10000, 20000);
}

/**
 * ic_fault_delay_set() - make @point sleep, or stop it.
 * @point: the point.
 * @on: sleep there from now on, or no more.
 *
 * Context: any; a self-test turns a point off before it returns.
 */
void ic_fault_delay_set(enum ic_fault_point point, bool on)
{
	if (on)
		set_bit(point, &ic_fault_delays);
	else
		clear_bit(point, &ic_fault_delays);
}
