/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore - the 2.5.27 big IRQ lock and its context record (private).
 *
 * Under regime=biglock the context questions (in_interrupt() and friends)
 * are answered from per-CPU local_irq_count and local_bh_count, as 2.5.27
 * did, not from the folded counter. counter.c keeps the folded counter in
 * both regimes, so that the self-tests can compare the two records.
 */
#ifndef IC_BIGLOCK_H
#define IC_BIGLOCK_H

#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/compiler.h>
#include <linux/jump_label.h>
#include <linux/percpu.h>
#include <linux/types.h>

#include "counter.h"

/* No CPU holds the global lock (2.5.27's NO_PROC_ID). */
#define IC_NO_PROC_ID	(-1)

/*
 * Enabled only by regime=biglock, so that the nolock hot paths (bh
 * enable/disable and the context predicates) pay a patched-out branch and
 * nothing else for the regime they do not use.
 */
DECLARE_STATIC_KEY_FALSE(ic_biglock_key);

static inline bool ic_biglock_active(void)
{
	return static_branch_unlikely(&ic_biglock_key);
}

void ic_biglock_init(void);
void ic_biglock_exit(void);

/* 2.5.27's per-CPU local_irq_count and its global_irq_lock bit (biglock.c). */
DECLARE_PER_CPU(unsigned int, ic_local_irq_count);
extern unsigned long ic_global_irq_lock;

/*
 * Set while 2.5's global bh lock is held: softirq.c's bh_action() sets and
 * clears it, 2.5.27's cli() waits while it is set. It is defined in
 * biglock.c, below softirq.c, so that cli() reads it without calling up
 * into the file that runs bottom halves (tests/circles).
 */
extern atomic_t ic_bh_held;

/**
 * ic_bh_lock_is_locked() - is a bottom half running somewhere?
 *
 * Context: any; a snapshot.
 * Return: true if the bh lock is held.
 */
static inline bool ic_bh_lock_is_locked(void)
{
	return atomic_read(&ic_bh_held);
}

void ic_biglock_irq_enter_wait(void);

/**
 * ic_biglock_irq_enter() - 2.5.27 irq_enter(): count, then wait for sti().
 *
 * Inline, as 2.5.27's was, with the wait out of line: the fast path is
 * the folded counter nolock keeps too, local_irq_count++, a full barrier
 * and one test of the lock bit.
 *
 * Context: hardirq, local interrupts off; called by do_IRQ.
 */
static inline void ic_biglock_irq_enter(void)
{
	ic_counter_irq_enter();	/* the folded counter, kept for comparison */
	__this_cpu_inc(ic_local_irq_count);
	smp_mb();		/* pairs with test_and_set_bit() in cli() */
	if (unlikely(test_bit(0, &ic_global_irq_lock)))
		ic_biglock_irq_enter_wait();
}

/**
 * ic_biglock_irq_exit() - 2.5.27 irq_exit(): local_irq_count--.
 *
 * Context: hardirq, local interrupts off, after ic_biglock_irq_enter();
 * __ic_irq_exit() runs pending softirqs afterwards.
 */
static inline void ic_biglock_irq_exit(void)
{
	/*
	 * A cli() that sees the count drop must see the handler's writes: a
	 * release, which pairs with the smp_rmb() at the end of
	 * ic_wait_on_irq(). Nothing here loads after the store, so no full
	 * barrier is needed. On x86 every store is a release (TSO), so the
	 * compiler barrier and one per-CPU decrement are the release, as
	 * 2.5.27's irq_exit() was one decrement; elsewhere the release is
	 * spelt out.
	 */
#ifdef CONFIG_X86
	/* the handler's accesses stay before the decrement, the release */
	barrier();
	__this_cpu_dec(ic_local_irq_count);
#else
	unsigned int *count = this_cpu_ptr(&ic_local_irq_count);

	/* pairs with the smp_rmb() at the end of ic_wait_on_irq() */
	smp_store_release(count, *count - 1);
#endif
	ic_counter_irq_exit();
}

void ic_biglock_bh_enter(void);
unsigned int ic_biglock_bh_exit(void);

bool ic_biglock_in_interrupt(void);
bool ic_biglock_in_irq(void);
bool ic_biglock_in_softirq(void);
bool ic_biglock_idle_tick_is_system(void);

void ic_biglock_cli(unsigned long ip);
void ic_biglock_sti(void);
unsigned long ic_biglock_save_flags(void);
bool ic_biglock_hardirq_trylock(void);
void ic_biglock_synchronize_irq(unsigned int irq, unsigned long ip);
bool ic_biglock_disable_irq_may_wait(void);
int ic_biglock_holder(void);

#endif /* IC_BIGLOCK_H */
