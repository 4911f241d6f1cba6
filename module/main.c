// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore - the Linux 2.5.27 and 2.5.28 SMP interrupt cores as one module.
 *
 * This file only wires the parts together: it calls each part's _init()
 * in order, with the parameters of param.c, and unwinds in reverse with a goto
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
	ic_param_defaults();
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
	err = ic_regime_init(ic_param_regime, ic_param_nr_cpus);
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
	/* What a raise costs here, which the control plane's budget charges. */
	ic_ctl_measure_init();
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
