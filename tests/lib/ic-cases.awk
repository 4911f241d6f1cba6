# SPDX-License-Identifier: GPL-2.0
#
# How many cases irqcore's self-test documents must have, from the source:
#   awk -f tests/lib/ic-cases.awk module/selftest/*.c
# prints "ALL FAULT": the "{ "name", fn }" entries of the case tables of
# every suite defined in module/selftest/ (the default run, selftest=all,
# is every suite but those of ic_fault_suites[]; selftest=fault is those).
# Every suite defined, not every suite listed in ic_suites[]: a suite left
# out of that list is a suite whose cases vanished, and the count must not
# shrink with it (tests/mutants ic_suite_unlisted). The plan is the sum of
# each suite's .nr, so a suite whose .nr is not ARRAY_SIZE() of its own
# table is reported, and so is a suite listed in neither array. The tables
# have no #if inside them: a case that needs a config or two CPUs is in the
# table always and skips at run time, so the count is the same on every
# target and CPU count. Exits 1 (with a message on stderr) if it finds no
# suite or no case: a count that cannot be trusted is not printed.

/^static const struct ic_case [a-z0-9_]+\[\] = \{/ {
	table = $5
	sub(/\[\]$/, "", table)
	ntab[table] = 0
	next
}
table != "" && /^\t\{ "/ { ntab[table]++; next }
table != "" && /^\};/ { table = ""; next }

/^const struct ic_suite ic_[a-z0-9_]+_suite = \{/ { suite = $4; defined[suite] = FILENAME; next }
suite != "" && /^\t\.cases = / { s = $3; sub(/,$/, "", s); cases_of[suite] = s; next }
suite != "" && /^\t\.nr = / { nr_of[suite] = $0; next }
suite != "" && /^\};/ { suite = ""; next }

/^static const struct ic_suite \* const ic_(fault_)?suites\[\] = \{/ { list = $7; next }
list != "" && /^\t&ic_[a-z0-9_]+_suite,/ {
	s = $1
	sub(/^&/, "", s)
	sub(/,$/, "", s)
	if (list ~ /fault/)
		fault[s] = 1
	else
		listed[s] = 1
	next
}
list != "" && /^\};/ { list = ""; next }

END {
	for (s in defined) {
		t = cases_of[s]
		if (t == "" || !(t in ntab)) {
			printf "ic-cases: suite %s (%s) has no case table I can read\n", s, defined[s] > "/dev/stderr"
			bad = 1
			continue
		}
		if (nr_of[s] !~ "ARRAY_SIZE\\(" t "\\),$")
			printf "ic-cases: suite %s: its .nr is not ARRAY_SIZE(%s): '%s'\n", s, t, nr_of[s] > "/dev/stderr"
		if (!(s in fault) && !(s in listed))
			printf "ic-cases: suite %s (%s) is in neither ic_suites[] nor ic_fault_suites[]\n", s, defined[s] > "/dev/stderr"
		if (s in fault)
			nfault += ntab[t]
		else
			nall += ntab[t]
	}
	if (bad || nall == 0 || nfault == 0) {
		print "ic-cases: no count: no suite or no case found in " ARGV[1] "..." > "/dev/stderr"
		exit 1
	}
	print nall, nfault
}
