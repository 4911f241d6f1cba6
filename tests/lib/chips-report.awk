# SPDX-License-Identifier: GPL-2.0
#
# Turn the seed's drivers' result lines in a guest console log into the
# NIC and sound rows of `make run` (docs/devices.md describes both):
#   irqcore_eepro100: rtt: regime=R hold_us=H samples=N in_hold=N waited=N
#       p50_ns=N p99_ns=N max_ns=N
#   irqcore_intel8x0: stream: regime=R queue=N ms=N completions=N per_s=N
#       expected_per_s=N underruns=N
#   irqcore_intel8x0: hold: regime=R hold_ms=N queue=N queued_ms=N
#       underruns=N completions_in_hold=N completions_after=N
# Usage: awk -f tests/lib/field.awk -f tests/lib/chips-report.awk LOG
#
# A printer, not a judge (issue 32 item 2): the drivers' KTAP cases judge
# their figures (eepro100_rtt_<regime>_hold<H>, intel8x0_stream_<regime>,
# intel8x0_hold_<regime>), and tests/run's analyser (tests/lib/analyse.awk)
# reads them, with ktap/load_N (a pcidev load printed its documents) and
# report_lines/load_N (each of those cases that passed printed the line
# this reads, with its fields). The exit status is 0 whenever there were
# lines to print; 2 if either driver printed none: a format error of the
# input (or a log without the pcidev loads), not a verdict.

function us(ns) {
	return sprintf("%.1f", ns / 1000)
}

/irqcore_eepro100: rtt: / {
	sub(/\r$/, "")
	sub(/.*irqcore_eepro100: rtt: /, "")
	n++
	r_regime[n] = field("regime")
	r_hold[n] = field("hold_us") + 0
	r_samples[n] = field("samples")
	r_in[n] = field("in_hold")
	r_waited[n] = field("waited")
	r_p50[n] = field("p50_ns")
	r_p99[n] = field("p99_ns")
}

/irqcore_intel8x0: stream: / {
	sub(/\r$/, "")
	sub(/.*irqcore_intel8x0: stream: /, "")
	s_regime = field("regime")
	if (!(s_regime in s_per)) {
		s_order[++ns] = s_regime
		s_per[s_regime] = field("per_s")
		s_expected[s_regime] = field("expected_per_s")
		s_under[s_regime] = field("underruns")
	}
}

/irqcore_intel8x0: hold: / {
	sub(/\r$/, "")
	sub(/.*irqcore_intel8x0: hold: /, "")
	h = field("regime")
	if (!(h in h_under)) {
		h_under[h] = field("underruns")
		h_ms[h] = field("hold_ms")
		h_queued[h] = field("queued_ms")
		h_in[h] = field("completions_in_hold")
	}
}

END {
	if (!n || !ns) {
		# A format error, not a verdict: tests/run judged the loads.
		print "  (no rtt or stream line: the NIC or the sound driver did not measure)"
		exit 2
	}
	print "  eepro100: a frame from NIC A to NIC B and back (interrupts on the other CPU), microseconds:"
	printf "  %-8s %-24s %8s %9s %9s %11s %7s\n", "regime", "holder on the other CPU", "frames",
	       "p50 us", "p99 us", "in section", "waited"
	for (i = 1; i <= n; i++) {
		if (!r_hold[i])
			hd = "none"
		else if (r_regime[i] == "biglock")
			hd = sprintf("cli() %u us", r_hold[i])
		else
			hd = sprintf("driver lock %u us", r_hold[i])
		printf "  %-8s %-24s %8s %9s %9s %11s %7s\n", r_regime[i], hd, r_samples[i],
		       us(r_p50[i]), us(r_p99[i]), r_hold[i] ? r_in[i] : "-",
		       r_hold[i] ? r_waited[i] : "-"
	}
	print ""
	print "  intel8x0: PCM out, buffers refilled in the handler; the holder on the other CPU holds longer"
	print "  than the audio queued (cli() under biglock, an unrelated driver's lock under nolock):"
	printf "  %-8s %12s %12s %14s %10s %10s %18s\n", "regime", "buffers/s", "expected",
	       "underruns", "hold ms", "queued ms", "with the holder"
	for (i = 1; i <= ns; i++) {
		g = s_order[i]
		printf "  %-8s %12s %12s %14s %10s %10s %18s\n", g, s_per[g], s_expected[g], s_under[g],
		       (g in h_ms) ? h_ms[g] : "-", (g in h_queued) ? h_queued[g] : "-",
		       (g in h_under) ? h_under[g] " underruns" : "-"
	}
	print "  (and buffers played during the hold: " \
	      (("nolock" in h_in) ? "nolock " h_in["nolock"] : "") \
	      (("biglock" in h_in) ? ", biglock " h_in["biglock"] : "") ")"
	exit 0
}
