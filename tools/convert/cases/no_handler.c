// SPDX-License-Identifier: GPL-2.0
/*
 * expect: rule a. A 2002 file with sections and no interrupt handler of its
 * own (tty_io.c's flip buffers, filled by the serial drivers' handlers;
 * isdn_ppp.c, called from the card drivers): cli() kept out handlers of
 * other files on every CPU, a lock of this file would keep out none.
 * convert-left: nh_flush
 * convert-report: 21 nh_flush: cli(): this file defines no interrupt handler it requests
 */
struct nh_flip {
	int count;
	char buf[64];
};
extern struct nh_flip nh_flip;

static void nh_flush(void)
{
	unsigned long flags;

	save_flags(flags);
	cli();
	nh_flip.count = 0;
	restore_flags(flags);
}

/*
 * The rest of its report, exactly (tests/convert-check): the calls that
 * go with each section left, and each other line.
 * convert-report: 20,23 nh_flush: goes with the cli() on line 21
 */
