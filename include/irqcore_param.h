/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore - module parameters that take a name from a fixed list or a
 * number from a range, for irqcore and for the modules built on it (the
 * torture test uses them too, so that every module of the project refuses
 * bad input the same way).
 *
 * A wrong name must fail the load with a message listing the valid names
 * (as locktorture does for torture_type), so the check lives in the
 * parameter's set() callback: the load then fails before init runs, and
 * nothing is half set up.
 */
#ifndef IRQCORE_PARAM_H
#define IRQCORE_PARAM_H

#include <linux/moduleparam.h>

/**
 * struct ic_param_enum - a parameter whose value is one of @names.
 * @names: the valid names, indexed by value, NULL-terminated.
 * @value: where the index of the chosen name is stored.
 */
struct ic_param_enum {
	const char * const *names;
	int *value;
};

/**
 * struct ic_param_range - an unsigned int parameter limited to [@min, @max].
 * @min: the smallest valid value.
 * @max: the largest valid value.
 * @value: where the value is stored.
 */
struct ic_param_range {
	unsigned int min;
	unsigned int max;
	unsigned int *value;
};

extern const struct kernel_param_ops ic_param_enum_ops;
extern const struct kernel_param_ops ic_param_range_ops;

/**
 * ic_param_enum_name() - the name of value @val of parameter @p.
 * @p: the parameter description.
 * @val: an index into @p->names.
 *
 * Context: any.
 * Return: the name, or "?" for an index outside the list.
 */
const char *ic_param_enum_name(const struct ic_param_enum *p, int val);

struct module;
int ic_param_check_names(struct module *mod);

/*
 * ic_module_param_enum(name, desc_struct, help) - declare a read-only
 * enumerated parameter whose valid names are listed in its description.
 */
#define ic_module_param_enum(name, pe, help)				\
	module_param_cb(name, &ic_param_enum_ops, &(pe), 0444);	\
	MODULE_PARM_DESC(name, help)

/*
 * ic_module_param_range(name, range_struct, help) - declare a read-only
 * unsigned int parameter that refuses values outside its range.
 */
#define ic_module_param_range(name, pr, help)				\
	module_param_cb(name, &ic_param_range_ops, &(pr), 0444);	\
	MODULE_PARM_DESC(name, help)

#endif /* IRQCORE_PARAM_H */
