// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore - self-tests of how the waits behave towards everything else:
 * a waiting task leaves its CPU to other tasks, a wait for the waiter's own
 * line is refused instead of hanging, and probes take turns.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include <irqcore.h>

#include "../irq.h"
#include "../misuse.h"
#include "../spin.h"
#include "selftest.h"

#define IC_W_LINE	13
#define IC_W_PROBE	14
/*
 * The holding handler's bound: it holds until the case has its evidence
 * (below), or this long.
 */
#define IC_W_HOLD_MS	900U
/*
 * The turns that count are those after the waiter's CPU has run
 * IC_W_SETTLE_MS of the wait (heartbeats, about as many ms with
 * interrupts on): a wait that yields once on the way in (a might_sleep(),
 * a cond_resched() before its loop) and then spins must not pass. Then
 * evidence enough: IC_W_RAN_MS more. A waiter that yields lets the
 * bystander in within a scheduler tick or two of that.
 */
#define IC_W_SETTLE_MS	20UL
#define IC_W_RAN_MS	50UL

/**
 * struct ic_wstate - shared by the wait cases and their handlers.
 * @entered: the holding handler has started.
 * @left: it has returned.
 * @hits: handler runs.
 * @by: the bystander on the waiter's CPU.
 * @here: the waiter's CPU.
 * @go: the wait has begun (the bystander was let go).
 * @go_beats: the waiter's CPU's heartbeats then.
 * @armed: the waiter's CPU has run IC_W_SETTLE_MS of the wait.
 * @turns0: the bystander's turns then.
 * @turns: its turns from then to the handler's end.
 * @held_ms: how long the holding handler held.
 * @bounded: it stopped at IC_W_HOLD_MS, not on evidence.
 */
struct ic_wstate {
	bool entered;
	bool left;
	atomic_t hits;
	struct ic_bystander by;
	int here;
	bool go;
	unsigned long go_beats;
	bool armed;
	unsigned long turns0;
	unsigned long turns;
	unsigned int held_ms;
	bool bounded;
};

static struct ic_wstate ic_ws;

/*
 * Holds its CPU until the case can decide: once the waiter's CPU has run
 * IC_W_SETTLE_MS of the wait, until the bystander has had a turn (the
 * waiter yields in its loop) or that CPU has run IC_W_RAN_MS more without
 * giving it one (it does not); or IC_W_HOLD_MS (the waiter's CPU did not
 * run: a host stall, or the waiter came late).
 */
static void ic_w_hold_handler(unsigned int irq, void *dev_id)
{
	u64 t0 = ktime_get_ns(), end = t0 + (u64)ic_hold_ms(IC_W_HOLD_MS) * NSEC_PER_MSEC;
	unsigned long ran;

	WRITE_ONCE(ic_ws.entered, true);
	for (;;) {
		/* Pairs with the release in ic_yield_body(). */
		if (smp_load_acquire(&ic_ws.go)) {
			ran = ic_hb_beats(ic_ws.here) - ic_ws.go_beats;
			if (!ic_ws.armed && ran >= IC_W_SETTLE_MS) {
				ic_ws.armed = true;
				ic_ws.turns0 = READ_ONCE(ic_ws.by.turns);
			}
			if (ic_ws.armed) {
				ic_ws.turns = READ_ONCE(ic_ws.by.turns) - ic_ws.turns0;
				if (ic_ws.turns || ran >= IC_W_SETTLE_MS + IC_W_RAN_MS)
					break;
			}
		}
		if (ktime_get_ns() >= end) {
			ic_ws.bounded = true;
			break;
		}
		udelay(100);
	}
	ic_ws.held_ms = div_u64(ktime_get_ns() - t0, NSEC_PER_MSEC);
	atomic_inc(&ic_ws.hits);
	/* Pairs with the acquire in ic_yield_body(). */
	smp_store_release(&ic_ws.left, true);
}

/*
 * Runs on the first online CPU, beside a bystander bound there: a handler
 * holds another CPU while this task waits for it in synchronize_irq().
 * The bystander must get turns during the wait, counted once this CPU
 * has run IC_W_SETTLE_MS of it. Decided from evidence (heartbeat.c): no
 * turn while this CPU ran IC_W_RAN_MS more is a waiter that kept its CPU;
 * a CPU that never ran IC_W_SETTLE_MS of the wait, or a handler that was
 * over before this task could wait for it, is the host.
 */
static long ic_yield_body(void *arg)
{
	int here = smp_processor_id(), there = ic_other_cpu(here);
	enum ic_result r = IC_PASS;
	unsigned long beats;
	bool left_before, late;
	ktime_t t0;
	int err;

	memset(&ic_ws, 0, sizeof(ic_ws));
	ic_ws.here = here;
	err = ic_request_irq(IC_W_LINE, ic_w_hold_handler, 0, "st-yield", &ic_ws);
	ic_check(!err, "request_irq: %d", err);
	if (err)
		return r;
	/* It counts no turn before ic_bystander_go(). */
	err = ic_bystander_start(&ic_ws.by, here);
	if (err) {
		ic_free_irq(IC_W_LINE, &ic_ws);
		ic_ktap_diag("kthread_create: %d", err);
		return IC_FAIL;
	}
	ic_hb_start();

	ic_set_affinity(IC_W_LINE, there);
	ic_raise(IC_W_LINE);
	ic_check(ic_wait_until(READ_ONCE(ic_ws.entered)), "handler never started");
	ic_bystander_go(&ic_ws.by);
	ic_ws.go_beats = ic_hb_beats(here);
	/* Pairs with the acquire in ic_w_hold_handler(). */
	smp_store_release(&ic_ws.go, true);
	late = READ_ONCE(ic_ws.left);
	t0 = ktime_get();
	ic_synchronize_irq(IC_W_LINE);
	/* Pairs with the release in ic_w_hold_handler(). */
	left_before = smp_load_acquire(&ic_ws.left);
	beats = ic_hb_beats(here) - ic_ws.go_beats;
	ic_bystander_stop(&ic_ws.by);
	ic_hb_stop();
	ic_ktap_diag("waited %lld ms for a handler that held CPU%d %u ms (%s)",
		     ktime_ms_delta(ktime_get(), t0), there, ic_ws.held_ms,
		     ic_ws.bounded ? "its bound" : "until the case could decide");
	ic_ktap_diag("CPU%d ran %lu ms of the wait; a bystander took %lu turns after %lu ms",
		     here, beats, ic_ws.turns, IC_W_SETTLE_MS);
	ic_set_affinity(IC_W_LINE, -1);
	ic_free_irq(IC_W_LINE, &ic_ws);

	ic_check(left_before, "synchronize_irq() returned while the handler ran");
	if (r == IC_FAIL)
		return r;
	if (late || !ic_ws.armed)
		return ic_stall("CPU%d ran %lu ms in the %u ms that CPU%d's handler held%s", here,
				beats, ic_ws.held_ms, there,
				late ? ", and the waiter came after it ended" : "");
	if (ic_ws.turns)
		return r;
	/* Armed, no turn: the handler held until IC_W_RAN_MS more, or its bound. */
	if (beats < IC_W_SETTLE_MS + IC_W_RAN_MS)
		return ic_stall("CPU%d ran %lu ms of the wait, %lu of them counted", here, beats,
				beats - IC_W_SETTLE_MS);
	ic_check(ic_ws.turns > 0, "the waiter kept CPU%d from the bystander for %lu ms of the wait",
		 here, beats - IC_W_SETTLE_MS);
	return r;
}

static enum ic_result ic_test_waiter_yields(const char **skip)
{
	/*
	 * The holding handler holds at most stall_ms / 2, and the case needs
	 * the waiter's CPU to run IC_W_SETTLE_MS + IC_W_RAN_MS of it: with
	 * less, a waiter that never yields would read as a host stall in
	 * every run. The parameter, not the host, leaves it undecided.
	 */
	if (ic_hold_ms(IC_W_HOLD_MS) < IC_W_SETTLE_MS + IC_W_RAN_MS) {
		*skip = "stall_ms under 140 holds the handler under the 70 ms the case needs";
		return IC_SKIP;
	}
	return ic_run_pinned(ic_yield_body, NULL, skip);
}

/*
 * A handler that waits for its own line: disable_irq(), synchronize_irq()
 * and free_irq() of the line it is running. Each must return (2.5.28 hung
 * the CPU here), with a warning where it would have waited.
 */
static void ic_w_self_handler(unsigned int irq, void *dev_id)
{
	if (!atomic_read(&ic_ws.hits)) {
		ic_disable_irq(irq);
		ic_synchronize_irq(irq);
		ic_free_irq(irq, dev_id);
	}
	atomic_inc(&ic_ws.hits);
}

static enum ic_result ic_test_own_line(const char **skip)
{
	unsigned long warned = ic_api_warnings(), want;
	enum ic_result r = IC_PASS;
	int err;

	memset(&ic_ws, 0, sizeof(ic_ws));
	err = ic_request_irq(IC_W_LINE, ic_w_self_handler, IC_SA_INTERRUPT, "st-self", &ic_ws);
	ic_check(!err, "request_irq: %d", err);
	if (err)
		return r;
	ic_raise(IC_W_LINE);
	ic_check(ic_wait_until(atomic_read(&ic_ws.hits) == 1),
		 "the handler never returned from waiting for its own line");
	/*
	 * nolock refuses all three. biglock's disable_irq() does not wait in
	 * a handler at all (2.5.27's guard), so it does not warn.
	 */
	want = strcmp(ic_regime_name(), "biglock") ? 3 : 2;
	ic_check(ic_api_warnings() - warned == want, "%lu warnings, want %lu",
		 ic_api_warnings() - warned, want);
	ic_check(ic_irq_status(IC_W_LINE) & IC_IRQ_DISABLED, "disable_irq() did not disable");
	ic_enable_irq(IC_W_LINE);
	/* free_irq() changed nothing: the handler is still there. */
	ic_raise(IC_W_LINE);
	ic_check(ic_wait_until(atomic_read(&ic_ws.hits) == 2),
		 "the line lost its handler to a refused free_irq()");
	ic_free_irq(IC_W_LINE, &ic_ws);
	return r;
}

/* Probes take turns: the second waits for the first to finish. */
static bool ic_probe_first_on;
static bool ic_probe_first_off;

static void ic_probe_first_fn(struct work_struct *work)
{
	unsigned long mask = ic_probe_irq_on();

	/* Pairs with the acquire in ic_test_probe_turns(). */
	smp_store_release(&ic_probe_first_on, true);
	/* Longer than a whole second probe_irq_on(), which sleeps 100 ms. */
	msleep(300);
	WRITE_ONCE(ic_probe_first_off, true);
	ic_probe_irq_off(mask);
}

static enum ic_result ic_test_probe_turns(const char **skip)
{
	enum ic_result r = IC_PASS;
	struct work_struct work;
	unsigned long mask;
	bool first_done;

	WRITE_ONCE(ic_probe_first_on, false);
	WRITE_ONCE(ic_probe_first_off, false);
	INIT_WORK_ONSTACK(&work, ic_probe_first_fn);
	schedule_work(&work);
	/* Pairs with the release in ic_probe_first_fn(). */
	ic_check(ic_wait_until(smp_load_acquire(&ic_probe_first_on)), "first probe never started");
	mask = ic_probe_irq_on();
	first_done = READ_ONCE(ic_probe_first_off);
	ic_check(ic_probe_irq_off(mask) == 0, "a line fired during an idle probe");
	flush_work(&work);
	destroy_work_on_stack(&work);
	ic_check(first_done, "a second probe_irq_on() ran while the first probe was open");
	return r;
}

/*
 * probe_irq_off() from a task that did not call probe_irq_on() is refused
 * and leaves the probe lock alone: alone (it once unlocked a mutex it did
 * not hold, a bad unlock balance for lockdep), and while another task's
 * probe is open (it once released that prober's lock, so that a third
 * probe could start inside the second).
 */
static bool ic_probe_open;
static bool ic_probe_close;

static void ic_probe_holder_fn(struct work_struct *work)
{
	unsigned long mask = ic_probe_irq_on();

	/* Pairs with the acquire in ic_test_probe_off_unpaired(). */
	smp_store_release(&ic_probe_open, true);
	/* Pairs with the release in ic_test_probe_off_unpaired(). */
	while (!smp_load_acquire(&ic_probe_close))
		usleep_range(5000, 6000);
	ic_probe_irq_off(mask);
}

static enum ic_result ic_test_probe_off_unpaired(const char **skip)
{
	unsigned long before = ic_api_warnings();
	enum ic_result r = IC_PASS;
	struct work_struct work;
	int ret;

	ret = ic_probe_irq_off(0);
	ic_check(ret == 0, "unpaired probe_irq_off(): %d", ret);
	ic_check(!ic_probe_busy(), "the probe lock is held after an unpaired probe_irq_off()");

	WRITE_ONCE(ic_probe_open, false);
	WRITE_ONCE(ic_probe_close, false);
	INIT_WORK_ONSTACK(&work, ic_probe_holder_fn);
	schedule_work(&work);
	/* Pairs with the release in ic_probe_holder_fn(). */
	ic_check(ic_wait_until(smp_load_acquire(&ic_probe_open)), "the probe never started");
	ret = ic_probe_irq_off(0);
	ic_check(ret == 0, "probe_irq_off() beside another task's probe: %d", ret);
	ic_check(ic_probe_busy(), "another task's probe_irq_off() released the holder's probe");
	/* Pairs with the acquire in ic_probe_holder_fn(). */
	smp_store_release(&ic_probe_close, true);
	flush_work(&work);
	destroy_work_on_stack(&work);
	ic_check(!ic_probe_busy(), "the holder's own probe_irq_off() did not end its probe");
	ic_check(ic_api_warnings() == before + 2, "%lu complaints, want 2",
		 ic_api_warnings() - before);
	return r;
}

/*
 * A wait's bound is on the time its CPU waited, not on the clock's: fed a
 * clock of the test's own as a spin looks at it, 1 ms steps for half the
 * bound, then one step of ten bounds (its vCPU off a busy host), then
 * 1 ms steps again, the wait must pass its bound on the first step past
 * a bound's worth of small ones, not at the big step, and report the
 * clock's whole time as waited.
 */
static enum ic_result ic_test_spin_gap(const char **skip)
{
	struct ic_spin s = IC_SPIN_INIT("spin_host_gap_skipped");
	u64 bound_ms = ic_spin_bound_ns() / NSEC_PER_MSEC;
	u64 t0 = NSEC_PER_SEC, t = t0, waited = 0, steps = 0;
	enum ic_result r = IC_PASS;
	bool passed = false;

	ic_spin_account(&s, t, &waited);
	while (steps < bound_ms / 2) {
		t += NSEC_PER_MSEC;
		steps++;
		passed |= ic_spin_account(&s, t, &waited);
	}
	ic_check(!passed, "passed the bound after %llu of its %llu ms", steps, bound_ms);
	t += 10 * bound_ms * NSEC_PER_MSEC;
	passed = ic_spin_account(&s, t, &waited);
	ic_check(!passed, "a step of %llu ms, the CPU elsewhere, counted as waiting",
		 10 * bound_ms);
	while (!passed && steps < 2 * bound_ms) {
		t += NSEC_PER_MSEC;
		steps++;
		passed = ic_spin_account(&s, t, &waited);
	}
	ic_check(passed && steps == bound_ms + 1,
		 "passed the bound (%llu ms) %s %llu steps of 1 ms; want after %llu", bound_ms,
		 passed ? "after" : "not in", steps, bound_ms + 1);
	ic_check(!passed || waited == t - t0, "reported %llu ms waited, the clock says %llu",
		 waited / NSEC_PER_MSEC, (t - t0) / NSEC_PER_MSEC);
	ic_ktap_diag("bound %llu ms: passed after %llu ms of 1 ms steps and one of %llu ms",
		     bound_ms, steps, 10 * bound_ms);
	return r;
}

/*
 * A wait that sleeps a jiffy between looks (tasklet_kill()) counts its
 * sleeps: fed steps just short of its gap (a jiffy and 2 ms: past the
 * spin's 2 ms at any HZ), it must pass its bound on the first step past a
 * bound's worth of them; fed steps of ten bounds each (late looks, its
 * vCPU off the host or its runqueue busy), each counts as the gap, so it
 * must pass on the first step past a bound's worth of gaps, not before.
 */
static enum ic_result ic_test_spin_sleep(const char **skip)
{
	u64 bound = ic_spin_bound_ns(), jiffy = jiffies_to_nsecs(1);
	struct ic_spin s = IC_SPIN_SLEEP_INIT("spin_sleep_steps_counted", jiffy);
	struct ic_spin late = IC_SPIN_SLEEP_INIT("spin_sleep_steps_counted", jiffy);
	u64 gap = s.gap_ns, step = gap - NSEC_PER_USEC, t = NSEC_PER_SEC, waited = 0;
	u64 steps = 0, want = bound / step + 1, want_late = bound / gap + 1;
	enum ic_result r = IC_PASS;
	bool passed = false;

	ic_spin_account(&s, t, &waited);
	while (!passed && steps < 2 * want) {
		t += step;
		steps++;
		passed = ic_spin_account(&s, t, &waited);
	}
	ic_check(passed && steps == want,
		 "steps of %llu us: passed the bound %s %llu of them; want after %llu",
		 step / NSEC_PER_USEC, passed ? "after" : "not in", steps, want);
	passed = false;
	ic_spin_account(&late, t, &waited);
	for (steps = 0; !passed && steps < 2 * want_late; ) {
		t += 10 * bound;
		steps++;
		passed = ic_spin_account(&late, t, &waited);
	}
	ic_check(passed && steps == want_late,
		 "late looks: passed the bound %s %llu; want after %llu (each counts %llu us)",
		 passed ? "after" : "not in", steps, want_late, gap / NSEC_PER_USEC);
	ic_ktap_diag("a jiffy is %llu us: %llu steps of %llu us, or %llu late looks, pass it",
		     jiffy / NSEC_PER_USEC, want, step / NSEC_PER_USEC, want_late);
	return r;
}

static const struct ic_case ic_wait_cases[] = {
	{ "spin_host_gap_skipped", ic_test_spin_gap },
	{ "spin_sleep_steps_counted", ic_test_spin_sleep },
	{ "wait_waiter_yields_cpu", ic_test_waiter_yields },
	{ "wait_own_line_refused", ic_test_own_line },
	{ "wait_probes_take_turns", ic_test_probe_turns },
	{ "wait_probe_off_unpaired_refused", ic_test_probe_off_unpaired },
};

const struct ic_suite ic_wait_suite = {
	.cases = ic_wait_cases,
	.nr = ARRAY_SIZE(ic_wait_cases),
};
