/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqctl - what the tool's files share: the session (one open file of
 * /dev/irqcore) and the helpers every command uses.
 */
#ifndef IRQCTL_H
#define IRQCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../include/uapi/irqcore.h"

/* The most lines a controller has (include/irqcore.h, IC_NR_IRQS_MAX). */
#define IC_NR_IRQS_MAX_TOOL	256

/**
 * struct irqctl - the session.
 * @fd: the open /dev/irqcore, -1 before the first command that needs it.
 * @json: --json: reads print JSON, one object a line.
 * @no_admin: --no-admin: drop CAP_SYS_ADMIN once the device is open.
 * @quiet: do not print refusals (the fuzzer).
 * @last_err: the errno of the last refusal.
 * @version: what IC_CTL_VERSION said at open.
 * @created: the lines this session created, in order (line=@K, last),
 *	as many as it created (a session may create and delete without end;
 *	a fixed array here once made "last" stick at the 64th).
 * @nr_created: how many.
 * @cap_created: room in @created.
 */
struct irqctl {
	int fd;
	bool json;
	bool no_admin;
	bool quiet;
	int last_err;
	struct ic_ctl_version version;
	struct ic_created *created;
	unsigned int nr_created;
	unsigned int cap_created;
};

/**
 * struct ic_created - a line the session created.
 * @line: its number.
 * @base_raised: the line's raised count when it was created (a line's
 *	counts run over every handler it ever had).
 * @base_handled: the same for handled.
 */
struct ic_created {
	unsigned int line;
	uint64_t base_raised;
	uint64_t base_handled;
};

/*
 * The UAPI versions this irqctl speaks (irqctl(8), VERSIONS): from
 * IC_UAPI_OLDEST, the first with the control plane, up to the version of
 * its header. Version 2 differs from 3 only in struct ic_ctl_cpu_stats,
 * whose version-2 layout is a prefix of version 3's (no @dispatched), and
 * so in IC_CTL_CPU_STATS's number, which encodes the size.
 */
#define IC_UAPI_OLDEST		2
#define IC_CPU_STATS_V2_SIZE	offsetof(struct ic_ctl_cpu_stats, dispatched)

extern struct irqctl irqctl;

__attribute__((format(printf, 1, 2), noreturn)) void ic_usage(const char *fmt, ...);
int ic_ioctl(const char *what, unsigned long cmd, void *arg);
void ic_request(const char *what, unsigned long cmd, void *arg);
long long ic_num(const char *cmd, const char *key, const char *val, long long min,
		 long long max);
const char *ic_errname(int err);
unsigned int ic_line(const char *cmd, const char *val);
unsigned int ic_lines(bool any, uint32_t *lines, unsigned int cap);
unsigned long ic_cpu_stats_cmd(void);
void ic_sleep_ms(long ms);

/* hist.c */
void cmd_hist(int argc, char **argv);
void cmd_top(int argc, char **argv);

/* fuzz.c */
void cmd_fuzz(int argc, char **argv);
void cmd_abi(int argc, char **argv);

/* close.c */
void cmd_closefire(int argc, char **argv);

#endif /* IRQCTL_H */
