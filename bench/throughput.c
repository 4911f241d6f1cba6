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
 * Each k is measured three times. First the control: the same kthreads
 * and self-IPIs, each irq_work doing ICB_TP_BATCH private increments
 * instead of dispatches. Under TCG, QEMU delivers interrupts to its vCPUs
 * under a lock of its own, and a self-IPI on one vCPU slows the other's: the
 * control measures that, and each figure is reported beside it and as a
 * ratio to it (both from this load). Then irqcore with nobody else in the
 * way ("free"), and with
 * a holder on the last online CPU that enters a critical section of
 * ICB_TP_HOLD_US microseconds every ten times as long (10 % duty): under
 * biglock with ic_cli()/ic_sti(), which stops the handlers of every CPU;
 * under nolock with raw_spin_lock_irqsave() on its own driver's lock, which
 * stops only its own CPU's. The holder runs at real-time priority, so that
 * on a CPU it shares with a dispatcher it gets its turns. Its achieved
 * duty is reported too: 2.5.27's cli() must wait for every CPU to leave
 * its handlers, and under a flood of interrupts it can wait long.
 *
 * Each CPU's state is on cache lines of its own (a per-CPU allocation of a
 * cache-aligned struct), and the holder's lock and its time are on a line
 * that no dispatcher reads: under nolock nothing may connect the CPUs.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cache.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/irq_work.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/percpu.h>
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
 * struct icb_tp_cpu - one CPU taking its own line, alone on its cache lines.
 * @line: its irqcore line, or 0 before it is requested.
 * @work: the hard irq_work that dispatches a batch on it.
 * @done: the batch has finished (written last, with release).
 * @runs: handler runs (or, in the control, increments) in this figure;
 *	only its own CPU writes it.
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
} ____cacheline_aligned_in_smp;

/**
 * struct icb_tp - this benchmark's state.
 * @cpu: each online CPU's state (per CPU).
 * @holder: the holder's kthread, or NULL.
 * @go: start, for every kthread at once.
 * @stop: stop, likewise.
 * @big: this load is biglock.
 * @control: this figure is the control.
 * @lock: the holder's driver lock (nolock); nothing else takes it.
 * @held_ns: time the holder spent inside its section.
 */
struct icb_tp {
	struct icb_tp_cpu __percpu *cpu;
	struct task_struct *holder;
	bool go;
	bool stop;
	bool big;
	bool control;
	/* Written by the holder only: a line of their own. */
	raw_spinlock_t lock ____cacheline_aligned_in_smp;	/* the holder's driver lock */
	u64 held_ns;
};

static struct icb_tp icb_tp;

static void icb_tp_handler(unsigned int irq, void *dev_id)
{
	struct icb_tp_cpu *c = dev_id;

	c->runs++;
	if (!in_hardirq())
		c->outside++;
}

/* The control's stand-in for a dispatch: a call and a private increment. */
static noinline void icb_tp_private(struct icb_tp_cpu *c)
{
	c->runs++;
}

static void icb_tp_work(struct irq_work *work)
{
	struct icb_tp_cpu *c = container_of(work, struct icb_tp_cpu, work);
	unsigned int i;
	int err = 0;

	if (!in_hardirq() || !irqs_disabled())
		c->outside++;
	if (READ_ONCE(icb_tp.control)) {
		for (i = 0; i < ICB_TP_BATCH; i++)
			icb_tp_private(c);
	} else {
		for (i = 0; i < ICB_TP_BATCH; i++)
			err |= ic_handle_irq(c->line);
	}
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
 * One figure: the first @k online CPUs for @ms, in @mode. Return: handled
 * (or, in the control, increments) per second of the time between the
 * start and the stop signal, or -errno; *@duty: the holder's achieved duty
 * in hundredths of a per cent.
 */
static long icb_tp_figure(unsigned int k, enum icb_tp_mode mode, unsigned int ms, u64 *duty)
{
	unsigned long total = 0;
	unsigned int n = 0;
	u64 t0, elapsed;
	long err = 0;
	int cpu;

	WRITE_ONCE(icb_tp.go, false);
	WRITE_ONCE(icb_tp.stop, false);
	icb_tp.control = mode == ICB_TP_CONTROL;
	icb_tp.held_ns = 0;
	icb_tp.holder = NULL;
	for_each_online_cpu(cpu) {
		struct icb_tp_cpu *c = per_cpu_ptr(icb_tp.cpu, cpu);

		c->task = NULL;
		c->runs = 0;
		if (n == k || err)
			continue;
		c->task = kthread_create_on_cpu(icb_tp_fn, c, cpu, "icb_tput/%u");
		if (IS_ERR(c->task)) {
			err = PTR_ERR(c->task);
			c->task = NULL;
			continue;
		}
		wake_up_process(c->task);
		n++;
	}
	if (!err && mode == ICB_TP_HOLDER) {
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
	for_each_online_cpu(cpu) {
		struct icb_tp_cpu *c = per_cpu_ptr(icb_tp.cpu, cpu);

		if (!c->task)
			continue;
		kthread_stop(c->task);
		total += c->runs;
		if (mode != ICB_TP_CONTROL)
			c->runs_total += c->runs;
	}
	*duty = elapsed ? div64_u64(icb_tp.held_ns * 10000, elapsed) : 0;
	return err ? err : (long)div64_u64((u64)total * NSEC_PER_SEC, elapsed);
}

/**
 * icb_throughput_figures() - how many figures icb_throughput() reports.
 *
 * Context: any.
 * Return: two per online CPU count (free and with the holder; the control
 * is reported with the free figure).
 */
unsigned int icb_throughput_figures(void)
{
	return 2 * num_online_cpus();
}

/* Whether each online CPU's state is alone on its cache lines. */
static bool icb_tp_aligned(void)
{
	int cpu;

	for_each_online_cpu(cpu) {
		if (!IS_ALIGNED((unsigned long)per_cpu_ptr(icb_tp.cpu, cpu), SMP_CACHE_BYTES) ||
		    sizeof(struct icb_tp_cpu) % SMP_CACHE_BYTES) {
			pr_info("throughput: CPU%d's state is not alone on its cache lines (at %lu bytes into a line, %zu bytes long)\n",
				cpu, (unsigned long)per_cpu_ptr(icb_tp.cpu, cpu) % SMP_CACHE_BYTES,
				sizeof(struct icb_tp_cpu));
			return false;
		}
	}
	return true;
}

/**
 * icb_throughput() - every throughput figure of this load.
 * @ms: how long each figure lasts.
 * @report: called with each k, the figure's mode, the handled/s (or a
 *	negative errno) and the holder's achieved duty in hundredths of a
 *	per cent; the control before the free figure, the free before the
 *	holder's.
 *
 * Context: process; sleeps. No other benchmark may run meanwhile: the
 * kthreads take every CPU in turn.
 * Return: the batches and handler runs outside hardirq and the dispatch
 * errors (0 when all is well), or a negative errno if the lines could not
 * be set up (-EFAULT: a CPU's state shares a cache line with another's).
 */
long icb_throughput(unsigned int ms,
		    void (*report)(unsigned int k, enum icb_tp_mode mode, long per_s, u64 duty))
{
	unsigned int k, n = 0, cpus = num_online_cpus();
	struct ic_line_stats st;
	unsigned long outside = 0;
	long err = 0;
	int cpu;

	if (ICB_TP_LINE0 + cpus > ic_nr_irqs())
		return -ENOSPC;
	icb_tp.cpu = alloc_percpu(struct icb_tp_cpu);
	if (!icb_tp.cpu)
		return -ENOMEM;
	if (!icb_tp_aligned()) {
		err = -EFAULT;
		goto out;
	}
	raw_spin_lock_init(&icb_tp.lock);
	icb_tp.big = !strcmp(ic_regime_name(), "biglock");
	for_each_online_cpu(cpu) {
		struct icb_tp_cpu *c = per_cpu_ptr(icb_tp.cpu, cpu);

		c->work = IRQ_WORK_INIT_HARD(icb_tp_work);
		ic_line_stats(ICB_TP_LINE0 + n, &st);
		c->before = st.handled - st.unhandled;
		err = ic_request_irq(ICB_TP_LINE0 + n, icb_tp_handler, IC_SA_INTERRUPT,
				     "bench-tput", c);
		if (err)
			goto out;
		c->line = ICB_TP_LINE0 + n++;
	}
	for (k = 1; k <= cpus; k++) {
		enum icb_tp_mode mode;

		for (mode = ICB_TP_CONTROL; mode <= ICB_TP_HOLDER; mode++) {
			u64 duty;
			long v;

			v = icb_tp_figure(k, mode, ms, &duty);
			report(k, mode, v, mode == ICB_TP_HOLDER ? duty : 0);
		}
	}
out:
	for_each_online_cpu(cpu) {
		struct icb_tp_cpu *c = per_cpu_ptr(icb_tp.cpu, cpu);

		if (!c->line)
			continue;
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
	free_percpu(icb_tp.cpu);
	icb_tp.cpu = NULL;
	return err ? err : (long)outside;
}
