// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore - self-tests of device lines (devline.c) on a host interrupt
 * made in software.
 *
 * No device is needed: the host interrupt is a descriptor of genirq's own
 * (irq_alloc_desc()) with the dummy chip and genirq's edge or level flow
 * handler, fired by generic_handle_irq() from a hard irq_work, so that it
 * arrives in genuine hardirq as a device's would. The level case checks
 * the host's side of 2.5's level rules: while irqcore's line is disabled
 * the host holds the interrupt (irqcore never sees it), and enabling the
 * line replays nothing. The PCI device tests (devices/) do the same with
 * real MSI and INTx.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irq_work.h>
#include <linux/irqdesc.h>

#include <irqcore.h>

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
 */
struct ic_dlstate {
	struct ic_ctx ctx;
	int host;
	struct irq_work fire;
	int fired_cpu;
	struct ic_line_stats before;
};

static struct ic_dlstate ic_dl;

static void ic_dl_handler(unsigned int irq, void *dev_id)
{
	ic_ctx_note(&ic_dl.ctx);
}

static void ic_dl_fire_fn(struct irq_work *work)
{
	WRITE_ONCE(ic_dl.fired_cpu, raw_smp_processor_id());
	generic_handle_irq(ic_dl.host);
}

/* Fire the host interrupt once, here, and return when it has run. */
static void ic_dl_fire(void)
{
	preempt_disable();
	irq_work_queue(&ic_dl.fire);
	preempt_enable();
	irq_work_sync(&ic_dl.fire);
}

/* A host interrupt of our own, with genirq's edge or level flow. */
static int ic_dl_host_alloc(bool level)
{
	int host = irq_alloc_desc(NUMA_NO_NODE);

	if (host < 0)
		return host;
	irq_set_chip_and_handler(host, &dummy_irq_chip,
				 level ? handle_level_irq : handle_edge_irq);
	irq_clear_status_flags(host, IRQ_NOREQUEST | IRQ_NOPROBE);
	if (level)
		irq_set_status_flags(host, IRQ_LEVEL);
	return host;
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
	if (host < 0) {
		*skip = "no host interrupt descriptor to allocate";
		return IC_SKIP;
	}
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
	irq_free_desc(host);
	return r;
}

static enum ic_result ic_test_edge(const char **skip)
{
	enum ic_result r = IC_PASS;
	struct ic_line_stats st;
	int err;

	err = ic_dl_setup(false);
	if (err == -ENOMEM || err == -ENOSPC) {
		*skip = "no host interrupt descriptor to allocate";
		return IC_SKIP;
	}
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

	/* The line's affinity is the host interrupt's: the dummy chip has none. */
	ic_check(ic_set_affinity(IC_DL_LINE, 0) == -EINVAL,
		 "set_affinity did not ask the host interrupt");

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
	if (err == -ENOMEM || err == -ENOSPC) {
		*skip = "no host interrupt descriptor to allocate";
		return IC_SKIP;
	}
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

static const struct ic_case ic_devline_cases[] = {
	{ "devline_bind_errors", ic_test_bind_errors },
	{ "devline_edge_held_and_resent", ic_test_edge },
	{ "devline_level_held_by_host", ic_test_level },
};

const struct ic_suite ic_devline_suite = {
	.cases = ic_devline_cases,
	.nr = ARRAY_SIZE(ic_devline_cases),
};
