/* SPDX-License-Identifier: GPL-2.0 */
/* irqcore_bench - interrupts per second, each CPU its own line (private). */
#ifndef ICB_THROUGHPUT_H
#define ICB_THROUGHPUT_H

#include <linux/types.h>

/*
 * The three figures of each k: the control (each self-IPI does private
 * increments instead of dispatching), irqcore free, irqcore with a holder.
 */
enum icb_tp_mode {
	ICB_TP_CONTROL,
	ICB_TP_FREE,
	ICB_TP_HOLDER,
};

unsigned int icb_throughput_figures(void);
long icb_throughput(unsigned int ms,
		    void (*report)(unsigned int k, enum icb_tp_mode mode, long per_s, u64 duty));

#endif /* ICB_THROUGHPUT_H */
