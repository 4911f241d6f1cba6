/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore_bench - trace events of the timeline scenario (private).
 *
 * Under /sys/kernel/tracing/events/irqcore_bench/ in the guest: when the
 * scenario's driver enters and leaves its critical section, so that a
 * timeline can draw the section next to irqcore's own events (the global
 * lock under biglock; under nolock the driver's spinlock, which irqcore
 * cannot see).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM irqcore_bench

#if !defined(ICB_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define ICB_TRACE_H

#include <linux/tracepoint.h>

DECLARE_EVENT_CLASS(irqcore_bench_hold,

	TP_PROTO(bool global),
	TP_ARGS(global),
	TP_STRUCT__entry(__field(bool, global)),
	TP_fast_assign(__entry->global = global;),
	TP_printk("lock=%s", __entry->global ? "cli" : "driver")
);

/**
 * irqcore_bench_hold_begin - the driver enters its critical section.
 * @global: with cli() (biglock), or with its own spinlock (nolock).
 */
DEFINE_EVENT(irqcore_bench_hold, irqcore_bench_hold_begin,

	TP_PROTO(bool global), TP_ARGS(global));

/**
 * irqcore_bench_hold_end - the driver has left it.
 * @global: as at the start.
 */
DEFINE_EVENT(irqcore_bench_hold, irqcore_bench_hold_end,

	TP_PROTO(bool global), TP_ARGS(global));

#endif /* ICB_TRACE_H */

/* Outside the guard: this header is read again by define_trace.h. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
