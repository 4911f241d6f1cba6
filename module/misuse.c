// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore - the report of a misuse of the API: a bad line number, an
 * unbalanced enable, a wait from the line's own handler, a bad
 * restore_flags() value. The caller changes nothing and goes on; the count
 * lets the self-tests see that each misuse they provoke was reported.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/printk.h>

#include "misuse.h"

/* Zero at each load: the module's data is fresh. */
static atomic_long_t ic_warnings;

/**
 * ic_api_misuse() - report a misuse of the API; the caller changes nothing.
 * @fmt: printf format of the message, ending in a newline.
 *
 * The message is rate-limited and is a plain warning line, not a WARN():
 * bad input from a driver is the driver's error, answered with a reason,
 * and the self-tests provoke it on purpose. ic_api_warnings() counts it.
 *
 * Context: any.
 */
void ic_api_misuse(const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	atomic_long_inc(&ic_warnings);
	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_warn_ratelimited("%pV", &vaf);
	va_end(args);
}

/**
 * ic_api_warnings() - how many API misuses were warned about so far.
 *
 * Context: any.
 * Return: the count since load.
 */
unsigned long ic_api_warnings(void)
{
	return atomic_long_read(&ic_warnings);
}
