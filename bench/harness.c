// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore_bench - jobs in genuine hardirq context on a busy CPU.
 */
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/sort.h>

#include "harness.h"

static int icb_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/**
 * icb_sort_u64() - sort measurements, for medians and percentiles.
 * @v: the values.
 * @n: how many.
 *
 * Context: any that may take a few microseconds.
 */
void icb_sort_u64(u64 *v, size_t n)
{
	sort(v, n, sizeof(*v), icb_cmp_u64, NULL);
}

/**
 * icb_kthread_wait_stop() - the end of a kthread that has finished its
 * work before its owner calls kthread_stop() on it.
 *
 * The thread must not return first: its owner holds no reference to it,
 * and kthread_stop() on a thread that has exited and been reaped would
 * touch a freed task.
 *
 * Context: a kthread, process context.
 */
void icb_kthread_wait_stop(void)
{
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
}

/* Keeps its CPU out of idle, with interrupts on, until told to stop. */
static int icb_spinner(void *arg)
{
	struct icb_target *t = arg;

	while (!READ_ONCE(t->stop))
		cpu_relax();
	icb_kthread_wait_stop();
	return 0;
}

static void icb_job(struct icb_target *t)
{
	t->hardirq = in_hardirq() && irqs_disabled();
	t->fn(t->arg);
	/* Pairs with the acquire in icb_wait(). */
	smp_store_release(&t->done, true);
}

static void icb_csd_fn(void *info)
{
	icb_job(info);
}

static void icb_work_fn(struct irq_work *work)
{
	icb_job(container_of(work, struct icb_target, work));
}

/**
 * icb_target_start() - keep @cpu busy and ready to run jobs.
 * @t: the target, zeroed by the caller.
 * @cpu: an online CPU; the caller's own CPU takes no spinner.
 *
 * Context: process; sleeps.
 * Return: 0 or the error of creating the spinner.
 */
int icb_target_start(struct icb_target *t, int cpu)
{
	t->cpu = cpu;
	INIT_CSD(&t->csd, icb_csd_fn, t);
	t->work = IRQ_WORK_INIT_HARD(icb_work_fn);
	if (cpu == raw_smp_processor_id())
		return 0;
	t->spinner = kthread_create_on_cpu(icb_spinner, t, cpu, "icb_busy/%u");
	if (IS_ERR(t->spinner)) {
		int err = PTR_ERR(t->spinner);

		t->spinner = NULL;
		return err;
	}
	wake_up_process(t->spinner);
	return 0;
}

/**
 * icb_target_stop() - let the target CPU go idle again.
 * @t: the target.
 *
 * Context: process; sleeps.
 */
void icb_target_stop(struct icb_target *t)
{
	WRITE_ONCE(t->stop, true);
	if (t->spinner)
		kthread_stop(t->spinner);
	t->spinner = NULL;
	irq_work_sync(&t->work);
}

/*
 * icb_send() - start @fn(@arg) on the target in hardirq; do not wait.
 * Context: preemption disabled if the target is this CPU (the irq_work
 * must be queued where the job is to run). Return: 0 or -EBUSY.
 */
int icb_send(struct icb_target *t, void (*fn)(void *arg), void *arg)
{
	t->fn = fn;
	t->arg = arg;
	t->hardirq = false;
	WRITE_ONCE(t->done, false);
	if (t->cpu == raw_smp_processor_id()) {
		irq_work_queue(&t->work);
		return 0;
	}
	return smp_call_function_single_async(t->cpu, &t->csd);
}

/**
 * icb_run_hardirq() - run @fn(@arg) on the target CPU in hardirq; wait.
 * @t: the target.
 * @fn: the job; it runs with interrupts off in genuine hardirq context.
 * @arg: its argument.
 *
 * Context: process; sleeps while the job runs.
 * Return: 0; -ETIMEDOUT if the job did not finish within a second;
 * -EPERM if it ran outside hardirq (no figure from it may be used).
 */
int icb_run_hardirq(struct icb_target *t, void (*fn)(void *arg), void *arg)
{
	unsigned long end = jiffies + HZ;
	int err;

	preempt_disable();
	err = icb_send(t, fn, arg);
	preempt_enable();
	if (err)
		return err;
	/* Pairs with the release in icb_job(). */
	while (!smp_load_acquire(&t->done)) {
		if (time_after(jiffies, end))
			return -ETIMEDOUT;
		usleep_range(50, 100);
	}
	return t->hardirq ? 0 : -EPERM;
}
