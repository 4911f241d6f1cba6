/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore - /proc/irqcore (private).
 */
#ifndef IC_PROC_H
#define IC_PROC_H

int ic_proc_init(void);
void ic_proc_exit(void);

#endif /* IC_PROC_H */
