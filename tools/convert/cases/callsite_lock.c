// SPDX-License-Identifier: GPL-2.0
/*
 * expect: rule c. What is held at a call site carries into the callee only
 * if every call site holds it: cs_bump() is called once under the
 * handler's lock and once with nothing held.
 * The reports, exactly:
 * lint-report: 21 c: the other side writes it with no protection at all
 */
static DEFINE_SPINLOCK(cs_lock);
static int cs_count;

static void cs_handler(int irq, void *dev_id, struct pt_regs *regs)
{
	spin_lock(&cs_lock);
	cs_count++;
	spin_unlock(&cs_lock);
}

static void cs_bump(void)
{
	cs_count += 2;
}

static void cs_locked(void)
{
	unsigned long flags;

	spin_lock_irqsave(&cs_lock, flags);
	cs_bump();
	spin_unlock_irqrestore(&cs_lock, flags);
}

static void cs_unlocked(void)
{
	cs_bump();
}

static int cs_open(unsigned int irq)
{
	int ret = request_irq(irq, cs_handler, 0, "cs", NULL);

	cs_locked();
	cs_unlocked();
	return ret;
}
