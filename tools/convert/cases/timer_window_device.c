// SPDX-License-Identifier: GPL-2.0
/*
 * expect: rule c. The handler's line is a device's (the file never raises
 * it): arming and cancelling a timer does not keep it out of the reset.
 */
static int count;
static struct hrtimer tick;

static irqreturn_t tw_handler(int irq, void *dev)
{
	count++;
	return IRQ_HANDLED;
}

static enum hrtimer_restart tw_tick(struct hrtimer *t)
{
	return HRTIMER_NORESTART;
}

static void tw_figure(void)
{
	count = 0;
	hrtimer_start(&tick, 1000, HRTIMER_MODE_REL_HARD);
	msleep(20);
	hrtimer_cancel(&tick);
}

static int tw_probe(void)
{
	int err;

	hrtimer_init(&tick, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	tick.function = tw_tick;
	err = ic_request_irq(5, tw_handler, 0, "t", NULL);
	if (err)
		return err;
	tw_figure();
	return 0;
}
