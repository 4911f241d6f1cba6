/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore_torture - what the drivers and the torture loop share (private
 * to this module).
 *
 * Each driver is a small virtual device whose state is shared between its
 * interrupt handler and process context, with an invariant. The driver
 * code is the same in every locking style: it brackets each critical
 * section with ict_enter()/ict_exit(), and the style decides what those
 * do. That is how the seed's conversions looked: the code in between did
 * not change, only the bracket did.
 *
 * The state a style protects is read and written with plain loads and
 * stores, as in 2002: under a broken style those are data races, which
 * KCSAN reports on the debug-6.12-kcsan kernel (a second detector beside
 * each driver's invariant). Only what is racy on purpose, whatever the
 * style, is marked (READ_ONCE()/WRITE_ONCE(), atomics).
 *
 * The spinlock style's lock is a raw_spinlock_t: the handlers run in
 * genuine hardirq context, where a PREEMPT_RT spinlock_t would sleep, and
 * every spinlock of 2002 spun.
 */
#ifndef ICT_TORTURE_H
#define ICT_TORTURE_H

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/spinlock.h>
#include <linux/types.h>

/**
 * enum ict_style - how a driver protects its shared state.
 * @ICT_STYLE_GLOBAL: save_flags(); cli(); ... restore_flags(): the
 *	2.5.27 idiom, correct under regime=biglock only.
 * @ICT_STYLE_LOCAL: local_irq_save() only: the seed's "FIXME: is this
 *	safe?" conversions. Correct on one CPU, wrong on SMP.
 * @ICT_STYLE_SPINLOCK: a driver-private lock, spin_lock_irqsave(): the
 *	seed's apm, mca and vm86 conversions (a raw spinlock: see above).
 *	Correct everywhere.
 * @ICT_STYLE_NONE: no protection at all, so that the checker is seen to
 *	catch a race.
 * @ICT_NR_STYLES: the number of styles above (and "all" as a parameter:
 *	the source styles below run only when named).
 * @ICT_STYLE_LITERAL: the source styles: each driver as its own file.
 *	literal is written as 2.5.27 had it (drivers/literal/), save_flags();
 *	cli() spelled out. Correct under regime=biglock only.
 * @ICT_STYLE_CONVERTED: literal through tools/convert/cli-to-spinlock.cocci,
 *	generated at build time. Correct everywhere.
 * @ICT_STYLE_LOCALIZED: literal with each cli() made local_irq_save(), the
 *	lazy conversion of 2002; generated. Wrong on SMP.
 * @ICT_STYLE_STRIPPED: literal with the sections deleted; generated.
 * @ICT_STYLE_END: one past the last style.
 */
enum ict_style {
	ICT_STYLE_GLOBAL,
	ICT_STYLE_LOCAL,
	ICT_STYLE_SPINLOCK,
	ICT_STYLE_NONE,
	ICT_NR_STYLES,
	ICT_STYLE_LITERAL,
	ICT_STYLE_CONVERTED,
	ICT_STYLE_LOCALIZED,
	ICT_STYLE_STRIPPED,
	ICT_STYLE_END
};

#define ICT_NR_SOURCE_STYLES	(ICT_STYLE_END - ICT_STYLE_LITERAL)

/**
 * struct ict_dev - one run of one driver in one style.
 * @style: the locking style.
 * @lock: the spinlock style's driver-private lock.
 * @delay_us: widens each process-context window (between a read and the
 *	write that depends on it) by this much; 0 for none.
 * @raise_cpu: the CPU whose timer raises the line.
 * @next_due_ns: when that timer is next due (written by the raiser).
 * @in_section: process-context sections open right now.
 * @violations: invariant violations seen so far.
 * @contended: times one side of a critical section found the other
 *	inside it or had to wait for it (see ict_contended()).
 * @reported: violations already described on the console.
 */
struct ict_dev {
	enum ict_style style;
	raw_spinlock_t lock;		/* the spinlock style's; nothing else */
	unsigned int delay_us;
	int raise_cpu;
	u64 next_due_ns;
	atomic_t in_section;
	atomic_long_t violations;
	atomic_long_t contended;
	atomic_t reported;
};

/**
 * struct ict_driver - one virtual device (its file says which 2.5.28 code it
 * mirrors, and its invariant).
 * @name: its parameter name.
 * @reset: set up fresh state for a run. Context: process, nothing running.
 * @irq: the interrupt handler's work. Context: hardirq. NULL for a
 *	driver that registers its own handler with @open.
 * @open: request the line @irq with the driver's own handler, through
 *	ict_lit_request_irq(); NULL to have the harness request it. Context:
 *	process.
 * @release: free what @open requested. Context: process.
 * @op: one process-context operation by thread @thread; false if there
 *	was nothing to do (it is then not counted). Context: process, may
 *	not sleep inside its critical sections.
 * @finish: the final check, with the line quiet and the threads stopped.
 *	Context: process.
 */
struct ict_driver {
	const char *name;
	void (*reset)(struct ict_dev *dev);
	void (*irq)(struct ict_dev *dev);
	int (*open)(unsigned int irq);
	void (*release)(unsigned int irq);
	bool (*op)(struct ict_dev *dev, unsigned int thread);
	void (*finish)(struct ict_dev *dev);
};

extern const struct ict_driver ict_vm86;
extern const struct ict_driver ict_mca;
extern const struct ict_driver ict_apm;
extern const struct ict_driver ict_tty;

extern const struct ict_driver ict_literal_vm86, ict_literal_mca, ict_literal_apm,
	ict_literal_tty;
#ifdef ICT_GENERATED
extern const struct ict_driver ict_converted_vm86, ict_converted_mca, ict_converted_apm,
	ict_converted_tty;
extern const struct ict_driver ict_localized_vm86, ict_localized_mca, ict_localized_apm,
	ict_localized_tty;
extern const struct ict_driver ict_stripped_vm86, ict_stripped_mca, ict_stripped_apm,
	ict_stripped_tty;
#endif

/*
 * The source styles' drivers (drivers/literal/ and what tools/convert
 * generates from it), in the order of ict_drivers[]; an entry is NULL
 * where the generated style was not built (no spatch, or a build without
 * tools/convert: DKMS, a kernel tree).
 */
extern const struct ict_driver * const ict_source_drivers[ICT_NR_SOURCE_STYLES][4];

extern const char * const ict_style_names[];

unsigned long ict_enter(struct ict_dev *dev) __acquires(&dev->lock);
void ict_exit(struct ict_dev *dev, unsigned long flags) __releases(&dev->lock);
void ict_window(struct ict_dev *dev);
void ict_lit_window(struct ict_dev *dev);
void ict_irq_arrives(struct ict_dev *dev);
__printf(3, 4) void ict_violations(struct ict_dev *dev, long n, const char *fmt, ...);

/* The source styles' 2002 handler: no return value, and the registers. */
struct pt_regs;
typedef void (*ict_lit_handler_t)(int irq, void *dev_id, struct pt_regs *regs);

int ict_lit_request_irq(unsigned int irq, ict_lit_handler_t handler, unsigned long flags,
			const char *name, void *dev_id);
void ict_lit_free_irq(unsigned int irq, void *dev_id);

/* background.c: background=1 */
int ict_bg_start(int (*round)(void));
void ict_bg_stop(void);
bool ict_bg_stopping(void);
void ict_bg_case_done(long handled, bool cut);
#define ict_violation(dev, ...)	ict_violations(dev, 1, __VA_ARGS__)

#endif /* ICT_TORTURE_H */
