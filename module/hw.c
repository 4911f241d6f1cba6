// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore - the virtual interrupt controller: the "hardware".
 *
 * N edge-triggered lines, each with a mask, a latch and a target CPU (or
 * round-robin). A raise on an unmasked line marks the line pending on its
 * target CPU and kicks that CPU with a real interrupt: an asynchronous IPI
 * for a remote CPU, a hard irq_work for the local one. The kick's handler
 * runs in genuine hardirq context with interrupts off and calls do_IRQ for
 * every line pending on its CPU. A raise on a masked line sets the latch,
 * delivered when the line is unmasked. A per-CPU hard-mode hrtimer raises
 * line 0, the virtual timer, on its own CPU.
 *
 * The kick is sent once per batch: a CPU's kick flag is set by the first
 * raise and cleared by the handler before it scans the pending bits.
 *
 *   raiser (any CPU)                     handler (target CPU, hardirq)
 *   test_and_set_bit(irq, pending)  A    atomic_set(&kicked, 0)         C
 *   if (atomic_xchg(&kicked, 1))    B    smp_mb__after_atomic()
 *           return; // kick under way     for each bit: test_and_clear  D
 *   send kick
 *
 * If B finds the flag set, B is ordered before C, and A (fully ordered
 * before B) is visible to the scan D that follows C: no raise is left
 * pending without a kick to come.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/export.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/workqueue.h>

#include <irqcore.h>

#include "hw.h"
#include "irq.h"

/**
 * struct ic_line - one line of the controller.
 * @lock: protects @masked and @latched, the line's mask register.
 * @masked: edges are latched, not delivered.
 * @latched: an edge arrived while masked.
 * @target: the target CPU, or -1 for round-robin.
 * @rr: round-robin position.
 * @raised: accepted raises.
 * @merged: raises folded into a latched or pending edge.
 * @inflight: edges delivered and not yet through do_IRQ.
 * @dropped: latched edges discarded by shutdown.
 */
struct ic_line {
	raw_spinlock_t lock;
	bool masked;
	bool latched;
	int target;
	atomic_t rr;
	atomic_long_t raised;
	atomic_long_t merged;
	atomic_long_t inflight;
	atomic_long_t dropped;
};

/**
 * struct ic_hw_cpu - one CPU's side of the controller.
 * @pending: lines pending on this CPU.
 * @kicked: a kick is under way (see the diagram above).
 * @csd: the kick from a remote CPU.
 * @work: the kick from this CPU itself.
 * @timer: the virtual timer, raising line 0 here.
 */
struct ic_hw_cpu {
	unsigned long pending[BITS_TO_LONGS(IC_NR_IRQS_MAX)];
	atomic_t kicked;
	call_single_data_t csd;
	struct irq_work work;
	struct hrtimer timer;
};

static struct ic_line *ic_lines;
static unsigned int ic_hw_nr;
static DEFINE_PER_CPU(struct ic_hw_cpu, ic_hw_cpu);
static ktime_t ic_timer_period;
static bool ic_timer_running;

/* The kick's handler: genuine hardirq, interrupts off, on this CPU. */
static void ic_hw_dispatch(struct ic_hw_cpu *hc)
{
	unsigned int irq;

	atomic_set(&hc->kicked, 0);
	/* Clear the kick before reading pending: pairs with ic_raise()'s set-then-kick. */
	smp_mb__after_atomic();
	for_each_set_bit(irq, hc->pending, ic_hw_nr) {
		if (!test_and_clear_bit(irq, hc->pending))
			continue;
		ic_do_IRQ(irq);
		atomic_long_dec(&ic_lines[irq].inflight);
	}
}

static void ic_hw_csd_fn(void *info)
{
	struct ic_hw_cpu *hc = info;

	/*
	 * A CPU polling in idle takes a call-function request from the idle
	 * loop instead of from an IPI: interrupts off, but not hardirq. Bounce
	 * it through a hard irq_work on this (the target) CPU, so that do_IRQ
	 * always runs in genuine hardirq context. The kick flag stays set
	 * until that dispatch runs.
	 */
	if (!in_hardirq()) {
		irq_work_queue(&hc->work);
		return;
	}
	ic_hw_dispatch(hc);
}

static void ic_hw_work_fn(struct irq_work *work)
{
	ic_hw_dispatch(container_of(work, struct ic_hw_cpu, work));
}

static int ic_hw_pick_cpu(struct ic_line *l)
{
	int target = READ_ONCE(l->target);
	unsigned int n, cpu;

	if (target >= 0 && cpu_online(target))
		return target;
	n = (unsigned int)atomic_inc_return(&l->rr) % num_online_cpus();
	for_each_online_cpu(cpu)
		if (!n--)
			return cpu;
	return raw_smp_processor_id();
}

/* Deliver one edge of @irq to a CPU. Context: any. */
static void ic_hw_deliver(unsigned int irq)
{
	struct ic_line *l = &ic_lines[irq];
	struct ic_hw_cpu *hc;
	int cpu, this;

	this = get_cpu();
	cpu = ic_hw_pick_cpu(l);
	hc = per_cpu_ptr(&ic_hw_cpu, cpu);
	atomic_long_inc(&l->inflight);
	if (test_and_set_bit(irq, hc->pending)) {
		/* An edge on an edge not yet taken: the hardware folds them. */
		atomic_long_dec(&l->inflight);
		atomic_long_inc(&l->merged);
	} else if (!atomic_xchg(&hc->kicked, 1)) {
		if (cpu == this) {
			irq_work_queue(&hc->work);
		} else if (smp_call_function_single_async(cpu, &hc->csd)) {
			/* The target went offline: take the edge here. */
			clear_bit(irq, hc->pending);
			atomic_set(&hc->kicked, 0);
			hc = this_cpu_ptr(&ic_hw_cpu);
			if (!test_and_set_bit(irq, hc->pending) &&
			    !atomic_xchg(&hc->kicked, 1))
				irq_work_queue(&hc->work);
		}
	}
	put_cpu();
}

/**
 * ic_raise() - assert an edge on a line of the virtual controller.
 * @irq: the line.
 *
 * Context: any, including hardirq and with interrupts disabled.
 * Return: 0, or -EINVAL for a line that does not exist.
 */
int ic_raise(unsigned int irq)
{
	struct ic_line *l;
	unsigned long flags;
	bool deliver;

	if (irq >= ic_hw_nr)
		return -EINVAL;
	l = &ic_lines[irq];
	atomic_long_inc(&l->raised);

	raw_spin_lock_irqsave(&l->lock, flags);
	deliver = !l->masked;
	if (!deliver) {
		if (l->latched)
			atomic_long_inc(&l->merged);
		l->latched = true;
	}
	raw_spin_unlock_irqrestore(&l->lock, flags);

	if (deliver)
		ic_hw_deliver(irq);
	return 0;
}
EXPORT_SYMBOL_GPL(ic_raise);

/**
 * ic_hw_resend() - deliver again an instance that do_IRQ latched.
 * @irq: the line.
 *
 * The instance was counted as raised when it first arrived; it goes in
 * flight again without a new raise (2.5's hw_resend_irq()).
 *
 * Context: any; called under the descriptor lock by enable_irq().
 */
void ic_hw_resend(unsigned int irq)
{
	ic_hw_deliver(irq);
}

/**
 * ic_set_affinity() - choose where a line's edges are delivered.
 * @irq: the line.
 * @cpu: an online CPU, or -1 for round-robin over the online CPUs.
 *
 * Context: any.
 * Return: 0, or -EINVAL for a bad line or CPU.
 */
int ic_set_affinity(unsigned int irq, int cpu)
{
	if (irq >= ic_hw_nr)
		return -EINVAL;
	if (cpu != -1 && (cpu < 0 || cpu >= nr_cpu_ids || !cpu_online(cpu)))
		return -EINVAL;
	WRITE_ONCE(ic_lines[irq].target, cpu);
	return 0;
}
EXPORT_SYMBOL_GPL(ic_set_affinity);

static void ic_hw_mask(unsigned int irq)
{
	struct ic_line *l = &ic_lines[irq];
	unsigned long flags;

	raw_spin_lock_irqsave(&l->lock, flags);
	l->masked = true;
	raw_spin_unlock_irqrestore(&l->lock, flags);
}

static void ic_hw_unmask(unsigned int irq)
{
	struct ic_line *l = &ic_lines[irq];
	unsigned long flags;
	bool replay;

	raw_spin_lock_irqsave(&l->lock, flags);
	l->masked = false;
	replay = l->latched;
	l->latched = false;
	raw_spin_unlock_irqrestore(&l->lock, flags);
	if (replay)
		ic_hw_deliver(irq);
}

static unsigned int ic_hw_startup(unsigned int irq)
{
	ic_hw_unmask(irq);
	return 0;
}

static void ic_hw_shutdown(unsigned int irq)
{
	struct ic_line *l = &ic_lines[irq];
	unsigned long flags;

	raw_spin_lock_irqsave(&l->lock, flags);
	l->masked = true;
	if (l->latched)
		atomic_long_inc(&l->dropped);
	l->latched = false;
	raw_spin_unlock_irqrestore(&l->lock, flags);
}

static void ic_hw_nop(unsigned int irq)
{
}

const struct ic_hw_ops ic_vic = {
	.typename = "IC-VIC-edge",
	.startup = ic_hw_startup,
	.shutdown = ic_hw_shutdown,
	.enable = ic_hw_unmask,
	.disable = ic_hw_mask,
	.ack = ic_hw_nop,
	.end = ic_hw_nop,
};

/**
 * ic_hw_stats() - read the controller's side of a line's accounting.
 * @irq: a valid line.
 * @st: filled in.
 *
 * Context: any.
 */
void ic_hw_stats(unsigned int irq, struct ic_hw_stats *st)
{
	struct ic_line *l = &ic_lines[irq];
	unsigned long flags;

	raw_spin_lock_irqsave(&l->lock, flags);
	st->latched = l->latched;
	st->masked = l->masked;
	raw_spin_unlock_irqrestore(&l->lock, flags);
	st->raised = atomic_long_read(&l->raised);
	st->merged = atomic_long_read(&l->merged);
	st->inflight = atomic_long_read(&l->inflight);
	st->dropped = atomic_long_read(&l->dropped);
}

static enum hrtimer_restart ic_hw_timer_fn(struct hrtimer *timer)
{
	ic_raise(IC_TIMER_IRQ);
	hrtimer_forward_now(timer, ic_timer_period);
	return HRTIMER_RESTART;
}

static long ic_hw_timer_arm(void *unused)
{
	struct ic_hw_cpu *hc = this_cpu_ptr(&ic_hw_cpu);

	hrtimer_start(&hc->timer, ic_timer_period, HRTIMER_MODE_REL_PINNED_HARD);
	return 0;
}

/**
 * ic_timer_start() - start the virtual timer (line 0) on every online CPU.
 * @hz: ticks per second per CPU, 1..1000.
 *
 * Each tick raises line 0, which is delivered like any line: by default
 * round-robin, so a tick is handled by whichever CPU its turn falls on, as
 * the i386 timer on an IO-APIC was; ic_set_affinity() can pin it.
 *
 * Context: process; sleeps.
 * Return: 0, -EINVAL for a bad rate, -EBUSY if already running.
 */
int ic_timer_start(unsigned int hz)
{
	int cpu;

	if (!hz || hz > 1000)
		return -EINVAL;
	if (ic_timer_running)
		return -EBUSY;
	ic_timer_period = ns_to_ktime(NSEC_PER_SEC / hz);
	ic_timer_running = true;
	cpus_read_lock();
	for_each_online_cpu(cpu)
		work_on_cpu(cpu, ic_hw_timer_arm, NULL);
	cpus_read_unlock();
	return 0;
}
EXPORT_SYMBOL_GPL(ic_timer_start);

/**
 * ic_timer_stop() - stop the virtual timer on every CPU.
 *
 * Context: process; sleeps.
 */
void ic_timer_stop(void)
{
	int cpu;

	if (!ic_timer_running)
		return;
	for_each_possible_cpu(cpu)
		hrtimer_cancel(&per_cpu_ptr(&ic_hw_cpu, cpu)->timer);
	ic_timer_running = false;
}
EXPORT_SYMBOL_GPL(ic_timer_stop);

/**
 * ic_hw_init() - set up @nr_irqs lines, all masked.
 * @nr_irqs: the number of lines.
 *
 * Context: process (module init).
 * Return: 0 or -ENOMEM.
 */
int ic_hw_init(unsigned int nr_irqs)
{
	unsigned int i;
	int cpu;

	ic_lines = kcalloc(nr_irqs, sizeof(*ic_lines), GFP_KERNEL);
	if (!ic_lines)
		return -ENOMEM;
	ic_hw_nr = nr_irqs;
	for (i = 0; i < nr_irqs; i++) {
		raw_spin_lock_init(&ic_lines[i].lock);
		ic_lines[i].masked = true;
		ic_lines[i].target = -1;
	}
	for_each_possible_cpu(cpu) {
		struct ic_hw_cpu *hc = per_cpu_ptr(&ic_hw_cpu, cpu);

		bitmap_zero(hc->pending, IC_NR_IRQS_MAX);
		atomic_set(&hc->kicked, 0);
		INIT_CSD(&hc->csd, ic_hw_csd_fn, hc);
		hc->work = IRQ_WORK_INIT_HARD(ic_hw_work_fn);
		hrtimer_init(&hc->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
		hc->timer.function = ic_hw_timer_fn;
	}
	return 0;
}

/**
 * ic_hw_exit() - stop the timer and wait for every kick to finish.
 *
 * Context: process (module exit); every line is shut down by now.
 */
void ic_hw_exit(void)
{
	int cpu;

	ic_timer_stop();
	for_each_possible_cpu(cpu) {
		struct ic_hw_cpu *hc = per_cpu_ptr(&ic_hw_cpu, cpu);

		irq_work_sync(&hc->work);
		while (atomic_read(&hc->kicked))
			cpu_relax();
	}
	kfree(ic_lines);
}
