/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore_bench - the contention figures (private to this module).
 */
#ifndef ICB_CONTENTION_H
#define ICB_CONTENTION_H

#include <linux/types.h>

struct icb_target;

/**
 * struct icb_c_result - one contention figure.
 * @p50_ns: median raise-to-handler latency.
 * @p99_ns: its 99th percentile.
 * @max_ns: the longest.
 * @handled_per_s: handler runs per second.
 */
struct icb_c_result {
	u64 p50_ns;
	u64 p99_ns;
	u64 max_ns;
	u64 handled_per_s;
};

long icb_contention(struct icb_target *t, unsigned int hold_ms,
		    void (*report)(const char *name, int err, const struct icb_c_result *res));
unsigned int icb_contention_figures(void);

#endif /* ICB_CONTENTION_H */
