// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore - self-tests of PENDING as the one record of a held instance,
 * and of the accounting read while lines fire.
 *
 * The first two cases put an edge in flight to this CPU while its local
 * interrupts are off: the edge's kick is a hard irq_work, which cannot
 * arrive before local_irq_enable(), so "disable the line before the edge
 * arrives" is a certainty, not a race that a busy host may or may not win.
 *
 *   local_irq_disable()
 *   raise / enable_irq (resend)        the edge is in flight, held back
 *   disable_irq_nosync / free_irq      the line changes under it
 *   local_irq_enable()                 the edge reaches do_IRQ now
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/irqflags.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/sched.h>

#include <irqcore.h>

#include "../irq.h"
#include "context.h"
#include "selftest.h"

#define IC_P_LINE	12
/* The snapshot case raises for this long at most. */
#define IC_P_SNAP_MS	10000ULL

static struct ic_ctx ic_pctx;

static void ic_pending_handler(unsigned int irq, void *dev_id)
{
	ic_ctx_note(&ic_pctx);
}

/* A fresh record, and IC_P_LINE handled by ic_pending_handler(). */
static int ic_pending_request(void)
{
	int err;

	ic_ctx_reset(&ic_pctx);
	err = ic_request_irq(IC_P_LINE, ic_pending_handler, IC_SA_INTERRUPT, "st-pending",
			     &ic_pctx);
	if (err)
		ic_ktap_diag("request_irq(%d): %d", IC_P_LINE, err);
	return err;
}

/* An edge in flight to this CPU, which arrives at local_irq_enable(). */
static void ic_raise_held_back(void)
{
	ic_set_affinity(IC_P_LINE, smp_processor_id());
	ic_raise(IC_P_LINE);
}

static bool ic_pending_held(void)
{
	return ic_irq_status(IC_P_LINE) & IC_IRQ_PENDING;
}

/*
 * An instance latched on a disabled line is resent by enable_irq(); the
 * line is disabled again before the resent edge arrives. The instance must
 * latch again and run at the next enable: once, not never.
 */
static enum ic_result ic_test_relatch(const char **skip)
{
	enum ic_result r = IC_PASS;
	int hits;

	if (ic_pending_request())
		return IC_FAIL;
	local_irq_disable();
	ic_raise_held_back();
	ic_disable_irq_nosync(IC_P_LINE);
	local_irq_enable();
	ic_check(ic_wait_until(ic_pending_held()), "the edge was not latched on the disabled line");

	local_irq_disable();
	ic_set_affinity(IC_P_LINE, smp_processor_id());
	ic_enable_irq(IC_P_LINE);		/* resends, held back */
	ic_disable_irq_nosync(IC_P_LINE);
	local_irq_enable();			/* the resent edge meets a disabled line */
	ic_check(ic_wait_until(ic_pending_held()), "the resent edge was not latched again");
	msleep(20);
	hits = atomic_read(&ic_pctx.hits);
	ic_check(hits == 0, "the handler ran %d times on a disabled line", hits);

	ic_enable_irq(IC_P_LINE);
	ic_check(ic_wait_until(atomic_read(&ic_pctx.hits) == 1),
		 "the latched instance was lost: no run after the second enable");
	msleep(20);
	hits = atomic_read(&ic_pctx.hits);
	ic_check(hits == 1, "the handler ran %d times, want once", hits);
	ic_set_affinity(IC_P_LINE, -1);
	ic_free_irq(IC_P_LINE, &ic_pctx);
	return r;
}

/*
 * An edge in flight when free_irq() removes the last action latches on the
 * line. The next driver's request_irq() must discard it (counted as
 * dropped), and later disable/enable cycles must not replay it.
 */
static enum ic_result ic_test_stale_latch(const char **skip)
{
	struct ic_line_stats st0, st;
	enum ic_result r = IC_PASS;
	int hits;

	if (ic_pending_request())
		return IC_FAIL;
	local_irq_disable();
	ic_raise_held_back();
	ic_free_irq(IC_P_LINE, &ic_pctx);	/* nothing runs here: no wait */
	local_irq_enable();
	ic_check(ic_wait_until(ic_pending_held()), "the edge did not latch on the freed line");

	ic_line_stats(IC_P_LINE, &st0);
	if (ic_pending_request())	/* a fresh record: the old one saw nothing */
		return IC_FAIL;
	ic_line_stats(IC_P_LINE, &st);
	ic_check(!ic_pending_held(), "request_irq() kept the old driver's instance");
	ic_check(st.dropped == st0.dropped + 1, "dropped %lu, want %lu", st.dropped,
		 st0.dropped + 1);

	ic_set_affinity(IC_P_LINE, -1);
	ic_raise(IC_P_LINE);
	ic_check(ic_wait_until(atomic_read(&ic_pctx.hits) == 1), "the new handler never ran");
	ic_disable_irq(IC_P_LINE);
	ic_enable_irq(IC_P_LINE);
	msleep(20);
	hits = atomic_read(&ic_pctx.hits);
	ic_check(hits == 1, "the new handler ran %d times for one raise", hits);
	ic_line_stats(IC_P_LINE, &st);
	ic_check(st.handled - st0.handled == hits, "irqcore counts %lu runs, the handler %d",
		 st.handled - st0.handled, hits);
	ic_free_irq(IC_P_LINE, &ic_pctx);
	return r;
}

/**
 * struct ic_snap - a reader that checks the accounting while a line fires.
 * @stop: set to end the reader.
 * @reads: snapshots taken.
 * @torn: snapshots where raised != the sum of the outcomes.
 */
struct ic_snap {
	bool stop;
	unsigned long reads;
	unsigned long torn;
};

static int ic_snap_fn(void *arg)
{
	struct ic_snap *sn = arg;
	struct ic_line_stats st;

	while (!READ_ONCE(sn->stop)) {
		ic_line_stats(IC_P_LINE, &st);
		sn->reads++;
		if (!ic_line_stats_balance(&st))
			sn->torn++;
		cond_resched();
	}
	ic_kthread_wait_stop();
	return 0;
}

static void ic_slowish_handler(unsigned int irq, void *dev_id)
{
	udelay(20);
	ic_ctx_note(&ic_pctx);
}

/*
 * Every snapshot of ic_line_stats() balances, not only a quiet one: a
 * reader on another CPU checks each snapshot while the line is raised
 * from this CPU, round-robin, and its handler runs. The body runs bound
 * to one CPU (work_on_cpu()), so that the raiser never shares the
 * reader's CPU and starves it.
 */
static long ic_snapshot_body(void *arg)
{
	struct ic_snap sn = { };
	enum ic_result r = IC_PASS;
	unsigned long reads_before, beats;
	u64 end;
	struct task_struct *t;
	int i, other, err;

	other = ic_other_cpu(smp_processor_id());
	ic_ctx_reset(&ic_pctx);
	err = ic_request_irq(IC_P_LINE, ic_slowish_handler, 0, "st-snap", &ic_pctx);
	ic_check(!err, "request_irq: %d", err);
	if (err)
		return r;
	t = kthread_create(ic_snap_fn, &sn, "ic_snap");
	if (IS_ERR(t)) {
		ic_free_irq(IC_P_LINE, &ic_pctx);
		ic_ktap_diag("kthread_create: %ld", PTR_ERR(t));
		return IC_FAIL;
	}
	kthread_bind(t, other);
	ic_hb_start();
	beats = ic_hb_beats(other);
	wake_up_process(t);
	if (!ic_wait_until(READ_ONCE(sn.reads) > 0)) {
		beats = ic_hb_beats(other) - beats;
		if (beats < ic_param_wait_ms / 10) {
			r = ic_stall("the reader's CPU%d ran %lu ms of %u ms, the reader never",
				     other, beats, ic_param_wait_ms);
		} else {
			ic_ktap_diag("the reader never ran, though CPU%d ran %lu ms of %u ms",
				     other, beats, ic_param_wait_ms);
			r = IC_FAIL;
		}
		goto out;
	}
	ic_set_affinity(IC_P_LINE, -1);
	reads_before = READ_ONCE(sn.reads);
	/*
	 * 3000 raises and until the reader took a snapshot meanwhile (its
	 * vCPU may be off the host for all of the first 3000), at most
	 * IC_P_SNAP_MS: a sanitizer kernel on a busy host took longer than
	 * the hung-task detector's 120 s, with insmod waiting for this body
	 * in work_on_cpu(). Yields now and then: a kernel that does not
	 * preempt kthreads would hold this CPU else.
	 */
	end = ktime_get_ns() + IC_P_SNAP_MS * NSEC_PER_MSEC;
	for (i = 0; (i < 3000 || READ_ONCE(sn.reads) == reads_before) && ktime_get_ns() < end;
	     i++) {
		ic_raise(IC_P_LINE);
		if (!(i % 4))
			udelay(20);
		if (!(i % 256))
			cond_resched();
	}
	ic_ktap_diag("snapshot: %d raises", i);
	ic_check(READ_ONCE(sn.reads) > reads_before, "no snapshot was taken while the line fired");
	ic_check(!ic_check_accounting("snapshot"), "accounting once quiet");
out:
	WRITE_ONCE(sn.stop, true);
	kthread_stop(t);
	ic_hb_stop();
	ic_free_irq(IC_P_LINE, &ic_pctx);
	ic_ktap_diag("snapshot: %lu reads on CPU%d, %lu torn", sn.reads, other, sn.torn);
	ic_check(!sn.torn, "%lu of %lu snapshots did not balance", sn.torn, sn.reads);
	return r;
}

static enum ic_result ic_test_snapshot(const char **skip)
{
	return ic_run_pinned(ic_snapshot_body, NULL, skip);
}

/**
 * struct ic_rerun - the case of a chain rerun after a free.
 * @runs: runs of the freed action (0) and of the one that stays (1).
 * @entered: the freed action's first run has started.
 * @release: lets that run return.
 * @freed: the free_irq() of the case's thread has returned.
 */
struct ic_rerun {
	atomic_t runs[2];
	bool entered;
	bool release;
	bool freed;
};

static struct ic_rerun ic_rr;

/* The action to be freed: its first run holds until released. */
static void ic_rerun_freed(unsigned int irq, void *dev_id)
{
	u64 end;

	if (atomic_inc_return(&ic_rr.runs[0]) != 1)
		return;
	end = ktime_get_ns() + (u64)ic_hold_ms(900) * NSEC_PER_MSEC;
	WRITE_ONCE(ic_rr.entered, true);
	/* Pairs with the release store in ic_rerun_round(). */
	while (!smp_load_acquire(&ic_rr.release) && ktime_get_ns() < end)
		cpu_relax();
}

static void ic_rerun_stays(unsigned int irq, void *dev_id)
{
	atomic_inc(&ic_rr.runs[1]);
}

static int ic_rerun_free_fn(void *unused)
{
	ic_free_irq(IC_P_LINE, &ic_rr.runs[0]);
	/* Pairs with the acquire in ic_rerun_round(). */
	smp_store_release(&ic_rr.freed, true);
	ic_kthread_wait_stop();
	return 0;
}

/*
 * One round on this CPU (@other runs the chain): the freed action holds on
 * @other; an instance held in PENDING meanwhile (raised to this CPU); a
 * thread frees the action, which is unlinked and waited for; then the
 * holder returns, and do_IRQ's loop finds PENDING. It must run the chain
 * as it is now: the action that stays (@shared), or nothing, but never the
 * freed one again. 2.5.28 reran the chain it read first, the freed action
 * and, through its ->next, the rest.
 */
static enum ic_result ic_rerun_round(int other, bool shared)
{
	unsigned long sa = shared ? IC_SA_SHIRQ : 0;
	struct ic_line_stats st0, st;
	enum ic_result r = IC_PASS;
	struct task_struct *t;
	int err;

	memset(&ic_rr, 0, sizeof(ic_rr));
	err = ic_request_irq(IC_P_LINE, ic_rerun_freed, IC_SA_INTERRUPT | sa, "st-rerun-freed",
			     &ic_rr.runs[0]);
	ic_check(!err, "request_irq: %d", err);
	if (err)
		return r;
	if (shared) {
		err = ic_request_irq(IC_P_LINE, ic_rerun_stays, IC_SA_INTERRUPT | sa,
				     "st-rerun-stays", &ic_rr.runs[1]);
		ic_check(!err, "request_irq (shared): %d", err);
		if (err) {
			ic_free_irq(IC_P_LINE, &ic_rr.runs[0]);
			return r;
		}
	}
	/*
	 * The freeing thread is made now, before @other holds in its
	 * handler: kthread_create() waits for kthreadd, whose wake-up may go
	 * to @other, which looks idle while it spins in hardirq; the hold
	 * would then run out before the free, and the rerun would find the
	 * action still linked. Bound here for the same reason.
	 */
	t = kthread_create(ic_rerun_free_fn, NULL, "ic_st_rerun");
	ic_check(!IS_ERR(t), "kthread_create: %d", PTR_ERR_OR_ZERO(t));
	if (!IS_ERR(t))
		kthread_bind(t, smp_processor_id());
	ic_line_stats(IC_P_LINE, &st0);
	ic_set_affinity(IC_P_LINE, other);
	ic_raise(IC_P_LINE);
	ic_check(ic_wait_until(READ_ONCE(ic_rr.entered)), "the handler never started");
	/* Here, while it holds there: do_IRQ holds the instance in PENDING. */
	ic_set_affinity(IC_P_LINE, smp_processor_id());
	ic_raise(IC_P_LINE);
	ic_check(ic_wait_until(ic_pending_held()), "no instance held in PENDING");

	if (!IS_ERR(t)) {
		wake_up_process(t);
		ic_check(ic_wait_until(ic_irq_nr_actions(IC_P_LINE) == shared),
			 "free_irq() never unlinked the action");
	}
	/* Pairs with the acquire in ic_rerun_freed(). */
	smp_store_release(&ic_rr.release, true);
	if (IS_ERR(t)) {
		ic_free_irq(IC_P_LINE, &ic_rr.runs[0]);
	} else {
		/* Pairs with the release in ic_rerun_free_fn(). */
		ic_check(ic_wait_until(smp_load_acquire(&ic_rr.freed)),
			 "free_irq() never returned");
		kthread_stop(t);
	}
	ic_line_stats(IC_P_LINE, &st);
	ic_ktap_diag("rerun_after_free (%s): freed ran %d, other %d; reruns %lu, dropped %lu",
		     shared ? "shared" : "alone", atomic_read(&ic_rr.runs[0]),
		     atomic_read(&ic_rr.runs[1]), st.reruns - st0.reruns, st.dropped - st0.dropped);
	ic_check(atomic_read(&ic_rr.runs[0]) == 1,
		 "the freed handler ran %d times, %d after its unlink",
		 atomic_read(&ic_rr.runs[0]), atomic_read(&ic_rr.runs[0]) - 1);
	if (shared) {
		ic_check(atomic_read(&ic_rr.runs[1]) == 2 && st.reruns - st0.reruns == 1,
			 "the handler that stays ran %d times (rerun %lu), want 2 (1)",
			 atomic_read(&ic_rr.runs[1]), st.reruns - st0.reruns);
		ic_free_irq(IC_P_LINE, &ic_rr.runs[1]);
	} else {
		ic_check(st.dropped - st0.dropped == 1 && st.reruns == st0.reruns,
			 "the held instance: dropped %lu, rerun %lu; want dropped with the handler",
			 st.dropped - st0.dropped, st.reruns - st0.reruns);
	}
	ic_set_affinity(IC_P_LINE, -1);
	return r;
}

/* Both rounds, in a worker bound to the first CPU. */
static long ic_rerun_body(void *arg)
{
	int other = ic_other_cpu(smp_processor_id());
	enum ic_result r = ic_rerun_round(other, false);

	if (ic_rerun_round(other, true) == IC_FAIL)
		r = IC_FAIL;
	return r;
}

static enum ic_result ic_test_rerun_after_free(const char **skip)
{
	return ic_run_pinned(ic_rerun_body, NULL, skip);
}

static const struct ic_case ic_pending_cases[] = {
	{ "pending_relatch_after_resend", ic_test_relatch },
	{ "pending_stale_latch_dropped", ic_test_stale_latch },
	{ "pending_snapshots_balance", ic_test_snapshot },
	{ "pending_rerun_after_free", ic_test_rerun_after_free },
};

const struct ic_suite ic_pending_suite = {
	.cases = ic_pending_cases,
	.nr = ARRAY_SIZE(ic_pending_cases),
};
