/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqctl - what the tool's files share: the session (one open file of
 * /dev/irqcore) and the helpers every command uses.
 */
#ifndef IRQCTL_H
#define IRQCTL_H

#include <stdbool.h>
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
 * @created: the lines this session created, in order (line=@K).
 * @nr_created: how many.
 * @base_raised: each created line's raised count when it was created
 *	(a line's counts run over every handler it ever had).
 * @base_handled: the same for handled.
 */
struct irqctl {
	int fd;
	bool json;
	bool no_admin;
	bool quiet;
	int last_err;
	struct ic_ctl_version version;
	unsigned int created[64];
	unsigned int nr_created;
	uint64_t base_raised[64];
	uint64_t base_handled[64];
};

extern struct irqctl irqctl;

__attribute__((format(printf, 1, 2), noreturn)) void ic_usage(const char *fmt, ...);
int ic_ioctl(const char *what, unsigned long cmd, void *arg);
void ic_request(const char *what, unsigned long cmd, void *arg);
long long ic_num(const char *cmd, const char *key, const char *val, long long min,
		 long long max);
const char *ic_errname(int err);
unsigned int ic_line(const char *cmd, const char *val);
unsigned int ic_lines(bool any, uint32_t *lines, unsigned int cap);
void ic_sleep_ms(long ms);

/* hist.c */
void cmd_hist(int argc, char **argv);
void cmd_top(int argc, char **argv);

/* fuzz.c */
void cmd_fuzz(int argc, char **argv);
void cmd_abi(int argc, char **argv);

#endif /* IRQCTL_H */
