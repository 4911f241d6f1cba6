// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore - the control plane: /dev/irqcore, a misc device whose ioctls
 * (include/uapi/irqcore.h) make source lines, fire them, hold critical
 * sections and read the accounting and latency histograms while irqcore
 * runs. tools/irqctl speaks it; docs/irqctl.md describes it.
 *
 * Each open file has a context (struct ic_ctl) that owns what its requests
 * made; release tears all of it down, so a process that dies leaves
 * nothing behind. The file holds a reference to the module (fops.owner):
 * irqcore cannot be unloaded while the device is open, and its exit
 * therefore finds no context to tear down.
 *
 * Every request is checked whole before anything changes: a reserved field
 * or a flag this version does not know is -EINVAL, and every refusal
 * leaves its reason in the context (IC_CTL_REASON) for the tool to print.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/capability.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/fdtable.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

#include <irqcore.h>

#include "ctl.h"

static atomic_t ic_ctl_open = ATOMIC_INIT(0);

/* Every request's argument, as large as the largest. */
union ic_ctl_arg {
	struct ic_ctl_version version;
	struct ic_ctl_reason reason;
	struct ic_ctl_line_stats line_stats;
	struct ic_ctl_cpu_stats cpu_stats;
	struct ic_ctl_list list;
	struct ic_ctl_source source;
	struct ic_ctl_line line;
	struct ic_ctl_fire fire;
	struct ic_ctl_affinity affinity;
	struct ic_ctl_holder holder;
	struct ic_ctl_lock_stats lock_stats;
	struct ic_ctl_hist hist;
	struct ic_ctl_threshold threshold;
	struct ic_ctl_stopped stopped;
};

/*
 * One request as it goes through ic_ctl_ioctl_ctx(): its argument, and
 * what is done once the descriptor's lock is dropped: the lines that
 * IC_CTL_LIST writes to user memory, and a fire's raises.
 */
struct ic_ctl_req {
	union ic_ctl_arg a;
	DECLARE_BITMAP(lines, IC_NR_IRQS_MAX);
	struct ic_ctl_fire_run fire;
	u64 made_id;
};

/* An own line, or (with IC_CTL_F_ANY) any; else the refusal. */
static int ic_ctl_check_line(struct ic_ctl *ctl, const char *op, u32 line, u32 flags)
{
	if (line >= ic_nr_irqs())
		return ic_ctl_refuse(ctl, -EINVAL, "%s: line %u: lines are 0..%u", op, line,
				     ic_nr_irqs() - 1);
	if (!(flags & IC_CTL_F_ANY) && !__ic_ctl_find(ctl, line))
		return ic_ctl_refuse(ctl, -ENOENT,
				     "%s: line %u is not this descriptor's (flag any for every line)",
				     op, line);
	return 0;
}

static int ic_ctl_line_stats(struct ic_ctl *ctl, struct ic_ctl_line_stats *a)
{
	struct ic_line_stats st;
	int err;

	if (a->flags & ~IC_CTL_F_ANY)
		return ic_ctl_refuse(ctl, -EINVAL, "stats: unknown flags 0x%x", a->flags);
	if (a->pad)
		return ic_ctl_refuse(ctl, -EINVAL, "stats: pad must be 0");
	err = ic_ctl_check_line(ctl, "stats", a->line, a->flags);
	if (err)
		return err;
	ic_line_stats(a->line, &st);
	a->owned = !!__ic_ctl_find(ctl, a->line);
	a->status = ic_irq_status(a->line);
	a->raised = st.raised;
	a->handled = st.handled;
	a->merged = st.merged;
	a->latched = st.latched;
	a->inflight = st.inflight;
	a->dropped = st.dropped;
	a->unhandled = st.unhandled;
	a->reruns = st.reruns;
	a->busy = st.busy;
	return 0;
}

/*
 * The lines to list, into @lines; written to lines_ptr once the lock is
 * dropped (ic_ctl_list_out()).
 */
static int ic_ctl_list(struct ic_ctl *ctl, struct ic_ctl_list *a, unsigned long *lines)
{
	unsigned int line;

	if (a->flags & ~IC_CTL_F_ANY)
		return ic_ctl_refuse(ctl, -EINVAL, "list: unknown flags 0x%x", a->flags);
	if (!a->lines_ptr && a->capacity)
		return ic_ctl_refuse(ctl, -EINVAL, "list: capacity %u without lines_ptr",
				     a->capacity);
	a->count = 0;
	a->total = 0;
	for (line = 0; line < ic_nr_irqs(); line++) {
		bool mine = __ic_ctl_find(ctl, line);

		/* "Any": every line with a handler, which enables it. */
		if (!mine && !((a->flags & IC_CTL_F_ANY) &&
			       !(ic_irq_status(line) & IC_IRQ_DISABLED)))
			continue;
		a->total++;
		if (a->count < a->capacity) {
			__set_bit(line, lines);
			a->count++;
		}
	}
	return 0;
}

/* IC_CTL_LIST's lines to user memory. Context: process, no lock held. */
static int ic_ctl_list_out(const struct ic_ctl_list *a, const unsigned long *lines)
{
	u32 __user *out = u64_to_user_ptr(a->lines_ptr);
	unsigned int line, i = 0;

	for_each_set_bit(line, lines, IC_NR_IRQS_MAX)
		if (put_user(line, out + i++))
			return -EFAULT;
	return 0;
}

static int ic_ctl_affinity(struct ic_ctl *ctl, struct ic_ctl_affinity *a)
{
	int err;

	if (a->flags & ~IC_CTL_F_ANY)
		return ic_ctl_refuse(ctl, -EINVAL, "affinity: unknown flags 0x%x", a->flags);
	if (a->pad)
		return ic_ctl_refuse(ctl, -EINVAL, "affinity: pad must be 0");
	err = ic_ctl_check_line(ctl, "affinity", a->line, a->flags);
	if (err)
		return err;
	/*
	 * A joined line is its maker's to aim: a session that joined it may
	 * move it only as any other line, with IC_CTL_F_ANY.
	 */
	if (!(a->flags & IC_CTL_F_ANY) && (__ic_ctl_find(ctl, a->line)->flags & IC_SRC_JOIN))
		return ic_ctl_refuse(ctl, -EPERM,
				     "affinity: line %u was joined, not made, by this descriptor: its maker aims it (flag any)",
				     a->line);
	if (a->cpu != -1 && (a->cpu < 0 || a->cpu >= nr_cpu_ids || !cpu_online(a->cpu)))
		return ic_ctl_refuse(ctl, -EINVAL,
				     "affinity: cpu %d is not online (-1: round-robin)", a->cpu);
	err = ic_set_affinity(a->line, a->cpu);
	if (err)
		return ic_ctl_refuse(ctl, err, "affinity: line %u refused cpu %d: %d", a->line,
				     a->cpu, err);
	return 0;
}

/* Check and start a fire; ic_ctl_fire_run() raises once the lock is dropped. */
static int ic_ctl_fire(struct ic_ctl *ctl, struct ic_ctl_fire *a, struct ic_ctl_fire_run *run)
{
	if (a->flags || a->pad)
		return ic_ctl_refuse(ctl, -EINVAL, "fire: flags and pad must be 0");
	if (a->count < 1 || a->count > IC_CTL_MAX_FIRE)
		return ic_ctl_refuse(ctl, -EINVAL, "fire: count %u: 1..%u", a->count,
				     IC_CTL_MAX_FIRE);
	if (!__ic_ctl_find(ctl, a->line))
		return ic_ctl_refuse(ctl, -ENOENT, "fire: line %u is not this descriptor's",
				     a->line);
	return __ic_ctl_fire_start(ctl, __ic_ctl_find(ctl, a->line), a->count, run);
}

static int ic_ctl_delete(struct ic_ctl *ctl, struct ic_ctl_line *a)
{
	struct ic_ctl_src *src;

	if (a->flags)
		return ic_ctl_refuse(ctl, -EINVAL, "delete: flags must be 0");
	src = __ic_ctl_find(ctl, a->line);
	if (!src)
		return ic_ctl_refuse(ctl, -ENOENT, "delete: line %u is not this descriptor's",
				     a->line);
	return __ic_ctl_delete(ctl, src);
}

static int ic_ctl_hist(struct ic_ctl *ctl, struct ic_ctl_hist *a)
{
	struct ic_ctl_src *src;

	if (a->flags)
		return ic_ctl_refuse(ctl, -EINVAL, "hist: flags must be 0");
	if (a->cpu >= nr_cpu_ids)
		return ic_ctl_refuse(ctl, -EINVAL, "hist: cpu %u: 0..%u", a->cpu, nr_cpu_ids - 1);
	src = __ic_ctl_find(ctl, a->line);
	if (!src)
		return ic_ctl_refuse(ctl, -ENOENT, "hist: line %u is not this descriptor's",
				     a->line);
	__ic_ctl_hist(src, a->cpu, a);
	return 0;
}

static int ic_ctl_hist_reset(struct ic_ctl *ctl, struct ic_ctl_line *a)
{
	struct ic_ctl_src *src = NULL;
	unsigned int i;

	if (a->flags)
		return ic_ctl_refuse(ctl, -EINVAL, "reset: flags must be 0");
	if (a->line != IC_CTL_ALL_LINES) {
		src = __ic_ctl_find(ctl, a->line);
		if (!src)
			return ic_ctl_refuse(ctl, -ENOENT,
					     "reset: line %u is not this descriptor's", a->line);
		__ic_ctl_hist_reset(src);
	} else {
		for (i = 0; i < IC_CTL_MAX_SOURCES; i++)
			if (ctl->src[i])
				__ic_ctl_hist_reset(ctl->src[i]);
	}
	ic_ctl_unfreeze(ctl);
	return 0;
}

static int ic_ctl_threshold(struct ic_ctl *ctl, struct ic_ctl_threshold *a)
{
	if (a->flags & ~IC_THRESH_FLAGS)
		return ic_ctl_refuse(ctl, -EINVAL, "threshold: unknown flags 0x%x (valid: 0x%x)",
				     a->flags & ~IC_THRESH_FLAGS, IC_THRESH_FLAGS);
	if (a->us > IC_CTL_MAX_THRESH_US)
		return ic_ctl_refuse(ctl, -EINVAL, "threshold: %u us: 0 (off)..%u", a->us,
				     IC_CTL_MAX_THRESH_US);
	WRITE_ONCE(ctl->thresh_flags, a->flags);
	WRITE_ONCE(ctl->thresh_ns, (u64)a->us * NSEC_PER_USEC);
	return 0;
}

static void ic_ctl_version(struct ic_ctl_version *a)
{
	a->uapi_version = IC_UAPI_VERSION;
	a->regime = strcmp(ic_regime_name(), "biglock") ? IC_CTL_REGIME_NOLOCK :
							  IC_CTL_REGIME_BIGLOCK;
	a->nr_irqs = ic_nr_irqs();
	a->nr_cpus = nr_cpu_ids;
	a->online_cpus = num_online_cpus();
	a->open = atomic_read(&ic_ctl_open);
	strscpy(a->version, IC_VERSION_STRING, sizeof(a->version));
}

/*
 * One request, checked and carried out, all but what touches user memory
 * and a fire's raises (ic_ctl_ioctl_ctx()). Context: @ctl->lock held.
 */
static int ic_ctl_do(struct ic_ctl *ctl, unsigned int cmd, struct ic_ctl_req *r)
{
	union ic_ctl_arg *a = &r->a;
	unsigned long flags;
	int err;

	switch (cmd) {
	case IC_CTL_VERSION:
		ic_ctl_version(&a->version);
		return 0;
	case IC_CTL_REASON:
		a->reason.err = ctl->reason_err;
		strscpy(a->reason.text, ctl->reason, sizeof(a->reason.text));
		return 0;
	case IC_CTL_LINE_STATS:
		return ic_ctl_line_stats(ctl, &a->line_stats);
	case IC_CTL_CPU_STATS:
		if (a->cpu_stats.flags || a->cpu_stats.pad)
			return ic_ctl_refuse(ctl, -EINVAL, "cpu: flags and pad must be 0");
		if (a->cpu_stats.cpu >= nr_cpu_ids)
			return ic_ctl_refuse(ctl, -EINVAL, "cpu: %u: 0..%u", a->cpu_stats.cpu,
					     nr_cpu_ids - 1);
		a->cpu_stats.online = 0;
		a->cpu_stats.handled = 0;
		a->cpu_stats.samples = 0;
		a->cpu_stats.max_ns = 0;
		a->cpu_stats.in_hold = 0;
		a->cpu_stats.dispatched = 0;
		__ic_ctl_cpu_stats(ctl, a->cpu_stats.cpu, &a->cpu_stats);
		return 0;
	case IC_CTL_LIST:
		return ic_ctl_list(ctl, &a->list, r->lines);
	case IC_CTL_CREATE:
		err = __ic_ctl_create(ctl, &a->source);
		if (!err)
			r->made_id = __ic_ctl_find(ctl, a->source.line)->id;
		return err;
	case IC_CTL_DELETE:
		return ic_ctl_delete(ctl, &a->line);
	case IC_CTL_FIRE:
		return ic_ctl_fire(ctl, &a->fire, &r->fire);
	case IC_CTL_AFFINITY:
		return ic_ctl_affinity(ctl, &a->affinity);
	case IC_CTL_HOLD_START:
		return __ic_ctl_hold_start(ctl, &a->holder);
	case IC_CTL_HOLD_STOP:
		if (!ctl->holder)
			return ic_ctl_refuse(ctl, -ESRCH, "unhold: no holder runs");
		__ic_ctl_hold_stop(ctl);
		return 0;
	case IC_CTL_LOCK_STATS:
		ic_ctl_lock_stats(ctl, &a->lock_stats);
		return 0;
	case IC_CTL_HIST:
		return ic_ctl_hist(ctl, &a->hist);
	case IC_CTL_HIST_RESET:
		return ic_ctl_hist_reset(ctl, &a->line);
	case IC_CTL_THRESHOLD:
		return ic_ctl_threshold(ctl, &a->threshold);
	case IC_CTL_STOPPED:
		raw_spin_lock_irqsave(&ctl->stat_lock, flags);
		a->stopped = ctl->stop;
		raw_spin_unlock_irqrestore(&ctl->stat_lock, flags);
		return 0;
	}
	return ic_ctl_refuse(ctl, -ENOTTY, "unknown request 0x%08x", cmd);
}

/*
 * The requests of this version, each with its own number, size and
 * direction, and whether it changes something (CAP_SYS_ADMIN; reads need
 * only the open file). One table, so that a request added is both known
 * and judged.
 */
struct ic_ctl_request {
	unsigned int cmd;
	bool changes;
};

static const struct ic_ctl_request ic_ctl_requests[] = {
	{ IC_CTL_VERSION, false },
	{ IC_CTL_REASON, false },
	{ IC_CTL_LINE_STATS, false },
	{ IC_CTL_CPU_STATS, false },
	{ IC_CTL_LIST, false },
	{ IC_CTL_CREATE, true },
	{ IC_CTL_DELETE, true },
	{ IC_CTL_FIRE, true },
	{ IC_CTL_AFFINITY, true },
	{ IC_CTL_HOLD_START, true },
	{ IC_CTL_HOLD_STOP, true },
	{ IC_CTL_LOCK_STATS, false },
	{ IC_CTL_HIST, false },
	{ IC_CTL_HIST_RESET, true },
	{ IC_CTL_THRESHOLD, true },
	{ IC_CTL_STOPPED, false },
};

/* @cmd's entry in ic_ctl_requests[], or NULL. */
static const struct ic_ctl_request *ic_ctl_request(unsigned int cmd)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ic_ctl_requests); i++)
		if (ic_ctl_requests[i].cmd == cmd)
			return &ic_ctl_requests[i];
	return NULL;
}

/*
 * A request of this version: its number with its own size and direction.
 * Anything else is -ENOTTY before its argument is touched, whatever that
 * points to.
 */
static bool ic_ctl_known(unsigned int cmd)
{
	return ic_ctl_request(cmd);
}

/* Requests that change something need CAP_SYS_ADMIN; reads need the open file. */
static bool ic_ctl_changes(unsigned int cmd)
{
	const struct ic_ctl_request *r = ic_ctl_request(cmd);

	return r && r->changes;
}

/*
 * A refusal found once the lock was dropped: its reason recorded, unless
 * a fatal signal came first (then nobody reads it).
 */
static __printf(3, 4) int ic_ctl_refuse_unlocked(struct ic_ctl *ctl, int err,
						 const char *fmt, ...)
{
	va_list args;

	if (mutex_lock_killable(&ctl->lock))
		return err;
	va_start(args, fmt);
	ic_ctl_vrefuse(ctl, err, fmt, args);
	va_end(args);
	mutex_unlock(&ctl->lock);
	return err;
}

/*
 * A create whose result cannot be copied back: undo it, so the refusal
 * changes nothing. The lock was dropped for the copy: the source is
 * found by its number, in case another thread deleted the line and made
 * another on it meanwhile. A plain lock: this wait cannot give up, and is
 * bounded (struct ic_ctl's contract).
 */
static void ic_ctl_undo_create(struct ic_ctl *ctl, const struct ic_ctl_source *made, u64 id)
{
	struct ic_ctl_src *src;

	mutex_lock(&ctl->lock);
	src = __ic_ctl_find(ctl, made->line);
	/* Just made, so no holder raises it: the delete cannot be refused. */
	if (src && src->id == id)
		WARN_ON_ONCE(__ic_ctl_delete(ctl, src));
	ic_ctl_refuse(ctl, -EFAULT, "request 0x%08x: its argument is not writable",
		      (unsigned int)IC_CTL_CREATE);
	mutex_unlock(&ctl->lock);
}

/* The request's results to user memory. Context: process, no lock held. */
static int ic_ctl_copy_out(struct ic_ctl *ctl, unsigned int cmd, void __user *uarg,
			   struct ic_ctl_req *r)
{
	if (cmd == IC_CTL_LIST && ic_ctl_list_out(&r->a.list, r->lines))
		return ic_ctl_refuse_unlocked(ctl, -EFAULT, "list: lines_ptr is not writable");
	if (!(_IOC_DIR(cmd) & _IOC_READ) || !copy_to_user(uarg, &r->a, _IOC_SIZE(cmd)))
		return 0;
	/* A refused request changes nothing, a create included. */
	if (cmd == IC_CTL_CREATE) {
		ic_ctl_undo_create(ctl, &r->a.source, r->made_id);
		return -EFAULT;
	}
	return ic_ctl_refuse_unlocked(ctl, -EFAULT, "request 0x%08x: its argument is not writable",
				      cmd);
}

/**
 * ic_ctl_ioctl_ctx() - one request on a descriptor's context.
 * @ctl: the context (from ic_ctl_alloc()).
 * @cmd: the request.
 * @uarg: its argument in userspace.
 *
 * The whole of an ioctl of /dev/irqcore, and the self-tests' way in. User
 * memory is read before @ctl->lock is taken and written after it is
 * dropped, and a fire raises without it (struct ic_ctl's contract).
 *
 * Context: process; sleeps; takes @ctl->lock (killable).
 * Return: 0 or a negative errno, its reason set in @ctl (but after a
 * fatal signal).
 */
long ic_ctl_ioctl_ctx(struct ic_ctl *ctl, unsigned int cmd, void __user *uarg)
{
	unsigned int size = _IOC_SIZE(cmd);
	struct ic_ctl_req r = {};
	bool unreadable;
	int err;

	if (!ic_ctl_known(cmd) || size > sizeof(r.a))
		goto unknown;
	/* Copied in before the lock: a stalled page fault holds nothing. */
	unreadable = (_IOC_DIR(cmd) & _IOC_WRITE) && copy_from_user(&r.a, uarg, size);
	if (mutex_lock_killable(&ctl->lock))
		return -EINTR;
	if (unreadable)
		err = ic_ctl_refuse(ctl, -EFAULT, "request 0x%08x: its argument is not readable",
				    cmd);
	else if (ic_ctl_changes(cmd) && !capable(CAP_SYS_ADMIN))
		err = ic_ctl_refuse(ctl, -EPERM, "request 0x%08x changes irqcore: CAP_SYS_ADMIN",
				    cmd);
	else
		err = ic_ctl_do(ctl, cmd, &r);
	mutex_unlock(&ctl->lock);
	if (!err && r.fire.src)
		err = ic_ctl_fire_run(ctl, &r.fire);
	if (!err)
		err = ic_ctl_copy_out(ctl, cmd, uarg, &r);
	return err;

unknown:
	if (mutex_lock_killable(&ctl->lock))
		return -EINTR;
	err = ic_ctl_refuse(ctl, -ENOTTY, "unknown request 0x%08x", cmd);
	mutex_unlock(&ctl->lock);
	return err;
}

static long ic_ctl_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	return ic_ctl_ioctl_ctx(file->private_data, cmd, (void __user *)arg);
}

/**
 * ic_ctl_alloc() - a descriptor's context, as open() makes it.
 *
 * Counts against IC_CTL_MAX_OPEN, as an open file does.
 *
 * Context: process; sleeps.
 * Return: the context, or ERR_PTR(-EMFILE or -ENOMEM).
 */
struct ic_ctl *ic_ctl_alloc(void)
{
	struct ic_ctl *ctl;

	if (atomic_inc_return(&ic_ctl_open) > IC_CTL_MAX_OPEN) {
		atomic_dec(&ic_ctl_open);
		return ERR_PTR(-EMFILE);
	}
	ctl = kzalloc(sizeof(*ctl), GFP_KERNEL);
	if (!ctl) {
		atomic_dec(&ic_ctl_open);
		return ERR_PTR(-ENOMEM);
	}
	mutex_init(&ctl->lock);
	spin_lock_init(&ctl->fire_lock);
	INIT_LIST_HEAD(&ctl->fires);
	init_waitqueue_head(&ctl->fires_done);
	raw_spin_lock_init(&ctl->drv_lock);
	raw_spin_lock_init(&ctl->stat_lock);
	ctl->hold_cpu = -1;
	ctl->held_min_ns = U64_MAX;
	return ctl;
}

/**
 * ic_ctl_free() - tear down everything a context made, and free it.
 * @ctl: from ic_ctl_alloc(); no request starts on it any more.
 *
 * The last close of a file, or its process's death: the fires first, then
 * the holder, then every line. The teardown cannot be refused: a delete
 * refused here once left its source on its line, its timer raising it
 * and its handler reading the context freed below (a use after free, and
 * the source, its line and its budget leaked). A file's release never met
 * one (a fire holds the file, the holder is stopped first), but a
 * context whose fire still ran did; now the fires are stopped and waited
 * for (each ends before its next raise), and the lines are removed
 * unchecked.
 *
 * Context: process; sleeps. The plain lock waits for no one on a file's
 * release (no request runs) and boundedly otherwise (struct ic_ctl).
 */
void ic_ctl_free(struct ic_ctl *ctl)
{
	unsigned int i, n = 0;

	ic_ctl_fires_stop(ctl);
	mutex_lock(&ctl->lock);
	__ic_ctl_hold_stop(ctl);
	for (i = 0; i < IC_CTL_MAX_SOURCES; i++) {
		if (ctl->src[i]) {
			__ic_ctl_remove(ctl, ctl->src[i]);
			n++;
		}
	}
	mutex_unlock(&ctl->lock);
	if (n)
		pr_info("ctl: closed by %d: %u source lines torn down\n", task_tgid_nr(current), n);
	mutex_destroy(&ctl->lock);
	kfree(ctl);
	atomic_dec(&ic_ctl_open);
}

/* The probe, on its CPU (work_on_cpu()). */
struct ic_ctl_measure {
	struct ic_ctl_src *src;
	struct ic_ctl_raise_probe m;
};

/*
 * Up to three probes, until one sees the raises: a probe that the host
 * interrupted too often, or that saw nothing, is taken again.
 */
#define IC_CTL_MEASURE_TRIES	3

static long ic_ctl_measure_fn(void *arg)
{
	struct ic_ctl_measure *m = arg;
	unsigned int i;

	for (i = 0; i < IC_CTL_MEASURE_TRIES; i++) {
		u64 ns = ic_ctl_measure_raise(m->src, &m->m);

		if (ns && ns != U64_MAX)
			break;
		cond_resched();
	}
	return 0;
}

/**
 * ic_ctl_measure_init() - measure what a raise costs, before anything is
 *	charged for one.
 *
 * A context of its own makes a source that does not spin on the first
 * online CPU, and ic_ctl_measure_raise() runs there (up to
 * IC_CTL_MEASURE_TRIES times); the budget then charges each raise the
 * larger of that and the stated floor. A probe that cannot run or tell
 * leaves the charge at the floor, with a warning.
 *
 * Context: process (module load), before the self-tests, which are charged
 * by it, and before the device is registered.
 */
void ic_ctl_measure_init(void)
{
	struct ic_ctl_measure m = { .m.ns = U64_MAX };
	struct ic_ctl_source req = {};
	struct ic_ctl *ctl;
	int err;

	ctl = ic_ctl_alloc();
	if (IS_ERR(ctl))
		goto out;
	req.cpu = cpumask_first(cpu_online_mask);
	mutex_lock(&ctl->lock);
	err = __ic_ctl_create(ctl, &req);
	if (!err)
		m.src = __ic_ctl_find(ctl, req.line);
	mutex_unlock(&ctl->lock);
	cpus_read_lock();
	if (m.src && cpu_online(req.cpu))
		work_on_cpu(req.cpu, ic_ctl_measure_fn, &m);
	cpus_read_unlock();
	ic_ctl_free(ctl);
out:
	ic_ctl_set_raise_cost(&m.m);
}

static int ic_ctl_open_file(struct inode *inode, struct file *file)
{
	struct ic_ctl *ctl = ic_ctl_alloc();

	if (IS_ERR(ctl))
		return PTR_ERR(ctl);
	file->private_data = ctl;
	return stream_open(inode, file);
}

static int ic_ctl_same_file(const void *file, struct file *f, unsigned int fd)
{
	return f == file;
}

/*
 * Every close() of the file: when the closing process has no descriptor of
 * it left, the fires its threads run on it stop (a fire holds the file, so
 * the release below waits for them; at 10 Hz a fire of IC_CTL_MAX_FIRE
 * raises would last hours). A process's exit has no files table left here:
 * its fires stop on its fatal signal (ic_ctl_fire_run()). Only the fires'
 * spinlock is taken: a close never waits for a request.
 */
static int ic_ctl_flush(struct file *file, fl_owner_t id)
{
	struct ic_ctl *ctl = file->private_data;
	struct files_struct *files = current->files;

	if (!files || iterate_fd(files, 0, ic_ctl_same_file, file))
		return 0;
	ic_ctl_fires_closed(ctl, files);
	return 0;
}

/* The last close, or the process's death: everything the file made goes. */
static int ic_ctl_release(struct inode *inode, struct file *file)
{
	ic_ctl_free(file->private_data);
	return 0;
}

static const struct file_operations ic_ctl_fops = {
	.owner = THIS_MODULE,
	.open = ic_ctl_open_file,
	.flush = ic_ctl_flush,
	.release = ic_ctl_release,
	.unlocked_ioctl = ic_ctl_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

static struct miscdevice ic_ctl_dev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "irqcore",
	.fops = &ic_ctl_fops,
	.mode = 0600,
};

/**
 * ic_ctl_init() - register /dev/irqcore.
 *
 * Context: process (module init), once the core runs.
 * Return: 0 or a negative errno.
 */
int ic_ctl_init(void)
{
	return misc_register(&ic_ctl_dev);
}

/**
 * ic_ctl_exit() - remove /dev/irqcore.
 *
 * The module's reference held by every open file means that no context is
 * left when this runs.
 *
 * Context: process (module exit, or init's unwinding).
 */
void ic_ctl_exit(void)
{
	misc_deregister(&ic_ctl_dev);
}
