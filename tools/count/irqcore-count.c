// SPDX-License-Identifier: GPL-2.0
/*
 * irqcore-count - a QEMU TCG plugin that counts what the guest executes
 * between pairs of markers: instructions, locked read-modify-writes, fences
 * and, optionally, memory accesses, distinct cache lines and cache-line
 * transfers between vCPUs (a coherence model, below the samples). Counts under TCG are exact and repeatable where
 * times are not (docs/counting.md, DESIGN.md §5 "Counts before times").
 *
 * Markers (include/irqcore_count.h) are 8-byte NOPs,
 *
 *	0f 1f 84 00 <tag> <op> c0 51	nopl 0x51c0<op><tag>(%rax,%rax,1)
 *
 * op 1 opens a sample of tag 0..255 on the executing vCPU, op 2 closes it.
 *
 * Usage:
 *	qemu-system-x86_64 -accel tcg,thread=multi ... \
 *	  -plugin tools/count/irqcore-count.so,arg=out=FILE,arg=mem=on,...
 *
 * Arguments (anything else, or a bad value, refuses to load and QEMU stops):
 *	out=PATH		write the JSON here (default: QEMU's log,
 *				which QEMU writes only with -d plugin,
 *				to stderr or to -D FILE)
 *	mem=on|off		memory callbacks: loads, stores, lines,
 *				transfers, writer_reads
 *				(default off; 6-12x slower)
 *	profile=on|off		per-tag histogram of executed instruction
 *				addresses (default off)
 *	entry=0xSTART-0xEND	guest-virtual range [START, END) of interrupt or
 *				exception entry code; a sample that executes
 *				code in a range is "interrupted" (repeatable, 16)
 *	cap=N			samples kept per (tag, vCPU), 1..65536 (4096)
 *
 * Output (schema 2), written when QEMU exits:
 *	{
 *	  "schema": 2,
 *	  "mem": false, "profiling": false, "transfers_exact": false,
 *	  "fields": ["insns", "locked", "fences", "mfence",
 *		     "loads", "stores", "lines", "transfers", "writer_reads"],
 *	  "cap": 4096, "entry": [["0x...", "0x..."], ...],
 *	  "tags": {"<tag>": {"<vcpu>": {"samples": [[8 numbers], ...],
 *					"interrupted": n, "abandoned": n,
 *					"dropped_cap": n}}},
 *	  "unmatched": n, "open_at_exit": n, "vcpu_overflow": n,
 *	  "line_table": {"slots": n, "used": n, "full": n},
 *	  "profile": {"<tag>": {"0x<vaddr>": count, ...}}
 *	}
 * Each sample is one BEGIN..END, its numbers in the order of "fields";
 * with mem=off the last five are 0. "transfers" are accesses that the
 * coherence model says fetch the line from another vCPU; "writer_reads"
 * (schema 1's transfers) every access to a line whose last writer was
 * another vCPU, which counts a line written once and read a thousand
 * times a thousand times. Samples are kept in execution order.
 *
 * How counting works. At translation time each translation block is cut at
 * its markers into marker-free stretches; the plugin decodes each stretch
 * once (instruction count, locked RMWs, fences, whether it touches an entry
 * range) and registers ONE execution callback on the stretch's first
 * instruction, which adds the stretch's totals to the vCPU's open sample.
 * A marker gets its own callback and is not counted. Per-instruction
 * callbacks would be as exact but several times slower. A stretch is
 * counted whole when its first instruction is about to run: if an exception
 * stops it half way, the rest is counted anyway and then counted again when
 * re-executed; such samples run entry code and are flagged "interrupted".
 *
 * Threads. With -accel tcg,thread=multi each vCPU runs on its own host
 * thread, and every callback runs on the thread of the vCPU it names, so
 * per-vCPU state needs no lock. Shared state: the series of samples (one
 * writer, its vCPU; the count is published with release order so that the
 * exit dump, which may run while other vCPUs still execute, reads whole
 * samples), the per-tag profiles (a mutex, taken once per sample), the
 * line table (lock-free, below) and a few statistics (atomics).
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "qemu-plugin-api.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = IC_QEMU_PLUGIN_API;

#define IC_MAX_VCPUS	64
#define IC_NTAGS	256
#define IC_MAX_ENTRY	16
#define IC_CAP_DEFAULT	4096
#define IC_CAP_MAX	65536
#define IC_LINE_SHIFT	6		/* 64-byte cache lines */

/* The marker: nopl disp32(%rax,%rax,1) with disp32 = 0x51c0<op><tag>. */
#define IC_MARKER_LEN	8
#define IC_OP_BEGIN	1
#define IC_OP_END	2

enum ic_field {
	IC_INSNS, IC_LOCKED, IC_FENCES, IC_MFENCE,
	IC_LOADS, IC_STORES, IC_LINES, IC_TRANSFERS, IC_WRITER_READS,
	IC_NFIELDS
};

static const char *const ic_field_names[IC_NFIELDS] = {
	"insns", "locked", "fences", "mfence",
	"loads", "stores", "lines", "transfers", "writer_reads",
};

/* ---- configuration, fixed once qemu_plugin_install() returns ---------- */

static struct {
	bool mem;
	bool profile;
	unsigned int cap;
	unsigned int n_entry;
	uint64_t entry_start[IC_MAX_ENTRY];
	uint64_t entry_end[IC_MAX_ENTRY];
	FILE *out;		/* NULL: qemu_plugin_outs() */
	const char *out_path;
} cfg = { .cap = IC_CAP_DEFAULT };

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	/*
	 * A callback cannot report failure to QEMU, and a count with a hole
	 * in it is worse than none: give up loudly.
	 */
	if (!p) {
		fprintf(stderr, "irqcore-count: out of memory (%zu x %zu)\n",
			n, size);
		abort();
	}
	return p;
}

/* ---- a small open-addressing map from uint64_t to uint64_t ----------- */

/*
 * Used single-threaded (per vCPU) or under a lock. Slots carry a stamp so
 * that clearing the map at every BEGIN costs nothing: a slot whose stamp is
 * not the map's current one is empty. Grows at half full, so probes stay
 * short and the map never fills.
 */
struct ic_map {
	uint64_t *key;
	uint64_t *val;
	uint32_t *stamp;
	uint32_t cap;		/* a power of two */
	uint32_t used;
	uint32_t now;
};

static uint32_t ic_hash(uint64_t key, uint32_t cap)
{
	/* Fibonacci hashing: line and code addresses differ in low bits. */
	return (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & (cap - 1);
}

static void ic_map_init(struct ic_map *m, uint32_t cap)
{
	m->key = xcalloc(cap, sizeof(*m->key));
	m->val = xcalloc(cap, sizeof(*m->val));
	m->stamp = xcalloc(cap, sizeof(*m->stamp));
	m->cap = cap;
	m->used = 0;
	m->now = 1;
}

static void ic_map_clear(struct ic_map *m)
{
	m->used = 0;
	if (++m->now == 0) {	/* wrapped: old stamps could look current */
		memset(m->stamp, 0, m->cap * sizeof(*m->stamp));
		m->now = 1;
	}
}

static uint32_t ic_map_find(const struct ic_map *m, uint64_t key)
{
	uint32_t i = ic_hash(key, m->cap);

	while (m->stamp[i] == m->now && m->key[i] != key)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static void ic_map_grow(struct ic_map *m)
{
	struct ic_map old = *m;
	uint32_t i, j;

	ic_map_init(m, old.cap * 2);
	for (i = 0; i < old.cap; i++) {
		if (old.stamp[i] != old.now)
			continue;
		j = ic_map_find(m, old.key[i]);
		m->key[j] = old.key[i];
		m->val[j] = old.val[i];
		m->stamp[j] = m->now;
		m->used++;
	}
	free(old.key);
	free(old.val);
	free(old.stamp);
}

/*
 * ic_map_add() - add @n to @key's value, inserting it at 0 first.
 * Return: true when @key was not in the map.
 */
static bool ic_map_add(struct ic_map *m, uint64_t key, uint64_t n)
{
	uint32_t i = ic_map_find(m, key);

	if (m->stamp[i] == m->now) {
		m->val[i] += n;
		return false;
	}
	m->key[i] = key;
	m->val[i] = n;
	m->stamp[i] = m->now;
	if (++m->used * 2 > m->cap)
		ic_map_grow(m);
	return true;
}

/* ---- the global line table (mem=on): a coherence model ---------------- */

/*
 * For every 64-byte guest-physical line that any vCPU accessed, in a sample
 * or not: which vCPU stored to it last, and which vCPUs hold a valid copy
 * of it. This is MSI without evictions, just enough to say when a line has
 * to come from another CPU's cache:
 *
 *	a load by i:  i holds it: nothing; else a TRANSFER if the line is
 *		      modified elsewhere (its only holder is its last writer);
 *		      i joins the holders
 *	a store by i: i holds it: nothing (an upgrade: the other copies are
 *		      invalidated, and their next access pays); else a
 *		      TRANSFER if anyone else holds it; i becomes the only
 *		      holder and the last writer
 *
 * So a line written once at setup and then only read costs each reader one
 * transfer, not one per access; a line two vCPUs hand back and forth costs
 * one per handoff; a line one vCPU keeps to itself costs none. "Modified"
 * needs no bit of its own: holders only ever grow except at a store, which
 * leaves the writer alone, so the line is modified exactly when its holders
 * are {last writer}. Caches never evict here, so a line read long ago still
 * counts as held: the model finds the transfers that sharing forces, not
 * the misses that capacity adds.
 *
 * Each slot is two words. The key word, claimed once with a compare-and-
 * swap from 0 and never given another line:
 *
 *	bits 63..7  line number + 1 (0: empty slot)
 *	bits  6..0  vCPU index of the last writer (IC_WT_NONE: no store seen)
 *
 * and the holders, a mask of vCPUs (up to 64), changed by one atomic
 * fetch-or (load) or exchange (store) per access, so that the vCPU that
 * judges the transfer is the one whose update took effect. The two words
 * are not updated together: an access that races a store between its
 * exchange and its writer update can misjudge "modified" (transfers are
 * approximate where vCPUs race; exact where they do not, as in a private
 * line, or a line read after a write that a flag published). Nothing is
 * ever removed; when probing finds no slot the access is not tracked and
 * "full" in the output says how often (transfers are then missed).
 *
 * 2^24 slots of 16 bytes (256 MiB of address space, touched only where
 * lines land): the 512 MiB guests of tests/run have 2^23 lines, so the
 * table is at most half full and probes stay short.
 */
#define IC_WT_LOG2	24
#define IC_WT_SLOTS	(1u << IC_WT_LOG2)
#define IC_WT_PROBES	64
#define IC_WT_NONE	0x7fu		/* no store seen; no vCPU has index 127 */

struct ic_line {
	_Atomic uint64_t key;		/* (line + 1) << 7 | last writer */
	_Atomic uint64_t holders;	/* bit i: vCPU i holds a valid copy */
};

static struct ic_line *ltable;
static atomic_uint wt_used;
static atomic_ulong wt_full;

static struct ic_line *ic_line_slot(uint64_t line)
{
	uint64_t key = line + 1, w;
	uint32_t i = ic_hash(line, IC_WT_SLOTS);
	unsigned int probe;

	for (probe = 0; probe < IC_WT_PROBES; probe++) {
		w = atomic_load_explicit(&ltable[i].key, memory_order_relaxed);
		if (w == 0) {
			if (atomic_compare_exchange_strong_explicit(&ltable[i].key,
					&w, key << 7 | IC_WT_NONE,
					memory_order_relaxed, memory_order_relaxed)) {
				atomic_fetch_add_explicit(&wt_used, 1,
							  memory_order_relaxed);
				return &ltable[i];
			}
			/* Lost the race: w now holds the winner's word. */
		}
		if (w >> 7 == key)
			return &ltable[i];
		i = (i + 1) & (IC_WT_SLOTS - 1);
	}
	atomic_fetch_add_explicit(&wt_full, 1, memory_order_relaxed);
	return NULL;
}

/*
 * What one access by vCPU @index does to line @l under the model.
 * Return: true if it is a transfer. *@writer: the last writer before it.
 */
static bool ic_line_access(struct ic_line *l, unsigned int index, bool store,
			   unsigned int *writer)
{
	uint64_t me = 1ull << index, old;

	*writer = (unsigned int)(atomic_load_explicit(&l->key,
				 memory_order_relaxed) & IC_WT_NONE);
	if (!store) {
		old = atomic_fetch_or_explicit(&l->holders, me,
					       memory_order_relaxed);
		return !(old & me) && *writer != IC_WT_NONE &&
		       old == 1ull << *writer;
	}
#ifdef IC_MUTANT_STORE_KEEPS_HOLDERS
	/* The mutant: a store does not invalidate the other copies. */
	old = atomic_fetch_or_explicit(&l->holders, me, memory_order_relaxed);
#else
	old = atomic_exchange_explicit(&l->holders, me, memory_order_relaxed);
#endif
	if (*writer != index)
		atomic_store_explicit(&l->key, (atomic_load_explicit(&l->key,
				      memory_order_relaxed) & ~(uint64_t)IC_WT_NONE) |
				      index, memory_order_relaxed);
	return !(old & me) && old != 0;
}

/* ---- samples ---------------------------------------------------------- */

/* The closed samples of one (tag, vCPU); written only by that vCPU. */
struct ic_series {
	uint64_t (*sample)[IC_NFIELDS];	/* cfg.cap of them */
	atomic_uint n;			/* kept; release after the sample */
	uint64_t dropped_cap;		/* closed beyond cfg.cap */
	uint64_t interrupted;		/* ran entry code: not kept */
	uint64_t abandoned;		/* a BEGIN came before the END */
};

static _Atomic(struct ic_series *) series[IC_NTAGS][IC_MAX_VCPUS];

static struct ic_series *ic_series_get(unsigned int tag, unsigned int vcpu)
{
	struct ic_series *s;

	s = atomic_load_explicit(&series[tag][vcpu], memory_order_relaxed);
	if (s)
		return s;
	/* Only this vCPU's thread creates its series: no race to lose. */
	s = xcalloc(1, sizeof(*s));
	s->sample = xcalloc(cfg.cap, sizeof(*s->sample));
	atomic_store_explicit(&series[tag][vcpu], s, memory_order_release);
	return s;
}

/* The per-tag profiles, merged from samples that were not interrupted. */
static pthread_mutex_t profile_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ic_map *profile[IC_NTAGS];

/*
 * One vCPU's open sample. Each on its own cache line: the point of the
 * exercise is counting, not adding false sharing between host threads.
 */
struct ic_vcpu {
	bool open;
	bool interrupted;
	uint8_t tag;
	uint64_t c[IC_NFIELDS];
	struct ic_map lines;	/* mem=on: lines touched in this sample */
	struct ic_map prof;	/* profile=on: vaddr -> executions */
} __attribute__((aligned(64)));

static struct ic_vcpu vcpus[IC_MAX_VCPUS];

static atomic_ulong unmatched;
static atomic_ulong vcpu_overflow;

/*
 * What translation found in one marker-free stretch of a block. Lives as
 * long as QEMU: the API says nothing when a block is thrown away.
 */
struct ic_stretch {
	uint32_t insns;
	uint32_t locked;
	uint32_t fences;	/* mfence + lfence + sfence */
	uint32_t mfence;
	bool entry;		/* some instruction lies in an entry range */
	uint32_t n_vaddr;	/* profile=on: the instructions' addresses */
	uint64_t vaddr[];
};

static struct ic_vcpu *ic_vcpu(unsigned int index)
{
	if (index >= IC_MAX_VCPUS) {
		atomic_fetch_add_explicit(&vcpu_overflow, 1,
					  memory_order_relaxed);
		return NULL;
	}
	return &vcpus[index];
}

static void ic_close(struct ic_vcpu *v, unsigned int index)
{
	struct ic_series *s = ic_series_get(v->tag, index);
	unsigned int n, i;

	v->open = false;
	if (v->interrupted) {
		s->interrupted++;
		return;
	}
	n = atomic_load_explicit(&s->n, memory_order_relaxed);
	if (n < cfg.cap) {
		memcpy(s->sample[n], v->c, sizeof(v->c));
		atomic_store_explicit(&s->n, n + 1, memory_order_release);
	} else {
		s->dropped_cap++;
	}
	if (!cfg.profile)
		return;
	pthread_mutex_lock(&profile_lock);
	if (!profile[v->tag]) {
		profile[v->tag] = xcalloc(1, sizeof(*profile[v->tag]));
		ic_map_init(profile[v->tag], 1024);
	}
	for (i = 0; i < v->prof.cap; i++)
		if (v->prof.stamp[i] == v->prof.now)
			ic_map_add(profile[v->tag], v->prof.key[i],
				   v->prof.val[i]);
	pthread_mutex_unlock(&profile_lock);
}

/* ---- execution callbacks ---------------------------------------------- */

static void on_marker(unsigned int index, void *udata)
{
	unsigned int op = (unsigned int)(uintptr_t)udata >> 8;
	unsigned int tag = (unsigned int)(uintptr_t)udata & 0xff;
	struct ic_vcpu *v = ic_vcpu(index);

	if (!v)
		return;
	if (op == IC_OP_END) {
		/*
		 * An END that closes nothing of its tag leaves any open
		 * sample open: its own END may still come.
		 */
		if (v->open && v->tag == tag)
			ic_close(v, index);
		else
			atomic_fetch_add_explicit(&unmatched, 1,
						  memory_order_relaxed);
		return;
	}
	if (v->open)
		ic_series_get(v->tag, index)->abandoned++;
	v->open = true;
	v->interrupted = false;
	v->tag = (uint8_t)tag;
	memset(v->c, 0, sizeof(v->c));
	if (cfg.mem)
		ic_map_clear(&v->lines);
	if (cfg.profile)
		ic_map_clear(&v->prof);
}

static void on_stretch(unsigned int index, void *udata)
{
	const struct ic_stretch *st = udata;
	struct ic_vcpu *v = ic_vcpu(index);
	uint32_t i;

	if (!v || !v->open)
		return;
	v->c[IC_INSNS] += st->insns;
	v->c[IC_LOCKED] += st->locked;
	v->c[IC_FENCES] += st->fences;
	v->c[IC_MFENCE] += st->mfence;
	if (st->entry)
		v->interrupted = true;
	for (i = 0; i < st->n_vaddr; i++)
		ic_map_add(&v->prof, st->vaddr[i], 1);
}

/*
 * One access to @line by vCPU @index, which has sample @v open or not.
 * Every access goes through the model, in a sample or not: a sample's
 * transfers depend on what the other vCPUs did before it began.
 */
static void ic_touch(struct ic_vcpu *v, unsigned int index, uint64_t line,
		     bool store)
{
	struct ic_line *l = ic_line_slot(line);
	unsigned int w = IC_WT_NONE;
	bool transfer = false;

	if (l)
		transfer = ic_line_access(l, index, store, &w);
	if (!v || !v->open)
		return;
	if (ic_map_add(&v->lines, line, 1))
		v->c[IC_LINES]++;
	/* The old figure: an access to a line another vCPU stored to last. */
	if (w != IC_WT_NONE && w != index)
		v->c[IC_WRITER_READS]++;
#ifdef IC_MUTANT_WRITER_READS
	/* The mutant: transfers counted the old way, every such access. */
	transfer = w != IC_WT_NONE && w != index;
#endif
	if (transfer)
		v->c[IC_TRANSFERS]++;
}

/*
 * Runs just after the access, on the accessing vCPU's thread. Two vCPUs
 * accessing one line at the same time may update the table in either
 * order, and another vCPU can act on a value before this callback records
 * it, so a transfer between them can be seen or missed: the transfer count
 * is approximate ("transfers_exact": false), the rest are exact.
 */
static void on_mem(unsigned int index, qemu_plugin_meminfo_t info,
		   uint64_t vaddr, void *udata)
{
	struct qemu_plugin_hwaddr *hw = qemu_plugin_get_hwaddr(info, vaddr);
	struct ic_vcpu *v = index < IC_MAX_VCPUS ? &vcpus[index] : NULL;
	bool store = qemu_plugin_mem_is_store(info);
	uint64_t pa, first, last;

	(void)udata;
	/* Device registers are not cache lines. */
	if (!hw || qemu_plugin_hwaddr_is_io(hw))
		return;
	pa = qemu_plugin_hwaddr_phys_addr(hw);
	first = pa >> IC_LINE_SHIFT;
	last = (pa + (1u << qemu_plugin_mem_size_shift(info)) - 1) >>
	       IC_LINE_SHIFT;
	if (v && v->open)
		v->c[store ? IC_STORES : IC_LOADS]++;
	ic_touch(v, index, first, store);
	/*
	 * A split access touches two lines (physically adjacent: a split
	 * that crosses a page is two accesses in QEMU already).
	 */
	if (last != first)
		ic_touch(v, index, last, store);
}

/* ---- translation ------------------------------------------------------ */

static bool ic_is_marker(const uint8_t *d, size_t n, unsigned int *op,
			 unsigned int *tag)
{
	if (n != IC_MARKER_LEN || d[0] != 0x0f || d[1] != 0x1f ||
	    d[2] != 0x84 || d[3] != 0x00 || d[6] != 0xc0 || d[7] != 0x51)
		return false;
	if (d[5] != IC_OP_BEGIN && d[5] != IC_OP_END)
		return false;
	*op = d[5];
	*tag = d[4];
	return true;
}

static bool ic_is_legacy_prefix(uint8_t b)
{
	switch (b) {
	case 0xf0: case 0xf2: case 0xf3: case 0x66: case 0x67:
	case 0x2e: case 0x36: case 0x3e: case 0x26: case 0x64: case 0x65:
		return true;
	}
	return false;
}

enum ic_kind { IC_PLAIN, IC_KIND_LOCKED, IC_KIND_MFENCE, IC_KIND_LFENCE,
	       IC_KIND_SFENCE };

/*
 * What kind of instruction @d (@n bytes, exactly one instruction as QEMU
 * decoded it) is. Only the cases counted matter, so this is a prefix scan,
 * not a decoder.
 */
static enum ic_kind ic_classify(const uint8_t *d, size_t n)
{
	bool lock = false, mandatory = false;
	size_t i = 0;

	for (; i < n && ic_is_legacy_prefix(d[i]); i++) {
		if (d[i] == 0xf0)
			lock = true;
		if (d[i] == 0x66 || d[i] == 0xf2 || d[i] == 0xf3)
			mandatory = true;
	}
#ifndef IC_MUTANT_NO_LOCK_PREFIX
	/* The guest would #UD on a lock prefix without a memory RMW. */
	if (lock)
		return IC_KIND_LOCKED;
#else
	(void)lock;
#endif
	/*
	 * A REX prefix in 64-bit code. In 32-bit code 0x40-0x4f are one-byte
	 * inc/dec, so the bounds checks below find no opcode after it.
	 */
	if (i < n && (d[i] & 0xf0) == 0x40)
		i++;
#ifndef IC_MUTANT_NO_XCHG
	/* xchg with a memory operand locks without a prefix. */
	if (i + 1 < n && (d[i] == 0x86 || d[i] == 0x87) && d[i + 1] >> 6 != 3)
		return IC_KIND_LOCKED;
#endif
	/*
	 * 0f ae with a register ModRM: /5 lfence, /6 mfence, /7 sfence. With
	 * 66, f2 or f3 the same bytes are other instructions (tpause, ...).
	 */
	if (!mandatory && i + 2 < n && d[i] == 0x0f && d[i + 1] == 0xae &&
	    d[i + 2] >> 6 == 3) {
		switch ((d[i + 2] >> 3) & 7) {
		case 5: return IC_KIND_LFENCE;
		case 6: return IC_KIND_MFENCE;
		case 7: return IC_KIND_SFENCE;
		}
	}
	return IC_PLAIN;
}

static bool ic_in_entry(uint64_t vaddr)
{
	unsigned int i;

	for (i = 0; i < cfg.n_entry; i++)
		if (vaddr >= cfg.entry_start[i] && vaddr < cfg.entry_end[i])
			return true;
	return false;
}

/*
 * Register the callback of the stretch of instructions @first..@last-1 of
 * @tb: one callback for all of them, with totals computed here once.
 */
static void ic_stretch(struct qemu_plugin_tb *tb, size_t first, size_t last)
{
	size_t n = last - first, i;
	struct ic_stretch *st;

	if (n == 0)
		return;
	st = xcalloc(1, sizeof(*st) +
		     (cfg.profile ? n * sizeof(st->vaddr[0]) : 0));
	st->insns = (uint32_t)n;
	for (i = first; i < last; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t vaddr = qemu_plugin_insn_vaddr(insn);

		switch (ic_classify(qemu_plugin_insn_data(insn),
				    qemu_plugin_insn_size(insn))) {
		case IC_KIND_LOCKED:
			st->locked++;
			break;
		case IC_KIND_MFENCE:
			st->mfence++;
			st->fences++;
			break;
		case IC_KIND_LFENCE:
		case IC_KIND_SFENCE:
			st->fences++;
			break;
		case IC_PLAIN:
			break;
		}
		if (ic_in_entry(vaddr))
			st->entry = true;
		if (cfg.profile)
			st->vaddr[st->n_vaddr++] = vaddr;
		if (cfg.mem)
			qemu_plugin_register_vcpu_mem_cb(insn, on_mem,
							 QEMU_PLUGIN_CB_NO_REGS,
							 QEMU_PLUGIN_MEM_RW,
							 NULL);
	}
	qemu_plugin_register_vcpu_insn_exec_cb(qemu_plugin_tb_get_insn(tb, first),
					       on_stretch, QEMU_PLUGIN_CB_NO_REGS,
					       st);
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i, start = 0;
	unsigned int op, tag;

	(void)id;
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);

		if (!ic_is_marker(qemu_plugin_insn_data(insn),
				  qemu_plugin_insn_size(insn), &op, &tag))
			continue;
		ic_stretch(tb, start, i);
#ifdef IC_MUTANT_COUNT_MARKERS
		ic_stretch(tb, i, i + 1);
#endif
		qemu_plugin_register_vcpu_insn_exec_cb(insn, on_marker,
				QEMU_PLUGIN_CB_NO_REGS,
				(void *)(uintptr_t)(op << 8 | tag));
		start = i + 1;
	}
	ic_stretch(tb, start, n);
}

/* ---- output ----------------------------------------------------------- */

struct ic_buf {
	char *p;
	size_t len;
	size_t cap;
};

__attribute__((format(printf, 2, 3)))
static void ic_printf(struct ic_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
		if (n < 0)
			abort();
		if (b->len + (size_t)n < b->cap)
			break;
		b->cap = (b->cap + (size_t)n) * 2;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			abort();
	}
	b->len += (size_t)n;
}

static int ic_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void ic_dump_profile(struct ic_buf *b)
{
	const char *sep = "";
	unsigned int tag, i, k;

	pthread_mutex_lock(&profile_lock);
	for (tag = 0; tag < IC_NTAGS; tag++) {
		struct ic_map *m = profile[tag];
		uint64_t *pair;

		if (!m)
			continue;
		/* Sorted by address, so that two runs diff cleanly. */
		pair = xcalloc(m->used ? m->used : 1, 2 * sizeof(*pair));
		for (i = 0, k = 0; i < m->cap; i++) {
			if (m->stamp[i] != m->now)
				continue;
			pair[2 * k] = m->key[i];
			pair[2 * k + 1] = m->val[i];
			k++;
		}
		qsort(pair, k, 2 * sizeof(*pair), ic_cmp_u64);
		ic_printf(b, "%s\n    \"%u\": {", sep, tag);
		for (i = 0; i < k; i++)
			ic_printf(b, "%s\"0x%" PRIx64 "\": %" PRIu64,
				  i ? ", " : "", pair[2 * i], pair[2 * i + 1]);
		ic_printf(b, "}");
		sep = ",";
		free(pair);
	}
	pthread_mutex_unlock(&profile_lock);
}

static void on_exit_dump(qemu_plugin_id_t id, void *udata)
{
	struct ic_buf b = { 0 };
	const char *tsep = "";
	unsigned int tag, vi, i, f, open = 0;

	(void)id;
	(void)udata;
	/*
	 * Samples still open are not reported; other vCPUs may even be
	 * running (the exit can come from one vCPU's isa-debug-exit write).
	 */
	for (vi = 0; vi < IC_MAX_VCPUS; vi++)
		open += vcpus[vi].open;

	ic_printf(&b, "{\n  \"schema\": 2,\n  \"mem\": %s,\n  \"profiling\": %s,\n"
		  "  \"transfers_exact\": false,\n  \"fields\": [",
		  cfg.mem ? "true" : "false", cfg.profile ? "true" : "false");
	for (f = 0; f < IC_NFIELDS; f++)
		ic_printf(&b, "%s\"%s\"", f ? ", " : "", ic_field_names[f]);
	ic_printf(&b, "],\n  \"cap\": %u,\n  \"entry\": [", cfg.cap);
	for (i = 0; i < cfg.n_entry; i++)
		ic_printf(&b, "%s[\"0x%" PRIx64 "\", \"0x%" PRIx64 "\"]",
			  i ? ", " : "", cfg.entry_start[i], cfg.entry_end[i]);
	ic_printf(&b, "],\n  \"tags\": {");
	for (tag = 0; tag < IC_NTAGS; tag++) {
		const char *vsep = "";

		for (vi = 0; vi < IC_MAX_VCPUS; vi++) {
			struct ic_series *s = atomic_load_explicit(
				&series[tag][vi], memory_order_acquire);
			unsigned int n;

			if (!s)
				continue;
			if (!*vsep) {
				ic_printf(&b, "%s\n    \"%u\": {", tsep, tag);
				tsep = ",";
			}
			n = atomic_load_explicit(&s->n, memory_order_acquire);
			ic_printf(&b, "%s\n      \"%u\": {\"samples\": [", vsep, vi);
			vsep = ",";
			for (i = 0; i < n; i++) {
				ic_printf(&b, "%s[", i ? ", " : "");
				for (f = 0; f < IC_NFIELDS; f++)
					ic_printf(&b, "%s%" PRIu64, f ? ", " : "",
						  s->sample[i][f]);
				ic_printf(&b, "]");
			}
			ic_printf(&b, "], \"interrupted\": %" PRIu64
				  ", \"abandoned\": %" PRIu64
				  ", \"dropped_cap\": %" PRIu64 "}",
				  s->interrupted, s->abandoned, s->dropped_cap);
		}
		if (*vsep)
			ic_printf(&b, "\n    }");
	}
	ic_printf(&b, "%s},\n  \"unmatched\": %lu,\n  \"open_at_exit\": %u,\n"
		  "  \"vcpu_overflow\": %lu,\n"
		  "  \"line_table\": {\"slots\": %u, \"used\": %u, \"full\": %lu},\n"
		  "  \"profile\": {", *tsep ? "\n  " : "",
		  atomic_load(&unmatched), open, atomic_load(&vcpu_overflow),
		  cfg.mem ? IC_WT_SLOTS : 0, atomic_load(&wt_used),
		  atomic_load(&wt_full));
	ic_dump_profile(&b);
	ic_printf(&b, "\n  }\n}\n");

	if (cfg.out) {
		if (fwrite(b.p, 1, b.len, cfg.out) != b.len || fclose(cfg.out))
			fprintf(stderr, "irqcore-count: writing %s: %s\n",
				cfg.out_path, strerror(errno));
		cfg.out = NULL;
	} else {
		qemu_plugin_outs(b.p);
	}
	free(b.p);
}

/* ---- installation ----------------------------------------------------- */

static const char ic_usage[] =
	"irqcore-count: valid arguments: out=PATH mem=on|off profile=on|off "
	"entry=0xSTART-0xEND (repeatable, up to 16) cap=1..65536\n";

static int ic_bad(const char *what, const char *arg)
{
	fprintf(stderr, "irqcore-count: %s '%s'\n%s", what, arg, ic_usage);
	return -1;
}

static bool ic_parse_onoff(const char *v, bool *out)
{
	if (!strcmp(v, "on"))
		*out = true;
	else if (!strcmp(v, "off"))
		*out = false;
	else
		return false;
	return true;
}

/* A whole hexadecimal number "0x...", nothing before or after it. */
static bool ic_parse_hex(const char *s, char **end, uint64_t *out)
{
	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || !s[2] ||
	    !strchr("0123456789abcdefABCDEF", s[2]))
		return false;
	errno = 0;
	*out = strtoull(s, end, 16);
	return errno == 0;
}

static int ic_parse_args(int argc, char **argv)
{
	bool seen_out = false, seen_mem = false, seen_prof = false;
	bool seen_cap = false;
	int i;

	for (i = 0; i < argc; i++) {
		const char *a = argv[i], *v = strchr(a, '=');
		size_t klen = v ? (size_t)(v - a) : strlen(a);
		char *end;

		if (!v)
			return ic_bad("argument without a value:", a);
		v++;
#define IC_KEY(k) (klen == sizeof(k) - 1 && !strncmp(a, k, klen))
		if (IC_KEY("out")) {
			if (seen_out || !*v)
				return ic_bad("bad or repeated", a);
			seen_out = true;
			cfg.out_path = v;
		} else if (IC_KEY("mem")) {
			if (seen_mem || !ic_parse_onoff(v, &cfg.mem))
				return ic_bad("bad or repeated", a);
			seen_mem = true;
		} else if (IC_KEY("profile")) {
			if (seen_prof || !ic_parse_onoff(v, &cfg.profile))
				return ic_bad("bad or repeated", a);
			seen_prof = true;
		} else if (IC_KEY("cap")) {
			unsigned long c;

			errno = 0;
			c = strtoul(v, &end, 10);
			if (seen_cap || errno || end == v || *end || *v == '-' ||
			    c < 1 || c > IC_CAP_MAX)
				return ic_bad("bad or repeated", a);
			seen_cap = true;
			cfg.cap = (unsigned int)c;
		} else if (IC_KEY("entry")) {
			uint64_t s, e;

			if (cfg.n_entry == IC_MAX_ENTRY)
				return ic_bad("too many entry ranges at", a);
			if (!ic_parse_hex(v, &end, &s) || *end != '-' ||
			    !ic_parse_hex(end + 1, &end, &e) || *end || e <= s)
				return ic_bad("bad range (want entry=0xSTART-0xEND, START < END)", a);
			cfg.entry_start[cfg.n_entry] = s;
			cfg.entry_end[cfg.n_entry] = e;
			cfg.n_entry++;
		} else {
			return ic_bad("unknown argument", a);
		}
#undef IC_KEY
	}
	return 0;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	unsigned int i;

	/*
	 * The declarations in qemu-plugin-api.h are version 1's; under any
	 * other API the structures and calls may mean something else.
	 */
	if (info->version.min > IC_QEMU_PLUGIN_API ||
	    info->version.cur != IC_QEMU_PLUGIN_API) {
		fprintf(stderr, "irqcore-count: QEMU offers plugin API %d..%d; "
			"this plugin is written for API %d only (QEMU 7.2)\n",
			info->version.min, info->version.cur,
			IC_QEMU_PLUGIN_API);
		return -1;
	}
	if (strcmp(info->target_name, "x86_64") &&
	    strcmp(info->target_name, "i386")) {
		fprintf(stderr, "irqcore-count: the markers are x86 NOPs; "
			"target '%s' is not x86\n", info->target_name);
		return -1;
	}
	if (!info->system_emulation) {
		fprintf(stderr, "irqcore-count: needs system emulation "
			"(cache lines are guest-physical)\n");
		return -1;
	}
	if (info->system.max_vcpus > IC_MAX_VCPUS) {
		fprintf(stderr, "irqcore-count: %d vCPUs; at most %d are counted\n",
			info->system.max_vcpus, IC_MAX_VCPUS);
		return -1;
	}
	if (ic_parse_args(argc, argv))
		return -1;
	/* Open the output now, so that a bad path stops QEMU before boot. */
	if (cfg.out_path) {
		cfg.out = fopen(cfg.out_path, "w");
		if (!cfg.out) {
			fprintf(stderr, "irqcore-count: out=%s: %s\n",
				cfg.out_path, strerror(errno));
			return -1;
		}
	}
	if (cfg.mem) {
		/* Reserved, not committed: only pages with lines in them. */
		void *p = mmap(NULL, (size_t)IC_WT_SLOTS * sizeof(struct ic_line),
			       PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
			       -1, 0);

		if (p == MAP_FAILED) {
			fprintf(stderr, "irqcore-count: mmap of the line table: %s\n",
				strerror(errno));
			return -1;
		}
		ltable = p;
	}
	for (i = 0; i < IC_MAX_VCPUS; i++) {
		if (cfg.mem)
			ic_map_init(&vcpus[i].lines, 256);
		if (cfg.profile)
			ic_map_init(&vcpus[i].prof, 256);
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, on_exit_dump, NULL);
	return 0;
}
