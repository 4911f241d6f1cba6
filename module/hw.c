// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore - the virtual interrupt controller: the "hardware".
 *
 * N edge-triggered lines, each with a mask, a latch and a set of target
 * CPUs served round-robin. A raise on an unmasked line marks the line
 * pending on its next target CPU and kicks that CPU with a real
 * interrupt: an asynchronous IPI for a remote CPU, a hard irq_work for the
 * local one. The kick's handler
 * runs in genuine hardirq context with interrupts off and calls do_IRQ for
 * every line pending on its CPU. A raise on a masked line sets the latch,
 * delivered when the line is unmasked. A per-CPU hard-mode hrtimer raises
 * line 0, the virtual timer, on its own CPU.
 *
 * The kick is sent once per batch: a CPU's kick flag is set by the first
 * raise and cleared by the handler before it scans the pending bits.
 *
 *   raiser (any CPU)                     handler (target CPU, hardirq)
 *   test_and_set_bit(irq, pending)  A    atomic_xchg(&kicked, 0)        C
 *   if (atomic_xchg(&kicked, 1))    B    for each bit: test_and_clear   D
 *           return; // kick under way
 *   send kick
 *
 * A and B, and C and D, are each a store followed by a load on another
 * word, so every step is a fully ordered atomic: x86 would otherwise let
 * the handler's load D pass its own store C still in the store buffer
 * (a plain atomic_set() there, as this file once had, can lose a raise).
 * If B finds the flag set, B is ordered before C, and A (fully ordered
 * before B) is visible to the scan D that follows C: no raise is left
 * pending without a kick to come. If B finds it clear, this raiser kicks.
 *
 * Accounting. Every raise is counted under the line's lock together with
 * its first outcome (latched, merged or sent), and ic_hw_stats() reads
 * under the same lock, so a reader never sees half of a raise. do_IRQ
 * counts an edge's arrival in the descriptor, under the descriptor lock,
 * with what became of it; ic_line_stats() holds both locks and takes the
 * edges in flight as sent minus arrived. The controller is told nothing
 * of an arrival: do_IRQ pays no call and no atomic for it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/export.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/delay.h>
#include <linux/irq_work.h>
#include <linux/jump_label.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/workqueue.h>

#include <irqcore.h>

#include "compat.h"
#include "faultpoint.h"
#include "hw.h"
#include "internal.h"
#include "irq.h"
#include "spin.h"
#include "trace.h"

/**
 * struct ic_line - one line of the controller.
 * @lock: protects @masked, @latched, @targets and @rr (the line's
 *	registers), and orders each raise's counts with ic_hw_stats().
 * @masked: edges are latched, not delivered.
 * @latched: an edge arrived while masked.
 * @targets: the CPUs the line is delivered to, round-robin.
 * @rr: round-robin position.
 * @raised: accepted raises.
 * @merged: raises folded into a latched or pending edge.
 * @sent: edges delivered and not folded into one already pending (see
 *	struct ic_chip_stats).
 * @dropped: latched edges discarded by shutdown.
 */
struct ic_line {
	raw_spinlock_t lock;
	bool masked;
	bool latched;
	cpumask_var_t targets;
	unsigned int rr;
	atomic_long_t raised;
	atomic_long_t merged;
	atomic_long_t sent;
	atomic_long_t dropped;
} ____cacheline_aligned_in_smp;	/* lines that CPUs take apart share nothing */

/**
 * struct ic_hw_cpu - one CPU's side of the controller.
 * @pending: lines pending on this CPU.
 * @kicked: a kick is under way (see the diagram above).
 * @running: a dispatch is running here; ic_hw_exit() waits for it.
 * @csd: the kick from a remote CPU.
 * @work: the kick from this CPU itself.
 * @adopt: takes over the edges of CPUs that went offline after a raiser
 *	picked them (queued by ic_hw_deliver(), see ic_hw_adopt()).
 * @timer: the virtual timer, raising line 0 here.
 */
struct ic_hw_cpu {
	unsigned long pending[BITS_TO_LONGS(IC_NR_IRQS_MAX)];
	atomic_t kicked;
	atomic_t running;
	call_single_data_t csd;
	struct irq_work work;
	struct irq_work adopt;
	struct hrtimer timer;
};

static struct ic_line *ic_lines;
static unsigned int ic_hw_nr;
static DEFINE_PER_CPU(struct ic_hw_cpu, ic_hw_cpu);

/*
 * The virtual timer's state. ic_timer_lock serialises start and stop:
 * checking ic_timer_running and acting on it was once two steps, and a
 * start racing a stop could leave the timers armed with the flag false,
 * so that the stop at unload returned early and the timers fired in freed
 * module memory.
 */
static DEFINE_MUTEX(ic_timer_lock);
static ktime_t ic_timer_period;
static bool ic_timer_running;

/*
 * inject=unload_dispatch: a dispatch stalls between taking an edge and
 * handling it while ic_hw_exit() watches (see ic_hw_inject_dispatch()).
 * A static key, so that the dispatch of every other load pays one no-op.
 */
static DEFINE_STATIC_KEY_FALSE(ic_hw_stall_key);
static atomic_t ic_hw_stalled;

/*
 * The first line at or after @irq whose bit is set in @pending, or
 * ic_hw_nr. What for_each_set_bit() would find, but read with READ_ONCE():
 * raisers on other CPUs set bits while this scans, on purpose, and the
 * test_and_clear_bit() after each find is what decides. find_next_bit()
 * reads the words plainly, which KCSAN rightly reports as a data race
 * against set_bit() (seen on debug-6.12-kcsan with dense sampling). A
 * bit set behind the scan is found by the next dispatch, which the kick
 * protocol above guarantees.
 */
static unsigned int ic_hw_next_pending(const unsigned long *pending, unsigned int irq)
{
	while (irq < ic_hw_nr) {
		unsigned long word = READ_ONCE(pending[BIT_WORD(irq)]) &
				     BITMAP_FIRST_WORD_MASK(irq);

		if (word)
			return min_t(unsigned int, ic_hw_nr,
				     BIT_WORD(irq) * BITS_PER_LONG + __ffs(word));
		irq = (BIT_WORD(irq) + 1) * BITS_PER_LONG;
	}
	return ic_hw_nr;
}

/* for_each_set_bit() over @pending, with ic_hw_next_pending()'s reads. */
#define ic_hw_for_each_pending(irq, pending)					\
	for ((irq) = ic_hw_next_pending(pending, 0); (irq) < ic_hw_nr;		\
	     (irq) = ic_hw_next_pending(pending, (irq) + 1))

/* The kick's handler: genuine hardirq, interrupts off, on this CPU. */
static void ic_hw_dispatch(struct ic_hw_cpu *hc)
{
	unsigned int irq;

	/*
	 * Counted before the kick flag clears, so that ic_hw_exit(), which
	 * reads the flag and then this count, cannot miss a dispatch that
	 * is past the flag but still scanning (both are fully ordered RMWs).
	 */
	atomic_inc(&hc->running);
	/* C in the diagram above: fully ordered against the scan D. */
	atomic_xchg(&hc->kicked, 0);
	ic_hw_for_each_pending(irq, hc->pending) {
		if (!test_and_clear_bit(irq, hc->pending))
			continue;
		if (static_branch_unlikely(&ic_hw_stall_key)) {
			/* The edge taken, the kick flag clear: only @running is left. */
			atomic_set(&ic_hw_stalled, 1);
			mdelay(50);
		}
		ic_do_IRQ(irq);	/* counts the edge's arrival */
	}
	/* Nothing of ic_lines is touched after this. */
	smp_mb__before_atomic();
	atomic_dec(&hc->running);
}

static void ic_hw_csd_fn(void *info)
{
	struct ic_hw_cpu *hc = info;

	/*
	 * A CPU polling in idle takes a call-function request from the idle
	 * loop instead of from an IPI: interrupts off, but not hardirq. Bounce
	 * it through a hard irq_work on this (the target) CPU, so that do_IRQ
	 * always runs in genuine hardirq context. The kick flag stays set
	 * until that dispatch runs.
	 */
	if (!ic_hardirq_depth()) {
		irq_work_queue(&hc->work);
		return;
	}
	if (ic_fault_deaf(smp_processor_id()))
		return;		/* the kick stays set, the edges pending */
	ic_hw_dispatch(hc);
}

static void ic_hw_work_fn(struct irq_work *work)
{
	/*
	 * A CPU going offline runs its queued irq_works from its last
	 * hotplug step, outside hardirq. Its edges are not dispatched there:
	 * they stay pending, the kick flag set, until hotplug.c's dead
	 * callback delivers them elsewhere (ic_hw_cpu_dead()). Only there:
	 * a kick that returned here from an interrupt would be lost, as one
	 * taken 16 interrupts deep was while this asked in_hardirq(), whose
	 * 4-bit count had carried into the NMI bits (the fuzzer's "flag
	 * set, nothing queued", docs/irqctl.md): hence ic_hardirq_depth().
	 */
	if (!ic_hardirq_depth())
		return;
	ic_hw_dispatch(container_of(work, struct ic_hw_cpu, work));
}

/* The next target of @l, round-robin over its online targets. */
static int ic_hw_pick_cpu(struct ic_line *l)
{
	unsigned int n = 0, want;
	int cpu;

	lockdep_assert_held(&l->lock);
	for_each_cpu_and(cpu, l->targets, cpu_online_mask)
		n++;
	if (!n)		/* every target is offline: any online CPU will do */
		return raw_smp_processor_id();
	want = l->rr++ % n;
	for_each_cpu_and(cpu, l->targets, cpu_online_mask)
		if (!want--)
			break;
	return cpu;
}

/*
 * Mark @irq pending on @hc. An edge on an edge not yet taken is folded by
 * the hardware: counted as merged, and out of flight, two changes that a
 * reader of the line's counts (who holds the line's lock) must see
 * together: hence the lock. Return: true if the bit was newly set, so a
 * kick is needed. Context: the line's lock held.
 */
static bool __ic_hw_post(unsigned int irq, struct ic_hw_cpu *hc)
{
	lockdep_assert_held(&ic_lines[irq].lock);
	if (!test_and_set_bit(irq, hc->pending))
		return true;
	atomic_long_inc(&ic_lines[irq].merged);
	atomic_long_dec(&ic_lines[irq].sent);
	return false;
}

/*
 * Take over every line pending on @dead, a CPU that went offline with
 * edges posted to it, on this CPU. Each edge moves under its line's lock:
 * posting it here may fold it into an edge already pending here (merged
 * up, out of flight), and a reader of the line's counts, who holds that
 * lock, must see both changes or neither. The kick flag is cleared first,
 * as a dispatch would: a raiser that posts after our scan finds it clear
 * and comes here itself.
 *
 * Context: preemption disabled; no line lock held (this takes them).
 */
static void ic_hw_adopt(struct ic_hw_cpu *dead)
{
	struct ic_hw_cpu *here = this_cpu_ptr(&ic_hw_cpu);
	unsigned long flags;
	bool kick = false;
	unsigned int irq;

	atomic_xchg(&dead->kicked, 0);
	ic_hw_for_each_pending(irq, dead->pending) {
		raw_spin_lock_irqsave(&ic_lines[irq].lock, flags);
		if (test_and_clear_bit(irq, dead->pending) && __ic_hw_post(irq, here))
			kick = true;
		raw_spin_unlock_irqrestore(&ic_lines[irq].lock, flags);
	}
	if (kick && !atomic_xchg(&here->kicked, 1))
		irq_work_queue(&here->work);
}

/*
 * A raiser found its target gone offline after it had picked it, while
 * holding its line's lock, where it cannot take the other lines' locks
 * that adoption needs (two raisers would take them in opposite orders).
 * So it queues this on its own CPU, which adopts every offline CPU's
 * edges as soon as the raiser has unlocked. Context: hardirq, or the
 * irq_work flush of a CPU going down.
 */
static void ic_hw_adopt_fn(struct irq_work *work)
{
	int cpu;

	/*
	 * A CPU going down runs its queued irq_works from its dying flush,
	 * after it has left the online mask: it would adopt its own edges
	 * into its own kick, queued on a list already flushed for the last
	 * time, and that CPU's kicks would be lost once it came back. Its
	 * dead callback adopts them on a survivor (ic_hw_cpu_dead()).
	 * Found by review (issue 21); no raise reaches this on x86 today:
	 * the adopt work is queued only when a kick cannot be sent.
	 */
	if (!cpu_online(smp_processor_id()))
		return;
	for_each_possible_cpu(cpu)
		if (!cpu_online(cpu))
			ic_hw_adopt(per_cpu_ptr(&ic_hw_cpu, cpu));
}

/*
 * Count one edge of @irq as sent and post it on @hc. Return: true if the
 * caller must kick @hc: the edge is not folded into one pending there, and
 * no kick is under way (the flag was clear; it is set now). Context: the
 * line's lock held.
 */
static __always_inline bool __ic_hw_send(unsigned int irq, struct ic_hw_cpu *hc)
{
	atomic_long_inc(&ic_lines[irq].sent);
	return __ic_hw_post(irq, hc) && !atomic_xchg(&hc->kicked, 1);
}

/*
 * Deliver one edge of @irq to @cpu, from @this, the CPU we are on; it is
 * in flight from here until do_IRQ counts its arrival. Context:
 * preemption disabled; the line's lock held, so that a reader sees the
 * edge counted with what caused it.
 */
static void __ic_hw_deliver_to(unsigned int irq, int cpu, int this)
{
	struct ic_hw_cpu *hc = per_cpu_ptr(&ic_hw_cpu, cpu);

	lockdep_assert_held(&ic_lines[irq].lock);
	trace_irqcore_deliver(irq, cpu);
	if (__ic_hw_send(irq, hc)) {
		if (cpu == this)
			irq_work_queue(&hc->work);
		else if (smp_call_function_single_async(cpu, &hc->csd))
			irq_work_queue(&per_cpu_ptr(&ic_hw_cpu, this)->adopt);
	}
}

/* Deliver one edge of @irq to its next target. Context: the line's lock held. */
static void ic_hw_deliver(unsigned int irq)
{
	int this = get_cpu();

	__ic_hw_deliver_to(irq, ic_hw_pick_cpu(&ic_lines[irq]), this);
	put_cpu();
}

/**
 * ic_hw_cpu_dead() - deliver the edges left pending on dead @cpu here.
 * @cpu: a CPU that has gone offline.
 *
 * Context: process, on a surviving CPU (the hotplug dead callback).
 */
void ic_hw_cpu_dead(unsigned int cpu)
{
	preempt_disable();
	ic_hw_adopt(per_cpu_ptr(&ic_hw_cpu, cpu));
	preempt_enable();
}

/**
 * ic_raise() - assert an edge on a line of the virtual controller.
 * @irq: the line.
 *
 * Context: any, including hardirq and with interrupts disabled.
 * Return: 0, or -EINVAL for a line that does not exist.
 */
int ic_raise(unsigned int irq)
{
	struct ic_line *l;
	unsigned long flags;

	if (irq >= ic_hw_nr)
		return -EINVAL;
	l = &ic_lines[irq];

	trace_irqcore_raise(irq);
	raw_spin_lock_irqsave(&l->lock, flags);
	atomic_long_inc(&l->raised);
	if (l->masked) {
		if (l->latched)
			atomic_long_inc(&l->merged);
		l->latched = true;
	} else {
		ic_hw_deliver(irq);
	}
	raw_spin_unlock_irqrestore(&l->lock, flags);
	return 0;
}
EXPORT_SYMBOL_GPL(ic_raise);

/**
 * ic_hw_resend() - deliver again an instance that do_IRQ latched.
 * @irq: the line.
 *
 * The instance was counted as raised when it first arrived; it goes in
 * flight again without a new raise (2.5's hw_resend_irq()).
 *
 * The virtual controller's retrigger operation.
 *
 * Context: any; called under the descriptor lock by enable_irq(), so
 * that the instance leaves the descriptor and enters flight at once for
 * a reader of both.
 */
void ic_hw_resend(unsigned int irq)
{
	struct ic_line *l = &ic_lines[irq];
	unsigned long flags;

	raw_spin_lock_irqsave(&l->lock, flags);
	ic_hw_deliver(irq);
	raw_spin_unlock_irqrestore(&l->lock, flags);
}

/**
 * ic_hw_set_affinity() - deliver a line's edges round-robin over @mask.
 * @irq: the line.
 * @mask: CPUs to deliver to, at least one online (the caller checked).
 *	Targets that go offline are skipped; with none online, an edge goes
 *	to the CPU that raised it.
 *
 * The virtual controller's set_affinity operation.
 *
 * Context: any; under the descriptor lock.
 * Return: 0.
 */
int ic_hw_set_affinity(unsigned int irq, const struct cpumask *mask)
{
	struct ic_line *l = &ic_lines[irq];
	unsigned long flags;

	raw_spin_lock_irqsave(&l->lock, flags);
	cpumask_and(l->targets, mask, cpu_possible_mask);
	l->rr = 0;
	raw_spin_unlock_irqrestore(&l->lock, flags);
	return 0;
}

/* The virtual controller's disable operation. */
void ic_hw_mask(unsigned int irq)
{
	struct ic_line *l = &ic_lines[irq];
	unsigned long flags;

	raw_spin_lock_irqsave(&l->lock, flags);
	l->masked = true;
	raw_spin_unlock_irqrestore(&l->lock, flags);
}

/* Its enable operation: an edge latched while masked goes now. */
void ic_hw_unmask(unsigned int irq)
{
	struct ic_line *l = &ic_lines[irq];
	unsigned long flags;

	raw_spin_lock_irqsave(&l->lock, flags);
	l->masked = false;
	if (l->latched) {
		l->latched = false;
		ic_hw_deliver(irq);
	}
	raw_spin_unlock_irqrestore(&l->lock, flags);
}

/* Its startup operation. */
unsigned int ic_hw_startup(unsigned int irq)
{
	ic_hw_unmask(irq);
	return 0;
}

/* Its shutdown operation: a latched edge is dropped, and counted so. */
void ic_hw_shutdown(unsigned int irq)
{
	struct ic_line *l = &ic_lines[irq];
	unsigned long flags;

	raw_spin_lock_irqsave(&l->lock, flags);
	l->masked = true;
	if (l->latched)
		atomic_long_inc(&l->dropped);
	l->latched = false;
	raw_spin_unlock_irqrestore(&l->lock, flags);
}

/**
 * ic_hw_stats() - read the controller's side of a line's accounting.
 * @irq: a valid line.
 * @st: filled in.
 *
 * The virtual controller's stats operation.
 *
 * Context: any.
 */
void ic_hw_stats(unsigned int irq, struct ic_chip_stats *st)
{
	struct ic_line *l = &ic_lines[irq];
	unsigned long flags;

	raw_spin_lock_irqsave(&l->lock, flags);
	st->latched = l->latched;
	st->masked = l->masked;
	st->raised = atomic_long_read(&l->raised);
	st->merged = atomic_long_read(&l->merged);
	st->sent = atomic_long_read(&l->sent);
	st->dropped = atomic_long_read(&l->dropped);
	raw_spin_unlock_irqrestore(&l->lock, flags);
}

const struct ic_hw_ops ic_vic = {
	.typename = "IC-VIC-edge",
	.startup = ic_hw_startup,
	.shutdown = ic_hw_shutdown,
	.enable = ic_hw_unmask,
	.disable = ic_hw_mask,
	.ack = NULL,		/* nothing to acknowledge on an edge */
	.end = NULL,
	.set_affinity = ic_hw_set_affinity,
	.retrigger = ic_hw_resend,
	.stats = ic_hw_stats,
};

static enum hrtimer_restart ic_hw_timer_fn(struct hrtimer *timer)
{
	ic_raise(IC_TIMER_IRQ);
	hrtimer_forward_now(timer, ic_timer_period);
	return HRTIMER_RESTART;
}

static long ic_hw_timer_arm(void *unused)
{
	struct ic_hw_cpu *hc = this_cpu_ptr(&ic_hw_cpu);

	hrtimer_start(&hc->timer, ic_timer_period, HRTIMER_MODE_REL_PINNED_HARD);
	return 0;
}

/**
 * ic_timer_start() - start the virtual timer (line 0) on every online CPU.
 * @hz: ticks per second per CPU, 1..1000.
 *
 * Each tick raises line 0, which is delivered like any line: by default
 * round-robin, so a tick is handled by whichever CPU its turn falls on, as
 * the i386 timer on an IO-APIC was; ic_set_affinity() can pin it.
 *
 * Context: process; sleeps; takes the CPU hotplug lock, then the timer
 * lock. Serialised against ic_timer_stop().
 * Return: 0, -EINVAL for a bad rate, -EBUSY if already running.
 */
int ic_timer_start(unsigned int hz)
{
	int cpu;

	if (!hz || hz > 1000)
		return -EINVAL;
	/* The hotplug lock first, as at unload (ic_hw_exit()). */
	cpus_read_lock();
	mutex_lock(&ic_timer_lock);
	if (ic_timer_running) {
		mutex_unlock(&ic_timer_lock);
		cpus_read_unlock();
		return -EBUSY;
	}
	ic_timer_period = ns_to_ktime(NSEC_PER_SEC / hz);
	ic_timer_running = true;
	for_each_online_cpu(cpu)
		work_on_cpu(cpu, ic_hw_timer_arm, NULL);
	mutex_unlock(&ic_timer_lock);
	cpus_read_unlock();
	return 0;
}
EXPORT_SYMBOL_GPL(ic_timer_start);

/* Cancel every CPU's timer, armed or not. Context: process. */
static void __ic_timer_stop(void)
{
	int cpu;

	lockdep_assert_held(&ic_timer_lock);
	for_each_possible_cpu(cpu)
		hrtimer_cancel(&per_cpu_ptr(&ic_hw_cpu, cpu)->timer);
	ic_timer_running = false;
}

/**
 * ic_timer_stop() - stop the virtual timer on every CPU.
 *
 * Returns with no timer armed and none running, whatever ic_timer_start()
 * calls raced with it.
 *
 * Context: process; sleeps. Serialised against ic_timer_start().
 */
void ic_timer_stop(void)
{
	mutex_lock(&ic_timer_lock);
	__ic_timer_stop();
	mutex_unlock(&ic_timer_lock);
}
EXPORT_SYMBOL_GPL(ic_timer_stop);

/**
 * ic_hw_timers_armed() - how many CPUs' virtual timers are queued now.
 *
 * For the self-test that races ic_timer_start() against ic_timer_stop().
 *
 * Context: any; a snapshot.
 * Return: the number of queued timers.
 */
unsigned int ic_hw_timers_armed(void)
{
	unsigned int n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		n += hrtimer_is_queued(&per_cpu_ptr(&ic_hw_cpu, cpu)->timer);
	return n;
}

static void ic_hw_free_lines(unsigned int n)
{
	while (n--)
		free_cpumask_var(ic_lines[n].targets);
	kfree(ic_lines);
	ic_lines = NULL;
}

/**
 * ic_hw_init() - set up @nr_irqs lines, all masked.
 * @nr_irqs: the number of lines.
 *
 * Context: process (module init).
 * Return: 0 or -ENOMEM.
 */
int ic_hw_init(unsigned int nr_irqs)
{
	unsigned int i;
	int cpu;

	if (ic_fault_alloc("lines"))
		return -ENOMEM;
	ic_lines = kcalloc(nr_irqs, sizeof(*ic_lines), GFP_KERNEL);
	if (!ic_lines)
		return -ENOMEM;
	for (i = 0; i < nr_irqs; i++) {
		if (ic_fault_alloc("line cpumask") ||
		    !zalloc_cpumask_var(&ic_lines[i].targets, GFP_KERNEL)) {
			ic_hw_free_lines(i);
			return -ENOMEM;
		}
		raw_spin_lock_init(&ic_lines[i].lock);
		ic_lines[i].masked = true;
		cpumask_copy(ic_lines[i].targets, cpu_possible_mask);
	}
	ic_hw_nr = nr_irqs;
	for_each_possible_cpu(cpu) {
		struct ic_hw_cpu *hc = per_cpu_ptr(&ic_hw_cpu, cpu);

		bitmap_zero(hc->pending, IC_NR_IRQS_MAX);
		atomic_set(&hc->kicked, 0);
		atomic_set(&hc->running, 0);
		INIT_CSD(&hc->csd, ic_hw_csd_fn, hc);
		hc->work = IRQ_WORK_INIT_HARD(ic_hw_work_fn);
		hc->adopt = IRQ_WORK_INIT_HARD(ic_hw_adopt_fn);
		hrtimer_init(&hc->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
		hc->timer.function = ic_hw_timer_fn;
	}
	return 0;
}

/*
 * inject=unload_dispatch: post one edge of line 0 to another CPU and
 * return once that CPU's dispatch has taken it and stalls (50 ms) before
 * handling it. Its kick flag is clear by then, so only the dispatch's
 * @running count can keep ic_hw_exit() from freeing the lines under it,
 * which is what this shows. Context: process, the CPU hotplug lock held
 * for reading (the static key's _cpuslocked calls need it). Return: the
 * stalled CPU, or -1 if there is no other CPU or it never stalled.
 */
static int ic_hw_inject_dispatch(void)
{
	struct ic_spin s = IC_SPIN_INIT("unload_dispatch");
	unsigned long flags;
	int cpu, this;
	u64 waited;

	/* The online CPUs cannot change: the hotplug lock is held. */
	if (num_online_cpus() < 2) {
		pr_info("inject=unload_dispatch: skipped, no other CPU online\n");
		return -1;
	}
	/* Before get_cpu(): switching a static key sleeps. */
	static_branch_enable_cpuslocked(&ic_hw_stall_key);
	atomic_set(&ic_hw_stalled, 0);
	this = get_cpu();
	cpu = cpumask_any_but(cpu_online_mask, this);
	raw_spin_lock_irqsave(&ic_lines[0].lock, flags);
	__ic_hw_deliver_to(0, cpu, this);
	raw_spin_unlock_irqrestore(&ic_lines[0].lock, flags);
	put_cpu();
	while (!atomic_read(&ic_hw_stalled)) {
		if (ic_spin_once(&s, &waited)) {
			pr_err("inject=unload_dispatch: CPU%d's dispatch never took the edge\n",
			       cpu);
			static_branch_disable_cpuslocked(&ic_hw_stall_key);
			cpu = -1;
			break;
		}
		cpu_relax();
	}
	return cpu;
}

/* The stalled dispatch's verdict: did ic_hw_exit() wait for it? */
static void ic_hw_inject_report(int cpu, bool seen, u64 ns)
{
	static_branch_disable_cpuslocked(&ic_hw_stall_key);
	if (seen)
		pr_info("inject=unload_dispatch: unload saw CPU%d's dispatch running and waited %llu us for it\n",
			cpu, ns / NSEC_PER_USEC);
	else
		pr_err("inject=unload_dispatch: unload did not see CPU%d's dispatch running: it would free the lines under it\n",
		       cpu);
}

/*
 * inject=lost_kick: the line's handler and what the line had counted
 * before the edge, so that the unload can check after its wait that the
 * edge was delivered: a run of the handler, the line balanced.
 */
static atomic_t ic_hw_lost_kick_runs;
static struct ic_line_stats ic_hw_lost_kick_before;

static void ic_hw_lost_kick_handler(unsigned int irq, void *dev_id)
{
	atomic_inc(&ic_hw_lost_kick_runs);
}

/*
 * inject=lost_kick: give line 0 a handler, raise it once toward another
 * CPU and set that CPU's kick flag without sending the kick, as a kick
 * lost on its way would leave it. Context: process, preemption enabled;
 * the timer stopped (nothing else raises line 0). Return: true if the
 * edge is posted, to be checked by ic_hw_lost_kick_verdict().
 */
static bool ic_hw_inject_lost_kick(void)
{
	struct ic_line_stats *st = &ic_hw_lost_kick_before;
	unsigned int tries;
	struct ic_hw_cpu *hc;
	unsigned long flags;
	int cpu, this, err;

	if (num_online_cpus() < 2) {
		pr_info("inject=lost_kick: skipped, no other CPU online\n");
		return false;
	}
	atomic_set(&ic_hw_lost_kick_runs, 0);
	err = ic_request_irq(0, ic_hw_lost_kick_handler, IC_SA_INTERRUPT,
			     "inject-lost-kick", &ic_hw_lost_kick_runs);
	if (err) {
		pr_err("inject=lost_kick: request_irq(0): %d; nothing injected\n", err);
		return false;
	}
	/* Quiet first: a tick latched while the line was masked goes now. */
	for (tries = 0; tries < 100; tries++) {
		ic_line_stats(0, st);
		if (!st->inflight && !st->busy)
			break;
		usleep_range(1000, 2000);
	}
	atomic_set(&ic_hw_lost_kick_runs, 0);

	this = get_cpu();
	cpu = cpumask_any_but(cpu_online_mask, this);
	hc = per_cpu_ptr(&ic_hw_cpu, cpu);
	raw_spin_lock_irqsave(&ic_lines[0].lock, flags);
	atomic_long_inc(&ic_lines[0].raised);	/* a raise, as ic_raise() counts it */
	__ic_hw_send(0, hc);			/* and no kick is sent */
	raw_spin_unlock_irqrestore(&ic_lines[0].lock, flags);
	put_cpu();
	return true;
}

/*
 * inject=lost_kick, after the unload's wait: the edge must have reached
 * its handler, once, and line 0 must account for it (handled, nothing in
 * flight). The probe's message says where the kick was; only this says
 * that the edge was delivered. Then the handler goes. Context: process,
 * before the lines are freed.
 */
static void ic_hw_lost_kick_verdict(void)
{
	const struct ic_line_stats *b = &ic_hw_lost_kick_before;
	int runs = atomic_read(&ic_hw_lost_kick_runs);
	struct ic_line_stats st;

	ic_line_stats(0, &st);
	if (runs == 1 && st.raised - b->raised == 1 && st.handled - b->handled == 1 &&
	    !st.inflight && !st.busy && ic_line_stats_balance(&st))
		pr_info("inject=lost_kick: the edge reached its handler once; line 0 balanced (raised %lu handled %lu)\n",
			st.raised, st.handled);
	else
		pr_err("inject=lost_kick: the edge was not delivered: the handler ran %d times; line 0 raised +%lu handled +%lu in flight %lu latched %lu, %s\n",
		       runs, st.raised - b->raised, st.handled - b->handled, st.inflight,
		       st.latched, ic_line_stats_balance(&st) ? "balanced" : "unbalanced");
	ic_free_irq(0, &ic_hw_lost_kick_runs);
}

/* The kick's call is queued on its CPU and has not started (csd locked). */
static bool ic_hw_csd_queued(struct ic_hw_cpu *hc)
{
	return READ_ONCE(hc->csd.node.u_flags) & CSD_FLAG_LOCK;
}

/* A CPU's kick is still on its way: flagged, queued or running. */
static bool ic_hw_kick_busy(struct ic_hw_cpu *hc)
{
	bool kicked = atomic_read(&hc->kicked);

	/* Pairs with the inc-then-xchg in ic_hw_dispatch(). */
	smp_rmb();
	return kicked || atomic_read(&hc->running) ||
	       ic_hw_csd_queued(hc) ||
	       irq_work_is_busy(&hc->work) || irq_work_is_busy(&hc->adopt);
}

/*
 * The unload's last resort for a CPU whose kick has not come in stall_ms
 * (ic_hw_exit()). Runs on that CPU, in the call-function interrupt, so in
 * hardirq as a dispatch must: says where the kick was and delivers what
 * it left pending, so that the unload finishes and the report names the
 * cause instead of hanging rmmod. The kick's irq_work queued with no
 * interrupt to run it is run; a kick flag set with nothing queued (a kick
 * taken without a dispatch, or never sent) is dispatched.
 */
static void ic_hw_kick_probe(void *info)
{
	struct ic_hw_cpu *hc = info;
	unsigned int n = bitmap_weight(hc->pending, ic_hw_nr);
	const char *where;

	if (irq_work_is_pending(&hc->work)) {
		where = "its irq_work queued, no interrupt to run it";
		irq_work_run();
	} else if (atomic_read(&hc->kicked)) {
		where = "its flag set, nothing queued";
		ic_hw_dispatch(hc);
	} else {
		return;
	}
	/* How many it found, not that they arrived: the unload checks that. */
	if (ic_param_inject == IC_INJECT_LOST_KICK)
		pr_info("inject=lost_kick: CPU%d's kick lost (%s): the unload found %u edges pending\n",
			smp_processor_id(), where, n);
	else
		pr_err("lost kick on CPU%d (%s): the unload found %u edges pending\n",
		       smp_processor_id(), where, n);
}

/* The one report a load gives of a teardown wait that passed stall_ms. */
static void ic_hw_exit_stalled(int cpu, u64 waited)
{
	struct ic_hw_cpu *hc;

	/* The injected lost kick is expected: the probe reports it. */
	if (ic_param_inject == IC_INJECT_LOST_KICK)
		return;
	if (!ic_spin_first_report())
		return;
	hc = per_cpu_ptr(&ic_hw_cpu, cpu);
	/* Where the kick is: a remote CPU's call still queued, or our irq_work. */
	WARN(1, KBUILD_MODNAME ": unload has waited %llu ms for CPU%d's kick (kicked=%d running=%d online=%d pending=%u csd_queued=%d work_pending=%d work_busy=%d; stall_ms bound %llu ms)\n",
	     waited / NSEC_PER_MSEC, cpu, atomic_read(&hc->kicked),
	     atomic_read(&hc->running), cpu_online(cpu),
	     bitmap_weight(hc->pending, ic_hw_nr),
	     ic_hw_csd_queued(hc),
	     irq_work_is_pending(&hc->work), irq_work_is_busy(&hc->work),
	     ic_spin_bound_ns() / NSEC_PER_MSEC);
}

/**
 * ic_hw_exit() - stop the timer and wait for every kick to finish.
 *
 * A CPU may still be inside a dispatch (scanning its pending bits, in
 * do_IRQ) after its kick flag has cleared, so the wait is for both the
 * flag and the dispatch itself, and for the kick's call or irq_work
 * still queued; only then are the lines freed. A wait that passes
 * stall_ms is reported, and the stalled CPU is asked where its kick went
 * (ic_hw_kick_probe(), which delivers what a lost kick left pending): a
 * kick that can never finish is a bug to see, not a silent hang of rmmod.
 *
 * Context: process (module exit); every line is shut down by now; the CPU
 * hotplug lock held for reading since before ic_hotplug_exit(), so that
 * no CPU goes down with its kick set once hotplug.c no longer adopts its
 * edges.
 */
void ic_hw_exit(void)
{
	bool lost_kick = false;
	int stalled_cpu = -1;
	u64 waited;
	int cpu;

	ic_timer_stop();
	if (ic_param_inject == IC_INJECT_UNLOAD_DISPATCH)
		stalled_cpu = ic_hw_inject_dispatch();
	if (ic_param_inject == IC_INJECT_LOST_KICK)
		lost_kick = ic_hw_inject_lost_kick();
	for_each_possible_cpu(cpu) {
		struct ic_hw_cpu *hc = per_cpu_ptr(&ic_hw_cpu, cpu);
		struct ic_spin s = IC_SPIN_INIT("unload");
		u64 t0 = ktime_get_ns();
		bool seen = false;

		while (ic_hw_kick_busy(hc)) {
			seen = true;
			cond_resched();
			if (!ic_spin_once(&s, &waited))
				continue;
			ic_hw_exit_stalled(cpu, waited);
			/* An online CPU is asked where its kick went. */
			if (cpu_online(cpu))
				smp_call_function_single(cpu, ic_hw_kick_probe, hc, 1);
		}
		if (cpu == stalled_cpu)
			ic_hw_inject_report(cpu, seen, ktime_get_ns() - t0);
	}
	if (lost_kick)
		ic_hw_lost_kick_verdict();
	ic_hw_free_lines(ic_hw_nr);
	ic_hw_nr = 0;
}
