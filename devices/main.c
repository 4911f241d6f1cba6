// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore_edu - a real device's interrupt in irqcore: QEMU's edu (PCI
 * 1234:11e8) driven through an irqcore device line, and the KTAP cases that
 * check 2.5's level and edge semantics on it (docs/devices.md).
 *
 * The load registers the PCI driver (edu.c), whose probe binds irqcore's
 * line line= to the device's MSI vector (mode=msi, an edge line) or its
 * INTx pin (mode=intx, a level line) and installs the handler; then the
 * cases run on the first device bound (selftest.c), one KTAP document. A
 * load without an edu device fails with -ENODEV: the guest must be booted
 * with "-device edu" (tests/run --device edu). With fire_us= the device
 * keeps interrupting after the cases, so that a removal (rmmod or a sysfs
 * unbind) meets it firing.
 *
 * Output lines (stable):
 *   irqcore_edu: params(start|end): mode=M line=N selftest=S fire_us=N latency=N
 *     hold_us=N regime=R cpus=N
 *   irqcore_edu: latency: regime=R mode=M hold_us=H samples=N ... (latency.c)
 *   irqcore_edu: End of test: SUCCESS|FAILURE: cases=N failed=N
 *   irqcore_edu 0000:00:04.0: edu: removed[ while firing]: runs=N not_mine=N status_left=0xN
 *     unbind=0|-ERRNO (unbind.h: a line that would not unbind is reported)
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/module.h>
#include <linux/pci.h>

#include <irqcore.h>
#include <irqcore_param.h>

#include "edu.h"

static const char * const edu_mode_names[] = { "msi", "intx", NULL };
int edu_param_mode = EDU_MODE_MSI;
static struct ic_param_enum edu_mode_param = {
	.names = edu_mode_names,
	.value = &edu_param_mode,
};

ic_module_param_enum(mode, edu_mode_param,
		     "the device's interrupt: msi (default; an edge line) or intx (a level line)");

unsigned int edu_param_line = 40;
static struct ic_param_range edu_line_param = { 1, IC_NR_IRQS_MAX - 1, &edu_param_line };

ic_module_param_range(line, edu_line_param,
		      "the irqcore line the device's interrupt enters (default 40; 1..255, below irqcore's nr_irqs; 0 is the timer)");

static const char * const edu_selftest_names[] = { "all", "none", NULL };
static int edu_param_selftest;
static struct ic_param_enum edu_selftest_param = {
	.names = edu_selftest_names,
	.value = &edu_param_selftest,
};

ic_module_param_enum(selftest, edu_selftest_param,
		     "all (default): run the cases at load; none: only bind the driver");

static unsigned int edu_param_fire_us;
static struct ic_param_range edu_fire_param = { 0, 100000, &edu_param_fire_us };

ic_module_param_range(fire_us, edu_fire_param,
		      "after the cases, raise the device every this many microseconds until it is removed (0, the default: never; 0..100000)");

static unsigned int edu_param_latency;
static struct ic_param_range edu_latency_param = { 0, 100000, &edu_param_latency };

ic_module_param_range(latency, edu_latency_param,
		      "after the cases, measure the raise->handler latency over this many raises (0, the default: no; 0..100000; latency.c)");

static unsigned int edu_param_hold_us;
static struct ic_param_range edu_hold_param = { 0, 10000, &edu_param_hold_us };

ic_module_param_range(hold_us, edu_hold_param,
		      "during latency=, hold cli() (biglock) or a driver lock (nolock) on the first CPU this many us at 50 % duty (0, the default: no holder; 0..10000)");

static void edu_print_params(const char *when)
{
	pr_info("params(%s): mode=%s line=%u selftest=%s fire_us=%u latency=%u hold_us=%u regime=%s cpus=%u\n",
		when, edu_mode_names[edu_param_mode], edu_param_line,
		edu_selftest_names[edu_param_selftest], edu_param_fire_us, edu_param_latency,
		edu_param_hold_us, ic_regime_name(), num_online_cpus());
}

static int __init edu_module_init(void)
{
	struct edu_dev *edu;
	int err;

	err = ic_param_check_names(THIS_MODULE);
	if (err)
		return err;
	/* The range above is the API's; irqcore's load may have fewer lines. */
	if (edu_param_line >= ic_nr_irqs()) {
		pr_err("invalid line=%u; valid range: 1..%u (irqcore's nr_irqs=%u)\n",
		       edu_param_line, ic_nr_irqs() - 1, ic_nr_irqs());
		return -EINVAL;
	}
	edu_print_params("start");
	err = pci_register_driver(&edu_pci_driver);
	if (err)
		return err;
	/* Bound, and kept so: an unbind waits for the cases (edu_hold_first()). */
	edu = edu_hold_first();
	if (!edu) {
		err = edu_last_probe_error();
		if (err)
			pr_err("the edu device's probe failed: %d (see above)\n", err);
		else
			pr_err("no edu device (QEMU needs -device edu: tests/run --device edu)\n");
		pci_unregister_driver(&edu_pci_driver);
		edu_unbind_stuck();
		return err ?: -ENODEV;
	}
	if (edu_param_selftest == 0)
		edu_selftest(edu);
	if (edu_param_latency) {
		err = edu_latency(edu, edu_param_latency, edu_param_hold_us);
		if (err < 0) {
			edu_unhold(edu);
			pci_unregister_driver(&edu_pci_driver);
			edu_unbind_stuck();
			return err;
		}
	}
	edu_fire_start(edu, edu_param_fire_us);
	edu_unhold(edu);
	return 0;
}

static void __exit edu_module_exit(void)
{
	pci_unregister_driver(&edu_pci_driver);
	edu_unbind_stuck();
	edu_print_params("end");
}

module_init(edu_module_init);
module_exit(edu_module_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("The irqcore developers");
MODULE_DESCRIPTION("QEMU's edu device driven through an irqcore device line, in 2.5's shape");
MODULE_VERSION(IC_VERSION_STRING);
