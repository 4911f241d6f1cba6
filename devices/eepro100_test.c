// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore_eepro100 - the cases, run at load on the two chips A and B: one
 * KTAP document, each case named eepro100_<case>_<regime>.
 *
 *   frames        A sends 200 DATA frames to B and B 200 to A (64..1514
 *                 bytes, a few in flight at a time): each side receives
 *                 every frame the other sent, in order, its checksum
 *                 right, and the transmit rings are reclaimed to the last
 *                 block; both handlers ran, in hardirq
 *   tx_timeout    2 CPUs: the lines aimed at the last CPU, A sends frames
 *                 to B from a thread on the first CPU while this thread
 *                 runs A's tx_timeout (the seed's speedo_tx_timeout()) 20
 *                 times, 2..3 ms apart: frames flowed before the first
 *                 reset and after the last, every frame sent arrived
 *                 once, in order, intact, and A's interrupts came back
 *   sync_line     2 CPUs, two lines (a skip if the chips share a pin,
 *                 a failure with lines=two, where the boot promised two
 *                 pins): A's handler held on the last CPU;
 *                 under nolock synchronize_irq(B's line) returns while it
 *                 is held and B's handler runs meanwhile, and
 *                 synchronize_irq(A's line) returns only once A's handler
 *                 is done; under biglock synchronize_irq(B's line) is
 *                 2.5.27's and waits for A's handler too
 *   accounting    each line quiet and balanced, and handled - unhandled
 *                 equal to each handler's own count of its calls
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include <irqcore.h>
#include <irqcore_ktap.h>

#include "eepro100.h"

#define EE_WINDOW	8	/* DATA frames in flight per direction, below the RX ring */
#define EE_STUCK_MS	2000	/* no progress for this long: frames were lost */
#define EE_FRAMES	200
#define EE_TO_FRAMES	100000	/* a bound: the sender runs until told to stop */
#define EE_TIMEOUTS	20
#define EE_TT_WAIT_MS	5000	/* the most a phase waits for A's traffic */
#define EE_HOLD_MS	30	/* how long A's handler is held in sync_line */

static struct ic_ktap ee_k;
/* lines=two: the boot gave the chips two pins (ee_selftest()). */
static bool ee_two_lines;

/**
 * ee_pump() - send @n DATA frames from @from to @to, at most EE_WINDOW
 * in flight (sent, and not yet received by @to).
 * @from: the sender.
 * @to: the receiver.
 * @n: how many.
 * @stop: polled between frames; true ends the pump early. May be NULL.
 *
 * A window that does not move for EE_STUCK_MS means frames were lost.
 *
 * Context: process; sleeps.
 * Return: the frames sent, or -ETIMEDOUT.
 */
long ee_pump(struct ee_dev *from, struct ee_dev *to, unsigned int n, bool (*stop)(void))
{
	unsigned long end = jiffies + msecs_to_jiffies(EE_STUCK_MS);
	struct ee_stats f, t;
	unsigned int sent = 0;
	int err;

	while (sent < n && !(stop && stop())) {
		ee_stats(from, &f);
		ee_stats(to, &t);
		err = -EBUSY;
		if (f.tx_sent[EE_KIND_DATA] - t.rx_ok[EE_KIND_DATA] - t.rx_bad < EE_WINDOW)
			err = ee_send_data(from, to->mac);
		if (!err) {
			sent++;
			end = jiffies + msecs_to_jiffies(EE_STUCK_MS);
			continue;
		}
		if (err != -EBUSY)
			return err;
		if (time_after(jiffies, end))
			return -ETIMEDOUT;
		usleep_range(50, 100);
	}
	return sent;
}

/**
 * ee_aim() - aim @ee's line at @cpu, and see a run of its handler there.
 * @ee: the device.
 * @cpu: the CPU.
 *
 * On x86 an I/O APIC pin's new destination takes effect when one of its
 * interrupts is acknowledged (genirq's "move pending"), not when the
 * affinity call returns: software interrupts until one runs there.
 *
 * Context: process; sleeps.
 * Return: 0, or -EIO if ten did not get there.
 */
int ee_aim(struct ee_dev *ee, int cpu)
{
	struct ee_stats st0, st;
	unsigned int i, ms;

	if (ic_set_affinity(ee->line, cpu))
		return -EIO;
	for (i = 0; i < 10; i++) {
		ee_stats(ee, &st0);
		ee_raise_swi(ee);
		for (ms = 0; ms < 100; ms++) {
			usleep_range(500, 1000);
			ee_stats(ee, &st);
			if (st.swi != st0.swi)
				break;
		}
		if (st.swi != st0.swi && st.last_cpu == cpu)
			return 0;
	}
	ic_ktap_diag("line %u: ten software interrupts and none ran on CPU%d", ee->line, cpu);
	return -EIO;
}

/* Wait until @to has received every DATA frame @from sent (bounded). */
static bool ee_drained(struct ee_dev *from, struct ee_dev *to)
{
	unsigned long end = jiffies + msecs_to_jiffies(EE_STUCK_MS);
	struct ee_stats f, t;

	for (;;) {
		ee_stats(from, &f);
		ee_stats(to, &t);
		if (t.rx_ok[EE_KIND_DATA] + t.rx_bad >= f.tx_sent[EE_KIND_DATA] &&
		    ee_tx_idle(from))
			return true;
		if (time_after(jiffies, end))
			return false;
		usleep_range(200, 400);
	}
}

/* What @to received of @from's DATA since the snapshots: all, in order, intact. */
static bool ee_judge(const char *what, const struct ee_stats *f0, const struct ee_stats *f1,
		     const struct ee_stats *t0, const struct ee_stats *t1)
{
	unsigned long sent = f1->tx_sent[EE_KIND_DATA] - f0->tx_sent[EE_KIND_DATA];
	unsigned long got = t1->rx_ok[EE_KIND_DATA] - t0->rx_ok[EE_KIND_DATA];
	unsigned long done = f1->tx_done - f0->tx_done;

	ic_ktap_diag("%s: sent %lu, completed %lu, received %lu", what, sent, done, got);
	ic_ktap_diag("%s: bad %lu, out of order %lu, not ours %lu", what,
		     t1->rx_bad - t0->rx_bad, t1->rx_order - t0->rx_order,
		     t1->rx_other - t0->rx_other);
	ic_ktap_diag("%s: handler runs sender +%lu, receiver +%lu, on CPU%d",
		     what, f1->runs - f0->runs, t1->runs - t0->runs, t1->last_cpu);
	return sent && got == sent && done >= sent && t1->rx_bad == t0->rx_bad &&
	       t1->rx_order == t0->rx_order && t1->runs > t0->runs &&
	       !t1->outside_hardirq && !f1->outside_hardirq;
}

static bool ee_case_frames(struct ee_dev *a, struct ee_dev *b)
{
	struct ee_stats a0, b0, a1, b1;
	long ab, ba;

	ee_stats(a, &a0);
	ee_stats(b, &b0);
	ab = ee_pump(a, b, EE_FRAMES, NULL);
	ba = ee_pump(b, a, EE_FRAMES, NULL);
	if (ab != EE_FRAMES || ba != EE_FRAMES) {
		ic_ktap_diag("sent %ld and %ld of %d frames: the window stopped (frames lost)",
			     ab, ba, EE_FRAMES);
		return false;
	}
	if (!ee_drained(a, b) || !ee_drained(b, a))
		ic_ktap_diag("not every frame arrived within %d ms", EE_STUCK_MS);
	ee_stats(a, &a1);
	ee_stats(b, &b1);
	return ee_judge("A to B", &a0, &a1, &b0, &b1) & ee_judge("B to A", &b0, &b1, &a0, &a1);
}

/* tx_timeout: the sender, a thread on the first CPU. */
struct ee_pumper {
	struct ee_dev *from, *to;
	long sent;
	struct completion done;
};

static bool ee_pumper_stop;

static bool ee_pumper_should_stop(void)
{
	return READ_ONCE(ee_pumper_stop);
}

static int ee_pumper_fn(void *arg)
{
	struct ee_pumper *p = arg;

	p->sent = ee_pump(p->from, p->to, EE_TO_FRAMES, ee_pumper_should_stop);
	complete(&p->done);
	return 0;
}

/*
 * The tx_timeout case's snapshots of both chips' counts: on the heap, since
 * five of them on the stack pass the frame limit of a KASAN kernel.
 */
struct ee_tt_snap {
	struct ee_stats a0, b0, a1, b1, st;
};

/*
 * A phase of the tx_timeout case: at least 5 ms, and on until A has sent
 * a frame more than @sent and its handler has run more than @runs times,
 * up to EE_TT_WAIT_MS or the sender's end. 5 ms was the whole phase once:
 * on a busy host the sender's vCPU can be off the host for all of it (a
 * loaded run sent 0 frames after the resets), and the case then "tested
 * nothing". @st is scratch for the counts.
 */
static void ee_tt_traffic(struct ee_dev *a, struct ee_stats *st, unsigned long sent,
			  unsigned long runs, struct ee_pumper *p)
{
	unsigned long end = jiffies + msecs_to_jiffies(EE_TT_WAIT_MS);

	usleep_range(5000, 6000);
	for (;;) {
		ee_stats(a, st);
		if (st->tx_sent[EE_KIND_DATA] > sent && st->runs > runs)
			break;
		if (completion_done(&p->done) || time_after(jiffies, end))
			break;
		usleep_range(1000, 2000);
	}
}

static bool ee_case_tx_timeout(struct ee_dev *a, struct ee_dev *b, const char **skip)
{
	int first = cpumask_first(cpu_online_mask), last = cpumask_last(cpu_online_mask);
	struct ee_pumper p = { .from = a, .to = b };
	unsigned long first_sent = 0, last_sent, last_runs;
	struct ee_tt_snap *s;
	struct task_struct *t;
	unsigned int i;
	bool ok;

	if (first == last) {
		*skip = "needs 2 CPUs (the interrupts on another CPU than the sender's)";
		return true;
	}
	if (ee_aim(a, last) || ee_aim(b, last))
		return false;
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return false;
	ee_stats(a, &s->a0);
	ee_stats(b, &s->b0);
	init_completion(&p.done);
	WRITE_ONCE(ee_pumper_stop, false);
	t = kthread_create(ee_pumper_fn, &p, "ee_pump");
	if (IS_ERR(t)) {
		kfree(s);
		return false;
	}
	kthread_bind(t, first);
	wake_up_process(t);
	ee_tt_traffic(a, &s->st, s->a0.tx_sent[EE_KIND_DATA], s->a0.runs, &p);
	for (i = 0; i < EE_TIMEOUTS; i++) {
		if (i == 0) {
			ee_stats(a, &s->st);
			first_sent = s->st.tx_sent[EE_KIND_DATA];
		}
		ee_tx_timeout(a);
		usleep_range(2000, 3000);
	}
	ee_stats(a, &s->st);
	last_sent = s->st.tx_sent[EE_KIND_DATA];
	last_runs = s->st.runs;
	ee_tt_traffic(a, &s->st, last_sent, last_runs, &p);
	WRITE_ONCE(ee_pumper_stop, true);
	wait_for_completion(&p.done);
	ee_drained(a, b);
	ee_stats(a, &s->a1);
	ee_stats(b, &s->b1);
	ic_ktap_diag("A sent %lu frames before the first tx_timeout, %lu during the %u, %lu after",
		     first_sent - s->a0.tx_sent[EE_KIND_DATA], last_sent - first_sent, EE_TIMEOUTS,
		     s->a1.tx_sent[EE_KIND_DATA] - last_sent);
	ic_ktap_diag("sender on CPU%d, B's handler on CPU%d", first, s->b1.last_cpu);
	ok = ee_judge("A to B", &s->a0, &s->a1, &s->b0, &s->b1);
	if (p.sent < 0) {
		ic_ktap_diag("the sender stopped: %ld (frames were lost)", p.sent);
		ok = false;
	}
	if (s->a1.timeouts - s->a0.timeouts != EE_TIMEOUTS) {
		ic_ktap_diag("tx_timeout ran %lu times, want %d", s->a1.timeouts - s->a0.timeouts,
			     EE_TIMEOUTS);
		ok = false;
	}
	/* The resets met traffic, and the ring carried frames after the last. */
	if (first_sent == s->a0.tx_sent[EE_KIND_DATA] || last_sent == first_sent ||
	    s->a1.tx_sent[EE_KIND_DATA] == last_sent) {
		ic_ktap_diag("no frames before or after the resets: the case tested nothing");
		ok = false;
	}
	if (!ee_tx_idle(a)) {
		ic_ktap_diag("A's ring did not recover: blocks left outstanding");
		ok = false;
	}
	/* Its completions interrupt again: the reset left the chip unmasked. */
	if (s->a1.runs == last_runs) {
		ic_ktap_diag("A's handler never ran after the last tx_timeout (still masked?)");
		ok = false;
	}
	ic_set_affinity(a->line, -1);
	ic_set_affinity(b->line, -1);
	kfree(s);
	return ok;
}

/* sync_line: released by a timer on the waiting CPU. */
struct ee_sync {
	struct ee_dev *a, *b;
	struct hrtimer release;
	bool ok;
};

static enum hrtimer_restart ee_release_fn(struct hrtimer *t)
{
	struct ee_sync *s = container_of(t, struct ee_sync, release);

	ee_set_stall(s->a, false);
	return HRTIMER_NORESTART;
}

static long ee_sync_fn(void *arg)
{
	struct ee_sync *s = arg;
	bool biglock = !strcmp(ic_regime_name(), "biglock");
	unsigned long end = jiffies + msecs_to_jiffies(EE_STUCK_MS);
	bool held_b, held_a, b_ran = false, entered;
	struct ee_stats b0, b1;
	u64 t0, tb, ta;

	ee_set_stall(s->a, true);
	ee_raise_swi(s->a);
	while (!(entered = ee_in_stall(s->a)) && time_before(jiffies, end))
		usleep_range(100, 200);
	if (!entered) {
		ee_set_stall(s->a, false);
		ic_ktap_diag("A's handler never ran to be held");
		s->ok = false;
		return 0;
	}
	hrtimer_start(&s->release, ms_to_ktime(EE_HOLD_MS), HRTIMER_MODE_REL_HARD);
	t0 = local_clock();
	ic_synchronize_irq(s->b->line);
	tb = local_clock();
	held_b = ee_in_stall(s->a);
	if (held_b) {
		/* Another line's handler runs while A's is held. */
		ee_stats(s->b, &b0);
		ee_raise_swi(s->b);
		while (time_before(jiffies, end) && ee_in_stall(s->a)) {
			ee_stats(s->b, &b1);
			if (b1.swi != b0.swi) {
				b_ran = true;
				break;
			}
			cpu_relax();
		}
	}
	ic_synchronize_irq(s->a->line);
	ta = local_clock();
	held_a = ee_in_stall(s->a);
	hrtimer_cancel(&s->release);
	ee_set_stall(s->a, false);
	ic_ktap_diag("%s: A's handler (line %u) held %d ms on CPU%d", ic_regime_name(),
		     s->a->line, EE_HOLD_MS, cpumask_last(cpu_online_mask));
	ic_ktap_diag("synchronize_irq(%u) (B) returned after %llu us, A's handler %s",
		     s->b->line, (tb - t0) / 1000, held_b ? "still held" : "done");
	ic_ktap_diag("B's handler ran while A's was held: %s", b_ran ? "yes" : "no");
	ic_ktap_diag("synchronize_irq(%u) (A) returned after %llu us, A's handler %s",
		     s->a->line, (ta - t0) / 1000, held_a ? "still held" : "done");
	/*
	 * nolock: 2.5.28's synchronize_irq(irq) waits for that line alone.
	 * biglock: 2.5.27's waits for every handler, A's included.
	 */
	if (biglock)
		s->ok = !held_b && !held_a;
	else
		s->ok = held_b && b_ran && !held_a;
	return 0;
}

static bool ee_case_sync_line(struct ee_dev *a, struct ee_dev *b, const char **skip)
{
	int first = cpumask_first(cpu_online_mask), last = cpumask_last(cpu_online_mask);
	struct ee_sync s = { .a = a, .b = b };

	if (first == last) {
		*skip = "needs 2 CPUs";
		return true;
	}
	if (a->line == b->line && ee_two_lines) {
		ic_ktap_diag("lines=two, but both chips are on line %u (host interrupt %u)",
			     a->line, a->host_irq);
		return false;
	}
	if (a->line == b->line) {
		*skip = "the chips share a pin and so a line (tests/loads-nic: two, lines=two)";
		return true;
	}
	if (ee_aim(a, last) || ee_aim(b, first))
		return false;
	/*
	 * On this stack: debugobjects (the KASAN kernel's) must be told, or
	 * it reports an unannotated object on the stack.
	 */
	hrtimer_init_on_stack(&s.release, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	s.release.function = ee_release_fn;
	work_on_cpu(first, ee_sync_fn, &s);
	hrtimer_cancel(&s.release);	/* ee_sync_fn() may have returned early */
	destroy_hrtimer_on_stack(&s.release);
	ic_set_affinity(a->line, -1);
	ic_set_affinity(b->line, -1);
	return s.ok;
}

/* Each handler's calls against its line's books. */
static bool ee_case_accounting(struct ee_dev *a, struct ee_dev *b)
{
	struct ee_dev *devs[] = { a, b };
	bool ok = true;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(devs); i++) {
		unsigned long end = jiffies + msecs_to_jiffies(EE_STUCK_MS);
		struct ic_line_stats ls;
		struct ee_stats st;

		for (;;) {
			ic_line_stats(devs[i]->line, &ls);
			if ((!ls.inflight && !ls.busy) || time_after(jiffies, end))
				break;
			usleep_range(500, 1000);
		}
		ee_stats(devs[i], &st);
		ic_ktap_diag("%c line %u: raised=%lu handled=%lu merged=%lu latched=%lu",
			     'A' + i, devs[i]->line, ls.raised, ls.handled, ls.merged, ls.latched);
		ic_ktap_diag("%c line %u: inflight=%lu dropped=%lu unhandled=%lu",
			     'A' + i, devs[i]->line, ls.inflight, ls.dropped, ls.unhandled);
		ic_ktap_diag("%c handler calls %lu (work %lu, nothing %lu), outside hardirq %lu",
			     'A' + i, st.runs + st.not_mine, st.runs, st.not_mine,
			     st.outside_hardirq);
		ok &= ic_line_stats_balance(&ls) && !ls.inflight && !ls.busy && st.runs &&
		      ls.handled - ls.unhandled == st.runs + st.not_mine && !st.outside_hardirq;
	}
	return ok;
}

static void ee_result(bool ok, const char *what, const char *skip)
{
	char name[64];

	snprintf(name, sizeof(name), "eepro100_%s_%s", what, ic_regime_name());
	ic_ktap_result(&ee_k, ok, name, skip);
}

/**
 * ee_selftest() - run every case on the two chips and print the KTAP document.
 * @a: the first chip.
 * @b: the second, on the same hub.
 * @two_lines: lines=two: the boot gave the chips a pin each, so a shared
 *	line fails sync_line rather than skipping it.
 *
 * Context: process; sleeps (a second or two).
 * Return: the number of failed cases.
 */
int ee_selftest(struct ee_dev *a, struct ee_dev *b, bool two_lines)
{
	const char *skip;
	bool ok;

	ee_two_lines = two_lines;
	ic_ktap_begin(&ee_k, 4);
	ee_result(ee_case_frames(a, b), "frames", NULL);
	skip = NULL;
	ok = ee_case_tx_timeout(a, b, &skip);
	ee_result(ok, "tx_timeout", skip);
	skip = NULL;
	ok = ee_case_sync_line(a, b, &skip);
	ee_result(ok, "sync_line", skip);
	ee_result(ee_case_accounting(a, b), "accounting", NULL);
	pr_info("End of test: %s: cases=%u failed=%u\n",
		ee_k.failed ? "FAILURE" : "SUCCESS", ee_k.planned, ee_k.failed);
	return ee_k.failed;
}
