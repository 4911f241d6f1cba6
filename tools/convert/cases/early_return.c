// SPDX-License-Identifier: GPL-2.0
/*
 * expect: rule a. A 2002 driver's section with an early return that
 * restores the flags on its way out, a static initialiser and a macro
 * that writes the data: none of them is a write outside the section (no
 * rule c), only the 2002 calls are reported. The reports, exactly:
 * lint-report: 31 a: save_flags() in er_put()
 * lint-report: 32 a: cli() in er_put()
 * lint-report: 34 a: restore_flags() in er_put()
 * lint-report: 38 a: restore_flags() in er_put()
 */
static int er_count = 0;
static int er_ring[8] = { 0 };
#define ER_RESET()	(er_count = 0)

static void er_interrupt(int irq, void *dev_id, struct pt_regs *regs)
{
	er_count--;
	er_ring[er_count & 7] = 0;
}

static int er_open(unsigned int irq)
{
	return request_irq(irq, er_interrupt, 0, "er", NULL);
}

static int er_put(int v)
{
	unsigned long flags;

	save_flags(flags);
	cli();
	if (er_count >= 8) {
		restore_flags(flags);
		return -1;
	}
	er_ring[er_count++] = v;
	restore_flags(flags);
	return 0;
}
