// SPDX-License-Identifier: GPL-2.0
/*
 * ic_first - your first experiment with irqcore: what cli() meant before
 * and after Linux 2.5.28.
 *
 * Two lines share one handler (each its own counter, found by dev_id). The
 * lines are aimed at another CPU, and this module raises each of them from
 * inside a critical section on its own CPU, then looks whether the handler
 * ran over there before the section ended:
 *
 *   1. inside ic_cli() ... ic_sti(): under regime=biglock (2.5.27) cli()
 *      is the big IRQ lock, and no handler runs anywhere until sti(), so
 *      the count stays 0; under regime=nolock (2.5.28) cli() masks only
 *      this CPU, and the other CPU runs the handler at once;
 *   2. inside raw_spin_lock_irqsave() on the lock the handler takes: what
 *      2.5.28 asked drivers to write instead. The handler waits for the lock
 *      under either regime: the driver's data is protected without
 *      stopping anyone else.
 *
 * It prints what it saw and a KTAP result per step, then unloads cleanly.
 * Change it: hold the section longer, add a third line, take the lock in
 * only one of the handlers, and load it under each regime in `make shell`.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include <irqcore.h>
#include <irqcore_ktap.h>

#define ICF_LINE_CLI	50	/* raised inside cli() */
#define ICF_LINE_LOCK	51	/* raised inside the driver lock */
#define ICF_WAIT_MS	20	/* how long a section waits for the handler */

/**
 * struct icf_line - one line of the experiment.
 * @irq: its number.
 * @runs: how often the shared handler ran for it.
 */
struct icf_line {
	unsigned int irq;
	atomic_t runs;
};

static struct icf_line icf_cli = { .irq = ICF_LINE_CLI };
static struct icf_line icf_lock = { .irq = ICF_LINE_LOCK };
/*
 * The "driver's" data lock: the handler takes it, as a converted driver
 * would. Raw, because irqcore's handlers run in genuine hardirq context,
 * where a spinlock_t sleeps on a PREEMPT_RT kernel (docs/deviations.md).
 */
static DEFINE_RAW_SPINLOCK(icf_data_lock);

/* One handler for both lines; dev_id says which. */
static void icf_handler(unsigned int irq, void *dev_id)
{
	struct icf_line *l = dev_id;

	raw_spin_lock(&icf_data_lock);
	atomic_inc(&l->runs);
	raw_spin_unlock(&icf_data_lock);
}

/* Busy-wait up to ICF_WAIT_MS for @l's handler to have run; return its count. */
static int icf_wait_for(struct icf_line *l)
{
	unsigned int ms;

	for (ms = 0; ms < ICF_WAIT_MS && !atomic_read(&l->runs); ms++)
		mdelay(1);
	return atomic_read(&l->runs);
}

static int __init icf_init(void)
{
	bool big = !strcmp(ic_regime_name(), "biglock");
	int here, there, in_cli, in_lock, err;
	struct ic_ktap k;
	unsigned long flags;

	/* Two CPUs: the section runs on this one, the handler on another. */
	here = get_cpu();
	there = cpumask_any_but(cpu_online_mask, here);
	put_cpu();
	if (there >= nr_cpu_ids) {
		pr_info("needs 2 or more CPUs\n");
		return -ENODEV;
	}
	err = ic_request_irq(ICF_LINE_CLI, icf_handler, IC_SA_INTERRUPT, "first-cli", &icf_cli);
	if (err)
		return err;
	err = ic_request_irq(ICF_LINE_LOCK, icf_handler, IC_SA_INTERRUPT, "first-lock", &icf_lock);
	if (err)
		goto out_cli;
	ic_set_affinity(ICF_LINE_CLI, there);
	ic_set_affinity(ICF_LINE_LOCK, there);
	ic_ktap_begin(&k, 2);

	/* 1. Raise a line inside cli(); did its handler run before sti()? */
	ic_cli();
	here = smp_processor_id();	/* interrupts are off: we stay here */
	ic_raise(ICF_LINE_CLI);
	in_cli = icf_wait_for(&icf_cli);
	ic_sti();
	pr_info("regime=%s: inside cli() on CPU%d, the handler on CPU%d ran %d times; after sti(), %d\n",
		ic_regime_name(), here, there, in_cli, icf_wait_for(&icf_cli));
	if (big)
		pr_info("  2.5.27: cli() is the big IRQ lock; no handler runs anywhere until sti()\n");
	else
		pr_info("  2.5.28: cli() masks this CPU only; the other CPU ran the handler at once\n");
	ic_ktap_result(&k, in_cli == (big ? 0 : 1), "inside_cli", NULL);

	/* 2. The same inside the lock the handler takes, as 2.5.28 asked. */
	raw_spin_lock_irqsave(&icf_data_lock, flags);
	ic_raise(ICF_LINE_LOCK);
	mdelay(ICF_WAIT_MS);
	in_lock = atomic_read(&icf_lock.runs);
	raw_spin_unlock_irqrestore(&icf_data_lock, flags);
	pr_info("regime=%s: inside the driver lock, the handler ran %d times; after unlock, %d\n",
		ic_regime_name(), in_lock, icf_wait_for(&icf_lock));
	ic_ktap_result(&k, in_lock == 0 && atomic_read(&icf_lock.runs) == 1, "inside_lock", NULL);

	ic_free_irq(ICF_LINE_LOCK, &icf_lock);
out_cli:
	ic_free_irq(ICF_LINE_CLI, &icf_cli);
	return err;
}

static void __exit icf_exit(void)
{
}

module_init(icf_init);
module_exit(icf_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("A first experiment with irqcore: cli() before and after 2.5.28");
