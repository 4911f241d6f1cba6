// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore_intel8x0 - a driver for the Intel ICH AC'97 controller (QEMU's
 * AC97) in the shape of 2.5's sound/pci/intel8x0.c, on an irqcore device
 * line: PCM out only, a generated signal, buffers refilled in the
 * interrupt handler.
 *
 * The handler has 2.5's signature and runs under SA_INTERRUPT and
 * SA_SHIRQ, as snd_intel8x0_interrupt() did: it reads the global status,
 * returns at once if the PCM out channel did not interrupt (the pin may be
 * shared), acknowledges the channel's status and refills every buffer the
 * chip finished, moving LVI ahead so that a fixed number of buffers stays
 * queued. The stream's state is under the driver's own lock,
 * spin_lock_irqsave() outside the handler: 2.5.28's rule.
 *
 * The seed's two hunks are i8x0_request() (snd_intel8x0_create():
 * synchronize_irq(chip->irq) once the handler is installed) and
 * i8x0_free() (snd_intel8x0_free(): the channel reset, then
 * synchronize_irq(chip->irq), then the buffers may go). Under
 * regime=biglock ic_synchronize_irq() is 2.5.27's, which waits for every
 * handler on every CPU.
 *
 * Not an ALSA driver: no PCM device, no mixer controls, no capture, no
 * codec probing beyond a reset (docs/devices.md says what else was left
 * out).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/preempt.h>
#include <linux/smp.h>

#include <irqcore.h>

#include "intel8x0.h"
#include "unbind.h"

/* Lines a remove() could not unbind (unbind.h). */
static struct ic_dev_stuck i8x0_stuck = IC_DEV_STUCK_INIT(i8x0_stuck);

/* Linux 6.10 renamed PCI_IRQ_LEGACY (Debian's 6.1 has only that name). */
#ifndef PCI_IRQ_INTX
#define PCI_IRQ_INTX	PCI_IRQ_LEGACY
#endif

static DEFINE_MUTEX(i8x0_devs_lock);
static struct i8x0_dev *i8x0_dev0;
static int i8x0_probe_err;

/* A 440 Hz sawtooth, both channels: one step is 440 * 65536 / 48000. */
static void __i8x0_fill(struct i8x0_dev *chip, unsigned int idx)
{
	__le16 *s = (__le16 *)(chip->buf + idx * I8X0_BUF_BYTES);
	unsigned int i;

	lockdep_assert_held(&chip->lock);
	for (i = 0; i < I8X0_BUF_FRAMES; i++, chip->phase++) {
		u16 v = (u16)((chip->phase * 440 * 65536) / I8X0_RATE);

		s[2 * i] = cpu_to_le16(v);
		s[2 * i + 1] = cpu_to_le16(v);
	}
	chip->stats.refills++;
	chip->stats.frames += I8X0_BUF_FRAMES;
}

/* Queue buffers up to @pos + queue - 1, the chip playing @pos next. */
static void __i8x0_refill(struct i8x0_dev *chip, unsigned int pos)
{
	unsigned int want = (pos + chip->queue - 1) % I8X0_NR_BD;

	lockdep_assert_held(&chip->lock);
	if (want == chip->lvi)
		return;
	do {
		chip->lvi = (chip->lvi + 1) % I8X0_NR_BD;
		__i8x0_fill(chip, chip->lvi);
	} while (chip->lvi != want);
	/* The buffers in memory before the chip may fetch them. */
	wmb();
	/* A halted channel (an underrun) runs again from here. */
	iowrite8(chip->lvi, chip->bm + I8X0_PO_LVI);
}

/*
 * The handler, 2.5's snd_intel8x0_interrupt() in shape: not ours unless
 * the global status names PCM out; acknowledge what the channel's status
 * says, count the buffers finished since the last run (from CIV, since
 * BCIS interrupts merge), and refill them.
 */
static void i8x0_interrupt(unsigned int irq, void *dev_id)
{
	struct i8x0_dev *chip = dev_id;
	unsigned int civ, pos;
	u32 snap;
	u16 sr;

	if (!(ioread32(chip->bm + I8X0_GLOB_STA) & I8X0_GS_POINT)) {
		raw_spin_lock(&chip->lock);
		chip->stats.not_mine++;
		raw_spin_unlock(&chip->lock);
		return;
	}
	raw_spin_lock(&chip->lock);
	if (!in_hardirq())
		chip->stats.outside_hardirq++;
	chip->stats.runs++;
	chip->stats.last_cpu = smp_processor_id();
	sr = ioread16(chip->bm + I8X0_PO_SR);
	iowrite16(sr & I8X0_SR_ACK, chip->bm + I8X0_PO_SR);
	if (sr & I8X0_SR_LVBCI)
		chip->stats.underruns++;
	if (!chip->running)
		goto out;
	/* CIV, LVI and SR in one read: one consistent look at the channel. */
	snap = ioread32(chip->bm + I8X0_PO_CIV);
	civ = snap & 0x1f;
	pos = civ;
	/* Halted at the last valid buffer: that one is finished too. */
	if (((snap >> 16) & I8X0_SR_DCH) && civ == chip->lvi)
		pos = (civ + 1) % I8X0_NR_BD;
	/* Read by the hold case's section without the lock: one store. */
	WRITE_ONCE(chip->stats.completions, chip->stats.completions +
		   (pos + I8X0_NR_BD - chip->civ_seen) % I8X0_NR_BD);
	chip->civ_seen = pos;
	__i8x0_refill(chip, pos);
out:
	raw_spin_unlock(&chip->lock);
}

/**
 * i8x0_start() - start PCM out with @queue buffers queued ahead.
 * @chip: the chip, its handler installed, the channel stopped.
 * @queue: 2..I8X0_NR_BD - 2 buffers of 10 ms.
 *
 * Context: process.
 */
void i8x0_start(struct i8x0_dev *chip, unsigned int queue)
{
	unsigned long flags;
	unsigned int i;

	raw_spin_lock_irqsave(&chip->lock, flags);
	iowrite8(I8X0_CR_RR, chip->bm + I8X0_PO_CR);
	for (i = 0; i < I8X0_NR_BD; i++) {
		chip->bd[i].addr = cpu_to_le32(chip->dma_addr + PAGE_SIZE + i * I8X0_BUF_BYTES);
		chip->bd[i].ctl_len = cpu_to_le32(I8X0_BD_IOC | (I8X0_BUF_BYTES / 2));
	}
	chip->queue = queue;
	chip->civ_seen = 0;
	chip->lvi = I8X0_NR_BD - 1;	/* so that the refill starts at 0 */
	chip->running = true;
	iowrite32(chip->dma_addr, chip->bm + I8X0_PO_BDBAR);
	__i8x0_refill(chip, 0);
	iowrite8(I8X0_CR_RPBM | I8X0_CR_LVBIE | I8X0_CR_IOCE, chip->bm + I8X0_PO_CR);
	raw_spin_unlock_irqrestore(&chip->lock, flags);
}

/**
 * i8x0_stop() - stop PCM out: the channel's registers reset.
 * @chip: the chip.
 *
 * The reset halts the channel and clears its status, so it interrupts no
 * more; a run of the handler may still be in progress on another CPU.
 *
 * Context: process or any but the handler.
 */
void i8x0_stop(struct i8x0_dev *chip)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&chip->lock, flags);
	chip->running = false;
	iowrite8(I8X0_CR_RR, chip->bm + I8X0_PO_CR);
	raw_spin_unlock_irqrestore(&chip->lock, flags);
}

/**
 * i8x0_running() - is PCM out running?
 * @chip: the chip.
 *
 * Context: any.
 * Return: true between i8x0_start() and i8x0_stop().
 */
bool i8x0_running(struct i8x0_dev *chip)
{
	return READ_ONCE(chip->running);
}

/**
 * i8x0_channel() - PCM out's CIV, LVI and status as the chip has them.
 * @chip: the chip.
 *
 * Context: any.
 * Return: CIV | LVI << 8 | SR << 16, read at once.
 */
u32 i8x0_channel(struct i8x0_dev *chip)
{
	return ioread32(chip->bm + I8X0_PO_CIV);
}

/**
 * i8x0_stats() - a consistent copy of the chip's counts.
 * @chip: the chip.
 * @st: filled in.
 *
 * Context: any but the handler.
 */
void i8x0_stats(struct i8x0_dev *chip, struct i8x0_stats *st)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&chip->lock, flags);
	*st = chip->stats;
	raw_spin_unlock_irqrestore(&chip->lock, flags);
}

/**
 * i8x0_request() - install the handler: snd_intel8x0_create()'s part.
 * @chip: the chip, its line bound, no handler installed.
 *
 * Then synchronize_irq(chip->irq), the seed's hunk: a run of the handler
 * that the request let in (the pin of a chip left interrupting) is over
 * before the driver sets the chip up.
 *
 * Context: process; sleeps.
 * Return: 0 or ic_request_irq()'s error.
 */
int i8x0_request(struct i8x0_dev *chip)
{
	int err;

	err = ic_request_irq(chip->line, i8x0_interrupt, IC_SA_INTERRUPT | IC_SA_SHIRQ,
			     "intel8x0", chip);
	if (err)
		return err;
	chip->requested = true;
	ic_synchronize_irq(chip->line);
	return 0;
}

/**
 * i8x0_free() - snd_intel8x0_free()'s part: stop, wait, remove the handler.
 * @chip: the chip, its handler installed.
 *
 * The channel reset, then synchronize_irq(chip->irq) (the seed's hunk): a
 * run of the handler still refilling buffers on another CPU is over before
 * anything it uses is released. Then the handler is freed.
 *
 * Context: process; sleeps.
 */
void i8x0_free(struct i8x0_dev *chip)
{
	i8x0_stop(chip);
	ic_synchronize_irq(chip->line);
	ic_free_irq(chip->line, chip);
	chip->requested = false;
}

/**
 * i8x0_hold() - the chip bound to this driver, kept bound until
 * i8x0_unhold().
 *
 * The load's cases run on the chip for seconds: a sysfs unbind meanwhile
 * would free it under them (devres). This takes a reference on the PCI
 * device and its device lock, under which the driver core runs remove(),
 * so that an unbind waits until i8x0_unhold(). Never call
 * pci_unregister_driver() while holding it.
 *
 * Context: process; sleeps.
 * Return: the chip, bound and held, or NULL.
 */
struct i8x0_dev *i8x0_hold(void)
{
	struct pci_dev *pdev = NULL;
	struct i8x0_dev *chip;

	mutex_lock(&i8x0_devs_lock);
	if (i8x0_dev0)
		pdev = pci_dev_get(i8x0_dev0->pdev);
	mutex_unlock(&i8x0_devs_lock);
	if (!pdev)
		return NULL;
	device_lock(&pdev->dev);
	/* Removed (and perhaps bound anew) before the lock was ours? */
	mutex_lock(&i8x0_devs_lock);
	chip = i8x0_dev0 && i8x0_dev0->pdev == pdev ? i8x0_dev0 : NULL;
	mutex_unlock(&i8x0_devs_lock);
	if (!chip) {
		device_unlock(&pdev->dev);
		pci_dev_put(pdev);
	}
	return chip;
}

/**
 * i8x0_unhold() - let the chip go: undo i8x0_hold().
 * @chip: what it returned.
 *
 * Context: process.
 */
void i8x0_unhold(struct i8x0_dev *chip)
{
	struct pci_dev *pdev = chip->pdev;

	device_unlock(&pdev->dev);
	pci_dev_put(pdev);
}

/**
 * i8x0_unbind_stuck() - unbind what a remove() had to leave bound.
 *
 * Context: process (the module's exit, after its driver is gone).
 */
void i8x0_unbind_stuck(void)
{
	ic_dev_unbind_stuck(&i8x0_stuck, true);
}

/**
 * i8x0_last_probe_error() - why the last probe failed.
 *
 * Context: process.
 * Return: 0 if none failed, else its error.
 */
int i8x0_last_probe_error(void)
{
	int err;

	mutex_lock(&i8x0_devs_lock);
	err = i8x0_probe_err;
	mutex_unlock(&i8x0_devs_lock);
	return err;
}

/* The codec: a reset of the mixer, PCM out at 48 kHz, unmuted. */
static void i8x0_codec_init(struct i8x0_dev *chip)
{
	iowrite32(0, chip->bm + I8X0_GLOB_CNT);
	iowrite16(0, chip->mixer + I8X0_MIX_RESET);
	iowrite16(0x0000, chip->mixer + I8X0_MIX_MASTER);
	iowrite16(0x0808, chip->mixer + I8X0_MIX_PCM);
}

static int __i8x0_probe(struct pci_dev *pdev)
{
	size_t size = PAGE_SIZE + I8X0_NR_BD * I8X0_BUF_BYTES;
	struct i8x0_dev *chip;
	int err, irq;

	mutex_lock(&i8x0_devs_lock);
	err = i8x0_dev0 ? -EBUSY : 0;
	mutex_unlock(&i8x0_devs_lock);
	if (err) {
		dev_err(&pdev->dev, "intel8x0: this driver takes one chip\n");
		return err;
	}
	/* A line an earlier remove() left bound: free now? */
	ic_dev_unbind_stuck(&i8x0_stuck, false);
	chip = devm_kzalloc(&pdev->dev, sizeof(*chip), GFP_KERNEL);
	if (!chip)
		return -ENOMEM;
	chip->pdev = pdev;
	chip->line = i8x0_param_line;
	chip->stats.last_cpu = -1;
	raw_spin_lock_init(&chip->lock);
	pci_set_drvdata(pdev, chip);

	err = pci_enable_device(pdev);
	if (err)
		return err;
	err = pci_request_regions(pdev, KBUILD_MODNAME);
	if (err)
		goto err_disable;
	err = -ENOMEM;
	chip->mixer = pci_iomap(pdev, 0, 0);
	chip->bm = pci_iomap(pdev, 1, 0);
	if (!chip->mixer || !chip->bm)
		goto err_unmap;
	err = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(32));
	if (err)
		goto err_unmap;
	err = -ENOMEM;
	chip->dma = dmam_alloc_coherent(&pdev->dev, size, &chip->dma_addr, GFP_KERNEL);
	if (!chip->dma)
		goto err_unmap;
	chip->bd = chip->dma;
	chip->buf = chip->dma + PAGE_SIZE;
	/* Nothing may be left running from a previous owner. */
	iowrite8(I8X0_CR_RR, chip->bm + I8X0_PO_CR);

	err = pci_alloc_irq_vectors(pdev, 1, 1, PCI_IRQ_INTX);
	if (err < 0) {
		dev_err(&pdev->dev, "intel8x0: no INTx: %d\n", err);
		goto err_unmap;
	}
	irq = pci_irq_vector(pdev, 0);
	if (irq < 0) {
		err = irq;
		goto err_vectors;
	}
	chip->host_irq = irq;
	err = ic_bind_line(chip->line, chip->host_irq, IC_LINE_LEVEL, "irqcore-intel8x0");
	if (err) {
		dev_err(&pdev->dev, "intel8x0: cannot bind irqcore line %u to host interrupt %u: %d\n",
			chip->line, chip->host_irq, err);
		goto err_vectors;
	}
	err = i8x0_request(chip);
	if (err)
		goto err_unbind;
	pci_set_master(pdev);
	i8x0_codec_init(chip);
	mutex_lock(&i8x0_devs_lock);
	i8x0_dev0 = chip;
	mutex_unlock(&i8x0_devs_lock);
	dev_info(&pdev->dev, "intel8x0: AC'97 on irqcore line %u, host interrupt %u (INTx, %s regime)\n",
		 chip->line, chip->host_irq, ic_regime_name());
	/* Bound anew after the cases with stream=1: it plays again. */
	if (i8x0_stream_on_probe())
		i8x0_start(chip, i8x0_param_queue);
	return 0;

err_unbind:
	ic_dev_unbind(&i8x0_stuck, &pdev->dev, chip->line, chip->host_irq);
err_vectors:
	pci_free_irq_vectors(pdev);
err_unmap:
	if (chip->bm)
		pci_iounmap(pdev, chip->bm);
	if (chip->mixer)
		pci_iounmap(pdev, chip->mixer);
	pci_release_regions(pdev);
err_disable:
	pci_disable_device(pdev);
	return err;
}

static int i8x0_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	int err = __i8x0_probe(pdev);

	if (err) {
		mutex_lock(&i8x0_devs_lock);
		i8x0_probe_err = err;
		mutex_unlock(&i8x0_devs_lock);
	}
	return err;
}

/*
 * Removal, also while the stream plays: snd_intel8x0_free()'s order, the
 * channel reset and synchronize_irq() before the handler and the buffers
 * go, the chip's DMA stopped before devres frees them.
 */
static void i8x0_remove(struct pci_dev *pdev)
{
	struct i8x0_dev *chip = pci_get_drvdata(pdev);
	bool streaming = i8x0_running(chip);
	struct i8x0_stats st;
	int unbind;

	mutex_lock(&i8x0_devs_lock);
	i8x0_dev0 = NULL;
	mutex_unlock(&i8x0_devs_lock);
	if (chip->requested)
		i8x0_free(chip);
	else
		i8x0_stop(chip);
	i8x0_stats(chip, &st);
	/* Refused: reported, and unbound at the next probe or the exit. */
	unbind = ic_dev_unbind(&i8x0_stuck, &pdev->dev, chip->line, chip->host_irq);
	pci_free_irq_vectors(pdev);
	pci_clear_master(pdev);
	pci_iounmap(pdev, chip->bm);
	pci_iounmap(pdev, chip->mixer);
	pci_release_regions(pdev);
	pci_disable_device(pdev);
	dev_info(&pdev->dev, "intel8x0: removed%s: runs=%lu not_mine=%lu completions=%lu underruns=%lu unbind=%d\n",
		 streaming ? " while streaming" : "", st.runs, st.not_mine, st.completions,
		 st.underruns, unbind);
}

static const struct pci_device_id i8x0_ids[] = {
	{ PCI_DEVICE(I8X0_VENDOR, I8X0_DEVICE) },
	{ }
};
MODULE_DEVICE_TABLE(pci, i8x0_ids);

struct pci_driver i8x0_pci_driver = {
	.name = "irqcore_intel8x0",
	.id_table = i8x0_ids,
	.probe = i8x0_probe,
	.remove = i8x0_remove,
};
