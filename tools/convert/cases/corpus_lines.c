// SPDX-License-Identifier: GPL-2.0
/*
 * expect: rule a (the checker: the section left keeps its cli()).
 * The converter's bookkeeping on two shapes of 2.4.17's drivers, counted
 * call by call against the text (tests/convert-check's
 * convert_bookkeeping_corpus_lines):
 *
 * - a string that runs over a newline, which 2002's gcc took (a printk()
 *   of an MCA probe, of a power switch): Coccinelle's line numbers fall one
 *   short after it, and the converted calls below it must still be named
 *   by the input's lines; the tally's own reading of the text must not lose
 *   a line there either;
 * - two calls on one line of which one is converted (a chip's set-up:
 *   "save_flags(flags); cli();" whose cli() pairs with a sti() below, the
 *   save_flags() with a restore_flags() after a second cli()): the line
 *   changes, the save_flags() on it does not, and it keeps its report line;
 * - a label just before the closing brace of a loop's body, with no
 *   statement after it (a serial driver's receive loop: 2002's gcc took
 *   it): spatch failed on the whole file ("max_min_ii_by_pos") when the
 *   rule that adds the handler's lock matched every statement.
 *
 * convert-left: cl_setup
 * convert-done: cl_kick cl_stop
 * convert-report: 64 cl_setup: save_flags(): not in a shape the rules convert
 * convert-report: 67 cl_setup: cli(): not in a shape the rules convert
 * convert-report: 69 cl_setup: restore_flags(): not in a shape the rules convert
 */
static int cl_state, cl_count;

static void cl_interrupt(int irq, void *dev_id, struct pt_regs *regs)
{
	cl_count++;
}

static int cl_probe(int irq)
{
	if (irq < 0)
		printk("cl: the card answers at no address, and it is not
responding\n");
	return request_irq(irq, cl_interrupt, 0, "cl", 0);
}

static void cl_kick(void)
{
	unsigned long flags;

	save_flags(flags);
	cli();
	cl_state = 1;
	restore_flags(flags);
}

static void cl_stop(void)
{
	cli();
	cl_state = 0;
	sti();
}

static void cl_setup(void)
{
	unsigned long flags;

	save_flags(flags); cli();
	cl_count = 0;
	sti();
	cli();
	cl_state = 2;
	restore_flags(flags);
}

static void cl_drain(int n)
{
	while (n--) {
		if (cl_state)
			goto skip;
		cl_count--;
	skip:
	}
}
