#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# bench-plot.py - draw build/bench/results.json (from bench-report.py) with
# gnuplot, as SVG and PNG, and write build/bench/index.html: the summary
# tables and the plots on one page that reads offline. Used by tests/bench.
#
#   bench-plot.py DIR        (DIR holds results.json; the plots go there too)
#
# Exit status 1 when gnuplot fails or a plot is not written.

import html
import json
import os
import subprocess
import sys

REGIMES = [("nolock", "nolock (2.5.28)"), ("biglock", "biglock (2.5.27)")]
LADDER = ["empty", "genirq", "genirq_bare", "irqcore_sa", "irqcore_plain"]
HOLDS = [1, 10, 100, 1000]
SYNC = [0, 1, 4, 8]


def med(summary, cpus, bench, case, regime, key="median"):
    for s in summary:
        if (s["cpus"], s["bench"], s["case"], s["regime"]) == (cpus, bench, case, regime):
            return s.get(key)
    return None


def num(fmt, v, div=1.0):
    """V/DIV in FMT, or NaN for a missing value: gnuplot leaves it out (never 0)."""
    return "NaN" if v is None else fmt % (v / div)


def series(d, name, xs, fmt, values, div=1.0):
    """Write NAME.dat in D: a row per x of XS, x then values(x) in FMT (None: NaN)."""
    rows = ["%d %s" % (x, " ".join(num(fmt, v, div) for v in values(x))) for x in xs]
    write(os.path.join(d, name + ".dat"), "\n".join(rows) + "\n")


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def plots_for(d, summary, cpus, status, counted=()):
    """Write the data files and the gnuplot script for one CPU count.

    STATUS, when not empty, is printed across every plot ("SMOKE RUN", "FAILED
    RUN"): a plot copied out of its page must not pass for a measurement."""
    tag = "%dcpu" % cpus
    made = []
    # The ladder: bars per case and regime, with min-max error bars.
    rows = []
    for i, case in enumerate(LADDER):
        vals = []
        for regime, _ in REGIMES:
            m = med(summary, cpus, "ladder", case, regime)
            lo = med(summary, cpus, "ladder", case, regime, "min")
            hi = med(summary, cpus, "ladder", case, regime, "max")
            vals += [m, lo, hi]
        rows.append("%d %s %s" % (i, case, " ".join(num("%.1f", v) for v in vals)))
    write(os.path.join(d, "ladder-%s.dat" % tag), "\n".join(rows) + "\n")
    made.append(("ladder-%s" % tag, """
set title "Cost per interrupt, in one hardirq (%d CPUs; median, min-max)"
set ylabel "ns per call"
set style data histogram
set style histogram errorbars gap 1 lw 1
set style fill solid 0.6 border -1
set yrange [0:*]
set key top left
plot "ladder-%s.dat" using 3:4:5:xtic(2) title "nolock (2.5.28)", \\
     "" using 6:7:8 title "biglock (2.5.27)"
""" % (cpus, tag)))
    # Contention: the counted events against the hold time. Of the raises
    # made inside a section, the share whose handler ran only after it
    # ended (biglock, and a related handler: 1; nolock unrelated: at most
    # the bound), and the share of raises made inside a section.
    cnt = {(x["case"], x["regime"]): x for x in counted if x["cpus"] == cpus}
    if cnt:
        rows = []
        for h in HOLDS:
            vals = []
            for regime, _ in REGIMES:
                for rel in ("unrelated", "related"):
                    x = cnt.get(("%s_h%d" % (rel, h), regime), {})
                    vals.append(x.get("waited_share"))
            for regime, _ in REGIMES:
                x = cnt.get(("unrelated_h%d" % h, regime), {})
                vals.append(x.get("in_section_share"))
            x = cnt.get(("unrelated_h%d" % h, "nolock"), {})
            vals.append(min(1.0, x["bound"] / x["in_section"]) if x.get("in_section") else None)
            rows.append("%d %s" % (h, " ".join(num("%.4f", v) for v in vals)))
        write(os.path.join(d, "contention-%s.dat" % tag), "\n".join(rows) + "\n")
        made.append(("contention-%s" % tag, """
set title "Raises inside another CPU's critical section of H us that waited for its end (%d CPUs)"
set xlabel "hold time H (us), 50%% duty"
set ylabel "share (counted, every load)"
set logscale x
set yrange [-0.05:1.1]
set key bottom left
set grid
plot "contention-%s.dat" using 1:2 with linespoints lw 2 lc 1 pt 7 title "nolock, unrelated: waited", \\
     "" using 1:3 with linespoints lw 2 lc 2 pt 7 title "nolock, related: waited", \\
     "" using 1:4 with linespoints lw 2 lc 3 pt 5 dt 2 title "biglock, unrelated: waited", \\
     "" using 1:5 with linespoints lw 2 lc 4 pt 5 dt 2 title "biglock, related: waited", \\
     "" using 1:8 with linespoints lw 1.5 lc rgb "black" dt 3 pt 1 title "nolock unrelated: its bound (waited above it fails)", \\
     "" using 1:6 with lines lw 1 lc 1 dt 4 title "nolock: share of raises inside a section", \\
     "" using 1:7 with lines lw 1 lc 3 dt 4 title "biglock: share of raises inside a section"
""" % (cpus, tag)))
    # synchronize_irq() against busy lines.
    if med(summary, cpus, "sync", "k0", "nolock") is not None:
        series(d, "sync-%s" % tag, SYNC, "%.2f",
               lambda k: [med(summary, cpus, "sync", "k%d" % k, r) for r, _ in REGIMES], 1000.0)
        made.append(("sync-%s" % tag, """
set title "synchronize_irq() of an idle line while k other lines are busy (%d CPUs)"
set xlabel "busy lines k"
set ylabel "median cost (us)"
set key top left
set grid
set xtics (0, 1, 4, 8)
plot "sync-%s.dat" using 1:2 with linespoints lw 2 title "nolock (2.5.28): its own line", \\
     "" using 1:3 with linespoints lw 2 title "biglock (2.5.27): cli(); sti()"
""" % (cpus, tag)))
    # Scaling: sections per second against contending CPUs.
    if med(summary, cpus, "scaling", "k1", "nolock") is not None:
        series(d, "scaling-%s" % tag, range(1, cpus + 1), "%.3f",
               lambda k: [med(summary, cpus, "scaling", c % k, r)
                          for r, _ in REGIMES for c in ("k%d", "ctl_k%d")], 1e6)
        made.append(("scaling-%s" % tag, """
set title "Critical sections per second as CPUs contend (%d CPUs booted)"
set xlabel "contending CPUs k"
set ylabel "millions of sections per second"
set key top left
set grid
set xtics 1
set yrange [0:*]
plot "scaling-%s.dat" using 1:2 with linespoints lw 2 lc 1 title "nolock: each driver its own spinlock", \\
     "" using 1:3 with linespoints lw 1 lc 1 dt 3 title "control (private increments), nolock load", \\
     "" using 1:4 with linespoints lw 2 lc 2 title "biglock: cli(); sti()", \\
     "" using 1:5 with linespoints lw 1 lc 2 dt 3 title "control, biglock load"
""" % (cpus, tag)))
    # Throughput: interrupts per second against CPUs, with and without a holder.
    if med(summary, cpus, "throughput", "k1_free", "nolock") is not None:
        series(d, "throughput-%s" % tag, range(1, cpus + 1), "%.3f",
               lambda k: [med(summary, cpus, "throughput", c % k, r)
                          for r, _ in REGIMES for c in ("k%d_free", "k%d_holder", "ctl_k%d")], 1e6)
        made.append(("throughput-%s" % tag, """
set title "Interrupts handled per second, each CPU its own line (%d CPUs booted)"
set xlabel "CPUs taking interrupts k"
set ylabel "millions of interrupts per second"
set key top left
set grid
set xtics 1
set yrange [0:*]
plot "throughput-%s.dat" using 1:2 with linespoints lw 2 lc 1 title "nolock, no holder", \\
     "" using 1:3 with linespoints lw 2 lc 1 dt 2 title "nolock, a spinlock holder at 10%%", \\
     "" using 1:4 with linespoints lw 1 lc 1 dt 3 title "control (private increments), nolock load", \\
     "" using 1:5 with linespoints lw 2 lc 2 title "biglock, no holder", \\
     "" using 1:6 with linespoints lw 2 lc 2 dt 2 title "biglock, a cli() holder at 10%%", \\
     "" using 1:7 with linespoints lw 1 lc 2 dt 3 title "control, biglock load"
""" % (cpus, tag)))
    # Missing values are NaN in the data: left out, never drawn as 0.
    head = 'set datafile missing "NaN"\n'
    if status:
        head += ('set label 99 "%s" at graph 0.5, graph 0.5 center front font ",28" '
                 'textcolor rgb "red"\n' % status)
    return [(name, head + body) for name, body in made]


def gnuplot(d, name, body):
    for term, ext in (('svg size 800,480 dynamic font "sans,11"', "svg"),
                      ('pngcairo size 800,480 font "sans,10"', "png")):
        # noenhanced: an underscore in a case name is an underscore.
        script = "set terminal %s noenhanced\nset output \"%s.%s\"\n%s" % (term, name, ext, body)
        r = subprocess.run(["gnuplot"], input=script, text=True, cwd=d,
                           capture_output=True)
        path = os.path.join(d, "%s.%s" % (name, ext))
        if r.returncode or not os.path.getsize(path):
            sys.stderr.write("bench-plot: gnuplot failed for %s.%s: %s\n" % (name, ext, r.stderr))
            return False
    return True


def table(summary, cpus, bench, cases, unit_div=1.0, unit="ns"):
    out = ["<table><tr><th>case</th>%s</tr>" %
           "".join("<th>%s</th>" % html.escape(t) for _, t in REGIMES)]
    for case in cases:
        cells = []
        for regime, _ in REGIMES:
            m = med(summary, cpus, bench, case, regime)
            if m is None:
                cells.append("<td>-</td>")
                continue
            lo = med(summary, cpus, bench, case, regime, "min")
            hi = med(summary, cpus, bench, case, regime, "max")
            low = med(summary, cpus, bench, case, regime, "p10")
            cells.append("<td>%.1f %s <small>[%.1f&ndash;%.1f]%s</small></td>" %
                         (m / unit_div, unit, lo / unit_div, hi / unit_div,
                          "; p10 %.1f" % (low / unit_div) if low is not None else ""))
        out.append("<tr><td>%s</td>%s</tr>" % (html.escape(case), "".join(cells)))
    out.append("</table>")
    return "\n".join(out)


def over(o, fmt="%.2f", div=1.0, host=True):
    """An over_boots() dict (bench-report.py): median [min-max over the
    boots], the host's mark; with one boot, no spread."""
    if not o:
        return "-"
    if len(o.get("boots", [])) < 2:
        return (fmt % (o["median"] / div)) + " <small>(one boot: no spread)</small>"
    return (fmt % (o["median"] / div)) + " <small>[" + fmt % (o["min"] / div) + "&ndash;" + \
        fmt % (o["max"] / div) + "]</small>" + (" <b>(host's)</b>" if host and o.get("host") else "")


def ci(h, key):
    """KEY of headline H with its spread over the boots, or '-'."""
    if h.get(key) is None:
        return "-"
    return over({"median": h[key], "min": h[key + "_spread"][0], "max": h[key + "_spread"][1],
                 "boots": h.get(key + "_boots", []), "host": h.get(key + "_host")})


def main():
    d = sys.argv[1]
    with open(os.path.join(d, "results.json")) as f:
        doc = json.load(f)
    summary, meta = doc["summary"], doc["meta"]
    problems = doc.get("problems", [])
    smoke = doc.get("smoke", meta.get("smoke") == "1")
    # A failed or smoke run must not look like a measurement, on the page or in a plot.
    status = "FAILED RUN" if problems else "SMOKE RUN" if smoke else ""
    ok = True
    sections = []
    if problems:
        sections.append("<div style=\"border:3px solid red;padding:.5em\"><h2>This run FAILED: its "
                        "figures are not results</h2><ul>%s</ul></div>" %
                        "".join("<li>%s</li>" % html.escape(p) for p in problems))
    if smoke:
        sections.append("<p style=\"color:red\"><b>A smoke run</b>: small and once, to prove the "
                        "harness; these are not measurements.</p>")
    for cpus in sorted({s["cpus"] for s in summary}):
        head = doc["headline"].get(str(cpus), {})
        parts = ["<h2>%d CPUs</h2>" % cpus]
        if "P1" in head:
            parts.append("<p>%s<b>P1</b> = irqcore nolock / genirq per dispatch = <b>%s</b>; "
                         "<b>P2</b> = biglock / nolock, uncontended = <b>%s</b> <small>(paired "
                         "ratios, each boot's median, then the median [min&ndash;max] over the boots: "
                         "the between-boot spread, no confidence claim; (host's): it crosses 1 or is "
                         "wider than 20 %% of the median; p10 ratios %s and %s). The headline is the "
                         "counted P1c/P2c of make cost.</small></p>" %
                         ("<b style=\"color:red\">%s:</b> " % status if status else "",
                          ci(head, "P1"), ci(head, "P2"), ci(head, "P1_p10"), ci(head, "P2_p10")))
        parts.append("<h3>Cost per interrupt and round trips</h3>")
        parts.append(table(summary, cpus, "ladder", LADDER))
        parts.append(table(summary, cpus, "roundtrip", ["ipi", "ipi_genirq", "raise"], 1000.0, "&micro;s"))
        counted = doc.get("contention_counted", [])
        for name, body in plots_for(d, summary, cpus, status, counted):
            if not gnuplot(d, name, body):
                ok = False
            parts.append('<p><img src="%s.svg" alt="%s"></p>' % (name, name))
        cnt = [x for x in counted if x["cpus"] == cpus]
        if cnt:
            parts.append("<h3>Contention: counted events first</h3><p>A critical section of H "
                         "&micro;s at 50 % duty on one CPU, a line raised at 2000/s on the other. Over "
                         "every load: the share of raises made inside a section; of those, how many "
                         "waited for its end, against what the regime predicts (checked per load in "
                         "the guest's _share case); dispatches whose irq_enter() spun on the global "
                         "lock, and its spin turns per dispatch (iterations, not instructions).</p>")
            rows = []
            for h in HOLDS:
                for rel in ("unrelated", "related"):
                    tds = []
                    for regime, _ in REGIMES:
                        x = next((y for y in cnt if (y["case"], y["regime"]) ==
                                  ("%s_h%d" % (rel, h), regime)), None)
                        if not x:
                            tds.append("<td>-</td>")
                            continue
                        want = "all" if x["predicts"] == "all wait" else "&le; %d" % x["bound"]
                        tds.append("<td>in %.1f %%; waited <b>%d of %d</b> (%s)%s; spun %.0f %%, "
                                   "%.0f turns</td>" % (
                                       100 * (x["in_section_share"] or 0), x["waited"],
                                       x["in_section"], want,
                                       "" if x["met"] else " <b style=\"color:red\">missed</b>",
                                       100 * (x["spins_per_dispatch"] or 0),
                                       x["turns_per_dispatch"] or 0))
                    rows.append("<tr><td>H %d &micro;s, %s</td>%s</tr>" % (h, rel, "".join(tds)))
            parts.append("<table><tr><th>figure</th>%s</tr>%s</table>" %
                         ("".join("<th>%s</th>" % html.escape(t) for _, t in REGIMES), "".join(rows)))
        tim = [x for x in doc.get("contention_timed", []) if x["cpus"] == cpus]
        if tim:
            parts.append("<h3>Contention: the times, secondary</h3><p>From each raise itself to its "
                         "handler; a boot's repetitions pooled, p50 / p99 in &micro;s as the median "
                         "[min&ndash;max] over the boots, and the p99 ratio biglock / nolock formed "
                         "in each boot (printed only with its spread over boots; (host's): the "
                         "spread crosses 1 or is wider than 20 % of the median).</p>")
            rows = []
            for x in tim:
                tds = ["<td>%s / %s</td>" % (over(x.get(r + "_p50_ns"), "%.0f", 1000.0, False),
                                             over(x.get(r + "_p99_ns"), "%.0f", 1000.0, False))
                       for r, _ in REGIMES]
                r = x.get("p99_ratio")
                tds.append("<td>%s</td>" % (over(r) if r and len(r["boots"]) > 1 else
                                            "not printed: one boot"))
                rows.append("<tr><td>%s</td>%s</tr>" % (html.escape(x["case"]), "".join(tds)))
            parts.append("<table><tr><th>figure</th>%s<th>p99 biglock / nolock</th></tr>%s</table>" %
                         ("".join("<th>%s</th>" % html.escape(t) for _, t in REGIMES), "".join(rows)))
        sync = ["k%d" % k for k in SYNC]
        if med(summary, cpus, "sync", sync[0], "nolock") is not None:
            parts.append("<h3>synchronize_irq()</h3>")
            parts.append(table(summary, cpus, "sync", sync, 1000.0, "&micro;s"))
            parts.append("<p>The busy lines' handler runs per second while it was timed:</p>")
            parts.append(table(summary, cpus, "sync", ["k%d_busy" % k for k in SYNC if k], 1.0, "/s"))
        sc = ["%s%d" % (p, k) for k in range(1, cpus + 1) for p in ("k", "ctl_k")]
        if med(summary, cpus, "scaling", sc[0], "nolock") is not None:
            parts.append("<h3>Critical sections per second, k CPUs contending (ctl: the control, "
                         "private increments)</h3>")
            parts.append(table(summary, cpus, "scaling", sc, 1e6, "M/s"))
            parts.append(table(summary, cpus, "scaling", ["k%d_vs_ctl" % k for k in range(1, cpus + 1)],
                               1.0, "%"))
        tp = ["%s" % (m % k) for k in range(1, cpus + 1) for m in ("ctl_k%d", "k%d_free", "k%d_holder")]
        if med(summary, cpus, "throughput", tp[1], "nolock") is not None:
            parts.append("<h3>Interrupts per second, each CPU its own line, without and with a "
                         "holder at 10 % duty</h3>")
            parts.append(table(summary, cpus, "throughput", tp, 1e6, "M/s"))
            duty = ["k%d_%s" % (k, m) for k in range(1, cpus + 1) for m in ("vs_ctl", "duty", "kept")]
            parts.append("<p>The free figure as a share of its control, the holder's achieved duty, "
                         "and the share of the free figure kept with the holder (each repetition's "
                         "pair of figures), per cent:</p>")
            parts.append(table(summary, cpus, "throughput", duty, 1.0, "%"))
        sections.append("\n".join(parts))
    page = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>irqcore bench</title>
<style>body{font-family:sans-serif;max-width:60em;margin:1em auto}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #aaa;padding:.2em .6em;text-align:right}
td:first-child{text-align:left}img{max-width:100%%}</style></head><body>
<h1>irqcore: what one interrupt costs, 2.5.27 beside 2.5.28</h1>
<p>%s; guest command line <code>%s</code>; %s; QEMU CPU model %s, guest CPU &ldquo;%s&rdquo;;
commit %s; %s boot(s), each %s repetitions per regime interleaved ABBA; a figure is the median
[min&ndash;max] over every load, a timed ratio the median [min&ndash;max] over the boots.
Absolute times under TCG are not hardware's: compare figures of one run. Method:
docs/benchmarks.md.</p>
%s
</body></html>
""" % (html.escape(meta.get("kernel", "?")), html.escape(meta.get("cmdline", "?")),
       html.escape(meta.get("qemu", "?")), html.escape(meta.get("qemu_cpu", "?")),
       html.escape(meta.get("cpu_model", "?")), html.escape(meta.get("commit", "?")),
       html.escape(meta.get("boots", "1")), html.escape(meta.get("reps", "?")), "\n".join(sections))
    write(os.path.join(d, "index.html"), page)
    print("Plots and page: %s/index.html" % d)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
