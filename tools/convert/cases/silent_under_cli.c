// SPDX-License-Identifier: GPL-2.0
/*
 * expect: rule a. A write under 2002's global cli() meets no handler's
 * write (that is what cli() did): only the 2002 calls are reported, as
 * rule a, and no rule b or c for the data.
 * The reports, exactly:
 * lint-report: 19 a: cli() in sc_reset()
 * lint-report: 21 a: sti() in sc_reset()
 */
static int sc_count;

static void sc_handler(int irq, void *dev_id, struct pt_regs *regs)
{
	sc_count++;
}

static void sc_reset(void)
{
	cli();
	sc_count = 0;
	sti();
}

static int sc_open(unsigned int irq)
{
	int ret = request_irq(irq, sc_handler, 0, "sc", NULL);

	sc_reset();
	return ret;
}
