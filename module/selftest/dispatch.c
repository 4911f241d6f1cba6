// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore - self-tests of the descriptors, do_IRQ and the driver API.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/smp.h>
#ifdef CONFIG_X86_LOCAL_APIC
#include <asm/apic.h>
#include <asm/irq_vectors.h>
#include <asm/nmi.h>
#endif

#include <irqcore.h>

#include "../irq.h"
#include "../misuse.h"
#include "context.h"
#include "selftest.h"

#define IC_D_LINE	2
#define IC_D_LINE2	3
#define IC_D_PROBE	9
#define IC_D_PROBE2	11
#define IC_D_NMI	12
/* How long the waiting cases' handler holds its CPU (see ic_hold_ms()). */
#define IC_D_HOLD_MS	100U
/* The most the holding handler waits for the waiter to come to its call. */
#define IC_D_CALL_MS	2000U

/**
 * struct ic_dstate - shared by the dispatch cases and their handlers.
 * @ctx: the handler's last observation.
 * @order: the order in which shared actions ran, as digits.
 * @running: handlers running now; more than one is an overlap.
 * @overlaps: how often a handler found another one running.
 * @entered: the spinning handler has started.
 * @left: the spinning handler has returned.
 * @calling: the waiter has seen the handler start and calls the wait now.
 * @spin_us: how long each storm handler lingers.
 */
struct ic_dstate {
	struct ic_ctx ctx;
	atomic_t order;
	atomic_t running;
	atomic_t overlaps;
	bool entered;
	bool left;
	bool calling;
	unsigned int spin_us;
};

static struct ic_dstate ic_ds;

static void ic_note_handler(unsigned int irq, void *dev_id)
{
	ic_ctx_note(&ic_ds.ctx);
}

static void ic_order_a(unsigned int irq, void *dev_id)
{
	atomic_set(&ic_ds.order, atomic_read(&ic_ds.order) * 10 + 1);
}

static void ic_order_b(unsigned int irq, void *dev_id)
{
	atomic_set(&ic_ds.order, atomic_read(&ic_ds.order) * 10 + 2);
}

static void ic_storm_handler(unsigned int irq, void *dev_id)
{
	if (atomic_inc_return(&ic_ds.running) > 1)
		atomic_inc(&ic_ds.overlaps);
	udelay(ic_ds.spin_us);
	atomic_dec(&ic_ds.running);
	ic_ctx_note(&ic_ds.ctx);
}

/*
 * Spins until the waiter comes to its call (IC_D_CALL_MS at most), then
 * ic_hold_ms(IC_D_HOLD_MS), so that the waiter can be seen waiting: it
 * must not return before @left is set.
 */
static void ic_hold_handler(unsigned int irq, void *dev_id)
{
	unsigned int ms;

	WRITE_ONCE(ic_ds.entered, true);
	/*
	 * The hold starts when the waiter comes to its call: on a busy host
	 * its vCPU could be off the host for a whole 100 ms hold between
	 * seeing this handler start and calling the wait (a loaded run
	 * skipped sync_free_irq_waits for it, 3 runs of 3). Bounded: a
	 * waiter that never comes is the case's failure, not a hang.
	 * Pairs with the release in ic_wait_body().
	 */
	for (ms = 0; ms < IC_D_CALL_MS && !smp_load_acquire(&ic_ds.calling); ms++)
		mdelay(1);
	mdelay(ic_hold_ms(IC_D_HOLD_MS));
	atomic_inc(&ic_ds.ctx.hits);
	/* Pairs with the acquires in ic_wait_body(). */
	smp_store_release(&ic_ds.left, true);
}

static void ic_ds_reset(void)
{
	memset(&ic_ds, 0, sizeof(ic_ds));
	ic_ctx_reset(&ic_ds.ctx);
}

static enum ic_result ic_test_each_cpu(const char **skip)
{
	enum ic_result r = IC_PASS;
	int cpu, err;

	ic_ds_reset();
	err = ic_request_irq(IC_D_LINE, ic_note_handler, IC_SA_INTERRUPT, "st-cpu", &ic_ds);
	ic_check(!err, "request_irq: %d", err);
	if (err)
		return r;
	for_each_online_cpu(cpu) {
		int before = atomic_read(&ic_ds.ctx.hits);

		ic_set_affinity(IC_D_LINE, cpu);
		ic_raise(IC_D_LINE);
		ic_check(ic_wait_until(atomic_read(&ic_ds.ctx.hits) > before),
			 "no handler for CPU%d", cpu);
		usleep_range(5000, 6000);
		ic_check(atomic_read(&ic_ds.ctx.hits) == before + 1, "ran %d times",
			 atomic_read(&ic_ds.ctx.hits) - before);
		ic_check(ic_ds.ctx.cpu == cpu, "ran on CPU%d, want CPU%d", ic_ds.ctx.cpu, cpu);
		ic_check(ic_ds.ctx.host_hardirq && ic_ds.ctx.in_irq, "not in hardirq");
		ic_check(ic_ds.ctx.irqs_off, "SA_INTERRUPT handler ran with interrupts on");
	}
	ic_set_affinity(IC_D_LINE, -1);
	ic_free_irq(IC_D_LINE, &ic_ds);
	return r;
}

static enum ic_result ic_test_irqs_on(const char **skip)
{
	enum ic_result r = IC_PASS;
	int err;

	ic_ds_reset();
	err = ic_request_irq(IC_D_LINE, ic_note_handler, 0, "st-irqs-on", &ic_ds);
	ic_check(!err, "request_irq: %d", err);
	if (err)
		return r;
	ic_raise(IC_D_LINE);
	ic_check(ic_wait_until(atomic_read(&ic_ds.ctx.hits)), "handler never ran");
	ic_free_irq(IC_D_LINE, &ic_ds);
	ic_check(!ic_ds.ctx.irqs_off, "handler without SA_INTERRUPT ran with interrupts off");
	ic_check(ic_ds.ctx.in_irq, "handler not in irqcore's hardirq context");
	return r;
}

static enum ic_result ic_test_shared(const char **skip)
{
	enum ic_result r = IC_PASS;
	int a = 1, b = 2, err;

	ic_ds_reset();
	err = ic_request_irq(IC_D_LINE, ic_order_a, IC_SA_SHIRQ, "st-a", &a);
	ic_check(!err, "request_irq a: %d", err);
	err = ic_request_irq(IC_D_LINE, ic_order_b, IC_SA_SHIRQ, "st-b", &b);
	ic_check(!err, "request_irq b: %d", err);
	ic_raise(IC_D_LINE);
	ic_check(ic_wait_until(atomic_read(&ic_ds.order) == 12), "order %d, want 12",
		 atomic_read(&ic_ds.order));
	ic_free_irq(IC_D_LINE, &a);
	ic_raise(IC_D_LINE);
	ic_check(ic_wait_until(atomic_read(&ic_ds.order) == 122), "after freeing a: order %d",
		 atomic_read(&ic_ds.order));
	ic_free_irq(IC_D_LINE, &b);
	return r;
}

static enum ic_result ic_test_latch_replay(const char **skip)
{
	enum ic_result r = IC_PASS;
	int i, err;

	ic_ds_reset();
	err = ic_request_irq(IC_D_LINE, ic_note_handler, 0, "st-latch", &ic_ds);
	ic_check(!err, "request_irq: %d", err);
	if (err)
		return r;
	ic_disable_irq(IC_D_LINE);
	ic_disable_irq(IC_D_LINE);	/* depth 2 */
	for (i = 0; i < 5; i++)
		ic_raise(IC_D_LINE);
	msleep(20);
	ic_check(!atomic_read(&ic_ds.ctx.hits), "ran while disabled");
	ic_enable_irq(IC_D_LINE);	/* depth 1: still disabled */
	msleep(20);
	ic_check(!atomic_read(&ic_ds.ctx.hits), "ran at depth 1");
	ic_enable_irq(IC_D_LINE);
	ic_check(ic_wait_until(atomic_read(&ic_ds.ctx.hits)), "no replay on enable");
	msleep(20);
	ic_check(atomic_read(&ic_ds.ctx.hits) == 1, "replayed %d times, want once",
		 atomic_read(&ic_ds.ctx.hits));
	ic_free_irq(IC_D_LINE, &ic_ds);
	return r;
}

static enum ic_result ic_test_storm(const char **skip)
{
	enum ic_result r = IC_PASS;
	struct ic_line_stats before, after;
	int i, err;

	if (num_online_cpus() < 2) {
		*skip = "needs 2 or more CPUs";
		return IC_SKIP;
	}
	ic_ds_reset();
	ic_ds.spin_us = 100;
	err = ic_request_irq(IC_D_LINE, ic_storm_handler, 0, "st-storm", &ic_ds);
	ic_check(!err, "request_irq: %d", err);
	if (err)
		return r;
	ic_set_affinity(IC_D_LINE, -1);
	ic_line_stats(IC_D_LINE, &before);
	for (i = 0; i < 2000; i++) {
		ic_raise(IC_D_LINE);
		if (!(i % 8))
			udelay(50);
	}
	ic_check(!ic_check_accounting("storm"), "accounting");
	ic_line_stats(IC_D_LINE, &after);
	ic_free_irq(IC_D_LINE, &ic_ds);
	ic_ktap_diag("storm: raised %lu handled %lu merged %lu (%lu in do_IRQ), hand-offs %lu",
		     after.raised - before.raised, after.handled - before.handled,
		     after.merged - before.merged, after.pending_merged - before.pending_merged,
		     after.reruns - before.reruns);
	ic_check(after.reruns > before.reruns, "PENDING loop never taken");
	ic_check(!atomic_read(&ic_ds.overlaps), "%d overlapping runs",
		 atomic_read(&ic_ds.overlaps));
	return r;
}

/*
 * The waiting cases: a handler holds another CPU in hardirq for
 * ic_hold_ms(IC_D_HOLD_MS); synchronize_irq(), disable_irq() or free_irq(), called
 * here meanwhile, must not return before it has finished. The call is
 * made by the test itself: 2.5.28's waits spin, so a waiter thread on
 * this CPU would keep the test from looking until it was over.
 */
enum ic_waiter { IC_W_SYNC, IC_W_DISABLE, IC_W_DISABLE_ATOMIC, IC_W_FREE };

struct ic_wait_case {
	enum ic_waiter how;
};

static long ic_wait_body(void *arg)
{
	struct ic_wait_case *wc = arg;
	int here = smp_processor_id(), there = ic_other_cpu(here);
	enum ic_result r = IC_PASS;
	bool left_before, left_at_return;
	int err, hits;
	ktime_t t0;

	ic_ds_reset();
	err = ic_request_irq(IC_D_LINE, ic_hold_handler, 0, "st-hold", &ic_ds);
	ic_check(!err, "request_irq: %d", err);
	if (err)
		return r;
	ic_set_affinity(IC_D_LINE, there);
	ic_raise(IC_D_LINE);
	ic_check(ic_wait_until(READ_ONCE(ic_ds.entered)), "handler never started");

	/* Pairs with the release in ic_hold_handler(). */
	left_before = smp_load_acquire(&ic_ds.left);
	/* Pairs with the acquire in ic_hold_handler(): its hold starts now. */
	smp_store_release(&ic_ds.calling, true);
	t0 = ktime_get();
	switch (wc->how) {
	case IC_W_SYNC:
		ic_synchronize_irq(IC_D_LINE);
		break;
	case IC_W_DISABLE:
		ic_disable_irq(IC_D_LINE);
		break;
	case IC_W_DISABLE_ATOMIC:
		/* 2.5.27 and 2.5.28 both spun here, whatever the flag. */
		local_irq_disable();
		ic_disable_irq(IC_D_LINE);
		local_irq_enable();
		break;
	case IC_W_FREE:
		ic_free_irq(IC_D_LINE, &ic_ds);
		break;
	}
	/* Pairs with the release in ic_hold_handler(). */
	left_at_return = smp_load_acquire(&ic_ds.left);
	ic_ktap_diag("waited %lld ms for a %u ms handler on CPU%d",
		     ktime_ms_delta(ktime_get(), t0), ic_hold_ms(IC_D_HOLD_MS), there);
	ic_check(left_at_return, "returned while the handler ran on CPU%d", there);
	/*
	 * A host that stalled this vCPU for the whole hold proves nothing:
	 * between seeing the handler start and calling the wait this task
	 * runs a few instructions, and the handler held its CPU meanwhile.
	 */
	if (left_before && r == IC_PASS)
		r = ic_stall("CPU%d's %u ms handler was over before the wait was called",
			     there, ic_hold_ms(IC_D_HOLD_MS));

	ic_set_affinity(IC_D_LINE, -1);
	if (wc->how == IC_W_DISABLE || wc->how == IC_W_DISABLE_ATOMIC)
		ic_enable_irq(IC_D_LINE);
	if (wc->how == IC_W_FREE) {
		/* The handler never runs after free_irq() returned. */
		hits = atomic_read(&ic_ds.ctx.hits);
		ic_raise(IC_D_LINE);
		msleep(20);
		ic_check(atomic_read(&ic_ds.ctx.hits) == hits, "handler ran after free_irq");
	} else {
		ic_free_irq(IC_D_LINE, &ic_ds);
	}
	return r;
}

static enum ic_result ic_run_waiter(enum ic_waiter how, const char **skip)
{
	struct ic_wait_case wc = { .how = how };

	return ic_run_pinned(ic_wait_body, &wc, skip);
}

static enum ic_result ic_test_sync_waits(const char **skip)
{
	return ic_run_waiter(IC_W_SYNC, skip);
}

static enum ic_result ic_test_disable_waits(const char **skip)
{
	return ic_run_waiter(IC_W_DISABLE, skip);
}

static enum ic_result ic_test_disable_atomic_waits(const char **skip)
{
	return ic_run_waiter(IC_W_DISABLE_ATOMIC, skip);
}

static enum ic_result ic_test_free_waits(const char **skip)
{
	return ic_run_waiter(IC_W_FREE, skip);
}

static void ic_nop_handler(unsigned int irq, void *dev_id)
{
}

static enum ic_result ic_test_errors(const char **skip)
{
	enum ic_result r = IC_PASS;
	unsigned int bad = ic_nr_irqs();
	struct ic_line_stats st;
	unsigned long warned;
	int x, y, err;

	ic_check(ic_request_irq(bad, ic_nop_handler, 0, "st", &x) == -EINVAL, "bad line");
	ic_check(ic_request_irq(IC_D_LINE, NULL, 0, "st", &x) == -EINVAL, "NULL handler");
	ic_check(ic_request_irq(IC_D_LINE, ic_nop_handler, IC_SA_SHIRQ, "st", NULL) == -EINVAL,
		 "SA_SHIRQ without dev_id");
	ic_check(ic_raise(bad) == -EINVAL, "raise bad line");
	ic_check(ic_line_stats(bad, &st) == -EINVAL && !st.raised, "line_stats bad line");
	ic_check(ic_set_affinity(bad, 0) == -EINVAL, "affinity bad line");
	ic_check(ic_set_affinity(IC_D_LINE, nr_cpu_ids) == -EINVAL, "affinity bad CPU");
	ic_check(ic_set_affinity(IC_D_LINE, -2) == -EINVAL, "affinity -2");

	err = ic_request_irq(IC_D_LINE, ic_nop_handler, 0, "st-x", &x);
	ic_check(!err, "request_irq: %d", err);
	ic_check(ic_request_irq(IC_D_LINE, ic_nop_handler, 0, "st-y", &y) == -EBUSY,
		 "non-shared conflict");
	ic_check(ic_request_irq(IC_D_LINE, ic_nop_handler, IC_SA_SHIRQ, "st-y", &y) == -EBUSY,
		 "shared onto non-shared");

	warned = ic_api_warnings();
	ic_free_irq(IC_D_LINE, &y);		/* unknown dev_id */
	ic_check(ic_api_warnings() == warned + 1, "free of unknown dev_id did not warn");
	/*
	 * Neither freed nor disabled. An edge of an earlier case may still
	 * arrive and set INPROGRESS or PENDING for a moment (seen under KASAN
	 * once): those bits say nothing of the bad free.
	 */
	ic_check(!(ic_irq_status(IC_D_LINE) & (IC_IRQ_DISABLED | IC_IRQ_MASKED)),
		 "status %#x after bad free", ic_irq_status(IC_D_LINE));
	ic_enable_irq(IC_D_LINE);		/* unbalanced */
	ic_check(ic_api_warnings() == warned + 2, "unbalanced enable did not warn");
	ic_disable_irq_nosync(IC_D_LINE);
	ic_check(ic_irq_status(IC_D_LINE) & IC_IRQ_DISABLED, "one disable after a bad enable");
	ic_enable_irq(IC_D_LINE);
	ic_check(!(ic_irq_status(IC_D_LINE) & IC_IRQ_DISABLED), "enable after disable");
	ic_free_irq(IC_D_LINE, &x);

	ic_free_irq(bad, &x);
	ic_disable_irq(bad);
	ic_disable_irq_nosync(bad);
	ic_enable_irq(bad);
	ic_synchronize_irq(bad);
	ic_check(ic_api_warnings() == warned + 7, "bad-line calls warned %lu times, want 5",
		 ic_api_warnings() - warned - 2);

	err = ic_request_irq(IC_D_LINE2, ic_nop_handler, IC_SA_SHIRQ, "st-s1", &x);
	ic_check(!err, "shared request: %d", err);
	ic_check(ic_request_irq(IC_D_LINE2, ic_nop_handler, 0, "st-s2", &y) == -EBUSY,
		 "non-shared onto shared");
	ic_free_irq(IC_D_LINE2, &x);
	return r;
}

/* Instances of @line that went through do_IRQ so far. */
static unsigned long ic_handled(unsigned int line)
{
	struct ic_line_stats st;

	ic_line_stats(line, &st);
	return st.handled;
}

/*
 * Raise @line and wait (up to wait_ms, not a fixed time that a busy host
 * can overrun) until do_IRQ has seen it.
 */
static bool ic_raise_seen(unsigned int line)
{
	unsigned long h0 = ic_handled(line);

	ic_raise(line);
	return ic_wait_until(ic_handled(line) > h0);
}

static enum ic_result ic_test_probe(const char **skip)
{
	enum ic_result r = IC_PASS;
	unsigned long mask;
	int found;

	mask = ic_probe_irq_on();
	ic_check(mask & BIT(IC_D_PROBE), "line %d not probed (mask %#lx)", IC_D_PROBE, mask);
	ic_check(ic_raise_seen(IC_D_PROBE), "line %d never reached do_IRQ", IC_D_PROBE);
	found = ic_probe_irq_off(mask);
	ic_check(found == IC_D_PROBE, "probe found %d, want %d", found, IC_D_PROBE);

	mask = ic_probe_irq_on();
	ic_check(ic_raise_seen(IC_D_PROBE), "line %d never reached do_IRQ", IC_D_PROBE);
	ic_check(ic_raise_seen(IC_D_PROBE2), "line %d never reached do_IRQ", IC_D_PROBE2);
	found = ic_probe_irq_off(mask);
	ic_check(found == -IC_D_PROBE, "two lines: probe said %d, want %d", found, -IC_D_PROBE);

	mask = ic_probe_irq_on();
	found = ic_probe_irq_off(mask);
	ic_check(found == 0, "no line fired, probe said %d", found);
	return r;
}

#ifdef CONFIG_X86_LOCAL_APIC
/*
 * ic_handle_irq() from an NMI must be refused: in_hardirq() is true there
 * as well, but the NMI may have come while this CPU held the descriptor
 * lock that do_IRQ takes. The case sends itself an NMI through the local
 * APIC (as the kernel's NMI backtrace does) and calls ic_handle_irq() from
 * an NMI handler; the line's handler must not run.
 */
static struct {
	bool armed;
	int ret;
	atomic_t runs;
} ic_d_nmi;

static int ic_d_nmi_fn(unsigned int type, struct pt_regs *regs)
{
	if (!READ_ONCE(ic_d_nmi.armed))
		return NMI_DONE;
	ic_d_nmi.ret = ic_handle_irq(IC_D_NMI);
	/* Pairs with the acquire in ic_test_handle_irq_nmi(). */
	smp_store_release(&ic_d_nmi.armed, false);
	return NMI_HANDLED;
}

static void ic_d_nmi_handler(unsigned int irq, void *dev_id)
{
	atomic_inc(&ic_d_nmi.runs);
}

static enum ic_result ic_test_handle_irq_nmi(const char **skip)
{
	enum ic_result r = IC_PASS;
	unsigned int turns;
	bool arrived;
	int err;

	err = ic_request_irq(IC_D_NMI, ic_d_nmi_handler, IC_SA_INTERRUPT, "st-nmi", &ic_d_nmi);
	ic_check(!err, "request_irq: %d", err);
	if (err)
		return r;
	atomic_set(&ic_d_nmi.runs, 0);
	ic_d_nmi.ret = 1;
	err = register_nmi_handler(NMI_LOCAL, ic_d_nmi_fn, 0, "irqcore_st");
	ic_check(!err, "register_nmi_handler: %d", err);
	if (!err) {
		preempt_disable();
		WRITE_ONCE(ic_d_nmi.armed, true);
		apic->send_IPI_mask(cpumask_of(smp_processor_id()), NMI_VECTOR);
		/*
		 * An NMI to this CPU arrives within a few instructions. Both
		 * loads pair with the release in ic_d_nmi_fn().
		 */
		for (turns = 0; turns < 1000000 && smp_load_acquire(&ic_d_nmi.armed); turns++)
			cpu_relax();
		/* As above: the NMI handler's stores are visible once this is. */
		arrived = !smp_load_acquire(&ic_d_nmi.armed);
		WRITE_ONCE(ic_d_nmi.armed, false);
		preempt_enable();
		unregister_nmi_handler(NMI_LOCAL, "irqcore_st");
		if (!arrived) {
			ic_free_irq(IC_D_NMI, &ic_d_nmi);
			*skip = "the self-NMI never arrived on this machine";
			return IC_SKIP;
		}
		ic_check(ic_d_nmi.ret == -EINVAL, "ic_handle_irq() in NMI: %d, want -EINVAL",
			 ic_d_nmi.ret);
		ic_check(!atomic_read(&ic_d_nmi.runs), "the handler ran %d times from an NMI",
			 atomic_read(&ic_d_nmi.runs));
	}
	ic_free_irq(IC_D_NMI, &ic_d_nmi);
	return r;
}
#else
static enum ic_result ic_test_handle_irq_nmi(const char **skip)
{
	*skip = "needs an x86 local APIC to send itself an NMI";
	return IC_SKIP;
}
#endif

static const struct ic_case ic_dispatch_cases[] = {
	{ "dispatch_each_cpu_hardirq", ic_test_each_cpu },
	{ "dispatch_irqs_on_without_sa_interrupt", ic_test_irqs_on },
	{ "dispatch_shared_in_order", ic_test_shared },
	{ "dispatch_disabled_latches_replays_once", ic_test_latch_replay },
	{ "dispatch_storm_pending_loop", ic_test_storm },
	{ "sync_synchronize_irq_waits", ic_test_sync_waits },
	{ "sync_disable_irq_waits", ic_test_disable_waits },
	{ "sync_disable_irq_waits_irqs_off", ic_test_disable_atomic_waits },
	{ "sync_free_irq_waits", ic_test_free_waits },
	{ "api_errors", ic_test_errors },
	{ "api_handle_irq_refuses_nmi", ic_test_handle_irq_nmi },
	{ "probe_irq_on_off", ic_test_probe },
};

const struct ic_suite ic_dispatch_suite = {
	.cases = ic_dispatch_cases,
	.nr = ARRAY_SIZE(ic_dispatch_cases),
};
