// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore - the softirq engine of 2.5.28: softirq vectors, the per-CPU
 * ksoftirqd threads, tasklets and the old bottom halves on top of them.
 *
 * Locking: a CPU's pending mask and tasklet queues are touched only by
 * that CPU with local interrupts disabled. A tasklet's RUN bit keeps it
 * from running on two CPUs at once; the one global bh lock keeps bottom
 * halves from running on two CPUs at once (they were written for a world
 * with one CPU, and that is what the lock gives them).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/export.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>

#include <irqcore.h>

#include "compat.h"
#include "context.h"
#include "counter.h"
#include "faultpoint.h"
#include "misuse.h"
#include "softirq.h"
#include "spin.h"
#include "trace.h"

/**
 * struct ic_softirq_vec - one softirq vector.
 * @action: what runs; NULL while the vector is closed. Published with a
 *	release store after @data and @owner, read with an acquire load.
 * @data: its argument.
 * @owner: the module whose code @action is, or NULL for irqcore itself
 *	and built-in code; the vector is closed when @owner unloads.
 *
 * Opened and closed under ic_softirq_vec_lock; read locklessly by
 * ic_do_softirq().
 */
struct ic_softirq_vec {
	void (*action)(void *data);
	void *data;
	struct module *owner;
};

DEFINE_PER_CPU(struct ic_softirq_cpu, ic_softirq_cpu);
static struct ic_softirq_vec ic_softirq_vec[IC_NR_SOFTIRQS];
/* Serialises opening and closing vectors (and the module notifier). */
static DEFINE_MUTEX(ic_softirq_vec_lock);

static const char * const ic_softirq_names[] = {
	"HI", "NET_TX", "NET_RX", "TASKLET",
};

/**
 * ic_in_ksoftirqd() - is current one of irqcore's ksoftirqd threads?
 *
 * Context: any.
 * Return: true in this CPU's irqcore ksoftirqd.
 */
bool ic_in_ksoftirqd(void)
{
	return current == READ_ONCE(raw_cpu_ptr(&ic_softirq_cpu)->ksoftirqd);
}

static void ic_wakeup_ksoftirqd(struct ic_softirq_cpu *sc)
{
	struct task_struct *t = sc->ksoftirqd;

	if (t && !task_is_running(t))
		wake_up_process(t);
}

/* Raise @nr on this CPU. Context: interrupts disabled. */
static void __ic_raise_softirq(unsigned int nr)
{
	struct ic_softirq_cpu *sc = this_cpu_ptr(&ic_softirq_cpu);

	sc->pending |= 1U << nr;
	/*
	 * In interrupt context the softirq runs on the way out (irq_exit or
	 * local_bh_enable); otherwise nothing is on its way, so ksoftirqd
	 * must come and run it.
	 */
	if (!__ic_in_interrupt())
		ic_wakeup_ksoftirqd(sc);
}

/* A vector or bottom-half number out of range: the caller's error, reported. */
static bool ic_out_of_range(const char *fn, unsigned int nr, unsigned int limit)
{
	if (nr < limit)
		return false;
	ic_api_misuse("%s(%u): out of range (valid 0..%u); nothing done\n", fn, nr, limit - 1);
	return true;
}

/**
 * ic_raise_softirq() - mark softirq @nr pending on this CPU.
 * @nr: a vector below IC_NR_SOFTIRQS.
 *
 * Context: any.
 */
void ic_raise_softirq(unsigned int nr)
{
	unsigned long flags;

	if (ic_out_of_range("raise_softirq", nr, IC_NR_SOFTIRQS))
		return;
	local_irq_save(flags);
	__ic_raise_softirq(nr);
	local_irq_restore(flags);
}
EXPORT_SYMBOL_GPL(ic_raise_softirq);

/* Is @nr a vector that irqcore's own tasklets and bottom halves run on? */
static bool ic_softirq_owned(unsigned int nr)
{
	return nr == IC_HI_SOFTIRQ || nr == IC_TASKLET_SOFTIRQ;
}

/* Close @nr and wait until no CPU runs its old action. Context: process. */
static void __ic_close_softirq(unsigned int nr)
{
	lockdep_assert_held(&ic_softirq_vec_lock);
	WRITE_ONCE(ic_softirq_vec[nr].action, NULL);
	/*
	 * Every action runs with preemption disabled (ic_do_softirq() is
	 * called from irq_exit, from local_bh_enable under the counter's
	 * preempt_disable(), or by ksoftirqd inside preempt_disable()), and
	 * since Linux 4.20 synchronize_rcu() waits for every such section:
	 * after it, nobody is inside the old action, and its module may go.
	 */
	synchronize_rcu();
	ic_softirq_vec[nr].data = NULL;
	ic_softirq_vec[nr].owner = NULL;
}

/**
 * __ic_open_softirq() - install the action of softirq vector @nr; called
 * as ic_open_softirq(nr, action, data), which passes the caller's module.
 * @nr: a vector below IC_NR_SOFTIRQS, other than IC_HI_SOFTIRQ and
 *	IC_TASKLET_SOFTIRQ, which irqcore's tasklets and bottom halves own.
 * @action: runs in softirq context with interrupts enabled; not NULL.
 * @data: its argument.
 * @owner: the module @action belongs to (THIS_MODULE of the caller).
 *
 * A vector belongs to the module that opened it: that module closes it
 * with ic_close_softirq() before it unloads, and if it does not, irqcore
 * closes it when the module goes (with a warning), so that a later raise
 * never calls code that has been freed.
 *
 * Context: process; sleeps.
 * Return: 0; -EINVAL for a bad vector, an owned one or a NULL @action;
 * -EBUSY if @nr is open already. Each refusal is reported and changes
 * nothing.
 */
int __ic_open_softirq(unsigned int nr, void (*action)(void *data), void *data,
		      struct module *owner)
{
	if (ic_out_of_range("open_softirq", nr, IC_NR_SOFTIRQS))
		return -EINVAL;
	if (ic_softirq_owned(nr) || !action) {
		ic_api_misuse("open_softirq(%u): %s; nothing done\n", nr,
			      action ? "the vector runs irqcore's tasklets" :
				       "no action (close with ic_close_softirq())");
		return -EINVAL;
	}
	if (owner == THIS_MODULE)
		owner = NULL;

	mutex_lock(&ic_softirq_vec_lock);
	if (ic_softirq_vec[nr].action) {
		mutex_unlock(&ic_softirq_vec_lock);
		ic_api_misuse("open_softirq(%u): already open; nothing done\n", nr);
		return -EBUSY;
	}
	ic_softirq_vec[nr].data = data;
	ic_softirq_vec[nr].owner = owner;
	/* @data and @owner before @action: pairs with ic_do_softirq()'s acquire. */
	smp_store_release(&ic_softirq_vec[nr].action, action);
	mutex_unlock(&ic_softirq_vec_lock);
	return 0;
}
EXPORT_SYMBOL_GPL(__ic_open_softirq);

/**
 * ic_close_softirq() - remove the action of vector @nr.
 * @nr: a vector that the caller opened with ic_open_softirq().
 *
 * Returns once no CPU runs the old action any more. A raise after this
 * runs nothing.
 *
 * Context: process; sleeps.
 */
void ic_close_softirq(unsigned int nr)
{
	if (ic_out_of_range("close_softirq", nr, IC_NR_SOFTIRQS))
		return;
	if (ic_softirq_owned(nr)) {
		ic_api_misuse("close_softirq(%u): irqcore's own vector; nothing done\n", nr);
		return;
	}
	mutex_lock(&ic_softirq_vec_lock);
	if (ic_softirq_vec[nr].action)
		__ic_close_softirq(nr);
	else
		ic_api_misuse("close_softirq(%u): not open; nothing done\n", nr);
	mutex_unlock(&ic_softirq_vec_lock);
}
EXPORT_SYMBOL_GPL(ic_close_softirq);

/*
 * A module is going (its exit has run; its code is freed after this):
 * close any vector it left open. Without this the next raise of the
 * vector would call freed memory.
 */
static int ic_softirq_module_going(struct notifier_block *nb, unsigned long state, void *data)
{
	struct module *mod = data;
	unsigned int nr;

	if (state != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	mutex_lock(&ic_softirq_vec_lock);
	for (nr = 0; nr < IC_NR_SOFTIRQS; nr++) {
		if (!ic_softirq_vec[nr].action || ic_softirq_vec[nr].owner != mod)
			continue;
		ic_api_misuse("module %s unloaded with softirq %u open; closed\n",
			      module_name(mod), nr);
		__ic_close_softirq(nr);
	}
	mutex_unlock(&ic_softirq_vec_lock);
	return NOTIFY_OK;
}

static struct notifier_block ic_softirq_module_nb = {
	.notifier_call = ic_softirq_module_going,
};

/**
 * ic_do_softirq() - run this CPU's pending softirqs.
 *
 * Returns at once in interrupt context: softirqs never run inside it. The
 * restart rule of 2.5: after a pass, vectors raised meanwhile are run
 * again only if they had not run in this call yet; what is left goes to
 * ksoftirqd, so a softirq that keeps raising itself cannot starve tasks.
 *
 * Context: any; enables interrupts while the vectors run.
 */
void ic_do_softirq(void)
{
	struct ic_softirq_cpu *sc;
	unsigned int pending, mask, nr;
	unsigned long flags;
	unsigned int cookie;

	if (__ic_in_interrupt())
		return;

	local_irq_save(flags);
	sc = this_cpu_ptr(&ic_softirq_cpu);
	pending = sc->pending;
	if (pending) {
		mask = ~pending;
		__ic_bh_disable();
restart:
		sc->pending = 0;
		cookie = ic_irqs_on();
		for (nr = 0; pending; nr++, pending >>= 1) {
			void (*action)(void *data);

			if (!(pending & 1))
				continue;
			/* Pairs with ic_open_softirq()'s release store. */
			action = smp_load_acquire(&ic_softirq_vec[nr].action);
			if (action) {
				trace_irqcore_softirq_entry(nr);
				action(ic_softirq_vec[nr].data);
				trace_irqcore_softirq_exit(nr);
			}
			sc->runs[nr]++;
		}
		ic_irqs_off(cookie);
		pending = sc->pending;
		if (pending & mask) {
			mask &= ~pending;
			goto restart;
		}
		__ic_bh_enable();
		if (pending)
			ic_wakeup_ksoftirqd(sc);
	}
	local_irq_restore(flags);
}
EXPORT_SYMBOL_GPL(ic_do_softirq);

static int ic_ksoftirqd(void *arg)
{
	struct ic_softirq_cpu *sc = arg;

	set_user_nice(current, 19);
	for (;;) {
		/* Its CPU is going offline: wait, parked, until it is back. */
		if (kthread_should_park()) {
			kthread_parkme();
			continue;
		}
		ic_fault_delay(IC_FAULT_KSOFTIRQD_WINDOW);
		set_current_state(TASK_INTERRUPTIBLE);
		/*
		 * Look again now that the state is set: kthread_park() (or
		 * kthread_stop()) sets its flag and then wakes us, and that
		 * wake-up is lost if it came while we were still running
		 * between the check above and set_current_state() (preempted
		 * there, say). A park request seen here goes back to the top
		 * and parks; sleeping on it would wait for a wake-up that has
		 * been spent, and the CPU's offlining would never finish.
		 */
		if (kthread_should_park()) {
			__set_current_state(TASK_RUNNING);
			continue;
		}
		if (kthread_should_stop())
			break;
		if (!READ_ONCE(sc->pending)) {
			schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);
		while (READ_ONCE(sc->pending) && !kthread_should_park()) {
			preempt_disable();
			ic_do_softirq();
			preempt_enable();
			cond_resched();
		}
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

/* Tasklets. */

/**
 * ic_tasklet_init() - set up a tasklet, enabled and not scheduled.
 * @t: the tasklet.
 * @func: runs in softirq context.
 * @data: its argument.
 *
 * Context: any.
 */
void ic_tasklet_init(struct ic_tasklet *t, void (*func)(unsigned long),
		     unsigned long data)
{
	t->next = NULL;
	t->state = 0;
	atomic_set(&t->count, 0);
	t->func = func;
	t->data = data;
}
EXPORT_SYMBOL_GPL(ic_tasklet_init);

static void __ic_tasklet_queue(struct ic_tasklet *t, bool hi)
{
	struct ic_softirq_cpu *sc;
	unsigned long flags;

	local_irq_save(flags);
	sc = this_cpu_ptr(&ic_softirq_cpu);
	if (hi) {
		t->next = sc->hi_tasklets;
		sc->hi_tasklets = t;
		__ic_raise_softirq(IC_HI_SOFTIRQ);
	} else {
		t->next = sc->tasklets;
		sc->tasklets = t;
		__ic_raise_softirq(IC_TASKLET_SOFTIRQ);
	}
	local_irq_restore(flags);
}

/**
 * ic_tasklet_schedule() - run @t once soon, on this CPU.
 * @t: the tasklet; scheduling one already scheduled does nothing.
 *
 * Context: any.
 */
void ic_tasklet_schedule(struct ic_tasklet *t)
{
	if (!test_and_set_bit(IC_TASKLET_STATE_SCHED, &t->state))
		__ic_tasklet_queue(t, false);
}
EXPORT_SYMBOL_GPL(ic_tasklet_schedule);

/**
 * ic_tasklet_hi_schedule() - as ic_tasklet_schedule(), on HI_SOFTIRQ.
 * @t: the tasklet.
 *
 * Context: any.
 */
void ic_tasklet_hi_schedule(struct ic_tasklet *t)
{
	if (!test_and_set_bit(IC_TASKLET_STATE_SCHED, &t->state))
		__ic_tasklet_queue(t, true);
}
EXPORT_SYMBOL_GPL(ic_tasklet_hi_schedule);

static bool ic_tasklet_trylock(struct ic_tasklet *t)
{
	return !test_and_set_bit(IC_TASKLET_STATE_RUN, &t->state);
}

static void ic_tasklet_unlock(struct ic_tasklet *t)
{
	/* The tasklet's work is visible before RUN clears (tasklet_unlock). */
	smp_mb__before_atomic();
	clear_bit(IC_TASKLET_STATE_RUN, &t->state);
}

static void ic_tasklet_unlock_wait(struct ic_tasklet *t)
{
	while (test_bit(IC_TASKLET_STATE_RUN, &t->state))
		cpu_relax();
}

/*
 * One pass over a CPU's queue. A tasklet that is disabled, or running on
 * another CPU right now, goes back on the queue and the vector is raised
 * again: it runs later, never twice at once.
 */
static void ic_tasklet_action(bool hi)
{
	struct ic_softirq_cpu *sc;
	struct ic_tasklet *list, *t;

	local_irq_disable();
	sc = this_cpu_ptr(&ic_softirq_cpu);
	list = hi ? sc->hi_tasklets : sc->tasklets;
	if (hi)
		sc->hi_tasklets = NULL;
	else
		sc->tasklets = NULL;
	local_irq_enable();

	while (list) {
		t = list;
		list = list->next;
		if (ic_tasklet_trylock(t)) {
			if (!atomic_read(&t->count)) {
				if (!test_and_clear_bit(IC_TASKLET_STATE_SCHED, &t->state))
					WARN_ONCE(1, KBUILD_MODNAME ": tasklet queued but not SCHED\n");
				trace_irqcore_tasklet_entry(t->func);
				t->func(t->data);
				trace_irqcore_tasklet_exit(t->func);
				ic_tasklet_unlock(t);
				continue;
			}
			ic_tasklet_unlock(t);
		}
		local_irq_disable();
		if (hi) {
			t->next = sc->hi_tasklets;
			sc->hi_tasklets = t;
			__ic_raise_softirq(IC_HI_SOFTIRQ);
		} else {
			t->next = sc->tasklets;
			sc->tasklets = t;
			__ic_raise_softirq(IC_TASKLET_SOFTIRQ);
		}
		local_irq_enable();
	}
}

static void ic_tasklet_softirq(void *data)
{
	ic_tasklet_action(false);
}

static void ic_tasklet_hi_softirq(void *data)
{
	ic_tasklet_action(true);
}

/**
 * ic_tasklet_disable_nosync() - keep @t from running, without waiting.
 * @t: the tasklet. Disables nest.
 *
 * Context: any.
 */
void ic_tasklet_disable_nosync(struct ic_tasklet *t)
{
	atomic_inc(&t->count);
	/* The new count is visible before we look at RUN (tasklet_disable). */
	smp_mb__after_atomic();
}
EXPORT_SYMBOL_GPL(ic_tasklet_disable_nosync);

/**
 * ic_tasklet_disable() - keep @t from running; wait if it runs now.
 * @t: the tasklet.
 *
 * Context: any but @t itself; spins.
 */
void ic_tasklet_disable(struct ic_tasklet *t)
{
	ic_tasklet_disable_nosync(t);
	ic_tasklet_unlock_wait(t);
	/* Nothing of the disabled tasklet's last run may be reordered past here. */
	smp_mb();
}
EXPORT_SYMBOL_GPL(ic_tasklet_disable);

/**
 * ic_tasklet_enable() - undo one disable.
 * @t: the tasklet.
 *
 * Context: any.
 */
void ic_tasklet_enable(struct ic_tasklet *t)
{
	/* Our changes are visible before the tasklet may run again. */
	smp_mb__before_atomic();
	atomic_dec(&t->count);
}
EXPORT_SYMBOL_GPL(ic_tasklet_enable);

/**
 * ic_tasklet_kill() - wait until @t is neither scheduled nor running.
 * @t: the tasklet; it must not be rescheduled by others meanwhile.
 *
 * Context: process; sleeps.
 */
void ic_tasklet_kill(struct ic_tasklet *t)
{
	/*
	 * The bound is on the jiffies this task slept waiting, as a spin's
	 * is on its CPU's time: a look that comes much later than the jiffy
	 * asked for counts as a jiffy and IC_SPIN_GAP_NS, not the clock's
	 * whole step (this vCPU may have been off a busy host), so that a
	 * wait that never ends is still reported (struct ic_spin).
	 */
	struct ic_spin s = IC_SPIN_SLEEP_INIT("tasklet_kill", jiffies_to_nsecs(1));
	u64 waited;

	ic_spin_account(&s, ktime_get_ns(), &waited);
	while (test_and_set_bit(IC_TASKLET_STATE_SCHED, &t->state)) {
		do {
			schedule_timeout_uninterruptible(1);
			/*
			 * A tasklet queued on a CPU whose softirqs never run
			 * again would keep this waiting for ever: say so once,
			 * as every bounded wait of irqcore does, and go on.
			 */
			if (ic_spin_account(&s, ktime_get_ns(), &waited) && ic_spin_first_report())
				WARN(1, KBUILD_MODNAME ": tasklet_kill(%ps) has waited %llu ms for the tasklet to run, %llu ms of it asleep a jiffy at a time (stall_ms bound %llu ms)\n",
				     t->func, waited / NSEC_PER_MSEC, s.ran / NSEC_PER_MSEC,
				     ic_spin_bound_ns() / NSEC_PER_MSEC);
		} while (test_bit(IC_TASKLET_STATE_SCHED, &t->state));
	}
	ic_tasklet_unlock_wait(t);
	clear_bit(IC_TASKLET_STATE_SCHED, &t->state);
}
EXPORT_SYMBOL_GPL(ic_tasklet_kill);

/*
 * Bottom halves: 32 numbered routines, each a HI tasklet.
 *
 * Under biglock a bottom half and a global cli() section exclude each
 * other. Each side stores its own flag and then loads the other's, so
 * each side needs a full barrier between the two (x86 lets a load pass an
 * earlier store to another word, from the store buffer):
 *
 *   CPU A: bh_action()                     CPU B: cli()
 *   ic_bh_held = 1                         test_and_set_bit(global lock)
 *   smp_mb()                               [a locked RMW: full barrier]
 *   test_bit(global lock)?  -> re-mark     ic_bh_held?  -> wait for it
 *
 * At least one of them sees the other's store, so a bottom half never
 * runs inside a global cli() section. 2.5.27 read the bh lock word itself,
 * which spin_trylock() had set with a locked instruction: the same order.
 */

/* Raw: bottom halves run from irq_exit() in hardirq context, also on RT. */
static DEFINE_RAW_SPINLOCK(ic_global_bh_lock);
static void (*ic_bh_base[IC_NR_BHS])(void);
static struct ic_tasklet ic_bh_task[IC_NR_BHS];

static void ic_bh_action(unsigned long nr)
{
	void (*routine)(void);

	/* Another CPU runs a bottom half: try again later, as 2.5 did. */
	if (!raw_spin_trylock(&ic_global_bh_lock))
		goto resched;
	atomic_set(&ic_bh_held, 1);
	/* Store, then load the lock bit: see the diagram above. */
	smp_mb();
	/* biglock: a global cli() keeps bottom halves out (2.5.27). */
	if (!ic_bh_may_run())
		goto resched_unlock;
	routine = READ_ONCE(ic_bh_base[nr]);
	if (routine) {
		trace_irqcore_bh_entry(nr);
		routine();
		trace_irqcore_bh_exit(nr);
	}
	/* hardirq_endlock(): empty in both regimes (regime.c). */
	atomic_set(&ic_bh_held, 0);
	raw_spin_unlock(&ic_global_bh_lock);
	return;

resched_unlock:
	atomic_set(&ic_bh_held, 0);
	raw_spin_unlock(&ic_global_bh_lock);
resched:
	ic_mark_bh(nr);
}

/**
 * ic_bh_action_for_test() - run bottom half @nr here and now, as its
 * tasklet would (taking the bh lock, or re-marking it if it cannot run).
 * @nr: below IC_NR_BHS.
 *
 * For the self-test that races a bottom half against cli() in lockstep:
 * a marked bottom half runs whenever softirqs next run, too late to line
 * up with anything on another CPU.
 *
 * Context: process, with bottom halves disabled by the caller.
 */
void ic_bh_action_for_test(unsigned int nr)
{
	if (!ic_out_of_range("bh_action_for_test", nr, IC_NR_BHS))
		ic_bh_action(nr);
}

/**
 * ic_init_bh() - install bottom half @nr.
 * @nr: below IC_NR_BHS.
 * @routine: runs in softirq context, never on two CPUs at once, and never
 *	at the same time as any other bottom half.
 *
 * Context: process.
 */
void ic_init_bh(unsigned int nr, void (*routine)(void))
{
	if (ic_out_of_range("init_bh", nr, IC_NR_BHS))
		return;
	WRITE_ONCE(ic_bh_base[nr], routine);
}
EXPORT_SYMBOL_GPL(ic_init_bh);

/**
 * ic_remove_bh() - remove bottom half @nr, waiting for a running one.
 * @nr: below IC_NR_BHS.
 *
 * Context: process; sleeps.
 */
void ic_remove_bh(unsigned int nr)
{
	if (ic_out_of_range("remove_bh", nr, IC_NR_BHS))
		return;
	ic_tasklet_kill(&ic_bh_task[nr]);
	WRITE_ONCE(ic_bh_base[nr], NULL);
}
EXPORT_SYMBOL_GPL(ic_remove_bh);

/**
 * ic_mark_bh() - run bottom half @nr soon.
 * @nr: below IC_NR_BHS.
 *
 * Context: any.
 */
void ic_mark_bh(unsigned int nr)
{
	if (ic_out_of_range("mark_bh", nr, IC_NR_BHS))
		return;
	ic_tasklet_hi_schedule(&ic_bh_task[nr]);
}
EXPORT_SYMBOL_GPL(ic_mark_bh);

/**
 * ic_softirq_seq_show() - the body of /proc/irqcore/softirqs.
 * @m: the seq_file.
 *
 * Context: process.
 */
void ic_softirq_seq_show(struct seq_file *m)
{
	unsigned int nr;
	int cpu;

	seq_puts(m, "                ");
	for_each_online_cpu(cpu)
		seq_printf(m, "CPU%-8d", cpu);
	seq_putc(m, '\n');
	for (nr = 0; nr < ARRAY_SIZE(ic_softirq_names); nr++) {
		seq_printf(m, "%12s:", ic_softirq_names[nr]);
		for_each_online_cpu(cpu)
			seq_printf(m, " %10lu", per_cpu_ptr(&ic_softirq_cpu, cpu)->runs[nr]);
		seq_putc(m, '\n');
	}
}

/* Start @cpu's ksoftirqd. Context: process; @cpu online. */
static int ic_ksoftirqd_start(unsigned int cpu)
{
	struct ic_softirq_cpu *sc = per_cpu_ptr(&ic_softirq_cpu, cpu);
	struct task_struct *t;

	t = kthread_create_on_cpu(ic_ksoftirqd, sc, cpu, "ic_ksoftirqd/%u");
	if (IS_ERR(t))
		return PTR_ERR(t);
	sc->ksoftirqd = t;
	wake_up_process(t);
	return 0;
}

/**
 * ic_softirq_cpu_up() - @cpu is back: its ksoftirqd runs there again.
 * @cpu: the CPU.
 *
 * A CPU that was offline when irqcore loaded gets its thread now.
 *
 * Context: process, the hotplug thread of @cpu, @cpu online.
 * Return: 0 or the error of creating the thread.
 */
int ic_softirq_cpu_up(unsigned int cpu)
{
	struct ic_softirq_cpu *sc = per_cpu_ptr(&ic_softirq_cpu, cpu);

	if (!sc->ksoftirqd)
		return ic_ksoftirqd_start(cpu);
	/* Parked threads keep their CPU only if bound again. */
	set_cpus_allowed_ptr(sc->ksoftirqd, cpumask_of(cpu));
	kthread_unpark(sc->ksoftirqd);
	return 0;
}

/**
 * ic_softirq_thread_parked() - is @cpu's ksoftirqd parked?
 * @cpu: a possible CPU.
 *
 * For the hotplug self-test: an offline CPU's thread must be parked, not
 * moved to another CPU by the scheduler.
 *
 * Context: any; a snapshot.
 * Return: true if the thread exists and is parked.
 */
bool ic_softirq_thread_parked(unsigned int cpu)
{
	struct task_struct *t = READ_ONCE(per_cpu_ptr(&ic_softirq_cpu, cpu)->ksoftirqd);

	return t && READ_ONCE(t->__state) == TASK_PARKED;
}

/**
 * ic_softirq_cpu_down() - park @cpu's ksoftirqd before @cpu goes.
 * @cpu: the CPU.
 *
 * Otherwise the scheduler would move the thread to another CPU, where it
 * would run that CPU's softirqs while waiting on @cpu's pending word.
 *
 * Context: process, the hotplug thread of @cpu, @cpu still online.
 */
void ic_softirq_cpu_down(unsigned int cpu)
{
	struct ic_softirq_cpu *sc = per_cpu_ptr(&ic_softirq_cpu, cpu);

	if (sc->ksoftirqd)
		kthread_park(sc->ksoftirqd);
}

/* Append the queue at *@from to the queue at *@to and empty *@from. */
static void ic_tasklet_splice(struct ic_tasklet **to, struct ic_tasklet **from)
{
	while (*to)
		to = &(*to)->next;
	*to = *from;
	*from = NULL;
}

/**
 * ic_softirq_cpu_dead() - take dead @cpu's raised vectors and tasklets.
 * @cpu: a CPU that has gone offline.
 *
 * As 2.5's takeover_tasklets(): the queues move to this CPU's and the
 * vectors are raised here, so that nothing waits for @cpu to return.
 *
 * Context: process, on a surviving CPU (the hotplug dead callback).
 */
void ic_softirq_cpu_dead(unsigned int cpu)
{
	struct ic_softirq_cpu *dead = per_cpu_ptr(&ic_softirq_cpu, cpu);
	struct ic_softirq_cpu *sc;
	unsigned int pending;

	local_irq_disable();
	sc = this_cpu_ptr(&ic_softirq_cpu);
	ic_tasklet_splice(&sc->tasklets, &dead->tasklets);
	ic_tasklet_splice(&sc->hi_tasklets, &dead->hi_tasklets);
	pending = dead->pending;
	dead->pending = 0;
	sc->pending |= pending;
	if (pending)
		ic_wakeup_ksoftirqd(sc);
	local_irq_enable();
}

/**
 * ic_softirq_init() - open the tasklet vectors and follow modules going.
 *
 * Context: process (module init), without the CPU hotplug lock: the module
 * notifier's lock is taken under the hotplug lock by the module loader,
 * so taking them the other way round here would be a lock inversion.
 * Return: 0 or the error of registering the notifier.
 */
int ic_softirq_init(void)
{
	unsigned int i;

	for (i = 0; i < IC_NR_BHS; i++)
		ic_tasklet_init(&ic_bh_task[i], ic_bh_action, i);
	/* irqcore's own vectors: set directly, ic_open_softirq() refuses them. */
	WRITE_ONCE(ic_softirq_vec[IC_HI_SOFTIRQ].action, ic_tasklet_hi_softirq);
	WRITE_ONCE(ic_softirq_vec[IC_TASKLET_SOFTIRQ].action, ic_tasklet_softirq);
	return register_module_notifier(&ic_softirq_module_nb);
}

/**
 * ic_softirq_start() - start a ksoftirqd on every online CPU.
 *
 * Context: process (module init), with the CPU hotplug lock held for
 * reading across this and ic_hotplug_init(): a CPU that came up between
 * the two would get no ksoftirqd, and its tasklets would wait for ever.
 * Return: 0 or the error from creating a thread (none left running then).
 */
int ic_softirq_start(void)
{
	int cpu, err;

	for_each_online_cpu(cpu) {
		err = ic_fault_alloc("ksoftirqd") ?: ic_ksoftirqd_start(cpu);
		if (err) {
			ic_softirq_stop();
			return err;
		}
	}
	return 0;
}

/**
 * ic_softirq_stop() - stop ksoftirqd once nothing is pending.
 *
 * Context: process (module exit), after every line is quiet; with the CPU
 * hotplug lock held for reading, so that no CPU's thread parks or
 * unparks under kthread_stop().
 */
void ic_softirq_stop(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct ic_softirq_cpu *sc = per_cpu_ptr(&ic_softirq_cpu, cpu);

		if (sc->ksoftirqd)
			kthread_stop(sc->ksoftirqd);
		sc->ksoftirqd = NULL;
		WARN(sc->pending, KBUILD_MODNAME ": CPU%d softirqs %#x pending at unload\n",
		     cpu, sc->pending);
		memset(sc->runs, 0, sizeof(sc->runs));
	}
}

/**
 * ic_softirq_exit() - stop following modules; close every vector.
 *
 * Context: process (module exit), after ic_softirq_stop(), without the CPU
 * hotplug lock (see ic_softirq_init()).
 */
void ic_softirq_exit(void)
{
	unregister_module_notifier(&ic_softirq_module_nb);
	memset(ic_softirq_vec, 0, sizeof(ic_softirq_vec));
}
