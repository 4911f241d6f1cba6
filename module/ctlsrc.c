// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore - the control plane's source lines: a line of irqcore with a
 * handler of the control plane, raised by a timer and by requests, and the
 * raise -> handler latency of every instance, as a histogram per CPU.
 *
 * The latency is measured without touching the core: the raise stamps the
 * source, the handler reads the stamp.
 *
 *   raise:    last_ns = now; first_ns = now if it was 0; ic_raise(line)
 *   handler:  t = xchg(first_ns, 0), or last_ns if that was 0;
 *             sample = now - t
 *
 * One handler run takes one sample: the oldest raise it finds waiting
 * (instances merged into a run count once, as the core counts them), or,
 * when an earlier run took that stamp while this run's raise was on its
 * way (the raise stamped, then the run started, then the raise reached
 * the controller), the latest raise, which is never earlier than the one
 * this run serves. So a line's sample count equals its handler runs. On a
 * shared line a partner's raise may start a run: there only a stamp of
 * this source's own is a sample.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/smp.h>

#include <irqcore.h>

#include "ctl.h"

/* The timer raises of every descriptor's sources: IC_CTL_MAX_TOTAL_HZ at most. */
static atomic_t ic_ctl_total_hz = ATOMIC_INIT(0);

/**
 * ic_ctl_src_raise() - raise a source's line, stamped.
 * @src: the source.
 *
 * Context: any (the timer's hardirq, a request, the holder's section).
 */
void ic_ctl_src_raise(struct ic_ctl_src *src)
{
	u64 now = ktime_get_ns();

	atomic64_set(&src->last_ns, now);
	atomic64_cmpxchg(&src->first_ns, 0, now);
	ic_raise(src->line);
}

static enum hrtimer_restart ic_ctl_src_tick(struct hrtimer *t)
{
	struct ic_ctl_src *src = container_of(t, struct ic_ctl_src, timer);

	ic_ctl_src_raise(src);
	hrtimer_forward_now(t, src->period);
	return HRTIMER_RESTART;
}

/* The bucket of a sample: 0 under 1 us, then one per power of two. */
static unsigned int ic_ctl_bucket(u64 ns)
{
	u64 us = div_u64(ns, NSEC_PER_USEC);

	return min_t(unsigned int, us ? ilog2(us) + 1 : 0, IC_HIST_BUCKETS - 1);
}

/* A sample passed the threshold: the first one freezes and is recorded. */
static void ic_ctl_stop(struct ic_ctl *ctl, struct ic_ctl_src *src, unsigned int cpu,
			u64 lat, bool held)
{
	struct ic_cli_stats cs;
	unsigned long flags;
	bool first = false;

	ic_cli_stats(&cs);
	raw_spin_lock_irqsave(&ctl->stat_lock, flags);
	if (!ctl->frozen) {
		WRITE_ONCE(ctl->frozen, true);
		first = true;
		ctl->stop = (struct ic_ctl_stopped) {
			.stopped = 1,
			.line = src->line,
			.cpu = cpu,
			.latency_ns = lat,
			.holder_in_section = held,
			.cli_taken = cs.cli_taken,
			.enter_spins = cs.enter_spins,
		};
		if (READ_ONCE(ctl->thresh_flags) & IC_THRESH_TRACING_OFF) {
			/* The trace stops here: what led up to it stays readable. */
			tracing_off();
			ctl->stop.tracing_off = 1;
		}
	}
	raw_spin_unlock_irqrestore(&ctl->stat_lock, flags);
	if (first)
		pr_info("ctl: stopped: line %u cpu %u latency %llu ns over the threshold\n",
			src->line, cpu, lat);
}

/* A sample of an instance that the holder raised inside its section. */
static void ic_ctl_held_sample(struct ic_ctl *ctl, u64 lat)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&ctl->stat_lock, flags);
	ctl->held_min_ns = min(ctl->held_min_ns, lat);
	ctl->held_max_ns = max(ctl->held_max_ns, lat);
	raw_spin_unlock_irqrestore(&ctl->stat_lock, flags);
}

static void ic_ctl_handler(unsigned int irq, void *dev_id)
{
	struct ic_ctl_src *src = dev_id;
	struct ic_ctl *ctl = src->ctl;
	unsigned int cpu = smp_processor_id();
	u64 now = ktime_get_ns();
	u64 t = atomic64_xchg(&src->first_ns, 0);
	u64 held = atomic64_xchg(&src->held_ns, 0);
	bool in_hold = atomic_read(&ctl->in_section) && READ_ONCE(ctl->hold_cpu) != (int)cpu;
	struct ic_ctl_cpu_hist *h = &src->hist[cpu];
	u64 thresh = READ_ONCE(ctl->thresh_ns);
	unsigned long flags;
	u64 lat = 0;

	if (!t && !(src->flags & (IC_SRC_SHARED | IC_SRC_JOIN)))
		t = atomic64_read(&src->last_ns);
	if (t)
		lat = now > t ? now - t : 0;
	if (held)
		ic_ctl_held_sample(ctl, now > held ? now - held : 0);
	if (in_hold)
		atomic64_inc(&ctl->in_hold);

	raw_spin_lock_irqsave(&src->hist_lock, flags);
	h->handled++;
	h->in_hold += in_hold;
	if (t && !READ_ONCE(ctl->frozen)) {
		h->count++;
		h->sum_ns += lat;
		h->min_ns = min(h->min_ns, lat);
		h->max_ns = max(h->max_ns, lat);
		h->buckets[ic_ctl_bucket(lat)]++;
	}
	raw_spin_unlock_irqrestore(&src->hist_lock, flags);

	if (t && thresh && lat > thresh)
		ic_ctl_stop(ctl, src, cpu, lat, held);

	if (src->flags & IC_SRC_DRVLOCK) {
		raw_spin_lock_irqsave(&ctl->drv_lock, flags);
		udelay(src->busy_us);
		raw_spin_unlock_irqrestore(&ctl->drv_lock, flags);
	} else if (src->busy_us) {
		udelay(src->busy_us);
	}
}

static void ic_ctl_hist_clear(struct ic_ctl_src *src)
{
	unsigned int cpu;

	memset(src->hist, 0, nr_cpu_ids * sizeof(*src->hist));
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		src->hist[cpu].min_ns = U64_MAX;
}

/* Check a create request; 0, or the refusal. Context: @ctl->lock held. */
static int ic_ctl_check_source(struct ic_ctl *ctl, const struct ic_ctl_source *req)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(req->reserved); i++)
		if (req->reserved[i])
			return ic_ctl_refuse(ctl, -EINVAL, "create: reserved[%u] must be 0", i);
	if (req->flags & ~IC_SRC_FLAGS)
		return ic_ctl_refuse(ctl, -EINVAL, "create: unknown flags 0x%x (valid: 0x%x)",
				     req->flags & ~IC_SRC_FLAGS, IC_SRC_FLAGS);
	if ((req->flags & IC_SRC_SHARED) && (req->flags & IC_SRC_JOIN))
		return ic_ctl_refuse(ctl, -EINVAL, "create: shared and join exclude each other");
	if (req->flags & IC_SRC_JOIN) {
		if (req->line < 1 || req->line >= ic_nr_irqs())
			return ic_ctl_refuse(ctl, -EINVAL, "create: join line %u: lines are 1..%u",
					     req->line, ic_nr_irqs() - 1);
		if (req->cpu != -1)
			return ic_ctl_refuse(ctl, -EINVAL,
					     "create: a joined line keeps its affinity: cpu must be -1");
		if (__ic_ctl_find(ctl, req->line))
			return ic_ctl_refuse(ctl, -EEXIST,
					     "create: this descriptor has line %u already",
					     req->line);
	} else if (req->line) {
		return ic_ctl_refuse(ctl, -EINVAL, "create: line must be 0 unless joining");
	}
	if (req->cpu != -1 && (req->cpu < 0 || req->cpu >= nr_cpu_ids || !cpu_online(req->cpu)))
		return ic_ctl_refuse(ctl, -EINVAL, "create: cpu %d is not online (-1: round-robin)",
				     req->cpu);
	if (req->rate_hz > IC_CTL_MAX_RATE_HZ)
		return ic_ctl_refuse(ctl, -EINVAL, "create: rate %u Hz: 0..%u", req->rate_hz,
				     IC_CTL_MAX_RATE_HZ);
	if (req->busy_us > IC_CTL_MAX_BUSY_US)
		return ic_ctl_refuse(ctl, -EINVAL, "create: busy %u us: 0..%u", req->busy_us,
				     IC_CTL_MAX_BUSY_US);
	/* rate x busy is the share of a CPU the handler takes. */
	if ((u64)req->rate_hz * req->busy_us * 100 > (u64)USEC_PER_SEC * IC_CTL_MAX_DUTY_PCT)
		return ic_ctl_refuse(ctl, -EINVAL,
				     "create: rate %u Hz x busy %u us is over %u%% of a CPU",
				     req->rate_hz, req->busy_us, IC_CTL_MAX_DUTY_PCT);
	return 0;
}

/* Request the handler: on the joined line, or on the highest free one. */
static int ic_ctl_request(struct ic_ctl *ctl, struct ic_ctl_src *src,
			  const struct ic_ctl_source *req)
{
	unsigned long flags = 0;
	unsigned int line;
	int err;

	if (req->flags & IC_SRC_SA_INTERRUPT)
		flags |= IC_SA_INTERRUPT;
	if (req->flags & (IC_SRC_SHARED | IC_SRC_JOIN))
		flags |= IC_SA_SHIRQ;
	if (req->flags & IC_SRC_JOIN) {
		src->line = req->line;
		err = ic_request_irq(req->line, ic_ctl_handler, flags, src->name, src);
		if (err == -EBUSY)
			return ic_ctl_refuse(ctl, err, "create: line %u is not a shared line",
					     req->line);
		if (err)
			return ic_ctl_refuse(ctl, err, "create: request_irq(%u): %d", req->line,
					     err);
		return 0;
	}
	/* Line 0 is the virtual timer; free lines are taken from the top. */
	for (line = ic_nr_irqs() - 1; line >= 1; line--) {
		src->line = line;
		err = ic_request_irq(line, ic_ctl_handler, flags, src->name, src);
		if (!err)
			return 0;
		if (err != -EBUSY)
			return ic_ctl_refuse(ctl, err, "create: request_irq(%u): %d", line, err);
	}
	return ic_ctl_refuse(ctl, -ENOSPC, "create: every line of the controller is taken");
}

/**
 * __ic_ctl_create() - make a source line for a descriptor.
 * @ctl: the descriptor's context.
 * @req: the request; @req->line is set to the line on success.
 *
 * Context: process, @ctl->lock held; sleeps.
 * Return: 0, or a negative errno with the reason set and nothing made.
 */
int __ic_ctl_create(struct ic_ctl *ctl, struct ic_ctl_source *req)
{
	struct ic_ctl_src *src;
	unsigned int slot;
	int err;

	lockdep_assert_held(&ctl->lock);
	err = ic_ctl_check_source(ctl, req);
	if (err)
		return err;
	for (slot = 0; slot < IC_CTL_MAX_SOURCES && ctl->src[slot]; slot++)
		;
	if (slot == IC_CTL_MAX_SOURCES)
		return ic_ctl_refuse(ctl, -ENOSPC, "create: %u source lines per descriptor at most",
				     IC_CTL_MAX_SOURCES);

	if (atomic_add_return(req->rate_hz, &ic_ctl_total_hz) > IC_CTL_MAX_TOTAL_HZ) {
		atomic_sub(req->rate_hz, &ic_ctl_total_hz);
		return ic_ctl_refuse(ctl, -EBUSY,
				     "create: rate %u Hz: the sources of every descriptor raise %d Hz of %u already",
				     req->rate_hz, atomic_read(&ic_ctl_total_hz),
				     IC_CTL_MAX_TOTAL_HZ);
	}
	err = -ENOMEM;
	src = kzalloc(sizeof(*src), GFP_KERNEL);
	if (!src)
		goto out_rate;
	src->hist = kcalloc(nr_cpu_ids, sizeof(*src->hist), GFP_KERNEL);
	if (!src->hist)
		goto out_src;
	src->ctl = ctl;
	src->flags = req->flags;
	src->cpu = req->cpu;
	src->rate_hz = req->rate_hz;
	src->busy_us = req->busy_us;
	raw_spin_lock_init(&src->hist_lock);
	ic_ctl_hist_clear(src);
	snprintf(src->name, sizeof(src->name), "irqctl-%d", task_tgid_nr(current));
	hrtimer_init(&src->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	src->timer.function = ic_ctl_src_tick;

	err = ic_ctl_request(ctl, src, req);
	if (err)
		goto out_free;
	if (!(req->flags & IC_SRC_JOIN)) {
		err = ic_set_affinity(src->line, req->cpu);
		if (err) {
			ic_ctl_refuse(ctl, err, "create: affinity of line %u to cpu %d: %d",
				      src->line, req->cpu, err);
			goto out_irq;
		}
	}
	if (src->rate_hz) {
		src->period = ns_to_ktime(div_u64(NSEC_PER_SEC, src->rate_hz));
		hrtimer_start(&src->timer, src->period, HRTIMER_MODE_REL_HARD);
	}
	ctl->src[slot] = src;
	req->line = src->line;
	return 0;

out_irq:
	ic_free_irq(src->line, src);
out_free:
	kfree(src->hist);
out_src:
	kfree(src);
out_rate:
	atomic_sub(req->rate_hz, &ic_ctl_total_hz);
	if (err == -ENOMEM)
		ic_ctl_refuse(ctl, err, "create: out of memory");
	return err;
}

/**
 * __ic_ctl_delete() - tear a source line down.
 * @ctl: the descriptor's context.
 * @src: one of its sources.
 *
 * The timer stops before the handler goes, and ic_free_irq() waits for a
 * handler still running: after this nothing of @src runs.
 *
 * Context: process, @ctl->lock held; sleeps.
 * Return: 0, or -EBUSY (reason set) while the holder raises the line.
 */
int __ic_ctl_delete(struct ic_ctl *ctl, struct ic_ctl_src *src)
{
	unsigned int slot;

	lockdep_assert_held(&ctl->lock);
	if (ctl->holder && ctl->hold_src == src)
		return ic_ctl_refuse(ctl, -EBUSY,
				     "delete: the holder raises line %u: stop it first", src->line);
	hrtimer_cancel(&src->timer);
	ic_free_irq(src->line, src);
	for (slot = 0; slot < IC_CTL_MAX_SOURCES; slot++)
		if (ctl->src[slot] == src)
			ctl->src[slot] = NULL;
	atomic_sub(src->rate_hz, &ic_ctl_total_hz);
	kfree(src->hist);
	kfree(src);
	return 0;
}

/**
 * __ic_ctl_fire() - raise a source line @count times, back to back.
 * @ctl: the descriptor's context.
 * @src: one of its sources.
 * @count: 1..IC_CTL_MAX_FIRE (checked by the caller).
 *
 * Context: process, @ctl->lock held.
 * Return: 0, or -EINTR if a fatal signal came first (some raised).
 */
int __ic_ctl_fire(struct ic_ctl *ctl, struct ic_ctl_src *src, u32 count)
{
	u32 i;

	lockdep_assert_held(&ctl->lock);
	for (i = 0; i < count; i++) {
		ic_ctl_src_raise(src);
		if ((i & 255) == 255) {
			if (fatal_signal_pending(current))
				return ic_ctl_refuse(ctl, -EINTR, "fire: killed after %u of %u",
						     i + 1, count);
			cond_resched();
		}
	}
	return 0;
}

/**
 * __ic_ctl_hist() - copy out one CPU x line histogram.
 * @src: the source.
 * @cpu: a CPU number below nr_cpu_ids.
 * @out: filled in (its in-fields are left as they are).
 *
 * Context: process, the descriptor's lock held.
 */
void __ic_ctl_hist(struct ic_ctl_src *src, unsigned int cpu, struct ic_ctl_hist *out)
{
	struct ic_ctl_cpu_hist *h = &src->hist[cpu];
	unsigned long flags;

	lockdep_assert_held(&src->ctl->lock);
	raw_spin_lock_irqsave(&src->hist_lock, flags);
	out->count = h->count;
	out->min_ns = h->min_ns;
	out->max_ns = h->max_ns;
	out->sum_ns = h->sum_ns;
	memcpy(out->buckets, h->buckets, sizeof(out->buckets));
	raw_spin_unlock_irqrestore(&src->hist_lock, flags);
	out->frozen = READ_ONCE(src->ctl->frozen);
}

/**
 * __ic_ctl_cpu_stats() - a CPU's share of a descriptor's sources.
 * @ctl: the descriptor's context.
 * @cpu: a CPU number below nr_cpu_ids.
 * @out: its out-fields are filled in.
 *
 * Context: process, @ctl->lock held.
 */
void __ic_ctl_cpu_stats(struct ic_ctl *ctl, unsigned int cpu, struct ic_ctl_cpu_stats *out)
{
	unsigned long flags;
	unsigned int i;

	lockdep_assert_held(&ctl->lock);
	out->online = cpu_online(cpu);
	for (i = 0; i < IC_CTL_MAX_SOURCES; i++) {
		struct ic_ctl_src *src = ctl->src[i];
		struct ic_ctl_cpu_hist *h;

		if (!src)
			continue;
		h = &src->hist[cpu];
		raw_spin_lock_irqsave(&src->hist_lock, flags);
		out->handled += h->handled;
		out->in_hold += h->in_hold;
		out->samples += h->count;
		out->max_ns = max(out->max_ns, h->max_ns);
		raw_spin_unlock_irqrestore(&src->hist_lock, flags);
		out->dispatched += ic_kstat_irqs_cpu(src->line, cpu);
	}
}

/**
 * __ic_ctl_hist_reset() - empty a source's histograms and counts.
 * @src: the source.
 *
 * Context: process, the descriptor's lock held.
 */
void __ic_ctl_hist_reset(struct ic_ctl_src *src)
{
	unsigned long flags;

	lockdep_assert_held(&src->ctl->lock);
	raw_spin_lock_irqsave(&src->hist_lock, flags);
	ic_ctl_hist_clear(src);
	raw_spin_unlock_irqrestore(&src->hist_lock, flags);
}

/**
 * ic_ctl_unfreeze() - forget a stop: the histograms take samples again.
 * @ctl: the descriptor's context.
 *
 * Context: process.
 */
void ic_ctl_unfreeze(struct ic_ctl *ctl)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&ctl->stat_lock, flags);
	WRITE_ONCE(ctl->frozen, false);
	memset(&ctl->stop, 0, sizeof(ctl->stop));
	ctl->held_min_ns = U64_MAX;
	ctl->held_max_ns = 0;
	raw_spin_unlock_irqrestore(&ctl->stat_lock, flags);
}
