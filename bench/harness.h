/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore_bench - running a measurement in genuine hardirq context on a
 * busy CPU (private to this module).
 *
 * An IPI to a CPU that sleeps in idle measures the host waking a vCPU
 * thread, and one to a CPU that polls in idle is no IPI at all (the idle
 * loop runs the request outside hardirq). So the target CPU is kept busy by
 * a kthread that spins with interrupts on, and every job checks that it ran
 * in hardirq; a job that did not fails the run instead of giving a figure.
 */
#ifndef ICB_HARNESS_H
#define ICB_HARNESS_H

#include <linux/irq_work.h>
#include <linux/smp.h>
#include <linux/types.h>

/**
 * struct icb_target - a CPU kept busy, to run jobs on in hardirq.
 * @cpu: the CPU.
 * @spinner: the kthread that keeps it busy (NULL when @cpu is the
 *	caller's own, which the caller keeps busy itself).
 * @stop: ends the spinner.
 * @csd: the IPI that runs a job there.
 * @work: the hard irq_work that runs a job on the caller's own CPU.
 * @fn: the job.
 * @arg: its argument.
 * @done: the job has finished (written last, with release).
 * @hardirq: the job ran in hardirq with interrupts off.
 */
struct icb_target {
	int cpu;
	struct task_struct *spinner;
	bool stop;
	call_single_data_t csd;
	struct irq_work work;
	void (*fn)(void *arg);
	void *arg;
	bool done;
	bool hardirq;
};

int icb_target_start(struct icb_target *t, int cpu);
void icb_target_stop(struct icb_target *t);
int icb_run_hardirq(struct icb_target *t, void (*fn)(void *arg), void *arg);
int icb_send(struct icb_target *t, void (*fn)(void *arg), void *arg);
void icb_kthread_wait_stop(void);
void icb_sort_u64(u64 *v, size_t n);

#endif /* ICB_HARNESS_H */
