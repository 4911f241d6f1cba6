// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore_bench - critical sections per second as CPUs are added.
 *
 * k CPUs (k = 1 .. all online) each run a kthread that enters and leaves a
 * critical section as fast as it can for hold_ms: under biglock with
 * ic_cli()/ic_sti(), the one global lock every driver shared in 2.5.27;
 * under nolock with raw_spin_lock_irqsave() on a lock of the CPU's own driver,
 * as 2.5.28's conversions gave each driver. The figure is the total of
 * sections per second over the time the threads actually ran (from the
 * start signal to the stop signal, not the nominal hold_ms: a sleep under
 * TCG overshoots). The global lock serialises every CPU; the driver locks
 * do not. With more vCPUs than host cores the figures are oversubscribed,
 * and the report says so.
 *
 * Each k is measured twice, the control first: the same threads with the
 * section replaced by a private increment of their own counter. Under TCG
 * what k vCPUs can do at once is the host's business (its cores, its
 * translator's locks); the figure divided by its control, both from this
 * load, is what the section costs as CPUs are added.
 *
 * Each CPU's lock and counter are on cache lines of their own (a per-CPU
 * allocation of a cache-aligned struct): a "private" lock that shares a
 * line with another CPU's is not private, and the figure would measure the
 * line moving between them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cache.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include <irqcore.h>

#include "harness.h"
#include "scaling.h"

/**
 * struct icb_sc_cpu - one contending CPU, alone on its cache lines.
 * @lock: its driver's lock (nolock); nothing else.
 * @ops: sections (or, in the control, increments) it completed.
 * @task: its kthread.
 */
struct icb_sc_cpu {
	raw_spinlock_t lock;		/* its driver's lock; nothing else */
	unsigned long ops;
	struct task_struct *task;
} ____cacheline_aligned_in_smp;

static struct icb_sc_cpu __percpu *icb_sc;

/* The shared flags, read by every thread, written only by the controller. */
static struct {
	bool go;
	bool stop;
	bool big;
	bool control;
} icb_sc_flags ____cacheline_aligned_in_smp;

/* Not inlined, so that the control's loop has the shape of the section's. */
static noinline void icb_sc_nothing(void)
{
	barrier();
}

static int icb_sc_fn(void *arg)
{
	struct icb_sc_cpu *me = arg;
	bool big = icb_sc_flags.big, control = icb_sc_flags.control;
	unsigned long flags;

	while (!READ_ONCE(icb_sc_flags.go) && !kthread_should_stop())
		usleep_range(100, 200);
	while (!READ_ONCE(icb_sc_flags.stop)) {
		if (control) {
			icb_sc_nothing();
		} else if (big) {
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

/*
 * One figure: @k CPUs for @ms, the sections or the @control. Return:
 * per second of the time between the start and the stop signal, or -errno.
 */
static long icb_sc_figure(unsigned int k, bool control, unsigned int ms)
{
	unsigned int n = 0;
	unsigned long total = 0;
	u64 t0 = 0, elapsed = 0;
	long err = 0;
	int cpu;

	WRITE_ONCE(icb_sc_flags.go, false);
	WRITE_ONCE(icb_sc_flags.stop, false);
	icb_sc_flags.control = control;
	for_each_online_cpu(cpu) {
		struct icb_sc_cpu *c = per_cpu_ptr(icb_sc, cpu);

		c->task = NULL;
		if (n == k)
			continue;
		raw_spin_lock_init(&c->lock);
		c->ops = 0;
		c->task = kthread_create_on_cpu(icb_sc_fn, c, cpu, "icb_scale/%u");
		if (IS_ERR(c->task)) {
			err = PTR_ERR(c->task);
			c->task = NULL;
			break;
		}
		wake_up_process(c->task);
		n++;
	}
	if (!err) {
		t0 = ktime_get_ns();
		WRITE_ONCE(icb_sc_flags.go, true);
		msleep(ms);
		WRITE_ONCE(icb_sc_flags.stop, true);
		elapsed = ktime_get_ns() - t0;
	}
	WRITE_ONCE(icb_sc_flags.stop, true);
	for_each_online_cpu(cpu) {
		struct icb_sc_cpu *c = per_cpu_ptr(icb_sc, cpu);

		if (!c->task)
			continue;
		kthread_stop(c->task);
		total += c->ops;
	}
	if (err)
		return err;
	return elapsed ? (long)div64_u64((u64)total * NSEC_PER_SEC, elapsed) : -ENODATA;
}

/**
 * icb_scaling() - every scaling figure of this load.
 * @ms: how long each figure lasts.
 * @report: called with each k, whether it is the control, and its figure
 *	(or a negative errno).
 *
 * Context: process; sleeps. No other benchmark may run meanwhile: the
 * kthreads take every CPU in turn.
 * Return: 0, -ENOMEM, or -EFAULT if a CPU's struct shares a cache line
 * with another's (the figures would measure false sharing).
 */
int icb_scaling(unsigned int ms, void (*report)(unsigned int k, bool control, long per_s))
{
	unsigned int k;
	int cpu;

	icb_sc = alloc_percpu(struct icb_sc_cpu);
	if (!icb_sc)
		return -ENOMEM;
	/* Each CPU's copy starts a line and fills whole lines: nothing else is on them. */
	for_each_online_cpu(cpu) {
		if (!IS_ALIGNED((unsigned long)per_cpu_ptr(icb_sc, cpu), SMP_CACHE_BYTES) ||
		    sizeof(struct icb_sc_cpu) % SMP_CACHE_BYTES) {
			pr_info("scaling: CPU%d's lock and counter are not alone on their cache lines (at %lu bytes into a line, %zu bytes long)\n",
				cpu, (unsigned long)per_cpu_ptr(icb_sc, cpu) % SMP_CACHE_BYTES,
				sizeof(struct icb_sc_cpu));
			free_percpu(icb_sc);
			icb_sc = NULL;
			return -EFAULT;
		}
	}
	icb_sc_flags.big = !strcmp(ic_regime_name(), "biglock");
	for (k = 1; k <= num_online_cpus(); k++) {
		report(k, true, icb_sc_figure(k, true, ms));
		report(k, false, icb_sc_figure(k, false, ms));
	}
	free_percpu(icb_sc);
	icb_sc = NULL;
	return 0;
}
