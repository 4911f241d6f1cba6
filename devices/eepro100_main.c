// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore_eepro100 - the seed's eepro100 on its own hardware: two Intel
 * 82557s (QEMU's i82557b) on one QEMU hub, driven through irqcore device
 * lines, exchanging real Ethernet frames (docs/devices.md).
 *
 * The load registers the PCI driver (eepro100.c), whose probe binds irqcore
 * line line= + N to the N-th chip's INTx pin (a level line; two chips on
 * one pin share a line). With two chips bound, the cases run
 * (eepro100_test.c, one KTAP document) and, with rtt=N, the frame
 * round-trip measurement (eepro100_rtt.c, a second one). With flood=1,
 * frames then keep flowing both ways until a chip is removed, and again
 * after the driver is bound to both anew, so that a removal (sysfs unbind,
 * rmmod) and irqcore's refused unload meet live traffic.
 *
 * The boot needs two chips on one hub, e.g. (tests/loads-nic):
 *   -netdev hubport,id=n0,hubid=0 -device i82557b,netdev=n0,addr=4
 *   -netdev hubport,id=n1,hubid=0 -device i82557b,netdev=n1,addr=6
 * (slots 4 and 6: two different PCI interrupt links, so two lines).
 *
 * Output lines (stable):
 *   irqcore_eepro100: params(start|end): line=N selftest=S flood=N rtt=N lines=L regime=R cpus=N
 *   irqcore_eepro100: End of test: SUCCESS|FAILURE: cases=N failed=N
 *   irqcore_eepro100: rtt: ... (eepro100_rtt.c)
 *   irqcore_eepro100 0000:00:0N.0: eepro100: removed[ while traffic flowed]: runs=N ...
 *     unbind=0|-ERRNO (unbind.h: a line that would not unbind is reported)
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pci.h>

#include <irqcore.h>
#include <irqcore_param.h>

#include "eepro100.h"

unsigned int ee_param_line = 44;
static struct ic_param_range ee_line_param = { 1, IC_NR_IRQS_MAX - EE_NR_DEVS, &ee_param_line };

ic_module_param_range(line, ee_line_param,
		      "the irqcore line of the first chip; the second gets line+1 (default 44; 1..254, below irqcore's nr_irqs)");

static const char * const ee_selftest_names[] = { "all", "none", NULL };
static int ee_param_selftest;
static struct ic_param_enum ee_selftest_param = {
	.names = ee_selftest_names,
	.value = &ee_param_selftest,
};

ic_module_param_enum(selftest, ee_selftest_param,
		     "all (default): run the cases at load; none: only bind the driver");

static unsigned int ee_param_flood;
static struct ic_param_range ee_flood_param = { 0, 1, &ee_param_flood };

ic_module_param_range(flood, ee_flood_param,
		      "1: after the cases, keep frames flowing both ways until a chip is removed (default 0; 0..1)");

static unsigned int ee_param_rtt;
static struct ic_param_range ee_rtt_param = { 0, 10000, &ee_param_rtt };

ic_module_param_range(rtt, ee_rtt_param,
		      "round trips to time per holder (none, 100 us, 1000 us at 50 % duty); 0 (the default): no measurement; 0..10000");

static const char * const ee_lines_names[] = { "any", "two", NULL };
int ee_param_lines = EE_LINES_ANY;
static struct ic_param_enum ee_lines_param = {
	.names = ee_lines_names,
	.value = &ee_param_lines,
};

ic_module_param_enum(lines, ee_lines_param,
		     "any (default): chips on one pin share a line, and sync_line is a skip; two: the boot gave them two pins (tests/loads-nic), and a shared line fails sync_line");

static void ee_print_params(const char *when)
{
	pr_info("params(%s): line=%u selftest=%s flood=%u rtt=%u lines=%s regime=%s cpus=%u\n",
		when, ee_param_line, ee_selftest_names[ee_param_selftest], ee_param_flood,
		ee_param_rtt, ee_lines_names[ee_param_lines], ic_regime_name(),
		num_online_cpus());
}

/*
 * The background traffic: DATA frames both ways, a few at a time, until
 * stopped. Started after the cases (flood=1) and again whenever the
 * driver has both chips bound anew; stopped by a chip's removal.
 */
static DEFINE_MUTEX(ee_flood_lock);
static struct task_struct *ee_flood_task;
static bool ee_flood_wanted;

static bool ee_flood_should_stop(void)
{
	return kthread_should_stop();
}

static int ee_flood_fn(void *arg)
{
	struct ee_dev **pair = arg;

	while (!kthread_should_stop()) {
		ee_pump(pair[0], pair[1], 16, ee_flood_should_stop);
		ee_pump(pair[1], pair[0], 16, ee_flood_should_stop);
		usleep_range(200, 400);
	}
	return 0;
}

/**
 * ee_flood_start() - start the background traffic, if flood=1 asked for it
 * and both chips are bound.
 *
 * Context: process (the load, or a probe).
 */
void ee_flood_start(void)
{
	static struct ee_dev *pair[EE_NR_DEVS];
	struct task_struct *t;

	mutex_lock(&ee_flood_lock);
	/* Both bound, neither leaving: see ee_remove() for the pairing. */
	if (ee_flood_wanted && !ee_flood_task && ee_get_pair(pair)) {
		t = kthread_run(ee_flood_fn, pair, "ee_flood");
		if (IS_ERR(t))
			pr_err("cannot start the background traffic: %ld\n", PTR_ERR(t));
		else
			ee_flood_task = t;
	}
	mutex_unlock(&ee_flood_lock);
}

/**
 * ee_flood_stop() - stop the background traffic; returns once it has.
 *
 * Context: process.
 */
void ee_flood_stop(void)
{
	mutex_lock(&ee_flood_lock);
	if (ee_flood_task)
		kthread_stop(ee_flood_task);
	ee_flood_task = NULL;
	mutex_unlock(&ee_flood_lock);
}

/**
 * ee_flood_running() - is the background traffic flowing?
 *
 * Context: process.
 * Return: true if it runs.
 */
bool ee_flood_running(void)
{
	bool running;

	mutex_lock(&ee_flood_lock);
	running = ee_flood_task;
	mutex_unlock(&ee_flood_lock);
	return running;
}

static int __init ee_module_init(void)
{
	struct ee_dev *a, *b;
	int err;

	err = ic_param_check_names(THIS_MODULE);
	if (err)
		return err;
	if (ee_param_line + EE_NR_DEVS - 1 >= ic_nr_irqs()) {
		pr_err("invalid line=%u; valid range: 1..%u (irqcore's nr_irqs=%u, and line+1 for the second chip)\n",
		       ee_param_line, ic_nr_irqs() - EE_NR_DEVS, ic_nr_irqs());
		return -EINVAL;
	}
	ee_print_params("start");
	err = pci_register_driver(&ee_pci_driver);
	if (err)
		return err;
	/* Bound, and kept so: an unbind waits for the cases (ee_hold()). */
	a = ee_hold(0);
	b = a ? ee_hold(1) : NULL;
	if (!a || !b) {
		if (a)
			ee_unhold(a);
		err = ee_last_probe_error();
		if (err)
			pr_err("an 82557's probe failed: %d (see above)\n", err);
		else
			pr_err("%s 82557 (QEMU needs two -device i82557b on one hub: tests/loads-nic)\n",
			       a ? "only one" : "no");
		pci_unregister_driver(&ee_pci_driver);
		ee_unbind_stuck();
		return err ?: -ENODEV;
	}
	if (ee_param_selftest == 0)
		ee_selftest(a, b);
	if (ee_param_rtt)
		ee_rtt(a, b, ee_param_rtt);
	ee_unhold(b);
	ee_unhold(a);
	mutex_lock(&ee_flood_lock);
	ee_flood_wanted = ee_param_flood;
	mutex_unlock(&ee_flood_lock);
	ee_flood_start();
	return 0;
}

static void __exit ee_module_exit(void)
{
	pci_unregister_driver(&ee_pci_driver);
	ee_flood_stop();
	ee_unbind_stuck();
	ee_print_params("end");
}

module_init(ee_module_init);
module_exit(ee_module_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("The irqcore developers");
MODULE_DESCRIPTION("The Intel 82557 (QEMU's i82557b) on irqcore device lines, in 2.5's eepro100 shape");
MODULE_VERSION(IC_VERSION_STRING);
