// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore - the fault self-tests (selftest=fault): a CPU pulled out from
 * under busy lines.
 *
 * hotplug: the last online CPU is the victim (CPU1 of a 2-CPU guest,
 * CPU3 of a 4-CPU one). One line is aimed at it, another goes round-robin
 * over every CPU, and both fire from a hard hrtimer on the first CPU and
 * from a kthread on the second (the first too, with 2 CPUs), each handler
 * scheduling a tasklet, while a reader on the first CPU checks that every
 * snapshot of both lines' accounting balances. The victim goes offline and
 * comes back twice while they fire, and goes offline a third time at the
 * end and stays so: the guest then unloads irqcore with it offline and
 * brings it back (tests/guest/init, "fault hotplug"). In every phase,
 * online or not, both handlers must keep running; at the end every raise
 * must be accounted for (the runner's accounting check after each case),
 * every handler run must be one of irqcore's handled counts, no snapshot
 * may have been torn, and the tasklet must not be left queued: nothing
 * lost, nothing stranded on the dead CPU.
 *
 * ksoftirqd_park: the victim's ksoftirqd is made to sleep between its park
 * check and setting its sleeping state (a fault point: what a preemption
 * there would do) just as the victim goes offline; the offlining must
 * finish. It once slept on in TASK_INTERRUPTIBLE, its park wake-up spent,
 * and remove_cpu() never returned.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/sched.h>

#include <irqcore.h>

#include "../faultpoint.h"
#include "../softirq.h"
#include "selftest.h"

#define IC_F_LINE_AIMED	14	/* aimed at the victim */
#define IC_F_LINE_RR	15	/* round-robin over every CPU */
#define IC_F_PHASE_MS	60
#define IC_F_PERIOD_US	200
#define IC_F_VEC	10	/* the softirq vector of the ksoftirqd case */

/**
 * struct ic_fault - the hotplug case's state.
 * @timer: the raiser on the first CPU.
 * @raiser: the raiser kthread on the second CPU.
 * @stop: ends the raiser kthread.
 * @runs: handler runs per line (0: aimed, 1: round-robin).
 * @outside: handler runs outside hardirq.
 * @tasklet: scheduled by every handler run.
 * @tasklet_runs: tasklet runs.
 * @reader: checks snapshots of both lines' accounting while they fire.
 * @snapshots: snapshots the reader took.
 * @torn: snapshots that did not balance.
 */
struct ic_fault {
	struct hrtimer timer;
	struct task_struct *raiser;
	bool stop;
	atomic_long_t runs[2];
	atomic_long_t outside;
	struct ic_tasklet tasklet;
	atomic_long_t tasklet_runs;
	struct task_struct *reader;
	atomic_long_t snapshots;
	atomic_long_t torn;
};

static struct ic_fault ic_f;

static void ic_f_tasklet(unsigned long data)
{
	atomic_long_inc(&ic_f.tasklet_runs);
}

static void ic_f_handler(unsigned int irq, void *dev_id)
{
	atomic_long_inc(&ic_f.runs[irq == IC_F_LINE_RR]);
	if (!in_hardirq())
		atomic_long_inc(&ic_f.outside);
	ic_tasklet_schedule(&ic_f.tasklet);
}

static enum hrtimer_restart ic_f_timer_fn(struct hrtimer *t)
{
	ic_raise(IC_F_LINE_AIMED);
	ic_raise(IC_F_LINE_RR);
	hrtimer_forward_now(t, ns_to_ktime(IC_F_PERIOD_US * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static long ic_f_arm(void *unused)
{
	hrtimer_start(&ic_f.timer, ns_to_ktime(IC_F_PERIOD_US * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
	return 0;
}

static int ic_f_raiser_fn(void *unused)
{
	while (!READ_ONCE(ic_f.stop)) {
		ic_raise(IC_F_LINE_AIMED);
		ic_raise(IC_F_LINE_RR);
		usleep_range(IC_F_PERIOD_US, 2 * IC_F_PERIOD_US);
	}
	ic_kthread_wait_stop();
	return 0;
}

/*
 * Every snapshot must balance, also while a dead CPU's edges are being
 * adopted elsewhere (each adoption may fold an edge: merged up and out of
 * flight in one step, for a reader).
 */
static int ic_f_reader_fn(void *unused)
{
	struct ic_line_stats st;
	unsigned int line;

	while (!READ_ONCE(ic_f.stop)) {
		for (line = IC_F_LINE_AIMED; line <= IC_F_LINE_RR; line++) {
			ic_line_stats(line, &st);
			atomic_long_inc(&ic_f.snapshots);
			if (!ic_line_stats_balance(&st) &&
			    atomic_long_inc_return(&ic_f.torn) == 1)
				ic_ktap_diag("hotplug: line %u torn: raised=%lu handled=%lu",
					     line, st.raised, st.handled);
		}
		cond_resched();
	}
	ic_kthread_wait_stop();
	return 0;
}

/* Start @fn on @cpu; NULL if it could not be made. */
static struct task_struct *ic_f_thread(int (*fn)(void *), int cpu, const char *name)
{
	struct task_struct *t = kthread_create(fn, NULL, name);

	if (IS_ERR(t))
		return NULL;
	kthread_bind(t, cpu);
	wake_up_process(t);
	return t;
}

/*
 * One phase: both handlers must run in it, within IC_F_PHASE_MS or, when
 * one has not yet, within wait_ms: a CPU just brought back may not run for
 * a while on a busy host (a loaded run's "victim back: aimed line ran 0
 * times" in 60 ms). A line that never runs on its CPU still fails, after
 * wait_ms. Return: false if one did not run.
 */
static bool ic_f_phase(const char *what)
{
	long a0 = atomic_long_read(&ic_f.runs[0]), r0 = atomic_long_read(&ic_f.runs[1]);
	unsigned long t0 = jiffies;
	long a, r;

	msleep(IC_F_PHASE_MS);
	ic_wait_until(atomic_long_read(&ic_f.runs[0]) > a0 && atomic_long_read(&ic_f.runs[1]) > r0);
	a = atomic_long_read(&ic_f.runs[0]) - a0;
	r = atomic_long_read(&ic_f.runs[1]) - r0;
	ic_ktap_diag("hotplug: %s: aimed line ran %ld times, round-robin line %ld (in %u ms)", what,
		     a, r, jiffies_to_msecs(jiffies - t0));
	return a > 0 && r > 0;
}

static int ic_f_request(void)
{
	int err;

	err = ic_request_irq(IC_F_LINE_AIMED, ic_f_handler, IC_SA_INTERRUPT, "st-hp-aimed", &ic_f);
	if (err)
		return err;
	err = ic_request_irq(IC_F_LINE_RR, ic_f_handler, IC_SA_INTERRUPT, "st-hp-rr", &ic_f);
	if (err)
		ic_free_irq(IC_F_LINE_AIMED, &ic_f);
	return err;
}

static enum ic_result ic_fault_hotplug(const char **skip)
{
	int first = cpumask_first(cpu_online_mask);
	int victim = cpumask_last(cpu_online_mask);
	/* With two CPUs both raisers share the first; the victim is the other. */
	int second = num_online_cpus() > 2 ? cpumask_next(first, cpu_online_mask) : first;
	struct ic_line_stats sa, sr;
	bool ok = true;
	int round, err;

	if (num_online_cpus() < 2) {
		*skip = "needs 2 or more CPUs (a victim and a CPU that stays)";
		return IC_SKIP;
	}
	memset(&ic_f, 0, sizeof(ic_f));
	ic_tasklet_init(&ic_f.tasklet, ic_f_tasklet, 0);
	if (ic_f_request())
		return IC_FAIL;
	ic_set_affinity(IC_F_LINE_AIMED, victim);
	hrtimer_init(&ic_f.timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	ic_f.timer.function = ic_f_timer_fn;
	work_on_cpu(first, ic_f_arm, NULL);
	ic_f.raiser = ic_f_thread(ic_f_raiser_fn, second, "ic_st_hp");
	ic_f.reader = ic_f_thread(ic_f_reader_fn, first, "ic_st_hp_read");
	ok = ic_f.raiser && ic_f.reader;

	ok &= ic_f_phase("all online");
	for (round = 1; round <= 3 && ok; round++) {
		/*
		 * Deaf for its last milliseconds: the edges aimed at it stay
		 * pending there, as ones that reach a CPU on its way down do,
		 * and its death must hand them on (hotplug.c's dead callback).
		 */
		WRITE_ONCE(ic_fault_deaf_cpu, victim);
		usleep_range(5000, 6000);
		err = remove_cpu(victim);
		WRITE_ONCE(ic_fault_deaf_cpu, -1);
		if (err) {
			ic_ktap_diag("hotplug: remove_cpu(%d): %d", victim, err);
			ok = false;
			break;
		}
		if (!ic_softirq_thread_parked(victim)) {
			ic_ktap_diag("hotplug: CPU%d is offline, its ksoftirqd not parked", victim);
			ok = false;
		}
		ok &= ic_f_phase(round < 3 ? "victim offline" : "victim offline, left so");
		if (round == 3)
			break;
		err = add_cpu(victim);
		if (err) {
			ic_ktap_diag("hotplug: add_cpu(%d): %d", victim, err);
			ok = false;
			break;
		}
		ok &= ic_f_phase("victim back");
	}

	WRITE_ONCE(ic_f.stop, true);
	if (ic_f.raiser)
		kthread_stop(ic_f.raiser);
	if (ic_f.reader)
		kthread_stop(ic_f.reader);
	hrtimer_cancel(&ic_f.timer);
	ic_synchronize_irq(IC_F_LINE_AIMED);
	ic_synchronize_irq(IC_F_LINE_RR);
	ic_free_irq(IC_F_LINE_RR, &ic_f);
	ic_free_irq(IC_F_LINE_AIMED, &ic_f);
	/* Queued last on the dead CPU, it would wait there for ever. */
	for (round = 0; round < 50 && test_bit(IC_TASKLET_STATE_SCHED, &ic_f.tasklet.state);
	     round++)
		msleep(20);
	if (test_bit(IC_TASKLET_STATE_SCHED, &ic_f.tasklet.state)) {
		ic_ktap_diag("hotplug: the tasklet is still queued a second after the last raise");
		ok = false;
	}
	ic_tasklet_kill(&ic_f.tasklet);

	ic_line_stats(IC_F_LINE_AIMED, &sa);
	ic_line_stats(IC_F_LINE_RR, &sr);
	ic_ktap_diag("hotplug: aimed: raised %lu handled %lu, handler %ld",
		     sa.raised, sa.handled, atomic_long_read(&ic_f.runs[0]));
	ic_ktap_diag("hotplug: round-robin: raised %lu handled %lu, handler %ld",
		     sr.raised, sr.handled, atomic_long_read(&ic_f.runs[1]));
	ic_ktap_diag("hotplug: tasklet runs %ld; handler runs outside hardirq %ld",
		     atomic_long_read(&ic_f.tasklet_runs), atomic_long_read(&ic_f.outside));
	ic_ktap_diag("hotplug: %ld snapshots of the accounting, %ld torn",
		     atomic_long_read(&ic_f.snapshots), atomic_long_read(&ic_f.torn));
	ok &= atomic_long_read(&ic_f.snapshots) > 0 && !atomic_long_read(&ic_f.torn);
	ok &= !atomic_long_read(&ic_f.outside) && atomic_long_read(&ic_f.tasklet_runs) > 0 &&
	      sa.handled - sa.unhandled == atomic_long_read(&ic_f.runs[0]) &&
	      sr.handled - sr.unhandled == atomic_long_read(&ic_f.runs[1]);
	return ok ? IC_PASS : IC_FAIL;
}

static atomic_t ic_f_softirq_runs;

static void ic_f_softirq(void *data)
{
	atomic_inc(&ic_f_softirq_runs);
}

/* On the victim, from a task: nothing is on its way out, so ksoftirqd runs it. */
static long ic_f_raise_softirq(void *unused)
{
	ic_raise_softirq(IC_F_VEC);
	return 0;
}

/*
 * The victim's ksoftirqd is woken by a softirq raised from a task there,
 * and from then on sleeps 10 to 20 ms at the fault point on each turn of
 * its loop, between the park check and set_current_state(); the victim is
 * taken offline at once, so that kthread_park()'s flag and wake-up land
 * while the thread sleeps there. Twenty rounds: remove_cpu() must return
 * each time (before the fix it never did, and the guest timed out).
 */
static enum ic_result ic_fault_ksoftirqd_park(const char **skip)
{
	int victim = cpumask_last(cpu_online_mask);
	enum ic_result r = IC_PASS;
	int round, err = 0;

	if (num_online_cpus() < 2) {
		*skip = "needs 2 or more CPUs (a victim and a CPU that stays)";
		return IC_SKIP;
	}
	atomic_set(&ic_f_softirq_runs, 0);
	err = ic_open_softirq(IC_F_VEC, ic_f_softirq, NULL);
	ic_check(!err, "open_softirq: %d", err);
	if (err)
		return r;
	ic_fault_delay_set(IC_FAULT_KSOFTIRQD_WINDOW, true);
	for (round = 0; round < 20 && !err; round++) {
		work_on_cpu(victim, ic_f_raise_softirq, NULL);
		err = remove_cpu(victim);
		ic_check(!err, "round %d: remove_cpu(%d): %d", round, victim, err);
		if (!err)
			err = add_cpu(victim);
		ic_check(!err, "round %d: add_cpu(%d): %d", round, victim, err);
	}
	ic_fault_delay_set(IC_FAULT_KSOFTIRQD_WINDOW, false);
	ic_ktap_diag("ksoftirqd_park: %d offline/online rounds, softirq ran %d times",
		     round, atomic_read(&ic_f_softirq_runs));
	/* It must have run: raised on the victim, or adopted when it went. */
	ic_check(ic_wait_until(atomic_read(&ic_f_softirq_runs) == round),
		 "softirq ran %d times for %d raises", atomic_read(&ic_f_softirq_runs), round);
	ic_close_softirq(IC_F_VEC);
	return r;
}

static const struct ic_case ic_fault_cases[] = {
	{ "fault_ksoftirqd_park", ic_fault_ksoftirqd_park },
	{ "fault_hotplug", ic_fault_hotplug },
};

const struct ic_suite ic_fault_suite = {
	.cases = ic_fault_cases,
	.nr = ARRAY_SIZE(ic_fault_cases),
};
