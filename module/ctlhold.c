// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore - the control plane's holder: a thread bound to one CPU that
 * takes a critical section for hold_us every period_us, the way a 2002
 * driver held cli() or its own lock.
 *
 * Under regime=biglock cli() is the global IRQ lock: while it is held no
 * CPU runs a handler, so an instance raised inside the section waits at
 * least until the holder's sti(). Under regime=nolock cli() masks the
 * holder's CPU only and a driver lock keeps out only the handlers that
 * take it: a line on another CPU runs through the section. The holder can
 * raise one of its descriptor's lines just after it takes each section, so
 * that both facts show as counts (docs/irqctl.md):
 *
 *   holder (CPU h)                  handler (CPU t != h)
 *   take section                    .
 *   in_section = 1                  .
 *   held_ns = now; raise line  ---> runs when the core lets it:
 *   spin hold_us                    in_hold += in_section
 *   in_section = 0                  latency = now - held_ns
 *   release section
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/sched.h>

#include <irqcore.h>

#include "ctl.h"

/* Holders running, over every descriptor: IC_CTL_MAX_HOLDERS at most. */
static atomic_t ic_ctl_holders = ATOMIC_INIT(0);

/* Spin for @ns with the section held (udelay() tops out at a few ms). */
static void ic_ctl_spin_ns(u64 ns)
{
	u64 start = ktime_get_ns();

	while (ktime_get_ns() - start < ns)
		cpu_relax();
}

/* Inside a section: raise the line, spin, account. */
static void ic_ctl_in_section(void *arg)
{
	struct ic_ctl *ctl = arg;
	struct ic_ctl_src *src = ctl->hold_src;
	u64 hold = (u64)ctl->hold.hold_us * NSEC_PER_USEC;
	u64 start = ktime_get_ns();

	atomic_set(&ctl->in_section, 1);
	if (src) {
		atomic64_set(&src->held_ns, ktime_get_ns());
		ic_ctl_src_raise(src);
		atomic64_inc(&ctl->held_fired);
	}
	ic_ctl_spin_ns(hold);
	/* Cleared before the release, so no handler after it counts as in_hold. */
	atomic_set(&ctl->in_section, 0);
	atomic64_add(ktime_get_ns() - start, &ctl->hold_ns);
	atomic64_inc(&ctl->holds);
}

static int ic_ctl_hold_fn(void *data)
{
	struct ic_ctl *ctl = data;
	u64 period = (u64)ctl->hold.period_us * NSEC_PER_USEC;

	while (!kthread_should_stop()) {
		u64 start = ktime_get_ns();
		u64 used;

		/* Under cli() or the driver lock. */
		ic_hold_section(ctl->hold.mode == IC_HOLD_CLI, &ctl->drv_lock,
				ic_ctl_in_section, ctl);
		used = ktime_get_ns() - start;
		if (used < period) {
			u64 rest = div_u64(period - used, NSEC_PER_USEC);

			usleep_range(rest, rest + 50);
		} else {
			cond_resched();
		}
	}
	return 0;
}

/* Check a holder request; 0, or the refusal. Context: @ctl->lock held. */
static int ic_ctl_check_holder(struct ic_ctl *ctl, const struct ic_ctl_holder *req)
{
	if (req->flags)
		return ic_ctl_refuse(ctl, -EINVAL, "hold: flags must be 0");
	if (req->cpu < 0 || req->cpu >= nr_cpu_ids || !cpu_online(req->cpu))
		return ic_ctl_refuse(ctl, -EINVAL, "hold: cpu %d is not online", req->cpu);
	if (req->hold_us < 1 || req->hold_us > IC_CTL_MAX_HOLD_US)
		return ic_ctl_refuse(ctl, -EINVAL, "hold: hold %u us: 1..%u", req->hold_us,
				     IC_CTL_MAX_HOLD_US);
	if (req->period_us > IC_CTL_MAX_PERIOD_US ||
	    (u64)req->hold_us * 100 > (u64)req->period_us * IC_CTL_MAX_DUTY_PCT)
		return ic_ctl_refuse(ctl, -EINVAL,
				     "hold: period %u us: at least %u (hold at most %u%% of it), at most %u",
				     req->period_us, req->hold_us * 100 / IC_CTL_MAX_DUTY_PCT,
				     IC_CTL_MAX_DUTY_PCT, IC_CTL_MAX_PERIOD_US);
	if (req->mode > IC_HOLD_LOCK)
		return ic_ctl_refuse(ctl, -EINVAL, "hold: mode %u: 0 auto, 1 cli, 2 lock",
				     req->mode);
	if (req->fire_line && !__ic_ctl_find(ctl, req->fire_line))
		return ic_ctl_refuse(ctl, -ENOENT, "hold: fire line %u is not this descriptor's",
				     req->fire_line);
	if (ctl->holder)
		return ic_ctl_refuse(ctl, -EBUSY, "hold: this descriptor's holder runs already");
	return 0;
}

/**
 * __ic_ctl_hold_start() - start a descriptor's holder.
 * @ctl: the descriptor's context.
 * @req: the request.
 *
 * Context: process, @ctl->lock held; sleeps.
 * Return: 0, or a negative errno with the reason set and nothing started.
 */
int __ic_ctl_hold_start(struct ic_ctl *ctl, const struct ic_ctl_holder *req)
{
	struct task_struct *t;
	int err;

	lockdep_assert_held(&ctl->lock);
	err = ic_ctl_check_holder(ctl, req);
	if (err)
		return err;
	if (atomic_inc_return(&ic_ctl_holders) > IC_CTL_MAX_HOLDERS) {
		atomic_dec(&ic_ctl_holders);
		return ic_ctl_refuse(ctl, -EBUSY,
				     "hold: %u holder(s) at most, over every descriptor",
				     IC_CTL_MAX_HOLDERS);
	}
	ctl->hold = *req;
	if (req->mode == IC_HOLD_AUTO)
		ctl->hold.mode = strcmp(ic_regime_name(), "biglock") ? IC_HOLD_LOCK : IC_HOLD_CLI;
	ctl->hold_src = req->fire_line ? __ic_ctl_find(ctl, req->fire_line) : NULL;
	err = ic_ctl_budget_hold(ctl);
	if (err)
		goto out_holders;
	t = kthread_create(ic_ctl_hold_fn, ctl, "irqctl_hold/%d", req->cpu);
	if (IS_ERR(t)) {
		err = ic_ctl_refuse(ctl, PTR_ERR(t), "hold: no thread: %ld", PTR_ERR(t));
		goto out_budget;
	}
	/*
	 * The check above was a snapshot: the CPU may have gone since (the
	 * thread's creation sleeps). Bound and woken under the hotplug lock,
	 * the thread starts on a CPU that is online; bound to one that is
	 * not, it would be run elsewhere with its affinity broken.
	 */
	cpus_read_lock();
	if (!cpu_online(req->cpu)) {
		cpus_read_unlock();
		/* Never woken: its function never runs. */
		kthread_stop(t);
		err = ic_ctl_refuse(ctl, -EINVAL, "hold: cpu %d went offline", req->cpu);
		goto out_budget;
	}
	kthread_bind(t, req->cpu);
	WRITE_ONCE(ctl->hold_cpu, req->cpu);
	ctl->holder = t;
	wake_up_process(t);
	cpus_read_unlock();
	return 0;

out_budget:
	ic_ctl_budget_unhold(ctl);
out_holders:
	ctl->hold_src = NULL;
	atomic_dec(&ic_ctl_holders);
	return err;
}

/**
 * __ic_ctl_hold_stop() - stop a descriptor's holder, if it runs.
 * @ctl: the descriptor's context.
 *
 * Returns once the holder is out of its last section.
 *
 * Context: process, @ctl->lock held; sleeps.
 */
void __ic_ctl_hold_stop(struct ic_ctl *ctl)
{
	lockdep_assert_held(&ctl->lock);
	if (!ctl->holder)
		return;
	kthread_stop(ctl->holder);
	WRITE_ONCE(ctl->hold_cpu, -1);
	ctl->holder = NULL;
	ic_ctl_budget_unhold(ctl);
	ctl->hold_src = NULL;
	atomic_dec(&ic_ctl_holders);
}

/**
 * ic_ctl_lock_stats() - the global lock's counters and the holder's.
 * @ctl: the descriptor's context.
 * @out: filled in.
 *
 * Context: process, @ctl->lock held.
 */
void ic_ctl_lock_stats(struct ic_ctl *ctl, struct ic_ctl_lock_stats *out)
{
	struct ic_cli_stats cs;
	unsigned long flags;

	lockdep_assert_held(&ctl->lock);
	ic_cli_stats(&cs);
	out->cli_taken = cs.cli_taken;
	out->cli_waits = cs.cli_waits;
	out->enter_spins = cs.enter_spins;
	out->stalls = cs.stalls;
	out->self_deadlocks = cs.self_deadlocks;
	out->holds = atomic64_read(&ctl->holds);
	out->hold_ns = atomic64_read(&ctl->hold_ns);
	out->held_fired = atomic64_read(&ctl->held_fired);
	out->in_hold = atomic64_read(&ctl->in_hold);
	raw_spin_lock_irqsave(&ctl->stat_lock, flags);
	out->held_min_ns = ctl->held_min_ns;
	out->held_max_ns = ctl->held_max_ns;
	raw_spin_unlock_irqrestore(&ctl->stat_lock, flags);
	out->holding = !!ctl->holder;
	out->mode = ctl->holder ? ctl->hold.mode : 0;
}
