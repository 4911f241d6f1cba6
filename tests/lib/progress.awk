# SPDX-License-Identifier: GPL-2.0
#
# progress.awk - one line per phase of a guest run, as the console log grows
# (tests/run --progress, for make run): the kernel bringing up its CPUs
# and starting /init (guest seconds), each load as it starts, the
# self-tests' tally when irqcore unloads, each torture case with its verdict
# as it finishes, each traced scenario. Reads the console log on stdin.
# With -v loads_only=1 (tests/run --progress-loads) only the loads, the
# fault tests' summaries and the end: make check's long sanitizer boots.

function clean(s) {
	sub(/\r$/, "", s)
	sub(/^\[ *[0-9]+\.[0-9]+\] /, "", s)
	return s
}
function say(s) {
	printf "  %s\n", s
	fflush()
}
function field(s, k,    m) {
	if (match(s, " " k "=[^ ]*")) {
		m = substr(s, RSTART + length(k) + 2, RLENGTH - length(k) - 2)
		return m
	}
	return "?"
}
{
	l = clean($0)
	t = $0
	if (!match(t, /^\[ *[0-9]+\.[0-9]+\]/))
		t = ""
	else
		t = substr(t, RSTART + 1, RLENGTH - 2)
	sub(/^ */, "", t)
}
# The kernel's own phases, before the guest's first word: a boot of many
# CPUs under one TCG thread spends most of its time here (guest seconds).
l ~ /^smp: Bringing up secondary CPUs/ {
	say("kernel at " t " s: bringing up the secondary CPUs")
}
l ~ /^smp: Brought up / {
	say("kernel at " t " s: " substr(l, 6))
}
l ~ /^Run \/init as init process/ {
	say("kernel at " t " s: starting the guest's /init")
}
l ~ /^irqcore-guest: kernel / {
	say("guest up: " substr(l, 16, 60) "...")
}
l ~ /^irqcore-guest: load_[0-9]+: / {
	what = l
	sub(/^irqcore-guest: /, "", what)
	ok = 0; bad = 0
	say(what)
}
l ~ /^ok [0-9]+ / { ok++ }
l ~ /^not ok [0-9]+ / { bad++ }
!loads_only && l ~ /^irqcore_torture: result: / {
	say(sprintf("  torture %s/%s under %s: %s ops/s, %s violations -> %s",
		field(l, "driver"), field(l, "style"), field(l, "regime"),
		field(l, "ops_per_s"), field(l, "violations"), field(l, "verdict")))
}
l ~ /^irqcore-guest: (not )?ok unload_/ {
	say(sprintf("  %s (%d KTAP cases ok, %d not ok)", substr(l, 16), ok, bad))
}
l ~ /^irqcore-guest: (not )?ok trace_/ {
	say("  " substr(l, 16))
}
l ~ /^irqcore-guest: (not )?ok fault\// {
	say("  " substr(l, 16))
}
l ~ /^irqcore-guest: done/ {
	say(substr(l, 16))
}
