/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * irqcore - what the module shares with userspace.
 *
 * Tools and scripts may depend on everything here; it changes only with
 * IC_UAPI_VERSION. The control plane that later versions add (requests on
 * /dev/irqcore) will be declared in this header.
 */
#ifndef _UAPI_IRQCORE_H
#define _UAPI_IRQCORE_H

#define IC_VERSION_STRING	"0.1"

/* Bumped whenever anything below changes incompatibly. */
#define IC_UAPI_VERSION		1

/* Descriptor status bits, with their Linux 2.5 values. */
#define IC_IRQ_INPROGRESS	1	/* a CPU is running the action chain */
#define IC_IRQ_DISABLED		2	/* disable_irq() depth > 0, or no action */
#define IC_IRQ_PENDING		4	/* an instance is waiting to be handled */
#define IC_IRQ_REPLAY		8	/* a pending instance has been resent */
#define IC_IRQ_AUTODETECT	16	/* being probed */
#define IC_IRQ_WAITING		32	/* probe: not fired yet */
#define IC_IRQ_LEVEL		64	/* level-triggered: a device line on INTx */
#define IC_IRQ_MASKED		128	/* masked at the controller */
#define IC_IRQ_PER_CPU		256	/* per-CPU line (unused) */

/*
 * Stable console lines, one per fact, that the host runner parses:
 *   "irqcore: params(start): k=v ..."   parameters at load
 *   "irqcore: params(end): k=v ..."     the same at unload
 * and a KTAP version 1 document per load for the self-tests.
 */

#endif /* _UAPI_IRQCORE_H */
