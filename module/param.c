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

	/* A bare "name" with no value comes here too (KERNEL_PARAM_OPS_FL_NOARG). */
	i = val ? __sysfs_match_string(p->names, -1, val) : -EINVAL;
	if (i >= 0) {
		*p->value = i;
		return 0;
	}

	for (i = 0; p->names[i]; i++) {
		strlcat(names, i ? ", " : "", sizeof(names));
		strlcat(names, p->names[i], sizeof(names));
	}
	pr_err("%s: invalid %s=%s; valid values: %s\n", ic_param_owner(kp),
	       kp->name, val ?: "(no value)", names);
	return -EINVAL;
}

static int ic_param_enum_get(char *buffer, const struct kernel_param *kp)
{
	const struct ic_param_enum *p = kp->arg;

	return sysfs_emit(buffer, "%s\n", ic_param_enum_name(p, *p->value));
}

const struct kernel_param_ops ic_param_enum_ops = {
	.flags = KERNEL_PARAM_OPS_FL_NOARG,
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

	if (!val || kstrtouint(val, 0, &v) || v < p->min || v > p->max) {
		pr_err("%s: invalid %s=%s; valid range: %u..%u\n",
		       ic_param_owner(kp), kp->name, val ?: "(no value)", p->min, p->max);
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
	.flags = KERNEL_PARAM_OPS_FL_NOARG,
	.set = ic_param_range_set,
	.get = ic_param_range_get,
};
EXPORT_SYMBOL_GPL(ic_param_range_ops);

/* Parameter names compare with '-' and '_' alike, as the kernel's parser does. */
static bool ic_param_name_eq(const char *a, size_t len, const char *b)
{
	size_t i;

	for (i = 0; i < len; i++) {
		char x = a[i] == '-' ? '_' : a[i], y = b[i] == '-' ? '_' : b[i];

		if (!y || x != y)
			return false;
	}
	return !b[len];
}

/**
 * ic_param_check_names() - refuse a load that names a parameter @mod lacks.
 * @mod: the caller's THIS_MODULE.
 *
 * The kernel only warns about an unknown module parameter and loads the
 * module anyway: "irqcore regmie=biglock" would run the default regime
 * while its user believed otherwise. Each module of this project calls
 * this first in its init, which then fails with the valid names listed.
 *
 * Only the first parameter can be checked: parse_args() has cut the
 * string up in place before init runs ("a=b c" is "a\0b\0c" by then, with
 * nothing to say where it ends), so an unknown name after a known one
 * gets the kernel's "unknown parameter ... ignored" warning alone.
 *
 * Context: process (module init, or the initcall of a built-in module).
 * Return: 0, or -EINVAL.
 */
int ic_param_check_names(struct module *mod)
{
	const char *name;
	size_t len;
	char names[256] = "";
	unsigned int i;

	/*
	 * Built into the kernel (THIS_MODULE is NULL) there is no load string
	 * to check: the parameters came from the command line, where the
	 * kernel drops an unknown "irqcore.x=" without a word (it might be
	 * meant for a module loaded later). A wrong value of a known name is
	 * still refused by its set op, and the default kept.
	 */
	if (!mod)
		return 0;
	/* The first name, up to the '=' or space parse_args() has made a NUL. */
	name = skip_spaces(mod->args ?: "");
	len = strcspn(name, "= \t\n");
	/* None, or one of the two that the kernel takes for any module. */
	if (!len || ic_param_name_eq(name, len, "dyndbg") ||
	    ic_param_name_eq(name, len, "async_probe"))
		return 0;
	for (i = 0; i < mod->num_kp; i++)
		if (ic_param_name_eq(name, len, mod->kp[i].name))
			return 0;
	pr_err("%s: invalid parameter name '%.*s'\n", module_name(mod),
	       (int)min_t(size_t, len, 64), name);
	for (i = 0; i < mod->num_kp; i++) {
		strlcat(names, i ? ", " : "", sizeof(names));
		strlcat(names, mod->kp[i].name, sizeof(names));
	}
	pr_err("%s: invalid parameters given; valid values: %s\n", module_name(mod), names);
	return -EINVAL;
}
EXPORT_SYMBOL_GPL(ic_param_check_names);
