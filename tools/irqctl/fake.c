// SPDX-License-Identifier: GPL-2.0
/*
 * irqctl's host self-test: a fake /dev/irqcore, linked into a second build
 * of the tool (irqctl-fake, with ld's --wrap=open --wrap=ioctl), so that
 * what irqctl decides by itself can be checked on the host, where there is
 * no irqcore: the UAPI versions it speaks, the session's list of created
 * lines (@K, last), its parsing (wait, -f). selftest.sh runs the cases.
 *
 * The fake answers as irqcore would for the requests those cases use: it
 * reports the UAPI version in $IRQCTL_FAKE_UAPI (default the header's),
 * makes lines from the top free one down, and answers IC_CTL_CPU_STATS
 * only at the size of the version it reports (the size is in the
 * request's number, as the module's switch sees it). Everything else is
 * accepted and answered with zeros.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "irqctl.h"

#define FAKE_NR_IRQS	64
#define FAKE_NR_CPUS	2
#define FAKE_FD		1000

int __real_open(const char *path, int flags, ...);
int __real_ioctl(int fd, unsigned long cmd, void *arg);

static bool fake_line[FAKE_NR_IRQS];
static struct ic_ctl_reason fake_reason;

int __wrap_open(const char *path, int flags, ...)
{
	va_list ap;
	int mode;

	if (!strcmp(path, IC_CTL_DEVICE))
		return FAKE_FD;
	va_start(ap, flags);
	mode = va_arg(ap, int);
	va_end(ap);
	return __real_open(path, flags, mode);
}

static unsigned int fake_uapi(void)
{
	const char *v = getenv("IRQCTL_FAKE_UAPI");

	return v ? (unsigned int)strtoul(v, NULL, 0) : IC_UAPI_VERSION;
}

static int fake_refuse(int err, const char *text)
{
	fake_reason.err = err;
	snprintf(fake_reason.text, sizeof(fake_reason.text), "fake: %s", text);
	errno = err;
	return -1;
}

int __wrap_ioctl(int fd, unsigned long cmd, void *arg)
{
	unsigned int uapi = fake_uapi();
	unsigned long cpu_stats = uapi == 2 ?
		_IOC(_IOC_READ | _IOC_WRITE, IC_CTL_MAGIC, _IOC_NR(IC_CTL_CPU_STATS),
		     offsetof(struct ic_ctl_cpu_stats, dispatched)) : IC_CTL_CPU_STATS;
	int line;

	if (fd != FAKE_FD)
		return __real_ioctl(fd, cmd, arg);
	if (cmd == IC_CTL_VERSION) {
		struct ic_ctl_version *v = arg;

		memset(v, 0, sizeof(*v));
		v->uapi_version = uapi;
		v->nr_irqs = FAKE_NR_IRQS;
		v->nr_cpus = FAKE_NR_CPUS;
		v->online_cpus = FAKE_NR_CPUS;
		v->open = 1;
		snprintf(v->version, sizeof(v->version), "fake");
		return 0;
	}
	if (cmd == IC_CTL_REASON) {
		memcpy(arg, &fake_reason, sizeof(fake_reason));
		return 0;
	}
	if (cmd == cpu_stats) {
		struct ic_ctl_cpu_stats *c = arg;

		/* Only the bytes of the version it speaks, as copy_to_user() would. */
		c->online = 1;
		c->handled = c->cpu + 1;
		if (uapi >= 3)
			c->dispatched = c->cpu + 7;
		return 0;
	}
	if (_IOC_TYPE(cmd) == IC_CTL_MAGIC && _IOC_NR(cmd) == _IOC_NR(IC_CTL_CPU_STATS))
		return fake_refuse(ENOTTY, "IC_CTL_CPU_STATS of another size");
	if (cmd == IC_CTL_CREATE) {
		struct ic_ctl_source *s = arg;

		for (line = FAKE_NR_IRQS - 1; line >= 1 && fake_line[line]; line--)
			;
		if (line < 1)
			return fake_refuse(ENOSPC, "no free line");
		fake_line[line] = true;
		s->line = (unsigned int)line;
		return 0;
	}
	if (cmd == IC_CTL_DELETE) {
		struct ic_ctl_line *l = arg;

		if (l->line >= FAKE_NR_IRQS || !fake_line[l->line])
			return fake_refuse(ENOENT, "not this descriptor's line");
		fake_line[l->line] = false;
		return 0;
	}
	if (cmd == IC_CTL_LINE_STATS) {
		struct ic_ctl_line_stats *s = arg;

		line = (int)s->line;
		memset(s, 0, sizeof(*s));
		s->line = (unsigned int)line;
		s->owned = line < FAKE_NR_IRQS && fake_line[line];
		return 0;
	}
	if (cmd == IC_CTL_LIST) {
		struct ic_ctl_list *l = arg;
		uint32_t *out = (uint32_t *)(uintptr_t)l->lines_ptr;

		l->count = l->total = 0;
		for (line = 1; line < FAKE_NR_IRQS; line++)
			if (fake_line[line]) {
				if (out && l->count < l->capacity)
					out[l->count++] = (uint32_t)line;
				l->total++;
			}
		return 0;
	}
	if (_IOC_TYPE(cmd) != IC_CTL_MAGIC)
		return fake_refuse(ENOTTY, "not irqcore's");
	if (_IOC_DIR(cmd) & _IOC_READ)
		memset(arg, 0, _IOC_SIZE(cmd));
	return 0;
}
