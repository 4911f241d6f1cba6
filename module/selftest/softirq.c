// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore - self-tests of softirqs, ksoftirqd, tasklets and bottom halves.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/smp.h>

#include <irqcore.h>

#include "../counter.h"
#include "../irq.h"
#include "../misuse.h"
#include "context.h"
#include "selftest.h"

#define IC_S_LINE	4
#define IC_S_VEC	9
#define IC_S_BH_A	3
#define IC_S_BH_B	4

/**
 * struct ic_sstate - shared by the softirq cases and their callbacks.
 * @ctx: the softirq's last observation.
 * @handler_cpu: where the raising handler ran.
 * @handler_done: the raising handler had returned when the softirq ran.
 * @in_handler: the raising handler is running.
 * @rearm: how many more times the softirq raises itself.
 * @in_ksoftirqd: runs that happened in ksoftirqd.
 * @running: callbacks running now, across CPUs.
 * @overlaps: runs that found another one running.
 * @runs: tasklet or bottom-half runs.
 * @last_cpu: where a tasklet or bottom half was last scheduled or began
 *	to run: the CPU whose heartbeat tells, for a run still going or not
 *	yet begun, whether that CPU had the time to end it (ic_s_wait_idle()).
 * @tasklet: the tasklet under test.
 */
struct ic_sstate {
	struct ic_ctx ctx;
	int handler_cpu;
	bool handler_done;
	bool in_handler;
	atomic_t rearm;
	atomic_t in_ksoftirqd;
	atomic_t running;
	atomic_t overlaps;
	atomic_t runs;
	int last_cpu;
	struct ic_tasklet tasklet;
};

static struct ic_sstate ic_ss;

static void ic_ss_reset(void)
{
	memset(&ic_ss, 0, sizeof(ic_ss));
	ic_ss.last_cpu = -1;
	ic_ctx_reset(&ic_ss.ctx);
}

static void ic_s_note(void *data)
{
	ic_ss.handler_done = !READ_ONCE(ic_ss.in_handler);
	ic_ctx_note(&ic_ss.ctx);
	if (ic_ss.ctx.ksoftirqd)
		atomic_inc(&ic_ss.in_ksoftirqd);
	if (atomic_dec_if_positive(&ic_ss.rearm) >= 0)
		ic_raise_softirq(IC_S_VEC);
}

static enum ic_result ic_test_bh_enable_runs(const char **skip)
{
	enum ic_result r = IC_PASS;
	int cpu, hits;

	ic_ss_reset();
	ic_open_softirq(IC_S_VEC, ic_s_note, NULL);
	ic_local_bh_disable();
	cpu = smp_processor_id();
	ic_raise_softirq(IC_S_VEC);
	udelay(100);
	hits = atomic_read(&ic_ss.ctx.hits);
	ic_local_bh_enable();
	ic_check(!hits, "softirq ran while bottom halves were disabled");
	ic_check(atomic_read(&ic_ss.ctx.hits) == 1, "local_bh_enable() did not run it");
	ic_check(ic_ss.ctx.cpu == cpu && !ic_ss.ctx.ksoftirqd, "ran on CPU%d ksoftirqd=%d",
		 ic_ss.ctx.cpu, ic_ss.ctx.ksoftirqd);
	ic_close_softirq(IC_S_VEC);
	return r;
}

static void ic_s_raising_handler(unsigned int irq, void *dev_id)
{
	WRITE_ONCE(ic_ss.in_handler, true);
	ic_ss.handler_cpu = smp_processor_id();
	ic_raise_softirq(IC_S_VEC);
	udelay(20);
	WRITE_ONCE(ic_ss.in_handler, false);
}

static enum ic_result ic_test_at_irq_exit(const char **skip)
{
	enum ic_result r = IC_PASS;
	int err;

	ic_ss_reset();
	ic_open_softirq(IC_S_VEC, ic_s_note, NULL);
	err = ic_request_irq(IC_S_LINE, ic_s_raising_handler, 0, "st-softirq", &ic_ss);
	ic_check(!err, "request_irq: %d", err);
	if (!err) {
		ic_raise(IC_S_LINE);
		ic_check(ic_wait_until(atomic_read(&ic_ss.ctx.hits)), "softirq never ran");
		ic_free_irq(IC_S_LINE, &ic_ss);
	}
	ic_close_softirq(IC_S_VEC);
	if (r == IC_FAIL)
		return r;
	ic_check(ic_ss.handler_done, "softirq ran inside the handler");
	ic_check(ic_ss.ctx.cpu == ic_ss.handler_cpu, "ran on CPU%d, raised on CPU%d",
		 ic_ss.ctx.cpu, ic_ss.handler_cpu);
	ic_check(!ic_ss.ctx.ksoftirqd, "left to ksoftirqd instead of irq_exit");
	ic_check(ic_ss.ctx.count == ic_layout->softirq_offset,
		 "count %#x in softirq: not exactly one softirq level", ic_ss.ctx.count);
	ic_check(!ic_ss.ctx.irqs_off, "softirq ran with interrupts off");
	return r;
}

static enum ic_result ic_test_ksoftirqd(const char **skip)
{
	enum ic_result r = IC_PASS;

	/* Raised from a task, nothing is on its way out: ksoftirqd runs it. */
	ic_ss_reset();
	ic_open_softirq(IC_S_VEC, ic_s_note, NULL);
	ic_raise_softirq(IC_S_VEC);
	ic_check(ic_wait_until(atomic_read(&ic_ss.ctx.hits)), "softirq never ran");
	ic_check(ic_ss.ctx.ksoftirqd, "raised from a task, not run by ksoftirqd");

	/* One that keeps raising itself is handed over by the restart rule. */
	ic_ss_reset();
	atomic_set(&ic_ss.rearm, 20);
	ic_local_bh_disable();
	ic_raise_softirq(IC_S_VEC);
	ic_local_bh_enable();
	ic_check(ic_wait_until(atomic_read(&ic_ss.ctx.hits) == 21), "ran %d of 21 times",
		 atomic_read(&ic_ss.ctx.hits));
	ic_check(atomic_read(&ic_ss.in_ksoftirqd) > 0, "ksoftirqd never took over");
	ic_check(atomic_read(&ic_ss.in_ksoftirqd) < 21, "the first run was not in bh_enable");
	ic_close_softirq(IC_S_VEC);
	return r;
}

/* Tasklets and bottom halves: never two at once, wherever scheduled. */
static void ic_s_serial_body(void)
{
	WRITE_ONCE(ic_ss.last_cpu, raw_smp_processor_id());
	if (atomic_inc_return(&ic_ss.running) > 1)
		atomic_inc(&ic_ss.overlaps);
	udelay(30);
	atomic_dec(&ic_ss.running);
	atomic_inc(&ic_ss.runs);
}

static void ic_s_tasklet_fn(unsigned long data)
{
	ic_s_serial_body();
}

static void ic_s_bh_fn(void)
{
	ic_s_serial_body();
}

static void ic_s_tasklet_handler(unsigned int irq, void *dev_id)
{
	WRITE_ONCE(ic_ss.last_cpu, raw_smp_processor_id());
	ic_tasklet_schedule(&ic_ss.tasklet);
}

static void ic_s_bh_handler(unsigned int irq, void *dev_id)
{
	WRITE_ONCE(ic_ss.last_cpu, raw_smp_processor_id());
	ic_mark_bh(atomic_inc_return(&ic_ss.rearm) & 1 ? IC_S_BH_A : IC_S_BH_B);
}

/*
 * How long, by its heartbeat, the CPU where a run was last scheduled or
 * began must have run while the storm's runs are still going (or none has
 * run) for that to be the code's: a run takes 30 us, in a softirq that a
 * CPU reaches at its next irq_exit() or in its ksoftirqd.
 */
#define IC_S_RAN_MS	100UL

/*
 * The end of a storm: wait until no run is going and one has run, for
 * wait_ms at most. A run still going after a fixed window (a second, then
 * wait_ms) was once the host's on a busy machine: the vCPU inside it had
 * been off the host's cores. So the wait reads the heartbeat of the CPU
 * where a run was last scheduled or began (@last_cpu, measured afresh
 * whenever that changes): if that CPU ran IC_S_RAN_MS of the wait and the
 * runs did not end, the code is wrong (IC_FAIL); if wait_ms went by with
 * that CPU hardly running, the host stalled it (IC_STALL, the case runs
 * again). A CPU spinning with interrupts off in a run beats no more than
 * one off the host (heartbeat.c): that defect reads as a stall here, and
 * stalls in every run of the case.
 *
 * Context: process; sleeps. Return: IC_PASS, IC_FAIL or IC_STALL.
 */
static enum ic_result ic_s_wait_idle(const char *what)
{
	/*
	 * At least a few times IC_S_RAN_MS: with wait_ms=100 (allowed) the
	 * wait ended before a CPU that ran all of it could reach IC_S_RAN_MS,
	 * and runs that never end read as a host stall in every run.
	 */
	unsigned int wait_ms = max_t(unsigned int, ic_param_wait_ms, 4 * IC_S_RAN_MS);
	unsigned long end = jiffies + msecs_to_jiffies(wait_ms);
	unsigned long beats0 = 0, ran = 0;
	enum ic_result r = IC_PASS;
	int cpu = -1, now;

	cpus_read_lock();
	ic_hb_start();
	while (atomic_read(&ic_ss.running) || !atomic_read(&ic_ss.runs)) {
		now = READ_ONCE(ic_ss.last_cpu);
		if (now < 0) {
			ic_ktap_diag("%s: nothing was ever scheduled", what);
			r = IC_FAIL;
			break;
		}
		/*
		 * @last_cpu moves only when a run begins (the line is freed:
		 * no handler writes it now), and a run that begins is
		 * progress, so the count starts afresh on the new CPU.
		 */
		if (now != cpu) {
			cpu = now;
			beats0 = ic_hb_beats(cpu);
		}
		ran = ic_hb_beats(cpu) - beats0;
		if (ran >= IC_S_RAN_MS) {
			ic_ktap_diag("%s: %s, though CPU%d ran %lu ms of the wait", what,
				     atomic_read(&ic_ss.runs) ? "still running" : "never ran", cpu,
				     ran);
			r = IC_FAIL;
			break;
		}
		if (time_after(jiffies, end)) {
			r = ic_stall("%s %s after %u ms; CPU%d, where it was last, ran %lu ms",
				     what, atomic_read(&ic_ss.runs) ? "still running" : "never ran",
				     wait_ms, cpu, ran);
			break;
		}
		usleep_range(1000, 2000);
	}
	ic_hb_stop();
	cpus_read_unlock();
	return r;
}

static enum ic_result ic_storm_serial(ic_handler_t handler, const char *what)
{
	enum ic_result r = IC_PASS, idle;
	int i, err;

	err = ic_request_irq(IC_S_LINE, handler, 0, "st-serial", &ic_ss);
	ic_check(!err, "request_irq: %d", err);
	if (err)
		return r;
	for (i = 0; i < 1000; i++) {
		ic_raise(IC_S_LINE);
		if (!(i % 4))
			udelay(40);
	}
	ic_check(!ic_check_accounting(what), "accounting");
	ic_free_irq(IC_S_LINE, &ic_ss);
	idle = ic_s_wait_idle(what);
	/* A stall decides nothing: the case runs again, unless it failed already. */
	if (idle == IC_STALL && r == IC_PASS)
		return idle;
	if (idle != IC_PASS)
		r = IC_FAIL;
	msleep(20);
	ic_ktap_diag("%s: %d runs, %d overlaps", what, atomic_read(&ic_ss.runs),
		     atomic_read(&ic_ss.overlaps));
	ic_check(!atomic_read(&ic_ss.overlaps), "ran on two CPUs at once");
	return r;
}

static enum ic_result ic_test_tasklet_serial(const char **skip)
{
	enum ic_result r;

	if (num_online_cpus() < 2) {
		*skip = "needs 2 or more CPUs";
		return IC_SKIP;
	}
	ic_ss_reset();
	ic_tasklet_init(&ic_ss.tasklet, ic_s_tasklet_fn, 0);
	r = ic_storm_serial(ic_s_tasklet_handler, "tasklet");
	ic_tasklet_kill(&ic_ss.tasklet);
	return r;
}

static enum ic_result ic_test_bh_serial(const char **skip)
{
	enum ic_result r;

	if (num_online_cpus() < 2) {
		*skip = "needs 2 or more CPUs";
		return IC_SKIP;
	}
	ic_ss_reset();
	ic_init_bh(IC_S_BH_A, ic_s_bh_fn);
	ic_init_bh(IC_S_BH_B, ic_s_bh_fn);
	r = ic_storm_serial(ic_s_bh_handler, "bottom half");
	ic_remove_bh(IC_S_BH_A);
	ic_remove_bh(IC_S_BH_B);
	return r;
}

static enum ic_result ic_test_tasklet_disable_kill(const char **skip)
{
	enum ic_result r = IC_PASS;

	ic_ss_reset();
	ic_tasklet_init(&ic_ss.tasklet, ic_s_tasklet_fn, 0);
	ic_tasklet_disable(&ic_ss.tasklet);
	ic_tasklet_schedule(&ic_ss.tasklet);
	msleep(30);
	ic_check(!atomic_read(&ic_ss.runs), "a disabled tasklet ran");
	ic_tasklet_enable(&ic_ss.tasklet);
	ic_check(ic_wait_until(atomic_read(&ic_ss.runs) == 1), "enabled tasklet never ran");

	/*
	 * Bottom halves off (and the CPU kept) across the two schedules:
	 * otherwise the first may run in between (an interrupt's exit, or
	 * ksoftirqd; seen on the KASAN kernel), and the second then queues a
	 * third run instead of being the no-op under test.
	 */
	preempt_disable();
	ic_local_bh_disable();
	ic_tasklet_schedule(&ic_ss.tasklet);
	ic_tasklet_schedule(&ic_ss.tasklet);	/* already scheduled: no-op */
	ic_local_bh_enable();
	preempt_enable();
	ic_tasklet_kill(&ic_ss.tasklet);
	ic_check(!(ic_ss.tasklet.state & (BIT(IC_TASKLET_STATE_SCHED) | BIT(IC_TASKLET_STATE_RUN))),
		 "state %#lx after kill", ic_ss.tasklet.state);
	ic_check(atomic_read(&ic_ss.runs) == 2, "runs %d, want 2", atomic_read(&ic_ss.runs));
	return r;
}

/* Out-of-range numbers are refused with a reason and change nothing. */
static enum ic_result ic_test_softirq_api_errors(const char **skip)
{
	unsigned long before = ic_api_warnings();
	enum ic_result r = IC_PASS;
	int err;

	ic_raise_softirq(IC_NR_SOFTIRQS);
	err = ic_open_softirq(IC_NR_SOFTIRQS + 7, ic_s_note, NULL);
	ic_check(err == -EINVAL, "open_softirq(out of range): %d", err);
	ic_init_bh(IC_NR_BHS, NULL);
	ic_mark_bh(IC_NR_BHS + 1);
	ic_remove_bh(~0U);
	ic_check(ic_api_warnings() == before + 5, "%lu complaints, want 5",
		 ic_api_warnings() - before);
	return r;
}

/*
 * The vectors irqcore's tasklets and bottom halves run on are not anyone
 * else's to open or close, a NULL action is no way to close a vector, and
 * an open vector is not taken over: each is refused with a reason, and
 * tasklets still run afterwards. (One ic_open_softirq(IC_TASKLET_SOFTIRQ,
 * NULL, NULL) used to disable every tasklet and bottom half for good, and
 * ic_tasklet_kill() and the unload then slept for ever.)
 */
static enum ic_result ic_test_softirq_vector_ownership(const char **skip)
{
	unsigned long before = ic_api_warnings();
	enum ic_result r = IC_PASS;
	int err;

	err = ic_open_softirq(IC_HI_SOFTIRQ, NULL, NULL);
	ic_check(err == -EINVAL, "open_softirq(HI, NULL): %d, want -EINVAL", err);
	err = ic_open_softirq(IC_TASKLET_SOFTIRQ, ic_s_note, NULL);
	ic_check(err == -EINVAL, "open_softirq(TASKLET): %d, want -EINVAL", err);
	err = ic_open_softirq(IC_S_VEC, NULL, NULL);
	ic_check(err == -EINVAL, "open_softirq(%d, NULL): %d, want -EINVAL", IC_S_VEC, err);
	ic_close_softirq(IC_TASKLET_SOFTIRQ);
	ic_close_softirq(IC_S_VEC);		/* not open */
	err = ic_open_softirq(IC_S_VEC, ic_s_note, NULL);
	ic_check(!err, "open_softirq(%d): %d", IC_S_VEC, err);
	err = ic_open_softirq(IC_S_VEC, ic_s_note, NULL);
	ic_check(err == -EBUSY, "second open_softirq(%d): %d, want -EBUSY", IC_S_VEC, err);
	ic_close_softirq(IC_S_VEC);
	ic_check(ic_api_warnings() == before + 6, "%lu complaints, want 6",
		 ic_api_warnings() - before);

	/* What must still work: a tasklet and a bottom half run. */
	ic_ss_reset();
	ic_tasklet_init(&ic_ss.tasklet, ic_s_tasklet_fn, 0);
	ic_tasklet_schedule(&ic_ss.tasklet);
	ic_check(ic_wait_until(atomic_read(&ic_ss.runs) == 1),
		 "a tasklet no longer runs after the refused calls");
	ic_tasklet_kill(&ic_ss.tasklet);
	return r;
}

static const struct ic_case ic_softirq_cases[] = {
	{ "softirq_local_bh_enable_runs_pending", ic_test_bh_enable_runs },
	{ "softirq_runs_at_irq_exit", ic_test_at_irq_exit },
	{ "softirq_ksoftirqd_takes_over", ic_test_ksoftirqd },
	{ "tasklet_disable_enable_kill", ic_test_tasklet_disable_kill },
	{ "tasklet_never_on_two_cpus", ic_test_tasklet_serial },
	{ "bh_serialised_across_cpus", ic_test_bh_serial },
	{ "softirq_api_errors", ic_test_softirq_api_errors },
	{ "softirq_vector_ownership", ic_test_softirq_vector_ownership },
};

const struct ic_suite ic_softirq_suite = {
	.cases = ic_softirq_cases,
	.nr = ARRAY_SIZE(ic_softirq_cases),
};
