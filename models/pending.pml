/*
 * SPDX-License-Identifier: GPL-2.0
 *
 * pending.pml - do_IRQ's PENDING/INPROGRESS hand-off, with disable_irq(),
 * enable_irq() and synchronize_irq() on the same line.
 *
 * Abstracts module/irq.c: ic_do_IRQ() (the commit, the hold in PENDING and
 * the loop that re-runs the chain), ic_disable_irq_nosync(), ic_enable_irq()
 * (the resend of a latched instance, which takes it out of PENDING) and
 * ic_wait_line() (the spin on INPROGRESS and its recheck under the lock).
 * The descriptor lock is one atomic test-and-set; everything the code does
 * under it happens in one atomic step here, which the lock makes true.
 *
 * Leaves out: the controller (an edge is an arrival at do_IRQ; a resend is
 * one more arrival, on a CPU of its own), shared actions, free_irq() and
 * request_irq(), the controller's own latch while masked (hw.c), and the
 * counter. Memory is sequentially consistent: every access that matters
 * here is made under the descriptor lock.
 *
 * Properties: never two CPUs in the handler at once; synchronize_irq()
 * returns only when no handler runs; no deadlock (spin's end states); and
 * nothing lost: once every process is done and the line is enabled, every
 * raise has run or was merged into one that ran, and the counts say so.
 *
 * Busted variant (-DBUSTED): do_IRQ does not look at PENDING again after
 * running the chain, so an instance held while the chain ran is never run.
 *
 * Keep in step with module/irq.c: a change to the protocol there changes
 * this model in the same commit (docs/models.md).
 */

#define NCPU	3		/* CPUs taking edges */
#define EDGES	2		/* edges each of them takes */

bool lock;			/* the descriptor lock */
bool inprogress, pending, disabled, replay;
byte depth;

byte resends;			/* resent edges on their way to a CPU */
byte in_handler;		/* CPUs inside the handler right now */
byte raised, runs, merged;	/* ghost accounting */
byte cpus_done;

inline lock_desc() { atomic { !lock -> lock = true } }
inline unlock_desc() { lock = false }

/* One arrival at do_IRQ (module/irq.c: ic_do_IRQ). */
inline do_irq(go)
{
	go = false;
	lock_desc();
	replay = false;
	if
	:: !disabled && !inprogress ->
		if
		:: pending -> merged++	/* a stale hold runs with this one */
		:: else -> skip
		fi;
		pending = false;
		inprogress = true;
		go = true
	:: else ->
		if
		:: pending -> merged++	/* one is held already */
		:: else -> pending = true	/* hold it for the loop or enable */
		fi
	fi;
	unlock_desc();
	do
	:: go ->
		in_handler++;
		assert(in_handler == 1);	/* never two CPUs at once */
		runs++;
		in_handler--;
		lock_desc();
#ifdef BUSTED
		go = false;
#else
		if
		:: pending -> pending = false	/* the hand-off: run again */
		:: else -> go = false
		fi;
#endif
		if
		:: !go -> inprogress = false
		:: else -> skip
		fi;
		unlock_desc()
	:: else -> break
	od
}

proctype cpu()
{
	byte n = 0;
	bool go;

	do
	:: n < EDGES -> atomic { raised++; n++ }; do_irq(go)
	:: n == EDGES -> break
	od;
	atomic { cpus_done++ }
}

/* Resent edges arrive on a CPU of their own, whenever they like. */
proctype resender()
{
	bool go;

	do
	:: atomic { resends > 0 -> resends-- }; do_irq(go)
	:: atomic { cpus_done == NCPU + 1 && resends == 0 } -> break
	od
}

/* disable_irq(); synchronize_irq(); enable_irq(): a driver at work. */
proctype driver()
{
	bool busy = true;

	lock_desc();
	if
	:: depth == 0 -> disabled = true
	:: else -> skip
	fi;
	depth++;
	unlock_desc();

	/* synchronize_irq (module/irq.c: ic_wait_line) */
	do
	:: busy ->
		!inprogress;		/* the spin, without the lock */
		lock_desc();
		busy = inprogress;
		assert(busy || in_handler == 0);	/* returns only when none runs */
		unlock_desc()
	:: else -> break
	od;

	/* enable_irq (module/irq.c: ic_enable_irq) */
	lock_desc();
	depth--;
	if
	:: depth == 0 ->
		disabled = false;
		if
		:: pending && !inprogress ->
			pending = false;	/* out of the hold, into flight */
			replay = true;
			resends++
		:: else -> skip
		fi
	:: else -> skip
	fi;
	unlock_desc();
	atomic { cpus_done++ }
}

init
{
	byte i;

	atomic {
		for (i : 1 .. NCPU) { run cpu() }
		run driver();
		run resender()
	}
	/* Everything done and the line enabled: nothing may be left. */
	(_nr_pr == 1);
	assert(!inprogress && !disabled && resends == 0);
	assert(!pending);			/* every held instance ran */
	assert(raised == runs + merged);	/* and the counts agree */
}
