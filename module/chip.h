/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore - what the core asks of a controller (private).
 *
 * The core (irq.c) knows a line's controller only through the table of
 * operations in its descriptor, as 2.5's irq_desc_t knew its
 * hw_interrupt_type and today's irq_desc knows its irq_chip. There are two
 * controllers: the virtual one (hw.c), which every line starts on, and the
 * device controller (devline.c), which a line uses while it is bound to a
 * host interrupt. A controller hands an interrupt to the core with
 * ic_do_IRQ(), ic_handle_irq() or ic_handle_host_irq(); the core never
 * calls a controller by name.
 */
#ifndef IC_CHIP_H
#define IC_CHIP_H

#include <linux/types.h>

struct cpumask;

/**
 * struct ic_chip_stats - the controller's side of one line's accounting.
 * @raised: ic_raise() calls accepted.
 * @merged: raises folded into an edge still latched or still pending.
 * @latched: 1 if an edge is latched while masked.
 * @sent: edges delivered to a CPU and not folded there into one already
 *	pending: each reaches do_IRQ once, which counts its arrival in the
 *	descriptor; sent minus arrived is what is in flight.
 * @dropped: latched edges discarded by shutdown.
 * @masked: whether the line is masked.
 */
struct ic_chip_stats {
	unsigned long raised;
	unsigned long merged;
	unsigned long latched;
	unsigned long sent;
	unsigned long dropped;
	bool masked;
};

/**
 * struct ic_hw_ops - a controller's operations (2.5's hw_interrupt_type).
 * @typename: the name shown in /proc/irqcore/interrupts.
 * @startup: unmask a line that gets its first action; returns 0.
 * @shutdown: mask a line that lost its last action; drops its latch.
 * @enable: unmask; an edge latched while masked is delivered now.
 * @disable: mask; edges raised from now on are latched.
 * @ack: acknowledge the instance being handled; NULL where there is
 *	nothing to do (edges), so that do_IRQ makes no indirect call for it.
 * @end: end of handling; NULL where there is nothing to do.
 * @set_affinity: deliver the line's interrupts round-robin over the
 *	online CPUs of a mask (2.5's set_affinity); 0 or an errno, and
 *	nothing changed on error.
 * @retrigger: deliver again an instance that do_IRQ held in PENDING on a
 *	disabled line (2.5's hw_resend_irq(), today's irq_retrigger). NULL
 *	for a level line: its source still asserts, or has nothing to say.
 * @stats: read the controller's side of the line's accounting.
 *
 * Every operation is called under the line's descriptor lock, interrupts
 * off; a controller's own locks nest inside it.
 */
struct ic_hw_ops {
	const char *typename;
	unsigned int (*startup)(unsigned int irq);
	void (*shutdown)(unsigned int irq);
	void (*enable)(unsigned int irq);
	void (*disable)(unsigned int irq);
	void (*ack)(unsigned int irq);
	void (*end)(unsigned int irq);
	int (*set_affinity)(unsigned int irq, const struct cpumask *mask);
	void (*retrigger)(unsigned int irq);
	void (*stats)(unsigned int irq, struct ic_chip_stats *st);
};

/* irq.c, for a controller: what the descriptors offer (kernel-doc there). */
bool ic_handle_host_irq(unsigned int irq);
void ic_irq_reset_chip(unsigned int irq, const struct ic_hw_ops *chip);
const struct ic_hw_ops *ic_irq_chip(unsigned int irq);
bool ic_irq_chip_ops_used(void);

#endif /* IC_CHIP_H */
