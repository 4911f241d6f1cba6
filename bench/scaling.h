/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore_bench - the scaling figures (private to this module).
 */
#ifndef ICB_SCALING_H
#define ICB_SCALING_H

int icb_scaling(unsigned int ms, void (*report)(unsigned int k, long per_s));

#endif /* ICB_SCALING_H */
