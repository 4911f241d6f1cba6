# SPDX-License-Identifier: GPL-2.0
#
# tests/lib/ktap-extract.awk - the KTAP documents of a guest's console, one
# file each (DIR/ktap-N.txt), for the kernel's kunit.py to parse: a second,
# independent reader of what analyse.awk judges (tests/run).
#
#   awk -v dir=DIR -f tests/lib/console.awk -f tests/lib/ktap-extract.awk console.log
#
# A document starts at "KTAP version 1"; its plan, result and comment lines
# go to it with the kernel's time stamp taken off. Lines glued together on
# the console are taken apart first (console.awk), as analyse.awk does.

function take(s) {
	sub(/^\[ *[0-9]+\.[0-9]+\] /, "", s)
	if (s ~ /^KTAP version 1$/) {
		n++
		f = dir "/ktap-" n ".txt"
		printf "" > f
	}
	if (n && s ~ /^(KTAP version|1\.\.[0-9]|(not )?ok [0-9]|# )/)
		print s >> f
}

{
	sub(/\r$/, "")
	np = console_parts($0, part)
	for (k = 1; k <= np; k++)
		take(part[k])
}
