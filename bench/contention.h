/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore_bench - the contention figures (private to this module).
 */
#ifndef ICB_CONTENTION_H
#define ICB_CONTENTION_H

#include <linux/types.h>

struct icb_target;

/*
 * Latency histogram buckets: eight to an octave (each 1/8 of its octave
 * wide, so within 12.5 %), from 8 ns up; latencies below 8 ns fall in the
 * buckets 0..7 one nanosecond each. 8 * 40 buckets reach past 1000 s.
 */
#define ICB_C_HIST	320

/**
 * struct icb_c_result - one contention figure.
 * @p50_ns: median latency from a raise's scheduled time to its handler.
 * @p99_ns: its 99th percentile.
 * @max_ns: the longest.
 * @handled_per_s: handler runs per second.
 * @samples: latencies measured: every raise that fell due during the
 *	figure, the ones the hrtimer skipped (@late) included.
 * @late: raises that fell due while the busy CPU could not take the
 *	timer (hrtimer_forward_now() skipped them); each has a latency too.
 * @hist: @samples in the buckets of icb_c_bucket(), for the host to pool
 *	the repetitions (one load's p99 rests on a handful of samples).
 */
struct icb_c_result {
	u64 p50_ns;
	u64 p99_ns;
	u64 max_ns;
	u64 handled_per_s;
	unsigned long samples;
	unsigned long late;
	const u32 *hist;
};

long icb_contention(struct icb_target *t, unsigned int hold_ms,
		    void (*report)(const char *name, int err, const struct icb_c_result *res));
unsigned int icb_contention_figures(void);

#endif /* ICB_CONTENTION_H */
