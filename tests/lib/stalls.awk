# SPDX-License-Identifier: GPL-2.0
#
# stalls.awk - the host-stall and undecided skips of a whole make check,
# across its boots.
#
#   awk -f stalls.awk DIR/runlines DIR/skips [DIR/runlines DIR/skips ...]
#
# Each DIR is one boot's log folder (tests/run): "runlines", the guest's
# run lines (line N is load N's), and "skips", the "N<TAB>NAME<TAB>REASON"
# lines that tests/run held against tests/expected-skips.
#
# tests/expected-skips allows one host-stall skip a boot: the heartbeat
# (module/selftest/heartbeat.c) cannot tell a vCPU that the host put aside
# from a CPU spinning with interrupts off, so a defect that does the
# latter reads as a stall, and the line's MAX relies on it stalling in
# every load of its regime, two or more a boot. A defect of one load line
# (one counter layout, nr_cpus=256, one device's selftest line) stalls in
# one load a boot, within the MAX, and does so in every boot that runs
# that line. A host's stall does not choose: the same case on the same
# run line skipped for a host stall in two boots is the code's.
#
# The same holds for a torture case expected to be caught that ran on to
# extend= and still met fewer than decide= contended meetings ("undecided:
# ...", drivers/torture.c): two are allowed a boot, and a defect confined
# to one row (one that keeps its sides from ever meeting, say) makes that
# row undecided in every boot, within the two. A slow host does not
# choose a row either: the same row on the same run line undecided in two
# boots is the code's.
#
# Prints "not ok skips/stall_repeated: ..." for each such case and line,
# or "ok skips/stall_repeated"; last "stalls N undecided U repeated R".

function words(s,    n, w, i, r) {
	n = split(s, w, /[ \t]+/)
	r = ""
	for (i = 1; i <= n; i++)
		if (w[i] != "")
			r = r (r == "" ? "" : " ") w[i]
	return r
}

FNR == 1 {
	dir = FILENAME
	sub(/\/[^\/]*$/, "", dir)
	if (FILENAME ~ /\/runlines$/)
		delete run
}

FILENAME ~ /\/runlines$/ {
	run[FNR] = words($0)
	next
}

{
	split($0, f, "\t")
	if (f[3] ~ /^host stall/)
		kind = "stall"
	else if (f[3] ~ /^undecided:/)
		kind = "undecided"
	else
		next
	at = f[1] + 0
	name = f[2]
	sub(/^load[0-9]+\//, "", name)
	line = (at in run) ? run[at] : at == 0 ? "(boot)" : "(load " at ")"
	key = name " on '" line "'"
	count[kind]++
	what[key] = kind
	if (!((key, dir) in seen)) {
		seen[key, dir] = 1
		boots[key]++
		where[key] = where[key] (where[key] == "" ? "" : ", ") dir
	}
}

END {
	for (key in boots) {
		if (boots[key] < 2)
			continue
		if (what[key] == "stall")
			print "not ok skips/stall_repeated: " key " skipped for a host stall in " boots[key] \
			      " boots (" where[key] "): a CPU spinning with interrupts off reads as a stall"
		else
			print "not ok skips/stall_repeated: " key " undecided in " boots[key] \
			      " boots (" where[key] "): a row that never meets enough reads as a slow host"
		repeated++
	}
	if (!repeated)
		print "ok skips/stall_repeated"
	print "stalls " count["stall"] + 0 " undecided " count["undecided"] + 0 " repeated " repeated + 0
}
