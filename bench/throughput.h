/* SPDX-License-Identifier: GPL-2.0 */
/* irqcore_bench - interrupts per second, each CPU its own line (private). */
#ifndef ICB_THROUGHPUT_H
#define ICB_THROUGHPUT_H

#include <linux/types.h>

unsigned int icb_throughput_figures(void);
long icb_throughput(unsigned int ms,
		    void (*report)(unsigned int k, bool holder, long per_s, u64 duty));

#endif /* ICB_THROUGHPUT_H */
