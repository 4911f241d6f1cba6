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

/* Cases run again after a host stall, and cases skipped for one, this load. */
static unsigned int ic_stall_reruns, ic_stall_skips;

/*
 * The skip reason of a case that reported a host stall in every run: the
 * last run's measurement, so that the skip says what the host did.
 */
static char ic_stall_skip[200];

static void ic_run_case(struct ic_ktap *k, const struct ic_case *c)
{
	const char *skip = NULL;
	enum ic_result r;
	unsigned int run;

	/*
	 * A case that could not decide because a CPU it needed did not run
	 * is run again: a slow host costs time, not the verdict. Each run's
	 * measurement goes to the log.
	 */
	for (run = 1; ; run++) {
		skip = NULL;
		r = c->run(&skip);
		if (r != IC_STALL)
			break;
		ic_ktap_diag("%s: host stall in run %u of %u: %s", c->name, run, IC_STALL_RUNS,
			     ic_stall_reason());
		if (run == IC_STALL_RUNS) {
			snprintf(ic_stall_skip, sizeof(ic_stall_skip), "host stall in %u runs: %s",
				 IC_STALL_RUNS, ic_stall_reason());
			skip = ic_stall_skip;
			r = IC_SKIP;
			ic_stall_skips++;
			break;
		}
		ic_stall_reruns++;
	}
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
	ic_stall_reruns = 0;
	ic_stall_skips = 0;

	ic_ktap_begin(&k, n);
	/*
	 * The injected stall first: a load gives one stall report, and a
	 * case before it whose wait a loaded host stretched past stall_ms
	 * (a 100 ms handler's, 240 ms on a fresh machine building kernels
	 * beside the guest) took that report, and the runner found no
	 * report of the injected hold.
	 */
	if (stall)
		ic_run_case(&k, &ic_cli_stall_case);
	for (i = 0; i < nr; i++)
		for (j = 0; j < suites[i]->nr; j++)
			ic_run_case(&k, &suites[i]->cases[j]);
	if (inject)
		ic_run_case(&k, &ic_injected_case);

	pr_info("selftest: %u cases, %u failed, %u run again after a host stall, %u skipped for one\n",
		k.done, k.failed, ic_stall_reruns, ic_stall_skips);
	return 0;
}
