// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore_torture, style literal - the tty flip buffer, as 2.5.27 had it.
 *
 * drivers/char/tty_io.c before the seed: the receive interrupt appends to
 * the active half of the flip buffer (tty_insert_flip_char(), no lock of
 * its own: 2.5.27's cli() kept every handler out), and flush_to_ldisc()
 * switches halves and takes the count under save_flags(flags); cli(). The
 * seed made that __save_flags(flags); __cli(); // FIXME: is this safe?
 * (the localized style: it was not).
 *
 * Invariant, as drivers/tty.c: every sequence-numbered character arrives
 * once, in order.
 */
#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/string.h>
#include <linux/types.h>

#include "compat2002.h"

#define TTY_FLIPBUF_SIZE	512

static struct {
	u32 char_buf[2][TTY_FLIPBUF_SIZE];
	unsigned int buf_num;		/* the half the handler fills */
	unsigned int count;		/* characters in it */
	u32 produced;			/* the next sequence number */
	u32 expected;			/* the consumer's next one */
	atomic_t flushing;		/* one flush_to_ldisc() at a time */
	atomic_long_t overruns;
} flip;

static struct ict_dev *tty_dev;

/* The receive interrupt: tty_insert_flip_char(). */
static void tty_receive_interrupt(int irq, void *dev_id, struct pt_regs *regs)
{
	unsigned int n;

	n = flip.count;
	if (n < TTY_FLIPBUF_SIZE) {
		flip.char_buf[flip.buf_num][n] = flip.produced++;
		flip.count = n + 1;
	} else {
		atomic_long_inc(&flip.overruns);
	}
}

/* The line discipline's receive_buf(): check the sequence. */
static void tty_receive_buf(const u32 *cp, unsigned int count)
{
	unsigned int i;

	for (i = 0; i < count; i++) {
		if (cp[i] > flip.expected)
			ict_violations(tty_dev, cp[i] - flip.expected,
				       "tty: character %u arrived where %u was due (%u lost)\n",
				       cp[i], flip.expected, cp[i] - flip.expected);
		else if (cp[i] < flip.expected)
			ict_violation(tty_dev, "tty: character %u again or out of order (%u due)\n",
				      cp[i], flip.expected);
		flip.expected = cp[i] + 1;
	}
}

/* flush_to_ldisc(): one at a time, as the tty layer ran it. */
static int flush_to_ldisc(void)
{
	unsigned long flags;
	unsigned int half, count;

	if (atomic_xchg(&flip.flushing, 1))
		return 0;
	save_flags(flags); cli();
	half = flip.buf_num;
	count = flip.count;
	ict_lit_window(tty_dev);
	flip.buf_num = !half;
	flip.count = 0;
	restore_flags(flags);

	tty_receive_buf(flip.char_buf[half], count);
	atomic_set_release(&flip.flushing, 0);
	return 1;
}

/* The torture harness's side: the driver's open, release and checks. */

static void tty_reset(struct ict_dev *dev)
{
	memset(&flip, 0, sizeof(flip));
	tty_dev = dev;
}

static int tty_open(unsigned int irq)
{
	return request_irq(irq, tty_receive_interrupt, SA_INTERRUPT, "tty", NULL);
}

static void tty_release(unsigned int irq)
{
	free_irq(irq, NULL);
}

static bool tty_op(struct ict_dev *dev, unsigned int thread)
{
	return flush_to_ldisc();
}

static void tty_finish(struct ict_dev *dev)
{
	flush_to_ldisc();
	if (flip.expected < flip.produced)
		ict_violations(dev, flip.produced - flip.expected,
			       "tty: %u characters sent, the last %u never arrived\n",
			       flip.produced, flip.produced - flip.expected);
	else if (flip.expected > flip.produced)
		ict_violation(dev, "tty: %u characters sent, yet number %u arrived\n",
			      flip.produced, flip.expected - 1);
}

const struct ict_driver ict_literal_tty = {
	.name = "tty",
	.reset = tty_reset,
	.open = tty_open,
	.release = tty_release,
	.op = tty_op,
	.finish = tty_finish,
};
