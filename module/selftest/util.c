// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore - helpers that the self-test cases share: another CPU, a case
 * body pinned to one CPU, a test thread's end, a bystander that counts
 * its turns on a CPU, and the reason of a host stall. Below both the runner
 * (selftest.c) and the cases, so that a case never calls up into the file
 * that runs it (tests/circles).
 */
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/string.h>
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

/*
 * What the last case that reported a host stall measured. The runner runs
 * one case at a time, so one buffer serves.
 */
static char ic_stall_why[160];

/**
 * ic_stall() - end a case that could not decide because a CPU it needed
 * did not run: say what was measured (the heartbeat's beats, the wait's
 * length), for the runner to report and run the case again.
 * @fmt: printf format of the measurement.
 *
 * Only for an outcome the heartbeat (heartbeat.c) or the case's own
 * progress counters show to be the host's: "the code is wrong" must stay
 * a failure.
 *
 * Context: process, the case's body.
 * Return: IC_STALL.
 */
enum ic_result ic_stall(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vscnprintf(ic_stall_why, sizeof(ic_stall_why), fmt, ap);
	va_end(ap);
	return IC_STALL;
}

/**
 * ic_stall_reason() - what the last ic_stall() measured.
 *
 * Context: the self-test runner, after a case returned IC_STALL.
 * Return: the text; valid until the next ic_stall().
 */
const char *ic_stall_reason(void)
{
	return ic_stall_why;
}

static int ic_bystander_fn(void *arg)
{
	struct ic_bystander *b = arg;

	while (!READ_ONCE(b->stop)) {
		/* Pairs with the release in ic_bystander_go(). */
		if (smp_load_acquire(&b->go))
			WRITE_ONCE(b->turns, b->turns + 1);
		schedule_timeout_interruptible(1);
	}
	ic_kthread_wait_stop();
	return 0;
}

/**
 * ic_bystander_start() - a task on @cpu that wakes every jiffy and counts
 * the wakes in which it got its CPU, from ic_bystander_go() on.
 * @b: its state, zeroed here; it lives until ic_bystander_stop().
 * @cpu: where it runs.
 *
 * It wants its CPU briefly and often, and gets it as soon as the task
 * there yields: a task that waits, or loops, with a cond_resched() lets it
 * in within a tick; one that never yields (on a kernel that does not
 * preempt kthreads) keeps it out for as long as it runs. It takes almost
 * nothing from the task it watches: a bystander that spun for its turns
 * instead made the litmus case 200 times slower on a busy host.
 *
 * Context: process; sleeps.
 * Return: 0 or the negative errno of kthread_create().
 */
int ic_bystander_start(struct ic_bystander *b, int cpu)
{
	memset(b, 0, sizeof(*b));
	b->task = kthread_create(ic_bystander_fn, b, "ic_bystander/%d", cpu);
	if (IS_ERR(b->task))
		return PTR_ERR(b->task);
	kthread_bind(b->task, cpu);
	wake_up_process(b->task);
	return 0;
}

/**
 * ic_bystander_go() - let the bystander start to count its turns.
 * @b: a started bystander.
 *
 * Context: any.
 */
void ic_bystander_go(struct ic_bystander *b)
{
	/* Pairs with the acquire in ic_bystander_fn(). */
	smp_store_release(&b->go, true);
	wake_up_process(b->task);
}

/**
 * ic_bystander_stop() - end the bystander.
 * @b: a started bystander.
 *
 * Context: process; sleeps.
 * Return: the turns it took.
 */
unsigned long ic_bystander_stop(struct ic_bystander *b)
{
	WRITE_ONCE(b->stop, true);
	kthread_stop(b->task);
	return READ_ONCE(b->turns);
}
