// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore - the Linux 2.5.27 and 2.5.28 SMP interrupt cores as one module.
 *
 * This file only wires the parts together: it owns the module parameters,
 * calls each part's _init() in order and unwinds in reverse with a goto
 * ladder; ic_exit() mirrors the ladder. What each part does is said in its
 * own file.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bug.h>
#include <linux/kernel.h>
#include <linux/module.h>

#include <uapi/irqcore.h>

#include "internal.h"
#include "param.h"
#include "selftest/selftest.h"

static const char * const ic_inject_names[] = {
	[IC_INJECT_NONE] = "none",
	[IC_INJECT_WARN] = "warn",
	[IC_INJECT_KTAP_FAIL] = "ktap_fail",
	NULL
};

int ic_param_inject = IC_INJECT_NONE;
static struct ic_param_enum ic_inject_param = {
	.names = ic_inject_names,
	.value = &ic_param_inject,
};
ic_module_param_enum(inject, ic_inject_param,
		     "Deliberate fault for the runner's self-test: none (default), warn, ktap_fail");

unsigned int ic_param_wait_ms = 10000;
static struct ic_param_range ic_wait_param = {
	.min = 100,
	.max = 60000,
	.value = &ic_param_wait_ms,
};
ic_module_param_range(wait_ms, ic_wait_param,
		      "How long a self-test waits for an interrupt to arrive, in ms (100..60000, default 10000)");

/**
 * ic_print_params() - print every parameter on one stable line.
 * @when: "start" or "end"; scripts match "irqcore: params(start): ".
 *
 * Context: process.
 */
void ic_print_params(const char *when)
{
	pr_info("params(%s): version=%s inject=%s wait_ms=%u cpus=%u\n",
		when, IC_VERSION_STRING,
		ic_param_enum_name(&ic_inject_param, ic_param_inject),
		ic_param_wait_ms, num_online_cpus());
}

static int __init ic_init(void)
{
	int err;

	ic_print_params("start");

	if (ic_param_inject == IC_INJECT_WARN)
		WARN(1, KBUILD_MODNAME ": inject=warn: deliberate warning for the runner self-test\n");

	err = ic_selftest_run();
	if (err)
		goto err_selftest;

	pr_info("loaded\n");
	return 0;

err_selftest:
	return err;
}

static void __exit ic_exit(void)
{
	ic_print_params("end");
	pr_info("unloaded\n");
}

module_init(ic_init);
module_exit(ic_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("The irqcore developers");
MODULE_DESCRIPTION("The Linux 2.5.27 and 2.5.28 SMP interrupt cores, side by side");
MODULE_VERSION(IC_VERSION_STRING);
