// SPDX-License-Identifier: GPL-2.0
/*
 * expect: rule a (the checker: the sections keep their cli()).
 * Handlers that the converted sections no longer keep out, each reported
 * (issue 40: no section that excluded a handler under global cli() comes
 * out excluding it no more without a report line):
 *
 * - A sound card's handler that takes the lock in the card's struct
 *   (spin_lock(&card->lock)) while the suspend and resume paths save and
 *   restore the card's registers under save_flags(); cli() into a static
 *   array (2.4.17's trident.c): the sections take the file's new lock,
 *   the handler its own, and the two meet no more over the same registers.
 * - A second line's handler that takes no lock and writes no data of the
 *   sections, only acknowledges the card: it shares the registers.
 * - A handler with a cli() section of its own, converted, that counts its
 *   interrupts before it: the count is outside the lock now.
 *
 * And a section that calls through a pointer (an ops table) while a
 * function of the file whose address is taken has a section of its own:
 * refused (the handler of 2.4.17's fdc-io.c works through *fdc.hook).
 * And a section in a macro body, left alone (qlogicfc.c's TRACE()).
 *
 * convert-left: dl_interrupt dl_ack_interrupt dl_rx_interrupt dl_start
 * convert-done: dl_save dl_restore dl_kick
 * convert-report: 43 dl_interrupt: the handler takes a lock of its own, spin_lock(&card->lock) on line 48, not the lock the converted sections (dl_kick(), dl_restore(), dl_rx_interrupt() and 1 more) take now
 * convert-report: 55 dl_ack_interrupt: the handler takes no lock and reaches the device's registers (inb() on line 59) as the converted section in dl_save() does (inl() on line 92)
 * convert-report: 62 dl_rx_interrupt: the handler writes the file's static data on line 67, outside its own converted sections (lines 69-71)
 * convert-report: 137 dl_start: cli(): calls through a pointer on line 139, and dl_kick() of this file, whose address is taken, reaches the cli() section of dl_kick()
 * convert-report: 155 ?: cli(): in a macro body (#define)
 */
struct dl_card {
	unsigned long iobase;
	int irq;
	int events;
	spinlock_t lock;	/* the driver's own, for events */
};

static struct {
	unsigned int regs[8];
} dl_saved;
static int dl_rx_count, dl_rx_irqs;

static void dl_interrupt(int irq, void *dev_id, struct pt_regs *regs)
{
	struct dl_card *card = (struct dl_card *)dev_id;
	unsigned int event;

	spin_lock(&card->lock);
	event = inl(card->iobase + 4);
	card->events++;
	outl(event, card->iobase + 4);
	spin_unlock(&card->lock);
}

static void dl_ack_interrupt(int irq, void *dev_id, struct pt_regs *regs)
{
	struct dl_card *card = (struct dl_card *)dev_id;

	outb(inb(card->iobase + 9), card->iobase + 9);
}

static void dl_rx_interrupt(int irq, void *dev_id, struct pt_regs *regs)
{
	struct dl_card *card = (struct dl_card *)dev_id;
	unsigned long flags;

	dl_rx_irqs++;
	save_flags(flags);
	cli();
	dl_rx_count += inb(card->iobase + 10);
	restore_flags(flags);
}

static int dl_up(struct dl_card *card)
{
	if (request_irq(card->irq + 1, dl_ack_interrupt, 0, "dl", card))
		return -1;
	if (request_irq(card->irq + 2, dl_rx_interrupt, 0, "dl", card))
		return -1;
	return request_irq(card->irq, dl_interrupt, 0, "dl", card);
}

/* Suspend: the card's registers into the static array. */
static void dl_save(struct dl_card *card)
{
	unsigned long flags;
	int i;

	save_flags(flags);
	cli();
	for (i = 0; i < 8; i++)
		dl_saved.regs[i] = inl(card->iobase + 4 * i);
	restore_flags(flags);
}

/* Resume: and back. */
static void dl_restore(struct dl_card *card)
{
	unsigned long flags;
	int i;

	save_flags(flags);
	cli();
	for (i = 0; i < 8; i++)
		outl(dl_saved.regs[i], card->iobase + 4 * i);
	dl_rx_count = 0;
	restore_flags(flags);
}

/*
 * A section that calls through a pointer, where a function of the file
 * whose address is taken has a section of its own: converted, the call
 * could take the lock again (refused: the rules cannot follow pointers).
 */
struct dl_ops {
	void (*kick)(struct dl_card *card);
};

static void dl_kick(struct dl_card *card)
{
	unsigned long flags;

	save_flags(flags);
	cli();
	outb(1, card->iobase + 12);
	dl_rx_count++;
	restore_flags(flags);
}

static struct dl_ops dl_default_ops = { dl_kick };

static void dl_start(struct dl_card *card, struct dl_ops *ops)
{
	unsigned long flags;

	save_flags(flags);
	cli();
	dl_rx_count = 1;
	ops->kick(card);
	restore_flags(flags);
}

/*
 * A section in a macro body (a SCSI host's TRACE(), expanded in its
 * handler and inside its other sections): Coccinelle parses it as a
 * statement, but where it is expanded the rules cannot see: left alone.
 */
static int dl_trace[16], dl_trace_next;

#define DL_TRACE(x)						\
{								\
	unsigned long flags;					\
								\
	save_flags(flags);					\
	cli();							\
	dl_trace[dl_trace_next++ & 15] = (x);			\
	restore_flags(flags);					\
}

/*
 * The rest of its report, exactly (tests/convert-check): the calls that
 * go with each section left, and each other line.
 * convert-report: 136,140 dl_start: goes with the cli() on line 137
 * convert-report: 154 ?: save_flags(): in a macro body (#define)
 * convert-report: 157 ?: restore_flags(): in a macro body (#define)
 */
