/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore - the control plane, /dev/irqcore (private).
 *
 * Three files share this header: ctl.c (the device, the file descriptor's
 * context, the requests and their refusals), ctlsrc.c (source lines, their
 * handlers and latency histograms, the stop threshold) and ctlhold.c (the
 * holder of a critical section). Everything here belongs to one open file
 * (struct ic_ctl) and dies with it.
 */
#ifndef IC_CTL_H
#define IC_CTL_H

#include <linux/atomic.h>
#include <linux/hrtimer.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/stdarg.h>
#include <linux/types.h>
#include <linux/wait.h>

#include <uapi/irqcore.h>

struct task_struct;

/**
 * struct ic_ctl_cpu_hist - one CPU x line: counts and the histogram.
 * @handled: handler runs on the CPU.
 * @in_hold: of those, runs while the descriptor's holder held its section
 *	on another CPU.
 * @count: latency samples (not taken while frozen).
 * @min_ns: the smallest sample (U64_MAX: none).
 * @max_ns: the largest.
 * @sum_ns: their sum.
 * @buckets: log2 buckets of microseconds (include/uapi/irqcore.h).
 *
 * Written by the line's handler, read by requests, both under the
 * source's @hist_lock.
 */
struct ic_ctl_cpu_hist {
	u64 handled;
	u64 in_hold;
	u64 count;
	u64 min_ns;
	u64 max_ns;
	u64 sum_ns;
	u64 buckets[IC_HIST_BUCKETS];
};

struct files_struct;

/**
 * struct ic_ctl_src - a source line of one file descriptor.
 * @ctl: the descriptor's context.
 * @line: the irqcore line its handler is requested on.
 * @flags: IC_SRC_* as created.
 * @cpu: target CPU, -1 for round-robin.
 * @rate_hz: timer raises per second, 0 for none.
 * @busy_us: what the handler spins.
 * @timer: raises the line @rate_hz times a second (hard hrtimer).
 * @period: 1 s / @rate_hz.
 * @first_ns: the time of the oldest raise not yet seen by a handler run, 0
 *	if none (set by a raise only when 0, taken by the handler).
 * @last_ns: the time of the latest raise.
 * @held_ns: the time the holder raised the line inside its section, 0 if
 *	that instance has been handled.
 * @hist_lock: protects @hist.
 * @hist: nr_cpu_ids entries.
 * @firing: fires running on it (ic_ctl_fire_run()), under the
 *	descriptor's @fire_lock; raised only under its @lock too: while any
 *	runs, the source is not deleted.
 * @id: the descriptor's number for it, never reused: a line number may
 *	be another source's by the time a request looks again.
 * @name: the action's name in /proc/irqcore/interrupts.
 */
struct ic_ctl_src {
	struct ic_ctl *ctl;
	unsigned int line;
	u32 flags;
	int cpu;
	u32 rate_hz;
	u32 busy_us;
	struct hrtimer timer;
	ktime_t period;
	atomic64_t first_ns;
	atomic64_t last_ns;
	atomic64_t held_ns;
	raw_spinlock_t hist_lock;
	struct ic_ctl_cpu_hist *hist;
	unsigned int firing;
	u64 id;
	char name[24];
};

/**
 * struct ic_ctl - one open file of /dev/irqcore.
 * @lock: serialises this descriptor's requests (threads share a file);
 *	protects @src, @next_id, the holder's parameters and @reason. See
 *	the contract below.
 * @src: the source lines, NULL where free.
 * @next_id: the @id of the next source made.
 * @drv_lock: the "driver lock" of the holder's IC_HOLD_LOCK sections and
 *	of IC_SRC_DRVLOCK handlers.
 * @holder: the holder thread, NULL when stopped.
 * @hold: the holder's parameters (mode resolved), valid while @holder.
 * @hold_src: the source the holder raises in each section, or NULL.
 * @hold_cpu: the holder's CPU, -1 when stopped (read by handlers).
 * @in_section: 1 while the holder is inside a section.
 * @holds: sections taken.
 * @hold_ns: time inside them.
 * @held_fired: instances raised inside sections.
 * @in_hold: handler runs on other CPUs while a section was held.
 * @stat_lock: protects @held_min_ns, @held_max_ns, @frozen and @stop.
 * @held_min_ns: the shortest latency of an instance raised in a section.
 * @held_max_ns: the longest.
 * @thresh_ns: stop when a sample exceeds this; 0: never.
 * @thresh_flags: IC_THRESH_*.
 * @frozen: a sample passed @thresh_ns: the histograms stand still.
 * @stop: what that sample was.
 * @reason: the text of the last refusal.
 * @reason_err: its errno.
 * @fire_lock: protects @fires, each fire's @closed and every source's
 *	@firing; never held across a sleep.
 * @fires: the fires running on the descriptor (struct ic_ctl_fire_run),
 *	for a close to stop them.
 * @fires_done: woken when the last of @fires ends (ic_ctl_fires_stop()).
 *
 * The contract of @lock: it is held only for work whose length no user
 * controls, so that whoever waits for it waits a bounded time.
 *  - No user memory is touched under it: a request's argument is copied
 *    in before it is taken and out after it is dropped (ic_ctl_ioctl_ctx()),
 *    so a request stalled on a user page fault (userfaultfd, a slow
 *    mapping) holds nothing.
 *  - A fire holds it only to start: it raises and sleeps without it
 *    (ic_ctl_fire_run()), and a close stops it through @fire_lock.
 *  - The longest holds are a delete's wait for a handler still running
 *    (IC_CTL_MAX_BUSY_US at most: the budget keeps raises from
 *    outpacing the chain) and the holder's stop (one section,
 *    IC_CTL_MAX_HOLD_US at most; a holder asleep is woken).
 * A request, which can return an errno, takes it killable. Two waits
 * cannot fail and take it plainly: the release (on a file no request
 * then runs, so nobody holds it) and the undo of a create whose result
 * could not be written back (a refused create changes nothing); both are
 * bounded by the above. The file's flush does not take it at all.
 */
struct ic_ctl {
	struct mutex lock;	/* see the contract above */
	struct ic_ctl_src *src[IC_CTL_MAX_SOURCES];
	u64 next_id;
	raw_spinlock_t drv_lock;
	struct task_struct *holder;
	struct ic_ctl_holder hold;
	struct ic_ctl_src *hold_src;
	int hold_cpu;
	atomic_t in_section;
	atomic64_t holds;
	atomic64_t hold_ns;
	atomic64_t held_fired;
	atomic64_t in_hold;
	raw_spinlock_t stat_lock;
	u64 held_min_ns;
	u64 held_max_ns;
	u64 thresh_ns;
	u32 thresh_flags;
	bool frozen;
	struct ic_ctl_stopped stop;
	char reason[120];
	int reason_err;
	spinlock_t fire_lock;	/* see above */
	struct list_head fires;
	wait_queue_head_t fires_done;
};

/**
 * struct ic_ctl_fire_run - a fire in progress, on its caller's stack.
 * @node: on the descriptor's @fires while it runs.
 * @src: the source it raises.
 * @files: the firing task's files table: a close that leaves it no
 *	descriptor of the file stops the fire (ic_ctl_flush()).
 * @task: the firing task, woken by that close.
 * @count: raises asked for.
 * @hz: the pace, raises a second, taken from the budget.
 * @gap: 1 s / @hz, in ns.
 * @closed: set by that close, under the descriptor's @fire_lock.
 */
struct ic_ctl_fire_run {
	struct list_head node;
	struct ic_ctl_src *src;
	struct files_struct *files;
	struct task_struct *task;
	u32 count;
	u32 hz;
	u64 gap;
	bool closed;
};

/**
 * struct ic_ctl_raise_probe - what ic_ctl_measure_raise() found.
 * @ns: a raise's hardirq time (@with less @base), U64_MAX if unknown.
 * @with: the median time a millisecond taken by interrupts, raising.
 * @base: the same without the probe's timer.
 * @kept_with: milliseconds kept of the raising run (the others stalled).
 * @kept_base: the same for the other run.
 * @step50: the median step of the probe's loop, interrupts off.
 * @step99: its 99th percentile.
 * @grain: a longer step is an interrupt's.
 */
struct ic_ctl_raise_probe {
	u64 ns;
	u64 with;
	u64 base;
	unsigned int kept_with;
	unsigned int kept_base;
	u64 step50;
	u64 step99;
	u64 grain;
};

/* ctlctx.c */
__printf(3, 4) int ic_ctl_refuse(struct ic_ctl *ctl, int err, const char *fmt, ...);
__printf(3, 0) int ic_ctl_vrefuse(struct ic_ctl *ctl, int err, const char *fmt, va_list args);
struct ic_ctl_src *__ic_ctl_find(struct ic_ctl *ctl, unsigned int line);

/* ctl.c */
struct ic_ctl *ic_ctl_alloc(void);
void ic_ctl_free(struct ic_ctl *ctl);
long ic_ctl_ioctl_ctx(struct ic_ctl *ctl, unsigned int cmd, void __user *uarg);

/* ctlsrc.c */
int __ic_ctl_create(struct ic_ctl *ctl, struct ic_ctl_source *req);
void __ic_ctl_remove(struct ic_ctl *ctl, struct ic_ctl_src *src);
int __ic_ctl_delete(struct ic_ctl *ctl, struct ic_ctl_src *src);
void ic_ctl_src_raise(struct ic_ctl_src *src);
int __ic_ctl_fire_start(struct ic_ctl *ctl, struct ic_ctl_src *src, u32 count,
			struct ic_ctl_fire_run *run);
int ic_ctl_fire_run(struct ic_ctl *ctl, struct ic_ctl_fire_run *run);
void ic_ctl_fires_closed(struct ic_ctl *ctl, struct files_struct *files);
void ic_ctl_fires_stop(struct ic_ctl *ctl);
void __ic_ctl_hist(struct ic_ctl_src *src, unsigned int cpu, struct ic_ctl_hist *out);
void __ic_ctl_cpu_stats(struct ic_ctl *ctl, unsigned int cpu, struct ic_ctl_cpu_stats *out);
void __ic_ctl_hist_reset(struct ic_ctl_src *src);
void ic_ctl_unfreeze(struct ic_ctl *ctl);
int ic_ctl_budget_hold(struct ic_ctl *ctl);
u64 ic_ctl_measure_raise(struct ic_ctl_src *src, struct ic_ctl_raise_probe *out);
void ic_ctl_set_raise_cost(const struct ic_ctl_raise_probe *m);
u32 ic_ctl_raise_cost_us(void);
void ic_ctl_budget_unhold(struct ic_ctl *ctl);

/* ctlhold.c */
int __ic_ctl_hold_start(struct ic_ctl *ctl, const struct ic_ctl_holder *req);
void __ic_ctl_hold_stop(struct ic_ctl *ctl);
void ic_ctl_lock_stats(struct ic_ctl *ctl, struct ic_ctl_lock_stats *out);

/* ctl.c: the device (main.c) */
void ic_ctl_measure_init(void);
int ic_ctl_init(void);
void ic_ctl_exit(void);

#endif /* IC_CTL_H */
