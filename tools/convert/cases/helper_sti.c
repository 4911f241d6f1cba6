// SPDX-License-Identifier: GPL-2.0
/*
 * expect: rule a (the checker: the sections refused keep their cli()).
 * A section that calls a helper of the file with a sti() or a
 * restore_flags() and no cli() of its own (a wait for the chip with
 * interrupts let in; flags handed to a helper that gives them back): under
 * 2002's global lock the sti() let the other CPUs in, under the new lock
 * it lets the interrupt in on this CPU with the lock held, and the
 * handler, wrapped in that lock, spins on it there. Refused, with the
 * helper's line.
 *
 * convert-left: hs_start
 * convert-done: hs_kick
 * convert-report: 45 hs_start: cli(): calls hs_settle(), whose sti() on line 29, with no cli() of its own
 */
static int hs_state, hs_busy;

static void hs_interrupt(int irq, void *dev_id, struct pt_regs *regs)
{
	hs_state = inb(0x300);
	hs_busy = 0;
}

/* Lets interrupts in while it waits for the chip. */
static void hs_settle(void)
{
	int i;

	sti();
	for (i = 0; i < 1000 && inb(0x301); i++)
		udelay(10);
}

static void hs_give_back(unsigned long f)
{
	hs_busy = 0;
	restore_flags(f);
}

static void hs_start(void)
{
	unsigned long flags;

	save_flags(flags);
	cli();
	hs_busy = 1;
	outb(1, 0x302);
	hs_settle();
	hs_state = 2;
	restore_flags(flags);
}

static void hs_kick(void)
{
	unsigned long flags;

	save_flags(flags);
	cli();
	hs_state = 3;
	restore_flags(flags);
	hs_give_back(flags);
}

int hs_init(void)
{
	return request_irq(5, hs_interrupt, 0, "hs", NULL);
}

/*
 * The rest of its report, exactly (tests/convert-check): the calls that
 * go with each section left, and each other line.
 * convert-report: 29 hs_settle: sti(): no cli()/save_flags() before it in this function
 * convert-report: 37 hs_give_back: restore_flags(): no cli()/save_flags() before it in this function
 * convert-report: 44,50 hs_start: goes with the cli() on line 45
 */
