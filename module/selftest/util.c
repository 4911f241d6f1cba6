// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore - helpers that the self-test cases share: another CPU, a case
 * body pinned to one CPU, a test thread's end. Below both the runner
 * (selftest.c) and the cases, so that a case never calls up into the file
 * that runs it (tests/circles).
 */
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/workqueue.h>

#include "selftest.h"

/**
 * ic_other_cpu() - an online CPU other than @cpu, or -1 with one CPU.
 * @cpu: the CPU to avoid.
 *
 * Context: process.
 * Return: the CPU number, or -1.
 */
int ic_other_cpu(int cpu)
{
	int other = cpumask_any_but(cpu_online_mask, cpu);

	return other < nr_cpu_ids ? other : -1;
}

/**
 * ic_kthread_wait_stop() - the end of a test kthread that has finished
 * its work before the test calls kthread_stop() on it.
 *
 * The thread must not return first: the test holds no reference to it,
 * and kthread_stop() on a thread that has exited and been reaped would
 * touch a freed task. So it sleeps here until asked.
 *
 * Context: a kthread, process context.
 */
void ic_kthread_wait_stop(void)
{
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
}

/**
 * ic_run_pinned() - run a case body in a kworker bound to the first CPU.
 * @fn: the body; it returns an enum ic_result.
 * @arg: its argument.
 * @skip: set when there is only one CPU.
 *
 * For cases that need two CPUs and must know which one they run on: the
 * body cannot migrate, so "this CPU" and "the other CPU" stay what they
 * were when it looked.
 *
 * Context: process; sleeps.
 * Return: what @fn returned, or IC_SKIP with one CPU.
 */
enum ic_result ic_run_pinned(long (*fn)(void *arg), void *arg, const char **skip)
{
	long r;

	if (num_online_cpus() < 2) {
		*skip = "needs 2 or more CPUs";
		return IC_SKIP;
	}
	cpus_read_lock();
	r = work_on_cpu(cpumask_first(cpu_online_mask), fn, arg);
	cpus_read_unlock();
	return r;
}
