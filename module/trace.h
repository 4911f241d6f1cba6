/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore - trace events (private; the events are the interface).
 *
 * Under /sys/kernel/tracing/events/irqcore/ in the guest. Each event
 * carries fields, not text; the CPU is the event's own (every ftrace
 * record has it). Disabled, each costs a patched-out branch (a static
 * key) on its path. docs/tracing.md lists them and what each span means.
 *
 * 2002's handlers returned void (irqreturn_t came in 2.5.69), so the
 * handler's exit has no return value to record.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM irqcore

#if !defined(IC_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define IC_TRACE_H

#include <linux/string.h>
#include <linux/tracepoint.h>

/* An action's name in a handler event; longer names are cut. */
#define IC_TRACE_NAME_LEN	24

/* Where a CPU spun on the 2.5.27 global IRQ lock. */
#define IC_SPIN_IRQ_ENTER	0	/* irq_enter(): a cli() holder elsewhere */
#define IC_SPIN_CLI_LOCK	1	/* cli(): another holder has the lock */
#define IC_SPIN_CLI_WAIT	2	/* cli(): handlers or a bh still running */

#define ic_show_spin(w)						\
	__print_symbolic(w, { IC_SPIN_IRQ_ENTER, "irq_enter" },	\
			    { IC_SPIN_CLI_LOCK, "cli_lock" },	\
			    { IC_SPIN_CLI_WAIT, "cli_wait" })

/* One line number: raise, do_IRQ, synchronize_irq(). */
DECLARE_EVENT_CLASS(irqcore_line,

	TP_PROTO(unsigned int irq),
	TP_ARGS(irq),
	TP_STRUCT__entry(__field(unsigned int, irq)),
	TP_fast_assign(__entry->irq = irq;),
	TP_printk("irq=%u", __entry->irq)
);

/**
 * irqcore_raise - an edge was asserted on a line of the controller.
 * @irq: the line.
 */
DEFINE_EVENT(irqcore_line, irqcore_raise,

	TP_PROTO(unsigned int irq), TP_ARGS(irq));

/**
 * irqcore_deliver - the controller posted an edge to a CPU and kicked it.
 * @irq: the line.
 * @cpu: the CPU it goes to.
 */
TRACE_EVENT(irqcore_deliver,

	TP_PROTO(unsigned int irq, int cpu),
	TP_ARGS(irq, cpu),
	TP_STRUCT__entry(__field(unsigned int, irq) __field(int, cpu)),
	TP_fast_assign(__entry->irq = irq; __entry->cpu = cpu;),
	TP_printk("irq=%u cpu=%d", __entry->irq, __entry->cpu)
);

/**
 * irqcore_do_irq_entry - do_IRQ starts, before irq_enter().
 * @irq: the line.
 */
DEFINE_EVENT(irqcore_line, irqcore_do_irq_entry,

	TP_PROTO(unsigned int irq), TP_ARGS(irq));

/**
 * irqcore_do_irq_exit - do_IRQ ends, before irq_exit() runs softirqs.
 * @irq: the line.
 * @ran: the handlers ran in this call.
 * @reruns: how many times they ran again for an instance left PENDING.
 */
TRACE_EVENT(irqcore_do_irq_exit,

	TP_PROTO(unsigned int irq, bool ran, unsigned int reruns),
	TP_ARGS(irq, ran, reruns),
	TP_STRUCT__entry(__field(unsigned int, irq) __field(bool, ran)
			 __field(unsigned int, reruns)),
	TP_fast_assign(__entry->irq = irq; __entry->ran = ran;
		       __entry->reruns = reruns;),
	TP_printk("irq=%u ran=%d reruns=%u", __entry->irq, __entry->ran, __entry->reruns)
);

/* A handler of a line, by its action's name. */
DECLARE_EVENT_CLASS(irqcore_handler,

	TP_PROTO(unsigned int irq, const char *name),
	TP_ARGS(irq, name),
	TP_STRUCT__entry(__field(unsigned int, irq) __array(char, name, IC_TRACE_NAME_LEN)),
	TP_fast_assign(__entry->irq = irq;
		       strscpy(__entry->name, name, IC_TRACE_NAME_LEN);),
	TP_printk("irq=%u name=%s", __entry->irq, __entry->name)
);

/**
 * irqcore_handler_entry - one action's handler starts.
 * @irq: the line.
 * @name: the name given to request_irq().
 */
DEFINE_EVENT(irqcore_handler, irqcore_handler_entry,

	TP_PROTO(unsigned int irq, const char *name), TP_ARGS(irq, name));

/**
 * irqcore_handler_exit - that handler returned.
 * @irq: the line.
 * @name: the name given to request_irq().
 */
DEFINE_EVENT(irqcore_handler, irqcore_handler_exit,

	TP_PROTO(unsigned int irq, const char *name), TP_ARGS(irq, name));

/**
 * irqcore_lock_acquire - cli() took the global IRQ lock (biglock only):
 * no handler runs anywhere until irqcore_lock_release.
 * @caller: who called cli().
 */
TRACE_EVENT(irqcore_lock_acquire,

	TP_PROTO(unsigned long caller),
	TP_ARGS(caller),
	TP_STRUCT__entry(__field(unsigned long, caller)),
	TP_fast_assign(__entry->caller = caller;),
	TP_printk("caller=%pS", (void *)__entry->caller)
);

/**
 * irqcore_lock_release - sti() released the global IRQ lock.
 * @holder: the CPU that held it.
 */
TRACE_EVENT(irqcore_lock_release,

	TP_PROTO(int holder),
	TP_ARGS(holder),
	TP_STRUCT__entry(__field(int, holder)),
	TP_fast_assign(__entry->holder = holder;),
	TP_printk("holder=%d", __entry->holder)
);

/* A spin on the 2.5.27 global IRQ lock, by where it happens. */
DECLARE_EVENT_CLASS(irqcore_spin,

	TP_PROTO(int where),
	TP_ARGS(where),
	TP_STRUCT__entry(__field(int, where)),
	TP_fast_assign(__entry->where = where;),
	TP_printk("where=%s", ic_show_spin(__entry->where))
);

/**
 * irqcore_spin_begin - a CPU starts to spin on the global IRQ lock.
 * @where: IC_SPIN_IRQ_ENTER, IC_SPIN_CLI_LOCK or IC_SPIN_CLI_WAIT.
 */
DEFINE_EVENT(irqcore_spin, irqcore_spin_begin,

	TP_PROTO(int where), TP_ARGS(where));

/**
 * irqcore_spin_end - that spin is over (its length: the two timestamps).
 * @where: as at its start.
 */
DEFINE_EVENT(irqcore_spin, irqcore_spin_end,

	TP_PROTO(int where), TP_ARGS(where));

/**
 * irqcore_sync_begin - synchronize_irq() starts to wait.
 * @irq: the line it was asked about.
 */
DEFINE_EVENT(irqcore_line, irqcore_sync_begin,

	TP_PROTO(unsigned int irq), TP_ARGS(irq));

/**
 * irqcore_sync_end - synchronize_irq() returns.
 * @irq: the line it was asked about.
 */
DEFINE_EVENT(irqcore_line, irqcore_sync_end,

	TP_PROTO(unsigned int irq), TP_ARGS(irq));

/* A softirq vector or a bottom half, by number. */
DECLARE_EVENT_CLASS(irqcore_nr,

	TP_PROTO(unsigned int nr),
	TP_ARGS(nr),
	TP_STRUCT__entry(__field(unsigned int, nr)),
	TP_fast_assign(__entry->nr = nr;),
	TP_printk("nr=%u", __entry->nr)
);

/**
 * irqcore_softirq_entry - a softirq vector's action starts.
 * @nr: the vector.
 */
DEFINE_EVENT(irqcore_nr, irqcore_softirq_entry,

	TP_PROTO(unsigned int nr), TP_ARGS(nr));

/**
 * irqcore_softirq_exit - that action returned.
 * @nr: the vector.
 */
DEFINE_EVENT(irqcore_nr, irqcore_softirq_exit,

	TP_PROTO(unsigned int nr), TP_ARGS(nr));

/**
 * irqcore_bh_entry - a bottom half starts (under the global bh lock).
 * @nr: the bottom half.
 */
DEFINE_EVENT(irqcore_nr, irqcore_bh_entry,

	TP_PROTO(unsigned int nr), TP_ARGS(nr));

/**
 * irqcore_bh_exit - that bottom half returned.
 * @nr: the bottom half.
 */
DEFINE_EVENT(irqcore_nr, irqcore_bh_exit,

	TP_PROTO(unsigned int nr), TP_ARGS(nr));

/* A tasklet, by its function. */
DECLARE_EVENT_CLASS(irqcore_tasklet,

	TP_PROTO(void *func),
	TP_ARGS(func),
	TP_STRUCT__entry(__field(void *, func)),
	TP_fast_assign(__entry->func = func;),
	TP_printk("func=%ps", __entry->func)
);

/**
 * irqcore_tasklet_entry - a tasklet's function starts.
 * @func: the function.
 */
DEFINE_EVENT(irqcore_tasklet, irqcore_tasklet_entry,

	TP_PROTO(void *func), TP_ARGS(func));

/**
 * irqcore_tasklet_exit - that function returned.
 * @func: the function.
 */
DEFINE_EVENT(irqcore_tasklet, irqcore_tasklet_exit,

	TP_PROTO(void *func), TP_ARGS(func));

#endif /* IC_TRACE_H */

/* Outside the guard: this header is read again by define_trace.h. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
