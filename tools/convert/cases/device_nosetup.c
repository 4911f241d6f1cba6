// SPDX-License-Identifier: GPL-2.0
/*
 * expect: rule a (the checker: the original keeps its 2002 calls).
 * Per-device data that the converter cannot give a lock of its own (issue
 * 40 item 3): each section takes the file's lock, as before, and each
 * handler's report says what was missing for a lock in the struct.
 *
 * - nd_a: its struct is defined here, but set up elsewhere (a bus layer
 *   hands the driver its private struct: no kmalloc() of it here).
 * - nd_b: set up here, but its struct is defined in a header.
 * - nd_c: its pointer is of a typedef type the tool does not read.
 *
 * convert-left: nd_a_interrupt nd_b_interrupt nd_c_interrupt
 * convert-done: nd_a_xmit nd_b_xmit nd_c_xmit
 * convert-report: 35 nd_a_interrupt: the handler writes ->busy through a pointer (line 39), as the converted section in nd_a_xmit() does (line 48)
 * convert-report: 35 nd_a_interrupt: not made: the set-up of struct nd_a is not found in this file
 * convert-report: 63 nd_b_interrupt: not made: struct nd_b is not defined in this file
 * convert-report: 94 nd_c_interrupt: not made: the type of the pointer cp the handler writes through (line 98) is not known
 * convert-absent: struct nd_a: spinlock_t
 * convert-absent: nd_a_xmit: ->lock
 */
#include <linux/slab.h>
#include "nd_b.h"

struct nd_a {
	int busy;
	int irq;
};

static int nd_a_probe(struct nd_a *ap)
{
	return request_irq(ap->irq, nd_a_interrupt, 0, "nd_a", ap);
}

static void nd_a_interrupt(int irq, void *dev_id, struct pt_regs *regs)
{
	struct nd_a *ap = dev_id;

	ap->busy = 0;
}

static void nd_a_xmit(struct nd_a *ap)
{
	unsigned long flags;

	save_flags(flags);
	cli();
	ap->busy = 1;
	restore_flags(flags);
}

/* struct nd_b is in nd_b.h: no field can be added here. */
static int nd_b_probe(int irq)
{
	struct nd_b *bp;

	bp = kmalloc(sizeof(struct nd_b), GFP_KERNEL);
	if (!bp)
		return -ENOMEM;
	return request_irq(irq, nd_b_interrupt, 0, "nd_b", bp);
}

static void nd_b_interrupt(int irq, void *dev_id, struct pt_regs *regs)
{
	struct nd_b *bp = dev_id;

	bp->busy = 0;
}

static void nd_b_xmit(struct nd_b *bp)
{
	unsigned long flags;

	save_flags(flags);
	cli();
	bp->busy = 1;
	restore_flags(flags);
}

typedef struct nd_c {
	int busy;
} nd_c_t;

static int nd_c_probe(int irq)
{
	nd_c_t *cp;

	cp = kmalloc(sizeof(*cp), GFP_KERNEL);
	if (!cp)
		return -ENOMEM;
	return request_irq(irq, nd_c_interrupt, 0, "nd_c", cp);
}

static void nd_c_interrupt(int irq, void *dev_id, struct pt_regs *regs)
{
	nd_c_t *cp = dev_id;

	cp->busy = 0;
}

static void nd_c_xmit(nd_c_t *cp)
{
	unsigned long flags;

	save_flags(flags);
	cli();
	cp->busy = 1;
	restore_flags(flags);
}
