// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore_bench - jobs in genuine hardirq context on a busy CPU, and the
 * rule of their lifetime (struct icb_jobs) that count.c and countscale.c
 * keep.
 */
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/sort.h>

#include <irqcore_ktap.h>

#include "harness.h"

static int icb_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/**
 * icb_sort_u64() - sort measurements, for medians and percentiles.
 * @v: the values.
 * @n: how many.
 *
 * Context: any that may take a few microseconds.
 */
void icb_sort_u64(u64 *v, size_t n)
{
	sort(v, n, sizeof(*v), icb_cmp_u64, NULL);
}

/**
 * icb_kthread_wait_stop() - the end of a kthread that has finished its
 * work before its owner calls kthread_stop() on it.
 *
 * The thread must not return first: its owner holds no reference to it,
 * and kthread_stop() on a thread that has exited and been reaped would
 * touch a freed task.
 *
 * Context: a kthread, process context.
 */
void icb_kthread_wait_stop(void)
{
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
}

/*
 * Keeps its CPU out of idle, with interrupts on, until told to stop. It
 * yields to anything else that wants the CPU (which keeps it out of idle
 * as well): a bench may keep it for longer than the guests' soft-lockup
 * threshold (watchdog_thresh=4, 8 s), and a kernel that does not preempt
 * kthreads would report it.
 */
static int icb_spinner(void *arg)
{
	struct icb_target *t = arg;

	while (!READ_ONCE(t->stop)) {
		cpu_relax();
		cond_resched();
	}
	icb_kthread_wait_stop();
	return 0;
}

static void icb_job(struct icb_target *t)
{
	/* Read before the job: a send after its end may set another. */
	struct icb_jobs *j = t->jobs;

	t->hardirq = in_hardirq() && irqs_disabled();
	t->fn(t->arg);
	/* The job's last act: it is no longer out (icb_jobs_quiesced()). */
	if (j)
		atomic_dec(&j->out);
	/* Pairs with the acquire in icb_wait(). */
	smp_store_release(&t->done, true);
}

static void icb_csd_fn(void *info)
{
	icb_job(info);
}

static void icb_work_fn(struct irq_work *work)
{
	icb_job(container_of(work, struct icb_target, work));
}

/**
 * icb_target_start() - keep @cpu busy and ready to run jobs.
 * @t: the target, zeroed by the caller.
 * @cpu: an online CPU; the caller's own CPU takes no spinner.
 *
 * Context: process; sleeps.
 * Return: 0 or the error of creating the spinner.
 */
int icb_target_start(struct icb_target *t, int cpu)
{
	t->cpu = cpu;
	/* No job is out: a wait for one returns at once. */
	t->done = true;
	INIT_CSD(&t->csd, icb_csd_fn, t);
	t->work = IRQ_WORK_INIT_HARD(icb_work_fn);
	if (cpu == raw_smp_processor_id())
		return 0;
	t->spinner = kthread_create_on_cpu(icb_spinner, t, cpu, "icb_busy/%u");
	if (IS_ERR(t->spinner)) {
		int err = PTR_ERR(t->spinner);

		t->spinner = NULL;
		return err;
	}
	wake_up_process(t->spinner);
	return 0;
}

/**
 * icb_target_stuck() - whether the target's last job is stuck: still out
 * after its set (struct icb_jobs) gave up waiting for it.
 * @t: the target.
 *
 * Context: any.
 * Return: true if so.
 */
bool icb_target_stuck(const struct icb_target *t)
{
	/* Nothing the job wrote is read after this: no acquire. */
	return t->jobs && t->jobs->stuck && !READ_ONCE(t->done);
}

/**
 * icb_target_stop() - let the target CPU go idle again.
 * @t: the target.
 *
 * A target whose job is stuck (icb_target_stuck()) keeps its CPU in
 * hardirq: its spinner cannot run, so kthread_stop() would wait for ever,
 * and so would irq_work_sync() for a job of this CPU's. Its spinner is
 * only told to stop; the module is pinned (icb_jobs_finish()), so neither
 * the spinner's code nor the job's is freed under them.
 *
 * Context: process; sleeps.
 */
void icb_target_stop(struct icb_target *t)
{
	WRITE_ONCE(t->stop, true);
	if (icb_target_stuck(t))
		return;
	if (t->spinner)
		kthread_stop(t->spinner);
	t->spinner = NULL;
	irq_work_sync(&t->work);
}

/*
 * __icb_send() - start @fn(@arg) on the target in hardirq, as a job of @j;
 * do not wait. Context: preemption disabled if the target is this CPU (the
 * irq_work must be queued where the job is to run); the target's last job
 * has ended (@t->done, read with acquire by icb_jobs_send()). Return: 0
 * (the job is out) or -ENXIO (the target is offline: nothing was queued).
 *
 * The fields are written before the send, so the csd and the irq_work
 * must be free. They are, once @t->done is true: the kernel unlocks an
 * async csd before it calls icb_csd_fn(), and clears the irq_work's
 * pending bit before icb_work_fn(), and the job releases @t->done last.
 */
static int __icb_send(struct icb_target *t, struct icb_jobs *j, void (*fn)(void *arg),
		      void *arg)
{
	int err;

	t->jobs = j;
	t->fn = fn;
	t->arg = arg;
	t->hardirq = false;
	WRITE_ONCE(t->done, false);
	if (t->cpu == raw_smp_processor_id()) {
		WARN_ON_ONCE(!irq_work_queue(&t->work));
		return 0;
	}
	err = smp_call_function_single_async(t->cpu, &t->csd);
	/*
	 * -EBUSY: the csd was still queued, which the rule above excludes.
	 * That queued call will run icb_job() on the fields just written,
	 * this job: it is out, and its end will mark it done. Reported, and
	 * never marked done here (teardown would then run under it).
	 */
	if (WARN_ON_ONCE(err == -EBUSY))
		return 0;
	return err;
}

/**
 * icb_wait() - wait, sleeping, until the job last sent to @t is done.
 * @t: the target.
 * @ms: how long at most.
 *
 * After a return of 0 the host may read what the job wrote: the job's
 * every write comes before its release of @t->done in icb_job().
 *
 * Context: process; sleeps.
 * Return: 0, or -ETIMEDOUT after @ms (the job is then still out).
 */
int icb_wait(struct icb_target *t, unsigned int ms)
{
	unsigned long end = jiffies + msecs_to_jiffies(ms);

	/* Pairs with the release in icb_job(). */
	while (!smp_load_acquire(&t->done)) {
		if (time_after(jiffies, end))
			return -ETIMEDOUT;
		usleep_range(50, 100);
	}
	return 0;
}

/**
 * icb_run_hardirq() - run @fn(@arg) on the target CPU in hardirq; wait.
 * @j: the set the job belongs to (struct icb_jobs): a job that outlives
 *	the wait is waited for by icb_jobs_finish(), and pins the module if
 *	it never ends.
 * @t: the target.
 * @name: the job's name, for the diagnostic of a stuck job.
 * @fn: the job; it runs with interrupts off in genuine hardirq context.
 * @arg: its argument: not on the caller's stack.
 *
 * Context: process; sleeps while the job runs.
 * Return: 0; -ETIMEDOUT if the job did not finish within a second (it
 * has finished, or is stuck, when this returns); -EBUSY if a job of @j
 * is stuck already; -EPERM if it ran outside hardirq (no figure from it
 * may be used).
 */
int icb_run_hardirq(struct icb_jobs *j, struct icb_target *t, const char *name,
		    void (*fn)(void *arg), void *arg)
{
	int err;

	if (j->stuck)
		return -EBUSY;
	preempt_disable();
	err = icb_jobs_send(j, t, fn, arg);
	preempt_enable();
	err = icb_jobs_finish(j, t, name, err, MSEC_PER_SEC);
	if (err)
		return err;
	return t->hardirq ? 0 : -EPERM;
}

/**
 * icb_jobs_init() - a set of jobs with none out, none stuck.
 * @j: the set.
 *
 * Context: any; no job of @j may be out.
 */
void icb_jobs_init(struct icb_jobs *j)
{
	atomic_set(&j->out, 0);
	j->overlaps = 0;
	j->stop = false;
	j->stuck = false;
}

/**
 * icb_jobs_send() - send a job of @j (__icb_send()): counted out until its end.
 * @j: the set.
 * @t: the target.
 * @fn: the job; its waits must end once READ_ONCE(@j->stop) is true.
 * @arg: its argument: not on the sender's stack (a late job would read it
 *	after the sender returned).
 *
 * A send to a target whose last job is still out breaks the rule of
 * struct icb_jobs: it is counted (@j->overlaps) and refused, and nothing
 * of the target is touched. Sent, the new job's fields would be the ones
 * the old job, or its still queued csd, reads; and its send could fail
 * with the old job queued, which the error path would then mark done
 * (issue 39: teardown ran under it).
 *
 * Context: preemption disabled if @t is this CPU.
 * Return: 0; -EBUSY if the target's last job is still out; -ENXIO if the
 * target is offline. On an error nothing of this send is out.
 */
int icb_jobs_send(struct icb_jobs *j, struct icb_target *t, void (*fn)(void *arg), void *arg)
{
	int err;

	/* Pairs with the release in icb_job(): its csd is free after this. */
	if (!smp_load_acquire(&t->done)) {
		j->overlaps++;
		return -EBUSY;
	}
	atomic_inc(&j->out);
	err = __icb_send(t, j, fn, arg);
	if (err) {
		/* Offline: nothing was queued, and no job will mark it done. */
		atomic_dec(&j->out);
		WRITE_ONCE(t->done, true);
	}
	return err;
}

/*
 * The send check's jobs (icb_send_refused_check()): the first holds its
 * CPU in hardirq until released, or for ICB_SEND_HOLD_MS at most; the
 * second must never run.
 */
#define ICB_SEND_HOLD_MS	500
/* Runs of the check whose sender looked too late, before it is a skip. */
#define ICB_SEND_RUNS		3

/**
 * struct icb_send_check - one run of the send check.
 * @start_ns: when the held job began (ktime_get_ns()), for the diagnostic.
 * @started: the held job has begun.
 * @release: the sender has looked: the held job may end.
 * @timed_out: the held job ended by its bound, unreleased: the sender may
 *	have looked after its end (written before the job's release of
 *	done, so a send that found it done sees it too).
 * @held: runs of the held job.
 * @intruder: runs of the second job.
 */
struct icb_send_check {
	u64 start_ns;
	bool started;
	bool release;
	bool timed_out;
	unsigned int held;
	unsigned int intruder;
};

static void icb_send_check_hold(void *arg)
{
	struct icb_send_check *c = arg;
	u64 end;

	c->start_ns = ktime_get_ns();
	end = c->start_ns + ICB_SEND_HOLD_MS * NSEC_PER_MSEC;
	WRITE_ONCE(c->started, true);
	/* Bounded: a sender that never releases costs half a second. */
	while (!READ_ONCE(c->release) && ktime_get_ns() < end)
		cpu_relax();
	if (!READ_ONCE(c->release))
		WRITE_ONCE(c->timed_out, true);
	c->held++;
}

static void icb_send_check_intruder(void *arg)
{
	struct icb_send_check *c = arg;

	c->intruder++;
}

/* What a run whose sender looked too late measured, in @buf. */
static const char *icb_send_late(char *buf, size_t size, unsigned int late_ms)
{
	snprintf(buf, size, "the sender looked %u ms after the held job began, past its %u ms",
		 late_ms, ICB_SEND_HOLD_MS);
	return buf;
}

/*
 * One run of icb_send_refused_check(). Return: 1 if it held, 0 if it did
 * not (with a diagnostic), -EAGAIN if the sender looked only after the
 * held job had ended by its bound (@late_ms: how long after its start;
 * @send_ms: how long the second send itself took), so that the run
 * proves nothing either way.
 */
static int icb_send_refused_run(struct icb_target *t, struct icb_send_check *c,
				struct icb_jobs *j, unsigned int *late_ms, unsigned int *send_ms)
{
	unsigned long end;
	bool intact, done, over;
	int err, sent;
	u64 look_ns, send_ns;

	memset(c, 0, sizeof(*c));
	icb_jobs_init(j);
	err = icb_jobs_send(j, t, icb_send_check_hold, c);
	if (err) {
		ic_ktap_diag("harness_send_refused: the first send: %d", err);
		return 0;
	}
	end = jiffies + HZ / 4;
	while (!READ_ONCE(c->started) && time_before(jiffies, end))
		usleep_range(50, 100);
	send_ns = ktime_get_ns();
	sent = icb_jobs_send(j, t, icb_send_check_intruder, c);
	send_ns = ktime_get_ns() - send_ns;
	intact = READ_ONCE(t->fn) == icb_send_check_hold;
	done = READ_ONCE(t->done);
	/*
	 * Whether the held job was out all along, read last: its end by the
	 * bound writes @timed_out before it releases done, which the send
	 * read with acquire. Not timed out here, the job was out through the
	 * send and the two reads above, whatever the host did to this CPU.
	 */
	smp_rmb();
	over = READ_ONCE(c->timed_out);
	look_ns = ktime_get_ns();
	WRITE_ONCE(c->release, true);
	/* Whatever the send did: both are waited for before @c is reused. */
	err = icb_jobs_finish(j, t, "harness_send_refused", 0, MSEC_PER_SEC);
	if (err == -ETIMEDOUT && !j->stuck) {
		/* Late but ended (its CPU off the host when released): the host's. */
		ic_ktap_diag("harness_send_refused: the held job ended > 1 s after its release");
		err = 0;
	}
	/*
	 * A queued second job (the old send) runs after the first's end, and
	 * so does one sent, rightly, after the held job had timed out.
	 */
	msleep(20);
	if (!err && over) {
		err = icb_jobs_finish(j, t, "harness_send_refused", 0, MSEC_PER_SEC);
		if (err == -ETIMEDOUT && !j->stuck)
			err = 0;
	} else if (!err) {
		err = icb_wait(t, 100);
	}
	if (over && !err) {
		/* After the jobs' end: @c->start_ns is read after their release of done. */
		*late_ms = div_u64(look_ns - c->start_ns, NSEC_PER_MSEC);
		*send_ms = div_u64(send_ns, NSEC_PER_MSEC);
		return -EAGAIN;
	}
	if (sent != -EBUSY || !intact || done) {
		ic_ktap_diag("harness_send_refused: a send while a job was out: %d, %s, %s",
			     sent, intact ? "the job intact" : "overwritten",
			     done ? "marked done" : "not done");
		return 0;
	}
	if (err || c->held != 1 || c->intruder || atomic_read(&j->out) || j->overlaps != 1) {
		ic_ktap_diag("harness_send_refused: %d, held %u, intruder %u, out %d, overlaps %u",
			     err, c->held, c->intruder, atomic_read(&j->out), j->overlaps);
		return 0;
	}
	return 1;
}

/**
 * icb_send_refused_check() - a send to a target whose job is still out is
 * refused, and the job out is neither overwritten nor marked done.
 * @t: a target on another CPU, with no job out.
 * @skip: set to the reason when the check cannot run (one CPU), or could
 *	not decide in ICB_SEND_RUNS runs (below).
 *
 * Holds @t's CPU in a job, sends a second job while the first is out, and
 * requires -EBUSY, the first job's fields intact, @t still not done, and
 * after the release: the first job ran once, the second never.
 *
 * The held job ends by itself after ICB_SEND_HOLD_MS, so that a sender
 * that never releases it costs half a second, not the CPU. A run whose
 * sender looked only after that (its vCPU off a busy host for half a
 * second between two sends) tested nothing: the held job had ended, and
 * a send then is right to go out. Such a run is the host's, told by the
 * held job itself (it timed out unreleased), not by a time the sender
 * measures: the check runs again, and after ICB_SEND_RUNS such runs it
 * is a skip with the measurement ("host stall in 3 runs: ...", which
 * tests/expected-skips allows once a boot). A run whose held job was out
 * through the send decides, however slow the host. A send that waits for
 * the job out instead of refusing it makes every run look so (the job
 * times out while the sender sits in the send): the send takes a few
 * microseconds, so one that took half the hold or more in every run is
 * the send's, a failure, not the host's.
 *
 * Context: process; sleeps up to a few seconds a run.
 * Return: true if it held (or was skipped); false, with a diagnostic.
 */
bool icb_send_refused_check(struct icb_target *t, const char **skip)
{
	/* Not on the stack: the target keeps @j (t->jobs) and a late job @c. */
	static struct icb_send_check c;
	static struct icb_jobs j;
	static char why[96], skip_why[128];
	unsigned int run, late_ms = 0, send_ms = 0, long_sends = 0;
	int r;

	if (t->cpu == raw_smp_processor_id()) {
		*skip = "needs 2 or more CPUs: the held job's target is another CPU";
		return true;
	}
	for (run = 1; run <= ICB_SEND_RUNS; run++) {
		r = icb_send_refused_run(t, &c, &j, &late_ms, &send_ms);
		if (r != -EAGAIN)
			return r;
		ic_ktap_diag("harness_send_refused: host stall in run %u of %u: %s", run,
			     ICB_SEND_RUNS, icb_send_late(why, sizeof(why), late_ms));
		ic_ktap_diag("harness_send_refused: the send itself took %u ms", send_ms);
		long_sends += send_ms >= ICB_SEND_HOLD_MS / 2;
	}
	if (long_sends == ICB_SEND_RUNS) {
		ic_ktap_diag("harness_send_refused: a send took %u ms or more in every run",
			     ICB_SEND_HOLD_MS / 2);
		ic_ktap_diag("harness_send_refused: it waited for the job out instead of refusing");
		return false;
	}
	snprintf(skip_why, sizeof(skip_why), "host stall in %u runs: %s", ICB_SEND_RUNS,
		 icb_send_late(why, sizeof(why), late_ms));
	*skip = skip_why;
	return true;
}

/**
 * icb_jobs_finish() - the end of every job of @j sent to @t, on every path.
 * @j: the set.
 * @t: the target.
 * @name: for the diagnostic.
 * @err: the sender's error so far (the send's, or a wait of the host's
 *	that gave up): the job is then told to stop at once.
 * @ms: how long the job may take.
 *
 * Waits up to @ms; a job that is late, or whose sender failed, is told to
 * stop (@j->stop) and waited for ICB_JOBS_QUIESCE_MS more. One still out
 * then makes @j stuck, and the module takes a reference to itself, so that
 * no rmmod frees its code under the job. A target with no job out returns
 * at once.
 *
 * Context: process; sleeps.
 * Return: @err, or -ETIMEDOUT if the job was late.
 */
int icb_jobs_finish(struct icb_jobs *j, struct icb_target *t, const char *name, int err,
		    unsigned int ms)
{
	if (!err && !icb_wait(t, ms))
		return 0;
	if (!err)
		err = -ETIMEDOUT;
	/* Read with READ_ONCE() by the job's waits; it only cuts them short. */
	WRITE_ONCE(j->stop, true);
	if (icb_wait(t, ICB_JOBS_QUIESCE_MS)) {
		if (!j->stuck)
			__module_get(THIS_MODULE);
		j->stuck = true;
		ic_ktap_diag("%s: CPU%d's job stuck %u ms after stop: module pinned",
			     name, t->cpu, ICB_JOBS_QUIESCE_MS);
	}
	return err;
}

/**
 * icb_jobs_quiesced() - the rule of struct icb_jobs held: no send found
 * a job still out, none is out now, none is stuck, and no timer of the
 * caller's (@timers) is left queued.
 * @j: the set.
 * @name: the KTAP case, for the diagnostic.
 * @timers: the caller's timers still queued.
 *
 * Context: process, before the teardown that frees what the jobs touch.
 * Return: true if it held.
 */
bool icb_jobs_quiesced(const struct icb_jobs *j, const char *name, unsigned int timers)
{
	int out = atomic_read(&j->out);
	bool ok = !out && !j->overlaps && !j->stuck && !timers;

	if (!ok)
		ic_ktap_diag("%s: out %d, sent over one %u, stuck %d, timers %u",
			     name, out, j->overlaps, j->stuck, timers);
	return ok;
}
