/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore_torture, style literal - the 2002 names.
 *
 * The literal drivers are written the way Linux 2.5.27 had them, with
 * save_flags(); cli(); ... restore_flags() spelled out, so that the
 * converter (tools/convert/cli-to-spinlock.cocci) and the checker
 * (tools/convert/irq-exclusion.cocci) read real 2002 source. This header
 * maps each 2002 name onto irqcore's copy of it: cli() is ic_cli(), which
 * under regime=biglock takes the global interrupt lock as 2.5.27's did,
 * and under regime=nolock masks the calling CPU only, as 2.5.28 left it.
 *
 * request_irq()/free_irq() go through the torture harness
 * (ict_lit_request_irq(), torture.c), which counts the handler's runs
 * and delay around it, as it does for the other styles.
 *
 * The generated styles (converted, localized, stripped; tools/convert/
 * generate) include this header too, so that what the converter leaves
 * alone still compiles.
 */
#ifndef ICT_COMPAT2002_H
#define ICT_COMPAT2002_H

#include <irqcore.h>

#include "../torture.h"

#define cli()			ic_cli()
#define sti()			ic_sti()
#define save_flags(x)		((x) = ic_save_flags())
#define restore_flags(x)	ic_restore_flags(x)

#define SA_INTERRUPT		IC_SA_INTERRUPT

#define request_irq(irq, handler, flags, name, dev_id) \
	ict_lit_request_irq(irq, handler, flags, name, dev_id)
#define free_irq(irq, dev_id)	ict_lit_free_irq(irq, dev_id)

#endif /* ICT_COMPAT2002_H */
