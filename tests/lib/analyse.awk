# SPDX-License-Identifier: GPL-2.0
#
# Judge one guest console log. Reads the failure patterns first (file 1),
# then the console (file 2), and prints one line per result (run after
# tests/lib/console.awk: awk -f console.awk -f analyse.awk PATTERNS LOG):
#   ok NAME | not ok NAME: REASON | skip NAME: REASON
# followed by "totals PASSED FAILED SKIPPED".
#
# Results come from three places: every KTAP document the module printed
# (a document whose plan and results disagree is a failure: a case went
# missing, the module crashed mid-run; so is a plan of no results), the
# guest's own "irqcore-guest:" lines (load, unload, refused loads), and the
# failure patterns (any hit fails the run, with the line quoted).
#
# Each document belongs to the load whose "irqcore-guest: load_N:" line came
# last before it (load 0: printed at boot, by a built-in irqcore, counted
# for the run's "builtin" line). With
# -v expect=FILE (tests/run writes it: "N DOCS RUN-LINE" a line, the fewest
# documents load N must print, from its kind and parameters), each load
# with DOCS > 0 gives ktap/load_N, which fails when fewer came: a load whose
# self-tests vanished (an "if (selftest == 0)" deleted) still loads and
# unloads cleanly, and only this sees it. Every skip is also printed as
# "skipat<TAB>N<TAB>NAME<TAB>REASON" (N its load) for tests/run to hold
# against tests/expected-skips.
#
# With -v ic_cases="ALL FAULT" (tests/run: tests/lib/ic-cases.awk, the
# case tables in module/selftest/), the first document of a "load" line
# (irqcore's self-tests; FAULT cases with selftest=fault, none with
# selftest=none) and a "builtin" line's first document at boot must have
# planned and printed at least that many cases: ktap/load_N_cases. A suite
# left out of ic_suites[] prints a smaller document whose plan and results
# agree, and only this sees it (issue 29 item 12).
#
# report_lines/load_N (issue 32 item 2: one result path): the host's
# report printers of `make run` (tests/lib/torture-report.awk,
# chips-report.awk) read a data line that some KTAP cases print before
# their result: the torture test's "irqcore_torture: result:", eepro100's
# "rtt:", intel8x0's "stream:" and "hold:" (report_kinds() below lists the
# cases, the lines and the fields the printers read). Each such case that
# passed (not a skip) must come after its own data line in its document,
# and each data line must carry those fields; load N then passes
# report_lines/load_N, and fails it otherwise. The printers judge nothing:
# they used to fail `make run` when they found no line, a judgement that
# lives here now, and the verdicts (violations against expectation, and
# so on) are the modules' KTAP cases, read above.
#
# On a KCSAN kernel (its boot says "kcsan: enabled") each data-race report
# is attributed instead of failing the console check on sight, by its
# stacks: in each stack the access frame (the first, or the first below
# library helpers that touch only what their caller handed them: list
# checks, mem*() and str*()) says whose access it was, "[irqcore]" or
# "[irqcore_torture]" if it is code of this project. A kernel function
# that our code called, racing on the kernel's own data (kthread_stop()
# reading a task's flags while the thread exits), is the kernel's access.
# A report with an irqcore (core module) access in either stack fails
# kcsan/core, whatever else is running: a race between the core and the
# torture module is the core's to answer, not a broken style's. A report
# whose accesses are the torture module's alone, printed while a torture
# case ran (after the previous case's "result:" line, before its own),
# belongs to that case; when the result line comes,
# kcsan/<driver>_<style>_<regime> passes if KCSAN and the torture invariant
# agree (both found a race, or neither did) and fails if they disagree
# (but for a silent KCSAN where the invariant caught fewer than
# kcsan_min_violations: a skip, too few races for KCSAN's sampling). A
# torture report outside a case fails kcsan/core too, which otherwise
# passes at the end. A report with no access of this project in either
# stack is the kernel's own: a skip line (kcsan/kernel) says it, unless the
# object it raced on is a module's (its address in the module area: the
# guest loads no modules but this project's), or it is a report of one
# stack ("race at unknown origin") with this project's code anywhere in
# that stack above an asynchronous entry (an interrupt, IPI or NMI: the
# frames below it are the code it stopped; a fault's entry does not cut
# the stack): then it fails kcsan/core. The bitmap helpers the kernel keeps
# out of line (_find_next_bit(), __bitmap_weight()) touch only the bitmap
# their caller handed them, as the list and mem*() helpers do: their caller
# made the access. (The
# access frame, not any frame: the handler side of every torture race has
# irqcore's dispatcher below the handler, and the kernel's races in
# kthread_stop() have the torture module below them.)
#
# Lines printed by other CPUs in the middle of a report are not part of
# it: every line inside a report is still matched against the failure
# patterns, and the guest's, the module's and KTAP lines are held and read
# in order once the report has closed.

function strip(s) {
	sub(/\r$/, "", s)
	sub(/^\[ *[0-9]+\.[0-9]+\] /, "", s)
	sub(/^\[ *[TC][0-9]+\] /, "", s)
	return s
}

function pass(name) { print "ok " name; passed++ }
function fail(name, why) { print "not ok " name ": " why; failed++ }
function skip(name, why, at) {
	print "skip " name ": " why
	printf "skipat\t%d\t%s\t%s\n", at, name, why
	skipped++
}

function close_doc() {
	if (!indoc)
		return
	if (plan < 0)
		fail("ktap_" docs "_plan", "KTAP document " docs " has no plan line")
	else if (plan == 0)
		fail("ktap_" docs "_plan", "KTAP document " docs " plans no results: it tested nothing")
	else if (seen != plan)
		fail("ktap_" docs "_plan", "KTAP document " docs " planned " plan " results, printed " seen)
	doc_plan[docs] = plan
	doc_seen[docs] = seen
	indoc = 0
}

# report_kinds(): the data lines the host's report printers read (see the
# top of this file). Kind K: rk_case[K], the KTAP case names that print
# it; rk_line[K], the line; rk_keys[K], the fields the printers read.
function report_kinds() {
	rk_case[1] = "^[a-z0-9]+_[a-z]+_(nolock|biglock)_[0-9]+cpu(_cross)?$"
	rk_line[1] = "^irqcore_torture: result: "
	rk_keys[1] = "driver style regime cpus mode ms ops ops_per_s violations contended " \
		     "raised handled runs reruns lat_us lat_max_us expected verdict extended_s"
	rk_case[2] = "^eepro100_rtt_"
	rk_line[2] = "^irqcore_eepro100: rtt: "
	rk_keys[2] = "regime hold_us samples in_hold waited p50_ns p99_ns"
	rk_case[3] = "^intel8x0_stream_"
	rk_line[3] = "^irqcore_intel8x0: stream: "
	rk_keys[3] = "regime per_s expected_per_s underruns"
	rk_case[4] = "^intel8x0_hold_"
	rk_line[4] = "^irqcore_intel8x0: hold: "
	rk_keys[4] = "regime hold_ms queued_ms underruns completions_in_hold"
	nrk = 4
}

# report_fail(LOAD, WHY): report_lines/load_LOAD fails, once.
function report_fail(at, why) {
	rk_checked[at] = 1
	if (at in rk_failed)
		return
	rk_failed[at] = 1
	fail("report_lines/load_" at, why)
}

# report_data(LINE, N): console line N, if it is a data line, is counted
# for the next case of its kind in this document; its fields are checked.
function report_data(line, n,    k, i, nk, key) {
	for (k = 1; k <= nrk; k++) {
		if (line !~ rk_line[k])
			continue
		rk_pending[k]++
		nk = split(rk_keys[k], key, " ")
		for (i = 1; i <= nk; i++) {
			if (line !~ ("[ :]" key[i] "=[^ ]"))
				report_fail(cur_load + 0, "console line " n " has no " key[i] \
					    "= (tests/lib/*-report.awk read it): " line)
		}
		return
	}
}

# report_case(NAME): a case that passed; if its kind has a data line, that
# line must have come before it in this document.
function report_case(name,    k, what) {
	for (k = 1; k <= nrk; k++) {
		if (name !~ rk_case[k])
			continue
		rk_checked[doc_load] = 1
		rk_cases[doc_load]++
		if (rk_pending[k] > 0)
			rk_pending[k]--
		else {
			what = substr(rk_line[k], 2)
			sub(/ $/, "", what)
			report_fail(doc_load, "case " name " (KTAP document " docs ") passed with no '" \
				    what "' line before it: the report of make run has no row for it")
		}
		return
	}
}

BEGIN {
	report_kinds()
	# A broken torture case with fewer violations than this may pass KCSAN
	# unseen: KCSAN watches one access in skip_watch (tests/loads-kcsan),
	# and a race it did not watch is not reported. On a quiet host every
	# broken 2 s case caught 203 to 1341 violations and KCSAN reported 8 to
	# 18 races (one a pair of functions in 200 ms); under host load two
	# cases caught 11 each and KCSAN none. Below this, a silent KCSAN is a
	# skip (tests/expected-skips allows a few a boot), at or above it a
	# failure; a report in a clean case fails at any count.
	kcsan_min_violations = 100
	# Frames a KCSAN stack is read through to find whose access it was.
	kcsan_helper = "^ +(__)?(list_|hlist_|__list_|mem(cpy|set|move|cmp)|str[a-z]+|_?_find_[a-z_]*bit|_?_?bitmap_[a-z_]+|__sw_hweight)"
	# The module area of x86-64 (with and without KASLR): data there is a
	# module's, and the guest loads only this project's modules.
	mod_lo = "ffffffffa0000000"
	mod_hi = "ffffffffff000000"
	# What each load must print (tests/run): "N DOCS RUN-LINE".
	if (expect != "") {
		while ((getline l < expect) > 0) {
			split(l, f, " ")
			want_docs[f[1] + 0] = f[2] + 0
			want_line[f[1] + 0] = substr(l, length(f[1]) + length(f[2]) + 3)
		}
		close(expect)
	}
	# Lines of the guest, the modules and KTAP, which other CPUs may
	# print in the middle of a KCSAN report.
	ours_line = "^(irqcore-guest: |irqcore_[a-z]+: |irqcore: |KTAP version |1\\.\\.[0-9]|(not )?ok [0-9]|# )"
}

FNR == NR {
	if ($0 !~ /^#/ && $0 != "")
		pat[npat++] = $0
	next
}

{
	# A kernel line glued to the end of another is read as a line of
	# its own (console.awk, which tests/run's KTAP extraction uses too).
	cp_n = console_parts($0, cp_part)
	for (cp_i = 1; cp_i <= cp_n; cp_i++)
		console_line(cp_part[cp_i], FNR)
}

# console_line(RAW, N): one line of the console (N its line number).
function console_line(raw, n) {
	line = strip(raw)
	if (line ~ /^kcsan: enabled/)
		kcsan_kernel = 1
	if (kcsan_report(line, n))
		return
	process(line, n)
}

# delay_calibration(LINE): every CPU's delay loop calibrated alike. The
# boot CPU's BogoMIPS, then the total of all N; the others must bring
# nine tenths of N - 1 times the first's, or their udelay()s are short
# (a busy host put a vCPU aside while it calibrated: tests/run gives lpj=
# so that none calibrates, docs/testing.md).
function delay_calibration(line,    total, cpus) {
	if (bogo_first == "" && line ~ /Calibrating delay loop.* [0-9.]+ BogoMIPS/) {
		bogo_first = line
		sub(/ BogoMIPS.*/, "", bogo_first)
		sub(/.* /, "", bogo_first)
		return
	}
	if (bogo_first == "" || line !~ /smpboot: Total of [0-9]+ processors activated \([0-9.]+ BogoMIPS\)/)
		return
	cpus = line
	sub(/.*Total of /, "", cpus)
	sub(/ .*/, "", cpus)
	total = line
	sub(/.*activated \(/, "", total)
	sub(/ .*/, "", total)
	bogo_judged = 1
	if (total + 0 >= 0.9 * cpus * bogo_first)
		pass("delay_calibrated")
	else
		fail("delay_calibrated", cpus " CPUs have " total " BogoMIPS, the first alone " bogo_first \
		     ": another CPU's delay loop was calibrated short (no lpj= given?)")
}

# process(LINE, N): console line N, outside any KCSAN report.
function process(line, n,    notok, rest, num, name, tag, why, k) {
	check_patterns(line, n)
	delay_calibration(line)
	if (line ~ /^irqcore_[a-z0-9]+: [a-z]+: /)
		report_data(line, n)

	if (line ~ /^irqcore-guest: load_[0-9]+: /) {
		cur_load = line
		sub(/^irqcore-guest: load_/, "", cur_load)
		sub(/:.*/, "", cur_load)
		cur_load += 0
	}
	if (line == "KTAP version 1") {
		close_doc()
		indoc = 1
		docs++
		doc_load = cur_load + 0
		if (!docs_at[doc_load]++)
			first_doc[doc_load] = docs
		plan = -1
		seen = 0
		# A data line counts only for a case of its own document.
		for (k = 1; k <= nrk; k++)
			rk_pending[k] = 0
		return
	}
	if (indoc && line ~ /^1\.\.[0-9]+$/) {
		plan = substr(line, 4) + 0
		return
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
		cases_at[doc_load]++
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
				skip(tag, why, doc_load)
		} else if (notok) {
			fail(tag, "KTAP not ok (see the # lines before it in the log)")
		} else {
			pass(tag)
			report_case(name)
		}
		return
	}
	if (line ~ /^irqcore_torture: result: driver=/) {
		kcsan_case(line)
		return
	}
	if (line ~ /^irqcore-guest: /)
		kcsan_orphans(line)
	if (line ~ /^irqcore-guest: ok .* # SKIP/) {
		why = line
		sub(/.* # SKIP ?/, "", why)
		sub(/^irqcore-guest: ok /, "", line)
		sub(/ # SKIP.*/, "", line)
		skip(line ~ /^fault\// ? line : "guest/" line, why, cur_load)
		return
	}
	if (line ~ /^irqcore-guest: ok /) {
		sub(/^irqcore-guest: ok /, "", line)
		# fault/<name> results keep their own name (docs/selftests.md).
		pass(line ~ /^fault\// ? line : "guest/" line)
		return
	}
	if (line ~ /^irqcore-guest: not ok /) {
		sub(/^irqcore-guest: not ok /, "", line)
		fail(line ~ /^fault\// ? line : "guest/" line, "guest check failed")
		return
	}
}

END {
	if (eq_line != "") {
		check_patterns(eq_line, eq_fnr)
		kcsan_between()
	}
	close_doc()
	if (kcsan_kernel) {
		if (in_report)
			kcsan_close()
		kcsan_orphans("the end of the log")
		if (!kcsan_core_failed)
			pass("kcsan/core")
	}
	if (!hitany())
		pass("console_clean")
	# The boot CPU's BogoMIPS and no total after it: a kernel that words
	# its SMP summary otherwise would leave the others unchecked, silently.
	if (bogo_first != "" && !bogo_judged)
		fail("delay_calibrated", "the boot CPU's BogoMIPS (" bogo_first ") and no 'smpboot: Total of N processors activated' line: the other CPUs' delay loops unchecked")
	# A shell session (make shell) runs no self-tests: its loads and
	# unloads, the clean console and the token are the checks.
	if (docs == 0 && !shell)
		fail("ktap", "no KTAP document in the console log")
	for (n in want_docs) {
		if (want_docs[n] <= 0)
			continue
		got = docs_at[n] + 0
		got_cases = cases_at[n] + 0
		# A built-in irqcore printed its documents at boot, before
		# the guest's line for it (load 0).
		if (want_line[n] ~ /^builtin/) {
			got += docs_at[0]
			got_cases += cases_at[0]
		}
		if (got < want_docs[n]) {
			fail("ktap/load_" n, "printed " got " KTAP documents (" got_cases \
			     " cases), the run line '" want_line[n] "' must print at least " want_docs[n])
		} else {
			pass("ktap/load_" n)
			print "# ktap/load_" n ": " got " documents, " got_cases " cases"
		}
	}
	if (ic_cases != "")
		check_cases()
	for (n in rk_checked) {
		if (!(n in rk_failed)) {
			pass("report_lines/load_" n)
			print "# report_lines/load_" n ": " rk_cases[n] + 0 " cases, each after its data line"
		}
	}
	print "totals " passed + 0 " " failed + 0 " " skipped + 0
}

# check_cases(): each load of irqcore's self-tests printed a first document
# of at least the cases the source has (ic_cases: "ALL FAULT").
function check_cases(    c, n, l, want, at, d, got) {
	split(ic_cases, c, " ")
	for (n in want_docs) {
		l = " " want_line[n] " "
		if (l ~ /^ load / && l !~ / selftest=none /)
			want = l ~ / selftest=fault / ? c[2] : c[1]
		else if (l ~ /^ builtin /)
			want = c[1]
		else
			continue
		at = l ~ /^ builtin / ? 0 : n
		if (!(at in first_doc)) {
			# ktap/load_N already failed: no document at all.
			continue
		}
		d = first_doc[at]
		got = doc_seen[d] < doc_plan[d] ? doc_seen[d] : doc_plan[d]
		if (got < want + 0)
			fail("ktap/load_" n "_cases", "irqcore's self-test document (KTAP document " d \
			     ") planned " doc_plan[d] " and printed " doc_seen[d] " cases, want at least " \
			     want " (the case tables of module/selftest/, tests/lib/ic-cases.awk)")
		else
			pass("ktap/load_" n "_cases")
	}
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

# kcsan_report(LINE, N): true if console line N belongs to a KCSAN report,
# which is then kept for attribution rather than matched as a whole. A
# report is a "=====" line, "BUG: KCSAN: ...", its body and a closing
# "=====" line; a "=====" line that no KCSAN title follows is checked as
# usual when the next line comes. Inside a report every line but the
# closing one is still matched against the failure patterns (another CPU
# may print a warning meanwhile), and the lines of the guest, the modules
# and KTAP are held for process() until the report closes.
function kcsan_report(line, n,    k) {
	if (!kcsan_kernel)
		return 0
	if (in_report) {
		if (line ~ /^=====+$/) {
			kcsan_close()
			return 1
		}
		check_patterns(line, n)
		if (line ~ ours_line) {
			k = nheld++
			held[k] = line
			held_n[k] = n
			return 1
		}
		if (line ~ / to 0x[0-9a-f]+ of [0-9]+ bytes by .* on cpu [0-9]+:$/) {
			# A stack begins: its access frame is the next frame.
			in_stack = 1
			any_stack = 1
			if (line ~ /^race at unknown origin/)
				rep_unknown = 1
			k = line
			sub(/.* to 0x/, "", k)
			sub(/ .*/, "", k)
			while (length(k) < 16)
				k = "0" k
			if (k >= mod_lo && k < mod_hi)
				rep_module_obj = "0x" k
		} else if (in_stack && line ~ /^ +[^ ]+\+0x[0-9a-f]+\/0x[0-9a-f]+/) {
			if (line ~ /\[irqcore\]$/) {
				rep_core = 1
				in_stack = 0
			} else if (line ~ /\[irqcore_[a-z]+\]$/) {
				rep_torture = 1
				in_stack = 0
			} else if (line !~ kcsan_helper) {
				# The kernel's own code made the access, on
				# its own data, even if our code called it.
				in_stack = 0
			}
		} else if (line !~ /^ /) {
			in_stack = 0
			any_stack = 0
		}
		# An asynchronous entry's frame (an interrupt, an IPI, an
		# NMI) ends the interrupt's own chain: the frames below it
		# are the code it stopped, which did not make the access (a
		# tick's wq_worker_tick() that lands on irqcore's
		# kthread_create() is the kernel's). A fault's entry
		# (asm_exc_page_fault) is not one: the code below it made
		# the access that faulted.
		if (any_stack && line ~ /^ +asm_(sysvec_[a-z0-9_]+|common_interrupt|spurious_interrupt|exc_nmi)\+0x/)
			any_stack = 0
		if (any_stack && line ~ /\[irqcore(_[a-z]+)?\]$/)
			rep_ours_anywhere = 1
		return 1
	}
	if (line ~ /^BUG: KCSAN: /) {
		eq_line = ""
		kcsan_between()
		in_report = 1
		in_stack = 0
		rep_core = 0
		rep_torture = 0
		rep_unknown = 0
		rep_module_obj = ""
		rep_ours_anywhere = 0
		any_stack = 0
		rep_title = line
		sub(/^BUG: KCSAN: /, "", rep_title)
		return 1
	}
	if (eq_line != "") {
		# Another CPU may print between a report's "=====" and its
		# title (a torture thread, the guest's shell): hold a few of
		# those lines too and read them before the report.
		if (nbetween < 8 && (line == "" || line ~ ours_line)) {
			k = nbetween++
			between[k] = line
			between_n[k] = n
			return 1
		}
		# The "=====" held back was not a KCSAN report's.
		check_patterns(eq_line, eq_fnr)
		eq_line = ""
		kcsan_between()
	}
	if (line ~ /^=====+$/) {
		eq_line = line
		eq_fnr = n
		return 1
	}
	return 0
}

# kcsan_between(): the lines held after a "=====" line, read in order.
function kcsan_between(    i, k) {
	k = nbetween
	nbetween = 0
	for (i = 0; i < k; i++)
		process(between[i], between_n[i])
}

# kcsan_close(): the report just read, whole, goes where it belongs (see
# the top of this file); then the lines held back while it was open.
function kcsan_close(    i, k) {
	in_report = 0
	if (rep_core) {
		orphan[norphan++] = rep_title " (irqcore code in a stack)"
	} else if (rep_torture) {
		case_reports++
		if (case_title == "")
			case_title = rep_title
	} else if (rep_module_obj != "") {
		# Kernel code on a module's object: ours, whoever ran it.
		orphan[norphan++] = rep_title " (the object, at " rep_module_obj ", is module data)"
	} else if (rep_unknown && rep_ours_anywhere) {
		# One stack: the other access is unknown, and ours is in this one.
		orphan[norphan++] = rep_title " (unknown origin, irqcore code in its stack)"
	} else {
		skip("kcsan/kernel", rep_title " (no irqcore code in either stack, kernel data)", cur_load)
	}
	k = nheld
	nheld = 0
	for (i = 0; i < k; i++)
		process(held[i], held_n[i])
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
	else if (viol > 0 && viol < kcsan_min_violations)
		skip(name, "KCSAN reported no race, and the invariant caught only " viol \
		     " violations (fewer than " kcsan_min_violations ", too few for KCSAN's sampling)", cur_load)
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
