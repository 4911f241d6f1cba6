# SPDX-License-Identifier: GPL-2.0
#
# Print irqcore_edu's "latency:" lines in a guest console log as the device
# rows of `make run`: per regime and holder, first the counts that do not
# depend on time (raises made inside the holder's section, and how many of
# them waited for it to end, beside what the regime predicts), then the
# raise->handler times. devices/latency.c documents the line and the
# method. Usage:
#   awk -f tests/lib/field.awk -f tests/lib/edu-latency.awk console.log
#
# A printer only: it always exits 0. The verdict on the counts is the
# guest's KTAP case edu_latency_<mode>_<regime>_hold<H> (biglock: every
# raise inside the section waited; nolock: at most the bound of
# include/irqcore_holdshare.h), which the runner's analyser reads with every
# other case.
#
#   irqcore_edu: latency: regime=R mode=M hold_us=H held_ns=N samples=N
#       in_hold=N waited=N expected=N bound=N spins=N turns=N p50_ns=N
#       p90_ns=N p99_ns=N max_ns=N mean_ns=N

function us(ns) {
	return sprintf("%.1f", ns / 1000)
}

/irqcore_edu: latency: / {
	sub(/\r$/, "")
	sub(/.*irqcore_edu: latency: /, "")
	n++
	regime[n] = field("regime")
	mode[n] = field("mode")
	hold[n] = field("hold_us") + 0
	held[n] = field("held_ns") + 0
	samples[n] = field("samples") + 0
	in_hold[n] = field("in_hold") + 0
	waited[n] = field("waited") + 0
	bound[n] = field("bound") + 0
	expected[n] = field("expected") + 0
	spins[n] = field("spins") + 0
	turns[n] = field("turns") + 0
	p50[n] = field("p50_ns")
	p90[n] = field("p90_ns")
	p99[n] = field("p99_ns")
	max[n] = field("max_ns")
}

function holder(i) {
	if (!hold[i])
		return "none"
	if (regime[i] == "biglock")
		return sprintf("cli() %u us", hold[i])
	return sprintf("driver lock %u us", hold[i])
}

END {
	if (!n) {
		print "  (no latency line: irqcore_edu did not measure; its KTAP case says why)"
		exit 0
	}
	print "  Counted (the host cannot blur these): raises made inside the holder's section, and of"
	print "  those the ones whose handler ran only after it ended, against what the regime predicts:"
	print "  biglock, all of them (irq_enter() spins on the global lock until sti()); nolock, only those"
	print "  whose own latency outlasted the rest of the section, at most the bound (expected E). And"
	print "  the dispatches whose irq_enter() spun on the global lock, with the spin's turns (iterations"
	print "  of its loop, counted; make cost counts instructions) per dispatch of the run:"
	print ""
	printf "  %-8s %-4s %-20s %9s %16s %16s  %-14s %14s\n", "regime", "mode", "holder on CPU0",
	       "held us", "in section", "waited", "predicted", "spun, turns/d"
	for (i = 1; i <= n; i++) {
		if (!hold[i])
			continue
		if (regime[i] == "biglock")
			want = sprintf("all %u", in_hold[i])
		else
			want = sprintf("<= %u (E %u)", bound[i], expected[i])
		printf "  %-8s %-4s %-20s %9s %16s %16s  %-14s %14s\n", regime[i], mode[i], holder(i),
		       us(held[i]), sprintf("%u of %u", in_hold[i], samples[i]),
		       sprintf("%u (%.0f%%)", waited[i], in_hold[i] ? 100 * waited[i] / in_hold[i] : 0),
		       want, sprintf("%u, %.0f", spins[i], samples[i] ? turns[i] / samples[i] : 0)
	}
	print ""
	print "  Timed, secondary: raise -> handler start, one boot's samples (a tail under TCG is mostly"
	print "  the host). The p99 with a holder over the p99 without is not printed: make run is one"
	print "  boot, and such a ratio means something only with its spread over boots (make bench):"
	print ""
	printf "  %-8s %-4s %-20s %9s %9s %9s %9s\n", "regime", "mode", "holder on CPU0",
	       "p50 us", "p90 us", "p99 us", "max us"
	for (i = 1; i <= n; i++)
		printf "  %-8s %-4s %-20s %9s %9s %9s %9s\n", regime[i], mode[i], holder(i),
		       us(p50[i]), us(p90[i]), us(p99[i]), us(max[i])
}
