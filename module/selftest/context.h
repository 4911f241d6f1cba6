/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore - what a self-test handler or softirq saw of its context.
 */
#ifndef IC_SELFTEST_CONTEXT_H
#define IC_SELFTEST_CONTEXT_H

#include <linux/atomic.h>
#include <linux/types.h>

/**
 * struct ic_ctx_view - the four context answers of one bookkeeping scheme.
 * @in_interrupt: in_interrupt().
 * @in_irq: in_irq().
 * @in_softirq: in_softirq().
 * @idle_sys: the idle tick rule.
 */
struct ic_ctx_view {
	bool in_interrupt;
	bool in_irq;
	bool in_softirq;
	bool idle_sys;
};

/**
 * struct ic_ctx - one observation of the current context.
 * @count: ic_preempt_count().
 * @in_interrupt: ic_in_interrupt(), the answer drivers get.
 * @in_irq: ic_in_irq().
 * @in_softirq: ic_in_softirq().
 * @idle_sys: ic_idle_tick_is_system().
 * @fold: the folded counter's answers, in either regime.
 * @rec: 2.5.27's local_irq_count/local_bh_count answers (biglock only).
 * @host_hardirq: the host's in_hardirq().
 * @irqs_off: irqs_disabled().
 * @ksoftirqd: running in irqcore's ksoftirqd.
 * @cpu: the CPU.
 * @hits: how many observations were made (the last one is kept).
 */
struct ic_ctx {
	unsigned int count;
	bool in_interrupt;
	bool in_irq;
	bool in_softirq;
	bool idle_sys;
	struct ic_ctx_view fold;
	struct ic_ctx_view rec;
	bool host_hardirq;
	bool irqs_off;
	bool ksoftirqd;
	int cpu;
	atomic_t hits;
};

void ic_ctx_note(struct ic_ctx *c);
void ic_ctx_reset(struct ic_ctx *c);
bool ic_ctx_expect(const char *where, const struct ic_ctx *c, bool intr,
		   bool irq, bool soft, bool idle_sys);
bool ic_seed_layout(void);

#endif /* IC_SELFTEST_CONTEXT_H */
