// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore_torture, style literal - vm86 irqbits, as 2.5.27 had them.
 *
 * arch/i386/kernel/vm86.c before the seed: irq_handler() sets the line's
 * bit in irqbits unless it is set, and get_and_reset_irq() reads the bit
 * and clears it, each under save_flags(); cli(). The seed (2.5.28) put
 * both under irqbits_lock.
 *
 * Invariant, as drivers/vm86.c: no bit is lost or invented; for each bit,
 * sets - collections = the bit's value. The handler brackets its update
 * with a sequence count so that the check reads a bit and its counters as
 * one snapshot (see drivers/vm86.c).
 */
#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/seqlock.h>
#include <linux/string.h>

#include "compat2002.h"

#define VM86_IRQS	16

static struct {
	unsigned long irqbits;
	unsigned int next;		/* the next vm86 IRQ the line stands for */
	seqcount_t seq;			/* the checker's; written by the handler */
	atomic_t turn;
	atomic_long_t set[VM86_IRQS];
	atomic_long_t collected[VM86_IRQS];
} vm86;

static struct ict_dev *vm86_dev;

static void irq_handler(int intno, void *dev_id, struct pt_regs *regs)
{
	unsigned long flags;
	unsigned int nr;
	unsigned long irq_bit, bits;

	save_flags(flags);
	cli();
	nr = vm86.next++ % VM86_IRQS;
	irq_bit = BIT(nr);
	bits = vm86.irqbits;
	if (!(bits & irq_bit)) {
		raw_write_seqcount_begin(&vm86.seq);
		atomic_long_inc(&vm86.set[nr]);
		vm86.irqbits = bits | irq_bit;
		raw_write_seqcount_end(&vm86.seq);
	}
	restore_flags(flags);
}

/*
 * Does bit @nr agree with its counters? If not, report and resync.
 * Return: the irqbits word of the snapshot that was checked.
 */
static unsigned long vm86_check(unsigned int nr)
{
	unsigned long bits;
	unsigned int seq;
	long set, pending, bit;

	do {
		seq = raw_read_seqcount_begin(&vm86.seq);
		bits = READ_ONCE(vm86.irqbits);
		set = atomic_long_read(&vm86.set[nr]);
		pending = set - atomic_long_read(&vm86.collected[nr]);
	} while (read_seqcount_retry(&vm86.seq, seq));
	bit = !!(bits & BIT(nr));
	if (pending == bit)
		return bits;
	ict_violation(vm86_dev, "vm86: irq %u set %ld times, %s\n", nr, set,
		      pending > bit ? "a set bit was lost" : "a bit appeared that nobody set");
	atomic_long_set(&vm86.collected[nr], set - bit);
	return bits;
}

static int get_and_reset_irq(int irqnumber)
{
	unsigned long flags, bits;
	int bit;

	save_flags(flags);
	cli();
	bits = vm86_check(irqnumber);
	ict_lit_window(vm86_dev);
	bit = !!(bits & BIT(irqnumber));
	vm86.irqbits = bits & ~BIT(irqnumber);
	if (bit)
		atomic_long_inc(&vm86.collected[irqnumber]);
	restore_flags(flags);
	return bit;
}

/* The torture harness's side: the driver's open, release and checks. */

static void vm86_reset(struct ict_dev *dev)
{
	memset(&vm86, 0, sizeof(vm86));
	seqcount_init(&vm86.seq);
	vm86_dev = dev;
}

static int vm86_open(unsigned int irq)
{
	return request_irq(irq, irq_handler, SA_INTERRUPT, "vm86", NULL);
}

static void vm86_release(unsigned int irq)
{
	free_irq(irq, NULL);
}

static bool vm86_op(struct ict_dev *dev, unsigned int thread)
{
	get_and_reset_irq((unsigned int)atomic_inc_return(&vm86.turn) % VM86_IRQS);
	return true;
}

static void vm86_finish(struct ict_dev *dev)
{
	unsigned int nr;

	for (nr = 0; nr < VM86_IRQS; nr++)
		vm86_check(nr);
}

const struct ict_driver ict_literal_vm86 = {
	.name = "vm86",
	.reset = vm86_reset,
	.open = vm86_open,
	.release = vm86_release,
	.op = vm86_op,
	.finish = vm86_finish,
};
