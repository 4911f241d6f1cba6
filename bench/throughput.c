// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore_bench - interrupts handled per second as CPUs are added, each CPU
 * taking its own line.
 *
 * k CPUs (k = 1 .. all online) each run a kthread that keeps its CPU busy
 * and sends itself a hard irq_work; the irq_work (genuine hardirq, the
 * self-IPI) dispatches a batch of ICB_TP_BATCH interrupts of the CPU's own
 * line through ic_handle_irq(), then the kthread sends the next one. No two
 * CPUs share a line, a lock or a handler: in 2.5.28 nothing connects them.
 * In 2.5.27 every irq_enter() still looks at the global IRQ lock.
 *
 * Each k is measured twice: with nobody else in the way ("free"), and with
 * a holder on the last online CPU that enters a critical section of
 * ICB_TP_HOLD_US microseconds every ten times as long (10 % duty): under
 * biglock with ic_cli()/ic_sti(), which stops the handlers of every CPU;
 * under nolock with raw_spin_lock_irqsave() on its own driver's lock, which
 * stops only its own CPU's. The holder runs at real-time priority, so that
 * on a CPU it shares with a dispatcher it gets its turns. Its achieved
 * duty is reported too: 2.5.27's cli() must wait for every CPU to leave
 * its handlers, and under a flood of interrupts it can wait long.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/irq_work.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include <irqcore.h>

#include "harness.h"
#include "throughput.h"

/* The first of the lines the CPUs take, one each. */
#define ICB_TP_LINE0	32
/* Interrupts dispatched per irq_work. */
#define ICB_TP_BATCH	16
/* The holder's critical section, and its period ten times as long. */
#define ICB_TP_HOLD_US	100

/**
 * struct icb_tp_cpu - one CPU taking its own line.
 * @line: its irqcore line.
 * @work: the hard irq_work that dispatches a batch on it.
 * @done: the batch has finished (written last, with release).
 * @runs: handler runs in this figure; only its own CPU writes it.
 * @runs_total: handler runs in every figure of this load.
 * @before: the line's handled and unhandled counts when it was requested
 *	(counts are kept for the line's life, and irqcore's self-tests may
 *	have used it).
 * @outside: batches or handler runs outside hardirq, or dispatch errors.
 * @task: its kthread.
 */
struct icb_tp_cpu {
	unsigned int line;
	struct irq_work work;
	bool done;
	unsigned long runs;
	unsigned long runs_total;
	unsigned long before;
	unsigned long outside;
	struct task_struct *task;
};

/**
 * struct icb_tp - this benchmark's state.
 * @cpu: the k dispatching CPUs.
 * @nr: how many @cpu hold a requested line.
 * @holder: the holder's kthread, or NULL.
 * @lock: the holder's driver lock (nolock); nothing else takes it.
 * @held_ns: time the holder spent inside its section.
 * @go: start, for every kthread at once.
 * @stop: stop, likewise.
 * @big: this load is biglock.
 */
struct icb_tp {
	struct icb_tp_cpu *cpu;
	unsigned int nr;
	struct task_struct *holder;
	raw_spinlock_t lock;		/* the holder's driver lock; nothing else */
	u64 held_ns;
	bool go;
	bool stop;
	bool big;
};

static struct icb_tp icb_tp;

static void icb_tp_handler(unsigned int irq, void *dev_id)
{
	struct icb_tp_cpu *c = dev_id;

	c->runs++;
	if (!in_hardirq())
		c->outside++;
}

static void icb_tp_work(struct irq_work *work)
{
	struct icb_tp_cpu *c = container_of(work, struct icb_tp_cpu, work);
	unsigned int i;
	int err = 0;

	if (!in_hardirq() || !irqs_disabled())
		c->outside++;
	for (i = 0; i < ICB_TP_BATCH; i++)
		err |= ic_handle_irq(c->line);
	if (err)
		c->outside++;
	/* Pairs with the acquire in icb_tp_fn(). */
	smp_store_release(&c->done, true);
}

static void icb_tp_wait_go(void)
{
	while (!READ_ONCE(icb_tp.go) && !kthread_should_stop())
		usleep_range(100, 200);
}

/* A dispatching CPU: one batch after another, until told to stop. */
static int icb_tp_fn(void *arg)
{
	struct icb_tp_cpu *c = arg;

	icb_tp_wait_go();
	while (!READ_ONCE(icb_tp.stop)) {
		WRITE_ONCE(c->done, false);
		/* Bound to the CPU; preemption off so the self-IPI is raised here. */
		preempt_disable();
		irq_work_queue(&c->work);
		preempt_enable();
		/* Pairs with the release in icb_tp_work(). */
		while (!smp_load_acquire(&c->done) && !READ_ONCE(icb_tp.stop))
			cpu_relax();
		cond_resched();
	}
	irq_work_sync(&c->work);
	icb_kthread_wait_stop();
	return 0;
}

/* The holder: ICB_TP_HOLD_US in, nine times as long out, until told to stop. */
static int icb_tp_holder(void *arg)
{
	unsigned long flags;
	u64 t0;

	icb_tp_wait_go();
	while (!READ_ONCE(icb_tp.stop)) {
		if (icb_tp.big) {
			ic_cli();
			t0 = ktime_get_ns();
			udelay(ICB_TP_HOLD_US);
			icb_tp.held_ns += ktime_get_ns() - t0;
			ic_sti();
		} else {
			raw_spin_lock_irqsave(&icb_tp.lock, flags);
			t0 = ktime_get_ns();
			udelay(ICB_TP_HOLD_US);
			icb_tp.held_ns += ktime_get_ns() - t0;
			raw_spin_unlock_irqrestore(&icb_tp.lock, flags);
		}
		usleep_range(9 * ICB_TP_HOLD_US, 9 * ICB_TP_HOLD_US + 20);
	}
	icb_kthread_wait_stop();
	return 0;
}

/*
 * One figure: @k CPUs for @ms, with the holder if @holder. Return:
 * interrupts handled per second, or -errno; *@duty: the holder's
 * achieved duty in hundredths of a per cent.
 */
static long icb_tp_figure(unsigned int k, bool holder, unsigned int ms, u64 *duty)
{
	unsigned long total = 0;
	unsigned int i, n = 0;
	long err = 0;
	u64 t0, elapsed;
	int cpu;

	WRITE_ONCE(icb_tp.go, false);
	WRITE_ONCE(icb_tp.stop, false);
	icb_tp.held_ns = 0;
	icb_tp.holder = NULL;
	for_each_online_cpu(cpu) {
		struct icb_tp_cpu *c = &icb_tp.cpu[n];

		if (n == k)
			break;
		c->runs = 0;
		c->task = kthread_create_on_cpu(icb_tp_fn, c, cpu, "icb_tput/%u");
		if (IS_ERR(c->task)) {
			err = PTR_ERR(c->task);
			break;
		}
		wake_up_process(c->task);
		n++;
	}
	if (!err && holder) {
		struct task_struct *t;

		t = kthread_create_on_cpu(icb_tp_holder, NULL, cpumask_last(cpu_online_mask),
					  "icb_tput_hold/%u");
		if (IS_ERR(t)) {
			err = PTR_ERR(t);
		} else {
			sched_set_fifo_low(t);
			icb_tp.holder = t;
			wake_up_process(t);
		}
	}
	t0 = ktime_get_ns();
	if (!err) {
		WRITE_ONCE(icb_tp.go, true);
		msleep(ms);
	}
	WRITE_ONCE(icb_tp.stop, true);
	elapsed = ktime_get_ns() - t0;
	if (icb_tp.holder)
		kthread_stop(icb_tp.holder);
	for (i = 0; i < n; i++) {
		kthread_stop(icb_tp.cpu[i].task);
		total += icb_tp.cpu[i].runs;
		icb_tp.cpu[i].runs_total += icb_tp.cpu[i].runs;
	}
	*duty = elapsed ? div64_u64(icb_tp.held_ns * 10000, elapsed) : 0;
	return err ? err : (long)div64_u64((u64)total * NSEC_PER_SEC, elapsed);
}

/**
 * icb_throughput_figures() - how many figures icb_throughput() reports.
 *
 * Context: any.
 * Return: two per online CPU count (free and with the holder).
 */
unsigned int icb_throughput_figures(void)
{
	return 2 * num_online_cpus();
}

/**
 * icb_throughput() - every throughput figure of this load.
 * @ms: how long each figure lasts.
 * @report: called with each k, whether the holder ran, the handled/s (or a
 *	negative errno) and the holder's achieved duty in hundredths of a
 *	per cent.
 *
 * Context: process; sleeps. No other benchmark may run meanwhile: the
 * kthreads take every CPU in turn.
 * Return: the batches and handler runs outside hardirq and the dispatch
 * errors (0 when all is well), or a negative errno if the lines could not
 * be set up.
 */
long icb_throughput(unsigned int ms,
		    void (*report)(unsigned int k, bool holder, long per_s, u64 duty))
{
	unsigned int k, cpus = num_online_cpus();
	struct ic_line_stats st;
	unsigned long outside = 0;
	long err = 0;

	if (ICB_TP_LINE0 + cpus > ic_nr_irqs())
		return -ENOSPC;
	icb_tp.cpu = kcalloc(cpus, sizeof(*icb_tp.cpu), GFP_KERNEL);
	if (!icb_tp.cpu)
		return -ENOMEM;
	raw_spin_lock_init(&icb_tp.lock);
	icb_tp.big = !strcmp(ic_regime_name(), "biglock");
	for (icb_tp.nr = 0; icb_tp.nr < cpus; icb_tp.nr++) {
		struct icb_tp_cpu *c = &icb_tp.cpu[icb_tp.nr];

		c->line = ICB_TP_LINE0 + icb_tp.nr;
		c->work = IRQ_WORK_INIT_HARD(icb_tp_work);
		ic_line_stats(c->line, &st);
		c->before = st.handled - st.unhandled;
		err = ic_request_irq(c->line, icb_tp_handler, IC_SA_INTERRUPT, "bench-tput", c);
		if (err)
			goto out;
	}
	for (k = 1; k <= cpus; k++) {
		u64 duty;
		long v;

		v = icb_tp_figure(k, false, ms, &duty);
		report(k, false, v, 0);
		v = icb_tp_figure(k, true, ms, &duty);
		report(k, true, v, duty);
	}
out:
	while (icb_tp.nr--) {
		struct icb_tp_cpu *c = &icb_tp.cpu[icb_tp.nr];

		ic_synchronize_irq(c->line);
		ic_line_stats(c->line, &st);
		/* Every dispatch counted, every one a run of the handler. */
		if (!err && (st.inflight || !ic_line_stats_balance(&st) ||
			     st.handled - st.unhandled - c->before != c->runs_total)) {
			pr_info("throughput: line %u: raised %lu handled %lu (%lu before) unhandled %lu inflight %lu; the handler ran %lu times\n",
				c->line, st.raised, st.handled, c->before, st.unhandled,
				st.inflight, c->runs_total);
			outside++;
		}
		outside += c->outside;
		ic_free_irq(c->line, c);
	}
	kfree(icb_tp.cpu);
	icb_tp.cpu = NULL;
	return err ? err : (long)outside;
}
