/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore - the device controller (private).
 */
#ifndef IC_DEVLINE_H
#define IC_DEVLINE_H

int ic_devline_drop(unsigned int irq);
void ic_devline_exit(void);

#endif /* IC_DEVLINE_H */
