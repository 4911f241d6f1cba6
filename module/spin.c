// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore - bounded spins.
 *
 * 2002's waits spun until the condition came true, however long that took:
 * a driver that waited for its own handler, or a cli() holder that never
 * called sti(), hung the machine without a word. irqcore's waits spin the
 * same way, but each reads a clock now and then; a wait that passes
 * stall_ms is reported once per load (the caller says what it waited for),
 * and then goes on waiting, as 2.5.27's show() did. The runner fails a run
 * on the report, so a hang becomes a diagnosis instead of a timeout.
 */
#include <linux/atomic.h>
#include <linux/processor.h>
#include <linux/ktime.h>
#include <linux/time64.h>

#include "spin.h"

static u64 ic_stall_ns;
static atomic_t ic_stall_reported;

/**
 * ic_spin_init() - set the bound for this load; no report printed yet.
 * @stall_ms: the bound, from the stall_ms parameter.
 *
 * Context: process (module init), before any wait.
 */
void ic_spin_init(unsigned int stall_ms)
{
	ic_stall_ns = (u64)stall_ms * NSEC_PER_MSEC;
	atomic_set(&ic_stall_reported, 0);
}

/**
 * ic_spin_bound_ns() - the bound, for reports.
 *
 * Context: any.
 * Return: stall_ms in nanoseconds.
 */
u64 ic_spin_bound_ns(void)
{
	return ic_stall_ns;
}

/**
 * ic_spin_once() - one turn of a bounded wait: relax, and look at the clock.
 * @s: the wait, from IC_SPIN_INIT().
 * @waited_ns: set to how long the wait has lasted, when this returns true.
 *
 * Context: any; does not sleep.
 * Return: true on the one turn where the wait passes the bound.
 */
bool ic_spin_once(struct ic_spin *s, u64 *waited_ns)
{
	u64 now;

	cpu_relax();
	if (++s->turns % 256)
		return false;
	now = ktime_get_ns();
	if (!s->start) {
		s->start = now;
		return false;
	}
	if (s->stalled || now - s->start <= ic_stall_ns)
		return false;
	s->stalled = true;
	*waited_ns = now - s->start;
	return true;
}

/**
 * ic_spin_first_report() - claim the one stall report of this load.
 *
 * Context: any.
 * Return: true for the first caller since ic_spin_init(), false after.
 */
bool ic_spin_first_report(void)
{
	return !atomic_xchg(&ic_stall_reported, 1);
}
