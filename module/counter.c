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

#include "counter.h"

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

DEFINE_PER_CPU(unsigned int, ic_count);

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
 * ic_counter_bh_enter() - count one softirq/bh level (local_bh_disable()).
 *
 * Real preemption is disabled first, so that the level belongs to this
 * task until ic_counter_bh_exit().
 *
 * Context: not hardirq.
 */
void ic_counter_bh_enter(void)
{
	preempt_disable();
	ic_counter_add(ic_layout->softirq_offset);
}

/**
 * ic_counter_bh_exit() - drop the level ic_counter_bh_enter() added.
 *
 * Context: after ic_counter_bh_enter(), same task. Preemption is enabled
 * again, so the caller runs softirqs (if it does) before calling this.
 */
void ic_counter_bh_exit(void)
{
	ic_counter_sub(ic_layout->softirq_offset);
	preempt_enable();
}

/**
 * ic_counter_bh_is_last() - is one bh level all that this CPU's count holds?
 *
 * The seed's local_bh_enable() ran softirqs only then: nothing else (no
 * interrupt, no preemption-disabled section) may be interrupted by them.
 *
 * Context: after ic_counter_bh_enter(), before ic_counter_bh_exit().
 * Return: true if the count is exactly one softirq level.
 */
bool ic_counter_bh_is_last(void)
{
	return ic_preempt_count() == ic_layout->softirq_offset;
}

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
