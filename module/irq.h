/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore - interrupt descriptors and do_IRQ (private).
 */
#ifndef IC_IRQ_H
#define IC_IRQ_H

#include <linux/compiler.h>
#include <linux/types.h>

struct ic_hw_ops;
struct seq_file;

int ic_irq_init(unsigned int nr_irqs, const struct ic_hw_ops *chip);
bool ic_wait_line(unsigned int irq, unsigned long ip);
void ic_irq_seq_show(struct seq_file *m, unsigned int irq);
void ic_irq_exit_descs(void);
void ic_do_IRQ(unsigned int irq);
int ic_check_accounting(const char *when);
unsigned long ic_api_warnings(void);
__printf(1, 2) void ic_api_misuse(const char *fmt, ...);
bool ic_probe_busy(void);
int ic_irq_set_chip(unsigned int irq, const struct ic_hw_ops *chip, bool level);
unsigned int ic_irq_nr_actions(unsigned int irq);

/*
 * ic_request_irq() flag of irqcore's own callers (the control plane): the
 * action must be the line's first; a line with any action is -EBUSY, even
 * a shared one that the request's IC_SA_SHIRQ would join. Not a 2.5 flag.
 */
#define IC_SA_NEWLINE		0x00000001

#endif /* IC_IRQ_H */
