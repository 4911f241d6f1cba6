/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore - what differs between the 2.5.27 and 2.5.28 designs (private).
 *
 * The controller, the descriptors, do_IRQ and the softirq engine are
 * shared; every difference between the regimes sits behind these ops,
 * chosen by name at load (regime=). irq_enter/irq_exit, the context
 * predicates and the bh hooks, which are too hot for an indirect call (a
 * retpoline on Debian's kernels), are in regime.c too and test
 * ic_biglock_active() (a static key) instead; so does irq.c's
 * synchronize_irq(), whose per-line wait is irq.c's own (this file sits
 * below irq.c and does not call up into it). counter.c knows nothing of
 * regimes: it keeps the folded count and answers from it alone.
 */
#ifndef IC_REGIME_H
#define IC_REGIME_H

#include <linux/types.h>

#include <irqcore.h>

#include "biglock.h"
#include "context.h"
#include "counter.h"
#include "softirq.h"

/**
 * struct ic_regime_ops - one regime.
 * @name: its parameter name.
 * @disable_irq_may_wait: may disable_irq() wait for its line here?
 *	2.5.27 skipped the wait inside any handler; 2.5.28 always waited.
 * @cli: cli(); @ip is the caller, for diagnostics.
 * @sti: sti().
 * @save_flags: save_flags(), in the 0/1/2/3 encoding.
 * @hardirq_trylock: hardirq_trylock() as its regime defined it.
 */
struct ic_regime_ops {
	const char *name;
	bool (*disable_irq_may_wait)(void);
	void (*cli)(unsigned long ip);
	void (*sti)(void);
	unsigned long (*save_flags)(void);
	bool (*hardirq_trylock)(void);
};

enum ic_regime_id {
	IC_REGIME_NOLOCK,
	IC_REGIME_BIGLOCK,
};

extern const struct ic_regime_ops *ic_regime;

/**
 * __ic_irq_enter() - irq_enter() of the loaded regime, inline for do_IRQ.
 *
 * nolock: one hardirq level in the folded counter. biglock: 2.5.27's
 * local_irq_count++, then a spin while another CPU holds the global lock.
 *
 * Context: hardirq, interrupts disabled.
 */
static inline void __ic_irq_enter(void)
{
	if (ic_biglock_active())
		ic_biglock_irq_enter();
	else
		ic_counter_irq_enter();
}

/**
 * __ic_irq_exit() - irq_exit() of the loaded regime, then pending softirqs.
 *
 * Context: hardirq, interrupts disabled, after __ic_irq_enter().
 */
static inline void __ic_irq_exit(void)
{
	if (ic_biglock_active())
		ic_biglock_irq_exit();
	else
		ic_counter_irq_exit();
	if (ic_softirq_pending())
		ic_do_softirq();
}

int ic_regime_init(int id, unsigned int nr_cpus);
void ic_regime_exit(void);
unsigned long ic_nolock_global_calls(void);

#endif /* IC_REGIME_H */
