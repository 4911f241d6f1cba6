/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore - a KTAP version 1 writer, for irqcore's self-tests and for the
 * modules built on irqcore (the torture test, the benchmarks), so that every
 * module of the project reports its cases the same way.
 *
 * The lines go to the console through printk without any prefix, because
 * KTAP parsers (the host runner, kunit.py parse) match them from the start
 * of the line once the timestamp is stripped.
 */
#ifndef IRQCORE_KTAP_H
#define IRQCORE_KTAP_H

#include <linux/compiler.h>
#include <linux/types.h>

/**
 * struct ic_ktap - the state of one KTAP document.
 * @planned: the plan, "1..@planned".
 * @done: results written so far.
 * @failed: results written as "not ok".
 */
struct ic_ktap {
	unsigned int planned;
	unsigned int done;
	unsigned int failed;
};

void ic_ktap_begin(struct ic_ktap *k, unsigned int planned);
void ic_ktap_result(struct ic_ktap *k, bool ok, const char *name,
		    const char *skip_reason);
__printf(1, 2) void ic_ktap_diag(const char *fmt, ...);

#endif /* IRQCORE_KTAP_H */
