// SPDX-License-Identifier: GPL-2.0
/* expect: silent. The reset precedes request_irq(); free_irq() waits. */
static int count;

static irqreturn_t req_before_handler(int irq, void *dev)
{
	count++;
	return IRQ_HANDLED;
}

static int req_before_run(void)
{
	int err;

	count = 0;
	err = request_irq(5, req_before_handler, 0, "t", NULL);
	if (err)
		return err;
	msleep(20);
	free_irq(5, NULL);
	count = -1;
	return 0;
}
