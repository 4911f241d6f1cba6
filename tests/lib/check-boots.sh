# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The boots of one make check, for the checks across them. A defect of
# one run line stalls a case, or leaves a torture row undecided, once a
# boot (allowed) but in every boot that runs the line; tests/lib/stalls.awk
# fails it when two boots of the suite show it. Those boots are not only
# the matrix's TARGET:CPUS steps: tests/dkms-check, tests/convert-check,
# tests/selftest-runner, tests/scripted and the others boot through
# tests/run too, and their run lines are tests/loads' own or their own
# (tests/loads-dkms runs both regimes' self-tests). So each boot records
# its log folder (tests/run, ic_boots_record) in the file that tests/check
# names in IC_CHECK_BOOTS, and tests/check reads them all (ic_boots_stalls).
#
# Sourced by tests/lib/common.sh.

# ic_boots_record DIR - a boot's log folder, for the suite around it (none
# when IC_CHECK_BOOTS is unset: a tests/run of its own).
ic_boots_record() {
	[ -n "${IC_CHECK_BOOTS:-}" ] || return 0
	echo "$1" >>"$IC_CHECK_BOOTS"
}

# ic_boots_stalls - tests/lib/stalls.awk over every boot recorded in
# IC_CHECK_BOOTS that left its run lines and skips (each once: a label
# booted again replaced its folder); prints nothing when there is none.
ic_boots_stalls() {
	local d files=()

	[ -s "${IC_CHECK_BOOTS:-}" ] || return 0
	while IFS= read -r d; do
		[ -r "$d/runlines" ] && [ -r "$d/skips" ] && files+=("$d/runlines" "$d/skips")
	done < <(awk '!seen[$0]++' "$IC_CHECK_BOOTS")
	[ ${#files[@]} -gt 0 ] || return 0
	awk -f "$IC_TOP/tests/lib/stalls.awk" "${files[@]}"
}
