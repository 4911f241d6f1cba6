# SPDX-License-Identifier: GPL-2.0
#
# Judge one guest console log. Reads the failure patterns first (file 1),
# then the console (file 2), and prints one line per result:
#   ok NAME | not ok NAME: REASON | skip NAME: REASON
# followed by "totals PASSED FAILED SKIPPED".
#
# Results come from three places: every KTAP document the module printed
# (a document whose plan and results disagree is a failure: a case went
# missing, the module crashed mid-run), the guest's own "irqcore-guest:"
# lines (load, unload, refused loads), and the failure patterns (any hit
# fails the run, with the line quoted).
#
# On a KCSAN kernel (its boot says "kcsan: enabled") each data-race report
# is attributed instead of failing the console check on sight. A report
# that names irqcore_torture's code, printed while a torture case ran (after
# the previous case's "result:" line, before its own), belongs to that
# case; when the result line comes, kcsan/<driver>_<style>_<regime> passes
# if KCSAN and the torture invariant agree (both found a race, or neither
# did) and fails if they disagree. Any other report -- in irqcore's core,
# in a self-test, outside a case -- fails kcsan/core, which otherwise
# passes at the end. A report with no irqcore frame in either stack is the
# kernel's own: a skip line (kcsan/kernel) says it.

function strip(s) {
	sub(/\r$/, "", s)
	sub(/^\[ *[0-9]+\.[0-9]+\] /, "", s)
	sub(/^\[ *[TC][0-9]+\] /, "", s)
	return s
}

function pass(name) { print "ok " name; passed++ }
function fail(name, why) { print "not ok " name ": " why; failed++ }
function skip(name, why) { print "skip " name ": " why; skipped++ }

function close_doc() {
	if (!indoc)
		return
	if (plan < 0)
		fail("ktap_" docs "_plan", "KTAP document " docs " has no plan line")
	else if (seen != plan)
		fail("ktap_" docs "_plan", "KTAP document " docs " planned " plan " results, printed " seen)
	indoc = 0
}

FNR == NR {
	if ($0 !~ /^#/ && $0 != "")
		pat[npat++] = $0
	next
}

{
	line = strip($0)

	if (line ~ /^kcsan: enabled/)
		kcsan_kernel = 1
	if (kcsan_report(line))
		next

	check_patterns(line, FNR)

	if (line == "KTAP version 1") {
		close_doc()
		indoc = 1
		docs++
		plan = -1
		seen = 0
		next
	}
	if (indoc && line ~ /^1\.\.[0-9]+$/) {
		plan = substr(line, 4) + 0
		next
	}
	if (indoc && line ~ /^(not )?ok [0-9]+ /) {
		notok = (line ~ /^not /)
		rest = line
		sub(/^(not )?ok /, "", rest)
		num = rest
		sub(/ .*/, "", num)
		name = rest
		sub(/^[0-9]+ /, "", name)
		seen++
		if (num + 0 != seen)
			fail("ktap_" docs "_order", "result " num " where " seen " was expected")
		tag = "load" docs "/" name
		if (name ~ / # SKIP/) {
			why = name
			sub(/.* # SKIP ?/, "", why)
			sub(/ # SKIP.*/, "", tag)
			if (notok)
				fail(tag, "not ok with SKIP")
			else
				skip(tag, why)
		} else if (notok) {
			fail(tag, "KTAP not ok (see the # lines before it in the log)")
		} else {
			pass(tag)
		}
		next
	}
	if (line ~ /^irqcore_torture: result: driver=/) {
		kcsan_case(line)
		next
	}
	if (line ~ /^irqcore-guest: /)
		kcsan_orphans(line)
	if (line ~ /^irqcore-guest: ok /) {
		sub(/^irqcore-guest: ok /, "", line)
		# fault/<name> results keep their own name (docs/testing.md).
		pass(line ~ /^fault\// ? line : "guest/" line)
		next
	}
	if (line ~ /^irqcore-guest: not ok /) {
		sub(/^irqcore-guest: not ok /, "", line)
		fail(line ~ /^fault\// ? line : "guest/" line, "guest check failed")
		next
	}
}

END {
	close_doc()
	if (kcsan_kernel) {
		if (in_report)
			kcsan_attribute()
		kcsan_orphans("the end of the log")
		if (!kcsan_core_failed)
			pass("kcsan/core")
	}
	if (!hitany())
		pass("console_clean")
	# A shell session (make shell) runs no self-tests: its loads and
	# unloads, the clean console and the token are the checks.
	if (docs == 0 && !shell)
		fail("ktap", "no KTAP document in the console log")
	print "totals " passed + 0 " " failed + 0 " " skipped + 0
}

# check_patterns(LINE, N): console line N fails console_clean if it matches
# a failure pattern (each pattern is reported once).
function check_patterns(line, n,    i) {
	for (i = 0; i < npat; i++) {
		if (line ~ pat[i] && !(pat[i] in hit)) {
			hit[pat[i]] = 1
			fail("console_clean", "line " n ": " line)
		}
	}
}

function hitany(p) {
	for (p in hit)
		return 1
	return 0
}

# kcsan_report(LINE): true if LINE belongs to a KCSAN report, which is then
# kept for attribution rather than matched against the failure patterns.
# A report is a "=====" line, "BUG: KCSAN: ...", its body and a closing
# "=====" line; a "=====" line that no KCSAN title follows is checked as
# usual when the next line comes.
function kcsan_report(line) {
	if (!kcsan_kernel)
		return 0
	if (in_report) {
		if (line ~ /\[irqcore/)
			rep_irqcore = 1
		if (line ~ /^=====+$/)
			kcsan_attribute()
		return 1
	}
	if (line ~ /^BUG: KCSAN: /) {
		eq_line = ""
		in_report = 1
		rep_title = line
		sub(/^BUG: KCSAN: /, "", rep_title)
		rep_irqcore = (line ~ /\[irqcore/)
		return 1
	}
	if (eq_line != "") {
		# The "=====" held back was not a KCSAN report's.
		check_patterns(eq_line, eq_fnr)
		eq_line = ""
	}
	if (line ~ /^=====+$/) {
		eq_line = line
		eq_fnr = FNR
		return 1
	}
	return 0
}

# kcsan_attribute(): the report just read, whole, goes where it belongs.
# One with no irqcore frame in either stack is the kernel's own (a driver
# during the boot, the workqueue code racing with the tick): listed as a
# skip, not irqcore's to fail.
function kcsan_attribute() {
	in_report = 0
	if (!rep_irqcore) {
		skip("kcsan/kernel", rep_title " (no irqcore code in either stack)")
	} else if (rep_title ~ /\[irqcore_torture\]/) {
		case_reports++
		if (case_title == "")
			case_title = rep_title
	} else {
		orphan[norphan++] = rep_title
	}
}

# kcsan_case(LINE): a torture case's result line; judge KCSAN against it.
function kcsan_case(line,    f, i, kv, driver, style, regime, viol, name) {
	if (!kcsan_kernel)
		return
	split(line, f, " ")
	for (i in f) {
		split(f[i], kv, "=")
		if (kv[1] == "driver") driver = kv[2]
		else if (kv[1] == "style") style = kv[2]
		else if (kv[1] == "regime") regime = kv[2]
		else if (kv[1] == "violations") viol = kv[2] + 0
	}
	name = "kcsan/" driver "_" style "_" regime
	if ((viol > 0) == (case_reports > 0))
		pass(name)
	else if (viol > 0)
		fail(name, "the invariant caught " viol " violations; KCSAN reported no race")
	else
		fail(name, "the invariant held; KCSAN reported " case_reports " races, first: " case_title)
	case_reports = 0
	case_title = ""
}

# kcsan_orphans(WHERE): reports not in a torture case's code fail kcsan/core;
# a torture report left over when the guest moves on is one too.
function kcsan_orphans(where,    i) {
	if (case_reports) {
		orphan[norphan++] = case_title " (outside a torture case)"
		case_reports = 0
		case_title = ""
	}
	for (i = 0; i < norphan; i++) {
		fail("kcsan/core", orphan[i] " (reported before: " where ")")
		kcsan_core_failed = 1
	}
	norphan = 0
}
