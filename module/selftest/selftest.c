// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore - run every self-test suite at load and write one KTAP document.
 *
 * A failed case does not fail the load: the host runner counts results from
 * the KTAP lines, and the module must still unload cleanly afterwards,
 * which is itself checked.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/workqueue.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/sched.h>

#include "../irq.h"
#include "selftest.h"

static const struct ic_suite * const ic_suites[] = {
	&ic_delivery_suite,
	&ic_counter_suite,
	&ic_dispatch_suite,
	&ic_softirq_suite,
	&ic_cli_suite,
	&ic_pending_suite,
	&ic_wait_suite,
	&ic_devline_suite,
	&ic_ctl_suite,
};

/* selftest=fault: left out of "all", because it takes CPUs offline. */
static const struct ic_suite * const ic_fault_suites[] = {
	&ic_fault_suite,
};

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
 * inject=ktap_fail: one case that always fails, so that the runner's
 * self-test can show that a failing case fails the run.
 */
static enum ic_result ic_injected_failure(const char **skip)
{
	ic_ktap_diag("inject=ktap_fail: this case fails on purpose");
	return IC_FAIL;
}

static const struct ic_case ic_injected_case = {
	.name = "injected_failure",
	.run = ic_injected_failure,
};

static void ic_run_case(struct ic_ktap *k, const struct ic_case *c)
{
	const char *skip = NULL;
	enum ic_result r;

	r = c->run(&skip);
	if (r == IC_SKIP && !skip)
		skip = "no reason given";
	/* Every case ends with nothing lost, whatever it tested. */
	if (r != IC_SKIP && ic_check_accounting(c->name)) {
		ic_ktap_diag("%s: accounting broken (raised != sum of outcomes)",
			     c->name);
		r = IC_FAIL;
	}
	ic_ktap_result(k, r == IC_PASS, c->name, r == IC_SKIP ? skip : NULL);
}

/**
 * ic_selftest_run() - run all self-tests and print the KTAP document.
 *
 * Context: process (module init); sleeps.
 * Return: 0. Failed cases are reported in KTAP, not as an error, so that
 * the unload that follows is tested too.
 */
int ic_selftest_run(void)
{
	bool fault = ic_param_selftest == IC_SELFTEST_FAULT;
	const struct ic_suite * const *suites = fault ? ic_fault_suites : ic_suites;
	unsigned int nr = fault ? ARRAY_SIZE(ic_fault_suites) : ARRAY_SIZE(ic_suites);
	/* The runner's injected cases go with the full run only. */
	bool inject = !fault && ic_param_inject == IC_INJECT_KTAP_FAIL;
	bool stall = !fault && ic_param_inject == IC_INJECT_STALL;
	struct ic_ktap k;
	unsigned int i, j, n = inject + stall;

	if (ic_param_selftest == IC_SELFTEST_NONE)
		return 0;

	for (i = 0; i < nr; i++)
		n += suites[i]->nr;

	ic_ktap_begin(&k, n);
	for (i = 0; i < nr; i++)
		for (j = 0; j < suites[i]->nr; j++)
			ic_run_case(&k, &suites[i]->cases[j]);
	if (inject)
		ic_run_case(&k, &ic_injected_case);
	if (stall)
		ic_run_case(&k, &ic_cli_stall_case);

	pr_info("selftest: %u cases, %u failed\n", k.done, k.failed);
	return 0;
}
