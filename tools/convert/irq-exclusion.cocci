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
//  (d) a spinlock taken while it is held (on one path of a function, or
//      in a function called with it held: a self-deadlock), released twice
//      on one path, or held across a call that sleeps or may (sleep_on(),
//      schedule(), kmalloc(GFP_KERNEL), copy_to_user(), down(), ...),
//      directly or through the file's functions.
// Both sides holding the same spinlock (by its expression) is silent, and
// so is cli() (2002's global exclusion: rule (a) reports it instead).
//
// Handlers are the functions passed to request_irq(), ic_request_irq() or
// request_threaded_irq(), and the callbacks of hrtimers set up in a _HARD
// mode (hardirq too), and the functions of the file they call; the other
// side is every function reached from a function that is not a handler.
// A write on the other side made while a handler cannot run (before its
// request_irq(), outside its line's or its timer's window: quiet() below,
// docs/convert.md) does not count against that handler. "Data" is the file's static variables and their fields (g,
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
swreq = set()          # (file, func): passed to ic_request_irq(), an irqcore line
reqs = []              # (file, caller, line expression, handler, line): each request
stepcalls = []         # (file, caller, callee, first argument, line): STEP's and RAISE's
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
# What lets each interrupt side run and what waits it out. A handler's line
# runs from request_irq() (or enable_irq()) until free_irq() (or
# disable_irq()), both of which wait for a running handler; a hard hrtimer's
# callback from hrtimer_start() until hrtimer_cancel(), which waits for it.
REQUEST = ("request_irq", "ic_request_irq", "request_threaded_irq", "devm_request_irq",
           "devm_request_threaded_irq")
STEP = {"request_irq": "hstart", "ic_request_irq": "hstart", "request_threaded_irq": "hstart",
        "enable_irq": "hstart", "ic_enable_irq": "hstart",
        "free_irq": "hstop", "ic_free_irq": "hstop", "disable_irq": "hstop",
        "ic_disable_irq": "hstop",
        "hrtimer_start": "tstart", "hrtimer_start_range_ns": "tstart",
        "hrtimer_cancel": "tstop",
        "synchronize_irq": "sync", "ic_synchronize_irq": "sync"}
# irqcore's software raise: a line the file raises itself.
RAISE = ("ic_raise",)

rets = collections.defaultdict(set)    # (file, func) -> lines of return/goto
pathd = []             # (file, line, func, text): rule d found on one path
waitd = []             # (file, line, func, call, lock, line taken): a wait under a spinlock
# What waits for a running handler of its line (rule d, under the lock the
# handler takes: the handler spins on it, the wait never ends).
WAITS = ("disable_irq", "synchronize_irq")

# What sleeps, or may (rule d): under a spinlock it must not be called.
SLEEPS = {"sleep_on", "interruptible_sleep_on", "sleep_on_timeout",
          "interruptible_sleep_on_timeout", "schedule", "schedule_timeout",
          "wait_for_completion", "down", "down_interruptible", "down_read",
          "down_write", "mutex_lock", "msleep", "ssleep", "vmalloc", "vfree",
          "request_irq", "free_irq", "copy_to_user", "copy_from_user", "get_user",
          "put_user", "__copy_to_user", "__copy_from_user", "clear_user",
          "strncpy_from_user", "kernel_thread", "synchronize_irq"}
ALLOCS = {"kmalloc", "kzalloc", "kmem_cache_alloc", "__get_free_pages",
          "__get_free_page", "get_free_page", "__get_dma_pages", "alloc_skb",
          "alloc_pages", "alloc_page", "dev_alloc_skb"}
lines_of = {}

def line_text(f, line):
    # Latin-1: 2002 sources are not all UTF-8, and Latin-1 never fails.
    if f not in lines_of:
        try:
            with open(f, encoding="latin-1") as fd:
                lines_of[f] = fd.read().split("\n")
        except OSError:
            lines_of[f] = []
    t = lines_of[f]
    return t[line - 1] if 0 < line <= len(t) else ""

def sleeping_call(f, line, g):
    if g in SLEEPS:
        return True
    import re
    return g in ALLOCS and re.search(r"\bGFP_(KERNEL|USER|BUFFER|NOIO|NOFS)\b",
                                     line_text(f, line)) is not None

def norm(s):
    return "".join(s.split())

def seen(f):
    if f not in files:
        files.append(f)

@h@
identifier handler;
expression irq, fl, nm, d, dev;
position p;
@@
(
request_irq@p(irq, handler, fl, nm, d)
|
request_irq@p(irq, &handler, fl, nm, d)
|
ic_request_irq@p(irq, handler, fl, nm, d)
|
request_threaded_irq@p(irq, handler, ...)
|
devm_request_irq@p(dev, irq, handler, ...)
|
devm_request_threaded_irq@p(dev, irq, handler, ...)
)

@script:python@
handler << h.handler;
irq << h.irq;
p << h.p;
@@
handlers.add((p[0].file, handler))
reqs.append((p[0].file, p[0].current_element, norm(irq), handler, int(p[0].line)))

@hic@
identifier handler;
expression irq, fl, nm, d;
position p;
@@
ic_request_irq@p(irq, handler, fl, nm, d)

@script:python@
handler << hic.handler;
p << hic.p;
@@
swreq.add((p[0].file, handler))

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
if (op in STEP or op in RAISE) and L:
    stepcalls.append((p[0].file, p[0].current_element, op, norm(L).lstrip("&"), line))

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
|
  g@p[...] aop E
|
  g@p[...]++
|
  ++g@p[...]
|
  g@p.fld[...]++
|
  ++g@p.fld[...]
|
  g@p.fld[...]--
|
  --g@p.fld[...]
)

@script:python@
g << w.g;
fld << w.fld = "";
p << w.p;
@@
seen(p[0].file)
# A static initialiser (its element is the variable) and a #define body
# (something_else) are not writes a function makes.
if p[0].current_element not in (g, "something_else"):
    writes.append((p[0].file, p[0].current_element, g + ("." + fld if fld else ""), int(p[0].line)))

// Where functions return or jump out (not the implicit return on a void
// function's closing brace): a closing call just before one ends only
// that path's section (held()).
@ret@
identifier l;
position q;
@@
(
return@q ...;
|
goto@q l;
)

@script:python@
q << ret.q;
@@
t = line_text(q[0].file, int(q[0].line))
if t == "" or "return" in t or "goto" in t:
    rets[(q[0].file, q[0].current_element)].add(int(q[0].line))

// Rule d, on one path of a function: a spinlock taken while it is held,
// released when it is not held any more (released twice), a sleeping call
// while one is held.
@d1 exists@
expression L;
identifier lk1 = { spin_lock, spin_lock_irq, spin_lock_irqsave, spin_lock_bh };
identifier lk2 = { spin_lock, spin_lock_irq, spin_lock_irqsave, spin_lock_bh };
identifier ul = { spin_unlock, spin_unlock_irq, spin_unlock_irqrestore, spin_unlock_bh };
position p1, p2;
@@
lk1@p1(L, ...);
... when != ul(L, ...)
lk2@p2(L, ...);

@script:python@
L << d1.L;
lk2 << d1.lk2;
p1 << d1.p1;
p2 << d1.p2;
@@
pathd.append((p2[0].file, int(p2[0].line), p2[0].current_element,
              "%s(%s) while %s is held since line %s: taken twice on one path, a self-deadlock"
              % (lk2, norm(L), norm(L), p1[0].line)))

@d2 exists@
expression L;
identifier ul1 = { spin_unlock, spin_unlock_irq, spin_unlock_irqrestore, spin_unlock_bh };
identifier ul2 = { spin_unlock, spin_unlock_irq, spin_unlock_irqrestore, spin_unlock_bh };
identifier lkf = { spin_lock, spin_lock_irq, spin_lock_irqsave, spin_lock_bh, spin_trylock };
position p1, p2;
@@
ul1@p1(L, ...);
... when != lkf(L, ...)
ul2@p2(L, ...);

@script:python@
L << d2.L;
ul2 << d2.ul2;
p1 << d2.p1;
p2 << d2.p2;
@@
pathd.append((p2[0].file, int(p2[0].line), p2[0].current_element,
              "%s(%s) after it was released on line %s on the same path: released twice"
              % (ul2, norm(L), p1[0].line)))

@d3 exists@
expression L;
identifier lkf = { spin_lock, spin_lock_irq, spin_lock_irqsave, spin_lock_bh };
identifier ul = { spin_unlock, spin_unlock_irq, spin_unlock_irqrestore, spin_unlock_bh };
// The names of SLEEPS and ALLOCS (initialize): a bare identifier here
// made the rule try every call after every lock (minutes on cyclades.c).
identifier sl = { sleep_on, interruptible_sleep_on, sleep_on_timeout,
	interruptible_sleep_on_timeout, schedule, schedule_timeout,
	wait_for_completion, down, down_interruptible, down_read, down_write,
	mutex_lock, msleep, ssleep, vmalloc, vfree, request_irq, free_irq,
	copy_to_user, copy_from_user, get_user, put_user, __copy_to_user,
	__copy_from_user, clear_user, strncpy_from_user, kernel_thread,
	synchronize_irq, kmalloc, kzalloc, kmem_cache_alloc, __get_free_pages,
	__get_free_page, get_free_page, __get_dma_pages, alloc_skb, alloc_pages,
	alloc_page, dev_alloc_skb };
position p1, p2;
@@
lkf@p1(L, ...);
... when != ul(L, ...)
sl@p2(...)

@script:python@
L << d3.L;
sl << d3.sl;
p1 << d3.p1;
p2 << d3.p2;
@@
if sleeping_call(p2[0].file, int(p2[0].line), sl):
    pathd.append((p2[0].file, int(p2[0].line), p2[0].current_element,
                  "%s() under the spinlock %s taken on line %s: it sleeps or may, and a spinlock "
                  "holder must not" % (sl, norm(L), p1[0].line)))

// Rule d, a wait for the handler under its lock: disable_irq() and
// synchronize_irq() wait until a running handler of the line returns; one
// spinning on the lock held here never does (under the cli() of 2002 the
// handler took no lock, so the converted driver deadlocks where the
// original did not). Which locks a handler takes is known in finalize.
@d4 exists@
expression L;
identifier lkf = { spin_lock, spin_lock_irq, spin_lock_irqsave, spin_lock_bh };
identifier ul = { spin_unlock, spin_unlock_irq, spin_unlock_irqrestore, spin_unlock_bh };
identifier wt = { disable_irq, synchronize_irq };
position p1, p2;
@@
lkf@p1(L, ...);
... when != ul(L, ...)
wt@p2(...)

@script:python@
L << d4.L;
wt << d4.wt;
p1 << d4.p1;
p2 << d4.p2;
@@
waitd.append((p2[0].file, int(p2[0].line), p2[0].current_element, wt, norm(L), int(p1[0].line)))

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
        fr = rets.get((f, fn), set())
        for i, (l0, kind, lock, opens) in enumerate(ms):
            if not opens or l0 >= line:
                continue
            closed = False
            after = [(l1, k1, lock1, o1) for (l1, k1, lock1, o1) in ms[i + 1:]
                     if not o1 and k1 == kind and (kind != "spin" or lock1 == lock) and l1 > l0]
            for j, (l1, k1, lock1, o1) in enumerate(after):
                # A closing call just before a return or goto, with
                # another after it, ends only the early exit's path:
                # the section goes on (save_flags(); cli(); if (busy)
                # { restore_flags(); return; } ...; restore_flags();).
                # (Not when the next closing call closes another opening,
                # made after this one: the early exit was a section of its own.)
                if (j + 1 < len(after) and any(l1 <= r <= l1 + 2 for r in fr) and
                        not any(o2 and k2 == kind and lock2 == lock and l1 < l2 < after[j + 1][0]
                                for (l2, k2, lock2, o2) in ms)):
                    continue
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

    def entries(fn, seen=()):
        """The interrupt-side functions (handlers, hard timers) fn runs under."""
        if fn in seen:
            return set()
        out = set([fn]) if fn in irqside else set()
        for (caller, _) in callers.get(fn, []):
            out |= entries(caller, seen + (fn,))
        return out

    # Each handler's lines (the expressions it was requested on), and each
    # hard timer callback's timers.
    lines = collections.defaultdict(set)
    for (ff, _, irq, hnd, _) in reqs:
        if ff == f:
            lines[hnd].add(irq)
    timers_of = collections.defaultdict(set)
    for (ff, t), cb in timers.items():
        if ff == f:
            timers_of[cb].add(t)
    fsteps = [(a, op, arg, l) for (ff, a, op, arg, l) in stepcalls if ff == f]

    # A handler on an irqcore line (ic_request_irq()) that the file raises
    # itself (ic_raise() on that line), and only from hard timer callbacks,
    # is driven by those timers: it runs only while they are armed, and
    # once they are cancelled, until the line's last raise has been waited
    # out (synchronize_irq(), free_irq() or disable_irq() on the line after
    # the cancel). bench/'s raisers. A line the file does not raise has a
    # source the checker cannot see (a device), and is never driven.
    swhandlers = set(fn for (ff, fn) in swreq if ff == f)

    def drivers(hnd):
        """The timers that alone raise hnd's line, or an empty set."""
        if hnd not in swhandlers:
            return set()
        raisers = [a for (a, op, arg, _) in fsteps if op in RAISE and arg in lines[hnd]]
        if not raisers or not all(entries(r) and entries(r) <= hard for r in raisers):
            return set()
        out = set()
        for r in raisers:
            for cb in entries(r):
                out |= timers_of[cb]
        return out

    # Where each function lets an interrupt side run and where it waits it
    # out: its own calls of STEP's functions, each with what it names (a
    # line, a timer, or for "request" the handler), and its calls of (or
    # arguments naming) the file's functions that make them, to any depth,
    # at the line of that call.
    steps = collections.defaultdict(set)   # fn -> {(line, kind, what)}
    for (caller, op, arg, line) in fsteps:
        if op in STEP:
            steps[caller].add((line, STEP[op], arg))
    for (ff, caller, irq, hnd, line) in reqs:
        if ff == f:
            steps[caller].add((line, "hstart", irq))
            steps[caller].add((line, "request", hnd))
    links = [(a, b, l) for (a, b, l) in fcalls if b in funcs and a != b]
    links += [(a, b, l) for (ff, a, b, l) in fnargs if ff == f and b in funcs and a != b
              and b not in irqside]
    changed = True
    while changed:
        changed = False
        for (caller, callee, line) in links:
            for (_, kind, what) in list(steps.get(callee, ())):
                if (line, kind, what) not in steps[caller]:
                    steps[caller].add((line, kind, what))
                    changed = True

    def window(line, starts, stops):
        """Before the first start or after the last stop, in a function that
        stops what it started before it returns: such a function is taken
        to be entered and left with that side quiet."""
        if not starts or not stops or max(stops) < max(starts):
            return False
        return line < min(starts) or line > max(stops)

    def quiet(fn, line, side):
        """Is a write in fn at line made while side (a handler or a hard
        timer's callback) cannot run? Before fn's first request_irq() of
        that handler (it is not registered yet), or outside the window in
        which fn lets that side run: request_irq()/enable_irq() to
        free_irq()/disable_irq() of its line for a handler,
        hrtimer_start() to hrtimer_cancel() of its timer for a timer
        callback, and for a driven handler its timers' window closed by a
        wait for its line."""
        if fn in irqside:
            return False
        st = steps.get(fn, set())

        def at(kinds, whats):
            return [l for (l, k, w) in st if k in kinds and w in whats]
        if side in hard:
            t = timers_of[side]
            return window(line, at(("tstart",), t), at(("tstop",), t))
        req = at(("request",), (side,))
        if req and line < min(req):
            return True
        ln = lines[side]
        if window(line, at(("hstart",), ln), at(("hstop",), ln)):
            return True
        t = drivers(side)
        if t:
            cancels = at(("tstop",), t)
            waits = [l for l in at(("sync", "hstop"), ln) if any(c <= l for c in cancels)]
            return window(line, at(("tstart",), t), waits)
        return False

    sides = collections.defaultdict(lambda: {"irq": [], "task": []})
    for (fn, data, line) in fwrites:
        for ctx in ("irq", "task"):
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
            ents = entries(hf)
            for (tf, tl, tp) in task:
                if ents and all(quiet(tf, tl, e) for e in ents):
                    continue
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
    # Rule d: on one path (the path rules d1..d3), and through the file's
    # functions: a call made while a spinlock is held, to a function that
    # takes it again or that sleeps (to any depth).
    # A function takes a lock when its first mark of that lock opens it:
    # one that first releases it is called with it held and takes it back
    # before it returns (smc_phy_reset() in smc91x.c).
    takes = collections.defaultdict(set)
    drops = collections.defaultdict(set)
    for fn, ms in fmarks.items():
        first = {}
        for (l0, kind, lock, opens) in sorted(ms):
            if kind == "spin" and lock not in first:
                first[lock] = opens
        takes[fn] = set(lock for lock, opens in first.items() if opens)
        drops[fn] = set(lock for lock, opens in first.items() if not opens)
    sleeps_in = {}
    for (caller, callee, line) in sorted(fcalls, key=lambda c: c[2]):
        if sleeping_call(f, line, callee) and caller not in sleeps_in:
            sleeps_in[caller] = (callee, line)

    def below(fn):
        seen, todo = [], [fn]
        while todo:
            g = todo.pop(0)
            if g in seen:
                continue
            seen.append(g)
            todo.extend(b for (a, b, _) in fcalls if a == g and b in funcs)
        return seen
    dfound = set((l, fn, t) for (ff, l, fn, t) in pathd if ff == f)
    # The locks each interrupt handler of the file takes, itself or
    # through the functions of the file (not a timer callback: disable_irq() and
    # synchronize_irq() wait for the handlers of the line only).
    hlocks = {}
    for (ff, hnd) in handlers:
        if ff == f:
            for g in below(hnd):
                for lock in takes.get(g, set()):
                    hlocks.setdefault(lock, hnd)
    waits_in = {}
    for (caller, callee, line) in sorted(fcalls, key=lambda c: c[2]):
        if callee in WAITS and caller not in waits_in:
            waits_in[caller] = (callee, line)

    def waitmsg(call, lock):
        return ("%s() waits for a running %s(), which takes %s too and spins on it here: "
                "a deadlock" % (call, hlocks[lock], lock))
    for (ff, line, fn, call, lock, taken) in waitd:
        if ff == f and lock in hlocks:
            # Said once: not also as a sleeping synchronize_irq() (d3).
            dfound = set(d for d in dfound if not (d[0] == line and d[2].startswith(call + "()")))
            dfound.add((line, fn, "%s() under the spinlock %s taken on line %d: %s"
                        % (call, lock, taken, waitmsg(call, lock))))
    for (caller, callee, line) in fcalls:
        if callee not in funcs or callee == caller:
            continue
        spins = set(l for k, l in held(caller, line) if k == "spin")
        if not spins:
            continue
        for g in below(callee):
            if spins & drops.get(g, set()):
                break       # it lets the lock go before anything else
            again = spins & takes.get(g, set())
            if again:
                dfound.add((line, caller, "%s() takes %s, held here: taken twice on one path "
                            "(through %s()), a self-deadlock" % (g, sorted(again)[0], callee)))
                break
            held_by_handler = sorted(l for l in spins if l in hlocks)
            if g in waits_in and held_by_handler:
                dfound.add((line, caller, "%s() calls %s() on line %d under the spinlock %s held "
                            "here: %s" % (g, waits_in[g][0], waits_in[g][1], held_by_handler[0],
                                          waitmsg(waits_in[g][0], held_by_handler[0]))))
                break
            if g in sleeps_in:
                dfound.add((line, caller, "%s() calls %s() on line %d, which sleeps or may, "
                            "under the spinlock %s held here" % (g, sleeps_in[g][0],
                                                                  sleeps_in[g][1], sorted(spins)[0])))
                break
    for (line, fn, text) in sorted(dfound):
        print("%s:%d: rule d: in %s(): %s" % (f, line, fn, text))
        findings += 1
    print("lint-irq: %s: handlers=%d hard_timers=%d handler_writes=%d findings=%d" %
          (f, nhandlers, len(hard), nirq, findings))

for f in files:
    lint(f)
if not files:
    print("lint-irq: ?: nothing matched")
