// SPDX-License-Identifier: GPL-2.0
/*
 * expect: rule c. The handler and the task side each hold a spinlock, but
 * not the same one: neither keeps the other out.
 * The reports, exactly:
 * lint-report: 24 c: the two sides hold different locks
 */
static DEFINE_SPINLOCK(ld_irq_lock);
static DEFINE_SPINLOCK(ld_task_lock);
static int ld_count;

static void ld_handler(int irq, void *dev_id, struct pt_regs *regs)
{
	spin_lock(&ld_irq_lock);
	ld_count++;
	spin_unlock(&ld_irq_lock);
}

static void ld_reset(void)
{
	unsigned long flags;

	spin_lock_irqsave(&ld_task_lock, flags);
	ld_count = 0;
	spin_unlock_irqrestore(&ld_task_lock, flags);
}

static int ld_open(unsigned int irq)
{
	int ret = request_irq(irq, ld_handler, 0, "ld", NULL);

	ld_reset();
	return ret;
}
