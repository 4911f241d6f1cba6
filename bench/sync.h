/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore_bench - the synchronize_irq() figures (private to this module).
 */
#ifndef ICB_SYNC_H
#define ICB_SYNC_H

#include <linux/types.h>

struct icb_target;

int icb_sync(struct icb_target *t,
	     void (*report)(unsigned int k, int err, u64 ns, u64 busy_per_s));
unsigned int icb_sync_figures(void);

#endif /* ICB_SYNC_H */
