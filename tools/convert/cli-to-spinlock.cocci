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
//    own, has no return or goto, and writes the file's static data: its
//    body after the declarations between spin_lock(&L) and spin_unlock(&L)
//    (its line is excluded already; the lock keeps out the other CPUs'
//    sections).
// What it cannot convert safely it leaves alone and reports, with the
// input's line ("left alone: FILE:LINE: in FUNC(): REASON"): a section
// left by return or goto (when strict: every path must reach the closing
// call), a nested cli(), a cli() whose sti() is not in the same function,
// and, when the file's sections were converted, a handler that cannot be
// locked as rule 3 does: one that writes the data only through the
// functions it calls, one that takes a lock or local_irq_*() of its own,
// one with a return or goto, one that writes and also calls a function
// that takes the file's lock. The report is made from the positions in the
// input, before any rule changed it, and printed at the end.

@initialize:python@
@@
import re

nested = set()
exits = set()
closed = set()
opened = set()
converted = set()
calls = {}          # function -> functions it calls
calls2002 = {}      # key -> (file, line, function, name), from the input
writers = set()     # functions that write static data and take no lock
lockers = set()     # functions that take the file's lock
handler_at = {}     # handler -> (file, line) of its definition, in the input
handler_own = {}    # handler -> (line, call): a lock or local_irq_*() of its own
handler_exit = {}   # handler -> line of a return or goto in it
handler_writes = set()
locked_handlers = set()
first_stmt = {}
reports = {}        # (file, line, column) -> report line

def key(p):
    return (p[0].file, int(p[0].line), int(p[0].column))

# Coccinelle's "return ...;" also matches the implicit return at the end of
# a void function, on its closing brace: only a real one counts.
def explicit(p):
    try:
        with open(p[0].file) as f:
            text = f.readlines()[int(p[0].line) - 1]
    except (OSError, IndexError):
        return True
    return "return" in text or "goto" in text

# The name called at position p, from the input's text.
def callee(p):
    try:
        with open(p[0].file) as f:
            text = f.readlines()[int(p[0].line) - 1]
    except (OSError, IndexError):
        return "?"
    m = re.match(r"\w+", text[int(p[0].column):])
    return m.group(0) if m else "?"

def reaches(fn, which):
    seen, todo = set(), sorted(calls.get(fn, ()))
    while todo:
        g = todo.pop(0)
        if g in seen or g == fn:
            continue
        seen.add(g)
        if g in which:
            return g
        todo.extend(sorted(calls.get(g, ())))
    return None

// Every 2002 call in the input, before any rule changes it: what no rule
// converts is reported at the end, with the input's FILE:LINE.
@all2002@
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
p << all2002.p;
@@
calls2002[key(p)] = (p[0].file, p[0].line, p[0].current_element, callee(p))

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

// A section that some path leaves by return or goto.
@exit1 exists@
position p, q;
@@
cli@p();
... when != sti()
    when != restore_flags(...)
return@q ...;

@script:python@
p << exit1.p;
q << exit1.q;
@@
if explicit(q):
    exits.add(key(p))

@exit2 exists@
position p, q;
identifier l;
@@
cli@p();
... when != sti()
    when != restore_flags(...)
goto@q l;

@script:python@
p << exit2.p;
@@
exits.add(key(p))

// A cli() that some path closes in its function, a closing call that
// some path opens.
@close exists@
position p;
@@
cli@p();
... when any
(
sti();
|
restore_flags(...);
)

@script:python@
p << close.p;
@@
closed.add(key(p))

@open exists@
position p;
@@
(
cli();
|
save_flags(...);
)
... when any
(
sti@p();
|
restore_flags@p(...);
)

@script:python@
p << open.p;
@@
opened.add(key(p))

// The interrupt handlers: the functions passed to request_irq().
@h@
identifier handler;
expression irq, fl, nm, d;
@@
request_irq(irq, handler, fl, nm, d)

@hdef@
identifier h.handler;
position p;
@@
handler@p(...) { ... }

@script:python@
handler << h.handler;
p << hdef.p;
@@
handler_at[handler] = (p[0].file, p[0].line)

// A handler that brackets its own sections with cli() is left as it is
// (its sections are converted to the file's lock); one that takes a lock
// or local_irq_*() of its own cannot be given the file's lock safely.
@hcli@
identifier h.handler;
@@
handler(...) { <+... cli() ...+> }

@script:python depends on hcli@
handler << h.handler;
@@
locked_handlers.add(handler)

@hown@
identifier h.handler;
identifier lockfn = { spin_lock, spin_lock_irq, spin_lock_irqsave, spin_lock_bh,
		      raw_spin_lock, raw_spin_lock_irq, raw_spin_lock_irqsave,
		      spin_trylock, read_lock, write_lock, mutex_lock,
		      local_irq_save, local_irq_disable };
position p;
@@
handler(...) { <+... lockfn@p(...) ...+> }

@script:python@
handler << h.handler;
p << hown.p;
@@
line = int(p[0].line)
if handler not in handler_own or line < handler_own[handler][0]:
    handler_own[handler] = (line, callee(p))

@hret@
identifier h.handler;
identifier l;
position q;
@@
handler(...) {
  <+...
(
  return@q ...;
|
  goto@q l;
)
  ...+>
}

@script:python@
handler << h.handler;
q << hret.q;
@@
line = int(q[0].line)
if explicit(q) and (handler not in handler_exit or line < handler_exit[handler]):
    handler_exit[handler] = line

@irqsave@
identifier virtual.lock;
expression f;
position p : script:python() { key(p) not in nested };
position ps, pr;
@@
- save_flags@ps(f);
- cli@p();
+ spin_lock_irqsave(&lock, f);
  ... when strict
      when != cli()
      when != sti()
      when != save_flags(f)
- restore_flags@pr(f);
+ spin_unlock_irqrestore(&lock, f);

@script:python@
p << irqsave.p;
ps << irqsave.ps;
pr << irqsave.pr;
@@
converted.update((key(p), key(ps), key(pr)))

@irqpair@
identifier virtual.lock;
position p : script:python() { key(p) not in nested };
position pe;
@@
- cli@p();
+ spin_lock_irq(&lock);
  ... when strict
      when != cli()
      when != save_flags(...)
      when != restore_flags(...)
- sti@pe();
+ spin_unlock_irq(&lock);

@script:python@
p << irqpair.p;
pe << irqpair.pe;
@@
converted.update((key(p), key(pe)))

// What calls what, and which functions write the file's static data with
// no lock of their own (after the conversion: a function whose sections
// now take the file's lock counts as protecting itself).
@calls@
identifier fn, callee;
@@
fn(...) { <+... callee(...) ...+> }

@script:python@
fn << calls.fn;
callee << calls.callee;
@@
calls.setdefault(fn, set()).add(callee)

@fwrite@
identifier fn;
global idexpression g;
identifier fld;
expression E;
assignment operator aop;
@@
fn(...) {
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

@fwrite_locked@
identifier fwrite.fn;
identifier virtual.lock;
@@
fn(...) {
  <+...
(
  spin_lock_irqsave(&lock, ...)
|
  spin_lock_irq(&lock)
|
  spin_lock(&lock)
|
  cli()
)
  ...+>
}

@script:python depends on !fwrite_locked@
fn << fwrite.fn;
@@
writers.add(fn)

// Which functions take the file's lock (after the conversion): a handler
// that calls one cannot be wrapped in that lock (it would spin on itself).
@takes@
identifier fn;
identifier virtual.lock;
@@
fn(...) {
  <+...
(
  spin_lock_irqsave(&lock, ...)
|
  spin_lock_irq(&lock)
|
  spin_lock(&lock)
)
  ...+>
}

@script:python@
fn << takes.fn;
@@
lockers.add(fn)

// ... and which handlers write it themselves.
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

@script:python depends on hwrite@
handler << h.handler;
@@
handler_writes.add(handler)

// A handler the handler rule cannot lock safely, when the file's sections
// were converted: left alone and reported, never guessed.
@script:python depends on irqsave || irqpair@
handler << h.handler;
@@
if handler in handler_at and handler not in locked_handlers:
    direct = handler in handler_writes
    via = reaches(handler, writers)
    locker = reaches(handler, lockers)
    why = None
    if not direct and not via:
        pass
    elif handler in handler_own:
        why = ("takes %s() on line %d, not the converted sections' lock: "
               "lock it by hand" % (handler_own[handler][1], handler_own[handler][0]))
    elif handler in handler_exit:
        why = ("returns or jumps out on line %d: one spin_lock()/spin_unlock() "
               "around the body would not cover every path: lock it by hand"
               % handler_exit[handler])
    elif not direct:
        why = ("writes the file's static data only through %s(), which takes "
               "no lock: lock it by hand" % via)
    elif locker:
        why = ("calls %s(), which takes the converted sections' lock: one "
               "spin_lock() around the body would spin on itself: lock it by hand"
               % locker)
    if why:
        locked_handlers.add(handler)
        f, line = handler_at[handler]
        reports[(f, int(line), 0)] = ("left alone: %s:%s: in %s(): the handler %s"
                                     % (f, line, handler, why))

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
identifier h.handler : script:python() {
	handler not in locked_handlers and handler not in handler_own and
	handler not in handler_exit };
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

// Whatever 2002 call no rule converted was not safe to convert: say where
// and why, with the input's FILE:LINE.
@finalize:python@
@@
def why_cli(k, name):
    if k in nested:
        return "nested cli(): a cli() inside an open cli() section"
    if name == "cli" and k in exits:
        return "the section is left by return or goto with interrupts off"
    if name == "cli" and k not in closed:
        return "no sti()/restore_flags() after it in this function: its section is not closed here"
    return None

for k, (f, line, fn, name) in calls2002.items():
    if k in converted:
        continue
    why = why_cli(k, name)
    if why is None and name in ("sti", "restore_flags") and k not in opened:
        why = "no cli()/save_flags() before it in this function: its section is not opened here"
    if why is None:
        # Part of a section whose cli() was refused for a reason of its own.
        near = sorted(k2[1] for k2, v in calls2002.items()
                      if v[0] == f and v[2] == fn and v[3] == "cli" and
                      k2 not in converted and why_cli(k2, "cli"))
        if near and name != "cli":
            why = "goes with the cli() on line %d, left alone" % min(near, key=lambda l: abs(l - int(line)))
    if why is None:
        why = ("not in a shape the rules convert: save_flags(f); cli(); ... restore_flags(f); "
               "or cli(); ... sti(); in one function, reached on every path")
    reports[k] = "left alone: %s:%s: in %s(): %s(): %s" % (f, line, fn, name, why)
for k in sorted(reports):
    print(reports[k])
