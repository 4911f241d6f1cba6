#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# bench-devices.py - the device part of `make bench`: turn the result lines
# of the seed's drivers on their own chips (irqcore_eepro100's "rtt:" lines,
# irqcore_intel8x0's "stream:" and "hold:" lines; docs/devices.md) from one
# guest console log, several repetitions of each regime, into medians and
# spreads: build/bench/devices.json, a table on the terminal and a section
# of build/bench/index.html. Used by tests/bench-devices; the JSON is
# described in docs/benchmarks.md.
#
#   bench-devices.py --out DIR --reps N --rtt N [--meta KEY=VALUE...] LOG
#   bench-devices.py --self-test
#
# Each load of a driver is found by the guest's marker line
#   irqcore-guest: load_N: insmod irqcore selftest=none regime=R ; insmod irqcore_NAME ARGS
# and the result lines after it are that load's; the i-th load of a driver
# in a regime is repetition i (tests/bench-devices writes them so).
# Exit status 1 when a figure is missing from a repetition, a count that
# work must have made is 0, or a case of the drivers failed: a harness that
# cannot tell is no harness. --self-test feeds synthetic logs to the same
# code and prints "ok/not ok bench_devices_<case>" (tests/mutants uses it).

import argparse
import html
import json
import os
import re
import statistics
import sys

import benchpage

MARK = re.compile(r"irqcore-guest: load_(\d+): insmod irqcore selftest=none (.*); "
                  r"insmod irqcore_(eepro100|intel8x0)(.*)$")
RESULT = re.compile(r"irqcore_(eepro100|intel8x0): (rtt|stream|hold): (.*)$")
KTAP_FAIL = re.compile(r"^(?:\[[ 0-9.]+\] )?not ok \d+ ((?:eepro100|intel8x0)_\S+)")
REGIMES = ["nolock", "biglock"]
NIC_HOLDS = [0, 100, 1000]     # ee_holds[] in devices/eepro100_rtt.c
# The spread: the quartiles once there are enough repetitions for them to
# mean something (as many as tests/bench's least), the extremes before.
QUARTILES_FROM = 7


def fields(text):
    """NAME=VALUE pairs of a result line, as a dict of strings."""
    return dict(p.split("=", 1) for p in text.split() if "=" in p)


def parse(lines):
    """The loads found in LINES, each {driver, regime, n, lines{...}}, and KTAP failures."""
    loads, failures, cur = [], [], None
    for line in lines:
        line = line.rstrip("\r\n")
        m = MARK.search(line)
        if m:
            core = fields(m.group(2))
            cur = {"n": int(m.group(1)), "driver": m.group(3),
                   "regime": core.get("regime", "?"), "rtt": {}, "stream": None, "hold": None}
            loads.append(cur)
            continue
        m = RESULT.search(line)
        if m:
            if cur is None or cur["driver"] != m.group(1):
                failures.append("a %s %s line outside a load of that driver" %
                                (m.group(1), m.group(2)))
                continue
            kv = fields(m.group(3))
            if kv.get("regime") != cur["regime"]:
                failures.append("load_%d: a %s line says regime=%s, the load was %s" %
                                (cur["n"], m.group(2), kv.get("regime"), cur["regime"]))
            if m.group(2) == "rtt":
                cur["rtt"][int(kv["hold_us"])] = kv
            else:
                cur[m.group(2)] = kv
            continue
        m = KTAP_FAIL.search(line)
        if m:
            failures.append("not ok %s" % m.group(1))
    return loads, failures


def figures(loads, reps, rtt):
    """{(regime, figure): [value per repetition]} and the problems found."""
    values, problems, count = {}, [], {}

    def put(regime, name, v):
        values.setdefault((regime, name), []).append(v)

    for ld in loads:
        key = (ld["driver"], ld["regime"])
        count[key] = count.get(key, 0) + 1
        where = "%s %s rep %d (load_%d)" % (ld["driver"], ld["regime"], count[key], ld["n"])
        g = ld["regime"]
        if ld["driver"] == "eepro100":
            for h in NIC_HOLDS:
                kv = ld["rtt"].get(h)
                if kv is None:
                    problems.append("%s: no rtt line for hold_us=%d" % (where, h))
                    continue
                samples, p50, p99 = int(kv["samples"]), int(kv["p50_ns"]), int(kv["p99_ns"])
                # Work that must have happened: every round trip timed.
                if samples != rtt or not p50 or p99 < p50:
                    problems.append("%s hold_us=%d: samples=%d (want %d) p50_ns=%d p99_ns=%d" %
                                    (where, h, samples, rtt, p50, p99))
                put(g, "nic_h%d_p50_us" % h, p50 / 1000.0)
                put(g, "nic_h%d_p99_us" % h, p99 / 1000.0)
                if h:
                    if not int(kv["in_hold"]):
                        problems.append("%s hold_us=%d: no round trip began inside the "
                                        "holder's section" % (where, h))
                    put(g, "nic_h%d_in_hold" % h, int(kv["in_hold"]))
                    put(g, "nic_h%d_waited" % h, int(kv["waited"]))
        else:
            s, hd = ld["stream"], ld["hold"]
            if s is None or hd is None:
                problems.append("%s: no %s line" % (where, "stream" if s is None else "hold"))
                continue
            ms, done = int(s["ms"]), int(s["completions"])
            if not ms or not done:
                problems.append("%s: the stream played %d buffers in %d ms" % (where, done, ms))
                continue
            put(g, "snd_free_buffers_per_s", int(s["per_s"]))
            put(g, "snd_free_underruns_per_s", int(s["underruns"]) * 1000.0 / ms)
            hold_ms = int(hd["hold_ms"])
            if not hold_ms or not int(hd["completions_after"]):
                problems.append("%s: hold_ms=%d, %s buffers after the hold" %
                                (where, hold_ms, hd["completions_after"]))
                continue
            # Per second of the holder's section: the underruns can only
            # happen while it is held (the stream is whole before and after).
            put(g, "snd_hold_underruns_per_s", int(hd["underruns"]) * 1000.0 / hold_ms)
            put(g, "snd_hold_underruns", int(hd["underruns"]))
            put(g, "snd_hold_buffers_in_hold", int(hd["completions_in_hold"]))
    for drv in ("eepro100", "intel8x0"):
        for g in REGIMES:
            if count.get((drv, g), 0) != reps:
                problems.append("%s %s: %d loads, want %d" % (drv, g, count.get((drv, g), 0), reps))
    for (g, name), v in sorted(values.items()):
        if len(v) != reps:
            problems.append("%s %s: %d of %d repetitions" % (g, name, len(v), reps))
    return values, problems


def quantile(v, q):
    """The q-quantile of V, linear between order statistics."""
    v = sorted(v)
    x = (len(v) - 1) * q
    i = int(x)
    return v[i] if i + 1 >= len(v) else v[i] + (v[i + 1] - v[i]) * (x - i)


def summarise(values):
    """Per (regime, figure): n, median, the spread and its kind."""
    out = {}
    for (g, name), v in values.items():
        quart = len(v) >= QUARTILES_FROM
        out[(g, name)] = {
            "regime": g, "figure": name, "n": len(v), "values": v,
            "median": statistics.median(v), "min": min(v), "max": max(v),
            "spread": "p25-p75" if quart else "min-max",
            "lo": quantile(v, 0.25) if quart else min(v),
            "hi": quantile(v, 0.75) if quart else max(v),
        }
    return out


def ratio(summary, name):
    """biglock's median over nolock's, None where nolock's is 0 (or missing)."""
    n, b = summary.get(("nolock", name)), summary.get(("biglock", name))
    if not n or not b or not n["median"]:
        return None
    return b["median"] / n["median"]


# The rows of the table: figure, its label, its unit, decimals.
ROWS = [("nic_h%d_%s" % (h, m), "NIC, %s: %s" % (
    "no holder" if not h else "holder %d us" % h, lbl), unit, 1 if unit == "us" else 0)
    for h in NIC_HOLDS for m, lbl, unit in (
        ("p50_us", "round trip p50", "us"), ("p99_us", "round trip p99", "us"),
        ("in_hold", "sent in the section", ""), ("waited", "of those, waited", ""))
    if h or m.endswith("_us")] + [
    ("snd_free_buffers_per_s", "AC97, no holder: buffers/s", "/s", 0),
    ("snd_free_underruns_per_s", "AC97, no holder: underruns/s", "/s", 2),
    ("snd_hold_buffers_in_hold", "AC97, holder: buffers played in it", "", 0),
    ("snd_hold_underruns", "AC97, holder: underruns", "", 0),
    ("snd_hold_underruns_per_s", "AC97, holder: underruns/s held", "/s", 2),
]


def cell(s, places):
    if s is None:
        return "-"
    f = "%%.%df" % places
    return (f + " [" + f + "-" + f + "]") % (s["median"], s["lo"], s["hi"])


def table(summary):
    lines = ["  %-40s %-26s %-26s %9s" % ("figure (median [spread])", "nolock (2.5.28)",
                                         "biglock (2.5.27)", "big/no")]
    for name, label, unit, places in ROWS:
        r = ratio(summary, name)
        lines.append("  %-40s %-26s %-26s %9s" % (
            label + (" " + unit if unit and unit != "/s" else ""),
            cell(summary.get(("nolock", name)), places), cell(summary.get(("biglock", name)), places),
            "-" if r is None else "%.2f" % r))
    return lines


def html_section(summary, meta):
    rows = "".join("<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>" % (
        html.escape(label), cell(summary.get(("nolock", name)), places),
        cell(summary.get(("biglock", name)), places),
        "-" if ratio(summary, name) is None else "%.2f" % ratio(summary, name))
        for name, label, unit, places in ROWS)
    return ("<!-- devices -->\n<h2>The seed's drivers on their own chips</h2>\n"
            "<p>irqcore_eepro100 (two i82557b on one hub, rtt=%s round trips per holder) and "
            "irqcore_intel8x0 (AC97, <code>-audiodev none</code>); %s repetitions of each regime "
            "interleaved ABBA in one boot; median [spread: %s]; the ratio is biglock's median "
            "over nolock's. Method: docs/benchmarks.md.</p>\n"
            "<table><tr><th>figure</th><th>nolock</th><th>biglock</th><th>big/no</th></tr>"
            "%s</table>\n<!-- /devices -->\n" % (
                html.escape(meta.get("rtt", "?")), html.escape(meta.get("reps", "?")),
                "p25-p75" if int(meta.get("reps", "0")) >= QUARTILES_FROM else "min-max", rows))


def add_to_page(path, section):
    """Put SECTION into PATH (tests/bench's index.html), replacing an earlier one."""
    return benchpage.put_section(path, "devices", section)


def report(lines, reps, rtt):
    """(summary, problems) of one console log."""
    loads, failures = parse(lines)
    values, problems = figures(loads, reps, rtt)
    return summarise(values), failures + problems


# --- The self-test: synthetic logs through the same code ----------------

def synthetic(reps, rtt, drop=None):
    """A console log of REPS repetitions, ABBA; DROP = (rep, regime, kind) leaves a line out."""
    out, n = [], 0
    for r in range(1, reps + 1):
        for g in (REGIMES if r % 2 else REGIMES[::-1]):
            big = g == "biglock"
            n += 1
            out.append("[  1.000000] irqcore-guest: load_%d: insmod irqcore selftest=none "
                       "regime=%s ; insmod irqcore_eepro100 selftest=none rtt=%d" % (n, g, rtt))
            for h in NIC_HOLDS:
                if drop == (r, g, "rtt%d" % h):
                    continue
                p50 = 100000 * r + (h * 1000 if big else 0)
                out.append("[  2.000000] irqcore_eepro100: rtt: regime=%s hold_us=%d samples=%d "
                           "in_hold=%d waited=%d p50_ns=%d p99_ns=%d max_ns=%d\r" % (
                               g, h, rtt, 10 if h else 0, (10 if big else 1) if h else 0,
                               p50, 2 * p50, 3 * p50))
            n += 1
            out.append("[  3.000000] irqcore-guest: load_%d: insmod irqcore selftest=none "
                       "regime=%s ; insmod irqcore_intel8x0" % (n, g))
            if drop != (r, g, "stream"):
                out.append("irqcore_intel8x0: stream: regime=%s queue=8 ms=1000 completions=%d "
                           "per_s=%d expected_per_s=100 underruns=0" % (g, 98 + r, 98 + r))
            out.append("irqcore_intel8x0: hold: regime=%s hold_ms=300 queue=8 queued_ms=80 "
                       "underruns=%d completions_in_hold=%d completions_after=28" % (
                           g, 3 * r if big else 0, 8 if big else 30))
    return out


def self_test():
    ok = True

    def say(name, good, why):
        nonlocal ok
        ok &= good
        print(("ok bench_devices_%s" % name) if good else
              ("not ok bench_devices_%s: %s" % (name, why)))

    # Three repetitions: p50 100, 200, 300 us (nolock), +1000 us under
    # biglock with the 1000 us holder; biglock's underruns 3, 6, 9 in 300 ms.
    summary, problems = report(synthetic(3, 50), 3, 50)
    p50 = summary.get(("nolock", "nic_h1000_p50_us"), {}).get("median")
    p99 = summary.get(("biglock", "nic_h1000_p99_us"), {}).get("median")
    under = summary.get(("biglock", "snd_hold_underruns_per_s"), {}).get("median")
    say("parse", not problems and p50 == 200.0 and p99 == 2400.0 and under == 20.0 and
        ratio(summary, "nic_h0_p50_us") == 1.0 and ratio(summary, "nic_h100_waited") == 10.0 and
        ratio(summary, "snd_hold_underruns") is None,
        "problems %s; nolock h1000 p50 %s (want 200), biglock h1000 p99 %s (want 2400), "
        "biglock underruns/s %s (want 20)" % (problems, p50, p99, under))
    # The spread: quartiles from 7 repetitions on, the extremes below.
    summary, problems = report(synthetic(7, 50), 7, 50)
    s = summary.get(("nolock", "nic_h0_p50_us"), {})
    say("spread", not problems and s.get("spread") == "p25-p75" and s.get("lo") == 250.0 and
        s.get("hi") == 550.0 and s.get("median") == 400.0, "7 reps of 100..700 us gave %s" % s)
    # A figure missing from one repetition, a count that must not be 0, a
    # load missing: each is a problem.
    for name, log, reps, rtt in (
            ("missing_rtt", synthetic(3, 50, (2, "biglock", "rtt100")), 3, 50),
            ("missing_stream", synthetic(3, 50, (1, "nolock", "stream")), 3, 50),
            ("short_rtt", synthetic(3, 50), 3, 60),
            ("missing_load", synthetic(2, 50), 3, 50),
            ("case_failed", synthetic(3, 50) + ["not ok 2 eepro100_rtt_nolock_hold100"], 3, 50),
            ("empty", [], 3, 50)):
        problems = report(log, reps, rtt)[1]
        say(name, bool(problems), "no problem found")
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    ap.add_argument("--reps", type=int)
    ap.add_argument("--rtt", type=int)
    ap.add_argument("--meta", action="append", default=[])
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("log", nargs="?")
    a = ap.parse_args()
    if a.self_test:
        return self_test()
    if not (a.out and a.reps and a.rtt and a.log):
        ap.error("--out, --reps, --rtt and a LOG are needed")
    meta = dict(kv.split("=", 1) for kv in a.meta)
    meta.update(reps=str(a.reps), rtt=str(a.rtt))
    with open(a.log, errors="replace") as f:
        summary, problems = report(f, a.reps, a.rtt)
    print("\n".join(table(summary)))
    doc = {"meta": meta, "problems": problems,
           "summary": [dict(s, ratio_biglock_nolock=ratio(summary, s["figure"]))
                       for _, s in sorted(summary.items())]}
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "devices.json"), "w") as f:
        json.dump(doc, f, indent=1)
    print("Figures: %s/devices.json" % a.out)
    if add_to_page(os.path.join(a.out, "index.html"), html_section(summary, meta)):
        print("Page: %s/index.html (the devices section)" % a.out)
    for p in problems:
        print("problem: %s" % p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
