#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# bench-report.py - turn the result lines of irqcore_bench (one guest
# console log per CPU count) into build/bench/results.json and the summary
# table of `make bench`. Used by tests/bench; the JSON schema is in
# docs/benchmarks.md.
#
#   bench-report.py --out DIR --meta KEY=VALUE... [--expect-reps N] LOG...
#
# Exit status 1 when a figure is missing, not positive, or a KTAP case of
# the benchmark failed: a harness that cannot tell is no harness.

import argparse
import json
import re
import statistics
import sys

RESULT = re.compile(r"irqcore_bench: result: (.*)$")
KTAP_FAIL = re.compile(r"^(?:\[[ 0-9.]+\] )?not ok \d+ (\S+)")
CASES = {
    "ladder": ["empty", "genirq", "genirq_bare", "irqcore_sa", "irqcore_plain"],
    "roundtrip": ["ipi", "ipi_genirq", "raise"],
}
HOLDS = [1, 10, 100, 1000]
SYNC = ["k0", "k1", "k4", "k8"]
CONTENTION = ["%s_h%d_%s" % (rel, h, m) for h in HOLDS for rel in ("unrelated", "related")
              for m in ("p50", "p99", "max", "rate")]
REGIMES = ["nolock", "biglock"]


def parse(logs):
    records, failures = [], []
    for path in logs:
        with open(path, errors="replace") as f:
            for line in f:
                line = line.rstrip("\r\n")
                m = RESULT.search(line)
                if m:
                    kv = dict(p.split("=", 1) for p in m.group(1).split())
                    records.append({
                        "bench": kv["bench"], "case": kv["case"], "regime": kv["regime"],
                        "cpus": int(kv["cpus"]), "rep": int(kv["rep"]),
                        "value": float(kv["value"]), "unit": kv.get("unit", "ns"),
                    })
                    continue
                m = KTAP_FAIL.search(line)
                if m and (m.group(1).startswith(("ladder_", "roundtrip_", "contention_", "sync_",
                                                 "scaling_", "throughput_", "count_")) or
                          m.group(1) == "accounting"):
                    failures.append("%s: not ok %s" % (path, m.group(1)))
    return records, failures


def summarise(records):
    groups = {}
    for r in records:
        groups.setdefault((r["cpus"], r["bench"], r["case"], r["regime"], r["unit"]), []).append(r["value"])
    summary = []
    for (cpus, bench, case, regime, unit), v in sorted(groups.items()):
        summary.append({
            "cpus": cpus, "bench": bench, "case": case, "regime": regime, "unit": unit,
            "n": len(v), "median": statistics.median(v), "min": min(v), "max": max(v),
        })
    return summary


def median_of(summary, cpus, bench, case, regime):
    for s in summary:
        if (s["cpus"], s["bench"], s["case"], s["regime"]) == (cpus, bench, case, regime):
            return s["median"]
    return None


def headline(summary, cpus):
    med = lambda case, regime: median_of(summary, cpus, "ladder", case, regime)
    h = {}
    gen, nol, big = med("genirq", "nolock"), med("irqcore_sa", "nolock"), med("irqcore_sa", "biglock")
    empty, bare = med("empty", "nolock"), med("genirq_bare", "nolock")
    if gen and nol:
        h["P1"] = nol / gen
        # Every rung's dispatch, and the empty rung's call, is a direct call.
        if empty is not None and gen > empty:
            h["P1_net"] = (nol - empty) / (gen - empty)
    if bare and nol:
        h["P1_bare"] = nol / bare
    if nol and big:
        h["P2"] = big / nol
    return h


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--meta", action="append", default=[])
    ap.add_argument("--expect-reps", type=int, default=1)
    ap.add_argument("logs", nargs="+")
    a = ap.parse_args()

    meta = dict(m.split("=", 1) for m in a.meta)
    records, failures = parse(a.logs)
    summary = summarise(records)
    cpus_list = sorted({r["cpus"] for r in records})
    problems = list(failures)
    for cpus in cpus_list or [0]:
        scaling = ["k%d" % k for k in range(1, cpus + 1)]
        tput = ["k%d_%s" % (k, m) for k in range(1, cpus + 1) for m in ("free", "holder", "duty", "kept")]
        for bench, cases in (list(CASES.items()) + [("contention", CONTENTION), ("sync", SYNC),
                                                    ("scaling", scaling), ("throughput", tput)]):
            for case in cases:
                for regime in REGIMES:
                    got = [r for r in records if (r["cpus"], r["bench"], r["case"], r["regime"]) ==
                           (cpus, bench, case, regime)]
                    if bench in ("roundtrip", "contention", "sync") and cpus == 1:
                        continue    # needs 2 CPUs: a KTAP skip, not a figure
                    if len(got) < a.expect_reps:
                        problems.append("%d CPUs: %s %s %s: %d of %d repetitions" %
                                        (cpus, bench, case, regime, len(got), a.expect_reps))
                    if any(r["value"] <= 0 for r in got):
                        problems.append("%d CPUs: %s %s %s: a value that is not positive" %
                                        (cpus, bench, case, regime))
    heads = {str(c): headline(summary, c) for c in cpus_list}
    doc = {"schema": 1, "meta": meta, "records": records, "summary": summary,
           "headline": heads, "problems": problems}
    with open("%s/results.json" % a.out, "w") as f:
        json.dump(doc, f, indent=1)

    print("irqcore bench: %s; guest command line: %s" % (meta.get("kernel", "?"), meta.get("cmdline", "?")))
    print("%s, commit %s; median [min-max] of %d repetitions, regimes interleaved in one boot" %
          (meta.get("qemu", "?"), meta.get("commit", "?"), a.expect_reps))
    if meta.get("smoke") == "1":
        print("A smoke run: small and once, to prove the harness; these are not measurements.")
    for cpus in cpus_list:
        print()
        print("%d CPUs%s" % (cpus, " (oversubscribed: more vCPUs than host cores)"
                             if cpus > int(meta.get("host_cores", "99")) else ""))
        print("  %-9s %-14s | %-30s | %-30s" % ("bench", "case", "nolock (2.5.28) ns", "biglock (2.5.27) ns"))
        for bench, cases in CASES.items():
            for case in cases:
                cells = []
                for regime in REGIMES:
                    s = [x for x in summary if (x["cpus"], x["bench"], x["case"], x["regime"]) ==
                         (cpus, bench, case, regime)]
                    cells.append("%9.1f [%.1f-%.1f]" % (s[0]["median"], s[0]["min"], s[0]["max"])
                                 if s else "-")
                print("  %-9s %-14s | %-30s | %-30s" % (bench, case, cells[0], cells[1]))
        med = lambda case, regime: median_of(summary, cpus, "contention", case, regime)
        if med("unrelated_h1_p50", "nolock") is not None:
            print()
            print("  contention: a critical section of H us at 50% duty on one CPU, a line raised at 2000/s on the")
            print("  other; raise-to-handler latency p50/p99/max in us, handled per second; medians of repetitions")
            print("  %-6s %-10s | %-32s | %-32s" % ("H us", "handler", "nolock: spin_lock_irqsave", "biglock: cli()/sti()"))
            for h in HOLDS:
                for rel in ("unrelated", "related"):
                    cells = []
                    for regime in REGIMES:
                        v = [med("%s_h%d_%s" % (rel, h, m), regime) for m in ("p50", "p99", "max", "rate")]
                        cells.append("%7.1f %7.1f %8.1f %6.0f/s" % (v[0] / 1000, v[1] / 1000, v[2] / 1000, v[3])
                                     if None not in v else "-")
                    print("  %-6d %-10s | %-32s | %-32s" % (h, rel, cells[0], cells[1]))
        sync = [[median_of(summary, cpus, "sync", k, regime) for k in SYNC] for regime in REGIMES]
        if None not in sync[0] + sync[1]:
            print()
            print("  synchronize_irq() of an idle line while k other lines are busy (20 us handlers), median us:")
            print("  %-9s %s" % ("", "  ".join("%8s" % k for k in SYNC)))
            for regime, row in zip(REGIMES, sync):
                print("  %-9s %s" % (regime, "  ".join("%8.1f" % (v / 1000) for v in row)))
        sc = [[median_of(summary, cpus, "scaling", "k%d" % k, r) for k in range(1, cpus + 1)]
              for r in REGIMES]
        if None not in sc[0] + sc[1]:
            print()
            print("  critical sections per second, k CPUs contending%s:" %
                  (" (oversubscribed beyond %s)" % meta.get("host_cores") if cpus > int(meta.get("host_cores", "99")) else ""))
            print("  %-30s %s" % ("", "  ".join("%10s" % ("k=%d" % k) for k in range(1, cpus + 1))))
            for label, row in zip(("nolock: own driver spinlock", "biglock: cli(); sti()"), sc):
                print("  %-30s %s" % (label, "  ".join("%10.0f" % v for v in row)))
        tp = [[[median_of(summary, cpus, "throughput", "k%d_%s" % (k, m), r) for k in range(1, cpus + 1)]
               for m in ("free", "holder", "duty", "kept")] for r in REGIMES]
        if None not in sum((sum(t, []) for t in tp), []):
            print()
            print("  interrupts handled per second, k CPUs each taking its own line; \"holder\": a critical")
            print("  section of 100 us at 10%% duty on CPU%d (cli() under biglock, its own spinlock under nolock)" %
                  (cpus - 1))
            print("  %-30s %s" % ("", "  ".join("%10s" % ("k=%d" % k) for k in range(1, cpus + 1))))
            for regime, t in zip(REGIMES, tp):
                print("  %-30s %s" % (regime + ": no holder", "  ".join("%10.0f" % v for v in t[0])))
                print("  %-30s %s" % (regime + ": holder", "  ".join("%10.0f" % v for v in t[1])))
                print("  %-30s %s" % (regime + ": holder's duty %", "  ".join("%10.1f" % v for v in t[2])))
                print("  %-30s %s" % (regime + ": kept % (paired)", "  ".join("%10.1f" % v for v in t[3])))
        h = heads[str(cpus)]
        if "P1" in h:
            print("  P1 = irqcore nolock / genirq, per dispatch: %.2f (%.2f with the empty loop taken off;"
                  " %.2f against genirq_bare)" %
                  (h["P1"], h.get("P1_net", float("nan")), h.get("P1_bare", float("nan"))))
        if "P2" in h:
            print("  P2 = biglock / nolock, uncontended dispatch: %.2f" % h["P2"])
    print()
    print("Results: %s/results.json" % a.out)
    for p in problems:
        print("bench: problem: %s" % p, file=sys.stderr)
    return 1 if problems or not records else 0


if __name__ == "__main__":
    sys.exit(main())
