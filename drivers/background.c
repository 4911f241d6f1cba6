// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore_torture - background=1: the torture cases over and over, with
 * more interrupt work beside them, until the module is unloaded.
 *
 * This is the load of fault/unload_under_load (docs/selftests.md): the guest
 * unloads the module, then irqcore, while all of this fires:
 *
 *   - the torture cases, one after another, in a controller kthread: a hard
 *     hrtimer raising the case's line on the last CPU, process-context
 *     threads on the others;
 *   - irqcore's virtual timer (line 0) ticking on every CPU; each tick
 *     schedules a tasklet and a high-priority tasklet;
 *   - a second line aimed at the last CPU and raised from a kthread on the
 *     first one, so that its edges cross CPUs; its handler schedules the
 *     tasklet too.
 *
 * ict_bg_stop() first makes sure that the unload lands on a live load: it
 * waits (up to a second) until each source has fired again -- a tick, a
 * crossing edge, a tasklet and a high-priority tasklet run -- and prints
 * how much each did meanwhile ("background: at unload: ..."), so that the
 * fault test can require all of them above zero. Then it stops each
 * source of work before it tears down what that source feeds: the cases
 * (the controller finishes the one under way and frees its line), the
 * raiser, the timer, then the lines (ic_free_irq() waits for a handler
 * still running), and the tasklets last, once no handler can schedule them
 * again. What remains after it is nothing of this module's.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/printk.h>
#include <linux/sched.h>

#include <irqcore.h>

#include "torture.h"

#define ICT_BG_HZ	100	/* virtual timer ticks per second per CPU */

/**
 * struct ict_bg - the background load.
 * @ctl: the controller kthread, running the torture cases.
 * @raiser: the kthread raising @cross_irq from another CPU.
 * @cross_irq: the line whose edges cross CPUs.
 * @tasklet: scheduled by every tick and every @cross_irq handler.
 * @hi_tasklet: scheduled by every tick.
 * @stopping: set by ict_bg_stop() before it stops the controller.
 * @ticks: line 0 handler runs.
 * @cross_runs: @cross_irq handler runs.
 * @raises: raises of @cross_irq.
 * @tasklet_runs: @tasklet runs.
 * @hi_runs: @hi_tasklet runs.
 * @round: runs one round of the cases; torture.c passes it down, so that
 *	this file does not call up into the one that starts it.
 * @rounds: rounds of all selected cases completed (controller only).
 * @unexpected: unexpected case outcomes (controller only).
 * @cases: cases completed with a verdict (controller only).
 * @case_handled: instances of the cases' line handled, over every case
 *	including one the unload cut short (controller only).
 */
static struct ict_bg {
	int (*round)(void);
	struct task_struct *ctl;
	struct task_struct *raiser;
	unsigned int cross_irq;
	struct ic_tasklet tasklet;
	struct ic_tasklet hi_tasklet;
	atomic_t stopping;
	atomic_long_t ticks;
	atomic_long_t cross_runs;
	atomic_long_t raises;
	atomic_long_t tasklet_runs;
	atomic_long_t hi_runs;
	long rounds;
	long unexpected;
	long cases;
	long case_handled;
} ict_bg;

/* What the sources had done at one instant (ict_bg_live()). */
struct ict_bg_counts {
	long ticks;
	long cross_runs;
	long tasklet_runs;
	long hi_runs;
};

/**
 * ict_bg_stopping() - has the unload begun?
 *
 * Context: any. Always false without background=1.
 * Return: true once ict_bg_stop() was called.
 */
bool ict_bg_stopping(void)
{
	return atomic_read(&ict_bg.stopping);
}

/**
 * ict_bg_case_done() - a case of the background load has ended.
 * @handled: its line's handled instances.
 * @cut: the unload cut it short (no verdict).
 *
 * Context: the controller kthread (torture.c, ict_run_case()), with
 * background=1 only.
 */
void ict_bg_case_done(long handled, bool cut)
{
	ict_bg.case_handled += handled;
	ict_bg.cases += !cut;
}

static void ict_bg_count(unsigned long data)
{
	atomic_long_inc((atomic_long_t *)data);
}

static void ict_bg_tick(unsigned int irq, void *dev_id)
{
	atomic_long_inc(&ict_bg.ticks);
	ic_tasklet_schedule(&ict_bg.tasklet);
	ic_tasklet_hi_schedule(&ict_bg.hi_tasklet);
}

static void ict_bg_cross(unsigned int irq, void *dev_id)
{
	atomic_long_inc(&ict_bg.cross_runs);
	ic_tasklet_schedule(&ict_bg.tasklet);
}

static int ict_bg_raise(void *unused)
{
	while (!kthread_should_stop()) {
		ic_raise(ict_bg.cross_irq);
		atomic_long_inc(&ict_bg.raises);
		usleep_range(1000, 2000);
	}
	return 0;
}

static int ict_bg_control(void *unused)
{
	int ret = 0;

	while (!kthread_should_stop() && ret >= 0) {
		/* As the load-time run does: no CPU leaves during a round. */
		cpus_read_lock();
		ret = ict_bg.round();
		cpus_read_unlock();
		if (ret >= 0) {
			ict_bg.unexpected += ret;
			/* A round the unload cut short is not counted. */
			ict_bg.rounds += !ict_bg_stopping();
		}
	}
	if (ret < 0)
		pr_err("background: a case could not run (%d); idle until unloaded\n", ret);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(HZ / 10);
	return 0;
}

/**
 * ict_bg_start() - start the background load (see the top of this file).
 * @round: runs every selected case once, as at load; returns the number
 *	of unexpected outcomes or a negative errno.
 *
 * Context: process (module init); sleeps.
 * Return: 0, or a negative errno with nothing left running.
 */
int ict_bg_start(int (*round)(void))
{
	int last = cpumask_last(cpu_online_mask);
	int first = cpumask_first(cpu_online_mask);
	int err;

	ict_bg.round = round;
	ict_bg.cross_irq = ic_nr_irqs() - 2;
	ic_tasklet_init(&ict_bg.tasklet, ict_bg_count, (unsigned long)&ict_bg.tasklet_runs);
	ic_tasklet_init(&ict_bg.hi_tasklet, ict_bg_count, (unsigned long)&ict_bg.hi_runs);

	err = ic_request_irq(IC_TIMER_IRQ, ict_bg_tick, IC_SA_INTERRUPT, "torture-tick", &ict_bg);
	if (err)
		return err;
	err = ic_request_irq(ict_bg.cross_irq, ict_bg_cross, 0, "torture-cross", &ict_bg);
	if (err)
		goto out_tick;
	ic_set_affinity(ict_bg.cross_irq, last);
	err = ic_timer_start(ICT_BG_HZ);
	if (err)
		goto out_cross;
	ict_bg.raiser = kthread_create_on_cpu(ict_bg_raise, NULL, first, "ict_bg_raise/%u");
	if (IS_ERR(ict_bg.raiser)) {
		err = PTR_ERR(ict_bg.raiser);
		goto out_timer;
	}
	wake_up_process(ict_bg.raiser);
	ict_bg.ctl = kthread_run(ict_bg_control, NULL, "ict_bg_ctl");
	if (IS_ERR(ict_bg.ctl)) {
		err = PTR_ERR(ict_bg.ctl);
		kthread_stop(ict_bg.raiser);
		goto out_timer;
	}
	pr_info("background: cases, line %u aimed at CPU%d raised from CPU%d, timer %u Hz with tasklets, until unloaded\n",
		ict_bg.cross_irq, last, first, ICT_BG_HZ);
	return 0;

out_timer:
	ic_timer_stop();
out_cross:
	ic_set_affinity(ict_bg.cross_irq, -1);
	ic_free_irq(ict_bg.cross_irq, &ict_bg);
out_tick:
	ic_free_irq(IC_TIMER_IRQ, &ict_bg);
	ic_tasklet_kill(&ict_bg.tasklet);
	ic_tasklet_kill(&ict_bg.hi_tasklet);
	return err;
}

static void ict_bg_read(struct ict_bg_counts *c)
{
	c->ticks = atomic_long_read(&ict_bg.ticks);
	c->cross_runs = atomic_long_read(&ict_bg.cross_runs);
	c->tasklet_runs = atomic_long_read(&ict_bg.tasklet_runs);
	c->hi_runs = atomic_long_read(&ict_bg.hi_runs);
}

/*
 * Wait, up to a second, until every source has fired again since the
 * unload began (the load is live: the teardown that follows meets work in
 * flight), and say what each did meanwhile. A source that never fires
 * shows as 0 here, which fails fault/unload_under_load.
 */
static void ict_bg_live(void)
{
	struct ict_bg_counts at, now;
	unsigned long start = jiffies;

	ict_bg_read(&at);
	do {
		usleep_range(1000, 2000);
		ict_bg_read(&now);
		if (now.ticks > at.ticks && now.cross_runs > at.cross_runs &&
		    now.tasklet_runs > at.tasklet_runs && now.hi_runs > at.hi_runs)
			break;
	} while (time_before(jiffies, start + HZ));
	pr_info("background: at unload: ticks=%ld cross_runs=%ld tasklet_runs=%ld hi_tasklet_runs=%ld within_ms=%u\n",
		now.ticks - at.ticks, now.cross_runs - at.cross_runs,
		now.tasklet_runs - at.tasklet_runs, now.hi_runs - at.hi_runs,
		jiffies_to_msecs(jiffies - start));
}

/**
 * ict_bg_stop() - stop the background load, source by source.
 *
 * Context: process (module exit); sleeps.
 */
void ict_bg_stop(void)
{
	ict_bg_live();
	atomic_set(&ict_bg.stopping, 1);
	kthread_stop(ict_bg.ctl);
	kthread_stop(ict_bg.raiser);
	ic_timer_stop();
	ic_set_affinity(ict_bg.cross_irq, -1);
	ic_free_irq(ict_bg.cross_irq, &ict_bg);
	ic_free_irq(IC_TIMER_IRQ, &ict_bg);
	ic_tasklet_kill(&ict_bg.tasklet);
	ic_tasklet_kill(&ict_bg.hi_tasklet);
	pr_info("background: stopped: rounds=%ld unexpected=%ld cases=%ld case_handled=%ld ticks=%ld cross_raises=%ld cross_runs=%ld tasklet_runs=%ld hi_tasklet_runs=%ld\n",
		ict_bg.rounds, ict_bg.unexpected, ict_bg.cases, ict_bg.case_handled,
		atomic_long_read(&ict_bg.ticks), atomic_long_read(&ict_bg.raises),
		atomic_long_read(&ict_bg.cross_runs), atomic_long_read(&ict_bg.tasklet_runs),
		atomic_long_read(&ict_bg.hi_runs));
}
