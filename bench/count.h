/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore_bench - the regions that the counting plugin counts (private to
 * this module; docs/benchmarks.md, "Counting instead of timing").
 *
 * Each counted region is a call bracketed by IC_COUNT_BEGIN()/END() of a
 * tag of its own: 32 tags per regime from IC_COUNT_LADDER_FIRST (nolock
 * 16..47, biglock 48..79), so that the plugin keeps the regimes' samples
 * apart in a boot that loads both. A marker's tag is an assembler constant,
 * so the regime picks one of two copies of the bracket, never a computed
 * tag; the code between the markers is one out-of-line function that both
 * copies call.
 */
#ifndef ICB_COUNT_H
#define ICB_COUNT_H

#include <linux/compiler.h>
#include <linux/types.h>

#include <irqcore_count.h>

#include "harness.h"

/*
 * The parts of one regime's 32 tags. The ladder's rungs come first, in the
 * order of enum icb_case (main.c); the host learns every tag's name and
 * calls per sample from the "count: region" lines, not from this list.
 */
enum icb_part {
	ICB_PART_LADDER = 0,		/* + enum icb_case, up to 7 */
	ICB_PART_CLI_STI = 8,
	ICB_PART_SPIN_IRQSAVE = 9,
	ICB_PART_SYNC_IDLE = 10,
	ICB_PART_RAISE_SEND = 11,
	ICB_PART_XFER_K1 = 16,
	ICB_PART_XFER_K2 = 17,
	ICB_PART_XFER_K1_HOLDER = 18,
	ICB_PART_XFER_K2_HOLDER = 19,
	/* countscale.c: each op with nothing to wait for, then under load */
	ICB_PART_SC_EXCL_IDLE = 20,
	ICB_PART_SC_EXCL_LOAD = 21,
	ICB_PART_SC_SYNC_IDLE = 22,
	ICB_PART_SC_SYNC_LOAD = 23,
	ICB_PART_SC_DISABLE_IDLE = 24,
	ICB_PART_SC_DISABLE_LOAD = 25,
	ICB_PART_SC_DISPATCH_IDLE = 26,
	ICB_PART_SC_DISPATCH_LOAD = 27,
	ICB_PART_SC_DISPATCH_FREE = 28,
	ICB_PART_SC_DISPATCH_HOLD = 29,
	ICB_NR_PARTS = 32,
};

#define ICB_TAG(regime, part)	(IC_COUNT_LADDER_FIRST + ICB_NR_PARTS * (regime) + (part))

/* Tags 16..79: the two regimes' parts lie inside the ladder's range. */
static_assert(ICB_TAG(1, ICB_NR_PARTS - 1) <= IC_COUNT_LADDER_LAST);

/* One sample of @tag: the call of @fn(@arg) between the markers. */
static __always_inline int icb_count_call(const unsigned int tag, int (*fn)(const void *arg),
					  const void *arg)
{
	int ret;

	IC_COUNT_BEGIN(tag);
	ret = fn(arg);
	IC_COUNT_END(tag);
	return ret;
}

/**
 * icb_counted() - one counted call, under the tag of this load's regime.
 * @regime: 0 nolock, 1 biglock (icb_count_regime()).
 * @part: a compile-time enum icb_part (or ICB_PART_LADDER + a rung).
 * @fn: the region: a function outside this header, the same for both tags.
 * @arg: its argument.
 *
 * Context: the caller keeps the CPU from changing until it returns
 * (interrupts or preemption off): a sample belongs to the CPU of its BEGIN.
 * Return: what @fn returned.
 */
static __always_inline int icb_counted(int regime, const unsigned int part,
				       int (*fn)(const void *arg), const void *arg)
{
	if (regime)
		return icb_count_call(ICB_TAG(1, part), fn, arg);
	return icb_count_call(ICB_TAG(0, part), fn, arg);
}

int icb_count_regime(void);
void icb_count_region(unsigned int part, const char *name, unsigned int calls,
		      unsigned int samples, unsigned int cpus);
void icb_count_text(void);
int icb_count_init(struct icb_target *target);
void icb_count_exit(void);
unsigned int icb_count_figures(void);
void icb_count_run(struct icb_target *target, unsigned int rounds, unsigned int calls,
		   void (*report)(const char *name, bool ok, const char *skip));
unsigned int icb_countscale_figures(void);
void icb_countscale_run(struct icb_target *target, unsigned int rounds, unsigned int calls,
			void (*report)(const char *name, bool ok, const char *skip));

#endif /* ICB_COUNT_H */
