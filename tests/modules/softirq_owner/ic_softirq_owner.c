// SPDX-License-Identifier: GPL-2.0
/*
 * ic_softirq_owner - a module that leaves its softirq vector open when it
 * unloads, and a second load of it that raises the vector afterwards.
 *
 *   step=open   (the default) open NET_TX with this module's action, and
 *               never close it: the unload leaves it to irqcore
 *   step=raise  raise NET_TX first (the action of the unloaded module must
 *               not be called: its code is gone), then open the vector,
 *               which must be free, raise it, wait for the action to run,
 *               and close it at unload as a module should
 *
 * Before the rule, the raise of step=raise called freed memory (an oops);
 * open returned nothing and a second open took the vector over silently.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/module.h>

#include <irqcore.h>

static char *step = "open";
module_param(step, charp, 0444);
MODULE_PARM_DESC(step, "open (leave NET_TX open at unload) or raise (raise it after such an unload)");

static atomic_t icso_runs;
static bool icso_open;

static void icso_action(void *data)
{
	atomic_inc(&icso_runs);
}

static int __init icso_init(void)
{
	unsigned int i;
	int err;

	if (!strcmp(step, "open")) {
		err = ic_open_softirq(IC_NET_TX_SOFTIRQ, icso_action, NULL);
		if (err)
			pr_err("open: open_softirq: %d\n", err);
		return err;
	}
	if (strcmp(step, "raise")) {
		pr_err("invalid step=%s; valid values: open, raise\n", step);
		return -EINVAL;
	}
	/* Whatever is installed now runs in ksoftirqd within a few ms. */
	ic_raise_softirq(IC_NET_TX_SOFTIRQ);
	msleep(100);
	err = ic_open_softirq(IC_NET_TX_SOFTIRQ, icso_action, NULL);
	if (err) {
		pr_err("raise: the vector is still taken after its owner unloaded: %d\n", err);
		return -EIO;
	}
	icso_open = true;
	ic_raise_softirq(IC_NET_TX_SOFTIRQ);
	for (i = 0; i < 100 && !atomic_read(&icso_runs); i++)
		msleep(10);
	if (atomic_read(&icso_runs) != 1) {
		pr_err("raise: our own action ran %d times, want 1\n", atomic_read(&icso_runs));
		ic_close_softirq(IC_NET_TX_SOFTIRQ);
		return -EIO;
	}
	pr_info("raise: the vector was closed at its owner's unload and is ours now\n");
	return 0;
}

static void __exit icso_exit(void)
{
	if (icso_open)
		ic_close_softirq(IC_NET_TX_SOFTIRQ);
}

module_init(icso_init);
module_exit(icso_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("irqcore test: a softirq vector left open at unload");
