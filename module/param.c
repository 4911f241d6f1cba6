// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore - enumerated and range-checked module parameters (see
 * include/irqcore_param.h), exported for the modules built on irqcore.
 *
 * The messages name the module that owns the parameter, which need not
 * be irqcore.
 */
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/string.h>

#include <irqcore_param.h>

static const char *ic_param_owner(const struct kernel_param *kp)
{
	return kp->mod ? module_name(kp->mod) : KBUILD_MODNAME;
}

/*
 * Called by the module loader while it parses the load's arguments, before
 * the module's init: returning an error fails the load and leaves nothing
 * behind. The message lists every valid name, so the user need not read
 * the source to find them.
 */
static int ic_param_enum_set(const char *val, const struct kernel_param *kp)
{
	const struct ic_param_enum *p = kp->arg;
	char names[128] = "";
	int i;

	i = __sysfs_match_string(p->names, -1, val);
	if (i >= 0) {
		*p->value = i;
		return 0;
	}

	for (i = 0; p->names[i]; i++) {
		strlcat(names, i ? ", " : "", sizeof(names));
		strlcat(names, p->names[i], sizeof(names));
	}
	pr_err("%s: invalid %s=%s; valid values: %s\n", ic_param_owner(kp),
	       kp->name, val, names);
	return -EINVAL;
}

static int ic_param_enum_get(char *buffer, const struct kernel_param *kp)
{
	const struct ic_param_enum *p = kp->arg;

	return sysfs_emit(buffer, "%s\n", ic_param_enum_name(p, *p->value));
}

const struct kernel_param_ops ic_param_enum_ops = {
	.set = ic_param_enum_set,
	.get = ic_param_enum_get,
};
EXPORT_SYMBOL_GPL(ic_param_enum_ops);

const char *ic_param_enum_name(const struct ic_param_enum *p, int val)
{
	int i;

	for (i = 0; p->names[i]; i++)
		if (i == val)
			return p->names[i];
	return "?";
}
EXPORT_SYMBOL_GPL(ic_param_enum_name);

static int ic_param_range_set(const char *val, const struct kernel_param *kp)
{
	const struct ic_param_range *p = kp->arg;
	unsigned int v;

	if (kstrtouint(val, 0, &v) || v < p->min || v > p->max) {
		pr_err("%s: invalid %s=%s; valid range: %u..%u\n",
		       ic_param_owner(kp), kp->name, val, p->min, p->max);
		return -EINVAL;
	}
	*p->value = v;
	return 0;
}

static int ic_param_range_get(char *buffer, const struct kernel_param *kp)
{
	const struct ic_param_range *p = kp->arg;

	return sysfs_emit(buffer, "%u\n", *p->value);
}

const struct kernel_param_ops ic_param_range_ops = {
	.set = ic_param_range_set,
	.get = ic_param_range_get,
};
EXPORT_SYMBOL_GPL(ic_param_range_ops);
