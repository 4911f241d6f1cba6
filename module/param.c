// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore - enumerated and range-checked module parameters (see
 * include/irqcore_param.h), exported for the modules built on irqcore.
 *
 * The messages name the module that owns the parameter, which need not
 * be irqcore.
 */
#include <linux/cpumask.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/string.h>

#include <irqcore.h>
#include <irqcore_param.h>

#include "biglock.h"
#include "counter.h"
#include "internal.h"
#include "regime.h"

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

/*
 * irqcore's own parameters. They are defined here, below every file that
 * reads them (internal.h declares them), so that no file calls up into
 * main.c for one (tests/circles).
 */

static const char * const ic_inject_names[] = {
	[IC_INJECT_NONE] = "none",
	[IC_INJECT_WARN] = "warn",
	[IC_INJECT_KTAP_FAIL] = "ktap_fail",
	[IC_INJECT_STALL] = "stall",
	[IC_INJECT_LEAK] = "leak",
	[IC_INJECT_HOTPLUG_WINDOW] = "hotplug_window",
	[IC_INJECT_UNLOAD_DISPATCH] = "unload_dispatch",
	[IC_INJECT_LOST_KICK] = "lost_kick",
	NULL
};

int ic_param_inject = IC_INJECT_NONE;
static struct ic_param_enum ic_inject_param = {
	.names = ic_inject_names,
	.value = &ic_param_inject,
};

ic_module_param_enum(inject, ic_inject_param,
		     "Deliberate fault for the runner's self-test: none (default), warn, ktap_fail, stall (regime=biglock: hold cli() past stall_ms), leak (one allocation kmemleak must report), hotplug_window (sleep where CPU hotplug must be held off), unload_dispatch (unload while another CPU is inside a dispatch), lost_kick (unload with a kick lost on another CPU)");

unsigned int ic_param_wait_ms = 10000;
static struct ic_param_range ic_wait_param = {
	.min = 100,
	.max = 60000,
	.value = &ic_param_wait_ms,
};

ic_module_param_range(wait_ms, ic_wait_param,
		      "How long a self-test waits for an interrupt to arrive, in ms (100..60000, default 10000)");

static const char * const ic_counter_names[] = {
	[IC_LAYOUT_SEED] = "seed",
	[IC_LAYOUT_SPLIT] = "split",
	NULL
};

int ic_param_counter = IC_LAYOUT_SPLIT;
static struct ic_param_enum ic_counter_param = {
	.names = ic_counter_names,
	.value = &ic_param_counter,
};

ic_module_param_enum(counter, ic_counter_param,
		     "Counter layout: seed (the seed commit's IRQ_OFFSET 64) or split (2.5.28 release, default)");

static const char * const ic_regime_names[] = {
	[IC_REGIME_NOLOCK] = "nolock",
	[IC_REGIME_BIGLOCK] = "biglock",
	NULL
};

int ic_param_regime = IC_REGIME_NOLOCK;
static struct ic_param_enum ic_regime_param = {
	.names = ic_regime_names,
	.value = &ic_param_regime,
};

ic_module_param_enum(regime, ic_regime_param,
		     "Interrupt core design: nolock (2.5.28, default) or biglock (2.5.27, global cli())");

unsigned int ic_param_stall_ms = 2000;
static struct ic_param_range ic_stall_param = {
	.min = 100,
	.max = 60000,
	.value = &ic_param_stall_ms,
};

ic_module_param_range(stall_ms, ic_stall_param,
		      "regime=biglock: report a wait for the global IRQ lock longer than this, in ms (100..60000, default 2000)");

static const char * const ic_selftest_names[] = {
	[IC_SELFTEST_ALL] = "all",
	[IC_SELFTEST_NONE] = "none",
	[IC_SELFTEST_FAULT] = "fault",
	NULL
};

/*
 * All, unless a kernel configuration chose otherwise (the Kconfig choice
 * of drivers/misc/irqcore/; out of tree there is none).
 */
int ic_param_selftest = IS_ENABLED(CONFIG_IRQCORE_SELFTEST_NONE) ?
			IC_SELFTEST_NONE : IC_SELFTEST_ALL;
static struct ic_param_enum ic_selftest_param = {
	.names = ic_selftest_names,
	.value = &ic_param_selftest,
};

ic_module_param_enum(selftest, ic_selftest_param,
		     "Self-tests at load: all (default), none (for loads that only serve another module, such as the torture test) or fault (CPU hotplug under load; leaves the last CPU offline)");

unsigned int ic_param_fail_alloc;
static struct ic_param_range ic_fail_alloc_param = {
	.min = 0,
	.max = 100000,
	.value = &ic_param_fail_alloc,
};

ic_module_param_range(fail_alloc, ic_fail_alloc_param,
		      "Fault test: fail the N-th allocation or thread creation of irqcore's init (0..100000, default 0: none)");

unsigned int ic_param_nr_irqs = 64;
static struct ic_param_range ic_nr_irqs_param = {
	.min = 16,
	.max = IC_NR_IRQS_MAX,
	.value = &ic_param_nr_irqs,
};

ic_module_param_range(nr_irqs, ic_nr_irqs_param,
		      "Lines of the virtual interrupt controller (16..256, default 64)");

/*
 * nr_cpus=: the length of 2.5.27's irq_stat[] scan (biglock.c), its
 * NR_CPUS. Its bounds are the host's: at least nr_cpu_ids, so that every
 * CPU number the host can give a handler is scanned, and at most the
 * array's IC_NR_CPUS_MAX. 0 until ic_param_defaults() sets the default at
 * load, which depends on the host too.
 */
unsigned int ic_param_nr_cpus;

static int ic_param_nr_cpus_set(const char *val, const struct kernel_param *kp)
{
	unsigned int v;

	if (val && !kstrtouint(val, 0, &v) && v >= nr_cpu_ids && v <= IC_NR_CPUS_MAX) {
		*(unsigned int *)kp->arg = v;
		return 0;
	}
	if (nr_cpu_ids > IC_NR_CPUS_MAX)
		pr_err("%s: invalid %s=%s; valid values: none on this host (%u CPUs possible, irq_stat[] holds %u)\n",
		       ic_param_owner(kp), kp->name, val ?: "(no value)", nr_cpu_ids,
		       IC_NR_CPUS_MAX);
	else
		pr_err("%s: invalid %s=%s; valid range: %u..%u (the CPUs possible here, nr_cpu_ids, up to irq_stat[]'s length)\n",
		       ic_param_owner(kp), kp->name, val ?: "(no value)", nr_cpu_ids,
		       IC_NR_CPUS_MAX);
	return -EINVAL;
}

static const struct kernel_param_ops ic_param_nr_cpus_ops = {
	.flags = KERNEL_PARAM_OPS_FL_NOARG,
	.set = ic_param_nr_cpus_set,
	.get = param_get_uint,
};

module_param_cb(nr_cpus, &ic_param_nr_cpus_ops, &ic_param_nr_cpus, 0444);
MODULE_PARM_DESC(nr_cpus,
		 "regime=biglock: how many irq_stat[] records cli() scans for a running handler, 2.5.27's NR_CPUS (nr_cpu_ids..256; default 32, i386's NR_CPUS in 2002, or nr_cpu_ids if more)");

/**
 * ic_nr_cpus_scanned() - the nr_cpus= of this load.
 *
 * Under regime=biglock, how many irq_stat[] records cli(), sti()'s
 * synchronize_irq() and the rest of 2.5.27's irqs_running() callers walk:
 * the kernel's NR_CPUS, not the CPUs online (the cost records of
 * bench/countscale.c carry both). regime=nolock walks nothing; the value
 * is the parameter's all the same.
 *
 * Context: any, once irqcore has loaded.
 * Return: the length of the scan, nr_cpu_ids..IC_NR_CPUS_MAX.
 */
unsigned int ic_nr_cpus_scanned(void)
{
	return ic_param_nr_cpus;
}
EXPORT_SYMBOL_GPL(ic_nr_cpus_scanned);

/**
 * ic_param_defaults() - the defaults that depend on the host.
 *
 * nr_cpus: IC_NR_CPUS_2002, or nr_cpu_ids where the host can have more
 * CPUs (up to IC_NR_CPUS_MAX; past it regime=biglock refuses to load).
 *
 * Context: process (module init), before ic_print_params("start").
 */
void ic_param_defaults(void)
{
	if (!ic_param_nr_cpus)
		ic_param_nr_cpus = max_t(unsigned int, IC_NR_CPUS_2002, nr_cpu_ids);
}

/**
 * ic_print_params() - print every parameter on one stable line.
 * @when: "start" or "end"; scripts match "irqcore: params(start): ".
 *
 * Context: process.
 */
void ic_print_params(const char *when)
{
	pr_info("params(%s): version=%s regime=%s counter=%s nr_irqs=%u selftest=%s inject=%s wait_ms=%u stall_ms=%u fail_alloc=%u nr_cpus=%u cpus=%u\n",
		when, IC_VERSION_STRING,
		ic_param_enum_name(&ic_regime_param, ic_param_regime),
		ic_param_enum_name(&ic_counter_param, ic_param_counter),
		ic_param_nr_irqs,
		ic_param_enum_name(&ic_selftest_param, ic_param_selftest),
		ic_param_enum_name(&ic_inject_param, ic_param_inject),
		ic_param_wait_ms, ic_param_stall_ms, ic_param_fail_alloc, ic_param_nr_cpus,
		num_online_cpus());
}
