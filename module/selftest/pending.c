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
#include <linux/sched.h>

#include <irqcore.h>

#include "../irq.h"
#include "context.h"
#include "selftest.h"

#define IC_P_LINE	12

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
	const char **skip = arg;
	struct ic_snap sn = { };
	enum ic_result r = IC_PASS;
	unsigned long reads_before;
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
	wake_up_process(t);
	if (!ic_wait_until(READ_ONCE(sn.reads) > 0)) {
		*skip = "the reader never got its CPU (host stall)";
		r = IC_SKIP;
		goto out;
	}
	ic_set_affinity(IC_P_LINE, -1);
	reads_before = READ_ONCE(sn.reads);
	for (i = 0; i < 3000; i++) {
		ic_raise(IC_P_LINE);
		if (!(i % 4))
			udelay(20);
	}
	ic_check(READ_ONCE(sn.reads) > reads_before, "no snapshot was taken while the line fired");
	ic_check(!ic_check_accounting("snapshot"), "accounting once quiet");
out:
	WRITE_ONCE(sn.stop, true);
	kthread_stop(t);
	ic_free_irq(IC_P_LINE, &ic_pctx);
	ic_ktap_diag("snapshot: %lu reads on CPU%d, %lu torn", sn.reads, other, sn.torn);
	ic_check(!sn.torn, "%lu of %lu snapshots did not balance", sn.torn, sn.reads);
	return r;
}

static enum ic_result ic_test_snapshot(const char **skip)
{
	return ic_run_pinned(ic_snapshot_body, skip, skip);
}

static const struct ic_case ic_pending_cases[] = {
	{ "pending_relatch_after_resend", ic_test_relatch },
	{ "pending_stale_latch_dropped", ic_test_stale_latch },
	{ "pending_snapshots_balance", ic_test_snapshot },
};

const struct ic_suite ic_pending_suite = {
	.cases = ic_pending_cases,
	.nr = ARRAY_SIZE(ic_pending_cases),
};
