#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tools/irqctl/selftest.sh IRQCTL-FAKE - irqctl's host self-test: what the
# tool decides by itself, against the fake /dev/irqcore of fake.c (no
# irqcore on the host): the UAPI versions it speaks (irqctl(8), VERSIONS),
# "last" and @K past 64 creates, the numbers "wait" takes, and -f (a line
# of any length is one line; nothing may follow -f FILE). Prints
# "ok NAME" or "not ok NAME: why" per case and a count; exits 1 if one
# failed. Run by the Makefile before it installs irqctl, so a tool that
# fails it is never built (tests/run builds it for every guest).
# The guest's tests/irqctl/session.sh checks the same against the module.
set -u
ic=$1
# The header's version: the newest this irqctl speaks; 2 is the oldest (irqctl.h).
V=$(sed -n 's/^#define IC_UAPI_VERSION[[:space:]]*\([0-9]*\).*/\1/p' "$(dirname "$0")/../../include/uapi/irqcore.h")
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0

ok() { echo "ok $1"; pass=$((pass + 1)); }
bad() { echo "not ok $1: $2"; fail=$((fail + 1)); }

# st NAME WANT-EXIT GREP-PATTERN ARGS...: irqctl ARGS must exit WANT-EXIT and
# print (stdout or stderr) a line matching GREP-PATTERN.
st() {
	name=$1 want=$2 pat=$3
	shift 3
	"$ic" "$@" >"$T/out" 2>&1
	rc=$?
	if [ "$rc" = "$want" ] && grep -q -- "$pat" "$T/out"; then
		ok "$name"
	else
		bad "$name" "exit $rc (want $want), output: $(head -c 300 "$T/out" | tr '\n' '|')"
	fi
}

# --- created lines: "last" and @K after more than 64 creates ---
# The fake gives the top free line: each create/delete pair takes line 63
# again; the two creates after them get 63 and 62. "last" is 62, and the
# 72nd create (@72) is 62 too. A list of 64 made "last" the 64th (63).
set --
for _ in $(seq 70); do set -- "$@" create : delete :; done
st last_after_64_creates 0 '^line 62: owned=1' "$@" create : create : stats line=last
st at_k_after_64_creates 0 '^line 62: owned=1' "$@" create : create : stats line=@72
st at_k_beyond 2 'this session created 2 lines (@1..@2)' create : create : stats line=@3

# --- wait: a decimal number of seconds 0..86400, nothing else ---
st wait_nan 2 "wait: 'nan': seconds 0..86400" wait nan
st wait_empty 2 "wait: '': seconds 0..86400" wait ""
st wait_inf 2 "wait: 'inf': seconds" wait inf
st wait_blank 2 "wait: ' 1': seconds" wait " 1"
st wait_hex 2 "wait: '0x1': seconds" wait 0x1
st wait_over 2 "wait: '86401': seconds" wait 86401
st wait_fraction 0 '^lines:' wait 0.05 : list
st wait_point 0 '^lines:' wait .01 : list

# --- -f: one line is one session line, whatever its length ---
printf 'expect 1 ==%1100s 1\n' '' >"$T/long"
st f_long_line 0 '^expect 1 == 1: 1 == 1: ok' -f "$T/long"
[ "$(grep -c '^expect' "$T/out")" = 1 ] && ok f_long_line_once ||
	bad f_long_line_once "$(grep -c '^expect' "$T/out") expect lines"
# A word longer than the old buffer, and more than 63 words on a line.
printf 'version %02000d\n' 0 >"$T/longword"
st f_long_word 2 "version: unknown argument '0000" -f "$T/longword"
{ printf 'expect 1 == 1'; for _ in $(seq 40); do printf ' : expect 2 > 1'; done; echo; } >"$T/words"
"$ic" -f "$T/words" >"$T/out" 2>&1
[ $? = 0 ] && [ "$(grep -c ': ok$' "$T/out")" = 41 ] && ok f_many_words ||
	bad f_many_words "$(grep -c ': ok$' "$T/out") of 41 expects"
printf 'create : stats line=last # a comment\n\ncreate\nstats line=@2\n' >"$T/cmds"
st f_colon_and_comment 0 '^line 62: owned=1' -f "$T/cmds"
st f_then_command 2 "'version' after -f" -f "$T/cmds" version
st f_twice 2 '-f given twice' -f "$T/cmds" -f "$T/cmds"
st f_missing 2 '-f needs a FILE' -f
st f_stdin 0 '^expect 3 > 2: 3 > 2: ok' -f - <<EOF
expect 3 > 2
EOF

# --- the UAPI versions: 2 (spoken: its IC_CTL_CPU_STATS) .. V; others refused ---
IRQCTL_FAKE_UAPI=$V st uapi_header_cpus 0 '^cpu 1: online=1 handled=2 .* dispatched=8$' cpus
IRQCTL_FAKE_UAPI=2 st uapi2_cpus 0 '^cpu 1: online=1 handled=2 samples=0 max_ns=0 in_hold=0$' cpus
IRQCTL_FAKE_UAPI=2 st uapi2_cpus_json 0 '"in_hold":0}' --json cpus
IRQCTL_FAKE_UAPI=2 st uapi2_version 0 'uapi=2' version
IRQCTL_FAKE_UAPI=$((V + 1)) st uapi_newer_refused 3 \
	"irqcore speaks UAPI $((V + 1)); this irqctl speaks 2..$V: a newer irqcore needs a newer irqctl" version
IRQCTL_FAKE_UAPI=1 st uapi1_refused 3 "irqcore speaks UAPI 1; this irqctl speaks 2..$V: older" version

echo "irqctl self-test: $pass passed, $fail failed"
[ "$fail" = 0 ]
