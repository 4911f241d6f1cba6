// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore_intel8x0 - the cases, run at load on the AC'97 chip: one KTAP
 * document, each case named intel8x0_<case>_<regime>.
 *
 *   stream        PCM out plays for a second with queue= buffers of 10 ms
 *                 queued, the line aimed at the last CPU: the handler
 *                 refilled buffers, in hardirq, at the rate the sample
 *                 rate gives (100 a second, within half), and no underrun
 *   hold          2 CPUs: a holder on the first CPU for hold_ms, longer
 *                 than the whole queued audio (queue x 10 ms) plus two
 *                 periods of QEMU's audio timer. Under biglock the holder
 *                 is cli(): the chip's interrupt waits in irq_enter() for
 *                 the global lock, nothing can advance LVI, and the chip,
 *                 which plays on at the sample rate on QEMU's clock, must
 *                 reach the last valid buffer: an underrun is certain,
 *                 not a matter of timing. Under nolock the holder takes an
 *                 unrelated driver's lock: the handler runs on the last CPU
 *                 meanwhile and no underrun happens. Either way the stream
 *                 plays on afterwards
 *   free          snd_intel8x0_free()'s hunk while the stream plays: the
 *                 channel reset and synchronize_irq(): no handler run after
 *                 it, the channel halted and its CIV still; then snd_intel8x0_create()'s
 *                 (request, synchronize_irq()) and the stream again
 *   accounting    the line quiet and balanced, handled - unhandled equal
 *                 to the handler's own count of its calls
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include <irqcore.h>
#include <irqcore_ktap.h>

#include "intel8x0.h"

#define I8X0_PER_S	(I8X0_RATE / I8X0_BUF_FRAMES)	/* 100 buffers a second */
#define I8X0_TIMER_MS	10	/* QEMU's audio timer period, by default */

static struct ic_ktap i8x0_k;

/* The line aimed at @cpu, then one buffer's interrupt through (the move). */
static int i8x0_aim(struct i8x0_dev *chip, int cpu)
{
	struct i8x0_stats st;
	unsigned int i;

	if (ic_set_affinity(chip->line, cpu))
		return -EIO;
	for (i = 0; i < 100; i++) {
		msleep(20);
		i8x0_stats(chip, &st);
		if (st.last_cpu == cpu)
			return 0;
	}
	ic_ktap_diag("the line would not move to CPU%d", cpu);
	return -EIO;
}

static bool i8x0_case_stream(struct i8x0_dev *chip, unsigned int queue)
{
	int last = cpumask_last(cpu_online_mask);
	struct i8x0_stats s0, s1;
	unsigned long t0, ms;

	i8x0_start(chip, queue);
	if (i8x0_aim(chip, last))
		return false;
	i8x0_stats(chip, &s0);
	t0 = jiffies;
	msleep(1000);
	i8x0_stats(chip, &s1);
	ms = jiffies_to_msecs(jiffies - t0);
	pr_info("stream: regime=%s queue=%u ms=%lu completions=%lu per_s=%lu expected_per_s=%u underruns=%lu\n",
		ic_regime_name(), queue, ms, s1.completions - s0.completions,
		(s1.completions - s0.completions) * 1000 / ms, I8X0_PER_S,
		s1.underruns - s0.underruns);
	ic_ktap_diag("handler runs %lu on CPU%d, buffers refilled %lu, outside hardirq %lu",
		     s1.runs - s0.runs, s1.last_cpu, s1.refills - s0.refills, s1.outside_hardirq);
	return s1.completions - s0.completions >= ms * I8X0_PER_S / 2000 &&
	       s1.completions - s0.completions <= ms * I8X0_PER_S * 3 / 2000 &&
	       s1.underruns == s0.underruns && s1.refills > s0.refills && !s1.outside_hardirq;
}

/* The holder: one section of hold_ms on the first CPU. */
struct i8x0_holder {
	raw_spinlock_t lock;	/* nolock's: an unrelated driver's lock */
	unsigned int hold_ms;
	bool big;
	struct i8x0_dev *chip;
	unsigned long in0, in1;	/* buffers played, at entry and at exit */
};

/* Inside the section: the buffers played at its start and at its end. */
static void i8x0_hold_section(void *arg)
{
	struct i8x0_holder *h = arg;

	/* Read without the driver's lock, which the section must not take. */
	h->in0 = READ_ONCE(h->chip->stats.completions);
	mdelay(h->hold_ms);
	h->in1 = READ_ONCE(h->chip->stats.completions);
}

static long i8x0_hold_fn(void *arg)
{
	struct i8x0_holder *h = arg;

	ic_hold_section(h->big, &h->lock, i8x0_hold_section, h);
	return 0;
}

static bool i8x0_case_hold(struct i8x0_dev *chip, unsigned int queue, unsigned int hold_ms,
			   const char **skip)
{
	int first = cpumask_first(cpu_online_mask), last = cpumask_last(cpu_online_mask);
	struct i8x0_holder h = { .hold_ms = hold_ms, .chip = chip };
	unsigned int queued_ms = queue * 1000 / I8X0_PER_S;
	struct i8x0_stats s0, s1;
	bool ok;

	if (first == last) {
		*skip = "needs 2 CPUs (the holder and the chip's interrupt)";
		return true;
	}
	if (hold_ms <= queued_ms + 2 * I8X0_TIMER_MS) {
		*skip = "hold_ms not longer than the queued audio: an underrun would be timing";
		return true;
	}
	if (i8x0_aim(chip, last))
		return false;
	raw_spin_lock_init(&h.lock);
	h.big = !strcmp(ic_regime_name(), "biglock");
	i8x0_stats(chip, &s0);
	work_on_cpu(first, i8x0_hold_fn, &h);
	msleep(300);	/* the stream restarted and playing again */
	i8x0_stats(chip, &s1);
	pr_info("hold: regime=%s hold_ms=%u queue=%u queued_ms=%u underruns=%lu completions_in_hold=%lu completions_after=%lu\n",
		ic_regime_name(), hold_ms, queue, queued_ms, s1.underruns - s0.underruns,
		h.in1 - h.in0, s1.completions - h.in1);
	ic_ktap_diag("%s on CPU%d for %u ms, %u ms of audio queued; the chip's interrupt on CPU%d",
		     h.big ? "cli()" : "an unrelated driver's spin_lock_irqsave()", first, hold_ms,
		     queued_ms, last);
	/* biglock: certain (see above); nolock: the handler ran through it. */
	if (h.big)
		ok = s1.underruns > s0.underruns;
	else
		ok = s1.underruns == s0.underruns && h.in1 > h.in0;
	/* Either way the stream plays on: the handler restarted a halted channel. */
	if (s1.completions - h.in1 < 5) {
		ic_ktap_diag("the stream did not play on after the holder");
		ok = false;
	}
	return ok;
}

static bool i8x0_case_free(struct i8x0_dev *chip, unsigned int queue)
{
	struct ic_line_stats l0, l1;
	struct i8x0_stats f, a, r;
	u32 ch0, ch1;
	bool ok = true;

	i8x0_free(chip);
	i8x0_stats(chip, &f);
	ic_line_stats(chip->line, &l0);
	ch0 = i8x0_channel(chip);
	msleep(50);
	ch1 = i8x0_channel(chip);
	i8x0_stats(chip, &a);
	ic_line_stats(chip->line, &l1);
	/*
	 * The line is shut down with its last handler, so a chip left
	 * playing would not interrupt irqcore; its channel says whether it
	 * still plays into the buffers the free is about to release.
	 */
	ic_ktap_diag("after the free: channel status %#x, CIV %u then %u 50 ms later",
		     ch0 >> 16, ch0 & 0x1f, ch1 & 0x1f);
	if (!((ch0 >> 16) & I8X0_SR_DCH) || (ch0 & 0x1f) != (ch1 & 0x1f)) {
		ic_ktap_diag("the chip still plays after snd_intel8x0_free()'s part");
		ok = false;
	}
	ic_ktap_diag("after the free: handler runs +%lu, interrupts +%lu in 50 ms",
		     a.runs + a.not_mine - f.runs - f.not_mine, l1.raised - l0.raised);
	if (a.runs != f.runs || a.not_mine != f.not_mine || l1.raised != l0.raised) {
		ic_ktap_diag("the handler ran, or the chip interrupted, after the free");
		ok = false;
	}
	if (i8x0_request(chip)) {
		ic_ktap_diag("could not request the line again");
		return false;
	}
	i8x0_start(chip, queue);
	msleep(200);
	i8x0_stats(chip, &r);
	ic_ktap_diag("created again: %lu buffers played in 200 ms", r.completions - a.completions);
	return ok && r.completions > a.completions;
}

static bool i8x0_case_accounting(struct i8x0_dev *chip)
{
	unsigned long end = jiffies + msecs_to_jiffies(2000);
	struct ic_line_stats ls;
	struct i8x0_stats st;

	i8x0_stop(chip);
	for (;;) {
		ic_line_stats(chip->line, &ls);
		if ((!ls.inflight && !ls.busy) || time_after(jiffies, end))
			break;
		usleep_range(500, 1000);
	}
	i8x0_stats(chip, &st);
	ic_ktap_diag("raised=%lu handled=%lu merged=%lu latched=%lu inflight=%lu unhandled=%lu",
		     ls.raised, ls.handled, ls.merged, ls.latched, ls.inflight, ls.unhandled);
	ic_ktap_diag("handler calls %lu (PCM out %lu, not ours %lu)", st.runs + st.not_mine,
		     st.runs, st.not_mine);
	return ic_line_stats_balance(&ls) && !ls.inflight && !ls.busy && st.runs &&
	       ls.handled - ls.unhandled == st.runs + st.not_mine && !st.outside_hardirq;
}

static void i8x0_result(bool ok, const char *what, const char *skip)
{
	char name[64];

	snprintf(name, sizeof(name), "intel8x0_%s_%s", what, ic_regime_name());
	ic_ktap_result(&i8x0_k, ok, name, skip);
}

/**
 * i8x0_selftest() - run every case on @chip and print the KTAP document.
 * @chip: the bound chip, its handler installed, the channel stopped.
 * @queue: buffers kept queued.
 * @hold_ms: the holder's section.
 *
 * Leaves the channel stopped.
 *
 * Context: process; sleeps (two seconds and the hold).
 * Return: the number of failed cases.
 */
int i8x0_selftest(struct i8x0_dev *chip, unsigned int queue, unsigned int hold_ms)
{
	const char *skip = NULL;
	bool ok;

	ic_ktap_begin(&i8x0_k, 4);
	i8x0_result(i8x0_case_stream(chip, queue), "stream", NULL);
	ok = i8x0_case_hold(chip, queue, hold_ms, &skip);
	i8x0_result(ok, "hold", skip);
	i8x0_result(i8x0_case_free(chip, queue), "free", NULL);
	i8x0_result(i8x0_case_accounting(chip), "accounting", NULL);
	ic_set_affinity(chip->line, -1);
	pr_info("End of test: %s: cases=%u failed=%u\n",
		i8x0_k.failed ? "FAILURE" : "SUCCESS", i8x0_k.planned, i8x0_k.failed);
	return i8x0_k.failed;
}
