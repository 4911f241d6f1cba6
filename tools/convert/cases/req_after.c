// SPDX-License-Identifier: GPL-2.0
/* expect: rule c. The handler is registered before the reset: a race. */
static int count;

static irqreturn_t req_after_handler(int irq, void *dev)
{
	count++;
	return IRQ_HANDLED;
}

static int req_after_probe(void)
{
	int err = request_irq(5, req_after_handler, 0, "t", NULL);

	count = 0;
	return err;
}
