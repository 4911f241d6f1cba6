# SPDX-License-Identifier: GPL-2.0
#
# field(NAME): the value of NAME=VALUE among the fields of the current
# record, or "" if there is none. Shared by the awk reports that read
# result lines (torture-report.awk, chips-report.awk, edu-latency.awk):
# pass it first, as
#   awk -f tests/lib/field.awk -f tests/lib/REPORT.awk LOG
# It reads; it judges nothing (a missing field is ""). The fields that
# torture-report.awk and chips-report.awk need are checked by tests/run's
# analyser: report_lines/load_N in tests/lib/analyse.awk.

function field(name,    i, kv) {
	for (i = 1; i <= NF; i++) {
		split($i, kv, "=")
		if (kv[1] == name)
			return substr($i, length(name) + 2)
	}
	return ""
}
