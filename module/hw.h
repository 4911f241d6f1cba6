/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore - the virtual interrupt controller (private).
 */
#ifndef IC_HW_H
#define IC_HW_H

#include "chip.h"

/*
 * The virtual controller's operations: the table every line starts with,
 * and its entries one by one, for the device controller, which does the
 * virtual controller's part of each (the line's mask and latch) too.
 */
extern const struct ic_hw_ops ic_vic;
unsigned int ic_hw_startup(unsigned int irq);
void ic_hw_shutdown(unsigned int irq);
void ic_hw_unmask(unsigned int irq);
void ic_hw_mask(unsigned int irq);
int ic_hw_set_affinity(unsigned int irq, const struct cpumask *mask);
void ic_hw_resend(unsigned int irq);
void ic_hw_stats(unsigned int irq, struct ic_chip_stats *st);

int ic_hw_init(unsigned int nr_irqs);
void ic_hw_exit(void);
void ic_hw_cpu_dead(unsigned int cpu);
unsigned int ic_hw_timers_armed(void);

#endif /* IC_HW_H */
