// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore - the one place the trace events of trace.h are instantiated.
 */
#define CREATE_TRACE_POINTS
#include "trace.h"
