// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore_torture, style literal - the APM clock, as 2.5.27 had it.
 *
 * arch/i386/kernel/apm.c before the seed: set_time() set the kernel clock
 * from the CMOS clock plus the saved offset under save_flags(); cli(), and
 * suspend() did its read-and-set between cli() and sti(), while the timer
 * interrupt advanced the clock with no lock of its own: under 2.5.27 no
 * handler ran on any CPU while a task held cli(). The seed serialised
 * both with the timer interrupt by write_lock_irq(&xtime_lock).
 *
 * Invariant, as drivers/apm.c: the clock never goes backwards, and it
 * always equals the ticks delivered plus the offsets applied.
 */
#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/string.h>
#include <linux/types.h>

#include "compat2002.h"

#define APM_STEP	1000	/* what one set_time() moves the clock on by */
#define APM_THREADS	16

static struct {
	u64 clock;				/* CURRENT_TIME */
	u64 tick_last;				/* the handler's last tick */
	u64 set_last[APM_THREADS];		/* each thread's last set */
	atomic64_t ticks;
	atomic64_t offsets;
} apm;

static struct ict_dev *apm_dev;

/* Is @c what the ticks and offsets add up to? If not, report and resync. */
static void apm_check(u64 c)
{
	u64 want = atomic64_read(&apm.ticks) + atomic64_read(&apm.offsets);

	if (c == want)
		return;
	ict_violation(apm_dev, "apm: clock %llu, ticks + offsets %llu (%s)\n", c, want,
		      c < want ? "a tick or a set_time() was lost" : "time appeared from nowhere");
	atomic64_add(c - want, &apm.offsets);
}

/* The timer interrupt: one tick, with no lock (2.5.27's cli() kept it out). */
static void apm_timer_interrupt(int irq, void *dev_id, struct pt_regs *regs)
{
	u64 c;

	c = apm.clock;
	if (c < apm.tick_last)
		ict_violation(apm_dev, "apm: time went backwards from %llu to %llu\n",
			      apm.tick_last, c);
	atomic64_inc(&apm.ticks);
	apm.clock = c + 1;
	apm.tick_last = c + 1;
}

/* The read-and-set both set_time() and suspend() make. */
static void apm_advance(unsigned int thread)
{
	u64 c;

	c = apm.clock;
	if (c < apm.set_last[thread])
		ict_violation(apm_dev, "apm: time went backwards from %llu to %llu\n",
			      apm.set_last[thread], c);
	apm_check(c);
	ict_lit_window(apm_dev);
	atomic64_add(APM_STEP, &apm.offsets);
	apm.clock = c + APM_STEP;
	apm.set_last[thread] = c + APM_STEP;
}

/* set_time(): CURRENT_TIME = get_cmos_time() + clock_cmos_diff. */
static void set_time(unsigned int thread)
{
	unsigned long flags;

	save_flags(flags);
	cli();
	apm_advance(thread);
	restore_flags(flags);
}

/* suspend(): interrupts known on, so a plain cli() ... sti(). */
static void suspend(unsigned int thread)
{
	cli();
	apm_advance(thread);
	sti();
}

/* The torture harness's side: the driver's open, release and checks. */

static void apm_reset(struct ict_dev *dev)
{
	memset(&apm, 0, sizeof(apm));
	apm_dev = dev;
}

static int apm_open(unsigned int irq)
{
	return request_irq(irq, apm_timer_interrupt, SA_INTERRUPT, "apm", NULL);
}

static void apm_release(unsigned int irq)
{
	free_irq(irq, NULL);
}

/* Even turns set_time(), odd ones suspend(): both 2002 brackets run. */
static bool apm_op(struct ict_dev *dev, unsigned int thread)
{
	static atomic_t turn = ATOMIC_INIT(0);

	if (atomic_inc_return(&turn) & 1)
		suspend(thread % APM_THREADS);
	else
		set_time(thread % APM_THREADS);
	return true;
}

static void apm_finish(struct ict_dev *dev)
{
	apm_check(apm.clock);
}

const struct ict_driver ict_literal_apm = {
	.name = "apm",
	.reset = apm_reset,
	.open = apm_open,
	.release = apm_release,
	.op = apm_op,
	.finish = apm_finish,
};
