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
import random
import re
import statistics
import sys

RESULT = re.compile(r"irqcore_bench: result: (.*)$")
HIST = re.compile(r"irqcore_bench: hist: (.*)$")
CPU_MODEL = re.compile(r"irqcore_bench: cpu: model=(.*)$")
# Timed rounds per load after the warm-up (ICB_ROUNDS in bench/main.c).
ROUNDS = 9
BOOT = 2000     # bootstrap resamples
LOW = 10        # the low percentile reported beside each median
KTAP_FAIL = re.compile(r"^(?:\[[ 0-9.]+\] )?not ok \d+ (\S+)")
CASES = {
    "ladder": ["empty", "genirq", "genirq_bare", "irqcore_sa", "irqcore_plain"],
    "roundtrip": ["ipi", "ipi_genirq", "raise"],
}
HOLDS = [1, 10, 100, 1000]
SYNC = ["k0", "k1", "k4", "k8"]
CONTENTION = ["%s_h%d_%s" % (rel, h, m) for h in HOLDS for rel in ("unrelated", "related")
              for m in ("p50", "p99", "max", "rate", "samples", "late")]
SYNC_BUSY = ["k1_busy", "k4_busy", "k8_busy"]
# Counts that may be 0 in a good run.
MAY_BE_ZERO = ("_late",)
REGIMES = ["nolock", "biglock"]


def parse(logs):
    """Result records, ladder rounds, histograms, KTAP failures, CPU models."""
    records, rounds, hists, failures, models = [], [], [], [], set()
    for path in logs:
        with open(path, errors="replace") as f:
            for line in f:
                line = line.rstrip("\r\n")
                m = RESULT.search(line)
                if m:
                    kv = dict(p.split("=", 1) for p in m.group(1).split())
                    r = {
                        "bench": kv["bench"], "case": kv["case"], "regime": kv["regime"],
                        "cpus": int(kv["cpus"]), "rep": int(kv["rep"]),
                        "value": float(kv["value"]), "unit": kv.get("unit", "ns"),
                    }
                    if r["bench"] == "ladder_round":
                        r["round"] = int(kv["round"])
                        rounds.append(r)
                    else:
                        records.append(r)
                    continue
                m = HIST.search(line)
                if m:
                    kv = dict(p.split("=", 1) for p in m.group(1).split())
                    b = {int(x.split(":")[0]): int(x.split(":")[1])
                         for x in kv.get("buckets", "").split(",") if x}
                    hists.append({"case": kv["case"], "regime": kv["regime"],
                                  "cpus": int(kv["cpus"]), "rep": int(kv["rep"]), "buckets": b})
                    continue
                m = CPU_MODEL.search(line)
                if m:
                    models.add(m.group(1).strip())
                    continue
                m = KTAP_FAIL.search(line)
                if m and (m.group(1).startswith(("ladder_", "roundtrip_", "contention_", "sync_",
                                                 "scaling_", "throughput_", "count_")) or
                          m.group(1) == "accounting"):
                    failures.append("%s: not ok %s" % (path, m.group(1)))
    return records, rounds, hists, failures, models


def percentile(v, q):
    """The q-th percentile of V, linear between order statistics."""
    v = sorted(v)
    if not v:
        return None
    x = (len(v) - 1) * q / 100.0
    i = int(x)
    return v[i] if i + 1 >= len(v) else v[i] + (v[i + 1] - v[i]) * (x - i)


def summarise(records, rounds):
    groups = {}
    for r in records:
        groups.setdefault((r["cpus"], r["bench"], r["case"], r["regime"], r["unit"]), []).append(r["value"])
    # The ladder's low percentile is over every timed round of every load:
    # noise only adds time, so the low end is the least disturbed figure.
    low = {}
    for r in rounds:
        low.setdefault((r["cpus"], r["case"], r["regime"]), []).append(r["value"])
    summary = []
    for (cpus, bench, case, regime, unit), v in sorted(groups.items()):
        s = {"cpus": cpus, "bench": bench, "case": case, "regime": regime, "unit": unit,
             "n": len(v), "median": statistics.median(v), "min": min(v), "max": max(v)}
        if bench == "ladder" and (cpus, case, regime) in low:
            s["p%d" % LOW] = percentile(low[(cpus, case, regime)], LOW)
            s["rounds"] = len(low[(cpus, case, regime)])
        summary.append(s)
    return summary


def median_of(summary, cpus, bench, case, regime, key="median"):
    for s in summary:
        if (s["cpus"], s["bench"], s["case"], s["regime"]) == (cpus, bench, case, regime):
            return s.get(key)
    return None


def loads_of(rounds, cpus):
    """{(regime, rep): {round: {case: ns per call}}} for one CPU count."""
    loads = {}
    for r in rounds:
        if r["cpus"] == cpus:
            loads.setdefault((r["regime"], r["rep"]), {}).setdefault(r["round"], {})[r["case"]] = r["value"]
    return loads


def round_ratio(rnd, num, den, net=False):
    """NUM over DEN of one round (the empty loop taken off both if NET)."""
    n, d = rnd.get(num), rnd.get(den)
    if net:
        e = rnd.get("empty")
        if n is None or d is None or e is None:
            return None
        n, d = n - e, d - e
    return n / d if n is not None and d and d > 0 and n > 0 else None


def interval(estimate, groups, rng, nested):
    """A bootstrap 95 % interval for ESTIMATE (a function of a flat list).

    GROUPS holds one list of values per load (NESTED: resample the loads,
    then the rounds within each, since rounds of one load share its code's
    placement) or one value per pair of loads (not NESTED)."""
    groups = [g for g in groups if g]
    if not groups:
        return None
    stats = []
    for _ in range(BOOT):
        pick = [rng.choice(groups) for _ in groups]
        flat = [rng.choice(g) for g in pick for _ in g] if nested else pick
        stats.append(estimate(flat))
    return [percentile(stats, 2.5), percentile(stats, 97.5)]


def headline(summary, rounds, cpus):
    """P1 and P2 from paired figures, each a median with a bootstrap 95 % interval.

    P1 (irqcore_sa over genirq, in one regime) is the median of the ratios
    of each round, where both were timed back to back; P2 (biglock over
    nolock) pairs the two loads of one repetition and divides their P1s
    (each load's median round ratio): a ratio of ratios against genirq of
    the same load, since irqcore's code moves between loads and genirq's
    does not."""
    rng = random.Random(23)     # the same run gives the same interval
    loads = loads_of(rounds, cpus)
    h = {}

    def per_load(regime, num, den, net=False):
        return [[x for x in (round_ratio(rnd, num, den, net) for _, rnd in sorted(rs.items()))
                 if x is not None]
                for (reg, _), rs in sorted(loads.items()) if reg == regime]

    def paired(key, regime, num, den, net=False):
        groups = per_load(regime, num, den, net)
        flat = [x for g in groups for x in g]
        if not flat:
            return
        h[key] = statistics.median(flat)
        h[key + "_ci"] = interval(statistics.median, groups, rng, True)
        h[key + "_rounds"] = len(flat)

    paired("P1", "nolock", "irqcore_sa", "genirq")
    paired("P1_net", "nolock", "irqcore_sa", "genirq", net=True)
    paired("P1_bare", "nolock", "irqcore_sa", "genirq_bare")
    paired("P1_biglock", "biglock", "irqcore_sa", "genirq")
    # P2: per repetition, biglock's load's P1 over nolock's load's P1.
    reps = sorted({rep for (_, rep) in loads})
    p2 = []
    for rep in reps:
        one = {}
        for regime in REGIMES:
            rs = loads.get((regime, rep), {})
            v = [x for x in (round_ratio(rnd, "irqcore_sa", "genirq") for rnd in rs.values())
                 if x is not None]
            if v:
                one[regime] = statistics.median(v)
        if len(one) == 2:
            p2.append(one["biglock"] / one["nolock"])
    if p2:
        h["P2"] = statistics.median(p2)
        h["P2_ci"] = interval(statistics.median, p2, rng, False)
        h["P2_pairs"] = len(p2)
    # The low percentile: each rung's p10 over every round, divided.
    low = lambda case, regime: median_of(summary, cpus, "ladder", case, regime, "p%d" % LOW)
    g_n, s_n, g_b, s_b = (low("genirq", "nolock"), low("irqcore_sa", "nolock"),
                          low("genirq", "biglock"), low("irqcore_sa", "biglock"))
    if g_n and s_n:
        h["P1_p%d" % LOW] = s_n / g_n
    if g_n and s_n and g_b and s_b:
        h["P2_p%d" % LOW] = (s_b / g_b) / (s_n / g_n)
    return h


def check_rounds(rounds, cpus_list, reps):
    """Every load's every timed round of every rung, once."""
    problems = []
    for cpus in cpus_list:
        loads = loads_of(rounds, cpus)
        for regime in REGIMES:
            for rep in range(1, reps + 1):
                rs = loads.get((regime, rep), {})
                full = [r for r in range(ROUNDS) if len(rs.get(r, {})) == len(CASES["ladder"])]
                if len(full) != ROUNDS or len(rs) != ROUNDS:
                    problems.append("%d CPUs: ladder rounds %s rep %d: %d complete rounds of %d" %
                                    (cpus, regime, rep, len(full), ROUNDS))
    return problems


def bucket_bounds(b):
    """The nanoseconds bucket B covers, [low, high) (bench/contention.h)."""
    if b < 8:
        return b, b + 1
    e, m = b // 8 + 2, b % 8
    return (8 + m) << (e - 3), (9 + m) << (e - 3)


def pooled_contention(records, hists):
    """Each contention figure's latencies pooled over the repetitions.

    One load's p99 of some 400 samples is its fourth-largest value; the
    pool of every repetition's histogram puts it on many more. A bucket is
    1/8 of an octave: the percentiles are its upper bound (within 12.5 %).
    Also checks that each histogram holds exactly its figure's samples (a
    console line cut short would lose some)."""
    problems, pooled, groups = [], [], {}
    samples = {(r["cpus"], r["case"], r["regime"], r["rep"]): r["value"]
               for r in records if r["bench"] == "contention" and r["case"].endswith("_samples")}
    for hst in hists:
        total = sum(hst["buckets"].values())
        want = samples.get((hst["cpus"], hst["case"] + "_samples", hst["regime"], hst["rep"]))
        if want is None or total != want:
            problems.append("%d CPUs: contention %s %s rep %d: histogram holds %d samples, the figure %s" %
                            (hst["cpus"], hst["case"], hst["regime"], hst["rep"], total, want))
        g = groups.setdefault((hst["cpus"], hst["case"], hst["regime"]), {})
        for b, c in hst["buckets"].items():
            g[b] = g.get(b, 0) + c
    for (cpus, case, regime), g in sorted(groups.items()):
        n = sum(g.values())
        at = {}
        for q in (50, 99):
            rank, seen = -(-n * q // 100), 0     # the ceil(n q / 100)-th smallest
            for b in sorted(g):
                seen += g[b]
                if seen >= rank:
                    at[q] = bucket_bounds(b)[1]
                    break
        pooled.append({"cpus": cpus, "case": case, "regime": regime, "n": n,
                       "p50_ns": at.get(50), "p99_ns": at.get(99),
                       "max_ns": bucket_bounds(max(g))[1] if g else None,
                       "above_p99": n - -(-n * 99 // 100)})
    return pooled, problems


def control_ratios(records, cpus_list):
    """Each scaling and throughput figure's growth from k = 1, over its control's.

    Per load, (figure at k / figure at 1) / (control at k / control at 1):
    1.0 means the figure scales as well as private increments delivered the
    same way do on this host; the median over the loads."""
    out = []
    for cpus in cpus_list:
        for bench, fig in (("scaling", "k%d"), ("throughput", "k%d_free")):
            for regime in REGIMES:
                val = {}
                for r in records:
                    if (r["cpus"], r["bench"], r["regime"]) == (cpus, bench, regime):
                        val[(r["rep"], r["case"])] = r["value"]
                for k in range(2, cpus + 1):
                    v = []
                    for rep in sorted({rep for rep, _ in val}):
                        f1, fk = val.get((rep, fig % 1)), val.get((rep, fig % k))
                        c1, ck = val.get((rep, "ctl_k1")), val.get((rep, "ctl_k%d" % k))
                        if f1 and fk and c1 and ck:
                            v.append((fk / f1) / (ck / c1))
                    if v:
                        out.append({"cpus": cpus, "bench": bench, "regime": regime, "k": k,
                                    "n": len(v), "median": statistics.median(v),
                                    "min": min(v), "max": max(v)})
    return out


def fmt_ci(h, key, places=2):
    """'0.61 [0.58-0.64]' for KEY of headline H."""
    if key not in h:
        return "-"
    ci = h.get(key + "_ci")
    f = "%%.%df" % places
    return (f % h[key]) + (" [" + f % ci[0] + "-" + f % ci[1] + "]" if ci else "")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--meta", action="append", default=[])
    ap.add_argument("--expect-reps", type=int, default=1)
    ap.add_argument("logs", nargs="+")
    a = ap.parse_args()

    meta = dict(m.split("=", 1) for m in a.meta)
    records, rounds, hists, failures, models = parse(a.logs)
    # What the guest saw as its CPU (/proc/cpuinfo's model name) beside QEMU's -cpu.
    meta["cpu_model"] = "; ".join(sorted(models)) or "?"
    summary = summarise(records, rounds)
    cpus_list = sorted({r["cpus"] for r in records})
    problems = list(failures)
    problems += check_rounds(rounds, cpus_list, a.expect_reps)
    pooled, hist_problems = pooled_contention(records, [h for h in hists if h["cpus"] != 1])
    problems += hist_problems
    for cpus in cpus_list or [0]:
        scaling = ["%s%d%s" % (p, k, q) for k in range(1, cpus + 1)
                   for p, q in (("k", ""), ("ctl_k", ""), ("k", "_vs_ctl"))]
        tput = ["k%d_%s" % (k, m) for k in range(1, cpus + 1)
                for m in ("free", "holder", "duty", "kept", "vs_ctl")] + \
               ["ctl_k%d" % k for k in range(1, cpus + 1)]
        for bench, cases in (list(CASES.items()) + [("contention", CONTENTION), ("sync", SYNC + SYNC_BUSY),
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
                    if any(r["value"] < 0 or (r["value"] == 0 and not case.endswith(MAY_BE_ZERO))
                           for r in got):
                        problems.append("%d CPUs: %s %s %s: a value that is not positive" %
                                        (cpus, bench, case, regime))
    heads = {str(c): headline(summary, rounds, c) for c in cpus_list}
    for c in cpus_list:
        for key in ("P1", "P2"):
            if key not in heads[str(c)] and not (key == "P2" and a.expect_reps < 1):
                problems.append("%d CPUs: no paired %s" % (c, key))
    controls = control_ratios(records, cpus_list)
    doc = {"schema": 2, "meta": meta, "smoke": meta.get("smoke") == "1", "records": records,
           "rounds": rounds, "summary": summary, "headline": heads,
           "contention_pooled": pooled, "controls": controls, "problems": problems}
    with open("%s/results.json" % a.out, "w") as f:
        json.dump(doc, f, indent=1)

    print("irqcore bench: %s; guest command line: %s" % (meta.get("kernel", "?"), meta.get("cmdline", "?")))
    print("%s, QEMU CPU model %s, guest CPU \"%s\", commit %s; median [min-max] of %d repetitions,"
          " regimes interleaved ABBA in one boot" %
          (meta.get("qemu", "?"), meta.get("qemu_cpu", "?"), meta["cpu_model"], meta.get("commit", "?"),
           a.expect_reps))
    if meta.get("smoke") == "1":
        print("A smoke run: small and once, to prove the harness; these are not measurements.")
    for cpus in cpus_list:
        print()
        print("%d CPUs%s" % (cpus, " (oversubscribed: more vCPUs than host cores)"
                             if cpus > int(meta.get("host_cores", "99")) else ""))
        print("  %-9s %-14s | %-38s | %-38s" % ("bench", "case", "nolock (2.5.28) ns, p%d" % LOW,
                                                "biglock (2.5.27) ns, p%d" % LOW))
        for bench, cases in CASES.items():
            for case in cases:
                cells = []
                for regime in REGIMES:
                    s = [x for x in summary if (x["cpus"], x["bench"], x["case"], x["regime"]) ==
                         (cpus, bench, case, regime)]
                    low = s[0].get("p%d" % LOW) if s else None
                    cells.append("%9.1f [%.1f-%.1f]%s" % (s[0]["median"], s[0]["min"], s[0]["max"],
                                                           ", %.1f" % low if low is not None else "")
                                 if s else "-")
                print("  %-9s %-14s | %-38s | %-38s" % (bench, case, cells[0], cells[1]))
        med = lambda case, regime: median_of(summary, cpus, "contention", case, regime)
        pool = {(x["case"], x["regime"]): x for x in pooled if x["cpus"] == cpus}
        if med("unrelated_h1_p50", "nolock") is not None:
            print()
            print("  contention: a critical section of H us at 50% duty on one CPU, a line raised at 2000/s on the")
            print("  other; latency from each raise's scheduled time to its handler, p50/p99/max in us (medians of")
            print("  repetitions), the p99 of every repetition's samples pooled (n samples, the top n/100 above it),")
            print("  and raises the timer skipped (late) per repetition")
            print("  %-6s %-10s | %-44s | %-44s" % ("H us", "handler", "nolock: spin_lock_irqsave", "biglock: cli()/sti()"))
            for h in HOLDS:
                for rel in ("unrelated", "related"):
                    cells = []
                    for regime in REGIMES:
                        v = [med("%s_h%d_%s" % (rel, h, m), regime) for m in ("p50", "p99", "max", "late")]
                        pl = pool.get(("%s_h%d" % (rel, h), regime))
                        cells.append("%6.1f %7.1f %7.1f, pool %7.1f n=%d, late %d" %
                                     (v[0] / 1000, v[1] / 1000, v[2] / 1000,
                                      pl["p99_ns"] / 1000 if pl else float("nan"), pl["n"] if pl else 0, v[3])
                                     if None not in v else "-")
                    print("  %-6d %-10s | %-44s | %-44s" % (h, rel, cells[0], cells[1]))
        sync = [[median_of(summary, cpus, "sync", k, regime) for k in SYNC] for regime in REGIMES]
        if None not in sync[0] + sync[1]:
            print()
            print("  synchronize_irq() of an idle line while k other lines are busy (20 us handlers), median us,")
            print("  and the busy lines' handler runs per second while it was timed:")
            print("  %-9s %s" % ("", "  ".join("%16s" % k for k in SYNC)))
            for regime, row in zip(REGIMES, sync):
                busy = [median_of(summary, cpus, "sync", "%s_busy" % k, regime) for k in SYNC]
                print("  %-9s %s" % (regime, "  ".join("%8.1f %6s/s" % (v / 1000, "%.0f" % b if b else "0")
                                                       for v, b in zip(row, busy))))
        ctl = {(x["bench"], x["regime"], x["k"]): x for x in controls if x["cpus"] == cpus}
        sc = [[median_of(summary, cpus, "scaling", "k%d" % k, r) for k in range(1, cpus + 1)]
              for r in REGIMES]
        if None not in sc[0] + sc[1]:
            print()
            print("  critical sections per second, k CPUs contending%s; the control: private increments" %
                  (" (oversubscribed beyond %s)" % meta.get("host_cores") if cpus > int(meta.get("host_cores", "99")) else ""))
            print("  %-30s %s" % ("", "  ".join("%10s" % ("k=%d" % k) for k in range(1, cpus + 1))))
            for regime, label, row in zip(REGIMES, ("nolock: own driver spinlock", "biglock: cli(); sti()"), sc):
                print("  %-30s %s" % (label, "  ".join("%10.0f" % v for v in row)))
                c = [median_of(summary, cpus, "scaling", "ctl_k%d" % k, regime) for k in range(1, cpus + 1)]
                print("  %-30s %s" % ("  control (same load)", "  ".join("%10.0f" % (v or 0) for v in c)))
                g = [ctl.get(("scaling", regime, k)) for k in range(2, cpus + 1)]
                print("  %-30s %10s  %s" % ("  growth from k=1 / control's", "",
                                            "  ".join("%10.2f" % x["median"] if x else "%10s" % "-" for x in g)))
        tp = [[[median_of(summary, cpus, "throughput", "k%d_%s" % (k, m), r) for k in range(1, cpus + 1)]
               for m in ("free", "holder", "duty", "kept")] for r in REGIMES]
        if None not in sum((sum(t, []) for t in tp), []):
            print()
            print("  interrupts handled per second, k CPUs each taking its own line; \"holder\": a critical")
            print("  section of 100 us at 10%% duty on CPU%d (cli() under biglock, its own spinlock under nolock);" %
                  (cpus - 1))
            print("  the control: the same self-IPIs, each doing 16 private increments instead of dispatches")
            print("  %-30s %s" % ("", "  ".join("%10s" % ("k=%d" % k) for k in range(1, cpus + 1))))
            for regime, t in zip(REGIMES, tp):
                c = [median_of(summary, cpus, "throughput", "ctl_k%d" % k, regime) for k in range(1, cpus + 1)]
                print("  %-30s %s" % (regime + ": control", "  ".join("%10.0f" % (v or 0) for v in c)))
                print("  %-30s %s" % (regime + ": no holder", "  ".join("%10.0f" % v for v in t[0])))
                g = [ctl.get(("throughput", regime, k)) for k in range(2, cpus + 1)]
                print("  %-30s %10s  %s" % ("  growth from k=1 / control's", "",
                                            "  ".join("%10.2f" % x["median"] if x else "%10s" % "-" for x in g)))
                print("  %-30s %s" % (regime + ": holder", "  ".join("%10.0f" % v for v in t[1])))
                print("  %-30s %s" % (regime + ": holder's duty %", "  ".join("%10.1f" % v for v in t[2])))
                print("  %-30s %s" % (regime + ": kept % (paired)", "  ".join("%10.1f" % v for v in t[3])))
        h = heads[str(cpus)]
        print()
        print("  paired ratios: median of per-round ratios [bootstrap 95 %% interval]; p%d ratios beside" % LOW)
        if "P1" in h:
            print("  P1 = irqcore nolock / genirq, per dispatch: %s over %d rounds (p%d: %.2f); with the empty"
                  " loop taken off %s; against genirq_bare %s; biglock / genirq %s" %
                  (fmt_ci(h, "P1"), h["P1_rounds"], LOW, h.get("P1_p%d" % LOW, float("nan")),
                   fmt_ci(h, "P1_net"), fmt_ci(h, "P1_bare"), fmt_ci(h, "P1_biglock")))
        if "P2" in h:
            print("  P2 = biglock / nolock, uncontended dispatch, each against genirq of its own load: %s over"
                  " %d pairs of loads (p%d: %.2f)" %
                  (fmt_ci(h, "P2"), h["P2_pairs"], LOW, h.get("P2_p%d" % LOW, float("nan"))))
    print()
    print("Results: %s/results.json" % a.out)
    for p in problems:
        print("bench: problem: %s" % p, file=sys.stderr)
    return 1 if problems or not records else 0


if __name__ == "__main__":
    sys.exit(main())
