// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore - the regimes: what differs between 2.5.27 and 2.5.28.
 *
 * nolock (2.5.28): no global interrupt lock at all. irq_enter/irq_exit
 * only move the folded counter, and synchronize_irq(irq) waits for that
 * one line's INPROGRESS to clear.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <irqcore.h>

#include "irq.h"
#include "regime.h"

const struct ic_regime_ops ic_regime_nolock = {
	.name = "nolock",
	.irq_enter = ic_irq_enter,
	.irq_exit = ic_irq_exit,
	.synchronize_irq = __ic_wait_inprogress,
};

static const struct ic_regime_ops * const ic_regimes[] = {
	[IC_REGIME_NOLOCK] = &ic_regime_nolock,
};

const struct ic_regime_ops *ic_regime = &ic_regime_nolock;

/**
 * ic_regime_init() - select the regime for this load.
 * @id: an enum ic_regime_id.
 *
 * Context: process (module init), before any line can fire.
 * Return: 0.
 */
int ic_regime_init(int id)
{
	ic_regime = ic_regimes[id];
	return 0;
}
