/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore - bounded spins: a wait that passes stall_ms says so (private).
 */
#ifndef IC_SPIN_H
#define IC_SPIN_H

#include <linux/time64.h>
#include <linux/types.h>

/**
 * struct ic_spin - one bounded wait.
 * @what: who waits ("cli", "irq_enter", "synchronize_irq"), for reports.
 * @start: when the wait was first found to last (ktime_get_ns(): it reads
 *	the clocksource, where local_clock() cannot pass the next tick while
 *	interrupts are off; and unlike the NMI-safe fast accessor it reads
 *	the timekeeper under its seqcount, which KCSAN sees as race-free).
 *	Waits never happen in NMI context, so the seqcount read is safe.
 * @last: the clock at the last look, or 0 before the first.
 * @ran: how long this CPU spent in the wait between looks: the clock's
 *	steps up to the gap; of a longer one, none in a spin and the gap in a
 *	sleeping wait (@gap_ns, spin.c).
 * @turns: turns so far; the clock is read only every 256 of them.
 * @gap_ns: 0 for a spin, whose steps between looks count when they are
 *	IC_SPIN_GAP_NS or shorter and not at all when longer. A wait that
 *	sleeps a jiffy between looks sets the jiffy plus IC_SPIN_GAP_NS
 *	(IC_SPIN_SLEEP_INIT()), and each of its steps counts, up to @gap_ns:
 *	a late wake-up may be the guest's own runqueue as well as the host,
 *	and a wait that never ends must still be reported.
 * @stalled: this wait has passed the bound.
 */
struct ic_spin {
	const char *what;
	u64 start;
	u64 last;
	u64 ran;
	u64 gap_ns;
	unsigned int turns;
	bool stalled;
};

/*
 * A step of the clock between two looks longer than this is time the
 * waiting CPU was not waiting: its vCPU was off the host, or it ran a
 * handler or another task. 256 turns take tens of microseconds, under
 * TCG and the sanitizers too; a host's time slice is milliseconds.
 */
#define IC_SPIN_GAP_NS	(2 * NSEC_PER_MSEC)

#define IC_SPIN_INIT(name)	{ .what = (name) }
/* A wait that sleeps @step_ns (a jiffy, say) between looks at the clock. */
#define IC_SPIN_SLEEP_INIT(name, step_ns) \
	{ .what = (name), .gap_ns = (step_ns) + IC_SPIN_GAP_NS }

void ic_spin_init(unsigned int stall_ms);
bool ic_spin_once(struct ic_spin *s, u64 *waited_ns);
bool ic_spin_account(struct ic_spin *s, u64 now, u64 *waited_ns);
bool ic_spin_first_report(void);
u64 ic_spin_bound_ns(void);

#endif /* IC_SPIN_H */
