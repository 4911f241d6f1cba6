// SPDX-License-Identifier: GPL-2.0
/*
 * expect: rule a. Each of the four 2002 calls is reported, not only cli():
 * a sti(), a save_flags() and a restore_flags() with no cli() in sight.
 * The reports, exactly:
 * lint-report: 15 a: sti() in lc_enable()
 * lint-report: 22 a: save_flags() in lc_save()
 * lint-report: 29 a: restore_flags() in lc_restore()
 */
static int lc_state;

static void lc_enable(void)
{
	lc_state = 1;
	sti();
}

static unsigned long lc_save(void)
{
	unsigned long flags;

	save_flags(flags);
	return flags;
}

static void lc_restore(unsigned long flags)
{
	lc_state = 2;
	restore_flags(flags);
}
