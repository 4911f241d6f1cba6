/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore - small helpers over host-kernel facilities (private).
 */
#ifndef IC_COMPAT_H
#define IC_COMPAT_H

#include <linux/build_bug.h>
#include <linux/irqflags.h>
#include <linux/preempt.h>

/*
 * The host hardirq nesting from which ic_irqs_on() no longer opens a
 * window (it opens one up to a level less). Each window lets another
 * interrupt nest on this CPU's hardirq stack, and 2.5 had no bound but
 * the line count (INPROGRESS keeps a line from nesting in itself, not in
 * others): the control plane's fuzzer, with dozens of lines held open,
 * most likely nested kicks 16 deep on one CPU (inferred from its lost
 * kick, docs/irqctl.md). Past the 15th level the host's 4-bit hardirq
 * count (HARDIRQ_BITS) carries into the NMI bits, and the frames of 16
 * levels are a good part of the 16 KiB hardirq stack. From this depth on
 * a window stays closed, and a handler there is an SA_INTERRUPT handler
 * in all but name: it must not sti() or restore_flags() interrupts on.
 */
#define IC_IRQS_ON_MAX_NEST	8

/**
 * ic_hardirq_depth() - how many hardirqs this CPU is nested in.
 *
 * The host's hardirq_count() has 4 bits (HARDIRQ_BITS), enough for its own
 * handlers, which run with interrupts off. irqcore's windows let
 * interrupts nest deeper, and a 16th level carries into the NMI bits just
 * above, where in_hardirq() reads 0 (no handler runs in a real NMI). Read
 * together, the two fields give the depth whatever the carry.
 *
 * Context: any.
 * Return: the number of hardirq levels this CPU is in.
 */
static inline unsigned int ic_hardirq_depth(void)
{
	BUILD_BUG_ON(HARDIRQ_SHIFT + HARDIRQ_BITS != NMI_SHIFT);
	return (preempt_count() & (HARDIRQ_MASK | NMI_MASK)) >> HARDIRQ_SHIFT;
}

/* What ic_irqs_on() did, for ic_irqs_off(). */
#define IC_WIN_OPEN	0x1	/* interrupts were enabled */
#define IC_WIN_LOCKDEP	0x2	/* lockdep was told: not hardirq context */

/**
 * ic_irqs_on() - open a window with local interrupts enabled.
 *
 * In 2002 a handler without SA_INTERRUPT, and softirq processing, ran with
 * interrupts enabled; irqcore does the same inside the host's hardirq (the
 * IPI). Lockdep refuses to see interrupts enabled in hardirq context, so
 * the window is presented to it as what it was in 2.5: not hardirq
 * context. The hardirq part of the preempt count is left alone, and
 * docs/deviations.md records the difference. At IC_IRQS_ON_MAX_NEST host
 * hardirq levels and deeper the window stays closed (interrupts off), as
 * docs/deviations.md says too.
 *
 * Context: interrupts disabled. Pair with ic_irqs_off().
 * Return: the cookie for ic_irqs_off().
 */
static inline unsigned int ic_irqs_on(void)
{
	unsigned int win = IC_WIN_OPEN;

	if (ic_hardirq_depth() >= IC_IRQS_ON_MAX_NEST)
		return 0;
	if (lockdep_hardirq_context()) {
		lockdep_hardirq_exit();
		win |= IC_WIN_LOCKDEP;
	}
	local_irq_enable();
	return win;
}

/**
 * ic_irqs_off() - close a window opened by ic_irqs_on().
 * @win: what ic_irqs_on() returned.
 *
 * Context: the window of ic_irqs_on().
 */
static inline void ic_irqs_off(unsigned int win)
{
	if (!(win & IC_WIN_OPEN))
		return;
	local_irq_disable();
	if (win & IC_WIN_LOCKDEP)
		lockdep_hardirq_enter();
}

#endif /* IC_COMPAT_H */
