/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore - small helpers over host-kernel facilities (private).
 */
#ifndef IC_COMPAT_H
#define IC_COMPAT_H

#include <linux/irqflags.h>

/**
 * ic_irqs_on() - open a window with local interrupts enabled.
 *
 * In 2002 a handler without SA_INTERRUPT, and softirq processing, ran with
 * interrupts enabled; irqcore does the same inside the host's hardirq (the
 * IPI). Lockdep refuses to see interrupts enabled in hardirq context, so
 * the window is presented to it as what it was in 2.5: not hardirq
 * context. The hardirq part of the preempt count is left alone, and
 * docs/deviations.md records the difference.
 *
 * Context: interrupts disabled. Pair with ic_irqs_off().
 * Return: the cookie for ic_irqs_off().
 */
static inline bool ic_irqs_on(void)
{
	bool hard = lockdep_hardirq_context();

	if (hard)
		lockdep_hardirq_exit();
	local_irq_enable();
	return hard;
}

/**
 * ic_irqs_off() - close a window opened by ic_irqs_on().
 * @hard: what ic_irqs_on() returned.
 *
 * Context: the window of ic_irqs_on().
 */
static inline void ic_irqs_off(bool hard)
{
	local_irq_disable();
	if (hard)
		lockdep_hardirq_enter();
}

#endif /* IC_COMPAT_H */
