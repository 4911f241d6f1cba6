// SPDX-License-Identifier: GPL-2.0
/*
 * expect: rule a (the checker: the sections refused keep their cli()).
 * (Latin-1 in a comment, as 2002 authors wrote their names: André.)
 * The shapes of Linux 2.4.17's drivers the converter meets, written anew:
 * convert-left: cs_wait_ready cs_open cs_setup cs_interrupt cs_bind
 * convert-done: cs_send cs_stats cs_xmit cs_take
 *
 * convert-report: 35 cs_wait_ready: cli(): calls interruptible_sleep_on() on line 37 inside the section, which sleeps or may
 * convert-report: 57 cs_open: cli(): calls cs_reset(), whose own cli() section (line 47) would take the same lock
 * convert-report: 75 cs_setup: cli(): calls cs_alloc(), which calls kmalloc() on line 67, which sleeps or may
 * convert-report: 27 ?: cli(): in a macro body
 * convert-report: 115 ?: cli(): in #if 0 code
 * convert-report: 130 cs_interrupt: the handler writes ->tx_busy through a pointer (line 137), as the converted section in cs_xmit() does (line 147)
 */
#include <linux/sched.h>

struct cs_ring {
	int head, tail;
	char buf[64];
};

static struct cs_ring cs_ring;
static int cs_busy, cs_sent;
static char *cs_buf;
static DECLARE_WAIT_QUEUE_HEAD(cs_queue);
#define CS_LOCK(f)	do { save_flags(f); cli(); } while (0)

/*
 * The 2002 wait for the hardware: schedule() inside sleep_on() dropped the
 * global lock and took it again; a spinlock would be held asleep.
 */
static void cs_wait_ready(void)
{
	cli();
	while (cs_busy)
		interruptible_sleep_on(&cs_queue);
	sti();
}

/* A helper with a section of its own, called with a section open. */
static void cs_reset(void)
{
	unsigned long flags;

	save_flags(flags);
	cli();
	cs_ring.head = cs_ring.tail = 0;
	restore_flags(flags);
}

static int cs_open(void)
{
	unsigned long flags;

	save_flags(flags);
	cli();
	cs_reset();
	cs_busy = 0;
	restore_flags(flags);
	return 0;
}

/* An allocation that may sleep, one call down. */
static void cs_alloc(void)
{
	cs_buf = kmalloc(4096, GFP_KERNEL);
}

static void cs_setup(void)
{
	unsigned long flags;

	save_flags(flags);
	cli();
	if (!cs_buf)
		cs_alloc();
	restore_flags(flags);
}

/* A section closed on two paths, the early one returning: converted whole. */
static int cs_send(char c)
{
	unsigned long flags;

	save_flags(flags);
	cli();
	if (cs_ring.head - cs_ring.tail >= 64) {
		restore_flags(flags);
		return -1;
	}
	cs_ring.buf[cs_ring.head++ % 64] = c;
	cs_sent++;
	restore_flags(flags);
	return 0;
}

static int cs_stats(void)
{
	unsigned long flags;
	int n;

	save_flags(flags);
	cli();
	n = cs_sent;
	cs_sent = 0;
	restore_flags(flags);
	return n;
}

#if 0
/* Dead code, which spatch does not parse: its call is reported all the same. */
static void cs_old_reset(void)
{
	cli();
	cs_busy = 0;
	sti();
}
#endif

/*
 * Per-device data: the handler writes a field through dev->priv that a
 * converted section writes too; it cannot be given the file's lock (it
 * returns early), and the report must say it is no longer kept out.
 */
struct cs_priv {
	int tx_busy;
};

static void cs_interrupt(int irq, void *dev_id, struct pt_regs *regs)
{
	struct net_device *dev = dev_id;
	struct cs_priv *lp = (struct cs_priv *)dev->priv;

	if (!lp)
		return;
	lp->tx_busy = 0;
}

static int cs_xmit(struct net_device *dev)
{
	struct cs_priv *lp = (struct cs_priv *)dev->priv;
	unsigned long flags;

	save_flags(flags);
	cli();
	lp->tx_busy = 1;
	restore_flags(flags);
	return 0;
}

static int cs_start(struct net_device *dev)
{
	return request_irq(dev->irq, &cs_interrupt, 0, "cs", dev);
}

/*
 * A section closed and opened again inside the loop that waits for a free
 * buffer (h8.c's shape, without what made spatch refuse that file):
 * converted, the unlock and the lock inside the loop too.
 */
static struct cs_ring *cs_free;

static void cs_grow(void)
{
	cs_free = &cs_ring;
}

static struct cs_ring *cs_take(void)
{
	unsigned long flags;
	struct cs_ring *r;

	save_flags(flags);
	cli();
	while (!cs_free) {
		restore_flags(flags);
		cs_grow();
		save_flags(flags);
		cli();
	}
	r = cs_free;
	cs_free = 0;
	restore_flags(flags);
	return r;
}

/*
 * A path that closes twice: the error path restores the flags and jumps to
 * the exit, which restores them again (isdn_ppp.c's bind). Harmless under
 * cli(); converted, an unlock of a lock no longer held.
 */
static int cs_bind(int unit)
{
	unsigned long flags;
	int ret = 0;

	save_flags(flags);
	cli();
	if (unit < 0) {
		restore_flags(flags);
		ret = -1;
		goto out;
	}
	cs_busy = unit;
out:
	restore_flags(flags);
	return ret;
}

/*
 * The rest of its report, exactly (tests/convert-check): the calls that
 * go with each section left, and each other line.
 * convert-report: 27 ?: save_flags(): in a macro body
 * convert-report: 38 cs_wait_ready: sti(): goes with the cli() on line 35
 * convert-report: 56,60 cs_open: goes with the cli() on line 57
 * convert-report: 74,78 cs_setup: goes with the cli() on line 75
 * convert-report: 117 ?: sti(): in #if 0 code
 * convert-report: 199 cs_bind: cli(): a path of its function closes twice (line 201, then line 207
 * convert-report: 198,201,207 cs_bind: goes with the cli() on line 199
 */
