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
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>

#include <irqcore.h>
#include <irqcore_param.h>

#include "counter.h"
#include "ctl.h"
#include "faultpoint.h"
#include "hotplug.h"
#include "devline.h"
#include "hw.h"
#include "internal.h"
#include "irq.h"
#include "proc.h"
#include "regime.h"
#include "selftest/selftest.h"
#include "softirq.h"
#include "spin.h"

static const char * const ic_inject_names[] = {
	[IC_INJECT_NONE] = "none",
	[IC_INJECT_WARN] = "warn",
	[IC_INJECT_KTAP_FAIL] = "ktap_fail",
	[IC_INJECT_STALL] = "stall",
	[IC_INJECT_LEAK] = "leak",
	[IC_INJECT_HOTPLUG_WINDOW] = "hotplug_window",
	[IC_INJECT_UNLOAD_DISPATCH] = "unload_dispatch",
	[IC_INJECT_LOST_KICK] = "lost_kick",
	NULL
};

int ic_param_inject = IC_INJECT_NONE;
static struct ic_param_enum ic_inject_param = {
	.names = ic_inject_names,
	.value = &ic_param_inject,
};

ic_module_param_enum(inject, ic_inject_param,
		     "Deliberate fault for the runner's self-test: none (default), warn, ktap_fail, stall (regime=biglock: hold cli() past stall_ms), leak (one allocation kmemleak must report), hotplug_window (sleep where CPU hotplug must be held off), unload_dispatch (unload while another CPU is inside a dispatch), lost_kick (unload with a kick lost on another CPU)");

unsigned int ic_param_wait_ms = 10000;
static struct ic_param_range ic_wait_param = {
	.min = 100,
	.max = 60000,
	.value = &ic_param_wait_ms,
};

ic_module_param_range(wait_ms, ic_wait_param,
		      "How long a self-test waits for an interrupt to arrive, in ms (100..60000, default 10000)");

static const char * const ic_counter_names[] = {
	[IC_LAYOUT_SEED] = "seed",
	[IC_LAYOUT_SPLIT] = "split",
	NULL
};

static int ic_param_counter = IC_LAYOUT_SPLIT;
static struct ic_param_enum ic_counter_param = {
	.names = ic_counter_names,
	.value = &ic_param_counter,
};

ic_module_param_enum(counter, ic_counter_param,
		     "Counter layout: seed (the seed commit's IRQ_OFFSET 64) or split (2.5.28 release, default)");

static const char * const ic_regime_names[] = {
	[IC_REGIME_NOLOCK] = "nolock",
	[IC_REGIME_BIGLOCK] = "biglock",
	NULL
};

static int ic_param_regime = IC_REGIME_NOLOCK;
static struct ic_param_enum ic_regime_param = {
	.names = ic_regime_names,
	.value = &ic_param_regime,
};

ic_module_param_enum(regime, ic_regime_param,
		     "Interrupt core design: nolock (2.5.28, default) or biglock (2.5.27, global cli())");

unsigned int ic_param_stall_ms = 2000;
static struct ic_param_range ic_stall_param = {
	.min = 100,
	.max = 60000,
	.value = &ic_param_stall_ms,
};

ic_module_param_range(stall_ms, ic_stall_param,
		      "regime=biglock: report a wait for the global IRQ lock longer than this, in ms (100..60000, default 2000)");

static const char * const ic_selftest_names[] = {
	[IC_SELFTEST_ALL] = "all",
	[IC_SELFTEST_NONE] = "none",
	[IC_SELFTEST_FAULT] = "fault",
	NULL
};

/*
 * All, unless a kernel configuration chose otherwise (the Kconfig choice
 * of drivers/misc/irqcore/; out of tree there is none).
 */
int ic_param_selftest = IS_ENABLED(CONFIG_IRQCORE_SELFTEST_NONE) ?
			IC_SELFTEST_NONE : IC_SELFTEST_ALL;
static struct ic_param_enum ic_selftest_param = {
	.names = ic_selftest_names,
	.value = &ic_param_selftest,
};

ic_module_param_enum(selftest, ic_selftest_param,
		     "Self-tests at load: all (default), none (for loads that only serve another module, such as the torture test) or fault (CPU hotplug under load; leaves the last CPU offline)");

static unsigned int ic_param_fail_alloc;
static struct ic_param_range ic_fail_alloc_param = {
	.min = 0,
	.max = 100000,
	.value = &ic_param_fail_alloc,
};

ic_module_param_range(fail_alloc, ic_fail_alloc_param,
		      "Fault test: fail the N-th allocation or thread creation of irqcore's init (0..100000, default 0: none)");

static unsigned int ic_param_nr_irqs = 64;
static struct ic_param_range ic_nr_irqs_param = {
	.min = 16,
	.max = IC_NR_IRQS_MAX,
	.value = &ic_param_nr_irqs,
};

ic_module_param_range(nr_irqs, ic_nr_irqs_param,
		      "Lines of the virtual interrupt controller (16..256, default 64)");

/**
 * ic_print_params() - print every parameter on one stable line.
 * @when: "start" or "end"; scripts match "irqcore: params(start): ".
 *
 * Context: process.
 */
void ic_print_params(const char *when)
{
	pr_info("params(%s): version=%s regime=%s counter=%s nr_irqs=%u selftest=%s inject=%s wait_ms=%u stall_ms=%u fail_alloc=%u cpus=%u\n",
		when, IC_VERSION_STRING,
		ic_param_enum_name(&ic_regime_param, ic_param_regime),
		ic_param_enum_name(&ic_counter_param, ic_param_counter),
		ic_param_nr_irqs,
		ic_param_enum_name(&ic_selftest_param, ic_param_selftest),
		ic_param_enum_name(&ic_inject_param, ic_param_inject),
		ic_param_wait_ms, ic_param_stall_ms, ic_param_fail_alloc, num_online_cpus());
}

/*
 * inject=hotplug_window: widen the windows that the hotplug lock closes,
 * so that a CPU toggled online and offline by the guest meanwhile would
 * land in them if it were not held.
 */
static void ic_inject_hotplug_window(void)
{
	if (ic_param_inject == IC_INJECT_HOTPLUG_WINDOW)
		msleep(100);
}

static int __init ic_init(void)
{
	int err;

	err = ic_param_check_names(THIS_MODULE);
	if (err)
		return err;
	ic_print_params("start");
	ic_fault_init(ic_param_fail_alloc);

	if (ic_param_inject == IC_INJECT_WARN)
		WARN(1, KBUILD_MODNAME ": inject=warn: deliberate warning for the runner self-test\n");
	/* The pointer is dropped on purpose: kmemleak must find the object. */
	if (ic_param_inject == IC_INJECT_LEAK && !kmalloc(64, GFP_KERNEL))
		pr_warn("inject=leak: could not even allocate the leak\n");

	err = ic_counter_init(ic_param_counter);
	if (err)
		goto err_counter;
	ic_spin_init(ic_param_stall_ms);
	err = ic_regime_init(ic_param_regime);
	if (err)
		goto err_regime;
	err = ic_irq_init(ic_param_nr_irqs, &ic_vic);
	if (err)
		goto err_irq;
	err = ic_softirq_init();
	if (err)
		goto err_softirq;
	/*
	 * No CPU comes or goes from before the per-CPU parts are set up for
	 * the online CPUs until the hotplug callbacks that follow CPUs are
	 * in place (hotplug.c says why).
	 */
	cpus_read_lock();
	err = ic_hw_init(ic_param_nr_irqs);
	if (err)
		goto err_hw;
	err = ic_softirq_start();
	if (err)
		goto err_softirq_start;
	ic_inject_hotplug_window();
	err = ic_hotplug_init();
	if (err)
		goto err_hotplug;
	cpus_read_unlock();
	err = ic_proc_init();
	if (err)
		goto err_proc;
	ic_fault_finish();
	err = ic_selftest_run();
	if (err)
		goto err_selftest;
	/* Last: a user of /dev/irqcore finds the core running. */
	err = ic_ctl_init();
	if (err)
		goto err_ctl;

	pr_info("loaded\n");
	return 0;

err_ctl:
err_selftest:
	ic_proc_exit();
err_proc:
	cpus_read_lock();
	ic_hotplug_exit();
err_hotplug:
	ic_softirq_stop();
err_softirq_start:
	ic_hw_exit();
err_hw:
	cpus_read_unlock();
	ic_softirq_exit();
err_softirq:
	ic_irq_exit_descs();
err_irq:
	ic_regime_exit();
err_regime:
	ic_counter_exit();
err_counter:
	return err;
}

static void __exit ic_exit(void)
{
	int bad = ic_check_accounting("unload");

	WARN(bad, KBUILD_MODNAME ": %d lines lost track of a raise\n", bad);
	ic_ctl_exit();
	ic_devline_exit();
	ic_proc_exit();
	/* From the last hotplug callback to the last kick, no CPU goes. */
	cpus_read_lock();
	ic_hotplug_exit();
	ic_inject_hotplug_window();
	ic_softirq_stop();
	ic_hw_exit();
	cpus_read_unlock();
	ic_softirq_exit();
	ic_irq_exit_descs();
	ic_regime_exit();
	ic_counter_exit();
	ic_print_params("end");
	pr_info("unloaded\n");
}

module_init(ic_init);
module_exit(ic_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("The irqcore developers");
MODULE_DESCRIPTION("The Linux 2.5.27 and 2.5.28 SMP interrupt cores, side by side");
MODULE_VERSION(IC_VERSION_STRING);
