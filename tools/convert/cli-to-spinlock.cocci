// SPDX-License-Identifier: GPL-2.0
// cli-to-spinlock.cocci - convert 2002 cli()/save_flags() exclusion to a
// driver spinlock, as the 2.5.28 seed converted mca.c, apm.c and vm86.c.
//
//   spatch --sp-file cli-to-spinlock.cocci -D lock=NAME FILE
//   (tools/convert/convert names the lock after the file and declares it)
//
// 1. save_flags(f); cli(); ... restore_flags(f);
//      -> spin_lock_irqsave(&L, f); ... spin_unlock_irqrestore(&L, f);
// 2. cli(); ... sti();  -> spin_lock_irq(&L); ... spin_unlock_irq(&L);
// 3. A handler passed to request_irq() that takes no lock or cli() of its
//    own but writes the file's static data: its body after the
//    declarations between spin_lock(&L) and spin_unlock(&L) (its line is
//    excluded already; the lock keeps out the other CPUs' sections).
// What it cannot convert safely it leaves alone and reports, with the
// line ("left alone: FILE:LINE: CALL: REASON"): a section left by return
// or goto (when strict: every path must reach the closing call), a nested
// cli(), a cli() whose sti() is not in the same function.

@initialize:python@
@@
nested = set()
locked_handlers = set()
first_stmt = {}
reported = set()

def key(p):
    return (p[0].file, p[0].line, p[0].column)

// A cli() inside an open cli() section: both are left alone.
@nest@
position p1, p2;
@@
cli@p1();
... when != sti()
    when != restore_flags(...)
cli@p2();

@script:python@
p1 << nest.p1;
p2 << nest.p2;
@@
nested.add(key(p1))
nested.add(key(p2))

@irqsave@
identifier virtual.lock;
expression f;
position p : script:python() { key(p) not in nested };
@@
- save_flags(f);
- cli@p();
+ spin_lock_irqsave(&lock, f);
  ... when strict
      when != cli()
      when != sti()
      when != save_flags(f)
- restore_flags(f);
+ spin_unlock_irqrestore(&lock, f);

@irqpair@
identifier virtual.lock;
position p : script:python() { key(p) not in nested };
@@
- cli@p();
+ spin_lock_irq(&lock);
  ... when strict
      when != cli()
      when != save_flags(...)
      when != restore_flags(...)
- sti();
+ spin_unlock_irq(&lock);

// The interrupt handlers: the functions passed to request_irq().
@h@
identifier handler;
expression irq, fl, nm, d;
@@
request_irq(irq, handler, fl, nm, d)

// A handler that already brackets its own sections is left as it is.
@hlock@
identifier h.handler;
@@
handler(...) {
  <+...
(
  cli();
|
  spin_lock(...);
|
  spin_lock_irq(...);
|
  spin_lock_irqsave(...);
|
  local_irq_save(...);
|
  local_irq_disable();
)
  ...+>
}

@script:python depends on hlock@
handler << h.handler;
@@
locked_handlers.add(handler)

// ... and so is one that writes no static data of the file.
@hwrite@
identifier h.handler;
global idexpression g;
identifier fld;
expression E;
assignment operator aop;
@@
handler(...) {
  <+...
(
  g aop E
|
  g.fld aop E
|
  g.fld[...] aop E
|
  g.fld[...][...] aop E
|
  g++
|
  g.fld++
)
  ...+>
}

// The first statement after the handler's declarations.
@hfirst depends on (irqsave || irqpair) && hwrite@
identifier h.handler;
statement S;
position p;
@@
handler(...) {
  ... when != S
  S@p
  ...
}

@script:python@
handler << h.handler;
p << hfirst.p;
@@
k = key(p)
if handler not in first_stmt or (k[1], k[2]) < first_stmt[handler][1:]:
    first_stmt[handler] = k

@hw depends on (irqsave || irqpair) && hwrite@
identifier virtual.lock;
identifier h.handler : script:python() { handler not in locked_handlers };
statement S;
position p : script:python(handler) { first_stmt.get(handler) == key(p) };
@@
handler(...) {
  ... when != S
+ spin_lock(&lock);
  S@p
  ...
+ spin_unlock(&lock);
}

// Whatever 2002 call is left was not safe to convert: say where and why.
@exits@
position p;
identifier l;
@@
cli@p();
... when exists
    when != sti()
    when != restore_flags(...)
(
return ...;
|
goto l;
)

@script:python@
p << exits.p;
@@
nested.add(key(p) + ("exit",))

@left@
position p;
@@
(
cli@p();
|
sti@p();
|
save_flags@p(...);
|
restore_flags@p(...);
)

@script:python@
p << left.p;
@@
k = key(p)
if k in reported:
    cocci.include_match(False)
elif k in nested:
    why = "nested cli(): a cli() inside an open cli() section"
elif k + ("exit",) in nested:
    why = "the section is left by return or goto with interrupts off"
else:
    why = "no matching sti()/restore_flags() on every path in the same function"
reported.add(k)
print("left alone: %s:%s: in %s(): %s" % (p[0].file, p[0].line, p[0].current_element, why))
