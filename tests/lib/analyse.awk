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

	for (i = 0; i < npat; i++) {
		if (line ~ pat[i] && !(pat[i] in hit)) {
			hit[pat[i]] = 1
			fail("console_clean", "line " FNR ": " line)
		}
	}

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
	if (!hitany())
		pass("console_clean")
	# A shell session (make shell) runs no self-tests: its loads and
	# unloads, the clean console and the token are the checks.
	if (docs == 0 && !shell)
		fail("ktap", "no KTAP document in the console log")
	print "totals " passed + 0 " " failed + 0 " " skipped + 0
}

function hitany(p) {
	for (p in hit)
		return 1
	return 0
}
