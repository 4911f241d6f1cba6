/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore - the device controller (private).
 */
#ifndef IC_DEVLINE_H
#define IC_DEVLINE_H

#include <linux/types.h>

#include <irqcore.h>

int ic_devline_drop(unsigned int irq);
void ic_devline_exit(void);
unsigned int ic_devline_count(void);

/* The control plane's view of device lines (ctlsrc.c). */
bool ic_devline_bound(unsigned int irq);
int ic_request_irq_unbound(unsigned int irq, ic_handler_t handler, unsigned long flags,
			   const char *name, void *dev_id);

#endif /* IC_DEVLINE_H */
