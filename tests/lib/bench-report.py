#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# bench-report.py - turn the result lines of irqcore_bench (one guest
# console log per CPU count) into build/bench/results.json and the summary
# table of `make bench`. Used by tests/bench; the JSON schema is in
# docs/benchmarks.md.
#
#   bench-report.py --out DIR --meta KEY=VALUE... [--expect-reps N] [--expect-boots N] LOG...
#   bench-report.py --self-test
#
# Each LOG is one boot (tests/bench boots BOOTS times per CPU count, each
# boot REPS repetitions of each regime in ABBA order). A timed ratio is
# formed within each boot and reported as the median over the boots with
# their min-max: the between-boot spread, with no confidence claim (one
# boot's interval did not cover the next boot's figure). A ratio whose
# spread crosses 1 or is wider than SPREAD of its median is marked
# "(host's)": the host moved it more than the regimes did. With one boot
# (the smoke) there is no spread, and the report says so.
#
# Exit status 1 when a figure is missing, not positive, or a KTAP case of
# the benchmark failed: a harness that cannot tell is no harness. (The
# counted contention shares are checked in the guest, in each figure's
# _share case; a "not ok" there fails the run here.) --self-test runs
# the between-boot and counted-share code on synthetic figures, each check
# with a case that must fail it, and exits 1 if any goes the wrong way.

import argparse
import json
import re
import statistics
import sys

RESULT = re.compile(r"irqcore_bench: result: (.*)$")
HIST = re.compile(r"irqcore_bench: hist: (.*)$")
CPU_MODEL = re.compile(r"irqcore_bench: cpu: model=(.*)$")
# Timed rounds per load after the warm-up (ICB_ROUNDS in bench/main.c).
ROUNDS = 9
SPREAD = 0.20   # a between-boot spread wider than this share of the median is the host's
LOW = 10        # the low percentile reported beside each median
KTAP_FAIL = re.compile(r"^(?:\[[ 0-9.]+\] )?not ok \d+ (\S+)")
CASES = {
    "ladder": ["empty", "genirq", "genirq_bare", "irqcore_sa", "irqcore_plain"],
    "roundtrip": ["ipi", "ipi_genirq", "raise"],
}
HOLDS = [1, 10, 100, 1000]
SYNC = ["k0", "k1", "k4", "k8"]
# Counted first (what happened), then timed (how long it took).
COUNTED = ("in_section", "waited", "expected", "bound", "spins", "turns", "handled", "samples", "late")
CONTENTION = ["%s_h%d_%s" % (rel, h, m) for h in HOLDS for rel in ("unrelated", "related")
              for m in COUNTED + ("held", "duty", "p50", "p99", "max", "rate")]
SYNC_BUSY = ["k1_busy", "k4_busy", "k8_busy"]
# Counts that may be 0 in a good run.
MAY_BE_ZERO = ("_late", "_in_section", "_waited", "_expected", "_spins", "_turns")
REGIMES = ["nolock", "biglock"]


def parse(logs):
    """Result records, ladder rounds, histograms, KTAP failures, CPU models."""
    records, rounds, hists, failures, models = [], [], [], [], set()
    for boot, path in enumerate(logs):
        with open(path, errors="replace") as f:
            for line in f:
                line = line.rstrip("\r\n")
                m = RESULT.search(line)
                if m:
                    kv = dict(p.split("=", 1) for p in m.group(1).split())
                    r = {
                        "bench": kv["bench"], "case": kv["case"], "regime": kv["regime"],
                        "cpus": int(kv["cpus"]), "rep": int(kv["rep"]),
                        "value": float(kv["value"]), "unit": kv.get("unit", "ns"), "boot": boot,
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
                    hists.append({"case": kv["case"], "regime": kv["regime"], "boot": boot,
                                  "cpus": int(kv["cpus"]), "rep": int(kv["rep"]), "buckets": b})
                    continue
                m = CPU_MODEL.search(line)
                if m:
                    models.add(m.group(1).strip())
                    continue
                m = KTAP_FAIL.search(line)
                if m and (m.group(1).startswith(("ladder_", "roundtrip_", "contention_", "sync_",
                                                 "scaling_", "throughput_", "count_",
                                                 "harness_")) or
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


def loads_of(rounds, cpus, boot=None):
    """{(regime, boot, rep): {round: {case: ns per call}}} for one CPU count
    (and one BOOT, if given)."""
    loads = {}
    for r in rounds:
        if r["cpus"] == cpus and boot in (None, r["boot"]):
            loads.setdefault((r["regime"], r["boot"], r["rep"]), {}).setdefault(
                r["round"], {})[r["case"]] = r["value"]
    return loads


def boots_of(records, cpus):
    """The boots (log indices) that hold figures for CPUS."""
    return sorted({r["boot"] for r in records if r["cpus"] == cpus})


def over_boots(values):
    """A timed ratio's figures of each boot -> median, [min, max] and the
    host's mark: True when the spread crosses 1 or is wider than SPREAD of
    the median, None with fewer than two boots (no spread to judge)."""
    v = [x for x in values if x is not None]
    if not v:
        return None
    m = statistics.median(v)
    host = None
    if len(v) > 1:
        host = (min(v) < 1.0 < max(v)) or (max(v) - min(v)) > SPREAD * m
    return {"median": m, "min": min(v), "max": max(v), "boots": v, "host": host}


def round_ratio(rnd, num, den, net=False):
    """NUM over DEN of one round (the empty loop taken off both if NET)."""
    n, d = rnd.get(num), rnd.get(den)
    if net:
        e = rnd.get("empty")
        if n is None or d is None or e is None:
            return None
        n, d = n - e, d - e
    return n / d if n is not None and d and d > 0 and n > 0 else None


def headline_boot(summary, rounds, cpus, boot):
    """P1 and P2 of one boot, from paired figures.

    P1 (irqcore_sa over genirq, in one regime) is the median of the ratios
    of each round, where both were timed back to back; P2 (biglock over
    nolock) pairs the two loads of one repetition and divides their P1s
    (each load's median round ratio): a ratio of ratios against genirq of
    the same load, since irqcore's code moves between loads and genirq's
    does not. The median of the repetitions' ratios."""
    loads = loads_of(rounds, cpus, boot)
    h = {}

    def paired(key, regime, num, den, net=False):
        flat = [x for (reg, _, _), rs in sorted(loads.items()) if reg == regime
                for _, rnd in sorted(rs.items())
                for x in [round_ratio(rnd, num, den, net)] if x is not None]
        if flat:
            h[key] = statistics.median(flat)
            h[key + "_rounds"] = len(flat)

    paired("P1", "nolock", "irqcore_sa", "genirq")
    paired("P1_net", "nolock", "irqcore_sa", "genirq", net=True)
    paired("P1_bare", "nolock", "irqcore_sa", "genirq_bare")
    paired("P1_biglock", "biglock", "irqcore_sa", "genirq")
    p2 = []
    for rep in sorted({rep for (_, _, rep) in loads}):
        one = {}
        for regime in REGIMES:
            rs = loads.get((regime, boot, rep), {})
            v = [x for x in (round_ratio(rnd, "irqcore_sa", "genirq") for rnd in rs.values())
                 if x is not None]
            if v:
                one[regime] = statistics.median(v)
        if len(one) == 2:
            p2.append(one["biglock"] / one["nolock"])
    if p2:
        h["P2"] = statistics.median(p2)
        h["P2_pairs"] = len(p2)
    # The low percentile of this boot: each rung's p10 over its rounds, divided.
    low = {}
    for (regime, _, _), rs in loads.items():
        for rnd in rs.values():
            for case in ("genirq", "irqcore_sa"):
                if rnd.get(case) is not None:
                    low.setdefault((case, regime), []).append(rnd[case])
    p = {k: percentile(v, LOW) for k, v in low.items()}
    g_n, s_n = p.get(("genirq", "nolock")), p.get(("irqcore_sa", "nolock"))
    g_b, s_b = p.get(("genirq", "biglock")), p.get(("irqcore_sa", "biglock"))
    if g_n and s_n:
        h["P1_p%d" % LOW] = s_n / g_n
    if g_n and s_n and g_b and s_b:
        h["P2_p%d" % LOW] = (s_b / g_b) / (s_n / g_n)
    return h


HEAD_KEYS = ("P1", "P1_net", "P1_bare", "P1_biglock", "P2", "P1_p%d" % LOW, "P2_p%d" % LOW)


def headline(summary, rounds, records, cpus):
    """Each headline ratio over the boots: KEY the median of the boots'
    figures, KEY_spread [min, max], KEY_boots the figures, KEY_host the mark
    (over_boots()); KEY_rounds and P2_pairs summed over the boots."""
    per = [headline_boot(summary, rounds, cpus, b) for b in boots_of(records, cpus)]
    h = {"boots": len(per)}
    for key in HEAD_KEYS:
        o = over_boots([x.get(key) for x in per])
        if o:
            h[key] = o["median"]
            h[key + "_spread"] = [o["min"], o["max"]]
            h[key + "_boots"] = o["boots"]
            h[key + "_host"] = o["host"]
    for key in ("P1_rounds", "P1_net_rounds", "P1_bare_rounds", "P1_biglock_rounds", "P2_pairs"):
        if any(key in x for x in per):
            h[key] = sum(x.get(key, 0) for x in per)
    return h


def check_rounds(rounds, records, cpus_list, reps):
    """Every load's every timed round of every rung, once, in every boot."""
    problems = []
    for cpus in cpus_list:
        loads = loads_of(rounds, cpus)
        for boot in boots_of(records, cpus):
            for regime in REGIMES:
                for rep in range(1, reps + 1):
                    rs = loads.get((regime, boot, rep), {})
                    full = [r for r in range(ROUNDS) if len(rs.get(r, {})) == len(CASES["ladder"])]
                    if len(full) != ROUNDS or len(rs) != ROUNDS:
                        problems.append("%d CPUs: ladder rounds %s boot %d rep %d: %d complete rounds of %d" %
                                        (cpus, regime, boot + 1, rep, len(full), ROUNDS))
    return problems


def bucket_bounds(b):
    """The nanoseconds bucket B covers, [low, high) (bench/contention.h)."""
    if b < 8:
        return b, b + 1
    e, m = b // 8 + 2, b % 8
    return (8 + m) << (e - 3), (9 + m) << (e - 3)


def pooled_contention(records, hists):
    """Each contention figure's latencies pooled over the repetitions of a boot.

    One load's p99 of some 400 samples is its fourth-largest value; the
    pool of a boot's histograms puts it on many more. A bucket is 1/8 of an
    octave: the percentiles are its upper bound (within 12.5 %). Also checks
    that each histogram holds exactly its figure's samples (a console line
    cut short would lose some). One entry per (cpus, case, regime, boot)."""
    problems, pooled, groups = [], [], {}
    samples = {(r["cpus"], r["case"], r["regime"], r["boot"], r["rep"]): r["value"]
               for r in records if r["bench"] == "contention" and r["case"].endswith("_samples")}
    for hst in hists:
        total = sum(hst["buckets"].values())
        want = samples.get((hst["cpus"], hst["case"] + "_samples", hst["regime"], hst["boot"], hst["rep"]))
        if want is None or total != want:
            problems.append("%d CPUs: contention %s %s boot %d rep %d: histogram holds %d samples, the figure %s" %
                            (hst["cpus"], hst["case"], hst["regime"], hst["boot"] + 1, hst["rep"], total, want))
        g = groups.setdefault((hst["cpus"], hst["case"], hst["regime"], hst["boot"]), {})
        for b, c in hst["buckets"].items():
            g[b] = g.get(b, 0) + c
    for (cpus, case, regime, boot), g in sorted(groups.items()):
        n = sum(g.values())
        at = {}
        for q in (50, 99):
            rank, seen = -(-n * q // 100), 0     # the ceil(n q / 100)-th smallest
            for b in sorted(g):
                seen += g[b]
                if seen >= rank:
                    at[q] = bucket_bounds(b)[1]
                    break
        pooled.append({"cpus": cpus, "case": case, "regime": regime, "boot": boot, "n": n,
                       "p50_ns": at.get(50), "p99_ns": at.get(99),
                       "max_ns": bucket_bounds(max(g))[1] if g else None,
                       "above_p99": n - -(-n * 99 // 100)})
    return pooled, problems


def timed_over_boots(pooled, cpus_list):
    """The pooled p50 and p99 of each figure over the boots (median, min,
    max), and the p99 ratio biglock / nolock of each figure, formed within
    each boot, over the boots with the host's mark (over_boots())."""
    out = []
    for cpus in cpus_list:
        for h in HOLDS:
            for rel in ("unrelated", "related"):
                case = "%s_h%d" % (rel, h)
                by = {(x["regime"], x["boot"]): x for x in pooled
                      if (x["cpus"], x["case"]) == (cpus, case)}
                e = {"cpus": cpus, "case": case}
                for regime in REGIMES:
                    for q in ("p50_ns", "p99_ns"):
                        o = over_boots([x[q] for (r, _), x in sorted(by.items()) if r == regime])
                        if o:
                            o.pop("host")
                            e["%s_%s" % (regime, q)] = o
                boots = sorted({b for _, b in by})
                ratio = [by[("biglock", b)]["p99_ns"] / by[("nolock", b)]["p99_ns"] for b in boots
                         if ("biglock", b) in by and ("nolock", b) in by and by[("nolock", b)]["p99_ns"]]
                o = over_boots(ratio)
                if o:
                    e["p99_ratio"] = o
                out.append(e)
    return out


def counted_contention(records, cpus_list):
    """The counted events of each figure, summed over every load (every boot,
    every repetition), with the shares and what each regime predicts:
    biglock, and a related handler in either regime, all raises inside a
    section wait; nolock's unrelated handler at most the bound (the guest's
    _share case checks each load; this is the sum)."""
    out = []
    for cpus in cpus_list:
        for h in HOLDS:
            for rel in ("unrelated", "related"):
                for regime in REGIMES:
                    case = "%s_h%d" % (rel, h)
                    got = {}
                    for r in records:
                        if (r["cpus"], r["bench"], r["regime"]) == (cpus, "contention", regime) and \
                                r["case"].startswith(case + "_"):
                            got.setdefault(r["case"][len(case) + 1:], []).append(r["value"])
                    if "samples" not in got:
                        continue
                    tot = {k: sum(got.get(k, [0])) for k in COUNTED}
                    all_wait = regime == "biglock" or rel == "related"
                    e = {"cpus": cpus, "case": case, "regime": regime, "loads": len(got["samples"])}
                    e.update({k: int(v) for k, v in tot.items()})
                    e["in_section_share"] = tot["in_section"] / tot["samples"] if tot["samples"] else None
                    e["waited_share"] = tot["waited"] / tot["in_section"] if tot["in_section"] else None
                    e["spins_per_dispatch"] = tot["spins"] / tot["handled"] if tot["handled"] else None
                    e["turns_per_dispatch"] = tot["turns"] / tot["handled"] if tot["handled"] else None
                    e["duty_pct"] = statistics.median(got["duty"]) if got.get("duty") else None
                    e["held_ns"] = statistics.median(got["held"]) if got.get("held") else None
                    e["predicts"] = "all wait" if all_wait else "at most the bound"
                    # Informational: the verdict is each load's own
                    # contention_*_share KTAP case, read by the analyser
                    # (one result path); this sum of the loads' bounds is
                    # looser than any one of them.
                    e["met"] = (tot["waited"] == tot["in_section"]) if all_wait else \
                        (tot["waited"] <= tot["bound"])
                    out.append(e)
    return out


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
                        val[((r["boot"], r["rep"]), r["case"])] = r["value"]
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


def fmt_boots(o, places=2, unit=""):
    """'0.61 [0.58-0.64] (host's)' from an over_boots() dict (or a headline's
    KEY, KEY_spread, KEY_host), with no confidence claim: the brackets are
    the lowest and highest boot's figure."""
    if not o:
        return "-"
    f = "%%.%df%s" % (places, unit)
    if len(o.get("boots", [])) < 2:
        return (f % o["median"]) + " (one boot: no spread)"
    return (f % o["median"]) + " [" + (f % o["min"]) + "-" + (f % o["max"]) + "]" + \
        (" (host's)" if o.get("host") else "")


def fmt_us(o):
    """A time's over_boots() dict in us: median [min-max], no host's mark."""
    if not o:
        return "-"
    if len(o["boots"]) < 2:
        return "%.0f" % (o["median"] / 1000)
    return "%.0f [%.0f-%.0f]" % (o["median"] / 1000, o["min"] / 1000, o["max"] / 1000)


def head_boots(h, key):
    """over_boots() form of headline H's KEY."""
    if key not in h:
        return None
    return {"median": h[key], "min": h[key + "_spread"][0], "max": h[key + "_spread"][1],
            "boots": h[key + "_boots"], "host": h[key + "_host"]}


def self_test():
    """Synthetic figures through the same code: the host's mark, the one-boot
    form, the p99 ratio only with a spread, the counted shares' verdict.
    Every check has a case that must come out the other way."""
    bad = []

    def want(name, got, expect):
        print("%s %s%s" % ("ok" if got == expect else "not ok", name,
                           "" if got == expect else " # got %r, want %r" % (got, expect)))
        if got != expect:
            bad.append(name)

    # The host's mark: spread across 1; spread wider than SPREAD; narrow; one boot.
    want("over_boots/crosses_1", over_boots([0.98, 1.02, 1.05])["host"], True)
    want("over_boots/wide", over_boots([0.50, 0.60, 0.70])["host"], True)
    want("over_boots/narrow", over_boots([0.60, 0.62, 0.64])["host"], False)
    want("over_boots/one_boot", over_boots([0.62])["host"], None)
    want("fmt/host", fmt_boots(over_boots([0.98, 1.07, 1.10])), "1.07 [0.98-1.10] (host's)")
    want("fmt/one_boot", fmt_boots(over_boots([0.62])), "0.62 (one boot: no spread)")
    want("fmt/narrow", fmt_boots(over_boots([0.60, 0.62, 0.64])), "0.62 [0.60-0.64]")

    def rec(case, regime, boot, value, cpus=2, rep=1):
        return {"bench": "contention", "case": case, "regime": regime, "cpus": cpus, "rep": rep,
                "boot": boot, "value": float(value), "unit": "count"}

    def figure(rel, h, regime, ins, waited, bound, boot=0):
        c = "%s_h%d" % (rel, h)
        return [rec(c + "_samples", regime, boot, 400), rec(c + "_in_section", regime, boot, ins),
                rec(c + "_waited", regime, boot, waited), rec(c + "_bound", regime, boot, bound),
                rec(c + "_handled", regime, boot, 400)]

    def met(rs, case, regime):
        return next(x["met"] for x in counted_contention(rs, [2])
                    if (x["case"], x["regime"]) == (case, regime))

    want("counted/nolock_unrelated_within", met(figure("unrelated", 1000, "nolock", 200, 3, 9),
                                                "unrelated_h1000", "nolock"), True)
    want("counted/nolock_unrelated_leaks", met(figure("unrelated", 1000, "nolock", 200, 200, 9),
                                              "unrelated_h1000", "nolock"), False)
    want("counted/biglock_all_wait", met(figure("unrelated", 1000, "biglock", 150, 150, 9),
                                         "unrelated_h1000", "biglock"), True)
    want("counted/biglock_one_ran", met(figure("unrelated", 1000, "biglock", 150, 149, 9),
                                        "unrelated_h1000", "biglock"), False)
    want("counted/nolock_related_one_ran", met(figure("related", 1000, "nolock", 150, 149, 9),
                                               "related_h1000", "nolock"), False)

    # The p99 ratio is formed per boot; with one boot it has no spread.
    def pool(boot, regime, p99):
        return {"cpus": 2, "case": "unrelated_h1000", "regime": regime, "boot": boot, "n": 1600,
                "p50_ns": 1000, "p99_ns": p99, "max_ns": p99, "above_p99": 16}

    t = timed_over_boots([pool(0, "nolock", 100e3), pool(0, "biglock", 1000e3),
                          pool(1, "nolock", 120e3), pool(1, "biglock", 1100e3),
                          pool(2, "nolock", 110e3), pool(2, "biglock", 1050e3)], [2])
    r = next(x for x in t if x["case"] == "unrelated_h1000")["p99_ratio"]
    want("timed/p99_ratio_boots", len(r["boots"]), 3)
    want("timed/p99_ratio_per_boot", round(r["median"], 2), 9.55)
    t = timed_over_boots([pool(0, "nolock", 100e3), pool(0, "biglock", 1000e3)], [2])
    want("timed/p99_ratio_one_boot", len(next(x for x in t if x["case"] == "unrelated_h1000")
                                         ["p99_ratio"]["boots"]), 1)

    # The headline over boots: P1 per boot, then its median and spread.
    rounds = []
    for boot, ratio in ((0, 0.55), (1, 0.68), (2, 0.60)):
        for regime in REGIMES:
            for rnd in range(ROUNDS):
                for case, v in (("genirq", 400.0), ("irqcore_sa", 400.0 * ratio),
                                ("empty", 30.0), ("genirq_bare", 300.0)):
                    rounds.append({"bench": "ladder_round", "case": case, "regime": regime,
                                   "cpus": 2, "rep": 1, "boot": boot, "round": rnd, "value": v})
    recs = [dict(x, bench="ladder") for x in rounds if x["round"] == 0]
    h = headline([], rounds, recs, 2)
    want("headline/P1_median_over_boots", round(h["P1"], 2), 0.60)
    want("headline/P1_spread", [round(x, 2) for x in h["P1_spread"]], [0.55, 0.68])
    want("headline/P1_host", h["P1_host"], True)
    want("headline/P2_pairs", h["P2_pairs"], 3)
    print("self-test: %d of the checks went the wrong way" % len(bad) if bad else
          "self-test: every check came out as it must")
    return 1 if bad else 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--meta", action="append", default=[])
    ap.add_argument("--expect-reps", type=int, default=1, help="repetitions of each regime per boot")
    ap.add_argument("--expect-boots", type=int, default=1, help="boots per CPU count")
    ap.add_argument("logs", nargs="+")
    a = ap.parse_args()

    meta = dict(m.split("=", 1) for m in a.meta)
    records, rounds, hists, failures, models = parse(a.logs)
    # What the guest saw as its CPU (/proc/cpuinfo's model name) beside QEMU's -cpu.
    meta["cpu_model"] = "; ".join(sorted(models)) or "?"
    summary = summarise(records, rounds)
    cpus_list = sorted({r["cpus"] for r in records})
    problems = list(failures)
    problems += check_rounds(rounds, records, cpus_list, a.expect_reps)
    for cpus in cpus_list:
        if len(boots_of(records, cpus)) != a.expect_boots:
            problems.append("%d CPUs: %d boots of %d" % (cpus, len(boots_of(records, cpus)), a.expect_boots))
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
                    if len(got) < a.expect_reps * a.expect_boots:
                        problems.append("%d CPUs: %s %s %s: %d of %d repetitions" %
                                        (cpus, bench, case, regime, len(got),
                                         a.expect_reps * a.expect_boots))
                    if any(r["value"] < 0 or (r["value"] == 0 and not case.endswith(MAY_BE_ZERO))
                           for r in got):
                        problems.append("%d CPUs: %s %s %s: a value that is not positive" %
                                        (cpus, bench, case, regime))
    heads = {str(c): headline(summary, rounds, records, c) for c in cpus_list}
    for c in cpus_list:
        for key in ("P1", "P2"):
            if key not in heads[str(c)] and not (key == "P2" and a.expect_reps < 1):
                problems.append("%d CPUs: no paired %s" % (c, key))
    controls = control_ratios(records, cpus_list)
    counted = counted_contention(records, [c for c in cpus_list if c > 1])
    timed = timed_over_boots(pooled, [c for c in cpus_list if c > 1])
    doc = {"schema": 3, "meta": meta, "smoke": meta.get("smoke") == "1", "records": records,
           "rounds": rounds, "summary": summary, "headline": heads,
           "contention_counted": counted, "contention_timed": timed,
           "contention_pooled": pooled, "controls": controls, "problems": problems}
    with open("%s/results.json" % a.out, "w") as f:
        json.dump(doc, f, indent=1)

    print("irqcore bench: %s; guest command line: %s" % (meta.get("kernel", "?"), meta.get("cmdline", "?")))
    print("%s, QEMU CPU model %s, guest CPU \"%s\", commit %s; %d boot%s, each %d repetitions of each"
          " regime interleaved ABBA; a figure is the median [min-max] over every load, a timed ratio the"
          " median [min-max] over the boots (the between-boot spread; no confidence claim)" %
          (meta.get("qemu", "?"), meta.get("qemu_cpu", "?"), meta["cpu_model"], meta.get("commit", "?"),
           a.expect_boots, "" if a.expect_boots == 1 else "s", a.expect_reps))
    if a.expect_boots < 2:
        print("One boot: the timed ratios have no between-boot spread, and none is marked the host's.")
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
        cnt = {(x["case"], x["regime"]): x for x in counted if x["cpus"] == cpus}
        tim = {x["case"]: x for x in timed if x["cpus"] == cpus}
        if cnt:
            print()
            print("  contention: a critical section of H us at 50% duty on one CPU, a line raised at 2000/s on the")
            print("  other. Counted first, over every load: of the raises, the share made inside a section; of")
            print("  those, the share whose handler ran only after the section ended (waited), against what the")
            print("  regime predicts (biglock, and a related handler: all wait; nolock unrelated: at most the bound")
            print("  of irqcore_holdshare.h, summed over the loads; each load is checked in its guest _share case);")
            print("  and the dispatches whose irq_enter() spun on the global lock, with the spin turns per dispatch")
            print("  (iterations of the wait loop, not instructions)")
            print("  %-6s %-10s | %-50s | %-50s" % ("H us", "handler", "nolock: spin_lock_irqsave", "biglock: cli()/sti()"))
            for h in HOLDS:
                for rel in ("unrelated", "related"):
                    cells = []
                    for regime in REGIMES:
                        x = cnt.get(("%s_h%d" % (rel, h), regime))
                        if not x:
                            cells.append("-")
                            continue
                        want = "all" if x["predicts"] == "all wait" else "<=%d" % x["bound"]
                        cells.append("in %4.1f%% waited %d/%d (%s)%s, spun %.0f%% %.0f turns" % (
                            100 * (x["in_section_share"] or 0), x["waited"], x["in_section"], want,
                            "" if x["met"] else " MISSED", 100 * (x["spins_per_dispatch"] or 0),
                            x["turns_per_dispatch"] or 0))
                    print("  %-6d %-10s | %-50s | %-50s" % (h, rel, cells[0], cells[1]))
            print()
            print("  then the times, secondary: from each raise itself (the busy CPU's clock just before the raise)")
            print("  to its handler, every repetition's samples of a boot pooled, p50 and p99 in us as the median")
            print("  [min-max] over the boots; the p99 ratio biglock / nolock formed in each boot, over the boots")
            print("  (\"(host's)\": the spread crosses 1 or is wider than %d%% of the median); periods the raiser's" %
                  round(SPREAD * 100))
            print("  timer skipped (late: not raised, not timed) per load")
            med = lambda case, regime: median_of(summary, cpus, "contention", case, regime)
            print("  %-6s %-10s | %-30s | %-30s | %s" % ("H us", "handler", "nolock p50 / p99", "biglock p50 / p99",
                                                         "p99 biglock/nolock"))
            for h in HOLDS:
                for rel in ("unrelated", "related"):
                    t = tim.get("%s_h%d" % (rel, h), {})
                    cells = []
                    for regime in REGIMES:
                        p50, p99 = t.get(regime + "_p50_ns"), t.get(regime + "_p99_ns")
                        late = med("%s_h%d_late" % (rel, h), regime)
                        cells.append("%s / %s, late %s" % (
                            "%.0f" % (p50["median"] / 1000) if p50 else "-",
                            fmt_us(p99), "%.0f" % late if late is not None else "-"))
                    # A p99 ratio is printed only with its spread over boots.
                    r = t.get("p99_ratio")
                    print("  %-6d %-10s | %-30s | %-30s | %s" % (
                        h, rel, cells[0], cells[1],
                        fmt_boots(r) if r and len(r["boots"]) > 1 else "not printed: one boot"))
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
        print("  timed ratios, paired within a load (P1) or a repetition (P2), each boot's median, then the median")
        print("  [min-max] over %d boot%s; \"(host's)\": the spread crosses 1 or is wider than %d%% of the median." %
              (h.get("boots", 0), "" if h.get("boots") == 1 else "s", round(SPREAD * 100)))
        print("  The headline is the counted P1c/P2c of make cost (docs/benchmarks.md), which the host cannot move.")
        if "P1" in h:
            print("  P1 = irqcore nolock / genirq, per dispatch: %s over %d rounds (p%d: %s); with the empty"
                  " loop taken off %s; against genirq_bare %s; biglock / genirq %s" %
                  (fmt_boots(head_boots(h, "P1")), h["P1_rounds"], LOW, fmt_boots(head_boots(h, "P1_p%d" % LOW)),
                   fmt_boots(head_boots(h, "P1_net")), fmt_boots(head_boots(h, "P1_bare")),
                   fmt_boots(head_boots(h, "P1_biglock"))))
        if "P2" in h:
            print("  P2 = biglock / nolock, uncontended dispatch, each against genirq of its own load: %s over"
                  " %d pairs of loads (p%d: %s)" %
                  (fmt_boots(head_boots(h, "P2")), h["P2_pairs"], LOW, fmt_boots(head_boots(h, "P2_p%d" % LOW))))
    print()
    print("Results: %s/results.json" % a.out)
    for p in problems:
        print("bench: problem: %s" % p, file=sys.stderr)
    return 1 if problems or not records else 0


if __name__ == "__main__":
    sys.exit(main())
