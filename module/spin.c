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
 *
 * What passes stall_ms is the time the waiting CPU spent waiting, not the
 * clock's: under TCG on a busy host a vCPU is put aside for a time slice or
 * many, and its clock (the host's TSC) runs on meanwhile. A wait whose own
 * vCPU was off the host for two seconds has not waited two seconds, and
 * the holder's vCPU, a thread of the same QEMU, was most likely off too
 * (a 300 ms cli() hold was reported as a 2023 ms wait on a host with a
 * load average near 37). A step of the clock longer than IC_SPIN_GAP_NS
 * between two looks is left out; a CPU that really waits for ever takes
 * the steps of a spin and is reported after stall_ms of them.
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
 * ic_spin_account() - count one look at the clock into a wait.
 * @s: the wait.
 * @now: the clock (ktime_get_ns()) at this look.
 * @waited_ns: set to how long the wait has lasted by the clock, when this
 *	returns true.
 *
 * The step since the last look counts as waited when it is at most the
 * gap; a longer one not at all in a spin (the CPU was elsewhere), and as
 * the gap in a sleeping wait (struct ic_spin).
 * Separate from ic_spin_once() so that the self-test spin_host_gap_skipped
 * can feed it a clock of its own.
 *
 * Context: any; does not sleep. @s is the caller's own.
 * Return: true on the one look where the time waited passes the bound.
 */
bool ic_spin_account(struct ic_spin *s, u64 now, u64 *waited_ns)
{
	u64 gap = s->gap_ns ? s->gap_ns : IC_SPIN_GAP_NS;
	u64 step;

	if (!s->last) {
		s->start = now;
		s->last = now;
		return false;
	}
	step = now - s->last;
	s->last = now;
	if (step <= gap)
		s->ran += step;
	else if (s->gap_ns)
		s->ran += gap;		/* a sleeping wait's late look: see struct ic_spin */
	if (s->stalled || s->ran <= ic_stall_ns)
		return false;
	s->stalled = true;
	*waited_ns = now - s->start;
	return true;
}

/**
 * ic_spin_once() - one turn of a bounded wait: relax, and look at the clock.
 * @s: the wait, from IC_SPIN_INIT().
 * @waited_ns: set to how long the wait has lasted by the clock, when this
 *	returns true (@s->ran says how much of it this CPU waited).
 *
 * Context: any; does not sleep.
 * Return: true on the one turn where the time waited passes the bound.
 */
bool ic_spin_once(struct ic_spin *s, u64 *waited_ns)
{
	cpu_relax();
	if (++s->turns % 256)
		return false;
	return ic_spin_account(s, ktime_get_ns(), waited_ns);
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
