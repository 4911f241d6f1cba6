// SPDX-License-Identifier: GPL-2.0
/*
 * expect: rule a (the checker: the sections refused keep their cli()).
 * Sections of 2.4.17's drivers converted with nothing said, though the
 * lock they now take is one a handler spins on, or a call of theirs went
 * unseen (docs/convert-corpus.md, "Reviewed after the twenty"):
 *
 * - A section that calls a helper which masks the device's line with
 *   disable_irq() to read what the handler fills (a touch pad's sample):
 *   disable_irq() waits for a running handler; the handler, wrapped in the
 *   file's lock, spins on it on another CPU: neither finishes. 2.4's cli()
 *   had waited for every handler first.
 * - A section that calls synchronize_irq() itself.
 * - A section whose error path is a macro's argument (a tape controller's
 *   TRACE_CATCH(x = cmd(...), restore_flags(flags); ...)): the command and
 *   the restore_flags() in it are not seen by spatch; converted, that path
 *   returned holding the lock, and the command sleeps.
 *
 * convert-left: hw_sample hw_quiesce hw_format
 * convert-done: hw_count
 * convert-report: 68 hw_sample: cli(): calls hw_snapshot(), which calls disable_irq() on line 55, which waits for a running interrupt handler
 * convert-report: 77 hw_quiesce: cli(): calls synchronize_irq() on line 78 inside the section, which waits for a running interrupt handler
 * convert-report: 88 hw_format: cli(): holds a restore_flags() on line 91 that the rules did not see
 */
#include "hw_trace.h"

static int hw_irq = 5;
static int hw_x, hw_y, hw_pending, hw_mode, hw_hits;
static int hw_cmd_err;

static void hw_interrupt(int irq, void *dev_id, struct pt_regs *regs)
{
	hw_x = inb(0x300);
	hw_y = inb(0x301);
	hw_pending = 1;
	hw_hits++;
}

static int hw_wait_ready(void)
{
	current->state = TASK_INTERRUPTIBLE;
	schedule_timeout(1);
	return inb(0x302);
}

static int hw_cmd(int op)
{
	outb(op, 0x303);
	return hw_wait_ready();
}

/* Masks the line to read a consistent pair. */
static void hw_snapshot(int *x, int *y)
{
	disable_irq(hw_irq);
	*x = hw_x;
	*y = hw_y;
	hw_pending = 0;
	enable_irq(hw_irq);
}

static void hw_sample(int *d)
{
	unsigned long flags;
	int x, y;

	save_flags(flags);
	cli();
	hw_snapshot(&x, &y);
	d[0] = x + hw_mode;
	d[1] = y;
	restore_flags(flags);
}

static void hw_quiesce(void)
{
	cli();
	synchronize_irq();
	hw_mode = 0;
	sti();
}

static int hw_format(int op)
{
	unsigned long flags;

	save_flags(flags);
	cli();
	hw_mode = op;
	HW_CHECK(hw_cmd_err = hw_cmd(op),
		 restore_flags(flags); hw_mode = 0);
	restore_flags(flags);
	return 0;
}

static void hw_count(void)
{
	unsigned long flags;

	save_flags(flags);
	cli();
	hw_hits = 0;
	restore_flags(flags);
}

int hw_init(void)
{
	return request_irq(hw_irq, hw_interrupt, 0, "hw", NULL);
}

/*
 * The rest of its report, exactly (tests/convert-check): the calls that
 * go with each section left, and each other line.
 * convert-report: 67,72 hw_sample: goes with the cli() on line 68
 * convert-report: 80 hw_quiesce: sti(): goes with the cli() on line 77
 * convert-report: 87,92 hw_format: goes with the cli() on line 88
 * convert-report: 91 ?: restore_flags(): not seen by the rules: spatch did not parse the function around it
 */
