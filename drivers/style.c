// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore_torture - the four locking styles, and the checker's report.
 *
 * ict_enter()/ict_exit() are called both by the process-context paths and
 * by the interrupt handlers, exactly as the 2002 drivers used the same
 * save_flags(); cli() pair in both places: in a handler cli() is local
 * only (even under biglock), in a task it is global under biglock.
 *
 * Contention. A clean verdict means something only if the two sides of
 * the critical section actually met, so each style counts the times they
 * did (dev->contended): the spinlock style when a trylock fails; every
 * style when a handler starts while a process-context section is open
 * (which a correct style on another CPU makes it wait for, and a broken
 * one lets through), and when a process-context section on the raising
 * CPU closes after the raiser's timer fell due (the interrupt was held
 * off). The global style under biglock adds irqcore's own counts of
 * interrupts that spun in irq_enter() and cli() calls that waited.
 *
 * No pr_fmt here: the messages of this file name the module themselves.
 */
#include <linux/delay.h>
#include <linux/irqflags.h>
#include <linux/ktime.h>
#include <linux/preempt.h>
#include <linux/printk.h>
#include <linux/spinlock.h>

#include <irqcore.h>

#include "torture.h"

/* Also the style= parameter's names, where "all" stands for every style. */
const char * const ict_style_names[] = {
	[ICT_STYLE_GLOBAL] = "global",
	[ICT_STYLE_LOCAL] = "local",
	[ICT_STYLE_SPINLOCK] = "spinlock",
	[ICT_STYLE_NONE] = "none",
	[ICT_NR_STYLES] = "all",
	[ICT_STYLE_LITERAL] = "literal",
	[ICT_STYLE_CONVERTED] = "converted",
	[ICT_STYLE_LOCALIZED] = "localized",
	[ICT_STYLE_STRIPPED] = "stripped",
	NULL
};

/* The generated rows are NULL where drivers/Kbuild did not generate them. */
const struct ict_driver * const ict_source_drivers[ICT_NR_SOURCE_STYLES][4] = {
	{ &ict_literal_vm86, &ict_literal_mca, &ict_literal_apm, &ict_literal_tty },
#ifdef ICT_GENERATED
	{ &ict_converted_vm86, &ict_converted_mca, &ict_converted_apm, &ict_converted_tty },
	{ &ict_localized_vm86, &ict_localized_mca, &ict_localized_apm, &ict_localized_tty },
	{ &ict_stripped_vm86, &ict_stripped_mca, &ict_stripped_apm, &ict_stripped_tty },
#endif
};

/*
 * Every ict_enter() is closed by ict_exit() in the same function, with its
 * return value. For sparse, each style "acquires" dev->lock: the styles
 * that take no lock say so with __acquire()/__release(), so that every
 * path through these functions has the same lock context.
 */

/**
 * ict_enter() - open a critical section on @dev's shared state.
 * @dev: the run.
 *
 * Context: process or hardirq; does not sleep.
 * Return: what ict_exit() needs.
 */
unsigned long ict_enter(struct ict_dev *dev)
	__acquires(&dev->lock)
{
	unsigned long flags = 0;

	switch (dev->style) {
	case ICT_STYLE_GLOBAL:
		flags = ic_save_flags();
		ic_cli();
		__acquire(&dev->lock);
		break;
	case ICT_STYLE_LOCAL:
		local_irq_save(flags);
		__acquire(&dev->lock);
		break;
	case ICT_STYLE_SPINLOCK:
		if (!raw_spin_trylock_irqsave(&dev->lock, flags)) {
			atomic_long_inc(&dev->contended);
			raw_spin_lock_irqsave(&dev->lock, flags);
		}
		break;
	case ICT_STYLE_NONE:
	default:
		__acquire(&dev->lock);
		break;
	}
	if (!in_hardirq())
		atomic_inc(&dev->in_section);
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
	__releases(&dev->lock)
{
	if (!in_hardirq()) {
		atomic_dec(&dev->in_section);
		/* Held off: the raiser, on this CPU, fell due in our section. */
		if (raw_smp_processor_id() == dev->raise_cpu &&
		    ktime_get_ns() >= READ_ONCE(dev->next_due_ns))
			atomic_long_inc(&dev->contended);
	}
	switch (dev->style) {
	case ICT_STYLE_GLOBAL:
		ic_restore_flags(flags);
		__release(&dev->lock);
		break;
	case ICT_STYLE_LOCAL:
		local_irq_restore(flags);
		__release(&dev->lock);
		break;
	case ICT_STYLE_SPINLOCK:
		raw_spin_unlock_irqrestore(&dev->lock, flags);
		break;
	case ICT_STYLE_NONE:
	default:
		__release(&dev->lock);
		break;
	}
}

/**
 * ict_irq_arrives() - note a handler's start for the contention count.
 * @dev: the run.
 *
 * Context: hardirq, before the driver's handler work.
 */
void ict_irq_arrives(struct ict_dev *dev)
{
	if (atomic_read(&dev->in_section))
		atomic_long_inc(&dev->contended);
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
 * ict_lit_window() - widen a source style's race window, and mark it.
 * @dev: the run.
 *
 * The source styles' drivers bracket their sections with 2002's calls, or
 * the converter's, not with ict_enter(); this marks the widened window as
 * a process-context section open, so that a handler that starts inside it
 * counts as contention (ict_irq_arrives()), as ict_enter() would.
 *
 * Context: process, inside the driver's critical section.
 */
void ict_lit_window(struct ict_dev *dev)
{
	atomic_inc(&dev->in_section);
	ict_window(dev);
	atomic_dec(&dev->in_section);
}

/**
 * ict_violations() - count @n invariant violations; describe the first few.
 * @dev: the run.
 * @n: how many (one per lost character, say, where one event loses many).
 * @fmt: what was seen, ending in a newline.
 *
 * A violation is the expected outcome of the broken styles, so it is a
 * plain line, not a WARN(): the torture test's verdict decides.
 *
 * Context: any.
 */
void ict_violations(struct ict_dev *dev, long n, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	atomic_long_add(n, &dev->violations);
	if (atomic_inc_return(&dev->reported) > 3)
		return;
	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_info(KBUILD_MODNAME ": violation: %pV", &vaf);
	va_end(args);
}
