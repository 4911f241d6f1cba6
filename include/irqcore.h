/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore - the in-kernel API that other modules use.
 *
 * Build against it with KBUILD_EXTRA_SYMBOLS pointing at irqcore's
 * Module.symvers (build/<target>/Module.symvers). Every symbol carries the
 * ic_ prefix, so that irqcore's 2002-style interrupt core can sit beside the
 * host's genirq without a name in common. Each function's kernel-doc (in
 * the .c file that defines it) says from which context it may be called.
 *
 * The names mirror Linux 2.5.28: ic_request_irq() is request_irq(),
 * ic_local_bh_disable() is local_bh_disable(), and so on.
 */
#ifndef IRQCORE_H
#define IRQCORE_H

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/spinlock_types.h>
#include <linux/types.h>

#include <uapi/irqcore.h>

/* request_irq() flags, with their 2.5 i386 values. */
#define IC_SA_INTERRUPT		0x20000000	/* run with local interrupts off */
#define IC_SA_SHIRQ		0x04000000	/* line may be shared (dev_id keys) */

/* The lines of the virtual controller: 0 is the per-CPU virtual timer. */
#define IC_TIMER_IRQ		0
#define IC_NR_IRQS_MAX		256

typedef void (*ic_handler_t)(unsigned int irq, void *dev_id);

/* Descriptors and dispatch (irq.c). */
int ic_request_irq(unsigned int irq, ic_handler_t handler, unsigned long flags,
		   const char *name, void *dev_id);
void ic_free_irq(unsigned int irq, void *dev_id);
void ic_disable_irq(unsigned int irq);
void ic_disable_irq_nosync(unsigned int irq);
void ic_enable_irq(unsigned int irq);
void ic_synchronize_irq(unsigned int irq);
unsigned long ic_probe_irq_on(void);
int ic_probe_irq_off(unsigned long mask);
unsigned int ic_nr_irqs(void);
int ic_handle_irq(unsigned int irq);
unsigned int ic_irq_status(unsigned int irq);
unsigned long ic_kstat_irqs_cpu(unsigned int irq, unsigned int cpu);

/**
 * struct ic_line_stats - one line's accounting, both sides together.
 * @raised: edges raised.
 * @handled: runs of the line's handlers (a commit in do_IRQ, or a re-run
 *	of its PENDING loop), and instances that found no action (spurious).
 *	A driver that counts its handler's calls sees exactly @handled -
 *	@unhandled of them.
 * @merged: instances folded into another: in the controller (an edge on
 *	a pending or latched edge) or in do_IRQ (an instance that found one
 *	already held in PENDING).
 * @latched: instances held: latched by the masked controller, or held in
 *	PENDING by do_IRQ (for the running CPU's loop, or on a disabled line
 *	for enable_irq() to resend).
 * @inflight: edges delivered and not yet through do_IRQ.
 * @dropped: latched instances discarded when the line was shut down.
 * @unhandled: the handled instances that found no action (spurious).
 * @pending_merged: the do_IRQ part of @merged.
 * @reruns: the PENDING hand-off: runs that do_IRQ's loop made on the CPU
 *	already running the line, for an instance that arrived meanwhile
 *	(on another CPU, or nested); part of @handled.
 * @busy: a CPU is running the line's handlers right now.
 *
 * Nothing is lost: raised == handled + merged + latched + inflight +
 * dropped, in every snapshot this returns; once @inflight is 0 and the
 * line is not @busy, every instance not merged or dropped has run.
 */
struct ic_line_stats {
	unsigned long raised;
	unsigned long handled;
	unsigned long merged;
	unsigned long latched;
	unsigned long inflight;
	unsigned long dropped;
	unsigned long unhandled;
	unsigned long pending_merged;
	unsigned long reruns;
	bool busy;
};

int ic_line_stats(unsigned int irq, struct ic_line_stats *st);

/**
 * ic_line_stats_balance() - does a snapshot account for every raise?
 * @st: what ic_line_stats() filled in.
 *
 * Context: any.
 * Return: true if raised == handled + merged + latched + inflight +
 * dropped. Whether the line is also quiet is the caller's question.
 */
static inline bool ic_line_stats_balance(const struct ic_line_stats *st)
{
	return st->raised == st->handled + st->merged + st->latched + st->inflight +
			     st->dropped;
}

/*
 * The 2002 interrupt-flag API (regime.c). Under regime=biglock ic_cli()
 * stops interrupt handling on every CPU until ic_sti(); under nolock it
 * masks this CPU only, as 2.5.28 left drivers that still called cli().
 * save_flags() values: 0 global cli held, 1 global sti, 2 local cli,
 * 3 local sti.
 */
void ic_cli(void);
void ic_sti(void);
void ic_hold_section(bool big, raw_spinlock_t *lock, void (*fn)(void *arg), void *arg);
unsigned long ic_save_flags(void);
void ic_restore_flags(unsigned long flags);
bool ic_hardirq_trylock(void);
void ic_hardirq_endlock(void);
const char *ic_regime_name(void);
unsigned int ic_nr_cpus_scanned(void);

/**
 * struct ic_cli_stats - what the 2.5.27 global lock has cost since load.
 * @cli_taken: times a cli() took the global lock.
 * @cli_waits: times a cli() had to drop the lock and wait for handlers
 *	or a bottom half.
 * @enter_spins: times an irq_enter() found the lock held and spun.
 * @enter_turns: turns of those spins, summed over the CPUs: each turn is
 *	one test of the lock bit and one cpu_relax() (a count of spin
 *	iterations, not of instructions; `make cost` counts those).
 * @stalls: waits that exceeded stall_ms (only the first one is printed).
 * @self_deadlocks: interrupts taken by the holder with local interrupts
 *	on, which 2.5.27 would have hung on; irqcore runs them (and warns).
 *
 * All zero under regime=nolock, which has no global lock.
 */
struct ic_cli_stats {
	unsigned long cli_taken;
	unsigned long cli_waits;
	unsigned long enter_spins;
	unsigned long enter_turns;
	unsigned long stalls;
	unsigned long self_deadlocks;
};

void ic_cli_stats(struct ic_cli_stats *st);

/* The virtual interrupt controller (hw.c). */
int ic_raise(unsigned int irq);
int ic_set_affinity(unsigned int irq, int cpu);	/* -1: round-robin */
int ic_set_affinity_mask(unsigned int irq, const struct cpumask *mask);
int ic_timer_start(unsigned int hz);
void ic_timer_stop(void);

/*
 * Device lines (devline.c): a line of irqcore bound to a host interrupt,
 * a PCI device's MSI vector (edge) or its INTx (level, through the I/O
 * APIC). The host interrupt's handler enters irqcore's do_IRQ for the
 * line on the CPU it arrived on. Bind a line before ic_request_irq() and
 * unbind it after the last ic_free_irq().
 */
enum ic_line_type {
	IC_LINE_EDGE,	/* MSI: an edge while disabled is held and resent */
	IC_LINE_LEVEL,	/* INTx: the source is masked from ack to end and while disabled */
};

int ic_bind_line(unsigned int irq, unsigned int host_irq, enum ic_line_type type,
		 const char *name);
int ic_unbind_line(unsigned int irq);

/* The folded preemption/softirq/hardirq counter (counter.c). */
void ic_preempt_disable(void);
void ic_preempt_enable(void);
void ic_preempt_enable_no_resched(void);
void ic_irq_enter(void);
void ic_irq_exit(void);
void ic_local_bh_disable(void);
void ic_local_bh_enable(void);
void __ic_local_bh_enable(void);
unsigned int ic_preempt_count(void);
bool ic_in_interrupt(void);
bool ic_in_irq(void);
bool ic_in_softirq(void);
bool ic_idle_tick_is_system(void);

/* Softirqs, tasklets and bottom halves (softirq.c), 2.5 numbering. */
enum {
	IC_HI_SOFTIRQ = 0,
	IC_NET_TX_SOFTIRQ,
	IC_NET_RX_SOFTIRQ,
	IC_TASKLET_SOFTIRQ,
	IC_NR_SOFTIRQS = 32
};

struct module;
int __ic_open_softirq(unsigned int nr, void (*action)(void *data), void *data,
		      struct module *owner);
/* The vector belongs to the caller's module: closed at its unload at the latest. */
#define ic_open_softirq(nr, action, data) __ic_open_softirq(nr, action, data, THIS_MODULE)
void ic_close_softirq(unsigned int nr);
void ic_raise_softirq(unsigned int nr);
void ic_do_softirq(void);

/**
 * struct ic_tasklet - a 2.5 tasklet.
 * @next: link in a CPU's queue (owned by the softirq engine).
 * @state: IC_TASKLET_STATE_SCHED and IC_TASKLET_STATE_RUN bits.
 * @count: disable depth; the tasklet runs only while it is 0.
 * @func: the function to run, in softirq context.
 * @data: its argument.
 */
struct ic_tasklet {
	struct ic_tasklet *next;
	unsigned long state;
	atomic_t count;
	void (*func)(unsigned long data);
	unsigned long data;
};

#define IC_TASKLET_STATE_SCHED	0	/* queued on some CPU */
#define IC_TASKLET_STATE_RUN	1	/* running on some CPU */

void ic_tasklet_init(struct ic_tasklet *t, void (*func)(unsigned long),
		     unsigned long data);
void ic_tasklet_schedule(struct ic_tasklet *t);
void ic_tasklet_hi_schedule(struct ic_tasklet *t);
void ic_tasklet_disable(struct ic_tasklet *t);
void ic_tasklet_disable_nosync(struct ic_tasklet *t);
void ic_tasklet_enable(struct ic_tasklet *t);
void ic_tasklet_kill(struct ic_tasklet *t);

#define IC_NR_BHS		32

void ic_init_bh(unsigned int nr, void (*routine)(void));
void ic_remove_bh(unsigned int nr);
void ic_mark_bh(unsigned int nr);

#endif /* IRQCORE_H */
