// SPDX-License-Identifier: GPL-2.0
/*
 * expect: rule a (the checker: the sections refused keep their cli()).
 * Sections and their closing calls, as the converter now finds them: which
 * cli() opens a section (every path closes it), then where each path
 * closes it, then the calls changed one by one.
 *
 * - One closing call for two sections, one on each branch of an if, one of
 *   them refused (it sleeps): converted, the other would leave an unlock on
 *   the path that took no lock; both are left.
 * - A firmware load with a section left by eight early returns, each
 *   restoring the flags, and loops between (qlogicpti.c's shape, which
 *   took the rules more than a minute of CPU when one rule matched the
 *   whole section): converted, each closing call counted.
 *
 * convert-left: sc_pick
 * convert-done: sc_load
 * convert-report: 45 sc_pick: cli(): calls interruptible_sleep_on() on line 46 inside the section
 * convert-report: 49 sc_pick: cli(): its closing call on line 52 also closes what the cli() on line 45 opens
 */
static int sc_count, sc_words[64];
static DECLARE_WAIT_QUEUE_HEAD(sc_queue);

static void sc_interrupt(int irq, void *dev_id, struct pt_regs *regs)
{
	sc_count++;
}

static int sc_up(int irq)
{
	return request_irq(irq, sc_interrupt, 0, "sc", 0);
}

static int sc_ready(void)
{
	return sc_count > 0;
}

static void sc_pick(int a)
{
	unsigned long flags;

	if (a) {
		save_flags(flags);
		cli();
		interruptible_sleep_on(&sc_queue);
	} else {
		save_flags(flags);
		cli();
		sc_count++;
	}
	restore_flags(flags);
}

static int sc_load(const int *code, int n)
{
	unsigned long flags;
	int i, sum = 0, tries;

	save_flags(flags); cli();
	for (i = 0; i < n; i++)
		sum += code[i];
	if (sum) {
		restore_flags(flags);
		return 1;
	}
	tries = 100;
	while (--tries && !sc_ready())
		udelay(20);
	if (!tries) {
		restore_flags(flags);
		return 2;
	}
	for (i = 0; i < n; i++) {
		sc_words[i % 64] = code[i];
		if (!sc_ready()) {
			restore_flags(flags);
			return 3;
		}
	}
	if (sc_words[0] != code[0]) {
		restore_flags(flags);
		return 4;
	}
	for (i = 0; i < n; i++) {
		if (sc_words[i % 64] != code[i]) {
			restore_flags(flags);
			return 5;
		}
	}
	if (!sc_ready()) {
		restore_flags(flags);
		return 6;
	}
	tries = 10;
	while (tries--) {
		if (sc_words[1] == 0) {
			restore_flags(flags);
			return 7;
		}
		sc_words[1]--;
	}
	if (sc_count < 0) {
		restore_flags(flags);
		return 8;
	}
	sc_count = 0;
	restore_flags(flags);
	return 0;
}

/*
 * The rest of its report, exactly (tests/convert-check): the calls that
 * go with each section left, and each other line.
 * convert-report: 44 sc_pick: save_flags(): goes with the cli() on line 45
 * convert-report: 48 sc_pick: save_flags(): goes with the cli() on line 49
 * convert-report: 52 sc_pick: restore_flags(): goes with the cli() on line 49
 */
