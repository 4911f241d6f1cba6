// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore - a per-CPU heartbeat: how long each CPU actually ran during a
 * timing case's window.
 *
 * The guest's CPUs are threads of a host that other work shares. A case
 * that needs another CPU to do something "within 500 ms" cannot tell a
 * CPU that was wrong from a CPU that did not run: its vCPU thread may have
 * been off the host's cores for the whole window. The heartbeat tells
 * them apart. A hard-mode hrtimer on each CPU beats every millisecond;
 * beats that come due while the vCPU is off the host's cores are not made
 * up afterwards (hrtimer_forward() skips them), so a CPU's beats over a
 * window are the milliseconds in which it ran with interrupts enabled. A
 * case that saw nothing happen on a CPU that beat often enough fails;
 * one whose CPU beat too little for the window to mean anything reports a
 * host stall with the measured beats (ic_stall()) and is run again.
 *
 * A CPU spinning with interrupts off does not beat either; a case that
 * reads the heartbeat of such a CPU reads it only for the part of the
 * window before the CPU could have started to.
 */
#include <linux/cpumask.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/percpu.h>
#include <linux/smp.h>

#include "selftest.h"

#define IC_HB_PERIOD_NS	NSEC_PER_MSEC

/**
 * struct ic_hb - one CPU's heartbeat.
 * @timer: the beat, pinned to its CPU, in hardirq.
 * @beats: beats since ic_hb_start(); read by other CPUs with READ_ONCE().
 * @on: the timer is armed here (written by this CPU, read by the stopper
 *	after the IPI that armed it returned).
 */
struct ic_hb {
	struct hrtimer timer;
	unsigned long beats;
	bool on;
};

static DEFINE_PER_CPU(struct ic_hb, ic_hb);

static enum hrtimer_restart ic_hb_beat(struct hrtimer *timer)
{
	struct ic_hb *hb = container_of(timer, struct ic_hb, timer);

	WRITE_ONCE(hb->beats, hb->beats + 1);
	/* Beats missed while this vCPU was off the host are not made up. */
	hrtimer_forward_now(timer, ns_to_ktime(IC_HB_PERIOD_NS));
	return HRTIMER_RESTART;
}

/* On each CPU, in the IPI of on_each_cpu(): arm this CPU's beat. */
static void ic_hb_arm(void *unused)
{
	struct ic_hb *hb = this_cpu_ptr(&ic_hb);

	hrtimer_init(&hb->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	hb->timer.function = ic_hb_beat;
	WRITE_ONCE(hb->beats, 0);
	hb->on = true;
	hrtimer_start(&hb->timer, ns_to_ktime(IC_HB_PERIOD_NS), HRTIMER_MODE_REL_PINNED_HARD);
}

/**
 * ic_hb_start() - start the heartbeat on every online CPU.
 *
 * The caller keeps CPUs from going offline until ic_hb_stop() (the cases
 * run under cpus_read_lock(), see ic_run_pinned(), or take it themselves):
 * a beat pinned to a CPU that went away would move with its timers.
 *
 * Context: process, preemptible (waits for every CPU's IPI).
 */
void ic_hb_start(void)
{
	on_each_cpu(ic_hb_arm, NULL, 1);
}

/**
 * ic_hb_stop() - stop every CPU's heartbeat and wait for running beats.
 *
 * Context: process (waits for a beat running on another CPU).
 */
void ic_hb_stop(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct ic_hb *hb = per_cpu_ptr(&ic_hb, cpu);

		if (hb->on) {
			hrtimer_cancel(&hb->timer);
			hb->on = false;
		}
	}
}

/**
 * ic_hb_beats() - the beats @cpu has taken since ic_hb_start().
 * @cpu: the CPU.
 *
 * Roughly the milliseconds @cpu ran with interrupts enabled since then;
 * take two readings and subtract for a window.
 *
 * Context: any.
 * Return: the count.
 */
unsigned long ic_hb_beats(int cpu)
{
	return READ_ONCE(per_cpu_ptr(&ic_hb, cpu)->beats);
}
