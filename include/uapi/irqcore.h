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

/*
 * Stable console lines, one per fact, that the host runner parses:
 *   "irqcore: params(start): k=v ..."   parameters at load
 *   "irqcore: params(end): k=v ..."     the same at unload
 * and a KTAP version 1 document per load for the self-tests.
 */

#endif /* _UAPI_IRQCORE_H */
