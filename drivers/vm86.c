// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore_torture - vm86 irqbits.
 *
 * Mirrors 2.5.28 arch/i386/kernel/vm86.c: irq_handler() sets the line's
 * bit in the shared irqbits word unless it is already set, and
 * get_and_reset_irq() reads the bit and clears it. Both are read-modify-
 * writes of one word; 2.5.27 made them atomic with save_flags(); cli(),
 * 2.5.28 with irqbits_lock.
 *
 * Invariant: no bit is lost or invented. The handler counts every time it
 * sets a bit, process context every time it collects one; inside a correct
 * critical section, set - collected is exactly the bit's current value.
 * The counters are atomics so that they stay true whatever the style does
 * to irqbits; they serialise nothing but themselves.
 *
 * The check reads a bit and its counters as one snapshot: the handler
 * brackets its update of both with a sequence count, and the check
 * retries while an update was under way. In a broken style the handler
 * can run in the middle of the check; without the retry that showed as
 * "a set bit was lost" and then "a bit appeared", a violation of the
 * checker's own making.
 */
#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/compiler.h>
#include <linux/kcsan-checks.h>
#include <linux/seqlock.h>
#include <linux/string.h>

#include "torture.h"

#define ICT_VM86_BITS	16

static struct {
	unsigned long irqbits;
	unsigned int next;			/* handler only */
	seqcount_t seq;				/* written by the handler only */
	atomic_t turn;
	atomic_long_t set[ICT_VM86_BITS];
	atomic_long_t collected[ICT_VM86_BITS];
} ict_v;

static void ict_vm86_reset(struct ict_dev *dev)
{
	memset(&ict_v, 0, sizeof(ict_v));
	seqcount_init(&ict_v.seq);
}

/* irq_handler(): each interrupt stands for the next of 16 vm86 IRQs. */
static void ict_vm86_irq(struct ict_dev *dev)
{
	unsigned int nr = ict_v.next++ % ICT_VM86_BITS;
	unsigned long flags, v;

	flags = ict_enter(dev);
	v = ict_v.irqbits;
	if (!(v & BIT(nr))) {
		/* One instance of the line runs at a time: a single writer. */
		raw_write_seqcount_begin(&ict_v.seq);
		atomic_long_inc(&ict_v.set[nr]);
		/*
		 * KCSAN takes every access inside a seqcount write section
		 * for atomic. The seqcount is the checker's; this store is
		 * the driver's plain one and must stay visible to KCSAN.
		 */
		kcsan_nestable_atomic_end();
		ict_v.irqbits = v | BIT(nr);
		kcsan_nestable_atomic_begin();
		raw_write_seqcount_end(&ict_v.seq);
	}
	ict_exit(dev, flags);
}

/*
 * Does bit @nr agree with its counters? If not, report and resync.
 * Return: the irqbits word of the snapshot that was checked.
 */
static unsigned long ict_vm86_check(struct ict_dev *dev, unsigned int nr)
{
	unsigned long v;
	unsigned int seq;
	long set, pending, bit;

	do {
		seq = raw_read_seqcount_begin(&ict_v.seq);
		v = ict_v.irqbits;
		set = atomic_long_read(&ict_v.set[nr]);
		pending = set - atomic_long_read(&ict_v.collected[nr]);
	} while (read_seqcount_retry(&ict_v.seq, seq));
	bit = !!(v & BIT(nr));
	if (pending == bit)
		return v;
	ict_violation(dev, "vm86: irq %u set %ld times, %s\n", nr, set,
		      pending > bit ? "a set bit was lost" : "a bit appeared that nobody set");
	atomic_long_set(&ict_v.collected[nr], set - bit);
	return v;
}

/* get_and_reset_irq(): collect one vm86 IRQ's bit. */
static bool ict_vm86_op(struct ict_dev *dev, unsigned int thread)
{
	unsigned int nr = (unsigned int)atomic_inc_return(&ict_v.turn) % ICT_VM86_BITS;
	unsigned long flags, v;

	flags = ict_enter(dev);
	v = ict_vm86_check(dev, nr);
	ict_window(dev);
	if (v & BIT(nr)) {
		/*
		 * The section owns irqbits: nobody else may write it now. A
		 * KCSAN assertion states that contract; a broken style breaks
		 * it, and KCSAN says so (the plain accesses around it sit
		 * mostly inside the checker's seqcount, which KCSAN ignores).
		 */
		ASSERT_EXCLUSIVE_WRITER(ict_v.irqbits);
		ict_v.irqbits = v & ~BIT(nr);
		atomic_long_inc(&ict_v.collected[nr]);
	}
	ict_exit(dev, flags);
	return true;
}

static void ict_vm86_finish(struct ict_dev *dev)
{
	unsigned int nr;

	for (nr = 0; nr < ICT_VM86_BITS; nr++)
		ict_vm86_check(dev, nr);
}

const struct ict_driver ict_vm86 = {
	.name = "vm86",
	.reset = ict_vm86_reset,
	.irq = ict_vm86_irq,
	.op = ict_vm86_op,
	.finish = ict_vm86_finish,
};
