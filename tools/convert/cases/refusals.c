// SPDX-License-Identifier: GPL-2.0
/*
 * expect: rule a (the checker). The converter's refusals: each section
 * here but the converted ones is left as it was and reported, never
 * guessed; so is each interrupt handler the handler rule cannot lock.
 * convert-left: refuse_early refuse_open refuse_close refuse_nested
 * convert-left: refuse_shared hr_helper hr_own hr_early hr_calls_locker
 * convert-done: convert_plain
 *
 * Each report, by the input's FILE:LINE, function and reason:
 * convert-report: 29 refuse_early: cli(): the section is left by return or goto
 * convert-report: 40 refuse_open: cli(): no sti()/restore_flags() after it in this function
 * convert-report: 47 refuse_close: sti(): no cli()/save_flags() before it in this function
 * convert-report: 53 refuse_nested: cli(): nested cli()
 * convert-report: 81 refuse_shared: cli(): not in a shape the rules convert
 * convert-report: 97 hr_helper: the handler writes the file's static data only through hr_tick()
 * convert-report: 105 hr_own: takes spin_lock() on line 107, not the converted sections' lock
 * convert-report: 113 hr_early: the handler returns or jumps out on line 119
 * convert-report: 124 hr_calls_locker: convert_plain(), which takes the converted sections' lock
 */
static int state;

/* The flags in flight on the early return. */
static int refuse_early(int x)
{
	unsigned long flags;

	save_flags(flags);
	cli();
	if (x)
		return -1;
	state = x;
	restore_flags(flags);
	return 0;
}

/* A cli() whose sti() is in another function. */
static void refuse_open(void)
{
	cli();
	state = 1;
}

static void refuse_close(void)
{
	state = 2;
	sti();
}

/* Nested cli(). */
static void refuse_nested(void)
{
	cli();
	cli();
	state = 3;
	sti();
	sti();
}

/* One that converts. */
static void convert_plain(void)
{
	unsigned long flags;

	save_flags(flags);
	cli();
	state = 4;
	restore_flags(flags);
}

/*
 * A refused section (code between save_flags() and cli()) and a converted
 * one in the same function: the report names this file and its lines.
 */
static void refuse_shared(void)
{
	unsigned long flags;

	save_flags(flags);
	state = 5;
	cli();
	state = 6;
	restore_flags(flags);

	save_flags(flags);
	cli();
	state = 7;
	restore_flags(flags);
}

/* Handlers the handler rule cannot lock. One writes through a helper, */
static void hr_tick(void)
{
	state++;
}

static void hr_helper(int irq, void *dev_id, struct pt_regs *regs)
{
	hr_tick();
}

/* one takes a lock of its own, */
static DEFINE_SPINLOCK(hr_other_lock);

static void hr_own(int irq, void *dev_id, struct pt_regs *regs)
{
	spin_lock(&hr_other_lock);
	state = 8;
	spin_unlock(&hr_other_lock);
}

/* one returns before its write (the read would be left outside the lock). */
static void hr_early(int irq, void *dev_id, struct pt_regs *regs)
{
	int n;

	n = state;
	if (n > 10)
		return;
	state = n + 1;
}

/* and one writes and calls a function whose section takes the lock. */
static void hr_calls_locker(int irq, void *dev_id, struct pt_regs *regs)
{
	state++;
	convert_plain();
}

static int hr_open(unsigned int irq)
{
	return request_irq(irq, hr_helper, SA_INTERRUPT, "helper", NULL) ||
	       request_irq(irq + 1, hr_own, SA_INTERRUPT, "own", NULL) ||
	       request_irq(irq + 2, hr_early, SA_INTERRUPT, "early", NULL) ||
	       request_irq(irq + 3, hr_calls_locker, SA_INTERRUPT, "locker", NULL);
}

/*
 * The rest of its report, exactly (tests/convert-check): the calls that
 * go with each section left, and each other line.
 * convert-report: 28,33 refuse_early: goes with the cli() on line 29
 * convert-report: 54 refuse_nested: cli(): nested cli()
 * convert-report: 56,57 refuse_nested: sti(): goes with the cli() on line 54
 * convert-report: 79 refuse_shared: save_flags(): not in a shape the rules convert
 * convert-report: 83 refuse_shared: restore_flags(): not in a shape the rules convert
 */
