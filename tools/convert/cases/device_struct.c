// SPDX-License-Identifier: GPL-2.0
/*
 * expect: rule a (the checker: the original keeps its 2002 calls).
 * Per-device data, converted to a lock in the device's struct (issue 40
 * item 3), as the 2.5 maintainers did by hand: a network card whose
 * transmit path and statistics reset write the private struct's fields
 * through dev->priv under save_flags(); cli() and cli(); sti(), while the
 * interrupt handler writes the same struct through its own pointer. The
 * struct is defined here and set up by kmalloc(): spinlock_t lock is added
 * to it, spin_lock_init() goes after the allocation, its NULL check and the
 * memset() that would clear it; the sections take lp->lock, the handler
 * takes it after the statement that sets its pointer. The DMA ring's struct
 * gets no lock. The close path, which frees the interrupt inside its
 * section, stays refused (it may sleep).
 *
 * convert-left: pd_close
 * convert-done: pd_xmit pd_reset_stats
 * convert-report: 96 pd_close: cli(): calls free_irq() on line 98 inside the section, which sleeps or may
 * convert-output: struct pd_local: int rx_count; ... spinlock_t lock;
 * convert-output: pd_probe: memset(lp, 0, sizeof(*lp)); ... spin_lock_init(&lp->lock); ... dev->priv = lp;
 * convert-output: pd_xmit: spin_lock_irqsave(&lp->lock, flags); ... spin_unlock_irqrestore(&lp->lock, flags);
 * convert-output: pd_reset_stats: spin_lock_irq(&lp->lock); ... spin_unlock_irq(&lp->lock);
 * convert-output: pd_interrupt: lp = (struct pd_local *)dev->priv; ... spin_lock(&lp->lock); ... status = inb( ... spin_unlock(&lp->lock);
 * convert-absent: struct pd_ring: spinlock_t
 * convert-absent: pd_probe: spin_lock_init(&ring
 * convert-compile: yes
 */
#include <linux/slab.h>

struct pd_ring {
	int head, tail;
};

struct pd_local {
	int tx_busy;
	int rx_count;
	struct pd_ring *ring;
};

static void pd_interrupt(int irq, void *dev_id, struct pt_regs *regs)
{
	struct net_device *dev = dev_id;
	struct pd_local *lp;
	int status;

	lp = (struct pd_local *)dev->priv;
	status = inb(dev->base_addr);
	if (status & 1)
		lp->tx_busy = 0;
	lp->rx_count++;
}

static int pd_probe(struct net_device *dev)
{
	struct pd_local *lp;
	struct pd_ring *ring;

	ring = kmalloc(sizeof(struct pd_ring), GFP_KERNEL);
	lp = kmalloc(sizeof(struct pd_local), GFP_KERNEL);
	if (lp == NULL)
		return -ENOMEM;
	memset(lp, 0, sizeof(*lp));
	lp->ring = ring;
	dev->priv = lp;
	return request_irq(dev->irq, pd_interrupt, 0, "pd", dev);
}

static int pd_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct pd_local *lp = (struct pd_local *)dev->priv;
	unsigned long flags;

	save_flags(flags);
	cli();
	lp->tx_busy = 1;
	outb(skb->len, dev->base_addr + 1);
	restore_flags(flags);
	return 0;
}

static void pd_reset_stats(struct net_device *dev)
{
	struct pd_local *lp = dev->priv;

	cli();
	lp->rx_count = 0;
	sti();
}

static void pd_close(struct net_device *dev)
{
	struct pd_local *lp = (struct pd_local *)dev->priv;
	unsigned long flags;

	save_flags(flags);
	cli();
	lp->tx_busy = 0;
	free_irq(dev->irq, dev);
	restore_flags(flags);
}

/*
 * The rest of its report, exactly (tests/convert-check): the calls that
 * go with each section left, and each other line.
 * convert-report: 95,99 pd_close: goes with the cli() on line 96
 */
