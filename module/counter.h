/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore - the folded preemption/softirq/hardirq counter (private).
 */
#ifndef IC_COUNTER_H
#define IC_COUNTER_H

#include <linux/compiler.h>
#include <linux/percpu.h>
#include <linux/types.h>

/**
 * struct ic_layout - where the three counts live in the one counter.
 * @name: the layout's parameter name.
 * @softirq_offset: what local_bh_disable() adds.
 * @hardirq_offset: what irq_enter() adds.
 * @softirq_mask: the bits that count softirq/bh nesting.
 * @hardirq_mask: the bits that count hardirq nesting.
 * @preempt_active: the PREEMPT_ACTIVE flag, ignored by in_interrupt().
 *
 * In the seed layout the two masks and the two offsets are the same field,
 * which is why its in_irq() cannot tell a softirq from a hardirq.
 */
struct ic_layout {
	const char *name;
	unsigned int softirq_offset;
	unsigned int hardirq_offset;
	unsigned int softirq_mask;
	unsigned int hardirq_mask;
	unsigned int preempt_active;
};

enum ic_layout_id {
	IC_LAYOUT_SEED,
	IC_LAYOUT_SPLIT,
};

extern const struct ic_layout *ic_layout;

/* This CPU's folded count; only the helpers below and counter.c touch it. */
DECLARE_PER_CPU(unsigned int, ic_count);

/**
 * ic_counter_add() - raise this CPU's count by @val.
 * @val: a layout offset (or 1 for preemption).
 *
 * Inline: do_IRQ calls it twice per interrupt. this_cpu_add(), not
 * __this_cpu_add(): a task's update must not be torn by one of irqcore's
 * interrupts updating the same word. On x86 both are one instruction;
 * elsewhere only this one is IRQ-safe.
 *
 * Context: preemption or interrupts disabled, so the CPU is fixed.
 */
static inline void ic_counter_add(unsigned int val)
{
	this_cpu_add(ic_count, val);
	barrier();
}

/**
 * ic_counter_sub() - lower this CPU's count by @val.
 * @val: what a matching ic_counter_add() added.
 *
 * Context: preemption or interrupts disabled, so the CPU is fixed.
 */
static inline void ic_counter_sub(unsigned int val)
{
	barrier();
	this_cpu_sub(ic_count, val);
}

/**
 * ic_counter_irq_enter() - count one hardirq level (the seed's irq_enter()).
 *
 * Context: hardirq, interrupts disabled; the regime's irq_enter calls it.
 */
static inline void ic_counter_irq_enter(void)
{
	ic_counter_add(ic_layout->hardirq_offset);
}

/**
 * ic_counter_irq_exit() - drop the hardirq level ic_counter_irq_enter() added.
 *
 * Context: hardirq, interrupts disabled; the regime's irq_exit calls it
 * before it runs pending softirqs.
 */
static inline void ic_counter_irq_exit(void)
{
	ic_counter_sub(ic_layout->hardirq_offset);
}

int ic_counter_init(int layout);
void ic_counter_exit(void);
void ic_counter_bh_enter(void);
void ic_counter_bh_exit(void);
bool ic_counter_bh_is_last(void);

/*
 * The folded counter's own answers. regime=nolock gives them to drivers;
 * regime=biglock answers from its own record, and the self-tests compare.
 */
bool ic_counter_in_interrupt(void);
bool ic_counter_in_irq(void);
bool ic_counter_in_softirq(void);
bool ic_counter_idle_tick_is_system(void);

#endif /* IC_COUNTER_H */
