/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore - what differs between the 2.5.27 and 2.5.28 designs (private).
 *
 * The controller, the descriptors, do_IRQ and the softirq engine are
 * shared; every difference between the regimes sits behind these ops,
 * chosen by name at load (regime=).
 */
#ifndef IC_REGIME_H
#define IC_REGIME_H

/**
 * struct ic_regime_ops - one regime.
 * @name: its parameter name.
 * @irq_enter: entry to hardirq context, first thing in do_IRQ.
 * @irq_exit: exit from it, last thing in do_IRQ (runs softirqs).
 * @synchronize_irq: wait until no handler of @irq runs (2.5.28), or for
 *	every handler on every line (2.5.27's cli(); sti()).
 */
struct ic_regime_ops {
	const char *name;
	void (*irq_enter)(void);
	void (*irq_exit)(void);
	void (*synchronize_irq)(unsigned int irq);
};

enum ic_regime_id {
	IC_REGIME_NOLOCK,
};

extern const struct ic_regime_ops *ic_regime;
extern const struct ic_regime_ops ic_regime_nolock;

int ic_regime_init(int id);

#endif /* IC_REGIME_H */
