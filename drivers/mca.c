// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore_torture - MCA POS registers.
 *
 * Mirrors 2.5.28 arch/i386/kernel/mca.c: mca_read_pos() selects an
 * adapter slot in the setup register, reads one POS register of the
 * selected slot and deselects again. The sequence is only meaningful as a
 * whole; 2.5.27 kept it whole with cli(), 2.5.28 with mca_lock. Here the
 * interrupt handler reads its own adapter's status the same way, as an
 * MCA driver's handler would.
 *
 * Invariant: no torn sequence. Each POS register holds a value fixed by
 * its slot and number, so every read must return exactly that value; a
 * read that found another slot selected, or none, is a violation.
 */
#include <linux/compiler.h>
#include <linux/types.h>

#include "torture.h"

#define ICT_MCA_SLOTS		8
#define ICT_MCA_IRQ_SLOT	(ICT_MCA_SLOTS - 1)	/* the handler's adapter */
#define ICT_MCA_NONE		(-1)

static struct {
	int setup;		/* the selected slot, or ICT_MCA_NONE */
	unsigned int turn;	/* spreads the threads over slots; racy on purpose */
} ict_m;

static u8 ict_mca_value(int slot, int reg)
{
	return (u8)(0xa5 ^ (slot << 4 | reg));
}

/* inb(MCA_POS_REG(reg)): what the bus returns for the selected slot. */
static u8 ict_mca_inb(int reg)
{
	int slot = ict_m.setup;

	return slot == ICT_MCA_NONE ? 0xff : ict_mca_value(slot, reg);
}

static void ict_mca_reset(struct ict_dev *dev)
{
	ict_m.setup = ICT_MCA_NONE;
	ict_m.turn = 0;
}

/* mca_read_pos(): select, read, deselect, all in one section. */
static void ict_mca_read_pos(struct ict_dev *dev, int slot, int reg, bool widen)
{
	unsigned long flags;
	u8 v;

	flags = ict_enter(dev);
	ict_m.setup = slot;
	if (widen)
		ict_window(dev);
	v = ict_mca_inb(reg);
	ict_m.setup = ICT_MCA_NONE;
	ict_exit(dev, flags);

	if (v != ict_mca_value(slot, reg))
		ict_violation(dev, "mca: slot %d POS %d read %#x, want %#x (torn select/read)\n",
			      slot, reg, v, ict_mca_value(slot, reg));
}

static void ict_mca_irq(struct ict_dev *dev)
{
	ict_mca_read_pos(dev, ICT_MCA_IRQ_SLOT, 2, false);
}

static bool ict_mca_op(struct ict_dev *dev, unsigned int thread)
{
	unsigned int n = READ_ONCE(ict_m.turn);

	WRITE_ONCE(ict_m.turn, n + 1);
	ict_mca_read_pos(dev, (thread + n) % ICT_MCA_IRQ_SLOT, n % 8, true);
	return true;
}

static void ict_mca_finish(struct ict_dev *dev)
{
	if (ict_m.setup != ICT_MCA_NONE)
		ict_violation(dev, "mca: slot %d left selected\n", ict_m.setup);
}

const struct ict_driver ict_mca = {
	.name = "mca",
	.reset = ict_mca_reset,
	.irq = ict_mca_irq,
	.op = ict_mca_op,
	.finish = ict_mca_finish,
};
