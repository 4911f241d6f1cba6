/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore - fault points inside the module (private): failures and delays
 * that no outside injector can reach, for the fault tests.
 */
#ifndef IC_FAULTPOINT_H
#define IC_FAULTPOINT_H

#include <linux/compiler.h>
#include <linux/types.h>

/**
 * enum ic_fault_point - places where a test may widen a race window.
 * @IC_FAULT_KSOFTIRQD_WINDOW: in ksoftirqd, between its park check and
 *	set_current_state(): a sleep there is what a preemption at that
 *	instant would be.
 * @IC_FAULT_NR: the number of points.
 */
enum ic_fault_point {
	IC_FAULT_KSOFTIRQD_WINDOW,
	IC_FAULT_NR,
};

extern unsigned long ic_fault_delays;
extern int ic_fault_deaf_cpu;

void ic_fault_init(unsigned int fail_alloc);
int ic_fault_alloc(const char *site);
int ic_fault_finish(void);
void __ic_fault_delay(enum ic_fault_point point);
void ic_fault_delay_set(enum ic_fault_point point, bool on);

/**
 * ic_fault_delay() - sleep here if a test asked for it.
 * @point: which point this is.
 *
 * Costs one load and a branch when no test asked.
 *
 * Context: process; may sleep.
 */
static inline void ic_fault_delay(enum ic_fault_point point)
{
	if (unlikely(READ_ONCE(ic_fault_delays)))
		__ic_fault_delay(point);
}

/**
 * ic_fault_deaf() - should this CPU ignore a kick that reached it?
 * @cpu: the CPU the kick reached.
 *
 * A self-test makes one CPU deaf just before it takes the CPU offline:
 * its kicks then stay pending, as a kick that reached a CPU on its way
 * down does, and the CPU's death must hand its edges to another CPU.
 * Only the remote kick's path asks, not the dispatch the benchmarks count.
 *
 * Context: the kick's handler.
 * Return: true to leave the kick pending.
 */
static inline bool ic_fault_deaf(int cpu)
{
	return unlikely(READ_ONCE(ic_fault_deaf_cpu) == cpu);
}

#endif /* IC_FAULTPOINT_H */
