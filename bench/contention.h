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
 * @big: the regime is biglock.
 * @related: the handler takes the holder's driver lock.
 * @in_section: raises made inside the holder's section (counted).
 * @waited: of those, raises whose handler ran only after it ended.
 * @expected: irqcore_holdshare.h's E for @in_section under nolock.
 * @bound: its bound (E + 3 sqrt(V) + 3).
 * @capped: more raises inside the section than room for their latencies.
 * @held_ns: the sections' mean length by the guest's clock.
 * @duty_pm: the time inside sections, per mille of the figure's.
 * @spins: dispatches whose irq_enter() spun on the global lock (all CPUs;
 *	only this figure's line dispatches meanwhile).
 * @turns: turns of those spins (spin iterations, not instructions).
 * @handled: handler runs (dispatches that ran the handler).
 * @p50_ns: median latency from a raise itself to its handler.
 * @p99_ns: its 99th percentile.
 * @max_ns: the longest.
 * @handled_per_s: handler runs per second.
 * @samples: raises, each one latency measured.
 * @late: periods that fell due while the busy CPU could not take the
 *	timer (hrtimer_forward_now() skipped them): not raised, not timed.
 * @holds: sections the holder held.
 * @extended_ms: how long the figure ran on past hold_ms for raises inside
 *	the section (contention.c, icb_c_hold()).
 * @must_tell: H is long enough that the figure must decide (it ran on).
 * @hist: @samples in the buckets of icb_c_bucket(), for the host to pool
 *	the repetitions (one load's p99 rests on a handful of samples).
 */
struct icb_c_result {
	bool big;
	bool related;
	unsigned long in_section;
	unsigned long waited;
	unsigned int expected;
	unsigned int bound;
	bool capped;
	u64 held_ns;
	u64 duty_pm;
	unsigned long spins;
	unsigned long turns;
	unsigned long handled;
	u64 p50_ns;
	u64 p99_ns;
	u64 max_ns;
	u64 handled_per_s;
	unsigned long samples;
	unsigned long late;
	unsigned long holds;
	unsigned int extended_ms;
	bool must_tell;
	const u32 *hist;
};

long icb_contention(struct icb_target *t, unsigned int hold_ms,
		    void (*report)(const char *name, int err, const struct icb_c_result *res));
unsigned int icb_contention_cases(void);
bool icb_c_share_check(const char *name, const struct icb_c_result *res, const char **skip);

#endif /* ICB_CONTENTION_H */
