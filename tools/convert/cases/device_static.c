// SPDX-License-Identifier: GPL-2.0
/*
 * expect: rule a (the checker: the original keeps its 2002 calls).
 * Per-device data in a struct defined statically (one card, as 2002's
 * ISA drivers had it), whose struct already has a field called lock (the
 * card's front-panel key switch): the lock added to the struct is named
 * apart (cli_lock), initialised in the static definition; the section
 * and the handler take it through their own pointers.
 *
 * convert-left:
 * convert-done: ds_set_mode
 * convert-output: struct ds_card: int lock; ... spinlock_t cli_lock;
 * convert-output: ds_set_mode: spin_lock_irqsave(&card->cli_lock, flags); ... spin_unlock_irqrestore(&card->cli_lock, flags);
 * convert-output: ds_interrupt: spin_lock(&card->cli_lock); ... card->events++; ... spin_unlock(&card->cli_lock);
 * convert-compile: yes
 */
struct ds_card {
	int mode;
	int events;
	int lock;	/* the front-panel key switch */
};

static struct ds_card ds_card0;

static void ds_interrupt(int irq, void *dev_id, struct pt_regs *regs)
{
	struct ds_card *card = dev_id;

	card->events++;
	card->mode &= ~1;
}

static void ds_set_mode(struct ds_card *card, int mode)
{
	unsigned long flags;

	save_flags(flags);
	cli();
	card->mode = mode;
	card->events = 0;
	restore_flags(flags);
}

static int ds_init(void)
{
	ds_set_mode(&ds_card0, 0);
	return request_irq(5, ds_interrupt, 0, "ds", &ds_card0);
}
