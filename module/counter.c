// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore - the folded counter: preemption, softirq/bh and hardirq nesting
 * in one per-CPU word, as the seed patch folded __local_irq_count,
 * __local_bh_count and preempt_count together.
 *
 * The seed kept the count in thread_info; irqcore keeps it per CPU, as x86
 * itself has done since 3.13. That is exact here because every increment
 * made by a task is made with real preemption disabled (ic_preempt_disable()
 * and ic_local_bh_disable() disable it first), so the task cannot migrate
 * or be switched out while its share of the count is raised, and interrupt
 * contributions are always removed before the interrupt returns.
 *
 * Two layouts, chosen by the counter= parameter:
 *
 *   seed   bits 0-5 preempt depth | bits 6-25 irq (IRQ_OFFSET 64 counts
 *          hardirq *and* softirq) | 0x4000000 PREEMPT_ACTIVE
 *   split  bits 0-7 PREEMPT | 8-15 SOFTIRQ | 16-23 HARDIRQ | 0x4000000
 *          PREEMPT_ACTIVE   (the 2.5.28 release, "irqlock patch 2.5.27-H6")
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/export.h>
#include <linux/percpu.h>
#include <linux/preempt.h>

#include <irqcore.h>

#include "biglock.h"
#include "counter.h"
#include "softirq.h"

#define IC_PREEMPT_ACTIVE	0x4000000

static const struct ic_layout ic_layouts[] = {
	[IC_LAYOUT_SEED] = {
		.name = "seed",
		.softirq_offset = 64,
		.hardirq_offset = 64,
		.softirq_mask = 0x3ffffc0,
		.hardirq_mask = 0x3ffffc0,
		.preempt_active = IC_PREEMPT_ACTIVE,
	},
	[IC_LAYOUT_SPLIT] = {
		.name = "split",
		.softirq_offset = 1 << 8,
		.hardirq_offset = 1 << 16,
		.softirq_mask = 0xff << 8,
		.hardirq_mask = 0xff << 16,
		.preempt_active = IC_PREEMPT_ACTIVE,
	},
};

const struct ic_layout *ic_layout = &ic_layouts[IC_LAYOUT_SPLIT];

static DEFINE_PER_CPU(unsigned int, ic_count);

/**
 * ic_counter_add() - raise this CPU's count by @val.
 * @val: a layout offset (or 1 for preemption).
 *
 * Context: preemption or interrupts disabled, so the CPU is fixed.
 */
void ic_counter_add(unsigned int val)
{
	__this_cpu_add(ic_count, val);
	barrier();
}

/**
 * ic_counter_sub() - lower this CPU's count by @val.
 * @val: what a matching ic_counter_add() added.
 *
 * Context: preemption or interrupts disabled, so the CPU is fixed.
 */
void ic_counter_sub(unsigned int val)
{
	barrier();
	__this_cpu_sub(ic_count, val);
}

/**
 * ic_preempt_count() - this CPU's folded count.
 *
 * Context: any; stable only where the caller cannot migrate.
 * Return: the raw count, to be read with the active layout.
 */
unsigned int ic_preempt_count(void)
{
	return raw_cpu_read(ic_count);
}
EXPORT_SYMBOL_GPL(ic_preempt_count);

/**
 * ic_counter_in_interrupt() - in_interrupt() read from the folded counter.
 *
 * In the seed layout this is (count & ~PREEMPT_ACTIVE) >= IRQ_OFFSET.
 *
 * Context: any.
 * Return: true in hardirq, softirq or bh-disabled context.
 */
bool ic_counter_in_interrupt(void)
{
	unsigned int c = ic_preempt_count();

	if (ic_layout->softirq_mask == ic_layout->hardirq_mask)
		return (c & ~ic_layout->preempt_active) >= ic_layout->hardirq_offset;
	return c & (ic_layout->softirq_mask | ic_layout->hardirq_mask);
}

/**
 * ic_counter_in_irq() - in_irq() read from the folded counter.
 *
 * In the seed layout this is in_interrupt() itself (the seed's
 * "#define in_irq in_interrupt"): true in softirq context too.
 *
 * Context: any.
 * Return: true in hardirq context (seed: in any interrupt context).
 */
bool ic_counter_in_irq(void)
{
	if (ic_layout->softirq_mask == ic_layout->hardirq_mask)
		return ic_counter_in_interrupt();
	return ic_preempt_count() & ic_layout->hardirq_mask;
}

/**
 * ic_counter_in_softirq() - in_softirq() read from the folded counter.
 *
 * In the seed layout this is in_interrupt() too.
 *
 * Context: any.
 * Return: true in softirq or bh-disabled context (seed: in any).
 */
bool ic_counter_in_softirq(void)
{
	if (ic_layout->softirq_mask == ic_layout->hardirq_mask)
		return ic_counter_in_interrupt();
	return ic_preempt_count() & ic_layout->softirq_mask;
}

/**
 * ic_counter_idle_tick_is_system() - scheduler_tick()'s idle rule, read
 * from the folded counter.
 *
 * A timer tick that finds the idle task counts as system time when the
 * CPU was in interrupt context beyond the tick's own hardirq. The seed
 * wrote it as count >= 2 * IRQ_OFFSET ("this timer irq context must be
 * accounted for as well"); in the split layout it is the count of
 * everything but the tick's hardirq level reaching one softirq level.
 *
 * Context: hardirq (a tick), but any context may ask.
 * Return: true if an idle tick here is system time.
 */
bool ic_counter_idle_tick_is_system(void)
{
	unsigned int c = ic_preempt_count() & ~ic_layout->preempt_active;

	if (ic_layout->softirq_mask == ic_layout->hardirq_mask)
		return c >= 2 * ic_layout->hardirq_offset;
	c &= ic_layout->softirq_mask | ic_layout->hardirq_mask;
	return c >= ic_layout->hardirq_offset &&
	       c - ic_layout->hardirq_offset >= ic_layout->softirq_offset;
}

/*
 * The context questions drivers ask. regime=nolock answers them from the
 * folded counter, regime=biglock from 2.5.27's local_irq_count and
 * local_bh_count; the self-tests check that both give the same answer.
 */

/**
 * ic_in_interrupt() - is this CPU in hardirq or softirq/bh context?
 *
 * Context: any.
 * Return: true in hardirq, softirq or bh-disabled context.
 */
bool ic_in_interrupt(void)
{
	if (ic_biglock_active())
		return ic_biglock_in_interrupt();
	return ic_counter_in_interrupt();
}
EXPORT_SYMBOL_GPL(ic_in_interrupt);

/**
 * ic_in_irq() - is this CPU in hardirq context?
 *
 * With counter=seed under nolock, this is true in softirq context too.
 *
 * Context: any.
 * Return: true in hardirq context.
 */
bool ic_in_irq(void)
{
	if (ic_biglock_active())
		return ic_biglock_in_irq();
	return ic_counter_in_irq();
}
EXPORT_SYMBOL_GPL(ic_in_irq);

/**
 * ic_in_softirq() - is this CPU in softirq context or bh-disabled?
 *
 * With counter=seed under nolock, this is true in hardirq context too.
 *
 * Context: any.
 * Return: true in softirq or bh-disabled context.
 */
bool ic_in_softirq(void)
{
	if (ic_biglock_active())
		return ic_biglock_in_softirq();
	return ic_counter_in_softirq();
}
EXPORT_SYMBOL_GPL(ic_in_softirq);

/**
 * ic_idle_tick_is_system() - would a tick here count idle as system time?
 *
 * Context: any; meaningful in a tick.
 * Return: true if it would.
 */
bool ic_idle_tick_is_system(void)
{
	if (ic_biglock_active())
		return ic_biglock_idle_tick_is_system();
	return ic_counter_idle_tick_is_system();
}
EXPORT_SYMBOL_GPL(ic_idle_tick_is_system);

/**
 * ic_preempt_disable() - count one level of preemption disabling.
 *
 * Real preemption is disabled first, so that the per-CPU count belongs to
 * this task until the matching enable.
 *
 * Context: any.
 */
void ic_preempt_disable(void)
{
	preempt_disable();
	ic_counter_add(1);
}
EXPORT_SYMBOL_GPL(ic_preempt_disable);

/**
 * ic_preempt_enable_no_resched() - drop one level without rescheduling.
 *
 * Context: after ic_preempt_disable().
 */
void ic_preempt_enable_no_resched(void)
{
	ic_counter_sub(1);
	/*
	 * The host hides preempt_enable_no_resched() from modules; the
	 * rescheduling it would skip concerns the host's count, not ours.
	 */
	preempt_enable();
}
EXPORT_SYMBOL_GPL(ic_preempt_enable_no_resched);

/**
 * ic_preempt_enable() - drop one level; reschedule if that was asked for.
 *
 * Context: after ic_preempt_disable().
 */
void ic_preempt_enable(void)
{
	ic_counter_sub(1);
	preempt_enable();
}
EXPORT_SYMBOL_GPL(ic_preempt_enable);

/**
 * ic_irq_enter() - enter hardirq context (the seed's irq_enter()).
 *
 * Context: hardirq, interrupts disabled; the caller is do_IRQ.
 */
void ic_irq_enter(void)
{
	ic_counter_add(ic_layout->hardirq_offset);
}
EXPORT_SYMBOL_GPL(ic_irq_enter);

/**
 * ic_irq_exit() - leave hardirq context and run pending softirqs.
 *
 * The split layout's irq_exit() runs softirqs itself; the seed's do_IRQ
 * did it right after irq_exit(). Both end the same way: softirqs run once
 * the CPU has left interrupt context, never inside it.
 *
 * Context: hardirq, interrupts disabled, after ic_irq_enter().
 */
void ic_irq_exit(void)
{
	ic_counter_sub(ic_layout->hardirq_offset);
	if (!ic_in_interrupt() && ic_softirq_pending())
		ic_do_softirq();
}
EXPORT_SYMBOL_GPL(ic_irq_exit);

/**
 * ic_local_bh_disable() - keep softirqs (and bottom halves) off this CPU.
 *
 * Context: any but hardirq; pairs with ic_local_bh_enable().
 */
void ic_local_bh_disable(void)
{
	preempt_disable();
	ic_counter_add(ic_layout->softirq_offset);
	if (ic_biglock_active())
		ic_biglock_bh_enter();
}
EXPORT_SYMBOL_GPL(ic_local_bh_disable);

/**
 * __ic_local_bh_enable() - drop the bh level without running softirqs.
 *
 * Context: after ic_local_bh_disable().
 */
void __ic_local_bh_enable(void)
{
	if (ic_biglock_active())
		ic_biglock_bh_exit();
	ic_counter_sub(ic_layout->softirq_offset);
	preempt_enable();
}
EXPORT_SYMBOL_GPL(__ic_local_bh_enable);

/**
 * ic_local_bh_enable() - drop the bh level; run softirqs if it was the last.
 *
 * As in the seed: when the count is exactly one bh level (nothing else
 * holds this CPU in interrupt or preempt-disabled context) and softirqs
 * are pending, they run now. Under biglock, 2.5.27's rule: when
 * local_bh_count drops to zero (do_softirq() itself returns at once in a
 * handler).
 *
 * Context: after ic_local_bh_disable(), not in hardirq.
 */
void ic_local_bh_enable(void)
{
	bool last;

	if (ic_biglock_active())
		last = !ic_biglock_bh_exit();
	else
		last = ic_preempt_count() == ic_layout->softirq_offset;
	ic_counter_sub(ic_layout->softirq_offset);
	if (last && ic_softirq_pending())
		ic_do_softirq();
	preempt_enable();
}
EXPORT_SYMBOL_GPL(ic_local_bh_enable);

/**
 * ic_counter_init() - select the layout; every CPU's count must be zero.
 * @layout: an enum ic_layout_id.
 *
 * Context: process (module init).
 * Return: 0.
 */
int ic_counter_init(int layout)
{
	int cpu;

	ic_layout = &ic_layouts[layout];
	for_each_possible_cpu(cpu)
		per_cpu(ic_count, cpu) = 0;
	return 0;
}

/**
 * ic_counter_exit() - check that nothing left the count raised.
 *
 * Context: process (module exit).
 */
void ic_counter_exit(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		WARN(per_cpu(ic_count, cpu), KBUILD_MODNAME ": CPU%d count left at %#x\n",
		     cpu, per_cpu(ic_count, cpu));
}
