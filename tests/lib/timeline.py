#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# timeline.py - turn the traces of `make trace` (the third serial port of a
# guest that ran "trace CORE" loads) into what a reader can see:
#
#   OUT/<regime>.txt    the raw ftrace text, for trace-cmd and KernelShark users
#   OUT/<regime>.json   Chrome trace-event JSON (Perfetto, chrome://tracing):
#                       one slice per span, one track per CPU
#   OUT/timeline.svg    both regimes one above the other on one time scale,
#   OUT/timeline.png    one lane per CPU, a coloured box per span
#
#   timeline.py --out DIR [--check] TRACE.LOG
#
#   timeline.py --out DIR [--check] --synthetic
#
# --check also judges the traces, one result line each ("ok NAME" or
# "not ok NAME: why"): every event of a regime fired and none that the
# regime cannot produce; the JSON is valid trace-event JSON with slices on
# every CPU; the picture rendered; both panels show a window of the same
# width, after the warm-up, opening just before a holder section and
# holding at least MIN_SECTIONS whole sections. The exit status is 1 if
# any is not ok. --synthetic writes a made-up trace of both regimes (a
# regular scenario after an irregular warm-up) to DIR/synthetic.log and
# reads that: the host-side test of these checks (tests/timeline
# --host-only, and its mutant in tests/mutants). docs/tracing.md says what
# every span means and which window the picture shows.

import argparse
import json
import os
import re
import subprocess
import sys

LINE = re.compile(r"^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+\S+\s+([\d.]+):\s+(\w+):\s*(.*)$")
REGIME = re.compile(r"regime=(\w+)")

BOTH = ["irqcore_raise", "irqcore_deliver", "irqcore_do_irq_entry", "irqcore_do_irq_exit",
        "irqcore_handler_entry", "irqcore_handler_exit", "irqcore_sync_begin", "irqcore_sync_end",
        "irqcore_softirq_entry", "irqcore_softirq_exit", "irqcore_tasklet_entry",
        "irqcore_tasklet_exit", "irqcore_bh_entry", "irqcore_bh_exit",
        "irqcore_bench_hold_begin", "irqcore_bench_hold_end"]
GLOBAL = ["irqcore_lock_acquire", "irqcore_lock_release", "irqcore_spin_begin", "irqcore_spin_end"]
EXPECT = {"biglock": (BOTH + GLOBAL, []), "nolock": (BOTH, GLOBAL)}

# span kind: (begin event, end event, label, colour); drawn in this order.
# Softirqs first: interrupts are on in them, so handlers (and their spins)
# nest inside and are drawn over them.
SPANS = [
    ("softirq", "softirq (tasklets, bottom halves)", "#90d090"),
    ("lock", "holding the global lock (cli) or the driver lock", "#f0a030"),
    ("spin", "spinning on the global lock", "#d02020"),
    ("handler", "interrupt handler running", "#2060d0"),
]
# Softirq-side events: their slices in the JSON; only "softirq" is drawn
# (tasklets and bottom halves run inside it).
SOFT = {"irqcore_softirq": "softirq", "irqcore_tasklet": "tasklet", "irqcore_bh": "bh"}
# The window: WINDOW_US wide, the same for both panels, opening LEAD_US
# before a holder section that starts at least WARMUP_US after the
# scenario's first one (the raiser's first expiries and the first sections
# come late or long under TCG). If a regime's trace has no such window with
# MIN_SECTIONS whole sections, both windows widen by WIDEN_US, up to
# MAX_WINDOW_US, so that the panels still compare like with like.
WINDOW_US = 3000.0
WIDEN_US = 1000.0
MAX_WINDOW_US = 12000.0
WARMUP_US = 2000.0
LEAD_US = 100.0
MIN_SECTIONS = 3
HOLD_US = 300.0  # bench/scenario.c's section, in and out


def parse_sections(path):
    """Yield (core parameters, [event lines]) for each traced load."""
    sections, cur = [], None
    with open(path, errors="replace") as f:
        for raw in f:
            line = raw.rstrip("\r\n")
            if line.startswith("=== irqcore trace:"):
                cur = (line[len("=== irqcore trace:"):].strip(), [])
            elif line.startswith("=== end"):
                if cur:
                    sections.append(cur)
                cur = None
            elif cur is not None:
                cur[1].append(line)
    return sections


def events_of(lines):
    out = []
    for line in lines:
        m = LINE.match(line)
        if m:
            out.append({"task": m.group(1), "pid": int(m.group(2)), "cpu": int(m.group(3)),
                        "ts": float(m.group(4)) * 1e6, "name": m.group(5), "args": m.group(6)})
    return out


def spans_of(events):
    """Return [(kind, cpu, start_us, end_us, name)] from begin/end pairs."""
    spans, open_ = [], {}

    def begin(key, ts):
        open_.setdefault(key, []).append(ts)

    def end(key, ts, kind, cpu, name):
        if open_.get(key):
            spans.append((kind, cpu, open_[key].pop(), ts, name))

    for e in events:
        n, cpu, ts, a = e["name"], e["cpu"], e["ts"], e["args"]
        if n == "irqcore_handler_entry":
            begin(("handler", cpu), ts)
        elif n == "irqcore_handler_exit":
            end(("handler", cpu), ts, "handler", cpu, a)
        elif n == "irqcore_spin_begin":
            begin(("spin", cpu), ts)
        elif n == "irqcore_spin_end":
            end(("spin", cpu), ts, "spin", cpu, a)
        elif n == "irqcore_lock_acquire":
            begin(("lock", cpu), ts)
        elif n == "irqcore_lock_release":
            end(("lock", cpu), ts, "lock", cpu, "global IRQ lock")
        elif n == "irqcore_bench_hold_begin" and "lock=driver" in a:
            begin(("driver", cpu), ts)
        elif n == "irqcore_bench_hold_end" and "lock=driver" in a:
            end(("driver", cpu), ts, "lock", cpu, "driver spinlock")
        elif n.endswith("_entry") and n[:-6] in SOFT:
            begin((n[:-6], cpu), ts)
        elif n.endswith("_exit") and n[:-5] in SOFT:
            end((n[:-5], cpu), ts, SOFT[n[:-5]], cpu, a)
    return spans


def chrome_json(regime, events, spans):
    """Chrome trace-event JSON: complete events ("X") per span, instants per raise."""
    t0 = min(e["ts"] for e in events)
    out = [{"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "irqcore " + regime}}]
    for cpu in sorted({e["cpu"] for e in events}):
        out.append({"ph": "M", "name": "thread_name", "pid": 1, "tid": cpu,
                    "args": {"name": "CPU%d" % cpu}})
    for kind, cpu, a, b, name in spans:
        out.append({"ph": "X", "name": "%s %s" % (kind, name), "cat": kind, "pid": 1, "tid": cpu,
                    "ts": round(a - t0, 3), "dur": round(b - a, 3)})
    for e in events:
        if e["name"] in ("irqcore_raise", "irqcore_deliver", "irqcore_sync_begin",
                         "irqcore_sync_end", "irqcore_do_irq_exit"):
            out.append({"ph": "i", "s": "t", "name": "%s %s" % (e["name"][8:], e["args"]),
                        "cat": "event", "pid": 1, "tid": e["cpu"], "ts": round(e["ts"] - t0, 3)})
    return {"traceEvents": out, "displayTimeUnit": "ns"}


def valid_chrome(doc, cpus):
    """Problems with @doc as trace-event JSON, or [] if it is good."""
    probs = []
    evs = doc.get("traceEvents")
    if not isinstance(evs, list) or not evs:
        return ["no traceEvents list"]
    seen = set()
    for e in evs:
        if e.get("ph") not in ("X", "i", "M") or "pid" not in e or "name" not in e:
            return ["an event without ph/pid/name: %r" % e]
        if e["ph"] == "X":
            if not isinstance(e.get("ts"), (int, float)) or e.get("dur", -1) < 0:
                return ["a slice with a bad ts or dur: %r" % e]
            seen.add(e["tid"])
    missing = sorted(set(cpus) - seen)
    if missing:
        probs.append("no slices on CPU%s" % ",".join(map(str, missing)))
    return probs


def holder_sections(events):
    """The scenario driver's critical sections: [(begin_us, end_us)]."""
    out, start = [], None
    for e in events:
        if e["name"] == "irqcore_bench_hold_begin":
            start = e["ts"]
        elif e["name"] == "irqcore_bench_hold_end" and start is not None:
            out.append((start, e["ts"]))
            start = None
    return out


def regular(a, b):
    """Whether a section of [@a, @b] looks as the scenario made it.

    The holder's udelay() is HOLD_US; a section of less than half of that
    is one the trace clock stood still in (TCG stopped a vCPU: several
    sections then share a timestamp). A longer one is real: under biglock
    cli() waits for handlers, and any vCPU may be stopped for a while.
    """
    return b - a >= HOLD_US / 2


def whole_in(sections, t0, width):
    """How many regular @sections lie wholly in the window [t0, t0 + width]."""
    return sum(1 for a, b in sections if t0 <= a and b <= t0 + width and regular(a, b))


def irregular_in(sections, t0, width):
    """How many irregular @sections overlap the window [t0, t0 + width]."""
    return sum(1 for a, b in sections if a < t0 + width and b > t0 and not regular(a, b))


def best_window(events, sections, width):
    """The start of the steady-state window of @width for one regime.

    Candidates open LEAD_US before a regular section that starts WARMUP_US
    or more after the first; one with MIN_SECTIONS whole regular sections
    wins over one without, then the one with the most whole regular
    sections less the irregular ones, then the one with the most interrupts
    (a vCPU that TCG stopped for a while shows neither). Returns (t0, whole
    regular sections), or (None, 0) without such a section. (A busy host's
    trace had a window of three whole sections and two stopped-clock ones,
    and one of two and none: the second won, and trace/window failed.)
    """
    if not sections:
        return None, 0
    handled = [e["ts"] for e in events if e["name"] == "irqcore_do_irq_entry"]
    # A long run's trace may have lost a CPU's oldest events (the ring
    # buffer overwrites): a window before the last CPU's first event would
    # show that CPU empty.
    first = {}
    for e in events:
        first.setdefault(e["cpu"], e["ts"])
    warm = max([sections[0][0] + WARMUP_US] + [t + LEAD_US for t in first.values()])
    starts = [a - LEAD_US for a, b in sections if a >= warm and regular(a, b)]
    if not starts:
        return None, 0
    def score(t):
        whole = whole_in(sections, t, width)
        return (whole >= MIN_SECTIONS, whole - irregular_in(sections, t, width),
                sum(1 for h in handled if t <= h < t + width))

    t0 = max(starts, key=score)
    return t0, whole_in(sections, t0, width)


def choose_windows(regimes):
    """One width for all @regimes {name: (events, sections)} and a start each.

    The narrowest of WINDOW_US, + WIDEN_US, ... MAX_WINDOW_US in which every
    regime has MIN_SECTIONS whole sections (or MAX_WINDOW_US if none is).
    Returns (width, {name: t0 or None}).
    """
    width = WINDOW_US
    while True:
        picks = {r: best_window(ev, sec, width) for r, (ev, sec) in regimes.items()}
        if all(n >= MIN_SECTIONS for _, n in picks.values()) or width >= MAX_WINDOW_US:
            return width, {r: t0 for r, (t0, _) in picks.items()}
        width += WIDEN_US


def window_problems(panels, width):
    """Problems with the windows drawn, or [] if they compare like with like."""
    probs = []
    if len({p[6] for p in panels}) != 1 or any(p[6] != width for p in panels):
        probs.append("the panels differ in width: %s" % ", ".join(
            "%s %d us" % (p[0], p[6]) for p in panels))
    for regime, _, _, t0, _, sections, w in panels:
        if not sections:
            probs.append("%s: no holder section in the trace" % regime)
            continue
        first = sections[0][0]
        if t0 + LEAD_US < first + WARMUP_US:
            probs.append("%s: the window opens in the warm-up (%.0f us after the first section)"
                         % (regime, t0 + LEAD_US - first))
        if not any(abs(a - LEAD_US - t0) < 0.001 for a, _ in sections):
            probs.append("%s: the window does not open %d us before a section" % (regime, LEAD_US))
        n = whole_in(sections, t0, w)
        if n < MIN_SECTIONS:
            probs.append("%s: %d whole holder sections in the window, fewer than %d"
                         % (regime, n, MIN_SECTIONS))
    return probs


def gnuplot_timeline(out, panels, width):
    """Draw the panels [(regime, title, spans, t0, cpus, ...)] one above the other."""
    body = ['set multiplot layout %d,1 title "irqcore: CPU0 in a critical section (300 us in, 300 us '
            'out) while lines fire on the other CPUs every 100 us.\\nEach panel: the same %d us of '
            'steady state, after the first %d us (warm-up), opening %d us before a section of '
            'CPU0"' % (len(panels), width, WARMUP_US, LEAD_US)]
    for i, (regime, title, spans, t0, cpus, _, _) in enumerate(panels):
        for kind, _, _ in SPANS:
            rows = []
            for k, cpu, a, b, _ in spans:
                if k != kind:
                    continue
                a, b = max(a - t0, 0.0), min(b - t0, width)
                if b <= 0 or a >= width:
                    continue
                h = 0.18 if kind == "lock" else 0.32
                y = cpu - 0.22 if kind == "lock" else cpu + 0.1
                rows.append("%.3f %.2f %.3f %.2f" % ((a + b) / 2, y, max((b - a) / 2, 0.5), h))
            with open(os.path.join(out, "timeline-%s-%s.dat" % (regime, kind)), "w") as f:
                f.write("\n".join(rows) + ("\n" if rows else "0 -10 0 0\n"))
        ytics = ", ".join('"CPU%d" %d' % (c, c) for c in cpus)
        plots = ", ".join('"timeline-%s-%s.dat" using 1:2:3:4 with boxxyerror fs solid 1.0 noborder '
                          'lc rgb "%s" title "%s"' % (regime, kind, colour, label)
                          for kind, label, colour in SPANS)
        body.append('set title "%s"' % title)
        body.append("set xrange [0:%d]" % width)
        body.append("set yrange [%.1f:%.1f] reverse" % (min(cpus) - 0.6, max(cpus) + 0.6))
        body.append("set ytics (%s)" % ytics)
        body.append('set xlabel "microseconds from the window start"')
        # One legend, under the last panel.
        body.append("set key below horizontal height 1.5" if i == len(panels) - 1 else "unset key")
        body.append("set grid xtics")
        body.append("plot " + plots)
    body.append("unset multiplot")
    ok = True
    for term, ext in (('svg size 1100,%d dynamic font "sans,11"' % (260 * len(panels) + 60), "svg"),
                      ('pngcairo size 1100,%d font "sans,10"' % (260 * len(panels) + 60), "png")):
        path = os.path.join(out, "timeline." + ext)
        script = "set terminal %s noenhanced\nset output \"%s\"\n%s\n" % (term, path, "\n".join(body))
        r = subprocess.run(["gnuplot"], input=script, text=True, cwd=out, capture_output=True)
        if r.returncode or not os.path.exists(path) or not os.path.getsize(path):
            sys.stderr.write("timeline: gnuplot failed for %s: %s\n" % (path, r.stderr))
            ok = False
    return ok


END = 32000


def synthetic(path):
    """Write a made-up trace of both regimes to @path, as the guest sends it.

    CPU0's first section is 1500 us long (a warm-up stall), then it holds
    HOLD_US in and HOLD_US out; CPU1 takes an interrupt every 100 us, a
    softirq every fourth, a bottom half every sixteenth. Under biglock an
    interrupt raised in a section spins in irq_enter() until its end, and
    the sections are a busy host's: three regular ones with three that the
    clock stood still in between, then two regular ones 11 ms apart (the
    window to draw is the first: the second has fewer whole sections and
    no stopped ones).
    """
    with open(path, "w") as f:
        for regime in ("biglock", "nolock"):
            ev = []

            def put(cpu, t, name, args):
                ev.append((t, "  icb_scn/%d-%d     [%03d] d.h..  %12.6f: %s: %s"
                           % (cpu, 100 + cpu, cpu, 1.0 + t / 1e6, name, args)))

            lock = "cli" if regime == "biglock" else "driver"
            if regime == "biglock":
                sections = [(0.0, 1500.0)]
                for t in (2000.0, 2600.0, 3200.0):
                    sections += [(t, t + HOLD_US), (t + 350, t + 400)]
                sections += [(20000.0, 20000 + HOLD_US), (31000.0, 31000 + HOLD_US)]
            else:
                sections = [(0.0, 1500.0)] + [(t, t + HOLD_US) for t in range(2000, END, 600)]
            for a, b in sections:
                put(0, a, "irqcore_bench_hold_begin", "lock=" + lock)
                if regime == "biglock":
                    put(0, a + 1, "irqcore_lock_acquire", "caller=icb_scn_holder")
                    put(0, b - 1, "irqcore_lock_release", "holder=0")
                put(0, b, "irqcore_bench_hold_end", "lock=" + lock)
            for k, t in enumerate(range(50, END, 100)):
                put(1, t, "irqcore_raise", "irq=41")
                put(1, t + 1, "irqcore_deliver", "irq=41 cpu=1")
                put(1, t + 2, "irqcore_do_irq_entry", "irq=41")
                t += 3
                held = [b for a, b in sections if a <= t < b]
                if regime == "biglock" and held:
                    put(1, t, "irqcore_spin_begin", "where=irq_enter")
                    t = held[0] + 1
                    put(1, t, "irqcore_spin_end", "where=irq_enter")
                put(1, t + 1, "irqcore_handler_entry", "irq=41 name=scenario")
                put(1, t + 11, "irqcore_handler_exit", "irq=41 name=scenario")
                put(1, t + 12, "irqcore_do_irq_exit", "irq=41 ran=1 reruns=0")
                if k % 4 == 0:
                    put(1, t + 13, "irqcore_softirq_entry", "nr=6")
                    put(1, t + 14, "irqcore_tasklet_entry", "func=icb_scn_tasklet")
                    put(1, t + 15, "irqcore_tasklet_exit", "func=icb_scn_tasklet")
                    if k % 16 == 0:
                        put(1, t + 16, "irqcore_bh_entry", "nr=0")
                        put(1, t + 17, "irqcore_bh_exit", "nr=0")
                    put(1, t + 18, "irqcore_softirq_exit", "nr=6")
            put(0, END + 50, "irqcore_sync_begin", "irq=41")
            put(0, END + 60, "irqcore_sync_end", "irq=41")
            f.write("=== irqcore trace: regime=%s\n" % regime)
            f.write("\n".join(line for _, line in sorted(ev)) + "\n=== end\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--synthetic", action="store_true")
    ap.add_argument("trace", nargs="?")
    a = ap.parse_args()
    a.out = os.path.abspath(a.out)
    os.makedirs(a.out, exist_ok=True)
    if a.synthetic == bool(a.trace):
        ap.error("give exactly one of TRACE.LOG and --synthetic")
    if a.synthetic:
        a.trace = os.path.join(a.out, "synthetic.log")
        synthetic(a.trace)

    results = []
    panels = []
    traced = {}
    sections = parse_sections(a.trace)
    if not sections:
        results.append(("trace/found", "no traced load in %s" % a.trace))
    for core, lines in sections:
        m = REGIME.search(core)
        regime = m.group(1) if m else "nolock"
        with open(os.path.join(a.out, "%s.txt" % regime), "w") as f:
            f.write("\n".join(lines) + "\n")
        events = events_of(lines)
        if not events:
            results.append(("trace/%s/events" % regime, "the trace holds no events"))
            continue
        names = {e["name"] for e in events}
        want, absent = EXPECT.get(regime, (BOTH, []))
        missing = [n for n in want if n not in names]
        extra = [n for n in absent if n in names]
        why = []
        if missing:
            why.append("never fired: " + " ".join(missing))
        if extra:
            why.append("fired but cannot under %s: %s" % (regime, " ".join(extra)))
        results.append(("trace/%s/events" % regime, "; ".join(why)))

        spans = spans_of(events)
        cpus = sorted({e["cpu"] for e in events})
        doc = chrome_json(regime, events, spans)
        path = os.path.join(a.out, "%s.json" % regime)
        with open(path, "w") as f:
            json.dump(doc, f)
        with open(path) as f:
            probs = valid_chrome(json.load(f), cpus)
        results.append(("trace/%s/json" % regime, "; ".join(probs)))

        # The window is chosen below, once every regime is read: both
        # panels show the same width of steady state (choose_windows()).
        traced[regime] = (events, holder_sections(events), spans, cpus)
        # What the picture shows, in numbers: how long handlers waited in irq_enter().
        spin = sum(b - a for k, _, a, b, n in spans if k == "spin" and "irq_enter" in n)
        handlers = sum(1 for k, *_ in spans if k == "handler")
        print("%s: %d events on %d CPUs, %d handler runs, %.0f us spun in irq_enter()"
              % (regime, len(events), len(cpus), handlers, spin))
    width, starts = choose_windows({r: (t[0], t[1]) for r, t in traced.items()})
    for regime, (events, sections, spans, cpus) in traced.items():
        t0 = starts[regime]
        what = ("cli() / sti(): the global IRQ lock" if regime == "biglock"
                else "spin_lock_irqsave() on its own driver lock")
        where = ("" if t0 is None else "; %.1f ms into the scenario, %d whole sections"
                 % ((t0 - sections[0][0]) / 1000.0, whole_in(sections, t0, width)))
        title = "%s (%s): CPU%d holds %s%s" % (
            regime, "2.5.27" if regime == "biglock" else "2.5.28", cpus[0], what, where)
        panels.append((regime, title, spans, t0 if t0 is not None else events[0]["ts"], cpus,
                       sections, width))
    # biglock above nolock, as the article tells it: before, then after.
    panels.sort(key=lambda p: p[0] != "biglock")
    if panels:
        print("Window drawn: the same %.0f us of each regime, after a %.0f us warm-up, opening "
              "%.0f us before a holder section (%s)" % (width, WARMUP_US, LEAD_US, "; ".join(
                  "%s: from %.1f ms, %d whole sections" % (
                      r, (starts[r] - traced[r][1][0][0]) / 1000.0,
                      whole_in(traced[r][1], starts[r], width))
                  for r in sorted(traced, key=lambda r: r != "biglock") if starts[r] is not None)))
        ok = gnuplot_timeline(a.out, panels, width)
        results.append(("trace/timeline", "" if ok else "gnuplot did not render it"))
        # Judged on what was drawn: each panel's start, sections and width.
        results.append(("trace/window", "; ".join(window_problems(panels, width))))
        print("Timeline: %s/timeline.svg (and .png); Perfetto/chrome://tracing: %s/<regime>.json"
              % (a.out, a.out))
    failed = 0
    if a.check:
        for name, why in results:
            print("ok %s" % name if not why else "not ok %s: %s" % (name, why))
            failed += bool(why)
    return 1 if failed or not panels else 0


if __name__ == "__main__":
    sys.exit(main())
