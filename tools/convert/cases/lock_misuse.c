// SPDX-License-Identifier: GPL-2.0
/*
 * expect: rule d. What a careless conversion of 2002 sections makes, in the
 * shapes the corpus showed: a helper whose own section takes the lock its
 * caller holds (a self-deadlock), the 2002 wait for the hardware under the
 * lock (schedule() gave up the global lock, not a spinlock), an allocation
 * that may sleep, a second unlock on one path, and the lock taken twice in
 * one function. The reports, exactly:
 * lint-report: 34 d: lm_kick() takes &lm_lock, held here: taken twice on one path (through lm_kick())
 * lint-report: 44 d: interruptible_sleep_on() under the spinlock &lm_lock taken on line 42
 * lint-report: 54 d: kmalloc() under the spinlock &lm_lock taken on line 52
 * lint-report: 67 d: spin_unlock_irqrestore(&lm_lock) after it was released on line 65
 * lint-report: 73 d: spin_lock_irq(&lm_lock) while &lm_lock is held since line 72
 */
static DEFINE_SPINLOCK(lm_lock);
static DECLARE_WAIT_QUEUE_HEAD(lm_wait);
static int lm_busy;
static char *lm_buf;

static void lm_kick(void)
{
	unsigned long flags;

	spin_lock_irqsave(&lm_lock, flags);
	lm_busy = 1;
	spin_unlock_irqrestore(&lm_lock, flags);
}

static void lm_open(void)
{
	unsigned long flags;

	spin_lock_irqsave(&lm_lock, flags);
	lm_kick();
	spin_unlock_irqrestore(&lm_lock, flags);
}

static void lm_wait_idle(void)
{
	unsigned long flags;

	spin_lock_irqsave(&lm_lock, flags);
	while (lm_busy)
		interruptible_sleep_on(&lm_wait);
	spin_unlock_irqrestore(&lm_lock, flags);
}

static void lm_alloc(void)
{
	unsigned long flags;

	spin_lock_irqsave(&lm_lock, flags);
	if (!lm_buf)
		lm_buf = kmalloc(512, GFP_KERNEL);
	spin_unlock_irqrestore(&lm_lock, flags);
}

static void lm_close(int now)
{
	unsigned long flags;

	spin_lock_irqsave(&lm_lock, flags);
	lm_busy = 0;
	if (now)
		spin_unlock_irqrestore(&lm_lock, flags);
	lm_buf = 0;
	spin_unlock_irqrestore(&lm_lock, flags);
}

static void lm_reset(void)
{
	spin_lock_irq(&lm_lock);
	spin_lock_irq(&lm_lock);
	lm_busy = 0;
	spin_unlock_irq(&lm_lock);
}
