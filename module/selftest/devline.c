// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore - self-tests of device lines (devline.c) on a host interrupt
 * made in software.
 *
 * No device is needed: the host interrupt is a descriptor of genirq's own
 * (irq_alloc_desc()) with a chip of ours that does nothing but count its
 * affinity requests (and, when a case asks, refuse a request_irq() after
 * 20 ms), and genirq's edge or level flow handler with the matching
 * trigger type; it is fired by generic_handle_irq() from a hard irq_work,
 * so that it arrives in genuine hardirq as a device's would. The level
 * case checks the host's side of 2.5's level rules: while irqcore's line
 * is disabled the host holds the interrupt (irqcore never sees it), and
 * enabling the line replays nothing. The PCI device tests (devices/) do
 * the same with real MSI and INTx.
 *
 * Nothing here is skipped for want of memory or interrupt numbers: a
 * bind or request that fails with ENOMEM or ENOSPC fails the case (no
 * fault injection reaches the self-tests, see tests/guest/init).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irq_work.h>
#include <linux/irqdesc.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/smp.h>

#include <irqcore.h>

#include "../chip.h"
#include "../devline.h"
#include "../hw.h"
#include "../irq.h"
#include "context.h"
#include "selftest.h"

#define IC_DL_LINE	13

/**
 * struct ic_dlstate - shared by the device line cases and their handler.
 * @ctx: the handler's last observation.
 * @host: the host interrupt, or a negative errno.
 * @fire: fires @host in hardirq on the CPU that queues it.
 * @fired_cpu: the CPU @fire last ran on.
 * @before: the line's counts at the start of the case (other suites use
 *	the line too, and its counts only grow).
 * @hold: the handler spins until @release (or ic_hold_ms(900)).
 * @entered: the holding handler has started.
 * @release: lets the holding handler return.
 * @freed: the free_irq() of a case's thread has returned.
 */
struct ic_dlstate {
	struct ic_ctx ctx;
	int host;
	struct irq_work fire;
	int fired_cpu;
	struct ic_line_stats before;
	bool hold;
	bool entered;
	bool release;
	bool freed;
};

static struct ic_dlstate ic_dl;

/*
 * The host chip's watched operations: affinity requests that reached it,
 * and a resource request that sleeps 20 ms and fails while @refuse is set
 * (a host interrupt irqcore does not get: another driver's).
 */
static atomic_t ic_dl_affinity_calls;
static bool ic_dl_refuse;

static void ic_dl_chip_noop(struct irq_data *d)
{
}

static int ic_dl_chip_set_affinity(struct irq_data *d, const struct cpumask *mask, bool force)
{
	atomic_inc(&ic_dl_affinity_calls);
	irq_data_update_effective_affinity(d, mask);
	return IRQ_SET_MASK_OK;
}

/* Process context, no genirq spinlock held (request_mutex only). */
static int ic_dl_chip_request(struct irq_data *d)
{
	if (!READ_ONCE(ic_dl_refuse))
		return 0;
	msleep(20);
	return -EBUSY;
}

static struct irq_chip ic_dl_chip = {
	.name = "irqcore-st",
	.irq_ack = ic_dl_chip_noop,
	.irq_mask = ic_dl_chip_noop,
	.irq_unmask = ic_dl_chip_noop,
	.irq_set_affinity = ic_dl_chip_set_affinity,
	.irq_request_resources = ic_dl_chip_request,
	.flags = IRQCHIP_SKIP_SET_WAKE,
};

static void ic_dl_handler(unsigned int irq, void *dev_id)
{
	u64 end;

	if (READ_ONCE(ic_dl.hold)) {
		end = ktime_get_ns() + (u64)ic_hold_ms(900) * NSEC_PER_MSEC;
		WRITE_ONCE(ic_dl.entered, true);
		/* Pairs with the release store of the case. */
		while (!smp_load_acquire(&ic_dl.release) && ktime_get_ns() < end)
			cpu_relax();
	}
	ic_ctx_note(&ic_dl.ctx);
}

static void ic_dl_fire_fn(struct irq_work *work)
{
	WRITE_ONCE(ic_dl.fired_cpu, raw_smp_processor_id());
	generic_handle_irq(ic_dl.host);
}

/*
 * On the CPU whose call this is: queue the firing work there (a remote
 * irq_work_queue_on() is not for modules); it runs in that CPU's hardirq.
 */
static void ic_dl_fire_there(void *unused)
{
	irq_work_queue(&ic_dl.fire);
}

/* Fire the host interrupt once, here, and return when it has run. */
static void ic_dl_fire(void)
{
	preempt_disable();
	irq_work_queue(&ic_dl.fire);
	preempt_enable();
	irq_work_sync(&ic_dl.fire);
}

/*
 * A host interrupt of our own: genirq's edge or level flow, the trigger
 * type to match (level also IRQ_LEVEL, as the I/O APIC marks a PCI pin),
 * and moved from process context (no pending move to wait for).
 */
static int ic_dl_host_alloc(bool level)
{
	int host = irq_alloc_desc(NUMA_NO_NODE);

	if (host < 0)
		return host;
	irq_set_chip_and_handler(host, &ic_dl_chip, level ? handle_level_irq : handle_edge_irq);
	irq_clear_status_flags(host, IRQ_NOREQUEST | IRQ_NOPROBE);
	irq_set_status_flags(host, IRQ_MOVE_PCNTXT | (level ? IRQ_LEVEL : 0));
	irqd_set_trigger_type(irq_get_irq_data(host),
			      level ? IRQ_TYPE_LEVEL_HIGH : IRQ_TYPE_EDGE_RISING);
	return host;
}

/* genirq's descriptor of @host, for its spurious-interrupt counts. */
static struct irq_desc *ic_dl_host_desc(int host)
{
	return irq_data_to_desc(irq_get_irq_data(host));
}

/* The line's counts since the case began. */
static void ic_dl_stats(struct ic_line_stats *st)
{
	const struct ic_line_stats *b = &ic_dl.before;

	ic_line_stats(IC_DL_LINE, st);
	st->raised -= b->raised;
	st->handled -= b->handled;
	st->merged -= b->merged;
	st->dropped -= b->dropped;
	st->unhandled -= b->unhandled;
}

/* Every raise the line ever had is accounted for. */
static bool ic_dl_balanced(void)
{
	struct ic_line_stats st;

	ic_line_stats(IC_DL_LINE, &st);
	return ic_line_stats_balance(&st);
}

static bool ic_dl_host_disabled(void)
{
	return irqd_irq_disabled(irq_get_irq_data(ic_dl.host));
}

/* Set up: a host interrupt bound to IC_DL_LINE, with the handler on it. */
static int ic_dl_setup(bool level)
{
	int err;

	memset(&ic_dl, 0, sizeof(ic_dl));
	ic_ctx_reset(&ic_dl.ctx);
	ic_dl.fire = IRQ_WORK_INIT_HARD(ic_dl_fire_fn);
	atomic_set(&ic_dl_affinity_calls, 0);
	WRITE_ONCE(ic_dl_refuse, false);
	ic_line_stats(IC_DL_LINE, &ic_dl.before);
	ic_dl.host = ic_dl_host_alloc(level);
	if (ic_dl.host < 0)
		return ic_dl.host;
	err = ic_bind_line(IC_DL_LINE, ic_dl.host, level ? IC_LINE_LEVEL : IC_LINE_EDGE,
			   "irqcore-selftest");
	if (err) {
		irq_free_desc(ic_dl.host);
		return err;
	}
	err = ic_request_irq(IC_DL_LINE, ic_dl_handler, IC_SA_INTERRUPT, "st-devline", &ic_dl);
	if (err) {
		ic_unbind_line(IC_DL_LINE);
		irq_free_desc(ic_dl.host);
	}
	return err;
}

static enum ic_result ic_dl_teardown(enum ic_result r)
{
	int err;

	ic_free_irq(IC_DL_LINE, &ic_dl);
	err = ic_unbind_line(IC_DL_LINE);
	ic_check(!err, "unbind_line: %d", err);
	ic_check(ic_unbind_line(IC_DL_LINE) == -EINVAL, "unbind twice");
	irq_free_desc(ic_dl.host);
	return r;
}

static enum ic_result ic_test_bind_errors(const char **skip)
{
	enum ic_result r = IC_PASS;
	int host, err, x;

	host = ic_dl_host_alloc(false);
	ic_check(host >= 0, "irq_alloc_desc: %d", host);
	if (host < 0)
		return r;
	ic_check(ic_bind_line(IC_TIMER_IRQ, host, IC_LINE_EDGE, "st") == -EINVAL, "timer line");
	ic_check(ic_bind_line(ic_nr_irqs(), host, IC_LINE_EDGE, "st") == -EINVAL, "bad line");
	ic_check(ic_bind_line(IC_DL_LINE, host, 7, "st") == -EINVAL, "bad type");
	ic_check(ic_bind_line(IC_DL_LINE, host, IC_LINE_EDGE, NULL) == -EINVAL, "no name");
	ic_check(ic_unbind_line(IC_DL_LINE) == -EINVAL, "unbind of an unbound line");

	err = ic_request_irq(IC_DL_LINE, ic_dl_handler, 0, "st-x", &x);
	ic_check(!err, "request_irq: %d", err);
	ic_check(ic_bind_line(IC_DL_LINE, host, IC_LINE_EDGE, "st") == -EBUSY,
		 "bind of a line with an action");
	ic_free_irq(IC_DL_LINE, &x);

	err = ic_bind_line(IC_DL_LINE, host, IC_LINE_EDGE, "st");
	ic_check(!err, "bind: %d", err);
	ic_check(ic_bind_line(IC_DL_LINE, host, IC_LINE_EDGE, "st") == -EBUSY, "bind twice");
	err = ic_request_irq(IC_DL_LINE, ic_dl_handler, 0, "st-x", &x);
	ic_check(ic_unbind_line(IC_DL_LINE) == -EBUSY, "unbind with an action");
	if (!err)
		ic_free_irq(IC_DL_LINE, &x);
	ic_check(!ic_unbind_line(IC_DL_LINE), "unbind");

	/*
	 * The trigger must fit the line's type: an edge host as a level
	 * line, and a level one as an edge line, are refused, nothing
	 * requested and the line left on the virtual controller.
	 */
	err = ic_bind_line(IC_DL_LINE, host, IC_LINE_LEVEL, "st");
	ic_check(err == -EINVAL, "an edge host interrupt bound as a level line: %d", err);
	if (!err)
		ic_unbind_line(IC_DL_LINE);
	irq_free_desc(host);
	host = ic_dl_host_alloc(true);
	ic_check(host >= 0, "irq_alloc_desc: %d", host);
	if (host < 0)
		return r;
	err = ic_bind_line(IC_DL_LINE, host, IC_LINE_EDGE, "st");
	ic_check(err == -EINVAL, "a level host interrupt bound as an edge line: %d", err);
	if (!err)
		ic_unbind_line(IC_DL_LINE);
	ic_check(!irq_has_action(host), "a refused bind left the host interrupt requested");
	ic_check(ic_irq_chip(IC_DL_LINE) == &ic_vic,
		 "a refused bind left the line on another controller");
	irq_free_desc(host);
	return r;
}

static enum ic_result ic_test_edge(const char **skip)
{
	enum ic_result r = IC_PASS;
	struct ic_line_stats st;
	int err, calls;

	err = ic_dl_setup(false);
	ic_check(!err, "setup: %d", err);
	if (err)
		return r;

	ic_dl_fire();
	ic_check(ic_wait_until(atomic_read(&ic_dl.ctx.hits) == 1), "the handler did not run");
	ic_check(ic_dl.ctx.host_hardirq && ic_dl.ctx.irqs_off,
		 "not in hardirq with interrupts off");
	ic_check(ic_dl.ctx.cpu == READ_ONCE(ic_dl.fired_cpu),
		 "ran on CPU%d, the host interrupt came on CPU%d", ic_dl.ctx.cpu,
		 READ_ONCE(ic_dl.fired_cpu));

	/* Disabled: held in PENDING, resent once by enable. */
	ic_disable_irq(IC_DL_LINE);
	ic_dl_fire();
	ic_dl_fire();
	msleep(20);
	ic_check(atomic_read(&ic_dl.ctx.hits) == 1, "ran while disabled");
	ic_enable_irq(IC_DL_LINE);
	ic_check(ic_wait_until(atomic_read(&ic_dl.ctx.hits) == 2), "no resend on enable");
	msleep(20);
	ic_check(atomic_read(&ic_dl.ctx.hits) == 2, "ran %d times, want 2",
		 atomic_read(&ic_dl.ctx.hits));

	/* The line's affinity is the host interrupt's (its startup set one too). */
	calls = atomic_read(&ic_dl_affinity_calls);
	err = ic_set_affinity(IC_DL_LINE, 0);
	calls = atomic_read(&ic_dl_affinity_calls) - calls;
	ic_check(!err && calls == 1,
		 "set_affinity: %d, the host chip was asked %d times, want once", err, calls);
	ic_set_affinity(IC_DL_LINE, -1);

	ic_dl_stats(&st);
	ic_check(ic_dl_balanced(), "the line's counts do not balance");
	ic_check(st.raised == 3 && st.handled == 2 && st.merged == 1 && !st.latched && !st.inflight,
		 "raised %lu handled %lu merged %lu latched %lu inflight %lu: want 3 2 1 0 0",
		 st.raised, st.handled, st.merged, st.latched, st.inflight);
	return ic_dl_teardown(r);
}

static enum ic_result ic_test_level(const char **skip)
{
	enum ic_result r = IC_PASS;
	struct ic_line_stats st;
	int err;

	err = ic_dl_setup(true);
	ic_check(!err, "setup: %d", err);
	if (err)
		return r;
	ic_check(!ic_dl_host_disabled(), "the host interrupt is off after request_irq");

	ic_dl_fire();
	ic_check(ic_wait_until(atomic_read(&ic_dl.ctx.hits) == 1), "the handler did not run");
	ic_check(!ic_dl_host_disabled(), "ack and end left the host interrupt off");

	/*
	 * Disabled: the host holds the interrupt, which irqcore never sees;
	 * enabling replays nothing. The source still asserts: it interrupts
	 * again, and runs once.
	 */
	ic_disable_irq(IC_DL_LINE);
	ic_check(ic_dl_host_disabled(), "the host interrupt is on while the line is disabled");
	ic_dl_fire();
	ic_dl_fire();
	ic_dl_stats(&st);
	ic_check(st.raised == 1, "irqcore saw %lu interrupts while disabled, want none",
		 st.raised - 1);
	ic_enable_irq(IC_DL_LINE);
	ic_check(!ic_dl_host_disabled(), "the host interrupt is off after enable");
	msleep(20);
	ic_check(atomic_read(&ic_dl.ctx.hits) == 1, "replayed in software: ran %d times, want 1",
		 atomic_read(&ic_dl.ctx.hits));
	ic_dl_fire();
	ic_check(ic_wait_until(atomic_read(&ic_dl.ctx.hits) == 2), "no run after enable");

	ic_dl_stats(&st);
	ic_check(ic_dl_balanced(), "the line's counts do not balance");
	ic_check(st.raised == 2 && st.handled == 2 && !st.latched && !st.inflight,
		 "raised %lu handled %lu: want 2 2, balanced", st.raised, st.handled);
	ic_free_irq(IC_DL_LINE, &ic_dl);
	ic_check(ic_dl_host_disabled(), "the host interrupt is on after the last free_irq");
	ic_check(!ic_unbind_line(IC_DL_LINE), "unbind");
	irq_free_desc(ic_dl.host);
	return r;
}

/*
 * An instance that no handler can see is IRQ_NONE to genirq, so that its
 * "nobody cared" check can stop a host interrupt that storms: an edge
 * line bound with no action yet, and a bound level line under a probe
 * (whose source nothing quiets). With a handler, IRQ_HANDLED. Read in
 * genirq's own count of unhandled interrupts, which note_interrupt()
 * keeps from the handlers' answers (@irq_count shows that it ran).
 */
static enum ic_result ic_test_unclaimed(const char **skip)
{
	enum ic_result r = IC_PASS;
	unsigned int count, unhandled;
	struct irq_desc *hd;
	unsigned long mask;
	int err, found;

	err = ic_dl_setup(false);
	ic_check(!err, "setup: %d", err);
	if (err)
		return r;
	hd = ic_dl_host_desc(ic_dl.host);
	ic_free_irq(IC_DL_LINE, &ic_dl);	/* bound, no action */
	count = READ_ONCE(hd->irq_count);
	ic_dl_fire();
	ic_dl_fire();
	ic_check(READ_ONCE(hd->irq_count) - count == 2,
		 "genirq noted %u of 2 interrupts (noirqdebug?)", READ_ONCE(hd->irq_count) - count);
	unhandled = READ_ONCE(hd->irqs_unhandled);
	ic_check(unhandled >= 1, "no action on the line, yet genirq counts no unhandled interrupt");

	err = ic_request_irq(IC_DL_LINE, ic_dl_handler, IC_SA_INTERRUPT, "st-devline", &ic_dl);
	ic_check(!err, "request_irq: %d", err);
	if (!err) {
		ic_dl_fire();
		ic_check(ic_wait_until(atomic_read(&ic_dl.ctx.hits) == 1),
			 "the handler did not run");
		ic_check(READ_ONCE(hd->irqs_unhandled) == unhandled,
			 "a handled interrupt counted unhandled: %u, was %u",
			 READ_ONCE(hd->irqs_unhandled), unhandled);
		ic_free_irq(IC_DL_LINE, &ic_dl);
	}
	ic_check(!ic_unbind_line(IC_DL_LINE), "unbind");
	irq_free_desc(ic_dl.host);

	/* A level line probed: the host on, nothing to quiet the source. */
	ic_dl.host = ic_dl_host_alloc(true);
	ic_check(ic_dl.host >= 0, "irq_alloc_desc: %d", ic_dl.host);
	if (ic_dl.host < 0)
		return r;
	hd = ic_dl_host_desc(ic_dl.host);
	err = ic_bind_line(IC_DL_LINE, ic_dl.host, IC_LINE_LEVEL, "irqcore-selftest");
	ic_check(!err, "bind: %d", err);
	if (!err) {
		mask = ic_probe_irq_on();
		unhandled = READ_ONCE(hd->irqs_unhandled);
		ic_dl_fire();
		found = ic_probe_irq_off(mask);
		ic_check(found == IC_DL_LINE, "the probe found %d, want the line (%d)", found,
			 IC_DL_LINE);
		ic_check(READ_ONCE(hd->irqs_unhandled) > unhandled,
			 "the probed level line's interrupt counted handled");
		ic_check(!ic_unbind_line(IC_DL_LINE), "unbind");
	}
	irq_free_desc(ic_dl.host);
	return r;
}

static int ic_dl_free_fn(void *unused)
{
	ic_free_irq(IC_DL_LINE, &ic_dl);
	/* Pairs with the acquire in ic_swap_running_body(). */
	smp_store_release(&ic_dl.freed, true);
	ic_kthread_wait_stop();
	return 0;
}

/*
 * The line's controller must not change while a dispatch still runs its
 * chain: a level line's dispatch acked on the device controller (the host
 * interrupt disabled) must end there (enabled again). The handler holds
 * on the other CPU; a thread frees the line's only action and waits for
 * it; meanwhile ic_unbind_line() must be refused (EBUSY), and the host's
 * disable depth must come out at 1 (off once, for the freed line).
 */
static long ic_swap_running_body(void *arg)
{
	int other = ic_other_cpu(smp_processor_id());
	enum ic_result r = IC_PASS;
	struct task_struct *t;
	int err;

	err = ic_dl_setup(true);
	ic_check(!err, "setup: %d", err);
	if (err)
		return r;
	/*
	 * Made and bound here before @other holds in its handler:
	 * kthread_create() waits for kthreadd, whose wake-up could go to
	 * @other, which looks idle while it spins in hardirq (the hold
	 * would run out first).
	 */
	t = kthread_create(ic_dl_free_fn, NULL, "ic_st_dl_free");
	ic_check(!IS_ERR(t), "kthread_create: %d", PTR_ERR_OR_ZERO(t));
	if (IS_ERR(t))
		return ic_dl_teardown(r);
	kthread_bind(t, smp_processor_id());
	WRITE_ONCE(ic_dl.hold, true);
	smp_call_function_single(other, ic_dl_fire_there, NULL, 0);
	ic_check(ic_wait_until(READ_ONCE(ic_dl.entered)), "the handler never started");
	wake_up_process(t);
	ic_check(ic_wait_until(ic_irq_nr_actions(IC_DL_LINE) == 0),
		 "free_irq() never unlinked the action");
	err = ic_unbind_line(IC_DL_LINE);
	ic_check(err == -EBUSY, "unbind while the freed handler still ran: %d, want -EBUSY", err);
	/* Pairs with the acquire in ic_dl_handler(). */
	smp_store_release(&ic_dl.release, true);
	/* Pairs with the release in ic_dl_free_fn(). */
	ic_check(ic_wait_until(smp_load_acquire(&ic_dl.freed)), "free_irq() never returned");
	kthread_stop(t);
	irq_work_sync(&ic_dl.fire);
	if (err == -EBUSY) {
		ic_check(ic_dl_host_desc(ic_dl.host)->depth == 1,
			 "the host interrupt's disable depth is %u, want 1",
			 ic_dl_host_desc(ic_dl.host)->depth);
		err = ic_unbind_line(IC_DL_LINE);
		ic_check(!err, "unbind once the handler returned: %d", err);
	}
	ic_check(ic_dl_balanced(), "the line's counts do not balance");
	irq_free_desc(ic_dl.host);
	return r;
}

static enum ic_result ic_test_swap_running(const char **skip)
{
	return ic_run_pinned(ic_swap_running_body, NULL, skip);
}

/**
 * struct ic_dl_aimer - re-aims the line while a case binds it.
 * @stop: ends the thread.
 * @calls: ic_set_affinity() calls made.
 */
struct ic_dl_aimer {
	bool stop;
	atomic_t calls;
};

static int ic_dl_aimer_fn(void *arg)
{
	struct ic_dl_aimer *a = arg;

	while (!READ_ONCE(a->stop)) {
		ic_set_affinity(IC_DL_LINE, -1);
		atomic_inc(&a->calls);
		usleep_range(50, 100);
	}
	ic_kthread_wait_stop();
	return 0;
}

/*
 * ic_bind_line() must own the host interrupt before the line's requests
 * reach it: here the host refuses the request (after 20 ms, as another
 * driver's interrupt would be refused at once), while a thread re-aims
 * the line all along. The bind fails, and the host chip must never have
 * been asked to move: a line on the device controller before the request
 * would have aimed an interrupt irqcore never got.
 */
static enum ic_result ic_test_bind_owns_host(const char **skip)
{
	struct ic_dl_aimer a = { };
	enum ic_result r = IC_PASS;
	struct task_struct *t;
	int host, err, before;

	host = ic_dl_host_alloc(true);
	ic_check(host >= 0, "irq_alloc_desc: %d", host);
	if (host < 0)
		return r;
	atomic_set(&ic_dl_affinity_calls, 0);
	atomic_set(&a.calls, 0);
	t = kthread_run(ic_dl_aimer_fn, &a, "ic_st_dl_aim");
	ic_check(!IS_ERR(t), "kthread_run: %d", PTR_ERR_OR_ZERO(t));
	if (IS_ERR(t)) {
		irq_free_desc(host);
		return r;
	}
	ic_check(ic_wait_until(atomic_read(&a.calls) > 0), "the aiming thread never ran");
	WRITE_ONCE(ic_dl_refuse, true);
	before = atomic_read(&a.calls);
	err = ic_bind_line(IC_DL_LINE, host, IC_LINE_LEVEL, "st");
	before = atomic_read(&a.calls) - before;
	WRITE_ONCE(ic_dl_refuse, false);
	WRITE_ONCE(a.stop, true);
	kthread_stop(t);
	ic_ktap_diag("bind_owns_host: %d re-aims while the bind ran", before);
	ic_check(err == -EBUSY, "bind of a host interrupt that refuses: %d, want -EBUSY", err);
	if (!err)
		ic_unbind_line(IC_DL_LINE);
	ic_check(before > 0, "no re-aim while the bind ran: the case tested nothing");
	ic_check(!atomic_read(&ic_dl_affinity_calls) &&
		 !irqd_affinity_was_set(irq_get_irq_data(host)),
		 "the line re-aimed a host interrupt it never got (%d calls)",
		 atomic_read(&ic_dl_affinity_calls));
	ic_check(ic_irq_chip(IC_DL_LINE) == &ic_vic,
		 "a failed bind left the line on another controller");
	irq_free_desc(host);
	return r;
}

/*
 * What the unload does for a line its driver left bound
 * (ic_devline_drop(), from ic_devline_exit()): with its action still on
 * it, the line must be back on the virtual controller and the static key
 * of ack and end off, so that a later ack, end, enable or set_affinity
 * never reaches the device operations, whose entry is gone. The handler
 * must still run for a software raise.
 */
static enum ic_result ic_test_drop(const char **skip)
{
	enum ic_result r = IC_PASS;
	int err;

	err = ic_dl_setup(true);
	ic_check(!err, "setup: %d", err);
	if (err)
		return r;
	ic_dl_fire();
	ic_check(ic_wait_until(atomic_read(&ic_dl.ctx.hits) == 1), "the handler did not run");
	ic_check(ic_irq_chip_ops_used(), "a bound level line, yet do_IRQ calls no ack or end");

	err = ic_devline_drop(IC_DL_LINE);
	ic_check(!err, "drop: %d", err);
	if (ic_irq_chip(IC_DL_LINE) != &ic_vic) {
		ic_ktap_diag("%s: the dropped line is still on %s; put back by the case",
			     __func__, ic_irq_chip(IC_DL_LINE)->typename);
		r = IC_FAIL;
		ic_irq_reset_chip(IC_DL_LINE, &ic_vic);
	}
	ic_check(!ic_irq_chip_ops_used(),
		 "no device line bound, yet do_IRQ still calls ack and end");
	ic_check(ic_unbind_line(IC_DL_LINE) == -EINVAL, "the dropped line is still bound");
	ic_check(!irq_has_action(ic_dl.host), "the host interrupt is still requested");

	/* The virtual controller's operations, with the action left. */
	atomic_set(&ic_dl_affinity_calls, 0);
	err = ic_set_affinity(IC_DL_LINE, raw_smp_processor_id());
	ic_check(!err, "set_affinity: %d", err);
	ic_check(!atomic_read(&ic_dl_affinity_calls), "set_affinity reached the host interrupt");
	ic_set_affinity(IC_DL_LINE, -1);
	/* No enable first: the drop must leave the line unmasked for it. */
	ic_raise(IC_DL_LINE);
	ic_check(ic_wait_until(atomic_read(&ic_dl.ctx.hits) == 2),
		 "a raise of the dropped line did not reach its handler");
	ic_free_irq(IC_DL_LINE, &ic_dl);
	ic_check(ic_dl_balanced(), "the line's counts do not balance");
	irq_free_desc(ic_dl.host);
	return r;
}

static const struct ic_case ic_devline_cases[] = {
	{ "devline_bind_errors", ic_test_bind_errors },
	{ "devline_edge_held_and_resent", ic_test_edge },
	{ "devline_level_held_by_host", ic_test_level },
	{ "devline_unclaimed_is_irq_none", ic_test_unclaimed },
	{ "devline_swap_refused_while_running", ic_test_swap_running },
	{ "devline_bind_owns_host_first", ic_test_bind_owns_host },
	{ "devline_drop_restores_vic", ic_test_drop },
};

const struct ic_suite ic_devline_suite = {
	.cases = ic_devline_cases,
	.nr = ARRAY_SIZE(ic_devline_cases),
};
