// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore_bench - critical sections per second as CPUs are added.
 *
 * k CPUs (k = 1 .. all online) each run a kthread that enters and leaves a
 * critical section as fast as it can for hold_ms: under biglock with
 * ic_cli()/ic_sti(), the one global lock every driver shared in 2.5.27;
 * under nolock with raw_spin_lock_irqsave() on a lock of the CPU's own driver,
 * as 2.5.28's conversions gave each driver. The figure is the total of
 * sections per second. The global lock serialises every CPU; the driver
 * locks do not. With more vCPUs than host cores the figures are
 * oversubscribed, and the report says so.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include <irqcore.h>

#include "harness.h"
#include "scaling.h"

/**
 * struct icb_sc_cpu - one contending CPU.
 * @lock: its driver's lock (nolock); nothing else.
 * @ops: sections it completed.
 * @task: its kthread.
 */
struct icb_sc_cpu {
	raw_spinlock_t lock;		/* its driver's lock; nothing else */
	unsigned long ops;
	struct task_struct *task;
};

static struct icb_sc_cpu *icb_sc;
static bool icb_sc_go;
static bool icb_sc_stop;
static bool icb_sc_big;

static int icb_sc_fn(void *arg)
{
	struct icb_sc_cpu *me = arg;
	unsigned long flags;

	while (!READ_ONCE(icb_sc_go) && !kthread_should_stop())
		usleep_range(100, 200);
	while (!READ_ONCE(icb_sc_stop)) {
		if (icb_sc_big) {
			ic_cli();
			ic_sti();
		} else {
			raw_spin_lock_irqsave(&me->lock, flags);
			raw_spin_unlock_irqrestore(&me->lock, flags);
		}
		if (!(++me->ops % 256))
			cond_resched();
	}
	icb_kthread_wait_stop();
	return 0;
}

/* One figure: @k CPUs for @ms. Return: sections per second, or -errno. */
static long icb_sc_figure(unsigned int k, unsigned int ms)
{
	unsigned int i = 0, n;
	unsigned long total = 0;
	long err = 0;
	int cpu;

	WRITE_ONCE(icb_sc_go, false);
	WRITE_ONCE(icb_sc_stop, false);
	for_each_online_cpu(cpu) {
		struct icb_sc_cpu *c = &icb_sc[i];

		if (i == k)
			break;
		raw_spin_lock_init(&c->lock);
		c->ops = 0;
		c->task = kthread_create_on_cpu(icb_sc_fn, c, cpu, "icb_scale/%u");
		if (IS_ERR(c->task)) {
			err = PTR_ERR(c->task);
			break;
		}
		wake_up_process(c->task);
		i++;
	}
	n = i;
	if (!err) {
		WRITE_ONCE(icb_sc_go, true);
		msleep(ms);
	}
	WRITE_ONCE(icb_sc_stop, true);
	for (i = 0; i < n; i++) {
		kthread_stop(icb_sc[i].task);
		total += icb_sc[i].ops;
	}
	return err ? err : (long)div_u64((u64)total * MSEC_PER_SEC, ms);
}

/**
 * icb_scaling() - every scaling figure of this load.
 * @ms: how long each figure lasts.
 * @report: called with each k and its figure (or a negative errno).
 *
 * Context: process; sleeps. No other benchmark may run meanwhile: the
 * kthreads take every CPU in turn.
 * Return: 0 or -ENOMEM.
 */
int icb_scaling(unsigned int ms, void (*report)(unsigned int k, long per_s))
{
	unsigned int k;

	icb_sc = kcalloc(nr_cpu_ids, sizeof(*icb_sc), GFP_KERNEL);
	if (!icb_sc)
		return -ENOMEM;
	icb_sc_big = !strcmp(ic_regime_name(), "biglock");
	for (k = 1; k <= num_online_cpus(); k++)
		report(k, icb_sc_figure(k, ms));
	kfree(icb_sc);
	icb_sc = NULL;
	return 0;
}
