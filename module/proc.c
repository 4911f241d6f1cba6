// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore - /proc/irqcore/interrupts and /proc/irqcore/softirqs, in the
 * formats of the host's /proc/interrupts and /proc/softirqs, and
 * /proc/irqcore/stat, the accounting summed over every line.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>

#include "devline.h"
#include "faultpoint.h"
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

/*
 * One line of totals over every line, with or without an action, so that
 * a reader can see a handler run or an edge arrive on a line whose driver
 * has gone (/proc/irqcore/interrupts shows only lines with an action), and
 * last the lines bound to host interrupts now (a driver's remove() that
 * says it unbound its line and did not leaves it counted here).
 * Stable format: "name value" pairs on one line, for scripts.
 */
static int ic_stat_show(struct seq_file *m, void *v)
{
	struct ic_line_stats st, sum = {};
	unsigned int irq;

	for (irq = 0; irq < ic_nr_irqs(); irq++) {
		ic_line_stats(irq, &st);
		sum.raised += st.raised;
		sum.handled += st.handled;
		sum.merged += st.merged;
		sum.latched += st.latched;
		sum.inflight += st.inflight;
		sum.dropped += st.dropped;
		sum.unhandled += st.unhandled;
		sum.reruns += st.reruns;
	}
	seq_printf(m, "raised %lu handled %lu merged %lu latched %lu inflight %lu dropped %lu unhandled %lu reruns %lu bound %u\n",
		   sum.raised, sum.handled, sum.merged, sum.latched, sum.inflight,
		   sum.dropped, sum.unhandled, sum.reruns, ic_devline_count());
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
	ic_proc_dir = ic_fault_alloc("/proc/irqcore") ? NULL : proc_mkdir("irqcore", NULL);
	if (!ic_proc_dir)
		return -ENOMEM;
	if (ic_fault_alloc("/proc/irqcore/interrupts") ||
	    !proc_create_single("interrupts", 0444, ic_proc_dir, ic_interrupts_show) ||
	    ic_fault_alloc("/proc/irqcore/softirqs") ||
	    !proc_create_single("softirqs", 0444, ic_proc_dir, ic_softirqs_show) ||
	    ic_fault_alloc("/proc/irqcore/stat") ||
	    !proc_create_single("stat", 0444, ic_proc_dir, ic_stat_show)) {
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
