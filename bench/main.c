// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore_bench - what one interrupt costs: irqcore's do_IRQ in the regime
 * this load of irqcore selected, next to the host's own genirq and to the
 * bare IPI. One load measures one repetition; the host (tests/bench)
 * loads irqcore in each regime in turn, A B A B ..., and takes medians.
 *
 * The ladder: each case is a loop of loops= calls inside one genuine
 * hardirq on a busy CPU (an IPI's callback; harness.c), timed as a whole,
 * so that the dispatch is resolved and the IPI that carries the loop is
 * not in the figure; five such loops per case, interleaved, the median
 * kept. Each loop is also one sample for the counting plugin (count.h):
 *
 *   empty          a direct call of an empty function (the loop itself;
 *                  every rung's dispatch is a direct call too)
 *   genirq         generic_handle_irq() -> handle_simple_irq() -> handler,
 *                  on a descriptor of the host's (dummy_irq_chip)
 *   genirq_bare    handle_simple_irq() called directly on a descriptor
 *                  looked up once, requested with IRQF_NO_DEBUG: genirq
 *                  without the lookup, the retpolined desc->handle_irq and
 *                  note_interrupt()
 *   irqcore_sa     ic_handle_irq() -> do_IRQ -> an SA_INTERRUPT handler
 *   irqcore_plain  the same with a plain handler, which runs with
 *                  interrupts on, as 2002's did
 *
 * Every loop's handler runs must equal the calls issued, or its case fails.
 *
 * The round trips: from this CPU to the busy one and back, trips= times,
 * the median kept: the bare IPI (its callback ends the trip), an IPI whose
 * callback runs genirq's dispatch, and ic_raise() through irqcore's kick
 * to do_IRQ and the handler.
 *
 * run=count does the ladder and the counted regions of count.c only, for
 * tests/cost: nothing else runs there to blur what the plugin counts, and
 * it prints no times (the plugin's counts are its figures).
 *
 * Then the contention figures (contention.c: a cli() or spinlock holder
 * against interrupts on the busy CPU), the synchronize_irq() figures
 * (sync.c: its cost on an idle line while k others are busy) and the
 * scaling figures (scaling.c: critical sections per second as CPUs are
 * added, each figure lasting hold_ms / 2) and the throughput figures
 * (throughput.c: interrupts handled per second, each CPU taking its own
 * line, with and without a critical section holder at 10 % duty; each
 * figure lasting hold_ms).
 *
 * Output lines (stable; tests/bench and tests/cost parse them):
 *   irqcore_bench: result: bench=ladder|roundtrip case=C regime=R cpus=N
 *       rep=N value=V unit=ns
 *   irqcore_bench: count: text irqcore_bench=SYM@0xADDR irqcore=SYM@0xADDR
 *   irqcore_bench: count: region tag=T name=N regime=R calls=C cpus=K
 * and a KTAP document, one case per figure plus "harness_send_refused"
 * (the harness's own rule, first: icb_send_refused_check()) and
 * "accounting": a case is
 * not ok if its job ran outside hardirq, timed out, or found nothing to
 * time; "accounting" if a handler ran outside hardirq, irqcore's line accounting
 * or handled count disagrees with the handlers' own counts, an instance of
 * a ladder line was merged or latched, or genirq's handlers ran other than
 * as often as they were called.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include <irqcore.h>
#include <irqcore_ktap.h>
#include <irqcore_param.h>

#include "contention.h"
#include "count.h"
#include "harness.h"
#include "scaling.h"
#include "scenario.h"
#include "sync.h"
#include "throughput.h"

enum { ICB_RUN_ALL, ICB_RUN_TRACE, ICB_RUN_COUNT };
static const char * const icb_run_names[] = { "all", "trace", "count", NULL };
static int icb_param_run = ICB_RUN_ALL;
static struct ic_param_enum icb_run_param = { .names = icb_run_names, .value = &icb_param_run };

ic_module_param_enum(run, icb_run_param,
		     "What the load does: all (every benchmark, at load), trace (nothing at load; each write to /sys/kernel/debug/irqcore_bench/scenario runs the timeline scenario of make trace) or count (the ladder and the regions that make cost counts, at load)");

static unsigned int icb_param_loops = 2000;
static struct ic_param_range icb_loops_param = { 10, 100000, &icb_param_loops };

ic_module_param_range(loops, icb_loops_param,
		      "Calls per ladder measurement, in one hardirq (10..100000, default 2000)");

static unsigned int icb_param_trips = 200;
static struct ic_param_range icb_trips_param = { 5, 10000, &icb_param_trips };

ic_module_param_range(trips, icb_trips_param,
		      "Round trips per round-trip measurement, the median kept (5..10000, default 200)");

static unsigned int icb_param_hold_ms = 200;
static struct ic_param_range icb_hold_param = { 10, 5000, &icb_param_hold_ms };

ic_module_param_range(hold_ms, icb_hold_param,
		      "Milliseconds per contention figure (10..5000, default 200)");

static unsigned int icb_param_rep = 1;
static struct ic_param_range icb_rep_param = { 1, 1000, &icb_param_rep };

ic_module_param_range(rep, icb_rep_param,
		      "The repetition this load is, for the result lines (1..1000, default 1)");

/*
 * The ladder's irqcore lines, an SA_INTERRUPT handler and a plain one, which
 * nothing but the ladder's direct dispatches use; and the round trip's line.
 */
#define ICB_LINE_SA	20
#define ICB_LINE_PLAIN	21
#define ICB_LINE_TRIP	23

enum icb_case {
	ICB_EMPTY,
	ICB_GENIRQ,
	ICB_GENIRQ_BARE,
	ICB_IC_SA,
	ICB_IC_PLAIN,
	ICB_NR_LADDER,
};

static const char * const icb_ladder_names[] = {
	[ICB_EMPTY] = "empty",
	[ICB_GENIRQ] = "genirq",
	[ICB_GENIRQ_BARE] = "genirq_bare",
	[ICB_IC_SA] = "irqcore_sa",
	[ICB_IC_PLAIN] = "irqcore_plain",
};

/* The handlers, each counting its runs. */
enum icb_handler {
	ICB_H_GENIRQ,
	ICB_H_BARE,
	ICB_H_SA,
	ICB_H_PLAIN,
	ICB_H_TRIP,
	ICB_NR_HANDLERS,
	ICB_H_NONE = -1,
};

/* Which handler each rung's dispatch must run, once a call. */
static const int icb_ladder_handler[ICB_NR_LADDER] = {
	[ICB_EMPTY] = ICB_H_NONE,
	[ICB_GENIRQ] = ICB_H_GENIRQ,
	[ICB_GENIRQ_BARE] = ICB_H_BARE,
	[ICB_IC_SA] = ICB_H_SA,
	[ICB_IC_PLAIN] = ICB_H_PLAIN,
};

/*
 * Handler runs, per CPU: a plain increment of the CPU's own copy, so that
 * the count adds no locked instruction and no shared cache line to the
 * rung that the plugin counts. A handler never runs on two CPUs at once
 * for the same descriptor, and only the CPU's own handlers write its copy.
 */
struct icb_runs {
	unsigned long h[ICB_NR_HANDLERS];
};

static DEFINE_PER_CPU(struct icb_runs, icb_runs);

/**
 * struct icb_state - one load's measurements and counts.
 * @target: the busy CPU the jobs run on.
 * @virq: the host descriptor for the genirq cases.
 * @virq_bare: the host descriptor of the genirq_bare case.
 * @desc_bare: its descriptor, looked up once.
 * @regime: the counting tags of this load (icb_count_regime()).
 * @which: the ladder case the job runs.
 * @ns: what the job measured.
 * @err: a dispatch that returned an error inside the job.
 * @ran: handler runs during the job's loop.
 * @genirq_calls: generic_handle_irq() calls issued on @virq.
 * @bare_calls: handle_simple_irq() calls issued on @desc_bare.
 * @outside: handler runs outside hardirq.
 * @flag: ends a round trip; the trip line's handler sets it.
 * @trip_ns: one round trip per element.
 * @jobs: the ladder's and the round trips' jobs on @target, each waited
 *	for on every path before the next and before teardown (bench_quiesced).
 * @stuck: a job on @target never finished: the run stopped there, and
 *	nothing it may touch is freed (icb_stop_if_stuck()).
 * @k: the KTAP document.
 */
struct icb_state {
	struct icb_target target;
	struct icb_jobs jobs;
	bool stuck;
	int virq;
	int virq_bare;
	struct irq_desc *desc_bare;
	int regime;
	enum icb_case which;
	u64 ns;
	int err;
	unsigned long ran;
	unsigned long genirq_calls;
	unsigned long bare_calls;
	atomic_long_t outside;
	bool flag;
	u64 *trip_ns;
	struct ic_ktap k;
};

static struct icb_state icb;

/* The empty rung's call: a direct call, as every rung's dispatch is. */
static noinline void icb_nop(unsigned int i)
{
	barrier();
}

static void icb_note_run(int which)
{
	this_cpu_inc(icb_runs.h[which]);
	if (unlikely(!in_hardirq()))
		atomic_long_inc(&icb.outside);
}

static unsigned long icb_runs_total(int which)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(icb_runs.h[which], cpu);
	return sum;
}

static irqreturn_t icb_genirq_handler(int irq, void *dev_id)
{
	icb_note_run(ICB_H_GENIRQ);
	return IRQ_HANDLED;
}

static irqreturn_t icb_bare_handler(int irq, void *dev_id)
{
	icb_note_run(ICB_H_BARE);
	return IRQ_HANDLED;
}

static void icb_ic_sa_handler(unsigned int irq, void *dev_id)
{
	icb_note_run(ICB_H_SA);
}

static void icb_ic_plain_handler(unsigned int irq, void *dev_id)
{
	icb_note_run(ICB_H_PLAIN);
}

static void icb_ic_trip_handler(unsigned int irq, void *dev_id)
{
	icb_note_run(ICB_H_TRIP);
	WRITE_ONCE(icb.flag, true);
}

/*
 * A rung's loop, on the stack of the CPU that runs it: what the loop reads
 * is on no line that another CPU writes, so the plugin's transfer count is
 * the dispatch's own.
 */
struct icb_loop {
	unsigned int n;
	unsigned int line;
	int virq;
	struct irq_desc *desc;
};

/* The rungs' loops: each one counted sample, the same code in both regimes. */

static noinline int icb_loop_empty(const void *arg)
{
	const struct icb_loop *l = arg;
	unsigned int i, n = l->n;

	for (i = 0; i < n; i++)
		icb_nop(i);
	return 0;
}

static noinline int icb_loop_genirq(const void *arg)
{
	const struct icb_loop *l = arg;
	unsigned int i, n = l->n;
	int virq = l->virq, err = 0;

	for (i = 0; i < n; i++)
		err |= generic_handle_irq(virq);
	return err;
}

static noinline int icb_loop_genirq_bare(const void *arg)
{
	const struct icb_loop *l = arg;
	struct irq_desc *desc = l->desc;
	unsigned int i, n = l->n;

	for (i = 0; i < n; i++)
		handle_simple_irq(desc);
	return 0;
}

static noinline int icb_loop_irqcore(const void *arg)
{
	const struct icb_loop *l = arg;
	unsigned int i, n = l->n, line = l->line;
	int err = 0;

	for (i = 0; i < n; i++)
		err |= ic_handle_irq(line);
	return err;
}

/*
 * The ladder job: loops= calls of one case, timed as a whole and counted
 * as one sample, and the handler's runs during it.
 */
static void icb_ladder_job(void *arg)
{
	struct icb_loop l = { .n = icb_param_loops, .virq = icb.virq, .desc = icb.desc_bare };
	enum icb_case c = icb.which;
	int h = icb_ladder_handler[c];
	int r = icb.regime;
	unsigned long before = h == ICB_H_NONE ? 0 : this_cpu_read(icb_runs.h[h]);
	u64 t0 = ktime_get_ns();
	int err;

	switch (c) {
	case ICB_EMPTY:
		err = icb_counted(r, ICB_PART_LADDER + ICB_EMPTY, icb_loop_empty, &l);
		break;
	case ICB_GENIRQ:
		err = icb_counted(r, ICB_PART_LADDER + ICB_GENIRQ, icb_loop_genirq, &l);
		break;
	case ICB_GENIRQ_BARE:
		err = icb_counted(r, ICB_PART_LADDER + ICB_GENIRQ_BARE, icb_loop_genirq_bare, &l);
		break;
	case ICB_IC_SA:
		l.line = ICB_LINE_SA;
		err = icb_counted(r, ICB_PART_LADDER + ICB_IC_SA, icb_loop_irqcore, &l);
		break;
	case ICB_IC_PLAIN:
		l.line = ICB_LINE_PLAIN;
		err = icb_counted(r, ICB_PART_LADDER + ICB_IC_PLAIN, icb_loop_irqcore, &l);
		break;
	default:
		err = -EINVAL;
	}
	icb.ns = ktime_get_ns() - t0;
	icb.err = err;
	icb.ran = h == ICB_H_NONE ? l.n : this_cpu_read(icb_runs.h[h]) - before;
}

/* A round trip's far end: the IPI alone, or the IPI and genirq. */
static void icb_trip_job(void *arg)
{
	if (arg) {
		icb.genirq_calls++;
		generic_handle_irq(icb.virq);
	}
}

/* One result line; @centi is the value in hundredths of @unit. */
static void icb_result_value(const char *bench, const char *name, u64 centi, const char *unit)
{
	pr_info("result: bench=%s case=%s regime=%s cpus=%u rep=%u value=%llu.%02llu unit=%s\n",
		bench, name, ic_regime_name(), num_online_cpus(), icb_param_rep,
		div_u64(centi, 100), centi % 100, unit);
}

/* One result line in nanoseconds; @centi is in hundredths of one. */
static void icb_result(const char *bench, const char *name, u64 centi)
{
	icb_result_value(bench, name, centi, "ns");
}

/* One ladder round's figure of case @name, ns per call in hundredths. */
static void icb_result_round(const char *name, int round, u64 centi)
{
	pr_info("result: bench=ladder_round case=%s regime=%s cpus=%u rep=%u round=%d value=%llu.%02llu unit=ns\n",
		name, ic_regime_name(), num_online_cpus(), icb_param_rep, round,
		div_u64(centi, 100), centi % 100);
}

/*
 * The ladder: a warm-up round, then ICB_SAMPLES rounds over the cases.
 *
 * run=count takes ICB_SAMPLES rounds (the plugin's samples), a timing run
 * ICB_ROUNDS (more pairs for the host's interval; a round is a millisecond
 * or two).
 *
 * The warm-up is timed and checked like any round but not reported: this
 * load's code (irqcore's and ours) is fresh and has no translations yet
 * under TCG, while genirq's stay translated from the last load, so the
 * first round would charge irqcore the translator. (run=count has none:
 * a count does not depend on translation, and the plugin's samples are
 * the rounds that count.h announces.)
 *
 * Each round times every case back to back, so that a round is a pair for
 * the host's ratios (irqcore_sa over genirq of the same round: a slow
 * moment of the host falls on both). The order rotates by one case each
 * round, starting from the repetition's number, so that no case is always
 * the first after the IPI (a rotation keeps each case's neighbours: the
 * host compares cases of one round, whichever came first).
 */
#define ICB_SAMPLES	5
#define ICB_ROUNDS	9

/* The case in position @j of round @s (-1: the warm-up). */
static enum icb_case icb_ladder_order(int s, int j)
{
	return (enum icb_case)((s + 1 + j + icb_param_rep) % ICB_NR_LADDER);
}

/* One round; @s is its number, or -1 for the warm-up. */
static void icb_ladder_round(int s, u64 ns[][ICB_ROUNDS], int *err)
{
	enum icb_case c;
	int j;

	for (j = 0; j < ICB_NR_LADDER; j++) {
		int e;

		c = icb_ladder_order(s, j);
		icb.which = c;
		e = icb_run_hardirq(&icb.jobs, &icb.target, icb_ladder_names[c], icb_ladder_job,
				    NULL);
		/*
		 * A loop that took no time at all timed nothing; run=count
		 * reports no times (at 2 s of uptime the clocksource may be
		 * too coarse for the empty loop), only what ran.
		 */
		if (!e && (icb.err || (!icb.ns && icb_param_run != ICB_RUN_COUNT)))
			e = icb.err ? icb.err : -ENODATA;
		if (!e && c == ICB_GENIRQ)
			icb.genirq_calls += icb_param_loops;
		if (!e && c == ICB_GENIRQ_BARE)
			icb.bare_calls += icb_param_loops;
		if (!e && icb.ran != icb_param_loops) {
			ic_ktap_diag("ladder_%s: the handler ran %lu times for %u calls",
				     icb_ladder_names[c], icb.ran, icb_param_loops);
			e = -EBADMSG;
		}
		if (e)
			err[c] = e;
		if (s >= 0)
			ns[c][s] = icb.ns;
	}
}

static void icb_ladder(void)
{
	bool count = icb_param_run == ICB_RUN_COUNT;
	int rounds = count ? ICB_SAMPLES : ICB_ROUNDS;
	u64 ns[ICB_NR_LADDER][ICB_ROUNDS];
	int err[ICB_NR_LADDER] = { 0 };
	enum icb_case c;
	char name[32];
	int s;

	if (!count)
		icb_ladder_round(-1, ns, err);
	for (s = 0; s < rounds; s++)
		icb_ladder_round(s, ns, err);
	for (c = 0; c < ICB_NR_LADDER; c++) {
		snprintf(name, sizeof(name), "ladder_%s", icb_ladder_names[c]);
		if (err[c]) {
			ic_ktap_diag("%s: %d", name, err[c]);
			ic_ktap_result(&icb.k, false, name, NULL);
			continue;
		}
		if (!count) {
			/* Each round's figure, for the host's paired ratios. */
			for (s = 0; s < rounds; s++)
				icb_result_round(icb_ladder_names[c], s,
						 div_u64(ns[c][s] * 100, icb_param_loops));
			icb_sort_u64(ns[c], rounds);
			icb_result("ladder", icb_ladder_names[c],
				   div_u64(ns[c][rounds / 2] * 100, icb_param_loops));
		}
		ic_ktap_result(&icb.k, true, name, NULL);
	}
}

/*
 * Time trips= round trips of one kind; @kind 0: bare IPI, 1: IPI and
 * genirq, 2: ic_raise(). The sender waits with preemption off (interrupts
 * on), the far end is the busy CPU. Return: 0, or -ETIMEDOUT/-EPERM/-EBUSY.
 */
static int icb_trips(int kind, u64 *median)
{
	unsigned int i;
	int err = 0;

	/* A stuck job still holds the target: send nothing over it. */
	if (kind != 2 && icb.jobs.stuck)
		return -EBUSY;
	for (i = 0; i < icb_param_trips && !err; i++) {
		u64 t0, end;

		WRITE_ONCE(icb.flag, false);
		preempt_disable();
		t0 = ktime_get_ns();
		end = t0 + NSEC_PER_SEC;
		if (kind == 2) {
			ic_raise(ICB_LINE_TRIP);
			while (!READ_ONCE(icb.flag) && ktime_get_ns() < end)
				cpu_relax();
			err = READ_ONCE(icb.flag) ? 0 : -ETIMEDOUT;
		} else {
			err = icb_jobs_send(&icb.jobs, &icb.target, icb_trip_job,
					    kind ? &icb : NULL);
			/* Pairs with the release in the harness's job. */
			while (!err && !smp_load_acquire(&icb.target.done) && ktime_get_ns() < end)
				cpu_relax();
			/* As above: the job's stores are visible once done is. */
			if (!err && !smp_load_acquire(&icb.target.done))
				err = -ETIMEDOUT;
			else if (!err && !icb.target.hardirq)
				err = -EPERM;
		}
		icb.trip_ns[i] = ktime_get_ns() - t0;
		preempt_enable();
		/*
		 * A trip that gave up leaves its job out: it is waited for
		 * here (or found stuck), before the next send or any teardown.
		 */
		if (kind != 2)
			err = icb_jobs_finish(&icb.jobs, &icb.target, "roundtrip", err, 0);
	}
	if (err)
		return err;
	icb_sort_u64(icb.trip_ns, icb_param_trips);
	*median = icb.trip_ns[icb_param_trips / 2];
	return 0;
}

static void icb_roundtrips(void)
{
	static const char * const names[] = { "ipi", "ipi_genirq", "raise" };
	char name[32];
	u64 median;
	int kind, err;

	ic_set_affinity(ICB_LINE_TRIP, icb.target.cpu);
	for (kind = 0; kind < 3; kind++) {
		snprintf(name, sizeof(name), "roundtrip_%s", names[kind]);
		if (icb.target.cpu == raw_smp_processor_id()) {
			ic_ktap_result(&icb.k, true, name, "needs 2 or more CPUs");
			continue;
		}
		err = icb_trips(kind, &median);
		if (err) {
			ic_ktap_diag("%s: %d", name, err);
			ic_ktap_result(&icb.k, false, name, NULL);
			continue;
		}
		icb_result("roundtrip", names[kind], median * 100);
		ic_ktap_result(&icb.k, true, name, NULL);
	}
	ic_set_affinity(ICB_LINE_TRIP, -1);
}

/*
 * A contention figure's histogram (contention.h's buckets), as "bucket:count"
 * pairs of the buckets that are not empty, so that the host can pool the
 * repetitions: one load's p99 rests on a few samples, the pool's on many.
 * A line cut short would lose samples; the host checks that the buckets
 * add up to the figure's samples. Called from the measuring task only.
 */
static void icb_contention_hist(const char *name, const u32 *hist)
{
	static char buf[896];	/* a console line holds about 1000 characters */
	size_t len = 0;
	unsigned int b;

	buf[0] = '\0';
	for (b = 0; b < ICB_C_HIST; b++) {
		if (!hist[b])
			continue;
		len += scnprintf(buf + len, sizeof(buf) - len, "%s%u:%u", len ? "," : "", b,
				 hist[b]);
	}
	pr_info("hist: bench=contention case=%s regime=%s cpus=%u rep=%u buckets=%s\n",
		name, ic_regime_name(), num_online_cpus(), icb_param_rep, buf);
}

/*
 * One contention figure: its counts, its times, its histogram and two KTAP
 * results: the figure's own (it was measured, every raise accounted for)
 * and its _share case (the counted shares against what the regime
 * predicts; contention.c).
 */
static void icb_contention_report(const char *name, int err, const struct icb_c_result *res)
{
	static const struct {
		const char *suffix;
		size_t off;
	} counts[] = {
		{ "in_section", offsetof(struct icb_c_result, in_section) },
		{ "waited", offsetof(struct icb_c_result, waited) },
		{ "spins", offsetof(struct icb_c_result, spins) },
		{ "turns", offsetof(struct icb_c_result, turns) },
		{ "handled", offsetof(struct icb_c_result, handled) },
		{ "samples", offsetof(struct icb_c_result, samples) },
		{ "late", offsetof(struct icb_c_result, late) },
	};
	char ktap[48], metric[48];
	const char *skip;
	unsigned int i;
	bool ok;

	snprintf(ktap, sizeof(ktap), "contention_%s", name);
	if (err) {
		ic_ktap_diag("%s: %d", ktap, err);
		ic_ktap_result(&icb.k, false, ktap, NULL);
		strlcat(ktap, "_share", sizeof(ktap));
		ic_ktap_result(&icb.k, false, ktap, NULL);
		return;
	}
	/* The counts first: what happened, which the host cannot blur. */
	for (i = 0; i < ARRAY_SIZE(counts); i++) {
		const unsigned long *v = (const void *)res + counts[i].off;

		snprintf(metric, sizeof(metric), "%s_%s", name, counts[i].suffix);
		icb_result_value("contention", metric, *v * 100ULL, "count");
	}
	snprintf(metric, sizeof(metric), "%s_expected", name);
	icb_result_value("contention", metric, res->expected * 100ULL, "count");
	snprintf(metric, sizeof(metric), "%s_bound", name);
	icb_result_value("contention", metric, res->bound * 100ULL, "count");
	snprintf(metric, sizeof(metric), "%s_held", name);
	icb_result("contention", metric, res->held_ns * 100);
	snprintf(metric, sizeof(metric), "%s_duty", name);
	icb_result_value("contention", metric, res->duty_pm * 10, "pct");
	/* Then the times, from each raise itself. */
	snprintf(metric, sizeof(metric), "%s_p50", name);
	icb_result("contention", metric, res->p50_ns * 100);
	snprintf(metric, sizeof(metric), "%s_p99", name);
	icb_result("contention", metric, res->p99_ns * 100);
	snprintf(metric, sizeof(metric), "%s_max", name);
	icb_result("contention", metric, res->max_ns * 100);
	snprintf(metric, sizeof(metric), "%s_rate", name);
	icb_result_value("contention", metric, res->handled_per_s * 100, "per_s");
	icb_contention_hist(name, res->hist);
	ic_ktap_result(&icb.k, true, ktap, NULL);
	ok = icb_c_share_check(ktap, res, &skip);
	strlcat(ktap, "_share", sizeof(ktap));
	ic_ktap_result(&icb.k, ok, ktap, ok ? skip : NULL);
}

/*
 * With one CPU there is no busy CPU to measure against: @n results named
 * @prefix_1 .. are skips, and true is returned.
 */
static bool icb_skip_alone(const char *prefix, unsigned int n)
{
	char name[32];
	unsigned int i;

	if (icb.target.cpu != raw_smp_processor_id())
		return false;
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "%s_%u", prefix, i + 1);
		ic_ktap_result(&icb.k, true, name, "needs 2 or more CPUs");
	}
	return true;
}

static void icb_contention_all(void)
{
	long outside;

	if (icb_skip_alone("contention", icb_contention_cases()))
		return;
	outside = icb_contention(&icb.target, icb_param_hold_ms, icb_contention_report);
	if (outside)
		ic_ktap_diag("contention: %ld (runs outside hardirq, or an error)", outside);
	atomic_long_add(outside > 0 ? outside : 0, &icb.outside);
}

/*
 * One synchronize_irq() figure: its result lines (the cost, and the busy
 * lines' handler runs per second while it was measured) and a KTAP result.
 */
static void icb_sync_report(unsigned int k, int err, u64 ns, u64 busy_per_s)
{
	char name[32], ktap[40];

	snprintf(name, sizeof(name), "k%u", k);
	snprintf(ktap, sizeof(ktap), "sync_%s", name);
	if (err || !ns) {
		ic_ktap_diag("%s: %d, %llu ns, busy lines handled %llu per second", ktap, err, ns,
			     busy_per_s);
		ic_ktap_result(&icb.k, false, ktap, NULL);
		return;
	}
	icb_result("sync", name, ns * 100);
	if (k) {
		snprintf(name, sizeof(name), "k%u_busy", k);
		icb_result_value("sync", name, busy_per_s * 100, "per_s");
	}
	ic_ktap_result(&icb.k, true, ktap, NULL);
}

static void icb_sync_all(void)
{
	int err;

	if (icb_skip_alone("sync", icb_sync_figures()))
		return;
	err = icb_sync(&icb.target, icb_sync_report);
	if (err)
		ic_ktap_diag("sync: %d", err);
}

/*
 * One scaling figure (after its control, the same threads with a private
 * increment for a section): its result lines and a KTAP result. The ratio
 * to the control, in per cent, is paired: both figures are from this load,
 * one right after the other.
 */
static void icb_scaling_report(unsigned int k, bool control, long per_s)
{
	static long ctl_per_s;
	char name[32];

	if (control) {
		ctl_per_s = per_s;
		if (per_s > 0) {
			snprintf(name, sizeof(name), "ctl_k%u", k);
			icb_result_value("scaling", name, per_s * 100ULL, "per_s");
		}
		return;
	}
	snprintf(name, sizeof(name), "scaling_k%u", k);
	if (per_s <= 0 || ctl_per_s <= 0) {
		ic_ktap_diag("%s: %ld per second, control %ld per second", name, per_s, ctl_per_s);
		ic_ktap_result(&icb.k, false, name, NULL);
		return;
	}
	icb_result_value("scaling", name + strlen("scaling_"), per_s * 100ULL, "per_s");
	snprintf(name, sizeof(name), "k%u_vs_ctl", k);
	icb_result_value("scaling", name, div64_u64((u64)per_s * 10000, ctl_per_s), "pct");
	snprintf(name, sizeof(name), "scaling_k%u", k);
	ic_ktap_result(&icb.k, true, name, NULL);
}

/* Every scaling figure; if none could be taken, every case fails. */
static void icb_scaling_all(void)
{
	char name[32];
	unsigned int k;
	int err;

	err = icb_scaling(icb_param_hold_ms / 2, icb_scaling_report);
	if (!err)
		return;
	for (k = 1; k <= num_online_cpus(); k++) {
		snprintf(name, sizeof(name), "scaling_k%u", k);
		ic_ktap_diag("%s: %d", name, err);
		ic_ktap_result(&icb.k, false, name, NULL);
	}
}

/*
 * One throughput figure: its result lines and a KTAP result. The control
 * (private increments in the same self-IPIs) comes first and is reported
 * with the free figure, which is also given as a ratio to it; with the
 * holder, two more: its achieved duty, and the share of the free figure
 * just measured that was kept (all in per cent): ratios of figures taken
 * one after the other, which the host's drift moves far less than either
 * figure.
 */
static void icb_throughput_report(unsigned int k, enum icb_tp_mode mode, long per_s, u64 duty)
{
	static long ctl_per_s, free_per_s;
	bool holder = mode == ICB_TP_HOLDER;
	char name[32];
	u64 pct;

	if (mode == ICB_TP_CONTROL) {
		ctl_per_s = per_s;
		return;
	}
	snprintf(name, sizeof(name), "throughput_k%u_%s", k, holder ? "holder" : "free");
	if (per_s <= 0 || (!holder && ctl_per_s <= 0) ||
	    (holder && (!duty || free_per_s <= 0))) {
		ic_ktap_diag("%s: %ld per second, control %ld per second, holder's duty %llu",
			     name, per_s, ctl_per_s, duty);
		ic_ktap_result(&icb.k, false, name, NULL);
		free_per_s = 0;
		return;
	}
	icb_result_value("throughput", name + strlen("throughput_"), per_s * 100ULL, "per_s");
	if (!holder) {
		free_per_s = per_s;
		snprintf(name, sizeof(name), "ctl_k%u", k);
		icb_result_value("throughput", name, ctl_per_s * 100ULL, "per_s");
		pct = div64_u64((u64)per_s * 10000, ctl_per_s);
		snprintf(name, sizeof(name), "k%u_vs_ctl", k);
		icb_result_value("throughput", name, pct, "pct");
	} else {
		snprintf(name, sizeof(name), "k%u_duty", k);
		icb_result_value("throughput", name, duty, "pct");
		pct = div64_u64((u64)per_s * 10000, free_per_s);
		snprintf(name, sizeof(name), "k%u_kept", k);
		icb_result_value("throughput", name, pct, "pct");
	}
	snprintf(name, sizeof(name), "throughput_k%u_%s", k, holder ? "holder" : "free");
	ic_ktap_result(&icb.k, true, name, NULL);
}

static void icb_throughput_all(void)
{
	long bad = icb_throughput(icb_param_hold_ms, icb_throughput_report);
	char name[32];
	unsigned int k;

	if (bad < 0) {
		/* No figure was taken: every case fails. */
		for (k = 1; k <= num_online_cpus(); k++) {
			snprintf(name, sizeof(name), "throughput_k%u_free", k);
			ic_ktap_diag("%s: %ld", name, bad);
			ic_ktap_result(&icb.k, false, name, NULL);
			snprintf(name, sizeof(name), "throughput_k%u_holder", k);
			ic_ktap_result(&icb.k, false, name, NULL);
		}
	}
	if (bad) {
		ic_ktap_diag("throughput: %ld (runs outside hardirq, lost, invented, or an error)",
			     bad);
		atomic_long_add(bad > 0 ? bad : 1, &icb.outside);
	}
}

/*
 * One irqcore line's accounting: nothing lost, nothing in flight, its
 * handled count equal to the handler's runs and, for a ladder line (whose
 * instances are all direct dispatches, one at a time), nothing merged or
 * latched.
 */
static bool icb_line_ok(const char *name, unsigned int line, int h, bool ladder)
{
	struct ic_line_stats st;
	long runs = icb_runs_total(h);
	bool ok;

	ic_synchronize_irq(line);
	if (ic_line_stats(line, &st))
		return false;
	ok = !st.inflight && ic_line_stats_balance(&st) && st.handled - st.unhandled == runs &&
	     (!ladder || (!st.merged && !st.latched));
	ic_ktap_diag("%s: raised %lu, handled %lu, merged %lu, latched %lu, handler's count %ld%s",
		     name, st.raised, st.handled - st.unhandled, st.merged, st.latched, runs,
		     ok ? "" : " (wrong)");
	return ok;
}

/*
 * Nothing lost, nothing outside hardirq, irqcore's counts = the handlers',
 * and genirq's handlers run as often as they were called.
 */
static void icb_accounting(void)
{
	long outside = atomic_long_read(&icb.outside);
	unsigned long gen = icb_runs_total(ICB_H_GENIRQ), bare = icb_runs_total(ICB_H_BARE);
	bool ok;

	ok = icb_line_ok("SA", ICB_LINE_SA, ICB_H_SA, true);
	ok &= icb_line_ok("plain", ICB_LINE_PLAIN, ICB_H_PLAIN, true);
	ok &= icb_line_ok("trip", ICB_LINE_TRIP, ICB_H_TRIP, false);
	ok &= !outside && gen == icb.genirq_calls && bare == icb.bare_calls;
	ic_ktap_diag("%ld handler runs outside hardirq", outside);
	ic_ktap_diag("genirq: %lu calls, %lu handler runs; bare: %lu calls, %lu handler runs",
		     icb.genirq_calls, gen, icb.bare_calls, bare);
	ic_ktap_result(&icb.k, ok, "accounting", NULL);
}

/* A counted region's KTAP result (count.c). */
static void icb_count_report(const char *name, bool ok, const char *skip)
{
	ic_ktap_result(&icb.k, ok, name, skip);
}

/*
 * harness_send_refused: the harness's own rule (icb_jobs_send()): a send
 * to a target whose job is still out is refused, not queued behind it.
 */
static void icb_send_refused(void)
{
	const char *skip = NULL;
	bool ok = icb_send_refused_check(&icb.target, &skip);

	ic_ktap_result(&icb.k, ok, "harness_send_refused", skip);
}

/*
 * bench_quiesced: every ladder and round-trip job was waited for before
 * the next was sent, none is out and none is stuck, so the teardown that
 * follows frees nothing a job still touches.
 */
static void icb_quiesced(void)
{
	ic_ktap_result(&icb.k, icb_jobs_quiesced(&icb.jobs, "bench_quiesced", 0),
		       "bench_quiesced", NULL);
}

/*
 * A job on the target that never finished (icb_target_stuck(): its set
 * gave up waiting, the module is pinned) keeps that CPU in hardirq for
 * good. What follows would wait for it for ever (the scaling and
 * throughput kthreads on every CPU, kthread_stop() of the spinner, a
 * biglock free_irq()), or free what it may still touch (the lines, the
 * genirq descriptors, trip_ns). So the run stops here, and icb_init()
 * frees nothing and keeps the module loaded; the pin refuses rmmod.
 * Return: true if stuck.
 */
static bool icb_stop_if_stuck(void)
{
	if (!icb_target_stuck(&icb.target))
		return false;
	ic_ktap_diag("a job is stuck on CPU%d: the run stops, nothing it may touch is freed",
		     icb.target.cpu);
	icb.stuck = true;
	return true;
}

/* run=count: the ladder and the counted regions, nothing else. */
static int icb_count_body(void)
{
	int err;

	err = icb_count_init(&icb.target);
	if (err) {
		icb_target_stop(&icb.target);
		return err;
	}
	ic_ktap_begin(&icb.k, ICB_NR_LADDER + icb_count_figures() + icb_countscale_figures() + 2);
	icb_ladder();
	if (icb_stop_if_stuck())
		return 0;
	icb_count_run(&icb.target, ICB_SAMPLES, icb_param_loops, icb_count_report);
	/*
	 * Last: it stops the busy CPU's spinner, so that the others are idle.
	 * Called from here, not from count.c, which countscale.c uses
	 * (tests/circles).
	 */
	icb_countscale_run(&icb.target, ICB_SAMPLES, icb_param_loops, icb_count_report);
	icb_quiesced();
	if (icb_stop_if_stuck())
		return 0;
	icb_count_exit();
	icb_target_stop(&icb.target);
	icb_accounting();
	pr_info("End of bench: %s: cases=%u failed=%u\n",
		icb.k.failed ? "FAILURE" : "SUCCESS", icb.k.done, icb.k.failed);
	return 0;
}

/* The measurements, on the first CPU; the target is another (or itself). */
static long icb_body(void *unused)
{
	int here = smp_processor_id();
	int cpu = cpumask_any_but(cpu_online_mask, here);
	enum icb_case c;
	char name[32];
	int err;

	if (cpu >= nr_cpu_ids)
		cpu = here;
	icb_jobs_init(&icb.jobs);
	err = icb_target_start(&icb.target, cpu);
	if (err)
		return err;
	/* For the counting plugin, whichever the run: where the code is, what each tag is. */
	icb_count_text();
	for (c = 0; c < ICB_NR_LADDER; c++) {
		snprintf(name, sizeof(name), "ladder_%s", icb_ladder_names[c]);
		icb_count_region(ICB_PART_LADDER + c, name, icb_param_loops, ICB_SAMPLES, 1);
	}
	if (icb_param_run == ICB_RUN_COUNT)
		return icb_count_body();
	/*
	 * The ladder, three round trips, contention, sync, scaling,
	 * throughput, accounting.
	 */
	ic_ktap_begin(&icb.k, ICB_NR_LADDER + 3 + icb_contention_cases() +
			      icb_sync_figures() + num_online_cpus() +
			      icb_throughput_figures() + 3);
	icb_send_refused();
	if (icb_stop_if_stuck())
		return 0;
	icb_ladder();
	icb_roundtrips();
	if (!icb_target_stuck(&icb.target)) {
		icb_contention_all();
		icb_sync_all();
	}
	icb_quiesced();
	if (icb_stop_if_stuck())
		return 0;
	icb_target_stop(&icb.target);
	/* Last: its kthreads take every CPU, the target's too. */
	icb_scaling_all();
	icb_throughput_all();
	icb_accounting();
	pr_info("End of bench: %s: cases=%u failed=%u\n",
		icb.k.failed ? "FAILURE" : "SUCCESS", icb.k.done, icb.k.failed);
	return 0;
}

/* A host descriptor of our own (dummy_irq_chip) with @handler requested. */
static int icb_genirq_desc(irq_handler_t handler, unsigned long flags, const char *name)
{
	int virq, err;

	virq = irq_alloc_descs(-1, 1, 1, numa_node_id());
	if (virq < 0)
		return virq;
	irq_set_chip_and_handler(virq, &dummy_irq_chip, handle_simple_irq);
	irq_modify_status(virq, IRQ_NOREQUEST | IRQ_NOAUTOEN, 0);
	err = request_irq(virq, handler, flags, name, &icb);
	if (err) {
		irq_free_descs(virq, 1);
		return err;
	}
	return virq;
}

static void icb_genirq_free(int virq)
{
	free_irq(virq, &icb);
	irq_free_descs(virq, 1);
}

/*
 * genirq's two descriptors. The bare one is requested IRQF_PERCPU |
 * IRQF_NO_DEBUG: the only way a module can set IRQ_NO_DEBUG on 6.1 and
 * 6.12 (irq_modify_status() masks it out; noirqdebug would change every
 * line of the host), which makes handle_irq_event_percpu() skip
 * note_interrupt(). IRQF_PERCPU only keeps the line's affinity fixed.
 */
static int icb_genirq_setup(void)
{
	int virq;

	virq = icb_genirq_desc(icb_genirq_handler, 0, "irqcore_bench");
	if (virq < 0)
		return virq;
	icb.virq = virq;
	virq = icb_genirq_desc(icb_bare_handler, IRQF_PERCPU | IRQF_NO_DEBUG, "irqcore_bench_bare");
	if (virq < 0) {
		icb_genirq_free(icb.virq);
		return virq;
	}
	icb.virq_bare = virq;
	icb.desc_bare = irq_data_to_desc(irq_get_irq_data(virq));
	pr_info("genirq_bare: irq %d, note_interrupt() %s\n", virq,
		icb.desc_bare->status_use_accessors & IRQ_NO_DEBUG ? "skipped (IRQ_NO_DEBUG)" :
		"not skipped: IRQ_NO_DEBUG did not take");
	return 0;
}

static void icb_genirq_teardown(void)
{
	icb_genirq_free(icb.virq_bare);
	icb_genirq_free(icb.virq);
}

static int __init icb_init(void)
{
	int cpu, err;

	err = ic_param_check_names(THIS_MODULE);
	if (err)
		return err;
	pr_info("params(start): run=%s loops=%u trips=%u hold_ms=%u rep=%u regime=%s cpus=%u\n",
		ic_param_enum_name(&icb_run_param, icb_param_run), icb_param_loops,
		icb_param_trips, icb_param_hold_ms, icb_param_rep, ic_regime_name(),
		num_online_cpus());
#ifdef CONFIG_X86
	/* The guest's /proc/cpuinfo "model name": QEMU's -cpu, for the host's meta. */
	pr_info("cpu: model=%s\n", boot_cpu_data.x86_model_id);
#endif
	if (icb_param_run == ICB_RUN_TRACE)
		return icb_scenario_init();
	icb.regime = icb_count_regime();
	icb.trip_ns = kcalloc(icb_param_trips, sizeof(u64), GFP_KERNEL);
	if (!icb.trip_ns)
		return -ENOMEM;
	err = icb_genirq_setup();
	if (err)
		goto out_free;
	err = ic_request_irq(ICB_LINE_SA, icb_ic_sa_handler, IC_SA_INTERRUPT, "bench-sa", &icb);
	if (err)
		goto out_genirq;
	err = ic_request_irq(ICB_LINE_PLAIN, icb_ic_plain_handler, 0, "bench-plain", &icb);
	if (err)
		goto out_sa;
	err = ic_request_irq(ICB_LINE_TRIP, icb_ic_trip_handler, IC_SA_INTERRUPT, "bench-trip",
			     &icb);
	if (err)
		goto out_plain;

	/*
	 * The measuring task is bound to the first CPU (work_on_cpu()) and the
	 * jobs run on another one, kept busy: a sender that wandered onto the
	 * target CPU would share it with the spinner and time the scheduler.
	 */
	cpus_read_lock();
	cpu = cpumask_first(cpu_online_mask);
	err = work_on_cpu(cpu, icb_body, NULL);
	cpus_read_unlock();
	/* Loaded and pinned, its lines and memory kept: icb_stop_if_stuck(). */
	if (icb.stuck)
		return 0;

	ic_free_irq(ICB_LINE_TRIP, &icb);
out_plain:
	ic_free_irq(ICB_LINE_PLAIN, &icb);
out_sa:
	ic_free_irq(ICB_LINE_SA, &icb);
out_genirq:
	icb_genirq_teardown();
out_free:
	kfree(icb.trip_ns);
	return err;
}

static void __exit icb_exit(void)
{
	if (icb_param_run == ICB_RUN_TRACE)
		icb_scenario_exit();
	pr_info("params(end): loops=%u trips=%u rep=%u\n", icb_param_loops, icb_param_trips,
		icb_param_rep);
}

module_init(icb_init);
module_exit(icb_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("The irqcore developers");
MODULE_DESCRIPTION("What one interrupt costs in irqcore's two regimes, beside genirq and the bare IPI");
MODULE_VERSION(IC_VERSION_STRING);
