/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore - softirqs, ksoftirqd, tasklets and bottom halves (private).
 */
#ifndef IC_SOFTIRQ_H
#define IC_SOFTIRQ_H

#include <linux/percpu.h>
#include <linux/types.h>

#include <irqcore.h>

struct seq_file;
struct task_struct;
struct ic_tasklet;

/**
 * struct ic_softirq_cpu - one CPU's softirq state (2.5's irq_cpustat_t).
 * @pending: raised vectors.
 * @ksoftirqd: the CPU's thread.
 * @tasklets: the TASKLET_SOFTIRQ queue.
 * @hi_tasklets: the HI_SOFTIRQ queue.
 * @runs: how often each vector ran here.
 *
 * Defined here, not in softirq.c, only so that ic_softirq_pending() can
 * be inline: do_IRQ asks it on every exit.
 */
struct ic_softirq_cpu {
	unsigned int pending;
	struct task_struct *ksoftirqd;
	struct ic_tasklet *tasklets;
	struct ic_tasklet *hi_tasklets;
	unsigned long runs[IC_NR_SOFTIRQS];
};

DECLARE_PER_CPU(struct ic_softirq_cpu, ic_softirq_cpu);

/**
 * ic_softirq_pending() - has this CPU raised softirqs?
 *
 * One per-CPU load: do_IRQ asks it on every exit (2.5's softirq_pending()
 * was a macro for the same reason).
 *
 * Context: any; exact where the caller cannot migrate.
 * Return: true if this CPU has pending softirqs.
 */
static inline bool ic_softirq_pending(void)
{
	return raw_cpu_read(ic_softirq_cpu.pending);
}

int ic_softirq_init(void);
int ic_softirq_start(void);
void ic_softirq_stop(void);
void ic_softirq_exit(void);
int ic_softirq_cpu_up(unsigned int cpu);
void ic_softirq_cpu_down(unsigned int cpu);
void ic_softirq_cpu_dead(unsigned int cpu);
void ic_softirq_seq_show(struct seq_file *m);
bool ic_in_ksoftirqd(void);
bool ic_softirq_thread_parked(unsigned int cpu);
void ic_bh_action_for_test(unsigned int nr);

#endif /* IC_SOFTIRQ_H */
