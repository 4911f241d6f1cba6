// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore_edu - the cases, run at load on the first edu device: one KTAP
 * document, each case named edu_<case>_<mode>_<regime>.
 *
 *   raise, factorial, dma   each source runs the handler once, in hardirq,
 *                           on the CPU the line's affinity names (every
 *                           online CPU in turn)
 *   disabled                the line disabled while the device asserts:
 *                           no handler run, no storm (at most one instance
 *                           reaches the line), and exactly one run on
 *                           enable, which finds the status set (a level
 *                           line replayed in software as well would run a
 *                           second time and find it 0)
 *   unhandled               an instance on the line with no action (the
 *                           line probed, 2.5's autoprobe) is counted as
 *                           unhandled, and the probe names the line
 *   free_while_firing       ic_free_irq() while the device interrupts every
 *                           200 us: no handler run after it returns
 *   cli_other_cpu           2 CPUs: a cli() on the first CPU, held 50 ms,
 *                           holds the device's handler on the last until
 *                           sti() under biglock, and does not under nolock
 *   held_at_disable         biglock, 2 CPUs: an instance that waited in
 *                           irq_enter() for the global lock while the line
 *                           was disabled is held; on enable an edge is
 *                           resent, a level instance dropped (its pin
 *                           interrupts again): one run either way, which
 *                           finds the status set
 *   accounting              the line's books: every instance accounted
 *                           for, the line quiet, and handled - unhandled
 *                           equal to the handler's own count of its calls
 *
 * A note on affinity: on x86 an I/O APIC pin's new destination takes effect
 * when its next interrupt is acknowledged (the host's "move pending"),
 * not when irq_set_affinity() returns; each aim is therefore followed by
 * one raise whose run may land anywhere, and only the runs after it are
 * judged.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include <irqcore.h>
#include <irqcore_ktap.h>

#include "edu.h"

#define EDU_WAIT_MS	5000	/* a handler run that has not come by then is lost */
#define EDU_SETTLE_MS	30	/* after a run: time for a second one to show */
#define EDU_FIRE_US	200
#define EDU_CLI_MS	50	/* how long cli() is held while the device interrupts */

static struct ic_ktap edu_k;

/* Wait until the handler has found its status set @runs times. */
bool edu_wait_runs(struct edu_dev *edu, unsigned long runs)
{
	unsigned long end = jiffies + msecs_to_jiffies(EDU_WAIT_MS);
	struct edu_counts c;

	for (;;) {
		edu_counts(edu, &c);
		if (c.runs >= runs)
			return true;
		if (time_after(jiffies, end))
			return false;
		usleep_range(200, 400);
	}
}

/*
 * Aim the line at @cpu, then let one raise through so that a deferred
 * move of the host interrupt is done (see above).
 */
int edu_aim(struct edu_dev *edu, int cpu)
{
	struct edu_counts c;
	int err;

	err = ic_set_affinity(edu->line, cpu);
	if (err) {
		ic_ktap_diag("ic_set_affinity(%u, %d): %d", edu->line, cpu, err);
		return err;
	}
	edu_counts(edu, &c);
	edu_raise(edu, EDU_INT_RAISE);
	if (!edu_wait_runs(edu, c.runs + 1)) {
		ic_ktap_diag("aim at CPU%d: the raise after it never ran the handler (status %#x)",
			     cpu, edu_status(edu));
		return -ETIMEDOUT;
	}
	msleep(EDU_SETTLE_MS);
	return 0;
}

/* Start one instance of @src; for DMA, @pass picks the direction. */
static int edu_start(struct edu_dev *edu, enum edu_source src, int pass)
{
	switch (src) {
	case EDU_SRC_RAISE:
		edu_raise(edu, EDU_INT_RAISE);
		return 0;
	case EDU_SRC_FACT:
		return edu_factorial(edu, 10);
	case EDU_SRC_DMA:
		return edu_dma(edu, pass, 256);
	default:
		return -EINVAL;
	}
}

static const char * const edu_src_names[] = { "raise", "factorial", "dma" };

/* One instance of @src with the line aimed at @cpu: one run there, in hardirq. */
static bool edu_source_once(struct edu_dev *edu, enum edu_source src, int cpu, int pass)
{
	const char *what = edu_src_names[src];
	struct edu_counts b, a;
	int err;

	edu_counts(edu, &b);
	err = edu_start(edu, src, pass);
	if (err) {
		ic_ktap_diag("%s: cannot start it: %d", what, err);
		return false;
	}
	if (!edu_wait_runs(edu, b.runs + 1)) {
		ic_ktap_diag("%s aimed at CPU%d: no handler run in %d ms (status %#x)",
			     what, cpu, EDU_WAIT_MS, edu_status(edu));
		return false;
	}
	msleep(EDU_SETTLE_MS);
	edu_counts(edu, &a);
	if (a.runs != b.runs + 1 || a.src_runs[src] != b.src_runs[src] + 1 ||
	    a.not_mine != b.not_mine || a.last_cpu != cpu ||
	    a.outside_hardirq != b.outside_hardirq) {
		ic_ktap_diag("%s at CPU%d: runs +%lu (want 1), its own +%lu", what, cpu,
			     a.runs - b.runs, a.src_runs[src] - b.src_runs[src]);
		ic_ktap_diag("status-0 runs +%lu, ran on CPU%d, outside hardirq +%lu",
			     a.not_mine - b.not_mine, a.last_cpu,
			     a.outside_hardirq - b.outside_hardirq);
		return false;
	}
	ic_ktap_diag("%s aimed at CPU%d: one run, in hardirq, on CPU%d, status %#x",
		     what, cpu, a.last_cpu, a.last_status);
	return true;
}

/* The case of one source on every online CPU; DMA goes there and back. */
static bool edu_case_source(struct edu_dev *edu, enum edu_source src)
{
	u8 *buf = edu->dma_buf;
	bool ok = true;
	int cpu;

	for_each_online_cpu(cpu) {
		if (edu_aim(edu, cpu))
			return false;
		if (src != EDU_SRC_DMA) {
			ok &= edu_source_once(edu, src, cpu, 0);
		} else {
			memset(buf, 0xa0 + cpu, 256);
			ok &= edu_source_once(edu, src, cpu, 0);
			memset(buf, 0, 256);	/* the return trip must refill it */
			ok &= edu_source_once(edu, src, cpu, 1);
			if (memchr_inv(buf, 0xa0 + cpu, 256)) {
				ic_ktap_diag("dma: the data came back changed");
				ok = false;
			}
		}
		if (src == EDU_SRC_FACT && edu_factorial_result(edu) != 3628800) {
			ic_ktap_diag("factorial: 10! read %u", edu_factorial_result(edu));
			ok = false;
		}
	}
	return ok;
}

/* The line disabled while the device asserts, then enabled. */
static bool edu_case_disabled(struct edu_dev *edu)
{
	int cpu = cpumask_last(cpu_online_mask);
	struct ic_line_stats s0, s1;
	struct edu_counts b, d, a;
	bool ok = true;

	if (edu_aim(edu, cpu))
		return false;
	edu_counts(edu, &b);
	ic_disable_irq(edu->line);
	ic_line_stats(edu->line, &s0);
	edu_raise(edu, EDU_INT_RAISE);
	msleep(50);
	edu_counts(edu, &d);
	ic_line_stats(edu->line, &s1);
	/*
	 * Level: the host pin is masked, at most one instance reaches the
	 * line (none with genirq's lazy disable, which masks at the first
	 * interrupt without running the handler). Edge: the one message is
	 * held. A pin left unmasked interrupts again at every end: a storm.
	 */
	ic_ktap_diag("disabled 50 ms, device asserting: %lu reached the line, %lu held",
		     s1.raised - s0.raised, s1.latched);
	ic_ktap_diag("disabled 50 ms: handler runs +%lu, status %#x",
		     d.runs - b.runs, edu_status(edu));
	if (d.runs != b.runs || d.not_mine != b.not_mine) {
		ic_ktap_diag("the handler ran on a disabled line");
		ok = false;
	}
	if (s1.raised - s0.raised > 1) {
		ic_ktap_diag("a storm: the source is not masked while its line is disabled");
		ok = false;
	}
	ic_enable_irq(edu->line);
	if (!edu_wait_runs(edu, b.runs + 1)) {
		ic_ktap_diag("the instance was lost: no run after enable (status %#x)",
			     edu_status(edu));
		return false;
	}
	msleep(50);
	edu_counts(edu, &a);
	ic_ktap_diag("after enable: handler runs +%lu, status-0 runs +%lu, on CPU%d",
		     a.runs - b.runs, a.not_mine - b.not_mine, a.last_cpu);
	if (a.runs != b.runs + 1 || a.not_mine != b.not_mine) {
		/* A software replay as well as the pin's own runs twice. */
		ic_ktap_diag("want exactly one run, and it finds the status set");
		ok = false;
	}
	return ok;
}

/* One instance on the line with no action: unhandled, and found by a probe. */
struct edu_on_cpu {
	struct edu_dev *edu;
	bool ok;
};

static long edu_unhandled_fn(void *arg)
{
	struct edu_on_cpu *oc = arg;
	struct edu_dev *edu = oc->edu;
	unsigned long mask, end;
	struct ic_line_stats s0, s1;
	struct edu_counts b, a;
	int found;

	edu_counts(edu, &b);
	edu_free(edu);
	mask = ic_probe_irq_on();
	ic_line_stats(edu->line, &s0);
	edu_raise(edu, EDU_INT_RAISE);
	end = jiffies + msecs_to_jiffies(EDU_WAIT_MS);
	do {
		ic_line_stats(edu->line, &s1);
		if (s1.unhandled != s0.unhandled)
			break;
		usleep_range(100, 200);
	} while (time_before(jiffies, end));
	/*
	 * Quiet the device before the probe ends: a level pin with no
	 * handler to acknowledge it interrupts again at every end, as
	 * 2.5's I/O APIC did while probing.
	 */
	edu_ack(edu, ~0U);
	found = ic_probe_irq_off(mask);
	ic_line_stats(edu->line, &s1);
	if (edu_request(edu)) {
		ic_ktap_diag("could not request the line again");
		oc->ok = false;
		return 0;
	}
	edu_counts(edu, &a);
	ic_ktap_diag("probed: %lu unhandled, probe_irq_off() %d (line %u), runs +%lu",
		     s1.unhandled - s0.unhandled, found, edu->line, a.runs - b.runs);
	oc->ok = s1.unhandled > s0.unhandled && found == (int)edu->line && a.runs == b.runs &&
		 (!edu->msi || s1.unhandled == s0.unhandled + 1);
	return 0;
}

static bool edu_case_unhandled(struct edu_dev *edu, const char **skip)
{
	struct edu_on_cpu oc = { .edu = edu };
	int cpu = cpumask_last(cpu_online_mask);

	/* A level pin with no action interrupts until acknowledged, here by CPU0. */
	if (!edu->msi && num_online_cpus() < 2) {
		*skip = "a level line with no action interrupts until CPU0 acks it: needs 2 CPUs";
		return true;
	}
	if (edu_aim(edu, cpu))
		return false;
	work_on_cpu(cpumask_first(cpu_online_mask), edu_unhandled_fn, &oc);
	return oc.ok;
}

/* ic_free_irq() while the device interrupts every EDU_FIRE_US. */
static bool edu_case_free_while_firing(struct edu_dev *edu)
{
	struct ic_line_stats st;
	struct edu_counts b, f, a;
	bool ok = true;

	if (edu_aim(edu, cpumask_last(cpu_online_mask)))
		return false;
	edu_counts(edu, &b);
	edu_fire_start(edu, EDU_FIRE_US);
	msleep(50);
	edu_free(edu);
	edu_counts(edu, &f);
	msleep(30);	/* still firing, on a line without a handler */
	edu_counts(edu, &a);
	edu_fire_stop(edu);
	edu_ack(edu, ~0U);
	ic_line_stats(edu->line, &st);
	ic_ktap_diag("firing every %u us: %lu runs before ic_free_irq() returned, %lu after",
		     EDU_FIRE_US, f.runs - b.runs, a.runs - f.runs);
	ic_ktap_diag("line raised=%lu held=%lu dropped=%lu", st.raised, st.latched, st.dropped);
	if (f.runs - b.runs < 5) {
		ic_ktap_diag("fewer than 5 runs while firing: the case tested nothing");
		ok = false;
	}
	if (a.runs != f.runs || a.not_mine != f.not_mine) {
		ic_ktap_diag("the handler ran after ic_free_irq() returned");
		ok = false;
	}
	if (edu_request(edu)) {
		ic_ktap_diag("could not request the line again");
		return false;
	}
	return ok;
}

/* cli() on CPU0 with the device aimed at the last CPU. */
static long edu_cli_fn(void *arg)
{
	struct edu_on_cpu *oc = arg;
	struct edu_dev *edu = oc->edu;
	struct edu_counts b, d, a;
	bool biglock = !strcmp(ic_regime_name(), "biglock");
	unsigned int ms;
	bool ran;

	edu_counts(edu, &b);
	ic_cli();
	edu_raise(edu, EDU_INT_RAISE);
	/*
	 * Held for EDU_CLI_MS, or under nolock until the other CPU has run
	 * the handler (a busy host may keep that vCPU away for a while).
	 */
	for (ms = 0; ms < EDU_CLI_MS; ms++) {
		mdelay(1);
		edu_counts(edu, &d);
		if (!biglock && d.runs != b.runs)
			break;
	}
	edu_counts(edu, &d);
	ic_sti();
	ran = edu_wait_runs(edu, b.runs + 1);
	edu_counts(edu, &a);
	ic_ktap_diag("%s: cli() on CPU%d %u ms: runs +%lu inside, +%lu after sti(), on CPU%d",
		     ic_regime_name(), smp_processor_id(), ms, d.runs - b.runs, a.runs - d.runs,
		     a.last_cpu);
	/* biglock: held until sti(); nolock: cli() is this CPU's alone. */
	oc->ok = ran && a.runs == b.runs + 1 && d.runs == (biglock ? b.runs : b.runs + 1);
	return 0;
}

static bool edu_case_cli(struct edu_dev *edu, const char **skip)
{
	struct edu_on_cpu oc = { .edu = edu };
	int here = cpumask_first(cpu_online_mask);
	int there = cpumask_last(cpu_online_mask);

	if (here == there) {
		*skip = "needs 2 CPUs";
		return true;
	}
	if (edu_aim(edu, there))
		return false;
	work_on_cpu(here, edu_cli_fn, &oc);
	return oc.ok;
}

/*
 * Under biglock: an instance held at a line disabled under it. The device
 * interrupts the last CPU while the first holds cli(), so the interrupt
 * waits in irq_enter() for the global lock; the first CPU disables the
 * line and releases the lock, and do_IRQ finds the line disabled and holds
 * the instance. On enable an edge is resent; a level instance is dropped,
 * since its pin, still asserted, interrupts again once unmasked. Either
 * way the handler runs once, and finds the status set.
 */
static long edu_held_fn(void *arg)
{
	struct edu_on_cpu *oc = arg;
	struct edu_dev *edu = oc->edu;
	unsigned long end = jiffies + msecs_to_jiffies(EDU_WAIT_MS);
	struct ic_cli_stats c0, c1;
	struct ic_line_stats s0, s1;
	struct edu_counts b, d, a;
	bool spun, held, ran;

	edu_counts(edu, &b);
	ic_line_stats(edu->line, &s0);
	ic_cli_stats(&c0);
	ic_cli();
	edu_raise(edu, EDU_INT_RAISE);
	/* Until the other CPU's interrupt waits for the lock (bounded). */
	do {
		mdelay(1);
		ic_cli_stats(&c1);
		spun = c1.enter_spins != c0.enter_spins;
	} while (!spun && time_before(jiffies, end));
	ic_disable_irq_nosync(edu->line);
	ic_sti();
	do {
		ic_line_stats(edu->line, &s1);
		held = s1.latched != s0.latched;
		if (held)
			break;
		usleep_range(100, 200);
	} while (time_before(jiffies, end));
	msleep(EDU_SETTLE_MS);
	edu_counts(edu, &d);
	ic_enable_irq(edu->line);
	ran = edu_wait_runs(edu, b.runs + 1);
	msleep(50);
	edu_counts(edu, &a);
	ic_line_stats(edu->line, &s1);
	ic_ktap_diag("interrupt waited in irq_enter(): %s; held at the disabled line: %s",
		     spun ? "yes" : "no", held ? "yes" : "no");
	ic_ktap_diag("runs +%lu disabled, +%lu after enable, status-0 +%lu, dropped +%lu",
		     d.runs - b.runs, a.runs - d.runs, a.not_mine - b.not_mine,
		     s1.dropped - s0.dropped);
	oc->ok = spun && held && ran && d.runs == b.runs && a.runs == b.runs + 1 &&
		 a.not_mine == b.not_mine &&
		 s1.dropped - s0.dropped == (edu->msi ? 0 : 1);
	return 0;
}

static bool edu_case_held(struct edu_dev *edu, const char **skip)
{
	struct edu_on_cpu oc = { .edu = edu };
	int here = cpumask_first(cpu_online_mask);
	int there = cpumask_last(cpu_online_mask);

	if (strcmp(ic_regime_name(), "biglock")) {
		*skip = "nolock has no global lock to hold the interrupt at the line";
		return true;
	}
	if (here == there) {
		*skip = "needs 2 CPUs";
		return true;
	}
	if (edu_aim(edu, there))
		return false;
	work_on_cpu(here, edu_held_fn, &oc);
	return oc.ok;
}

/* The line's books against the handler's own count. */
static bool edu_case_accounting(struct edu_dev *edu)
{
	unsigned long end = jiffies + msecs_to_jiffies(EDU_WAIT_MS);
	struct ic_line_stats st;
	struct edu_counts c;

	for (;;) {
		ic_line_stats(edu->line, &st);
		if ((!st.inflight && !st.busy) || time_after(jiffies, end))
			break;
		usleep_range(500, 1000);
	}
	edu_counts(edu, &c);
	ic_ktap_diag("raised=%lu handled=%lu merged=%lu latched=%lu inflight=%lu dropped=%lu",
		     st.raised, st.handled, st.merged, st.latched, st.inflight, st.dropped);
	ic_ktap_diag("unhandled=%lu reruns=%lu; handler calls %lu (status set %lu, status 0 %lu)",
		     st.unhandled, st.reruns, c.runs + c.not_mine, c.runs, c.not_mine);
	return ic_line_stats_balance(&st) && !st.inflight && !st.busy &&
	       st.handled - st.unhandled == c.runs + c.not_mine && !c.outside_hardirq;
}

static void edu_result(bool ok, const char *what, struct edu_dev *edu, const char *skip)
{
	char name[64];

	snprintf(name, sizeof(name), "edu_%s_%s_%s", what, edu->msi ? "msi" : "intx",
		 ic_regime_name());
	ic_ktap_result(&edu_k, ok, name, skip);
}

/**
 * edu_selftest() - run every case on @edu and print the KTAP document.
 * @edu: a bound device, its handler installed, nothing else using it.
 *
 * Context: process; sleeps (about a second, most of it the DMA cases).
 * Return: the number of failed cases.
 */
int edu_selftest(struct edu_dev *edu)
{
	enum edu_source src;
	const char *skip;
	bool ok;

	ic_ktap_begin(&edu_k, EDU_NR_SOURCES + 6);
	for (src = 0; src < EDU_NR_SOURCES; src++) {
		if (src == EDU_SRC_DMA && !edu->dma_buf) {
			edu_result(true, edu_src_names[src], edu,
				   "this kernel gives no DMA below 2^28 (no CONFIG_ZONE_DMA)");
			continue;
		}
		edu_result(edu_case_source(edu, src), edu_src_names[src], edu, NULL);
	}
	edu_result(edu_case_disabled(edu), "disabled", edu, NULL);
	skip = NULL;
	ok = edu_case_unhandled(edu, &skip);
	edu_result(ok, "unhandled", edu, skip);
	edu_result(edu_case_free_while_firing(edu), "free_while_firing", edu, NULL);
	skip = NULL;
	ok = edu_case_cli(edu, &skip);
	edu_result(ok, "cli_other_cpu", edu, skip);
	skip = NULL;
	ok = edu_case_held(edu, &skip);
	edu_result(ok, "held_at_disable", edu, skip);
	edu_result(edu_case_accounting(edu), "accounting", edu, NULL);
	ic_set_affinity(edu->line, -1);
	pr_info("End of test: %s: cases=%u failed=%u\n",
		edu_k.failed ? "FAILURE" : "SUCCESS", edu_k.planned, edu_k.failed);
	return edu_k.failed;
}
