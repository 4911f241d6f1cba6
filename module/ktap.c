// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore - KTAP version 1 output (see include/irqcore_ktap.h and
 * Documentation/dev-tools/ktap.rst for the format), exported for the
 * modules built on irqcore.
 */
#define pr_fmt(fmt) fmt		/* KTAP lines must carry no prefix */

#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/printk.h>

#include <irqcore_ktap.h>

/**
 * ic_ktap_begin() - start a KTAP document with a plan.
 * @k: the document state, reset here.
 * @planned: how many results will follow.
 *
 * Context: process; not concurrently with other users of @k.
 */
void ic_ktap_begin(struct ic_ktap *k, unsigned int planned)
{
	k->planned = planned;
	k->done = 0;
	k->failed = 0;
	pr_info("KTAP version 1\n");
	pr_info("1..%u\n", planned);
}
EXPORT_SYMBOL_GPL(ic_ktap_begin);

/**
 * ic_ktap_result() - write the next result line.
 * @k: the document state.
 * @ok: whether the case passed (ignored when @skip_reason is set).
 * @name: the case name, without spaces.
 * @skip_reason: NULL, or why the case was skipped.
 *
 * Context: process; not concurrently with other users of @k.
 */
void ic_ktap_result(struct ic_ktap *k, bool ok, const char *name,
		    const char *skip_reason)
{
	k->done++;
	if (skip_reason) {
		pr_info("ok %u %s # SKIP %s\n", k->done, name, skip_reason);
		return;
	}
	if (!ok)
		k->failed++;
	pr_info("%sok %u %s\n", ok ? "" : "not ", k->done, name);
}
EXPORT_SYMBOL_GPL(ic_ktap_result);

/**
 * ic_ktap_diag() - write a diagnostic line ("# ...").
 * @fmt: printf format of the line, without the trailing newline.
 *
 * Context: any; the line may interleave with other CPUs' output.
 */
void ic_ktap_diag(const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_info("# %pV\n", &vaf);
	va_end(args);
}
EXPORT_SYMBOL_GPL(ic_ktap_diag);
