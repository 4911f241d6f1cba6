// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore_torture, style literal - MCA POS registers, as 2.5.27 had them.
 *
 * arch/i386/kernel/mca.c before the seed: mca_read_pos() selects an
 * adapter slot in the setup register, reads one POS register of the
 * selected slot and deselects again, under save_flags(); cli(). The seed
 * (2.5.28) put the sequence under mca_lock. The interrupt handler reads
 * its own adapter's status through the same function.
 *
 * Invariant, as drivers/mca.c: every POS read returns the selected slot's
 * fixed value; a torn select/read is a violation.
 */
#include <linux/compiler.h>
#include <linux/string.h>
#include <linux/types.h>

#include "compat2002.h"

#define MCA_NUMADAPTERS		8	/* slots 1..8 */
#define MCA_IRQ_SLOT		MCA_NUMADAPTERS	/* the handler's adapter */
#define MCA_NONE		0	/* what the memset of a reset leaves */

static struct {
	int setup;		/* the adapter setup register: a slot, or MCA_NONE */
	unsigned int turn;	/* spreads the threads over slots; racy on purpose */
} mca;

static struct ict_dev *mca_dev;

static unsigned char mca_pos_value(int slot, int reg)
{
	return (unsigned char)(0xa5 ^ (slot << 4 | reg));
}

/* inb(MCA_POS_REG(reg)): what the bus returns for the selected slot. */
static unsigned char mca_inb(int reg)
{
	int slot = mca.setup;

	return slot == MCA_NONE ? 0xff : mca_pos_value(slot, reg);
}

static unsigned char mca_read_pos(int slot, int reg, int widen)
{
	unsigned long flags;
	unsigned char byte;

	save_flags(flags);
	cli();

	/* Select the slot, read its register, deselect. */
	mca.setup = slot;
	if (widen)
		ict_lit_window(mca_dev);
	byte = mca_inb(reg);
	mca.setup = MCA_NONE;

	restore_flags(flags);

	if (byte != mca_pos_value(slot, reg))
		ict_violation(mca_dev, "mca: slot %d POS %d read %#x, want %#x (torn)\n", slot,
			      reg, byte, mca_pos_value(slot, reg));
	return byte;
}

static void mca_interrupt(int irq, void *dev_id, struct pt_regs *regs)
{
	mca_read_pos(MCA_IRQ_SLOT, 2, 0);
}

/* The torture harness's side: the driver's open, release and checks. */

static void mca_reset(struct ict_dev *dev)
{
	memset(&mca, 0, sizeof(mca));
	mca_dev = dev;
}

static int mca_open(unsigned int irq)
{
	return request_irq(irq, mca_interrupt, SA_INTERRUPT, "mca", NULL);
}

static void mca_release(unsigned int irq)
{
	free_irq(irq, NULL);
}

static bool mca_op(struct ict_dev *dev, unsigned int thread)
{
	unsigned int n = READ_ONCE(mca.turn);

	WRITE_ONCE(mca.turn, n + 1);
	mca_read_pos(1 + (thread + n) % (MCA_IRQ_SLOT - 1), n % 8, 1);
	return true;
}

static void mca_finish(struct ict_dev *dev)
{
	if (mca.setup != MCA_NONE)
		ict_violation(dev, "mca: slot %d left selected\n", mca.setup);
}

const struct ict_driver ict_literal_mca = {
	.name = "mca",
	.reset = mca_reset,
	.open = mca_open,
	.release = mca_release,
	.op = mca_op,
	.finish = mca_finish,
};
