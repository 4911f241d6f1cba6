/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore - the loaded regime's context record, inline (private).
 *
 * in_interrupt() and the bh level: under biglock from 2.5.27's
 * local_irq_count and local_bh_count (biglock.c), otherwise from the folded
 * counter (counter.c). softirq.c needs them and sits below regime.c, which
 * it must not call back into (tests/circles), so they are inlines over the
 * two files below both; regime.c exports them to drivers. The static key
 * keeps them free of an indirect call on the nolock hot path.
 */
#ifndef IC_CONTEXT_H
#define IC_CONTEXT_H

#include <linux/types.h>

#include "biglock.h"
#include "counter.h"

/**
 * __ic_in_interrupt() - is this CPU in hardirq or softirq/bh context?
 *
 * Context: any.
 * Return: true in hardirq, softirq or bh-disabled context.
 */
static inline bool __ic_in_interrupt(void)
{
	if (ic_biglock_active())
		return ic_biglock_in_interrupt();
	return ic_counter_in_interrupt();
}

/**
 * __ic_bh_disable() - local_bh_disable(): one bh level.
 *
 * The folded counter gets its softirq level in both regimes (it is kept
 * under biglock too, for the self-tests to compare); biglock also counts
 * 2.5.27's local_bh_count.
 *
 * Context: any but hardirq.
 */
static inline void __ic_bh_disable(void)
{
	ic_counter_bh_enter();
	if (ic_biglock_active())
		ic_biglock_bh_enter();
}

/**
 * __ic_bh_enable() - drop the bh level without running softirqs.
 *
 * Context: after __ic_bh_disable().
 */
static inline void __ic_bh_enable(void)
{
	if (ic_biglock_active())
		ic_biglock_bh_exit();
	ic_counter_bh_exit();
}

/**
 * ic_bh_may_run() - may a bottom half start here?
 *
 * 2.5.27's bh_action() asked hardirq_trylock(), so that a global cli()
 * kept bottom halves out; 2.5.28 dropped the test. Inline, and right
 * after the bh lock's flag is published: see the pairing in softirq.c.
 *
 * Context: the bottom-half runner.
 * Return: true if it may.
 */
static inline bool ic_bh_may_run(void)
{
	return !ic_biglock_active() || ic_biglock_hardirq_trylock();
}

#endif /* IC_CONTEXT_H */
