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
 * *related* (takes the same driver lock). The figures are the raise-to-
 * handler latency (p50, p99, max: from the first raise of those that the
 * handler then takes together) and the handled rate.
 *
 * What to expect: under biglock every interrupt waits for the holder's
 * sti(), related or not (irq_enter() spins on the global lock); under
 * nolock an unrelated one does not wait at all, and only a related one
 * waits, for the driver lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include <irqcore.h>

#include "contention.h"
#include "harness.h"

#define ICB_C_LINE	22
#define ICB_C_SAMPLES	4096
#define ICB_C_RATE	2000	/* raises per second */

static const unsigned int icb_holds_us[] = { 1, 10, 100, 1000 };

/**
 * struct icb_cont - the state of one contention figure.
 * @lock: the driver lock (nolock's holder and the related handler).
 * @related: the handler takes @lock.
 * @timer: the raiser, on the busy CPU.
 * @period: its period.
 * @first_raise_ns: the first raise the handler has not taken yet, or 0.
 * @lat_ns: latencies, up to ICB_C_SAMPLES of them.
 * @n: latencies recorded (the handler alone writes them).
 * @handled: handler runs.
 * @outside: handler runs outside hardirq.
 */
struct icb_cont {
	raw_spinlock_t lock;		/* the driver lock; nothing else */
	bool related;
	struct hrtimer timer;
	ktime_t period;
	u64 first_raise_ns;
	u64 *lat_ns;
	unsigned int n;
	atomic_long_t handled;
	atomic_long_t outside;
};

static struct icb_cont icb_c;

static enum hrtimer_restart icb_c_raiser(struct hrtimer *t)
{
	/* Only the first raise of a batch the handler will take at once. */
	if (!READ_ONCE(icb_c.first_raise_ns))
		WRITE_ONCE(icb_c.first_raise_ns, ktime_get_ns());
	ic_raise(ICB_C_LINE);
	hrtimer_forward_now(t, icb_c.period);
	return HRTIMER_RESTART;
}

static void icb_c_handler(unsigned int irq, void *dev_id)
{
	u64 first = READ_ONCE(icb_c.first_raise_ns);
	unsigned long flags;

	if (icb_c.related) {
		raw_spin_lock_irqsave(&icb_c.lock, flags);
		raw_spin_unlock_irqrestore(&icb_c.lock, flags);
	}
	if (first && icb_c.n < ICB_C_SAMPLES)
		icb_c.lat_ns[icb_c.n++] = ktime_get_ns() - first;
	WRITE_ONCE(icb_c.first_raise_ns, 0);
	atomic_long_inc(&icb_c.handled);
	if (!in_hardirq())
		atomic_long_inc(&icb_c.outside);
}

static void icb_c_arm(void *unused)
{
	hrtimer_start(&icb_c.timer, icb_c.period, HRTIMER_MODE_REL_PINNED_HARD);
}

/* Hold the section for @us, then stay out for @us, until @end (jiffies). */
static void icb_c_hold(unsigned int us, unsigned long end, bool big)
	__acquires(&icb_c.lock) __releases(&icb_c.lock)
{
	unsigned long flags = 0;

	while (time_before(jiffies, end)) {
		if (big) {
			ic_cli();
			__acquire(&icb_c.lock);
		} else {
			raw_spin_lock_irqsave(&icb_c.lock, flags);
		}
		udelay(us);
		if (big) {
			__release(&icb_c.lock);
			ic_sti();
		} else {
			raw_spin_unlock_irqrestore(&icb_c.lock, flags);
		}
		udelay(us);
		cond_resched();
	}
}

/* One figure: hold @us, handler related or not. Return: 0 or -errno. */
static int icb_c_figure(struct icb_target *t, unsigned int us, bool related,
			unsigned int hold_ms, struct icb_c_result *res)
{
	bool big = !strcmp(ic_regime_name(), "biglock");
	unsigned long start;
	unsigned int ms;

	icb_c.related = related;
	icb_c.n = 0;
	WRITE_ONCE(icb_c.first_raise_ns, 0);
	atomic_long_set(&icb_c.handled, 0);
	smp_call_function_single(t->cpu, icb_c_arm, NULL, 1);
	start = jiffies;
	icb_c_hold(us, start + msecs_to_jiffies(hold_ms), big);
	hrtimer_cancel(&icb_c.timer);
	ic_synchronize_irq(ICB_C_LINE);
	ms = max(jiffies_to_msecs(jiffies - start), 1U);
	if (!icb_c.n)
		return -ENODATA;
	icb_sort_u64(icb_c.lat_ns, icb_c.n);
	res->p50_ns = icb_c.lat_ns[icb_c.n / 2];
	res->p99_ns = icb_c.lat_ns[(icb_c.n * 99) / 100];
	res->max_ns = icb_c.lat_ns[icb_c.n - 1];
	res->handled_per_s = div_u64((u64)atomic_long_read(&icb_c.handled) * MSEC_PER_SEC, ms);
	return 0;
}

/**
 * icb_contention() - every contention figure of this load.
 * @t: the busy target CPU (another than the caller's).
 * @hold_ms: how long each figure lasts.
 * @report: called with each figure's name and result, or with an error.
 *
 * Context: process, bound to a CPU other than @t's; sleeps.
 * Return: handler runs outside hardirq (0 unless something is wrong), or
 * a negative errno if the line or the buffer could not be set up.
 */
long icb_contention(struct icb_target *t, unsigned int hold_ms,
		    void (*report)(const char *name, int err, const struct icb_c_result *res))
{
	struct icb_c_result res;
	char name[32];
	unsigned int i;
	int related, err;

	icb_c.lat_ns = kcalloc(ICB_C_SAMPLES, sizeof(u64), GFP_KERNEL);
	if (!icb_c.lat_ns)
		return -ENOMEM;
	raw_spin_lock_init(&icb_c.lock);
	atomic_long_set(&icb_c.outside, 0);
	icb_c.period = ns_to_ktime(NSEC_PER_SEC / ICB_C_RATE);
	hrtimer_init(&icb_c.timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	icb_c.timer.function = icb_c_raiser;
	err = ic_request_irq(ICB_C_LINE, icb_c_handler, IC_SA_INTERRUPT, "bench-cont", &icb_c);
	if (err) {
		kfree(icb_c.lat_ns);
		return err;
	}
	ic_set_affinity(ICB_C_LINE, t->cpu);
	for (i = 0; i < ARRAY_SIZE(icb_holds_us); i++) {
		for (related = 0; related < 2; related++) {
			snprintf(name, sizeof(name), "%s_h%u", related ? "related" : "unrelated",
				 icb_holds_us[i]);
			err = icb_c_figure(t, icb_holds_us[i], related, hold_ms, &res);
			report(name, err, &res);
		}
	}
	ic_set_affinity(ICB_C_LINE, -1);
	ic_free_irq(ICB_C_LINE, &icb_c);
	kfree(icb_c.lat_ns);
	return atomic_long_read(&icb_c.outside);
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
