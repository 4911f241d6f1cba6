// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore_intel8x0 - the seed's intel8x0 on its own hardware: QEMU's AC97
 * (-device AC97 -audiodev none,id=...), PCM out streaming a generated
 * signal to a real-time deadline through an irqcore device line
 * (docs/devices.md).
 *
 * The load registers the PCI driver (intel8x0.c), whose probe binds irqcore
 * line line= to the chip's INTx pin and installs the handler; then the
 * cases run (intel8x0_test.c, one KTAP document). With stream=1 the chip
 * then plays on until it is removed, and again after the driver is bound
 * anew, so that a removal (sysfs unbind, rmmod) meets a playing stream.
 *
 * Output lines (stable):
 *   irqcore_intel8x0: params(start|end): line=N selftest=S stream=N queue=N hold_ms=N
 *     regime=R cpus=N
 *   irqcore_intel8x0: stream: regime=R queue=N ms=N completions=N per_s=N
 *     expected_per_s=N underruns=N
 *   irqcore_intel8x0: hold: regime=R hold_ms=N queue=N queued_ms=N underruns=N
 *     completions_in_hold=N completions_after=N
 *   irqcore_intel8x0: End of test: SUCCESS|FAILURE: cases=N failed=N
 *   irqcore_intel8x0 0000:00:0N.0: intel8x0: removed[ while streaming]: runs=N ...
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/module.h>
#include <linux/pci.h>

#include <irqcore.h>
#include <irqcore_param.h>

#include "intel8x0.h"

unsigned int i8x0_param_line = 48;
static struct ic_param_range i8x0_line_param = { 1, IC_NR_IRQS_MAX - 1, &i8x0_param_line };

ic_module_param_range(line, i8x0_line_param,
		      "the irqcore line the chip's interrupt enters (default 48; 1..255, below irqcore's nr_irqs)");

static const char * const i8x0_selftest_names[] = { "all", "none", NULL };
static int i8x0_param_selftest;
static struct ic_param_enum i8x0_selftest_param = {
	.names = i8x0_selftest_names,
	.value = &i8x0_param_selftest,
};

ic_module_param_enum(selftest, i8x0_selftest_param,
		     "all (default): run the cases at load; none: only bind the driver");

static unsigned int i8x0_param_stream;
static struct ic_param_range i8x0_stream_param = { 0, 1, &i8x0_param_stream };

ic_module_param_range(stream, i8x0_stream_param,
		      "1: after the cases, play until the chip is removed (default 0; 0..1)");

unsigned int i8x0_param_queue = 8;
static struct ic_param_range i8x0_queue_param = { 2, I8X0_NR_BD - 2, &i8x0_param_queue };

ic_module_param_range(queue, i8x0_queue_param,
		      "buffers of 10 ms kept queued ahead of the chip (default 8; 2..30)");

static unsigned int i8x0_param_hold_ms = 300;
static struct ic_param_range i8x0_hold_param = { 0, 2000, &i8x0_param_hold_ms };

ic_module_param_range(hold_ms, i8x0_hold_param,
		      "the hold case's section on another CPU, in ms; longer than queue x 10 ms + 20 or the case is a skip (default 300; 0..2000)");

static bool i8x0_stream_wanted;

/**
 * i8x0_stream_on_probe() - should a probe start the stream?
 *
 * Context: process (a probe).
 * Return: true once the load's cases are done, with stream=1.
 */
bool i8x0_stream_on_probe(void)
{
	return READ_ONCE(i8x0_stream_wanted);
}

static void i8x0_print_params(const char *when)
{
	pr_info("params(%s): line=%u selftest=%s stream=%u queue=%u hold_ms=%u regime=%s cpus=%u\n",
		when, i8x0_param_line, i8x0_selftest_names[i8x0_param_selftest],
		i8x0_param_stream, i8x0_param_queue, i8x0_param_hold_ms, ic_regime_name(),
		num_online_cpus());
}

static int __init i8x0_module_init(void)
{
	struct i8x0_dev *chip;
	int err;

	err = ic_param_check_names(THIS_MODULE);
	if (err)
		return err;
	if (i8x0_param_line >= ic_nr_irqs()) {
		pr_err("invalid line=%u; valid range: 1..%u (irqcore's nr_irqs=%u)\n",
		       i8x0_param_line, ic_nr_irqs() - 1, ic_nr_irqs());
		return -EINVAL;
	}
	i8x0_print_params("start");
	err = pci_register_driver(&i8x0_pci_driver);
	if (err)
		return err;
	/* Bound, and kept so: an unbind waits for the cases (i8x0_hold()). */
	chip = i8x0_hold();
	if (!chip) {
		err = i8x0_last_probe_error();
		if (err)
			pr_err("the AC'97 chip's probe failed: %d (see above)\n", err);
		else
			pr_err("no AC'97 chip (QEMU needs -device AC97 -audiodev none,id=...: tests/loads-snd)\n");
		pci_unregister_driver(&i8x0_pci_driver);
		i8x0_unbind_stuck();
		return err ?: -ENODEV;
	}
	if (i8x0_param_selftest == 0)
		i8x0_selftest(chip, i8x0_param_queue, i8x0_param_hold_ms);
	if (i8x0_param_stream) {
		WRITE_ONCE(i8x0_stream_wanted, true);
		i8x0_start(chip, i8x0_param_queue);
	}
	i8x0_unhold(chip);
	return 0;
}

static void __exit i8x0_module_exit(void)
{
	pci_unregister_driver(&i8x0_pci_driver);
	i8x0_unbind_stuck();
	i8x0_print_params("end");
}

module_init(i8x0_module_init);
module_exit(i8x0_module_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("The irqcore developers");
MODULE_DESCRIPTION("The Intel ICH AC'97 (QEMU's AC97) on an irqcore device line, in 2.5's intel8x0 shape");
MODULE_VERSION(IC_VERSION_STRING);
