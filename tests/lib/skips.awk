# SPDX-License-Identifier: GPL-2.0
#
# skips.awk - hold a run's skips against tests/expected-skips.
#
#   awk -v step=TARGET:CPUS [-v boot=LINE] -f skips.awk EXPECTED RUNLINES SKIPS
#
# EXPECTED is tests/expected-skips ("STEP | RUN | NAME | REASON | MAX | WHY",
# each of the first four a glob with * and ?; RUN is matched word by word
# (runglob() below: a word "*" stands for any words, or none, any other
# word for one word of the run line, whole), so "* regime=nolock *" takes
# a parameter regime=nolock and not regime=nolockx or note=regime=nolock; a
# RUN glob that begins with "!" matches the run lines that the rest does
# not match); RUNLINES the guest's run
# lines, line N being load N's (load 0, before any load, is BOOT: the
# "builtin ..." line of a built-in irqcore, or "-"); SKIPS the
# "N<TAB>NAME<TAB>REASON" lines of analyse.awk and tests/run.
#
# Prints one result line a skip that no entry allows ("not ok
# skips/unexpected/NAME: ..."), one for each entry whose skips in this run
# outnumber its MAX ("not ok skips/limit: ..."), then "ok skips" with the
# count per entry when neither happened, and last "skips N unexpected U
# over L".

# globre(S, ANY, ONE): S with each * as ANY and each ? as ONE, every other
# character taken literally, as a regular expression (no anchors).
function globre(s, any, one,    r, i, c) {
	r = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "*")
			r = r any
		else if (c == "?")
			r = r one
		else if (index("\\^$.[]|()+{}", c))
			r = r "\\" c
		else
			r = r c
	}
	return r
}

function glob(s) {
	return "^" globre(s, ".*", ".") "$"
}

# runglob(S): RUN's glob S as a regular expression over words(LINE). Each
# word of S: "*" any number of whole words (none too); any other word one
# word, whole, in which * and ? stand for characters of that word only. (A
# glob over the line's characters, "*regime=nolock*", took any parameter
# that merely contained the text: regime=nolockx, note=regime=nolock.)
function runglob(s,    n, w, i, r) {
	n = split(trim(s), w, /[ \t]+/)
	r = "^"
	for (i = 1; i <= n; i++)
		r = r (w[i] == "*" ? "( [^ ]+)*" : " " globre(w[i], "[^ ]*", "[^ ]"))
	return r "$"
}

# words(LINE): the line's words, each after one space (" load regime=nolock").
function words(s,    n, w, i, r) {
	n = split(s, w, /[ \t]+/)
	r = ""
	for (i = 1; i <= n; i++)
		if (w[i] != "")
			r = r " " w[i]
	return r
}

function trim(s) {
	sub(/^[ \t]+/, "", s)
	sub(/[ \t]+$/, "", s)
	return s
}

FILENAME == ARGV[1] {
	if ($0 ~ /^#/ || $0 ~ /^[ \t]*$/)
		next
	n = split($0, f, "|")
	if (n < 6) {
		print "not ok skips/list: " FILENAME " line " FNR " has " n " fields, not 6: " $0
		bad++
		next
	}
	k = nent++
	e_step[k] = glob(trim(f[1]))
	e_run[k] = trim(f[2])
	e_runneg[k] = substr(e_run[k], 1, 1) == "!"
	e_run[k] = runglob(e_runneg[k] ? substr(e_run[k], 2) : e_run[k])
	e_name[k] = glob(trim(f[3]))
	e_why[k] = glob(trim(f[4]))
	e_max[k] = trim(f[5])
	e_line[k] = FNR
	e_text[k] = trim(f[3]) " (" trim(f[4]) ")"
	next
}

FILENAME == ARGV[2] {
	run[FNR] = $0
	next
}

{
	split($0, f, "\t")
	at = f[1] + 0
	name = f[2]
	why = f[3]
	line = at == 0 ? (boot == "" ? "-" : boot) : (at in run) ? run[at] : "-"
	lw = words(line)
	total++
	for (k = 0; k < nent; k++) {
		if (step ~ e_step[k] && (lw ~ e_run[k]) != e_runneg[k] && name ~ e_name[k] &&
		    why ~ e_why[k]) {
			used[k]++
			break
		}
	}
	if (k == nent) {
		print "not ok skips/unexpected/" name ": '" why "' (load " at ": '" line "') is not in tests/expected-skips"
		unexpected++
	}
}

END {
	for (k = 0; k < nent; k++) {
		if (!(k in used))
			continue
		if (e_max[k] != "-" && used[k] > e_max[k] + 0) {
			print "not ok skips/limit: " used[k] " skips of tests/expected-skips line " e_line[k] \
			      " (" e_text[k] "), at most " e_max[k] " allowed"
			over++
		}
		counts = counts sprintf("%sline %d: %d", counts == "" ? "" : ", ", e_line[k], used[k])
	}
	if (!unexpected && !over && !bad)
		print "ok skips"
	if (total)
		print "# skips: " total " (tests/expected-skips " counts ")"
	print "skips " total + 0 " unexpected " unexpected + 0 " over " over + bad + 0
}
