// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore - the control plane's context lookups: the refusal record and a
 * descriptor's source by line. The request handlers (ctl.c), the sources
 * (ctlsrc.c) and the holders (ctlhold.c) all use them, so they sit below
 * the three, and none of those calls back up into the file that called it
 * (tests/circles).
 */
#include <linux/kernel.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>

#include "ctl.h"

/**
 * ic_ctl_vrefuse() - record why a request is refused, with a va_list.
 * @ctl: the descriptor's context.
 * @err: the negative errno returned.
 * @fmt: the reason, for IC_CTL_REASON.
 * @args: its arguments.
 *
 * Context: process, @ctl->lock held.
 * Return: @err.
 */
int ic_ctl_vrefuse(struct ic_ctl *ctl, int err, const char *fmt, va_list args)
{
	lockdep_assert_held(&ctl->lock);
	vsnprintf(ctl->reason, sizeof(ctl->reason), fmt, args);
	ctl->reason_err = -err;
	return err;
}

/**
 * ic_ctl_refuse() - record why a request is refused.
 * @ctl: the descriptor's context.
 * @err: the negative errno returned.
 * @fmt: the reason, for IC_CTL_REASON.
 *
 * Context: process, @ctl->lock held.
 * Return: @err, for "return ic_ctl_refuse(...)".
 */
int ic_ctl_refuse(struct ic_ctl *ctl, int err, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	err = ic_ctl_vrefuse(ctl, err, fmt, args);
	va_end(args);
	return err;
}

/**
 * __ic_ctl_find() - a descriptor's source on @line.
 * @ctl: the descriptor's context.
 * @line: a line number (any value).
 *
 * Context: process, @ctl->lock held.
 * Return: the source, or NULL if @line is not one of the descriptor's.
 */
struct ic_ctl_src *__ic_ctl_find(struct ic_ctl *ctl, unsigned int line)
{
	unsigned int i;

	lockdep_assert_held(&ctl->lock);
	for (i = 0; i < IC_CTL_MAX_SOURCES; i++)
		if (ctl->src[i] && ctl->src[i]->line == line)
			return ctl->src[i];
	return NULL;
}
