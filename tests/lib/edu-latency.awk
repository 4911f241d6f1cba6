# SPDX-License-Identifier: GPL-2.0
#
# Turn irqcore_edu's "latency:" lines in a guest console log into the device
# rows of `make run`: per regime and holder, the raise->handler latency of
# the edu device's interrupt, and the count that does not depend on time
# (raises made inside the holder's section, and how many of them waited for
# it to end). devices/latency.c documents the line and the method. Usage:
#   awk -f tests/lib/field.awk -f tests/lib/edu-latency.awk console.log
# Exits 1 if the log has no latency line.
#
#   irqcore_edu: latency: regime=R mode=M hold_us=H held_ns=N samples=N
#       in_hold=N waited=N p50_ns=N p90_ns=N p99_ns=N max_ns=N mean_ns=N

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
	samples[n] = field("samples")
	in_hold[n] = field("in_hold")
	waited[n] = field("waited")
	p50[n] = field("p50_ns")
	p90[n] = field("p90_ns")
	p99[n] = field("p99_ns")
	max[n] = field("max_ns")
	if (!hold[n])
		base[regime[n] "/" mode[n]] = p99[n]
}

END {
	if (!n) {
		print "  (no latency line: irqcore_edu did not measure)"
		exit 1
	}
	printf "  %-8s %-4s %-24s %9s %9s %9s %9s %9s %12s %7s\n", "regime", "mode",
	       "holder on the first CPU", "held us", "p50 us", "p90 us", "p99 us", "max us",
	       "in section", "waited"
	for (i = 1; i <= n; i++) {
		if (!hold[i])
			h = "none"
		else if (regime[i] == "biglock")
			h = sprintf("cli() %u us", hold[i])
		else
			h = sprintf("driver lock %u us", hold[i])
		printf "  %-8s %-4s %-24s %9s %9s %9s %9s %9s %12s %7s\n", regime[i], mode[i], h,
		       hold[i] ? us(held[i]) : "-", us(p50[i]), us(p90[i]), us(p99[i]), us(max[i]),
		       hold[i] ? in_hold[i] : "-", hold[i] ? waited[i] : "-"
	}
	print ""
	print "  p99 with the holder over p99 without it, same regime and boot:"
	for (i = 1; i <= n; i++) {
		k = regime[i] "/" mode[i]
		if (hold[i] && base[k] > 0)
			printf "    %-8s %-4s hold %5u us: %.1fx\n", regime[i], mode[i], hold[i],
			       p99[i] / base[k]
	}
}
