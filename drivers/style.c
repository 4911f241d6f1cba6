// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore_torture - the four locking styles, and the checker's report.
 *
 * ict_enter()/ict_exit() are called both by the process-context paths and
 * by the interrupt handlers, exactly as the 2002 drivers used the same
 * save_flags(); cli() pair in both places: in a handler cli() is local
 * only (even under biglock), in a task it is global under biglock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/irqflags.h>
#include <linux/printk.h>
#include <linux/spinlock.h>

#include <irqcore.h>

#include "torture.h"

const char * const ict_style_names[] = {
	[ICT_STYLE_GLOBAL] = "global",
	[ICT_STYLE_LOCAL] = "local",
	[ICT_STYLE_SPINLOCK] = "spinlock",
	[ICT_STYLE_NONE] = "none",
	NULL
};

/*
 * Sparse cannot follow a lock taken in one style and not in another, so
 * these carry no __acquires(); the pairing rule is simpler than the
 * annotation: every ict_enter() is closed by ict_exit() in the same
 * function, with its return value.
 */

/**
 * ict_enter() - open a critical section on @dev's shared state.
 * @dev: the run.
 *
 * Context: process or hardirq; does not sleep.
 * Return: what ict_exit() needs.
 */
unsigned long ict_enter(struct ict_dev *dev)
{
	unsigned long flags = 0;

	switch (dev->style) {
	case ICT_STYLE_GLOBAL:
		flags = ic_save_flags();
		ic_cli();
		break;
	case ICT_STYLE_LOCAL:
		local_irq_save(flags);
		break;
	case ICT_STYLE_SPINLOCK:
		spin_lock_irqsave(&dev->lock, flags);
		break;
	case ICT_STYLE_NONE:
	case ICT_NR_STYLES:
		break;
	}
	return flags;
}

/**
 * ict_exit() - close the section ict_enter() opened.
 * @dev: the run.
 * @flags: ict_enter()'s return value.
 *
 * Context: as ict_enter().
 */
void ict_exit(struct ict_dev *dev, unsigned long flags)
{
	switch (dev->style) {
	case ICT_STYLE_GLOBAL:
		ic_restore_flags(flags);
		break;
	case ICT_STYLE_LOCAL:
		local_irq_restore(flags);
		break;
	case ICT_STYLE_SPINLOCK:
		spin_unlock_irqrestore(&dev->lock, flags);
		break;
	case ICT_STYLE_NONE:
	case ICT_NR_STYLES:
		break;
	}
}

/**
 * ict_window() - widen a process-context race window by delay_us.
 * @dev: the run.
 *
 * A busy wait, so that it may sit inside any critical section. It widens
 * the window; it never changes what the invariant demands.
 *
 * Context: process.
 */
void ict_window(struct ict_dev *dev)
{
	if (dev->delay_us)
		udelay(dev->delay_us);
}

/**
 * ict_violation() - count one invariant violation; describe the first few.
 * @dev: the run.
 * @fmt: what was seen, ending in a newline.
 *
 * A violation is the expected outcome of the broken styles, so it is a
 * plain line, not a WARN(): the torture test's verdict decides.
 *
 * Context: any.
 */
void ict_violation(struct ict_dev *dev, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	atomic_long_inc(&dev->violations);
	if (atomic_inc_return(&dev->reported) > 3)
		return;
	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_info("violation: %pV", &vaf);
	va_end(args);
}
