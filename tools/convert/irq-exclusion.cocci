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
# Every table is keyed by the file, so that one spatch run can take many
# files (make lint-irq over the tree: spatch's start-up is most of its cost).
files = []             # in the order they were first seen
handlers = set()       # (file, func): passed to request_irq() and its kin
timers = {}            # (file, timer expression) -> its callback
hardmode = set()       # (file, timer expression) set up in a _HARD mode
calls = []             # (file, caller, callee, line)
fnargs = []            # (file, caller, identifier passed as an argument, line)
writes = []            # (file, func, data, line)
marks = collections.defaultdict(list)   # (file, func) -> [(line, kind, lock, opens)]
legacy = []            # (file, line, func, name)

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
# What lets the interrupt side run (START) and what waits it out (STOP).
REQUEST = ("request_irq", "ic_request_irq", "request_threaded_irq")
START = REQUEST + ("enable_irq", "ic_enable_irq", "hrtimer_start", "hrtimer_start_range_ns")
STOP = ("free_irq", "ic_free_irq", "disable_irq", "ic_disable_irq", "synchronize_irq",
        "ic_synchronize_irq", "hrtimer_cancel")

def norm(s):
    return "".join(s.split())

def seen(f):
    if f not in files:
        files.append(f)

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
handlers.add((p[0].file, handler))

// An hrtimer whose mode is _HARD runs its callback in hardirq: the
// interrupt side, as a handler is (bench/'s raisers, devices/edu.c).
@ht@
expression T, C, M;
position p;
@@
(
hrtimer_init@p(&T, C, M)
|
hrtimer_init_on_stack@p(&T, C, M)
)

@script:python@
T << ht.T;
M << ht.M;
p << ht.p;
@@
if "HARD" in M:
    hardmode.add((p[0].file, norm(T)))

@hs@
expression T, C, M;
identifier fn;
position p;
@@
hrtimer_setup@p(&T, fn, C, M)

@script:python@
T << hs.T;
fn << hs.fn;
M << hs.M;
p << hs.p;
@@
timers[(p[0].file, norm(T))] = fn
if "HARD" in M:
    hardmode.add((p[0].file, norm(T)))

@hf@
expression T;
identifier fn;
position p;
@@
T.function@p = fn

@script:python@
T << hf.T;
fn << hf.fn;
p << hf.p;
@@
timers[(p[0].file, norm(T))] = fn

@c@
identifier callee;
position p;
@@
callee@p(...)

@script:python@
callee << c.callee;
p << c.p;
@@
seen(p[0].file)
calls.append((p[0].file, p[0].current_element, callee, int(p[0].line)))

// A function passed as an argument (smp_call_function_single(cpu, fn, ...)):
// counted only for what starts or stops the interrupt side, never as a call.
@fa@
identifier callee, arg;
position p;
@@
callee@p(..., arg, ...)

@script:python@
arg << fa.arg;
p << fa.p;
@@
fnargs.append((p[0].file, p[0].current_element, arg, int(p[0].line)))

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
fn = (p[0].file, p[0].current_element)
line = int(p[0].line)
if op in OPEN and OPEN[op]:
    marks[fn].append((line, OPEN[op], norm(L) if OPEN[op] == "spin" else "", True))
elif op in CLOSE:
    marks[fn].append((line, CLOSE[op], norm(L) if CLOSE[op] == "spin" else "", False))
if op in ("cli", "sti", "save_flags", "restore_flags"):
    legacy.append((p[0].file, line, p[0].current_element, op))

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
seen(p[0].file)
writes.append((p[0].file, p[0].current_element, g + ("." + fld if fld else ""), int(p[0].line)))

@finalize:python@
@@
def lint(f):
    """The checker on one file: print its reports and summary; the findings."""
    fmarks = dict((fn, m) for (ff, fn), m in marks.items() if ff == f)
    fwrites = [(fn, d, l) for (ff, fn, d, l) in writes if ff == f]
    fcalls = [(a, b, l) for (ff, a, b, l) in calls if ff == f]
    irqside = set(fn for (ff, fn) in handlers if ff == f)
    nhandlers = len(irqside)
    hard = set(fn for (ff, t), fn in timers.items() if ff == f and (ff, t) in hardmode)
    irqside |= hard

    def held(fn, line):
        """The protections open in fn at line: a set of (kind, lock)."""
        out = set()
        ms = sorted(fmarks.get(fn, []))
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

    funcs = set(fmarks) | set(fn for fn, _, _ in fwrites) | set(c[0] for c in fcalls)
    callers = collections.defaultdict(list)
    for (caller, callee, line) in fcalls:
        if callee in funcs and caller != callee:
            callers[callee].append((caller, line))

    def reach(fn, ctx, seen=()):
        """Can fn run in ctx ('irq' or 'task')? The entry protections, or None."""
        if fn in seen:
            return None
        res = []
        if ctx == "irq" and fn in irqside:
            res.append(frozenset())
        if ctx == "task" and fn not in irqside and not callers.get(fn):
            res.append(frozenset())
        for (caller, line) in callers.get(fn, []):
            if ctx == "task" and caller in irqside:
                continue
            up = reach(caller, ctx, seen + (fn,))
            if up is not None:
                res.append(frozenset(up | held(caller, line)))
        if not res:
            return None
        return frozenset.intersection(*res)

    # Where each function lets the interrupt side run and where it waits it
    # out: its own START/STOP calls, and its calls of (or arguments naming)
    # the file's functions that do, to any depth.
    steps = collections.defaultdict(set)   # fn -> {(line, 'start'|'stop'|'request')}
    for (caller, callee, line) in fcalls:
        if callee in START:
            steps[caller].add((line, "start"))
        if callee in REQUEST:
            steps[caller].add((line, "request"))
        if callee in STOP:
            steps[caller].add((line, "stop"))
    links = [(a, b, l) for (a, b, l) in fcalls if b in funcs and a != b]
    links += [(a, b, l) for (ff, a, b, l) in fnargs if ff == f and b in funcs and a != b
              and b not in irqside]
    changed = True
    while changed:
        changed = False
        for (caller, callee, line) in links:
            for kind in set(k for _, k in steps.get(callee, ())) - {"request"}:
                if (line, kind) not in steps[caller]:
                    steps[caller].add((line, kind))
                    changed = True

    def quiet(fn, line):
        """Is a write in fn at line made while the interrupt side cannot run?

        Before fn's first request_irq() (its handler is not registered yet),
        or, in a function that starts the interrupt side and waits it out
        again before it returns (request_irq() ... free_irq(), arming a
        timer ... hrtimer_cancel(), through the functions it calls), before
        the first start or after the last stop: such a function is entered
        and left with the interrupt side quiet."""
        if fn in irqside:
            return False
        st = steps.get(fn, set())
        req = [l for l, k in st if k == "request"]
        if req and line < min(req):
            return True
        starts = [l for l, k in st if k == "start"]
        stops = [l for l, k in st if k == "stop"]
        if not starts or not stops or max(stops) < max(starts):
            return False
        return line < min(starts) or line > max(stops)

    sides = collections.defaultdict(lambda: {"irq": [], "task": []})
    for (fn, data, line) in fwrites:
        for ctx in ("irq", "task"):
            if ctx == "task" and quiet(fn, line):
                continue
            entry = reach(fn, ctx)
            if entry is not None:
                sides[data][ctx].append((fn, line, set(entry) | held(fn, line)))

    findings = 0
    nirq = 0
    for (file, line, fn, op) in sorted(x for x in legacy if x[0] == f):
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
                if (hf, hl) == (tf, tl) and hf not in irqside and hp == tp and any(k == "spin" for k, _ in hp):
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
    print("lint-irq: %s: handlers=%d hard_timers=%d handler_writes=%d findings=%d" %
          (f, nhandlers, len(hard), nirq, findings))

for f in files:
    lint(f)
if not files:
    print("lint-irq: ?: nothing matched")
