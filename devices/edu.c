// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore_edu - the PCI driver for QEMU's edu device, in the shape of 2002.
 *
 * The interrupt handler has 2.5's signature (no return value: a 2.5.28
 * handler could not say "not mine") and runs under SA_INTERRUPT, as the
 * short handlers of the time did. The data it shares with process context
 * is protected by a driver lock, spin_lock_irqsave() in process context,
 * which is what 2.5.28 asked of every driver once cli() no longer stopped
 * the other CPUs. Under regime=biglock the same lock is correct too; the
 * driver never calls cli() for its own data.
 *
 * The interrupt enters irqcore through a device line: probe() allocates
 * one vector (MSI, or INTx with mode=intx), binds the irqcore line line=
 * to it (ic_bind_line(): an edge line for MSI, a level line for INTx) and
 * requests the handler there. remove() undoes it in reverse; it is what
 * "rmmod" and a sysfs unbind run, and it may run while the device is
 * still raising: ic_free_irq() waits for a handler in progress, and the
 * device is acknowledged before the line is unbound.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/dma-mapping.h>
#include <linux/io.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/preempt.h>
#include <linux/sched/clock.h>
#include <linux/smp.h>

#include <irqcore.h>

#include "edu.h"
#include "unbind.h"

/* Lines a remove() could not unbind (unbind.h). */
static struct ic_dev_stuck edu_stuck = IC_DEV_STUCK_INIT(edu_stuck);

/* Linux 6.10 renamed PCI_IRQ_LEGACY (Debian's 6.1 has only that name). */
#ifndef PCI_IRQ_INTX
#define PCI_IRQ_INTX	PCI_IRQ_LEGACY
#endif

/* The devices bound so far; the tests use the first. Under edu_devs_lock. */
static DEFINE_MUTEX(edu_devs_lock);
static struct edu_dev *edu_devs[4];
/* The last probe's error, so that the load can tell it from no device at all. */
static int edu_probe_err;

static u32 edu_read(struct edu_dev *edu, unsigned int reg)
{
	return readl(edu->mmio + reg);
}

static void edu_write(struct edu_dev *edu, unsigned int reg, u32 val)
{
	writel(val, edu->mmio + reg);
}

/*
 * The handler: 2.5's signature. It acknowledges exactly the bits it saw,
 * so that a source that sets its bit after the read interrupts again
 * (level: the pin stays asserted; MSI: the device sends on every raise).
 */
static void edu_interrupt(unsigned int irq, void *dev_id)
{
	struct edu_dev *edu = dev_id;
	u32 status;

	raw_spin_lock(&edu->lock);
	edu->n.last_ns = local_clock();
	if (edu->watch)
		edu->n.last_watch = READ_ONCE(*edu->watch);
	if (!in_hardirq())
		edu->n.outside_hardirq++;
	edu->n.last_cpu = smp_processor_id();
	status = edu_read(edu, EDU_REG_INT_STATUS);
	if (!status) {
		/* Nothing asserted: on a level line someone ran us for nothing. */
		edu->n.not_mine++;
		raw_spin_unlock(&edu->lock);
		return;
	}
	edu_write(edu, EDU_REG_INT_ACK, status);
	edu->n.runs++;
	edu->n.last_status = status;
	if (status & EDU_INT_FACT)
		edu->n.src_runs[EDU_SRC_FACT]++;
	if (status & EDU_INT_DMA)
		edu->n.src_runs[EDU_SRC_DMA]++;
	if (status & ~(EDU_INT_FACT | EDU_INT_DMA))
		edu->n.src_runs[EDU_SRC_RAISE]++;
	raw_spin_unlock(&edu->lock);
}

/**
 * edu_counts() - a consistent copy of the device's counts.
 * @edu: the device.
 * @c: filled in.
 *
 * Context: process or any, not from the handler itself.
 */
void edu_counts(struct edu_dev *edu, struct edu_counts *c)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&edu->lock, flags);
	*c = edu->n;
	raw_spin_unlock_irqrestore(&edu->lock, flags);
}

/**
 * edu_watch() - have the handler read @watch at the start of each run.
 * @edu: the device.
 * @watch: the counter, or NULL to stop.
 *
 * Context: process or any, not from the handler itself.
 */
void edu_watch(struct edu_dev *edu, const unsigned int *watch)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&edu->lock, flags);
	edu->watch = watch;
	raw_spin_unlock_irqrestore(&edu->lock, flags);
}

/**
 * edu_request() - install the handler on the device's line.
 * @edu: the device; its line bound, the handler not installed.
 *
 * Context: process; sleeps.
 * Return: 0 or ic_request_irq()'s error.
 */
int edu_request(struct edu_dev *edu)
{
	int err;

	err = ic_request_irq(edu->line, edu_interrupt, IC_SA_INTERRUPT, "edu", edu);
	if (!err)
		edu->requested = true;
	return err;
}

/**
 * edu_free() - remove the handler from the device's line.
 * @edu: the device, its handler installed.
 *
 * Returns once no run of the handler is in progress on any CPU.
 *
 * Context: process; sleeps.
 */
void edu_free(struct edu_dev *edu)
{
	ic_free_irq(edu->line, edu);
	edu->requested = false;
}

/**
 * edu_raise() - make the device interrupt through its raise register.
 * @edu: the device.
 * @bits: ORed into the interrupt status; the device interrupts while
 *	the status is not 0 (INTx), or sends one message now (MSI).
 *
 * Context: any.
 */
void edu_raise(struct edu_dev *edu, u32 bits)
{
	edu_write(edu, EDU_REG_INT_RAISE, bits);
}

/**
 * edu_ack() - clear interrupt status bits without the handler.
 * @edu: the device.
 * @bits: the bits to clear.
 *
 * Context: any.
 */
void edu_ack(struct edu_dev *edu, u32 bits)
{
	edu_write(edu, EDU_REG_INT_ACK, bits);
}

/**
 * edu_status() - the device's interrupt status now.
 * @edu: the device.
 *
 * Context: any.
 * Return: the status register (0x24).
 */
u32 edu_status(struct edu_dev *edu)
{
	return edu_read(edu, EDU_REG_INT_STATUS);
}

/**
 * edu_factorial() - start computing @n! with an interrupt at the end.
 * @edu: the device.
 * @n: the argument.
 *
 * The device computes on a thread of QEMU's; it interrupts with
 * EDU_INT_FACT when done. A computation still running is waited for
 * (it takes microseconds), since the device ignores a write meanwhile.
 *
 * Context: process.
 * Return: 0, or -EBUSY if the device stayed busy for a second.
 */
int edu_factorial(struct edu_dev *edu, u32 n)
{
	unsigned long end = jiffies + HZ;

	while (edu_read(edu, EDU_REG_STATUS) & EDU_STATUS_COMPUTING) {
		if (time_after(jiffies, end))
			return -EBUSY;
		usleep_range(50, 100);
	}
	edu_write(edu, EDU_REG_STATUS, EDU_STATUS_IRQFACT);
	edu_write(edu, EDU_REG_FACT, n);
	return 0;
}

/**
 * edu_factorial_result() - the last factorial's result.
 * @edu: the device, its computation finished.
 *
 * Context: any.
 * Return: the result register (0x08).
 */
u32 edu_factorial_result(struct edu_dev *edu)
{
	return edu_read(edu, EDU_REG_FACT);
}

/**
 * edu_dma_busy() - is a DMA transfer in progress?
 * @edu: the device.
 *
 * Context: any.
 * Return: true while the command register's start bit is set.
 */
bool edu_dma_busy(struct edu_dev *edu)
{
	return edu_read(edu, EDU_REG_DMA_CMD) & EDU_DMA_START;
}

/**
 * edu_dma() - start a transfer between @edu->dma_buf and the device's buffer.
 * @edu: the device, no transfer in progress.
 * @to_ram: from the device's buffer to RAM (else RAM to the device).
 * @len: bytes, up to EDU_DMA_BUF_SIZE.
 *
 * The device copies 100 ms (virtual time) later and interrupts with
 * EDU_INT_DMA.
 *
 * Context: process.
 * Return: 0, -EINVAL for a bad length, -EBUSY if a transfer is running,
 * -ENODEV if the kernel gave the device no DMA (see the probe).
 */
int edu_dma(struct edu_dev *edu, bool to_ram, size_t len)
{
	u32 ram = lower_32_bits(edu->dma_addr);

	if (!edu->dma_buf)
		return -ENODEV;
	if (!len || len > EDU_DMA_BUF_SIZE)
		return -EINVAL;
	if (edu_dma_busy(edu))
		return -EBUSY;
	edu_write(edu, EDU_REG_DMA_SRC, to_ram ? EDU_DMA_BUF : ram);
	edu_write(edu, EDU_REG_DMA_DST, to_ram ? ram : EDU_DMA_BUF);
	edu_write(edu, EDU_REG_DMA_COUNT, len);
	edu_write(edu, EDU_REG_DMA_CMD,
		  EDU_DMA_START | EDU_DMA_IRQ | (to_ram ? EDU_DMA_TO_RAM : 0));
	return 0;
}

/**
 * edu_hold_first() - the first edu device, kept bound until edu_unhold().
 *
 * The load's cases and latency run on the device for seconds: a sysfs
 * unbind meanwhile would free it under them (devres). This takes a
 * reference on the PCI device and its device lock, under which the
 * driver core runs remove(), so that an unbind waits until edu_unhold().
 * Never call pci_unregister_driver() while holding it.
 *
 * Context: process; sleeps.
 * Return: the device, bound and held, or NULL if none is bound.
 */
struct edu_dev *edu_hold_first(void)
{
	struct pci_dev *pdev = NULL;
	struct edu_dev *edu;

	mutex_lock(&edu_devs_lock);
	if (edu_devs[0])
		pdev = pci_dev_get(edu_devs[0]->pdev);
	mutex_unlock(&edu_devs_lock);
	if (!pdev)
		return NULL;
	device_lock(&pdev->dev);
	/* Removed (and perhaps bound anew) before the lock was ours? */
	mutex_lock(&edu_devs_lock);
	edu = edu_devs[0] && edu_devs[0]->pdev == pdev ? edu_devs[0] : NULL;
	mutex_unlock(&edu_devs_lock);
	if (!edu) {
		device_unlock(&pdev->dev);
		pci_dev_put(pdev);
	}
	return edu;
}

/**
 * edu_unhold() - let the device go: undo edu_hold_first().
 * @edu: what it returned.
 *
 * Context: process.
 */
void edu_unhold(struct edu_dev *edu)
{
	struct pci_dev *pdev = edu->pdev;

	device_unlock(&pdev->dev);
	pci_dev_put(pdev);
}

/**
 * edu_unbind_stuck() - unbind what a remove() had to leave bound.
 *
 * Context: process (the module's exit, after its driver is gone).
 */
void edu_unbind_stuck(void)
{
	ic_dev_unbind_stuck(&edu_stuck, true);
}

/**
 * edu_last_probe_error() - why the last probe failed.
 *
 * Context: process.
 * Return: 0 if no probe has failed, else the last failed probe's error.
 */
int edu_last_probe_error(void)
{
	int err;

	mutex_lock(&edu_devs_lock);
	err = edu_probe_err;
	mutex_unlock(&edu_devs_lock);
	return err;
}

/*
 * The firing timer (fire_us=): the device raised from a hard hrtimer on
 * whatever CPU armed it, until remove() stops it, so that a removal (rmmod,
 * or a sysfs unbind) meets a device that is interrupting.
 */
static enum hrtimer_restart edu_fire(struct hrtimer *t)
{
	struct edu_dev *edu = container_of(t, struct edu_dev, fire);

	if (READ_ONCE(edu->fire_stop))
		return HRTIMER_NORESTART;
	edu_raise(edu, EDU_INT_RAISE);
	hrtimer_forward_now(t, edu->fire_period);
	return HRTIMER_RESTART;
}

/**
 * edu_fire_start() - keep the device raising every @us microseconds.
 * @edu: the device.
 * @us: the period; 0 for none.
 *
 * Until remove() (or edu_fire_stop()).
 *
 * Context: process.
 */
void edu_fire_start(struct edu_dev *edu, unsigned int us)
{
	if (!us || edu->firing)
		return;
	edu->fire_period = ns_to_ktime((u64)us * NSEC_PER_USEC);
	WRITE_ONCE(edu->fire_stop, false);
	edu->firing = true;
	hrtimer_start(&edu->fire, edu->fire_period, HRTIMER_MODE_REL_HARD);
}

/**
 * edu_fire_stop() - stop what edu_fire_start() started.
 * @edu: the device.
 *
 * Returns once the timer's last run is over.
 *
 * Context: process.
 */
void edu_fire_stop(struct edu_dev *edu)
{
	if (!edu->firing)
		return;
	WRITE_ONCE(edu->fire_stop, true);
	hrtimer_cancel(&edu->fire);
	edu->firing = false;
}

/* Is this an edu device, and alive? */
static int edu_check(struct edu_dev *edu)
{
	u32 id = edu_read(edu, EDU_REG_ID), probe = 0x5a5a0f0f;

	if (id != EDU_ID_VALUE) {
		dev_err(&edu->pdev->dev, "id reads %#x, not %#x: not an edu device\n",
			id, EDU_ID_VALUE);
		return -ENODEV;
	}
	edu_write(edu, EDU_REG_LIVE, probe);
	if (edu_read(edu, EDU_REG_LIVE) != ~probe) {
		dev_err(&edu->pdev->dev, "liveness register does not invert\n");
		return -EIO;
	}
	return 0;
}

static int edu_slot(struct edu_dev *edu, struct edu_dev *want)
{
	unsigned int i;

	mutex_lock(&edu_devs_lock);
	for (i = 0; i < ARRAY_SIZE(edu_devs); i++) {
		if (edu_devs[i] == want) {
			edu_devs[i] = want ? NULL : edu;
			break;
		}
	}
	mutex_unlock(&edu_devs_lock);
	return i < ARRAY_SIZE(edu_devs) ? 0 : -ENOSPC;
}

static int __edu_probe(struct pci_dev *pdev)
{
	unsigned int type = edu_param_mode == EDU_MODE_MSI ? PCI_IRQ_MSI : PCI_IRQ_INTX;
	struct edu_dev *edu;
	int err, irq;

	/*
	 * A line an earlier remove() left bound: unbound now, its MSI vector
	 * (kept while the host interrupt was requested) can go too.
	 */
	if (ic_dev_unbind_stuck(&edu_stuck, false)) {
		if (pdev->msi_enabled || pdev->msix_enabled)
			return -EBUSY;
	} else if (pdev->msi_enabled) {
		pci_free_irq_vectors(pdev);
	}
	edu = devm_kzalloc(&pdev->dev, sizeof(*edu), GFP_KERNEL);
	if (!edu)
		return -ENOMEM;
	edu->pdev = pdev;
	edu->line = edu_param_line;
	edu->msi = edu_param_mode == EDU_MODE_MSI;
	edu->n.last_cpu = -1;
	raw_spin_lock_init(&edu->lock);
	hrtimer_init(&edu->fire, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	edu->fire.function = edu_fire;
	pci_set_drvdata(pdev, edu);

	err = pci_enable_device(pdev);
	if (err)
		return err;
	err = pci_request_region(pdev, 0, KBUILD_MODNAME);
	if (err)
		goto err_disable;
	err = -ENOMEM;
	edu->mmio = pci_iomap(pdev, 0, 0);
	if (!edu->mmio)
		goto err_region;
	err = edu_check(edu);
	if (err)
		goto err_unmap;
	/*
	 * The device's DMA engine drives 28 address bits. A kernel without
	 * a zone below 2^28 (no CONFIG_ZONE_DMA: the tinyconfig-based debug
	 * kernels) refuses the mask; the driver then does without its DMA
	 * source rather than without the device.
	 */
	if (dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(EDU_DMA_BITS))) {
		dev_warn(&pdev->dev, "edu: no DMA below 2^%d on this kernel: DMA source off\n",
			 EDU_DMA_BITS);
	} else {
		err = -ENOMEM;
		edu->dma_buf = dmam_alloc_coherent(&pdev->dev, EDU_DMA_BUF_SIZE,
						   &edu->dma_addr, GFP_KERNEL);
		if (!edu->dma_buf)
			goto err_unmap;
	}
	/* MSI is a write to memory: the device must master the bus. DMA too. */
	pci_set_master(pdev);

	err = pci_alloc_irq_vectors(pdev, 1, 1, type);
	if (err < 0) {
		dev_err(&pdev->dev, "no %s vector: %d\n", edu->msi ? "MSI" : "INTx", err);
		goto err_master;
	}
	irq = pci_irq_vector(pdev, 0);
	if (irq < 0) {
		err = irq;
		goto err_vectors;
	}
	edu->host_irq = irq;
	/* Nothing may be left from a previous owner of the device. */
	edu_ack(edu, ~0U);
	err = ic_bind_line(edu->line, edu->host_irq,
			   edu->msi ? IC_LINE_EDGE : IC_LINE_LEVEL, "irqcore-edu");
	if (err) {
		dev_err(&pdev->dev, "cannot bind irqcore line %u to host interrupt %u: %d\n",
			edu->line, edu->host_irq, err);
		goto err_vectors;
	}
	err = edu_request(edu);
	if (err)
		goto err_unbind;
	err = edu_slot(edu, NULL);
	if (err)
		goto err_free;
	dev_info(&pdev->dev, "edu: irqcore line %u on host interrupt %u (%s, %s regime)\n",
		 edu->line, edu->host_irq, edu->msi ? "MSI, edge" : "INTx, level",
		 ic_regime_name());
	return 0;

err_free:
	edu_free(edu);
err_unbind:
	/* Refused, the host interrupt stays requested: keep the vector too. */
	if (ic_dev_unbind(&edu_stuck, &pdev->dev, edu->line, edu->host_irq))
		goto err_master;
err_vectors:
	pci_free_irq_vectors(pdev);
err_master:
	pci_clear_master(pdev);
err_unmap:
	pci_iounmap(pdev, edu->mmio);
err_region:
	pci_release_region(pdev, 0);
err_disable:
	pci_disable_device(pdev);
	return err;
}

static int edu_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	int err = __edu_probe(pdev);

	if (err) {
		mutex_lock(&edu_devs_lock);
		edu_probe_err = err;
		mutex_unlock(&edu_devs_lock);
	}
	return err;
}

static void edu_remove(struct pci_dev *pdev)
{
	struct edu_dev *edu = pci_get_drvdata(pdev);
	struct edu_counts c;
	unsigned int i;
	bool fired;
	u32 status;
	int unbind;

	edu_slot(edu, edu);
	/* The device may still be raising: no handler runs after this. */
	if (edu->requested)
		edu_free(edu);
	edu_counts(edu, &c);
	fired = edu->firing;
	edu_fire_stop(edu);
	/*
	 * A transfer in flight would write the buffer that devres frees
	 * after this returns: the device finishes it 100 ms (virtual) after
	 * its command.
	 */
	for (i = 0; i < 20 && edu_dma_busy(edu); i++)
		msleep(20);
	status = edu_status(edu);
	edu_ack(edu, ~0U);
	/*
	 * Refused (another's handler on the line), the host interrupt stays
	 * requested by irqcore: its MSI vector is kept with it, since freeing
	 * a vector with a handler on it is a kernel bug.
	 */
	unbind = ic_dev_unbind(&edu_stuck, &pdev->dev, edu->line, edu->host_irq);
	if (!unbind)
		pci_free_irq_vectors(pdev);
	pci_clear_master(pdev);
	pci_iounmap(pdev, edu->mmio);
	pci_release_region(pdev, 0);
	pci_disable_device(pdev);
	dev_info(&pdev->dev, "edu: removed%s: runs=%lu not_mine=%lu status_left=%#x unbind=%d\n",
		 fired ? " while firing" : "", c.runs, c.not_mine, status, unbind);
}

static const struct pci_device_id edu_ids[] = {
	{ PCI_DEVICE(EDU_VENDOR, EDU_DEVICE) },
	{ }
};
MODULE_DEVICE_TABLE(pci, edu_ids);

struct pci_driver edu_pci_driver = {
	.name = "irqcore_edu",
	.id_table = edu_ids,
	.probe = edu_probe,
	.remove = edu_remove,
};
