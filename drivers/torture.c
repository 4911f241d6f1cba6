// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore_torture - run the converted drivers under stress, in every
 * locking style, and check their invariants (in the manner of
 * locktorture).
 *
 * For each selected (driver, style) case, with mode=local (the default):
 * the driver's line is aimed at one CPU (the last online one) and raised
 * there by a hard hrtimer at rate= per second, so its handler runs in
 * genuine hardirq context on that CPU. With mode=cross (3 or more CPUs)
 * the timer raises the line from the last CPU and the line is handled
 * round-robin on the two CPUs before it, so that every edge crosses CPUs
 * and do_IRQ's PENDING hand-off between two handling CPUs is used.
 * nthreads= kthreads, bound to the CPUs other than the raising one (all on
 * CPU 0 with one CPU), run the driver's process-context path in a loop;
 * every stat_interval= seconds a stats line is printed; after duration=
 * seconds everything stops and the driver's final check runs. Each case is
 * one KTAP result whose expected outcome depends on the style, the regime
 * and the CPU count:
 *
 *   style      1 CPU      2+ CPUs, nolock    2+ CPUs, biglock
 *   global     clean      caught (local)     clean
 *   local      clean      caught             caught
 *   spinlock   clean      clean              clean
 *   none       caught     caught             caught
 *
 * The source styles (style=literal, converted, localized or stripped, by
 * name only: "all" is the four above) run each driver's own file instead
 * (drivers/literal/, and what tools/convert generates from it at build
 * time), with the same invariants: literal is expected as global,
 * converted as spinlock, localized as local and stripped as none. A
 * generated style this build lacks is a KTAP skip; so is converted on
 * PREEMPT_RT, whose spinlock_t sleeps and so cannot be taken in the
 * genuine hardirq its handlers run in.
 *
 * "caught" means violations > 0. "clean" means no violation, and also that
 * the case did something: interrupts were handled, process-context
 * operations completed, and the two sides of the critical section met
 * (contended > 0, see style.c). A clean case without contention tested
 * nothing and is reported as "vacuous", an unexpected outcome. Whatever
 * the style, the handler's own count of its runs must equal irqcore's
 * count of handled instances: a difference is a lost (or invented)
 * interrupt, and the case is "lost", unexpected too. And within a second
 * of the case's end its line must be quiet, with every raise accounted for
 * (handled, merged, latched or dropped): an edge stranded in flight is
 * "stranded", unexpected even in a case the unload cut short.
 *
 * With background=1 the load returns at once and the cases run over and
 * over, with more interrupt work beside them, until the module is unloaded
 * (background.c; fault/unload_under_load): no KTAP then, and a case the
 * unload cuts short ends with verdict=stopped.
 *
 * Output lines (stable; tests/demo parses them):
 *   irqcore_torture: params(start|end): driver=D style=S mode=M duration=...
 *   irqcore_torture: stats: driver=D style=S regime=R cpus=N t=SECONDS
 *       ops=N violations=N raised=N handled=N
 *   irqcore_torture: result: driver=D style=S regime=R cpus=N mode=M ms=N
 *       ops=N ops_per_s=N violations=N contended=N raised=N handled=N
 *       runs=N reruns=N inflight=N lat_us=N lat_max_us=N
 *       expected=caught|clean
 *       verdict=ok|unexpected|vacuous|lost|stranded|stopped|undecided extended_s=N
 * lat_us is the mean delay from the latest raise to the handler; runs is
 * the handler's own count; reruns are the PENDING hand-offs; inflight is
 * what is left in flight on the line a second after the case (0 unless
 * verdict=stranded).
 *   irqcore_torture: End of test: SUCCESS|FAILURE: cases=N unexpected=N
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>

#include <irqcore.h>
#include <irqcore_ktap.h>
#include <irqcore_param.h>

#include "torture.h"

#define ICT_MAX_THREADS	16

static const struct ict_driver * const ict_drivers[] = {
	&ict_vm86, &ict_mca, &ict_apm, &ict_tty,
};

/* Parameters; read-only after load. "all" is one past the last name. */
static const char * const ict_driver_names[] = {
	"vm86", "mca", "apm", "tty", "all", NULL
};

#define ICT_ALL_DRIVERS	ARRAY_SIZE(ict_drivers)

static int ict_param_driver = ICT_ALL_DRIVERS;
static struct ic_param_enum ict_driver_param = {
	.names = ict_driver_names,
	.value = &ict_param_driver,
};

ic_module_param_enum(driver, ict_driver_param,
		     "Driver to torture: vm86, mca, apm, tty or all (default)");

static int ict_param_style = ICT_NR_STYLES;
static struct ic_param_enum ict_style_param = {
	.names = ict_style_names,
	.value = &ict_param_style,
};

ic_module_param_enum(style, ict_style_param,
		     "Locking style: global (cli), local (local_irq_save), spinlock, none, or all (default: those four); or a source style: literal (2002 source), converted, localized, stripped (tools/convert)");

enum ict_mode {
	ICT_MODE_LOCAL,
	ICT_MODE_CROSS,
};

static const char * const ict_mode_names[] = {
	[ICT_MODE_LOCAL] = "local",
	[ICT_MODE_CROSS] = "cross",
	NULL
};

static int ict_param_mode = ICT_MODE_LOCAL;
static struct ic_param_enum ict_mode_param = {
	.names = ict_mode_names,
	.value = &ict_param_mode,
};

ic_module_param_enum(mode, ict_mode_param,
		     "Where the line is raised and handled: local (default; both on the last CPU) or cross (raised on the last CPU, handled round-robin on the two before it; needs 3 or more CPUs)");

static unsigned int ict_param_duration = 3;
static struct ic_param_range ict_duration_param = { 1, 600, &ict_param_duration };

ic_module_param_range(duration, ict_duration_param,
		      "Seconds per (driver, style) case (1..600, default 3)");

/*
 * A case expected to be caught that has caught nothing yet when its
 * duration= is up runs on, a second at a time, until it has seen decide=
 * contended meetings or caught something, at most extend= seconds more: a
 * slow host (a sanitizer kernel beside a kernel build) gave a broken case
 * 228 meetings in its second and no violation, and a slow host must cost
 * time, not the verdict. Past extend= with fewer meetings the case says
 * "undecided", a skip with the count.
 */
static unsigned int ict_param_decide = 2000;
static struct ic_param_range ict_decide_param = { 0, 1000000, &ict_param_decide };

ic_module_param_range(decide, ict_decide_param,
		      "Contended meetings a case expected to be caught must see before it may be called clean (0..1000000, default 2000; 0: none)");

static unsigned int ict_param_extend = 30;
static struct ic_param_range ict_extend_param = { 0, 600, &ict_param_extend };

ic_module_param_range(extend, ict_extend_param,
		      "Seconds a case expected to be caught may run past duration= to see decide= meetings (0..600, default 30)");

static unsigned int ict_param_rate = 5000;
static struct ic_param_range ict_rate_param = { 100, 50000, &ict_param_rate };

ic_module_param_range(rate, ict_rate_param,
		      "Interrupts raised per second on the driver's line (100..50000, default 5000)");

static unsigned int ict_param_nthreads = 2;
static struct ic_param_range ict_nthreads_param = { 1, ICT_MAX_THREADS, &ict_param_nthreads };

ic_module_param_range(nthreads, ict_nthreads_param,
		      "Process-context threads per case (1..16, default 2)");

static unsigned int ict_param_delay_us = 20;
static struct ic_param_range ict_delay_param = { 0, 1000, &ict_param_delay_us };

ic_module_param_range(delay_us, ict_delay_param,
		      "Widen each process-context race window by this many microseconds (0..1000, default 20)");

static unsigned int ict_param_stat_interval = 1;
static struct ic_param_range ict_stat_param = { 1, 60, &ict_param_stat_interval };

ic_module_param_range(stat_interval, ict_stat_param,
		      "Seconds between stats lines (1..60, default 1)");

static unsigned int ict_param_background;
static struct ic_param_range ict_background_param = { 0, 1, &ict_param_background };

ic_module_param_range(background, ict_background_param,
		      "0 (default): run the cases once during the load and print KTAP; 1: run them over and over, with timer ticks, tasklets and a line raised across CPUs besides, until the module is unloaded (0..1)");

/**
 * struct ict_case - the state of the case being run.
 * @drv: the driver.
 * @dev: its run (style, lock, violations, contention).
 * @irq: the line.
 * @rcpu: the CPU whose timer raises the line.
 * @hcpus: the CPUs that handle it (rcpu alone with mode=local).
 * @timer: the raiser, a hard hrtimer pinned on @rcpu.
 * @period: its period.
 * @base: irqcore's accounting of @irq when the case began; raised and
 *	handled are read from irqcore, as the differences from it.
 * @cli_base: irqcore's global-lock counters when the case began.
 * @raise_ns: when the raiser last raised the line.
 * @lat_sum_ns: the handler's delay after the latest raise, summed (one
 *	instance of a line runs at a time, so the handler alone writes it).
 * @lat_max_ns: the longest such delay.
 * @runs: the handler's own count of its runs.
 * @lit_handler: a source-style driver's own handler (@drv->open), or NULL.
 * @lit_dev_id: its dev_id.
 * @ops: process-context operations completed.
 * @threads: the process-context kthreads.
 */
struct ict_case {
	const struct ict_driver *drv;
	struct ict_dev dev;
	unsigned int irq;
	int rcpu;
	struct cpumask hcpus;
	struct hrtimer timer;
	ktime_t period;
	struct ic_line_stats base;
	struct ic_cli_stats cli_base;
	u64 raise_ns;
	u64 lat_sum_ns;
	u64 lat_max_ns;
	atomic_long_t runs;
	atomic_long_t ops;
	ict_lit_handler_t lit_handler;
	void *lit_dev_id;
	struct task_struct *threads[ICT_MAX_THREADS];
};

static struct ict_case ict_c;

static void ict_handler(unsigned int irq, void *dev_id)
{
	struct ict_case *c = dev_id;
	u64 lat = ktime_get_ns() - READ_ONCE(c->raise_ns);

	/*
	 * The delay is what stood between the raise and the handler: the
	 * kick to another CPU in mode=cross, and under biglock a holder's
	 * cli() section on another CPU.
	 */
	c->lat_sum_ns += lat;
	c->lat_max_ns = max(c->lat_max_ns, lat);
	atomic_long_inc(&c->runs);
	ict_irq_arrives(&c->dev);
	if (c->lit_handler)
		c->lit_handler(irq, c->lit_dev_id, NULL);
	else
		c->drv->irq(&c->dev);
}

/**
 * ict_lit_request_irq() - request_irq() for a source-style driver.
 * @irq: the case's line.
 * @handler: the driver's 2002 handler.
 * @flags: SA_ flags.
 * @name: the driver's name.
 * @dev_id: the driver's cookie, passed to @handler.
 *
 * The harness's ict_handler() is what irqcore calls: it counts the run and
 * its delay and notes contention, as for every style, then calls @handler.
 *
 * Context: process (the driver's open, from ict_run_case()).
 * Return: 0, or ic_request_irq()'s error.
 */
int ict_lit_request_irq(unsigned int irq, ict_lit_handler_t handler, unsigned long flags,
			const char *name, void *dev_id)
{
	ict_c.lit_handler = handler;
	ict_c.lit_dev_id = dev_id;
	return ic_request_irq(irq, ict_handler, flags, name, &ict_c);
}

/**
 * ict_lit_free_irq() - free_irq() for a source-style driver.
 * @irq: the case's line.
 * @dev_id: the driver's cookie (its handler is the case's only one).
 *
 * Context: process (the driver's release, from ict_run_case()).
 */
void ict_lit_free_irq(unsigned int irq, void *dev_id)
{
	ic_free_irq(irq, &ict_c);
}

static enum hrtimer_restart ict_raiser(struct hrtimer *t)
{
	struct ict_case *c = container_of(t, struct ict_case, timer);

	WRITE_ONCE(c->raise_ns, ktime_get_ns());
	ic_raise(c->irq);
	hrtimer_forward_now(t, c->period);
	WRITE_ONCE(c->dev.next_due_ns, ktime_to_ns(hrtimer_get_expires(t)));
	return HRTIMER_RESTART;
}

static void ict_raiser_arm(void *info)
{
	struct ict_case *c = info;

	hrtimer_start(&c->timer, c->period, HRTIMER_MODE_REL_PINNED_HARD);
}

static int ict_thread(void *arg)
{
	unsigned int id = (unsigned long)arg;

	while (!kthread_should_stop()) {
		if (ict_c.drv->op(&ict_c.dev, id))
			atomic_long_inc(&ict_c.ops);
		else
			cpu_relax();
		cond_resched();
	}
	return 0;
}

/* Thread @i's CPU: any CPU but the raiser's, unless there is only one. */
static int ict_thread_cpu(unsigned int i)
{
	unsigned int n = 0, want;
	int cpu;

	if (num_online_cpus() < 2)
		return cpumask_first(cpu_online_mask);
	want = i % (num_online_cpus() - 1);
	for_each_online_cpu(cpu) {
		if (cpu == ict_c.rcpu)
			continue;
		if (n++ == want)
			return cpu;
	}
	return cpumask_first(cpu_online_mask);
}

static bool ict_expect_caught(enum ict_style style)
{
	/* Each source style is expected as the style it stands for. */
	static const enum ict_style as[ICT_NR_SOURCE_STYLES] = {
		ICT_STYLE_GLOBAL, ICT_STYLE_SPINLOCK, ICT_STYLE_LOCAL, ICT_STYLE_NONE,
	};

	if (style > ICT_NR_STYLES)
		style = as[style - ICT_STYLE_LITERAL];
	if (style == ICT_STYLE_NONE)
		return true;
	if (num_online_cpus() < 2)
		return false;
	if (style == ICT_STYLE_LOCAL)
		return true;
	return style == ICT_STYLE_GLOBAL && strcmp(ic_regime_name(), "biglock");
}

/* Raises and handled instances of the case's line since the case began. */
static void ict_counts(long *raised, long *handled)
{
	struct ic_line_stats st;

	ic_line_stats(ict_c.irq, &st);
	*raised = st.raised - ict_c.base.raised;
	*handled = st.handled - ict_c.base.handled;
}

/*
 * Contended meetings since the case began: the device's own count of the
 * two sides meeting (style.c) and the global lock's evidence, spins in
 * irq_enter() and waits in cli().
 */
static long ict_contended(void)
{
	struct ic_cli_stats cli;

	ic_cli_stats(&cli);
	return atomic_long_read(&ict_c.dev.contended) +
	       (cli.enter_spins - ict_c.cli_base.enter_spins) +
	       (cli.cli_waits - ict_c.cli_base.cli_waits);
}

/* The stats line every stat_interval seconds, @t seconds into the case. */
static void ict_stats(unsigned int t)
{
	long raised, handled;

	ict_counts(&raised, &handled);
	pr_info("stats: driver=%s style=%s regime=%s cpus=%u t=%u ops=%ld violations=%ld raised=%ld handled=%ld\n",
		ict_c.drv->name, ict_style_names[ict_c.dev.style], ic_regime_name(),
		num_online_cpus(), t, atomic_long_read(&ict_c.ops),
		atomic_long_read(&ict_c.dev.violations), raised, handled);
}

static void ict_stop_threads(unsigned int n)
{
	while (n--)
		kthread_stop(ict_c.threads[n]);
}

static struct ic_ktap ict_k;
/* Why the cases cannot run here (ict_place()), or NULL. */
static const char *ict_skip;

/* The case's KTAP result, named driver_style_regime_Ncpu (and _cross). */
static void ict_case_ktap(bool ok, const struct ict_driver *drv, enum ict_style style,
			  const char *skip)
{
	char name[64];

	/* background=1 runs cases for as long as it is loaded: no plan. */
	if (ict_param_background)
		return;
	snprintf(name, sizeof(name), "%s_%s_%s_%ucpu%s", drv->name, ict_style_names[style],
		 ic_regime_name(), num_online_cpus(),
		 ict_param_mode == ICT_MODE_CROSS ? "_cross" : "");
	ic_ktap_result(&ict_k, ok, name, skip);
}

/*
 * Wait (up to a second) until the line is quiet, nothing in flight and no
 * handler running, so that every raise has run or been merged, and take
 * its accounting then. Return: true if it got quiet and that accounting
 * balances (every raise handled, merged, latched or dropped); false if an
 * edge is stranded in flight or a raise is unaccounted for, which fails
 * the case (verdict "stranded") instead of showing only at unload.
 */
static bool ict_wait_quiet(struct ic_line_stats *st)
{
	unsigned int i;

	for (i = 0; i < 1000; i++) {
		ic_synchronize_irq(ict_c.irq);
		ic_line_stats(ict_c.irq, st);
		if (!st->inflight && !st->busy)
			return ic_line_stats_balance(st);
		usleep_range(1000, 2000);
	}
	return false;
}

/*
 * The verdict of a finished case: "ok" if the outcome was the expected
 * one and, for a clean one, it was tested for real (see the top of this
 * file); otherwise why not.
 */
static const char *ict_verdict(bool expect, long violations, long handled, long runs,
			       long ops, long contended)
{
	if (runs != handled)
		return "lost";
	/*
	 * Caught nothing in too few meetings, even run on: no verdict (a
	 * skip), but only for a case that worked: one that handled nothing
	 * or completed no operation is broken, not slow.
	 */
	if (expect && !violations && handled && ops && contended < ict_param_decide)
		return "undecided";
	if (expect && !violations && (!handled || !ops))
		return "vacuous";
	if (!!violations != expect)
		return "unexpected";
	if (!expect && (!handled || !ops || !contended))
		return "vacuous";
	return "ok";
}

/* The skip reason of a case without a verdict; the cases run one at a time. */
static char ict_undecided[96];

/*
 * Run one case. Return: 1 if its outcome was unexpected, 0 if expected
 * (or undecided: a skip), or a negative errno if it could not run.
 */
static int ict_run_case(const struct ict_driver *drv, enum ict_style style)
{
	bool expect = ict_expect_caught(style), cut, ok, quiet, undecided;
	long ops_per_s, raised, handled, runs, ops, violations, contended;
	unsigned int i, t, elapsed, extended = 0;
	struct ic_line_stats end;
	unsigned long start;
	const char *verdict;
	u64 lat_ns;
	int err;

	memset(&ict_c.dev, 0, sizeof(ict_c.dev));
	ict_c.drv = drv;
	ict_c.dev.style = style;
	ict_c.dev.delay_us = ict_param_delay_us;
	ict_c.dev.raise_cpu = ict_c.rcpu;
	ict_c.dev.next_due_ns = U64_MAX;
	raw_spin_lock_init(&ict_c.dev.lock);
	ic_line_stats(ict_c.irq, &ict_c.base);
	ic_cli_stats(&ict_c.cli_base);
	atomic_long_set(&ict_c.ops, 0);
	atomic_long_set(&ict_c.runs, 0);
	ict_c.raise_ns = ktime_get_ns();
	ict_c.lat_sum_ns = 0;
	ict_c.lat_max_ns = 0;
	drv->reset(&ict_c.dev);

	ict_c.lit_handler = NULL;
	if (drv->open)
		err = drv->open(ict_c.irq);
	else
		err = ic_request_irq(ict_c.irq, ict_handler, IC_SA_INTERRUPT, drv->name, &ict_c);
	if (err) {
		pr_err("request_irq(%u): %d\n", ict_c.irq, err);
		return err;
	}
	ic_set_affinity_mask(ict_c.irq, &ict_c.hcpus);

	for (i = 0; i < ict_param_nthreads; i++) {
		struct task_struct *tsk;

		tsk = kthread_create(ict_thread, (void *)(unsigned long)i, "ict_%s/%u",
				     drv->name, i);
		if (IS_ERR(tsk)) {
			err = PTR_ERR(tsk);
			pr_err("kthread_create: %d\n", err);
			ict_stop_threads(i);
			goto out_free;
		}
		kthread_bind(tsk, ict_thread_cpu(i));
		ict_c.threads[i] = tsk;
		wake_up_process(tsk);
	}

	start = jiffies;
	smp_call_function_single(ict_c.rcpu, ict_raiser_arm, &ict_c, 1);
	for (t = 0; t < ict_param_duration; ) {
		unsigned int step = min(ict_param_stat_interval, ict_param_duration - t);

		msleep_interruptible(step * MSEC_PER_SEC);
		t += step;
		ict_stats(t);
		if (ict_bg_stopping())
			break;
	}
	/* Caught nothing yet in too few meetings to tell: run on (decide=). */
	while (expect && extended < ict_param_extend && !ict_bg_stopping() &&
	       !atomic_long_read(&ict_c.dev.violations) && ict_contended() < ict_param_decide) {
		msleep_interruptible(MSEC_PER_SEC);
		extended++;
		ict_stats(t + extended);
	}
	hrtimer_cancel(&ict_c.timer);
	ict_stop_threads(ict_param_nthreads);
	elapsed = max(jiffies_to_msecs(jiffies - start), 1U);
	quiet = ict_wait_quiet(&end);
	drv->finish(&ict_c.dev);
	raised = end.raised - ict_c.base.raised;
	handled = (end.handled - end.unhandled) - (ict_c.base.handled - ict_c.base.unhandled);
	runs = atomic_long_read(&ict_c.runs);
	ops = atomic_long_read(&ict_c.ops);
	violations = atomic_long_read(&ict_c.dev.violations);
	contended = ict_contended();
	/*
	 * A case the unload cut short has no verdict and is not counted; but
	 * a stranded edge is a fault of the core whenever it shows.
	 */
	cut = ict_bg_stopping();
	if (!quiet)
		verdict = "stranded";
	else if (cut)
		verdict = "stopped";
	else
		verdict = ict_verdict(expect, violations, handled, runs, ops, contended);
	ok = !strcmp(verdict, "ok");
	cut = !strcmp(verdict, "stopped");
	undecided = !strcmp(verdict, "undecided");
	ops_per_s = ops * MSEC_PER_SEC / elapsed;
	lat_ns = handled ? div64_u64(ict_c.lat_sum_ns, handled) : 0;
	pr_info("result: driver=%s style=%s regime=%s cpus=%u mode=%s ms=%u ops=%ld ops_per_s=%ld violations=%ld contended=%ld raised=%ld handled=%ld runs=%ld reruns=%lu inflight=%lu lat_us=%llu lat_max_us=%llu expected=%s verdict=%s extended_s=%u\n",
		drv->name, ict_style_names[style], ic_regime_name(), num_online_cpus(),
		ict_mode_names[ict_param_mode], elapsed, ops, ops_per_s, violations, contended,
		raised, handled, runs, end.reruns - ict_c.base.reruns, end.inflight,
		div_u64(lat_ns, NSEC_PER_USEC), div_u64(ict_c.lat_max_ns, NSEC_PER_USEC),
		expect ? "caught" : "clean", verdict, extended);
	if (extended)
		ic_ktap_diag("%s %s: ran %u s past duration=%u: %ld contended meetings, decide=%u",
			     drv->name, ict_style_names[style], extended, ict_param_duration,
			     contended, ict_param_decide);
	if (!ok && !cut && !undecided) {
		ic_ktap_diag("%s %s: %s: %ld violations, expected %s", drv->name,
			     ict_style_names[style], verdict, violations, expect ? "some" : "none");
		ic_ktap_diag("contended %ld handled %ld runs %ld ops %ld", contended, handled,
			     runs, ops);
	}
	if (!quiet) {
		ic_ktap_diag("line %u not quiet, or a raise unaccounted for, after the case:",
			     ict_c.irq);
		ic_ktap_diag("raised=%lu handled=%lu merged=%lu latched=%lu", end.raised,
			     end.handled, end.merged, end.latched);
		ic_ktap_diag("inflight=%lu dropped=%lu busy=%d", end.inflight, end.dropped,
			     end.busy);
	}
	if (ict_param_background)
		ict_bg_case_done(handled, cut);
	if (undecided) {
		snprintf(ict_undecided, sizeof(ict_undecided),
			 "undecided: %ld contended meetings in %u ms, fewer than decide=%u",
			 contended, elapsed, ict_param_decide);
		ict_case_ktap(true, drv, style, ict_undecided);
	} else {
		ict_case_ktap(ok, drv, style, NULL);
	}
	err = !ok && !cut && !undecided;
out_free:
	ic_set_affinity(ict_c.irq, -1);
	if (drv->release)
		drv->release(ict_c.irq);
	else
		ic_free_irq(ict_c.irq, &ict_c);
	return err;
}

static void ict_print_params(const char *when)
{
	pr_info("params(%s): driver=%s style=%s mode=%s duration=%u decide=%u extend=%u rate=%u nthreads=%u delay_us=%u stat_interval=%u regime=%s cpus=%u line=%u raise_cpu=%d handler_cpus=%*pbl\n",
		when, ict_driver_names[ict_param_driver], ict_style_names[ict_param_style],
		ict_mode_names[ict_param_mode], ict_param_duration, ict_param_decide,
		ict_param_extend, ict_param_rate,
		ict_param_nthreads, ict_param_delay_us, ict_param_stat_interval,
		ic_regime_name(), num_online_cpus(), ict_c.irq, ict_c.rcpu,
		cpumask_pr_args(&ict_c.hcpus));
}

/*
 * Choose the raising CPU and the handling CPUs. Return: NULL, or why this
 * mode cannot run here (the cases are then skipped).
 */
static const char *ict_place(void)
{
	int cpu;

	ict_c.rcpu = cpumask_last(cpu_online_mask);
	cpumask_clear(&ict_c.hcpus);
	if (ict_param_mode == ICT_MODE_LOCAL) {
		cpumask_set_cpu(ict_c.rcpu, &ict_c.hcpus);
		return NULL;
	}
	if (num_online_cpus() < 3)
		return "mode=cross needs 3 or more CPUs";
	for_each_online_cpu(cpu)
		if (cpu != ict_c.rcpu)
			cpumask_set_cpu(cpu, &ict_c.hcpus);
	/* The two CPUs just below the raiser's. */
	while (cpumask_weight(&ict_c.hcpus) > 2)
		cpumask_clear_cpu(cpumask_first(&ict_c.hcpus), &ict_c.hcpus);
	return NULL;
}

/*
 * Why a source style's case cannot run in this build, or NULL. Such a
 * case is a KTAP skip, and the load goes on.
 */
static const char *ict_source_skip(unsigned int d, enum ict_style s)
{
	if (s < ICT_STYLE_LITERAL)
		return NULL;
	if (!ict_source_drivers[s - ICT_STYLE_LITERAL][d])
		return "not built: generated at build time by tools/convert (spatch)";
	if (s == ICT_STYLE_CONVERTED && IS_ENABLED(CONFIG_PREEMPT_RT))
		return "PREEMPT_RT: the converted spinlock_t sleeps; its handler is hardirq";
	return NULL;
}

/**
 * ict_run_round() - run every selected (driver, style) case once.
 *
 * A case that cannot start (its line or a thread refused: the fault tests
 * fail those allocations on purpose) ends the round: it and the cases
 * after it are KTAP skips, so that the document still has its planned
 * results, and the error fails the load.
 *
 * Context: process, CPU hotplug held off (cpus_read_lock()); sleeps.
 * Return: the number of unexpected outcomes, or a negative errno if a
 * case could not run.
 */
static int ict_run_round(void)
{
	const struct ict_driver *drv;
	unsigned int d, s;
	int err = 0, unexpected = 0;

	for (d = 0; d < ICT_ALL_DRIVERS; d++) {
		if (ict_param_driver != ICT_ALL_DRIVERS && ict_param_driver != d)
			continue;
		for (s = 0; s < ICT_STYLE_END; s++) {
			if (s == ICT_NR_STYLES)
				continue;
			/* "all" is the four run-time styles; a source style runs when named. */
			if (ict_param_style == ICT_NR_STYLES ? s > ICT_NR_STYLES :
			    ict_param_style != s)
				continue;
			drv = ict_drivers[d];
			if (ict_skip) {
				ict_case_ktap(true, drv, s, ict_skip);
				continue;
			}
			if (err < 0) {
				ict_case_ktap(true, drv, s,
					      "not run: an earlier case could not start");
				continue;
			}
			if (ict_source_skip(d, s)) {
				ict_case_ktap(true, drv, s, ict_source_skip(d, s));
				continue;
			}
			if (s > ICT_NR_STYLES)
				drv = ict_source_drivers[s - ICT_STYLE_LITERAL][d];
			if (ict_bg_stopping())
				return unexpected;
			err = ict_run_case(drv, s);
			if (err < 0) {
				ict_case_ktap(true, drv, s,
					      "could not start: the load fails");
				continue;
			}
			unexpected += err;
		}
	}
	return err < 0 ? err : unexpected;
}

static int __init ict_module_init(void)
{
	unsigned int cases;
	int ret;

	ret = ic_param_check_names(THIS_MODULE);
	if (ret)
		return ret;
	ict_c.irq = ic_nr_irqs() - 1;
	ict_c.period = ns_to_ktime(NSEC_PER_SEC / ict_param_rate);
	hrtimer_init(&ict_c.timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	ict_c.timer.function = ict_raiser;
	cpus_read_lock();
	ict_skip = ict_place();
	ict_print_params("start");
	if (ict_param_background) {
		cpus_read_unlock();
		if (ict_skip) {
			pr_err("background=1: %s\n", ict_skip);
			return -EINVAL;
		}
		return ict_bg_start(ict_run_round);
	}

	cases = 1;
	if (ict_param_driver == ICT_ALL_DRIVERS)
		cases *= ICT_ALL_DRIVERS;
	if (ict_param_style == ICT_NR_STYLES)
		cases *= ICT_NR_STYLES;
	ic_ktap_begin(&ict_k, cases);
	ret = ict_run_round();
	cpus_read_unlock();
	if (ret < 0)
		return ret;
	pr_info("End of test: %s: cases=%u unexpected=%d\n",
		ret ? "FAILURE" : "SUCCESS", cases, ret);
	return 0;
}

static void __exit ict_module_exit(void)
{
	if (ict_param_background)
		ict_bg_stop();
	ict_print_params("end");
}

module_init(ict_module_init);
module_exit(ict_module_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("The irqcore developers");
MODULE_DESCRIPTION("The drivers the 2.5.28 seed converted, tortured in four locking styles");
MODULE_VERSION(IC_VERSION_STRING);
