# SPDX-License-Identifier: GPL-2.0
#
# Turn the torture test's "result:" lines in a guest console log (and the
# global-lock counters irqcore prints after each biglock torture load) into the
# side-by-side table of `make run` (stdout) and a JSON list of rows
# (-v json=FILE). Usage:
#   awk -v json=build/run/torture.json [-v results=build/logs/LABEL/results] \
#       -f tests/lib/field.awk -f tests/lib/torture-report.awk console.log
#
# A result line (drivers/torture.c documents the format):
#   irqcore_torture: result: driver=D style=S regime=R cpus=N mode=M ms=N
#       ops=N ops_per_s=N violations=N contended=N raised=N handled=N runs=N
#       reruns=N inflight=N lat_us=N lat_max_us=N expected=E verdict=V
#       extended_s=N
#
# A printer, not a judge (issue 32 item 2): it prints the module's own
# verdict word (the verdict= field, which the module also turns into the
# case's KTAP result, driver_style_regime_Ncpu) and never fails for it.
# Whether the run passed is tests/run's: its analyser (tests/lib/analyse.awk)
# reads each case's KTAP result, and report_lines/load_N there fails a case
# that passed without its result line or with a field missing. With
# -v results=FILE (tests/run's results) the line under the table counts the
# rows whose case tests/run failed. The exit status is 0 whenever there were
# rows to print; 2 for a log with no result line at all, or a results file
# that cannot be read: a format error of the input, not a verdict.

# tests/run's verdict on each KTAP case, by the case's name (results lines
# "ok loadD/NAME", "not ok loadD/NAME: why", "skip loadD/NAME: why").
BEGIN {
	if (results != "") {
		while ((st = (getline l < results)) > 0) {
			if (l !~ /^(not )?ok load[0-9]+\//)
				continue
			bad = l ~ /^not /
			sub(/^(not )?ok load[0-9]+\//, "", l)
			sub(/: .*/, "", l)
			judged[l] = 1
			if (bad)
				failed_case[l] = 1
		}
		if (st < 0) {
			print "torture-report: cannot read " results " (a format error, not a verdict)" > "/dev/stderr"
			unreadable = 1
			exit 2
		}
		close(results)
	}
}

# irqcore prints its global-lock counters at each biglock unload; those
# that follow a torture run ("End of test") are the torture loads' own.
/irqcore_torture: End of test: / { after_torture = 1; next }
after_torture && /irqcore: biglock: cli_taken=/ {
	sub(/\r$/, "")
	sub(/.*irqcore: biglock: /, "")
	for (i = 1; i <= NF; i++) {
		split($i, kv, "=")
		if (!(kv[1] in lock_sum))
			lock_key[nlock++] = kv[1]
		lock_sum[kv[1]] += kv[2]
	}
	after_torture = 0
	next
}

/irqcore_torture: result: / {
	sub(/\r$/, "")
	sub(/.*irqcore_torture: result: /, "")
	d = field("driver"); s = field("style"); r = field("regime")
	key = d SUBSEP s SUBSEP r
	if (!(d in seen_d)) { seen_d[d] = 1; drivers[nd++] = d }
	if (!(s in seen_s)) { seen_s[s] = 1; styles[ns++] = s }
	if (!(r in seen_r)) { seen_r[r] = 1; regimes[nr++] = r }
	cpus = field("cpus")
	ops[key] = field("ops_per_s"); viol[key] = field("violations")
	verdict[key] = field("verdict"); expected[key] = field("expected")
	ms[key] = field("ms"); raised[key] = field("raised"); handled[key] = field("handled")
	lat[key] = field("lat_us"); cont[key] = field("contended")
	rows++
	row[rows] = sprintf("  {\"driver\": \"%s\", \"style\": \"%s\", \"regime\": \"%s\", \"cpus\": %d, \"mode\": \"%s\", \"ms\": %d, \"ops\": %d, \"ops_per_s\": %d, \"violations\": %d, \"contended\": %d, \"raised\": %d, \"handled\": %d, \"runs\": %d, \"reruns\": %d, \"lat_us\": %d, \"lat_max_us\": %d, \"expected\": \"%s\", \"verdict\": \"%s\", \"extended_s\": %d}",
			    d, s, r, cpus, field("mode"), ms[key], field("ops"), ops[key], viol[key],
			    cont[key], raised[key], handled[key], field("runs"), field("reruns"),
			    lat[key], field("lat_max_us"), expected[key], verdict[key],
			    field("extended_s"))
	t_lat[r, s] += lat[key] * handled[key]
	# Per regime and style, for the throughput lines.
	t_ms[r, s] += ms[key]; t_handled[r, s] += handled[key]
	t_ops[r, s] += ops[key]; t_n[r, s]++
	# The case's KTAP name (drivers/torture.c, ict_case_ktap()).
	name = d "_" s "_" r "_" cpus "cpu" (field("mode") == "cross" ? "_cross" : "")
	if (name in failed_case)
		run_failed++
	else if (!(name in judged))
		unjudged++
}

function outcome(key) {
	if (!(key in viol))
		return "-"
	return (viol[key] > 0 ? "caught" : "clean") (verdict[key] == "ok" ? "" : " (" toupper(verdict[key]) ")")
}

END {
	if (unreadable)
		exit 2
	if (rows == 0) {
		# A format error (the lines renamed, or none in this log), not
		# a verdict: tests/run judges the torture loads and their lines.
		print "torture-report: no result lines found (a format error, not a verdict)" > "/dev/stderr"
		exit 2
	}
	if (json != "") {
		print "[" > json
		for (i = 1; i <= rows; i++)
			print row[i] (i < rows ? "," : "") > json
		print "]" > json
		close(json)
	}

	printf "%-6s %-9s", "", ""
	for (j = 0; j < nr; j++)
		printf " | %-50s", regimes[j] (regimes[j] == "biglock" ? " (2.5.27)" : regimes[j] == "nolock" ? " (2.5.28)" : "")
	printf "\n%-6s %-9s", "driver", "style"
	for (j = 0; j < nr; j++)
		printf " | %8s %10s %8s %-14s %6s", "ops/s", "violations", "contended", "verdict", "irq us"
	printf "\n"
	for (a = 0; a < nd; a++)
		for (b = 0; b < ns; b++) {
			printf "%-6s %-9s", drivers[a], styles[b]
			for (j = 0; j < nr; j++) {
				key = drivers[a] SUBSEP styles[b] SUBSEP regimes[j]
				printf " | %8s %10s %8s %-14s %6s", (key in ops ? ops[key] : "-"),
				       (key in viol ? viol[key] : "-"), (key in cont ? cont[key] : "-"),
				       outcome(key), (key in lat ? lat[key] : "-")
			}
			printf "\n"
		}
	printf "\n'irq us' is the mean delay from a raise to its handler, on the handler's own CPU;\n"
	printf "'contended' counts the times the two sides of the critical section met (a clean verdict needs it).\n"
	printf "Interrupt throughput of the same workload (%s CPUs; handled per second, and mean irq delay, per style):\n", cpus
	for (j = 0; j < nr; j++) {
		printf "  %-8s", regimes[j]
		for (b = 0; b < ns; b++) {
			k = regimes[j] SUBSEP styles[b]
			if (t_ms[k] > 0)
				printf "  %s %d/s %.0fus", styles[b], t_handled[k] * 1000 / t_ms[k],
				       t_handled[k] ? t_lat[k] / t_handled[k] : 0
		}
		printf "\n"
	}
	# The headline ratio: the two correct designs, driver for driver.
	g = "biglock" SUBSEP "global"; sp = "nolock" SUBSEP "spinlock"
	if (t_n[g] && t_n[sp] && t_ops[sp] > 0)
		printf "\nglobal cli() under biglock runs at %.2f x the ops/s of spinlock under nolock (mean over %d drivers)\n",
		       (t_ops[g] / t_n[g]) / (t_ops[sp] / t_n[sp]), t_n[g]
	if (t_handled[g] && t_handled[sp] && t_lat[sp] > 0)
		printf "and its interrupts wait %.2f x as long for their handler (mean irq delay %.0f us against %.0f us)\n",
		       (t_lat[g] / t_handled[g]) / (t_lat[sp] / t_handled[sp]),
		       t_lat[g] / t_handled[g], t_lat[sp] / t_handled[sp]
	if (results == "")
		printf "%d rows (the verdict is tests/run's)\n", rows
	else
		printf "%d rows, %d failed in tests/run's results%s\n", rows, run_failed,
		       unjudged ? sprintf(" (%d not found there)", unjudged) : ""
	if (nlock) {
		printf "The global lock over the biglock torture loads:"
		for (i = 0; i < nlock; i++)
			printf " %s=%d", lock_key[i], lock_sum[lock_key[i]]
		printf "\n"
		if (t_handled[g] > 0)
			printf "  %d of the %d interrupts handled in the biglock global cases (%d%%) first spun in irq_enter()\n",
			       lock_sum["enter_spins"], t_handled[g],
			       100 * lock_sum["enter_spins"] / t_handled[g]
		print "  (cli_taken: global cli() acquisitions; cli_waits: waits for a running handler;"
		print "   enter_spins: interrupts that spun in irq_enter() until a holder's sti())"
	}
	# A printer: what it printed is not a verdict (see the top).
	exit 0
}
