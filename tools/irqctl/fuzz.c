// SPDX-License-Identifier: GPL-2.0
/*
 * irqctl fuzz: random requests on /dev/irqcore from several processes of
 * several threads at once.
 *
 * Each request is one of: a known request with a struct of chosen values
 * (zero, one, all ones, the line count and its neighbours, the limits and
 * their neighbours, random words), most of them close to valid so that
 * they reach deep (lines made, fired, held); a known number with another
 * size or direction; an unknown number of irqcore's type; a random number
 * of any type but the few the VFS takes for itself (FIFREEZE would freeze
 * devtmpfs). The argument pointer is usually good, sometimes NULL, a
 * kernel-looking address, or the last bytes before an unmapped page.
 * Threads share their process's file and also open and close their own,
 * racing the others' requests; the parent kills workers in the middle of
 * their requests (kill=1) and starts new ones. Every call is bounded
 * (calls=, time=) and the seed is printed so that a run can be repeated
 * (the interleaving of threads cannot).
 *
 * Output, for scripts: "fuzz: seed=S ... calls=N ...",
 * "fuzz: errno ok=N EINVAL=N ..." and the evidence that it reached what it
 * is for, which tests/irqctl/fuzz.sh judges:
 *   "fuzz: accepted create=N fire=N hold=N delete=N busy_max_create=N
 *    busy_max_fire=N hold_max=N": requests that succeeded, by kind (a
 *    create of a handler busy for IC_CTL_MAX_BUSY_US, and a fire of it,
 *    which follows each such create at once; a hold of IC_CTL_MAX_HOLD_US);
 *   "fuzz: raced=N": calls made on a file while another thread of the
 *    process was inside a call on that same file;
 *   "fuzz: ebusy_impossible=N (...)": EBUSY from a request that has no
 *    EBUSY refusal (every read, unhold, reset, threshold, another number
 *    of irqcore's type). Threads that race on one file are serialised by
 *    its lock and wait their turn; EBUSY there is a lock that refuses
 *    instead of waiting (a mutex_trylock()).
 * Exit 0 when calls were made; 4 when none was (the device could not be
 * opened at all).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "irqctl.h"

#define FZ_MAX_PROCS	16
#define FZ_MAX_THREADS	8
#define FZ_NERR		160

/* Kinds of call: each request, then another number of irqcore's type, then any other. */
enum fz_kind {
	FZ_VERSION, FZ_REASON, FZ_LINE_STATS, FZ_CPU_STATS, FZ_LIST, FZ_CREATE, FZ_DELETE,
	FZ_FIRE, FZ_AFFINITY, FZ_HOLD, FZ_UNHOLD, FZ_LOCK_STATS, FZ_HIST, FZ_RESET,
	FZ_THRESHOLD, FZ_STOPPED, FZ_NCMDS, FZ_KIND_MAGIC = FZ_NCMDS, FZ_KIND_OTHER, FZ_NKINDS
};

static const unsigned long fz_cmds[FZ_NCMDS] = {
	[FZ_VERSION] = IC_CTL_VERSION, [FZ_REASON] = IC_CTL_REASON,
	[FZ_LINE_STATS] = IC_CTL_LINE_STATS, [FZ_CPU_STATS] = IC_CTL_CPU_STATS,
	[FZ_LIST] = IC_CTL_LIST, [FZ_CREATE] = IC_CTL_CREATE, [FZ_DELETE] = IC_CTL_DELETE,
	[FZ_FIRE] = IC_CTL_FIRE, [FZ_AFFINITY] = IC_CTL_AFFINITY, [FZ_HOLD] = IC_CTL_HOLD_START,
	[FZ_UNHOLD] = IC_CTL_HOLD_STOP, [FZ_LOCK_STATS] = IC_CTL_LOCK_STATS,
	[FZ_HIST] = IC_CTL_HIST, [FZ_RESET] = IC_CTL_HIST_RESET,
	[FZ_THRESHOLD] = IC_CTL_THRESHOLD, [FZ_STOPPED] = IC_CTL_STOPPED,
};

static const char *const fz_kind_names[FZ_NKINDS] = {
	[FZ_VERSION] = "version", [FZ_REASON] = "reason", [FZ_LINE_STATS] = "line_stats",
	[FZ_CPU_STATS] = "cpu_stats", [FZ_LIST] = "list", [FZ_CREATE] = "create",
	[FZ_DELETE] = "delete", [FZ_FIRE] = "fire", [FZ_AFFINITY] = "affinity",
	[FZ_HOLD] = "hold", [FZ_UNHOLD] = "unhold", [FZ_LOCK_STATS] = "lock_stats",
	[FZ_HIST] = "hist", [FZ_RESET] = "reset", [FZ_THRESHOLD] = "threshold",
	[FZ_STOPPED] = "stopped", [FZ_KIND_MAGIC] = "magic_other", [FZ_KIND_OTHER] = "type_other",
};

/*
 * The kinds that can refuse with EBUSY (include/uapi/irqcore.h, docs/irqctl.md):
 * create (the rate budget, a line not shared, a line bound to a device),
 * delete (the line the holder raises), hold (a holder runs), and, kept out
 * of the judgement, fire and affinity (budgets and device lines) and calls
 * of another type, which other code serves.
 */
static bool fz_ebusy_possible(unsigned int kind)
{
	switch (kind) {
	case FZ_CREATE:
	case FZ_DELETE:
	case FZ_FIRE:
	case FZ_AFFINITY:
	case FZ_HOLD:
	case FZ_KIND_OTHER:
		return true;
	}
	return false;
}

/* Counts shared by every worker process (an anonymous shared mapping). */
struct fz_shared {
	uint64_t calls;
	uint64_t ok;
	uint64_t opens;
	uint64_t raced;
	uint64_t busy_max_create;
	uint64_t busy_max_fire;
	uint64_t hold_max;
	uint64_t kind_ok[FZ_NKINDS];
	uint64_t kind_ebusy[FZ_NKINDS];
	uint64_t errs[FZ_NERR];
};

struct fz_thread {
	uint64_t rng;
	uint64_t calls;
	int fd;			/* the process's shared file */
	int *inflight;		/* calls inside the kernel on @fd, over the process's threads */
	unsigned char *page;	/* a page followed by an unmapped one */
	unsigned int lines[8];	/* lines this thread made, for near-valid requests */
	unsigned int nlines;
};

static struct fz_shared *fz;
static unsigned int fz_nr_irqs = 64;

/*
 * Whether the run has reached what tests/irqctl/fuzz.sh's fuzz/exercised
 * asks for: a create, fire, hold and delete accepted, and a handler of the
 * longest busy time made and fired. A slow guest (a sanitizer kernel on a
 * busy host made 25 creates in 12 s, none of them the longest) gets that
 * far later, so the run goes on past time=S until it has, 4 x S at most.
 */
static bool fz_exercised(void)
{
	return __atomic_load_n(&fz->kind_ok[FZ_CREATE], __ATOMIC_RELAXED) &&
	       __atomic_load_n(&fz->kind_ok[FZ_FIRE], __ATOMIC_RELAXED) &&
	       __atomic_load_n(&fz->kind_ok[FZ_HOLD], __ATOMIC_RELAXED) &&
	       __atomic_load_n(&fz->kind_ok[FZ_DELETE], __ATOMIC_RELAXED) &&
	       __atomic_load_n(&fz->busy_max_fire, __ATOMIC_RELAXED);
}

static uint64_t fz_next(struct fz_thread *t)
{
	/* xorshift64*: small, and the same on every run for a seed. */
	t->rng ^= t->rng >> 12;
	t->rng ^= t->rng << 25;
	t->rng ^= t->rng >> 27;
	return t->rng * 0x2545F4914F6CDD1DULL;
}

static uint32_t fz_below(struct fz_thread *t, uint32_t n)
{
	return n ? (uint32_t)(fz_next(t) % n) : 0;
}

/* A word from the values that sit on the checks' edges. */
static uint32_t fz_word(struct fz_thread *t)
{
	const uint32_t edges[] = {
		0, 1, 2, 0xffffffff, 0x7fffffff, 0x80000000, fz_nr_irqs - 1, fz_nr_irqs,
		IC_CTL_MAX_RATE_HZ, IC_CTL_MAX_RATE_HZ + 1, IC_CTL_MAX_BUSY_US,
		IC_CTL_MAX_BUSY_US + 1, IC_CTL_MAX_FIRE, IC_CTL_MAX_FIRE + 1,
		IC_CTL_MAX_HOLD_US, IC_CTL_MAX_HOLD_US + 1, IC_CTL_ALL_LINES - 1, 16, 64, 255,
	};

	switch (fz_below(t, 4)) {
	case 0:
		return 0;
	case 1:
		return edges[fz_below(t, sizeof(edges) / sizeof(edges[0]))];
	case 2:
		return fz_below(t, 70);
	}
	return (uint32_t)fz_next(t);
}

/* The kind of a call: which request it is (by its whole number), or neither. */
static unsigned int fz_kind_of(unsigned long cmd)
{
	unsigned int k;

	for (k = 0; k < FZ_NCMDS; k++)
		if (fz_cmds[k] == cmd)
			return k;
	return _IOC_TYPE(cmd) == IC_CTL_MAGIC ? FZ_KIND_MAGIC : FZ_KIND_OTHER;
}

/* A line for a near-valid request: one of ours mostly, else any. */
static uint32_t fz_line(struct fz_thread *t)
{
	if (t->nlines && fz_below(t, 4))
		return t->lines[fz_below(t, t->nlines)];
	return fz_below(t, fz_nr_irqs + 2);
}

/* Fill @buf for @cmd with values close to valid (they pass most checks). */
static void fz_near_valid(struct fz_thread *t, unsigned long cmd, uint32_t *w)
{
	switch (cmd) {
	case IC_CTL_CREATE:	/* line, cpu, rate, busy, flags */
		w[0] = fz_below(t, 8) ? 0 : fz_line(t);
		w[1] = fz_below(t, 3) - 1;
		w[2] = fz_below(t, 4) ? fz_below(t, 300) : fz_word(t);
		w[3] = fz_below(t, 40);
		w[4] = fz_below(t, 8) ? fz_below(t, 16) & ~IC_SRC_JOIN : fz_word(t);
		if (w[0])
			w[4] = IC_SRC_JOIN;
		/*
		 * A quarter: busy times up to the limit, half of them the limit
		 * itself, raised by fire alone or a slow timer (a handler of 1 ms
		 * at 300 Hz on every thread's lines would leave a TCG guest
		 * little else); fz_call() fires each such line once it is made.
		 */
		if (!fz_below(t, 4)) {
			const uint32_t edge[] = { IC_CTL_MAX_BUSY_US - 1, IC_CTL_MAX_BUSY_US + 1 };

			if (fz_below(t, 2))
				w[3] = IC_CTL_MAX_BUSY_US;
			else if (fz_below(t, 2))
				w[3] = edge[fz_below(t, 2)];
			else
				w[3] = fz_below(t, IC_CTL_MAX_BUSY_US);
			w[2] = fz_below(t, 4) ? 0 : fz_below(t, 20);
		}
		break;
	case IC_CTL_FIRE:	/* line, count */
		w[0] = fz_line(t);
		w[1] = 1 + fz_below(t, 64);
		break;
	case IC_CTL_AFFINITY:	/* line, cpu, flags */
		w[0] = fz_line(t);
		w[1] = fz_below(t, 4) - 1;
		w[2] = fz_below(t, 2);
		break;
	case IC_CTL_HOLD_START:	/* cpu, hold, period, mode, fire_line */
		w[0] = fz_below(t, 2);
		w[1] = 1 + fz_below(t, 300);
		w[2] = 1000 + fz_below(t, 9000);
		w[3] = fz_below(t, 4);
		w[4] = fz_below(t, 2) ? fz_line(t) : 0;
		/* An eighth: the longest section, at the shortest period it may have. */
		if (!fz_below(t, 8)) {
			w[1] = IC_CTL_MAX_HOLD_US;
			w[2] = IC_CTL_MAX_HOLD_US * 100 / IC_CTL_MAX_DUTY_PCT;
		}
		break;
	case IC_CTL_THRESHOLD:	/* us, flags: tracing stays on */
		w[0] = fz_below(t, 5000);
		w[1] = 0;
		break;
	default:		/* line or cpu first, flags next */
		w[0] = fz_below(t, 2) ? fz_line(t) : fz_below(t, 3);
		w[1] = fz_below(t, 3);
		if (cmd == IC_CTL_LIST) {
			w[0] = fz_below(t, 2);
			w[1] = fz_below(t, 8);
			uint64_t p = (uintptr_t)(t->page + 4096 - 4 * fz_below(t, 12));

			memcpy(&w[2], &p, sizeof(p));
		}
		break;
	}
}

/* One request on @fd, counted; the errno or 0. */
static int fz_ioctl(struct fz_thread *t, int fd, unsigned long cmd, void *arg)
{
	unsigned int kind = fz_kind_of(cmd);
	bool shared = fd == t->fd;
	int ret, err;

	/* Another thread inside a call on this same file: the two race for its lock. */
	if (shared && __atomic_fetch_add(t->inflight, 1, __ATOMIC_SEQ_CST) > 0)
		__atomic_fetch_add(&fz->raced, 1, __ATOMIC_RELAXED);
	ret = ioctl(fd, cmd, arg);
	err = ret ? errno : 0;
	if (shared)
		__atomic_fetch_sub(t->inflight, 1, __ATOMIC_SEQ_CST);
	__atomic_fetch_add(&fz->calls, 1, __ATOMIC_RELAXED);
	if (!err) {
		__atomic_fetch_add(&fz->ok, 1, __ATOMIC_RELAXED);
		__atomic_fetch_add(&fz->kind_ok[kind], 1, __ATOMIC_RELAXED);
	} else {
		__atomic_fetch_add(&fz->errs[err < FZ_NERR ? err : 0], 1, __ATOMIC_RELAXED);
		if (err == EBUSY)
			__atomic_fetch_add(&fz->kind_ebusy[kind], 1, __ATOMIC_RELAXED);
	}
	return err;
}

/* One random request on @fd. */
static void fz_call(struct fz_thread *t, int fd)
{
	uint32_t buf[160] = {};
	unsigned long cmd = fz_cmds[fz_below(t, FZ_NCMDS)];
	unsigned int i, kind = fz_below(t, 100);
	void *arg = buf;
	int err;

	if (kind < 50) {
		fz_near_valid(t, cmd, buf);
	} else if (kind < 75) {
		for (i = 0; i < 16; i++)
			buf[i] = fz_below(t, 2) ? fz_word(t) : 0;
	} else if (kind < 85) {
		/* A known number with another size or direction. */
		cmd = _IOC(fz_below(t, 4), IC_CTL_MAGIC, _IOC_NR(cmd), fz_below(t, 600));
	} else if (kind < 93) {
		cmd = _IOC(fz_below(t, 4), IC_CTL_MAGIC, fz_below(t, 256), fz_below(t, 300));
	} else {
		unsigned int type;

		/* Any type but those the VFS serves itself (do_vfs_ioctl()). */
		do
			type = fz_below(t, 256);
		while (type == 'X' || type == 'f' || type == 0x94 || type == 'T' || type == 0x15);
		cmd = _IOC(fz_below(t, 4), type, fz_below(t, 256), fz_below(t, 1024));
	}
	switch (fz_below(t, 40)) {
	case 0:
		arg = NULL;
		break;
	case 1:
		arg = (void *)0xffffffff81000000UL;
		break;
	case 2:
		/* The request's struct straddles the end of the mapping. */
		arg = t->page + 4096 - 8 * (1 + fz_below(t, 8));
		memcpy(arg, buf, 4096 - (size_t)((unsigned char *)arg - t->page));
		break;
	}
	err = fz_ioctl(t, fd, cmd, arg);
	if (err || arg != buf)
		return;
	if (cmd == IC_CTL_HOLD_START && buf[1] == IC_CTL_MAX_HOLD_US)
		__atomic_fetch_add(&fz->hold_max, 1, __ATOMIC_RELAXED);
	if (cmd != IC_CTL_CREATE)
		return;
	/* Remember the line (the oldest one makes room when eight are known). */
	t->lines[t->nlines < 8 ? t->nlines++ : fz_below(t, 8)] = buf[0];
	if (buf[3] == IC_CTL_MAX_BUSY_US) {
		/* A handler busy for the longest time allowed: make it run. */
		struct ic_ctl_fire f = { .line = buf[0], .count = 1 + fz_below(t, 2) };

		__atomic_fetch_add(&fz->busy_max_create, 1, __ATOMIC_RELAXED);
		if (!fz_ioctl(t, fd, IC_CTL_FIRE, &f))
			__atomic_fetch_add(&fz->busy_max_fire, 1, __ATOMIC_RELAXED);
	}
}

static void *fz_thread_fn(void *p)
{
	struct fz_thread *t = p;
	uint64_t i;
	int own = -1;

	for (i = 0; i < t->calls; i++) {
		/* Now and then a file of its own: opened, used, closed (all torn down). */
		if (fz_below(t, 64) == 0) {
			if (own >= 0) {
				close(own);
				own = -1;
				t->nlines = 0;
			} else {
				own = open(IC_CTL_DEVICE, O_RDWR | O_CLOEXEC);
				__atomic_fetch_add(&fz->opens, 1, __ATOMIC_RELAXED);
			}
		}
		fz_call(t, own >= 0 && fz_below(t, 2) ? own : t->fd);
	}
	if (own >= 0)
		close(own);
	return NULL;
}

/* One worker process: @threads threads, @calls calls between them. */
static void fz_worker(uint64_t seed, unsigned int threads, uint64_t calls)
{
	struct fz_thread t[FZ_MAX_THREADS];
	pthread_t tid[FZ_MAX_THREADS];
	int fd = open(IC_CTL_DEVICE, O_RDWR | O_CLOEXEC);
	static int inflight;
	unsigned int i;

	if (fd < 0)
		_exit(3);
	__atomic_fetch_add(&fz->opens, 1, __ATOMIC_RELAXED);
	for (i = 0; i < threads; i++) {
		unsigned char *m = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (m == MAP_FAILED)
			_exit(1);
		mprotect(m + 4096, 4096, PROT_NONE);
		memset(&t[i], 0, sizeof(t[i]));
		t[i].rng = seed * 0x9E3779B97F4A7C15ULL + i + 1;
		t[i].calls = calls / threads;
		t[i].fd = fd;
		t[i].inflight = &inflight;
		t[i].page = m;
		if (pthread_create(&tid[i], NULL, fz_thread_fn, &t[i]))
			_exit(1);
	}
	for (i = 0; i < threads; i++)
		pthread_join(tid[i], NULL);
	_exit(0);
}

static pid_t fz_start(uint64_t seed, unsigned int threads, uint64_t calls)
{
	pid_t pid = fork();

	if (pid == 0)
		fz_worker(seed, threads, calls);
	return pid;
}

static double fz_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/**
 * cmd_fuzz() - "fuzz [seed=S] [calls=N] [procs=P] [threads=T] [time=S] [kill=0|1]".
 * @argc: arguments, the command's name first.
 * @argv: them.
 */
void cmd_fuzz(int argc, char **argv)
{
	long long seed = time(NULL) & 0xffffff, calls = 20000, procs = 4, threads = 4;
	long long limit = 50, kill_them = 1, kills = 0, started = 0;
	pid_t pids[FZ_MAX_PROCS];
	double t0 = fz_now();
	unsigned int alive, i;
	uint64_t rng, ebusy_impossible = 0;
	int e, fd;

	for (i = 1; i < (unsigned int)argc; i++) {
		const char *v = strchr(argv[i], '=');

		if (!v)
			ic_usage("fuzz: '%s' (valid: seed=S, calls=N, procs=P, threads=T, time=S, kill=0|1)",
				 argv[i]);
		v++;
		if (!strncmp(argv[i], "seed=", 5))
			seed = ic_num("fuzz", "seed", v, 0, 0xffffffffLL);
		else if (!strncmp(argv[i], "calls=", 6))
			calls = ic_num("fuzz", "calls", v, 1, 100000000);
		else if (!strncmp(argv[i], "procs=", 6))
			procs = ic_num("fuzz", "procs", v, 1, FZ_MAX_PROCS);
		else if (!strncmp(argv[i], "threads=", 8))
			threads = ic_num("fuzz", "threads", v, 1, FZ_MAX_THREADS);
		else if (!strncmp(argv[i], "time=", 5))
			limit = ic_num("fuzz", "time", v, 1, 3600);
		else if (!strncmp(argv[i], "kill=", 5))
			kill_them = ic_num("fuzz", "kill", v, 0, 1);
		else
			ic_usage("fuzz: '%s' (valid: seed=S, calls=N, procs=P, threads=T, time=S, kill=0|1)",
				 argv[i]);
	}
	fd = open(IC_CTL_DEVICE, O_RDWR | O_CLOEXEC);
	if (fd >= 0) {
		struct ic_ctl_version v = {};

		if (!ioctl(fd, IC_CTL_VERSION, &v))
			fz_nr_irqs = v.nr_irqs;
		close(fd);
	}
	fz = mmap(NULL, sizeof(*fz), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (fz == MAP_FAILED)
		exit(1);
	memset(fz, 0, sizeof(*fz));
	printf("fuzz: seed=%lld calls=%lld procs=%lld threads=%lld time=%lld kill=%lld"
	       " (replay: irqctl fuzz seed=%lld calls=%lld procs=%lld threads=%lld kill=%lld)\n",
	       seed, calls, procs, threads, limit, kill_them, seed, calls, procs, threads,
	       kill_them);
	fflush(stdout);
	rng = (uint64_t)seed * 2654435761ULL + 1;
	for (i = 0; i < procs; i++)
		pids[i] = fz_start((uint64_t)seed + 1000 * started++, threads, calls / procs);
	alive = procs;
	while (alive && (fz_now() - t0 < limit || (!fz_exercised() && fz_now() - t0 < 4 * limit))) {
		int status;
		pid_t pid;

		rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
		ic_sleep_ms(20 + (rng >> 33) % 200);
		/* A worker killed mid-request; a new one takes its place, twice per slot at most. */
		if (kill_them && kills < 2 * procs) {
			i = (rng >> 40) % procs;
			if (pids[i] > 0 && kill(pids[i], SIGKILL) == 0) {
				waitpid(pids[i], NULL, 0);
				kills++;
				pids[i] = fz_start((uint64_t)seed + 1000 * started++, threads,
						   calls / procs / 2);
			}
		}
		while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
			for (i = 0; i < procs; i++)
				if (pids[i] == pid) {
					pids[i] = 0;
					alive--;
				}
	}
	for (i = 0; i < procs; i++)
		if (pids[i] > 0) {
			kill(pids[i], SIGKILL);
			waitpid(pids[i], NULL, 0);
		}
	printf("fuzz: seed=%lld calls=%" PRIu64 " ok=%" PRIu64 " opens=%" PRIu64
	       " workers=%lld killed=%lld seconds=%.1f\n",
	       seed, fz->calls, fz->ok, fz->opens, started, kills, fz_now() - t0);
	printf("fuzz: errno ok=%" PRIu64, fz->ok);
	for (e = 1; e < FZ_NERR; e++)
		if (fz->errs[e])
			printf(" %s=%" PRIu64, ic_errname(e), fz->errs[e]);
	if (fz->errs[0])
		printf(" other=%" PRIu64, fz->errs[0]);
	printf("\n");
	printf("fuzz: accepted create=%" PRIu64 " fire=%" PRIu64 " hold=%" PRIu64 " delete=%" PRIu64
	       " busy_max_create=%" PRIu64 " busy_max_fire=%" PRIu64 " hold_max=%" PRIu64 "\n",
	       fz->kind_ok[FZ_CREATE], fz->kind_ok[FZ_FIRE], fz->kind_ok[FZ_HOLD],
	       fz->kind_ok[FZ_DELETE], fz->busy_max_create,
	       fz->busy_max_fire, fz->hold_max);
	printf("fuzz: raced=%" PRIu64
	       " (calls on a file with another of its process's threads in a call on it)\n",
	       fz->raced);
	for (i = 0; i < FZ_NKINDS; i++)
		if (!fz_ebusy_possible(i))
			ebusy_impossible += fz->kind_ebusy[i];
	printf("fuzz: ebusy_impossible=%" PRIu64 " (EBUSY by request, ! where it has none:",
	       ebusy_impossible);
	for (i = 0; i < FZ_NKINDS; i++)
		if (fz->kind_ebusy[i])
			printf(" %s%s=%" PRIu64, fz_kind_names[i], fz_ebusy_possible(i) ? "" : "!",
			       fz->kind_ebusy[i]);
	printf(" )\n");
	fflush(stdout);
	if (!fz->calls)
		exit(4);
}

/*
 * irqctl abi: the interface's rules, one fixed request each: a reserved
 * field, padding, an unknown flag, an unknown number, a known number with
 * another size, an unreadable argument. Each must be refused with its
 * errno and change nothing; "abi: N rules, N kept" (exit 4 if one is not).
 */
struct fz_rule {
	const char *name;
	unsigned long cmd;
	unsigned int word;	/* which __u32 of the argument to set */
	uint32_t value;
	int err;		/* the errno it must get */
	bool null;		/* pass a NULL argument */
};

static const struct fz_rule fz_rules[] = {
	{ "create_reserved0", IC_CTL_CREATE, 5, 1, EINVAL, false },
	{ "create_reserved2", IC_CTL_CREATE, 7, 1, EINVAL, false },
	{ "create_unknown_flag", IC_CTL_CREATE, 4, 1U << 31, EINVAL, false },
	{ "create_line_without_join", IC_CTL_CREATE, 0, 5, EINVAL, false },
	{ "create_rate_over_limit", IC_CTL_CREATE, 2, IC_CTL_MAX_RATE_HZ + 1, EINVAL, false },
	{ "create_busy_over_limit", IC_CTL_CREATE, 3, IC_CTL_MAX_BUSY_US + 1, EINVAL, false },
	{ "create_cpu_not_online", IC_CTL_CREATE, 1, 4096, EINVAL, false },
	{ "stats_unknown_flag", IC_CTL_LINE_STATS, 1, 2, EINVAL, false },
	{ "stats_pad", IC_CTL_LINE_STATS, 21, 1, EINVAL, false },
	{ "stats_line_not_own", IC_CTL_LINE_STATS, 0, 1, ENOENT, false },
	{ "cpu_stats_flags", IC_CTL_CPU_STATS, 1, 1, EINVAL, false },
	{ "cpu_stats_pad", IC_CTL_CPU_STATS, 3, 1, EINVAL, false },
	{ "list_unknown_flag", IC_CTL_LIST, 0, 4, EINVAL, false },
	{ "list_capacity_no_pointer", IC_CTL_LIST, 1, 4, EINVAL, false },
	{ "delete_flags", IC_CTL_DELETE, 1, 1, EINVAL, false },
	{ "fire_pad", IC_CTL_FIRE, 3, 1, EINVAL, false },
	{ "fire_count_zero", IC_CTL_FIRE, 1, 0, EINVAL, false },
	{ "affinity_pad", IC_CTL_AFFINITY, 3, 1, EINVAL, false },
	{ "hold_flags", IC_CTL_HOLD_START, 5, 1, EINVAL, false },
	{ "hold_mode", IC_CTL_HOLD_START, 3, 3, EINVAL, false },
	{ "hist_flags", IC_CTL_HIST, 2, 1, EINVAL, false },
	{ "reset_flags", IC_CTL_HIST_RESET, 1, 1, EINVAL, false },
	{ "threshold_unknown_flag", IC_CTL_THRESHOLD, 1, 2, EINVAL, false },
	{ "threshold_over_limit", IC_CTL_THRESHOLD, 0, IC_CTL_MAX_THRESH_US + 1, EINVAL, false },
	{ "unknown_number", _IOR(IC_CTL_MAGIC, 0x7f, struct ic_ctl_version), 0, 0, ENOTTY, false },
	{ "known_number_other_size", _IOR(IC_CTL_MAGIC, 0x00, struct ic_ctl_reason), 0, 0,
	  ENOTTY, false },
	{ "other_type", _IOR(IC_CTL_MAGIC + 1, 0x00, struct ic_ctl_version), 0, 0, ENOTTY, false },
	{ "create_null_argument", IC_CTL_CREATE, 0, 0, EFAULT, true },
	{ "version_null_argument", IC_CTL_VERSION, 0, 0, EFAULT, true },
	{ "unhold_without_holder", IC_CTL_HOLD_STOP, 0, 0, ESRCH, false },
};

/**
 * cmd_abi() - "abi": check the interface's rules (see above).
 * @argc: arguments, the command's name first (no others).
 * @argv: them.
 */
void cmd_abi(int argc, char **argv)
{
	unsigned int i, kept = 0, n = sizeof(fz_rules) / sizeof(fz_rules[0]);
	struct ic_ctl_list l = {};

	if (argc > 1)
		ic_usage("abi: unknown argument '%s' (valid: none)", argv[1]);
	for (i = 0; i < n; i++) {
		const struct fz_rule *r = &fz_rules[i];
		uint32_t buf[64] = {};
		struct ic_ctl_reason why = {};
		unsigned long cmd;
		int err;

		/* A valid create but for the one word: cpu round-robin. */
		if (r->cmd == IC_CTL_CREATE)
			buf[1] = (uint32_t)-1;
		if (r->cmd == IC_CTL_HOLD_START) {
			buf[1] = 10;
			buf[2] = 1000;
		}
		if (r->cmd == IC_CTL_FIRE)
			buf[1] = 1;
		buf[r->word] = r->value;
		/* IC_CTL_CPU_STATS in the version irqcore speaks (irqctl(8), VERSIONS). */
		cmd = r->cmd == IC_CTL_CPU_STATS ? ic_cpu_stats_cmd() : r->cmd;
		err = ioctl(irqctl.fd, cmd, r->null ? NULL : buf) ? errno : 0;
		ioctl(irqctl.fd, IC_CTL_REASON, &why);
		if (err == r->err)
			kept++;
		printf("abi: %s: %s (want %s)%s%s: %s\n", r->name, err ? ic_errname(err) : "accepted",
		       ic_errname(r->err), err == r->err ? "" : " BROKEN", why.err == err ? ", reason" : "",
		       why.err == err ? why.text : "-");
	}
	/* Nothing any of them made may be left. */
	ic_request("abi", IC_CTL_LIST, &l);
	printf("abi: %u rules, %u kept, %u lines left\n", n, kept, l.total);
	if (kept != n || l.total)
		exit(4);
}
