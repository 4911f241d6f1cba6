// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore_torture - the APM clock.
 *
 * Mirrors 2.5.28 arch/i386/kernel/apm.c: set_time() and suspend() set the
 * kernel clock from the CMOS clock plus the saved offset while the timer
 * interrupt keeps advancing it. 2.5.27 did the read-and-set under cli();
 * 2.5.28 serialises with the timer interrupt by write_lock_irq(&xtime_lock).
 *
 * Invariant: time never goes backwards and no tick is lost. The clock must
 * always equal the ticks the timer delivered plus the offsets process
 * context applied; each side counts its own contribution in an atomic,
 * and each writer checks that the clock has not fallen below what it last
 * saw.
 */
#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/string.h>
#include <linux/types.h>

#include "torture.h"

#define ICT_APM_STEP	1000	/* what one set_time() moves the clock on by */
#define ICT_APM_THREADS	16

static struct {
	u64 clock;
	u64 tick_last;				/* handler only */
	u64 set_last[ICT_APM_THREADS];		/* per thread */
	atomic64_t ticks;
	atomic64_t offsets;
} ict_a;

static void ict_apm_reset(struct ict_dev *dev)
{
	memset(&ict_a, 0, sizeof(ict_a));
}

/* Is @c what the ticks and offsets add up to? If not, report and resync. */
static void ict_apm_check(struct ict_dev *dev, u64 c)
{
	u64 want = atomic64_read(&ict_a.ticks) + atomic64_read(&ict_a.offsets);

	if (c == want)
		return;
	ict_violation(dev, "apm: clock %llu, ticks + offsets %llu (%s)\n", c, want,
		      c < want ? "a tick or a set_time() was lost" : "time appeared from nowhere");
	atomic64_add(c - want, &ict_a.offsets);
}

/* The timer interrupt: one tick. */
static void ict_apm_irq(struct ict_dev *dev)
{
	unsigned long flags;
	u64 c;

	flags = ict_enter(dev);
	c = ict_a.clock;
	if (c < ict_a.tick_last)
		ict_violation(dev, "apm: time went backwards from %llu to %llu\n",
			      ict_a.tick_last, c);
	atomic64_inc(&ict_a.ticks);
	ict_a.clock = c + 1;
	ict_a.tick_last = c + 1;
	ict_exit(dev, flags);
}

/* set_time(): clock = "CMOS time" (what it reads) + the offset. */
static bool ict_apm_op(struct ict_dev *dev, unsigned int thread)
{
	u64 *last = &ict_a.set_last[thread % ICT_APM_THREADS];
	unsigned long flags;
	u64 c;

	flags = ict_enter(dev);
	c = ict_a.clock;
	if (c < *last)
		ict_violation(dev, "apm: time went backwards from %llu to %llu\n", *last, c);
	ict_apm_check(dev, c);
	ict_window(dev);
	atomic64_add(ICT_APM_STEP, &ict_a.offsets);
	ict_a.clock = c + ICT_APM_STEP;
	*last = c + ICT_APM_STEP;
	ict_exit(dev, flags);
	return true;
}

static void ict_apm_finish(struct ict_dev *dev)
{
	ict_apm_check(dev, ict_a.clock);
}

const struct ict_driver ict_apm = {
	.name = "apm",
	.reset = ict_apm_reset,
	.irq = ict_apm_irq,
	.op = ict_apm_op,
	.finish = ict_apm_finish,
};
