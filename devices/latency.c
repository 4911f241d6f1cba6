// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore_edu - the device's raise->handler latency, with and without a
 * critical section held on another CPU (latency=N hold_us=H): the figure
 * `make run` shows for a real device's interrupt.
 *
 * The device is aimed at the last CPU, and a thread there raises it
 * (the raise register, 0x60) N times, one raise at a time, a random
 * 30..130 us apart: the interrupt comes back to the CPU that raised it, so
 * the raise and the handler's start are read on one CPU's clock. The
 * sample is local_clock() at the handler's start minus local_clock() just
 * before the write. Each raise falls at a random moment of the holder's
 * cycle, so the figures are those of an interrupt at a random time, not
 * of a stream at a fixed rate.
 *
 * The holder (hold_us=H > 0) runs on the first CPU: H us inside a critical
 * section, H us outside (50 % duty, busy throughout, so that CPU never
 * idles), as long as the samples last. Under biglock the section is
 * ic_cli()/ic_sti(), 2.5.27's idiom; under nolock it is
 * raw_spin_lock_irqsave() on a lock of a driver that has nothing to do
 * with the device (the seed's conversion: the lock is the driver's own).
 *
 * Besides the times, a count that does not depend on them: the holder
 * makes its sequence odd inside the section and even outside (odd after
 * taking the section, even before leaving it), and the handler reads it.
 * A raise made while the sequence was odd whose handler saw another value
 * waited for the holder to leave. Under biglock every such raise waits:
 * the interrupt spins in irq_enter() for the global lock until ic_sti().
 * Under nolock a raise waits only when its own latency outlasts what was
 * left of the section: a small share, which irqcore_holdshare.h bounds
 * from the latencies the raises had (at most about L/S of them for
 * latency L and section S; 1000 us sections and latencies of tens of us:
 * a few in a hundred). A 2.5.28 in which the holder held the interrupt
 * off all the same shows about every raise waiting, above the bound.
 *
 * Output (stable):
 *   irqcore_edu: latency: regime=R mode=M hold_us=H held_ns=N samples=N
 *     in_hold=N waited=N expected=N bound=N spins=N turns=N p50_ns=N
 *     p90_ns=N p99_ns=N max_ns=N mean_ns=N
 * (held_ns: the mean length of a section, by the guest's clock; spins and
 * turns: the dispatches whose irq_enter() spun on the global lock during
 * the run, any line's, and the turns of those spins, ic_cli_stats(): 0
 * under nolock).
 * and a KTAP document with one case, edu_latency_<mode>_<regime>_hold<H>:
 * every sample taken, each on the last CPU; with a holder, some raise made
 * inside the section, and under biglock every such raise waited for
 * ic_sti(), under nolock at most the bound of irqcore_holdshare.h did
 * (the line gives it: expected=N bound=N).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sort.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include <irqcore.h>
#include <irqcore_holdshare.h>
#include <irqcore_ktap.h>

#include "edu.h"

/*
 * struct edu_holder - the critical section on the first CPU.
 * @lock: nolock's section: a driver lock unrelated to the device. Raw,
 *	since it is held with interrupts off in a busy wait, as on RT too.
 * @seq: odd inside the section, even outside; written by the holder only.
 * @hold_us: H.
 * @big: the section is ic_cli()/ic_sti().
 * @stop: set by the sampler when it is done.
 * @holds: sections held.
 * @held_ns: their total length by local_clock(): udelay(H) under TCG is
 *	not H us of the guest's clock, and the figures say what it was.
 */
struct edu_holder {
	raw_spinlock_t lock;
	unsigned int seq;
	unsigned int hold_us;
	bool big;
	bool stop;
	unsigned long holds;
	u64 held_ns;
};

/* The section's body: the sequence odd for its length, which is timed. */
static void edu_holder_section(void *arg)
{
	struct edu_holder *h = arg;

	h->held_ns += ic_hold_busy(&h->seq, h->hold_us);
	h->holds++;
}

static int edu_holder_fn(void *arg)
{
	struct edu_holder *h = arg;

	while (!READ_ONCE(h->stop)) {
		ic_hold_section(h->big, &h->lock, edu_holder_section, h);
		udelay(h->hold_us);
		cond_resched();
	}
	return 0;
}

/**
 * struct edu_lat - one latency run.
 * @edu: the device.
 * @holder: the holder, or NULL.
 * @lat_ns: the samples.
 * @hold_ns: the latencies of the raises made inside the section.
 * @samples: how many to take.
 * @taken: how many were taken.
 * @in_hold: raises made while the holder's sequence was odd.
 * @waited: of those, the ones whose handler saw another value.
 * @elsewhere: samples whose handler ran on another CPU (must stay 0).
 * @lost: a raise whose handler never ran (the run stops there).
 */
struct edu_lat {
	struct edu_dev *edu;
	struct edu_holder *holder;
	u32 *lat_ns;
	u32 *hold_ns;
	unsigned int samples;
	unsigned int taken;
	unsigned int in_hold;
	unsigned int waited;
	unsigned int elsewhere;
	bool lost;
};

/* On the last CPU: raise, wait for the run, take the sample; N times. */
static long edu_lat_fn(void *arg)
{
	struct edu_lat *l = arg;
	struct edu_dev *edu = l->edu;
	int cpu = smp_processor_id();
	struct edu_counts c;
	unsigned int seq = 0;
	u64 t0;

	for (l->taken = 0; l->taken < l->samples; l->taken++) {
		edu_counts(edu, &c);
		/* The raise and its clock on this CPU: no migration between. */
		preempt_disable();
		/*
		 * The clock before the sequence (as bench/contention.c): a
		 * pause between them lengthens the latency instead of
		 * ending the section unseen.
		 */
		t0 = local_clock();
		if (l->holder)	/* pairs with the holder's releases */
			seq = ic_hold_seen(&l->holder->seq);
		edu_raise(edu, EDU_INT_RAISE);
		preempt_enable();
		if (!edu_wait_runs(edu, c.runs + 1)) {
			l->lost = true;
			break;
		}
		edu_counts(edu, &c);
		l->lat_ns[l->taken] = min_t(u64, c.last_ns - t0, U32_MAX);
		if (c.last_cpu != cpu)
			l->elsewhere++;
		if (seq & 1) {
			l->hold_ns[l->in_hold++] = l->lat_ns[l->taken];
			l->waited += ic_hold_waited(seq, c.last_watch);
		}
		usleep_range(30, 130);
	}
	return 0;
}

static int edu_lat_cmp(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

static u32 edu_lat_pct(const u32 *v, unsigned int n, unsigned int pct)
{
	return n ? v[min(n - 1, (n * pct) / 100)] : 0;
}

/**
 * edu_latency() - measure the device's raise->handler latency.
 * @edu: a bound device, its handler installed, nothing else using it.
 * @samples: how many raises (1..100000).
 * @hold_us: the holder's H in us; 0 for no holder.
 *
 * Prints the result line and a one-case KTAP document (see the top of
 * this file). Needs 2 CPUs for a holder; with one, the case is skipped.
 *
 * Context: process; sleeps (samples x about 100 us, more under TCG).
 * Return: 0, -ENOMEM, or 1 if the case failed.
 */
int edu_latency(struct edu_dev *edu, unsigned int samples, unsigned int hold_us)
{
	int first = cpumask_first(cpu_online_mask);
	int last = cpumask_last(cpu_online_mask);
	bool big = !strcmp(ic_regime_name(), "biglock");
	struct edu_holder holder = { .hold_us = hold_us, .big = big };
	struct edu_lat l = { .edu = edu, .samples = samples };
	struct task_struct *task = NULL;
	struct ic_hold_share share = {};
	struct ic_cli_stats cs0, cs;
	unsigned int i, bound;
	struct ic_ktap k;
	char name[64];
	u64 sum = 0, sect_ns;
	const char *skip = NULL;
	bool ok;

	snprintf(name, sizeof(name), "edu_latency_%s_%s_hold%u", edu->msi ? "msi" : "intx",
		 ic_regime_name(), hold_us);
	ic_ktap_begin(&k, 1);
	if (hold_us && first == last) {
		ic_ktap_result(&k, true, name, "a holder needs 2 CPUs");
		return 0;
	}
	l.lat_ns = kvmalloc_array(samples, sizeof(*l.lat_ns), GFP_KERNEL);
	l.hold_ns = kvmalloc_array(samples, sizeof(*l.hold_ns), GFP_KERNEL);
	if (!l.lat_ns || !l.hold_ns) {
		kvfree(l.lat_ns);
		kvfree(l.hold_ns);
		return -ENOMEM;
	}
	raw_spin_lock_init(&holder.lock);
	if (edu_aim(edu, last)) {
		ic_ktap_result(&k, false, name, NULL);
		kvfree(l.lat_ns);
		kvfree(l.hold_ns);
		return 1;
	}
	if (hold_us) {
		task = kthread_create_on_cpu(edu_holder_fn, &holder, first, "edu_holder/%u");
		if (IS_ERR(task)) {
			kvfree(l.lat_ns);
			kvfree(l.hold_ns);
			return PTR_ERR(task);
		}
		l.holder = &holder;
		edu_watch(edu, &holder.seq);
		get_task_struct(task);
		wake_up_process(task);
	}
	ic_cli_stats(&cs0);
	work_on_cpu(last, edu_lat_fn, &l);
	ic_cli_stats(&cs);
	if (task) {
		WRITE_ONCE(holder.stop, true);
		kthread_stop(task);
		put_task_struct(task);
		edu_watch(edu, NULL);
	}
	ic_set_affinity(edu->line, -1);

	/* The sections' mean length: what a raise inside one had left of it. */
	sect_ns = holder.holds ? div_u64(holder.held_ns, holder.holds) : 0;
	for (i = 0; i < l.in_hold; i++)
		ic_hold_share_add(&share, l.hold_ns[i], sect_ns);
	bound = ic_hold_share_bound(&share);
	sort(l.lat_ns, l.taken, sizeof(*l.lat_ns), edu_lat_cmp, NULL);
	for (i = 0; i < l.taken; i++)
		sum += l.lat_ns[i];
	pr_info("latency: regime=%s mode=%s hold_us=%u held_ns=%llu samples=%u in_hold=%u waited=%u expected=%u bound=%u spins=%lu turns=%lu p50_ns=%u p90_ns=%u p99_ns=%u max_ns=%u mean_ns=%llu\n",
		ic_regime_name(), edu->msi ? "msi" : "intx", hold_us, sect_ns, l.taken,
		l.in_hold, l.waited, ic_hold_share_expected(&share), bound,
		cs.enter_spins - cs0.enter_spins, cs.enter_turns - cs0.enter_turns,
		edu_lat_pct(l.lat_ns, l.taken, 50), edu_lat_pct(l.lat_ns, l.taken, 90),
		edu_lat_pct(l.lat_ns, l.taken, 99), l.taken ? l.lat_ns[l.taken - 1] : 0,
		l.taken ? div_u64(sum, l.taken) : 0);
	kvfree(l.lat_ns);
	kvfree(l.hold_ns);

	ok = !l.lost && l.taken == samples && !l.elsewhere;
	if (l.lost)
		ic_ktap_diag("raise %u never ran the handler", l.taken);
	if (l.elsewhere)
		ic_ktap_diag("%u samples ran on a CPU other than CPU%d", l.elsewhere, last);
	if (hold_us) {
		/* The count that does not depend on time: see the top of this file. */
		if (!l.in_hold)
			ic_ktap_diag("no raise fell inside the holder's section");
		else if (big && l.waited != l.in_hold)
			ic_ktap_diag("biglock: %u of %u raises inside cli() ran before sti()",
				     l.in_hold - l.waited, l.in_hold);
		else if (!big)
			ic_ktap_diag("nolock: %u of %u in it waited, %u allowed (expected %u)%s",
				     l.waited, l.in_hold, bound, ic_hold_share_expected(&share),
				     l.waited > bound ? ": they waited for the holder" :
				     bound >= l.in_hold ? "; too few to tell" : "");
		ok = ok && l.in_hold && (big ? l.waited == l.in_hold : l.waited <= bound);
		if (ok && !big)
			skip = ic_hold_share_skip(bound, l.in_hold);
	}
	ic_ktap_result(&k, ok, name, skip);
	return ok ? 0 : 1;
}
