#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check the counting plugin's JSON from runs of the calibration stub.

    count-check.py NAME:JSON:SMP:MEM:PROFILE ...

One argument a QEMU run: its name, the plugin's output, the -smp of the
run, and whether mem= and profile= were on (1/0). Prints one line a check,
"ok<TAB>NAME<TAB>DETAIL" or "not ok<TAB>NAME<TAB>DETAIL", for
tests/count-check to number; exits 0 whether or not checks failed (the
lines say that), 2 when the input cannot be read.

The expected counts are derived in tools/count/calib.c: every counted
region is a loop of the shape  mov $N,%ecx; 1: BODY; dec %ecx; jnz 1b,
which executes N * (len(BODY) + 2) + 1 instructions; markers are not
counted.
"""
import json
import sys

REPEATS = 3          # CALIB_REPEATS: every region runs this many times
ROUNDS = 100         # PINGPONG_ROUNDS

FIELDS = ["insns", "locked", "fences", "mfence",
          "loads", "stores", "lines", "transfers", "writer_reads"]
NMEM = len(FIELDS) - 4      # the fields that mem=on fills

# tag: (name, (insns, locked, fences, mfence),
#       (loads, stores, lines, transfers, writer_reads) with -smp 1,
#       the same with -smp > 1)
# None of these regions touches a line that another vCPU uses: no
# transfers, no writer_reads, under any model.
# Locked RMWs: under -smp 1 TCG reports a locked RMW to the plugin as a
# load and a store; with more vCPUs it runs them as atomic helpers that
# report one store. Both are QEMU 7.2 facts, measured, not choices here.
EXPECT = {
    1: ("add", (1000 * 3 + 1, 0, 0, 0), (0, 0, 0, 0, 0), (0, 0, 0, 0, 0)),
    4: ("add-long", (100000 * 3 + 1, 0, 0, 0), (0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0)),
    2: ("lock", (1000 * 3 + 1, 1000, 0, 0),
        (1000, 1000, 1, 0, 0), (0, 1000, 1, 0, 0)),
    3: ("mfence", (1000 * 3 + 1, 0, 1000, 1000), (0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0)),
    5: ("xchg", (100 * 3 + 1, 100, 0, 0), (100, 100, 1, 0, 0),
        (0, 100, 1, 0, 0)),
    # rep stosb with ECX = 64 after 3 setup instructions: QEMU 7.2
    # translates the repeat as a jump back to the instruction, which runs
    # 64 times storing and once more to find ECX = 0: 3 + 65.
    8: ("rep-stosb", (3 + 64 + 1, 0, 0, 0), (0, 64, 1, 0, 0),
        (0, 64, 1, 0, 0)),
}
TAG_ENTRY, TAG_PAIRING, TAG_PRIVATE, TAG_PINGPONG = 6, 7, 9, 10
TAG_READSHARED = 11
READSHARED_N = 1000  # READSHARED_N: loads of the line the other vCPU wrote
# Transfers per ping-pong sample: each of the ROUNDS handoffs brings the
# line to this vCPU once (the read that sees the other's store; the store
# after it is an upgrade of a held copy). Races between an access and its
# callback can move a transfer from the read to the store or lose one, so
# a margin: a quarter, since a loaded host loses more (a kernel build
# beside QEMU, make check of 2026-12-06: 93, 89 and 92 of 100, where 90 was
# the bound); the old definition (every access to a line written
# elsewhere: 200) and a model whose stores invalidate nothing (0) both
# fall far outside it.
PINGPONG_MIN, PINGPONG_MAX = ROUNDS * 3 // 4, ROUNDS * 5 // 4
# Per round of calib_pairing: two stray ENDs, one abandoned BEGIN.
UNMATCHED = 2 * REPEATS


class Run:
    def __init__(self, spec):
        self.name, path, smp, mem, prof = spec.split(":")
        self.smp, self.mem, self.profile = int(smp), mem == "1", prof == "1"
        with open(path) as f:
            self.d = json.load(f)

    def series(self, tag, vcpu=0):
        return self.d["tags"].get(str(tag), {}).get(str(vcpu))


results = []


def check(name, ok, detail):
    results.append((bool(ok), name, detail))


def fmt(v):
    return "[" + ", ".join(str(x) for x in v) + "]"


def expected_vector(run, tag):
    _, base, mem1, memn = EXPECT[tag]
    mem = (mem1 if run.smp == 1 else memn) if run.mem else (0,) * NMEM
    return list(base) + list(mem)


def check_run(run):
    d = run.d
    p = "%s/" % run.name
    check(p + "schema",
          d.get("schema") == 2 and d.get("mem") is run.mem and
          d.get("profiling") is run.profile and
          d.get("transfers_exact") is False and d.get("fields") == FIELDS,
          "schema 2, mem %s, profiling %s, transfers_exact false, %d fields"
          % (str(run.mem).lower(), str(run.profile).lower(), len(FIELDS)))

    for tag in sorted(EXPECT):
        s = run.series(tag)
        want = expected_vector(run, tag)
        got = s["samples"] if s else []
        bad = [x for x in got if x != want]
        check(p + EXPECT[tag][0],
              len(got) == REPEATS and not bad and s["interrupted"] == 0 and
              s["abandoned"] == 0,
              "tag %d: %d samples of %s (want %d, all exactly equal)%s"
              % (tag, len(got), fmt(want), REPEATS,
                 "; got " + fmt(bad[0]) if bad else ""))

    s = run.series(TAG_ENTRY)
    check(p + "interrupted",
          s is not None and s["samples"] == [] and
          s["interrupted"] == REPEATS,
          "tag %d: a call into the entry range flags all %d samples "
          "interrupted and keeps none (samples %d, interrupted %s)"
          % (TAG_ENTRY, REPEATS, len(s["samples"]) if s else 0,
             s["interrupted"] if s else None))

    s = run.series(TAG_PAIRING)
    zero = [0] * len(FIELDS)
    check(p + "pairing",
          s is not None and s["samples"] == [zero] * REPEATS and
          s["abandoned"] == REPEATS and d["unmatched"] == UNMATCHED,
          "tag %d: %d empty samples, %d abandoned, %d unmatched "
          "(got %s samples, abandoned %s, unmatched %d)"
          % (TAG_PAIRING, REPEATS, REPEATS, UNMATCHED,
             fmt(s["samples"][0]) + " x%d" % len(s["samples"])
             if s and s["samples"] else "no",
             s["abandoned"] if s else None, d["unmatched"]))

    dropped = sum(v["dropped_cap"] for t in d["tags"].values()
                  for v in t.values())
    check(p + "bookkeeping",
          d["open_at_exit"] == 0 and d["vcpu_overflow"] == 0 and
          d["line_table"]["full"] == 0 and dropped == 0,
          "nothing open at exit, no vCPU overflow, line table never full, "
          "nothing dropped (open %d, overflow %d, full %d, dropped %d)"
          % (d["open_at_exit"], d["vcpu_overflow"],
             d["line_table"]["full"], dropped))

    if run.smp > 1:
        check_smp(run, p)
    else:
        check(p + "vcpus",
              all(list(t) == ["0"] for t in d["tags"].values()),
              "-smp 1: samples from vCPU 0 only")
    if run.profile:
        check_profile(run, p)


def check_smp(run, p):
    want = [1000 * 3 + 1, 1000, 0, 0] + ([0, 1000, 1, 0, 0] if run.mem
                                         else [0] * NMEM)
    for cpu in range(2):
        s = run.series(TAG_PRIVATE, cpu)
        got = s["samples"] if s else []
        check(p + "private-cpu%d" % cpu,
              len(got) == REPEATS and all(x == want for x in got),
              "tag %d: lock incl on a line only vCPU %d touches: %d x %s, "
              "so 0 transfers (got %s)"
              % (TAG_PRIVATE, cpu, REPEATS, fmt(want),
                 ", ".join(fmt(x) for x in got) or "none"))
        s = run.series(TAG_PINGPONG, cpu)
        got = s["samples"] if s else []
        if run.mem:
            # Each round this vCPU reads the line the other stored, then
            # stores to it: one transfer a round on each side, so two per
            # round trip of the line (PINGPONG_MIN..MAX above).
            ok = len(got) == REPEATS and all(
                x[1:4] == [0, 0, 0] and x[5] == ROUNDS and x[6] == 1 and
                PINGPONG_MIN <= x[7] <= PINGPONG_MAX for x in got)
            what = ("%d stores, 1 line, %d..%d transfers (one a handoff: "
                    "%d)" % (ROUNDS, PINGPONG_MIN, PINGPONG_MAX, ROUNDS))
        else:
            ok = len(got) == REPEATS and all(x[1:] == [0] * 8 for x in got)
            what = "no locked, no fences"
        check(p + "pingpong-cpu%d" % cpu, ok,
              "tag %d: %d handoffs of one line per sample, %d samples: %s "
              "(got transfers %s, stores %s)"
              % (TAG_PINGPONG, ROUNDS, REPEATS, what,
                 [x[7] for x in got], [x[5] for x in got]))
    s = run.series(TAG_READSHARED, 0)
    got = s["samples"] if s else []
    want = [READSHARED_N * 3 + 1, 0, 0, 0] + (
        [READSHARED_N, 0, 1, 1, READSHARED_N] if run.mem else [0] * NMEM)
    check(p + "readshared-cpu0",
          len(got) == REPEATS and all(x == want for x in got) and
          run.series(TAG_READSHARED, 1) is None,
          "tag %d: %d loads of a line the other vCPU wrote once before "
          "the sample: %d x %s, so 1 transfer (the first load) where "
          "every load is a writer_read (got %s)"
          % (TAG_READSHARED, READSHARED_N, REPEATS, fmt(want),
             ", ".join(fmt(x) for x in got) or "none"))


def check_profile(run, p):
    prof = run.d["profile"]
    # Two counting paths must agree: the profile adds one per executed
    # instruction address, the samples add a stretch's total at once.
    bad = []
    for tag, t in run.d["tags"].items():
        insns = sum(x[0] for x in t["0"]["samples"])
        hist = sum(prof.get(tag, {}).values())
        if insns != hist:
            bad.append("tag %s: samples %d, profile %d" % (tag, insns, hist))
    check(p + "profile-sum", not bad,
          "per tag, the profile's executions add up to the samples' "
          "instructions%s" % ("; " + "; ".join(bad) if bad else ""))
    h = prof.get("1", {})
    counts = [h[a] for a in sorted(h, key=lambda a: int(a, 16))]
    want = [REPEATS] + [1000 * REPEATS] * 3
    check(p + "profile-add",
          counts == want and str(TAG_ENTRY) not in prof,
          "tag 1: mov once and add/dec/jnz 1000 times a sample, at 4 "
          "addresses: %s (got %s); interrupted tag %d not profiled"
          % (want, counts, TAG_ENTRY))


def check_across(runs):
    """The first four fields do not depend on mem=, profile= or -smp."""
    bad = []
    for tag in sorted(EXPECT) + [TAG_PAIRING]:
        seen = {}
        for run in runs:
            s = run.series(tag)
            for x in (s["samples"] if s else []):
                seen.setdefault(tuple(x[:4]), []).append(run.name)
        if len(seen) != 1:
            bad.append("tag %d: %s" % (tag, sorted(seen)))
    check("across-runs", not bad,
          "insns/locked/fences/mfence identical in every repeat of every "
          "run (%s)%s" % (", ".join(r.name for r in runs),
                          "; " + "; ".join(bad) if bad else ""))


def main():
    try:
        runs = [Run(a) for a in sys.argv[1:]]
    except (OSError, ValueError, KeyError) as e:
        print("count-check.py: cannot read a run: %s" % e, file=sys.stderr)
        return 2
    for run in runs:
        try:
            check_run(run)
        except (KeyError, TypeError, IndexError) as e:
            check(run.name + "/json", False, "malformed output: %r" % e)
    if len(runs) > 1:
        check_across(runs)
    for ok, name, detail in results:
        print("%s\t%s\t%s" % ("ok" if ok else "not ok", name, detail))
    return 0


if __name__ == "__main__":
    sys.exit(main())
