// SPDX-License-Identifier: GPL-2.0
/*
 * calib.c - the calibration stub of the counting plugin: a 32-bit multiboot
 * kernel, no libc, no Linux, that runs code whose counts are known by
 * construction between IC_COUNT markers, three times over, and then stops
 * QEMU through isa-debug-exit. tests/count-check compares what the plugin
 * reports with the counts derived here.
 *
 * Every counted region is one asm statement with no inputs or outputs
 * between two markers, so the compiler has nothing to put between them;
 * the profile check of tests/count-check confirms it from the addresses.
 * The loops have the shape
 *
 *	mov  $N, %ecx		1
 *   1:	<body>			N x k
 *	dec  %ecx		N
 *	jnz  1b			N
 *
 * which executes N * (k + 2) + 1 instructions.
 */
#define IC_COUNT_X86	/* not the kernel: say what CONFIG_X86 would */
#include "irqcore_count.h"

#define CALIB_REPEATS	3
#define DEBUG_EXIT_PORT	0xf4	/* -device isa-debug-exit,iobase=0xf4 */
#define DEBUG_EXIT_DONE	0x20	/* QEMU exits with status (0x20 << 1) | 1 */
#define COM1		0x3f8
#define FW_CFG_PORT	0x510	/* QEMU's fw_cfg selector; data at +1 */
#define FW_CFG_NB_CPUS	0x05
#define APIC_BASE	0xfee00000u
#define AP_TRAMPOLINE	0x8000	/* SIPI vector 0x08: the AP starts here */
#define PINGPONG_ROUNDS	100
#define READSHARED_N	1000
/*
 * Tag 11, one of the calibration's reserved 11..15 (include/irqcore_count.h
 * names the others; this one is the stub's alone, so it is named here).
 */
#define CALIB_TAG_READSHARED	11

#ifdef CALIB_MUTANT_OFF_BY_ONE
#define CALIB_ADD_N	"1001"	/* the mutant: one iteration too many */
#else
#define CALIB_ADD_N	"1000"
#endif

/* QEMU loads an ELF that has this in its first 8 KiB. */
#define MB_MAGIC	0x1badb002
#define MB_FLAGS	0
__attribute__((section(".multiboot"), aligned(4), used))
static const unsigned int multiboot_header[3] = {
	MB_MAGIC, MB_FLAGS, -(MB_MAGIC + MB_FLAGS)
};

static unsigned int stack[1024] __attribute__((aligned(16), used));
static unsigned int ap_stack[1024] __attribute__((aligned(16), used));
/* The atomics' target alone on its cache line: "lines" must be 1. */
static volatile unsigned int counter __attribute__((aligned(64)));
static unsigned char buf[64] __attribute__((aligned(64)));
/*
 * -smp 2 only. Each CPU's private line, which the other never touches, so
 * its transfer count must be 0; the ping-pong turn, which moves between
 * the CPUs at every round; the AP's progress. Each on a line of its own.
 */
static volatile unsigned int private_line[2][16] __attribute__((aligned(64)));
static volatile unsigned int turn __attribute__((aligned(64)));
static volatile unsigned int ap_alive __attribute__((aligned(64)));
/*
 * -smp 2 only: the line the AP writes once a round and CPU 0 then reads
 * READSHARED_N times, and the flags that order the two (each on a line of
 * its own, so that spinning on them adds nothing to the read line).
 */
static volatile unsigned int shared_line[16] __attribute__((aligned(64)));
static volatile unsigned int posted __attribute__((aligned(64)));
static volatile unsigned int acked __attribute__((aligned(64)));
static volatile unsigned int ap_done __attribute__((aligned(64)));

static inline void outb(unsigned short port, unsigned char v)
{
	asm volatile("outb %0, %1" : : "a" (v), "Nd" (port));
}

static inline void outw(unsigned short port, unsigned short v)
{
	asm volatile("outw %0, %1" : : "a" (v), "Nd" (port));
}

static inline unsigned char inb(unsigned short port)
{
	unsigned char v;

	asm volatile("inb %1, %0" : "=a" (v) : "Nd" (port));
	return v;
}

static void puts_serial(const char *s)
{
	for (; *s; s++)
		outb(COM1, (unsigned char)*s);
}

/* Tag 1: add; dec; jnz over 1000 iterations = 1000 * 3 + 1 = 3001. */
static void calib_add(void)
{
	IC_COUNT_BEGIN(IC_COUNT_CALIB_ADD);
	asm volatile("mov $" CALIB_ADD_N ", %%ecx\n"
		     "1: add %%ecx, %%eax\n"
		     "dec %%ecx\n"
		     "jnz 1b" : : : "eax", "ecx", "cc");
	IC_COUNT_END(IC_COUNT_CALIB_ADD);
}

/* Tag 4: the same loop over 100000 iterations = 300001. */
static void calib_add_long(void)
{
	IC_COUNT_BEGIN(IC_COUNT_CALIB_ADD_LONG);
	asm volatile("mov $100000, %%ecx\n"
		     "1: add %%ecx, %%eax\n"
		     "dec %%ecx\n"
		     "jnz 1b" : : : "eax", "ecx", "cc");
	IC_COUNT_END(IC_COUNT_CALIB_ADD_LONG);
}

/* Tag 2: lock incl x 1000 = 3001 instructions, 1000 locked. */
static void calib_lock(void)
{
	IC_COUNT_BEGIN(IC_COUNT_CALIB_LOCK);
	asm volatile("mov $1000, %%ecx\n"
		     "1: lock incl %0\n"
		     "dec %%ecx\n"
		     "jnz 1b" : : "m" (counter) : "ecx", "cc", "memory");
	IC_COUNT_END(IC_COUNT_CALIB_LOCK);
}

/* Tag 3: mfence x 1000 = 3001 instructions, 1000 fences, all mfence. */
static void calib_mfence(void)
{
	IC_COUNT_BEGIN(IC_COUNT_CALIB_MFENCE);
	asm volatile("mov $1000, %%ecx\n"
		     "1: mfence\n"
		     "dec %%ecx\n"
		     "jnz 1b" : : : "ecx", "cc", "memory");
	IC_COUNT_END(IC_COUNT_CALIB_MFENCE);
}

/* Tag 5: xchg with memory x 100 = 301 instructions, 100 locked (implicit). */
static void calib_xchg(void)
{
	IC_COUNT_BEGIN(IC_COUNT_CALIB_XCHG);
	asm volatile("mov $100, %%ecx\n"
		     "1: xchg %%eax, %0\n"
		     "dec %%ecx\n"
		     "jnz 1b" : : "m" (counter) : "eax", "ecx", "cc", "memory");
	IC_COUNT_END(IC_COUNT_CALIB_XCHG);
}

/*
 * Tag 6: a sample that calls into the "entry" range, as an interrupt
 * would: the plugin must flag it interrupted and keep no sample of it.
 */
__attribute__((section(".entry.text"), noinline, used))
void calib_entry_fn(void)
{
	asm volatile("nop");
}

static void calib_entry(void)
{
	IC_COUNT_BEGIN(IC_COUNT_CALIB_ENTRY);
	asm volatile("call calib_entry_fn" : : : "eax", "ecx", "edx", "memory");
	IC_COUNT_END(IC_COUNT_CALIB_ENTRY);
}

/*
 * Tag 7: unbalanced markers. Per round: an END with nothing open
 * (unmatched), a BEGIN over an open BEGIN (abandoned), an END of a tag
 * that is not the open one (unmatched, the sample stays open), then the
 * END that closes a sample of zero instructions.
 */
static void calib_pairing(void)
{
	IC_COUNT_END(IC_COUNT_CALIB_PAIRING);
	IC_COUNT_BEGIN(IC_COUNT_CALIB_PAIRING);
	IC_COUNT_BEGIN(IC_COUNT_CALIB_PAIRING);
	IC_COUNT_END(0);
	IC_COUNT_END(IC_COUNT_CALIB_PAIRING);
}

/*
 * Tag 8: rep stosb over 64 bytes, 3 setup instructions. Measured rather
 * than derived: TCG executes each iteration of a string instruction as an
 * execution of that instruction (docs/counting.md).
 */
static void calib_rep(void)
{
	IC_COUNT_BEGIN(IC_COUNT_CALIB_REP);
	asm volatile("mov $64, %%ecx\n"
		     "mov %0, %%edi\n"
		     "xor %%eax, %%eax\n"
		     "rep stosb" : : "i" (buf) : "eax", "ecx", "edi", "memory");
	IC_COUNT_END(IC_COUNT_CALIB_REP);
}

/*
 * Tag 9 (-smp 2, both CPUs): lock incl x 1000 on the CPU's private line =
 * 3001 instructions, 1000 locked, 1 line, 0 transfers.
 */
static void calib_private(unsigned int cpu)
{
	IC_COUNT_BEGIN(IC_COUNT_CALIB_PRIVATE);
	asm volatile("mov $1000, %%ecx\n"
		     "1: lock incl %0\n"
		     "dec %%ecx\n"
		     "jnz 1b" : : "m" (private_line[cpu][0]) : "ecx", "cc", "memory");
	IC_COUNT_END(IC_COUNT_CALIB_PRIVATE);
}

/*
 * Tag 10 (-smp 2, both CPUs): PINGPONG_ROUNDS handoffs of "turn". Each
 * round the CPU spins until turn is its own, then stores the other's, so
 * it reads a line last written by the other CPU and stores to it: about
 * two transfers a round (fewer when a read overtakes the writer's table
 * update; transfers are approximate), one line, exactly one store a round.
 */
static void calib_pingpong(unsigned int cpu)
{
	IC_COUNT_BEGIN(IC_COUNT_CALIB_PINGPONG);
	asm volatile("mov %3, %%ecx\n"
		     "1: cmp %1, %0\n"
		     "je 2f\n"
		     "pause\n"
		     "jmp 1b\n"
		     "2: mov %2, %0\n"
		     "dec %%ecx\n"
		     "jnz 1b"
		     : "+m" (turn) : "r" (cpu), "r" (1 - cpu),
		       "i" (PINGPONG_ROUNDS) : "ecx", "cc", "memory");
	IC_COUNT_END(IC_COUNT_CALIB_PINGPONG);
}

/*
 * Tag 11 (-smp 2, CPU 0 only): READSHARED_N loads of a line that the AP
 * wrote once before the sample = 3001 instructions, 1000 loads, 1 line,
 * and exactly 1 transfer: the first load fetches the line the AP holds
 * modified, and CPU 0 then holds a copy that nothing invalidates. Every
 * load is a read of a line last written elsewhere (writer_reads 1000):
 * the figure the coherence model replaced. Exact, not approximate: the
 * AP's store is recorded before its store to "posted", which CPU 0 waits
 * for, and the AP does not write the line again until "acked".
 */
static void calib_readshared(unsigned int round)
{
	while (posted != round + 1)
		asm volatile("pause");
	IC_COUNT_BEGIN(CALIB_TAG_READSHARED);
	asm volatile("mov %1, %%ecx\n"
		     "1: mov %0, %%eax\n"
		     "dec %%ecx\n"
		     "jnz 1b" : : "m" (shared_line[0]), "i" (READSHARED_N)
		     : "eax", "ecx", "cc", "memory");
	IC_COUNT_END(CALIB_TAG_READSHARED);
	acked = round + 1;
}

/* The AP's half of tag 11: one store to the line, then publish it. */
static void calib_readshared_post(unsigned int round)
{
	while (acked != round)
		asm volatile("pause");
	shared_line[0] = round + 1;
	posted = round + 1;
}

/* The number of CPUs, from QEMU's fw_cfg (-smp). */
static unsigned int fw_cfg_cpus(void)
{
	unsigned int n;

	outw(FW_CFG_PORT, FW_CFG_NB_CPUS);
	n = inb(FW_CFG_PORT + 1);
	n |= (unsigned int)inb(FW_CFG_PORT + 1) << 8;
	return n;
}

static void apic_write(unsigned int reg, unsigned int v)
{
	*(volatile unsigned int *)(APIC_BASE + reg) = v;
}

static unsigned int apic_read(unsigned int reg)
{
	return *(volatile unsigned int *)(APIC_BASE + reg);
}

extern const unsigned char ap_trampoline[], ap_trampoline_end[];

/* INIT, then SIPI twice, to all other CPUs, as the MP spec has it. */
static void start_ap(void)
{
	unsigned char *dst = (unsigned char *)AP_TRAMPOLINE;
	const unsigned char *src;
	int i;

	for (src = ap_trampoline; src < ap_trampoline_end; src++)
		*dst++ = *src;
	apic_write(0xf0, apic_read(0xf0) | 0x100);	/* SVR: enable */
	apic_write(0x300, 0x000c4500);			/* INIT, all but self */
	while (apic_read(0x300) & 0x1000)
		;
	for (i = 0; i < 2; i++) {
		apic_write(0x300, 0x000c4600 | (AP_TRAMPOLINE >> 12));
		while (apic_read(0x300) & 0x1000)
			;
	}
	while (!ap_alive)
		asm volatile("pause");
}

__attribute__((noreturn, used)) void calib_ap_main(void)
{
	int r;

	ap_alive = 1;
	for (r = 0; r < CALIB_REPEATS; r++) {
		calib_private(1);
		calib_pingpong(1);
		calib_readshared_post(r);
	}
	ap_done = 1;
	for (;;)
		asm volatile("cli; hlt");
}

__attribute__((noreturn, used)) void calib_main(void)
{
	unsigned int cpus = fw_cfg_cpus();
	int r;

	puts_serial("calib: start\n");
	if (cpus > 1) {
		start_ap();
		puts_serial("calib: AP started\n");
	}
	for (r = 0; r < CALIB_REPEATS; r++) {
		if (cpus > 1) {
			calib_private(0);
			calib_pingpong(0);
			calib_readshared(r);
		}
		calib_add();
		calib_add_long();
		calib_lock();
		calib_mfence();
		calib_xchg();
		calib_entry();
		calib_pairing();
		calib_rep();
	}
	while (cpus > 1 && !ap_done)
		asm volatile("pause");
	puts_serial("calib: done\n");
	outb(DEBUG_EXIT_PORT, DEBUG_EXIT_DONE);
	for (;;)
		asm volatile("cli; hlt");
}

/* Multiboot enters here in 32-bit protected mode, paging and IRQs off. */
asm(".text\n"
    ".globl calib_start\n"
    "calib_start:\n"
    "	mov $stack + 4096, %esp\n"
    "	call calib_main\n");

/*
 * The AP starts in real mode at AP_TRAMPOLINE, CS = AP_TRAMPOLINE >> 4,
 * IP = 0: this code is copied there, so it addresses its own data relative
 * to its start. It loads a flat GDT, turns on protected mode and jumps to
 * 32-bit code in the image proper.
 */
asm(".section .rodata\n"
    ".balign 8\n"
    "calib_gdt:\n"
    "	.quad 0\n"
    "	.quad 0x00cf9a000000ffff\n"	/* 0x08: flat 32-bit code */
    "	.quad 0x00cf92000000ffff\n"	/* 0x10: flat data */
    "calib_gdt_end:\n"
    ".globl ap_trampoline, ap_trampoline_end\n"
    "ap_trampoline:\n"
    ".code16\n"
    "	cli\n"
    "	lgdtl %cs:ap_gdtr - ap_trampoline\n"
    "	mov %cr0, %eax\n"
    "	or $1, %eax\n"
    "	mov %eax, %cr0\n"
    "	ljmpl $0x08, $ap_entry32\n"
    "ap_gdtr:\n"
    "	.word calib_gdt_end - calib_gdt - 1\n"
    "	.long calib_gdt\n"
    "ap_trampoline_end:\n"
    ".code32\n"
    ".text\n"
    "ap_entry32:\n"
    "	mov $0x10, %ax\n"
    "	mov %ax, %ds\n"
    "	mov %ax, %es\n"
    "	mov %ax, %ss\n"
    "	mov %ax, %fs\n"
    "	mov %ax, %gs\n"
    "	mov $ap_stack + 4096, %esp\n"
    "	call calib_ap_main\n");
