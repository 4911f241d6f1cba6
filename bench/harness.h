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

#include <linux/atomic.h>
#include <linux/irq_work.h>
#include <linux/smp.h>
#include <linux/types.h>

/*
 * How long a job told to stop may still take (icb_jobs_finish()) before
 * the run counts it stuck.
 */
#define ICB_JOBS_QUIESCE_MS	5000

/**
 * struct icb_jobs - the jobs that one part of the bench sends, and the rule
 * of their lifetime: each is waited for, on every path, before the next
 * job to its target, before anything it reads is reset and before
 * anything it touches is freed.
 * @out: jobs sent and not yet finished; icb_job() decrements it after the
 *	job's last act.
 * @overlaps: sends to a target whose last job was still out (the rule
 *	broken; icb_jobs_send() refuses them).
 * @stop: the host gave up on a job: the jobs' own waits read it
 *	(READ_ONCE()) and end at once. Reset by the sender when none is out.
 * @stuck: a job was still out ICB_JOBS_QUIESCE_MS after @stop: nothing it
 *	can touch may be freed, and the module has pinned itself.
 */
struct icb_jobs {
	atomic_t out;
	unsigned int overlaps;
	bool stop;
	bool stuck;
};

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
 * @done: the job has finished (written last, with release); true while
 *	no job was sent.
 * @hardirq: the job ran in hardirq with interrupts off.
 * @jobs: the set of the job last sent (icb_jobs_send()), or NULL.
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
	struct icb_jobs *jobs;
};

int icb_target_start(struct icb_target *t, int cpu);
void icb_target_stop(struct icb_target *t);
int icb_run_hardirq(struct icb_jobs *j, struct icb_target *t, const char *name,
		    void (*fn)(void *arg), void *arg);
int icb_wait(struct icb_target *t, unsigned int ms);
bool icb_target_stuck(const struct icb_target *t);
void icb_jobs_init(struct icb_jobs *j);
int icb_jobs_send(struct icb_jobs *j, struct icb_target *t, void (*fn)(void *arg), void *arg);
int icb_jobs_finish(struct icb_jobs *j, struct icb_target *t, const char *name, int err,
		    unsigned int ms);
bool icb_send_refused_check(struct icb_target *t, const char **skip);
bool icb_jobs_quiesced(const struct icb_jobs *j, const char *name, unsigned int timers);
void icb_kthread_wait_stop(void);
void icb_sort_u64(u64 *v, size_t n);

#endif /* ICB_HARNESS_H */
