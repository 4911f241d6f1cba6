// SPDX-License-Identifier: GPL-2.0
/*
 * irqctl hist and irqctl top: the latency histograms as text (in the shape
 * of cyclictest -h and rtla timerlat hist: a row per bucket, a column per
 * CPU, empty buckets left out, the overflow bucket always shown, then
 * count/min/avg/max) or JSON, and a refreshing per-line table.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "irqctl.h"

/* The lower bound of a bucket, in us (bucket 0: 0). */
static uint64_t ic_bucket_lo(unsigned int b)
{
	return b ? 1ULL << (b - 1) : 0;
}

static uint64_t ic_avg(const struct ic_ctl_hist *h)
{
	return h->count ? h->sum_ns / h->count : 0;
}

static void ic_hist_json(unsigned int line, const struct ic_ctl_hist *h, unsigned int ncpu)
{
	unsigned int cpu, b;

	printf("{\"cmd\":\"hist\",\"line\":%u,\"frozen\":%u,\"bucket_lo_us\":[", line,
	       ncpu ? h[0].frozen : 0);
	for (b = 0; b < IC_HIST_BUCKETS; b++)
		printf("%s%" PRIu64, b ? "," : "", ic_bucket_lo(b));
	printf("],\"cpus\":[");
	for (cpu = 0; cpu < ncpu; cpu++) {
		printf("%s{\"cpu\":%u,\"count\":%" PRIu64 ",\"min_ns\":%" PRIu64 ",\"avg_ns\":%" PRIu64
		       ",\"max_ns\":%" PRIu64 ",\"buckets\":[",
		       cpu ? "," : "", cpu, (uint64_t)h[cpu].count,
		       h[cpu].count ? (uint64_t)h[cpu].min_ns : 0, ic_avg(&h[cpu]),
		       (uint64_t)h[cpu].max_ns);
		for (b = 0; b < IC_HIST_BUCKETS; b++)
			printf("%s%" PRIu64, b ? "," : "", (uint64_t)h[cpu].buckets[b]);
		printf("]}");
	}
	printf("]}\n");
}

static void ic_hist_text(unsigned int line, const struct ic_ctl_hist *h, unsigned int ncpu)
{
	unsigned int cpu, b;
	char label[32];

	printf("# irqctl hist: raise -> handler latency, line %u, regime %s%s\n", line,
	       irqctl.version.regime ? "biglock" : "nolock",
	       ncpu && h[0].frozen ? " (frozen by the threshold)" : "");
	printf("# %-14s", "us");
	for (cpu = 0; cpu < ncpu; cpu++)
		printf(" %10s%-2u", "CPU", cpu);
	printf("\n");
	for (b = 0; b < IC_HIST_BUCKETS; b++) {
		uint64_t any = 0;

		for (cpu = 0; cpu < ncpu; cpu++)
			any |= h[cpu].buckets[b];
		if (!any && b != IC_HIST_BUCKETS - 1)
			continue;
		if (b == 0)
			snprintf(label, sizeof(label), "<1");
		else if (b == IC_HIST_BUCKETS - 1)
			snprintf(label, sizeof(label), ">=%" PRIu64 " (over)", ic_bucket_lo(b));
		else
			snprintf(label, sizeof(label), "%" PRIu64 "-%" PRIu64, ic_bucket_lo(b),
				 ic_bucket_lo(b + 1) - 1);
		printf("%-16s", label);
		for (cpu = 0; cpu < ncpu; cpu++)
			printf(" %12" PRIu64, (uint64_t)h[cpu].buckets[b]);
		printf("\n");
	}
	printf("# %-14s", "count:");
	for (cpu = 0; cpu < ncpu; cpu++)
		printf(" %12" PRIu64, (uint64_t)h[cpu].count);
	printf("\n# %-14s", "min(us):");
	for (cpu = 0; cpu < ncpu; cpu++)
		printf(" %12" PRIu64, h[cpu].count ? (uint64_t)h[cpu].min_ns / 1000 : 0);
	printf("\n# %-14s", "avg(us):");
	for (cpu = 0; cpu < ncpu; cpu++)
		printf(" %12" PRIu64, ic_avg(&h[cpu]) / 1000);
	printf("\n# %-14s", "max(us):");
	for (cpu = 0; cpu < ncpu; cpu++)
		printf(" %12" PRIu64, (uint64_t)h[cpu].max_ns / 1000);
	printf("\n");
}

/**
 * cmd_hist() - "hist [line=L]": each line's histogram per CPU.
 * @argc: arguments, the command's name first.
 * @argv: them.
 */
void cmd_hist(int argc, char **argv)
{
	uint32_t lines[IC_NR_IRQS_MAX_TOOL];
	struct ic_ctl_hist *h;
	unsigned int ncpu = irqctl.version.nr_cpus, n, i, cpu;

	if (argc > 2 || (argc == 2 && strncmp(argv[1], "line=", 5)))
		ic_usage("hist: unknown argument '%s' (valid: line=N|@K|last)", argv[1]);
	if (argc == 2) {
		lines[0] = ic_line("hist", argv[1] + 5);
		n = 1;
	} else {
		n = ic_lines(false, lines, IC_NR_IRQS_MAX_TOOL);
	}
	h = calloc(ncpu, sizeof(*h));
	if (!h)
		exit(1);
	for (i = 0; i < n; i++) {
		for (cpu = 0; cpu < ncpu; cpu++) {
			memset(&h[cpu], 0, sizeof(h[cpu]));
			h[cpu].line = lines[i];
			h[cpu].cpu = cpu;
			ic_request("hist", IC_CTL_HIST, &h[cpu]);
		}
		if (irqctl.json)
			ic_hist_json(lines[i], h, ncpu);
		else
			ic_hist_text(lines[i], h, ncpu);
	}
	if (!n && !irqctl.json)
		printf("# irqctl hist: this session has no lines (create one first)\n");
	free(h);
}

/**
 * cmd_top() - "top [interval=S] [count=N] [any]": a table refreshed every
 *	S seconds, N times (0: until interrupted), of every line's accounting
 *	with its handler runs per second and, for this session's lines, the
 *	samples per CPU and the largest latency.
 * @argc: arguments, the command's name first.
 * @argv: them.
 */
void cmd_top(int argc, char **argv)
{
	uint64_t prev[IC_NR_IRQS_MAX_TOOL] = {};
	uint32_t lines[IC_NR_IRQS_MAX_TOOL];
	unsigned int ncpu = irqctl.version.nr_cpus, n, i, cpu;
	long long interval = 1, count = 0, round;
	bool any = false, tty = isatty(1);

	for (i = 1; i < (unsigned int)argc; i++) {
		if (!strncmp(argv[i], "interval=", 9))
			interval = ic_num("top", "interval", argv[i] + 9, 1, 3600);
		else if (!strncmp(argv[i], "count=", 6))
			count = ic_num("top", "count", argv[i] + 6, 0, 1000000);
		else if (!strcmp(argv[i], "any"))
			any = true;
		else
			ic_usage("top: unknown argument '%s' (valid: interval=S, count=N, any)",
				 argv[i]);
	}
	for (round = 0; !count || round < count; round++) {
		n = ic_lines(any, lines, IC_NR_IRQS_MAX_TOOL);
		if (tty && !irqctl.json)
			printf("\033[H\033[2J");
		if (!irqctl.json) {
			printf("irqctl top: regime %s, every %llds%s\n",
			       irqctl.version.regime ? "biglock" : "nolock", interval,
			       count ? "" : " (Ctrl-C to stop)");
			printf("%4s %10s %10s %8s %8s %8s %9s", "LINE", "RAISED", "HANDLED", "MERGED",
			       "LATCHED", "INFLIGHT", "RUNS/s");
			for (cpu = 0; cpu < ncpu; cpu++)
				printf("   CPU%-4u", cpu);
			printf(" %9s\n", "MAX(us)");
		} else {
			printf("{\"cmd\":\"top\",\"round\":%lld,\"lines\":[", round);
		}
		for (i = 0; i < n; i++) {
			struct ic_ctl_line_stats s = { .line = lines[i], .flags = IC_CTL_F_ANY };
			uint64_t rate, max = 0;

			ic_request("top", IC_CTL_LINE_STATS, &s);
			rate = round ? (s.handled - prev[lines[i]]) / interval : 0;
			prev[lines[i]] = s.handled;
			if (irqctl.json)
				printf("%s{\"line\":%u,\"raised\":%" PRIu64 ",\"handled\":%" PRIu64
				       ",\"per_s\":%" PRIu64 ",\"cpus\":[",
				       i ? "," : "", s.line, (uint64_t)s.raised,
				       (uint64_t)s.handled, rate);
			else
				printf("%4u %10" PRIu64 " %10" PRIu64 " %8" PRIu64 " %8" PRIu64
				       " %8" PRIu64 " %9" PRIu64,
				       s.line, (uint64_t)s.raised, (uint64_t)s.handled,
				       (uint64_t)s.merged, (uint64_t)s.latched,
				       (uint64_t)s.inflight, rate);
			for (cpu = 0; cpu < ncpu; cpu++) {
				struct ic_ctl_hist h = { .line = lines[i], .cpu = cpu };

				const char *sep = cpu ? "," : "";

				if (!s.owned) {
					if (irqctl.json)
						printf("%snull", sep);
					else
						printf("%10s", "-");
					continue;
				}
				ic_request("top", IC_CTL_HIST, &h);
				if (h.max_ns > max)
					max = h.max_ns;
				if (irqctl.json)
					printf("%s%" PRIu64, sep, (uint64_t)h.count);
				else
					printf("%10" PRIu64, (uint64_t)h.count);
			}
			if (irqctl.json)
				printf("],\"max_ns\":%" PRIu64 "}", max);
			else
				printf(" %9" PRIu64 "\n", max / 1000);
		}
		if (irqctl.json)
			printf("]}\n");
		fflush(stdout);
		if (!count || round + 1 < count)
			ic_sleep_ms(interval * 1000);
	}
}
