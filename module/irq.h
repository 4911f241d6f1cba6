/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore - interrupt descriptors and do_IRQ (private).
 */
#ifndef IC_IRQ_H
#define IC_IRQ_H

#include <linux/compiler.h>
#include <linux/types.h>

/**
 * struct ic_line_stats - one line's accounting, both sides together.
 * @raised: edges raised.
 * @handled: instances that do_IRQ committed to (or found no action for).
 * @merged: instances folded into another: in the controller (an edge on
 *	a pending or latched edge) or in do_IRQ (PENDING while another
 *	instance is in progress, or while one is already latched).
 * @latched: instances waiting for an enable: latched by the masked
 *	controller, or by do_IRQ on a disabled line.
 * @inflight: edges delivered and not yet through do_IRQ.
 * @dropped: latched instances discarded when the line was shut down.
 * @unhandled: the handled instances that found no action (spurious).
 * @pending_merged: the do_IRQ part of @merged: the PENDING hand-off.
 *
 * Nothing is lost: raised == handled + merged + latched + inflight +
 * dropped, at every moment the line is quiet.
 */
struct ic_line_stats {
	unsigned long raised;
	unsigned long handled;
	unsigned long merged;
	unsigned long latched;
	unsigned long inflight;
	unsigned long dropped;
	unsigned long unhandled;
	unsigned long pending_merged;
};

struct seq_file;

int ic_irq_init(unsigned int nr_irqs);
void __ic_wait_inprogress(unsigned int irq);
void ic_irq_seq_show(struct seq_file *m, unsigned int irq);
void ic_irq_exit_descs(void);
void ic_do_IRQ(unsigned int irq);
void ic_line_stats(unsigned int irq, struct ic_line_stats *st);
int ic_check_accounting(const char *when);
unsigned long ic_api_warnings(void);
__printf(1, 2) void ic_api_misuse(const char *fmt, ...);

#endif /* IC_IRQ_H */
