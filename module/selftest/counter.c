// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore - self-tests of the folded counter in every context, for the
 * layout this load selected (counter=seed or counter=split).
 *
 *   context                  in_interrupt  in_irq       in_softirq   idle=sys
 *   task / preempt-disabled  no            no           no           no
 *   bh-disabled, softirq     yes           seed: yes    yes          no
 *   hardirq                  yes           yes          seed: yes    no
 *   hardirq inside bh-off    yes           yes          yes          yes
 *
 * The "seed: yes" entries are the seed commit's known weakness (in_irq and
 * in_softirq are in_interrupt there); the split layout and 2.5.27's
 * record answer "no".
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/preempt.h>
#include <linux/smp.h>

#include <irqcore.h>

#include "../biglock.h"
#include "../counter.h"
#include "../softirq.h"
#include "context.h"
#include "selftest.h"

#define IC_T_LINE	1
#define IC_T_SOFTIRQ	8

static struct ic_ctx ic_cctx;

static void ic_ctx_view_fold(struct ic_ctx_view *v)
{
	v->in_interrupt = ic_counter_in_interrupt();
	v->in_irq = ic_counter_in_irq();
	v->in_softirq = ic_counter_in_softirq();
	v->idle_sys = ic_counter_idle_tick_is_system();
}

static void ic_ctx_view_rec(struct ic_ctx_view *v)
{
	v->in_interrupt = ic_biglock_in_interrupt();
	v->in_irq = ic_biglock_in_irq();
	v->in_softirq = ic_biglock_in_softirq();
	v->idle_sys = ic_biglock_idle_tick_is_system();
}

/**
 * ic_ctx_note() - record the current context in @c.
 * @c: the record.
 *
 * Context: any.
 */
void ic_ctx_note(struct ic_ctx *c)
{
	c->count = ic_preempt_count();
	c->in_interrupt = ic_in_interrupt();
	c->in_irq = ic_in_irq();
	c->in_softirq = ic_in_softirq();
	c->idle_sys = ic_idle_tick_is_system();
	ic_ctx_view_fold(&c->fold);
	ic_ctx_view_rec(&c->rec);
	c->host_hardirq = in_hardirq();
	c->irqs_off = irqs_disabled();
	c->ksoftirqd = ic_in_ksoftirqd();
	c->cpu = raw_smp_processor_id();
	/* The record is complete before the hit is counted. */
	smp_mb__before_atomic();
	atomic_inc(&c->hits);
}

/**
 * ic_ctx_reset() - forget what @c recorded.
 * @c: the record.
 *
 * Context: any, with no observer running.
 */
void ic_ctx_reset(struct ic_ctx *c)
{
	memset(c, 0, sizeof(*c));
	atomic_set(&c->hits, 0);
}

/**
 * ic_seed_layout() - is counter=seed loaded (in_irq() == in_interrupt())?
 *
 * Context: any.
 * Return: true for counter=seed.
 */
bool ic_seed_layout(void)
{
	return ic_layout->softirq_mask == ic_layout->hardirq_mask;
}

static bool ic_view_is(const struct ic_ctx_view *v, bool intr, bool irq,
		       bool soft, bool idle_sys)
{
	return v->in_interrupt == intr && v->in_irq == irq &&
	       v->in_softirq == soft && v->idle_sys == idle_sys;
}

static bool ic_view_expect(const char *where, const char *view,
			   const struct ic_ctx *c, const struct ic_ctx_view *v,
			   bool intr, bool irq, bool soft, bool idle_sys)
{
	if (ic_view_is(v, intr, irq, soft, idle_sys))
		return true;
	ic_ktap_diag("%s, %s (%s, %s, count %#x): intr/irq/soft/idle %d%d%d%d, want %d%d%d%d",
		     where, view, ic_regime_name(), ic_layout->name, c->count,
		     v->in_interrupt, v->in_irq, v->in_softirq, v->idle_sys,
		     intr, irq, soft, idle_sys);
	return false;
}

/**
 * ic_ctx_expect() - check a record against what the context really is.
 * @where: the context's name, for the diagnostic.
 * @c: the record.
 * @intr: is it interrupt context (hardirq, softirq or bh-disabled)?
 * @irq: is it hardirq context?
 * @soft: is it softirq or bh-disabled context?
 * @idle_sys: would a tick here count idle time as system time?
 *
 * Every scheme must give these answers, except that the seed layout's
 * folded counter answers in_irq() and in_softirq() with in_interrupt().
 * Under biglock, 2.5.27's record is checked too and must agree with the
 * folded counter wherever the layout can tell (the differential test),
 * and drivers must be given the record's answers.
 *
 * Context: any.
 * Return: true if every check held.
 */
bool ic_ctx_expect(const char *where, const struct ic_ctx *c, bool intr,
		   bool irq, bool soft, bool idle_sys)
{
	bool seed = ic_seed_layout();
	const struct ic_ctx_view *answer = &c->fold;
	struct ic_ctx_view pub = {
		c->in_interrupt, c->in_irq, c->in_softirq, c->idle_sys
	};
	bool ok;

	ok = ic_view_expect(where, "folded counter", c, &c->fold, intr,
			    seed ? intr : irq, seed ? intr : soft, idle_sys);
	if (ic_biglock_active()) {
		answer = &c->rec;
		/*
		 * 2.5.27's idle rule (local_bh_count || local_irq_count > 1)
		 * counts the tick itself, so it means something only in a
		 * hardirq; elsewhere it is not compared.
		 */
		ok &= ic_view_expect(where, "local_irq/bh_count", c, &c->rec,
				     intr, irq, soft,
				     irq ? idle_sys : c->rec.idle_sys);
	}
	ok &= ic_view_expect(where, "public predicates", c, &pub,
			     answer->in_interrupt, answer->in_irq,
			     answer->in_softirq, answer->idle_sys);
	return ok;
}

static void ic_counter_handler(unsigned int irq, void *dev_id)
{
	ic_ctx_note(dev_id);
}

static void ic_counter_softirq(void *data)
{
	ic_ctx_note(data);
}

static enum ic_result ic_test_counter_task(const char **skip)
{
	enum ic_result r = IC_PASS;
	struct ic_ctx c;

	ic_ctx_reset(&c);
	preempt_disable();
	ic_ctx_note(&c);
	preempt_enable();
	ic_check(c.count == 0, "count %#x", c.count);
	if (!ic_ctx_expect("task", &c, false, false, false, false))
		r = IC_FAIL;

	ic_preempt_disable();
	ic_ctx_note(&c);
	ic_preempt_enable();
	ic_check(c.count == 1, "count %#x after ic_preempt_disable()", c.count);
	if (!ic_ctx_expect("preempt-disabled", &c, false, false, false, false))
		r = IC_FAIL;
	return r;
}

static enum ic_result ic_test_counter_bh_disabled(const char **skip)
{
	enum ic_result r = IC_PASS;
	struct ic_ctx c;

	ic_ctx_reset(&c);
	ic_local_bh_disable();
	ic_ctx_note(&c);
	ic_local_bh_enable();
	ic_check(c.count == ic_layout->softirq_offset, "count %#x", c.count);
	if (!ic_ctx_expect("bh-disabled", &c, true, false, true, false))
		r = IC_FAIL;
	ic_check(ic_preempt_count() == 0, "count %#x after enable", ic_preempt_count());
	return r;
}

static enum ic_result ic_test_counter_softirq(const char **skip)
{
	enum ic_result r = IC_PASS;

	ic_ctx_reset(&ic_cctx);
	ic_open_softirq(IC_T_SOFTIRQ, ic_counter_softirq, &ic_cctx);
	ic_raise_softirq(IC_T_SOFTIRQ);
	ic_check(ic_wait_until(atomic_read(&ic_cctx.hits)), "softirq never ran");
	ic_close_softirq(IC_T_SOFTIRQ);
	if (r == IC_FAIL)
		return r;
	if (!ic_ctx_expect("softirq", &ic_cctx, true, false, true, false))
		r = IC_FAIL;
	/* The seed's weakness, pinned: in_irq() cannot tell softirq apart. */
	if (ic_seed_layout())
		ic_check(ic_cctx.fold.in_irq, "seed in_irq() false in a softirq");
	return r;
}

/* Fresh record, and IC_T_LINE handled by ic_counter_handler(). */
static int ic_counter_request(void)
{
	int err;

	ic_ctx_reset(&ic_cctx);
	err = ic_request_irq(IC_T_LINE, ic_counter_handler, IC_SA_INTERRUPT,
			     "st-counter", &ic_cctx);
	if (err)
		ic_ktap_diag("request_irq(%d): %d", IC_T_LINE, err);
	return err;
}

static enum ic_result ic_test_counter_hardirq(const char **skip)
{
	enum ic_result r = IC_PASS;

	if (ic_counter_request())
		return IC_FAIL;
	ic_raise(IC_T_LINE);
	ic_check(ic_wait_until(atomic_read(&ic_cctx.hits)), "handler never ran");
	ic_free_irq(IC_T_LINE, &ic_cctx);
	if (r == IC_FAIL)
		return r;
	ic_check(ic_cctx.host_hardirq, "handler not in the host's hardirq");
	if (!ic_ctx_expect("hardirq", &ic_cctx, true, true, false, false))
		r = IC_FAIL;
	return r;
}

/* A hardirq taken on a CPU whose task has bottom halves disabled. */
static enum ic_result ic_test_counter_hardirq_in_bh(const char **skip)
{
	enum ic_result r = IC_PASS;
	unsigned long end;

	if (ic_counter_request())
		return IC_FAIL;

	ic_local_bh_disable();		/* also pins this task to its CPU */
	ic_set_affinity(IC_T_LINE, smp_processor_id());
	ic_raise(IC_T_LINE);
	end = jiffies + msecs_to_jiffies(ic_param_wait_ms);
	while (!atomic_read(&ic_cctx.hits) && time_before(jiffies, end))
		cpu_relax();
	ic_local_bh_enable();

	ic_set_affinity(IC_T_LINE, -1);
	ic_free_irq(IC_T_LINE, &ic_cctx);
	ic_check(atomic_read(&ic_cctx.hits), "handler never ran");
	if (r == IC_FAIL)
		return r;
	ic_check(ic_cctx.count == ic_layout->softirq_offset + ic_layout->hardirq_offset,
		 "count %#x", ic_cctx.count);
	if (!ic_ctx_expect("hardirq in bh-disabled", &ic_cctx, true, true, true, true))
		r = IC_FAIL;
	return r;
}

static const struct ic_case ic_counter_cases[] = {
	{ "counter_task_and_preempt", ic_test_counter_task },
	{ "counter_bh_disabled", ic_test_counter_bh_disabled },
	{ "counter_softirq", ic_test_counter_softirq },
	{ "counter_hardirq", ic_test_counter_hardirq },
	{ "counter_hardirq_in_bh_disabled", ic_test_counter_hardirq_in_bh },
};

const struct ic_suite ic_counter_suite = {
	.cases = ic_counter_cases,
	.nr = ARRAY_SIZE(ic_counter_cases),
};
