/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore - the module's self-tests, run at load and reported as KTAP.
 */
#ifndef IC_SELFTEST_H
#define IC_SELFTEST_H

#include "ktap.h"

/**
 * enum ic_result - the outcome of one self-test case.
 * @IC_PASS: the case held.
 * @IC_FAIL: the case found a fault; it has said why with ic_ktap_diag().
 * @IC_SKIP: the case cannot run here; it has set its skip reason.
 */
enum ic_result {
	IC_PASS,
	IC_FAIL,
	IC_SKIP,
};

/**
 * struct ic_case - one self-test case.
 * @name: the KTAP name, without spaces.
 * @run: runs the case in process context; on IC_SKIP it stores a reason
 *	in *@skip (a string constant).
 */
struct ic_case {
	const char *name;
	enum ic_result (*run)(const char **skip);
};

/**
 * struct ic_suite - a group of cases from one file.
 * @cases: the cases, in order.
 * @nr: how many.
 */
struct ic_suite {
	const struct ic_case *cases;
	unsigned int nr;
};

extern const struct ic_suite ic_delivery_suite;

int ic_selftest_run(void);

#endif /* IC_SELFTEST_H */
