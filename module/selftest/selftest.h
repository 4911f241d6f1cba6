/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore - the module's self-tests, run at load and reported as KTAP.
 */
#ifndef IC_SELFTEST_H
#define IC_SELFTEST_H

#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/minmax.h>

#include <irqcore_ktap.h>

#include "../internal.h"

struct task_struct;

/*
 * ic_wait_until(cond) - poll @cond every millisecond for up to wait_ms.
 * Context: process. Evaluates to the final value of @cond.
 */
#define ic_wait_until(cond)						\
({									\
	unsigned long __end = jiffies + msecs_to_jiffies(ic_param_wait_ms); \
	while (!(cond) && time_before(jiffies, __end))			\
		usleep_range(1000, 2000);				\
	(cond);								\
})

/*
 * ic_hold_ms() - how long a test handler may hold its CPU: @ms, but never
 * more than half of stall_ms, so that under biglock the correct wait for it
 * is not reported as a stall (the one report a load prints, which
 * inject=stall wants for its own hold).
 */
static inline unsigned int ic_hold_ms(unsigned int ms)
{
	return min(ms, ic_param_stall_ms / 2);
}

/* Fail the case with a diagnostic unless @cond holds. */
#define ic_check(cond, fmt, ...)					\
do {									\
	if (!(cond)) {							\
		ic_ktap_diag("%s:%d: %s: " fmt, __func__, __LINE__,	\
			     #cond, ##__VA_ARGS__);			\
		r = IC_FAIL;						\
	}								\
} while (0)

/**
 * enum ic_result - the outcome of one self-test case.
 * @IC_PASS: the case held.
 * @IC_FAIL: the case found a fault; it has said why with ic_ktap_diag().
 * @IC_SKIP: the case cannot run here; it has set its skip reason.
 * @IC_STALL: the case could not decide, because a CPU it needed did not
 *	run (measured, not guessed: see heartbeat.c); it has said what it
 *	measured with ic_stall(). The runner runs it again, IC_STALL_RUNS
 *	times at most, and then reports a skip with the measurement.
 */
enum ic_result {
	IC_PASS,
	IC_FAIL,
	IC_SKIP,
	IC_STALL,
};

/* How often a case that reports a host stall is run before it is skipped. */
#define IC_STALL_RUNS	3

/**
 * struct ic_case - one self-test case.
 * @name: the KTAP name, without spaces.
 * @run: runs the case in process context; on IC_SKIP it stores a reason
 *	in *@skip (a string constant).
 */
struct ic_case {
	const char *name;
	enum ic_result (*run)(const char **skip);
};

/**
 * struct ic_suite - a group of cases from one file.
 * @cases: the cases, in order.
 * @nr: how many.
 */
struct ic_suite {
	const struct ic_case *cases;
	unsigned int nr;
};

extern const struct ic_suite ic_delivery_suite;
extern const struct ic_suite ic_counter_suite;
extern const struct ic_suite ic_dispatch_suite;
extern const struct ic_suite ic_softirq_suite;
extern const struct ic_suite ic_cli_suite;
extern const struct ic_suite ic_pending_suite;
extern const struct ic_suite ic_wait_suite;
extern const struct ic_suite ic_devline_suite;
extern const struct ic_suite ic_ctl_suite;
extern const struct ic_suite ic_fault_suite;
extern const struct ic_case ic_cli_stall_case;

/**
 * struct ic_bystander - a task that only wants its CPU (ic_bystander_start()).
 * @task: the kthread.
 * @turns: its turns since ic_bystander_go().
 * @go: it counts from now on.
 * @stop: it ends.
 */
struct ic_bystander {
	struct task_struct *task;
	unsigned long turns;
	bool go;
	bool stop;
};

int ic_bystander_start(struct ic_bystander *b, int cpu);
void ic_bystander_go(struct ic_bystander *b);
unsigned long ic_bystander_stop(struct ic_bystander *b);

__printf(1, 2) enum ic_result ic_stall(const char *fmt, ...);
const char *ic_stall_reason(void);

void ic_hb_start(void);
void ic_hb_stop(void);
unsigned long ic_hb_beats(int cpu);

int ic_other_cpu(int cpu);
enum ic_result ic_run_pinned(long (*fn)(void *arg), void *arg, const char **skip);
void ic_kthread_wait_stop(void);

int ic_selftest_run(void);

#endif /* IC_SELFTEST_H */
