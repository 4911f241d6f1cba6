// SPDX-License-Identifier: GPL-2.0
/*
 * expect: rule d. What a careless conversion of 2002 sections makes, in the
 * shapes the corpus showed: a helper whose own section takes the lock its
 * caller holds (a self-deadlock), the 2002 wait for the hardware under the
 * lock (schedule() gave up the global lock, not a spinlock), an allocation
 * that may sleep, a second unlock on one path, and the lock taken twice in
 * one function; a helper that drops the lock and takes it back is not a
 * retake. The reports, exactly:
 * lint-report: 35 d: lm_kick() takes &lm_lock, held here: taken twice on one path (through lm_kick())
 * lint-report: 45 d: interruptible_sleep_on() under the spinlock &lm_lock taken on line 43
 * lint-report: 55 d: kmalloc() under the spinlock &lm_lock taken on line 53
 * lint-report: 68 d: spin_unlock_irqrestore(&lm_lock) after it was released on line 66
 * lint-report: 74 d: spin_lock_irq(&lm_lock) while &lm_lock is held since line 73
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

/*
 * Not a retake, nor a sleep under the lock: the helper is called with the
 * lock held, drops it while it waits for the hardware (asleep) and takes it
 * back (smc91x.c's PHY reset).
 */
static void lm_settle(void)
{
	spin_unlock_irq(&lm_lock);
	msleep(1);
	lm_busy = 2;
	spin_lock_irq(&lm_lock);
}

static void lm_configure(void)
{
	spin_lock_irq(&lm_lock);
	lm_settle();
	spin_unlock_irq(&lm_lock);
}

/*
 * Not held at the call: the early exit has a section of its own, and the
 * later one opens after the call (pd.c's read loop, converted).
 */
static void lm_read(int err)
{
	unsigned long flags;

	if (err) {
		spin_lock_irqsave(&lm_lock, flags);
		lm_busy = 0;
		spin_unlock_irqrestore(&lm_lock, flags);
		return;
	}
	lm_kick();
	spin_lock_irqsave(&lm_lock, flags);
	lm_busy = 0;
	spin_unlock_irqrestore(&lm_lock, flags);
}
