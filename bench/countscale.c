// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore_bench - how the counted operations grow with the number of CPUs
 * (run=count; tests/cost boots 1, 2, 4, 8 CPUs and fits cost(N) = a + b.N,
 * docs/benchmarks.md, "How the cost grows with CPUs").
 *
 * Every region is counted on one CPU, with the other N - 1 CPUs either
 * idle in the kernel (halted in the idle loop, not polling: nothing of
 * irqcore's runs there) or "loaded": each takes interrupts on a line of
 * its own from a pinned hard hrtimer, one every ICB_SC_PERIOD_US, the
 * handler spending ICB_SC_WORK_US (5 % of each CPU, the same at every N,
 * so the work per CPU is constant and the machine's total grows with N).
 *
 *   excl_idle / excl_load      the exclusion primitive a driver of the
 *                              regime uses: ic_cli(); ic_sti() under
 *                              biglock (2.5.27's global lock), a
 *                              spin_lock_irqsave() pair on the driver's
 *                              own lock under nolock (2.5.28's conversion)
 *   sync_idle / sync_load      ic_synchronize_irq() of a line never raised
 *   disable_idle / disable_load  ic_disable_irq(); ic_enable_irq() of it
 *   dispatch_idle / dispatch_load  one ic_handle_irq() of this CPU's own
 *                              line, in hardirq (a self-IPI)
 *   dispatch_free / dispatch_hold  loops= dispatches on a second CPU kept
 *                              busy, the N - 2 others loaded; _hold with
 *                              this CPU inside the regime's section when
 *                              the sample begins (ICB_SC_HOLD_IN turns),
 *                              then taking it again at a fixed duty in
 *                              instructions (ICB_SC_HOLD_OUT turns out):
 *                              what a dispatch pays, spinning or in
 *                              transfers, for a section it has nothing to
 *                              do with
 *
 * The process-context regions and dispatch_idle/_load take one call a
 * sample and ICB_SC_GAP_US between samples, so that each loaded CPU has
 * taken interrupts since the last sample: a line such a CPU writes per
 * interrupt is found modified by the next sample, and costs it a transfer
 * (a loop of calls would count that line once and divide it by the loop).
 * The _idle row of each pair is the floor of the _load (or _hold) row: the
 * same code path at the same N with nothing to wait for; the host counts
 * what a sample executes above it as spent spinning.
 *
 * The jobs' lifetime (every path, the error paths first): a job sent to
 * the self-IPI or to the busy CPU is waited for, sleeping and for a bounded
 * time, before the next job is sent, before anything it touches is reset,
 * and before anything is freed (icb_jobs_finish(), harness.c); a job the
 * host gives up on is told to stop (icb_sc.jobs.stop ends its waits) and
 * waited for again. One that is still out after ICB_JOBS_QUIESCE_MS makes
 * the run "stuck": nothing it could touch is freed and the module pins
 * itself, so that it cannot be unloaded under the job (scale_quiesced
 * fails and says so). The load's
 * timers are cancelled (hrtimer_cancel() waits for a running tick) on every
 * path that started them, and again by the teardown. irqcore_bench cannot
 * be unloaded during a run at all: the run is its module_init() (main.c),
 * and delete_module() refuses a module that is not yet live (-EBUSY).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cache.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/limits.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/printk.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include <irqcore.h>
#include <irqcore_ktap.h>
#include <irqcore_param.h>

#include "count.h"
#include "harness.h"

/* The lines: the dispatcher's on the second CPU, this CPU's, the idle one, each CPU's. */
#define ICB_SC_LINE_T		36
#define ICB_SC_LINE_M		37
#define ICB_SC_LINE_IDLE	38
#define ICB_SC_LINE0		40	/* CPU c's load line: ICB_SC_LINE0 + c */
#define ICB_SC_PERIOD_US	200
#define ICB_SC_WORK_US		10
/*
 * The load's period, ICB_SC_PERIOD_US unless sc_period_us= says otherwise:
 * 1000 is 2.5's tick (HZ = 1000), which wrote every CPU's local_irq_count
 * a thousand times a second on a 2002 machine that had no idle CPU
 * (tests/cost LOAD=tick; docs/benchmarks.md).
 */
static unsigned int icb_sc_period_us = ICB_SC_PERIOD_US;
static struct ic_param_range icb_sc_period_param = { 50, 10000, &icb_sc_period_us };

ic_module_param_range(sc_period_us, icb_sc_period_param,
		      "run=count: the scaling load's timer period on each loaded CPU, in us (50..10000, default 200; 1000 is 2.5's HZ = 1000 tick)");
/* Samples a load of each one-call region, and the pause between two. */
#define ICB_SC_SAMPLES		16
#define ICB_SC_GAP_US		1000
/* The holder's section and the rest of its period, in cpu_relax() turns. */
#define ICB_SC_HOLD_IN		200
#define ICB_SC_HOLD_OUT		1800
/* The self-IPI job's part for the dispatch outside any sample. */
#define ICB_SC_WARMUP		UINT_MAX
/*
 * How long a job may take: the self-IPI's (it runs at once) and the busy
 * CPU's (its own waits end within a second, then icb_sc.calls dispatches).
 */
#define ICB_SC_SELF_MS		1000
#define ICB_SC_BUSY_MS		2000

/**
 * struct icb_sc_cpu - one CPU's load: its timer and its line.
 * @timer: fires every ICB_SC_PERIOD_US on this CPU (pinned, hard).
 * @line: its line, or 0 where none could be requested.
 * @base: the line's counts when this load requested it. ic_line_stats()
 *	counts from the module's load, and irqcore's load-time probe of a
 *	raise's cost (ctl.c) raises the top free line, which at nr_irqs =
 *	40 + N is the last loaded CPU's: its line showed "issued 0 raised 1"
 *	before its timer ever fired (issue 42's 32- and 64-CPU boots).
 * @issued: dispatches issued by @timer since the line was requested.
 * @runs: runs of the load handler on this CPU.
 * @err: a dispatch error.
 * @arms: icb_sc_arm() calls here since the line was requested.
 * @arms_in_irq: those that ran in hardirq: an IPI woke the CPU. A CPU
 *	polling in idle (idle=poll) takes no IPI and runs every such call
 *	from its idle loop (DESIGN.md section 5); a halting one does so only
 *	in the short window between entering the idle loop and its hlt
 *	(8 CPUs: 1 call of 35; 2 CPUs: the first call of a load, the CPU
 *	on its way into idle). So most calls in hardirq over the load
 *	(scale_idle_halted) is the proof that the "idle" CPUs of the _idle
 *	rows were halted, not polling.
 *
 * Only its own CPU writes it while the timer runs; on a line of its own.
 * @runs, @arms and @arms_in_irq are read from the measuring CPU: written
 * with WRITE_ONCE() here, read with READ_ONCE() there (icb_sc_load_runs(),
 * icb_sc_lines_ok(), icb_sc_halted()), each pairing named where it is read.
 */
struct icb_sc_cpu {
	struct hrtimer timer;
	unsigned int line;
	struct ic_line_stats base;
	unsigned long issued;
	unsigned long runs;
	int err;
	unsigned int arms;
	unsigned int arms_in_irq;
} ____cacheline_aligned_in_smp;

static DEFINE_PER_CPU_SHARED_ALIGNED(struct icb_sc_cpu, icb_sc_cpu);

/**
 * struct icb_sc_mark - one CPU's load handler runs at the start of the
 * region being measured (icb_sc_mark()).
 * @runs: the count, read on that CPU.
 * @valid: taken for this region: icb_sc_lines_ok() takes only a mark of
 *	its own region, and invalidates every mark when it is done, so that
 *	no region is ever checked against an earlier one's (a CPU whose load
 *	ran then and not since would pass).
 *
 * Written and read by the measuring CPU alone, off the loaded CPUs' lines,
 * which the counted samples must find written by their own CPU only.
 */
struct icb_sc_mark {
	unsigned long runs;
	bool valid;
};

static DEFINE_PER_CPU(struct icb_sc_mark, icb_sc_marks);

/**
 * struct icb_sc - the scaling regions' state.
 * @lock: the nolock driver lock of excl_*; only this CPU takes it.
 * @hlock: the nolock holder's driver lock; only the holder takes it.
 * @self: runs dispatch_idle/_load on this CPU in hardirq (a self-IPI).
 * @busy: the second CPU of dispatch_free/_hold, kept busy.
 * @arrived: CPUs at the start line of a dispatch_free/_hold sample.
 * @need: how many must arrive.
 * @warm: the busy CPU made its dispatch outside the sample and is out of
 *	any handler, waiting for @held (dispatch_hold only).
 * @held: the holder is inside its first section: the sample may begin.
 * @regime: 0 nolock, 1 biglock.
 * @calls: dispatches per dispatch_free/_hold sample.
 * @plain_runs: runs of the measured lines' handler (per sample, one CPU).
 * @here: the measuring CPU.
 * @err: the first error of a job (written by the job, read by the host
 *	after the job's release of its target's done: see icb_wait()).
 * @requested: lines requested, for the unwinding (bitmap of CPUs' lines).
 * @fixed: ICB_SC_LINE_T .. ICB_SC_LINE_IDLE requested.
 * @part: the busy job's region: its argument, here rather than on the
 *	sender's stack, which a job that outlived its sender's wait would
 *	read after the sender returned.
 * @self_part: the self-IPI job's region, for the same reason.
 * @jobs: the jobs sent, their lifetime's rule (struct icb_jobs): what
 *	scale_quiesced checks. Its stop ends the busy job's waits.
 */
struct icb_sc {
	spinlock_t lock ____cacheline_aligned_in_smp;
	spinlock_t hlock ____cacheline_aligned_in_smp;
	struct icb_target self ____cacheline_aligned_in_smp;
	struct icb_target busy ____cacheline_aligned_in_smp;
	atomic_t arrived;
	unsigned int need;
	int warm;
	int held;
	int regime;
	unsigned int calls;
	unsigned long plain_runs;
	int here;
	int err;
	struct cpumask requested;
	unsigned int fixed;
	unsigned int part;
	unsigned int self_part;
	struct icb_jobs jobs;
};

static struct icb_sc icb_sc;

/* One call of a region: @n turns, on @line, under @lock (excl_* under nolock). */
struct icb_sc_args {
	unsigned int n;
	unsigned int line;
	spinlock_t *lock;	/* icb_sc.lock, taken by this CPU alone */
};

/* The load lines' handler: ICB_SC_WORK_US of work, counted on its own CPU. */
static void icb_sc_load_handler(unsigned int irq, void *dev_id)
{
	struct icb_sc_cpu *c = this_cpu_ptr(&icb_sc_cpu);

	udelay(ICB_SC_WORK_US);
	/* Only this CPU writes it; read by icb_sc_load_runs() on the measuring CPU. */
	WRITE_ONCE(c->runs, c->runs + 1);
}

/*
 * The measured lines' handler: a plain increment, the same instructions
 * every time (a udelay() here would put time into the counts). One CPU at a
 * time runs it: this CPU's line on this CPU, the busy CPU's line there.
 */
static void icb_sc_plain_handler(unsigned int irq, void *dev_id)
{
	/* Read by icb_sc_busy() after the job's done: see icb_wait(). */
	WRITE_ONCE(icb_sc.plain_runs, icb_sc.plain_runs + 1);
}

/* us_to_ktime() is not in 6.1. */
static ktime_t icb_sc_period(void)
{
	return ns_to_ktime((u64)icb_sc_period_us * NSEC_PER_USEC);
}

static enum hrtimer_restart icb_sc_tick(struct hrtimer *t)
{
	struct icb_sc_cpu *c = container_of(t, struct icb_sc_cpu, timer);

	c->issued++;
	c->err |= ic_handle_irq(c->line);
	hrtimer_forward_now(t, icb_sc_period());
	return HRTIMER_RESTART;
}

static void icb_sc_arm(void *arg)
{
	struct icb_sc_cpu *c = arg;

	/*
	 * Only this CPU writes them, in this call; the caller reads them after
	 * smp_call_function_single(..., wait=1) returned, whose csd unlock
	 * (a release, here) pairs with its csd_lock_wait() (an acquire there).
	 */
	WRITE_ONCE(c->arms, c->arms + 1);
	if (in_hardirq())
		WRITE_ONCE(c->arms_in_irq, c->arms_in_irq + 1);
	hrtimer_start(&c->timer, icb_sc_period(), HRTIMER_MODE_REL_PINNED_HARD);
}

/* Start (@on) or stop the load on every CPU with a line but @skip_a, @skip_b. */
static void icb_sc_load(bool on, int skip_a, int skip_b)
{
	int cpu;

	for_each_cpu(cpu, &icb_sc.requested) {
		struct icb_sc_cpu *c = per_cpu_ptr(&icb_sc_cpu, cpu);

		if (cpu == skip_a || cpu == skip_b)
			continue;
		if (on)
			smp_call_function_single(cpu, icb_sc_arm, c, 1);
		else
			hrtimer_cancel(&c->timer);
	}
	/* Let every CPU take a few before the first sample. */
	if (on)
		usleep_range(5 * icb_sc_period_us, 6 * icb_sc_period_us);
}

/*
 * Load handler runs on every CPU with a line. Each CPU's count is written by
 * that CPU's icb_sc_load_handler() (WRITE_ONCE) and read here (READ_ONCE).
 * Read with the timers stopped, it is exact: hrtimer_cancel() in
 * icb_sc_load(false) returns only after a running tick has finished, and it
 * takes the timer base's lock, which the tick's CPU took back after the
 * callback (the handler's store before that CPU's release of the lock, this
 * read after our acquire of it). Read with the load on (dispatch_free's
 * check, and runs0 of dispatch_hold, whose load goes on from there), a
 * count may lag by the ticks in flight: those two checks only ask for at
 * least one run per loaded CPU over a phase of many periods.
 */
static unsigned long icb_sc_load_runs(void)
{
	unsigned long sum = 0;
	int cpu;

	for_each_cpu(cpu, &icb_sc.requested)
		sum += READ_ONCE(per_cpu_ptr(&icb_sc_cpu, cpu)->runs);
	return sum;
}

/* In an IPI on a loaded CPU: its count, which no tick of its own is inside. */
static void icb_sc_mark_one(void *arg)
{
	*(unsigned long *)arg = this_cpu_ptr(&icb_sc_cpu)->runs;
}

/*
 * icb_sc_mark() - the start of a region: each CPU's count of load handler
 * runs noted, for this region only (struct icb_sc_mark; icb_sc_lines_ok()
 * asks each loaded CPU for runs since), and their sum returned (as
 * icb_sc_load_runs() sums). Each count is read on its CPU, in an IPI, as
 * icb_sc_snap_one() reads the end: exact with the load on too (the mark of
 * dispatch_hold), where a read from here could lag by a tick in flight and
 * give the region a run of the one before.
 */
static unsigned long icb_sc_mark(void)
{
	unsigned long sum = 0, runs;
	int cpu;

	for_each_cpu(cpu, &icb_sc.requested) {
		struct icb_sc_mark *m = per_cpu_ptr(&icb_sc_marks, cpu);

		runs = 0;
		smp_call_function_single(cpu, icb_sc_mark_one, &runs, 1);
		m->runs = runs;
		m->valid = true;
		sum += runs;
	}
	return sum;
}

/* The regions' bodies, one call each; the host divides by calls. */

static noinline int icb_sc_cli_sti(const void *arg)
{
	const struct icb_sc_args *a = arg;
	unsigned int i;

	for (i = 0; i < a->n; i++) {
		ic_cli();
		ic_sti();
	}
	return 0;
}

static noinline int icb_sc_spin_irqsave(const void *arg)
{
	const struct icb_sc_args *a = arg;
	unsigned long flags;
	unsigned int i;

	for (i = 0; i < a->n; i++) {
		spin_lock_irqsave(a->lock, flags);
		spin_unlock_irqrestore(a->lock, flags);
	}
	return 0;
}

static noinline int icb_sc_sync(const void *arg)
{
	const struct icb_sc_args *a = arg;
	unsigned int i;

	for (i = 0; i < a->n; i++)
		ic_synchronize_irq(a->line);
	return 0;
}

static noinline int icb_sc_disable(const void *arg)
{
	const struct icb_sc_args *a = arg;
	unsigned int i;

	for (i = 0; i < a->n; i++) {
		ic_disable_irq(a->line);
		ic_enable_irq(a->line);
	}
	return 0;
}

static noinline int icb_sc_dispatch(const void *arg)
{
	const struct icb_sc_args *a = arg;
	unsigned int i;
	int err = 0;

	for (i = 0; i < a->n; i++)
		err |= ic_handle_irq(a->line);
	return err;
}

/* One counted call of a process-context region; preemption off (the caller's). */
static void icb_sc_process_one(unsigned int part, const struct icb_sc_args *a)
{
	int r = icb_sc.regime;

	switch (part) {
	case ICB_PART_SC_EXCL_IDLE:
		icb_counted(r, ICB_PART_SC_EXCL_IDLE,
			    r ? icb_sc_cli_sti : icb_sc_spin_irqsave, a);
		break;
	case ICB_PART_SC_EXCL_LOAD:
		icb_counted(r, ICB_PART_SC_EXCL_LOAD,
			    r ? icb_sc_cli_sti : icb_sc_spin_irqsave, a);
		break;
	case ICB_PART_SC_SYNC_IDLE:
		icb_counted(r, ICB_PART_SC_SYNC_IDLE, icb_sc_sync, a);
		break;
	case ICB_PART_SC_SYNC_LOAD:
		icb_counted(r, ICB_PART_SC_SYNC_LOAD, icb_sc_sync, a);
		break;
	case ICB_PART_SC_DISABLE_IDLE:
		icb_counted(r, ICB_PART_SC_DISABLE_IDLE, icb_sc_disable, a);
		break;
	case ICB_PART_SC_DISABLE_LOAD:
		icb_counted(r, ICB_PART_SC_DISABLE_LOAD, icb_sc_disable, a);
		break;
	}
}

/*
 * A process-context region: one call outside any sample (what a path does
 * once per load, such as a first-use message, stays out), then
 * ICB_SC_SAMPLES samples of one call, ICB_SC_GAP_US apart.
 */
static void icb_sc_process(unsigned int part)
{
	struct icb_sc_args a = { .n = 1, .line = ICB_SC_LINE_IDLE, .lock = &icb_sc.lock };
	unsigned int i;

	for (i = 0; i <= ICB_SC_SAMPLES; i++) {
		preempt_disable();
		if (i)
			icb_sc_process_one(part, &a);
		else if (part == ICB_PART_SC_EXCL_IDLE || part == ICB_PART_SC_EXCL_LOAD)
			(icb_sc.regime ? icb_sc_cli_sti : icb_sc_spin_irqsave)(&a);
		else if (part == ICB_PART_SC_SYNC_IDLE || part == ICB_PART_SC_SYNC_LOAD)
			icb_sc_sync(&a);
		else
			icb_sc_disable(&a);
		preempt_enable();
		usleep_range(ICB_SC_GAP_US, ICB_SC_GAP_US + 100);
	}
}

/* dispatch_idle/_load: one dispatch of this CPU's line, in the self-IPI. */
static void icb_sc_self_job(void *arg)
{
	struct icb_sc_args a = { .n = 1, .line = ICB_SC_LINE_M };
	unsigned int part = *(unsigned int *)arg;
	int r = icb_sc.regime, err;

	if (part == ICB_SC_WARMUP)
		err = icb_sc_dispatch(&a);
	else if (part == ICB_PART_SC_DISPATCH_IDLE)
		err = icb_counted(r, ICB_PART_SC_DISPATCH_IDLE, icb_sc_dispatch, &a);
	else
		err = icb_counted(r, ICB_PART_SC_DISPATCH_LOAD, icb_sc_dispatch, &a);
	if (err && !icb_sc.err)
		WRITE_ONCE(icb_sc.err, err);
}

/* Return: 0, -ETIMEDOUT, -EPERM (outside hardirq) or a dispatch error. */
static int icb_sc_self(unsigned int part)
{
	unsigned int i;
	int err;

	/* The first outside any sample: its lines come to this CPU there. */
	for (i = 0; i <= ICB_SC_SAMPLES; i++) {
		icb_sc.self_part = i ? part : ICB_SC_WARMUP;
		preempt_disable();
		/* Interrupts are on: the self-IPI runs the job at once. */
		err = icb_jobs_send(&icb_sc.jobs, &icb_sc.self, icb_sc_self_job,
				    &icb_sc.self_part);
		preempt_enable();
		err = icb_jobs_finish(&icb_sc.jobs, &icb_sc.self, "count: scale_dispatch", err,
				      ICB_SC_SELF_MS);
		if (!err && !icb_sc.self.hardirq)
			err = -EPERM;
		if (!err)
			err = READ_ONCE(icb_sc.err);
		if (err)
			return err;
		usleep_range(ICB_SC_GAP_US, ICB_SC_GAP_US + 100);
	}
	return 0;
}

/*
 * dispatch_free/_hold on the busy CPU: wait until the holder (if any) has
 * arrived, one dispatch outside the sample, then icb_sc.calls in it.
 */
static void icb_sc_busy_job(void *arg)
{
	struct icb_sc_args a = { .n = icb_sc.calls, .line = ICB_SC_LINE_T };
	unsigned int part = *(unsigned int *)arg;
	int r = icb_sc.regime, err;
	u64 end;

	atomic_inc(&icb_sc.arrived);
	end = ktime_get_ns() + NSEC_PER_SEC;
	while (atomic_read(&icb_sc.arrived) < icb_sc.need) {
		/* The host gave up on this job (icb_jobs_finish()). */
		if (ktime_get_ns() > end || READ_ONCE(icb_sc.jobs.stop)) {
			err = -ETIMEDOUT;
			goto out;
		}
		cpu_relax();
	}
	err = ic_handle_irq(ICB_SC_LINE_T);
	if (!err && part == ICB_PART_SC_DISPATCH_HOLD) {
		/*
		 * The sample begins inside the holder's section. Pairs with
		 * the acquire in icb_sc_hold(), and its release of @held with
		 * the acquire here.
		 */
		smp_store_release(&icb_sc.warm, 1);
		/* Pairs with the release of @held in icb_sc_hold(). */
		while (!smp_load_acquire(&icb_sc.held)) {
			if (ktime_get_ns() > end || READ_ONCE(icb_sc.jobs.stop)) {
				err = -ETIMEDOUT;
				goto out;
			}
			cpu_relax();
		}
	}
	if (!err) {
		if (part == ICB_PART_SC_DISPATCH_FREE)
			err = icb_counted(r, ICB_PART_SC_DISPATCH_FREE, icb_sc_dispatch, &a);
		else
			err = icb_counted(r, ICB_PART_SC_DISPATCH_HOLD, icb_sc_dispatch, &a);
	}
out:
	if (err)
		WRITE_ONCE(icb_sc.err, err);
}

static void icb_sc_relax(unsigned int turns)
{
	while (turns--)
		cpu_relax();
}

/* The regime's section: cli() under biglock, the driver's own lock under nolock. */
static void icb_sc_section(unsigned int turns)
{
	unsigned long flags;

	if (icb_sc.regime) {
		ic_cli();
		icb_sc_relax(turns);
		ic_sti();
	} else {
		spin_lock_irqsave(&icb_sc.hlock, flags);
		icb_sc_relax(turns);
		spin_unlock_irqrestore(&icb_sc.hlock, flags);
	}
}

/*
 * The holder, on this CPU while the busy CPU's job runs: the regime's
 * section, ICB_SC_HOLD_IN turns long, then ICB_SC_HOLD_OUT turns outside,
 * until the job is done. The first section is entered while the busy CPU
 * waits, out of any handler, for the sample to begin, so every sample
 * begins inside a section: 2.5.27's cli() waits until no CPU is in a
 * handler, and against a CPU that dispatches back to back it would
 * seldom get in at all (the first counted boot: at 4 CPUs not one
 * sample of ten saw the section). cli() takes the global lock only with
 * local interrupts on: process context, preemption off (the caller's).
 */
static int icb_sc_hold(void)
{
	u64 end = ktime_get_ns() + NSEC_PER_SEC;
	unsigned long flags;
	bool first = true;

	atomic_inc(&icb_sc.arrived);
	/* Pairs with the release of @warm in icb_sc_busy_job(). */
	while (!smp_load_acquire(&icb_sc.warm)) {
		/* Pairs with the release in the harness's job: a job that failed. */
		if (ktime_get_ns() > end || smp_load_acquire(&icb_sc.busy.done))
			return -ETIMEDOUT;
		cpu_relax();
	}
	/* Pairs with the release in the harness's job. */
	while (!smp_load_acquire(&icb_sc.busy.done)) {
		if (ktime_get_ns() > end)
			return -ETIMEDOUT;
		if (first) {
			/* The section of icb_sc_section(), with @held raised inside it. */
			if (icb_sc.regime) {
				ic_cli();
				/* Pairs with the acquire in icb_sc_busy_job(). */
				smp_store_release(&icb_sc.held, 1);
				icb_sc_relax(ICB_SC_HOLD_IN);
				ic_sti();
			} else {
				spin_lock_irqsave(&icb_sc.hlock, flags);
				/* Pairs with the acquire in icb_sc_busy_job(). */
				smp_store_release(&icb_sc.held, 1);
				icb_sc_relax(ICB_SC_HOLD_IN);
				spin_unlock_irqrestore(&icb_sc.hlock, flags);
			}
			first = false;
		} else {
			icb_sc_section(ICB_SC_HOLD_IN);
		}
		icb_sc_relax(ICB_SC_HOLD_OUT);
	}
	return 0;
}

/*
 * Return: 0, or an error: -EBADMSG when the handler runs are not the
 * dispatches. Every round's job is done (or the run is stuck) on return,
 * whatever the error: the holder's, the send's or the job's.
 */
static int icb_sc_busy(unsigned int part, unsigned int rounds)
{
	bool hold = part == ICB_PART_SC_DISPATCH_HOLD;
	const char *name = hold ? "count: scale_dispatch_hold" : "count: scale_dispatch_free";
	unsigned int i;
	int err = 0;

	icb_sc.part = part;
	for (i = 0; i < rounds && !err; i++) {
		unsigned long before = READ_ONCE(icb_sc.plain_runs);

		/* No job is out (icb_jobs_finish() below, every round): nothing reads these now. */
		icb_sc.need = 1 + hold;
		WRITE_ONCE(icb_sc.err, 0);
		WRITE_ONCE(icb_sc.warm, 0);
		WRITE_ONCE(icb_sc.held, 0);
		WRITE_ONCE(icb_sc.jobs.stop, false);
		atomic_set(&icb_sc.arrived, 0);
		preempt_disable();
		err = icb_jobs_send(&icb_sc.jobs, &icb_sc.busy, icb_sc_busy_job, &icb_sc.part);
		if (!err && hold)
			err = icb_sc_hold();
		preempt_enable();
		err = icb_jobs_finish(&icb_sc.jobs, &icb_sc.busy, name, err, ICB_SC_BUSY_MS);
		if (!err && !icb_sc.busy.hardirq)
			err = -EPERM;
		if (!err)
			err = READ_ONCE(icb_sc.err);
		/* Written by the handler in the job, before its release of done. */
		if (!err && READ_ONCE(icb_sc.plain_runs) - before != icb_sc.calls + 1)
			err = -EBADMSG;
	}
	return err;
}

/* One CPU's accounting, read on that CPU. */
struct icb_sc_snap {
	unsigned long issued;
	unsigned long runs;
	int err;
	int got;
	struct ic_line_stats s;
};

/*
 * In an IPI on the loaded CPU: its tick runs in hardirq with interrupts
 * off, so this sees every tick whole. Read from another CPU while the
 * timers run, a tick between its issued++ and the dispatch's count made
 * "issued 323, raised 322" (4 CPUs, nolock, the first counted boot).
 */
static void icb_sc_snap_one(void *arg)
{
	struct icb_sc_cpu *c = this_cpu_ptr(&icb_sc_cpu);
	struct icb_sc_snap *p = arg;

	p->issued = c->issued;
	p->runs = c->runs;
	p->err = c->err;
	p->got = ic_line_stats(c->line, &p->s);
}

/*
 * Each loaded CPU's interrupts in a region, one by one (issue 42): lines of
 * ICB_SC_PER_LINE "cpu:runs" pairs, "count: scale-load-cpus name=... runs=",
 * printed before the region's "scale-load" line, which ends them
 * (tests/lib/cost-scaling.py).
 */
#define ICB_SC_PER_LINE		16

struct icb_sc_cpus_line {
	char buf[ICB_SC_PER_LINE * 24];
	unsigned int len, n;
};

static void icb_sc_cpus_flush(const char *name, struct icb_sc_cpus_line *l)
{
	if (l->n)
		pr_info("count: scale-load-cpus name=%s runs=%s\n", name, l->buf);
	l->len = 0;
	l->n = 0;
	l->buf[0] = '\0';
}

static void icb_sc_cpus_add(const char *name, struct icb_sc_cpus_line *l, int cpu,
			    unsigned long runs)
{
	l->len += scnprintf(l->buf + l->len, sizeof(l->buf) - l->len, "%s%d:%lu",
			    l->n ? "," : "", cpu, runs);
	if (++l->n == ICB_SC_PER_LINE)
		icb_sc_cpus_flush(name, l);
}

/*
 * Every loaded line's accounting: all dispatched, all handled, nothing
 * merged or latched, and (where @want_runs) each loaded CPU's handler ran
 * at least once since the region's icb_sc_mark() (@runs0 their sum): a
 * load region whose load never fired on a CPU measured that CPU idle. The
 * sum alone hid one such CPU among seven that fired (issue 39). Each
 * loaded CPU's mark must be this region's, and every mark is invalid
 * after this (struct icb_sc_mark): a region checked without a mark of its
 * own fails, instead of passing a CPU that ran only in a region before.
 */
static bool icb_sc_lines_ok(const char *name, unsigned long runs0, bool want_runs, int skip)
{
	unsigned long runs = icb_sc_load_runs() - runs0, loaded = 0, arms = 0, in_irq = 0;
	unsigned long least = ULONG_MAX;
	struct icb_sc_cpus_line line = { .buf = "" };
	struct icb_sc_mark *m;
	int cpu;
	bool ok = true;

	for_each_cpu(cpu, &icb_sc.requested) {
		struct icb_sc_cpu *c = per_cpu_ptr(&icb_sc_cpu, cpu);
		struct icb_sc_snap p = { .got = -ENODATA };
		struct ic_line_stats *s = &p.s;

		ic_synchronize_irq(c->line);
		smp_call_function_single(cpu, icb_sc_snap_one, &p, 1);
		/* This load's counts: the line's less what it had when requested. */
		if (p.got || p.err || !ic_line_stats_balance(s) ||
		    s->raised - c->base.raised != p.issued || s->merged != c->base.merged ||
		    s->latched || s->handled - c->base.handled != p.runs) {
			ic_ktap_diag("count: %s: CPU%d line %u: issued %lu raised %lu handled %lu",
				     name, cpu, c->line, p.issued, s->raised - c->base.raised,
				     s->handled - c->base.handled);
			ic_ktap_diag("count: %s: CPU%d line %u had raised %lu handled %lu before",
				     name, cpu, c->line, c->base.raised, c->base.handled);
			ic_ktap_diag("count: %s: CPU%d: runs %lu merged %lu latched %lu err %d",
				     name, cpu, p.runs, s->merged - c->base.merged, s->latched,
				     p.got ? p.got : p.err);
			ok = false;
		}
		/* After the IPI above: see icb_sc_arm() for the pairing. */
		arms += READ_ONCE(c->arms);
		in_irq += READ_ONCE(c->arms_in_irq);
		if (cpu == skip)
			continue;
		loaded++;
		/* p.runs read on that CPU, in the IPI; the mark is ours, of this region. */
		m = per_cpu_ptr(&icb_sc_marks, cpu);
		if (!m->valid) {
			ic_ktap_diag("count: %s: CPU%d has no mark of this region", name, cpu);
			ok = false;
			continue;
		}
		least = min(least, p.runs - m->runs);
		if (want_runs)
			icb_sc_cpus_add(name, &line, cpu, p.runs - m->runs);
		if (want_runs && p.runs == m->runs) {
			ic_ktap_diag("count: %s: loaded CPU%d took no interrupt in the region",
				     name, cpu);
			ok = false;
		}
	}
	/* Used: the next region must take its own. */
	for_each_cpu(cpu, &icb_sc.requested)
		per_cpu_ptr(&icb_sc_marks, cpu)->valid = false;
	if (want_runs && loaded && runs < loaded) {
		ic_ktap_diag("count: %s: %lu loaded CPUs took %lu interrupts in the region",
			     name, loaded, runs);
		ok = false;
	}
	icb_sc_cpus_flush(name, &line);
	/* least=: the fewest any loaded CPU took (tests/lib/cost-scaling.py). */
	pr_info("count: scale-load name=%s cpus=%u loaded=%lu interrupts=%lu least=%lu arms_in_hardirq=%lu/%lu\n",
		name, num_online_cpus(), want_runs ? loaded : 0, runs,
		want_runs && loaded ? least : 0, in_irq, arms);
	return ok;
}

static int icb_sc_setup(void)
{
	static const unsigned int fixed[] = { ICB_SC_LINE_T, ICB_SC_LINE_M, ICB_SC_LINE_IDLE };
	int cpu, err;

	icb_sc.regime = icb_count_regime();
	icb_sc.here = raw_smp_processor_id();
	spin_lock_init(&icb_sc.lock);
	spin_lock_init(&icb_sc.hlock);
	cpumask_clear(&icb_sc.requested);
	for (icb_sc.fixed = 0; icb_sc.fixed < ARRAY_SIZE(fixed); icb_sc.fixed++) {
		err = ic_request_irq(fixed[icb_sc.fixed],
				     icb_sc_plain_handler, IC_SA_INTERRUPT, "count-scale", &icb_sc);
		if (err)
			return err;
	}
	for_each_online_cpu(cpu) {
		struct icb_sc_cpu *c = per_cpu_ptr(&icb_sc_cpu, cpu);

		if (cpu == icb_sc.here)
			continue;
		if (ICB_SC_LINE0 + cpu >= ic_nr_irqs())
			return -ERANGE;
		memset(c, 0, sizeof(*c));
		hrtimer_init(&c->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
		c->timer.function = icb_sc_tick;
		c->line = ICB_SC_LINE0 + cpu;
		err = ic_request_irq(c->line, icb_sc_load_handler, IC_SA_INTERRUPT,
				     "count-load", &icb_sc);
		if (err)
			return err;
		/* Its timer is not armed yet: nothing raises the line now. */
		ic_line_stats(c->line, &c->base);
		cpumask_set_cpu(cpu, &icb_sc.requested);
		ic_set_affinity(c->line, cpu);
	}
	return icb_target_start(&icb_sc.self, icb_sc.here);
}

/*
 * Every path ends here, the setup's errors too. A stuck job (one still out
 * ICB_JOBS_QUIESCE_MS after it was told to stop) may yet touch the targets
 * and the fixed lines, and its code is this module's: those are left as
 * they are, its target's spinner only told to stop (icb_target_stop()),
 * and the module has pinned itself (icb_jobs_finish()), so that no rmmod
 * frees its code under the job. The load lines, which no job touches, are
 * freed after their timers are cancelled.
 */
static void icb_sc_teardown(void)
{
	static const unsigned int fixed[] = { ICB_SC_LINE_T, ICB_SC_LINE_M, ICB_SC_LINE_IDLE };
	int cpu;

	icb_target_stop(&icb_sc.self);
	icb_target_stop(&icb_sc.busy);
	if (icb_sc.jobs.stuck)
		pr_err("count: a job never finished: lines %u..%u kept, irqcore_bench pinned (reboot to unload)\n",
		       ICB_SC_LINE_T, ICB_SC_LINE_IDLE);
	for_each_cpu(cpu, &icb_sc.requested) {
		struct icb_sc_cpu *c = per_cpu_ptr(&icb_sc_cpu, cpu);

		hrtimer_cancel(&c->timer);
		ic_set_affinity(c->line, -1);
		ic_free_irq(c->line, &icb_sc);
	}
	cpumask_clear(&icb_sc.requested);
	while (icb_sc.fixed && !icb_sc.jobs.stuck)
		ic_free_irq(fixed[--icb_sc.fixed], &icb_sc);
}

/**
 * icb_countscale_figures() - how many KTAP results icb_countscale_run() writes.
 *
 * Context: any.
 * Return: the number of results.
 */
unsigned int icb_countscale_figures(void)
{
	return 8;
}

/*
 * scale_idle_halted: most of the load's arming calls ran in hardirq, so
 * the idle CPUs were halted (see struct icb_sc_cpu). Before the teardown.
 */
static void icb_sc_halted(void (*report)(const char *name, bool ok, const char *skip))
{
	unsigned long arms = 0, in_irq = 0;
	int cpu;

	/* Each written in icb_sc_arm(), ordered by its wait=1 call: see there. */
	for_each_cpu(cpu, &icb_sc.requested) {
		arms += READ_ONCE(per_cpu_ptr(&icb_sc_cpu, cpu)->arms);
		in_irq += READ_ONCE(per_cpu_ptr(&icb_sc_cpu, cpu)->arms_in_irq);
	}
	pr_info("count: scale-idle arms=%lu in_hardirq=%lu\n", arms, in_irq);
	if (!arms) {
		report("scale_idle_halted", true, "needs 2 or more CPUs: no other CPU to be idle");
		return;
	}
	if (in_irq * 2 <= arms)
		ic_ktap_diag("count: scale_idle_halted: %lu of %lu arms not in hardirq: idle polls",
			     arms - in_irq, arms);
	report("scale_idle_halted", in_irq * 2 > arms, NULL);
}

/*
 * scale_quiesced: the jobs' lifetime rule held (the top of this file): no
 * send found a job still out, none is out now, no job is stuck, and no
 * load timer is left queued. Just before the teardown, which frees.
 */
static void icb_sc_quiesced(void (*report)(const char *name, bool ok, const char *skip))
{
	unsigned int timers = 0;
	int cpu;

	for_each_cpu(cpu, &icb_sc.requested)
		timers += hrtimer_active(&per_cpu_ptr(&icb_sc_cpu, cpu)->timer);
	report("scale_quiesced", icb_jobs_quiesced(&icb_sc.jobs, "count: scale_quiesced", timers),
	       NULL);
}

/* The process-context pairs, and dispatch_idle/_load. */
static void icb_sc_pairs(void (*report)(const char *name, bool ok, const char *skip))
{
	static const struct {
		const char *name;
		unsigned int idle, load;
	} pairs[] = {
		{ "excl", ICB_PART_SC_EXCL_IDLE, ICB_PART_SC_EXCL_LOAD },
		{ "sync", ICB_PART_SC_SYNC_IDLE, ICB_PART_SC_SYNC_LOAD },
		{ "disable", ICB_PART_SC_DISABLE_IDLE, ICB_PART_SC_DISABLE_LOAD },
	};
	unsigned long runs0;
	char name[32];
	unsigned int i;
	int err;
	bool ok;

	for (i = 0; i < ARRAY_SIZE(pairs); i++) {
		snprintf(name, sizeof(name), "scale_%s", pairs[i].name);
		runs0 = icb_sc_mark();
		icb_sc_process(pairs[i].idle);
		ok = icb_sc_lines_ok(name, runs0, false, -1);
		/* Idle means idle: no load interrupt while the floor was counted. */
		ok &= icb_sc_load_runs() == runs0;
		icb_sc_load(true, -1, -1);
		runs0 = icb_sc_mark();
		icb_sc_process(pairs[i].load);
		icb_sc_load(false, -1, -1);
		report(name, icb_sc_lines_ok(name, runs0, true, -1) && ok, NULL);
	}
	runs0 = icb_sc_mark();
	err = icb_sc_self(ICB_PART_SC_DISPATCH_IDLE);
	ok = !err && icb_sc_load_runs() == runs0;
	icb_sc_load(true, -1, -1);
	runs0 = icb_sc_mark();
	if (!err)
		err = icb_sc_self(ICB_PART_SC_DISPATCH_LOAD);
	icb_sc_load(false, -1, -1);
	if (err)
		ic_ktap_diag("count: scale_dispatch: %d", err);
	report("scale_dispatch", !err && icb_sc_lines_ok("scale_dispatch", runs0, true, -1) && ok,
	       NULL);
}

/**
 * icb_countscale_run() - the scaling regions (after count.c's).
 * @target: count.c's busy CPU; its spinner is stopped here, so that the
 *	other CPUs are idle in the kernel, and the busy CPU of
 *	dispatch_free/_hold is kept busy by a spinner of this file's.
 * @rounds: samples of dispatch_free/_hold a load.
 * @calls: dispatches per dispatch_free/_hold sample.
 * @report: writes a KTAP result: name, ok, and a skip reason or NULL.
 *
 * Context: process, on the measuring CPU; sleeps.
 */
void icb_countscale_run(struct icb_target *target, unsigned int rounds, unsigned int calls,
			void (*report)(const char *name, bool ok, const char *skip))
{
	static const char * const names[] = {
		"scale_excl", "scale_sync", "scale_disable", "scale_dispatch",
		"scale_dispatch_free", "scale_dispatch_hold", "scale_idle_halted",
		"scale_quiesced",
	};
	bool alone = num_online_cpus() < 2;
	unsigned long runs0;
	unsigned int i;
	int err, t;
	bool ok;

	if (icb_target_stuck(target)) {
		/* count.c's job holds the busy CPU: nothing is sent behind it. */
		ic_ktap_diag("count: scale: CPU%d's job of count.c is stuck", target->cpu);
		for (i = 0; i < ARRAY_SIZE(names); i++)
			report(names[i], false, NULL);
		return;
	}
	icb_target_stop(target);
	memset(&icb_sc.self, 0, sizeof(icb_sc.self));
	memset(&icb_sc.busy, 0, sizeof(icb_sc.busy));
	/* No job out yet: done, for icb_wait() (icb_target_start() sets it too). */
	icb_sc.self.done = true;
	icb_sc.busy.done = true;
	icb_jobs_init(&icb_sc.jobs);
	icb_sc.calls = calls;
	icb_sc.err = 0;
	err = icb_sc_setup();
	if (err) {
		ic_ktap_diag("count: scale setup: %d", err);
		icb_sc_teardown();
		for (i = 0; i < ARRAY_SIZE(names); i++)
			report(names[i], false, NULL);
		return;
	}
	/*
	 * cpus= the CPUs online, nr_cpus= irqcore's NR_CPUS: what biglock's
	 * scan walks, whatever the CPUs online (module/biglock.c).
	 */
	pr_info("count: scale cpus=%u possible=%u nr_cpus=%u here=%d period_us=%u work_us=%u gap_us=%u hold_in=%u hold_out=%u\n",
		num_online_cpus(), num_possible_cpus(), ic_nr_cpus_scanned(), icb_sc.here,
		icb_sc_period_us, ICB_SC_WORK_US, ICB_SC_GAP_US, ICB_SC_HOLD_IN, ICB_SC_HOLD_OUT);
	icb_count_region(ICB_PART_SC_EXCL_IDLE, "sc_excl_idle", 1, ICB_SC_SAMPLES, 1);
	icb_count_region(ICB_PART_SC_EXCL_LOAD, "sc_excl_load", 1, ICB_SC_SAMPLES, 1);
	icb_count_region(ICB_PART_SC_SYNC_IDLE, "sc_sync_idle", 1, ICB_SC_SAMPLES, 1);
	icb_count_region(ICB_PART_SC_SYNC_LOAD, "sc_sync_load", 1, ICB_SC_SAMPLES, 1);
	icb_count_region(ICB_PART_SC_DISABLE_IDLE, "sc_disable_idle", 1, ICB_SC_SAMPLES, 1);
	icb_count_region(ICB_PART_SC_DISABLE_LOAD, "sc_disable_load", 1, ICB_SC_SAMPLES, 1);
	icb_count_region(ICB_PART_SC_DISPATCH_IDLE, "sc_dispatch_idle", 1, ICB_SC_SAMPLES, 1);
	icb_count_region(ICB_PART_SC_DISPATCH_LOAD, "sc_dispatch_load", 1, ICB_SC_SAMPLES, 1);
	if (!alone) {
		icb_count_region(ICB_PART_SC_DISPATCH_FREE, "sc_dispatch_free", calls, rounds, 1);
		icb_count_region(ICB_PART_SC_DISPATCH_HOLD, "sc_dispatch_hold", calls, rounds, 1);
	}

	icb_sc_pairs(report);

	if (alone) {
		report("scale_dispatch_free", true, "needs 2 or more CPUs");
		report("scale_dispatch_hold", true, "needs 2 or more CPUs");
		goto out;
	}
	if (icb_sc.jobs.stuck) {
		/* The self-IPI's job never finished: send nothing more. */
		report("scale_dispatch_free", false, NULL);
		report("scale_dispatch_hold", false, NULL);
		goto out;
	}
	/* The busy CPU is count.c's; the N - 2 others stay loaded. */
	t = target->cpu;
	err = icb_target_start(&icb_sc.busy, t);
	if (err) {
		report("scale_dispatch_free", false, NULL);
		report("scale_dispatch_hold", false, NULL);
		goto out;
	}
	icb_sc_load(true, icb_sc.here, t);
	runs0 = icb_sc_mark();
	err = icb_sc_busy(ICB_PART_SC_DISPATCH_FREE, rounds);
	if (err)
		ic_ktap_diag("count: scale_dispatch_free: %d", err);
	ok = !err && icb_sc_lines_ok("scale_dispatch_free", runs0, true, t);
	report("scale_dispatch_free", ok, NULL);
	runs0 = icb_sc_mark();
	/* A stuck job keeps the busy CPU: no second job behind it. */
	err = icb_sc.jobs.stuck ? -ETIMEDOUT : icb_sc_busy(ICB_PART_SC_DISPATCH_HOLD, rounds);
	if (err)
		ic_ktap_diag("count: scale_dispatch_hold: %d", err);
	icb_sc_load(false, icb_sc.here, t);
	ok = !err && icb_sc_lines_ok("scale_dispatch_hold", runs0, true, t);
	report("scale_dispatch_hold", ok, NULL);
out:
	icb_sc_halted(report);
	icb_sc_quiesced(report);
	icb_sc_teardown();
}
