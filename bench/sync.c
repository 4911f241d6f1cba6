// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore_bench - the cost of synchronize_irq() on an idle line while k
 * other lines are busy.
 *
 * 2.5.28's synchronize_irq(irq) waits for that one line, so its cost on an
 * idle line does not depend on what the other lines do. 2.5.27's waited
 * for every handler on every CPU (cli(); sti()), so it grows with the load
 * of the others. A hard hrtimer on the busy CPU raises k lines every
 * ICB_S_PERIOD_US, each handler spinning ICB_S_WORK_US (k = 8 keeps that
 * CPU in handlers most of the time); the measuring CPU times
 * ic_synchronize_irq() of an idle line, the median of ICB_S_CALLS calls.
 *
 * The busy lines' handler runs are counted while the calls are timed: a
 * figure for k > 0 whose busy lines took no interrupt measured an idle
 * machine, and fails (so does k = 0 if anything ran); the achieved rate
 * is reported beside the figure.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/cache.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/slab.h>

#include <irqcore.h>

#include "harness.h"
#include "sync.h"

#define ICB_S_IDLE	30	/* the line synchronize_irq() is asked about */
#define ICB_S_FIRST	31	/* the busy lines: 31 .. 31 + k - 1 */
#define ICB_S_MAX_K	8
#define ICB_S_PERIOD_US	200
#define ICB_S_WORK_US	20
#define ICB_S_CALLS	200

static const unsigned int icb_s_ks[] = { 0, 1, 4, 8 };

/*
 * @busy is written by the busy lines' handlers on the busy CPU, @ns by the
 * measuring CPU: each on a line of its own.
 */
static struct {
	struct hrtimer timer;
	unsigned int k;
	unsigned long busy ____cacheline_aligned_in_smp;
	u64 ns[ICB_S_CALLS] ____cacheline_aligned_in_smp;
} icb_s;

static enum hrtimer_restart icb_s_raiser(struct hrtimer *t)
{
	unsigned int i;

	for (i = 0; i < icb_s.k; i++)
		ic_raise(ICB_S_FIRST + i);
	hrtimer_forward_now(t, ns_to_ktime(ICB_S_PERIOD_US * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static void icb_s_busy_handler(unsigned int irq, void *dev_id)
{
	udelay(ICB_S_WORK_US);
	/* Only the busy CPU's handlers write it, one at a time (SA_INTERRUPT). */
	WRITE_ONCE(icb_s.busy, icb_s.busy + 1);
}

static void icb_s_idle_handler(unsigned int irq, void *dev_id)
{
}

static void icb_s_arm(void *unused)
{
	hrtimer_start(&icb_s.timer, ns_to_ktime(ICB_S_PERIOD_US * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

/*
 * The median cost of ic_synchronize_irq(ICB_S_IDLE) with @k busy lines,
 * and in *@busy_per_s the busy lines' handler runs per second meanwhile.
 */
static u64 icb_s_figure(struct icb_target *t, unsigned int k, u64 *busy_per_s)
{
	unsigned long busy;
	unsigned int i;
	u64 t0;

	icb_s.k = k;
	if (k)
		smp_call_function_single(t->cpu, icb_s_arm, NULL, 1);
	msleep(20);		/* let the load settle */
	busy = READ_ONCE(icb_s.busy);
	t0 = ktime_get_ns();
	for (i = 0; i < ICB_S_CALLS; i++) {
		u64 t0 = ktime_get_ns();

		ic_synchronize_irq(ICB_S_IDLE);
		icb_s.ns[i] = ktime_get_ns() - t0;
		usleep_range(100, 200);
	}
	busy = READ_ONCE(icb_s.busy) - busy;
	*busy_per_s = div64_u64((u64)busy * NSEC_PER_SEC, max(ktime_get_ns() - t0, 1ULL));
	if (k)
		hrtimer_cancel(&icb_s.timer);
	for (i = 0; i < k; i++)
		ic_synchronize_irq(ICB_S_FIRST + i);
	icb_sort_u64(icb_s.ns, ICB_S_CALLS);
	return icb_s.ns[ICB_S_CALLS / 2];
}

/**
 * icb_sync() - every synchronize_irq() figure of this load.
 * @t: the busy target CPU (another than the caller's).
 * @report: called with each figure's k, an error (-ENODATA: the busy
 *	lines took no interrupt, or k = 0 and some did), its median cost and
 *	the busy lines' handler runs per second while it was measured.
 *
 * Context: process, bound to a CPU other than @t's; sleeps.
 * Return: 0, or the error of requesting a line.
 */
int icb_sync(struct icb_target *t,
	     void (*report)(unsigned int k, int err, u64 ns, u64 busy_per_s))
{
	unsigned int i, n = 0;
	int err;

	hrtimer_init(&icb_s.timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	icb_s.timer.function = icb_s_raiser;
	err = ic_request_irq(ICB_S_IDLE, icb_s_idle_handler, IC_SA_INTERRUPT, "bench-idle",
			     &icb_s);
	if (err)
		return err;
	for (n = 0; n < ICB_S_MAX_K; n++) {
		err = ic_request_irq(ICB_S_FIRST + n, icb_s_busy_handler, IC_SA_INTERRUPT,
				     "bench-busy", &icb_s);
		if (err)
			goto out;
		ic_set_affinity(ICB_S_FIRST + n, t->cpu);
	}
	for (i = 0; i < ARRAY_SIZE(icb_s_ks); i++) {
		unsigned int k = icb_s_ks[i];
		u64 ns, busy;

		ns = icb_s_figure(t, k, &busy);
		/* The load generator must have run for k > 0, and nothing for k = 0. */
		report(k, !k == !busy ? 0 : -ENODATA, ns, busy);
	}
out:
	while (n--) {
		ic_set_affinity(ICB_S_FIRST + n, -1);
		ic_free_irq(ICB_S_FIRST + n, &icb_s);
	}
	ic_free_irq(ICB_S_IDLE, &icb_s);
	return err;
}

/**
 * icb_sync_figures() - how many figures icb_sync() reports.
 *
 * Context: any.
 * Return: the count, for the KTAP plan.
 */
unsigned int icb_sync_figures(void)
{
	return ARRAY_SIZE(icb_s_ks);
}
