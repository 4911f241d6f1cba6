// SPDX-License-Identifier: GPL-2.0
/*
 * irqctl - drive irqcore live through /dev/irqcore (include/uapi/irqcore.h).
 *
 * One invocation is one session: one open file of /dev/irqcore, which owns
 * what its commands make and loses it when irqctl exits. Commands are
 * separated by ':' arguments, or read one a line from a file (-f):
 *
 *   irqctl create cpu=1 rate=1000 : hold cpu=0 hold=2000 period=10000 fire=@1 \
 *          : wait 2 : hist : lock
 *
 * Exit status: 0 done; 1 irqcore refused a request (its errno and reason
 * are printed); 2 bad usage; 3 /dev/irqcore cannot be used (no device, not
 * root, a UAPI version this irqctl does not speak: older than
 * IC_UAPI_OLDEST or newer than its header's); 4 "expect" found a count it
 * did not expect.
 * The man page is irqctl.8 beside this file; docs/irqctl.md has sessions.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/capability.h>

#include "../../include/uapi/irqcore.h"

#include "irqctl.h"

#define EXIT_REFUSED	1
#define EXIT_USAGE	2
#define EXIT_DEVICE	3
#define EXIT_EXPECT	4

struct irqctl irqctl = { .fd = -1 };

/* The synopsis, for usage errors and --help alike. */
static const char *const ic_synopsis =
	"usage: irqctl [--json] [--no-admin] [-f FILE | COMMAND [ARGS] [: COMMAND [ARGS]]...]";

static const char *const ic_commands =
	"version stats cpus list create delete fire affinity hold unhold lock hist reset "
	"threshold stopped top wait expect abi fuzz closefire";

static const struct { int err; const char *name; } ic_errnames[] = {
	{ EINVAL, "EINVAL" }, { ENOENT, "ENOENT" }, { EPERM, "EPERM" }, { EBUSY, "EBUSY" },
	{ ENOSPC, "ENOSPC" }, { EEXIST, "EEXIST" }, { ENOTTY, "ENOTTY" }, { EFAULT, "EFAULT" },
	{ ESRCH, "ESRCH" }, { EMFILE, "EMFILE" }, { ENOMEM, "ENOMEM" }, { EINTR, "EINTR" },
	{ EACCES, "EACCES" }, { ENODEV, "ENODEV" }, { ENXIO, "ENXIO" }, { EAGAIN, "EAGAIN" },
	{ EBADF, "EBADF" },
};

/**
 * ic_errname() - the symbolic name of an errno ("E123" if unknown).
 * @err: a positive errno.
 */
const char *ic_errname(int err)
{
	static char buf[16];
	size_t i;

	for (i = 0; i < sizeof(ic_errnames) / sizeof(ic_errnames[0]); i++)
		if (ic_errnames[i].err == err)
			return ic_errnames[i].name;
	snprintf(buf, sizeof(buf), "E%d", err);
	return buf;
}

/**
 * ic_usage() - a bad argument: say what is valid and exit 2.
 * @fmt: the message, which names the valid values.
 */
void ic_usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "irqctl: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n%s\ncommands: %s (irqctl(8))\n", ic_synopsis, ic_commands);
	exit(EXIT_USAGE);
}

/**
 * ic_ioctl() - one request; on refusal print the errno and reason.
 * @what: the command's name, for the message.
 * @cmd: the request.
 * @arg: its argument.
 *
 * Return: 0, or the positive errno (the caller decides whether that ends
 * the session; ic_request() does).
 */
int ic_ioctl(const char *what, unsigned long cmd, void *arg)
{
	struct ic_ctl_reason r = {};
	int err;

	if (ioctl(irqctl.fd, cmd, arg) == 0)
		return 0;
	err = errno;
	if (ioctl(irqctl.fd, IC_CTL_REASON, &r) != 0 || r.err != err)
		snprintf(r.text, sizeof(r.text), "%s", strerror(err));
	if (!irqctl.quiet)
		fprintf(stderr, "irqctl: %s: %s (%s): %s\n", what, ic_errname(err), strerror(err),
			r.text);
	irqctl.last_err = err;
	return err;
}

/* A request that must work: a refusal ends the session with status 1. */
void ic_request(const char *what, unsigned long cmd, void *arg)
{
	if (ic_ioctl(what, cmd, arg))
		exit(EXIT_REFUSED);
}

/*
 * --no-admin: give up CAP_SYS_ADMIN once the device is open, as a process
 * handed an open file of /dev/irqcore would lack it: reads still work,
 * every change is refused with EPERM (module/ctl.c checks at each request,
 * not at open). Through the raw syscalls: the static build has no libcap.
 */
static void ic_drop_admin(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];
	unsigned int i = CAP_TO_INDEX(CAP_SYS_ADMIN);

	if (syscall(SYS_capget, &h, d) == 0) {
		d[i].effective &= ~CAP_TO_MASK(CAP_SYS_ADMIN);
		d[i].permitted &= ~CAP_TO_MASK(CAP_SYS_ADMIN);
		d[i].inheritable &= ~CAP_TO_MASK(CAP_SYS_ADMIN);
		if (syscall(SYS_capset, &h, d) == 0)
			return;
	}
	fprintf(stderr, "irqctl: --no-admin: cannot drop CAP_SYS_ADMIN: %s\n", strerror(errno));
	exit(EXIT_DEVICE);
}

static void ic_open(void)
{
	struct ic_ctl_version v = {};

	if (irqctl.fd >= 0)
		return;
	irqctl.fd = open(IC_CTL_DEVICE, O_RDWR | O_CLOEXEC);
	if (irqctl.fd < 0) {
		fprintf(stderr, "irqctl: %s: %s (is irqcore loaded? are you root?)\n",
			IC_CTL_DEVICE, strerror(errno));
		exit(EXIT_DEVICE);
	}
	if (ioctl(irqctl.fd, IC_CTL_VERSION, &v) != 0) {
		fprintf(stderr, "irqctl: %s: no version: %s\n", IC_CTL_DEVICE, strerror(errno));
		exit(EXIT_DEVICE);
	}
	/*
	 * The version policy (irqctl(8), VERSIONS): IC_CTL_VERSION is the same
	 * in every version; an older irqcore is spoken down to IC_UAPI_OLDEST
	 * (each difference is known here: ic_cpu_stats_cmd()); a newer one is
	 * refused, since a bump means something changed incompatibly and this
	 * irqctl cannot know what.
	 */
	if (v.uapi_version < IC_UAPI_OLDEST || v.uapi_version > IC_UAPI_VERSION) {
		fprintf(stderr, "irqctl: irqcore speaks UAPI %u; this irqctl speaks %u..%u%s "
			"(irqctl(8), VERSIONS)\n", v.uapi_version, IC_UAPI_OLDEST, IC_UAPI_VERSION,
			v.uapi_version > IC_UAPI_VERSION ? ": a newer irqcore needs a newer irqctl" :
			": older than the control plane");
		exit(EXIT_DEVICE);
	}
	irqctl.version = v;
	if (irqctl.no_admin)
		ic_drop_admin();
}

/**
 * ic_cpu_stats_cmd() - IC_CTL_CPU_STATS in the version irqcore speaks.
 *
 * Version 2's struct ic_ctl_cpu_stats ends before @dispatched; the
 * request's number carries the size, so version 2 has its own number.
 * Return: the request to send.
 */
unsigned long ic_cpu_stats_cmd(void)
{
	if (irqctl.version.uapi_version == 2)
		return _IOC(_IOC_READ | _IOC_WRITE, IC_CTL_MAGIC, _IOC_NR(IC_CTL_CPU_STATS),
			    IC_CPU_STATS_V2_SIZE);
	return IC_CTL_CPU_STATS;
}

/* Split "key=value"; a bare word has value NULL. */
static const char *ic_kv(const char *arg, char *key, size_t len)
{
	const char *eq = strchr(arg, '=');
	size_t n = eq ? (size_t)(eq - arg) : strlen(arg);

	if (n >= len)
		n = len - 1;
	memcpy(key, arg, n);
	key[n] = '\0';
	return eq ? eq + 1 : NULL;
}

/**
 * ic_num() - a number argument within bounds, or a usage error.
 * @cmd: the command, @key: the argument, @val: its text.
 * @min: smallest valid value.
 * @max: largest.
 */
long long ic_num(const char *cmd, const char *key, const char *val, long long min,
		 long long max)
{
	char *end;
	long long v;

	if (!val || !*val)
		ic_usage("%s: %s needs a value (%lld..%lld)", cmd, key, min, max);
	errno = 0;
	v = strtoll(val, &end, 0);
	if (errno || *end || v < min || v > max)
		ic_usage("%s: %s=%s: a number %lld..%lld", cmd, key, val, min, max);
	return v;
}

/* A CPU: a number, or "rr" for round-robin (-1) where @rr allows it. */
static int ic_cpu(const char *cmd, const char *val, bool rr)
{
	if (rr && val && (!strcmp(val, "rr") || !strcmp(val, "-1")))
		return -1;
	if (!val || !*val)
		ic_usage("%s: cpu needs a value (0..%u%s)", cmd, irqctl.version.nr_cpus - 1,
			 rr ? " or rr" : "");
	return (int)ic_num(cmd, "cpu", val, 0, irqctl.version.nr_cpus - 1);
}

/**
 * ic_line() - a line argument: N, @K (the K-th line this session created)
 *	or "last"; anything else is a usage error.
 * @cmd: the command, for the message.
 * @val: the text.
 */
unsigned int ic_line(const char *cmd, const char *val)
{
	long long k;

	if (val && val[0] == '@') {
		k = ic_num(cmd, "line", val + 1, 1, INT32_MAX);
		if (k > irqctl.nr_created)
			ic_usage("%s: line=%s: this session created %u lines (@1..@%u)", cmd, val,
				 irqctl.nr_created, irqctl.nr_created);
		return irqctl.created[k - 1].line;
	}
	if (val && !strcmp(val, "last")) {
		if (!irqctl.nr_created)
			ic_usage("%s: line=last: this session created no line yet", cmd);
		return irqctl.created[irqctl.nr_created - 1].line;
	}
	return (unsigned int)ic_num(cmd, "line", val, 0, irqctl.version.nr_irqs - 1);
}

/* The line of a command that takes one: line= given, else the last created. */
static unsigned int ic_default_line(const char *cmd, bool given, unsigned int line)
{
	if (given)
		return line;
	if (!irqctl.nr_created)
		ic_usage("%s: which line? line=N, line=@K or create one first", cmd);
	return irqctl.created[irqctl.nr_created - 1].line;
}

/* Remember a line the session created, with its counts now (every one: @K, last). */
static void ic_created_add(unsigned int line)
{
	struct ic_ctl_line_stats st = { .line = line, .flags = IC_CTL_F_ANY };

	if (irqctl.nr_created == irqctl.cap_created) {
		unsigned int cap = irqctl.cap_created ? 2 * irqctl.cap_created : 64;
		struct ic_created *c = realloc(irqctl.created, cap * sizeof(*c));

		if (!c) {
			fprintf(stderr, "irqctl: create: out of memory for line %u\n", line);
			exit(EXIT_DEVICE);
		}
		irqctl.created = c;
		irqctl.cap_created = cap;
	}
	ic_request("create", IC_CTL_LINE_STATS, &st);
	irqctl.created[irqctl.nr_created++] = (struct ic_created) {
		.line = line, .base_raised = st.raised, .base_handled = st.handled,
	};
}

static void ic_unknown_arg(const char *cmd, const char *arg, const char *valid)
{
	ic_usage("%s: unknown argument '%s' (valid: %s)", cmd, arg, valid);
}

static const char *const ic_regimes[] = { "nolock", "biglock" };

static void cmd_version(int argc, char **argv)
{
	struct ic_ctl_version v = {};

	if (argc > 1)
		ic_unknown_arg("version", argv[1], "none");
	ic_request("version", IC_CTL_VERSION, &v);
	if (irqctl.json)
		printf("{\"cmd\":\"version\",\"uapi\":%u,\"version\":\"%s\",\"regime\":\"%s\","
		       "\"nr_irqs\":%u,\"nr_cpus\":%u,\"online_cpus\":%u,\"open\":%u}\n",
		       v.uapi_version, v.version, ic_regimes[v.regime & 1], v.nr_irqs, v.nr_cpus,
		       v.online_cpus, v.open);
	else
		printf("irqcore %s uapi=%u regime=%s nr_irqs=%u nr_cpus=%u online_cpus=%u open=%u\n",
		       v.version, v.uapi_version, ic_regimes[v.regime & 1], v.nr_irqs, v.nr_cpus,
		       v.online_cpus, v.open);
}

/**
 * ic_lines() - the lines a read covers.
 * @any: every line with a handler, else this session's.
 * @lines: filled in.
 * @cap: room in @lines.
 *
 * Return: how many were written.
 */
unsigned int ic_lines(bool any, uint32_t *lines, unsigned int cap)
{
	struct ic_ctl_list l = {
		.flags = any ? IC_CTL_F_ANY : 0,
		.capacity = cap,
		.lines_ptr = (uintptr_t)lines,
	};

	ic_request("list", IC_CTL_LIST, &l);
	return l.count;
}

static void ic_print_line_stats(const struct ic_ctl_line_stats *s, bool first)
{
	if (irqctl.json)
		printf("%s{\"line\":%u,\"owned\":%u,\"status\":%u,\"raised\":%" PRIu64
		       ",\"handled\":%" PRIu64 ",\"merged\":%" PRIu64 ",\"latched\":%" PRIu64
		       ",\"inflight\":%" PRIu64 ",\"dropped\":%" PRIu64 ",\"unhandled\":%" PRIu64
		       ",\"reruns\":%" PRIu64 ",\"busy\":%u}",
		       first ? "" : ",", s->line, s->owned, s->status, (uint64_t)s->raised,
		       (uint64_t)s->handled, (uint64_t)s->merged, (uint64_t)s->latched,
		       (uint64_t)s->inflight, (uint64_t)s->dropped, (uint64_t)s->unhandled,
		       (uint64_t)s->reruns, s->busy);
	else
		printf("line %u: owned=%u status=0x%x raised=%" PRIu64 " handled=%" PRIu64
		       " merged=%" PRIu64 " latched=%" PRIu64 " inflight=%" PRIu64
		       " dropped=%" PRIu64 " unhandled=%" PRIu64 " reruns=%" PRIu64 " busy=%u\n",
		       s->line, s->owned, s->status, (uint64_t)s->raised, (uint64_t)s->handled,
		       (uint64_t)s->merged, (uint64_t)s->latched, (uint64_t)s->inflight,
		       (uint64_t)s->dropped, (uint64_t)s->unhandled, (uint64_t)s->reruns,
		       s->busy);
}

static void cmd_stats(int argc, char **argv)
{
	uint32_t lines[IC_NR_IRQS_MAX_TOOL];
	unsigned int n = 0, i;
	bool any = false, given = false;
	unsigned int line = 0;
	char key[32];

	for (i = 1; i < (unsigned int)argc; i++) {
		const char *val = ic_kv(argv[i], key, sizeof(key));

		if (!strcmp(key, "line")) {
			line = ic_line("stats", val);
			given = true;
		} else if (!strcmp(key, "any") && !val) {
			any = true;
		} else {
			ic_unknown_arg("stats", argv[i], "line=N|@K|last, any");
		}
	}
	if (given) {
		lines[0] = line;
		n = 1;
	} else {
		n = ic_lines(any, lines, IC_NR_IRQS_MAX_TOOL);
	}
	if (irqctl.json)
		printf("{\"cmd\":\"stats\",\"lines\":[");
	for (i = 0; i < n; i++) {
		struct ic_ctl_line_stats s = {
			.line = lines[i],
			.flags = any || given ? IC_CTL_F_ANY : 0,
		};

		ic_request("stats", IC_CTL_LINE_STATS, &s);
		ic_print_line_stats(&s, i == 0);
	}
	if (irqctl.json)
		printf("]}\n");
	else if (!n)
		printf("no lines%s\n", any ? " with a handler" : " in this session (any: every line)");
}

static void cmd_cpus(int argc, char **argv)
{
	unsigned int cpu;

	if (argc > 1)
		ic_unknown_arg("cpus", argv[1], "none");
	if (irqctl.json)
		printf("{\"cmd\":\"cpus\",\"cpus\":[");
	for (cpu = 0; cpu < irqctl.version.nr_cpus; cpu++) {
		struct ic_ctl_cpu_stats c = { .cpu = cpu };
		/* UAPI 2 has no dispatched count: the field is left out. */
		bool disp = irqctl.version.uapi_version >= 3;

		ic_request("cpus", ic_cpu_stats_cmd(), &c);
		if (irqctl.json) {
			printf("%s{\"cpu\":%u,\"online\":%u,\"handled\":%" PRIu64 ",\"samples\":%" PRIu64
			       ",\"max_ns\":%" PRIu64 ",\"in_hold\":%" PRIu64,
			       cpu ? "," : "", cpu, c.online, (uint64_t)c.handled,
			       (uint64_t)c.samples, (uint64_t)c.max_ns, (uint64_t)c.in_hold);
			if (disp)
				printf(",\"dispatched\":%" PRIu64, (uint64_t)c.dispatched);
			printf("}");
		} else {
			printf("cpu %u: online=%u handled=%" PRIu64 " samples=%" PRIu64
			       " max_ns=%" PRIu64 " in_hold=%" PRIu64,
			       cpu, c.online, (uint64_t)c.handled, (uint64_t)c.samples,
			       (uint64_t)c.max_ns, (uint64_t)c.in_hold);
			if (disp)
				printf(" dispatched=%" PRIu64, (uint64_t)c.dispatched);
			printf("\n");
		}
	}
	if (irqctl.json)
		printf("]}\n");
}

static void cmd_list(int argc, char **argv)
{
	uint32_t lines[IC_NR_IRQS_MAX_TOOL];
	bool any = argc == 2 && !strcmp(argv[1], "any");
	unsigned int n, i;

	if (argc > 2 || (argc == 2 && !any))
		ic_unknown_arg("list", argv[1], "any");
	n = ic_lines(any, lines, IC_NR_IRQS_MAX_TOOL);
	if (irqctl.json) {
		printf("{\"cmd\":\"list\",\"lines\":[");
		for (i = 0; i < n; i++)
			printf("%s%u", i ? "," : "", lines[i]);
		printf("]}\n");
	} else {
		printf("lines:");
		for (i = 0; i < n; i++)
			printf(" %u", lines[i]);
		printf("\n");
	}
}

static void cmd_create(int argc, char **argv)
{
	struct ic_ctl_source s = { .cpu = -1 };
	char key[32];
	int i;

	for (i = 1; i < argc; i++) {
		const char *val = ic_kv(argv[i], key, sizeof(key));

		if (!strcmp(key, "cpu"))
			s.cpu = ic_cpu("create", val, true);
		else if (!strcmp(key, "rate"))
			s.rate_hz = ic_num("create", "rate", val, 0, IC_CTL_MAX_RATE_HZ);
		else if (!strcmp(key, "busy"))
			s.busy_us = ic_num("create", "busy", val, 0, IC_CTL_MAX_BUSY_US);
		else if (!strcmp(key, "irqoff") && !val)
			s.flags |= IC_SRC_SA_INTERRUPT;
		else if (!strcmp(key, "shared") && !val)
			s.flags |= IC_SRC_SHARED;
		else if (!strcmp(key, "drvlock") && !val)
			s.flags |= IC_SRC_DRVLOCK;
		else if (!strcmp(key, "join")) {
			s.flags |= IC_SRC_JOIN;
			s.line = ic_line("create", val);
		} else {
			ic_unknown_arg("create", argv[i],
				       "cpu=N|rr, rate=HZ, busy=US, irqoff, shared, join=LINE, drvlock");
		}
	}
	ic_request("create", IC_CTL_CREATE, &s);
	ic_created_add(s.line);
	if (irqctl.json)
		printf("{\"cmd\":\"create\",\"line\":%u}\n", s.line);
	else
		printf("created line %u\n", s.line);
}

/* Commands whose arguments are a line and, maybe, one number. */
static void cmd_line_op(int argc, char **argv)
{
	const char *cmd = argv[0];
	bool given = false, any = false;
	unsigned int line = 0;
	long long count = 1;
	int cpu = -2, i;
	char key[32];

	for (i = 1; i < argc; i++) {
		const char *val = ic_kv(argv[i], key, sizeof(key));

		if (!strcmp(key, "line")) {
			line = ic_line(cmd, val);
			given = true;
		} else if (!strcmp(cmd, "fire") && !strcmp(key, "count")) {
			count = ic_num(cmd, "count", val, 1, IC_CTL_MAX_FIRE);
		} else if (!strcmp(cmd, "affinity") && !strcmp(key, "cpu")) {
			cpu = ic_cpu(cmd, val, true);
		} else if (!strcmp(cmd, "affinity") && !strcmp(key, "any") && !val) {
			any = true;
		} else {
			ic_unknown_arg(cmd, argv[i], !strcmp(cmd, "fire") ? "line=N|@K|last, count=N" :
				       !strcmp(cmd, "affinity") ? "line=N|@K|last, cpu=N|rr, any" :
				       "line=N|@K|last");
		}
	}
	if (!strcmp(cmd, "reset") && !given) {
		struct ic_ctl_line l = { .line = IC_CTL_ALL_LINES };

		ic_request(cmd, IC_CTL_HIST_RESET, &l);
		return;
	}
	line = ic_default_line(cmd, given, line);
	if (!strcmp(cmd, "fire")) {
		struct ic_ctl_fire f = { .line = line, .count = (uint32_t)count };

		ic_request(cmd, IC_CTL_FIRE, &f);
	} else if (!strcmp(cmd, "affinity")) {
		struct ic_ctl_affinity a = { .line = line, .cpu = cpu,
					     .flags = any ? IC_CTL_F_ANY : 0 };

		if (cpu == -2)
			ic_usage("affinity: cpu=N|rr is required");
		ic_request(cmd, IC_CTL_AFFINITY, &a);
	} else if (!strcmp(cmd, "delete")) {
		struct ic_ctl_line l = { .line = line };

		ic_request(cmd, IC_CTL_DELETE, &l);
	} else {
		struct ic_ctl_line l = { .line = line };

		ic_request(cmd, IC_CTL_HIST_RESET, &l);
	}
}

static const char *const ic_hold_modes[] = { "auto", "cli", "lock" };

static void cmd_hold(int argc, char **argv)
{
	struct ic_ctl_holder h = { .cpu = -1 };
	char key[32];
	int i;

	for (i = 1; i < argc; i++) {
		const char *val = ic_kv(argv[i], key, sizeof(key));
		unsigned int m;

		if (!strcmp(key, "cpu")) {
			h.cpu = ic_cpu("hold", val, false);
		} else if (!strcmp(key, "hold")) {
			h.hold_us = ic_num("hold", "hold", val, 1, IC_CTL_MAX_HOLD_US);
		} else if (!strcmp(key, "period")) {
			h.period_us = ic_num("hold", "period", val, 2, IC_CTL_MAX_PERIOD_US);
		} else if (!strcmp(key, "fire")) {
			h.fire_line = ic_line("hold", val);
		} else if (!strcmp(key, "mode")) {
			for (m = 0; m < 3 && (!val || strcmp(val, ic_hold_modes[m])); m++)
				;
			if (m == 3)
				ic_usage("hold: mode=%s: auto, cli or lock", val ? val : "");
			h.mode = m;
		} else {
			ic_unknown_arg("hold", argv[i],
				       "cpu=N, hold=US, period=US, mode=auto|cli|lock, fire=LINE");
		}
	}
	if (h.cpu < 0 || !h.hold_us || !h.period_us)
		ic_usage("hold: cpu=N, hold=US and period=US are required");
	ic_request("hold", IC_CTL_HOLD_START, &h);
}

static void cmd_unhold(int argc, char **argv)
{
	if (argc > 1)
		ic_unknown_arg("unhold", argv[1], "none");
	ic_request("unhold", IC_CTL_HOLD_STOP, NULL);
}

static void cmd_lock(int argc, char **argv)
{
	struct ic_ctl_lock_stats s = {};
	uint64_t min;

	if (argc > 1)
		ic_unknown_arg("lock", argv[1], "none");
	ic_request("lock", IC_CTL_LOCK_STATS, &s);
	min = s.held_min_ns == UINT64_MAX ? 0 : s.held_min_ns;
	if (irqctl.json)
		printf("{\"cmd\":\"lock\",\"cli_taken\":%" PRIu64 ",\"cli_waits\":%" PRIu64
		       ",\"enter_spins\":%" PRIu64 ",\"stalls\":%" PRIu64 ",\"self_deadlocks\":%" PRIu64
		       ",\"holding\":%u,\"mode\":\"%s\",\"holds\":%" PRIu64 ",\"hold_ns\":%" PRIu64
		       ",\"held_fired\":%" PRIu64 ",\"held_min_ns\":%" PRIu64 ",\"held_max_ns\":%" PRIu64
		       ",\"in_hold\":%" PRIu64 "}\n",
		       (uint64_t)s.cli_taken, (uint64_t)s.cli_waits, (uint64_t)s.enter_spins,
		       (uint64_t)s.stalls, (uint64_t)s.self_deadlocks, s.holding,
		       ic_hold_modes[s.mode % 3], (uint64_t)s.holds, (uint64_t)s.hold_ns,
		       (uint64_t)s.held_fired, min, (uint64_t)s.held_max_ns, (uint64_t)s.in_hold);
	else
		printf("lock: cli_taken=%" PRIu64 " cli_waits=%" PRIu64 " enter_spins=%" PRIu64
		       " stalls=%" PRIu64 " self_deadlocks=%" PRIu64 "\n"
		       "holder: holding=%u mode=%s holds=%" PRIu64 " hold_ns=%" PRIu64
		       " held_fired=%" PRIu64 " held_min_ns=%" PRIu64 " held_max_ns=%" PRIu64
		       " in_hold=%" PRIu64 "\n",
		       (uint64_t)s.cli_taken, (uint64_t)s.cli_waits, (uint64_t)s.enter_spins,
		       (uint64_t)s.stalls, (uint64_t)s.self_deadlocks, s.holding,
		       ic_hold_modes[s.mode % 3], (uint64_t)s.holds, (uint64_t)s.hold_ns,
		       (uint64_t)s.held_fired, min, (uint64_t)s.held_max_ns, (uint64_t)s.in_hold);
}

static void cmd_threshold(int argc, char **argv)
{
	struct ic_ctl_threshold t = {};
	bool given = false;
	char key[32];
	int i;

	for (i = 1; i < argc; i++) {
		const char *val = ic_kv(argv[i], key, sizeof(key));

		if (!strcmp(key, "us")) {
			t.us = ic_num("threshold", "us", val, 0, IC_CTL_MAX_THRESH_US);
			given = true;
		} else if (!strcmp(key, "traceoff") && !val) {
			t.flags |= IC_THRESH_TRACING_OFF;
		} else {
			ic_unknown_arg("threshold", argv[i], "us=N (0: off), traceoff");
		}
	}
	if (!given)
		ic_usage("threshold: us=N is required (0..%u, 0: off)", IC_CTL_MAX_THRESH_US);
	ic_request("threshold", IC_CTL_THRESHOLD, &t);
}

static void cmd_stopped(int argc, char **argv)
{
	struct ic_ctl_stopped s = {};

	if (argc > 1)
		ic_unknown_arg("stopped", argv[1], "none");
	ic_request("stopped", IC_CTL_STOPPED, &s);
	if (irqctl.json)
		printf("{\"cmd\":\"stopped\",\"stopped\":%u,\"line\":%u,\"cpu\":%u,\"latency_ns\":%"
		       PRIu64 ",\"holder_in_section\":%u,\"tracing_off\":%u,\"cli_taken\":%" PRIu64
		       ",\"enter_spins\":%" PRIu64 "}\n",
		       s.stopped, s.line, s.cpu, (uint64_t)s.latency_ns, s.holder_in_section,
		       s.tracing_off, (uint64_t)s.cli_taken, (uint64_t)s.enter_spins);
	else if (!s.stopped)
		printf("stopped: no (no sample over the threshold)\n");
	else
		printf("stopped: yes line=%u cpu=%u latency_ns=%" PRIu64 " holder_in_section=%u"
		       " tracing_off=%u cli_taken=%" PRIu64 " enter_spins=%" PRIu64 "%s\n",
		       s.line, s.cpu, (uint64_t)s.latency_ns, s.holder_in_section, s.tracing_off,
		       (uint64_t)s.cli_taken, (uint64_t)s.enter_spins,
		       s.tracing_off ? " (trace kept: cat /sys/kernel/tracing/trace)" : "");
}

static volatile sig_atomic_t ic_stop_wait;

static void ic_on_signal(int sig)
{
	(void)sig;
	ic_stop_wait = 1;
}

/**
 * ic_sleep_ms() - sleep, cut short by SIGINT or SIGTERM.
 * @ms: how long.
 */
void ic_sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };

	while (!ic_stop_wait && nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/*
 * wait's seconds: digits with at most one point, at least one digit, and
 * 0..86400. strtod() alone took "" (as 0), "nan" (which no comparison
 * refuses), "inf", hex, exponents and leading blanks. -1 if not.
 */
static double ic_seconds(const char *a)
{
	const char *dot = strchr(a, '.');
	char *end;
	double s;

	if (strspn(a, "0123456789.") != strlen(a) || strcspn(a, "0123456789") == strlen(a) ||
	    (dot && strchr(dot + 1, '.')))
		return -1;
	s = strtod(a, &end);
	return *end || !(s >= 0 && s <= 86400) ? -1 : s;
}

static void cmd_wait(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = ic_on_signal }, old_int, old_term;
	double s = 0;

	if (argc > 2)
		ic_unknown_arg("wait", argv[2], "SECONDS, or nothing (until a signal)");
	if (argc == 2)
		s = ic_seconds(argv[1]);
	if (s < 0)
		ic_usage("wait: '%s': seconds 0..86400, a decimal number (fractions allowed)",
			 argv[1]);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	ic_stop_wait = 0;
	if (argc == 2) {
		ic_sleep_ms((long)(s * 1000));
	} else {
		while (!ic_stop_wait)
			pause();
	}
	/*
	 * Only the wait ends on these: a fire after it (hours at 10 Hz) must
	 * still die of Ctrl-C or kill, which a handler would swallow.
	 */
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
}

/*
 * expect: the tests' check inside a session, so that a run line needs no
 * parser in the guest. "expect WHAT OP VALUE" compares one count:
 *   handled@LINE, raised@LINE (since this session made LINE, if it did),
 *   merged@LINE, hist@LINE (samples over every CPU), in_hold, held_fired, held_min_us, holds, cli_taken, enter_spins,
 *   stopped, open
 * with OP one of == != >= <= > <, VALUE a number or another WHAT.
 */
static uint64_t ic_value(const char *what)
{
	char name[32];
	const char *at = strchr(what, '@');
	size_t n = at ? (size_t)(at - what) : strlen(what);
	struct ic_ctl_lock_stats ls = {};

	if (what[0] >= '0' && what[0] <= '9')
		return (uint64_t)ic_num("expect", "value", what, 0, INT64_MAX);
	if (n >= sizeof(name))
		n = sizeof(name) - 1;
	memcpy(name, what, n);
	name[n] = '\0';
	if (at) {
		unsigned int line = ic_line("expect", at + 1);
		struct ic_ctl_line_stats s = { .line = line, .flags = IC_CTL_F_ANY };
		uint64_t sum = 0;
		unsigned int cpu;

		if (!strcmp(name, "hist")) {
			for (cpu = 0; cpu < irqctl.version.nr_cpus; cpu++) {
				struct ic_ctl_hist h = { .line = line, .cpu = cpu };

				ic_request("expect", IC_CTL_HIST, &h);
				sum += h.count;
			}
			return sum;
		}
		ic_request("expect", IC_CTL_LINE_STATS, &s);
		/* Counted from when this session made the line, if it did. */
		for (cpu = irqctl.nr_created; cpu-- > 0;)
			if (irqctl.created[cpu].line == line) {
				s.handled -= irqctl.created[cpu].base_handled;
				s.raised -= irqctl.created[cpu].base_raised;
				break;
			}
		if (!strcmp(name, "handled"))
			return s.handled;
		if (!strcmp(name, "raised"))
			return s.raised;
		if (!strcmp(name, "merged"))
			return s.merged;
		ic_usage("expect: %s: with @LINE: handled, raised, merged, hist", what);
	}
	if (!strcmp(name, "open"))
		return irqctl.version.open;
	if (!strcmp(name, "stopped")) {
		struct ic_ctl_stopped st = {};

		ic_request("expect", IC_CTL_STOPPED, &st);
		return st.stopped;
	}
	ic_request("expect", IC_CTL_LOCK_STATS, &ls);
	if (!strcmp(name, "in_hold"))
		return ls.in_hold;
	if (!strcmp(name, "held_fired"))
		return ls.held_fired;
	if (!strcmp(name, "held_min_us"))
		return ls.held_min_ns == UINT64_MAX ? 0 : ls.held_min_ns / 1000;
	if (!strcmp(name, "holds"))
		return ls.holds;
	if (!strcmp(name, "cli_taken"))
		return ls.cli_taken;
	if (!strcmp(name, "enter_spins"))
		return ls.enter_spins;
	ic_usage("expect: %s: handled@L, raised@L, merged@L, hist@L, in_hold, held_fired, "
		 "held_min_us, holds, cli_taken, enter_spins, stopped, open, or a number", what);
	return 0;
}

static void cmd_expect(int argc, char **argv)
{
	static const char *const ops[] = { "==", "!=", ">=", "<=", ">", "<" };
	uint64_t a, b;
	bool ok = false;
	unsigned int op;

	if (argc != 4)
		ic_usage("expect: WHAT OP VALUE (OP: == != >= <= > <)");
	for (op = 0; op < 6 && strcmp(argv[2], ops[op]); op++)
		;
	if (op == 6)
		ic_usage("expect: %s: an operator == != >= <= > <", argv[2]);
	a = ic_value(argv[1]);
	b = ic_value(argv[3]);
	switch (op) {
	case 0: ok = a == b; break;
	case 1: ok = a != b; break;
	case 2: ok = a >= b; break;
	case 3: ok = a <= b; break;
	case 4: ok = a > b; break;
	case 5: ok = a < b; break;
	}
	printf("expect %s %s %s: %" PRIu64 " %s %" PRIu64 ": %s\n", argv[1], argv[2], argv[3], a,
	       argv[2], b, ok ? "ok" : "FAILED");
	if (!ok)
		exit(EXIT_EXPECT);
}

static const struct {
	const char *name;
	void (*fn)(int argc, char **argv);
} ic_cmds[] = {
	{ "version", cmd_version }, { "stats", cmd_stats }, { "cpus", cmd_cpus },
	{ "list", cmd_list }, { "create", cmd_create }, { "delete", cmd_line_op },
	{ "fire", cmd_line_op }, { "affinity", cmd_line_op }, { "hold", cmd_hold },
	{ "unhold", cmd_unhold }, { "lock", cmd_lock }, { "hist", cmd_hist },
	{ "reset", cmd_line_op }, { "threshold", cmd_threshold }, { "stopped", cmd_stopped },
	{ "top", cmd_top }, { "wait", cmd_wait }, { "expect", cmd_expect }, { "abi", cmd_abi }, { "fuzz", cmd_fuzz },
	{ "closefire", cmd_closefire },
};

static void ic_run(int argc, char **argv)
{
	size_t i;

	for (i = 0; i < sizeof(ic_cmds) / sizeof(ic_cmds[0]); i++) {
		if (strcmp(argv[0], ic_cmds[i].name))
			continue;
		/* The fuzzer and closefire open their own files; every other command shares one. */
		if (ic_cmds[i].fn != cmd_fuzz && ic_cmds[i].fn != cmd_closefire)
			ic_open();
		ic_cmds[i].fn(argc, argv);
		fflush(stdout);
		return;
	}
	ic_usage("unknown command '%s'", argv[0]);
}

/* Run argv as commands separated by ":" arguments. */
static void ic_run_all(int argc, char **argv)
{
	int start = 0, i;

	for (i = 0; i <= argc; i++) {
		if (i < argc && strcmp(argv[i], ":"))
			continue;
		if (i == start)
			ic_usage("an empty command (two ':' in a row, or one at an end)");
		ic_run(i - start, argv + start);
		start = i + 1;
	}
}

/*
 * -f FILE: a line is what the command line would be: commands separated
 * by ':' words; '#' starts a comment. A line of any length and any number
 * of words (getline(); a fixed buffer once ran the rest of a line over
 * 1023 characters as a command of its own), read and run one at a time so
 * that "-f -" works at a terminal.
 */
static void ic_run_file(const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	char *buf = NULL, **args = NULL;
	size_t len = 0, cap = 0;

	if (!f) {
		fprintf(stderr, "irqctl: -f %s: %s\n", path, strerror(errno));
		exit(EXIT_USAGE);
	}
	while (getline(&buf, &len, f) >= 0) {
		char *tok, *save = NULL, *hash = strchr(buf, '#');
		size_t n = 0;

		if (hash)
			*hash = '\0';
		for (tok = strtok_r(buf, " \t\r\n", &save); tok;
		     tok = strtok_r(NULL, " \t\r\n", &save)) {
			if (n + 1 >= cap) {
				cap = cap ? 2 * cap : 64;
				args = realloc(args, cap * sizeof(*args));
				if (!args) {
					fprintf(stderr, "irqctl: -f %s: out of memory\n", path);
					exit(EXIT_USAGE);
				}
			}
			args[n++] = tok;
		}
		if (n) {
			args[n] = NULL;
			ic_run_all((int)n, args);
		}
	}
	if (ferror(f)) {
		fprintf(stderr, "irqctl: -f %s: %s\n", path, strerror(errno));
		exit(EXIT_USAGE);
	}
	free(args);
	free(buf);
	if (f != stdin)
		fclose(f);
}

int main(int argc, char **argv)
{
	const char *file = NULL;
	int i = 1;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (!strcmp(argv[i], "--json") || !strcmp(argv[i], "-j")) {
			irqctl.json = true;
		} else if (!strcmp(argv[i], "--no-admin")) {
			irqctl.no_admin = true;
		} else if (!strcmp(argv[i], "-f")) {
			if (++i == argc)
				ic_usage("-f needs a FILE (or - for standard input)");
			if (file)
				ic_usage("-f given twice: one FILE a session");
			file = argv[i];
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("%s\ncommands: %s\nexit status: 0 done, 1 refused by irqcore, 2 usage,"
			       " 3 no usable /dev/irqcore, 4 an expect failed\nsee irqctl(8)\n",
			       ic_synopsis, ic_commands);
			return 0;
		} else {
			ic_usage("unknown option '%s' (valid: --json, --no-admin, -f FILE, --help)", argv[i]);
		}
	}
	/* The commands come from FILE or from the arguments, never both: checked before any runs. */
	if (file && i < argc)
		ic_usage("'%s' after -f %s: commands come from FILE or from the arguments, not both",
			 argv[i], file);
	if (file) {
		ic_run_file(file);
		return 0;
	}
	if (i == argc)
		ic_usage("no command");
	ic_run_all(argc - i, argv + i);
	return 0;
}
