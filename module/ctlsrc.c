// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore - the control plane's source lines: a line of irqcore with a
 * handler of the control plane, raised by a timer and by requests, and the
 * raise -> handler latency of every instance, as a histogram per CPU.
 *
 * The latency is measured without touching the core: the raise stamps the
 * source, the handler reads the stamp.
 *
 *   raise:    last_ns = now; first_ns = now if it was 0; ic_raise(line)
 *   handler:  t = xchg(first_ns, 0), or last_ns if that was 0;
 *             sample = now - t
 *
 * One handler run takes one sample: the oldest raise it finds waiting
 * (instances merged into a run count once, as the core counts them), or,
 * when an earlier run took that stamp while this run's raise was on its
 * way (the raise stamped, then the run started, then the raise reached
 * the controller), the latest raise, which is never earlier than the one
 * this run serves. So a line's sample count equals its handler runs. On a
 * shared line a partner's raise may start a run: there only a stamp of
 * this source's own is a sample.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/sort.h>

#include <asm/timex.h>
#include <asm/tsc.h>

#include <irqcore.h>

#include "ctl.h"
#include "devline.h"
#include "irq.h"

/*
 * The hardirq budget. A line runs its whole chain on each raise that is
 * not merged, so what a line costs a CPU is every raise of it (its
 * sources' timers, the holder's, a fire's) times one delivery: the
 * handlers' busy time and the raise's own, ic_ctl_raise_us:
 * (rate + hold + fire) x (busy + raise), in microseconds a second.
 * And while the holder holds its section, an interrupt that arrives on
 * another CPU may spin there in hardirq until the section ends (biglock's
 * cli(), a driver-lock handler): the holder's hold / period counts too.
 * Summed over every descriptor's lines, that is at most
 * IC_CTL_MAX_DUTY_PCT of one CPU, so no CPU spends more than that in the
 * control plane's hardirq, wherever the lines are aimed (and re-aimed:
 * IC_CTL_AFFINITY does not change the sum).
 */
#define IC_CTL_BUDGET_US	(USEC_PER_SEC / 100 * IC_CTL_MAX_DUTY_PCT)
/*
 * A raise's own hardirq time, besides its handlers' busy time: for a
 * source's timer or a fire's pacing, the hard hrtimer's interrupt (its
 * callback raises, or wakes the firing task); then the kick's IPI, irq
 * entry and exit, the dispatch, the handler's stamp and histogram. Every
 * allowed request can make it happen up to its rate (25000 a second for
 * a fire alone), so it is charged, ic_ctl_raise_us a raise: the larger of
 * IC_CTL_DISPATCH_US and what one raise costs on the running guest,
 * measured at load (ic_ctl_measure_raise()), and at least
 * IC_CTL_DISPATCH_US: under TCG a raise on one CPU to its handler on
 * another takes 5-9 us (docs/benchmarks.md, the round trips), the timer's
 * interrupt comes on top, and the probe measured 31 to 90 us on Debian's
 * 6.1 kernel and 348 us on the KCSAN kernel. When the probe cannot tell
 * (a host that held the vCPU, three times), the charge is a stated
 * fallback above those: IC_CTL_FALLBACK_US, or IC_CTL_FALLBACK_DEBUG_US on
 * a kernel with a sanitizer or lockdep. Until the review of issue 39 the
 * probe read local_clock(), which stands still between ticks once TCG's
 * guest marks its TSC unstable: it saw nothing in 59 loads of 90, and
 * each raise was charged 20 us, under half of what it cost.
 */
#define IC_CTL_DISPATCH_US	20
#define IC_CTL_FALLBACK_US	100
#define IC_CTL_FALLBACK_DEBUG_US	400
static u32 ic_ctl_raise_us = IC_CTL_DISPATCH_US;
/* A fire needs this much of the budget left (1% of a CPU: about 10 raises a second at 1000 us). */
#define IC_CTL_FIRE_MIN_US	(USEC_PER_SEC / 100)
/* A paced fire raises early by up to this much rather than sleep. */
#define IC_CTL_FIRE_SLACK_NS	(50 * NSEC_PER_USEC)

/**
 * struct ic_ctl_vline - what the control plane has on one line, over
 *	every descriptor.
 * @users: sources on the line; 0: not a line of the control plane.
 * @shared: made by a shared create: others may join it.
 * @busy_us: the busy times of its handlers: one run of the chain.
 * @rate_hz: its sources' timers.
 * @hold_hz: the holder's raises of it (one a period).
 * @fire_hz: the raise rates of fires running on it.
 */
struct ic_ctl_vline {
	unsigned int users;
	bool shared;
	u32 busy_us;
	u32 rate_hz;
	u32 hold_hz;
	u32 fire_hz;
};

/*
 * ic_ctl_lines_lock protects the table, the totals and the choice of a
 * line: a create picks, requests and records its line under it, so that
 * two descriptors never take the same free line. It nests inside a
 * descriptor's lock; ic_devline_lock (ic_request_irq_unbound()) and the
 * descriptor locks of irq.c nest inside it. It is held only for the
 * table's arithmetic and a request or free of one line (the longest: a
 * wait for a handler still running), never across user memory or a
 * sleep a user controls, so it is taken plainly: every wait for it is
 * bounded, and what it guards is given back on paths that cannot fail.
 */
static DEFINE_MUTEX(ic_ctl_lines_lock);
static struct ic_ctl_vline ic_ctl_lines[IC_NR_IRQS_MAX];
/* The sum of every line's cost and the holder's, in us a second. */
static u64 ic_ctl_load_us;
/* The holders' share, hold / period, in us a second (part of the load). */
static u32 ic_ctl_hold_us;
/* The timer raises of every descriptor's sources: IC_CTL_MAX_TOTAL_HZ at most. */
static u32 ic_ctl_total_hz;

/* What one raise of a line costs, in us of hardirq: a run of its chain. */
static u32 ic_ctl_run_us(const struct ic_ctl_vline *v)
{
	return v->busy_us + ic_ctl_raise_us;
}

/* What a line costs a CPU, in us of hardirq a second. */
static u64 ic_ctl_vline_cost(const struct ic_ctl_vline *v)
{
	return ((u64)v->rate_hz + v->hold_hz + v->fire_hz) * ic_ctl_run_us(v);
}

/* The load with @line as @after and the holder's share @hold_us. */
static u64 ic_ctl_load_with(unsigned int line, const struct ic_ctl_vline *after, u32 hold_us)
{
	lockdep_assert_held(&ic_ctl_lines_lock);
	return ic_ctl_load_us - ic_ctl_vline_cost(&ic_ctl_lines[line]) +
	       ic_ctl_vline_cost(after) - ic_ctl_hold_us + hold_us;
}

/* Make @line @after, and the holder's share @hold_us. */
static void ic_ctl_vline_set(unsigned int line, const struct ic_ctl_vline *after, u32 hold_us)
{
	lockdep_assert_held(&ic_ctl_lines_lock);
	ic_ctl_load_us = ic_ctl_load_with(line, after, hold_us);
	ic_ctl_hold_us = hold_us;
	ic_ctl_lines[line] = *after;
}

/* Admit @line as @after, or refuse: -EBUSY. Context: ic_ctl_lines_lock held. */
static int ic_ctl_admit(struct ic_ctl *ctl, const char *op, unsigned int line,
			const struct ic_ctl_vline *after)
{
	u64 load = ic_ctl_load_with(line, after, ic_ctl_hold_us);

	if (load <= IC_CTL_BUDGET_US)
		return 0;
	return ic_ctl_refuse(ctl, -EBUSY,
			     "%s: line %u: %u us a run x %u Hz: %llu%% of a CPU in hardirq in all; %u%% at most",
			     op, line, ic_ctl_run_us(after),
			     after->rate_hz + after->hold_hz + after->fire_hz,
			     div_u64(load * 100, USEC_PER_SEC), IC_CTL_MAX_DUTY_PCT);
}

/**
 * ic_ctl_src_raise() - raise a source's line, stamped.
 * @src: the source.
 *
 * Context: any (the timer's hardirq, a request, the holder's section).
 */
void ic_ctl_src_raise(struct ic_ctl_src *src)
{
	u64 now = ktime_get_ns();

	atomic64_set(&src->last_ns, now);
	atomic64_cmpxchg(&src->first_ns, 0, now);
	ic_raise(src->line);
}

static enum hrtimer_restart ic_ctl_src_tick(struct hrtimer *t)
{
	struct ic_ctl_src *src = container_of(t, struct ic_ctl_src, timer);

	ic_ctl_src_raise(src);
	hrtimer_forward_now(t, src->period);
	return HRTIMER_RESTART;
}

/*
 * The probe of a raise's cost (ic_ctl_measure_raise()): a period of 1 ms,
 * one raise in each, medians over 31 of them; a gap of half a period is
 * the host's, not an interrupt's.
 */
#define IC_CTL_PROBE_PERIOD_NS	NSEC_PER_MSEC
#define IC_CTL_PROBE_PERIODS	31
#define IC_CTL_PROBE_STALL_NS	(IC_CTL_PROBE_PERIOD_NS / 2)
#define IC_CTL_PROBE_STEPS	1024

/*
 * The probe's timer (one raise a period, as a source's timer raises) and
 * its scratch: one probe at a time (the load's, up to three tries).
 * @ticks: the timer's raises, written in its callback on the probe's CPU
 * and read by the loop that it interrupts there.
 */
static struct ic_ctl_probe {
	struct hrtimer timer;
	struct ic_ctl_src *src;
	unsigned long ticks;
	unsigned int raised[IC_CTL_PROBE_PERIODS];
	u64 steps[IC_CTL_PROBE_STEPS];
	u64 per[IC_CTL_PROBE_PERIODS];
	bool stalled[IC_CTL_PROBE_PERIODS];
} ic_ctl_probe;

static enum hrtimer_restart ic_ctl_probe_tick(struct hrtimer *t)
{
	struct ic_ctl_probe *p = container_of(t, struct ic_ctl_probe, timer);

	ic_ctl_src_raise(p->src);
	WRITE_ONCE(p->ticks, p->ticks + 1);
	hrtimer_forward_now(t, ns_to_ktime(IC_CTL_PROBE_PERIOD_NS));
	return HRTIMER_RESTART;
}

static int ic_ctl_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/*
 * The probe's clock: this CPU's TSC in ns. local_clock() will not do:
 * with the TSC marked unstable (TCG's guests mark it so) it is clamped to
 * a tick past its last update and stands still in between. The TSC of
 * one CPU is steady under TCG (the host's clock); the probe reads it on
 * one CPU only, preemption off. CLOCK_MONOTONIC where there is no TSC.
 */
static u64 ic_ctl_probe_now(void)
{
	if (!tsc_khz)
		return ktime_get_ns();
	return mul_u64_u32_div(get_cycles(), USEC_PER_SEC, tsc_khz);
}

/*
 * The steps of a loop reading the clock with interrupts off: what one
 * step costs when nothing interrupts it (under TCG the steps vary, the
 * emulator's own work among them). A step more than twice the 99th
 * percentile of these, at least 500 ns and at most 5 us, is an
 * interrupt's: under TCG an interrupt takes tens of us, and a grain
 * taken from a loop that the emulator slowed would hide every one.
 */
static void ic_ctl_probe_grain(struct ic_ctl_probe *p, struct ic_ctl_raise_probe *out)
{
	u64 prev, now;
	unsigned long flags;
	unsigned int i;

	local_irq_save(flags);
	prev = ic_ctl_probe_now();
	for (i = 0; i < IC_CTL_PROBE_STEPS; i++) {
		now = ic_ctl_probe_now();
		p->steps[i] = now - prev;
		prev = now;
	}
	local_irq_restore(flags);
	sort(p->steps, IC_CTL_PROBE_STEPS, sizeof(u64), ic_ctl_cmp_u64, NULL);
	out->step50 = p->steps[IC_CTL_PROBE_STEPS / 2];
	out->step99 = p->steps[IC_CTL_PROBE_STEPS / 100 * 99];
	out->grain = clamp_t(u64, 2 * out->step99, 500, 5 * NSEC_PER_USEC);
}

/*
 * Spin on this CPU, interrupts on, for IC_CTL_PROBE_PERIODS periods. A
 * clock read that comes more than @grain after the one before was kept
 * from the loop by an interrupt: the gap is that interrupt's whole time
 * on this CPU, entry to exit. Each period's gaps are summed; a period
 * with a gap of half a period is left out (the host took the vCPU away;
 * no raise of a source that does not spin costs that), and so, when
 * @raising, is one in which the timer did not raise exactly once: a host
 * that kept the emulator's timers from running left most periods without
 * a raise, and their median was 0 (two loads of three, beside a loaded
 * make check). The median of the others, or U64_MAX if fewer than half
 * are left; *@kept: how many.
 */
static u64 ic_ctl_probe_spin(struct ic_ctl_probe *p, u64 grain, bool raising,
			     unsigned int *kept)
{
	u64 start = ic_ctl_probe_now(), prev = start, now, gap;
	unsigned long ticks = READ_ONCE(p->ticks), t;
	unsigned int i, n = 0;

	memset(p->per, 0, sizeof(p->per));
	memset(p->stalled, 0, sizeof(p->stalled));
	memset(p->raised, 0, sizeof(p->raised));
	for (;;) {
		now = ic_ctl_probe_now();
		i = div64_u64(now - start, IC_CTL_PROBE_PERIOD_NS);
		if (i >= IC_CTL_PROBE_PERIODS)
			break;
		gap = now - prev;
		if (gap > IC_CTL_PROBE_STALL_NS)
			p->stalled[i] = true;
		else if (gap > grain)
			p->per[i] += gap;
		/* A raise seen here was in the gap just added to period i. */
		t = READ_ONCE(p->ticks);
		p->raised[i] += t - ticks;
		ticks = t;
		prev = now;
	}
	for (i = 0; i < IC_CTL_PROBE_PERIODS; i++)
		if (!p->stalled[i] && (!raising || p->raised[i] == 1))
			p->per[n++] = p->per[i];
	*kept = n;
	if (n < IC_CTL_PROBE_PERIODS / 2 + 1)
		return U64_MAX;
	sort(p->per, n, sizeof(u64), ic_ctl_cmp_u64, NULL);
	return p->per[n / 2];
}

/**
 * ic_ctl_measure_raise() - the hardirq time one raise of a source costs.
 * @src: a source aimed at this CPU, with no timer and nothing else
 *	raising it.
 * @out: the measurement, its parts too (for the load's line and the
 *	warning when it could not tell).
 *
 * A hard hrtimer pinned here raises @src once a millisecond, as a
 * source's timer does. What a spinning loop loses in a millisecond, less
 * what it loses without the timer (the guest's own tick and the rest), is
 * one raise's whole path on one CPU: the timer's interrupt, the raise,
 * the kick (a local one: the IPI's two ends on one CPU), irq entry and
 * exit, the dispatch and the handler with its busy time, stamp and
 * histogram. Medians, so that the milliseconds in which the host took the
 * vCPU away do not count.
 *
 * Context: process, bound to @src's CPU; spins about 65 ms with
 * preemption off.
 * Return: @out->ns: nanoseconds, or U64_MAX if the host left too few
 * milliseconds to tell; 0 when the raises did not show (a cost of
 * nothing is not one the probe saw).
 */
u64 ic_ctl_measure_raise(struct ic_ctl_src *src, struct ic_ctl_raise_probe *out)
{
	struct ic_ctl_probe *p = &ic_ctl_probe;

	*out = (struct ic_ctl_raise_probe){ .ns = U64_MAX };
	hrtimer_init(&p->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	p->timer.function = ic_ctl_probe_tick;
	p->src = src;
	preempt_disable();
	ic_ctl_probe_grain(p, out);
	out->base = ic_ctl_probe_spin(p, out->grain, false, &out->kept_base);
	/* Half a period in: each raise in the middle of a period. */
	hrtimer_start(&p->timer, ns_to_ktime(IC_CTL_PROBE_PERIOD_NS / 2),
		      HRTIMER_MODE_REL_PINNED_HARD);
	out->with = ic_ctl_probe_spin(p, out->grain, true, &out->kept_with);
	preempt_enable();
	hrtimer_cancel(&p->timer);
	if (out->base != U64_MAX && out->with != U64_MAX)
		out->ns = out->with > out->base ? out->with - out->base : 0;
	return out->ns;
}

/* The charge when the probe could not tell: a sanitizer or lockdep costs more. */
static u32 ic_ctl_fallback_us(void)
{
	if (IS_ENABLED(CONFIG_KASAN) || IS_ENABLED(CONFIG_KCSAN) || IS_ENABLED(CONFIG_LOCKDEP))
		return IC_CTL_FALLBACK_DEBUG_US;
	return IC_CTL_FALLBACK_US;
}

/**
 * ic_ctl_set_raise_cost() - charge each raise what it was measured to cost.
 * @m: ic_ctl_measure_raise() of a source that does not spin; its @ns
 *	U64_MAX if it could not tell, 0 if the raises did not show.
 *
 * The charge is the larger of IC_CTL_DISPATCH_US and the measurement, in
 * whole us, or the stated fallback (ic_ctl_fallback_us()) when there is
 * none. Prints the stable line "ctl: a raise costs N ns measured ...;
 * charged D us" that tests/irqctl/session.sh reads (and checks D against
 * N), or a warning "... not measured ...; charged D us".
 *
 * Context: process, before any descriptor exists (module load).
 */
void ic_ctl_set_raise_cost(const struct ic_ctl_raise_probe *m)
{
	if (m->ns == U64_MAX || !m->ns) {
		ic_ctl_raise_us = ic_ctl_fallback_us();
		pr_warn("ctl: a raise's cost not measured (%u and %u of %u ms kept, %llu ns a ms less %llu); charged %u us\n",
			m->kept_base, m->kept_with, IC_CTL_PROBE_PERIODS,
			m->with, m->base, ic_ctl_raise_us);
		return;
	}
	ic_ctl_raise_us = max_t(u64, IC_CTL_DISPATCH_US, DIV_ROUND_UP_ULL(m->ns, NSEC_PER_USEC));
	pr_info("ctl: a raise costs %llu ns measured (%llu ns a ms less %llu; loop step %llu ns, p99 %llu); charged %u us\n",
		m->ns, m->with, m->base, m->step50, m->step99, ic_ctl_raise_us);
}

/**
 * ic_ctl_raise_cost_us() - what each raise is charged in the budget.
 *
 * Context: any.
 * Return: microseconds of hardirq.
 */
u32 ic_ctl_raise_cost_us(void)
{
	return ic_ctl_raise_us;
}

/* The bucket of a sample: 0 under 1 us, then one per power of two. */
static unsigned int ic_ctl_bucket(u64 ns)
{
	u64 us = div_u64(ns, NSEC_PER_USEC);

	return min_t(unsigned int, us ? ilog2(us) + 1 : 0, IC_HIST_BUCKETS - 1);
}

/* A sample passed the threshold: the first one freezes and is recorded. */
static void ic_ctl_stop(struct ic_ctl *ctl, struct ic_ctl_src *src, unsigned int cpu,
			u64 lat, bool held)
{
	struct ic_cli_stats cs;
	unsigned long flags;
	bool first = false;

	ic_cli_stats(&cs);
	raw_spin_lock_irqsave(&ctl->stat_lock, flags);
	if (!ctl->frozen) {
		WRITE_ONCE(ctl->frozen, true);
		first = true;
		ctl->stop = (struct ic_ctl_stopped) {
			.stopped = 1,
			.line = src->line,
			.cpu = cpu,
			.latency_ns = lat,
			.holder_in_section = held,
			.cli_taken = cs.cli_taken,
			.enter_spins = cs.enter_spins,
		};
		if (READ_ONCE(ctl->thresh_flags) & IC_THRESH_TRACING_OFF) {
			/* The trace stops here: what led up to it stays readable. */
			tracing_off();
			ctl->stop.tracing_off = 1;
		}
	}
	raw_spin_unlock_irqrestore(&ctl->stat_lock, flags);
	if (first)
		pr_info("ctl: stopped: line %u cpu %u latency %llu ns over the threshold\n",
			src->line, cpu, lat);
}

/* A sample of an instance that the holder raised inside its section. */
static void ic_ctl_held_sample(struct ic_ctl *ctl, u64 lat)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&ctl->stat_lock, flags);
	ctl->held_min_ns = min(ctl->held_min_ns, lat);
	ctl->held_max_ns = max(ctl->held_max_ns, lat);
	raw_spin_unlock_irqrestore(&ctl->stat_lock, flags);
}

static void ic_ctl_handler(unsigned int irq, void *dev_id)
{
	struct ic_ctl_src *src = dev_id;
	struct ic_ctl *ctl = src->ctl;
	unsigned int cpu = smp_processor_id();
	u64 now = ktime_get_ns();
	u64 t = atomic64_xchg(&src->first_ns, 0);
	u64 held = atomic64_xchg(&src->held_ns, 0);
	bool in_hold = atomic_read(&ctl->in_section) && READ_ONCE(ctl->hold_cpu) != (int)cpu;
	struct ic_ctl_cpu_hist *h = &src->hist[cpu];
	u64 thresh = READ_ONCE(ctl->thresh_ns);
	unsigned long flags;
	u64 lat = 0;

	if (!t && !(src->flags & (IC_SRC_SHARED | IC_SRC_JOIN)))
		t = atomic64_read(&src->last_ns);
	if (t)
		lat = now > t ? now - t : 0;
	if (held)
		ic_ctl_held_sample(ctl, now > held ? now - held : 0);
	if (in_hold)
		atomic64_inc(&ctl->in_hold);

	raw_spin_lock_irqsave(&src->hist_lock, flags);
	h->handled++;
	h->in_hold += in_hold;
	if (t && !READ_ONCE(ctl->frozen)) {
		h->count++;
		h->sum_ns += lat;
		h->min_ns = min(h->min_ns, lat);
		h->max_ns = max(h->max_ns, lat);
		h->buckets[ic_ctl_bucket(lat)]++;
	}
	raw_spin_unlock_irqrestore(&src->hist_lock, flags);

	if (t && thresh && lat > thresh)
		ic_ctl_stop(ctl, src, cpu, lat, held);

	if (src->flags & IC_SRC_DRVLOCK) {
		raw_spin_lock_irqsave(&ctl->drv_lock, flags);
		udelay(src->busy_us);
		raw_spin_unlock_irqrestore(&ctl->drv_lock, flags);
	} else if (src->busy_us) {
		udelay(src->busy_us);
	}
}

static void ic_ctl_hist_clear(struct ic_ctl_src *src)
{
	unsigned int cpu;

	memset(src->hist, 0, nr_cpu_ids * sizeof(*src->hist));
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		src->hist[cpu].min_ns = U64_MAX;
}

/* Check a create request; 0, or the refusal. Context: @ctl->lock held. */
static int ic_ctl_check_source(struct ic_ctl *ctl, const struct ic_ctl_source *req)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(req->reserved); i++)
		if (req->reserved[i])
			return ic_ctl_refuse(ctl, -EINVAL, "create: reserved[%u] must be 0", i);
	if (req->flags & ~IC_SRC_FLAGS)
		return ic_ctl_refuse(ctl, -EINVAL, "create: unknown flags 0x%x (valid: 0x%x)",
				     req->flags & ~IC_SRC_FLAGS, IC_SRC_FLAGS);
	if ((req->flags & IC_SRC_SHARED) && (req->flags & IC_SRC_JOIN))
		return ic_ctl_refuse(ctl, -EINVAL, "create: shared and join exclude each other");
	if (req->flags & IC_SRC_JOIN) {
		if (req->line < 1 || req->line >= ic_nr_irqs())
			return ic_ctl_refuse(ctl, -EINVAL, "create: join line %u: lines are 1..%u",
					     req->line, ic_nr_irqs() - 1);
		if (req->cpu != -1)
			return ic_ctl_refuse(ctl, -EINVAL,
					     "create: a joined line keeps its affinity: cpu must be -1");
		if (__ic_ctl_find(ctl, req->line))
			return ic_ctl_refuse(ctl, -EEXIST,
					     "create: this descriptor has line %u already",
					     req->line);
	} else if (req->line) {
		return ic_ctl_refuse(ctl, -EINVAL, "create: line must be 0 unless joining");
	}
	if (req->cpu != -1 && (req->cpu < 0 || req->cpu >= nr_cpu_ids || !cpu_online(req->cpu)))
		return ic_ctl_refuse(ctl, -EINVAL, "create: cpu %d is not online (-1: round-robin)",
				     req->cpu);
	if (req->rate_hz > IC_CTL_MAX_RATE_HZ)
		return ic_ctl_refuse(ctl, -EINVAL, "create: rate %u Hz: 0..%u", req->rate_hz,
				     IC_CTL_MAX_RATE_HZ);
	if (req->busy_us > IC_CTL_MAX_BUSY_US)
		return ic_ctl_refuse(ctl, -EINVAL, "create: busy %u us: 0..%u", req->busy_us,
				     IC_CTL_MAX_BUSY_US);
	/* rate x (busy + raise) is the share of a CPU the line's raises take. */
	if ((u64)req->rate_hz * (req->busy_us + ic_ctl_raise_us) * 100 >
	    (u64)USEC_PER_SEC * IC_CTL_MAX_DUTY_PCT)
		return ic_ctl_refuse(ctl, -EINVAL,
				     "create: rate %u Hz x (busy %u + dispatch %u) us is over %u%% of a CPU",
				     req->rate_hz, req->busy_us, ic_ctl_raise_us,
				     IC_CTL_MAX_DUTY_PCT);
	return 0;
}

/*
 * Join @req->line: a shared line of the control plane, within the budget.
 * Context: ic_ctl_lines_lock held.
 */
static int ic_ctl_join(struct ic_ctl *ctl, struct ic_ctl_src *src,
		       const struct ic_ctl_source *req, unsigned long flags)
{
	struct ic_ctl_vline v = ic_ctl_lines[req->line];
	unsigned int line = req->line;
	int err;

	lockdep_assert_held(&ic_ctl_lines_lock);
	if (!v.users && ic_devline_bound(line))
		return ic_ctl_refuse(ctl, -EBUSY,
				     "create: line %u is bound to a host interrupt: a device's line, not the control plane's",
				     line);
	if (!v.users || !v.shared)
		return ic_ctl_refuse(ctl, -EBUSY,
				     "create: line %u is not a shared line of the control plane (create shared)",
				     line);
	/*
	 * A fire running on the line was paced to the chain it found: its
	 * raises count at this handler's busy time too (ic_ctl_admit()), so
	 * a handler that spins joins a line fired fast only within the budget.
	 */
	if (v.busy_us + req->busy_us > IC_CTL_MAX_BUSY_US)
		return ic_ctl_refuse(ctl, -EBUSY,
				     "create: line %u: its handlers spin %u us a run; %u with this one, %u at most",
				     line, v.busy_us, v.busy_us + req->busy_us, IC_CTL_MAX_BUSY_US);
	v.busy_us += req->busy_us;
	v.rate_hz += req->rate_hz;
	err = ic_ctl_admit(ctl, "create", line, &v);
	if (err)
		return err;
	src->line = line;
	err = ic_request_irq_unbound(line, ic_ctl_handler, flags | IC_SA_SHIRQ, src->name, src);
	if (err)
		return ic_ctl_refuse(ctl, err == -ENXIO ? -EBUSY : err,
				     "create: request_irq(%u): %d", line, err);
	return 0;
}

/*
 * Take the highest line that has no action and no driver: line 0 is the
 * virtual timer; a device line (bound to a host interrupt) is never taken,
 * even while its driver has no handler on it; and a shared create takes a
 * free line too: joining is asked for by IC_SRC_JOIN alone.
 * Context: ic_ctl_lines_lock held.
 */
static int ic_ctl_take_free(struct ic_ctl *ctl, struct ic_ctl_src *src,
			    const struct ic_ctl_source *req, unsigned long flags)
{
	struct ic_ctl_vline v = {
		.users = 1,
		.shared = req->flags & IC_SRC_SHARED,
		.busy_us = req->busy_us,
		.rate_hz = req->rate_hz,
	};
	unsigned int line;
	int err;

	lockdep_assert_held(&ic_ctl_lines_lock);
	for (line = ic_nr_irqs() - 1; line >= 1; line--) {
		if (ic_ctl_lines[line].users)
			continue;
		/* Any free line costs the same: the first check is every line's. */
		err = ic_ctl_admit(ctl, "create", line, &v);
		if (err)
			return err;
		src->line = line;
		err = ic_request_irq_unbound(line, ic_ctl_handler, flags | IC_SA_NEWLINE, src->name,
					     src);
		if (!err)
			return 0;
		if (err != -EBUSY && err != -ENXIO)
			return ic_ctl_refuse(ctl, err, "create: request_irq(%u): %d", line, err);
	}
	return ic_ctl_refuse(ctl, -ENOSPC,
			     "create: no free line: every line has a handler or is a device's");
}

/* Record @src on its line. Context: ic_ctl_lines_lock held. */
static void ic_ctl_vline_add(struct ic_ctl_src *src)
{
	struct ic_ctl_vline v = ic_ctl_lines[src->line];

	if (!v.users++)
		v.shared = src->flags & IC_SRC_SHARED;
	v.busy_us += src->busy_us;
	v.rate_hz += src->rate_hz;
	ic_ctl_vline_set(src->line, &v, ic_ctl_hold_us);
	ic_ctl_total_hz += src->rate_hz;
}

/* Take @src off its line. Context: ic_ctl_lines_lock held. */
static void ic_ctl_vline_del(struct ic_ctl_src *src)
{
	struct ic_ctl_vline v = ic_ctl_lines[src->line];

	v.busy_us -= src->busy_us;
	v.rate_hz -= src->rate_hz;
	if (!--v.users)
		v = (struct ic_ctl_vline){};
	ic_ctl_vline_set(src->line, &v, ic_ctl_hold_us);
	ic_ctl_total_hz -= src->rate_hz;
}

/**
 * __ic_ctl_create() - make a source line for a descriptor.
 * @ctl: the descriptor's context.
 * @req: the request; @req->line is set to the line on success.
 *
 * Context: process, @ctl->lock held; sleeps.
 * Return: 0, or a negative errno with the reason set and nothing made.
 */
int __ic_ctl_create(struct ic_ctl *ctl, struct ic_ctl_source *req)
{
	unsigned long flags = 0;
	struct ic_ctl_src *src;
	unsigned int slot;
	int err;

	lockdep_assert_held(&ctl->lock);
	err = ic_ctl_check_source(ctl, req);
	if (err)
		return err;
	for (slot = 0; slot < IC_CTL_MAX_SOURCES && ctl->src[slot]; slot++)
		;
	if (slot == IC_CTL_MAX_SOURCES)
		return ic_ctl_refuse(ctl, -ENOSPC, "create: %u source lines per descriptor at most",
				     IC_CTL_MAX_SOURCES);

	src = kzalloc(sizeof(*src), GFP_KERNEL);
	if (!src)
		return ic_ctl_refuse(ctl, -ENOMEM, "create: out of memory");
	src->hist = kcalloc(nr_cpu_ids, sizeof(*src->hist), GFP_KERNEL);
	if (!src->hist) {
		kfree(src);
		return ic_ctl_refuse(ctl, -ENOMEM, "create: out of memory");
	}
	src->ctl = ctl;
	src->flags = req->flags;
	src->cpu = req->cpu;
	src->rate_hz = req->rate_hz;
	src->busy_us = req->busy_us;
	raw_spin_lock_init(&src->hist_lock);
	ic_ctl_hist_clear(src);
	snprintf(src->name, sizeof(src->name), "irqctl-%d", task_tgid_nr(current));
	hrtimer_init(&src->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	src->timer.function = ic_ctl_src_tick;
	if (req->flags & IC_SRC_SA_INTERRUPT)
		flags |= IC_SA_INTERRUPT;
	if (req->flags & IC_SRC_SHARED)
		flags |= IC_SA_SHIRQ;

	mutex_lock(&ic_ctl_lines_lock);
	if (ic_ctl_total_hz + req->rate_hz > IC_CTL_MAX_TOTAL_HZ) {
		err = ic_ctl_refuse(ctl, -EBUSY,
				    "create: rate %u Hz: the sources of every descriptor raise %u Hz of %u already",
				    req->rate_hz, ic_ctl_total_hz, IC_CTL_MAX_TOTAL_HZ);
		goto out_unlock;
	}
	if (req->flags & IC_SRC_JOIN)
		err = ic_ctl_join(ctl, src, req, flags);
	else
		err = ic_ctl_take_free(ctl, src, req, flags);
	if (err)
		goto out_unlock;
	if (!(req->flags & IC_SRC_JOIN)) {
		/* A line of its own (never another's, never a device's): aim it. */
		err = ic_set_affinity(src->line, req->cpu);
		if (err) {
			ic_ctl_refuse(ctl, err, "create: affinity of line %u to cpu %d: %d",
				      src->line, req->cpu, err);
			ic_free_irq(src->line, src);
			goto out_unlock;
		}
	}
	ic_ctl_vline_add(src);
	mutex_unlock(&ic_ctl_lines_lock);

	if (src->rate_hz) {
		src->period = ns_to_ktime(div_u64(NSEC_PER_SEC, src->rate_hz));
		hrtimer_start(&src->timer, src->period, HRTIMER_MODE_REL_HARD);
	}
	src->id = ctl->next_id++;
	ctl->src[slot] = src;
	req->line = src->line;
	return 0;

out_unlock:
	mutex_unlock(&ic_ctl_lines_lock);
	kfree(src->hist);
	kfree(src);
	return err;
}

/**
 * __ic_ctl_remove() - tear a source line down, unchecked.
 * @ctl: the descriptor's context.
 * @src: one of its sources, which the holder does not raise and no fire
 *	runs on (the caller has made sure: __ic_ctl_delete() refuses
 *	otherwise, ic_ctl_free() stops both first).
 *
 * The timer stops before the handler goes, and ic_free_irq() waits for a
 * handler still running: after this nothing of @src runs, and it is freed.
 *
 * Context: process, @ctl->lock held; sleeps.
 */
void __ic_ctl_remove(struct ic_ctl *ctl, struct ic_ctl_src *src)
{
	unsigned int slot;

	lockdep_assert_held(&ctl->lock);
	WARN_ON_ONCE(ctl->holder && ctl->hold_src == src);
	WARN_ON_ONCE(READ_ONCE(src->firing));
	hrtimer_cancel(&src->timer);
	/*
	 * The line is recorded as the control plane's until the action is
	 * gone, so that no create takes it meanwhile. The wait for a handler
	 * still running is short: the budget keeps raises from outpacing
	 * the chain.
	 */
	mutex_lock(&ic_ctl_lines_lock);
	ic_free_irq(src->line, src);
	ic_ctl_vline_del(src);
	mutex_unlock(&ic_ctl_lines_lock);
	for (slot = 0; slot < IC_CTL_MAX_SOURCES; slot++)
		if (ctl->src[slot] == src)
			ctl->src[slot] = NULL;
	kfree(src->hist);
	kfree(src);
}

/**
 * __ic_ctl_delete() - tear a source line down, on request.
 * @ctl: the descriptor's context.
 * @src: one of its sources.
 *
 * Refused while something still uses @src; else __ic_ctl_remove().
 *
 * Context: process, @ctl->lock held; sleeps.
 * Return: 0, or -EBUSY (reason set) while the holder raises the line or
 * a fire runs on it.
 */
int __ic_ctl_delete(struct ic_ctl *ctl, struct ic_ctl_src *src)
{
	unsigned int firing;

	lockdep_assert_held(&ctl->lock);
	if (ctl->holder && ctl->hold_src == src)
		return ic_ctl_refuse(ctl, -EBUSY,
				     "delete: the holder raises line %u: stop it first", src->line);
	/*
	 * A fire runs without the lock, but not without @src: its count
	 * falls to 0 only after the fire's last use of @src, and no fire
	 * starts while this holds the lock.
	 */
	spin_lock(&ctl->fire_lock);
	firing = src->firing;
	spin_unlock(&ctl->fire_lock);
	if (firing)
		return ic_ctl_refuse(ctl, -EBUSY,
				     "delete: a fire runs on line %u: it ends with its count, a close of the descriptor or its process's death",
				     src->line);
	__ic_ctl_remove(ctl, src);
	return 0;
}

/**
 * ic_ctl_fires_closed() - stop the fires of a process that closed the file.
 * @ctl: the descriptor's context.
 * @files: the files table that has no descriptor of the file left, or
 *	NULL for every fire.
 *
 * Each such fire is woken and ends before its next raise (-EBADF). Takes
 * only @ctl->fire_lock: a close never waits for a request.
 *
 * Context: process (ic_ctl_flush()), any lock or none held.
 */
void ic_ctl_fires_closed(struct ic_ctl *ctl, struct files_struct *files)
{
	struct ic_ctl_fire_run *run;

	spin_lock(&ctl->fire_lock);
	list_for_each_entry(run, &ctl->fires, node) {
		if (files && run->files != files)
			continue;
		WRITE_ONCE(run->closed, true);
		wake_up_process(run->task);
	}
	spin_unlock(&ctl->fire_lock);
}

static bool ic_ctl_no_fires(struct ic_ctl *ctl)
{
	bool none;

	spin_lock(&ctl->fire_lock);
	none = list_empty(&ctl->fires);
	spin_unlock(&ctl->fire_lock);
	return none;
}

/**
 * ic_ctl_fires_stop() - stop every fire on a descriptor and wait for them.
 * @ctl: the descriptor's context; no fire starts on it meanwhile.
 *
 * Each fire is woken and ends (-EBADF) before its next raise; the wait is
 * for that: a fire's end takes @ctl->lock only killable and briefly, so
 * the caller must not hold it.
 *
 * Context: process, @ctl->lock not held; sleeps.
 */
void ic_ctl_fires_stop(struct ic_ctl *ctl)
{
	ic_ctl_fires_closed(ctl, NULL);
	wait_event(ctl->fires_done, ic_ctl_no_fires(ctl));
}

/*
 * Sleep until @due_ns (CLOCK_MONOTONIC): 0, or -EINTR if a fatal signal
 * came, -EBADF if the firing process closed the file (which wakes it).
 */
static int ic_ctl_fire_sleep(struct ic_ctl_fire_run *run, u64 due_ns)
{
	ktime_t due = ns_to_ktime(due_ns);
	int err = 0;

	for (;;) {
		/* Set before the tests: a close's wake-up after them is not lost. */
		set_current_state(TASK_KILLABLE);
		if (READ_ONCE(run->closed))
			err = -EBADF;
		else if (fatal_signal_pending(current))
			err = -EINTR;
		/* Early by up to IC_CTL_FIRE_SLACK_NS rather than sleep. */
		if (err || ktime_get_ns() + IC_CTL_FIRE_SLACK_NS >= due_ns)
			break;
		schedule_hrtimeout_range(&due, IC_CTL_FIRE_SLACK_NS, HRTIMER_MODE_ABS);
	}
	__set_current_state(TASK_RUNNING);
	return err;
}

/**
 * __ic_ctl_fire_start() - start a fire: @count raises of a source line,
 *	paced to the budget.
 * @ctl: the descriptor's context.
 * @src: one of its sources.
 * @count: 1..IC_CTL_MAX_FIRE (checked by the caller).
 * @run: filled in; the caller passes it to ic_ctl_fire_run() once it has
 *	dropped @ctl->lock.
 *
 * The fire takes what is left of the hardirq budget while it runs, and
 * raises no faster than that pays for: each raise one run of the chain,
 * its busy time and the raise's own (ic_ctl_raise_us). Raised back to
 * back, a fire kept the line's CPU in hardirq for as long as it lasted,
 * whatever the budget said; on a line whose handlers do not spin it did
 * so until issue 39, when the delivery itself was first counted.
 *
 * Context: process, @ctl->lock held.
 * Return: 0, the fire counted on @src (not deleted until it ends); or
 * -EBUSY (reason set, nothing changed) if less than 1% of a CPU is left.
 */
int __ic_ctl_fire_start(struct ic_ctl *ctl, struct ic_ctl_src *src, u32 count,
			struct ic_ctl_fire_run *run)
{
	struct ic_ctl_vline v;
	u64 left;
	u32 hz;

	lockdep_assert_held(&ctl->lock);
	mutex_lock(&ic_ctl_lines_lock);
	v = ic_ctl_lines[src->line];
	left = IC_CTL_BUDGET_US - min_t(u64, ic_ctl_load_us, IC_CTL_BUDGET_US);
	if (left < IC_CTL_FIRE_MIN_US) {
		mutex_unlock(&ic_ctl_lines_lock);
		return ic_ctl_refuse(ctl, -EBUSY,
				     "fire: line %u: %u us a run, and %llu us a second of %u left in the hardirq budget",
				     src->line, ic_ctl_run_us(&v), left, (u32)IC_CTL_BUDGET_US);
	}
	/* At least IC_CTL_FIRE_MIN_US / (IC_CTL_MAX_BUSY_US + ic_ctl_raise_us): 9 Hz at 20 us. */
	hz = div_u64(left, ic_ctl_run_us(&v));
	v.fire_hz += hz;
	ic_ctl_vline_set(src->line, &v, ic_ctl_hold_us);
	mutex_unlock(&ic_ctl_lines_lock);

	*run = (struct ic_ctl_fire_run){
		.src = src, .files = current->files, .task = current, .count = count,
		.hz = hz,
	};
	run->gap = div_u64(NSEC_PER_SEC, hz);
	spin_lock(&ctl->fire_lock);
	src->firing++;
	list_add(&run->node, &ctl->fires);
	spin_unlock(&ctl->fire_lock);
	return 0;
}

/**
 * ic_ctl_fire_run() - raise a started fire's line, and end the fire.
 * @ctl: the descriptor's context.
 * @run: from __ic_ctl_fire_start().
 *
 * Runs without the descriptor's lock: a fire of IC_CTL_MAX_FIRE raises at
 * 10 Hz lasts hours, and while one held the lock, every other request on
 * the file (stats, reason) waited that long, and so did a close. The
 * source stays meanwhile: a delete of it is refused while it is firing,
 * and the context is held by the ioctl's file. The fire ends early on a
 * fatal signal or on a close that leaves the firing process no
 * descriptor of the file (ic_ctl_flush() wakes it).
 *
 * Context: process, @ctl->lock not held; sleeps (killable).
 * Return: 0; -EINTR if a fatal signal came first, -EBADF if the process
 * closed the file first (some raised; reason set).
 */
int ic_ctl_fire_run(struct ic_ctl *ctl, struct ic_ctl_fire_run *run)
{
	struct ic_ctl_src *src = run->src;
	struct ic_ctl_vline v;
	u64 next = ktime_get_ns();
	int err = 0;
	u32 i;

	for (i = 0; i < run->count; i++) {
		/*
		 * Early by up to IC_CTL_FIRE_SLACK_NS rather than sleep, so at
		 * most that / gap raises ahead of the pace, never more.
		 */
		err = ic_ctl_fire_sleep(run, next);
		if (err)
			break;
		/* A pace above a raise per slack never sleeps: yield anyway. */
		cond_resched();
		/* Late (a host stall, a preemption): no catching up in a burst. */
		next = max(next, ktime_get_ns()) + run->gap;
		ic_ctl_src_raise(src);
	}

	/* Other handlers may have joined or left meanwhile: re-read. */
	mutex_lock(&ic_ctl_lines_lock);
	v = ic_ctl_lines[src->line];
	v.fire_hz -= run->hz;
	ic_ctl_vline_set(src->line, &v, ic_ctl_hold_us);
	mutex_unlock(&ic_ctl_lines_lock);
	/* Killable: a fire ended by a fatal signal leaves no reason. */
	if (err && !mutex_lock_killable(&ctl->lock)) {
		ic_ctl_refuse(ctl, err, "fire: %s after %u of %u",
			      err == -EBADF ? "the descriptor was closed" : "killed", i,
			      run->count);
		mutex_unlock(&ctl->lock);
	}
	/*
	 * The fire's last use of @src and of @ctl: the wake-up is under the
	 * lock that ic_ctl_fires_stop()'s waiter takes to look, so the
	 * waiter cannot free @ctl before this has let go of it.
	 */
	spin_lock(&ctl->fire_lock);
	list_del(&run->node);
	src->firing--;
	if (list_empty(&ctl->fires))
		wake_up(&ctl->fires_done);
	spin_unlock(&ctl->fire_lock);
	return err;
}

/* A holder's share of a CPU: hold / period, in us a second. */
static u32 ic_ctl_hold_share(const struct ic_ctl_holder *h)
{
	return div_u64((u64)h->hold_us * USEC_PER_SEC, h->period_us);
}

/**
 * ic_ctl_budget_hold() - admit a holder's share and its raises.
 * @ctl: the descriptor's context; @ctl->hold and @ctl->hold_src set.
 *
 * The holder's section counts hold / period: an interrupt that arrives on
 * another CPU may spin there in hardirq until the section ends. Its raise
 * of the fire line, one a period, counts as that line's raises.
 *
 * Context: process, @ctl->lock held.
 * Return: 0, or -EBUSY with the reason set and nothing changed.
 */
int ic_ctl_budget_hold(struct ic_ctl *ctl)
{
	unsigned int line = ctl->hold_src ? ctl->hold_src->line : 0;
	u32 hold_us = ic_ctl_hold_share(&ctl->hold);
	struct ic_ctl_vline v;
	u64 load;
	int err = 0;

	lockdep_assert_held(&ctl->lock);
	mutex_lock(&ic_ctl_lines_lock);
	v = ic_ctl_lines[line];
	if (ctl->hold_src)
		v.hold_hz += DIV_ROUND_UP(USEC_PER_SEC, ctl->hold.period_us);
	load = ic_ctl_load_with(line, &v, ic_ctl_hold_us + hold_us);
	if (load > IC_CTL_BUDGET_US)
		err = ic_ctl_refuse(ctl, -EBUSY,
				    "hold: %u us every %u us%s: %llu%% of a CPU in hardirq in all; %u%% at most",
				    ctl->hold.hold_us, ctl->hold.period_us,
				    ctl->hold_src ? ", raising a busy line" : "",
				    div_u64(load * 100, USEC_PER_SEC), IC_CTL_MAX_DUTY_PCT);
	else
		ic_ctl_vline_set(line, &v, ic_ctl_hold_us + hold_us);
	mutex_unlock(&ic_ctl_lines_lock);
	return err;
}

/**
 * ic_ctl_budget_unhold() - give back what ic_ctl_budget_hold() took.
 * @ctl: the descriptor's context, its holder stopped; @ctl->hold and
 *	@ctl->hold_src as they were admitted.
 *
 * Context: process, @ctl->lock held.
 */
void ic_ctl_budget_unhold(struct ic_ctl *ctl)
{
	unsigned int line = ctl->hold_src ? ctl->hold_src->line : 0;
	struct ic_ctl_vline v;

	lockdep_assert_held(&ctl->lock);
	mutex_lock(&ic_ctl_lines_lock);
	v = ic_ctl_lines[line];
	if (ctl->hold_src)
		v.hold_hz -= DIV_ROUND_UP(USEC_PER_SEC, ctl->hold.period_us);
	ic_ctl_vline_set(line, &v, ic_ctl_hold_us - ic_ctl_hold_share(&ctl->hold));
	mutex_unlock(&ic_ctl_lines_lock);
}

/**
 * __ic_ctl_hist() - copy out one CPU x line histogram.
 * @src: the source.
 * @cpu: a CPU number below nr_cpu_ids.
 * @out: filled in (its in-fields are left as they are).
 *
 * Context: process, the descriptor's lock held.
 */
void __ic_ctl_hist(struct ic_ctl_src *src, unsigned int cpu, struct ic_ctl_hist *out)
{
	struct ic_ctl_cpu_hist *h = &src->hist[cpu];
	unsigned long flags;

	lockdep_assert_held(&src->ctl->lock);
	raw_spin_lock_irqsave(&src->hist_lock, flags);
	out->count = h->count;
	out->min_ns = h->min_ns;
	out->max_ns = h->max_ns;
	out->sum_ns = h->sum_ns;
	memcpy(out->buckets, h->buckets, sizeof(out->buckets));
	raw_spin_unlock_irqrestore(&src->hist_lock, flags);
	out->frozen = READ_ONCE(src->ctl->frozen);
}

/**
 * __ic_ctl_cpu_stats() - a CPU's share of a descriptor's sources.
 * @ctl: the descriptor's context.
 * @cpu: a CPU number below nr_cpu_ids.
 * @out: its out-fields are filled in.
 *
 * Context: process, @ctl->lock held.
 */
void __ic_ctl_cpu_stats(struct ic_ctl *ctl, unsigned int cpu, struct ic_ctl_cpu_stats *out)
{
	unsigned long flags;
	unsigned int i;

	lockdep_assert_held(&ctl->lock);
	out->online = cpu_online(cpu);
	for (i = 0; i < IC_CTL_MAX_SOURCES; i++) {
		struct ic_ctl_src *src = ctl->src[i];
		struct ic_ctl_cpu_hist *h;

		if (!src)
			continue;
		h = &src->hist[cpu];
		raw_spin_lock_irqsave(&src->hist_lock, flags);
		out->handled += h->handled;
		out->in_hold += h->in_hold;
		out->samples += h->count;
		out->max_ns = max(out->max_ns, h->max_ns);
		raw_spin_unlock_irqrestore(&src->hist_lock, flags);
		out->dispatched += ic_kstat_irqs_cpu(src->line, cpu);
	}
}

/**
 * __ic_ctl_hist_reset() - empty a source's histograms and counts.
 * @src: the source.
 *
 * Context: process, the descriptor's lock held.
 */
void __ic_ctl_hist_reset(struct ic_ctl_src *src)
{
	unsigned long flags;

	lockdep_assert_held(&src->ctl->lock);
	raw_spin_lock_irqsave(&src->hist_lock, flags);
	ic_ctl_hist_clear(src);
	raw_spin_unlock_irqrestore(&src->hist_lock, flags);
}

/**
 * ic_ctl_unfreeze() - forget a stop: the histograms take samples again.
 * @ctl: the descriptor's context.
 *
 * Context: process.
 */
void ic_ctl_unfreeze(struct ic_ctl *ctl)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&ctl->stat_lock, flags);
	WRITE_ONCE(ctl->frozen, false);
	memset(&ctl->stop, 0, sizeof(ctl->stop));
	ctl->held_min_ns = U64_MAX;
	ctl->held_max_ns = 0;
	raw_spin_unlock_irqrestore(&ctl->stat_lock, flags);
}
