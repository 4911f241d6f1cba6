/*
 * SPDX-License-Identifier: GPL-2.0
 *
 * biglock.pml - the 2.5.27 global IRQ lock: cli() against irq_enter() and
 * against a bottom half, on x86-TSO (every CPU has a store buffer).
 *
 * Abstracts module/biglock.c: ic_biglock_cli() with ic_get_irqlock() and
 * ic_wait_on_irq() (the lock taken by test_and_set_bit; while a handler or
 * a bottom half runs, the lock dropped, a window, and a retry), ic_biglock_
 * sti(), ic_biglock_irq_enter()/ic_biglock_irq_exit() (local_irq_count up,
 * smp_mb(), then a spin while the lock is held); and module/softirq.c:
 * ic_bh_action() (spin_trylock of the bh lock, the flag ic_bh_held set,
 * smp_mb(), then hardirq_trylock(): is the global lock held?).
 *
 * CPU 0 runs cli()/sti() sections; CPU 1 takes interrupts and runs bottom
 * halves. Each CPU's plain stores go into its store buffer, a FIFO that a
 * drain process empties in order, whenever it likes; a CPU's loads read its
 * own latest buffered store first, then memory. smp_mb() and locked
 * read-modify-writes (test_and_set_bit, spin_trylock) first wait for the
 * CPU's buffer to drain, then act on memory in one step: x86-TSO.
 *
 * Leaves out: more than two CPUs, nested interrupts, the holder's own
 * interrupts (it has them off), the stall report, the folded counter, and
 * local_bh_count (CPU 0 never runs a bottom half here).
 *
 * Properties: no handler and no bottom half runs on CPU 1 while CPU 0 is
 * inside a global cli() section; no deadlock (spin's end states); and
 * cli() makes progress: with weak fairness, no cycle of the system avoids
 * CPU 0's section for ever (pan -l -f, with the progress label in cpu0).
 *
 * Busted variants: -DBUSTED_ENTER drops irq_enter()'s smp_mb();
 * -DBUSTED_BH drops bh_action()'s. Each lets a store sit in CPU 1's buffer
 * while CPU 1 loads the lock bit, and spin finds CPU 0 and CPU 1 inside
 * together.
 *
 * Keep in step with module/biglock.c and module/softirq.c: a change to
 * the protocol there changes this model in the same commit.
 */

#define ROUNDS	2	/* cli() sections on CPU 0; interrupts or bhs on CPU 1 */
#define SB	2	/* store buffer entries per CPU */

/* Memory: the words the two sides publish to each other. */
#define V_LOCK		0	/* global_irq_lock, bit 0 */
#define V_IRQCOUNT	1	/* CPU 1's local_irq_count */
#define V_BHHELD	2	/* ic_bh_held */
#define NVAR		3

byte mem[NVAR];

/* A store buffer per CPU: parallel arrays of variable and value, FIFO. */
typedef sbuf {
	byte var[SB];
	byte val[SB];
	byte n;
};
sbuf buf[2];

bool bh_lock;			/* the bh spinlock: only locked RMWs touch it */
bool in_cli;			/* ghost: CPU 0 is inside a cli() section */
bool in_cpu1;			/* ghost: a handler or bottom half runs on CPU 1 */
byte done;

/* A plain store: into the CPU's buffer (waits while it is full). */
inline store(c, v, x)
{
	atomic {
		buf[c].n < SB ->
		buf[c].var[buf[c].n] = v;
		buf[c].val[buf[c].n] = x;
		buf[c].n++
	}
}

/* A plain load: the CPU's latest buffered store to v, else memory. */
inline load(c, v, r)
{
	atomic {
		r = mem[v];
		i = 0;
		do
		:: i < buf[c].n ->
			if
			:: buf[c].var[i] == v -> r = buf[c].val[i]
			:: else -> skip
			fi;
			i++
		:: else -> break
		od;
		i = 0
	}
}

/*
 * smp_mb(): wait until the drain has emptied the buffer. A locked RMW
 * tests the same (buf[c].n == 0) as the guard of its atomic step.
 */
inline drained(c)
{
	buf[c].n == 0
}

/* The hardware: drains CPU c's oldest store to memory, at any time. */
proctype drain(byte c)
{
end:	do
	:: atomic {
		buf[c].n > 0 ->
		mem[buf[c].var[0]] = buf[c].val[0];
		buf[c].var[0] = buf[c].var[1];
		buf[c].val[0] = buf[c].val[1];
		buf[c].n--
	   }
	od
}

/* CPU 0: cli(); the section; sti(), ROUNDS times. */
proctype cpu0()
{
	byte r, k, l, i, rounds = 0;

	do
	:: rounds < ROUNDS ->
		/* get_irqlock: test_and_set_bit, a locked RMW */
		atomic { buf[0].n == 0 && mem[V_LOCK] == 0 -> mem[V_LOCK] = 1 };
		/* wait_on_irq: the bh flag first, then the handler count */
		do
		:: load(0, V_BHHELD, r);
		   load(0, V_IRQCOUNT, k);
		   if
		   :: r == 0 && k == 0 -> break
		   :: else -> skip
		   fi;
		   store(0, V_LOCK, 0);		/* clear_bit_unlock */
		   /* wait, without the lock, until nothing runs and it is free */
		   do
		   :: load(0, V_BHHELD, r);
		      load(0, V_IRQCOUNT, k);
		      load(0, V_LOCK, l);
		      if
		      :: r == 0 && k == 0 && l == 0 -> break
		      :: else -> skip
		      fi
		   od;
		   atomic { buf[0].n == 0 && mem[V_LOCK] == 0 -> mem[V_LOCK] = 1 }
		od;
		in_cli = true;
progress_cli:	assert(!in_cpu1);
		in_cli = false;
		store(0, V_LOCK, 0);		/* sti(): clear_bit_unlock */
		rounds++
	:: else -> break
	od;
	atomic { done++ }
}

/* CPU 1: an interrupt (irq_enter .. irq_exit) or a bottom half, ROUNDS times. */
proctype cpu1()
{
	byte r, i, rounds = 0;

	do
	:: rounds < ROUNDS ->
		if
		:: true ->	/* an interrupt */
			store(1, V_IRQCOUNT, 1);	/* local_irq_count++ */
#ifndef BUSTED_ENTER
			drained(1);			/* smp_mb() */
#endif
			load(1, V_LOCK, r);
			do
			:: r != 0 -> load(1, V_LOCK, r)	/* spin until sti() */
			:: else -> break
			od;
			in_cpu1 = true;
			assert(!in_cli);
			in_cpu1 = false;
			store(1, V_IRQCOUNT, 0)		/* irq_exit: a release store */
		:: true ->	/* a bottom half */
			atomic { buf[1].n == 0 && !bh_lock -> bh_lock = true };	/* spin_trylock */
			store(1, V_BHHELD, 1);
#ifndef BUSTED_BH
			drained(1);			/* smp_mb() */
#endif
			load(1, V_LOCK, r);
			if
			:: r == 0 ->			/* hardirq_trylock() */
				in_cpu1 = true;
				assert(!in_cli);
				in_cpu1 = false
			:: else -> skip			/* re-marked; runs later */
			fi;
			store(1, V_BHHELD, 0);
			atomic { buf[1].n == 0 -> bh_lock = false }	/* spin_unlock */
		fi;
		rounds++
	:: else -> break
	od;
	atomic { done++ }
}

init
{
	atomic {
		run drain(0);
		run drain(1);
		run cpu0();
		run cpu1()
	}
	done == 2;
	assert(!in_cli && !in_cpu1)
}
