// SPDX-License-Identifier: GPL-2.0
/*
 * ic_join_line - a handler on another driver's shared line, on demand.
 *
 *   echo LINE >/sys/module/ic_join_line/parameters/join   request a
 *        handler of this module on LINE (IC_SA_SHIRQ: it joins the
 *        driver's shared line)
 *   echo 0 >/sys/module/ic_join_line/parameters/join      free it
 *
 * While it is there the line's driver cannot unbind the line: its
 * remove() must say so and not lose the line (devices/unbind.h). The
 * unload frees a handler still requested.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>

#include <irqcore.h>

static DEFINE_MUTEX(icjl_lock);
static unsigned int icjl_line;	/* 0: none joined */
static atomic_t icjl_calls;

static void icjl_handler(unsigned int irq, void *dev_id)
{
	atomic_inc(&icjl_calls);
}

/* Under icjl_lock. */
static void icjl_leave(void)
{
	if (!icjl_line)
		return;
	ic_free_irq(icjl_line, &icjl_line);
	pr_info("left line %u (called %d times)\n", icjl_line, atomic_read(&icjl_calls));
	icjl_line = 0;
}

static int icjl_set(const char *val, const struct kernel_param *kp)
{
	unsigned int line;
	int err;

	err = kstrtouint(val, 0, &line);
	if (err)
		return err;
	mutex_lock(&icjl_lock);
	icjl_leave();
	if (line) {
		err = ic_request_irq(line, icjl_handler, IC_SA_INTERRUPT | IC_SA_SHIRQ,
				     "ic_join_line", &icjl_line);
		if (err)
			pr_err("cannot join line %u: %d\n", line, err);
		else
			icjl_line = line;
		if (!err)
			pr_info("joined line %u\n", line);
	}
	mutex_unlock(&icjl_lock);
	return err;
}

static int icjl_get(char *buf, const struct kernel_param *kp)
{
	unsigned int line;

	mutex_lock(&icjl_lock);
	line = icjl_line;
	mutex_unlock(&icjl_lock);
	return sysfs_emit(buf, "%u\n", line);
}

static const struct kernel_param_ops icjl_ops = {
	.set = icjl_set,
	.get = icjl_get,
};

module_param_cb(join, &icjl_ops, NULL, 0644);
MODULE_PARM_DESC(join, "the line to put a shared handler on; 0 frees it");

static void __exit icjl_exit(void)
{
	mutex_lock(&icjl_lock);
	icjl_leave();
	mutex_unlock(&icjl_lock);
}

module_exit(icjl_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("A shared handler on another driver's irqcore line, for the unbind tests");
