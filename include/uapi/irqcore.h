/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * irqcore - what the module shares with userspace.
 *
 * Tools and scripts may depend on everything here; it changes only with
 * IC_UAPI_VERSION. Version 2 adds the control plane: the ioctls of
 * /dev/irqcore (module/ctl.c; docs/irqctl.md), which tools/irqctl speaks.
 * Version 3 adds the core's own per-CPU count to IC_CTL_CPU_STATS.
 */
#ifndef _UAPI_IRQCORE_H
#define _UAPI_IRQCORE_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define IC_VERSION_STRING	"0.1"

/* Bumped whenever anything below changes incompatibly. */
#define IC_UAPI_VERSION		3

/* Descriptor status bits, with their Linux 2.5 values. */
#define IC_IRQ_INPROGRESS	1	/* a CPU is running the action chain */
#define IC_IRQ_DISABLED		2	/* disable_irq() depth > 0, or no action */
#define IC_IRQ_PENDING		4	/* an instance is waiting to be handled */
#define IC_IRQ_REPLAY		8	/* a pending instance has been resent */
#define IC_IRQ_AUTODETECT	16	/* being probed */
#define IC_IRQ_WAITING		32	/* probe: not fired yet */
#define IC_IRQ_LEVEL		64	/* level-triggered: a device line on INTx */
#define IC_IRQ_MASKED		128	/* masked at the controller */
#define IC_IRQ_PER_CPU		256	/* per-CPU line (unused) */

/*
 * Stable console lines, one per fact, that the host runner parses:
 *   "irqcore: params(start): k=v ..."   parameters at load
 *   "irqcore: params(end): k=v ..."     the same at unload
 * and a KTAP version 1 document per load for the self-tests.
 */

/*
 * The control plane: /dev/irqcore (mode 0600; every request that changes
 * something needs CAP_SYS_ADMIN).
 *
 * Rules, as Documentation/process/botching-up-ioctls.rst asks: every
 * struct has explicit sizes and padding and is a multiple of 8 bytes; a
 * pointer travels as a __u64; a reserved field that is not zero, or a flag
 * this version does not know, is refused with -EINVAL. Each refusal has
 * one errno and a reason: IC_CTL_REASON returns the text of the last
 * refusal on this file descriptor.
 *
 * Ownership: a source line, a holder and a threshold belong to the file
 * descriptor that made them and are torn down when it is closed (or its
 * process dies). Requests name lines by number; a descriptor acts only on
 * its own lines unless it asks for another's with IC_CTL_F_ANY. A create
 * takes a line no one has a handler on and no driver has bound to a host
 * interrupt; IC_SRC_JOIN alone adds a handler to another's shared line. While the
 * device is open irqcore cannot be unloaded (the open file holds a
 * reference to the module).
 */
#define IC_CTL_DEVICE		"/dev/irqcore"
#define IC_CTL_MAGIC		0xB9

/* Limits: a request beyond them is refused (errno and reason). */
#define IC_CTL_MAX_OPEN		8	/* open file descriptors: -EMFILE */
#define IC_CTL_MAX_SOURCES	16	/* source lines per descriptor: -ENOSPC */
#define IC_CTL_MAX_RATE_HZ	10000	/* per source line: -EINVAL */
#define IC_CTL_MAX_TOTAL_HZ	20000	/* all source lines together: -EBUSY */
#define IC_CTL_MAX_HOLDERS	1	/* holders running at once: -EBUSY */
#define IC_CTL_MAX_BUSY_US	1000	/* a handler's busy time: -EINVAL; a line's: -EBUSY */
/*
 * Of one CPU: a source's rate x busy, and a holder's hold / period
 * (-EINVAL); and the hardirq budget of every line together, each line's
 * raises (timers, the holder's, fires) x its handlers' busy times, plus
 * the holder's hold / period (-EBUSY; a fire is paced to what is left).
 */
#define IC_CTL_MAX_DUTY_PCT	50
#define IC_CTL_MAX_FIRE		100000	/* instances per IC_CTL_FIRE: -EINVAL */
#define IC_CTL_MAX_HOLD_US	20000	/* one holder section: -EINVAL */
#define IC_CTL_MAX_PERIOD_US	1000000	/* holder period: -EINVAL */
#define IC_CTL_MAX_THRESH_US	10000000	/* stop threshold: -EINVAL */

/* Flags shared by several requests. */
#define IC_CTL_F_ANY		(1U << 0)	/* a line that is not this descriptor's */

/* struct ic_ctl_version.regime */
#define IC_CTL_REGIME_NOLOCK	0	/* 2.5.28 */
#define IC_CTL_REGIME_BIGLOCK	1	/* 2.5.27 */

/**
 * struct ic_ctl_version - IC_CTL_VERSION: what is loaded (read).
 * @uapi_version: IC_UAPI_VERSION of the module.
 * @regime: IC_CTL_REGIME_*.
 * @nr_irqs: lines of the virtual controller (line 0 is the timer).
 * @nr_cpus: CPU numbers possible (nr_cpu_ids).
 * @online_cpus: CPUs online now.
 * @open: file descriptors open on the device, this one included.
 * @version: IC_VERSION_STRING, NUL-terminated.
 */
struct ic_ctl_version {
	__u32 uapi_version;
	__u32 regime;
	__u32 nr_irqs;
	__u32 nr_cpus;
	__u32 online_cpus;
	__u32 open;
	char version[16];
};

/**
 * struct ic_ctl_reason - IC_CTL_REASON: the last refusal on this descriptor.
 * @err: its errno (positive), 0 if nothing was refused yet.
 * @pad: zero.
 * @text: why, NUL-terminated.
 */
struct ic_ctl_reason {
	__s32 err;
	__u32 pad;
	char text[120];
};

/**
 * struct ic_ctl_line_stats - IC_CTL_LINE_STATS: one line's accounting.
 * @line: in: the line.
 * @flags: in: IC_CTL_F_ANY to read a line that is not this descriptor's.
 * @owned: out: 1 if this descriptor has a source on the line.
 * @status: out: the descriptor's IC_IRQ_* bits.
 * @raised: out, and the rest: struct ic_line_stats of include/irqcore.h.
 * @handled: out.
 * @merged: out.
 * @latched: out.
 * @inflight: out.
 * @dropped: out.
 * @unhandled: out.
 * @reruns: out.
 * @busy: out: a CPU runs the line's handlers now.
 * @pad: zero.
 */
struct ic_ctl_line_stats {
	__u32 line;
	__u32 flags;
	__u32 owned;
	__u32 status;
	__u64 raised;
	__u64 handled;
	__u64 merged;
	__u64 latched;
	__u64 inflight;
	__u64 dropped;
	__u64 unhandled;
	__u64 reruns;
	__u32 busy;
	__u32 pad;
};

/**
 * struct ic_ctl_cpu_stats - IC_CTL_CPU_STATS: one CPU, this descriptor's lines.
 * @cpu: in: the CPU.
 * @flags: in: zero.
 * @online: out: 1 if the CPU is online.
 * @pad: zero.
 * @handled: out: handler runs of this descriptor's sources on the CPU.
 * @samples: out: latency samples taken there (see struct ic_ctl_hist).
 * @max_ns: out: the largest of them.
 * @in_hold: out: of @handled, runs while this descriptor's holder held
 *	its section (on another CPU).
 * @dispatched: out: instances of this descriptor's lines that the core's
 *	do_IRQ took on the CPU (the /proc/irqcore/interrupts column): each
 *	arrival, the ones folded into a running handler too, so at least
 *	@handled. Counted since irqcore's load: a line reused keeps the
 *	counts of its earlier users.
 */
struct ic_ctl_cpu_stats {
	__u32 cpu;
	__u32 flags;
	__u32 online;
	__u32 pad;
	__u64 handled;
	__u64 samples;
	__u64 max_ns;
	__u64 in_hold;
	__u64 dispatched;
};

/**
 * struct ic_ctl_list - IC_CTL_LIST: lines with a handler.
 * @flags: in: IC_CTL_F_ANY for every line with a handler, else this
 *	descriptor's source lines.
 * @capacity: in: room in @lines_ptr, in __u32 entries.
 * @lines_ptr: in: a __u32 array in userspace, or 0 to count only.
 * @count: out: lines written (at most @capacity).
 * @total: out: lines there are.
 */
struct ic_ctl_list {
	__u32 flags;
	__u32 capacity;
	__u64 lines_ptr;
	__u32 count;
	__u32 total;
};

/* struct ic_ctl_source.flags */
#define IC_SRC_SA_INTERRUPT	(1U << 0)	/* handler runs with interrupts off */
#define IC_SRC_SHARED		(1U << 1)	/* a free line, SA_SHIRQ: others may join */
#define IC_SRC_JOIN		(1U << 2)	/* join the control plane's shared line @line */
#define IC_SRC_DRVLOCK		(1U << 3)	/* handler takes the holder's driver lock */
#define IC_SRC_FLAGS		0xfU

/**
 * struct ic_ctl_source - IC_CTL_CREATE: a source line of this descriptor.
 * @line: in: with IC_SRC_JOIN the shared line to join, else 0; out: the line.
 * @cpu: in: target CPU, or -1 for round-robin over the online CPUs.
 * @rate_hz: in: raises per second from a timer, 0..IC_CTL_MAX_RATE_HZ
 *	(0: only IC_CTL_FIRE raises it).
 * @busy_us: in: the handler spins this long, 0..IC_CTL_MAX_BUSY_US.
 * @flags: in: IC_SRC_*.
 * @reserved: zero.
 */
struct ic_ctl_source {
	__u32 line;
	__s32 cpu;
	__u32 rate_hz;
	__u32 busy_us;
	__u32 flags;
	__u32 reserved[3];
};

/**
 * struct ic_ctl_line - IC_CTL_DELETE, IC_CTL_HIST_RESET: a line.
 * @line: the line (IC_CTL_HIST_RESET: IC_CTL_ALL_LINES for every one).
 * @flags: zero.
 */
struct ic_ctl_line {
	__u32 line;
	__u32 flags;
};

#define IC_CTL_ALL_LINES	0xffffffffU

/**
 * struct ic_ctl_fire - IC_CTL_FIRE: raise a source line now.
 * @line: this descriptor's line.
 * @count: instances, 1..IC_CTL_MAX_FIRE, paced to the hardirq budget left
 *	(IC_CTL_MAX_DUTY_PCT; each raise costs its handlers' busy time and
 *	the delivery's own), -EBUSY if under 1% of a CPU is left; the
 *	descriptor's other requests run between its raises.
 * @flags: zero.
 * @pad: zero.
 */
struct ic_ctl_fire {
	__u32 line;
	__u32 count;
	__u32 flags;
	__u32 pad;
};

/**
 * struct ic_ctl_affinity - IC_CTL_AFFINITY: where a line is delivered.
 * @line: the line (with IC_CTL_F_ANY any line, a device line too).
 * @cpu: a CPU online, or -1 for round-robin.
 * @flags: IC_CTL_F_ANY.
 * @pad: zero.
 */
struct ic_ctl_affinity {
	__u32 line;
	__s32 cpu;
	__u32 flags;
	__u32 pad;
};

/* struct ic_ctl_holder.mode */
#define IC_HOLD_AUTO		0	/* biglock: cli(), nolock: the driver lock */
#define IC_HOLD_CLI		1	/* ic_cli()/ic_sti() (nolock: this CPU only) */
#define IC_HOLD_LOCK		2	/* the driver lock, spin_lock_irqsave() */

/**
 * struct ic_ctl_holder - IC_CTL_HOLD_START: hold a critical section
 *	periodically from a thread bound to a CPU.
 * @cpu: in: an online CPU.
 * @hold_us: in: length of a section, 1..IC_CTL_MAX_HOLD_US.
 * @period_us: in: start to start, up to IC_CTL_MAX_PERIOD_US; a section
 *	takes at most IC_CTL_MAX_DUTY_PCT of it.
 * @mode: in: IC_HOLD_*.
 * @fire_line: in: 0, or a source line of this descriptor that the holder
 *	raises once in each section, just after taking it.
 * @flags: zero.
 */
struct ic_ctl_holder {
	__s32 cpu;
	__u32 hold_us;
	__u32 period_us;
	__u32 mode;
	__u32 fire_line;
	__u32 flags;
};

/**
 * struct ic_ctl_lock_stats - IC_CTL_LOCK_STATS: the global lock and the holder.
 * @cli_taken: ... @self_deadlocks: struct ic_cli_stats (biglock; zero
 *	under nolock).
 * @cli_waits: see @cli_taken.
 * @enter_spins: see @cli_taken.
 * @stalls: see @cli_taken.
 * @self_deadlocks: see @cli_taken.
 * @holds: sections this descriptor's holder took.
 * @hold_ns: time spent in them.
 * @held_fired: instances the holder raised inside its sections.
 * @held_min_ns: the shortest raise-to-handler latency of those
 *	(U64_MAX: none yet).
 * @held_max_ns: the longest.
 * @in_hold: handler runs of this descriptor's lines, on another CPU,
 *	while a section was held.
 * @holding: 1 while the holder is running (started, not stopped).
 * @mode: the IC_HOLD_* it resolved to (never IC_HOLD_AUTO).
 */
struct ic_ctl_lock_stats {
	__u64 cli_taken;
	__u64 cli_waits;
	__u64 enter_spins;
	__u64 stalls;
	__u64 self_deadlocks;
	__u64 holds;
	__u64 hold_ns;
	__u64 held_fired;
	__u64 held_min_ns;
	__u64 held_max_ns;
	__u64 in_hold;
	__u32 holding;
	__u32 mode;
};

/*
 * Latency histograms: raise -> handler, per CPU x line, in log2 buckets of
 * microseconds: bucket 0 holds samples under 1 us, bucket i (1 <= i <
 * IC_HIST_BUCKETS - 1) those in [2^(i-1), 2^i) us, and the last bucket
 * everything from 2^(IC_HIST_BUCKETS - 2) us on (the overflow).
 */
#define IC_HIST_BUCKETS		24

/**
 * struct ic_ctl_hist - IC_CTL_HIST: one CPU x line histogram.
 * @line: in: this descriptor's line.
 * @cpu: in: the CPU that ran the handler.
 * @flags: in: zero.
 * @frozen: out: 1 if a threshold stopped the histograms.
 * @count: out: samples.
 * @min_ns: out: the smallest (U64_MAX when @count is 0).
 * @max_ns: out: the largest.
 * @sum_ns: out: their sum (the average is @sum_ns / @count).
 * @buckets: out: the samples per bucket.
 */
struct ic_ctl_hist {
	__u32 line;
	__u32 cpu;
	__u32 flags;
	__u32 frozen;
	__u64 count;
	__u64 min_ns;
	__u64 max_ns;
	__u64 sum_ns;
	__u64 buckets[IC_HIST_BUCKETS];
};

/* struct ic_ctl_threshold.flags */
#define IC_THRESH_TRACING_OFF	(1U << 0)	/* also stop the kernel's trace buffer */
#define IC_THRESH_FLAGS		0x1U

/**
 * struct ic_ctl_threshold - IC_CTL_THRESHOLD: stop on a latency.
 * @us: a sample above this many us freezes this descriptor's histograms
 *	and records the stop (IC_CTL_STOPPED); 0 turns it off. At most
 *	IC_CTL_MAX_THRESH_US.
 * @flags: IC_THRESH_*: with IC_THRESH_TRACING_OFF the kernel's trace
 *	buffer stops too (tracing_off()), so that irqcore's trace events up
 *	to that instant stay in /sys/kernel/tracing/trace.
 */
struct ic_ctl_threshold {
	__u32 us;
	__u32 flags;
};

/**
 * struct ic_ctl_stopped - IC_CTL_STOPPED: the sample that stopped the histograms.
 * @stopped: 1 if a threshold was passed since the last reset.
 * @line: the line of that sample.
 * @cpu: the CPU its handler ran on.
 * @tracing_off: 1 if the trace buffer was stopped with it.
 * @latency_ns: the sample.
 * @holder_in_section: 1 if this descriptor's holder held its section then.
 * @pad: zero.
 * @cli_taken: the global lock's counters at that instant.
 * @enter_spins: see @cli_taken.
 */
struct ic_ctl_stopped {
	__u32 stopped;
	__u32 line;
	__u32 cpu;
	__u32 tracing_off;
	__u64 latency_ns;
	__u32 holder_in_section;
	__u32 pad;
	__u64 cli_taken;
	__u64 enter_spins;
};

#define IC_CTL_VERSION		_IOR(IC_CTL_MAGIC, 0x00, struct ic_ctl_version)
#define IC_CTL_REASON		_IOR(IC_CTL_MAGIC, 0x01, struct ic_ctl_reason)
#define IC_CTL_LINE_STATS	_IOWR(IC_CTL_MAGIC, 0x02, struct ic_ctl_line_stats)
#define IC_CTL_CPU_STATS	_IOWR(IC_CTL_MAGIC, 0x03, struct ic_ctl_cpu_stats)
#define IC_CTL_LIST		_IOWR(IC_CTL_MAGIC, 0x04, struct ic_ctl_list)
#define IC_CTL_CREATE		_IOWR(IC_CTL_MAGIC, 0x10, struct ic_ctl_source)
#define IC_CTL_DELETE		_IOW(IC_CTL_MAGIC, 0x11, struct ic_ctl_line)
#define IC_CTL_FIRE		_IOW(IC_CTL_MAGIC, 0x12, struct ic_ctl_fire)
#define IC_CTL_AFFINITY		_IOW(IC_CTL_MAGIC, 0x13, struct ic_ctl_affinity)
#define IC_CTL_HOLD_START	_IOW(IC_CTL_MAGIC, 0x20, struct ic_ctl_holder)
#define IC_CTL_HOLD_STOP	_IO(IC_CTL_MAGIC, 0x21)
#define IC_CTL_LOCK_STATS	_IOR(IC_CTL_MAGIC, 0x22, struct ic_ctl_lock_stats)
#define IC_CTL_HIST		_IOWR(IC_CTL_MAGIC, 0x30, struct ic_ctl_hist)
#define IC_CTL_HIST_RESET	_IOW(IC_CTL_MAGIC, 0x31, struct ic_ctl_line)
#define IC_CTL_THRESHOLD	_IOW(IC_CTL_MAGIC, 0x32, struct ic_ctl_threshold)
#define IC_CTL_STOPPED		_IOR(IC_CTL_MAGIC, 0x33, struct ic_ctl_stopped)

#endif /* _UAPI_IRQCORE_H */
