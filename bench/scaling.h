/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore_bench - the scaling figures (private to this module).
 */
#ifndef ICB_SCALING_H
#define ICB_SCALING_H

#include <linux/types.h>

int icb_scaling(unsigned int ms, void (*report)(unsigned int k, bool control, long per_s));

#endif /* ICB_SCALING_H */
