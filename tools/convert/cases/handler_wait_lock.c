// SPDX-License-Identifier: GPL-2.0
/*
 * expect: rule d. A converted driver that waits for its own handler under
 * the lock the handler takes: disable_irq() and synchronize_irq() return
 * only when a running handler has, and the handler is spinning on the lock
 * held here (on another CPU): a deadlock. Under 2002's cli() the handler
 * took no lock and the same code only waited. Directly, and through a
 * helper of the file; not when the wait comes before the lock, or under a
 * lock that no handler takes. The reports, exactly:
 * lint-report: 35 d: disable_irq() under the spinlock &wl_lock taken on line 34: disable_irq() waits for a running wl_interrupt()
 * lint-report: 45 d: synchronize_irq() under the spinlock &wl_lock taken on line 43: synchronize_irq() waits for a running wl_interrupt()
 * lint-report: 57 d: wl_quiet() calls disable_irq() on line 51 under the spinlock &wl_lock held here
 */
static DEFINE_SPINLOCK(wl_lock);
static DEFINE_SPINLOCK(wl_cfg_lock);
static int wl_irq, wl_count, wl_mode, wl_cfg;

static void wl_tick(void)
{
	spin_lock(&wl_lock);
	wl_count++;
	spin_unlock(&wl_lock);
}

static void wl_interrupt(int irq, void *dev_id, struct pt_regs *regs)
{
	wl_tick();
}

static void wl_set_mode(int mode)
{
	unsigned long flags;

	spin_lock_irqsave(&wl_lock, flags);
	disable_irq(wl_irq);
	wl_mode = mode;
	enable_irq(wl_irq);
	spin_unlock_irqrestore(&wl_lock, flags);
}

static void wl_flush(void)
{
	spin_lock_irq(&wl_lock);
	wl_count = 0;
	synchronize_irq(wl_irq);
	spin_unlock_irq(&wl_lock);
}

static void wl_quiet(void)
{
	disable_irq(wl_irq);
}

static void wl_reset(void)
{
	spin_lock_irq(&wl_lock);
	wl_quiet();
	wl_count = 0;
	enable_irq(wl_irq);
	spin_unlock_irq(&wl_lock);
}

static void wl_stop(void)
{
	unsigned long flags;

	disable_irq(wl_irq);
	spin_lock_irqsave(&wl_lock, flags);
	wl_count = 0;
	spin_unlock_irqrestore(&wl_lock, flags);
	enable_irq(wl_irq);
}

static void wl_config(int v)
{
	unsigned long flags;

	spin_lock_irqsave(&wl_cfg_lock, flags);
	disable_irq(wl_irq);
	wl_cfg = v;
	enable_irq(wl_irq);
	spin_unlock_irqrestore(&wl_cfg_lock, flags);
}

static int wl_open(int irq)
{
	wl_irq = irq;
	return request_irq(irq, wl_interrupt, 0, "wl", NULL);
}
