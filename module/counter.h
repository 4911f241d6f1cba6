/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore - the folded preemption/softirq/hardirq counter (private).
 */
#ifndef IC_COUNTER_H
#define IC_COUNTER_H

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

int ic_counter_init(int layout);
void ic_counter_exit(void);
void ic_counter_add(unsigned int val);
void ic_counter_sub(unsigned int val);
void ic_counter_irq_enter(void);
void ic_counter_irq_exit(void);
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
