// SPDX-License-Identifier: GPL-2.0
/*
 * expect: rule a (the checker: the sections refused keep their cli()).
 * Sections whose conversion the checker's rule d found taking the
 * converter's own lock twice, or releasing it twice, in 2.4.17's drivers
 * (docs/convert-corpus.md, "Rule d on the converter's lock"): each is now
 * refused with its reason, and what is converted around them stays free of
 * rule d (convert_rule_d_own_lock).
 *
 * - A section that calls a function of the file which comes back to the
 *   section's own function (a token ring's open() calls its status-change
 *   routine, which opens again when the status says so).
 * - A section that calls the interrupt handler by hand, to poll it or to
 *   drain a FIFO (an ADB controller's poll, a touch pad's open): the
 *   handler is wrapped in the same lock.
 * - A section whose loop gives the flags back around a completion call and
 *   closes interrupts again with a bare cli(), no save_flags() (a SCSI
 *   host's reset): the closing calls after the loop close that cli() too;
 *   converted, the unlock in the loop would run twice on one path.
 * - A handler that gives its line back on a run of spurious interrupts
 *   (free_irq(), which sleeps or may): the handler rule would hold the lock
 *   across it; it is reported, not wrapped.
 *
 * convert-left: ol_open ol_poll ol_reset ol_spurious_interrupt
 * convert-done: ol_count
 * convert-report: 70 ol_open: cli(): calls ol_status(), which comes back to ol_open() itself
 * convert-report: 91 ol_poll: cli(): calls the interrupt handler ol_interrupt(), which the handler rule locks
 * convert-report: 103 ol_reset: cli(): its closing call on line 108 also closes what the cli() on line 110 opens
 * convert-report: 44 ol_spurious_interrupt: the handler calls free_irq() on line 47, which sleeps or may
 */
struct ol_cmd {
	int status;
	void (*done)(struct ol_cmd *cmd);
};

static int ol_state, ol_events, ol_spurious;
static struct ol_cmd *ol_queue[8];

static void ol_interrupt(int irq, void *dev_id, struct pt_regs *regs)
{
	ol_events++;
}

static void ol_spurious_interrupt(int irq, void *dev_id, struct pt_regs *regs)
{
	if (ol_spurious++ > 100)
		free_irq(irq, dev_id);
}

static int ol_up(int irq)
{
	if (request_irq(irq + 1, ol_spurious_interrupt, 0, "ol", 0))
		return -1;
	return request_irq(irq, ol_interrupt, 0, "ol", 0);
}

static void ol_open(void);

static void ol_status(void)
{
	if (ol_state == 2)
		ol_open();
}

static void ol_open(void)
{
	unsigned long flags;

	save_flags(flags);
	cli();
	ol_state = 1;
	ol_status();
	restore_flags(flags);
}

static void ol_count(void)
{
	unsigned long flags;

	save_flags(flags);
	cli();
	ol_events = 0;
	restore_flags(flags);
}

static void ol_poll(void)
{
	unsigned long flags;

	save_flags(flags);
	cli();
	if (ol_events)
		ol_interrupt(0, 0, 0);
	restore_flags(flags);
}

static void ol_reset(void)
{
	unsigned long flags;
	int i;

	save_flags(flags);
	cli();
	for (i = 0; i < 8; i++) {
		if (!ol_queue[i])
			continue;
		ol_queue[i]->status = -1;
		restore_flags(flags);
		ol_queue[i]->done(ol_queue[i]);
		cli();
	}
	ol_state = 0;
	restore_flags(flags);
}

/*
 * The rest of its report, exactly (tests/convert-check): the calls that
 * go with each section left, and each other line.
 * convert-report: 69,73 ol_open: goes with the cli() on line 70
 * convert-report: 90,94 ol_poll: goes with the cli() on line 91
 * convert-report: 102,108,113 ol_reset: goes with the cli() on line 103
 * convert-report: 110 ol_reset: cli(): not in a shape the rules convert
 */
