// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore_bench - what a critical section on one CPU does to interrupts on
 * another: the cost of the big IRQ lock that the article names.
 *
 * The measuring CPU holds a critical section of H microseconds, then stays
 * out of it for H (50 % duty), for hold_ms per figure: under biglock with
 * ic_cli()/ic_sti() (2.5.27's idiom), under nolock with
 * raw_spin_lock_irqsave() on a driver lock (the seed's conversion). Meanwhile
 * a hard hrtimer on the busy CPU raises a line aimed at that CPU at a fixed
 * rate, and its handler is either *unrelated* (touches nothing shared) or
 * *related* (takes the same driver lock). The figures are the latency of
 * each raise from the time it was *due* (the timer's scheduled expiry) to
 * the handler that took it (p50, p99, max) and the handled rate.
 *
 * Coordinated omission: the raiser runs on the busy CPU, and under biglock
 * that CPU's irq_enter() spins with interrupts off until the holder's
 * sti(), so the timer cannot fire meanwhile; hrtimer_forward_now() then
 * skips the periods that fell due during the stall. Timing from the actual
 * raise would leave those raises out and start the late one's clock late.
 * So every period that fell due is a sample: the raiser records when the
 * oldest untaken one was due and how many are due, and the handler gives
 * each its latency from its own due time (one handler run serves them all,
 * as a pending edge serves every edge merged into it). The skipped periods
 * are counted as late. At the end the samples must equal the periods the
 * timer's expiry moved over, and the line's accounting must agree with the
 * raiser's and the handler's own counts.
 *
 * What to expect: under biglock every interrupt waits for the holder's
 * sti(), related or not (irq_enter() spins on the global lock); under
 * nolock an unrelated one does not wait at all, and only a related one
 * waits, for the driver lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cache.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include <irqcore.h>

#include "contention.h"
#include "harness.h"

#define ICB_C_LINE	22
#define ICB_C_RATE	2000	/* raises per second */

static const unsigned int icb_holds_us[] = { 1, 10, 100, 1000 };

/**
 * struct icb_cont - the state of one contention figure.
 * @lock: the driver lock (nolock's holder and the related handler), on a
 *	cache line of its own: the unrelated handler must not read a line
 *	that the holder writes.
 * @related: the handler takes @lock.
 * @cpu: the busy CPU, where the raiser and the handler both run.
 * @timer: the raiser, on the busy CPU.
 * @period: its period.
 * @first_expiry: the timer's first scheduled expiry.
 * @first_due_ns: when the oldest raise the handler has not taken was due.
 * @pending: raises due that the handler has not taken.
 * @raises: the raiser's runs (its ic_raise() calls).
 * @late: periods that hrtimer_forward_now() skipped.
 * @served: due raises the handler took (each one a sample).
 * @handled: handler runs.
 * @lat_ns: latencies, up to @cap of them (the rest are in @hist only).
 * @cap: room in @lat_ns: twice the periods of a figure.
 * @n: latencies recorded.
 * @hist: every latency, in icb_c_bucket()'s buckets.
 * @wrong: handler runs outside hardirq or off @cpu.
 *
 * The raiser and the handler run on one CPU with interrupts off (a hard
 * hrtimer, an SA_INTERRUPT handler), never both at once: they share the
 * fields after @cpu without a lock; the measuring CPU reads them once the
 * timer is cancelled and the line is quiet.
 */
struct icb_cont {
	raw_spinlock_t lock ____cacheline_aligned_in_smp;	/* the driver lock */
	bool related ____cacheline_aligned_in_smp;
	int cpu;
	struct hrtimer timer;
	ktime_t period;
	ktime_t first_expiry;
	u64 first_due_ns;
	unsigned long pending;
	unsigned long raises;
	unsigned long late;
	unsigned long served;
	unsigned long handled;
	u64 *lat_ns;
	unsigned int n;
	unsigned int cap;
	u32 hist[ICB_C_HIST];
	unsigned long wrong;
};

static struct icb_cont icb_c;

/* The histogram bucket of @ns: eight to an octave (contention.h). */
static unsigned int icb_c_bucket(u64 ns)
{
	unsigned int e, b;

	if (ns < 8)
		return ns;
	e = ilog2(ns);			/* ns is in [2^e, 2^(e+1)) */
	b = 8 * (e - 2) + ((ns >> (e - 3)) & 7);
	return min(b, ICB_C_HIST - 1U);
}

static enum hrtimer_restart icb_c_raiser(struct hrtimer *t)
{
	u64 due = ktime_to_ns(hrtimer_get_expires(t));
	/* This period and every one that fell due while the CPU was stuck. */
	u64 n = hrtimer_forward_now(t, icb_c.period);

	if (!icb_c.pending)
		icb_c.first_due_ns = due;
	icb_c.pending += n;
	icb_c.late += n - 1;
	icb_c.raises++;
	ic_raise(ICB_C_LINE);
	return HRTIMER_RESTART;
}

static void icb_c_handler(unsigned int irq, void *dev_id)
{
	u64 period = ktime_to_ns(icb_c.period);
	unsigned long i, pending;
	unsigned long flags;
	u64 now, lat;

	if (icb_c.related) {
		raw_spin_lock_irqsave(&icb_c.lock, flags);
		raw_spin_unlock_irqrestore(&icb_c.lock, flags);
	}
	now = ktime_get_ns();
	pending = icb_c.pending;
	/* Each due raise, from the time it was due: pending ones are consecutive periods. */
	for (i = 0; i < pending; i++) {
		lat = now - (icb_c.first_due_ns + i * period);
		if (icb_c.n < icb_c.cap)
			icb_c.lat_ns[icb_c.n++] = lat;
		icb_c.hist[icb_c_bucket(lat)]++;
	}
	icb_c.served += pending;
	icb_c.pending = 0;
	icb_c.handled++;
	if (!in_hardirq() || raw_smp_processor_id() != icb_c.cpu)
		icb_c.wrong++;
}

static void icb_c_arm(void *unused)
{
	hrtimer_start(&icb_c.timer, icb_c.period, HRTIMER_MODE_REL_PINNED_HARD);
	icb_c.first_expiry = hrtimer_get_expires(&icb_c.timer);
}

/* The section's body: @arg points at its length in microseconds. */
static void icb_c_section(void *arg)
{
	udelay(*(unsigned int *)arg);
}

/* Hold the section for @us, then stay out for @us, until @end (jiffies). */
static void icb_c_hold(unsigned int us, unsigned long end, bool big)
{
	while (time_before(jiffies, end)) {
		ic_hold_section(big, &icb_c.lock, icb_c_section, &us);
		udelay(us);
		cond_resched();
	}
}

/*
 * Wait (up to a second) for the last raise to reach its handler: the
 * timer is cancelled, but its last ic_raise() may still be in flight.
 */
static bool icb_c_quiet(struct ic_line_stats *st)
{
	unsigned long end = jiffies + HZ;

	for (;;) {
		ic_synchronize_irq(ICB_C_LINE);
		if (ic_line_stats(ICB_C_LINE, st))
			return false;
		/* The handler's runs ended before ic_synchronize_irq() returned. */
		if (!st->inflight && !st->latched && !READ_ONCE(icb_c.pending))
			return true;
		if (time_after(jiffies, end))
			return false;
		usleep_range(100, 200);
	}
}

/*
 * Every period the timer's expiry moved over is a sample the handler
 * took, and the line agrees with the raiser's and the handler's counts.
 */
static bool icb_c_accounted(const struct ic_line_stats *before, const struct ic_line_stats *st)
{
	u64 periods = div64_u64(ktime_to_ns(ktime_sub(hrtimer_get_expires(&icb_c.timer),
						      icb_c.first_expiry)),
				ktime_to_ns(icb_c.period));
	unsigned long raised = st->raised - before->raised;
	unsigned long handled = (st->handled - st->unhandled) -
				(before->handled - before->unhandled);
	unsigned long merged = st->merged - before->merged;
	bool ok;

	ok = icb_c.served == periods && raised == icb_c.raises && handled == icb_c.handled &&
	     raised == handled + merged && ic_line_stats_balance(st) && !icb_c.wrong;
	if (!ok)
		pr_info("contention: %llu periods due, %lu samples taken (%lu late); raised %lu by %lu timer runs; handled %lu, %lu handler runs (%lu outside hardirq or off CPU%d); merged %lu\n",
			periods, icb_c.served, icb_c.late, raised, icb_c.raises, handled,
			icb_c.handled, icb_c.wrong, icb_c.cpu, merged);
	return ok;
}

/* One figure: hold @us, handler related or not. Return: 0 or -errno. */
static int icb_c_figure(struct icb_target *t, unsigned int us, bool related,
			unsigned int hold_ms, struct icb_c_result *res)
{
	bool big = !strcmp(ic_regime_name(), "biglock");
	struct ic_line_stats before, st;
	u64 t0, elapsed;

	if (ic_line_stats(ICB_C_LINE, &before))
		return -EINVAL;
	icb_c.related = related;
	icb_c.cpu = t->cpu;
	icb_c.n = 0;
	icb_c.pending = 0;
	icb_c.raises = 0;
	icb_c.late = 0;
	icb_c.served = 0;
	icb_c.handled = 0;
	icb_c.wrong = 0;
	memset(icb_c.hist, 0, sizeof(icb_c.hist));
	t0 = ktime_get_ns();
	smp_call_function_single(t->cpu, icb_c_arm, NULL, 1);
	icb_c_hold(us, jiffies + msecs_to_jiffies(hold_ms), big);
	hrtimer_cancel(&icb_c.timer);
	elapsed = ktime_get_ns() - t0;
	if (!icb_c_quiet(&st)) {
		pr_info("contention: line %d did not go quiet: %lu in flight, %lu pending\n",
			ICB_C_LINE, st.inflight, READ_ONCE(icb_c.pending));
		return -ETIMEDOUT;
	}
	if (!icb_c_accounted(&before, &st))
		return -EBADMSG;
	if (!icb_c.n)
		return -ENODATA;
	icb_sort_u64(icb_c.lat_ns, icb_c.n);
	res->p50_ns = icb_c.lat_ns[icb_c.n / 2];
	res->p99_ns = icb_c.lat_ns[(icb_c.n * 99) / 100];
	res->max_ns = icb_c.lat_ns[icb_c.n - 1];
	res->handled_per_s = div64_u64((u64)icb_c.handled * NSEC_PER_SEC, max(elapsed, 1ULL));
	res->samples = icb_c.served;
	res->late = icb_c.late;
	res->hist = icb_c.hist;
	return 0;
}

/**
 * icb_contention() - every contention figure of this load.
 * @t: the busy target CPU (another than the caller's).
 * @hold_ms: how long each figure lasts.
 * @report: called with each figure's name and result, or with an error.
 *
 * Context: process, bound to a CPU other than @t's; sleeps.
 * Return: handler runs outside hardirq or off @t's CPU (0 unless
 * something is wrong; the figure they fell in fails too), or
 * a negative errno if the line or the buffer could not be set up.
 */
long icb_contention(struct icb_target *t, unsigned int hold_ms,
		    void (*report)(const char *name, int err, const struct icb_c_result *res))
{
	struct icb_c_result res;
	unsigned long wrong = 0;
	char name[32];
	unsigned int i;
	int related, err;

	icb_c.cap = 2 * hold_ms * ICB_C_RATE / MSEC_PER_SEC + 64;
	icb_c.lat_ns = kvcalloc(icb_c.cap, sizeof(u64), GFP_KERNEL);
	if (!icb_c.lat_ns)
		return -ENOMEM;
	raw_spin_lock_init(&icb_c.lock);
	icb_c.period = ns_to_ktime(NSEC_PER_SEC / ICB_C_RATE);
	hrtimer_init(&icb_c.timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	icb_c.timer.function = icb_c_raiser;
	err = ic_request_irq(ICB_C_LINE, icb_c_handler, IC_SA_INTERRUPT, "bench-cont", &icb_c);
	if (err) {
		kvfree(icb_c.lat_ns);
		return err;
	}
	ic_set_affinity(ICB_C_LINE, t->cpu);
	for (i = 0; i < ARRAY_SIZE(icb_holds_us); i++) {
		for (related = 0; related < 2; related++) {
			snprintf(name, sizeof(name), "%s_h%u", related ? "related" : "unrelated",
				 icb_holds_us[i]);
			err = icb_c_figure(t, icb_holds_us[i], related, hold_ms, &res);
			wrong += icb_c.wrong;
			report(name, err, &res);
		}
	}
	ic_set_affinity(ICB_C_LINE, -1);
	ic_free_irq(ICB_C_LINE, &icb_c);
	kvfree(icb_c.lat_ns);
	return wrong;
}

/**
 * icb_contention_figures() - how many figures icb_contention() reports.
 *
 * Context: any.
 * Return: the count, for the KTAP plan.
 */
unsigned int icb_contention_figures(void)
{
	return 2 * ARRAY_SIZE(icb_holds_us);
}
