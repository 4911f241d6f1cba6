// SPDX-License-Identifier: GPL-2.0
// irq-exclusion.cocci - find interrupt-only exclusion on SMP.
//
//   spatch --sp-file irq-exclusion.cocci FILE      (make lint-irq FILE=...)
//
// Rules, each report naming the data, the places and the rule:
//  (a) every cli(), sti(), save_flags(), restore_flags() left: gone in
//      2.5.28 (irqcore's ic_cli() family, its biglock experiment, is not
//      reported).
//  (b) data written both in an interrupt handler and, elsewhere, inside
//      local_irq_save()/local_irq_disable() (or 2.5.28's __cli()) with no
//      spinlock held: the local style's bug. Masking one CPU does not
//      keep out a handler running on another.
//  (c) data written in a handler and elsewhere where one side holds no
//      protection at all (the none style; also a handler that lost its
//      spin_lock() while process context still takes the lock).
// Both sides holding the same spinlock (by its expression) is silent, and
// so is cli() (2002's global exclusion: rule (a) reports it instead).
//
// Handlers are the functions passed to request_irq(), ic_request_irq() or
// request_threaded_irq(), and the functions of the file they call; the
// other side is every function reached from a function that is not a
// handler. "Data" is the file's static variables and their fields (g,
// g.f, g.f[i]); writes are assignments and increments. A section is the
// span of lines between an opening call and the matching closing call in
// one function; protection held at a call site carries into the callee.
// The summary line counts what was examined: handlers, static writes in
// a handler, findings.

@initialize:python@
@@
import collections
handlers = set()
calls = []             # (caller, callee, line)
writes = []            # (func, data, line)
marks = collections.defaultdict(list)   # func -> [(line, kind, lock, opens)]
legacy = []            # (file, line, func, name)
fname = [None]

OPEN = {"spin_lock": "spin", "spin_lock_irq": "spin", "spin_lock_irqsave": "spin",
        "spin_lock_bh": "spin", "raw_spin_lock": "spin", "raw_spin_lock_irq": "spin",
        "raw_spin_lock_irqsave": "spin", "write_lock_irq": "spin", "write_lock_irqsave": "spin",
        "write_lock": "spin",
        "local_irq_save": "local", "local_irq_disable": "local", "__cli": "local",
        "__save_flags": None,
        "cli": "cli", "ic_cli": "cli"}
CLOSE = {"spin_unlock": "spin", "spin_unlock_irq": "spin", "spin_unlock_irqrestore": "spin",
         "spin_unlock_bh": "spin", "raw_spin_unlock": "spin", "raw_spin_unlock_irq": "spin",
         "raw_spin_unlock_irqrestore": "spin", "write_unlock_irq": "spin",
         "write_unlock_irqrestore": "spin", "write_unlock": "spin",
         "local_irq_restore": "local", "local_irq_enable": "local", "__sti": "local",
         "__restore_flags": "local",
         "sti": "cli", "ic_sti": "cli", "restore_flags": "cli", "ic_restore_flags": "cli"}

def norm(s):
    return "".join(s.split())

@h@
identifier handler;
expression irq, fl, nm, d;
position p;
@@
(
request_irq@p(irq, handler, fl, nm, d)
|
ic_request_irq@p(irq, handler, fl, nm, d)
|
request_threaded_irq@p(irq, handler, ...)
)

@script:python@
handler << h.handler;
p << h.p;
@@
handlers.add(handler)
fname[0] = p[0].file

@c@
identifier callee;
position p;
@@
callee@p(...)

@script:python@
callee << c.callee;
p << c.p;
@@
fname[0] = p[0].file
calls.append((p[0].current_element, callee, int(p[0].line)))

// The opening and closing calls, with the lock they name.
@lk@
identifier op;
expression L;
position p;
@@
(
op@p(L, ...)
|
op@p()
)

@script:python@
op << lk.op;
L << lk.L = "";
p << lk.p;
@@
fn = p[0].current_element
line = int(p[0].line)
if op in OPEN and OPEN[op]:
    marks[fn].append((line, OPEN[op], norm(L) if OPEN[op] == "spin" else "", True))
elif op in CLOSE:
    marks[fn].append((line, CLOSE[op], norm(L) if CLOSE[op] == "spin" else "", False))
if op in ("cli", "sti", "save_flags", "restore_flags"):
    legacy.append((p[0].file, line, fn, op))

@w@
identifier fld;
global idexpression g;
expression E;
assignment operator aop;
position p;
@@
(
  g@p aop E
|
  g@p.fld aop E
|
  g@p.fld[...] aop E
|
  g@p.fld[...][...] aop E
|
  g@p++
|
  ++g@p
|
  g@p--
|
  --g@p
|
  g@p.fld++
|
  ++g@p.fld
|
  g@p.fld--
|
  --g@p.fld
)

@script:python@
g << w.g;
fld << w.fld = "";
p << w.p;
@@
writes.append((p[0].current_element, g + ("." + fld if fld else ""), int(p[0].line)))

@finalize:python@
@@
def held(fn, line):
    """The protections open in fn at line: a set of (kind, lock)."""
    out = set()
    ms = sorted(marks.get(fn, []))
    for i, (l0, kind, lock, opens) in enumerate(ms):
        if not opens or l0 >= line:
            continue
        closed = False
        for (l1, k1, lock1, o1) in ms[i + 1:]:
            if not o1 and k1 == kind and (kind != "spin" or lock1 == lock) and l1 > l0:
                closed = l1 < line
                break
        if not closed:
            out.add((kind, lock))
    return out

funcs = set(marks) | set(f for f, _, _ in writes) | set(c[0] for c in calls)
callers = collections.defaultdict(list)
for (caller, callee, line) in calls:
    if callee in funcs and caller != callee:
        callers[callee].append((caller, line))

def reach(fn, ctx, seen=()):
    """Can fn run in ctx ('irq' or 'task')? The entry protections, or None."""
    if fn in seen:
        return None
    res = []
    if ctx == "irq" and fn in handlers:
        res.append(frozenset())
    if ctx == "task" and fn not in handlers and not callers.get(fn):
        res.append(frozenset())
    for (caller, line) in callers.get(fn, []):
        if ctx == "task" and caller in handlers:
            continue
        up = reach(caller, ctx, seen + (fn,))
        if up is not None:
            res.append(frozenset(up | held(caller, line)))
    if not res:
        return None
    return frozenset.intersection(*res)

sides = collections.defaultdict(lambda: {"irq": [], "task": []})
for (fn, data, line) in writes:
    for ctx in ("irq", "task"):
        entry = reach(fn, ctx)
        if entry is not None:
            sides[data][ctx].append((fn, line, set(entry) | held(fn, line)))

findings = 0
nirq = 0
f = fname[0] or "?"
for (file, line, fn, op) in sorted(legacy):
    print("%s:%d: rule a: %s() in %s(): gone in 2.5.28; use a spinlock (make convert)" % (file, line, op, fn))
    findings += 1
for data in sorted(sides):
    irq, task = sides[data]["irq"], sides[data]["task"]
    nirq += len(irq)
    if not irq or not task:
        continue
    done = set()
    for (hf, hl, hp) in irq:
        for (tf, tl, tp) in task:
            if (hf, hl) == (tf, tl) and hf not in handlers and hp == tp and any(k == "spin" for k, _ in hp):
                continue
            hs = set(l for k, l in hp if k == "spin")
            ts = set(l for k, l in tp if k == "spin")
            if hs & ts:
                continue
            if any(k == "cli" for k, _ in tp):
                continue
            if any(k == "local" for k, _ in tp) and not ts:
                rule, why = "b", "the other side masks only its own CPU (local_irq_*), no spinlock held"
            elif not tp:
                rule, why = "c", "the other side writes it with no protection at all"
            elif not hs:
                rule, why = "c", "the handler writes it with no lock held, the other side under %s" % ",".join(sorted(ts))
            else:
                rule, why = "c", "the two sides hold different locks"
            if (rule, hf, tf) in done:
                continue
            done.add((rule, hf, tf))
            print("%s:%d: rule %s: %s written on the handler side in %s() (line %d) and in %s() (line %d): %s" %
                  (f, tl, rule, data, hf, hl, tf, tl, why))
            findings += 1
print("lint-irq: %s: handlers=%d handler_writes=%d findings=%d" % (f, len(handlers), nirq, findings))
