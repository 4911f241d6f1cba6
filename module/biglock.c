// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore - regime=biglock: the 2.5.27 SMP big IRQ lock.
 *
 * Before 2.5.28, cli() on SMP did not only mask interrupts on the calling
 * CPU: it took global_irq_lock, and while one CPU held it no interrupt
 * handler ran anywhere. Every CPU's irq_enter() spun until the holder
 * called sti(), and cli() itself waited until the handlers already running
 * elsewhere (and any bottom half) had finished. That made cli() a
 * machine-wide critical section, and every driver could use it as one.
 *
 * The context record is 2.5.27's too: each CPU's local_irq_count and
 * local_bh_count in irq_stat[], an array of per-CPU records one cache line
 * each, with in_interrupt() their sum. cli() finds the running handlers as
 * 2.5.27's irqs_running() did, by walking the array up to NR_CPUS (here
 * nr_cpus=, default 32, i386's NR_CPUS then), whatever the number of CPUs
 * present: the walk's length is the kernel's configuration, not the
 * machine. The folded counter of counter.c is still kept underneath, so
 * that the self-tests can check that both records agree in every context;
 * nothing here reads it.
 *
 * The holder must not sleep or migrate while it holds the lock: it runs
 * with local interrupts off from the moment it owns the lock, and cli()
 * keeps preemption off while it waits for the lock with interrupts
 * briefly on (2.5.27 could be built preemptible too).
 *
 * Ordering between cli() and irq_enter() is a store-then-load pair on
 * each side, so both need a full barrier:
 *
 *   CPU A: cli()                          CPU B: irq_enter()
 *   test_and_set_bit(lock) [full mb]      irq_stat[B].local_irq_count++
 *                                         smp_mb()
 *   read irq_stat[0..nr_cpus - 1]         test_bit(lock)
 *     .local_irq_count
 *
 * At least one side sees the other's store: A sees B's count and waits
 * (dropping the lock), or B sees the lock and spins until A's sti(). So no
 * handler can run inside a global cli() section. B's record is among
 * those A reads because nr_cpus is at least nr_cpu_ids (param.c refuses
 * less): every CPU number the host can give B is below it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/bug.h>
#include <linux/export.h>
#include <linux/instruction_pointer.h>
#include <linux/irqflags.h>
#include <linux/ktime.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/smp.h>

#include <irqcore.h>

#include "biglock.h"
#include "counter.h"
#include "misuse.h"
#include "spin.h"
#include "trace.h"

DEFINE_STATIC_KEY_FALSE(ic_biglock_key);

/*
 * 2.5.27's irq_stat[]: the array is NR_CPUS long whatever the machine, and
 * so is the walk of ic_biglock_irqs_running(); ic_nr_cpus is that length for this
 * load (nr_cpus=), at most IC_NR_CPUS_MAX.
 */
struct ic_irq_cpustat ic_irq_stat[IC_NR_CPUS_MAX];
unsigned int ic_nr_cpus = IC_NR_CPUS_2002;

/* This CPU's record: the caller keeps the CPU (hardirq, or preemption off). */
static inline struct ic_irq_cpustat *ic_this_irq_stat(void)
{
	return &ic_irq_stat[smp_processor_id()];
}

/*
 * The calling CPU's counts, from any context. Preemption is off from
 * reading the CPU number to reading its record: a task moved between the
 * two would read the record of the CPU it left, where a handler may be
 * running by then (2.5.27's in_interrupt() had that window on a
 * CONFIG_PREEMPT kernel). A task that can be moved holds no count of its
 * own, so the record of the CPU it is on is its answer.
 */
static inline void ic_my_counts(unsigned int *irq, unsigned int *bh)
{
	const struct ic_irq_cpustat *st;

	preempt_disable();
	st = ic_this_irq_stat();
	*irq = st->local_irq_count;
	*bh = st->local_bh_count;
	preempt_enable();
}

static inline unsigned int ic_my_irq_count(void)
{
	unsigned int irq, bh;

	ic_my_counts(&irq, &bh);
	return irq;
}

/* Bit 0 is the lock; only the holder writes the holder fields. */
unsigned long ic_global_irq_lock;
atomic_t ic_bh_held;		/* see biglock.h */
static int ic_global_irq_holder = IC_NO_PROC_ID;
static unsigned long ic_global_irq_holder_ip;

static struct {
	atomic_long_t cli_taken;
	atomic_long_t cli_waits;
	atomic_long_t enter_spins;
	atomic_long_t stalls;
	atomic_long_t self_deadlocks;
} ic_bl_stats;

/*
 * Turns of the irq_enter() spin, per CPU: added once per spin, after it,
 * by the spinning CPU alone (no locked instruction, no shared line), so
 * that counting the wait does not lengthen it. ic_cli_stats() sums them.
 */
static DEFINE_PER_CPU(unsigned long, ic_bl_enter_turns);

/* The old show(): who holds the lock and what every CPU is doing. */
static void ic_biglock_show(const struct ic_spin *s, u64 waited)
{
	int cpu;

	pr_warn("biglock: %s on CPU%d has waited %llu ms, %llu ms of it spinning (stall_ms bound %llu ms)\n",
		s->what, raw_smp_processor_id(), waited / NSEC_PER_MSEC,
		s->ran / NSEC_PER_MSEC, ic_spin_bound_ns() / NSEC_PER_MSEC);
	pr_warn("biglock: global_irq_lock=%d global_irq_holder=%d (taken at %pS) bh_lock=%s\n",
		test_bit(0, &ic_global_irq_lock), READ_ONCE(ic_global_irq_holder),
		(void *)READ_ONCE(ic_global_irq_holder_ip),
		ic_bh_lock_is_locked() ? "held" : "free");
	for_each_online_cpu(cpu)
		pr_warn("biglock: CPU%d local_irq_count=%u local_bh_count=%u\n", cpu,
			READ_ONCE(ic_irq_stat[cpu].local_irq_count),
			READ_ONCE(ic_irq_stat[cpu].local_bh_count));
	WARN(1, KBUILD_MODNAME ": biglock: %s stalled on the global IRQ lock\n", s->what);
}

/*
 * One turn of a wait. A wait longer than stall_ms is reported once per
 * load (2.5.27 printed show() and went on waiting; so does irqcore, and
 * the runner flags the WARNING).
 */
static void ic_bl_spin(struct ic_spin *s)
{
	u64 waited;

	if (!ic_spin_once(s, &waited))
		return;
	atomic_long_inc(&ic_bl_stats.stalls);
	if (ic_spin_first_report())
		ic_biglock_show(s, waited);
}

/**
 * ic_biglock_irqs_running() - 2.5.27 irqs_running(): a handler anywhere?
 *
 * Walks irq_stat[] from 0 to NR_CPUS - 1 (ic_nr_cpus), present CPU or
 * not, as 2.5.27 did: its length is set by the kernel's configuration,
 * not by the CPUs online.
 *
 * Context: any; a snapshot (cli() reads it after taking the lock, see the
 * diagram at the top).
 * Return: true if some CPU's local_irq_count is not zero.
 */
bool ic_biglock_irqs_running(void)
{
	unsigned int i;

	for (i = 0; i < ic_nr_cpus; i++)
		if (READ_ONCE(ic_irq_stat[i].local_irq_count))
			return true;
	return false;
}

/*
 * Must a new holder wait? Yes while a handler runs anywhere, or while a
 * bottom half runs elsewhere: bottom halves relied on cli() too. A CPU
 * that is itself in a bottom half must not wait for the bh lock it holds.
 */
static bool ic_must_wait(void)
{
	/* The bh flag first: the load that pairs with bh_action() (softirq.c). */
	if (!ic_this_irq_stat()->local_bh_count && ic_bh_lock_is_locked())
		return true;
	return ic_biglock_irqs_running();
}

/*
 * Called with the lock bit held and local interrupts off; returns the
 * same way, with nobody left running a handler. While it waits it drops
 * the lock and opens a short window with local interrupts on: a handler
 * that runs on this CPU, or another CPU's cli() that waits for ours,
 * would otherwise deadlock against us.
 */
static void ic_wait_on_irq(struct ic_spin *s)
{
	bool spun = false;

	while (ic_must_wait()) {
		if (!spun)
			trace_irqcore_spin_begin(IC_SPIN_CLI_WAIT);
		spun = true;
		atomic_long_inc(&ic_bl_stats.cli_waits);
		clear_bit_unlock(0, &ic_global_irq_lock);
		for (;;) {
			local_irq_enable();
			ic_bl_spin(s);
			local_irq_disable();
			if (ic_must_wait() || test_bit(0, &ic_global_irq_lock))
				continue;
			if (!test_and_set_bit(0, &ic_global_irq_lock))
				break;
		}
	}
	/* Everything the handlers wrote is visible to the new holder. */
	smp_rmb();
	if (spun)
		trace_irqcore_spin_end(IC_SPIN_CLI_WAIT);
}

static void ic_get_irqlock(int cpu, unsigned long ip)
{
	struct ic_spin s = IC_SPIN_INIT("cli");

	if (test_and_set_bit(0, &ic_global_irq_lock)) {
		/* Re-entry by the holder returns at once. */
		if (READ_ONCE(ic_global_irq_holder) == cpu)
			return;
		trace_irqcore_spin_begin(IC_SPIN_CLI_LOCK);
		do {
			while (test_bit(0, &ic_global_irq_lock))
				ic_bl_spin(&s);
		} while (test_and_set_bit(0, &ic_global_irq_lock));
		trace_irqcore_spin_end(IC_SPIN_CLI_LOCK);
	}
	ic_wait_on_irq(&s);
	WRITE_ONCE(ic_global_irq_holder, cpu);
	WRITE_ONCE(ic_global_irq_holder_ip, ip);
	trace_irqcore_lock_acquire(ip);
	atomic_long_inc(&ic_bl_stats.cli_taken);
}

static void ic_release_irqlock(int cpu)
{
	/* Not the holder (a local cli, or nested in a handler): nothing. */
	if (READ_ONCE(ic_global_irq_holder) != cpu)
		return;
	WRITE_ONCE(ic_global_irq_holder, IC_NO_PROC_ID);
	trace_irqcore_lock_release(cpu);
	clear_bit_unlock(0, &ic_global_irq_lock);
}

/**
 * ic_biglock_cli() - 2.5.27 cli(): stop interrupt handling on every CPU.
 * @ip: the caller, for the stall report.
 *
 * Only when local interrupts were on: cli() with them already off, and
 * cli() inside a handler, are local only, exactly as in 2.5.27.
 *
 * Context: any; spins. The holder must not sleep or migrate.
 */
void ic_biglock_cli(unsigned long ip)
{
	if (irqs_disabled())
		return;
	/*
	 * ic_wait_on_irq() opens windows with local interrupts on. On a
	 * preemptible kernel the task could be moved to another CPU in one
	 * of them, finish the wait there and record the CPU it left as the
	 * holder; its sti() would then never release the lock. So preemption
	 * is off from reading the CPU until the lock is ours; from then on
	 * interrupts are off, which pins the holder until sti().
	 */
	preempt_disable();
	local_irq_disable();
	if (!ic_this_irq_stat()->local_irq_count)
		ic_get_irqlock(smp_processor_id(), ip);
	preempt_enable();	/* interrupts are off: no reschedule here */
}

/**
 * ic_biglock_sti() - 2.5.27 sti(): release the global lock, enable locally.
 *
 * Context: any but an SA_INTERRUPT handler (which must not enable
 * interrupts, then as now), nor any handler that runs IC_IRQS_ON_MAX_NEST
 * or more host hardirq levels deep: there every handler runs as an
 * SA_INTERRUPT one (compat.h, docs/deviations.md).
 */
void ic_biglock_sti(void)
{
	/*
	 * Read once, without holding preemption off: the holder runs with
	 * interrupts off from its cli() on, so it cannot move, and a caller
	 * that can move holds no lock to release (its CPU is not the holder,
	 * whichever record it reads).
	 */
	int cpu = raw_smp_processor_id();

	if (!READ_ONCE(ic_irq_stat[cpu].local_irq_count))
		ic_release_irqlock(cpu);
	local_irq_enable();
}

/**
 * ic_biglock_save_flags() - 2.5.27 save_flags() on SMP.
 *
 * Context: any.
 * Return: 0 if this CPU holds the global lock, 1 if not and local
 * interrupts are on; inside a handler only 2 (local off) or 3 (local on);
 * otherwise 2.
 */
unsigned long ic_biglock_save_flags(void)
{
	bool local_on = !irqs_disabled();
	unsigned long ret = 2 + local_on;

	if (!ic_my_irq_count()) {
		if (local_on)
			ret = 1;
		/* as in sti(): only a holder, which cannot move, finds itself */
		if (READ_ONCE(ic_global_irq_holder) == raw_smp_processor_id())
			ret = 0;
	}
	return ret;
}

/**
 * ic_biglock_hardirq_trylock() - may a bottom half start on this CPU?
 *
 * Not inside a handler, and not while anyone holds the global lock: that
 * is how cli() kept bottom halves out in 2.5.27.
 *
 * Context: softirq (the bottom-half runner).
 * Return: true if it may.
 */
bool ic_biglock_hardirq_trylock(void)
{
	return !ic_this_irq_stat()->local_irq_count &&
	       !test_bit(0, &ic_global_irq_lock);
}

/**
 * ic_biglock_synchronize_irq() - 2.5.27 synchronize_irq(): cli(); sti().
 * @irq: ignored; 2.5.27's synchronize_irq() took no argument and waited
 *	for every handler on every line.
 * @ip: the caller, for reports.
 *
 * A task that may sleep first waits for the handlers with cond_resched()
 * between looks, so that it does not keep its CPU from other tasks while a
 * long handler runs elsewhere; cli() then waits for any that started since.
 *
 * Context: process, local interrupts on (with them off, cli() would not
 * take the lock and so would not wait; that is refused with a warning).
 */
void ic_biglock_synchronize_irq(unsigned int irq, unsigned long ip)
{
	struct ic_spin s = IC_SPIN_INIT("synchronize_irq");

	if (!ic_biglock_irqs_running())
		return;
	if (irqs_disabled() || ic_my_irq_count()) {
		ic_api_misuse("synchronize_irq(%u) from %pS: biglock needs interrupts on to wait\n",
			      irq, (void *)ip);
		return;
	}
	if (preemptible()) {
		while (ic_biglock_irqs_running()) {
			cond_resched();
			ic_bl_spin(&s);
		}
	}
	ic_biglock_cli(ip);
	ic_biglock_sti();
}

/**
 * ic_biglock_disable_irq_may_wait() - 2.5.27 disable_irq()'s guard.
 *
 * 2.5.27's disable_irq() waited for the line only outside a handler:
 * inside one it could only be waiting for itself.
 *
 * Context: any.
 * Return: true if disable_irq() may wait here.
 */
bool ic_biglock_disable_irq_may_wait(void)
{
	return !ic_my_irq_count();
}

/**
 * ic_biglock_irq_enter_wait() - the slow path of ic_biglock_irq_enter():
 * another CPU holds the global lock; spin until its sti().
 *
 * Context: hardirq, local interrupts off, local_irq_count already raised.
 */
void ic_biglock_irq_enter_wait(void)
{
	struct ic_spin s = IC_SPIN_INIT("irq_enter");

	/*
	 * The holder took an interrupt: it enabled local interrupts while it
	 * held the lock. 2.5.27 spun here for ever; irqcore says so and runs
	 * the handler, so that a broken caller is reported, not hung.
	 */
	if (READ_ONCE(ic_global_irq_holder) == smp_processor_id()) {
		atomic_long_inc(&ic_bl_stats.self_deadlocks);
		WARN_ONCE(1, KBUILD_MODNAME ": biglock: CPU%d took an interrupt while holding the global IRQ lock (taken at %pS)\n",
			  smp_processor_id(), (void *)READ_ONCE(ic_global_irq_holder_ip));
		return;
	}
	atomic_long_inc(&ic_bl_stats.enter_spins);
	trace_irqcore_spin_begin(IC_SPIN_IRQ_ENTER);
	while (test_bit(0, &ic_global_irq_lock))
		ic_bl_spin(&s);
	trace_irqcore_spin_end(IC_SPIN_IRQ_ENTER);
	this_cpu_add(ic_bl_enter_turns, s.turns);
	/* See everything the holder wrote before its sti(). */
	smp_acquire__after_ctrl_dep();
}

/**
 * ic_biglock_bh_enter() - local_bh_count++ (local_bh_disable()).
 *
 * Context: not hardirq; preemption already disabled by the caller.
 */
void ic_biglock_bh_enter(void)
{
	ic_this_irq_stat()->local_bh_count++;
	barrier();
}

/**
 * ic_biglock_bh_exit() - local_bh_count--.
 *
 * Context: after ic_biglock_bh_enter(), same CPU.
 * Return: the count left, so that the caller can run softirqs at zero.
 */
unsigned int ic_biglock_bh_exit(void)
{
	barrier();
	return --ic_this_irq_stat()->local_bh_count;
}

/**
 * ic_biglock_in_interrupt() - 2.5.27 in_interrupt(): irq + bh count != 0.
 *
 * Context: any.
 * Return: true in hardirq, softirq or bh-disabled context.
 */
bool ic_biglock_in_interrupt(void)
{
	unsigned int irq, bh;

	ic_my_counts(&irq, &bh);
	return irq + bh;
}

/**
 * ic_biglock_in_irq() - 2.5.27 in_irq(): local_irq_count != 0.
 *
 * Context: any.
 * Return: true in hardirq context.
 */
bool ic_biglock_in_irq(void)
{
	return ic_my_irq_count();
}

/**
 * ic_biglock_in_softirq() - 2.5.27 in_softirq(): local_bh_count != 0.
 *
 * Context: any.
 * Return: true in softirq or bh-disabled context.
 */
bool ic_biglock_in_softirq(void)
{
	unsigned int irq, bh;

	ic_my_counts(&irq, &bh);
	return bh;
}

/**
 * ic_biglock_idle_tick_is_system() - 2.5.27's idle accounting rule.
 *
 * The tick is system time if a bottom half runs or the tick interrupted
 * another handler (local_irq_count > 1, the tick being one).
 *
 * Context: any; meaningful in a tick.
 * Return: true if an idle tick here is system time.
 */
bool ic_biglock_idle_tick_is_system(void)
{
	unsigned int irq, bh;

	ic_my_counts(&irq, &bh);
	return bh || irq > 1;
}

/**
 * ic_biglock_holder() - the CPU that holds the global lock, or IC_NO_PROC_ID.
 *
 * Context: any; a snapshot.
 * Return: the holder CPU, or IC_NO_PROC_ID.
 */
int ic_biglock_holder(void)
{
	return test_bit(0, &ic_global_irq_lock) ? READ_ONCE(ic_global_irq_holder) :
						    IC_NO_PROC_ID;
}

/**
 * ic_cli_stats() - a snapshot of the global lock's counters.
 * @st: filled in; all zero under regime=nolock.
 *
 * Context: any.
 */
void ic_cli_stats(struct ic_cli_stats *st)
{
	int cpu;

	st->cli_taken = atomic_long_read(&ic_bl_stats.cli_taken);
	st->cli_waits = atomic_long_read(&ic_bl_stats.cli_waits);
	st->enter_spins = atomic_long_read(&ic_bl_stats.enter_spins);
	st->enter_turns = 0;
	for_each_possible_cpu(cpu)
		st->enter_turns += READ_ONCE(per_cpu(ic_bl_enter_turns, cpu));
	st->stalls = atomic_long_read(&ic_bl_stats.stalls);
	st->self_deadlocks = atomic_long_read(&ic_bl_stats.self_deadlocks);
}
EXPORT_SYMBOL_GPL(ic_cli_stats);

/**
 * ic_biglock_init() - arm regime=biglock.
 * @nr_cpus: the length of irq_stat[] that cli() scans, 2.5.27's NR_CPUS
 *	(nr_cpus=; param.c has checked it against nr_cpu_ids).
 *
 * Context: process (module init), before any line can fire.
 * Return: 0, or -EINVAL if this host can number more CPUs than
 * irq_stat[] holds (no nr_cpus= is valid there, param.c says so too).
 */
int ic_biglock_init(unsigned int nr_cpus)
{
	if (nr_cpu_ids > IC_NR_CPUS_MAX || nr_cpus < nr_cpu_ids || nr_cpus > IC_NR_CPUS_MAX) {
		pr_err("regime=biglock: nr_cpus=%u, but %u CPUs are possible here and irq_stat[] holds %u\n",
		       nr_cpus, nr_cpu_ids, IC_NR_CPUS_MAX);
		return -EINVAL;
	}
	ic_nr_cpus = nr_cpus;
	ic_global_irq_lock = 0;
	ic_global_irq_holder = IC_NO_PROC_ID;
	static_branch_enable(&ic_biglock_key);
	return 0;
}

/**
 * ic_biglock_exit() - disarm it; nothing may be left held or counted.
 *
 * Context: process (module exit), after every line is quiet.
 */
void ic_biglock_exit(void)
{
	struct ic_cli_stats st;
	unsigned int i;

	static_branch_disable(&ic_biglock_key);
	WARN(test_bit(0, &ic_global_irq_lock), KBUILD_MODNAME ": global IRQ lock left held by CPU%d\n",
	     ic_global_irq_holder);
	for (i = 0; i < IC_NR_CPUS_MAX; i++)
		WARN(ic_irq_stat[i].local_irq_count || ic_irq_stat[i].local_bh_count,
		     KBUILD_MODNAME ": CPU%u left local_irq_count=%u local_bh_count=%u\n", i,
		     ic_irq_stat[i].local_irq_count, ic_irq_stat[i].local_bh_count);
	ic_cli_stats(&st);
	pr_info("biglock: cli_taken=%lu cli_waits=%lu enter_spins=%lu stalls=%lu self_deadlocks=%lu\n",
		st.cli_taken, st.cli_waits, st.enter_spins, st.stalls, st.self_deadlocks);
}
