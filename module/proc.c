// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore - /proc/irqcore/interrupts and /proc/irqcore/softirqs, in the
 * formats of the host's /proc/interrupts and /proc/softirqs.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>

#include "irq.h"
#include "proc.h"
#include "softirq.h"

#include <irqcore.h>

static struct proc_dir_entry *ic_proc_dir;

static int ic_interrupts_show(struct seq_file *m, void *v)
{
	unsigned int irq;
	int cpu;

	seq_puts(m, "     ");
	for_each_online_cpu(cpu)
		seq_printf(m, "CPU%-8d", cpu);
	seq_putc(m, '\n');
	for (irq = 0; irq < ic_nr_irqs(); irq++)
		ic_irq_seq_show(m, irq);
	return 0;
}

static int ic_softirqs_show(struct seq_file *m, void *v)
{
	ic_softirq_seq_show(m);
	return 0;
}

/**
 * ic_proc_init() - create /proc/irqcore and its files.
 *
 * Context: process (module init).
 * Return: 0 or -ENOMEM.
 */
int ic_proc_init(void)
{
	ic_proc_dir = proc_mkdir("irqcore", NULL);
	if (!ic_proc_dir)
		return -ENOMEM;
	if (!proc_create_single("interrupts", 0444, ic_proc_dir, ic_interrupts_show) ||
	    !proc_create_single("softirqs", 0444, ic_proc_dir, ic_softirqs_show)) {
		proc_remove(ic_proc_dir);
		return -ENOMEM;
	}
	return 0;
}

/**
 * ic_proc_exit() - remove /proc/irqcore; waits for open readers.
 *
 * Context: process (module exit).
 */
void ic_proc_exit(void)
{
	proc_remove(ic_proc_dir);
}
