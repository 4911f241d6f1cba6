/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The share of interrupts a holder on another CPU may delay under nolock
 * (devices/latency.c, devices/eepro100_rtt.c, bench/contention.c): the
 * bound the "waited" count is checked against, and the holder's sequence
 * that tells, per raise, whether it landed inside a section and whether
 * its handler ran only after that section ended. These are counts of
 * events: the host's timing cannot blur them, only the times beside them.
 *
 * A raise made at a random moment of a section of mean length S, with a
 * latency L of its own (raise to handler) that the section does not
 * change, is answered after the section ends when L is longer than what
 * was left of it. The moment is uniform within the section it falls in,
 * and a long section is hit in proportion to its length, so the chance
 * is E[min(L, s)] / E[s] <= min(L, S) / S. Summed over the raises made
 * inside the section, with the latency each was measured to have, this
 * gives the count nolock expects at most: mean E, variance at most
 * V = sum p (1 - p). The check allows E + 3 sqrt(V) + 3 (a normal tail of
 * three deviations, and three raises for the small counts it fits
 * badly). Under 2.5.27's lock, or a nolock that waits for the holder all
 * the same, every raise inside the section waits, and its latency grows
 * by the rest of the section: E is then about half the raises plus their
 * base share, and the bound is below their number once there are a few
 * dozen of them, so such a run fails the check.
 */
#ifndef IRQCORE_HOLDSHARE_H
#define IRQCORE_HOLDSHARE_H

#include <linux/delay.h>
#include <linux/math.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/types.h>
#include <linux/sched/clock.h>
#include <asm/barrier.h>

/*
 * The holder's sequence: odd inside the section, even outside. The holder
 * calls ic_hold_mark() once the section is held (odd) and once more before
 * it leaves it (even); the raiser reads it just before the raise, the
 * handler once it may do its work (after irq_enter(), and after the
 * driver lock if it takes one):
 *
 *   holder                        raiser           handler
 *   take the section              s0 = seen()
 *   mark()  -> odd                raise ---------> (held off, or not)
 *   ...                                            s1 = seen()
 *   mark()  -> even (release)
 *   leave the section (sti(), unlock)
 *
 * A raise with s0 odd landed inside a section; it waited if s1 != s0: a
 * handler that the section held off can only run after the second mark,
 * whose release pairs with the acquire of the lock it waited on (and
 * with seen()'s acquire), so it reads another value. One that ran during
 * the section reads s0. A handler that takes no lock (nolock's unrelated
 * one) waited for nothing, so no release orders its read: it may read a
 * stale odd value after the section ended, which only lowers the count of
 * waits, towards passing; the bound covers the raises that did wait.
 */

/**
 * ic_hold_mark() - flip the sequence: odd on entering, even before leaving.
 * @seq: the holder's sequence; written by the holder only.
 *
 * Context: the holder, inside its section (interrupts off).
 */
static inline void ic_hold_mark(unsigned int *seq)
{
	smp_store_release(seq, *seq + 1);	/* pairs with ic_hold_seen() */
}

/**
 * ic_hold_busy() - a section's body: the sequence odd for @us, busy.
 * @seq: the holder's sequence.
 * @us: how long to stay inside, in microseconds.
 *
 * Odd only once the section is held, even again before it is left: a
 * handler that the section held off can only see the even value (the
 * release here, the acquire of the lock it waited on), one that ran
 * during the section the odd one.
 *
 * Context: the holder, inside its section (interrupts off).
 * Return: how long the sequence was odd, by local_clock().
 */
static inline u64 ic_hold_busy(unsigned int *seq, unsigned int us)
{
	u64 t0, held;

	ic_hold_mark(seq);
	t0 = local_clock();
	udelay(us);
	held = local_clock() - t0;
	ic_hold_mark(seq);	/* even before the section ends */
	return held;
}

/**
 * ic_hold_seen() - read the holder's sequence.
 * @seq: the holder's sequence.
 *
 * Context: any (the raiser before its raise, the handler at its start).
 * Return: its value; odd while a section is held.
 */
static inline unsigned int ic_hold_seen(const unsigned int *seq)
{
	return smp_load_acquire(seq);	/* pairs with ic_hold_mark() */
}

/**
 * ic_hold_waited() - did a raise made inside a section wait for its end?
 * @at_raise: ic_hold_seen() just before the raise.
 * @at_handler: ic_hold_seen() when the handler could do its work.
 *
 * Context: any.
 * Return: true if the raise landed inside a section and its handler ran
 * only after that section ended.
 */
static inline bool ic_hold_waited(unsigned int at_raise, unsigned int at_handler)
{
	return (at_raise & 1) && at_handler != at_raise;
}

/**
 * struct ic_hold_share - the expected count of raises that end after the
 * section, in thousandths.
 * @e_milli: sum of p, p in thousandths.
 * @v_micro: sum of p (1 - p), in millionths.
 */
struct ic_hold_share {
	u64 e_milli;
	u64 v_micro;
};

/**
 * ic_hold_share_add() - count one raise made inside the section.
 * @s: the sums.
 * @lat_ns: its latency, raise to handler (or a longer time that
 *	contains it: that only raises the bound).
 * @sect_ns: the sections' mean length; 0 counts the raise as certain to
 *	wait.
 *
 * Context: any.
 */
static inline void ic_hold_share_add(struct ic_hold_share *s, u64 lat_ns, u64 sect_ns)
{
	u64 p = sect_ns ? div64_u64(min(lat_ns, sect_ns) * 1000, sect_ns) : 1000;

	s->e_milli += p;
	s->v_micro += p * (1000 - p);
}

/**
 * ic_hold_share_bound() - the most raises nolock may see wait.
 * @s: the sums.
 *
 * Context: any.
 * Return: E + 3 sqrt(V) + 3, rounded down (see the top of this file).
 */
static inline unsigned int ic_hold_share_bound(const struct ic_hold_share *s)
{
	return div_u64(s->e_milli + 3 * (u64)int_sqrt64(s->v_micro) + 3000, 1000);
}

/**
 * ic_hold_share_expected() - E, the expected count, in whole raises.
 * @s: the sums.
 *
 * Context: any.
 * Return: E rounded to the nearest raise.
 */
static inline unsigned int ic_hold_share_expected(const struct ic_hold_share *s)
{
	return div_u64(s->e_milli + 500, 1000);
}

/**
 * ic_hold_share_skip() - the reason a nolock case cannot tell, or NULL.
 * @bound: ic_hold_share_bound() of the raises made inside the section.
 * @in_hold: how many they were.
 *
 * A bound that allows every raise inside the section to have waited
 * cannot tell nolock from biglock: the case is then a skip (its limit in
 * tests/expected-skips), never a pass.
 *
 * Context: any.
 * Return: the skip's reason, or NULL when the check can tell.
 */
static inline const char *ic_hold_share_skip(unsigned int bound, unsigned int in_hold)
{
	return bound >= in_hold ?
	       "too few inside the section to tell: their legs allow all to wait" : NULL;
}

#endif /* IRQCORE_HOLDSHARE_H */
