/*
 * SPDX-License-Identifier: GPL-2.0
 *
 * kick.pml - the virtual controller's raise/kick/dispatch protocol, on
 * x86-TSO for the CPU that takes the kicks.
 *
 * Abstracts module/hw.c: ic_hw_post() (test_and_set_bit on the target
 * CPU's pending mask), the kick decision in ic_hw_deliver()
 * (atomic_xchg(&kicked, 1): only the raiser that finds it clear sends the
 * interrupt), and ic_hw_dispatch() on the target CPU (atomic_xchg(&kicked,
 * 0), then the scan: a plain read of the pending mask, and a
 * test_and_clear_bit for each bit it saw set).
 *
 * Two raisers on other CPUs raise two lines at the target; every step a
 * raiser takes is a locked RMW, so it reads and writes memory directly.
 * The target's plain stores go to its store buffer (drained in order at any
 * time), its plain loads read its own buffer first; its locked RMWs wait
 * for the buffer to drain. A kick is an IPI: each one sent runs the
 * dispatch once more, after any dispatch that is running.
 *
 * Leaves out: masks and latches, do_IRQ itself (a dispatched line just
 * counts as handled), round-robin targets, the offline path, the irq_work
 * bounce of a kick taken in idle.
 *
 * Properties: nothing is left pending without a kick to come: once the
 * raisers are done and no kick is outstanding, no bit is pending, and
 * every raise was handled or merged into one that was.
 *
 * Busted variants. -DBUSTED: the dispatch clears the kick flag with a plain
 * store, as hw.c once did (atomic_set): the scan's load can pass it in the
 * store buffer, a raiser then finds the flag still set and sends nothing,
 * and its line stays pending. -DBUSTED_LATE: the flag is cleared after the
 * scan instead of before it: a raise that lands behind the scan finds the
 * flag set, and nobody looks at its bit again.
 *
 * Keep in step with module/hw.c: a change to the protocol there changes
 * this model in the same commit.
 */

#define NLINES	2
#define RAISES	2	/* raises per raiser */
#define SB	2

/*
 * The target's words, and its store buffer. The only plain store the
 * target makes to a shared word is the busted variant's clear of the kick
 * flag, so the buffer holds values of that flag alone.
 */
byte pending[NLINES];
byte kicked;
byte kicks;			/* IPIs sent and not yet taken */
byte sb_val[SB];
byte sb_n;

byte raised, handled, merged;	/* ghost accounting */
byte done;

proctype drain()
{
end:	do
	:: atomic {
		sb_n > 0 ->
		kicked = sb_val[0];
		sb_val[0] = sb_val[1];
		sb_n--
	   }
	od
}

/* A raiser: ic_raise() of line @l, RAISES times. */
proctype raiser(byte l)
{
	byte n = 0;
	bool was;

	do
	:: n < RAISES ->
		/* test_and_set_bit(irq, pending): locked */
		atomic {
			raised++;
			was = pending[l];
			pending[l] = 1;
			if
			:: was -> merged++
			:: else -> skip
			fi
		};
		if
		:: !was ->
			/* atomic_xchg(&kicked, 1): send the kick if it was clear */
			atomic {
				was = kicked;
				kicked = 1;
				if
				:: !was -> kicks++
				:: else -> skip
				fi
			}
		:: else -> skip
		fi;
		n++
	:: else -> break
	od;
	atomic { done++ }
}

/* The target CPU: one dispatch per kick taken. */
proctype target()
{
	byte l, seen;

	do
	:: atomic { kicks > 0 -> kicks-- };
#if defined(BUSTED)
		atomic { sb_n < SB -> sb_val[sb_n] = 0; sb_n++ };	/* atomic_set */
#elif !defined(BUSTED_LATE)
		atomic { sb_n == 0 -> kicked = 0 };			/* atomic_xchg */
#endif
		l = 0;
		do
		:: l < NLINES ->
			seen = pending[l];		/* for_each_set_bit: a plain load */
			if
			:: seen ->
				/* test_and_clear_bit: locked */
				atomic {
					sb_n == 0 ->
					if
					:: pending[l] -> pending[l] = 0; handled++
					:: else -> skip
					fi
				}
			:: else -> skip
			fi;
			l++
		:: else -> break
		od;
#ifdef BUSTED_LATE
		atomic { sb_n == 0 -> kicked = 0 };			/* too late */
#endif
		skip
	:: atomic { done == NLINES && kicks == 0 } -> break
	od
}

init
{
	atomic {
		run drain();
		run raiser(0);
		run raiser(1);
		run target()
	}
	(_nr_pr == 2);		/* the drain is all that is left */
	sb_n == 0;		/* let the last store land */
	assert(pending[0] == 0 && pending[1] == 0);
	assert(raised == handled + merged)
}
