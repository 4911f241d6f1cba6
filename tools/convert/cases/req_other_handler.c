// SPDX-License-Identifier: GPL-2.0
/*
 * expect: rule c. The reset precedes a request_irq(), but of another
 * handler: the one that writes count may be registered already.
 */
static int count;

static irqreturn_t other_a(int irq, void *dev)
{
	return IRQ_HANDLED;
}

static irqreturn_t other_b(int irq, void *dev)
{
	count++;
	return IRQ_HANDLED;
}

static int other_probe_b(void)
{
	return request_irq(6, other_b, 0, "b", NULL);
}

static int other_probe_a(void)
{
	count = 0;
	return request_irq(5, other_a, 0, "a", NULL);
}
