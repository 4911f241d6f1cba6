/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore - markers for the QEMU TCG counting plugin (tools/count/), which
 * counts instructions, locked read-modify-writes, fences and cache-line
 * transfers between a BEGIN and an END marker (docs/counting.md).
 *
 * A marker is one 8-byte instruction,
 *
 *	0f 1f 84 00 <tag> <op> c0 51	nopl 0x51c0<op><tag>(%rax,%rax,1)
 *
 * the multi-byte NOP with a 32-bit displacement, here 0x51c0 (a constant
 * that compilers do not emit) followed by the operation (1 BEGIN, 2 END)
 * and the tag. A NOP does not read its memory operand, so on hardware, and
 * in QEMU without the plugin, a marker does nothing at all: no access, no
 * register, no flag. Only the plugin, which matches the bytes when it
 * translates the code, gives it a meaning; it does not count the markers.
 *
 * Header-only and free of kernel includes, so that the calibration stub
 * (tools/count/calib.c, no libc) uses the same macros as the module: the
 * kernel's CONFIG_X86 turns the markers on, and code outside the kernel
 * defines IC_COUNT_X86 when it is built for x86. Elsewhere they are empty.
 */
#ifndef IRQCORE_COUNT_H
#define IRQCORE_COUNT_H

/**
 * enum ic_count_tag - the tags that the project assigns.
 * @IC_COUNT_CALIB_ADD: calibration, a 1000-iteration register add loop.
 * @IC_COUNT_CALIB_LOCK: calibration, 1000 x lock incl.
 * @IC_COUNT_CALIB_MFENCE: calibration, 1000 x mfence.
 * @IC_COUNT_CALIB_ADD_LONG: calibration, a 100000-iteration add loop.
 * @IC_COUNT_CALIB_XCHG: calibration, 100 x xchg with memory (implicit lock).
 * @IC_COUNT_CALIB_ENTRY: calibration, a sample that runs "entry" code.
 * @IC_COUNT_CALIB_PAIRING: calibration, unbalanced BEGIN and END.
 * @IC_COUNT_CALIB_REP: calibration, rep stosb over 64 bytes.
 * @IC_COUNT_CALIB_PRIVATE: calibration, lock incl on a CPU's own line.
 * @IC_COUNT_CALIB_PINGPONG: calibration, a line handed between two CPUs.
 * @IC_COUNT_LADDER_FIRST: first tag of the benchmark ladder.
 * @IC_COUNT_LADDER_LAST: last tag of the benchmark ladder.
 *
 * Tags 0..15 belong to the calibration stub (0 and 11..15 are reserved),
 * 16..127 to the benchmark ladder, which numbers its rungs from
 * @IC_COUNT_LADDER_FIRST; 128..255 are unassigned. The plugin keeps the
 * samples of each (tag, CPU) apart, so a tag must mean one code path.
 */
enum ic_count_tag {
	IC_COUNT_CALIB_ADD = 1,
	IC_COUNT_CALIB_LOCK = 2,
	IC_COUNT_CALIB_MFENCE = 3,
	IC_COUNT_CALIB_ADD_LONG = 4,
	IC_COUNT_CALIB_XCHG = 5,
	IC_COUNT_CALIB_ENTRY = 6,
	IC_COUNT_CALIB_PAIRING = 7,
	IC_COUNT_CALIB_REP = 8,
	IC_COUNT_CALIB_PRIVATE = 9,
	IC_COUNT_CALIB_PINGPONG = 10,
	IC_COUNT_LADDER_FIRST = 16,
	IC_COUNT_LADDER_LAST = 127,
};

#define IC_COUNT_OP_BEGIN	1
#define IC_COUNT_OP_END		2

#if defined(CONFIG_X86) || defined(IC_COUNT_X86)
/*
 * The tag is an assembler constant ("i", printed bare by %c), so it must
 * be known at compile time, and the assembler refuses one outside a byte.
 * A statement expression, so that the marker is one statement wherever a
 * statement may stand.
 */
#define __IC_COUNT_MARKER_ASM						\
	".if (%c0) < 0 || (%c0) > 255\n\t"				\
	".error \"IC_COUNT: tag must be 0..255\"\n\t"			\
	".endif\n\t"							\
	".byte 0x0f, 0x1f, 0x84, 0x00, %c0, %c1, 0xc0, 0x51"
#define __ic_count_marker(op, tag)					\
	({ asm volatile(__IC_COUNT_MARKER_ASM : : "i" (tag), "i" (op) : "memory"); })
#else
#define __ic_count_marker(op, tag) do { (void)(op); (void)(tag); } while (0)
#endif

/**
 * IC_COUNT_BEGIN() - open a counted sample on this CPU.
 * @tag: a compile-time constant 0..255, from enum ic_count_tag.
 *
 * A BEGIN while a sample is open on the CPU abandons the open one (the
 * plugin counts it as "abandoned"). The "memory" clobber keeps the compiler
 * from moving memory accesses across the marker; it does not order the
 * CPU, and need not: under TCG the count is of instructions executed.
 *
 * Context: any; the sample belongs to the CPU that runs the marker, so it
 * must not migrate before the matching IC_COUNT_END() (preemption or
 * interrupts off).
 */
#define IC_COUNT_BEGIN(tag)	__ic_count_marker(IC_COUNT_OP_BEGIN, tag)

/**
 * IC_COUNT_END() - close this CPU's sample of @tag.
 * @tag: the tag given to IC_COUNT_BEGIN().
 *
 * An END with no open sample, or with another tag open, is counted as
 * "unmatched" and leaves any open sample open.
 *
 * Context: any; the same CPU as the matching IC_COUNT_BEGIN().
 */
#define IC_COUNT_END(tag)	__ic_count_marker(IC_COUNT_OP_END, tag)

#endif /* IRQCORE_COUNT_H */
