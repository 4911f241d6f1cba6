/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore_eepro100 - what the driver (eepro100.c), its cases
 * (eepro100_test.c), the round-trip measurement (eepro100_rtt.c) and the
 * module's set-up (eepro100_main.c) share. Private to this module.
 *
 * The chip is the Intel 82557 as QEMU emulates it (-device i82557b,
 * hw/net/eepro100.c): the System Control Block (SCB) in BAR0, a command
 * unit (CU) that walks a list of command blocks in memory (transmit,
 * address set-up) and a receive unit (RU) that fills a list of receive
 * frame descriptors (RFDs). Both lists are rings here, every link an
 * absolute bus address (the CU and RU bases are loaded with 0), and every
 * transmit block sets the suspend bit, so the CU stops after each one and
 * a CU resume sends the next. INTx only.
 */
#ifndef EEPRO100_H
#define EEPRO100_H

#include <linux/hrtimer.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#define EE_VENDOR		0x8086
#define EE_DEVICE		0x1229	/* 82557/8/9, what QEMU's i82557b says */

/* SCB registers, offsets in BAR0. */
#define EE_SCB_STATUS		0x00	/* CU state bits 7:6, RU state bits 5:2 */
#define EE_SCB_ACK		0x01	/* stat/ack: write the bits seen to ack */
#define EE_SCB_CMD		0x02	/* RU command low nibble, CU high nibble */
#define EE_SCB_MASK		0x03	/* interrupt mask */
#define EE_SCB_POINTER		0x04	/* the general pointer of a command */
#define EE_SCB_PORT		0x08	/* 0: software reset */

/* Stat/ack bits: why the chip interrupts. */
#define EE_INT_CX		0x80	/* a command with the I bit completed */
#define EE_INT_FR		0x40	/* a frame was received */
#define EE_INT_CNA		0x20	/* the CU left the active state */
#define EE_INT_RNR		0x10	/* the RU is not ready (no free RFD) */
#define EE_INT_SWI		0x04	/* the driver asked for an interrupt */

#define EE_MASK_ALL		0x01	/* mask byte: no interrupt at all */
#define EE_MASK_SWI		0x02	/* mask byte: raise a software interrupt */

/* SCB commands. */
#define EE_CU_START		0x10
#define EE_CU_RESUME		0x20
#define EE_CU_BASE		0x60
#define EE_RU_START		0x01
#define EE_RU_BASE		0x06

#define EE_RU_STATE(s)		(((s) >> 2) & 0xf)
#define EE_RU_READY		4

/* Command block and RFD words. */
#define EE_CMD_IA_SETUP		0x0001
#define EE_CMD_TX		0x0004
#define EE_CMD_I		0x2000	/* interrupt when done */
#define EE_CMD_S		0x4000	/* suspend the CU after this block */
#define EE_CMD_EL		0x8000	/* last in the list: the RU stops there */
#define EE_STAT_C		0x8000	/* complete */
#define EE_STAT_OK		0x2000

#define EE_FRAME_MAX		1514
#define EE_BUF			1520
#define EE_TX_RING		32
#define EE_RX_RING		32
#define EE_NR_DEVS		2

/**
 * struct ee_txcb - a transmit command block in "simplified" mode: the
 * frame follows the header in the block itself.
 * @status: written by the chip: C and OK.
 * @command: EE_CMD_TX | I | S.
 * @link: the next block's bus address.
 * @tbd: 0xffffffff: no buffer descriptors (simplified mode).
 * @count: the frame's length in bytes.
 * @threshold: the transmit threshold (ignored by QEMU).
 * @tbd_count: 0.
 * @data: the frame.
 */
struct ee_txcb {
	__le16 status;
	__le16 command;
	__le32 link;
	__le32 tbd;
	__le16 count;
	u8 threshold;
	u8 tbd_count;
	u8 data[EE_BUF];
};

/**
 * struct ee_rfd - a receive frame descriptor, the frame after it.
 * @status: written by the chip: C and OK (QEMU writes it before the data,
 *	see ee_rx()).
 * @command: EE_CMD_EL on the last free descriptor.
 * @link: the next descriptor's bus address.
 * @rx_buf: unused in simplified mode.
 * @count: bytes received.
 * @size: the buffer's size.
 * @data: the frame.
 */
struct ee_rfd {
	__le16 status;
	__le16 command;
	__le32 link;
	__le32 rx_buf;
	__le16 count;
	__le16 size;
	u8 data[EE_BUF];
};

/* The frames the cases send: an experimental EtherType, then this. */
#define EE_ETHERTYPE		0x88b5
#define EE_MAGIC		0x82557b00

enum ee_kind {
	EE_KIND_DATA,	/* counted and checked in order */
	EE_KIND_PING,	/* answered with a PONG from the handler */
	EE_KIND_PONG,
	EE_NR_KINDS
};

/**
 * struct ee_payload - what follows the Ethernet header.
 * @magic: EE_MAGIC.
 * @seq: the sender's sequence number of this kind.
 * @kind: enum ee_kind.
 * @len: bytes of @data.
 * @csum: crc32 of @data.
 * @data: a pattern made from @seq.
 */
struct ee_payload {
	__be32 magic;
	__be32 seq;
	__be16 kind;
	__be16 len;
	__be32 csum;
	u8 data[];
};

/**
 * struct ee_dev - one 82557 bound to this driver.
 * @pdev: the PCI device.
 * @regs: BAR0.
 * @index: its place in ee_devs[], which gives it its MAC address.
 * @mac: the station address loaded with an IA set-up command.
 * @line: the irqcore line its INTx enters.
 * @host_irq: the host interrupt bound to @line.
 * @binder: this device bound @line; a second device on the same pin
 *	shares it (IC_SA_SHIRQ), and the last one removed unbinds it.
 * @requested: the handler is installed (process context only).
 * @ring: the coherent block: EE_TX_RING transmit blocks, then
 *	EE_RX_RING descriptors.
 * @ring_dma: its bus address.
 * @tx: the transmit ring.
 * @rx: the receive ring.
 * @lock: protects everything below against the handler, the transmit
 *	path on any CPU and tx_timeout: spin_lock_irqsave() outside the
 *	handler, which runs under SA_INTERRUPT with interrupts off. The lock
 *	2.5.28 asked of the driver once cli() stopped one CPU only. Raw:
 *	irqcore's handlers run in genuine hardirq context.
 * @cur_tx: blocks handed to the CU.
 * @dirty_tx: blocks the CU completed and the driver reclaimed.
 * @cu_restart: the next transmit starts the CU instead of resuming it
 *	(after tx_timeout).
 * @cur_rx: the next descriptor to read.
 * @stats: counters, all under @lock (see struct ee_stats).
 * @echo: answer PINGs (the far end of a round trip).
 * @pong_seq: the sequence number of the last PONG received.
 * @pong_ns: local_clock() when the handler found it.
 * @holder_seq: a holder's sequence (eepro100_rtt.c), read by the
 *	handler when it answers a PING.
 * @ping_holder_seq: what @holder_seq read for the last PING answered.
 * @leaving: its remove() has begun (under ee_devs_lock): not offered for
 *	new use, the background traffic above all.
 * @ping_ns: local_clock() when the handler answered the last PING: on
 *	the CPU the round trip is timed on (eepro100_rtt.c), the PING's leg.
 * @stall: the handler spins (interrupts off) until this is cleared, at
 *	most EE_STALL_MAX_MS (the synchronize_irq case).
 * @in_stall: the handler is spinning on @stall.
 */
struct ee_dev {
	struct pci_dev *pdev;
	void __iomem *regs;
	unsigned int index;
	u8 mac[6];
	unsigned int line;
	unsigned int host_irq;
	bool binder;
	bool requested;
	void *ring;
	dma_addr_t ring_dma;
	struct ee_txcb *tx;
	struct ee_rfd *rx;

	raw_spinlock_t lock;
	unsigned int cur_tx;
	unsigned int dirty_tx;
	bool cu_restart;
	unsigned int cur_rx;
	struct ee_stats {
		unsigned long runs;	/* handler runs that found a bit set */
		unsigned long not_mine;	/* runs that found none */
		unsigned long outside_hardirq;
		int last_cpu;
		unsigned long swi;
		unsigned long rnr;	/* RU restarts after "not ready" */
		unsigned long tx_sent[EE_NR_KINDS];
		unsigned long tx_done;	/* blocks completed, reclaimed */
		unsigned long tx_full;	/* a transmit found the ring full */
		unsigned long rx_ok[EE_NR_KINDS];
		unsigned long rx_bad;	/* wrong magic, length or checksum */
		unsigned long rx_order;	/* a DATA frame out of sequence */
		unsigned long rx_other;	/* not one of ours */
		u32 rx_next_seq;	/* the DATA sequence expected next */
		unsigned long timeouts;	/* tx_timeout runs */
	} stats;
	bool echo;
	u32 pong_seq;
	u64 pong_ns;
	const unsigned int *holder_seq;
	unsigned int ping_holder_seq;
	u64 ping_ns;
	bool leaving;
	bool stall;
	bool in_stall;
};

#define EE_STALL_MAX_MS		500

/* eepro100_main.c: the parameters the driver reads. */
extern unsigned int ee_param_line;

/* lines=: what the boot promised of the chips' pins. */
enum { EE_LINES_ANY, EE_LINES_TWO };
extern int ee_param_lines;

/* eepro100.c */
unsigned int ee_frame_len(u32 seq);
extern struct pci_driver ee_pci_driver;
bool ee_get_pair(struct ee_dev *pair[EE_NR_DEVS]);
struct ee_dev *ee_hold(unsigned int index);
void ee_unhold(struct ee_dev *ee);
void ee_unbind_stuck(void);
int ee_last_probe_error(void);
void ee_stats(struct ee_dev *ee, struct ee_stats *st);
int ee_send(struct ee_dev *ee, const u8 *dst, enum ee_kind kind, u32 seq, unsigned int len);
int ee_send_data(struct ee_dev *ee, const u8 *dst);
void ee_tx_timeout(struct ee_dev *ee);
void ee_raise_swi(struct ee_dev *ee);
bool ee_tx_idle(struct ee_dev *ee);
void ee_set_echo(struct ee_dev *ee, bool echo, const unsigned int *holder_seq);
void ee_set_stall(struct ee_dev *ee, bool stall);
bool ee_in_stall(struct ee_dev *ee);

/* eepro100_main.c: the background traffic (flood=). */
void ee_flood_start(void);
void ee_flood_stop(void);
bool ee_flood_running(void);

/* eepro100_test.c */
int ee_selftest(struct ee_dev *a, struct ee_dev *b);
int ee_aim(struct ee_dev *ee, int cpu);
long ee_pump(struct ee_dev *from, struct ee_dev *to, unsigned int n, bool (*stop)(void));

/* eepro100_rtt.c */
int ee_rtt(struct ee_dev *a, struct ee_dev *b, unsigned int samples);

#endif /* EEPRO100_H */
