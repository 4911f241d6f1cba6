/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A device line that would not unbind (edu.c, eepro100.c, intel8x0.c).
 *
 * ic_unbind_line() refuses (-EBUSY) while another handler is on the line:
 * one the driver did not request (a control-plane session, another module
 * joined the shared line). remove() cannot wait for it (it may never go),
 * nor take it off (it is not the driver's), so it says so and notes the
 * line; the host interrupt stays requested by irqcore for the time being.
 * The next probe and the module's exit unbind the noted lines once their
 * foreign handler is gone, and what is still held at the exit is left to
 * irqcore's unload (which frees every host interrupt still bound). No
 * line is forgotten: a re-probe finds its line free again, and not
 * -EBUSY from a bind of its own leftovers.
 */
#ifndef IC_DEV_UNBIND_H
#define IC_DEV_UNBIND_H

#include <linux/bitmap.h>
#include <linux/device.h>
#include <linux/mutex.h>
#include <linux/printk.h>

#include <irqcore.h>

/**
 * struct ic_dev_stuck - the lines a driver could not unbind.
 * @lock: guards @lines and @failed.
 * @lines: the lines still bound on the driver's behalf.
 * @failed: failed unbinds since load (each one reported).
 */
struct ic_dev_stuck {
	struct mutex lock;	/* guards lines and failed */
	DECLARE_BITMAP(lines, IC_NR_IRQS_MAX);
	unsigned long failed;
};

#define IC_DEV_STUCK_INIT(name) { .lock = __MUTEX_INITIALIZER(name.lock) }

/**
 * ic_dev_unbind() - unbind a removed device's line, or report why not.
 * @s: the driver's record.
 * @dev: the device, for the message.
 * @line: its line, with no handler of the driver's left on it.
 * @host_irq: the host interrupt it was bound to.
 *
 * Context: process (remove(), a probe's error path); sleeps.
 * Return: 0, or ic_unbind_line()'s error (the line noted in @s).
 */
static inline int ic_dev_unbind(struct ic_dev_stuck *s, struct device *dev, unsigned int line,
				unsigned int host_irq)
{
	int err = ic_unbind_line(line);

	if (!err)
		return 0;
	dev_err(dev, "cannot unbind irqcore line %u: %d (a handler that is not the driver's is on it); host interrupt %u stays requested until the line is unbound at the next probe or the driver's unload\n",
		line, err, host_irq);
	mutex_lock(&s->lock);
	if (line < IC_NR_IRQS_MAX)
		__set_bit(line, s->lines);
	s->failed++;
	mutex_unlock(&s->lock);
	return err;
}

/**
 * ic_dev_unbind_stuck() - unbind the lines a remove() had to leave bound.
 * @s: the driver's record.
 * @exiting: the module's exit: a line still held is left to irqcore.
 *
 * Context: process (a probe, before it binds; the module's exit, after
 * its driver is unregistered); sleeps.
 * Return: the lines still bound.
 */
static inline unsigned int ic_dev_unbind_stuck(struct ic_dev_stuck *s, bool exiting)
{
	unsigned int line, left = 0;

	mutex_lock(&s->lock);
	for_each_set_bit(line, s->lines, IC_NR_IRQS_MAX) {
		if (!ic_unbind_line(line)) {
			__clear_bit(line, s->lines);
			pr_info("irqcore line %u unbound at last\n", line);
			continue;
		}
		left++;
		pr_err("irqcore line %u still has a foreign handler; %s\n", line,
		       exiting ? "left to irqcore's unload" : "tried at the next probe");
	}
	mutex_unlock(&s->lock);
	return left;
}

#endif /* IC_DEV_UNBIND_H */
