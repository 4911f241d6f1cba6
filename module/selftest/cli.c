// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore - self-tests of cli()/sti()/save_flags()/restore_flags() and of
 * synchronize_irq()'s reach, in whichever regime this load selected.
 *
 *                          biglock (2.5.27)        nolock (2.5.28)
 *   cli() in a task        stops handlers on       masks this CPU only
 *                          every CPU until sti()   (what broke drivers)
 *   cli() in a handler     local only              local only
 *   save_flags() values    0, 1, 2, 3              2, 3
 *   synchronize_irq(irq)   every line              that line only
 *   bottom halves          wait for sti()          run meanwhile
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/irqflags.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/workqueue.h>

#include <irqcore.h>

#include "../biglock.h"
#include "../irq.h"
#include "../misuse.h"
#include "../regime.h"
#include "../softirq.h"
#include "selftest.h"

#define IC_C_LINE	5
#define IC_C_SLOW	6
#define IC_C_BH		5
/* Long enough that a busy host cannot hide the difference between regimes. */
#define IC_C_SLOW_MS	900U
/*
 * Evidence that another CPU could have acted in a window: it ran this many
 * heartbeats (about as many ms with interrupts on) of it. A CPU that ran
 * that long and did nothing failed; one that ran less is the host's.
 */
#define IC_C_RAN_MS		100UL
/* The migrating-waiter case: rounds, and how long cli() must wait in each. */
#define IC_C_MIG_ROUNDS		6
#define IC_C_MIG_HOLD_MS	50U

/**
 * struct ic_cli_probe - what the handlers of these cases saw.
 * @hits: handler runs.
 * @in_section: set by the test while it holds ic_cli().
 * @saw_section: a handler ran while @in_section was set.
 * @flags: the handler's ic_save_flags() before its own cli().
 * @flags_after: its ic_save_flags() after its restore_flags().
 * @off_after_cli: interrupts were off after its cli().
 * @holder_after_cli: ic_biglock_holder() after its cli().
 * @started: the slow handler has started.
 * @release: the scope case lets the slow handler return.
 * @waiting: the scope case is in its wait for the other line.
 * @waiter: the CPU it waits on.
 * @wait_beats: that CPU's heartbeats when the wait began.
 * @done: the slow handler has finished.
 */
struct ic_cli_probe {
	atomic_t hits;
	atomic_t in_section;
	bool saw_section;
	unsigned long flags;
	unsigned long flags_after;
	bool off_after_cli;
	int holder_after_cli;
	bool started;
	bool release;
	bool waiting;
	int waiter;
	unsigned long wait_beats;
	bool done;
};

static struct ic_cli_probe ic_cp;

static void ic_cp_reset(void)
{
	memset(&ic_cp, 0, sizeof(ic_cp));
}

static bool ic_big(void)
{
	return ic_biglock_active();
}

/* Holds the line's slot for a moment and notes whether a section was open. */
static void ic_section_handler(unsigned int irq, void *dev_id)
{
	if (atomic_read(&ic_cp.in_section))
		WRITE_ONCE(ic_cp.saw_section, true);
	/* saw_section is visible before the hit is counted. */
	smp_mb__before_atomic();
	atomic_inc(&ic_cp.hits);
}

/* A 2002 driver's handler: save_flags(); cli(); ...; restore_flags(). */
static void ic_cli_handler(unsigned int irq, void *dev_id)
{
	unsigned long flags = ic_save_flags();

	ic_cli();
	ic_cp.off_after_cli = irqs_disabled();
	ic_cp.holder_after_cli = ic_biglock_holder();
	ic_restore_flags(flags);
	ic_cp.flags = flags;
	ic_cp.flags_after = ic_save_flags();
	/* The record is complete before the hit is counted. */
	smp_mb__before_atomic();
	atomic_inc(&ic_cp.hits);
}

/* Holds its CPU for IC_C_MIG_HOLD_MS, so that a cli() elsewhere must wait. */
static void ic_mig_slow_handler(unsigned int irq, void *dev_id)
{
	WRITE_ONCE(ic_cp.started, true);
	mdelay(ic_hold_ms(IC_C_MIG_HOLD_MS));
}

/*
 * Holds its CPU until the scope case lets it go, or the waiting CPU has
 * run IC_C_RAN_MS of its wait (a wait that returned would have let it go:
 * this one waits for this handler), or IC_C_SLOW_MS. Under nolock the
 * case's wait for another line returns first and lets it go; under
 * biglock that wait is for this handler.
 */
static void ic_slow_handler(unsigned int irq, void *dev_id)
{
	u64 end = ktime_get_ns() + (u64)ic_hold_ms(IC_C_SLOW_MS) * NSEC_PER_MSEC;

	WRITE_ONCE(ic_cp.started, true);
	/* Pairs with the releases in ic_sync_scope_body(). */
	while (!smp_load_acquire(&ic_cp.release)) {
		if (ktime_get_ns() >= end)
			break;
		/* Pairs with the release in ic_sync_scope_body(). */
		if (smp_load_acquire(&ic_cp.waiting) &&
		    ic_hb_beats(ic_cp.waiter) - ic_cp.wait_beats >= IC_C_RAN_MS)
			break;
		udelay(100);
	}
	/* Pairs with the acquires in ic_sync_scope_body(). */
	smp_store_release(&ic_cp.done, true);
}

/*
 * Round trips in a task: from state @s, save_flags() must report @s, and
 * save_flags(); cli(); restore_flags() must come back to it.
 */
static enum ic_result ic_roundtrip(unsigned long s, int cpu)
{
	enum ic_result r = IC_PASS;
	unsigned long f;
	bool global;

	ic_restore_flags(ic_big() ? 1 : 3);	/* a plain task first */
	ic_restore_flags(s);
	f = ic_save_flags();
	ic_check(f == s, "state %lu reported as %lu", s, f);
	/*
	 * cli() takes the global lock only from state 1: with interrupts
	 * already off locally (state 2) it stays a local cli, as in 2.5.27.
	 */
	global = ic_big() && s != 2;
	ic_cli();
	ic_check(irqs_disabled(), "cli() left interrupts on (state %lu)", s);
	ic_check(ic_save_flags() == (global ? 0 : 2), "after cli() from %lu: %lu",
		 s, ic_save_flags());
	if (global) {
		ic_check(ic_biglock_holder() == cpu, "holder %d after cli() from %lu",
			 ic_biglock_holder(), s);
		ic_check(!ic_hardirq_trylock(), "hardirq_trylock() true under the global lock");
	}
	ic_restore_flags(f);
	ic_check(ic_save_flags() == s, "restore_flags(%lu) gave %lu", f, ic_save_flags());
	ic_check(irqs_disabled() == !(s & 1) || s == 0,
		 "interrupts %s after restoring %lu", irqs_disabled() ? "off" : "on", s);
	ic_check(ic_biglock_holder() == (s == 0 ? cpu : IC_NO_PROC_ID),
		 "holder %d after restoring %lu", ic_biglock_holder(), s);
	return r;
}

static enum ic_result ic_test_flags_roundtrip(const char **skip)
{
	static const unsigned long big_states[] = { 1, 0, 2 };
	static const unsigned long nolock_states[] = { 3, 2 };
	const unsigned long *states = ic_big() ? big_states : nolock_states;
	unsigned int i, n = ic_big() ? ARRAY_SIZE(big_states) : ARRAY_SIZE(nolock_states);
	enum ic_result r = IC_PASS;
	int cpu;

	/* The holder must not migrate; cli() pins it, but the task states don't. */
	preempt_disable();
	cpu = smp_processor_id();
	for (i = 0; i < n; i++)
		if (ic_roundtrip(states[i], cpu) == IC_FAIL)
			r = IC_FAIL;
	ic_restore_flags(ic_big() ? 1 : 3);
	ic_check(!irqs_disabled() && ic_biglock_holder() == IC_NO_PROC_ID,
		 "not back to a plain task");
	ic_check(ic_hardirq_trylock(), "hardirq_trylock() false in a plain task");
	preempt_enable();
	if (!ic_big())
		ic_check(ic_nolock_global_calls() > 0, "nolock cli() calls not counted");
	return r;
}

static enum ic_result ic_test_bad_restore(const char **skip)
{
	unsigned long before = ic_api_warnings(), f = ic_save_flags();
	enum ic_result r = IC_PASS;

	ic_restore_flags(4);
	ic_restore_flags(~0UL);
	ic_check(ic_api_warnings() == before + 2, "%lu complaints, want 2",
		 ic_api_warnings() - before);
	ic_check(ic_save_flags() == f, "state changed from %lu to %lu", f, ic_save_flags());
	ic_check(!irqs_disabled(), "interrupts left off");
	return r;
}

/* In a handler cli() is local in both regimes: it must not wait for itself. */
static enum ic_result ic_handler_cli(unsigned long sa, unsigned long want)
{
	enum ic_result r = IC_PASS;
	int err;

	ic_cp_reset();
	err = ic_request_irq(IC_C_LINE, ic_cli_handler, sa, "st-cli", &ic_cp);
	ic_check(!err, "request_irq: %d", err);
	if (err)
		return r;
	ic_raise(IC_C_LINE);
	ic_check(ic_wait_until(atomic_read(&ic_cp.hits)), "handler never returned (deadlock?)");
	ic_free_irq(IC_C_LINE, &ic_cp);
	if (r == IC_FAIL)
		return r;
	ic_check(ic_cp.flags == want, "save_flags() %lu in the handler, want %lu",
		 ic_cp.flags, want);
	ic_check(ic_cp.flags_after == want, "restore_flags() gave %lu", ic_cp.flags_after);
	ic_check(ic_cp.off_after_cli, "cli() left interrupts on in the handler");
	ic_check(ic_cp.holder_after_cli == IC_NO_PROC_ID,
		 "cli() in a handler took the global lock (holder %d)", ic_cp.holder_after_cli);
	return r;
}

static enum ic_result ic_test_handler_cli(const char **skip)
{
	enum ic_result r = ic_handler_cli(IC_SA_INTERRUPT, 2);

	if (ic_handler_cli(0, 3) == IC_FAIL)
		r = IC_FAIL;
	return r;
}

/* A CPU other than this one, or -ENODEV with *@skip set. */
static int ic_cli_other_cpu(const char **skip)
{
	int cpu = get_cpu(), other = ic_other_cpu(cpu);

	put_cpu();
	if (other >= 0)
		return other;
	*skip = "needs 2 or more CPUs";
	return -ENODEV;
}

/*
 * Request @irq for @handler and aim it at a CPU other than this one.
 * Return: that CPU; -ENODEV with *@skip set when there is only one CPU;
 * another negative errno (reported) when request_irq() failed.
 */
static int ic_aim_elsewhere(unsigned int irq, ic_handler_t handler,
			    unsigned long sa, const char **skip)
{
	int other, err;

	ic_cp_reset();
	other = ic_cli_other_cpu(skip);
	if (other < 0)
		return other;
	err = ic_request_irq(irq, handler, sa, "st-cli", &ic_cp);
	if (err) {
		ic_ktap_diag("request_irq(%u): %d", irq, err);
		return err;
	}
	ic_set_affinity(irq, other);
	return other;
}

static void ic_unaim(unsigned int irq)
{
	ic_set_affinity(irq, -1);
	ic_free_irq(irq, &ic_cp);
}

static enum ic_result ic_aim_failed(int err)
{
	return err == -ENODEV ? IC_SKIP : IC_FAIL;
}

/*
 * How long a case that holds cli() with interrupts off waits for another
 * CPU to show what it does inside the section, at most: well under the
 * soft-lockup watchdog's threshold (tests/run boots with
 * watchdog_thresh=4, eight seconds) and under stall_ms, after which a
 * biglock spin would be reported.
 */
#define IC_C_SECTION_MS		1500

/*
 * One CPU holds cli() while a line aimed at another CPU is raised. Under
 * biglock the other CPU enters do_IRQ and spins in irq_enter() until
 * sti(), then handles it: nothing runs inside the section, nothing is
 * lost. Under nolock the handler runs at once, inside the section. The
 * section lasts until the other CPU has done one or the other, or
 * IC_C_SECTION_MS; then the heartbeat says whether the other CPU ran.
 */
static long ic_exclusion_body(void *arg)
{
	const char **skip = arg;
	struct ic_cli_stats st0, st;
	enum ic_result r = IC_PASS;
	unsigned long beats0, beats;
	int other, inside, ms;
	bool acted;

	other = ic_aim_elsewhere(IC_C_LINE, ic_section_handler, IC_SA_INTERRUPT, skip);
	if (other < 0)
		return ic_aim_failed(other);
	ic_cli_stats(&st0);
	ic_hb_start();

	ic_cli();
	atomic_set(&ic_cp.in_section, 1);
	beats0 = ic_hb_beats(other);
	ic_raise(IC_C_LINE);
	/*
	 * Wait (busy: this CPU may not sleep here) until the other CPU is
	 * seen spinning in irq_enter() (biglock) or has run the handler
	 * (nolock). Its heartbeat stops once it spins with interrupts off,
	 * so it is read for the window before that.
	 */
	for (ms = 0; ms < IC_C_SECTION_MS; ms++) {
		ic_cli_stats(&st);
		if (st.enter_spins > st0.enter_spins || atomic_read(&ic_cp.hits))
			break;
		mdelay(1);
	}
	beats = ic_hb_beats(other) - beats0;
	inside = atomic_read(&ic_cp.hits);
	acted = inside || st.enter_spins > st0.enter_spins;
	atomic_set(&ic_cp.in_section, 0);
	ic_sti();
	ic_hb_stop();

	ic_check(ic_wait_until(atomic_read(&ic_cp.hits) == 1), "handled %d times, want 1",
		 atomic_read(&ic_cp.hits));
	ic_unaim(IC_C_LINE);
	ic_ktap_diag("a %d ms section; CPU%d ran %lu ms of it and %s", ms, other, beats,
		     !acted ? "did nothing" : inside ? "ran the handler" : "spun in irq_enter()");
	if (r == IC_PASS && !acted && beats < IC_C_RAN_MS)
		return ic_stall("CPU%d ran %lu ms of a %d ms cli() section", other, beats, ms);
	if (ic_big()) {
		ic_check(!inside && !ic_cp.saw_section,
			 "a handler ran on CPU%d inside the global cli() section", other);
		ic_check(st.enter_spins > st0.enter_spins,
			 "CPU%d never waited in irq_enter() in %lu ms of running", other, beats);
	} else {
		/* This is the 2.5.28 fact that broke the quick conversions. */
		ic_check(inside && ic_cp.saw_section,
			 "no handler ran on CPU%d inside a nolock cli() in %lu ms of running",
			 other, beats);
	}
	return r;
}

/* Pinned: the heartbeat is read for "this CPU" and "the other CPU". */
static enum ic_result ic_test_exclusion(const char **skip)
{
	return ic_run_pinned(ic_exclusion_body, skip, skip);
}

static enum ic_result ic_test_holder_reentry(const char **skip)
{
	struct ic_cli_stats st0, st;
	enum ic_result r = IC_PASS;
	int cpu;

	if (!ic_big()) {
		*skip = "no global lock under regime=nolock";
		return IC_SKIP;
	}
	preempt_disable();
	cpu = smp_processor_id();
	ic_cli();
	ic_cli_stats(&st0);
	/*
	 * The holder opens local interrupts (no irqcore line is raised,
	 * since one taken here would find its own CPU holding the lock) and
	 * calls cli() again: that must return at once, still holding.
	 */
	local_irq_enable();
	ic_cli();
	ic_cli_stats(&st);
	ic_check(ic_biglock_holder() == cpu, "holder %d after re-entry", ic_biglock_holder());
	ic_check(irqs_disabled(), "re-entry left interrupts on");
	ic_check(st.cli_taken == st0.cli_taken && st.cli_waits == st0.cli_waits,
		 "re-entry took the lock again");
	ic_check(ic_save_flags() == 0, "save_flags() %lu while holding", ic_save_flags());
	ic_sti();
	ic_check(ic_biglock_holder() == IC_NO_PROC_ID, "sti() left holder %d",
		 ic_biglock_holder());
	preempt_enable();
	return r;
}

/*
 * How often cli_scan_nr_cpus plants a count: a scan that missed the last
 * record could see a real handler elsewhere in a few of them, not in all.
 */
#define IC_C_SCAN_TRIES	100

/*
 * Plant a handler's count in irq_stat[@i] (a record no CPU of this host
 * can own: @i >= nr_cpu_ids), ask irqs_running(), take it out. Interrupts
 * are off so that the planted count lasts as short as it can: any cli()
 * elsewhere meanwhile waits for it.
 */
static bool ic_scan_sees(unsigned int i)
{
	unsigned long flags;
	bool seen;

	local_irq_save(flags);
	WRITE_ONCE(ic_irq_stat[i].local_irq_count, 1);
	seen = ic_biglock_irqs_running();
	WRITE_ONCE(ic_irq_stat[i].local_irq_count, 0);
	local_irq_restore(flags);
	return seen;
}

/*
 * 2.5.27's irqs_running() walked irq_stat[] from 0 to NR_CPUS - 1, present
 * CPU or not: a count in the last record of nr_cpus must be seen every
 * time, one in the record just past it never on its own (a real handler
 * elsewhere can make a try true; not every one of them).
 */
static enum ic_result ic_test_scan_nr_cpus(const char **skip)
{
	unsigned int i, last = ic_nr_cpus - 1, past = ic_nr_cpus;
	unsigned int last_seen = 0, past_seen = 0;
	bool do_last = last >= nr_cpu_ids, do_past = past < IC_NR_CPUS_MAX;
	enum ic_result r = IC_PASS;

	if (!ic_big()) {
		*skip = "no global lock under regime=nolock";
		return IC_SKIP;
	}
	if (!do_last && !do_past) {
		*skip = "nr_cpus=nr_cpu_ids=IC_NR_CPUS_MAX: every record belongs to a CPU";
		return IC_SKIP;
	}
	for (i = 0; i < IC_C_SCAN_TRIES; i++) {
		if (do_last)
			last_seen += ic_scan_sees(last);
		if (do_past)
			past_seen += ic_scan_sees(past);
		cond_resched();
	}
	ic_ktap_diag("nr_cpus=%u, %u CPUs possible: a count in irq_stat[%u] seen %u of %u times",
		     ic_nr_cpus, nr_cpu_ids, last, last_seen, do_last ? IC_C_SCAN_TRIES : 0);
	ic_ktap_diag("a count in irq_stat[%u] seen %u of %u times", past, past_seen,
		     do_past ? IC_C_SCAN_TRIES : 0);
	if (do_last)
		ic_check(last_seen == IC_C_SCAN_TRIES,
			 "irq_stat[%u], the last of nr_cpus=%u, not scanned", last, ic_nr_cpus);
	if (do_past)
		ic_check(past_seen < IC_C_SCAN_TRIES, "irq_stat[%u], past nr_cpus=%u, scanned",
			 past, ic_nr_cpus);
	return r;
}

/*
 * A slow handler runs on one line; synchronize_irq() of a different, idle
 * line must wait for it under biglock (2.5.27 waited for all handlers)
 * and must not under nolock (2.5.28 waits for its own line only).
 */
static long ic_sync_scope_body(void *arg)
{
	const char **skip = arg;
	struct ic_cli_stats st0, st;
	enum ic_result r = IC_PASS;
	unsigned long beats0, beats;
	bool done_at_return;
	int other, here;

	other = ic_aim_elsewhere(IC_C_SLOW, ic_slow_handler, 0, skip);
	if (other < 0)
		return ic_aim_failed(other);
	ic_cli_stats(&st0);
	ic_hb_start();
	ic_raise(IC_C_SLOW);
	ic_check(ic_wait_until(READ_ONCE(ic_cp.started)), "slow handler never started");

	/* Pinned (ic_run_pinned()): this CPU stays the one it was. */
	here = smp_processor_id();
	beats0 = ic_hb_beats(here);
	ic_cp.waiter = here;
	ic_cp.wait_beats = beats0;
	/* Pairs with the acquire in ic_slow_handler(). */
	smp_store_release(&ic_cp.waiting, true);
	ic_synchronize_irq(IC_C_LINE);
	/* Pairs with the release in ic_slow_handler(). */
	done_at_return = smp_load_acquire(&ic_cp.done);
	beats = ic_hb_beats(here) - beats0;
	/* Pairs with the acquire in ic_slow_handler(). */
	smp_store_release(&ic_cp.release, true);

	ic_synchronize_irq(IC_C_SLOW);
	/* Pairs with the release in ic_slow_handler(). */
	ic_check(smp_load_acquire(&ic_cp.done), "synchronize_irq(own line) returned early");
	ic_unaim(IC_C_SLOW);
	ic_hb_stop();
	/* A wait for a handler shorter than stall_ms is not a stall. */
	ic_cli_stats(&st);
	ic_check(st.stalls == st0.stalls,
		 "waiting for a %u ms handler counted as a stall (stall_ms=%u)",
		 ic_hold_ms(IC_C_SLOW_MS), ic_param_stall_ms);
	if (ic_big()) {
		ic_check(done_at_return,
			 "biglock synchronize_irq(%d) returned while line %d's handler ran",
			 IC_C_LINE, IC_C_SLOW);
		return r;
	}
	/*
	 * nolock: the slow handler held until released after the wait for
	 * the other line. Over at that wait's return means that wait waited
	 * for it, unless this CPU hardly ran meanwhile: the handler reached
	 * its bound before this task got there.
	 */
	if (done_at_return && beats < IC_C_RAN_MS)
		return ic_stall("CPU%d ran %lu ms while CPU%d's handler held %u ms", here, beats,
				other, ic_hold_ms(IC_C_SLOW_MS));
	ic_check(!done_at_return,
		 "nolock synchronize_irq(%d) waited for line %d's handler (CPU%d ran %lu ms)",
		 IC_C_LINE, IC_C_SLOW, here, beats);
	return r;
}

/* Pinned: the heartbeat is read for "this CPU" and "the other CPU". */
static enum ic_result ic_test_sync_scope(const char **skip)
{
	/*
	 * The slow handler holds at most stall_ms / 2; under nolock the case
	 * needs the waiter's CPU to run IC_C_RAN_MS of it. With less, a wait
	 * for every line would read as a host stall in every run: say that
	 * the parameter, not the host, leaves the case undecided.
	 */
	if (ic_hold_ms(IC_C_SLOW_MS) < IC_C_RAN_MS) {
		*skip = "stall_ms under 200 caps the slow handler below the 100 ms the case needs";
		return IC_SKIP;
	}
	return ic_run_pinned(ic_sync_scope_body, skip, skip);
}

/* The bottom-half case: a bh marked from a work item on another CPU. */
static atomic_t ic_cli_bh_runs;
static bool ic_cli_bh_marked;

static void ic_cli_bh(void)
{
	atomic_inc(&ic_cli_bh_runs);
}

static void ic_cli_mark_fn(struct work_struct *work)
{
	ic_mark_bh(IC_C_BH);
	/* Pairs with the acquire in ic_bh_exclusion_body(). */
	smp_store_release(&ic_cli_bh_marked, true);
}

/*
 * While this CPU holds cli(), a bottom half is marked on another CPU.
 * Under biglock bh_action() finds hardirq_trylock() false and re-marks
 * it until sti(); under nolock it runs at once, inside the section. The
 * section lasts until the case can decide: under nolock until the bottom
 * half ran; under biglock until the other CPU has run IC_C_BH_RAN_MS
 * after the mark without running it (a section in which the other CPU
 * did not run proves nothing). At most IC_C_SECTION_MS in all; then the
 * heartbeat says whether the other CPU ran.
 */
#define IC_C_BH_RAN_MS	50UL

static long ic_bh_exclusion_body(void *arg)
{
	const char **skip = arg;
	unsigned long beats0, mark_beats = 0, beats;
	struct work_struct work;
	enum ic_result r = IC_PASS;
	int other, ms, inside;
	bool marked = false;

	other = ic_cli_other_cpu(skip);
	if (other < 0)
		return IC_SKIP;
	atomic_set(&ic_cli_bh_runs, 0);
	WRITE_ONCE(ic_cli_bh_marked, false);
	ic_init_bh(IC_C_BH, ic_cli_bh);
	INIT_WORK_ONSTACK(&work, ic_cli_mark_fn);
	ic_hb_start();

	ic_cli();
	beats0 = ic_hb_beats(other);
	queue_work_on(other, system_wq, &work);
	/* Busy: this CPU holds the global lock with interrupts off. */
	for (ms = 0; ms < IC_C_SECTION_MS; ms++) {
		/* The acquire pairs with the release in ic_cli_mark_fn(). */
		if (!marked && smp_load_acquire(&ic_cli_bh_marked)) {
			marked = true;
			mark_beats = ic_hb_beats(other);
		}
		if (atomic_read(&ic_cli_bh_runs))
			break;
		if (marked && ic_big() && ic_hb_beats(other) - mark_beats >= IC_C_BH_RAN_MS)
			break;
		mdelay(1);
	}
	beats = ic_hb_beats(other) - (marked ? mark_beats : beats0);
	inside = atomic_read(&ic_cli_bh_runs);
	ic_sti();
	ic_hb_stop();

	ic_check(ic_wait_until(atomic_read(&ic_cli_bh_runs)), "the bottom half never ran");
	flush_work(&work);
	destroy_work_on_stack(&work);
	ic_remove_bh(IC_C_BH);
	ic_ktap_diag("a %d ms section; CPU%d %s, then ran %lu ms of it; the bottom half ran %s",
		     ms, other, marked ? "marked the bottom half" : "never marked the bottom half",
		     beats, inside ? "inside" : "after it");
	if (r == IC_FAIL)
		return r;
	if (!marked) {
		if (beats < IC_C_RAN_MS)
			return ic_stall("CPU%d ran %lu ms of a %d ms section, marked nothing",
					other, beats, ms);
		ic_ktap_diag("CPU%d ran %lu ms of the section and never marked the bottom half",
			     other, beats);
		return IC_FAIL;
	}
	if (ic_big()) {
		ic_check(!inside, "a bottom half ran inside the global cli() section");
		if (r == IC_PASS && beats < IC_C_BH_RAN_MS)
			return ic_stall("CPU%d ran %lu ms of the section after the mark", other,
					beats);
	} else if (!inside) {
		if (beats < IC_C_RAN_MS)
			return ic_stall("CPU%d ran %lu ms of the section after the mark", other,
					beats);
		ic_check(inside,
			 "no bottom half ran on CPU%d inside a nolock cli() in %lu ms of running",
			 other, beats);
	}
	return r;
}

/* Pinned: the heartbeat is read for "this CPU" and "the other CPU". */
static enum ic_result ic_test_bh_exclusion(const char **skip)
{
	return ic_run_pinned(ic_bh_exclusion_body, skip, skip);
}

/*
 * The migrating waiter. A task that is free to run on any CPU raises a
 * line aimed at another CPU, whose handler then holds that CPU, and calls
 * cli(), which must wait for the handler; a helper at real-time priority,
 * on the waiter's CPU, moves the waiter to the other CPU as soon as it is
 * seen waiting. On a preemptible kernel the helper gets in at the first
 * window with interrupts on, unless cli() keeps preemption off while it
 * waits. Wherever the waiter ends up, it must be the recorded holder, and
 * its sti() must free the lock.
 */

/**
 * struct ic_mig - the migrating-waiter case.
 * @waiter: the task that calls cli().
 * @done: rounds the waiter has finished.
 * @waited: rounds in which cli() had to wait.
 * @wrong_holder: rounds where the holder was not the waiter's CPU.
 * @left_held: rounds where sti() left the lock held.
 * @moved: the helper's successful moves.
 * @stop: ends the helper.
 */
struct ic_mig {
	struct task_struct *waiter;
	int done;
	int waited;
	int wrong_holder;
	int left_held;
	int moved;
	bool stop;
};

static struct ic_mig ic_mig;

/* One round: make a handler hold another CPU, then cli() while it runs. */
static void ic_mig_round(void)
{
	struct ic_cli_stats st0, st;
	unsigned long end;
	int cpu, holder;

	ic_synchronize_irq(IC_C_SLOW);		/* the last round's handler is over */
	WRITE_ONCE(ic_cp.started, false);
	ic_set_affinity(IC_C_SLOW, ic_other_cpu(raw_smp_processor_id()));
	ic_raise(IC_C_SLOW);
	/* Busy: a sleep here could leave the handler over before cli(). */
	end = jiffies + msecs_to_jiffies(1000);
	while (!READ_ONCE(ic_cp.started) && time_before(jiffies, end))
		cpu_relax();
	ic_cli_stats(&st0);
	ic_cli();
	cpu = smp_processor_id();	/* interrupts are off: stable */
	holder = ic_biglock_holder();
	ic_sti();
	ic_cli_stats(&st);
	if (st.cli_waits != st0.cli_waits)
		ic_mig.waited++;
	if (holder != cpu)
		ic_mig.wrong_holder++;
	if (ic_biglock_holder() != IC_NO_PROC_ID)
		ic_mig.left_held++;
}

static int ic_mig_waiter_fn(void *arg)
{
	int i;

	for (i = 0; i < IC_C_MIG_ROUNDS && !kthread_should_stop(); i++) {
		ic_mig_round();
		/* Pairs with the acquire in ic_test_migrating_waiter(). */
		smp_store_release(&ic_mig.done, i + 1);
		usleep_range(1000, 2000);
	}
	ic_kthread_wait_stop();
	return 0;
}

/* Stays on the waiter's CPU; moves the waiter away when a cli() waits. */
static int ic_mig_helper_fn(void *arg)
{
	struct ic_cli_stats st;
	unsigned long seen;
	int from, to;

	ic_cli_stats(&st);
	seen = st.cli_waits;
	while (!READ_ONCE(ic_mig.stop)) {
		from = task_cpu(ic_mig.waiter);
		if (raw_smp_processor_id() != from)
			set_cpus_allowed_ptr(current, cpumask_of(from));
		ic_cli_stats(&st);
		if (st.cli_waits != seen) {
			seen = st.cli_waits;
			to = ic_other_cpu(from);
			if (to >= 0 && !set_cpus_allowed_ptr(ic_mig.waiter, cpumask_of(to)))
				ic_mig.moved++;
		}
		usleep_range(20, 50);
	}
	ic_kthread_wait_stop();
	return 0;
}

static enum ic_result ic_test_migrating_waiter(const char **skip)
{
	struct task_struct *helper;
	enum ic_result r = IC_PASS;
	int err;

	if (!ic_big()) {
		*skip = "no global lock under regime=nolock";
		return IC_SKIP;
	}
	if (ic_cli_other_cpu(skip) < 0)
		return IC_SKIP;
	memset(&ic_mig, 0, sizeof(ic_mig));
	ic_cp_reset();
	err = ic_request_irq(IC_C_SLOW, ic_mig_slow_handler, 0, "st-mig", &ic_cp);
	ic_check(!err, "request_irq: %d", err);
	if (err)
		return r;
	ic_mig.waiter = kthread_create(ic_mig_waiter_fn, NULL, "ic_cli_waiter");
	if (IS_ERR(ic_mig.waiter)) {
		ic_free_irq(IC_C_SLOW, &ic_cp);
		ic_ktap_diag("kthread_create: %ld", PTR_ERR(ic_mig.waiter));
		return IC_FAIL;
	}
	helper = kthread_create(ic_mig_helper_fn, NULL, "ic_cli_mover");
	if (IS_ERR(helper)) {
		kthread_stop(ic_mig.waiter);
		ic_free_irq(IC_C_SLOW, &ic_cp);
		ic_ktap_diag("kthread_create: %ld", PTR_ERR(helper));
		return IC_FAIL;
	}
	sched_set_fifo(helper);
	wake_up_process(ic_mig.waiter);
	wake_up_process(helper);

	/* Pairs with the release in ic_mig_waiter_fn(). */
	ic_check(ic_wait_until(smp_load_acquire(&ic_mig.done) == IC_C_MIG_ROUNDS),
		 "the waiter finished %d of %d rounds", READ_ONCE(ic_mig.done), IC_C_MIG_ROUNDS);
	WRITE_ONCE(ic_mig.stop, true);
	kthread_stop(helper);
	kthread_stop(ic_mig.waiter);
	ic_set_affinity(IC_C_SLOW, -1);
	ic_free_irq(IC_C_SLOW, &ic_cp);
	ic_ktap_diag("%d rounds: cli() waited in %d, waiter moved %d times", IC_C_MIG_ROUNDS,
		     ic_mig.waited, ic_mig.moved);
	ic_ktap_diag("wrong holder %d times, lock left held %d times", ic_mig.wrong_holder,
		     ic_mig.left_held);
	ic_check(ic_mig.waited > 0, "cli() never had to wait: the case tested nothing");
	ic_check(!ic_mig.wrong_holder, "cli() recorded a CPU other than the holder's");
	ic_check(!ic_mig.left_held, "sti() left the global lock held");
	return r;
}

/*
 * The bottom half against cli(), in lockstep. Two CPUs meet at a barrier
 * before every round; then one runs a bottom half through bh_action() and
 * the other takes cli(), so that both start their store-then-load of the
 * other's flag at the same moment (see softirq.c for the pairing). Each
 * side marks its critical section and, while inside, looks for the
 * other's mark. Without a full barrier on both sides x86's store buffer
 * lets both pass their checks, and a mark seen here shows it. The two
 * paths differ in length, so the cli() side starts a little later each
 * round (a sweep over a few hundred loop turns) until the stores and loads
 * of both sides fall together in some rounds.
 */
#define IC_C_LOCKSTEP_ROUNDS	20000
/*
 * Every meeting needs both vCPUs on the host at once: on a busy host a
 * round can take milliseconds instead of microseconds, and 20 000 of them
 * minutes (a host with two CPU-bound jobs beside the guest gave 256 to
 * 7 680 rounds in 4 s, against 50 000 in half a second on a quiet one).
 * A run ends after this long, whatever its rounds: fewer rounds test less
 * but wrongly nothing. The time is looked at in the rounds where the case's
 * side yields, every 256th, so a run that ends on time has 256 rounds or
 * more, and the other side has reached its first yield.
 */
#define IC_C_LOCKSTEP_MS	5000

/**
 * struct ic_lockstep - the lockstep case.
 * @arrived: barrier: each side adds one per round.
 * @in_section: this CPU holds the global lock and is inside.
 * @in_bh: the bottom half is inside its routine.
 * @overlaps: marks seen from inside.
 * @bh_ran: rounds in which the bottom half ran (not held off).
 * @stop: a side gave up (a barrier timed out).
 * @end: the case's side ended the run at its time bound; the other side
 *	leaves at its next meeting.
 * @lost_beats: the other side's CPU's heartbeats in the wait that timed out.
 */
struct ic_lockstep {
	atomic_t arrived;
	atomic_t in_section;
	atomic_t in_bh;
	atomic_long_t overlaps;
	unsigned long bh_ran;
	bool stop;
	bool end;
	unsigned long lost_beats;
};

static struct ic_lockstep ic_ls;

/* A delay of @turns loop turns, finer than udelay() and without PAUSE. */
static void ic_ls_skew(unsigned int turns)
{
	while (turns--)
		barrier();
}

/* Look for @other's mark for about @us microseconds. */
static void ic_ls_watch(atomic_t *other, unsigned int us)
{
	unsigned int i;

	for (i = 0; i < us; i++) {
		if (atomic_read(other))
			atomic_long_inc(&ic_ls.overlaps);
		udelay(1);
	}
}

/*
 * Wait until both sides have arrived for round @round; false on timeout.
 * The wait yields once it has lasted a tick or two: the other side is off its
 * CPU (a yield of its own, or its vCPU off the host), and a wait that
 * kept this CPU meanwhile would hold it for as long. It gives up after
 * wait_ms without the other side, and notes how long the other side's CPU
 * ran meanwhile (@partner's heartbeat), which says whose fault it was.
 */
static bool ic_ls_meet(int round, int partner)
{
	unsigned long start = jiffies, end = start + msecs_to_jiffies(ic_param_wait_ms);
	unsigned long beats = ic_hb_beats(partner);
	unsigned int spins = 0;

	/*
	 * This side's stores of the round (the litmus test's resets, its r1)
	 * before its arrival: a void atomic_inc() orders nothing in the
	 * kernel's memory model (x86's locked add does). Pairs with the
	 * partner's smp_acquire__after_ctrl_dep() below.
	 */
	smp_mb__before_atomic();
	atomic_inc(&ic_ls.arrived);
	while (atomic_read(&ic_ls.arrived) < 2 * round) {
		if (READ_ONCE(ic_ls.stop) || READ_ONCE(ic_ls.end))
			return false;
		if (!(++spins % 4096)) {
			if (time_after(jiffies, end)) {
				ic_ls.lost_beats = ic_hb_beats(partner) - beats;
				WRITE_ONCE(ic_ls.stop, true);
				return false;
			}
			/* Past a tick: the other side is off its CPU. */
			if (time_after(jiffies, start + 1))
				cond_resched();
		}
		cpu_relax();
	}
	/* The partner's stores before its arrival, seen from here on. */
	smp_acquire__after_ctrl_dep();
	return true;
}

/*
 * The verdict on a lockstep that lost step: the host's if the other
 * side's CPU ran less than a tenth of the wait, the case's otherwise.
 */
static enum ic_result ic_ls_lost(enum ic_result r)
{
	if (r == IC_FAIL)
		return r;
	if (ic_ls.lost_beats < ic_param_wait_ms / 10)
		return ic_stall("the other side's CPU ran %lu ms of a %u ms wait at a meeting",
				ic_ls.lost_beats, ic_param_wait_ms);
	ic_ktap_diag("the two sides lost step: the other side's CPU ran %lu ms of a %u ms wait",
		     ic_ls.lost_beats, ic_param_wait_ms);
	return IC_FAIL;
}

static void ic_ls_bh(void)
{
	ic_ls.bh_ran++;
	atomic_set(&ic_ls.in_bh, 1);
	ic_ls_watch(&ic_ls.in_section, 2);
	atomic_set(&ic_ls.in_bh, 0);
}

/* The other side, on the other CPU; @arg is this case's CPU. */
static int ic_ls_bh_side(void *arg)
{
	int partner = (long)arg, i;

	for (i = 1; i <= IC_C_LOCKSTEP_ROUNDS; i++) {
		if (!ic_ls_meet(i, partner))
			break;
		ic_local_bh_disable();
		ic_bh_action_for_test(IC_C_BH);
		ic_local_bh_enable();
		if (!(i % 256))
			cond_resched();
	}
	ic_kthread_wait_stop();
	return 0;
}

static long ic_lockstep_body(void *arg)
{
	int here = smp_processor_id(), other = ic_other_cpu(here);
	enum ic_result r = IC_PASS;
	struct task_struct *t;
	int i, rounds = 0;
	u64 end;

	memset(&ic_ls, 0, sizeof(ic_ls));
	ic_init_bh(IC_C_BH, ic_ls_bh);
	t = kthread_create(ic_ls_bh_side, (void *)(long)here, "ic_lockstep");
	if (IS_ERR(t)) {
		ic_ktap_diag("kthread_create: %ld", PTR_ERR(t));
		ic_remove_bh(IC_C_BH);
		return IC_FAIL;
	}
	kthread_bind(t, other);
	ic_hb_start();
	wake_up_process(t);
	end = ktime_get_ns() + IC_C_LOCKSTEP_MS * NSEC_PER_MSEC;
	for (i = 1; i <= IC_C_LOCKSTEP_ROUNDS; i++) {
		if (!ic_ls_meet(i, other))
			break;
		ic_ls_skew((i * 7) % 512);
		ic_cli();
		atomic_set(&ic_ls.in_section, 1);
		ic_ls_watch(&ic_ls.in_bh, 2);
		atomic_set(&ic_ls.in_section, 0);
		ic_sti();
		rounds = i;
		if (!(i % 256)) {
			cond_resched();
			if (ktime_get_ns() > end) {
				WRITE_ONCE(ic_ls.end, true);
				break;
			}
		}
	}
	kthread_stop(t);
	ic_hb_stop();
	/* A bottom half held off by cli() was re-marked: let it run out. */
	msleep(20);
	ic_remove_bh(IC_C_BH);
	ic_ktap_diag("%d rounds in lockstep with CPU%d: the bottom half ran in %lu, %ld overlaps",
		     rounds, other, ic_ls.bh_ran, atomic_long_read(&ic_ls.overlaps));
	ic_check(!atomic_long_read(&ic_ls.overlaps),
		 "a bottom half ran inside a global cli() section");
	if (READ_ONCE(ic_ls.stop))
		return ic_ls_lost(r);
	ic_check(ic_ls.bh_ran > 0, "the bottom half never ran");
	return r;
}

/*
 * The store-buffering litmus test on this guest, with the same lockstep:
 * each CPU stores to its own word and then loads the other's. Without a
 * barrier between the two, x86 may let both loads see the old value;
 * with smp_mb(), as bh_action() and irq_enter() have, never. The
 * unfenced count is only reported: it shows that the hazard those
 * barriers close is real on this machine, even where the longer paths of
 * cli_bottom_half_lockstep give it no room to show (their flag shares a
 * cache line with the bh lock, which a locked instruction has just taken).
 */
#define IC_C_SB_ROUNDS		50000
/* A run's time bound, as IC_C_LOCKSTEP_MS's. */
#define IC_C_SB_MS		4000

/**
 * struct ic_sb - one run of the litmus test.
 * @x: written by the other CPU, read here.
 * @y: written here, read by the other CPU.
 * @r1: what the other CPU read of @y.
 * @fenced: a full barrier between each side's store and load.
 * @by: a bystander on the other side's CPU.
 * @side_turns: the other side's yields in which @by took a turn.
 */
struct ic_sb {
	int x;
	int y;
	int r1;
	bool fenced;
	struct ic_bystander *by;
	unsigned long side_turns;
};

static struct ic_sb ic_sb;

/*
 * The other side, on the other CPU; @arg is the case's CPU. It yields in
 * the same rounds as the case's side: a yield on one side only left this
 * one holding its CPU for the whole run whenever the other's CPU was
 * given to someone else (a soft lockup of 26 s on a busy host).
 */
static int ic_sb_side(void *arg)
{
	int partner = (long)arg, i;

	for (i = 1; i <= IC_C_SB_ROUNDS; i++) {
		if (!ic_ls_meet(2 * i - 1, partner))
			break;
		WRITE_ONCE(ic_sb.x, 1);
		if (ic_sb.fenced)
			smp_mb();	/* the barrier under test */
		WRITE_ONCE(ic_sb.r1, READ_ONCE(ic_sb.y));
		if (!ic_ls_meet(2 * i, partner))
			break;
		if (!(i % 256)) {
			unsigned long turns = READ_ONCE(ic_sb.by->turns);

			cond_resched();	/* the side's yield */
			if (READ_ONCE(ic_sb.by->turns) != turns)
				ic_sb.side_turns++;
		}
	}
	ic_kthread_wait_stop();
	return 0;
}

/*
 * One run; returns the rounds in which both loads saw 0, or -1 when the
 * sides lost step. Adds to *@turns the other side's yields in which @by,
 * on @other, took a turn.
 */
static long ic_sb_run(int here, int other, bool fenced, struct ic_bystander *by,
		      unsigned long *turns, int *rounds)
{
	u64 end = ktime_get_ns() + IC_C_SB_MS * NSEC_PER_MSEC;
	struct task_struct *t;
	long both = 0;
	int i, r2;

	memset(&ic_ls, 0, sizeof(ic_ls));
	memset(&ic_sb, 0, sizeof(ic_sb));
	ic_sb.fenced = fenced;
	ic_sb.by = by;
	t = kthread_create(ic_sb_side, (void *)(long)here, "ic_litmus");
	if (IS_ERR(t))
		return -1;
	kthread_bind(t, other);
	wake_up_process(t);
	for (i = 1; i <= IC_C_SB_ROUNDS; i++) {
		if (!ic_ls_meet(2 * i - 1, other))
			break;
		WRITE_ONCE(ic_sb.y, 1);
		if (fenced)
			smp_mb();	/* the barrier under test */
		r2 = READ_ONCE(ic_sb.x);
		if (!ic_ls_meet(2 * i, other))
			break;
		if (!r2 && !READ_ONCE(ic_sb.r1))
			both++;
		/* Reset before the next meeting, which orders it (ic_ls_meet()). */
		WRITE_ONCE(ic_sb.x, 0);
		WRITE_ONCE(ic_sb.y, 0);
		*rounds = i;
		if (!(i % 256)) {
			cond_resched();
			if (ktime_get_ns() > end) {
				WRITE_ONCE(ic_ls.end, true);
				break;
			}
		}
	}
	kthread_stop(t);
	/* The side has ended: kthread_stop() waited for it. */
	*turns += ic_sb.side_turns;
	return READ_ONCE(ic_ls.stop) ? -1 : both;
}

/*
 * Both runs, with a bystander on the other side's CPU: it gets turns only
 * when that side yields, so a side that held its CPU for a whole run
 * shows as a bystander without turns, on a quiet host too (on a kernel
 * that does not preempt kthreads, Debian's; a preemptible kernel gives
 * the bystander turns anyway). A run lasts a few hundred ms of guest
 * time, a hundred of the bystander's wakes.
 */
static long ic_sb_body(void *arg)
{
	int here = smp_processor_id(), other = ic_other_cpu(here);
	enum ic_result r = IC_PASS;
	struct ic_bystander by;
	int err, plain_rounds = 0, fenced_rounds = 0;
	unsigned long turns = 0;
	long plain, fenced;

	err = ic_bystander_start(&by, other);
	if (err) {
		ic_ktap_diag("kthread_create: %d", err);
		return IC_FAIL;
	}
	ic_hb_start();
	ic_bystander_go(&by);
	plain = ic_sb_run(here, other, false, &by, &turns, &plain_rounds);
	fenced = plain < 0 ? -1 : ic_sb_run(here, other, true, &by, &turns, &fenced_rounds);
	ic_bystander_stop(&by);
	ic_hb_stop();
	ic_ktap_diag("store buffering, CPU%d: both old in %ld of %d rounds, %ld of %d fenced",
		     other, plain, plain_rounds, fenced, fenced_rounds);
	ic_ktap_diag("a bystander on CPU%d got in at %lu of the other side's yields", other, turns);
	ic_check(fenced <= 0, "smp_mb() let a load pass an earlier store");
	if (plain < 0 || fenced < 0)
		return ic_ls_lost(r);
	/*
	 * A preemptible kernel (PREEMPT_RT, the debug kernels, preempt=full)
	 * lets the bystander in whenever it wakes, not at the side's yields:
	 * there the yields cannot be told from preemption, and are not.
	 */
	if (preempt_model_preemptible())
		ic_ktap_diag("a preemptible kernel: its yields are not what lets the bystander in");
	else
		ic_check(turns > 0, "the side on CPU%d never let the bystander in at its yields",
			 other);
	return r;
}

static enum ic_result ic_test_sb_litmus(const char **skip)
{
	return ic_run_pinned(ic_sb_body, NULL, skip);
}

static enum ic_result ic_test_bh_lockstep(const char **skip)
{
	if (!ic_big()) {
		*skip = "no global lock under regime=nolock";
		return IC_SKIP;
	}
	return ic_run_pinned(ic_lockstep_body, NULL, skip);
}

static const struct ic_case ic_cli_cases[] = {
	{ "cli_flags_roundtrip", ic_test_flags_roundtrip },
	{ "cli_bad_restore_flags", ic_test_bad_restore },
	{ "cli_in_handler_is_local", ic_test_handler_cli },
	{ "cli_exclusion", ic_test_exclusion },
	{ "cli_holder_reentry", ic_test_holder_reentry },
	{ "cli_scan_nr_cpus", ic_test_scan_nr_cpus },
	{ "synchronize_irq_scope", ic_test_sync_scope },
	{ "cli_bottom_halves", ic_test_bh_exclusion },
	{ "cli_migrating_waiter", ic_test_migrating_waiter },
	{ "cli_bottom_half_lockstep", ic_test_bh_lockstep },
	{ "litmus_store_buffering", ic_test_sb_litmus },
};

const struct ic_suite ic_cli_suite = {
	.cases = ic_cli_cases,
	.nr = ARRAY_SIZE(ic_cli_cases),
};

/*
 * inject=stall: hold cli() for longer than stall_ms while another CPU's
 * irq_enter() waits. The case itself passes (the wait ends, the raise is
 * handled); the stall report is a WARN that the runner must flag.
 */
static enum ic_result ic_test_stall(const char **skip)
{
	unsigned int ms, hold = ic_param_stall_ms + ic_param_stall_ms / 2 + 100;
	unsigned int most = 10 * ic_param_stall_ms;
	struct ic_cli_stats st0, st;
	enum ic_result r = IC_PASS;
	int other;

	if (!ic_big()) {
		*skip = "inject=stall needs regime=biglock";
		return IC_SKIP;
	}
	other = ic_aim_elsewhere(IC_C_LINE, ic_section_handler, IC_SA_INTERRUPT, skip);
	if (other < 0)
		return ic_aim_failed(other);
	ic_cli_stats(&st0);
	ic_cli();
	ic_raise(IC_C_LINE);
	/*
	 * The bound is on the waiter's own spinning, which a busy host cuts
	 * short: hold on past @hold until the report came, up to ten bounds.
	 */
	for (ms = 0; ms < most; ms++) {
		if (ms >= hold) {
			ic_cli_stats(&st);
			if (st.stalls > st0.stalls)
				break;
		}
		mdelay(1);
	}
	ic_sti();
	ic_check(ic_wait_until(atomic_read(&ic_cp.hits) == 1), "raise lost after the stall");
	ic_unaim(IC_C_LINE);
	ic_cli_stats(&st);
	ic_check(st.stalls > st0.stalls, "a %u ms hold was not counted as a stall (stall_ms=%u)",
		 ms, ic_param_stall_ms);
	return r;
}

const struct ic_case ic_cli_stall_case = {
	.name = "cli_stall_reported",
	.run = ic_test_stall,
};
