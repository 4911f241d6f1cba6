// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore_bench - the scenario that `make trace` records: the big IRQ lock
 * seen at work.
 *
 * With run=trace the module measures nothing at load; it makes the file
 * /sys/kernel/debug/irqcore_bench/scenario, and each write to it runs the
 * scenario once and returns when it is over, so that the guest can turn
 * the trace events on first and off after:
 *
 *   - on the first CPU a driver enters a critical section of
 *     ICB_SCN_HOLD_US, then stays out of it as long, for ICB_SCN_MS: under
 *     biglock with ic_cli()/ic_sti(), under nolock with
 *     raw_spin_lock_irqsave() on its own lock (the seed's conversion);
 *     and on past ICB_SCN_MS, up to ICB_SCN_MAX_MS, until the run has
 *     shown what make check's timeline judges (icb_scn_seen_enough();
 *     a run that never does fails): on
 *     a busy host the guest's clock runs while its vCPUs wait for the
 *     host, and 20 ms may hold a single handler run;
 *   - every other CPU is kept busy by a spinning kthread and takes a line
 *     of its own, raised every ICB_SCN_PERIOD_US by a hard hrtimer on the
 *     second CPU; the handler spins ICB_SCN_HANDLER_US, touches nothing of
 *     the driver's, schedules a tasklet every fourth run and marks a bottom
 *     half every sixteenth;
 *   - at the end one synchronize_irq().
 *
 * Under biglock the handlers of every CPU stop while the first CPU holds
 * cli(); under nolock they do not. The events of trace.h (the driver's
 * section) and of irqcore show it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/trace_clock.h>
#include <linux/workqueue.h>

#include <irqcore.h>
#include <irqcore_ktap.h>

#include "harness.h"
#include "scenario.h"

#define CREATE_TRACE_POINTS
#include "trace.h"

#define ICB_SCN_LINE0		40	/* CPU n's line is ICB_SCN_LINE0 + n */
#define ICB_SCN_BH		9
#define ICB_SCN_MS		20
#define ICB_SCN_HOLD_US		300
#define ICB_SCN_PERIOD_US	100
#define ICB_SCN_HANDLER_US	10
#define ICB_SCN_MAX_MS		10000
/* Handler runs enough for 16 tasklets and 4 bottom halves. */
#define ICB_SCN_MIN_RUNS	64
/*
 * What make check's timeline draws (tests/lib/timeline.py: WARMUP_US,
 * LEAD_US, MAX_WINDOW_US, MIN_SECTIONS): a window of at most 12 ms,
 * opening 100 us before a section that began 2 ms or more after the
 * first, with three whole sections in it that the trace clock saw last
 * half their length or more.
 */
#define ICB_SCN_WARMUP_NS	(2000 * NSEC_PER_USEC)
#define ICB_SCN_LEAD_NS		(100 * NSEC_PER_USEC)
#define ICB_SCN_WINDOW_NS	(12000 * NSEC_PER_USEC)
#define ICB_SCN_WINDOW_SECTIONS	3

/**
 * struct icb_scn - the scenario's state.
 * @lock: the driver's lock (nolock); nothing else takes it.
 * @big: this load of irqcore is biglock.
 * @timer: the raiser, on the second CPU.
 * @period: its period.
 * @ncpus: the CPUs of the scenario (the first holds; the others take lines).
 * @tasks: the holder (index 0) and the spinners.
 * @go: the raiser runs: the holder may start.
 * @done: the holder's sections are over (set by the holder).
 * @stop: ends the spinners.
 * @spins0: the global lock's irq_enter() spins before the run (biglock).
 * @ran_ms: how long the holder's sections went on.
 * @first_ns: the trace clock just after the first section's begin event.
 * @recent: the trace clock before the begin events of the last regular
 *	sections past the warm-up, oldest first (the holder's alone).
 * @nrecent: how many of @recent are filled.
 * @window: a window that the timeline can draw has gone by.
 * @tasklet: scheduled by the handler, for the softirq spans.
 * @runs: handler runs.
 * @outside: handler runs outside hardirq.
 * @tasklet_runs: tasklet runs.
 * @bh_runs: bottom-half runs.
 * @dir: the debugfs directory.
 */
struct icb_scn {
	raw_spinlock_t lock;		/* the driver's lock; nothing else */
	bool big;
	struct hrtimer timer;
	ktime_t period;
	unsigned int ncpus;
	struct task_struct **tasks;
	bool go;
	bool done;
	bool stop;
	unsigned long spins0;
	unsigned int ran_ms;
	u64 first_ns;
	u64 recent[ICB_SCN_WINDOW_SECTIONS];
	unsigned int nrecent;
	bool window;
	struct ic_tasklet tasklet;
	atomic_t runs;
	atomic_t outside;
	atomic_t tasklet_runs;
	atomic_t bh_runs;
	struct dentry *dir;
};

static struct icb_scn icb_scn;
/* One run at a time: the writes of two shells would share the lines. */
static DEFINE_MUTEX(icb_scn_mutex);

static void icb_scn_tasklet(unsigned long data)
{
	atomic_inc(&icb_scn.tasklet_runs);
}

static void icb_scn_bh(void)
{
	atomic_inc(&icb_scn.bh_runs);
}

static void icb_scn_handler(unsigned int irq, void *dev_id)
{
	int n = atomic_inc_return(&icb_scn.runs);

	if (!in_hardirq())
		atomic_inc(&icb_scn.outside);
	udelay(ICB_SCN_HANDLER_US);
	if (!(n % 4))
		ic_tasklet_schedule(&icb_scn.tasklet);
	if (!(n % 16))
		ic_mark_bh(ICB_SCN_BH);
}

static enum hrtimer_restart icb_scn_raiser(struct hrtimer *t)
{
	unsigned int i;

	for (i = 1; i < icb_scn.ncpus; i++)
		ic_raise(ICB_SCN_LINE0 + i);
	hrtimer_forward_now(t, icb_scn.period);
	return HRTIMER_RESTART;
}

static void icb_scn_arm(void *unused)
{
	hrtimer_start(&icb_scn.timer, icb_scn.period, HRTIMER_MODE_REL_PINNED_HARD);
}

/* The biglock's irq_enter() spins since load (0 under nolock). */
static unsigned long icb_scn_spins(void)
{
	struct ic_cli_stats st;

	ic_cli_stats(&st);
	return st.enter_spins;
}

/*
 * Has the run shown every event that make check's timeline looks for?
 * Handler runs on every line, so tasklets and bottom halves, and under
 * biglock an irq_enter() that found the lock held and spun.
 */
static bool icb_scn_seen_enough(void)
{
	if (atomic_read(&icb_scn.runs) < ICB_SCN_MIN_RUNS ||
	    !atomic_read(&icb_scn.tasklet_runs) || !atomic_read(&icb_scn.bh_runs))
		return false;
	return !icb_scn.big || icb_scn_spins() != icb_scn.spins0;
}

/*
 * One section of the holder, by the trace clock (the guest's trace uses
 * the global clock): @out0 before its begin event, @in0 after it, @in1
 * before its end event, @out1 after it. The events lie between the outer
 * reads, and at least the inner reads apart. A section the timeline calls
 * regular (in1 - in0 half the hold or more: the clock did not stand still)
 * that began past the warm-up joins @recent; once the last
 * ICB_SCN_WINDOW_SECTIONS of them fit a window, one has gone by. On a busy
 * host, sections stretched by a vCPU put aside do not fit, and the run
 * goes on until some do: the timeline's window is then there to draw.
 */
static void icb_scn_note_section(u64 out0, u64 in0, u64 in1, u64 out1)
{
	unsigned int n = ICB_SCN_WINDOW_SECTIONS;

	if (!icb_scn.first_ns) {
		icb_scn.first_ns = in0;
		return;
	}
	if (in1 - in0 < ICB_SCN_HOLD_US * NSEC_PER_USEC / 2 ||
	    out0 < icb_scn.first_ns + ICB_SCN_WARMUP_NS)
		return;
	if (icb_scn.nrecent == n) {
		memmove(icb_scn.recent, icb_scn.recent + 1, (n - 1) * sizeof(icb_scn.recent[0]));
		icb_scn.nrecent--;
	}
	icb_scn.recent[icb_scn.nrecent++] = out0;
	/* Less a microsecond: ftrace prints its timestamps rounded to one. */
	if (icb_scn.nrecent == n &&
	    out1 - icb_scn.recent[0] + ICB_SCN_LEAD_NS <= ICB_SCN_WINDOW_NS - NSEC_PER_USEC)
		icb_scn.window = true;
}

/*
 * The driver on the first CPU: in for ICB_SCN_HOLD_US, out as long, for
 * ICB_SCN_MS, and on until the run has seen enough (the events, and a
 * window to draw them in) or ICB_SCN_MAX_MS.
 */
static int icb_scn_holder(void *unused)
{
	unsigned long start, end, cap, flags;
	u64 out0, in0, in1, out1;

	while (!READ_ONCE(icb_scn.go) && !kthread_should_stop())
		usleep_range(50, 100);
	start = jiffies;
	end = start + msecs_to_jiffies(ICB_SCN_MS);
	cap = start + msecs_to_jiffies(ICB_SCN_MAX_MS);
	while (!kthread_should_stop() && time_before(jiffies, cap) &&
	       (time_before(jiffies, end) || !icb_scn_seen_enough() || !icb_scn.window)) {
		out0 = trace_clock_global();
		trace_irqcore_bench_hold_begin(icb_scn.big);
		in0 = trace_clock_global();
		if (icb_scn.big) {
			ic_cli();
			udelay(ICB_SCN_HOLD_US);
			ic_sti();
		} else {
			raw_spin_lock_irqsave(&icb_scn.lock, flags);
			udelay(ICB_SCN_HOLD_US);
			raw_spin_unlock_irqrestore(&icb_scn.lock, flags);
		}
		in1 = trace_clock_global();
		trace_irqcore_bench_hold_end(icb_scn.big);
		out1 = trace_clock_global();
		icb_scn_note_section(out0, in0, in1, out1);
		udelay(ICB_SCN_HOLD_US);
		cond_resched();
	}
	icb_scn.ran_ms = jiffies_to_msecs(jiffies - start);
	/* Pairs with the writer's READ_ONCE() in icb_scn_run(): ran_ms first. */
	smp_store_release(&icb_scn.done, true);
	icb_kthread_wait_stop();
	return 0;
}

/*
 * Keeps a line's CPU out of idle, interrupts on, until told to stop. It
 * yields: on a kernel without full preemption a task woken on this CPU
 * (the writer of the scenario file, say) would otherwise never run again.
 */
static int icb_scn_spinner(void *unused)
{
	while (!READ_ONCE(icb_scn.stop))
		cond_resched();
	icb_kthread_wait_stop();
	return 0;
}

static void icb_scn_stop_tasks(void)
{
	unsigned int i;

	WRITE_ONCE(icb_scn.stop, true);
	for (i = 0; i < icb_scn.ncpus; i++)
		if (icb_scn.tasks[i])
			kthread_stop(icb_scn.tasks[i]);
}

/* Start the holder and the spinners, one on each CPU. */
static int icb_scn_start_tasks(void)
{
	unsigned int i = 0;
	int cpu;

	WRITE_ONCE(icb_scn.go, false);
	WRITE_ONCE(icb_scn.done, false);
	WRITE_ONCE(icb_scn.stop, false);
	/* The holder's alone once it runs; it does not run yet. */
	icb_scn.first_ns = 0;
	icb_scn.nrecent = 0;
	icb_scn.window = false;
	for_each_online_cpu(cpu) {
		struct task_struct *t;

		if (i == icb_scn.ncpus)
			break;
		t = kthread_create_on_cpu(i ? icb_scn_spinner : icb_scn_holder, NULL, cpu,
					  "icb_scn/%u");
		if (IS_ERR(t))
			return PTR_ERR(t);
		icb_scn.tasks[i++] = t;
	}
	for (i = 0; i < icb_scn.ncpus; i++)
		wake_up_process(icb_scn.tasks[i]);
	return 0;
}

static void icb_scn_free_lines(unsigned int n)
{
	while (n-- > 1)
		ic_free_irq(ICB_SCN_LINE0 + n, &icb_scn);
}

/*
 * One run of the scenario, on the first CPU (work_on_cpu()): the holder's
 * CPU, so that the caller never shares a CPU with a spinner. Return: 0,
 * or -errno.
 */
static long icb_scn_run(void *unused)
{
	unsigned int i;
	int cpu, err;

	icb_scn.ncpus = min(num_online_cpus(), ic_nr_irqs() - ICB_SCN_LINE0);
	if (icb_scn.ncpus < 2)
		return -ENODEV;		/* a holder and a CPU to take lines */
	icb_scn.tasks = kcalloc(icb_scn.ncpus, sizeof(*icb_scn.tasks), GFP_KERNEL);
	if (!icb_scn.tasks)
		return -ENOMEM;
	icb_scn.big = !strcmp(ic_regime_name(), "biglock");
	icb_scn.spins0 = icb_scn_spins();
	atomic_set(&icb_scn.runs, 0);
	atomic_set(&icb_scn.outside, 0);
	atomic_set(&icb_scn.tasklet_runs, 0);
	atomic_set(&icb_scn.bh_runs, 0);
	ic_tasklet_init(&icb_scn.tasklet, icb_scn_tasklet, 0);
	ic_init_bh(ICB_SCN_BH, icb_scn_bh);

	i = 1;
	for_each_online_cpu(cpu) {
		if (cpu == cpumask_first(cpu_online_mask))
			continue;
		if (i == icb_scn.ncpus)
			break;
		err = ic_request_irq(ICB_SCN_LINE0 + i, icb_scn_handler, IC_SA_INTERRUPT,
				     "scenario", &icb_scn);
		if (err)
			goto out_lines;
		ic_set_affinity(ICB_SCN_LINE0 + i, cpu);
		i++;
	}

	err = icb_scn_start_tasks();
	if (!err) {
		hrtimer_init(&icb_scn.timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
		icb_scn.timer.function = icb_scn_raiser;
		icb_scn.period = ns_to_ktime(ICB_SCN_PERIOD_US * NSEC_PER_USEC);
		cpu = cpumask_next(cpumask_first(cpu_online_mask), cpu_online_mask);
		err = smp_call_function_single(cpu, icb_scn_arm, NULL, 1);
		WRITE_ONCE(icb_scn.go, true);
		/* Bounded by the holder's ICB_SCN_MAX_MS. */
		while (!smp_load_acquire(&icb_scn.done))
			usleep_range(5000, 10000);
		hrtimer_cancel(&icb_scn.timer);
		ic_synchronize_irq(ICB_SCN_LINE0 + 1);
	}
	icb_scn_stop_tasks();
	if (!err && (!atomic_read(&icb_scn.runs) || atomic_read(&icb_scn.outside)))
		err = -EIO;
	/*
	 * ICB_SCN_MAX_MS without what the run is for (under biglock, a
	 * handler that waited in irq_enter() for the holder's sti()): a
	 * loaded host shows it within a few hundred ms, so this is the
	 * code's doing.
	 */
	if (!err && !icb_scn_seen_enough()) {
		ic_ktap_diag("scenario: %u ms: runs %d, tasklets %d, bhs %d, irq_enter() spins %lu",
			     icb_scn.ran_ms, atomic_read(&icb_scn.runs),
			     atomic_read(&icb_scn.tasklet_runs), atomic_read(&icb_scn.bh_runs),
			     icb_scn_spins() - icb_scn.spins0);
		err = -ETIME;
	}
	/*
	 * No window in ICB_SCN_MAX_MS is a host that never ran the holder
	 * for 2 ms unbroken: the timeline says so (trace/window); the run's
	 * events are still there to check.
	 */
	pr_info("scenario: regime=%s cpus=%u ran %u ms (%d wanted) handler runs=%d (outside hardirq %d), tasklet runs=%d, bottom-half runs=%d, irq_enter() spins=%lu, window=%s: %s\n",
		ic_regime_name(), icb_scn.ncpus, icb_scn.ran_ms, ICB_SCN_MS,
		atomic_read(&icb_scn.runs), atomic_read(&icb_scn.outside),
		atomic_read(&icb_scn.tasklet_runs), atomic_read(&icb_scn.bh_runs),
		icb_scn_spins() - icb_scn.spins0, icb_scn.window ? "seen" : "none",
		err ? "FAILED" : "done");
out_lines:
	icb_scn_free_lines(i);
	ic_tasklet_kill(&icb_scn.tasklet);
	ic_remove_bh(ICB_SCN_BH);
	kfree(icb_scn.tasks);
	icb_scn.tasks = NULL;
	return err;
}

static ssize_t icb_scn_write(struct file *file, const char __user *buf, size_t len,
			     loff_t *ppos)
{
	struct ic_ktap k;
	int err;

	if (mutex_lock_interruptible(&icb_scn_mutex))
		return -ERESTARTSYS;
	/* A KTAP document of one case, so the runner judges the run too. */
	ic_ktap_begin(&k, 1);
	cpus_read_lock();
	err = work_on_cpu(cpumask_first(cpu_online_mask), icb_scn_run, NULL);
	cpus_read_unlock();
	if (err)
		ic_ktap_diag("scenario: %d", err);
	ic_ktap_result(&k, !err, "scenario", NULL);
	mutex_unlock(&icb_scn_mutex);
	return err ? err : len;
}

static const struct file_operations icb_scn_fops = {
	.owner = THIS_MODULE,
	.write = icb_scn_write,
	.llseek = noop_llseek,
};

/**
 * icb_scenario_init() - make /sys/kernel/debug/irqcore_bench/scenario.
 *
 * Context: process (module init).
 * Return: 0, or -ENODEV if debugfs is not there to hold the file.
 */
int icb_scenario_init(void)
{
	raw_spin_lock_init(&icb_scn.lock);
	icb_scn.dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	if (IS_ERR(icb_scn.dir))
		return -ENODEV;
	debugfs_create_file("scenario", 0200, icb_scn.dir, NULL, &icb_scn_fops);
	return 0;
}

/**
 * icb_scenario_exit() - remove the file; a run in progress holds the module.
 *
 * Context: process (module exit).
 */
void icb_scenario_exit(void)
{
	debugfs_remove_recursive(icb_scn.dir);
}
