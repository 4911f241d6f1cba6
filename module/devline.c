// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore - the device controller: lines bound to host interrupts.
 *
 * A line of irqcore can be bound to a host interrupt, a PCI device's MSI
 * vector or its INTx pin through the I/O APIC. irqcore requests the host
 * interrupt; its handler enters do_IRQ for the line on the CPU where the
 * interrupt arrived, in hardirq, in the load's regime, as a chained
 * controller hands an interrupt on to its child domain (genirq's
 * generic_handle_irq() from a parent's handler). From there on the line
 * is like any other: PENDING hand-off, disable and enable, waits,
 * accounting. The line's descriptor uses this controller's operations
 * instead of the virtual controller's; each does the virtual controller's
 * part too (the line's mask and latch), so that a software raise and a
 * software resend work on a device line as on any line.
 *
 * Level (INTx): 2.5's I/O APIC masked a level pin in ack and unmasked it
 * in end, so that a pin that still asserts cannot interrupt again while
 * its handler runs; a disabled line stayed masked, and enabling it
 * replayed nothing in software: the pin still asserts, or has nothing to
 * say. Here ack and end are the host's disable_irq_nosync() and
 * enable_irq(), which nest, and disable and enable are the same, once
 * each per change of @on. A source that asserts while its line is
 * disabled interrupts the host once, which masks the pin (genirq's lazy
 * disable), and again when the line is enabled: no storm, nothing lost.
 *
 * Edge (MSI): the host interrupt stays enabled while the line is bound.
 * An edge that arrives while the line is disabled is held in PENDING by
 * do_IRQ and resent by enable_irq() through the virtual controller (the
 * edge table's retrigger), as 2.5 resent an edge with an IPI
 * (hw_resend_irq()). The level table has no retrigger.
 *
 * Both tables aim the host interrupt on set_affinity, so that the line's
 * interrupts arrive where ic_set_affinity() says.
 *
 * Locking: ic_devline_lock serialises bind and unbind. The operations
 * run under the line's descriptor lock (irq.c), which protects @on; the
 * host's descriptor lock nests inside it there. The host handler runs
 * without the host's descriptor lock held (genirq drops it around the
 * handlers), so the two are never taken the other way round.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/export.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <irqcore.h>

#include "devline.h"
#include "hw.h"
#include "irq.h"
#include "misuse.h"

/**
 * struct ic_devline - one line bound to a host interrupt.
 * @irq: irqcore's line.
 * @host_irq: the host interrupt.
 * @type: edge or level.
 * @on: the host interrupt is enabled by startup or enable (level only);
 *	under the line's descriptor lock.
 * @name: the host interrupt's name in /proc/interrupts.
 */
struct ic_devline {
	unsigned int irq;
	unsigned int host_irq;
	enum ic_line_type type;
	bool on;
	char name[32];
};

static DEFINE_MUTEX(ic_devline_lock);
/* Set before the line's controller changes, cleared after it is back. */
static struct ic_devline *ic_devlines[IC_NR_IRQS_MAX];

/*
 * The host interrupt's handler: hardirq, interrupts off, even on RT.
 * IRQ_NONE when the line had no action: nobody could quiet the source,
 * and genirq's "nobody cared" check turns off a host interrupt that
 * storms so (a level line probed, or a source that asserts before its
 * driver's request). Returning IRQ_HANDLED regardless would let it storm
 * for ever.
 */
static irqreturn_t ic_devline_handler(int host_irq, void *data)
{
	struct ic_devline *dl = data;

	/* Counted raised and handled (or held) in one critical section. */
	return ic_handle_host_irq(dl->irq) ? IRQ_HANDLED : IRQ_NONE;
}

/*
 * Is the host interrupt's trigger what the line's type says? Level if
 * genirq knows it as level (the I/O APIC's PCI pins set IRQ_LEVEL), edge
 * if its trigger type is an edge or it is an MSI. A host that says
 * neither is taken at the caller's word.
 */
static bool ic_devline_type_fits(unsigned int host_irq, enum ic_line_type type)
{
	struct irq_data *d = irq_get_irq_data(host_irq);
	u32 trigger;
	bool level;

	if (!d)
		return true;	/* request_irq() will say what is wrong */
	trigger = irqd_get_trigger_type(d);
	level = irqd_is_level_type(d) || (trigger & IRQ_TYPE_LEVEL_MASK);
	if (type == IC_LINE_EDGE)
		return !level;
	return level || !((trigger & IRQ_TYPE_EDGE_BOTH) || irq_get_msi_desc(host_irq));
}

/* Turn the host interrupt on or off once per change. Descriptor lock held. */
static void ic_devline_host(struct ic_devline *dl, bool on)
{
	if (dl->on == on)
		return;
	dl->on = on;
	if (on)
		enable_irq(dl->host_irq);
	else
		disable_irq_nosync(dl->host_irq);
}

/*
 * Aim the host interrupt first, and change nothing if the host refuses;
 * then the line's software resends, which the virtual controller sends.
 */
static int ic_devline_set_affinity(unsigned int irq, const struct cpumask *mask)
{
	int err = irq_set_affinity(ic_devlines[irq]->host_irq, mask);

	return err ? err : ic_hw_set_affinity(irq, mask);
}

static unsigned int ic_level_startup(unsigned int irq)
{
	ic_hw_startup(irq);
	ic_devline_host(ic_devlines[irq], true);
	return 0;
}

static void ic_level_shutdown(unsigned int irq)
{
	ic_devline_host(ic_devlines[irq], false);
	ic_hw_shutdown(irq);
}

static void ic_level_enable(unsigned int irq)
{
	ic_hw_unmask(irq);
	ic_devline_host(ic_devlines[irq], true);
}

static void ic_level_disable(unsigned int irq)
{
	ic_devline_host(ic_devlines[irq], false);
	ic_hw_mask(irq);
}

/* Masked from ack to end: nests inside whatever disable is in force. */
static void ic_level_ack(unsigned int irq)
{
	disable_irq_nosync(ic_devlines[irq]->host_irq);
}

static void ic_level_end(unsigned int irq)
{
	enable_irq(ic_devlines[irq]->host_irq);
}

/* No retrigger: enable_irq() replays nothing on a level line. */
static const struct ic_hw_ops ic_devline_level = {
	.typename = "IC-dev-level",
	.startup = ic_level_startup,
	.shutdown = ic_level_shutdown,
	.enable = ic_level_enable,
	.disable = ic_level_disable,
	.ack = ic_level_ack,
	.end = ic_level_end,
	.set_affinity = ic_devline_set_affinity,
	.stats = ic_hw_stats,
};

/* Edge lines: the virtual controller's operations, but for the affinity. */
static const struct ic_hw_ops ic_devline_edge = {
	.typename = "IC-dev-edge",
	.startup = ic_hw_startup,
	.shutdown = ic_hw_shutdown,
	.enable = ic_hw_unmask,
	.disable = ic_hw_mask,
	.set_affinity = ic_devline_set_affinity,
	.retrigger = ic_hw_resend,
	.stats = ic_hw_stats,
};

/**
 * ic_bind_line() - deliver a host interrupt to an irqcore line.
 * @irq: irqcore's line; not the virtual timer (0), and with no action.
 * @host_irq: the host interrupt (pci_irq_vector(), say); irqcore requests
 *	it, so nothing else may hold it.
 * @type: IC_LINE_EDGE (MSI) or IC_LINE_LEVEL (INTx).
 * @name: the host interrupt's name in /proc/interrupts (copied).
 *
 * From here until ic_unbind_line() the host interrupt's handler enters
 * irqcore's do_IRQ for @irq on the CPU it arrived on, and
 * ic_set_affinity() on @irq aims the host interrupt. A level line's host
 * interrupt is off until the line's first ic_request_irq(); an edge
 * line's is on at once (an edge before the first action is dropped by
 * ic_request_irq(), as any edge that came after the last free is).
 *
 * The host interrupt is requested, off, before the line changes
 * controller: until irqcore owns it, no request on the line (an enable,
 * a set_affinity from another task) may reach it, for it may be another
 * driver's. A host interrupt whose trigger contradicts @type (a level pin
 * bound as an edge line, an MSI or an edge bound as a level line) is
 * refused: the line's handling would never quiet it, or lose its edges.
 *
 * Context: process; sleeps.
 * Return: 0; -EINVAL for a bad line, type or name, or a host trigger
 * that contradicts @type; -EBUSY if the line is bound, has an action,
 * still runs a handler or is being probed; request_irq()'s error.
 * Nothing is changed on error.
 */
int ic_bind_line(unsigned int irq, unsigned int host_irq, enum ic_line_type type,
		 const char *name)
{
	const struct ic_hw_ops *chip;
	struct ic_devline *dl;
	unsigned long flags;
	int err;

	if (irq == IC_TIMER_IRQ || irq >= IC_NR_IRQS_MAX || !name ||
	    (type != IC_LINE_EDGE && type != IC_LINE_LEVEL)) {
		ic_api_misuse("bind_line(%u, %u, %d): bad line, type or name; not bound\n",
			      irq, host_irq, type);
		return -EINVAL;
	}
	if (!ic_devline_type_fits(host_irq, type)) {
		ic_api_misuse("bind_line(%u, %u): host interrupt %s, line %s; not bound\n",
			      irq, host_irq,
			      type == IC_LINE_EDGE ? "level-triggered" : "edge-triggered or MSI",
			      type == IC_LINE_EDGE ? "edge" : "level");
		return -EINVAL;
	}
	dl = kzalloc(sizeof(*dl), GFP_KERNEL);
	if (!dl)
		return -ENOMEM;
	dl->irq = irq;
	dl->host_irq = host_irq;
	dl->type = type;
	strscpy(dl->name, name, sizeof(dl->name));

	mutex_lock(&ic_devline_lock);
	err = -EBUSY;
	if (ic_devlines[irq])
		goto out_free;
	/*
	 * Ours first, and off (IRQF_NO_AUTOEN): then the operations below
	 * aim and enable an interrupt irqcore holds. In hardirq even where
	 * handlers are threaded (PREEMPT_RT): do_IRQ is a hardirq path.
	 */
	flags = IRQF_NO_THREAD | IRQF_NO_AUTOEN;
	err = request_irq(host_irq, ic_devline_handler, flags, dl->name, dl);
	if (err)
		goto out_free;
	/* Before the swap: the operations find the line's entry. */
	ic_devlines[irq] = dl;
	chip = type == IC_LINE_LEVEL ? &ic_devline_level : &ic_devline_edge;
	err = ic_irq_set_chip(irq, chip, type == IC_LINE_LEVEL);
	if (err)
		goto out_host;
	/* An edge line's host interrupt is on from here (see above). */
	if (type == IC_LINE_EDGE)
		enable_irq(host_irq);
	mutex_unlock(&ic_devline_lock);
	pr_info("line %u bound to host interrupt %u (%s, %s)\n", irq, host_irq,
		chip->typename, dl->name);
	return 0;

out_host:
	ic_devlines[irq] = NULL;
	free_irq(host_irq, dl);		/* never enabled: no handler ran */
out_free:
	mutex_unlock(&ic_devline_lock);
	kfree(dl);
	return err;
}
EXPORT_SYMBOL_GPL(ic_bind_line);

/* Unbind @irq. Context: process, ic_devline_lock held. */
static int __ic_unbind_line(unsigned int irq)
{
	struct ic_devline *dl = ic_devlines[irq];
	int err;

	/*
	 * -EBUSY while an action is left (its driver has not freed it), or
	 * while a chain still runs (a free_irq() on another CPU is waiting
	 * for it): that dispatch ends the line on the controller it acked.
	 */
	err = ic_irq_set_chip(irq, &ic_vic, false);
	if (err)
		return err;
	/* Waits for a handler still running on another CPU. */
	free_irq(dl->host_irq, dl);
	ic_devlines[irq] = NULL;
	kfree(dl);
	return 0;
}

/**
 * ic_unbind_line() - undo ic_bind_line().
 * @irq: a bound line with no action left.
 *
 * Returns once no host handler runs for the line any more; the line is a
 * line of the virtual controller again.
 *
 * Context: process; sleeps.
 * Return: 0, -EINVAL if @irq is not bound, -EBUSY if it still has an
 * action (ic_free_irq() first) or a handler of the line still runs (an
 * ic_free_irq() elsewhere is still waiting for it).
 */
int ic_unbind_line(unsigned int irq)
{
	int err = -EINVAL;

	mutex_lock(&ic_devline_lock);
	if (irq < IC_NR_IRQS_MAX && ic_devlines[irq])
		err = __ic_unbind_line(irq);
	mutex_unlock(&ic_devline_lock);
	if (err)
		ic_api_misuse("unbind_line(%u): %s; nothing changed\n", irq,
			      err == -EBUSY ? "the line still has an action or runs a handler" :
					      "not bound");
	return err;
}
EXPORT_SYMBOL_GPL(ic_unbind_line);

/* ic_devline_drop() with ic_devline_lock held, for a bound line. */
static void __ic_devline_drop(unsigned int irq)
{
	struct ic_devline *dl = ic_devlines[irq];

	lockdep_assert_held(&ic_devline_lock);
	/*
	 * The host interrupt off, and no host handler running (a source that
	 * still asserts must not storm into a line whose ack no longer masks
	 * it); free_irq() below undoes this disable with the rest.
	 */
	disable_irq(dl->host_irq);
	/* Then: from here no operation of the line reads @dl. */
	ic_irq_reset_chip(irq, &ic_vic);
	free_irq(dl->host_irq, dl);
	ic_devlines[irq] = NULL;
	kfree(dl);
}

/**
 * ic_devline_drop() - unbind a line whatever actions it still has.
 * @irq: a line.
 *
 * What ic_devline_exit() does for a line a driver left bound: the line
 * goes back to the virtual controller (the static key behind do_IRQ's ack
 * and end dropped with it), so that a later ack, end, enable or
 * set_affinity on it never reads the entry cleared here; then the host
 * interrupt is freed. The actions stay on the line, served by the
 * virtual controller.
 *
 * Context: process; sleeps.
 * Return: 0, or -EINVAL if @irq is not bound.
 */
int ic_devline_drop(unsigned int irq)
{
	int err = -EINVAL;

	mutex_lock(&ic_devline_lock);
	if (irq < IC_NR_IRQS_MAX && ic_devlines[irq]) {
		__ic_devline_drop(irq);
		err = 0;
	}
	mutex_unlock(&ic_devline_lock);
	return err;
}

/**
 * ic_devline_exit() - unbind what a driver left bound.
 *
 * A driver that binds a line holds a reference on irqcore, so a line
 * still bound here belongs to one that forgot ic_unbind_line() and is
 * gone. It is unbound even if an action is left on the line
 * (ic_devline_drop()): no host handler runs into the descriptors that are
 * about to go, and the line is on the virtual controller for the edges
 * the unload still delivers.
 *
 * Context: process (module exit), before the descriptors are freed.
 */
void ic_devline_exit(void)
{
	unsigned int irq;

	mutex_lock(&ic_devline_lock);
	for (irq = 0; irq < IC_NR_IRQS_MAX; irq++) {
		if (!ic_devlines[irq])
			continue;
		WARN(1, KBUILD_MODNAME ": line %u still bound to host interrupt %u at unload; unbound\n",
		     irq, ic_devlines[irq]->host_irq);
		/* Even with an action left (freed with the descriptors). */
		__ic_devline_drop(irq);
	}
	mutex_unlock(&ic_devline_lock);
}

/**
 * ic_devline_bound() - is @irq bound to a host interrupt now?
 * @irq: any line number.
 *
 * A snapshot: a bind or an unbind may follow at once. The control plane
 * uses it for the reason of a refusal; to take a line it uses
 * ic_request_irq_unbound(), which cannot race with a bind.
 *
 * Context: process; sleeps.
 * Return: true if @irq is bound.
 */
bool ic_devline_bound(unsigned int irq)
{
	bool bound;

	mutex_lock(&ic_devline_lock);
	bound = irq < IC_NR_IRQS_MAX && ic_devlines[irq];
	mutex_unlock(&ic_devline_lock);
	return bound;
}

/**
 * ic_devline_count() - how many lines are bound to host interrupts now.
 *
 * For /proc/irqcore/stat ("bound N"): the core's own word on whether a
 * driver's remove() unbound its line, which the driver's message cannot
 * stand in for (tests/guest/scenarios/edu, pcidev). A snapshot.
 *
 * Context: process; sleeps.
 * Return: the count.
 */
unsigned int ic_devline_count(void)
{
	unsigned int irq, n = 0;

	mutex_lock(&ic_devline_lock);
	for (irq = 0; irq < IC_NR_IRQS_MAX; irq++)
		n += !!ic_devlines[irq];
	mutex_unlock(&ic_devline_lock);
	return n;
}

/**
 * ic_request_irq_unbound() - ic_request_irq() on a line no driver has bound.
 * @irq: the line.
 * @handler: as ic_request_irq().
 * @flags: as ic_request_irq().
 * @name: as ic_request_irq().
 * @dev_id: as ic_request_irq().
 *
 * The check and the request are one step under the bind lock: a bind
 * cannot come in between, and none succeeds after it while the action is
 * on the line (ic_bind_line() refuses a line with an action). So a line
 * taken here stays a line of the virtual controller, and its handler never
 * keeps a driver's ic_unbind_line() from working.
 *
 * Context: process; sleeps.
 * Return: ic_request_irq()'s result, or -ENXIO if @irq is bound to a host
 * interrupt (nothing requested).
 */
int ic_request_irq_unbound(unsigned int irq, ic_handler_t handler, unsigned long flags,
			   const char *name, void *dev_id)
{
	int err = -ENXIO;

	mutex_lock(&ic_devline_lock);
	if (irq >= IC_NR_IRQS_MAX || !ic_devlines[irq])
		err = ic_request_irq(irq, handler, flags, name, dev_id);
	mutex_unlock(&ic_devline_lock);
	return err;
}
