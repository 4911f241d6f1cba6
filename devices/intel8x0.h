/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore_intel8x0 - what the driver (intel8x0.c), its cases
 * (intel8x0_test.c) and the module's set-up (intel8x0_main.c) share.
 * Private to this module.
 *
 * The chip is the Intel ICH AC'97 controller as QEMU emulates it
 * (-device AC97, 8086:2415, hw/audio/ac97.c): BAR0 the codec's mixer
 * (I/O), BAR1 the bus master (I/O), three DMA channels of which the driver
 * uses PCM out. A channel walks a list of 32 buffer descriptors from CIV
 * (current) to LVI (last valid); each descriptor's IOC bit interrupts when
 * its buffer is done (SR BCIS); reaching the end of the last valid one
 * halts the channel (SR DCH) and interrupts with SR LVBCI: an underrun,
 * the driver having not advanced LVI in time. Writing LVI restarts a
 * halted channel. QEMU's "none" audio back end consumes at the sample
 * rate from its audio timer. INTx only.
 */
#ifndef INTEL8X0_H
#define INTEL8X0_H

#include <linux/spinlock.h>
#include <linux/types.h>

#define I8X0_VENDOR		0x8086
#define I8X0_DEVICE		0x2415	/* 82801AA AC'97, QEMU's AC97 */

/* Mixer (BAR0) registers, 16 bits. */
#define I8X0_MIX_RESET		0x00
#define I8X0_MIX_MASTER		0x02
#define I8X0_MIX_PCM		0x18

/* Bus master (BAR1): the PCM out channel, and the global registers. */
#define I8X0_PO_BDBAR		0x10
#define I8X0_PO_CIV		0x14	/* as 32 bits: CIV | LVI << 8 | SR << 16 */
#define I8X0_PO_LVI		0x15
#define I8X0_PO_SR		0x16
#define I8X0_PO_CR		0x1b
#define I8X0_GLOB_CNT		0x2c
#define I8X0_GLOB_STA		0x30

#define I8X0_CR_RPBM		0x01	/* run */
#define I8X0_CR_RR		0x02	/* reset the channel's registers */
#define I8X0_CR_LVBIE		0x04	/* interrupt on the last valid buffer */
#define I8X0_CR_IOCE		0x10	/* interrupt on a descriptor's IOC */

#define I8X0_SR_DCH		0x01	/* halted */
#define I8X0_SR_LVBCI		0x04	/* last valid buffer completed: underrun */
#define I8X0_SR_BCIS		0x08	/* a buffer with IOC completed */
#define I8X0_SR_FIFOE		0x10
#define I8X0_SR_ACK		(I8X0_SR_LVBCI | I8X0_SR_BCIS | I8X0_SR_FIFOE)

#define I8X0_GS_POINT		0x40	/* the PCM out channel interrupts */

#define I8X0_BD_IOC		0x80000000

#define I8X0_RATE		48000
#define I8X0_NR_BD		32
#define I8X0_BUF_FRAMES		480	/* 10 ms at 48 kHz */
#define I8X0_BUF_BYTES		(I8X0_BUF_FRAMES * 4)	/* stereo, 16 bits */

/**
 * struct i8x0_bd - a buffer descriptor.
 * @addr: the buffer's bus address.
 * @ctl_len: I8X0_BD_IOC | the length in 16-bit samples.
 */
struct i8x0_bd {
	__le32 addr;
	__le32 ctl_len;
};

/**
 * struct i8x0_stats - the driver's counts.
 * @runs: handler runs for this chip.
 * @not_mine: runs that found no PCM-out interrupt (a shared pin).
 * @outside_hardirq: runs outside hardirq (must stay 0).
 * @last_cpu: the CPU of the latest run.
 * @completions: buffers the chip finished playing.
 * @underruns: interrupts that said LVBCI: the chip reached the last
 *	valid buffer before the handler advanced LVI.
 * @refills: buffers the handler generated and queued.
 * @frames: sample frames generated.
 */
struct i8x0_stats {
	unsigned long runs;
	unsigned long not_mine;
	unsigned long outside_hardirq;
	int last_cpu;
	unsigned long completions;
	unsigned long underruns;
	unsigned long refills;
	unsigned long frames;
};

/**
 * struct i8x0_dev - the AC'97 controller bound to this driver.
 * @pdev: the PCI device.
 * @mixer: BAR0.
 * @bm: BAR1.
 * @line: the irqcore line its INTx enters.
 * @host_irq: the host interrupt bound to @line.
 * @requested: the handler is installed (process context only).
 * @dma: the coherent block: the descriptor list, then the buffers.
 * @dma_addr: its bus address.
 * @bd: the descriptor list.
 * @buf: the buffers, I8X0_NR_BD of I8X0_BUF_BYTES.
 * @lock: protects what follows against the handler: spin_lock_irqsave()
 *	outside it, as 2.5.28 asked of every driver. Raw, since irqcore's
 *	handlers run in genuine hardirq context.
 * @running: the channel was started and not stopped.
 * @queue: buffers kept queued ahead (the current one included).
 * @civ_seen: the buffer the chip plays next, as the handler last saw it.
 * @lvi: the last valid buffer the driver gave the chip.
 * @phase: the generator's position, in sample frames.
 * @stats: the counts.
 */
struct i8x0_dev {
	struct pci_dev *pdev;
	void __iomem *mixer;
	void __iomem *bm;
	unsigned int line;
	unsigned int host_irq;
	bool requested;
	void *dma;
	dma_addr_t dma_addr;
	struct i8x0_bd *bd;
	u8 *buf;

	raw_spinlock_t lock;
	bool running;
	unsigned int queue;
	unsigned int civ_seen;
	unsigned int lvi;
	u64 phase;
	struct i8x0_stats stats;
};

/* intel8x0_main.c */
extern unsigned int i8x0_param_line;
extern unsigned int i8x0_param_queue;
bool i8x0_stream_on_probe(void);

/* intel8x0.c */
extern struct pci_driver i8x0_pci_driver;
struct i8x0_dev *i8x0_hold(void);
void i8x0_unhold(struct i8x0_dev *chip);
void i8x0_unbind_stuck(void);
int i8x0_last_probe_error(void);
void i8x0_stats(struct i8x0_dev *chip, struct i8x0_stats *st);
void i8x0_start(struct i8x0_dev *chip, unsigned int queue);
void i8x0_stop(struct i8x0_dev *chip);
bool i8x0_running(struct i8x0_dev *chip);
u32 i8x0_channel(struct i8x0_dev *chip);
int i8x0_request(struct i8x0_dev *chip);
void i8x0_free(struct i8x0_dev *chip);

/* intel8x0_test.c */
int i8x0_selftest(struct i8x0_dev *chip, unsigned int queue, unsigned int hold_ms);

#endif /* INTEL8X0_H */
