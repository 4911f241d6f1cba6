/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore_edu - what the driver (edu.c), its tests (selftest.c) and the
 * module's set-up (main.c) share. Private to this module.
 *
 * The device is QEMU's "edu" (hw/misc/edu.c, specs/edu.txt): 1 MiB of
 * MMIO in BAR0, whose registers below 0x80 take 4-byte accesses only.
 * Each of its three sources sets bits in the interrupt status (0x24),
 * and the device interrupts while that status is not 0: INTx is a level
 * asserted for as long, MSI a message sent on every raise. The handler
 * acknowledges by writing the bits it saw to 0x64.
 */
#ifndef EDU_H
#define EDU_H

#include <linux/hrtimer.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#define EDU_VENDOR		0x1234
#define EDU_DEVICE		0x11e8

#define EDU_REG_ID		0x00	/* reads 0x010000ed: version 1.0 */
#define EDU_REG_LIVE		0x04	/* reads back the inverse of what was written */
#define EDU_REG_FACT		0x08	/* write n: computes n!, read: the result */
#define EDU_REG_STATUS		0x20
#define EDU_REG_INT_STATUS	0x24	/* read-only */
#define EDU_REG_INT_RAISE	0x60	/* ORed into the interrupt status */
#define EDU_REG_INT_ACK		0x64	/* clears the bits written */
#define EDU_REG_DMA_SRC		0x80
#define EDU_REG_DMA_DST		0x88
#define EDU_REG_DMA_COUNT	0x90
#define EDU_REG_DMA_CMD		0x98

#define EDU_ID_VALUE		0x010000ed
#define EDU_STATUS_COMPUTING	0x01
#define EDU_STATUS_IRQFACT	0x80	/* interrupt when the factorial is done */
#define EDU_DMA_START		0x01
#define EDU_DMA_TO_RAM		0x02	/* direction: device buffer to RAM */
#define EDU_DMA_IRQ		0x04	/* interrupt when the transfer is done */
#define EDU_DMA_BUF		0x40000	/* the device's 4 KiB buffer, as a device address */
#define EDU_DMA_BUF_SIZE	4096
#define EDU_DMA_BITS		28

/* Interrupt status bits: the device's two, and the one the raise tests use. */
#define EDU_INT_FACT		0x00000001
#define EDU_INT_DMA		0x00000100
#define EDU_INT_RAISE		0x00010000

/**
 * enum edu_source - what made the device interrupt.
 * @EDU_SRC_RAISE: a write to the raise register (0x60), synchronous.
 * @EDU_SRC_FACT: a factorial finished (on a QEMU thread).
 * @EDU_SRC_DMA: a DMA transfer finished (a QEMU timer, 100 ms after it began).
 * @EDU_NR_SOURCES: how many there are.
 */
enum edu_source {
	EDU_SRC_RAISE,
	EDU_SRC_FACT,
	EDU_SRC_DMA,
	EDU_NR_SOURCES
};

/**
 * struct edu_counts - what the handler records; struct edu_dev's @n, and
 *	what edu_counts() copies out of it.
 * @runs: handler runs that found a status bit set and acknowledged it.
 * @src_runs: @runs by source (a run may serve more than one).
 * @not_mine: handler runs that found the status 0: on a level line, an
 *	instance nobody asserted (the device had been acknowledged already).
 * @outside_hardirq: handler runs outside hardirq context (must stay 0).
 * @last_cpu: the CPU of the latest run.
 * @last_status: the status the latest run acknowledged.
 * @last_ns: local_clock() at the latest run's start, for latency.c.
 * @last_watch: what the latest run read from struct edu_dev's @watch.
 */
struct edu_counts {
	unsigned long runs;
	unsigned long src_runs[EDU_NR_SOURCES];
	unsigned long not_mine;
	unsigned long outside_hardirq;
	int last_cpu;
	u32 last_status;
	u64 last_ns;
	unsigned int last_watch;
};

/**
 * struct edu_dev - one edu device bound to this driver.
 * @pdev: the PCI device.
 * @mmio: BAR0.
 * @line: the irqcore line its interrupt enters.
 * @host_irq: the host interrupt (pci_irq_vector()) bound to @line.
 * @msi: MSI (an edge line), or INTx (a level line).
 * @requested: the handler is installed on @line (process context only).
 * @dma_buf: a coherent buffer for the DMA source; NULL if the kernel has no
 *	memory the device can reach (the DMA source is then off).
 * @dma_addr: its bus address, below 2^28.
 * @fire: the firing timer (fire_us=; edu_fire_start()).
 * @fire_period: its period.
 * @fire_stop: tells the timer not to re-arm.
 * @firing: the timer was started (process context only).
 * @lock: protects what follows against the handler, in the idiom 2.5.28
 *	asked of drivers (spin_lock_irqsave() in process context, the handler
 *	under SA_INTERRUPT with interrupts off). Raw: irqcore's handlers run
 *	in genuine hardirq context, where a PREEMPT_RT spinlock_t would sleep.
 * @watch: a counter latency.c asks the handler to read (the holder's
 *	sequence), or NULL.
 * @n: what the handler records.
 */
struct edu_dev {
	struct pci_dev *pdev;
	void __iomem *mmio;
	unsigned int line;
	unsigned int host_irq;
	bool msi;
	bool requested;
	void *dma_buf;
	dma_addr_t dma_addr;
	struct hrtimer fire;
	ktime_t fire_period;
	bool fire_stop;
	bool firing;

	raw_spinlock_t lock;
	const unsigned int *watch;
	struct edu_counts n;
};

/* main.c: the parameters the driver reads. */
extern unsigned int edu_param_line;
extern int edu_param_mode;		/* enum edu_mode */

enum edu_mode {
	EDU_MODE_MSI,
	EDU_MODE_INTX,
};

/* edu.c */
extern struct pci_driver edu_pci_driver;
struct edu_dev *edu_hold_first(void);
void edu_unhold(struct edu_dev *edu);
void edu_unbind_stuck(void);
int edu_last_probe_error(void);
void edu_counts(struct edu_dev *edu, struct edu_counts *c);
int edu_request(struct edu_dev *edu);
void edu_free(struct edu_dev *edu);
void edu_raise(struct edu_dev *edu, u32 bits);
void edu_ack(struct edu_dev *edu, u32 bits);
u32 edu_status(struct edu_dev *edu);
int edu_factorial(struct edu_dev *edu, u32 n);
u32 edu_factorial_result(struct edu_dev *edu);
int edu_dma(struct edu_dev *edu, bool to_ram, size_t len);
bool edu_dma_busy(struct edu_dev *edu);
void edu_fire_start(struct edu_dev *edu, unsigned int us);
void edu_fire_stop(struct edu_dev *edu);

void edu_watch(struct edu_dev *edu, const unsigned int *watch);

/* selftest.c */
int edu_selftest(struct edu_dev *edu);
bool edu_wait_runs(struct edu_dev *edu, unsigned long runs);
int edu_aim(struct edu_dev *edu, int cpu);

/* latency.c */
int edu_latency(struct edu_dev *edu, unsigned int samples, unsigned int hold_us);

#endif /* EDU_H */
