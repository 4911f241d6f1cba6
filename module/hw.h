/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore - the virtual interrupt controller (private).
 */
#ifndef IC_HW_H
#define IC_HW_H

/**
 * struct ic_hw_ops - a controller's operations (2.5's hw_interrupt_type).
 * @typename: the name shown in /proc/irqcore/interrupts.
 * @startup: unmask a line that gets its first action; returns 0.
 * @shutdown: mask a line that lost its last action; drops its latch.
 * @enable: unmask; an edge latched while masked is delivered now.
 * @disable: mask; edges raised from now on are latched.
 * @ack: acknowledge the edge being handled; NULL where there is nothing
 *	to do (edges here), so that do_IRQ makes no indirect call for it.
 * @end: end of handling; NULL where there is nothing to do.
 */
struct ic_hw_ops {
	const char *typename;
	unsigned int (*startup)(unsigned int irq);
	void (*shutdown)(unsigned int irq);
	void (*enable)(unsigned int irq);
	void (*disable)(unsigned int irq);
	void (*ack)(unsigned int irq);
	void (*end)(unsigned int irq);
};

extern const struct ic_hw_ops ic_vic;

/**
 * struct ic_hw_stats - the controller's side of one line's accounting.
 * @raised: ic_raise() calls accepted.
 * @merged: raises folded into an edge still latched or still pending.
 * @latched: 1 if an edge is latched while masked.
 * @inflight: edges delivered to a CPU and not yet through do_IRQ.
 * @dropped: latched edges discarded by shutdown.
 * @masked: whether the line is masked.
 */
struct ic_hw_stats {
	unsigned long raised;
	unsigned long merged;
	unsigned long latched;
	unsigned long inflight;
	unsigned long dropped;
	bool masked;
};

int ic_hw_init(unsigned int nr_irqs);
void ic_hw_exit(void);
void ic_hw_resend(unsigned int irq);
void ic_hw_arrived(unsigned int irq);
void ic_hw_set_host(unsigned int irq, int host_irq);
void ic_hw_stats(unsigned int irq, struct ic_hw_stats *st);
void ic_hw_cpu_dead(unsigned int cpu);
unsigned int ic_hw_timers_armed(void);

#endif /* IC_HW_H */
