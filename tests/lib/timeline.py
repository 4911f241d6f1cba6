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
# --check also judges the traces, one result line each ("ok NAME" or
# "not ok NAME: why"): every event of a regime fired and none that the
# regime cannot produce; the JSON is valid trace-event JSON with slices on
# every CPU; the picture rendered. The exit status is 1 if any is not ok.
# docs/tracing.md says what every span means.

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
WINDOW_US = 3000.0


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


def gnuplot_timeline(out, panels):
    """Draw the panels [(regime, title, spans, t0, cpus)] one above the other."""
    body = ['set multiplot layout %d,1 title "irqcore: CPU0 in a critical section (300 us in, 300 us '
            'out) while lines fire on the other CPUs every 100 us; the first %d us"'
            % (len(panels), WINDOW_US)]
    for i, (regime, title, spans, t0, cpus) in enumerate(panels):
        for kind, _, _ in SPANS:
            rows = []
            for k, cpu, a, b, _ in spans:
                if k != kind:
                    continue
                a, b = max(a - t0, 0.0), min(b - t0, WINDOW_US)
                if b <= 0 or a >= WINDOW_US:
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
        body.append("set xrange [0:%d]" % WINDOW_US)
        body.append("set yrange [%.1f:%.1f] reverse" % (min(cpus) - 0.6, max(cpus) + 0.6))
        body.append("set ytics (%s)" % ytics)
        body.append('set xlabel "microseconds"')
        # One legend, under the last panel.
        body.append("set key below horizontal" if i == len(panels) - 1 else "unset key")
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("trace")
    a = ap.parse_args()
    a.out = os.path.abspath(a.out)
    os.makedirs(a.out, exist_ok=True)

    results = []
    panels = []
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

        # The window opens just before a section starts: the one whose window
        # holds the most interrupts. Under TCG a vCPU can stand still for a
        # millisecond while the host runs something else, and the raiser's
        # first expiry can come late; such a stretch shows nothing.
        handled = [e["ts"] for e in events if e["name"] == "irqcore_do_irq_entry"]
        holds = [e["ts"] - 100.0 for e in events if e["name"] == "irqcore_bench_hold_begin"]
        t0 = max(holds or [min(e["ts"] for e in events)],
                 key=lambda t: sum(1 for h in handled if t <= h < t + WINDOW_US))
        what = ("cli() / sti(): the global IRQ lock" if regime == "biglock"
                else "spin_lock_irqsave() on its own driver lock")
        title = "%s (%s): CPU%d holds %s" % (
            regime, "2.5.27" if regime == "biglock" else "2.5.28", cpus[0], what)
        panels.append((regime, title, spans, t0, cpus))
        # What the picture shows, in numbers: how long handlers waited in irq_enter().
        spin = sum(b - a for k, _, a, b, n in spans if k == "spin" and "irq_enter" in n)
        handlers = sum(1 for k, *_ in spans if k == "handler")
        print("%s: %d events on %d CPUs, %d handler runs, %.0f us spun in irq_enter()"
              % (regime, len(events), len(cpus), handlers, spin))
    # biglock above nolock, as the article tells it: before, then after.
    panels.sort(key=lambda p: p[0] != "biglock")
    if panels:
        ok = gnuplot_timeline(a.out, panels)
        results.append(("trace/timeline", "" if ok else "gnuplot did not render it"))
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
