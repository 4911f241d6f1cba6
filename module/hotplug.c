// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore - CPU hotplug: what a CPU that goes away leaves behind.
 *
 * Three things of irqcore live on one CPU: the controller's pending edges
 * and kick flag (hw.c), the raised softirq vectors and tasklet queues, and
 * that CPU's ksoftirqd (softirq.c). 2.5 took a dead CPU's tasklets over in
 * a CPU notifier; irqcore does the same with two dynamic hotplug states:
 *
 *   - "irqcore:online" (on the CPU itself, while it is still up): before it
 *     goes, its ksoftirqd parks, so that the scheduler does not move it to
 *     another CPU where it would run that CPU's softirqs as its own; when
 *     the CPU is back, the thread is bound to it again and unparked (or
 *     made, for a CPU that was offline when irqcore loaded);
 *   - "irqcore:dead" (on a surviving CPU, once the CPU is dead): its pending
 *     edges are delivered here, and its softirq vectors and tasklets are
 *     moved here, so that nothing raised is stranded until it returns, and
 *     an unload with the CPU still offline finds nothing pending.
 *
 * A kick that reached the CPU as it went down is not dispatched there: the
 * dying CPU flushes its IPIs and irq_works outside hardirq (hw.c says so),
 * and the dead callback delivers the edges instead.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>

#include "faultpoint.h"
#include "hotplug.h"
#include "hw.h"
#include "softirq.h"

static int ic_hp_online_state = -1;
static int ic_hp_dead_state = -1;

static int ic_hp_cpu_online(unsigned int cpu)
{
	return ic_softirq_cpu_up(cpu);
}

static int ic_hp_cpu_going(unsigned int cpu)
{
	ic_softirq_cpu_down(cpu);
	return 0;
}

static int ic_hp_cpu_dead(unsigned int cpu)
{
	ic_hw_cpu_dead(cpu);
	ic_softirq_cpu_dead(cpu);
	return 0;
}

/**
 * ic_hotplug_init() - follow CPUs going and coming from now on.
 *
 * The callbacks are not run for the CPUs online now (the _nocalls form):
 * hw.c and softirq.c have set those up already, under the same hold of the
 * hotplug lock as this, so that no CPU can come or go in between (one
 * that came up there would have no ksoftirqd, and its tasklets would wait
 * for ever).
 *
 * Context: process (module init), after ic_hw_init() and ic_softirq_start(),
 * with the CPU hotplug lock held for reading since before them.
 * Return: 0 or the error of registering a state.
 */
int ic_hotplug_init(void)
{
	int ret;

	ret = ic_fault_alloc("hotplug state") ?:
	      cpuhp_setup_state_nocalls_cpuslocked(CPUHP_AP_ONLINE_DYN, "irqcore:online",
						   ic_hp_cpu_online, ic_hp_cpu_going);
	if (ret < 0)
		return ret;
	ic_hp_online_state = ret;
	ret = ic_fault_alloc("hotplug state") ?:
	      cpuhp_setup_state_nocalls_cpuslocked(CPUHP_BP_PREPARE_DYN, "irqcore:dead",
						   NULL, ic_hp_cpu_dead);
	if (ret < 0) {
		cpuhp_remove_state_nocalls_cpuslocked(ic_hp_online_state);
		ic_hp_online_state = -1;
		return ret;
	}
	ic_hp_dead_state = ret;
	return 0;
}

/**
 * ic_hotplug_exit() - stop following CPUs.
 *
 * Returns with no hotplug callback of irqcore running or to run. The
 * caller holds the hotplug lock from here until ic_hw_exit() has finished:
 * a CPU that went down after this, with its kick set, would leave edges
 * that nobody adopts and ic_hw_exit() waiting for ever.
 *
 * Context: process (module exit), before ic_softirq_stop() and ic_hw_exit(),
 * with the CPU hotplug lock held for reading.
 */
void ic_hotplug_exit(void)
{
	if (ic_hp_dead_state >= 0)
		cpuhp_remove_state_nocalls_cpuslocked(ic_hp_dead_state);
	if (ic_hp_online_state >= 0)
		cpuhp_remove_state_nocalls_cpuslocked(ic_hp_online_state);
	ic_hp_dead_state = -1;
	ic_hp_online_state = -1;
}
