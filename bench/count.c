// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore_bench - the counted regions beyond the ladder (run=count): what
 * the counting plugin (tools/count/) measures in instructions, locked
 * instructions, fences and cache-line transfers instead of nanoseconds.
 *
 *   cli_sti       an ic_cli(); ic_sti() pair: under biglock 2.5.27's global
 *                 lock, under nolock the local-only cli() 2.5.28 left
 *   spin_irqsave  a spin_lock_irqsave(); spin_unlock_irqrestore() pair on
 *                 a lock of the driver's own, 2.5.28's conversion
 *   sync_idle     ic_synchronize_irq() of a line that is never raised
 *   raise_send    the sender's half of ic_raise() to a handler on the busy
 *                 CPU: the edge, the pending bit and the IPI sent (the
 *                 receiver's half starts in irqcore's kick, out of reach
 *                 of markers in this module)
 *   xfer_k1       loops= dispatches of the busy CPU's own line, alone
 *   xfer_k2       the same on every one of two CPUs at once, each its own
 *                 line: what they share shows as transfers
 *   xfer_k1_holder  xfer_k1 while the measuring CPU takes and drops, over
 *                 and over, what a driver took in place of a handler's
 *                 line: cli() under biglock (2.5.27's one lock for all),
 *                 its own driver lock under nolock (2.5.28's conversion)
 *   xfer_k2_holder  the same, the holder also dispatching its own line
 *                 between its sections (as in throughput.c, where the
 *                 holder's CPU takes interrupts too); only the busy CPU's
 *                 dispatches are counted
 *
 * The transfer regions are the big IRQ lock's price in cache lines: the
 * plugin's coherence model (docs/counting.md) counts a line each time it
 * has to come from the other CPU. Each of their samples follows one
 * dispatch of the same line outside any sample, so that what the other
 * CPU wrote at setup (the line's request, the job's arguments) is fetched
 * there and not counted as the dispatch's.
 *
 * The first three run on the measuring CPU in process context with
 * preemption off (a scheduler switch inside a sample would count another
 * task's code; an interrupt inside one makes the plugin drop it). Each
 * sample is one call of a loop function; the host divides by the calls.
 *
 * The jobs' lifetime (struct icb_jobs, as in countscale.c): every job of a
 * transfer round, the busy CPU's, this CPU's and the holder's, is waited
 * for, sleeping and bounded, on every path (a failed send or a holder that
 * gave up too) before the next round sends, before the round's state is
 * reset and before anything is freed; a late job is told to stop and
 * waited for again. One still out after that is stuck: no job is sent
 * after it, the lines stay requested, the module is pinned, and
 * count_quiesced fails.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/cache.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/printk.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include <irqcore.h>
#include <irqcore_ktap.h>

#include "count.h"
#include "harness.h"

/* The lines of the counted regions, apart from the other figures' lines. */
#define ICB_CNT_LINE_FIRST	26
#define ICB_CNT_LINE_IDLE	26	/* synchronize_irq(), never raised */
#define ICB_CNT_LINE_RAISE	27	/* ic_raise() to the busy CPU */
#define ICB_CNT_LINE_XFER0	28	/* CPU i of the transfer regions: 28 + i */
#define ICB_CNT_XFER_CPUS	2
#define ICB_CNT_NR_LINES	(2 + ICB_CNT_XFER_CPUS)
/* Raises per round in raise_send: each is a sample of one call. */
#define ICB_CNT_RAISES		8
/* The k = 2 holder's dispatches of its own line between two sections. */
#define ICB_CNT_HOLD_BATCH	4
/* How long a transfer job may take: its wait for the others ends within a second. */
#define ICB_CNT_JOB_MS		2000

/*
 * Handler runs per CPU, for each line: a plain increment of the CPU's own
 * copy, so that counting them adds no locked instruction and no shared line
 * to what the plugin counts.
 */
enum { ICB_CNT_H_IDLE, ICB_CNT_H_RAISE, ICB_CNT_H_XFER, ICB_CNT_NR_H };

struct icb_cnt_runs {
	unsigned long h[ICB_CNT_NR_H];
};

static DEFINE_PER_CPU(struct icb_cnt_runs, icb_cnt_runs);

/**
 * struct icb_cnt_xfer - one CPU of the transfer regions, on a line of its own.
 * @t: runs the job on the CPU in hardirq: the busy target, or this CPU's
 *	self-IPI.
 * @line: the CPU's irqcore line.
 * @err: a dispatch error, or a wait for the other CPU that timed out.
 * @ran: handler runs during the job's sample.
 * @issued: dispatches of @line issued in this load.
 */
struct icb_cnt_xfer {
	struct icb_target *t;
	unsigned int line;
	int err;
	unsigned long ran;
	unsigned long issued;
} ____cacheline_aligned_in_smp;

/**
 * struct icb_cnt - the counted regions' state.
 * @lock: the driver's own lock of spin_irqsave; nothing else takes it.
 * @hlock: the holder's driver lock under nolock; nothing else takes it.
 * @self: runs jobs on the measuring CPU in hardirq (a self-IPI).
 * @regime: 0 nolock, 1 biglock.
 * @calls: calls per sample.
 * @part: the transfer region now running (enum icb_part).
 * @need: CPUs that must reach its start line before the samples begin.
 * @arrived: CPUs that reached the transfer region's start line.
 * @raised: ic_raise() calls that returned 0.
 * @bad: handler runs outside hardirq.
 * @before: each line's accounting when it was requested (a line's counts
 *	live as long as irqcore's load).
 * @xfer: the CPUs of the transfer regions: the busy one, then this one.
 * @requested: lines requested, for the unwinding.
 * @jobs: the jobs sent, their lifetime's rule (struct icb_jobs): what
 *	count_quiesced checks. Its stop ends the transfer job's wait.
 */
struct icb_cnt {
	spinlock_t lock ____cacheline_aligned_in_smp;	/* spin_irqsave's; nothing else */
	spinlock_t hlock ____cacheline_aligned_in_smp;	/* the nolock holder's; nothing else */
	struct icb_target self ____cacheline_aligned_in_smp;
	int regime;
	unsigned int calls;
	unsigned int part;
	unsigned int need;
	atomic_t arrived;
	unsigned long raised;
	atomic_long_t bad;
	struct ic_line_stats before[ICB_CNT_NR_LINES];
	struct icb_cnt_xfer xfer[ICB_CNT_XFER_CPUS];
	unsigned int requested;
	struct icb_jobs jobs;
};

static struct icb_cnt icb_cnt;

/* A region's arguments, copied onto the stack of the CPU that runs it. */
struct icb_cnt_args {
	unsigned int n;
	unsigned int line;
	spinlock_t *lock;		/* icb_cnt.lock, for spin_irqsave */
};

/**
 * icb_count_regime() - the tag set of this load.
 *
 * Context: any.
 * Return: 1 under biglock, 0 under nolock.
 */
int icb_count_regime(void)
{
	return !strcmp(ic_regime_name(), "biglock");
}

/**
 * icb_count_text() - the line from which the host finds the modules' code.
 *
 * The plugin's profile holds run-time addresses. The host knows each
 * function's offset in its module's .text from the .ko files, so one
 * address of a known function in each module gives the module's .text
 * (the raw address: a hashed %p would name nothing).
 *
 * Context: process.
 */
void icb_count_text(void)
{
	pr_info("count: text irqcore_bench=icb_count_region@0x%lx irqcore=ic_handle_irq@0x%lx\n",
		(unsigned long)icb_count_region, (unsigned long)ic_handle_irq);
}

/**
 * icb_count_region() - name a counted region for the host.
 * @part: its enum icb_part; the line gives the tag of this load's regime.
 * @name: its name in the report.
 * @calls: calls per sample: the host divides a sample's counts by it.
 * @samples: samples this load takes of it, on each CPU.
 * @cpus: how many CPUs take samples of it at once.
 *
 * Context: any.
 */
void icb_count_region(unsigned int part, const char *name, unsigned int calls,
		      unsigned int samples, unsigned int cpus)
{
	pr_info("count: region tag=%u name=%s regime=%s calls=%u samples=%u cpus=%u\n",
		ICB_TAG(icb_count_regime(), part), name, ic_regime_name(), calls, samples, cpus);
}

static void icb_cnt_note(int which)
{
	this_cpu_inc(icb_cnt_runs.h[which]);
	if (unlikely(!in_hardirq()))
		atomic_long_inc(&icb_cnt.bad);
}

static void icb_cnt_idle_handler(unsigned int irq, void *dev_id)
{
	icb_cnt_note(ICB_CNT_H_IDLE);
}

static void icb_cnt_raise_handler(unsigned int irq, void *dev_id)
{
	icb_cnt_note(ICB_CNT_H_RAISE);
}

static void icb_cnt_xfer_handler(unsigned int irq, void *dev_id)
{
	icb_cnt_note(ICB_CNT_H_XFER);
}

static unsigned long icb_cnt_total(int which)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(icb_cnt_runs.h[which], cpu);
	return sum;
}

/* The regions: each the body of one sample. */

static noinline int icb_cnt_cli_sti(const void *arg)
{
	const struct icb_cnt_args *a = arg;
	unsigned int i, n = a->n;

	for (i = 0; i < n; i++) {
		ic_cli();
		ic_sti();
	}
	return 0;
}

static noinline int icb_cnt_spin_irqsave(const void *arg)
{
	const struct icb_cnt_args *a = arg;
	spinlock_t *lock = a->lock;
	unsigned int i, n = a->n;
	unsigned long flags;

	for (i = 0; i < n; i++) {
		spin_lock_irqsave(lock, flags);
		spin_unlock_irqrestore(lock, flags);
	}
	return 0;
}

static noinline int icb_cnt_sync(const void *arg)
{
	const struct icb_cnt_args *a = arg;
	unsigned int i, n = a->n, line = a->line;

	for (i = 0; i < n; i++)
		ic_synchronize_irq(line);
	return 0;
}

static noinline int icb_cnt_raise(const void *arg)
{
	const struct icb_cnt_args *a = arg;

	return ic_raise(a->line);
}

static noinline int icb_cnt_dispatch(const void *arg)
{
	const struct icb_cnt_args *a = arg;
	unsigned int i, n = a->n, line = a->line;
	int err = 0;

	for (i = 0; i < n; i++)
		err |= ic_handle_irq(line);
	return err;
}

/*
 * One process-context region, rounds times, preemption off in each sample;
 * first one call outside any sample, so that what a region does once per
 * load (nolock's cli() says once that it masks this CPU only: a printk of
 * some 30000 instructions) is not in the first sample.
 */
static void icb_cnt_process(unsigned int part, unsigned int rounds)
{
	struct icb_cnt_args a = { .n = 1, .line = ICB_CNT_LINE_IDLE, .lock = &icb_cnt.lock };
	int (*fn)(const void *arg) = part == ICB_PART_CLI_STI ? icb_cnt_cli_sti :
				     part == ICB_PART_SPIN_IRQSAVE ? icb_cnt_spin_irqsave :
				     icb_cnt_sync;
	int r = icb_cnt.regime;
	unsigned int i;

	preempt_disable();
	fn(&a);
	preempt_enable();
	a.n = icb_cnt.calls;
	for (i = 0; i < rounds; i++) {
		preempt_disable();
		switch (part) {
		case ICB_PART_CLI_STI:
			icb_counted(r, ICB_PART_CLI_STI, icb_cnt_cli_sti, &a);
			break;
		case ICB_PART_SPIN_IRQSAVE:
			icb_counted(r, ICB_PART_SPIN_IRQSAVE, icb_cnt_spin_irqsave, &a);
			break;
		case ICB_PART_SYNC_IDLE:
			icb_counted(r, ICB_PART_SYNC_IDLE, icb_cnt_sync, &a);
			break;
		}
		preempt_enable();
		cond_resched();
	}
}

/*
 * raise_send: the sender's half, ICB_CNT_RAISES samples a round, each
 * waiting for the handler on the busy CPU before the next raise (a raise on
 * a pending edge would merge). Return: 0, or the first error.
 */
static int icb_cnt_raise_all(unsigned int rounds)
{
	struct icb_cnt_args a = { .n = 1, .line = ICB_CNT_LINE_RAISE };
	int r = icb_cnt.regime, err;
	unsigned int i;

	for (i = 0; i < rounds * ICB_CNT_RAISES; i++) {
		unsigned long want = icb_cnt_total(ICB_CNT_H_RAISE) + 1;
		unsigned long end = jiffies + HZ;

		preempt_disable();
		err = icb_counted(r, ICB_PART_RAISE_SEND, icb_cnt_raise, &a);
		preempt_enable();
		if (err)
			return err;
		icb_cnt.raised++;
		while (icb_cnt_total(ICB_CNT_H_RAISE) < want) {
			if (time_after(jiffies, end))
				return -ETIMEDOUT;
			usleep_range(20, 50);
		}
	}
	return 0;
}

/*
 * A transfer region's job, in hardirq on each CPU that takes samples: wait
 * until every CPU of the region has arrived (so that the samples overlap
 * the other CPU's work), dispatch the CPU's own line once outside any
 * sample, then calls times in the sample.
 */
static void icb_cnt_xfer_job(void *arg)
{
	struct icb_cnt_xfer *x = arg;
	struct icb_cnt_args a = { .n = icb_cnt.calls, .line = x->line };
	unsigned int need = icb_cnt.need, part = icb_cnt.part;
	int r = icb_cnt.regime;
	unsigned long before;
	u64 end;

	atomic_inc(&icb_cnt.arrived);
	end = ktime_get_ns() + NSEC_PER_SEC;
	while (atomic_read(&icb_cnt.arrived) < need) {
		/* The host gave up on this job (icb_jobs_finish()). */
		if (ktime_get_ns() > end || READ_ONCE(icb_cnt.jobs.stop)) {
			x->err = -ETIMEDOUT;
			return;
		}
		cpu_relax();
	}
	before = this_cpu_read(icb_cnt_runs.h[ICB_CNT_H_XFER]);
	x->issued += 1 + a.n;
	/* The warm-up: lines the other CPU wrote since the last sample come here. */
	x->err = ic_handle_irq(x->line);
	if (x->err)
		return;
	switch (part) {
	case ICB_PART_XFER_K1:
		x->err = icb_counted(r, ICB_PART_XFER_K1, icb_cnt_dispatch, &a);
		break;
	case ICB_PART_XFER_K2:
		x->err = icb_counted(r, ICB_PART_XFER_K2, icb_cnt_dispatch, &a);
		break;
	case ICB_PART_XFER_K1_HOLDER:
		x->err = icb_counted(r, ICB_PART_XFER_K1_HOLDER, icb_cnt_dispatch, &a);
		break;
	case ICB_PART_XFER_K2_HOLDER:
		x->err = icb_counted(r, ICB_PART_XFER_K2_HOLDER, icb_cnt_dispatch, &a);
		break;
	}
	x->ran = this_cpu_read(icb_cnt_runs.h[ICB_CNT_H_XFER]) - before;
}

/* The k = 2 holder's dispatches of its own line, in hardirq (a self-IPI). */
static void icb_cnt_hold_job(void *arg)
{
	struct icb_cnt_xfer *x = arg;
	unsigned int i;

	x->issued += ICB_CNT_HOLD_BATCH;
	for (i = 0; i < ICB_CNT_HOLD_BATCH; i++)
		x->err |= ic_handle_irq(x->line);
}

/*
 * The holder, on this CPU while the busy CPU's job runs: the section the
 * regime gives a driver, entered and left until that job is done; with
 * @k = 2, ICB_CNT_HOLD_BATCH dispatches of this CPU's own line after each.
 * The section is empty: what is measured is what taking it costs the
 * other CPU, not how long it is held. cli() takes the global lock only
 * with local interrupts on, so this runs in process context, preemption
 * off (the caller's). A job of its own still out on return is the
 * caller's to finish. Return: 0, or -ETIMEDOUT, or the dispatches' error.
 */
static int icb_cnt_hold(unsigned int k)
{
	struct icb_target *busy = icb_cnt.xfer[0].t;
	struct icb_cnt_xfer *own = &icb_cnt.xfer[1];
	u64 end = ktime_get_ns() + NSEC_PER_SEC;
	unsigned long flags;
	int err;

	atomic_inc(&icb_cnt.arrived);
	/* Pairs with the release in the harness's job. */
	while (!smp_load_acquire(&busy->done)) {
		if (ktime_get_ns() > end)
			return -ETIMEDOUT;
		if (icb_cnt.regime) {
			ic_cli();
			ic_sti();
		} else {
			spin_lock_irqsave(&icb_cnt.hlock, flags);
			spin_unlock_irqrestore(&icb_cnt.hlock, flags);
		}
		if (k < 2)
			continue;
		err = icb_jobs_send(&icb_cnt.jobs, &icb_cnt.self, icb_cnt_hold_job, own);
		if (err)
			return err;
		/* Local interrupts are on: the self-IPI runs the job at once. */
		while (!smp_load_acquire(&icb_cnt.self.done)) {
			if (ktime_get_ns() > end)
				return -ETIMEDOUT;
			cpu_relax();
		}
		if (!icb_cnt.self.hardirq)
			return -EPERM;
		if (own->err)
			return own->err;
	}
	return 0;
}

/*
 * One transfer round of @part with @k CPUs dispatching: without a holder
 * the busy target first (its job waits for the others), then this CPU
 * through a self-IPI; with one, the busy target's job, and this CPU holds.
 * Every job of the round, on both targets (the holder's own go to this
 * CPU's), is finished on return, whatever the error: the send's, the
 * holder's or a job's (icb_jobs_finish() returns at once for a target
 * with no job out).
 * Return: 0, or an error: -EPERM for a job outside hardirq, -EBADMSG for
 * handler runs that are not the dispatches issued, -ETIMEDOUT for a job
 * or a holder that was late.
 */
static int icb_cnt_xfer_round(unsigned int part, unsigned int k, bool holder)
{
	unsigned int i, jobs = holder ? 1 : k;
	int err = 0;

	/* No job is out (the finish below, every round): nothing reads these now. */
	icb_cnt.part = part;
	icb_cnt.need = jobs + holder;
	atomic_set(&icb_cnt.arrived, 0);
	WRITE_ONCE(icb_cnt.jobs.stop, false);
	for (i = 0; i < ICB_CNT_XFER_CPUS; i++) {
		icb_cnt.xfer[i].err = 0;
		icb_cnt.xfer[i].ran = 0;
	}
	/* A job for this CPU must be queued here: preemption off. */
	preempt_disable();
	for (i = 0; i < jobs && !err; i++)
		err = icb_jobs_send(&icb_cnt.jobs, icb_cnt.xfer[i].t, icb_cnt_xfer_job,
				    &icb_cnt.xfer[i]);
	if (!err && holder) {
		err = icb_cnt_hold(k);
		if (err)
			ic_ktap_diag("count: holder k=%u: %d", k, err);
	}
	preempt_enable();
	for (i = 0; i < ICB_CNT_XFER_CPUS; i++) {
		struct icb_cnt_xfer *x = &icb_cnt.xfer[i];

		err = icb_jobs_finish(&icb_cnt.jobs, x->t, "count: xfer", err, ICB_CNT_JOB_MS);
		if (err || i >= jobs)
			continue;
		/* The job's writes, after its release of done (icb_wait()). */
		if (!x->t->hardirq)
			err = -EPERM;
		else if (x->err)
			err = x->err;
		else if (x->ran != icb_cnt.calls + 1)
			err = -EBADMSG;
		if (err)
			ic_ktap_diag("count: xfer %u k=%u CPU%d: %d (%lu runs, %u calls + 1)",
				     part, k, x->t->cpu, err, x->ran, icb_cnt.calls);
	}
	return err;
}

/*
 * A transfer region's rounds, until the first error. None after a stuck
 * job: it holds its target, and a job sent there would queue behind it.
 */
static int icb_cnt_xfer_region(unsigned int part, unsigned int k, bool holder,
			       unsigned int rounds, const char *name)
{
	unsigned int i;
	int err = icb_cnt.jobs.stuck ? -ETIMEDOUT : 0;

	for (i = 0; i < rounds && !err; i++)
		err = icb_cnt_xfer_round(part, k, holder);
	if (err)
		ic_ktap_diag("count: %s: %d", name, err);
	return err;
}

/*
 * A line's accounting since it was requested: @raised instances (raises
 * and dispatches) counted, every one accounted for, none in flight, none
 * merged or latched (each was waited for, or dispatched directly), and
 * irqcore's handled count equal to the handler's own count of its runs
 * (@runs). Handler runs outside hardirq fail it too.
 */
static bool icb_cnt_line_ok(unsigned int line, unsigned long runs, unsigned long raised)
{
	const struct ic_line_stats *b = &icb_cnt.before[line - ICB_CNT_LINE_FIRST];
	struct ic_line_stats s;
	bool ok;

	ic_synchronize_irq(line);
	if (ic_line_stats(line, &s))
		return false;
	ok = !atomic_long_read(&icb_cnt.bad) && ic_line_stats_balance(&s) && !s.inflight &&
	     s.raised - b->raised == raised &&
	     s.merged == b->merged && s.latched == b->latched &&
	     (s.handled - s.unhandled) - (b->handled - b->unhandled) == runs;
	if (!ok) {
		ic_ktap_diag("count: line %u: raised %lu (want %lu), handled %lu, handler runs %lu",
			     line, s.raised - b->raised, raised,
			     (s.handled - s.unhandled) - (b->handled - b->unhandled), runs);
		ic_ktap_diag("count: line %u: merged %lu, latched %lu, inflight %lu, outside %ld",
			     line, s.merged - b->merged, s.latched - b->latched, s.inflight,
			     atomic_long_read(&icb_cnt.bad));
	}
	return ok;
}

/* The lines of the first k CPUs of the transfer regions, each its own. */
static bool icb_cnt_xfer_lines_ok(unsigned int k)
{
	bool ok = true;
	unsigned int i;

	for (i = 0; i < k; i++) {
		struct icb_cnt_xfer *x = &icb_cnt.xfer[i];

		ok &= icb_cnt_line_ok(x->line, per_cpu(icb_cnt_runs.h[ICB_CNT_H_XFER], x->t->cpu),
				      x->issued);
	}
	return ok;
}

/**
 * icb_count_figures() - how many KTAP results icb_count_run() writes.
 *
 * Context: any.
 * Return: the number of results.
 */
unsigned int icb_count_figures(void)
{
	return 9;
}

/**
 * icb_count_init() - request the lines of the counted regions.
 * @target: the busy CPU (the CPU of xfer_k1, and the raise's target).
 *
 * Context: process, on the measuring CPU (its self-IPI target is set up here).
 * Return: 0, or the error of a request or of the self-IPI target.
 */
int icb_count_init(struct icb_target *target)
{
	static const char * const names[ICB_CNT_NR_LINES] = {
		"count-idle", "count-raise", "count-xfer0", "count-xfer1",
	};
	unsigned int i;
	int err;

	icb_cnt.regime = icb_count_regime();
	icb_jobs_init(&icb_cnt.jobs);
	spin_lock_init(&icb_cnt.lock);
	spin_lock_init(&icb_cnt.hlock);
	atomic_long_set(&icb_cnt.bad, 0);
	icb_cnt.raised = 0;
	err = icb_target_start(&icb_cnt.self, raw_smp_processor_id());
	if (err)
		return err;
	icb_cnt.xfer[0].t = target;
	icb_cnt.xfer[1].t = &icb_cnt.self;
	for (i = 0; i < ICB_CNT_NR_LINES; i++) {
		unsigned int line = ICB_CNT_LINE_FIRST + i;
		ic_handler_t h = i == 0 ? icb_cnt_idle_handler :
				 i == 1 ? icb_cnt_raise_handler : icb_cnt_xfer_handler;

		err = ic_request_irq(line, h, IC_SA_INTERRUPT, names[i], &icb_cnt);
		if (err) {
			icb_count_exit();
			return err;
		}
		icb_cnt.requested = i + 1;
		ic_line_stats(line, &icb_cnt.before[i]);
	}
	for (i = 0; i < ICB_CNT_XFER_CPUS; i++)
		icb_cnt.xfer[i].line = ICB_CNT_LINE_XFER0 + i;
	ic_set_affinity(ICB_CNT_LINE_RAISE, target->cpu);
	return 0;
}

/**
 * icb_count_exit() - free what icb_count_init() requested.
 *
 * After a stuck job (icb_jobs_finish()), which may yet dispatch the lines,
 * nothing is freed: the module has pinned itself.
 *
 * Context: process; sleeps (free_irq waits for a running handler).
 */
void icb_count_exit(void)
{
	if (icb_cnt.jobs.stuck)
		pr_err("count: a job never finished: lines %u..%u kept, irqcore_bench pinned (reboot to unload)\n",
		       ICB_CNT_LINE_FIRST, ICB_CNT_LINE_FIRST + ICB_CNT_NR_LINES - 1);
	while (icb_cnt.requested && !icb_cnt.jobs.stuck)
		ic_free_irq(ICB_CNT_LINE_FIRST + --icb_cnt.requested, &icb_cnt);
	icb_target_stop(&icb_cnt.self);
}

/**
 * icb_count_run() - the counted regions, each @rounds samples (per CPU).
 * @target: the busy CPU.
 * @rounds: samples of each region.
 * @calls: calls per sample (raise_send: one).
 * @report: writes a KTAP result: name, ok, and a skip reason or NULL.
 *
 * Each region's result fails if a call failed, a job ran outside hardirq,
 * or its lines' accounting or handler runs disagree with the calls made;
 * count_quiesced if a job broke the rule of the jobs' lifetime (the top of
 * this file).
 *
 * Context: process, on the measuring CPU; sleeps.
 */
void icb_count_run(struct icb_target *target, unsigned int rounds, unsigned int calls,
		   void (*report)(const char *name, bool ok, const char *skip))
{
	bool alone = target->cpu == raw_smp_processor_id();
	int err;

	icb_cnt.calls = calls;
	icb_count_region(ICB_PART_CLI_STI, "cli_sti", calls, rounds, 1);
	icb_count_region(ICB_PART_SPIN_IRQSAVE, "spin_irqsave", calls, rounds, 1);
	icb_count_region(ICB_PART_SYNC_IDLE, "sync_idle", calls, rounds, 1);
	icb_count_region(ICB_PART_XFER_K1, "xfer_k1", calls, rounds, 1);
	if (!alone) {
		icb_count_region(ICB_PART_RAISE_SEND, "raise_send", 1, rounds * ICB_CNT_RAISES, 1);
		icb_count_region(ICB_PART_XFER_K2, "xfer_k2", calls, rounds, 2);
		icb_count_region(ICB_PART_XFER_K1_HOLDER, "xfer_k1_holder", calls, rounds, 1);
		icb_count_region(ICB_PART_XFER_K2_HOLDER, "xfer_k2_holder", calls, rounds, 1);
	}

	icb_cnt_process(ICB_PART_CLI_STI, rounds);
	report("count_cli_sti", !atomic_long_read(&icb_cnt.bad), NULL);
	icb_cnt_process(ICB_PART_SPIN_IRQSAVE, rounds);
	report("count_spin_irqsave", !atomic_long_read(&icb_cnt.bad), NULL);
	icb_cnt_process(ICB_PART_SYNC_IDLE, rounds);
	report("count_sync_idle", icb_cnt_line_ok(ICB_CNT_LINE_IDLE, 0, 0), NULL);

	if (alone) {
		report("count_raise_send", true, "needs 2 or more CPUs");
	} else {
		err = icb_cnt_raise_all(rounds);
		if (err)
			ic_ktap_diag("count: raise_send: %d", err);
		report("count_raise_send", !err &&
		       icb_cnt_line_ok(ICB_CNT_LINE_RAISE, icb_cnt_total(ICB_CNT_H_RAISE),
				       icb_cnt.raised), NULL);
	}

	err = icb_cnt_xfer_region(ICB_PART_XFER_K1, 1, false, rounds, "count_xfer_k1");
	report("count_xfer_k1", !err && icb_cnt_xfer_lines_ok(1), NULL);
	if (alone) {
		report("count_xfer_k2", true, "needs 2 or more CPUs");
		report("count_xfer_k1_holder", true, "needs 2 or more CPUs");
		report("count_xfer_k2_holder", true, "needs 2 or more CPUs");
	} else {
		err = icb_cnt_xfer_region(ICB_PART_XFER_K2, 2, false, rounds, "count_xfer_k2");
		report("count_xfer_k2", !err && icb_cnt_xfer_lines_ok(2), NULL);
		err = icb_cnt_xfer_region(ICB_PART_XFER_K1_HOLDER, 1, true, rounds,
					  "count_xfer_k1_holder");
		report("count_xfer_k1_holder", !err && icb_cnt_xfer_lines_ok(1), NULL);
		err = icb_cnt_xfer_region(ICB_PART_XFER_K2_HOLDER, 2, true, rounds,
					  "count_xfer_k2_holder");
		report("count_xfer_k2_holder", !err && icb_cnt_xfer_lines_ok(2), NULL);
	}
	/* Before the teardown (icb_count_exit()), which frees what the jobs touch. */
	report("count_quiesced", icb_jobs_quiesced(&icb_cnt.jobs, "count: count_quiesced", 0),
	       NULL);
}
