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
calls2002 = {}      # key -> (file, line, function, name), from the input
call_raw = []       # (file, line, column, function, callee): every call, Coccinelle's lines
write_at = {}       # function -> first line where it writes the file's static data
pcall_at = []       # (file, line, function): calls through a pointer
swrite_all = []     # (file, line, function): every write of the file's static data
pwrite_at = []      # (file, line, function, field): writes through a pointer
pwrite_e = []       # (file, line, function, field, the pointer as written)
twice_at = {}       # function -> (line, line): a path that closes twice
rets = {}           # function -> first line of an explicit return or goto
sections = {}       # key of a cli() -> (file, function, first line, last line)
closers = {}        # key of a cli() -> keys of the calls that close its section
openers = {}        # key of a closing call -> keys of the cli()s it closes first on a path
sec1_at = set()     # keys of the cli()s that sec1 matched
sec2_at = set()     # ... sec2
kind = {}           # key of a cli() -> {"irqsave"} or {"irqpair"}: which rule's section
refusal = {}        # key of a cli() -> why its section is left alone
handler_at = {}     # handler -> (file, line) of its definition, in the input
locked_handlers = set()
first_stmt = {}
wrapped = set()     # handlers hw wrapped
reports = {}        # (file, line, column) -> report line
state = {}          # the lazily computed tables ("ready")

# Locks and interrupt masking of a handler's own: the file's lock, wrapped
# around it, would not exclude what they exclude.
OWN_LOCKS = {"spin_lock", "spin_lock_irq", "spin_lock_irqsave", "spin_lock_bh",
             "raw_spin_lock", "raw_spin_lock_irq", "raw_spin_lock_irqsave",
             "spin_trylock", "read_lock", "write_lock", "read_lock_irqsave",
             "write_lock_irqsave", "mutex_lock", "local_irq_save",
             "local_irq_disable", "__cli", "__save_flags"}
# What sleeps, or may: 2002's global lock was dropped by schedule() and
# taken again after it; a spinlock is not.
SLEEPS = {"sleep_on", "interruptible_sleep_on", "sleep_on_timeout",
          "interruptible_sleep_on_timeout", "schedule", "schedule_timeout",
          "wait_event", "wait_event_interruptible", "wait_event_timeout",
          "wait_event_interruptible_timeout", "wait_for_completion",
          "down", "down_interruptible", "down_read", "down_write", "mutex_lock",
          "msleep", "ssleep", "vmalloc", "vfree", "request_irq", "free_irq",
          "request_region", "copy_to_user", "copy_from_user", "get_user",
          "put_user", "__copy_to_user", "__copy_from_user", "clear_user",
          "strncpy_from_user", "verify_area", "kernel_thread",
          "tty_hangup", "flush_scheduled_tasks", "kill_proc"}
# These sleep only when asked to: GFP_KERNEL (or GFP_USER, GFP_BUFFER) on
# the call's line.
ALLOCS = {"kmalloc", "kzalloc", "kmem_cache_alloc", "__get_free_pages",
          "__get_free_page", "get_free_page", "__get_dma_pages", "alloc_skb",
          "alloc_pages", "alloc_page", "dev_alloc_skb"}
LOCK_CALLS = {"spin_lock", "spin_lock_irq", "spin_lock_irqsave"}
# These wait for a running handler of the line to finish: under cli() no
# handler ran (2.4's global cli() waited for them all), under a spinlock a
# handler may be spinning on that lock on another CPU and never finish.
WAITS_HANDLER = {"disable_irq", "synchronize_irq"}
C_WORDS = {"if", "while", "for", "switch", "return", "sizeof", "do", "case", "else"}

lines_of = {}

# The input's lines: 2002 sources are often Latin-1, not UTF-8 (a name
# with an accent in a comment): read as bytes, decoded as Latin-1, which
# never fails.
def text(f):
    if f not in lines_of:
        try:
            with open(f, encoding="latin-1") as fd:
                lines_of[f] = fd.read().split("\n")
        except OSError:
            lines_of[f] = []
    return lines_of[f]

# The input's lines with comments and strings blanked (same lines).
def stripped(f):
    if ("stripped", f) not in state:
        src = "\n".join(text(f))
        src = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), src, flags=re.S)
        src = re.sub(r"//[^\n]*|\"(?:\\.|[^\"\\\n])*\"", " ", src)
        state[("stripped", f)] = src.split("\n")
    return state[("stripped", f)]

def line_text(f, line):
    t = text(f)
    return t[line - 1] if 0 < line <= len(t) else ""

def key(p):
    return (p[0].file, int(p[0].line), int(p[0].column))

# Every place a position holds: a section closed on two paths binds its
# closing call's position to both.
def keys(p):
    return [(e.file, int(e.line), int(e.column)) for e in p]

# Coccinelle's line numbers can drift from the input's: after a string
# that runs over a newline (depca.c: 2002's gcc took it) or where its
# parser recovered from an error (h8.c), they are one short for the rest
# of the file. The names of the calls (fcall), at their columns on the
# input's lines, say by how much: real_line() is the input's line of one
# of Coccinelle's (a position's identity stays Coccinelle's: key()).
import bisect
drift = {}

def drifts(f):
    if f not in drift:
        t = text(f)
        cur, lines, deltas = 0, [], []
        for line, col, g in sorted(set((l, c, g) for ff, l, c, fn, g in call_raw if ff == f)):
            def at(d):
                i = line + d - 1
                return 0 <= i < len(t) and re.match(re.escape(g) + r"\s*\(", t[i][col:]) is not None
            if not at(cur):
                near = [d for d in sorted(range(-40, 41), key=lambda d: (abs(d - cur), d)) if at(d)]
                cur = near[0] if near else cur
            lines.append(line)
            deltas.append(cur)
        drift[f] = (lines, deltas)
    return drift[f]

def real_line(f, line):
    lines, deltas = drifts(f)
    i = bisect.bisect_right(lines, line)
    return line + (deltas[i - 1] if i else 0)

def line_of(p):
    return real_line(p[0].file, int(p[0].line))

# Every call with the input's line: (file, line, function, callee).
def calls_at():
    if "call_at" not in state:
        state["call_at"] = [(f, real_line(f, l), fn, g) for f, l, c, fn, g in call_raw]
    return state["call_at"]

# Coccinelle's "return ...;" also matches the implicit return at the end of
# a void function, on its closing brace: only a real one counts.
def explicit(p):
    t = line_text(p[0].file, line_of(p))
    return t == "" or "return" in t or "goto" in t

# The name called at position p, from the input's text.
def callee(p):
    m = re.match(r"\w+", line_text(p[0].file, line_of(p))[int(p[0].column):])
    return m.group(0) if m else "?"

def fn_calls():
    if "calls" not in state:
        calls = {}
        for f, line, fn, g in calls_at():
            calls.setdefault(fn, set()).add(g)
        state["calls"] = calls
    return state["calls"]

# The first function reached from fn (through the file's functions, fn
# itself excluded unless back) that is in which, with the path to it.
def reaches(fn, which, start=None, back=False):
    calls = fn_calls()
    seen, todo = set(), [(g, [g]) for g in sorted(start if start is not None else calls.get(fn, ()))]
    while todo:
        g, path = todo.pop(0)
        if g in seen or (g == fn and not back):
            continue
        seen.add(g)
        if g in which:
            return path
        todo.extend((h, path + [h]) for h in sorted(calls.get(g, ())))
    return None

def via(path):
    if len(path) == 1:
        return "%s()" % path[0]
    return "%s() (through %s)" % (path[-1], ", ".join("%s()" % g for g in path[:-1]))

# A call that sleeps, or may: its name, or an allocation asking GFP_KERNEL.
def sleeping_call(f, line, g):
    if g in SLEEPS:
        return True
    return g in ALLOCS and re.search(r"\bGFP_(KERNEL|USER|BUFFER|NOIO|NOFS)\b",
                                     line_text(f, line)) is not None

# Why the section opened by the cli() at k cannot take the file's lock:
# it sleeps, or calls (through the file's functions) something that sleeps
# or that has a cli() section of its own, which would take the same lock
# again on this CPU (a self-deadlock; the global lock nested).
def sleepy_fns():
    if "sleepy" not in state:
        sleepy = {}
        for f, line, fn, g in sorted(calls_at(), key=lambda c: c[1]):
            if sleeping_call(f, line, g) and fn not in sleepy:
                sleepy[fn] = (g, line)
        state["sleepy"] = sleepy
    return state["sleepy"]

def section_refusal(k):
    if "clis" not in state:
        state["clis"] = {v[2]: v[1] for k2, v in calls2002.items() if v[3] == "cli"}
    sleepy, clis = sleepy_fns(), state["clis"]
    f, fn, lo, hi = sections[k]
    inside = sorted((line, g) for f2, line, fn2, g in calls_at()
                    if f2 == f and fn2 == fn and lo <= line <= hi)
    # The calls written on the section's lines that spatch did not see (in
    # a macro's arguments, fdc-io.c's TRACE_CATCH(x = fdc_command(...),
    # restore_flags(flags); ...)): counted as calls of the section too, and
    # a 2002 call among them is one the rules cannot pair.
    seen = set(inside)
    unseen = set()
    for line in range(lo, hi + 1):
        t = stripped(f)[line - 1] if 0 < line <= len(stripped(f)) else ""
        for m in re.finditer(r"\b([A-Za-z_]\w*)\s*\(", t):
            if m.group(1) not in C_WORDS and (line, m.group(1)) not in seen:
                unseen.add((line, m.group(1)))
    for line, g in sorted(unseen):
        if g in ("cli", "sti", "save_flags", "restore_flags"):
            return ("holds a %s() on line %d that the rules did not see (in a macro's arguments "
                    "or code spatch did not parse): converted, its path would keep the lock or "
                    "release what it did not take: convert it by hand" % (g, line))
    inside = sorted(seen | unseen)
    for line, g in inside:
        if sleeping_call(f, line, g):
            return ("calls %s() on line %d inside the section, which sleeps or may: "
                    "schedule() gave up 2002's global lock, it would not give up a spinlock"
                    % (g, line))
        if g in WAITS_HANDLER:
            return ("calls %s() on line %d inside the section, which waits for a running "
                    "interrupt handler: one spinning on this lock on another CPU would never "
                    "finish (2.4's cli() had waited for every handler): convert it by hand"
                    % (g, line))
    called = [g for line, g in inside]
    waiters = {}
    for f2, line, fn2, g in sorted(calls_at(), key=lambda c: c[1]):
        if g in WAITS_HANDLER and fn2 not in waiters:
            waiters[fn2] = (g, line)
    path = reaches(fn, set(waiters), called)
    if path:
        return ("calls %s, which calls %s() on line %d, which waits for a running interrupt "
                "handler: one spinning on this lock on another CPU would never finish (2.4's "
                "cli() had waited for every handler): convert it by hand"
                % ((via(path),) + waiters[path[-1]]))
    path = reaches(fn, set(clis), called)
    if path:
        return ("calls %s, whose own cli() section (line %d) would take the same lock "
                "on this CPU again: a self-deadlock (the global lock nested)"
                % (via(path), clis[path[-1]]))
    # A function of the file with a sti() or restore_flags() and no cli():
    # under 2002's global lock it let interrupts (and the other CPUs) in
    # while it ran; under the new lock it lets them in on this CPU with the
    # lock held, and a handler that takes the lock spins on it there.
    if "irq_on" not in state:
        on = {}
        for k2, v in sorted(calls2002.items(), key=lambda kv: kv[1][1]):
            if v[3] in ("sti", "restore_flags") and v[2] not in on:
                on[v[2]] = (v[3], v[1])
        state["irq_on"] = on
    on = state["irq_on"]
    path = reaches(fn, set(on) - set(clis), called)
    if path:
        return ("calls %s, whose %s() on line %d, with no cli() of its own, would let interrupts "
                "in on this CPU with the lock held: a handler that takes it would spin on it "
                "(2002's sti() gave up the global lock): convert it by hand"
                % ((via(path),) + on[path[-1]]))
    # Through the functions of the file back to this one (smctr.c: open() ->
    # status_chg() -> open(), on a status the section has just changed:
    # the rules follow calls, not values).
    path = reaches(fn, {fn}, called, back=True)
    if path:
        back = ("calls %s, which comes back to %s() itself" % (via(path[:-1]), fn)
                if len(path) > 1 else "calls %s() itself" % fn)
        return ("%s, whose cli() section would take the same lock on this CPU again: "
                "a self-deadlock (the global lock nested)" % back)
    # The interrupt handler called by hand, to poll or to drain a FIFO
    # (macio-adb.c, pc110pad.c): the handler rule wraps it in the same lock.
    path = reaches(fn, set(handler_at), called)
    if path:
        return ("calls the interrupt handler %s, which the handler rule locks with the "
                "same lock: a self-deadlock (under cli() it ran nested): convert it by hand"
                % via(path))
    why = pointer_refusal(fn, called, lo, hi)
    if why:
        return why
    path = reaches(fn, set(sleepy), called)
    if path:
        g, line = sleepy[path[-1]]
        return ("calls %s, which calls %s() on line %d, which sleeps or may: "
                "not under a spinlock" % (via(path), g, line))
    return None

# Functions of the file whose address is taken (a name not called: an
# ops table, dev->hard_start_xmit = ..., a timer), the handlers given to
# request_irq() left out: a call through a pointer may reach them.
def address_taken():
    if "taken" not in state:
        f = next(iter(calls2002.values()))[0] if calls2002 else None
        src = "\n".join(l for l in text(f) if "request_irq" not in l) if f else ""
        src = re.sub(r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\\n])*\"", " ", src, flags=re.S)
        names = set(fn_calls()) | set(v[2] for v in calls2002.values())
        state["taken"] = sorted(g for g in names if g not in ("something_else", "?") and
                                re.search(r"\b%s\b(?!\s*\()" % re.escape(g), src))
    return state["taken"]

# A call through a pointer (dev->ops->start(dev), (*hook)()), inside lines
# lo..hi of fn or in a function of the file they call, when a function of
# the file whose address is taken reaches a cli() section: converted, the
# call could take the same lock again on this CPU. (fdc-io.c: the handler
# works through *fdc.hook.)
def pointer_refusal(fn, called, lo, hi):
    clis = set(v[2] for v in calls2002.values() if v[3] == "cli")
    target = None
    for g in address_taken():
        path = [g] if g in clis else reaches(g, clis)
        if path:
            target = (g, path[-1])
            break
    if target is None:
        return None
    here = sorted(line for f, line, g in pcall_at if g == fn and lo <= line <= hi)
    where = "on line %d" % here[0] if here else None
    if not here:
        below = set(g for f, line, g in pcall_at)
        path = reaches(fn, below, called)
        if not path:
            return None
        where = "in %s" % via(path)
    return ("calls through a pointer %s, and %s() of this file, whose address is taken, "
            "reaches the cli() section of %s(): converted, that call could take the same lock "
            "again on this CPU (a self-deadlock): the rules cannot follow pointers: convert it "
            "by hand" % (where, target[0], target[1]))

# A section found by sec1/sec2 (every path from the cli() at p closes it)
# with its closing calls ends (sec1c/sec2c): its span and its closers.
def add_section(p, ends, rule):
    k = key(p)
    lo, hi = sections.get(k, (0, 0, line_of(p), 0))[2:]
    sections[k] = (p[0].file, p[0].current_element, min(lo, line_of(p)),
                   max([hi] + [real_line(e.file, int(e.line)) for e in ends]))
    closers.setdefault(k, set()).update(keys(ends))
    kind.setdefault(k, set()).add(rule)

# Functions whose sections spatch cannot transform (tools/convert/convert
# names them after a first run fails: "reachable by inconsistent
# control-flow paths", a section reopened inside a loop that closes it).
import os
inconsistent = set(x for x in os.environ.get("CONVERT_INCONSISTENT", "").split(",") if x)

# May the section opened by the cli() at k be converted?
def may_convert(k):
    if k in nested:
        return False
    if k in sections and sections[k][1] == "something_else":
        # A section in a #define body (qlogicfc.c's TRACE(), expanded in
        # the handler and inside other sections): where it is expanded the
        # rules cannot see, nor what the expansion is inside of. Reported
        # as a macro body at the end.
        return False
    if k in sections and not handler_at:
        refusal[k] = ("this file defines no interrupt handler it requests: what its cli() "
                      "kept out (a handler, a bottom half or a timer of another file, on any "
                      "CPU) is elsewhere, and a lock of this file would not exclude it: "
                      "use that code's lock, by hand")
        return False
    if k in sections and sections[k][1] in twice_at:
        refusal[k] = ("a path of its function closes twice (line %d, then line %d, with no "
                      "cli() between): converted, the second would unlock a lock not held: "
                      "convert it by hand" % twice_at[sections[k][1]])
        return False
    if k in sections and sections[k][1] in inconsistent:
        refusal[k] = ("spatch finds its closing call reachable by inconsistent control-flow "
                      "paths (the section is closed and opened again inside a loop): "
                      "convert it by hand")
        return False
    if k in sections and k not in refusal:
        refusal[k] = section_refusal(k)
    if refusal.get(k) is None and k in sections:
        refusal[k] = shared_refusal(k)
    return refusal.get(k) is None

# What the conversion rule changes: the cli() of each section that may be
# converted (with its save_flags() for irqsave), and the calls that close
# them, by the rule that found the section.
def plan():
    if "plan" not in state:
        pl = {"irqsave": set(), "irqsave_close": set(), "irqpair": set(), "irqpair_close": set(),
              "pd_irqsave": set(), "pd_irqsave_close": set(), "pd_irqpair": set(),
              "pd_irqpair_close": set()}
        for k in sorted(sections):
            if not may_convert(k):
                continue
            rule = "irqsave" if "irqsave" in kind[k] else "irqpair"
            pd = pd_section(k) if k not in pd_off else None
            if pd:
                # The lock in the struct its pointer reaches (issue 40 item 3).
                t, ptr, hands = pd
                fld = pd_field.setdefault(t, perdev.lock_field(pd_code(sections[k][0]), t))
                for c in [k] + sorted(closers[k]):
                    pd_at[c] = (ptr, fld, t)
                pd_hplan.update(hands)
                rule = "pd_" + rule
            pl[rule].add(k)
            pl[rule + "_close"].update(closers[k])
        # Sections that share a closing call take one lock: a per-device
        # one sharing it with one that takes the file lock takes that too.
        clash = {c for c in (pl["pd_irqsave_close"] & pl["irqsave_close"]) |
                 (pl["pd_irqpair_close"] & pl["irqpair_close"])}
        off = {k for k in sections if k in pd_at and closers.get(k, set()) & clash}
        if off:
            for k in off:
                pd_off.add(k)
                pd_why[k] = ("the section in %s() shares its closing call with a section that "
                             "takes the lock of the file" % sections[k][1])
            for k in list(pd_at):
                del pd_at[k]
            pd_hplan.clear()
            pd_field.clear()
            return plan_again()
        state["plan"] = pl
    return state["plan"]

pd_off = set()      # keys of cli()s whose sections may not take a per-device lock

def plan_again():
    state.pop("plan", None)
    return plan()

# Per-device data and locks (issue 40 item 3). A section that writes the
# fields of a struct through one pointer of its function (struct foo *p,
# p = dev->priv cast to a struct foo pointer), and no static data, takes a lock added to
# that struct (p->lock) when the files interrupt handler writes fields of
# the same struct through its own pointer and can take that lock around its
# body, and the struct is defined and set up in this file (tools/convert/
# perdev.py: a kmalloc() of the size of struct foo, or of what p points to, into a struct
# foo *, or a static definition): the field is added to the definition and
# initialised after each set-up (tools/convert/convert). Otherwise the
# section takes the files lock as before, and the handlers report says
# which was missing. Types are read from the declarations in the text.
import sys
sys.path.insert(0, os.environ.get("CONVERT_TOOLS", ""))
try:
    import perdev
except ImportError:
    perdev = None

pd_at = {}          # key of a per-device section's call -> (pointer, field, struct)
pd_why = {}         # key of a cli() -> why its section is not per-device
pd_hplan = {}       # handler -> (pointer, input line after which its lock goes, or 0, struct)
pd_field = {}       # struct -> its lock field
wrap_pd = {}        # handlers hw wraps in a per-device lock -> (pointer, field)

def pd_code(f):
    if ("code", f) not in state:
        state[("code", f)] = perdev.code_lines(text(f))
    return state[("code", f)]

# (struct, set) of the pointer e written through in fn on line, or None.
def pd_type(f, fn, line, e):
    code = pd_code(f)
    hdr = perdev.fn_header(code, fn, line)
    return None if hdr is None else perdev.ptr_type(code, hdr, line, e.strip())

def pd_writes(fn, lo=0, hi=1 << 30):
    return [(f, line, fld, e) for f, line, fn2, fld, e in pwrite_e if fn2 == fn and lo <= line <= hi]

# What is missing for a lock in struct t: None when it is defined and set up here.
def pd_struct_missing(f, t):
    code = pd_code(f)
    if perdev.struct_def(code, t) is None:
        return ("struct %s is not defined in this file (a field cannot be added to it)" % t)
    if not perdev.setups(code, t):
        return ("the set-up of struct %s is not found in this file (a kmalloc() or kzalloc() "
                "of its size into a pointer to struct %s, or a static definition)" % (t, t))
    return None

# Can the handler take the lock of struct t around its body (after the line
# that sets its pointer)? (pointer, line after which the lock goes or 0),
# or why not.
def pd_handler(h, t):
    f = handler_at[h][0]
    typed = set()
    for f2, line, fld, e in pd_writes(h):
        ty = pd_type(f2, h, line, e)
        if ty is None:
            return "the type of the pointer %s it writes through (line %d) is not known" % (e, line)
        if ty[0] == t:
            typed.add((e.strip(), ty[1]))
    if len(typed) != 1:
        return "writes struct %s through %s" % (t, "more than one pointer" if typed else
                                                "the functions it calls only")
    ptr, isset = typed.pop()
    cli_fns = {v[2] for v in calls2002.values() if v[3] == "cli"}
    own = sorted((line, g) for f2, line, fn, g in calls_at() if fn == h and g in OWN_LOCKS)
    if h in write_at:
        return "also writes the file's static data (it would need two locks)"
    if h in cli_fns:
        return "has cli() sections of its own"
    if own:
        return "takes %s() on line %d" % (own[0][1], own[0][0])
    if h in rets:
        return "returns or jumps out on line %d (one lock around the body would not cover every path)" % rets[h]
    sp = [h] if h in sleepy_fns() else reaches(h, set(sleepy_fns()))
    if sp:
        return "calls %s, which sleeps or may" % via(sp)
    path = reaches(h, cli_fns)
    if path:
        return "calls %s, which has a cli() section (it would take the lock again)" % via(path)
    if pointer_refusal(h, fn_calls().get(h, ()), 0, 1 << 30):
        return "calls through a pointer that may reach a cli() section"
    after = 0
    if not isset:
        code = pd_code(f)
        hdr = perdev.fn_header(code, h, handler_at[h][1])
        brace = next((i for i in range(hdr, len(code)) if "{" in code[i]), None) if hdr is not None else None
        body = next((i for i in range(brace + 1, len(code)) if code[i].strip()), None) if brace is not None else None
        top = re.match(r"\s*", code[body]).group(0) if body is not None else None
        at = None
        for i in range(brace + 1 if brace is not None else len(code), len(code)):
            if code[i].startswith("}"):
                break
            if re.match(r"\s*%s\s*=[^=]" % re.escape(ptr), code[i]):
                at = i
                break
        if at is None or re.match(r"\s*", code[at]).group(0) != top:
            return ("its pointer %s is set neither in its declaration nor by a statement at the top "
                    "of its body, after which the lock could go" % ptr)
        end = perdev.stmt_end(code, at)
        if end is None:
            return "its pointer %s is set in a statement the tool cannot read" % ptr
        after = end + 1
    return (ptr, after)

# (struct, pointer, {handler: plan}) when the section of the cli() at k
# takes the lock in a struct; None (and why, in pd_why[k]) when not.
def pd_section(k):
    f, fn, lo, hi = sections[k]
    ws = pd_writes(fn, lo, hi)
    if not ws or perdev is None:
        return None
    if any(fn2 == fn and lo <= line <= hi for f2, line, fn2 in swrite_all):
        pd_why[k] = "the section in %s() also writes the file's static data" % fn
        return None
    typed = set()
    for f2, line, fld, e in ws:
        ty = pd_type(f, fn, line, e)
        if ty is None:
            pd_why[k] = ("the type of the pointer %s the section in %s() writes through (line %d) "
                         "is not known (not a struct foo * declared in the text)" % (e, fn, line))
            return None
        typed.add((ty[0], e.strip(), ty[1]))
    if len(typed) != 1:
        pd_why[k] = "the section in %s() writes through more than one pointer" % fn
        return None
    t, ptr, isset = typed.pop()
    code = pd_code(f)
    hdr = perdev.fn_header(code, fn, lo)
    setp = re.compile(r"(?<![\w.>])%s\s*=[^=]" % re.escape(ptr))
    if setp.search("\n".join(code[lo - 1:hi])):
        pd_why[k] = "the section in %s() sets its pointer %s inside it" % (fn, ptr)
        return None
    if not isset and not setp.search("\n".join(code[(hdr or 0):lo - 1])):
        pd_why[k] = "the section in %s() uses %s before setting it" % (fn, ptr)
        return None
    hands = {}
    for h in sorted(handler_at):
        if not any((pd_type(f2, h, line, e) or ("",))[0] == t for f2, line, fld, e in pd_writes(h)):
            continue
        r = pd_handler(h, t)
        if isinstance(r, str):
            pd_why[k] = "the handler %s() %s" % (h, r)
            return None
        hands[h] = (r[0], r[1], t)
    if not hands:
        return None
    missing = pd_struct_missing(f, t)
    if missing:
        pd_why[k] = missing
        return None
    return (t, ptr, hands)

# Why the section in sfn around line sl did not take a per-device lock.
def pd_missing(handler, sfn, sl, hl):
    for f, line, fn, fld, e in pwrite_e:
        if line == hl and fn != sfn and perdev and pd_type(f, fn, line, e) is None:
            return ("the type of the pointer %s the handler writes through (line %d) is not known "
                    "(not a struct foo * declared in the text)" % (e, line))
    for k, v in sorted(sections.items()):
        if v[1] == sfn and v[2] <= sl <= v[3] and pd_why.get(k):
            return pd_why[k]
    if perdev is None:
        return "tools/convert/perdev.py was not found"
    if not pd_writes(handler):
        return "the handler writes it only through the functions it calls"
    return "the handler's and the section's pointers are not of one struct type the tool can read"

def pd_fresh(pa, i):
    return pd_at.get(key(pa), ("unused", "unused", ""))[i]

def pd_hfresh(p, i):
    return wrap_pd.get(p[0].current_element, ("unused", "unused"))[i]

# A closing call that also closes what a cli() left alone opened (one on
# each branch of an if; in eata_pio.c, restore_flags(flags); done(); cli();
# in a loop, with no save_flags()): converted, the unlock would release a
# lock that path never took, or release it twice. The sections that share
# closing calls are converted together or not at all.
def shared_refusal(k):
    group, todo = {k}, [k]
    while todo:
        k1 = todo.pop()
        for c in sorted(closers.get(k1, ())):
            for o in sorted(openers.get(c, ())):
                if o in group:
                    continue
                if o not in sections or c not in closers.get(o, ()) or base_refused(o):
                    return ("its closing call on line %d also closes what the cli() on line %d "
                            "opens, which is left alone: converted, it would release a lock "
                            "that path never took: convert both by hand"
                            % (calls2002[c][1], calls2002[o][1]))
                group.add(o)
                todo.append(o)
    return None

def base_refused(k):
    if k in nested or not handler_at:
        return True
    f, fn = sections[k][:2]
    if fn in twice_at or fn in inconsistent or fn == "something_else":
        return True
    if k not in refusal:
        refusal[k] = section_refusal(k)
    return refusal[k] is not None

wrap = set()        # handlers the handler rule wraps in the file's lock

# A handler, when the file's sections were converted: wrapped in the
# file's lock when it writes the file's static data itself and nothing
# stands in the way; reported when something does; never guessed.
def decide_handler(handler):
    if handler not in handler_at or handler in locked_handlers:
        return
    locked_handlers.add(handler)
    cli_fns = {v[2] for v in calls2002.values() if v[3] == "cli"}
    if handler in pd_hplan and any(k in converted for k in pd_at if pd_at[k][2] == pd_hplan[handler][2]):
        ptr, after, t = pd_hplan[handler]
        wrap_pd[handler] = (ptr, pd_field[t])
        others = sorted(set(v[1] for k2, v in sections.items() if k2 in converted and k2 not in pd_at))
        if others:
            f, line = handler_at[handler]
            reports[(f, int(line), 0)] = (
                "left alone: %s:%s: in %s(): the handler takes %s->%s, the lock of its struct %s, "
                "but the converted sections in %s take the lock of the file: under cli() they kept it "
                "out, now they do not: check what they share, lock it by hand"
                % (f, line, handler, ptr, pd_field[t], t, named(others)))
        return
    if handler in cli_fns:
        why = own_sections_gap(handler)
        if why:
            f, line = handler_at[handler]
            reports[(f, int(line), 0)] = ("left alone: %s:%s: in %s(): the handler %s"
                                         % (f, line, handler, why))
        return
    writers = set(write_at) - cli_fns
    lockers = {calls2002[k][2] for k in converted}
    direct = handler in write_at
    path = reaches(handler, writers)
    locker = reaches(handler, lockers)
    own = sorted((line, g) for f, line, fn, g in calls_at()
                 if fn == handler and g in OWN_LOCKS)
    why = None
    if not direct and not path:
        pass
    elif own:
        why = ("takes %s() on line %d, not the converted sections' lock: "
               "lock it by hand" % (own[0][1], own[0][0]))
    elif handler in rets:
        why = ("returns or jumps out on line %d: one spin_lock()/spin_unlock() "
               "around the body would not cover every path: lock it by hand"
               % rets[handler])
    elif not direct:
        why = ("writes the file's static data only through %s, which takes "
               "no lock: lock it by hand" % via(path))
    elif locker:
        why = ("calls %s, which takes the converted sections' lock: one "
               "spin_lock() around the body would spin on itself: lock it by hand"
               % via(locker))
    elif handler in sleepy_fns() or reaches(handler, set(sleepy_fns())):
        # (3c515.c: free_irq() on a bogus interrupt, then held under the lock.)
        sp = [handler] if handler in sleepy_fns() else reaches(handler, set(sleepy_fns()))
        g, line = sleepy_fns()[sp[-1]]
        why = ("calls %s() on line %d%s, which sleeps or may: one spin_lock() around "
               "the body would hold it across that: lock it by hand"
               % (g, line, "" if sp == [handler] else " (in %s)" % via(sp)))
    if why is None and not direct:
        # Per-device data: a field the handler (or what it calls) writes
        # through a pointer that a converted section writes too. Under
        # cli() the handler could not run meanwhile; under the lock of the
        # section it can, on another CPU.
        shared = pointer_overlap(handler)
        if shared:
            fld, hl, sfn, sl = shared
            why = ("writes ->%s through a pointer (line %d), as the converted section in %s() "
                   "does (line %d), and takes no lock: the section's lock no longer keeps it "
                   "out: lock it by hand (per-device data: a spinlock in the device's struct; "
                   "not made: %s)" % (fld, hl, sfn, sl, pd_missing(handler, sfn, sl, hl)))
    if why is None and direct:
        # Wrapped, a call through a pointer could come back to the lock.
        why = pointer_refusal(handler, fn_calls().get(handler, ()), 0, 1 << 30)
        if why:
            why = why.replace("converted, that call", "wrapped in the lock, that call")
            why = why.replace(": convert it by hand", ": lock it by hand")
    if why is None and not direct:
        # Neither wrapped nor reported yet: under cli() every section of
        # the file kept it out; the converted ones now take a lock it does
        # not take (trident.c: its handler takes the card's own lock, the
        # sections the file's, over the same card's registers).
        why = unlocked_handler(handler, own)
    if why:
        f, line = handler_at[handler]
        reports[(f, int(line), 0)] = ("left alone: %s:%s: in %s(): the handler %s"
                                     % (f, line, handler, why))
    elif direct:
        wrap.add(handler)

# Port and memory-mapped I/O: a handler and a section that both reach the
# device share its registers, whatever data they write.
IO_CALLS = {"inb", "inw", "inl", "outb", "outw", "outl", "inb_p", "inw_p", "inl_p",
            "outb_p", "outw_p", "outl_p", "insb", "insw", "insl", "outsb", "outsw",
            "outsl", "readb", "readw", "readl", "writeb", "writew", "writel",
            "__raw_readb", "__raw_readw", "__raw_readl", "__raw_writeb",
            "__raw_writew", "__raw_writel", "memcpy_fromio", "memcpy_toio"}

def converted_spans():
    return sorted((v[2], v[3], v[1]) for k, v in sections.items() if k in converted)

def named(fns):
    fns = sorted(set(fns) - {"something_else"})
    more = " and %d more" % (len(fns) - 3) if len(fns) > 3 else ""
    return ", ".join("%s()" % g for g in fns[:3]) + more

# Why a handler that takes no lock of the converted sections is no longer
# kept out by them (it is not wrapped): its own lock, the device's
# registers, or what the rules cannot see. None only when all it does is
# call the converted sections' functions.
def unlocked_handler(handler, own):
    spans = converted_spans()
    secs = named(fn for lo, hi, fn in spans)
    if own:
        line, g = own[0]
        m = re.search(r"\b%s\s*\(\s*([^,)]*)" % re.escape(g), line_text(handler_at[handler][0], line))
        arg = m.group(1).strip() if m else ""
        return ("takes a lock of its own, %s(%s) on line %d, not the lock the converted sections "
                "(%s) take now: under cli() they kept it out, now they do not: if they share "
                "its device or data, lock them with its lock (per-device: the lock in the "
                "device's struct) by hand" % (g, arg, line, secs))
    # The handler of mca.c only calls a function whose section is converted:
    # what it does, it does under the lock.
    lockers = {fn for lo, hi, fn in spans}
    if (fn_calls().get(handler) and fn_calls()[handler] <= lockers and
            handler not in write_at and not any(fn == handler for f, l, fn, fld in pwrite_at)):
        return None
    side = set([handler] + reaches_all(handler))
    hio = sorted((line, g, fn) for f, line, fn, g in calls_at() if fn in side and g in IO_CALLS)
    sio = sorted(((fn in handler_at, line), g, fn) for f, line, fn, g in calls_at()
                 if g in IO_CALLS and any(fn == sfn and lo <= line <= hi for lo, hi, sfn in spans))
    sio = [(k[1], g, fn) for k, g, fn in sio]   # the sections of tasks first
    if hio and sio:
        return ("takes no lock and reaches the device's registers (%s() on line %d) as the "
                "converted section in %s() does (%s() on line %d): under cli() the section kept "
                "it out, under the file's lock it does not: lock it by hand (per-device: a "
                "spinlock in the device's struct)" % (hio[0][1], hio[0][0], sio[0][2], sio[0][1],
                                                       sio[0][0]))
    return ("takes no lock, and the converted sections (%s) no longer keep it out as cli() "
            "did: what it shares with them (data through pointers, hardware, calls through "
            "pointers) the rules cannot follow: check it, lock it by hand" % secs)

# A handler with cli() sections of its own: converted, they exclude the
# other sections only for their own lines; left alone, not at all (its
# cli() and the file's lock do not meet).
def own_sections_gap(handler):
    if not any(fn != handler for lo, hi, fn in converted_spans()):
        return None     # no other section to be kept out of
    mine = sorted(v[1] for k, v in calls2002.items() if v[2] == handler and v[3] == "cli"
                  and k not in converted)
    if mine:
        return ("keeps its own cli() on line %d (left alone), while the file's converted "
                "sections (%s) take a lock: the two no longer keep each other out: lock it "
                "by hand" % (mine[0], named(fn for lo, hi, fn in converted_spans())))
    spans = [(lo, hi) for lo, hi, fn in converted_spans() if fn == handler]
    outside = sorted([(line, "the file's static data") for f, line, fn in swrite_all
                      if fn == handler and not any(lo <= line <= hi for lo, hi in spans)] +
                     [(line, "->%s" % fld) for f, line, fn, fld in pwrite_at
                      if fn == handler and not any(lo <= line <= hi for lo, hi in spans)])
    if outside:
        line, what = outside[0]
        return ("writes %s on line %d, outside its own converted sections (lines %s), where "
                "the file's other converted sections no longer keep it out as cli() did: "
                "lock it by hand" % (what, line, ", ".join("%d-%d" % s for s in spans)))
    return None

# The first field the handler, or a function of the file it calls, writes
# through a pointer that a converted section writes too: (field, line on
# the handler side, function of the section, line in the section), or None.
def pointer_overlap(handler):
    side = set([handler] + (reaches_all(handler)))
    spans = [v for k, v in sections.items() if k in converted]
    mine = sorted((line, fld, f, fn, e) for f, line, fn, fld, e in pwrite_e if fn in side)
    found = []
    for line, fld, f, fn, e in mine:
        for f2, line2, fn2, fld2, e2 in sorted(pwrite_e, key=lambda w: w[1]):
            if (fld2 == fld and fn2 not in side and
                    any(s[1] == fn2 and s[2] <= line2 <= s[3] for s in spans)):
                # The section whose pointer is of the handler pointer type first.
                t1 = pd_type(f, fn, line, e) if perdev else None
                t2 = pd_type(f2, fn2, line2, e2) if perdev else None
                found.append((0 if t1 and t2 and t1[0] == t2[0] else 1, line, line2, fld, fn2))
    if not found:
        return None
    rank, line, line2, fld, fn2 = min(found)
    return (fld, line, fn2, line2)

def reaches_all(fn):
    calls = fn_calls()
    seen, todo = [], sorted(calls.get(fn, ()))
    while todo:
        g = todo.pop(0)
        if g in seen or g == fn:
            continue
        seen.append(g)
        todo.extend(sorted(calls.get(g, ())))
    return seen

// Every call, first: its name on the input's line says where Coccinelle's
// line numbers drift (real_line()).
@fcall@
identifier g;
position p;
@@
g@p(...)

@script:python@
g << fcall.g;
p << fcall.p;
@@
call_raw.append((p[0].file, int(p[0].line), int(p[0].column), p[0].current_element, g))

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
calls2002[key(p)] = (p[0].file, line_of(p), p[0].current_element, callee(p))

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

// (Each closing call on its own, then whether an opening reaches it: one
// rule from every opening to every closing, "when any", cost 13 s on
// isdn_net.c.)
@open0@
position p;
@@
(
sti@p();
|
restore_flags@p(...);
)

@open exists@
position open0.p;
position q;
@@
(
cli@q();
|
save_flags@q(...);
)
... when any
(
sti@p();
|
restore_flags@p(...);
)

@script:python@
p << open0.p;
q << open.q;
@@
opened.add(key(p))

// The cli() that each closing call is the first to close on some path.
@opener exists@
position open0.p;
position q;
@@
cli@q();
... when != cli()
    when != sti()
    when != restore_flags(...)
(
sti@p();
|
restore_flags@p(...);
)

@script:python@
p << open0.p;
q << opener.q;
@@
openers.setdefault(key(p), set()).add(key(q))

// The interrupt handlers: the functions passed to request_irq().
@h@
identifier handler;
expression irq, fl, nm, d;
@@
(
request_irq(irq, handler, fl, nm, d)
|
request_irq(irq, &handler, fl, nm, d)
)

@hdef@
identifier h.handler;
position p;
@@
handler@p(...) { ... }

@script:python@
handler << h.handler;
p << hdef.p;
@@
handler_at[handler] = (p[0].file, line_of(p))

// What calls what, every call with its line (the sleeping calls, the
// handlers' own locks, the call graph), which functions write the file's
// static data, and where functions return: matched as expressions and
// statements with positions, not as whole function bodies, whose
// "<+... ...+>" costs minutes on a 1,000-line driver.
@fwrite@
global idexpression x;
identifier fld;
expression E;
assignment operator aop;
position p;
@@
(
x@p aop E
|
x@p.fld aop E
|
x@p[...] aop E
|
x@p[...].fld aop E
|
x@p.fld[...] aop E
|
x@p.fld[...][...] aop E
|
x@p++
|
x@p--
|
x@p.fld++
|
x@p[...]++
)

@script:python@
p << fwrite.p;
@@
fn = p[0].current_element
swrite_all.append((p[0].file, line_of(p), fn))
if fn not in write_at or line_of(p) < write_at[fn]:
    write_at[fn] = line_of(p)

// Writes through pointers (dev->priv's fields, lp->tx_busy): per-device
// data, which 2002's global cli() kept from the handler as well.
@pwrite@
expression E, E2;
identifier fld;
assignment operator aop;
position p;
@@
(
E@p->fld aop E2
|
E@p->fld[...] aop E2
|
E@p->fld++
|
E@p->fld--
)

@script:python@
p << pwrite.p;
fld << pwrite.fld;
E << pwrite.E;
@@
pwrite_at.append((p[0].file, line_of(p), p[0].current_element, fld))
pwrite_e.append((p[0].file, line_of(p), p[0].current_element, fld, str(E)))

// Calls through pointers (dev->ops->start(dev), (*hook)(x)): the rules
// cannot say where they go.
@pcall@
expression E;
identifier fld;
position p;
@@
(
E@p->fld(...)
|
E@p.fld(...)
|
 (*E@p)(...)
)

@script:python@
p << pcall.p;
@@
pcall_at.append((p[0].file, line_of(p), p[0].current_element))

@fret@
identifier l;
position q;
@@
(
return@q ...;
|
goto@q l;
)

@script:python@
q << fret.q;
@@
fn = q[0].current_element
if explicit(q) and (fn not in rets or line_of(q) < rets[fn]):
    rets[fn] = line_of(q)

// A path that closes twice (restore_flags(); ... goto out; ... out:
// restore_flags();): harmless under 2002's cli(), an unlock of an unlocked
// spinlock once converted. The function's sections are left alone.
@twice exists@
position p1, p2;
@@
(
restore_flags@p1(...);
|
sti@p1();
)
... when != save_flags(...)
    when != cli()
(
restore_flags@p2(...);
|
sti@p2();
)

@script:python@
p1 << twice.p1;
p2 << twice.p2;
@@
fn = p1[0].current_element
if fn not in twice_at:
    twice_at[fn] = (line_of(p1), line_of(p2))

// The sections the rules below convert: sec1 and sec2 (every path from
// the cli() reaches its closing call, "when strict") say which cli()
// opens one, sec1c and sec2c (any path) where each closes, and the
// transformation is made call by call, the opening pair and each closing
// call apart. One rule that matched the whole section and transformed
// its closing calls cost minutes on a function with many early exits
// (qlogicpti.c's firmware load: eight restore_flags() before returns),
// for Coccinelle keeps one environment per combination of paths.
@sec1@
expression f;
position p;
@@
save_flags(f);
cli@p();
... when strict
    when != cli()
    when != sti()
    when != save_flags(f)
restore_flags(f);

@script:python@
p << sec1.p;
@@
sec1_at.add(key(p))

@sec1e@
position pr;
@@
restore_flags@pr(...);

@sec1c exists@
expression f;
position sec1e.pr;
position p : script:python() { key(p) in sec1_at };
@@
save_flags(f);
cli@p();
... when != cli()
    when != sti()
    when != save_flags(f)
restore_flags@pr(f);

@script:python@
p << sec1c.p;
pr << sec1e.pr;
@@
add_section(p, pr, "irqsave")

@sec2@
position p;
@@
cli@p();
... when strict
    when != cli()
    when != save_flags(...)
    when != restore_flags(...)
sti();

@sec2c exists@
position sec2.p;
position pe;
@@
cli@p();
... when != cli()
    when != save_flags(...)
    when != restore_flags(...)
sti@pe();

@script:python@
p << sec2.p;
pe << sec2c.pe;
@@
add_section(p, pe, "irqpair")

// The transformation, in one rule: a rule after a transforming rule sees
// the positions of Coccinelle's rewritten copy, not of the input, and the
// plan (plan()) is made from the input's.
@conv@
identifier virtual.lock;
expression f;
position p : script:python() { key(p) in plan()["irqsave"] };
position pr : script:python() { key(pr) in plan()["irqsave_close"] };
position q : script:python() { key(q) in plan()["irqpair"] };
position qe : script:python() { key(qe) in plan()["irqpair_close"] };
position ps;
position d : script:python() { key(d) in plan()["pd_irqsave"] };
position dr : script:python() { key(dr) in plan()["pd_irqsave_close"] };
position e : script:python() { key(e) in plan()["pd_irqpair"] };
position er : script:python() { key(er) in plan()["pd_irqpair_close"] };
position pa;
fresh identifier ptr = script:python(pa) { pd_fresh(pa, 0) };
fresh identifier fld = script:python(pa) { pd_fresh(pa, 1) };
@@
(
- save_flags@ps(f);
- cli@p@pa();
+ spin_lock_irqsave(&lock, f);
|
- restore_flags@pr@pa(f);
+ spin_unlock_irqrestore(&lock, f);
|
- cli@q@pa();
+ spin_lock_irq(&lock);
|
- sti@qe@pa();
+ spin_unlock_irq(&lock);
|
- save_flags@ps(f);
- cli@d@pa();
+ spin_lock_irqsave(&ptr->fld, f);
|
- restore_flags@dr@pa(f);
+ spin_unlock_irqrestore(&ptr->fld, f);
|
- cli@e@pa();
+ spin_lock_irq(&ptr->fld);
|
- sti@er@pa();
+ spin_unlock_irq(&ptr->fld);
)

@script:python@
p << conv.p;
ps << conv.ps;
@@
converted.update(keys(p) + keys(ps))

@script:python@
pr << conv.pr;
@@
converted.update(keys(pr))

@script:python@
q << conv.q;
@@
converted.update(keys(q))

@script:python@
qe << conv.qe;
@@
converted.update(keys(qe))

@script:python@
d << conv.d;
ps << conv.ps;
@@
converted.update(keys(d) + keys(ps))

@script:python@
dr << conv.dr;
@@
converted.update(keys(dr))

@script:python@
e << conv.e;
@@
converted.update(keys(e))

@script:python@
er << conv.er;
@@
converted.update(keys(er))

// A handler the handler rule cannot lock safely, when the file's sections
// were converted: left alone and reported, never guessed.
@script:python depends on conv@
handler << h.handler;
@@
decide_handler(handler)

// The handlers to wrap (decide_handler()): the lock before the first
// statement after the declarations, the unlock at the end. The first
// statement is the first in the input of the statements in the body (a
// statement is never a declaration), each matched alone (hst), and the
// lock goes before it (hw), with no function around the pattern; the
// unlock is added by a rule of its own (hwend). One rule with
// "... when != S" before the first statement cost minutes on a long
// handler (isicom.c, 3c515.c's corkscrew_interrupt()): S matches every
// statement on every path.
@hst depends on conv@
statement S;
position p : script:python() { p[0].current_element in wrap or p[0].current_element in wrap_pd };
@@
S@p

@script:python@
p << hst.p;
@@
handler = p[0].current_element
k = key(p)
# A per-device handler's lock goes after the statement that sets its pointer.
if handler in wrap_pd and line_of(p) <= pd_hplan[handler][1]:
    pass
elif handler not in first_stmt or (k[1], k[2]) < first_stmt[handler][1:]:
    first_stmt[handler] = k

// (hw takes the first statement's position from hfirst: a rule that
// depends on hst but matches every statement ran even where hst matched
// nothing, and spatch fails on a #define inside a function body, zs.c,
// when a rule that adds code matches statements there.)
@hfirst depends on hst@
statement S;
position p : script:python() { first_stmt.get(p[0].current_element) == key(p) };
@@
S@p

@hw@
identifier virtual.lock;
statement S;
position hfirst.p;
position q : script:python() { q[0].current_element not in wrap_pd };
position qd : script:python() { qd[0].current_element in wrap_pd };
fresh identifier hptr = script:python(p) { pd_hfresh(p, 0) };
fresh identifier hfld = script:python(p) { pd_hfresh(p, 1) };
@@
(
+ spin_lock(&lock);
  S@p@q
|
+ spin_lock(&hptr->hfld);
  S@p@qd
)

@script:python@
q << hw.q;
@@
wrapped.add(q[0].current_element)

@script:python@
qd << hw.qd;
@@
wrapped.add(qd[0].current_element)

@hwend depends on hw@
identifier virtual.lock;
identifier handler : script:python() { handler in wrap };
@@
handler(...) {
  ...
+ spin_unlock(&lock);
}

@hwendpd depends on hw@
identifier handler : script:python() { handler in wrap_pd };
fresh identifier hptr = script:python(handler) { wrap_pd[handler][0] };
fresh identifier hfld = script:python(handler) { wrap_pd[handler][1] };
@@
handler(...) {
  ...
+ spin_unlock(&hptr->hfld);
}

// Whatever 2002 call no rule converted was not safe to convert: say where
// and why, with the input's FILE:LINE.
@finalize:python@
@@
def why_cli(k, name):
    if k in nested:
        return "nested cli(): a cli() inside an open cli() section"
    if name == "cli" and refusal.get(k):
        return refusal[k]
    if name == "cli" and k in exits:
        return "the section is left by return or goto with interrupts off"
    if name == "cli" and k not in closed:
        return "no sti()/restore_flags() after it in this function: its section is not closed here"
    return None

for k, (f, line, fn, name) in calls2002.items():
    if k in converted:
        continue
    if fn == "something_else":
        reports[k] = ("left alone: %s:%s: in ?(): %s(): in a macro body (#define): the rules do not "
                      "convert macros: convert it by hand" % (f, line, name))
        continue
    why = why_cli(k, name)
    if why is None and name in ("sti", "restore_flags") and k not in opened:
        why = "no cli()/save_flags() before it in this function: its section is not opened here"
    if why is None and name != "cli":
        # Part of a section whose cli() was refused for a reason of its
        # own: the refused section that spans it, or the nearest.
        near = sorted(v[1] for k2, v in calls2002.items()
                      if v[0] == f and v[2] == fn and v[3] == "cli" and
                      k2 not in converted and why_cli(k2, "cli"))
        spans = sorted(calls2002[k2][1] for k2, v in sections.items()
                       if v[0] == f and v[1] == fn and k2 not in converted and
                       v[2] <= line <= v[3])
        # A save_flags() goes with the cli() after it: in shared_close.c
        # the second section opens inside the first, whose span holds its
        # save_flags() and named the wrong section.
        after = sorted(v[1] for k2, v in calls2002.items()
                       if v[0] == f and v[2] == fn and v[3] == "cli" and v[1] > line)
        if name == "save_flags" and after and after[0] in near:
            why = "goes with the cli() on line %d, left alone" % after[0]
        elif spans:
            why = "goes with the cli() on line %d, left alone" % spans[-1]
        elif near:
            why = "goes with the cli() on line %d, left alone" % min(near, key=lambda l: abs(l - line))
    if why is None:
        why = ("not in a shape the rules convert: save_flags(f); cli(); ... restore_flags(f); "
               "or cli(); ... sti(); in one function, reached on every path")
    reports[k] = "left alone: %s:%s: in %s(): %s(): %s" % (f, line, fn, name, why)
# A handler the rules chose to wrap and could not: said, not left silent.
for handler in sorted((wrap | set(wrap_pd)) - wrapped):
    f, line = handler_at[handler]
    reports[(f, int(line), 0)] = ("left alone: %s:%s: in %s(): the handler writes the data of the "
                                 "converted sections, and the handler rule could not place its "
                                 "lock: lock it by hand" % (f, line, handler))
for k in sorted(reports):
    print(reports[k])
for k in sorted(converted):
    if k in calls2002:
        f, line, fn, name = calls2002[k]
        print("converted: %s:%s: in %s(): %s()" % (f, line, fn, name))
# The per-device locks (tools/convert/convert adds the field and its
# initialisation): one line for each struct, one for each section and handler.
for t in sorted(set(pd_at[k][2] for k in converted if k in pd_at)):
    print("per-device struct: %s %s" % (t, pd_field[t]))
for k in sorted(k for k in converted if k in pd_at and calls2002.get(k, ("",) * 4)[3] == "cli"):
    f, line, fn, name = calls2002[k]
    print("per-device: %s:%s: in %s(): the section takes %s->%s (struct %s)"
          % (f, line, fn, pd_at[k][0], pd_at[k][1], pd_at[k][2]))
for h in sorted(wrap_pd):
    f, line = handler_at[h]
    print("per-device: %s:%s: in %s(): the handler takes %s->%s" % (f, line, h, wrap_pd[h][0], wrap_pd[h][1]))
