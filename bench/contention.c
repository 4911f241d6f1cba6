// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore_bench - what a critical section on one CPU does to interrupts on
 * another: the cost of the big IRQ lock that the article names.
 *
 * The measuring CPU holds a critical section of H microseconds, then stays
 * out of it for H (50 % duty), for hold_ms per figure: under biglock with
 * ic_cli()/ic_sti() (2.5.27's idiom), under nolock with
 * raw_spin_lock_irqsave() on a driver lock (the seed's conversion).
 * Meanwhile a hard hrtimer on the busy CPU raises a line aimed at that CPU
 * 2000 times a second on average, each gap drawn uniformly from 250..750
 * us, and its handler is either *unrelated* (touches nothing shared) or
 * *related* (takes the same driver lock). The gaps are random so that each
 * raise falls at a random moment of the holder's cycle: with a fixed period
 * the raises locked onto one phase of it for long stretches, and nolock's
 * unrelated waited count, whose bound assumes a uniform moment, went above
 * the bound at H = 100 us (72 of 146 against 70).
 *
 * The figures lead with counts of events, which the host's timing cannot
 * blur (irqcore_holdshare.h): per raise, whether it landed inside a
 * section (the holder's sequence was odd when the raiser read it, just
 * before ic_raise()) and whether its handler ran only after that section
 * ended (the handler, once it may do its work - after the driver lock
 * when related - read another value); and the turns the busy CPU's
 * irq_enter() spun on the global lock (ic_cli_stats()), per dispatch.
 * What each regime predicts, checked in the figure's _share case:
 *
 *   biglock, either handler   every raise inside a section waits
 *                             (irq_enter() spins until sti())
 *   nolock, related           every raise inside a section waits (the
 *                             handler spins on the driver lock)
 *   nolock, unrelated         only those whose own latency outlasted the
 *                             rest of the section: at most the bound of
 *                             irqcore_holdshare.h (a skip where that bound
 *                             allows them all, i.e. H below the latency)
 *
 * Beside the counts, the times: from each raise itself (local_clock() on
 * the busy CPU just before ic_raise()) to the handler that took it, p50,
 * p99 and max. They were measured from the timer's scheduled expiry,
 * which charged the raiser's own lateness - the host's - to the handler:
 * under a loaded host every figure became milliseconds. Under biglock the
 * busy CPU spins in irq_enter() with interrupts off until sti(), so the
 * raiser cannot fire meanwhile: hrtimer_forward_now() skips the periods
 * that fell due, which are counted as late, not timed (the count of
 * waited raises is the figure that shows the stall). At the end the
 * raises plus the late periods must equal the periods the timer's expiry
 * moved over, every raise must have been taken, and the line's accounting
 * must agree with the raiser's and the handler's own counts; the expiry
 * must have moved by the sum of the gaps it was forwarded by.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cache.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include <irqcore.h>
#include <irqcore_holdshare.h>
#include <irqcore_ktap.h>

#include "contention.h"
#include "harness.h"

#define ICB_C_LINE	22
#define ICB_C_RATE	2000	/* raises per second */
/*
 * Raises the handler has not taken yet, each with its own time and the
 * holder's sequence: the raiser and the handler run on one CPU, so more
 * than one is pending only if the timer fired twice before the dispatch;
 * one past this fails the figure (@overflow).
 */
#define ICB_C_RING	16

static const unsigned int icb_holds_us[] = { 1, 10, 100, 1000 };

/*
 * A figure with H of ICB_C_TELL_US or more must decide: one that has fewer
 * than ICB_C_DECIDE raises inside the section when hold_ms is up runs on
 * until it has them, ICB_C_EXTEND_MS more at most. A loaded host can keep
 * the holder's or the raiser's vCPU off its cores for most of a 100 ms
 * smoke figure: the holder then found hold_ms over before its first section
 * (none held), or the few raises all fell outside, and the figure skipped
 * ("no raise fell inside the holder's section", allowed only at H = 1).
 * ICB_C_DECIDE raises inside are enough for the nolock bound to tell a
 * holder that every raise waited for (irqcore_holdshare.h: of 32 such
 * raises, about 16 wait by chance, and the bound allows about 27). H = 1 us
 * is below the dispatch's
 * latency under TCG and may have none inside on a quiet host: it never
 * runs on.
 */
#define ICB_C_TELL_US	10
#define ICB_C_DECIDE	32
#define ICB_C_EXTEND_MS	2000

/**
 * struct icb_c_holder - the measuring CPU's critical section.
 * @seq: odd inside the section, even outside (irqcore_holdshare.h); read
 *	by the raiser and by either handler, written by the holder only.
 * @us: H.
 * @holds: sections held in this figure.
 * @held_ns: their total length by local_clock(): udelay(H) under TCG is
 *	not H us of the guest's clock, and the bound needs what it was.
 */
struct icb_c_holder {
	unsigned int seq;
	unsigned int us;
	unsigned long holds;
	u64 held_ns;
};

/**
 * struct icb_cont - the state of one contention figure.
 * @lock: the driver lock (nolock's holder and the related handler), on a
 *	cache line of its own: the unrelated handler must not read a line
 *	that the holder writes, but for the sequence it counts by.
 * @hold: the holder's section, on a line of its own.
 * @related: the handler takes @lock.
 * @cpu: the busy CPU, where the raiser and the handler both run.
 * @timer: the raiser, on the busy CPU.
 * @period: its mean gap; each gap is drawn from [@period / 2, 3 @period / 2).
 * @rnd: the gaps' xorshift state (seeded per figure; no kernel API that
 *	differs between the kernels this builds for).
 * @first_expiry: the timer's first scheduled expiry.
 * @periods: the gaps the timer's expiry moved over (raises and late ones).
 * @moved_ns: their total length: the expiry must have moved by it.
 * @raise_ns: local_clock() just before each pending raise.
 * @raise_seq: the holder's sequence just before it.
 * @first: the ring's oldest pending raise.
 * @pending: raises made that the handler has not taken.
 * @overflow: raises that found the ring full (must stay 0).
 * @raises: the raiser's runs (its ic_raise() calls).
 * @late: periods that hrtimer_forward_now() skipped (no raise, no sample).
 * @served: raises the handler took (each one a sample).
 * @in_section: of those, raises made inside a section.
 * @waited: of those, raises whose handler ran only after it ended.
 * @handled: handler runs.
 * @lat_ns: latencies, up to @cap of them (the rest are in @hist only).
 * @sect_ns: the latencies of the raises inside a section, up to @cap.
 * @cap: room in @lat_ns and @sect_ns: three times the mean gaps of a figure.
 * @n: latencies recorded.
 * @n_sect: latencies recorded in @sect_ns.
 * @hist: every latency, in icb_c_bucket()'s buckets.
 * @wrong: handler runs outside hardirq or off @cpu.
 * @extended_ms: how long the figure ran on past hold_ms to decide.
 *
 * The raiser and the handler run on one CPU with interrupts off (a hard
 * hrtimer, an SA_INTERRUPT handler), never both at once: they share the
 * fields after @cpu without a lock; the measuring CPU reads them once the
 * timer is cancelled and the line is quiet.
 */
struct icb_cont {
	raw_spinlock_t lock ____cacheline_aligned_in_smp;	/* the driver lock */
	struct icb_c_holder hold ____cacheline_aligned_in_smp;
	bool related ____cacheline_aligned_in_smp;
	int cpu;
	struct hrtimer timer;
	ktime_t period;
	u32 rnd;
	ktime_t first_expiry;
	u64 periods;
	u64 moved_ns;
	u64 raise_ns[ICB_C_RING];
	unsigned int raise_seq[ICB_C_RING];
	unsigned int first;
	unsigned int pending;
	unsigned long overflow;
	unsigned long raises;
	unsigned long late;
	unsigned long served;
	unsigned long in_section;
	unsigned long waited;
	unsigned long handled;
	u64 *lat_ns;
	u64 *sect_ns;
	unsigned int n;
	unsigned int n_sect;
	unsigned int cap;
	u32 hist[ICB_C_HIST];
	unsigned long wrong;
	unsigned int extended_ms;
};

static struct icb_cont icb_c;

/* The histogram bucket of @ns: eight to an octave (contention.h). */
static unsigned int icb_c_bucket(u64 ns)
{
	unsigned int e, b;

	if (ns < 8)
		return ns;
	e = ilog2(ns);			/* ns is in [2^e, 2^(e+1)) */
	b = 8 * (e - 2) + ((ns >> (e - 3)) & 7);
	return min(b, ICB_C_HIST - 1U);
}

/* The next gap: uniform in [period / 2, 3 period / 2) (xorshift32). */
static u64 icb_c_gap(void)
{
	u64 p = ktime_to_ns(icb_c.period);
	u32 x = icb_c.rnd;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	icb_c.rnd = x;
	return p / 2 + mul_u64_u32_shr(p, x, 32);
}

static enum hrtimer_restart icb_c_raiser(struct hrtimer *t)
{
	u64 gap = icb_c_gap();
	/* This gap; the ones that fell due while the CPU was stuck are late. */
	u64 n = hrtimer_forward_now(t, ns_to_ktime(gap));
	unsigned int slot;

	icb_c.periods += n;
	icb_c.moved_ns += n * gap;
	icb_c.late += n - 1;
	icb_c.raises++;
	if (icb_c.pending == ICB_C_RING) {
		icb_c.overflow++;
	} else {
		slot = (icb_c.first + icb_c.pending++) % ICB_C_RING;
		/*
		 * The clock before the sequence: a host pause between the
		 * two then lengthens this raise's latency (its share of the
		 * bound grows with it) instead of ending the section unseen
		 * before a short latency starts.
		 */
		icb_c.raise_ns[slot] = local_clock();
		icb_c.raise_seq[slot] = ic_hold_seen(&icb_c.hold.seq);
	}
	ic_raise(ICB_C_LINE);
	return HRTIMER_RESTART;
}

static void icb_c_handler(unsigned int irq, void *dev_id)
{
	unsigned int i, slot, seen;
	unsigned long flags;
	u64 now, lat;

	if (icb_c.related) {
		raw_spin_lock_irqsave(&icb_c.lock, flags);
		raw_spin_unlock_irqrestore(&icb_c.lock, flags);
	}
	/* Where the handler can do its work: after irq_enter(), and the lock. */
	seen = ic_hold_seen(&icb_c.hold.seq);
	now = local_clock();
	for (i = 0; i < icb_c.pending; i++) {
		slot = (icb_c.first + i) % ICB_C_RING;
		lat = now - icb_c.raise_ns[slot];
		if (icb_c.n < icb_c.cap)
			icb_c.lat_ns[icb_c.n++] = lat;
		icb_c.hist[icb_c_bucket(lat)]++;
		if (icb_c.raise_seq[slot] & 1) {
			/* Read by the holder, to know when the figure may end. */
			WRITE_ONCE(icb_c.in_section, icb_c.in_section + 1);
			icb_c.waited += ic_hold_waited(icb_c.raise_seq[slot], seen);
			if (icb_c.n_sect < icb_c.cap)
				icb_c.sect_ns[icb_c.n_sect++] = lat;
		}
	}
	icb_c.served += icb_c.pending;
	icb_c.first = (icb_c.first + icb_c.pending) % ICB_C_RING;
	icb_c.pending = 0;
	icb_c.handled++;
	if (!in_hardirq() || raw_smp_processor_id() != icb_c.cpu)
		icb_c.wrong++;
}

static void icb_c_arm(void *unused)
{
	hrtimer_start(&icb_c.timer, icb_c.period, HRTIMER_MODE_REL_PINNED_HARD);
	icb_c.first_expiry = hrtimer_get_expires(&icb_c.timer);
}

/* The section's body: the sequence odd for its length, which is timed. */
static void icb_c_section(void *arg)
{
	struct icb_c_holder *h = arg;

	h->held_ns += ic_hold_busy(&h->seq, h->us);
	h->holds++;
}

/*
 * Hold the section for @us, then stay out for @us, for @hold_ms; then, for
 * H of ICB_C_TELL_US or more, on until ICB_C_DECIDE raises fell inside the
 * section, ICB_C_EXTEND_MS more at most (see there). The count is the
 * handler's, read while it runs on the busy CPU: it only says when to end.
 * Return: how long it ran on past @hold_ms, in ms.
 */
static unsigned int icb_c_hold(unsigned int us, unsigned int hold_ms, bool big)
{
	unsigned long end = jiffies + msecs_to_jiffies(hold_ms);
	unsigned long last = end + msecs_to_jiffies(ICB_C_EXTEND_MS);
	bool ran_on = false;

	icb_c.hold.us = us;
	for (;;) {
		if (!time_before(jiffies, end)) {
			if (us < ICB_C_TELL_US || READ_ONCE(icb_c.in_section) >= ICB_C_DECIDE ||
			    !time_before(jiffies, last))
				break;
			ran_on = true;
		}
		ic_hold_section(big, &icb_c.lock, icb_c_section, &icb_c.hold);
		udelay(us);
		cond_resched();
	}
	return ran_on ? jiffies_to_msecs(jiffies - end) : 0;
}

/*
 * Wait (up to a second) for the last raise to reach its handler: the
 * timer is cancelled, but its last ic_raise() may still be in flight.
 */
static bool icb_c_quiet(struct ic_line_stats *st)
{
	unsigned long end = jiffies + HZ;

	for (;;) {
		ic_synchronize_irq(ICB_C_LINE);
		if (ic_line_stats(ICB_C_LINE, st))
			return false;
		/* The handler's runs ended before ic_synchronize_irq() returned. */
		if (!st->inflight && !st->latched && !READ_ONCE(icb_c.pending))
			return true;
		if (time_after(jiffies, end))
			return false;
		usleep_range(100, 200);
	}
}

/*
 * The timer's expiry moved by the gaps it was forwarded by, every gap it
 * moved over was a raise or a late one, the handler took every raise, and
 * the line agrees with the raiser's and the handler's counts.
 */
static bool icb_c_accounted(const struct ic_line_stats *before, const struct ic_line_stats *st)
{
	u64 moved = ktime_to_ns(ktime_sub(hrtimer_get_expires(&icb_c.timer), icb_c.first_expiry));
	u64 periods = icb_c.periods;
	unsigned long raised = st->raised - before->raised;
	unsigned long handled = (st->handled - st->unhandled) -
				(before->handled - before->unhandled);
	unsigned long merged = st->merged - before->merged;
	bool ok;

	ok = moved == icb_c.moved_ns && icb_c.raises + icb_c.late == periods &&
	     icb_c.served == icb_c.raises &&
	     !icb_c.overflow && raised == icb_c.raises && handled == icb_c.handled &&
	     raised == handled + merged && ic_line_stats_balance(st) && !icb_c.wrong;
	if (!ok)
		pr_info("contention: expiry moved %llu ns for %llu ns of gaps; %llu gaps due, %lu raises and %lu late; %lu samples taken (%lu past the ring); raised %lu; handled %lu, %lu handler runs (%lu outside hardirq or off CPU%d); merged %lu\n",
			moved, icb_c.moved_ns, periods, icb_c.raises, icb_c.late, icb_c.served,
			icb_c.overflow, raised,
			handled, icb_c.handled, icb_c.wrong, icb_c.cpu, merged);
	return ok;
}

/* One figure: hold @us, handler related or not. Return: 0 or -errno. */
static int icb_c_figure(struct icb_target *t, unsigned int us, bool related,
			unsigned int hold_ms, struct icb_c_result *res)
{
	bool big = !strcmp(ic_regime_name(), "biglock");
	struct ic_line_stats before, st;
	struct ic_cli_stats cs0, cs;
	struct ic_hold_share share = {};
	u64 t0, elapsed, sect_ns;
	unsigned int i;

	if (ic_line_stats(ICB_C_LINE, &before))
		return -EINVAL;
	icb_c.related = related;
	icb_c.cpu = t->cpu;
	icb_c.n = 0;
	icb_c.n_sect = 0;
	icb_c.first = 0;
	icb_c.pending = 0;
	icb_c.overflow = 0;
	icb_c.periods = 0;
	icb_c.moved_ns = 0;
	icb_c.rnd = (u32)ktime_get_ns() | 1;
	icb_c.raises = 0;
	icb_c.late = 0;
	icb_c.served = 0;
	icb_c.in_section = 0;
	icb_c.waited = 0;
	icb_c.handled = 0;
	icb_c.wrong = 0;
	icb_c.extended_ms = 0;
	icb_c.hold.holds = 0;
	icb_c.hold.held_ns = 0;
	memset(icb_c.hist, 0, sizeof(icb_c.hist));
	ic_cli_stats(&cs0);
	t0 = ktime_get_ns();
	smp_call_function_single(t->cpu, icb_c_arm, NULL, 1);
	icb_c.extended_ms = icb_c_hold(us, hold_ms, big);
	hrtimer_cancel(&icb_c.timer);
	elapsed = ktime_get_ns() - t0;
	if (!icb_c_quiet(&st)) {
		pr_info("contention: line %d did not go quiet: %lu in flight, %u pending\n",
			ICB_C_LINE, st.inflight, READ_ONCE(icb_c.pending));
		return -ETIMEDOUT;
	}
	ic_cli_stats(&cs);
	if (!icb_c_accounted(&before, &st))
		return -EBADMSG;
	if (!icb_c.n)
		return -ENODATA;
	/* The sections' mean length: what a raise inside one had left of it. */
	sect_ns = icb_c.hold.holds ? div_u64(icb_c.hold.held_ns, icb_c.hold.holds) : 0;
	for (i = 0; i < icb_c.n_sect; i++)
		ic_hold_share_add(&share, icb_c.sect_ns[i], sect_ns);
	res->in_section = icb_c.in_section;
	res->waited = icb_c.waited;
	res->expected = ic_hold_share_expected(&share);
	res->bound = ic_hold_share_bound(&share);
	res->held_ns = sect_ns;
	res->duty_pm = div64_u64(icb_c.hold.held_ns * 1000, max(elapsed, 1ULL));
	res->spins = cs.enter_spins - cs0.enter_spins;
	res->turns = cs.enter_turns - cs0.enter_turns;
	res->handled = icb_c.handled;
	icb_sort_u64(icb_c.lat_ns, icb_c.n);
	res->p50_ns = icb_c.lat_ns[icb_c.n / 2];
	res->p99_ns = icb_c.lat_ns[(icb_c.n * 99) / 100];
	res->max_ns = icb_c.lat_ns[icb_c.n - 1];
	res->handled_per_s = div64_u64((u64)icb_c.handled * NSEC_PER_SEC, max(elapsed, 1ULL));
	res->samples = icb_c.served;
	res->capped = icb_c.n_sect < icb_c.in_section;
	res->late = icb_c.late;
	res->holds = icb_c.hold.holds;
	res->extended_ms = icb_c.extended_ms;
	res->must_tell = us >= ICB_C_TELL_US;
	res->hist = icb_c.hist;
	return 0;
}

/**
 * icb_contention() - every contention figure of this load.
 * @t: the busy target CPU (another than the caller's).
 * @hold_ms: how long each figure lasts.
 * @report: called with each figure's name and result, or with an error.
 *
 * Context: process, bound to a CPU other than @t's; sleeps.
 * Return: handler runs outside hardirq or off @t's CPU (0 unless
 * something is wrong; the figure they fell in fails too), or
 * a negative errno if the line or the buffer could not be set up.
 */
long icb_contention(struct icb_target *t, unsigned int hold_ms,
		    void (*report)(const char *name, int err, const struct icb_c_result *res))
{
	struct icb_c_result res;
	unsigned long wrong = 0;
	char name[32];
	unsigned int i;
	int related, err;

	/* Gaps of half the mean at the shortest: at most twice the mean's raises. */
	icb_c.cap = 3 * hold_ms * ICB_C_RATE / MSEC_PER_SEC + 64;
	icb_c.lat_ns = kvcalloc(icb_c.cap, sizeof(u64), GFP_KERNEL);
	icb_c.sect_ns = kvcalloc(icb_c.cap, sizeof(u64), GFP_KERNEL);
	if (!icb_c.lat_ns || !icb_c.sect_ns) {
		kvfree(icb_c.lat_ns);
		kvfree(icb_c.sect_ns);
		return -ENOMEM;
	}
	raw_spin_lock_init(&icb_c.lock);
	icb_c.period = ns_to_ktime(NSEC_PER_SEC / ICB_C_RATE);
	hrtimer_init(&icb_c.timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	icb_c.timer.function = icb_c_raiser;
	err = ic_request_irq(ICB_C_LINE, icb_c_handler, IC_SA_INTERRUPT, "bench-cont", &icb_c);
	if (err) {
		kvfree(icb_c.lat_ns);
		kvfree(icb_c.sect_ns);
		return err;
	}
	ic_set_affinity(ICB_C_LINE, t->cpu);
	for (i = 0; i < ARRAY_SIZE(icb_holds_us); i++) {
		for (related = 0; related < 2; related++) {
			snprintf(name, sizeof(name), "%s_h%u", related ? "related" : "unrelated",
				 icb_holds_us[i]);
			err = icb_c_figure(t, icb_holds_us[i], related, hold_ms, &res);
			res.big = !strcmp(ic_regime_name(), "biglock");
			res.related = related;
			wrong += icb_c.wrong;
			report(name, err, &res);
		}
	}
	ic_set_affinity(ICB_C_LINE, -1);
	ic_free_irq(ICB_C_LINE, &icb_c);
	kvfree(icb_c.lat_ns);
	kvfree(icb_c.sect_ns);
	return wrong;
}

/**
 * icb_contention_cases() - how many KTAP cases icb_contention()'s report
 * makes: each figure's own case and its _share case.
 *
 * Context: any.
 * Return: the count, for the KTAP plan.
 */
unsigned int icb_contention_cases(void)
{
	return 2 * 2 * ARRAY_SIZE(icb_holds_us);
}

/* The skip reason of a figure the host starved (icb_c_share_check()). */
static char icb_c_stall[128];

/**
 * icb_c_share_check() - the counted shares against the regime's prediction.
 * @name: the figure's case name, for the diagnostics.
 * @res: the figure.
 * @skip: set to a skip's reason when the figure cannot tell, else NULL.
 *
 * Under biglock, and for the related handler in either regime, every raise
 * inside a section waits; under nolock an unrelated one waits only when
 * its own latency outlasts the rest of the section: at most the bound of
 * irqcore_holdshare.h. With no raise inside a section (H = 1 us), or a
 * bound that allows every one of them to wait (H shorter than the
 * dispatch's own latency), the figure cannot tell: a skip, with its limit
 * in tests/expected-skips. A figure of H >= ICB_C_TELL_US ran on until it
 * had raises inside (icb_c_hold()); none even then is a host stall (a
 * skip) if the raises or the sections were few, else a failure.
 *
 * Context: process.
 * Return: false if the shares contradict the regime.
 */
bool icb_c_share_check(const char *name, const struct icb_c_result *res, const char **skip)
{
	bool all = res->big || res->related;

	*skip = NULL;
	ic_ktap_diag("%s: %lu of %lu raises inside the section, %lu of them waited (%s: %s)",
		     name, res->in_section, res->samples, res->waited,
		     res->big ? "biglock" : "nolock", all ? "all wait" : "at most the bound");
	ic_ktap_diag("%s: irq_enter() spun in %lu of %lu dispatches, %lu turns", name,
		     res->spins, res->handled, res->turns);
	if (res->capped) {
		ic_ktap_diag("%s: more raises inside the section than room for their latencies",
			     name);
		return false;
	}
	/*
	 * irq_enter() spins on the global lock and on nothing else: never
	 * under nolock; under biglock some dispatch of a figure whose
	 * sections last 50 us or more finds the lock held (about half of
	 * them at H = 100 us, a quarter at 1000 us, in the three-boot run)
	 * and counts its turns.
	 */
	if (!res->big && (res->spins || res->turns)) {
		ic_ktap_diag("%s: irq_enter() spun under nolock, which has no global lock", name);
		return false;
	}
	if (res->big && res->in_section && res->held_ns >= 50 * NSEC_PER_USEC &&
	    (!res->spins || !res->turns)) {
		ic_ktap_diag("%s: biglock: %lu spins and %lu turns while sections were held",
			     name, res->spins, res->turns);
		return false;
	}
	if (res->extended_ms)
		ic_ktap_diag("%s: ran on %u ms past hold_ms for raises inside the section", name,
			     res->extended_ms);
	if (!res->in_section && !res->must_tell) {
		*skip = "no raise fell inside the holder's section";
		return true;
	}
	if (!res->in_section) {
		/*
		 * Run on to ICB_C_EXTEND_MS past hold_ms with none inside. With
		 * ICB_C_DECIDE raises and as many sections of a 50 % duty, none
		 * inside is no chance (2^-32 if they fell independently; a
		 * vCPU preempted inside a section leaves the sequence odd, so
		 * raises then count inside): the raiser did not see the
		 * section. With fewer, a CPU of the two hardly ran: a host stall,
		 * allowed once a boot (tests/expected-skips).
		 */
		if (res->samples >= ICB_C_DECIDE && res->holds >= ICB_C_DECIDE) {
			ic_ktap_diag("%s: %lu raises, %lu sections, none inside: section unseen",
				     name, res->samples, res->holds);
			return false;
		}
		snprintf(icb_c_stall, sizeof(icb_c_stall),
			 "host stall: no raise inside the section in hold_ms and %u ms more: %lu raises (%lu late), %lu sections",
			 res->extended_ms, res->samples, res->late, res->holds);
		*skip = icb_c_stall;
		return true;
	}
	if (all) {
		if (res->waited != res->in_section)
			ic_ktap_diag("%s: %lu raises inside the section ran before it ended",
				     name, res->in_section - res->waited);
		return res->waited == res->in_section;
	}
	ic_ktap_diag("%s: nolock: %lu waited, %u allowed (expected %u)%s", name, res->waited,
		     res->bound, res->expected,
		     res->waited > res->bound ? ": they waited for the holder" : "");
	if (res->waited > res->bound)
		return false;
	*skip = ic_hold_share_skip(res->bound, res->in_section);
	return true;
}
