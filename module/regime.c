// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore - the regimes: what differs between 2.5.27 and 2.5.28, and the
 * 2002 interrupt-flag API (cli(), sti(), save_flags(), restore_flags())
 * that drivers call in either.
 *
 * nolock (2.5.28): no global interrupt lock at all. irq_enter/irq_exit
 * only move the folded counter, and synchronize_irq(irq) waits for that
 * one line's INPROGRESS to clear. 2.5.28 removed cli() on SMP; a driver
 * that calls ic_cli() here gets what the quick conversions of 2002 gave
 * it: local_irq_disable(), on this CPU only. It is told so once.
 *
 * biglock (2.5.27): see biglock.c.
 *
 * The context questions (in_interrupt() and friends) and the bh
 * enable/disable pair are also answered here: nolock from the folded
 * counter of counter.c, biglock from 2.5.27's local_irq_count and
 * local_bh_count. They are too hot for an indirect call, so they test
 * ic_biglock_active(), a static key, instead of going through the ops.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/export.h>
#include <linux/instruction_pointer.h>
#include <linux/irqflags.h>
#include <linux/preempt.h>
#include <linux/printk.h>
#include <linux/spinlock.h>

#include <irqcore.h>

#include "biglock.h"
#include "counter.h"
#include "misuse.h"
#include "regime.h"
#include "softirq.h"

static atomic_long_t ic_nolock_globals;

static void ic_nolock_cli(unsigned long ip)
{
	atomic_long_inc(&ic_nolock_globals);
	pr_notice_once("regime=nolock: cli() from %pS masks this CPU only; 2.5.28 has no global cli() on SMP\n",
		       (void *)ip);
	local_irq_disable();
}

static void ic_nolock_sti(void)
{
	local_irq_enable();
}

/* Only the local half of the encoding exists: 2 (off) or 3 (on). */
static unsigned long ic_nolock_save_flags(void)
{
	return 2 + !irqs_disabled();
}

/* 2.5.28: hardirq_trylock() is !in_interrupt(). */
static bool ic_nolock_hardirq_trylock(void)
{
	return !ic_in_interrupt();
}

static bool ic_always(void)
{
	return true;
}

static const struct ic_regime_ops ic_regime_nolock = {
	.name = "nolock",
	.disable_irq_may_wait = ic_always,
	.cli = ic_nolock_cli,
	.sti = ic_nolock_sti,
	.save_flags = ic_nolock_save_flags,
	.hardirq_trylock = ic_nolock_hardirq_trylock,
};

static const struct ic_regime_ops ic_regime_biglock = {
	.name = "biglock",
	.disable_irq_may_wait = ic_biglock_disable_irq_may_wait,
	.cli = ic_biglock_cli,
	.sti = ic_biglock_sti,
	.save_flags = ic_biglock_save_flags,
	.hardirq_trylock = ic_biglock_hardirq_trylock,
};

static const struct ic_regime_ops * const ic_regimes[] = {
	[IC_REGIME_NOLOCK] = &ic_regime_nolock,
	[IC_REGIME_BIGLOCK] = &ic_regime_biglock,
};

const struct ic_regime_ops *ic_regime = &ic_regime_nolock;

/**
 * ic_cli() - cli(): under biglock, stop interrupt handling on every CPU;
 * under nolock, mask interrupts on this CPU only (and say so, once).
 *
 * Context: any; under biglock it spins, and the caller must then neither
 * sleep nor migrate until ic_sti().
 */
void ic_cli(void)
{
	ic_regime->cli(_RET_IP_);
}
EXPORT_SYMBOL_GPL(ic_cli);

/**
 * ic_sti() - sti(): release the global lock if held, enable locally.
 *
 * Context: not in an SA_INTERRUPT handler.
 */
void ic_sti(void)
{
	ic_regime->sti();
}
EXPORT_SYMBOL_GPL(ic_sti);

/**
 * ic_hold_section() - run @fn inside the section of a driver that holds
 *	interrupts off, as the holders of the tests and benchmarks do.
 * @big: true: the section is ic_cli()/ic_sti(), a 2.5.27 driver's
 *	(under biglock the global lock; under nolock this CPU only); false:
 *	@lock, a driver's own lock taken with local interrupts off, as
 *	2.5.28's conversion left such a section.
 * @lock: that driver's lock, unrelated to the interrupt measured; unused
 *	when @big.
 * @fn: the section's body; must not sleep.
 * @arg: its argument.
 *
 * One function for the five holders (the edu latency run, the NIC's round
 * trips, the sound card's hold case, the control plane's holder and the
 * contention benchmark), which each had a copy. Two balanced paths, so
 * that sparse can follow the lock.
 *
 * Context: process or any context that may spin with interrupts off;
 * under biglock the caller's CPU spins until it holds the global lock.
 */
void ic_hold_section(bool big, raw_spinlock_t *lock, void (*fn)(void *arg), void *arg)
{
	unsigned long flags;

	if (big) {
		ic_cli();
		fn(arg);
		ic_sti();
	} else {
		raw_spin_lock_irqsave(lock, flags);
		fn(arg);
		raw_spin_unlock_irqrestore(lock, flags);
	}
}
EXPORT_SYMBOL_GPL(ic_hold_section);

/**
 * ic_save_flags() - save_flags() in the 2.5.27 encoding.
 *
 * Context: any.
 * Return: 0 global cli held, 1 global sti, 2 local cli, 3 local sti.
 * Inside a handler, and always under nolock, only 2 or 3.
 */
unsigned long ic_save_flags(void)
{
	return ic_regime->save_flags();
}
EXPORT_SYMBOL_GPL(ic_save_flags);

/**
 * ic_restore_flags() - restore_flags(): return to a state ic_save_flags()
 * reported.
 * @flags: 0, 1, 2 or 3. Anything else is reported and ignored.
 *
 * Context: as ic_cli() for 0, as ic_sti() for 1 and 3.
 */
void ic_restore_flags(unsigned long flags)
{
	switch (flags) {
	case 0:
		ic_regime->cli(_RET_IP_);
		break;
	case 1:
		ic_regime->sti();
		break;
	case 2:
		local_irq_disable();
		break;
	case 3:
		local_irq_enable();
		break;
	default:
		ic_api_misuse("restore_flags(%#lx) from %pS: valid values 0, 1, 2, 3; ignored\n",
			      flags, (void *)_RET_IP_);
	}
}
EXPORT_SYMBOL_GPL(ic_restore_flags);

/**
 * ic_hardirq_trylock() - hardirq_trylock() of the loaded regime.
 *
 * biglock: not in a handler and nobody holds the global lock. nolock:
 * !in_interrupt().
 *
 * Context: any.
 * Return: true if a bottom half could start here.
 */
bool ic_hardirq_trylock(void)
{
	return ic_regime->hardirq_trylock();
}
EXPORT_SYMBOL_GPL(ic_hardirq_trylock);

/**
 * ic_hardirq_endlock() - hardirq_endlock(): nothing, in both regimes.
 *
 * Context: after a successful ic_hardirq_trylock().
 */
void ic_hardirq_endlock(void)
{
}
EXPORT_SYMBOL_GPL(ic_hardirq_endlock);

/**
 * ic_regime_name() - the loaded regime's name, "biglock" or "nolock".
 *
 * Context: any.
 * Return: a string constant.
 */
const char *ic_regime_name(void)
{
	return ic_regime->name;
}
EXPORT_SYMBOL_GPL(ic_regime_name);

/**
 * ic_irq_enter() - enter hardirq context: the regime's irq_enter().
 *
 * nolock: one hardirq level in the folded counter. biglock: 2.5.27's
 * local_irq_count++, then a spin while another CPU holds the global lock.
 *
 * Context: hardirq, interrupts disabled; do_IRQ calls it first.
 */
void ic_irq_enter(void)
{
	__ic_irq_enter();
}
EXPORT_SYMBOL_GPL(ic_irq_enter);

/**
 * ic_irq_exit() - leave hardirq context, then run pending softirqs.
 *
 * The split layout's irq_exit() runs softirqs itself; the seed's do_IRQ
 * (and 2.5.27's) did it right after irq_exit(). Both end the same way:
 * softirqs run once the CPU has left interrupt context, never inside it
 * (ic_do_softirq() returns at once in a nested interrupt).
 *
 * Context: hardirq, interrupts disabled, after ic_irq_enter().
 */
void ic_irq_exit(void)
{
	__ic_irq_exit();
}
EXPORT_SYMBOL_GPL(ic_irq_exit);

/**
 * ic_in_interrupt() - is this CPU in hardirq or softirq/bh context?
 *
 * Context: any.
 * Return: true in hardirq, softirq or bh-disabled context.
 */
bool ic_in_interrupt(void)
{
	return __ic_in_interrupt();
}
EXPORT_SYMBOL_GPL(ic_in_interrupt);

/**
 * ic_in_irq() - is this CPU in hardirq context?
 *
 * With counter=seed under nolock, this is true in softirq context too.
 *
 * Context: any.
 * Return: true in hardirq context.
 */
bool ic_in_irq(void)
{
	if (ic_biglock_active())
		return ic_biglock_in_irq();
	return ic_counter_in_irq();
}
EXPORT_SYMBOL_GPL(ic_in_irq);

/**
 * ic_in_softirq() - is this CPU in softirq context or bh-disabled?
 *
 * With counter=seed under nolock, this is true in hardirq context too.
 *
 * Context: any.
 * Return: true in softirq or bh-disabled context.
 */
bool ic_in_softirq(void)
{
	if (ic_biglock_active())
		return ic_biglock_in_softirq();
	return ic_counter_in_softirq();
}
EXPORT_SYMBOL_GPL(ic_in_softirq);

/**
 * ic_idle_tick_is_system() - would a tick here count idle as system time?
 *
 * Context: any; meaningful in a tick.
 * Return: true if it would.
 */
bool ic_idle_tick_is_system(void)
{
	if (ic_biglock_active())
		return ic_biglock_idle_tick_is_system();
	return ic_counter_idle_tick_is_system();
}
EXPORT_SYMBOL_GPL(ic_idle_tick_is_system);

/**
 * ic_local_bh_disable() - keep softirqs (and bottom halves) off this CPU.
 *
 * The folded counter gets its softirq level in both regimes (it is kept
 * under biglock too, for the self-tests to compare); biglock also counts
 * 2.5.27's local_bh_count.
 *
 * Context: any but hardirq; pairs with ic_local_bh_enable().
 */
void ic_local_bh_disable(void)
{
	__ic_bh_disable();
}
EXPORT_SYMBOL_GPL(ic_local_bh_disable);

/**
 * __ic_local_bh_enable() - drop the bh level without running softirqs.
 *
 * Context: after ic_local_bh_disable().
 */
void __ic_local_bh_enable(void)
{
	__ic_bh_enable();
}
EXPORT_SYMBOL_GPL(__ic_local_bh_enable);

/**
 * ic_local_bh_enable() - drop the bh level; run softirqs if it was the last.
 *
 * nolock, as in the seed: when the count is exactly one bh level (nothing
 * else holds this CPU in interrupt or preempt-disabled context) and
 * softirqs are pending, they run now. biglock, 2.5.27's rule: when
 * local_bh_count drops to zero (do_softirq() itself returns at once in a
 * handler).
 *
 * Context: after ic_local_bh_disable(), not in hardirq.
 */
void ic_local_bh_enable(void)
{
	bool last;

	if (ic_biglock_active())
		last = !ic_biglock_bh_exit();
	else
		last = ic_counter_bh_is_last();
	/*
	 * The level goes first, so that do_softirq() does not find itself in
	 * interrupt context; preemption stays off until the run is over, so
	 * that the softirqs found pending are this CPU's.
	 */
	ic_counter_sub(ic_layout->softirq_offset);
	if (last && ic_softirq_pending())
		ic_do_softirq();
	preempt_enable();
}
EXPORT_SYMBOL_GPL(ic_local_bh_enable);

/**
 * ic_nolock_global_calls() - how often cli() was asked of nolock.
 *
 * Context: any.
 * Return: the count since load.
 */
unsigned long ic_nolock_global_calls(void)
{
	return atomic_long_read(&ic_nolock_globals);
}

/**
 * ic_regime_init() - select the regime for this load.
 * @id: an enum ic_regime_id.
 * @nr_cpus: the length of 2.5.27's irq_stat[] scan (regime=biglock only).
 *
 * Context: process (module init), before any line can fire.
 * Return: 0, or biglock's refusal of a host with more CPUs than
 * irq_stat[] holds.
 */
int ic_regime_init(int id, unsigned int nr_cpus)
{
	int err;

	if (id == IC_REGIME_BIGLOCK) {
		err = ic_biglock_init(nr_cpus);
		if (err)
			return err;
	}
	ic_regime = ic_regimes[id];
	return 0;
}

/**
 * ic_regime_exit() - undo ic_regime_init().
 *
 * Context: process (module exit), after every line is quiet.
 */
void ic_regime_exit(void)
{
	if (ic_regime == &ic_regime_biglock)
		ic_biglock_exit();
	ic_regime = &ic_regime_nolock;
}
