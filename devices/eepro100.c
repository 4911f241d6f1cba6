// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore_eepro100 - a driver for the Intel 82557 (QEMU's i82557b) in the
 * shape of 2.5's drivers/net/eepro100.c, on an irqcore device line.
 *
 * Transmit: a ring of command blocks, each carrying its frame, each with
 * the I bit (interrupt when done) and the S bit (suspend the CU after it),
 * so that every frame is one block and one CU resume. Receive: a ring of
 * descriptors with the EL bit on the last free one, moved forward as the
 * handler hands each frame on. The handler has 2.5's signature, loops over
 * the stat/ack byte as speedo_interrupt() did, and runs under SA_INTERRUPT
 * and SA_SHIRQ (two 82557s may share a PCI pin).
 *
 * The lock: the ring indices and counters are shared by the handler, the
 * transmit path (process context, any CPU) and tx_timeout. Outside the
 * handler they are taken with spin_lock_irqsave() on the driver's own
 * lock: the conversion 2.5.28 required once cli() stopped only the CPU
 * that called it. ee_tx_timeout() is the seed's hunk of speedo_tx_timeout()
 * (synchronize_irq() -> synchronize_irq(dev->irq)).
 *
 * This is not a network driver: no net_device, no skbs. The frames are
 * real Ethernet frames through QEMU's hub, made and checked here, which is
 * all the cases need (docs/devices.md says what else was left out).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/crc32.h>
#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/etherdevice.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/preempt.h>
#include <linux/sched/clock.h>
#include <linux/smp.h>

#include <irqcore.h>

#include "eepro100.h"
#include "unbind.h"

/* Lines a remove() could not unbind (unbind.h). */
static struct ic_dev_stuck ee_stuck = IC_DEV_STUCK_INIT(ee_stuck);

/* Linux 6.10 renamed PCI_IRQ_LEGACY (Debian's 6.1 has only that name). */
#ifndef PCI_IRQ_INTX
#define PCI_IRQ_INTX	PCI_IRQ_LEGACY
#endif

/* The devices bound, by index (their MAC addresses). Under ee_devs_lock. */
static DEFINE_MUTEX(ee_devs_lock);
/*
 * A line changes hands under ee_line_lock: a probe holds it from picking
 * its index and line (ee_place()) until the line is bound, a removal from
 * leaving ee_devs[] until its line is unbound. Without it a probe running
 * beside a removal took the index the removal had just left, and with it
 * the line, and found that line still bound (-EBUSY). Taken before
 * ee_devs_lock, after the device lock.
 */
static DEFINE_MUTEX(ee_line_lock);
static struct ee_dev *ee_devs[EE_NR_DEVS];
static int ee_probe_err;

static dma_addr_t ee_tx_dma(struct ee_dev *ee, unsigned int i)
{
	return ee->ring_dma + (i % EE_TX_RING) * sizeof(struct ee_txcb);
}

static dma_addr_t ee_rx_dma(struct ee_dev *ee, unsigned int i)
{
	return ee->ring_dma + EE_TX_RING * sizeof(struct ee_txcb) +
	       (i % EE_RX_RING) * sizeof(struct ee_rfd);
}

/*
 * Hand the SCB a command once it has taken the last one (the command
 * byte reads 0 again: at once in QEMU, a few microseconds on the chip).
 */
static void ee_cmd(struct ee_dev *ee, u8 cmd)
{
	unsigned int i;

	for (i = 0; i < 1000 && readb(ee->regs + EE_SCB_CMD); i++)
		udelay(1);
	writeb(cmd, ee->regs + EE_SCB_CMD);
}

static void ee_cmd_ptr(struct ee_dev *ee, u8 cmd, u32 ptr)
{
	writel(ptr, ee->regs + EE_SCB_POINTER);
	ee_cmd(ee, cmd);
}

/* Reclaim the blocks the CU completed. */
static void __ee_tx_gc(struct ee_dev *ee)
{
	lockdep_assert_held(&ee->lock);
	while (ee->dirty_tx != ee->cur_tx) {
		struct ee_txcb *cb = &ee->tx[ee->dirty_tx % EE_TX_RING];

		if (!(le16_to_cpu(READ_ONCE(cb->status)) & EE_STAT_C))
			break;
		ee->dirty_tx++;
		ee->stats.tx_done++;
	}
}

/**
 * ee_frame_len() - the length of DATA frame @seq: 64..1514 bytes.
 * @seq: the sequence number.
 *
 * Context: any.
 * Return: the frame's length, so that a run sends every size class.
 */
unsigned int ee_frame_len(u32 seq)
{
	return 64 + (seq * 397) % (EE_FRAME_MAX - 64 + 1);
}

static u8 ee_pattern(u32 seq, unsigned int i)
{
	return (u8)(seq * 31 + i * 7 + (i >> 8));
}

static int __ee_send(struct ee_dev *ee, const u8 *dst, enum ee_kind kind, u32 seq,
		     unsigned int len)
{
	unsigned int hdr = ETH_HLEN + sizeof(struct ee_payload), i, dlen;
	struct ee_payload *p;
	struct ee_txcb *cb;
	struct ethhdr *eth;

	lockdep_assert_held(&ee->lock);
	if (len < hdr || len > EE_FRAME_MAX)
		return -EINVAL;
	if (ee->cur_tx - ee->dirty_tx >= EE_TX_RING - 1) {
		__ee_tx_gc(ee);
		if (ee->cur_tx - ee->dirty_tx >= EE_TX_RING - 1) {
			ee->stats.tx_full++;
			return -EBUSY;
		}
	}
	cb = &ee->tx[ee->cur_tx % EE_TX_RING];
	eth = (struct ethhdr *)cb->data;
	memcpy(eth->h_dest, dst, ETH_ALEN);
	memcpy(eth->h_source, ee->mac, ETH_ALEN);
	eth->h_proto = htons(EE_ETHERTYPE);
	p = (struct ee_payload *)(cb->data + ETH_HLEN);
	dlen = len - hdr;
	for (i = 0; i < dlen; i++)
		p->data[i] = ee_pattern(seq, i);
	p->magic = cpu_to_be32(EE_MAGIC);
	p->seq = cpu_to_be32(seq);
	p->kind = cpu_to_be16(kind);
	p->len = cpu_to_be16(dlen);
	p->csum = cpu_to_be32(crc32_le(~0, p->data, dlen));
	cb->tbd = cpu_to_le32(0xffffffff);
	cb->count = cpu_to_le16(len);
	cb->threshold = 0xe0;
	cb->tbd_count = 0;
	cb->status = 0;
	/* The block whole before the CU may read its command. */
	dma_wmb();
	cb->command = cpu_to_le16(EE_CMD_TX | EE_CMD_I | EE_CMD_S);
	wmb();	/* the block in memory before the doorbell */
	ee->cur_tx++;
	if (ee->cu_restart) {
		ee_cmd_ptr(ee, EE_CU_START, ee_tx_dma(ee, ee->cur_tx - 1));
		ee->cu_restart = false;
	} else {
		/* The CU suspended after the previous block, whose link is this one. */
		ee_cmd(ee, EE_CU_RESUME);
	}
	ee->stats.tx_sent[kind]++;
	return 0;
}

/**
 * ee_send() - transmit one frame of the cases' format.
 * @ee: the device.
 * @dst: the destination MAC address.
 * @kind: DATA, PING or PONG.
 * @seq: its sequence number.
 * @len: the frame's length, ETH_HLEN + sizeof(struct ee_payload) ..
 *	EE_FRAME_MAX.
 *
 * Context: any but the device's own handler; takes the driver's lock
 * with interrupts off.
 * Return: 0, -EBUSY if the transmit ring is full, -EINVAL for a bad length.
 */
int ee_send(struct ee_dev *ee, const u8 *dst, enum ee_kind kind, u32 seq, unsigned int len)
{
	unsigned long flags;
	int err;

	raw_spin_lock_irqsave(&ee->lock, flags);
	err = __ee_send(ee, dst, kind, seq, len);
	raw_spin_unlock_irqrestore(&ee->lock, flags);
	return err;
}

/**
 * ee_send_data() - transmit the device's next DATA frame to @dst.
 * @ee: the device.
 * @dst: the destination MAC address.
 *
 * Its sequence number is the count of DATA frames the device has sent,
 * so that every sender of DATA on @ee (a case, the background traffic)
 * continues the one sequence the receiver checks; its length is
 * ee_frame_len() of it.
 *
 * Context: as ee_send().
 * Return: as ee_send().
 */
int ee_send_data(struct ee_dev *ee, const u8 *dst)
{
	unsigned long flags;
	u32 seq;
	int err;

	raw_spin_lock_irqsave(&ee->lock, flags);
	seq = ee->stats.tx_sent[EE_KIND_DATA];
	err = __ee_send(ee, dst, EE_KIND_DATA, seq, ee_frame_len(seq));
	raw_spin_unlock_irqrestore(&ee->lock, flags);
	return err;
}

/* One received frame: check it, count it, answer a PING. */
static void __ee_rx_frame(struct ee_dev *ee, const u8 *frame, unsigned int count)
{
	const struct ethhdr *eth = (const struct ethhdr *)frame;
	const struct ee_payload *p = (const void *)(frame + ETH_HLEN);
	unsigned int hdr = ETH_HLEN + sizeof(*p), dlen;
	enum ee_kind kind;
	u32 seq;

	if (count < hdr || eth->h_proto != htons(EE_ETHERTYPE) ||
	    be32_to_cpu(p->magic) != EE_MAGIC) {
		ee->stats.rx_other++;
		return;
	}
	dlen = be16_to_cpu(p->len);
	kind = be16_to_cpu(p->kind);
	seq = be32_to_cpu(p->seq);
	if (kind >= EE_NR_KINDS || dlen > count - hdr ||
	    crc32_le(~0, p->data, dlen) != be32_to_cpu(p->csum)) {
		ee->stats.rx_bad++;
		return;
	}
	ee->stats.rx_ok[kind]++;
	switch (kind) {
	case EE_KIND_DATA:
		if (seq != ee->stats.rx_next_seq)
			ee->stats.rx_order++;
		ee->stats.rx_next_seq = seq + 1;
		break;
	case EE_KIND_PING:
		if (!ee->echo)
			break;
		if (ee->holder_seq)
			ee->ping_holder_seq = READ_ONCE(*ee->holder_seq);
		ee->ping_ns = local_clock();
		__ee_send(ee, eth->h_source, EE_KIND_PONG, seq, hdr);
		break;
	case EE_KIND_PONG:
		ee->pong_ns = local_clock();
		WRITE_ONCE(ee->pong_seq, seq);
		break;
	default:
		break;
	}
}

/*
 * The receive ring: hand on every completed descriptor, give it back as
 * the new last one (EL), and restart the RU if it ran out.
 */
static void __ee_rx(struct ee_dev *ee)
{
	unsigned int n = 0, k;

	lockdep_assert_held(&ee->lock);
	while (n < EE_RX_RING - 1 &&
	       le16_to_cpu(READ_ONCE(ee->rx[(ee->cur_rx + n) % EE_RX_RING].status)) & EE_STAT_C)
		n++;
	if (n) {
		/*
		 * QEMU writes a descriptor's status before its frame (the chip
		 * writes it last), holding its global lock throughout; an MMIO
		 * read takes that lock, so once it returns every frame whose
		 * status was seen above is whole.
		 */
		readb(ee->regs + EE_SCB_STATUS);
		dma_rmb();
	}
	for (k = 0; k < n; k++) {
		unsigned int i = ee->cur_rx % EE_RX_RING;
		struct ee_rfd *rfd = &ee->rx[i];
		unsigned int count = le16_to_cpu(rfd->count) & 0x3fff;

		__ee_rx_frame(ee, rfd->data, min_t(unsigned int, count, EE_BUF));
		rfd->status = 0;
		rfd->count = 0;
		rfd->command = cpu_to_le16(EE_CMD_EL);
		/* The new end of the list first, then the old end freed. */
		dma_wmb();
		ee->rx[(i + EE_RX_RING - 1) % EE_RX_RING].command = 0;
		ee->cur_rx++;
	}
	if (EE_RU_STATE(readb(ee->regs + EE_SCB_STATUS)) != EE_RU_READY) {
		/* Out of descriptors (or stopped): start again where we read next. */
		wmb();
		ee_cmd_ptr(ee, EE_RU_START, ee_rx_dma(ee, ee->cur_rx));
		ee->stats.rnr++;
	}
}

/* The test hook of the synchronize_irq case: hold this handler, bounded. */
static void ee_stall_here(struct ee_dev *ee)
{
	u64 end;

	if (!READ_ONCE(ee->stall))
		return;
	end = local_clock() + EE_STALL_MAX_MS * NSEC_PER_MSEC;
	WRITE_ONCE(ee->in_stall, true);
	while (READ_ONCE(ee->stall) && local_clock() < end)
		cpu_relax();
	WRITE_ONCE(ee->in_stall, false);
}

/*
 * The handler, 2.5's speedo_interrupt() in shape: read the stat/ack byte,
 * acknowledge what it says, do the work, and again until the chip has
 * nothing more (bounded, as its boguscnt was). No return value: on a
 * shared pin a run for the other device finds 0 and counts not_mine.
 */
static void ee_interrupt(unsigned int irq, void *dev_id)
{
	struct ee_dev *ee = dev_id;
	unsigned int work;
	u8 stat;

	ee_stall_here(ee);
	raw_spin_lock(&ee->lock);
	if (!in_hardirq())
		ee->stats.outside_hardirq++;
	ee->stats.last_cpu = smp_processor_id();
	for (work = 0; work < 20; work++) {
		stat = readb(ee->regs + EE_SCB_ACK);
		if (!stat)
			break;
		writeb(stat, ee->regs + EE_SCB_ACK);
		if (stat & (EE_INT_FR | EE_INT_RNR))
			__ee_rx(ee);
		if (stat & (EE_INT_CX | EE_INT_CNA))
			__ee_tx_gc(ee);
		if (stat & EE_INT_SWI)
			ee->stats.swi++;
	}
	if (work)
		ee->stats.runs++;
	else
		ee->stats.not_mine++;
	raw_spin_unlock(&ee->lock);
}

/**
 * ee_tx_timeout() - the seed's speedo_tx_timeout(): reset the rings.
 * @ee: the device.
 *
 * The chip's interrupt masked, then synchronize_irq(dev->irq): 2.5.28's
 * hunk. ic_synchronize_irq() is the regime's: under nolock it waits for
 * this line's handler alone; under biglock it is 2.5.27's synchronize_irq(),
 * which took no number and waited for every handler on every CPU
 * (cli(); sti()). After it no handler of this device runs until the mask
 * is lifted, and the driver's lock keeps the transmit path (any CPU) out
 * while the rings are reset: reclaimed blocks, the CU restarted at the
 * next block by the next transmit, received frames handed on and the RU
 * restarted if it stopped. What the chip was sending is not lost (QEMU's
 * CU completes a block within the doorbell's write); a purge counts
 * anything it had not.
 *
 * Context: process; spins in synchronize_irq().
 */
void ee_tx_timeout(struct ee_dev *ee)
{
	unsigned long flags;

	writeb(EE_MASK_ALL, ee->regs + EE_SCB_MASK);
	ic_synchronize_irq(ee->line);
	raw_spin_lock_irqsave(&ee->lock, flags);
	__ee_tx_gc(ee);
	ee->dirty_tx = ee->cur_tx;
	ee->cu_restart = true;
	__ee_rx(ee);
	ee->stats.timeouts++;
	raw_spin_unlock_irqrestore(&ee->lock, flags);
	/* Unmasked, the chip interrupts for anything that came meanwhile. */
	writeb(0, ee->regs + EE_SCB_MASK);
}

/**
 * ee_raise_swi() - make the chip interrupt (stat/ack 0x04), no DMA.
 * @ee: the device.
 *
 * Context: any.
 */
void ee_raise_swi(struct ee_dev *ee)
{
	writeb(EE_MASK_SWI, ee->regs + EE_SCB_MASK);
}

/**
 * ee_tx_idle() - has the CU completed every block it was given?
 * @ee: the device.
 *
 * Context: any but the device's handler.
 * Return: true if no transmit block is outstanding.
 */
bool ee_tx_idle(struct ee_dev *ee)
{
	unsigned long flags;
	bool idle;

	raw_spin_lock_irqsave(&ee->lock, flags);
	__ee_tx_gc(ee);
	idle = ee->dirty_tx == ee->cur_tx;
	raw_spin_unlock_irqrestore(&ee->lock, flags);
	return idle;
}

/**
 * ee_stats() - a consistent copy of the device's counters.
 * @ee: the device.
 * @st: filled in.
 *
 * Context: any but the device's handler.
 */
void ee_stats(struct ee_dev *ee, struct ee_stats *st)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&ee->lock, flags);
	*st = ee->stats;
	raw_spin_unlock_irqrestore(&ee->lock, flags);
}

/**
 * ee_set_echo() - make the handler answer PINGs, or stop it.
 * @ee: the device.
 * @echo: answer them.
 * @holder_seq: a holder's sequence for the handler to read at each PING
 *	(see eepro100_rtt.c), or NULL.
 *
 * Context: any but the device's handler.
 */
void ee_set_echo(struct ee_dev *ee, bool echo, const unsigned int *holder_seq)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&ee->lock, flags);
	ee->echo = echo;
	ee->holder_seq = holder_seq;
	raw_spin_unlock_irqrestore(&ee->lock, flags);
}

/**
 * ee_set_stall() - hold the device's handler at its start, or let it go.
 * @ee: the device.
 * @stall: hold it (at most EE_STALL_MAX_MS a run).
 *
 * Context: any.
 */
void ee_set_stall(struct ee_dev *ee, bool stall)
{
	WRITE_ONCE(ee->stall, stall);
}

/**
 * ee_in_stall() - is a run of the handler being held now?
 * @ee: the device.
 *
 * Context: any.
 * Return: true while a run spins in the stall.
 */
bool ee_in_stall(struct ee_dev *ee)
{
	return READ_ONCE(ee->in_stall);
}

/**
 * ee_get_pair() - both chips, if both are bound and neither is leaving.
 * @pair: filled with chip 0 and chip 1.
 *
 * One look under ee_devs_lock: a chip whose remove() has begun
 * (ee_leave()) is not offered, so that the background traffic is never
 * started on it (the caller holds ee_flood_lock; see ee_remove()).
 *
 * Context: process.
 * Return: true if @pair was filled.
 */
bool ee_get_pair(struct ee_dev *pair[EE_NR_DEVS])
{
	bool both = true;
	unsigned int i;

	mutex_lock(&ee_devs_lock);
	for (i = 0; i < EE_NR_DEVS; i++) {
		pair[i] = ee_devs[i];
		both &= pair[i] && !pair[i]->leaving;
	}
	mutex_unlock(&ee_devs_lock);
	return both;
}

/**
 * ee_hold() - the chip at @index, kept bound until ee_unhold().
 * @index: 0..EE_NR_DEVS-1.
 *
 * The load's cases and round trips run on the chips for seconds: a sysfs
 * unbind meanwhile would free a chip under them (devres). This takes a
 * reference on the PCI device and its device lock, under which the
 * driver core runs remove(), so that an unbind waits until ee_unhold().
 * Chips are held in index order. Never call pci_unregister_driver() while
 * holding one.
 *
 * Context: process; sleeps.
 * Return: the chip, bound and held, or NULL.
 */
struct ee_dev *ee_hold(unsigned int index)
{
	struct pci_dev *pdev = NULL;
	struct ee_dev *ee;

	mutex_lock(&ee_devs_lock);
	ee = index < EE_NR_DEVS ? ee_devs[index] : NULL;
	if (ee && !ee->leaving)
		pdev = pci_dev_get(ee->pdev);
	mutex_unlock(&ee_devs_lock);
	if (!pdev)
		return NULL;
	device_lock(&pdev->dev);
	/* Removed (and perhaps bound anew) before the lock was ours? */
	mutex_lock(&ee_devs_lock);
	ee = ee_devs[index];
	if (ee && (ee->leaving || ee->pdev != pdev))
		ee = NULL;
	mutex_unlock(&ee_devs_lock);
	if (!ee) {
		device_unlock(&pdev->dev);
		pci_dev_put(pdev);
	}
	return ee;
}

/**
 * ee_unhold() - let the chip go: undo ee_hold().
 * @ee: what it returned.
 *
 * Context: process.
 */
void ee_unhold(struct ee_dev *ee)
{
	struct pci_dev *pdev = ee->pdev;

	device_unlock(&pdev->dev);
	pci_dev_put(pdev);
}

/**
 * ee_unbind_stuck() - unbind what a remove() had to leave bound.
 *
 * Context: process (the module's exit, after its driver is gone).
 */
void ee_unbind_stuck(void)
{
	ic_dev_unbind_stuck(&ee_stuck, true);
}

/**
 * ee_last_probe_error() - why the last probe failed.
 *
 * Context: process.
 * Return: 0 if none failed, else the last failed probe's error.
 */
int ee_last_probe_error(void)
{
	int err;

	mutex_lock(&ee_devs_lock);
	err = ee_probe_err;
	mutex_unlock(&ee_devs_lock);
	return err;
}

/* Reset the chip, build both rings, load the address, start the RU. */
static int ee_chip_init(struct ee_dev *ee)
{
	struct ee_txcb *cb;
	unsigned int i;

	writel(0, ee->regs + EE_SCB_PORT);	/* software reset */
	udelay(20);
	writeb(EE_MASK_ALL, ee->regs + EE_SCB_MASK);
	ee_cmd_ptr(ee, EE_CU_BASE, 0);
	ee_cmd_ptr(ee, EE_RU_BASE, 0);
	for (i = 0; i < EE_RX_RING; i++) {
		struct ee_rfd *rfd = &ee->rx[i];

		rfd->status = 0;
		rfd->command = cpu_to_le16(i == EE_RX_RING - 1 ? EE_CMD_EL : 0);
		rfd->link = cpu_to_le32(ee_rx_dma(ee, i + 1));
		rfd->rx_buf = cpu_to_le32(0xffffffff);
		rfd->count = 0;
		rfd->size = cpu_to_le16(EE_BUF);
	}
	for (i = 0; i < EE_TX_RING; i++) {
		ee->tx[i].status = 0;
		ee->tx[i].command = 0;
		ee->tx[i].link = cpu_to_le32(ee_tx_dma(ee, i + 1));
	}
	/* Block 0: the station address, then the CU suspends before block 1. */
	cb = &ee->tx[0];
	cb->command = cpu_to_le16(EE_CMD_IA_SETUP | EE_CMD_S);
	memcpy((u8 *)cb + 8, ee->mac, ETH_ALEN);
	wmb();	/* the block in memory before the CU is started on it */
	ee_cmd_ptr(ee, EE_CU_START, ee_tx_dma(ee, 0));
	ee_cmd_ptr(ee, EE_RU_START, ee_rx_dma(ee, 0));
	for (i = 0; i < 100 && !(le16_to_cpu(READ_ONCE(cb->status)) & EE_STAT_C); i++)
		udelay(10);
	if (!(le16_to_cpu(READ_ONCE(cb->status)) & EE_STAT_C)) {
		dev_err(&ee->pdev->dev, "eepro100: the address set-up never completed\n");
		return -EIO;
	}
	ee->cur_tx = 1;
	ee->dirty_tx = 1;
	ee->cur_rx = 0;
	/* What the set-up raised is not news. */
	writeb(readb(ee->regs + EE_SCB_ACK), ee->regs + EE_SCB_ACK);
	return 0;
}

/* Pick an index (the MAC address) and a line: a pin already bound is shared. */
static int ee_place(struct ee_dev *ee)
{
	unsigned int i;
	int err = -ENOSPC;

	mutex_lock(&ee_devs_lock);
	ee->line = 0;
	for (i = 0; i < EE_NR_DEVS; i++) {
		if (ee_devs[i] && ee_devs[i]->host_irq == ee->host_irq)
			ee->line = ee_devs[i]->line;
	}
	for (i = 0; i < EE_NR_DEVS; i++) {
		if (!ee_devs[i]) {
			ee->index = i;
			ee_devs[i] = ee;
			err = 0;
			break;
		}
	}
	if (!err && !ee->line) {
		ee->line = ee_param_line + ee->index;
		ee->binder = true;
	}
	mutex_unlock(&ee_devs_lock);
	return err;
}

/* Leave ee_devs[]; true if the line is this device's to unbind. */
static bool ee_unplace(struct ee_dev *ee)
{
	bool unbind = ee->binder;
	unsigned int i;

	mutex_lock(&ee_devs_lock);
	ee_devs[ee->index] = NULL;
	for (i = 0; i < EE_NR_DEVS; i++) {
		if (unbind && ee_devs[i] && ee_devs[i]->line == ee->line) {
			/* The pin's other device keeps the line bound. */
			ee_devs[i]->binder = true;
			unbind = false;
		}
	}
	mutex_unlock(&ee_devs_lock);
	return unbind;
}

static int __ee_probe(struct pci_dev *pdev)
{
	size_t size = EE_TX_RING * sizeof(struct ee_txcb) + EE_RX_RING * sizeof(struct ee_rfd);
	struct ee_dev *ee;
	int err, irq;

	/* A line an earlier remove() left bound: free now? */
	ic_dev_unbind_stuck(&ee_stuck, false);
	ee = devm_kzalloc(&pdev->dev, sizeof(*ee), GFP_KERNEL);
	if (!ee)
		return -ENOMEM;
	ee->pdev = pdev;
	ee->stats.last_cpu = -1;
	raw_spin_lock_init(&ee->lock);
	pci_set_drvdata(pdev, ee);

	err = pci_enable_device(pdev);
	if (err)
		return err;
	err = pci_request_region(pdev, 0, KBUILD_MODNAME);
	if (err)
		goto err_disable;
	err = -ENOMEM;
	ee->regs = pci_iomap(pdev, 0, 0);
	if (!ee->regs)
		goto err_region;
	/* Every link and pointer of the chip is 32 bits. */
	err = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(32));
	if (err)
		goto err_unmap;
	err = -ENOMEM;
	ee->ring = dmam_alloc_coherent(&pdev->dev, size, &ee->ring_dma, GFP_KERNEL);
	if (!ee->ring)
		goto err_unmap;
	ee->tx = ee->ring;
	ee->rx = ee->ring + EE_TX_RING * sizeof(struct ee_txcb);
	pci_set_master(pdev);

	err = pci_alloc_irq_vectors(pdev, 1, 1, PCI_IRQ_INTX);
	if (err < 0) {
		dev_err(&pdev->dev, "eepro100: no INTx: %d\n", err);
		goto err_master;
	}
	irq = pci_irq_vector(pdev, 0);
	if (irq < 0) {
		err = irq;
		goto err_vectors;
	}
	ee->host_irq = irq;
	mutex_lock(&ee_line_lock);
	err = ee_place(ee);
	if (err) {
		mutex_unlock(&ee_line_lock);
		goto err_vectors;
	}
	/* A locally administered address that names the device's index. */
	ee->mac[0] = 0x02;
	ee->mac[3] = 0x82;
	ee->mac[4] = 0x57;
	ee->mac[5] = ee->index;
	err = ee_chip_init(ee);
	if (err)
		goto err_unplace;
	if (ee->binder) {
		err = ic_bind_line(ee->line, ee->host_irq, IC_LINE_LEVEL, "irqcore-eepro100");
		if (err) {
			dev_err(&pdev->dev, "eepro100: cannot bind irqcore line %u to host interrupt %u: %d\n",
				ee->line, ee->host_irq, err);
			goto err_unplace;
		}
	}
	mutex_unlock(&ee_line_lock);
	err = ic_request_irq(ee->line, ee_interrupt, IC_SA_INTERRUPT | IC_SA_SHIRQ,
			     "eepro100", ee);
	if (err)
		goto err_unbind;
	ee->requested = true;
	writeb(0, ee->regs + EE_SCB_MASK);
	dev_info(&pdev->dev, "eepro100: %pM on irqcore line %u, host interrupt %u (INTx%s, %s regime)\n",
		 ee->mac, ee->line, ee->host_irq, ee->binder ? "" : ", shared pin",
		 ic_regime_name());
	/* Bound anew beside its peer: the background traffic, if asked for, again. */
	ee_flood_start();
	return 0;

err_unbind:
	writel(0, ee->regs + EE_SCB_PORT);
	mutex_lock(&ee_line_lock);
	if (ee_unplace(ee))
		ic_dev_unbind(&ee_stuck, &pdev->dev, ee->line, ee->host_irq);
	mutex_unlock(&ee_line_lock);
	goto err_vectors;
err_unplace:
	writel(0, ee->regs + EE_SCB_PORT);
	ee_unplace(ee);
	mutex_unlock(&ee_line_lock);
err_vectors:
	pci_free_irq_vectors(pdev);
err_master:
	pci_clear_master(pdev);
err_unmap:
	pci_iounmap(pdev, ee->regs);
err_region:
	pci_release_region(pdev, 0);
err_disable:
	pci_disable_device(pdev);
	return err;
}

static int ee_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	int err = __ee_probe(pdev);

	if (err) {
		mutex_lock(&ee_devs_lock);
		ee_probe_err = err;
		mutex_unlock(&ee_devs_lock);
	}
	return err;
}

/* remove() has begun: no new use of the chip (ee_get_pair(), ee_hold()). */
static void ee_leave(struct ee_dev *ee)
{
	mutex_lock(&ee_devs_lock);
	ee->leaving = true;
	mutex_unlock(&ee_devs_lock);
}

/*
 * Removal, also while frames flow: the chip marked as leaving, so that a
 * peer's probe cannot start the background traffic on it again, then the
 * traffic stopped (it sends on both devices), the chip masked, the handler freed (which
 * waits for a run in progress), the chip reset so that it stops its DMA
 * into the rings devres is about to free, and the line unbound by the
 * last device on it.
 */
static void ee_remove(struct pci_dev *pdev)
{
	struct ee_dev *ee = pci_get_drvdata(pdev);
	struct ee_stats st;
	bool flowing;
	int unbind = 0;

	/*
	 * Leaving before the stop: ee_flood_start() looks at the chips
	 * (ee_get_pair()) and starts the traffic under ee_flood_lock, which
	 * ee_flood_stop() takes after this. A start before the stop is
	 * stopped by it; one after it sees the chip leaving. (Leaving only
	 * at ee_unplace(), a peer's probe in between started the traffic on
	 * a chip whose rings devres was about to free.)
	 */
	ee_leave(ee);
	flowing = ee_flood_running();
	ee_flood_stop();
	writeb(EE_MASK_ALL, ee->regs + EE_SCB_MASK);
	if (ee->requested)
		ic_free_irq(ee->line, ee);
	ee->requested = false;
	ee_stats(ee, &st);
	writel(0, ee->regs + EE_SCB_PORT);
	udelay(20);
	/* Refused: reported, and unbound at the next probe or the exit. */
	mutex_lock(&ee_line_lock);
	if (ee_unplace(ee))
		unbind = ic_dev_unbind(&ee_stuck, &pdev->dev, ee->line, ee->host_irq);
	mutex_unlock(&ee_line_lock);
	pci_free_irq_vectors(pdev);
	pci_clear_master(pdev);
	pci_iounmap(pdev, ee->regs);
	pci_release_region(pdev, 0);
	pci_disable_device(pdev);
	dev_info(&pdev->dev, "eepro100: removed%s: runs=%lu not_mine=%lu tx=%lu rx=%lu bad=%lu order=%lu unbind=%d\n",
		 flowing ? " while traffic flowed" : "", st.runs, st.not_mine, st.tx_done,
		 st.rx_ok[EE_KIND_DATA] + st.rx_ok[EE_KIND_PING] + st.rx_ok[EE_KIND_PONG],
		 st.rx_bad, st.rx_order, unbind);
}

static const struct pci_device_id ee_ids[] = {
	{ PCI_DEVICE(EE_VENDOR, EE_DEVICE) },
	{ }
};
MODULE_DEVICE_TABLE(pci, ee_ids);

struct pci_driver ee_pci_driver = {
	.name = "irqcore_eepro100",
	.id_table = ee_ids,
	.probe = ee_probe,
	.remove = ee_remove,
};
