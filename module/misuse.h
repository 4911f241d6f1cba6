/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore - the report of a misuse of the API (private).
 *
 * The bottom of the module: misuse.c calls nothing of irqcore's, so that
 * every other file may report through it without a circle (tests/circles).
 */
#ifndef IC_MISUSE_H
#define IC_MISUSE_H

#include <linux/compiler.h>

__printf(1, 2) void ic_api_misuse(const char *fmt, ...);
unsigned long ic_api_warnings(void);

#endif /* IC_MISUSE_H */
