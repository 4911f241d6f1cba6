/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore - PRIVATE header of the irqcore module.
 *
 * Nothing outside module/ may include this file: the API other modules use
 * is include/irqcore.h, and what userspace shares is include/uapi/. This
 * header carries the module-wide state that the parts of the module pass
 * between their _init() functions.
 */
#ifndef IC_INTERNAL_H
#define IC_INTERNAL_H

#include <linux/types.h>

/**
 * enum ic_inject - deliberate faults for the runner's own self-test.
 * @IC_INJECT_NONE: no fault (the default).
 * @IC_INJECT_WARN: emit one WARN() at load, which the runner must flag.
 * @IC_INJECT_KTAP_FAIL: add one KTAP case that fails, which the runner
 *	must count as a failure.
 * @IC_INJECT_LEAK: leak one small allocation at load, which kmemleak must
 *	report (the sanitizer kernel's "kmemleak check").
 * @IC_INJECT_STALL: under regime=biglock, hold cli() longer than stall_ms
 *	while a handler waits, so that the stall report (a WARN) fires.
 * @IC_INJECT_HOTPLUG_WINDOW: sleep 100 ms inside the two places where CPU
 *	hotplug must be held off (between setting up the online CPUs and
 *	registering the hotplug states at load; between removing the states
 *	and the last kick at unload), so that a guest toggling a CPU online
 *	and offline meanwhile lands there if the lock is not held.
 * @IC_INJECT_UNLOAD_DISPATCH: at unload, leave another CPU inside a
 *	dispatch, its kick flag clear, while the unload checks for running
 *	dispatches (hw.c); the unload says whether it saw the dispatch and
 *	waited for it.
 * @IC_INJECT_LOST_KICK: at unload, post an edge to another CPU and set
 *	its kick flag without sending the kick: a lost kick. The unload's
 *	stall path must find it, say where it was, deliver the edge and
 *	finish (hw.c, ic_hw_kick_probe()).
 *
 * These exist only so that a runner which passes everything can be caught:
 * a test harness that cannot fail is a defect.
 */
enum ic_inject {
	IC_INJECT_NONE,
	IC_INJECT_WARN,
	IC_INJECT_KTAP_FAIL,
	IC_INJECT_STALL,
	IC_INJECT_LEAK,
	IC_INJECT_HOTPLUG_WINDOW,
	IC_INJECT_UNLOAD_DISPATCH,
	IC_INJECT_LOST_KICK,
};

/**
 * enum ic_selftest - which self-tests run at load.
 * @IC_SELFTEST_ALL: every suite (the default).
 * @IC_SELFTEST_NONE: none; the load only provides the core to another
 *	module.
 * @IC_SELFTEST_FAULT: the fault suite alone (selftest/fault.c: CPU
 *	hotplug under load), which "all" leaves out: it takes CPUs offline.
 */
enum ic_selftest {
	IC_SELFTEST_ALL,
	IC_SELFTEST_NONE,
	IC_SELFTEST_FAULT,
};

/* Parameters, fixed once the module has loaded (param.c). */
extern int ic_param_regime;
extern int ic_param_counter;
extern unsigned int ic_param_nr_irqs;
extern unsigned int ic_param_fail_alloc;
extern int ic_param_selftest;
extern int ic_param_inject;
extern unsigned int ic_param_wait_ms;
extern unsigned int ic_param_stall_ms;
extern unsigned int ic_param_nr_cpus;

void ic_param_defaults(void);
void ic_print_params(const char *when);

#endif /* IC_INTERNAL_H */
