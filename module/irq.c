// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore - interrupt descriptors, do_IRQ and the driver API of 2.5.28.
 *
 * Locking: each descriptor has a raw spinlock (it must keep spinning on
 * PREEMPT_RT) that protects its status, depth, action chain and
 * accounting. do_IRQ takes it with interrupts already off (hardirq); every
 * other user takes it with raw_spin_lock_irqsave(). The action chain is run
 * without the lock: INPROGRESS keeps a second CPU from running it at the
 * same time, and free_irq() waits for INPROGRESS to clear before it frees
 * an action. No global lock and no allocation is on the dispatch path.
 *
 * The PENDING hand-off: a CPU that takes an instance of a line that another
 * CPU is running only sets PENDING; the running CPU sees it when it relocks
 * and runs the chain once more, so the line is never handled on two CPUs
 * at once and no instance is lost.
 *
 *   CPU0 do_IRQ(n)                     CPU1 do_IRQ(n)
 *   lock; INPROGRESS; unlock
 *   run chain ...                      lock; sees INPROGRESS: PENDING; unlock
 *   lock; PENDING? clear it; unlock      (returns at once)
 *   run chain again
 *   lock; no PENDING: clear INPROGRESS; unlock
 *
 * PENDING is the one record of an instance that has arrived and not yet
 * run: one waiting for the running CPU's loop (INPROGRESS set), or one
 * latched on a disabled line for enable_irq() to resend (INPROGRESS
 * clear). It holds at most one instance; another that arrives meanwhile
 * is merged into it. enable_irq() takes a latched instance out of PENDING
 * as it resends it, so the instance is either held here or in flight at
 * the controller, never both and never neither:
 *
 *   raised == handled + merged + held (PENDING, or the controller's latch)
 *             + in flight + dropped
 *
 * at every moment, when read under the descriptor lock (ic_line_stats()).
 * Every handled instance is one run of the handlers, which a driver can
 * count for itself; the torture test does.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/export.h>
#include <linux/jump_label.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include <irqcore.h>

#include "compat.h"
#include "faultpoint.h"
#include "chip.h"
#include "irq.h"
#include "misuse.h"
#include "regime.h"
#include "spin.h"
#include "trace.h"

/**
 * struct ic_irqaction - one handler on a line (2.5's struct irqaction).
 * @handler: the handler.
 * @flags: IC_SA_INTERRUPT, IC_SA_SHIRQ.
 * @name: shown in /proc/irqcore/interrupts.
 * @dev_id: the sharing key.
 * @next: the next action on the line.
 */
struct ic_irqaction {
	ic_handler_t handler;
	unsigned long flags;
	const char *name;
	void *dev_id;
	struct ic_irqaction *next;
};

/**
 * struct ic_irq_desc - one line's descriptor (2.5's irq_desc_t).
 * @lock: protects everything below but @kstat.
 * @status: IC_IRQ_* bits.
 * @depth: disable_irq() nesting; 1 with no action.
 * @action: the action chain.
 * @running_cpu: the CPU running the chain while INPROGRESS is set.
 * @handled: runs of the chain (a commit or a PENDING re-run), and
 *	instances that found no action; see struct ic_line_stats.
 * @merged: instances folded into one already held in PENDING.
 * @reruns: runs of the loop for an instance held in PENDING while the
 *	chain ran (the hand-off), part of @handled.
 * @dropped: instances held in PENDING and discarded because the line
 *	lost its last action or got a new first one.
 * @unhandled: instances that found no action.
 * @injected: instances handed to do_IRQ by ic_handle_irq(), which never
 *	went through the controller; ic_line_stats() adds them to the
 *	controller's raises. Counted here, under the lock do_IRQ holds
 *	anyway, so that a dispatch pays no atomic for it.
 * @arrived: edges the controller sent that reached do_IRQ; the
 *	controller's sent count minus this is what is in flight. Counted
 *	here for the same reason, and so that do_IRQ need not call the
 *	controller to take an edge out of flight.
 * @kstat: per-CPU count of do_IRQ calls, for /proc/irqcore/interrupts.
 * @chip: the line's controller (2.5's desc->handler): the virtual
 *	controller, or the device controller while the line is bound to a
 *	host interrupt (devline.c). Changed only with no action on the line.
 */
struct ic_irq_desc {
	raw_spinlock_t lock;
	unsigned int status;
	unsigned int depth;
	struct ic_irqaction *action;
	int running_cpu;
	unsigned long handled;
	unsigned long merged;
	unsigned long reruns;
	unsigned long dropped;
	unsigned long unhandled;
	unsigned long injected;
	unsigned long arrived;
	unsigned long __percpu *kstat;
	const struct ic_hw_ops *chip;
} ____cacheline_aligned_in_smp;	/* lines that CPUs take apart share nothing */

static struct ic_irq_desc *ic_desc;
static unsigned int ic_nr;
/*
 * On while some line has a controller with ack or end operations (a level
 * device line): until then do_IRQ's two tests of them are no-ops.
 */
static DEFINE_STATIC_KEY_FALSE(ic_chip_ops_key);

/*
 * Held from probe_irq_on() to probe_irq_off(), as 2.5's probe_sem was: two
 * probers at once would each shut down the lines the other is probing.
 */
static DEFINE_MUTEX(ic_probe_lock);
/* The task between probe_irq_on() and probe_irq_off(); under ic_probe_lock. */
static struct task_struct *ic_prober;

static bool ic_bad_irq(unsigned int irq, const char *fn)
{
	if (irq < ic_nr)
		return false;
	ic_api_misuse("%s(%u): no such line (valid 0..%u)\n", fn, irq, ic_nr - 1);
	return true;
}

/**
 * ic_nr_irqs() - the number of lines.
 *
 * Context: any.
 * Return: the nr_irqs parameter.
 */
unsigned int ic_nr_irqs(void)
{
	return ic_nr;
}
EXPORT_SYMBOL_GPL(ic_nr_irqs);

/**
 * ic_irq_status() - a line's IC_IRQ_* status, with IC_IRQ_MASKED added.
 * @irq: the line.
 *
 * Context: any.
 * Return: the status, or 0 for a bad line.
 */
unsigned int ic_irq_status(unsigned int irq)
{
	struct ic_irq_desc *desc;
	struct ic_chip_stats cs;
	unsigned int status;
	unsigned long flags;

	if (irq >= ic_nr)
		return 0;
	desc = &ic_desc[irq];
	raw_spin_lock_irqsave(&desc->lock, flags);
	desc->chip->stats(irq, &cs);
	status = desc->status;
	raw_spin_unlock_irqrestore(&desc->lock, flags);
	return status | (cs.masked ? IC_IRQ_MASKED : 0);
}
EXPORT_SYMBOL_GPL(ic_irq_status);

/**
 * ic_kstat_irqs_cpu() - how many instances of a line do_IRQ took on a CPU.
 * @irq: the line.
 * @cpu: a possible CPU.
 *
 * The count of /proc/irqcore/interrupts' column for @cpu (2.5's
 * kstat.irqs[cpu][irq], today's kstat_irqs_cpu()): every arrival, whether
 * it ran the handler or was folded into a running one. Since load, not
 * since the line's present user: the count outlives free_irq().
 *
 * Context: any; a snapshot (the CPU counts without a lock).
 * Return: the count, or 0 for a bad line or CPU.
 */
unsigned long ic_kstat_irqs_cpu(unsigned int irq, unsigned int cpu)
{
	if (irq >= ic_nr || cpu >= nr_cpu_ids || !cpu_possible(cpu))
		return 0;
	return READ_ONCE(*per_cpu_ptr(ic_desc[irq].kstat, cpu));
}
EXPORT_SYMBOL_GPL(ic_kstat_irqs_cpu);

/*
 * Run the chain. As 2.5's handle_IRQ_event(): the first action's
 * SA_INTERRUPT decides whether the chain runs with interrupts on.
 */
static __always_inline void ic_handle_event(unsigned int irq, struct ic_irqaction *action)
{
	bool irqs_on = !(action->flags & IC_SA_INTERRUPT);
	unsigned int cookie = 0;

	if (irqs_on)
		cookie = ic_irqs_on();
	/*
	 * Two loops, so that with the handler events off the chain runs as if
	 * they did not exist: measured under TCG, the events' call sites in
	 * the loop cost a dispatch about 100 ns even while disabled (spills
	 * around the indirect call), where these tests cost two no-ops.
	 */
	if (trace_irqcore_handler_entry_enabled() || trace_irqcore_handler_exit_enabled()) {
		do {
			trace_irqcore_handler_entry(irq, action->name);
			action->handler(irq, action->dev_id);
			trace_irqcore_handler_exit(irq, action->name);
			action = action->next;
		} while (action);
	} else {
		do {
			action->handler(irq, action->dev_id);
			action = action->next;
		} while (action);
	}
	if (irqs_on)
		ic_irqs_off(cookie);
}

/*
 * do_IRQ proper. @injected: the instance did not come through the
 * controller but from ic_handle_irq(), and is counted as raised here,
 * under the descriptor lock with its outcome, instead of leaving flight.
 * @claimed: where to say whether the line had an action (the host
 * handler's answer to genirq), or NULL. Always inlined, so that each
 * caller's copy has @injected and @claimed constant: the controller's
 * and ic_handle_irq()'s copy (__ic_do_IRQ(), the dispatch that make cost
 * counts) carries no answer nobody reads, which cost it 6 instructions (91 to 85)
 * (a register saved and restored, the test and the move of the answer).
 */
static __always_inline void ic_do_irq_body(unsigned int irq, bool injected, bool *claimed)
{
	struct ic_irq_desc *desc = &ic_desc[irq];
	struct ic_irqaction *action = NULL;
	unsigned int status, reruns = 0;
	bool ran;

	trace_irqcore_do_irq_entry(irq);
	__ic_irq_enter();
	this_cpu_inc(*desc->kstat);
	raw_spin_lock(&desc->lock);
	if (static_branch_unlikely(&ic_chip_ops_key) && desc->chip->ack)
		desc->chip->ack(irq);
	/* Some handler will see this instance: now, held, or merged. */
	if (claimed)
		*claimed = desc->action;
	if (injected)
		desc->injected++;
	else
		desc->arrived++;

	status = desc->status & ~(IC_IRQ_REPLAY | IC_IRQ_WAITING);
	if (!(status & (IC_IRQ_DISABLED | IC_IRQ_INPROGRESS))) {
		/*
		 * Commit to this instance. With no action it is spurious;
		 * unlike 2.5.28, INPROGRESS is then not set, so that it can
		 * never stay set on a line that nobody will ever run. A
		 * PENDING left here would be an instance nobody resent; it
		 * runs with this one (enable_irq() and the first
		 * request_irq() leave none, so this does not happen).
		 */
		if (status & IC_IRQ_PENDING)
			desc->merged++;
		status &= ~IC_IRQ_PENDING;
		action = desc->action;
		if (action) {
			status |= IC_IRQ_INPROGRESS;
			desc->running_cpu = smp_processor_id();
		} else {
			desc->unhandled++;
		}
		desc->handled++;
	} else if (status & IC_IRQ_PENDING) {
		/* One is held already: the two become one run. */
		desc->merged++;
	} else {
		/*
		 * Hold it: the running CPU's loop runs it (INPROGRESS), or
		 * enable_irq() resends it (DISABLED).
		 */
		status |= IC_IRQ_PENDING;
	}
	desc->status = status;

	ran = action;
	while (action) {
		raw_spin_unlock(&desc->lock);
		ic_handle_event(irq, action);
		raw_spin_lock(&desc->lock);
		if (!(desc->status & IC_IRQ_PENDING))
			break;
		desc->status &= ~IC_IRQ_PENDING;
		/*
		 * The chain as it is now, not the one read at the start:
		 * ic_free_irq() may have unlinked actions while it ran, and
		 * it frees them once INPROGRESS clears. 2.5.28 reran the old
		 * chain, whose unlinked first action still leads to the
		 * rest: a freed handler ran on, and under a storm the
		 * free_irq() waiting for it never returned. Genirq's
		 * handle_edge_irq() rereads desc->action the same way. With
		 * no action left, the held instance goes with the handlers.
		 */
		action = desc->action;
		if (!action) {
			desc->dropped++;
			break;
		}
		desc->handled++;
		desc->reruns++;
		reruns++;
	}
	if (ran)
		desc->status &= ~IC_IRQ_INPROGRESS;
	if (static_branch_unlikely(&ic_chip_ops_key) && desc->chip->end)
		desc->chip->end(irq);
	raw_spin_unlock(&desc->lock);
	trace_irqcore_do_irq_exit(irq, ran, reruns);
	__ic_irq_exit();
}

/* The dispatch of a controller's kick and of ic_handle_irq(): one copy. */
static noinline void __ic_do_IRQ(unsigned int irq, bool injected)
{
	ic_do_irq_body(irq, injected, NULL);
}

/**
 * ic_do_IRQ() - handle one instance of @irq on this CPU (2.5.28's do_IRQ).
 * @irq: a valid line.
 *
 * Context: hardirq with interrupts off, called by the controller's kick.
 */
void ic_do_IRQ(unsigned int irq)
{
	__ic_do_IRQ(irq, false);
}

/**
 * ic_handle_host_irq() - hand a host interrupt's instance of @irq to
 * do_IRQ (a device line's host handler, devline.c).
 * @irq: a valid line.
 *
 * ic_handle_irq() without its context checks (the host handler is
 * hardirq by IRQF_NO_THREAD), and with an answer for genirq.
 *
 * Context: hardirq, interrupts off: the host interrupt's handler.
 * Return: false if the line had no action, so that nobody could handle
 * the instance: the host handler then returns IRQ_NONE, and genirq's
 * "nobody cared" check can turn off a host interrupt that storms (a
 * level source that nothing quiets). True otherwise, also for an
 * instance held in PENDING (the handlers see it later) or merged.
 */
bool ic_handle_host_irq(unsigned int irq)
{
	bool claimed;

	ic_do_irq_body(irq, true, &claimed);
	return claimed;
}

/**
 * ic_handle_irq() - handle one instance of @irq here and now, in the
 * caller's hardirq (what genirq's generic_handle_irq() is to a chained
 * interrupt controller).
 * @irq: the line.
 *
 * The instance goes through do_IRQ exactly as a kicked one would: regime,
 * PENDING hand-off and all; it is counted as raised under the descriptor
 * lock, together with what became of it, so the line's accounting stays
 * true without the controller's lock and counters on the way. Nothing is masked or
 * latched on the way: like generic_handle_irq(), this is the dispatch
 * alone, for a caller that has its own interrupt (the benchmarks).
 *
 * Context: hardirq, interrupts off; never NMI (in_hardirq() is true there
 * too, but an NMI may have interrupted a holder of the descriptor lock).
 * Return: 0, or -EINVAL for a bad line or another context.
 */
int ic_handle_irq(unsigned int irq)
{
	if (irq >= ic_nr || in_nmi() || !in_hardirq() || !irqs_disabled())
		return -EINVAL;
	__ic_do_IRQ(irq, true);
	return 0;
}
EXPORT_SYMBOL_GPL(ic_handle_irq);

/*
 * Is this CPU inside @desc's own chain (or in an interrupt nested in it)?
 * Then a wait for the line would wait for itself. The CPU cannot change
 * under the descriptor lock, and while the chain's CPU runs the chain it
 * runs nothing else but what interrupts it: so a match means we are on
 * top of the chain, never beside it. Context: the descriptor lock held.
 */
static bool __ic_waits_for_itself(struct ic_irq_desc *desc)
{
	lockdep_assert_held(&desc->lock);
	return (desc->status & IC_IRQ_INPROGRESS) &&
	       desc->running_cpu == raw_smp_processor_id();
}

/* The one report a load gives of a wait for a line that passed stall_ms. */
static void ic_wait_stalled(unsigned int irq, unsigned long ip, u64 waited)
{
	struct ic_irq_desc *desc = &ic_desc[irq];

	if (!ic_spin_first_report())
		return;
	WARN(1, KBUILD_MODNAME ": %pS on CPU%d has waited %llu ms for line %u, whose handler runs on CPU%d (stall_ms bound %llu ms)\n",
	     (void *)ip, raw_smp_processor_id(), waited / NSEC_PER_MSEC, irq,
	     READ_ONCE(desc->running_cpu), ic_spin_bound_ns() / NSEC_PER_MSEC);
}

/**
 * ic_wait_line() - wait until no CPU runs @irq's chain (2.5.28's
 * synchronize_irq(); free_irq() and disable_irq() wait the same way).
 * @irq: a valid line.
 * @ip: the caller, for reports.
 *
 * The spin reads the status without the lock; the recheck under the lock
 * makes sure that what the handler wrote is visible once we return (the
 * later fix to 2.5.28's bare spin).
 *
 * 2.5.28 spun, and so does this in atomic context. A task that may sleep
 * calls cond_resched() between looks instead of keeping its CPU from every
 * other task for as long as a handler elsewhere runs (today's
 * synchronize_irq() sleeps). A wait that passes stall_ms is reported once.
 *
 * From the line's own handler (or from an interrupt nested in it) the wait
 * could never end: 2.5.28 hung there without a word. It is refused with a
 * warning naming the caller, and returns at once.
 *
 * Context: any; sleeps only if the caller may.
 * Return: true once no CPU runs the chain; false if the wait was refused.
 */
bool ic_wait_line(unsigned int irq, unsigned long ip)
{
	struct ic_irq_desc *desc = &ic_desc[irq];
	struct ic_spin s = IC_SPIN_INIT("wait_line");
	bool can_sleep = preemptible();
	unsigned long flags;
	bool busy, self;
	u64 waited;

	raw_spin_lock_irqsave(&desc->lock, flags);
	self = __ic_waits_for_itself(desc);
	raw_spin_unlock_irqrestore(&desc->lock, flags);
	if (self) {
		ic_api_misuse("%pS: waits for line %u in its own handler on CPU%d; refused\n",
			      (void *)ip, irq, raw_smp_processor_id());
		return false;
	}

	do {
		while (READ_ONCE(desc->status) & IC_IRQ_INPROGRESS) {
			if (can_sleep)
				cond_resched();
			if (ic_spin_once(&s, &waited))
				ic_wait_stalled(irq, ip, waited);
		}
		raw_spin_lock_irqsave(&desc->lock, flags);
		busy = desc->status & IC_IRQ_INPROGRESS;
		raw_spin_unlock_irqrestore(&desc->lock, flags);
	} while (busy);
	return true;
}

/**
 * ic_synchronize_irq() - wait for running handlers of @irq to finish.
 * @irq: the line.
 *
 * Under nolock (2.5.28) this waits for @irq alone (ic_wait_line()); under
 * biglock (2.5.27) for every handler on every line.
 *
 * Context: process; in atomic context it spins. From @irq's own handler
 * it is refused with a warning (it would wait for ever).
 */
void ic_synchronize_irq(unsigned int irq)
{
	if (ic_bad_irq(irq, "synchronize_irq"))
		return;
	trace_irqcore_sync_begin(irq);
	/*
	 * Not a regime op: the per-line wait is this file's, and regime.c,
	 * below it, must not call back up into it (tests/circles).
	 */
	if (ic_biglock_active())
		ic_biglock_synchronize_irq(irq, _RET_IP_);	/* cli(); sti() */
	else
		ic_wait_line(irq, _RET_IP_);
	trace_irqcore_sync_end(irq);
}
EXPORT_SYMBOL_GPL(ic_synchronize_irq);

/*
 * Discard an instance latched on a line that is changing hands: it was
 * meant for the handlers that are gone, not for the ones to come. One that
 * waits for a running chain's loop (INPROGRESS) stays; that loop runs it.
 */
static void __ic_drop_latched(struct ic_irq_desc *desc)
{
	lockdep_assert_held(&desc->lock);
	if ((desc->status & (IC_IRQ_PENDING | IC_IRQ_INPROGRESS)) == IC_IRQ_PENDING) {
		desc->status &= ~IC_IRQ_PENDING;
		desc->dropped++;
	}
}

/**
 * ic_request_irq() - add a handler to a line.
 * @irq: the line.
 * @handler: called in hardirq context for each instance.
 * @flags: IC_SA_INTERRUPT to run with interrupts off; IC_SA_SHIRQ to share.
 * @name: shown in /proc/irqcore/interrupts; must outlive the action.
 * @dev_id: the sharing key, passed to @handler; required with IC_SA_SHIRQ.
 *
 * A line is shared only if every action on it asked for IC_SA_SHIRQ. The
 * first action unmasks the line and discards an instance latched since
 * the line lost its previous handlers.
 *
 * Context: process; sleeps (allocates).
 * Return: 0, -EINVAL for a bad line, a NULL handler or SA_SHIRQ without a
 * dev_id, -EBUSY when the line is taken and not shared both ways (or taken
 * at all, with IC_SA_NEWLINE), -ENOMEM.
 */
int ic_request_irq(unsigned int irq, ic_handler_t handler, unsigned long flags,
		   const char *name, void *dev_id)
{
	struct ic_irqaction *new, *old, **p;
	struct ic_irq_desc *desc;
	unsigned long lflags;
	bool shared = false;

	if (irq >= ic_nr || !handler)
		return -EINVAL;
	if ((flags & IC_SA_SHIRQ) && !dev_id) {
		pr_err("request_irq(%u, %s): SA_SHIRQ needs a dev_id\n", irq, name);
		return -EINVAL;
	}
	new = kzalloc(sizeof(*new), GFP_KERNEL);
	if (!new)
		return -ENOMEM;
	new->handler = handler;
	new->flags = flags;
	new->name = name;
	new->dev_id = dev_id;

	desc = &ic_desc[irq];
	raw_spin_lock_irqsave(&desc->lock, lflags);
	p = &desc->action;
	old = *p;
	if (old) {
		if ((flags & IC_SA_NEWLINE) || !(old->flags & flags & IC_SA_SHIRQ)) {
			raw_spin_unlock_irqrestore(&desc->lock, lflags);
			kfree(new);
			return -EBUSY;
		}
		while (old) {
			p = &old->next;
			old = *p;
		}
		shared = true;
	}
	*p = new;
	if (!shared) {
		/* An edge that came after the last free_irq() is not ours. */
		__ic_drop_latched(desc);
		desc->depth = 0;
		desc->status &= ~(IC_IRQ_DISABLED | IC_IRQ_AUTODETECT | IC_IRQ_WAITING);
		desc->chip->startup(irq);
	}
	raw_spin_unlock_irqrestore(&desc->lock, lflags);
	return 0;
}
EXPORT_SYMBOL_GPL(ic_request_irq);

/**
 * ic_free_irq() - remove the handler with @dev_id from a line.
 * @irq: the line.
 * @dev_id: the key given to ic_request_irq().
 *
 * The last action masks the line and discards what is latched. Returns
 * only when no CPU runs the line's chain any more, so the handler never
 * runs after this returns. An unknown @dev_id warns and changes nothing.
 *
 * Context: process. From the line's own handler (where it would wait for
 * itself) it is refused with a warning and changes nothing.
 */
void ic_free_irq(unsigned int irq, void *dev_id)
{
	struct ic_irqaction *action, **p;
	struct ic_irq_desc *desc;
	unsigned long flags;

	if (ic_bad_irq(irq, "free_irq"))
		return;
	desc = &ic_desc[irq];
	raw_spin_lock_irqsave(&desc->lock, flags);
	if (__ic_waits_for_itself(desc)) {
		raw_spin_unlock_irqrestore(&desc->lock, flags);
		ic_api_misuse("free_irq(%u) from %pS: in the line's own handler; nothing freed\n",
			      irq, (void *)_RET_IP_);
		return;
	}
	for (p = &desc->action; (action = *p); p = &action->next)
		if (action->dev_id == dev_id)
			break;
	if (!action) {
		raw_spin_unlock_irqrestore(&desc->lock, flags);
		ic_api_misuse("free_irq(%u): no action with this dev_id; nothing freed\n", irq);
		return;
	}
	*p = action->next;
	if (!desc->action) {
		desc->status |= IC_IRQ_DISABLED;
		desc->depth = 1;
		desc->chip->shutdown(irq);
		__ic_drop_latched(desc);
	}
	raw_spin_unlock_irqrestore(&desc->lock, flags);

	/* Wait to make sure it is not being run on another CPU. */
	ic_wait_line(irq, _RET_IP_);
	kfree(action);
}
EXPORT_SYMBOL_GPL(ic_free_irq);

/**
 * ic_disable_irq_nosync() - disable a line without waiting.
 * @irq: the line.
 *
 * Disables nest: each needs its own ic_enable_irq().
 *
 * Context: any.
 */
void ic_disable_irq_nosync(unsigned int irq)
{
	struct ic_irq_desc *desc;
	unsigned long flags;

	if (ic_bad_irq(irq, "disable_irq_nosync"))
		return;
	desc = &ic_desc[irq];
	raw_spin_lock_irqsave(&desc->lock, flags);
	if (!desc->depth++) {
		desc->status |= IC_IRQ_DISABLED;
		desc->chip->disable(irq);
	}
	raw_spin_unlock_irqrestore(&desc->lock, flags);
}
EXPORT_SYMBOL_GPL(ic_disable_irq_nosync);

/**
 * ic_disable_irq() - disable a line and wait for its running handlers.
 * @irq: the line.
 *
 * The wait is for this line's handlers only, in both regimes, as 2.5.27's
 * disable_irq() spun on the line's INPROGRESS and 2.5.28's called
 * synchronize_irq(irq). Under biglock, as in 2.5.27, there is no wait at
 * all inside a handler; under nolock a wait from the line's own handler
 * is refused with a warning (2.5.28 hung there).
 *
 * Context: process, or atomic (then it spins).
 */
void ic_disable_irq(unsigned int irq)
{
	if (ic_bad_irq(irq, "disable_irq"))
		return;
	ic_disable_irq_nosync(irq);
	if (ic_regime->disable_irq_may_wait())
		ic_wait_line(irq, _RET_IP_);
}
EXPORT_SYMBOL_GPL(ic_disable_irq);

/**
 * ic_enable_irq() - undo one ic_disable_irq().
 * @irq: the line.
 *
 * At depth 0 the line is unmasked: an edge latched by the controller is
 * delivered, and an instance that do_IRQ latched while the line was
 * disabled is resent once (REPLAY). An unbalanced enable warns and changes
 * nothing.
 *
 * Context: any.
 */
void ic_enable_irq(unsigned int irq)
{
	struct ic_irq_desc *desc;
	unsigned long flags;

	if (ic_bad_irq(irq, "enable_irq"))
		return;
	desc = &ic_desc[irq];
	raw_spin_lock_irqsave(&desc->lock, flags);
	switch (desc->depth) {
	case 0:
		raw_spin_unlock_irqrestore(&desc->lock, flags);
		ic_api_misuse("enable_irq(%u): unbalanced enable; nothing changed\n", irq);
		return;
	case 1:
		desc->status &= ~IC_IRQ_DISABLED;
		/*
		 * 2.5.28 resent whenever PENDING was set without REPLAY, and
		 * left PENDING set. Here only a latched instance is resent
		 * (PENDING with INPROGRESS is run by the loop in do_IRQ), and
		 * it leaves PENDING as it goes in flight: should the line be
		 * disabled again before it arrives, it latches again, and the
		 * next enable resends it again.
		 */
		if ((desc->status & (IC_IRQ_PENDING | IC_IRQ_INPROGRESS)) == IC_IRQ_PENDING) {
			desc->status &= ~IC_IRQ_PENDING;
			if (desc->status & IC_IRQ_LEVEL) {
				/*
				 * Not replayed: a level source that still
				 * asserts interrupts again once unmasked,
				 * and one that stopped has nothing to say.
				 */
				desc->dropped++;
			} else {
				desc->status |= IC_IRQ_REPLAY;
				desc->chip->retrigger(irq);
			}
		}
		desc->chip->enable(irq);
		fallthrough;
	default:
		desc->depth--;
	}
	raw_spin_unlock_irqrestore(&desc->lock, flags);
}
EXPORT_SYMBOL_GPL(ic_enable_irq);

/**
 * ic_set_affinity_mask() - choose the CPUs a line's interrupts go to.
 * @irq: the line.
 * @mask: CPUs to deliver to, round-robin; at least one must be online.
 *
 * The line's controller does the work: the virtual one delivers its
 * edges round-robin over @mask (skipping CPUs that go offline; with none
 * online, an edge goes to the CPU that raised it), the device controller
 * aims the host interrupt too (irq_set_affinity()), first, and changes
 * nothing if the host refuses.
 *
 * Context: any.
 * Return: 0, -EINVAL for a bad line or a mask with no online CPU, or the
 * host's error for a device line.
 */
int ic_set_affinity_mask(unsigned int irq, const struct cpumask *mask)
{
	struct ic_irq_desc *desc;
	unsigned long flags;
	int err;

	if (irq >= ic_nr || !cpumask_intersects(mask, cpu_online_mask))
		return -EINVAL;
	desc = &ic_desc[irq];
	raw_spin_lock_irqsave(&desc->lock, flags);
	err = desc->chip->set_affinity(irq, mask);
	raw_spin_unlock_irqrestore(&desc->lock, flags);
	return err;
}
EXPORT_SYMBOL_GPL(ic_set_affinity_mask);

/**
 * ic_set_affinity() - choose the CPU a line's interrupts go to.
 * @irq: the line.
 * @cpu: an online CPU, or -1 for round-robin over the online CPUs.
 *
 * Context: any.
 * Return: 0, or -EINVAL for a bad line or CPU; a device line's host
 * error (see ic_set_affinity_mask()).
 */
int ic_set_affinity(unsigned int irq, int cpu)
{
	if (cpu == -1)
		return ic_set_affinity_mask(irq, cpu_possible_mask);
	if (cpu < 0 || cpu >= nr_cpu_ids || !cpu_online(cpu))
		return -EINVAL;
	return ic_set_affinity_mask(irq, cpumask_of(cpu));
}
EXPORT_SYMBOL_GPL(ic_set_affinity);

/**
 * ic_probe_irq_on() - start autodetection on every line without an action.
 *
 * Lines that fire within the first 100 ms are taken as spurious and left
 * out. The caller then makes its device interrupt and calls
 * ic_probe_irq_off().
 *
 * Only one probe runs at a time: a second ic_probe_irq_on() sleeps until
 * the first prober has called ic_probe_irq_off().
 *
 * Context: process; sleeps about 100 ms, and longer while another probe
 * runs. Must be followed by ic_probe_irq_off() from the same task.
 * Return: a mask of the lines below BITS_PER_LONG that are being probed.
 */
unsigned long ic_probe_irq_on(void)
{
	unsigned long flags, mask = 0;
	unsigned int i;

	mutex_lock(&ic_probe_lock);
	WRITE_ONCE(ic_prober, current);
	for (i = ic_nr; i-- > 1; ) {
		struct ic_irq_desc *desc = &ic_desc[i];

		raw_spin_lock_irqsave(&desc->lock, flags);
		if (!desc->action) {
			__ic_drop_latched(desc);
			desc->status |= IC_IRQ_AUTODETECT | IC_IRQ_WAITING;
			desc->status &= ~IC_IRQ_DISABLED;
			desc->chip->startup(i);
		}
		raw_spin_unlock_irqrestore(&desc->lock, flags);
	}

	msleep(100);	/* about 100 ms for spurious interrupts to show */

	for (i = 1; i < ic_nr; i++) {
		struct ic_irq_desc *desc = &ic_desc[i];

		raw_spin_lock_irqsave(&desc->lock, flags);
		if (desc->status & IC_IRQ_AUTODETECT) {
			if (!(desc->status & IC_IRQ_WAITING)) {
				desc->status &= ~IC_IRQ_AUTODETECT;
				desc->status |= IC_IRQ_DISABLED;
				desc->chip->shutdown(i);
			} else if (i < BITS_PER_LONG) {
				mask |= 1UL << i;
			}
		}
		raw_spin_unlock_irqrestore(&desc->lock, flags);
	}
	return mask;
}
EXPORT_SYMBOL_GPL(ic_probe_irq_on);

/**
 * ic_probe_irq_off() - end autodetection and name the line that fired.
 * @mask: what ic_probe_irq_on() returned (kept for the 2.5 signature).
 *
 * Context: process, the task that called ic_probe_irq_on(). From any other
 * task, or without a probe, it is refused (reported, nothing done): it
 * would release the probe lock it does not hold, which is another
 * prober's, undoing the one-probe-at-a-time rule.
 * Return: the line that fired, 0 if none did (or the call was refused),
 * or minus the first line if several did.
 */
int ic_probe_irq_off(unsigned long mask)
{
	int found = 0, nr_found = 0;
	unsigned long flags;
	unsigned int i;

	/*
	 * Only the prober itself writes ic_prober while it holds the lock
	 * and reads it back here: a task that did not call probe_irq_on()
	 * can never find itself in it.
	 */
	if (READ_ONCE(ic_prober) != current) {
		ic_api_misuse("probe_irq_off() without probe_irq_on() in this task; ignored\n");
		return 0;
	}

	for (i = 1; i < ic_nr; i++) {
		struct ic_irq_desc *desc = &ic_desc[i];

		raw_spin_lock_irqsave(&desc->lock, flags);
		if (desc->status & IC_IRQ_AUTODETECT) {
			if (!(desc->status & IC_IRQ_WAITING)) {
				if (!nr_found++)
					found = i;
			}
			desc->status &= ~IC_IRQ_AUTODETECT;
			desc->status |= IC_IRQ_DISABLED;
			desc->chip->shutdown(i);
		}
		raw_spin_unlock_irqrestore(&desc->lock, flags);
	}
	WRITE_ONCE(ic_prober, NULL);
	mutex_unlock(&ic_probe_lock);
	return nr_found > 1 ? -found : found;
}
EXPORT_SYMBOL_GPL(ic_probe_irq_off);

/**
 * ic_probe_busy() - is a probe open (between probe_irq_on() and _off())?
 *
 * For the self-tests.
 *
 * Context: any; a snapshot.
 * Return: true while a task holds the probe lock.
 */
bool ic_probe_busy(void)
{
	return mutex_is_locked(&ic_probe_lock);
}

/*
 * Swap @desc's controller for @chip, and return the old one. A dispatch
 * that has dropped the lock to run the chain (INPROGRESS) acked the line
 * on the controller it found and ends it on the one it finds when it
 * relocks: the swap must not fall between the two, or a level device
 * line's host interrupt is disabled by one controller and never enabled
 * by the other. Context: the descriptor lock held, INPROGRESS clear.
 */
static const struct ic_hw_ops *__ic_swap_chip(struct ic_irq_desc *desc,
					      const struct ic_hw_ops *chip, bool level)
{
	lockdep_assert_held(&desc->lock);
	swap(desc->chip, chip);
	if (level)
		desc->status |= IC_IRQ_LEVEL;
	else
		desc->status &= ~IC_IRQ_LEVEL;
	return chip;
}

/* One user fewer of ack and end, for @chip that a line no longer uses. */
static void ic_chip_ops_put(const struct ic_hw_ops *chip)
{
	if (chip->ack || chip->end)
		static_branch_dec(&ic_chip_ops_key);
}

/**
 * ic_irq_set_chip() - give a line another controller.
 * @irq: a valid line.
 * @chip: the controller; the one given to ic_irq_init() puts the
 *	virtual one back. A level controller has no retrigger operation.
 * @level: the line is level-triggered (IC_IRQ_LEVEL): a latched instance
 *	is not replayed by enable_irq().
 *
 * The line must have no action, so that no handler, and no do_IRQ past
 * its lock, uses the old controller: the caller keeps the line free of
 * actions until it has set the chip back. Nor may a chain still run
 * (INPROGRESS): an ic_free_irq() that unlinked the last action is still
 * waiting for it, and that dispatch ends the line on the controller it
 * finds (see __ic_swap_chip()).
 *
 * Context: process.
 * Return: 0, -EINVAL for a bad line or an edge controller without
 * retrigger, -EBUSY if the line has an action, is being probed or still
 * runs a chain; nothing changed then.
 */
int ic_irq_set_chip(unsigned int irq, const struct ic_hw_ops *chip, bool level)
{
	struct ic_irq_desc *desc;
	unsigned long flags;

	if (irq >= ic_nr || (!level && !chip->retrigger))
		return -EINVAL;
	desc = &ic_desc[irq];
	if (chip->ack || chip->end)
		static_branch_inc(&ic_chip_ops_key);
	raw_spin_lock_irqsave(&desc->lock, flags);
	if (desc->action ||
	    (desc->status & (IC_IRQ_AUTODETECT | IC_IRQ_INPROGRESS))) {
		raw_spin_unlock_irqrestore(&desc->lock, flags);
		ic_chip_ops_put(chip);
		return -EBUSY;
	}
	chip = __ic_swap_chip(desc, chip, level);
	raw_spin_unlock_irqrestore(&desc->lock, flags);
	/* @chip is the old controller now. */
	ic_chip_ops_put(chip);
	return 0;
}

/**
 * ic_irq_reset_chip() - put a line back on an edge controller whatever
 * actions it still has.
 * @irq: a valid line.
 * @chip: the controller (the virtual one, ic_vic).
 *
 * For a device line whose driver left it bound (devline.c, at unload):
 * its actions stay, and from here on they are served by @chip. Waits for
 * a chain still running, so that its dispatch acks and ends the line on
 * one controller; a dispatch that starts after the swap uses @chip for
 * both.
 *
 * Context: process; sleeps.
 */
void ic_irq_reset_chip(unsigned int irq, const struct ic_hw_ops *chip)
{
	struct ic_irq_desc *desc = &ic_desc[irq];
	unsigned long flags;

	if (chip->ack || chip->end)
		static_branch_inc(&ic_chip_ops_key);
	raw_spin_lock_irqsave(&desc->lock, flags);
	while (desc->status & IC_IRQ_INPROGRESS) {
		raw_spin_unlock_irqrestore(&desc->lock, flags);
		ic_wait_line(irq, _RET_IP_);
		raw_spin_lock_irqsave(&desc->lock, flags);
	}
	chip = __ic_swap_chip(desc, chip, false);
	/*
	 * The new controller's mask as the descriptor has it: the line was
	 * masked there when it was bound without an action (or shut down),
	 * and an action left enabled would see its raises latched for good.
	 */
	if (desc->action && !(desc->status & IC_IRQ_DISABLED))
		desc->chip->enable(irq);
	else
		desc->chip->disable(irq);
	raw_spin_unlock_irqrestore(&desc->lock, flags);
	ic_chip_ops_put(chip);
}

/**
 * ic_irq_chip() - the controller a line is on now.
 * @irq: a valid line.
 *
 * For the self-tests (device lines).
 *
 * Context: any; a snapshot.
 * Return: the controller's table.
 */
const struct ic_hw_ops *ic_irq_chip(unsigned int irq)
{
	return READ_ONCE(ic_desc[irq].chip);
}

/**
 * ic_irq_chip_ops_used() - does some line use a controller with ack or
 * end (so that do_IRQ calls them)?
 *
 * For the self-tests: with no device line bound, false.
 *
 * Context: any; a snapshot.
 * Return: whether the static key behind do_IRQ's ack and end is on.
 */
bool ic_irq_chip_ops_used(void)
{
	return static_key_enabled(&ic_chip_ops_key);
}

/**
 * ic_irq_nr_actions() - how many actions a line has now.
 * @irq: a valid line.
 *
 * For the self-tests: what a ic_free_irq() that is still waiting has
 * already unlinked.
 *
 * Context: any.
 * Return: the number of actions on the line's chain.
 */
unsigned int ic_irq_nr_actions(unsigned int irq)
{
	struct ic_irq_desc *desc = &ic_desc[irq];
	struct ic_irqaction *action;
	unsigned int n = 0;
	unsigned long flags;

	raw_spin_lock_irqsave(&desc->lock, flags);
	for (action = desc->action; action; action = action->next)
		n++;
	raw_spin_unlock_irqrestore(&desc->lock, flags);
	return n;
}

/**
 * ic_line_stats() - one line's accounting (see struct ic_line_stats).
 * @irq: the line.
 * @st: filled in; zeroed for a line that does not exist.
 *
 * Read under the descriptor lock and, inside it, the controller's line
 * lock, so that every count belongs to one moment (see the rule at the
 * top of this file).
 *
 * Context: any.
 * Return: 0, or -EINVAL for a line that does not exist.
 */
int ic_line_stats(unsigned int irq, struct ic_line_stats *st)
{
	struct ic_irq_desc *desc;
	struct ic_chip_stats cs;
	unsigned long flags;

	memset(st, 0, sizeof(*st));
	if (irq >= ic_nr)
		return -EINVAL;
	desc = &ic_desc[irq];
	raw_spin_lock_irqsave(&desc->lock, flags);
	desc->chip->stats(irq, &cs);
	st->handled = desc->handled;
	st->pending_merged = desc->merged;
	st->latched = cs.latched + !!(desc->status & IC_IRQ_PENDING);
	st->dropped = cs.dropped + desc->dropped;
	st->unhandled = desc->unhandled;
	st->reruns = desc->reruns;
	st->busy = desc->status & IC_IRQ_INPROGRESS;
	st->raised = cs.raised + desc->injected;
	st->inflight = cs.sent - desc->arrived;
	raw_spin_unlock_irqrestore(&desc->lock, flags);
	st->merged = cs.merged + st->pending_merged;
	return 0;
}
EXPORT_SYMBOL_GPL(ic_line_stats);

/**
 * ic_check_accounting() - check that no raise was lost, on every line.
 * @when: a label for the report.
 *
 * Waits up to a second for edges in flight and running handlers, then
 * checks raised == handled + merged + latched + dropped on every line.
 * A line still busy after that second counts as broken too.
 *
 * Context: process; sleeps.
 * Return: the number of lines that break the rule (each is reported).
 */
int ic_check_accounting(const char *when)
{
	struct ic_line_stats st;
	unsigned int i, tries;
	int bad = 0;

	for (i = 0; i < ic_nr; i++) {
		for (tries = 0; tries < 100; tries++) {
			ic_line_stats(i, &st);
			if (!st.inflight && !st.busy)
				break;
			usleep_range(10000, 11000);
		}
		if (ic_line_stats_balance(&st) && !st.inflight && !st.busy)
			continue;
		bad++;
		pr_err("accounting(%s): line %u: raised=%lu handled=%lu merged=%lu latched=%lu inflight=%lu dropped=%lu\n",
		       when, i, st.raised, st.handled, st.merged, st.latched,
		       st.inflight, st.dropped);
	}
	return bad;
}

/**
 * ic_irq_seq_show() - one row of /proc/irqcore/interrupts.
 * @m: the seq_file.
 * @irq: a valid line; lines without an action print nothing.
 *
 * Context: process.
 */
void ic_irq_seq_show(struct seq_file *m, unsigned int irq)
{
	struct ic_irq_desc *desc = &ic_desc[irq];
	struct ic_irqaction *action;
	unsigned long flags;
	int cpu;

	raw_spin_lock_irqsave(&desc->lock, flags);
	action = desc->action;
	if (action) {
		seq_printf(m, "%3u: ", irq);
		for_each_online_cpu(cpu)
			seq_printf(m, "%10lu ", *per_cpu_ptr(desc->kstat, cpu));
		seq_printf(m, " %-14s %s", desc->chip->typename, action->name);
		for (action = action->next; action; action = action->next)
			seq_printf(m, ", %s", action->name);
		seq_putc(m, '\n');
	}
	raw_spin_unlock_irqrestore(&desc->lock, flags);
}

/**
 * ic_irq_init() - set up @nr_irqs descriptors, all disabled, no action.
 * @nr_irqs: the number of lines.
 * @chip: the controller every line starts on (the virtual one), with
 *	every operation but ack and end.
 *
 * Context: process (module init).
 * Return: 0 or -ENOMEM.
 */
int ic_irq_init(unsigned int nr_irqs, const struct ic_hw_ops *chip)
{
	unsigned int i;

	if (ic_fault_alloc("descriptors"))
		return -ENOMEM;
	ic_desc = kcalloc(nr_irqs, sizeof(*ic_desc), GFP_KERNEL);
	if (!ic_desc)
		return -ENOMEM;
	for (i = 0; i < nr_irqs; i++) {
		raw_spin_lock_init(&ic_desc[i].lock);
		ic_desc[i].status = IC_IRQ_DISABLED;
		ic_desc[i].depth = 1;
		ic_desc[i].chip = chip;
		ic_desc[i].kstat = ic_fault_alloc("per-CPU counts") ? NULL :
				   alloc_percpu(unsigned long);
		if (!ic_desc[i].kstat) {
			ic_nr = i;
			ic_irq_exit_descs();
			return -ENOMEM;
		}
	}
	ic_nr = nr_irqs;
	return 0;
}

/**
 * ic_irq_exit_descs() - free the descriptors, and any action left on them.
 *
 * A module that used irqcore holds a reference on it, so an action left
 * here belongs to a driver that forgot free_irq() and is gone; its name
 * may be gone with it. It is warned about by line and freed.
 *
 * Context: process (module exit), after the controller stopped.
 */
void ic_irq_exit_descs(void)
{
	struct ic_irqaction *action, *next;
	unsigned int i;

	for (i = 0; i < ic_nr; i++) {
		for (action = ic_desc[i].action; action; action = next) {
			next = action->next;
			WARN(1, KBUILD_MODNAME ": line %u has an action at unload; freed\n", i);
			kfree(action);
		}
		free_percpu(ic_desc[i].kstat);
	}
	kfree(ic_desc);
	ic_desc = NULL;
	ic_nr = 0;
}
