/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore - the 2.5.27 big IRQ lock and its context record (private).
 *
 * Under regime=biglock the context questions (in_interrupt() and friends)
 * are answered from each CPU's local_irq_count and local_bh_count in
 * irq_stat[], as 2.5.27 did, not from the folded counter. counter.c keeps
 * the folded counter in both regimes, so that the self-tests can compare
 * the two records.
 */
#ifndef IC_BIGLOCK_H
#define IC_BIGLOCK_H

#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/cache.h>
#include <linux/compiler.h>
#include <linux/jump_label.h>
#include <linux/percpu.h>
#include <linux/smp.h>
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

int ic_biglock_init(unsigned int nr_cpus);
void ic_biglock_exit(void);

/*
 * The most CPUs irq_stat[] has room for: this build's NR_CPUS. An xAPIC
 * machine has at most 254 CPUs (QEMU's i440FX guest stops there), so 256
 * holds every guest irqcore is tested in.
 */
#define IC_NR_CPUS_MAX		256

/*
 * NR_CPUS of an SMP i386 kernel in 2.4 and 2.5 (include/linux/threads.h):
 * the length 2.5.27's irqs_running() scanned, however few CPUs were
 * present. nr_cpus= defaults to it, or to nr_cpu_ids on a host that can
 * have more CPUs.
 */
#define IC_NR_CPUS_2002		32

/**
 * struct ic_irq_cpustat - one CPU's record in 2.5.27's irq_stat[].
 * @local_irq_count: hardirq nesting on this CPU (irq_enter()/irq_exit()).
 * @local_bh_count: bottom-half nesting (local_bh_disable(), softirqs).
 *
 * 2.5.27's irq_cpustat_t (include/asm-i386/hardirq.h) put both counts side
 * by side in one record per CPU, each record aligned to its own cache line
 * (____cacheline_aligned), with the softirq mask and other fields that
 * irqcore keeps elsewhere. The layout is that one: both counts of a CPU on
 * one line, no two CPUs on the same line. Only the CPU itself writes its
 * record (and its own interrupts, which leave the counts as they found
 * them); other CPUs only read it, with READ_ONCE().
 */
struct ic_irq_cpustat {
	unsigned int local_irq_count;
	unsigned int local_bh_count;
} ____cacheline_aligned;

/* irq_stat[], indexed by CPU number, and the length cli() scans (biglock.c). */
extern struct ic_irq_cpustat ic_irq_stat[IC_NR_CPUS_MAX];
extern unsigned int ic_nr_cpus;

/* 2.5.27's global_irq_lock bit (biglock.c). */
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
	ic_irq_stat[smp_processor_id()].local_irq_count++;
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
	 * compiler barrier and one decrement of this CPU's irq_stat[] record
	 * are the release, as 2.5.27's irq_exit() was one decrement;
	 * elsewhere the release is spelt out.
	 */
	unsigned int *count = &ic_irq_stat[smp_processor_id()].local_irq_count;

#ifdef CONFIG_X86
	/* the handler's accesses stay before the decrement, the release */
	barrier();
	(*count)--;
#else
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
bool ic_biglock_irqs_running(void);
void ic_biglock_synchronize_irq(unsigned int irq, unsigned long ip);
bool ic_biglock_disable_irq_may_wait(void);
int ic_biglock_holder(void);

#endif /* IC_BIGLOCK_H */
