// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore_torture - the tty flip buffer.
 *
 * Mirrors 2.5.28 drivers/char/tty_io.c flush_to_ldisc() and the receive
 * interrupt's tty_insert_flip_char(): the handler appends characters to
 * the active half of a two-half buffer; flush_to_ldisc() switches halves,
 * takes the count and hands the old half to the line discipline. The seed
 * turned flush_to_ldisc()'s save_flags(); cli() into __save_flags();
 * __cli() with "FIXME: is this safe?" (it was not, on SMP): that is this
 * driver's local style.
 *
 * Invariant: every character arrives once, in order. The handler stamps
 * each character with the next sequence number; the consumer must see
 * them consecutively, and at the end it must have seen all of them. Each
 * lost character is one violation, and so is each one out of order. A full
 * half drops the character without using a number (an overrun, which is
 * allowed and counted).
 */
#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/string.h>
#include <linux/types.h>

#include "torture.h"

#define ICT_TTY_FLIPBUF	512

static struct {
	u32 buf[2][ICT_TTY_FLIPBUF];
	unsigned int buf_num;		/* the half the handler fills */
	unsigned int count;		/* characters in it */
	u32 produced;			/* handler only: next sequence number */
	u32 expected;			/* consumer only: next one it wants */
	atomic_t flushing;		/* one flush_to_ldisc() at a time */
	atomic_long_t overruns;
} ict_t;

static void ict_tty_reset(struct ict_dev *dev)
{
	memset(&ict_t, 0, sizeof(ict_t));
}

/* tty_insert_flip_char() from the receive interrupt. */
static void ict_tty_irq(struct ict_dev *dev)
{
	unsigned long flags;
	unsigned int n;

	flags = ict_enter(dev);
	n = ict_t.count;
	if (n < ICT_TTY_FLIPBUF) {
		ict_t.buf[ict_t.buf_num][n] = ict_t.produced++;
		ict_t.count = n + 1;
	} else {
		atomic_long_inc(&ict_t.overruns);
	}
	ict_exit(dev, flags);
}

/* The line discipline's receive_buf(): check the sequence. */
static void ict_tty_receive(struct ict_dev *dev, const u32 *cp, unsigned int count)
{
	unsigned int i;

	for (i = 0; i < count; i++) {
		if (cp[i] > ict_t.expected)
			ict_violations(dev, cp[i] - ict_t.expected,
				       "tty: character %u arrived where %u was due (%u lost)\n",
				       cp[i], ict_t.expected, cp[i] - ict_t.expected);
		else if (cp[i] < ict_t.expected)
			ict_violation(dev, "tty: character %u again or out of order (%u due)\n",
				      cp[i], ict_t.expected);
		ict_t.expected = cp[i] + 1;
	}
}

/*
 * flush_to_ldisc(). The tty layer ran it from one queue, never twice at
 * once; the flushing flag keeps that rule here, and says nothing about
 * the handler, which the style alone must keep out.
 */
static bool ict_tty_op(struct ict_dev *dev, unsigned int thread)
{
	unsigned long flags;
	unsigned int half, count;

	if (atomic_xchg(&ict_t.flushing, 1))
		return false;
	flags = ict_enter(dev);
	half = ict_t.buf_num;
	count = ict_t.count;
	ict_window(dev);
	ict_t.buf_num = !half;
	ict_t.count = 0;
	ict_exit(dev, flags);

	ict_tty_receive(dev, ict_t.buf[half], count);
	atomic_set_release(&ict_t.flushing, 0);
	return true;
}

static void ict_tty_finish(struct ict_dev *dev)
{
	ict_tty_op(dev, 0);
	if (ict_t.expected < ict_t.produced)
		ict_violations(dev, ict_t.produced - ict_t.expected,
			       "tty: %u characters sent, the last %u never arrived\n",
			       ict_t.produced, ict_t.produced - ict_t.expected);
	else if (ict_t.expected > ict_t.produced)
		ict_violation(dev, "tty: %u characters sent, yet number %u arrived\n",
			      ict_t.produced, ict_t.expected - 1);
}

const struct ict_driver ict_tty = {
	.name = "tty",
	.reset = ict_tty_reset,
	.irq = ict_tty_irq,
	.op = ict_tty_op,
	.finish = ict_tty_finish,
};
