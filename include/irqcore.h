/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore - the in-kernel API that other modules use.
 *
 * Build against it with KBUILD_EXTRA_SYMBOLS pointing at irqcore's
 * Module.symvers (build/<target>/Module.symvers). Every symbol carries the
 * ic_ prefix; each function's kernel-doc says from which context it may be
 * called. The interrupt core's API (request_irq and friends, the counter,
 * softirqs) is declared here as it is added.
 */
#ifndef IRQCORE_H
#define IRQCORE_H

#include <uapi/irqcore.h>

#endif /* IRQCORE_H */
