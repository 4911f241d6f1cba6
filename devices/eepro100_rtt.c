// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore_eepro100 - a frame's round trip, with and without a critical
 * section held on another CPU (rtt=N): what the big IRQ lock did to a
 * NIC's interrupts.
 *
 * Both chips' lines are aimed at the last CPU, and a thread there sends a
 * PING from A to B, N times, each a random 30..130 + 2H us after the last
 * answer: a wait that spans the holder's whole cycle (2H), so that a PING
 * falls at a random moment of it and not just after the holder left (the
 * answer to a PING that waited comes right after ic_sti()). B's handler answers
 * with a PONG from the handler itself (the chip transmits it at once); A's
 * handler notes the time it found it. The sample is that time minus the
 * time just before the PING's doorbell, both on the last CPU's clock: two
 * interrupts, two handlers and two frames through QEMU's hub.
 *
 * The holder (H = 100 and 1000 us) runs on the first CPU: H us inside a
 * critical section, H us outside (50 % duty, busy throughout). Under
 * biglock the section is ic_cli()/ic_sti(), 2.5.27's idiom; under nolock
 * it is raw_spin_lock_irqsave() on the lock of a driver that has nothing
 * to do with the NIC (the seed's conversion: each driver its own lock).
 *
 * A count that does not depend on timing: the holder's sequence is odd
 * inside the section (made odd after entering, even before leaving), and
 * B's handler reads it when it answers. A PING sent while it was odd whose
 * answer read another value waited for the holder to leave. Under biglock
 * every such PING waits: B's interrupt spins in irq_enter() for the global
 * lock until ic_sti(), and the sequence moved before that. Under nolock
 * nothing makes it wait, and a PING's answer comes after the section only
 * when its own leg (the doorbell to B's handler, timed by B's handler on
 * the same CPU) outlasts what was left of the section: a small share for
 * a section much longer than the leg, which irqcore_holdshare.h bounds
 * from the legs the PINGs had. A 2.5.28 in which the unrelated holder held the
 * NIC's interrupt off all the same shows about every PING waiting, above
 * the bound.
 *
 * Output (stable), one line per holder:
 *   irqcore_eepro100: rtt: regime=R hold_us=H held_ns=N samples=N in_hold=N
 *     waited=N expected=N bound=N p50_ns=N p99_ns=N max_ns=N
 * (held_ns: the sections' mean length by the guest's clock; expected and
 * bound: irqcore_holdshare.h's) and a KTAP document, one case per holder,
 * eepro100_rtt_<regime>_hold<H>: every PING answered; with a holder some
 * PINGs sent inside the section, under biglock every one of them waited,
 * under nolock at most the bound.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/kthread.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include <irqcore.h>
#include <irqcore_holdshare.h>
#include <irqcore_ktap.h>

#include "eepro100.h"

#define EE_PONG_WAIT_NS	(200 * NSEC_PER_MSEC)

static const unsigned int ee_holds[] = { 0, 100, 1000 };

/*
 * struct ee_holder - the critical section on the first CPU.
 * @lock: nolock's section: an unrelated driver's lock.
 * @seq: odd inside the section; written by the holder only.
 * @hold_us: H.
 * @big: the section is ic_cli()/ic_sti().
 * @stop: set by the sampler when it is done.
 * @holds: sections held.
 * @held_ns: their total length by local_clock() (udelay(H) under TCG is
 *	not H us of the guest's clock).
 */
struct ee_holder {
	raw_spinlock_t lock;
	unsigned int seq;
	unsigned int hold_us;
	bool big;
	bool stop;
	unsigned long holds;
	u64 held_ns;
};

/* Inside the section: the sequence odd for its length. */
static void ee_holder_section(void *arg)
{
	struct ee_holder *h = arg;
	u64 t0;

	WRITE_ONCE(h->seq, h->seq + 1);
	t0 = local_clock();
	udelay(h->hold_us);
	h->held_ns += local_clock() - t0;
	h->holds++;
	WRITE_ONCE(h->seq, h->seq + 1);
}

static int ee_holder_fn(void *arg)
{
	struct ee_holder *h = arg;

	while (!READ_ONCE(h->stop)) {
		ic_hold_section(h->big, &h->lock, ee_holder_section, h);
		udelay(h->hold_us);
		cond_resched();
	}
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

/* One measurement: the sampler's side, on the last CPU. */
struct ee_rtt_run {
	struct ee_dev *a, *b;
	struct ee_holder *h;
	u64 *ns;
	u64 *leg_ns;
	unsigned int samples;
	unsigned int taken;
	unsigned int in_hold;
	unsigned int waited;
	int wrong_cpu;
	int wrong_at;
};

static long ee_rtt_fn(void *arg)
{
	struct ee_rtt_run *r = arg;
	unsigned int i, seq;
	u64 t0, end;

	for (i = 0; i < r->samples; i++) {
		udelay(30 + get_random_u32() % (101 + 2 * r->h->hold_us));
		seq = READ_ONCE(r->h->seq);
		t0 = local_clock();
		if (ee_send(r->a, r->b->mac, EE_KIND_PING, i, ETH_HLEN + sizeof(struct ee_payload)))
			break;
		end = t0 + EE_PONG_WAIT_NS;
		while (READ_ONCE(r->a->pong_seq) != i && local_clock() < end)
			cpu_relax();
		if (READ_ONCE(r->a->pong_seq) != i)
			break;
		smp_rmb();	/* the time the handler wrote before the sequence */
		r->ns[r->taken++] = READ_ONCE(r->a->pong_ns) - t0;
		if (seq & 1) {
			/* B's handler ran on this CPU: its clock is t0's. */
			r->leg_ns[r->in_hold++] = READ_ONCE(r->b->ping_ns) - t0;
			if (READ_ONCE(r->b->ping_holder_seq) != seq)
				r->waited++;
		}
		if (r->wrong_cpu < 0 &&
		    (READ_ONCE(r->a->stats.last_cpu) != smp_processor_id() ||
		     READ_ONCE(r->b->stats.last_cpu) != smp_processor_id())) {
			r->wrong_cpu = READ_ONCE(r->a->stats.last_cpu) != smp_processor_id() ?
				       READ_ONCE(r->a->stats.last_cpu) :
				       READ_ONCE(r->b->stats.last_cpu);
			r->wrong_at = i;
		}
	}
	return 0;
}

static int ee_cmp_u64(const void *x, const void *y)
{
	u64 a = *(const u64 *)x, b = *(const u64 *)y;

	return a < b ? -1 : a > b;
}

static bool ee_rtt_one(struct ee_dev *a, struct ee_dev *b, unsigned int samples,
		       unsigned int hold_us, u64 *ns, u64 *leg_ns, struct ic_ktap *k)
{
	int first = cpumask_first(cpu_online_mask), last = cpumask_last(cpu_online_mask);
	bool biglock = !strcmp(ic_regime_name(), "biglock");
	struct ee_holder h = { .hold_us = hold_us, .big = biglock };
	struct ee_rtt_run r = { .a = a, .b = b, .h = &h, .ns = ns, .leg_ns = leg_ns,
				.samples = samples, .wrong_cpu = -1 };
	struct ic_hold_share share = {};
	struct task_struct *t = NULL;
	unsigned int i, bound;
	char name[64];
	u64 sect_ns;
	const char *skip = NULL;
	bool ok;

	snprintf(name, sizeof(name), "eepro100_rtt_%s_hold%u", ic_regime_name(), hold_us);
	if (hold_us && first == last) {
		ic_ktap_result(k, true, name, "a holder needs a second CPU");
		return true;
	}
	raw_spin_lock_init(&h.lock);
	ee_set_echo(b, true, &h.seq);
	WRITE_ONCE(a->pong_seq, U32_MAX);
	if (hold_us) {
		t = kthread_create(ee_holder_fn, &h, "ee_holder");
		if (IS_ERR(t)) {
			ee_set_echo(b, false, NULL);
			ic_ktap_result(k, false, name, NULL);
			return false;
		}
		kthread_bind(t, first);
		wake_up_process(t);
	}
	work_on_cpu(last, ee_rtt_fn, &r);
	if (t) {
		WRITE_ONCE(h.stop, true);
		kthread_stop(t);
	}
	ee_set_echo(b, false, NULL);
	/* The sections' mean length: what a PING inside one had left of it. */
	sect_ns = h.holds ? div_u64(h.held_ns, h.holds) : 0;
	for (i = 0; i < r.in_hold; i++)
		ic_hold_share_add(&share, leg_ns[i], sect_ns);
	bound = ic_hold_share_bound(&share);
	sort(ns, r.taken, sizeof(*ns), ee_cmp_u64, NULL);
	pr_info("rtt: regime=%s hold_us=%u held_ns=%llu samples=%u in_hold=%u waited=%u expected=%u bound=%u p50_ns=%llu p99_ns=%llu max_ns=%llu\n",
		ic_regime_name(), hold_us, sect_ns, r.taken, r.in_hold, r.waited,
		ic_hold_share_expected(&share), bound, r.taken ? ns[r.taken / 2] : 0,
		r.taken ? ns[(r.taken * 99) / 100] : 0,
		r.taken ? ns[r.taken - 1] : 0);
	ok = r.taken == samples && r.wrong_cpu < 0;
	if (r.taken != samples)
		ic_ktap_diag("%u of %u PINGs answered", r.taken, samples);
	if (r.wrong_cpu >= 0)
		ic_ktap_diag("round trip %d: a handler ran on CPU%d, not on the last", r.wrong_at,
			     r.wrong_cpu);
	if (hold_us) {
		ic_ktap_diag("%u PINGs sent inside the section (%llu us), %u answered after it",
			     r.in_hold, div_u64(sect_ns, 1000), r.waited);
		if (!biglock)
			ic_ktap_diag("nolock: their legs allow %u (expected %u)%s", bound,
				     ic_hold_share_expected(&share),
				     r.waited > bound ? ": they waited for the holder" :
				     bound >= r.in_hold ? "; too few to tell" : "");
		/*
		 * biglock: all of them waited for sti(); nolock: the lock is
		 * not the NIC's, and only a leg longer than the rest of the
		 * section ends after it.
		 */
		ok &= r.in_hold && (biglock ? r.waited == r.in_hold : r.waited <= bound);
		if (ok && !biglock)
			skip = ic_hold_share_skip(bound, r.in_hold);
	}
	ic_ktap_result(k, ok, name, skip);
	return ok;
}

/**
 * ee_rtt() - time @samples round trips per holder and print the results.
 * @a: the chip that sends PINGs.
 * @b: the chip that answers them.
 * @samples: round trips per holder.
 *
 * Context: process; sleeps. Uses the CPUs busily for the time it takes.
 * Return: the number of failed cases.
 */
int ee_rtt(struct ee_dev *a, struct ee_dev *b, unsigned int samples)
{
	int first = cpumask_first(cpu_online_mask), last = cpumask_last(cpu_online_mask);
	struct ic_ktap k;
	unsigned int i;
	u64 *ns, *leg_ns;

	ns = kcalloc(samples, sizeof(*ns), GFP_KERNEL);
	leg_ns = kcalloc(samples, sizeof(*leg_ns), GFP_KERNEL);
	if (!ns || !leg_ns) {
		kfree(ns);
		kfree(leg_ns);
		return -ENOMEM;
	}
	ic_ktap_begin(&k, ARRAY_SIZE(ee_holds));
	ee_aim(a, last);
	ee_aim(b, last);
	ic_ktap_diag("PINGs from CPU%d, holder on CPU%d", last, first);
	for (i = 0; i < ARRAY_SIZE(ee_holds); i++)
		ee_rtt_one(a, b, samples, ee_holds[i], ns, leg_ns, &k);
	ic_set_affinity(a->line, -1);
	ic_set_affinity(b->line, -1);
	kfree(ns);
	kfree(leg_ns);
	return k.failed;
}
