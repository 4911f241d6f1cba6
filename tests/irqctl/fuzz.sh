#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC2009,SC2015,SC2086
#
# tests/irqctl/fuzz.sh [seed=S] [time=S] - irqctl fuzz in the guest (an
# "irqctl" line of tests/loads-kasan and tests/loads-kcsan): random
# requests on /dev/irqcore from 4 processes of 4 threads, files opened and
# closed under them, workers killed mid-request; bounded in calls and
# time, the seed printed for a replay. Results:
#   fuzz/ioctl_REGIME     calls were made, most refused, some accepted
#   fuzz/exercised_REGIME it reached what it is for: creates, fires, holds
#                         and deletes that succeeded (each > 0), a handler
#                         of the longest busy time allowed created and
#                         fired (> 0 each)
#   fuzz/races_REGIME     threads raced on one file (raced > 0) and no
#                         request that has no EBUSY refusal got EBUSY: the
#                         file's lock makes a racing thread wait its turn,
#                         so an EBUSY there is a lock that refuses instead
#                         (mutant ctl_session_trylock)
#   fuzz/teardown_REGIME  afterwards no line, holder or file of theirs is left
# The unload that follows (the guest's unload_N) is the last check; the
# sanitizer, lockdep and kmemleak reports are the runner's.
R=$(cat /sys/module/irqcore/parameters/regime)
seed=$(($(date +%s) % 1000000))
time=25
for a in "$@"; do
	case $a in
	seed=*) seed=${a#seed=} ;;
	time=*) time=${a#time=} ;;
	*) echo "fuzz.sh: '$a': seed=S or time=S"; echo "irqctl-exit: 2"; exit 2 ;;
	esac
done
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
irqctl fuzz seed="$seed" calls=400000 procs=4 threads=4 time="$time" kill=1 >/tmp/fuzz.out 2>&1
rc=$?
cat /tmp/fuzz.out
calls=$(sed -n 's/^fuzz: seed=[0-9]* calls=\([0-9]*\) ok=\([0-9]*\) .*/\1 \2/p' /tmp/fuzz.out)
# shellcheck disable=SC2086
set -- $calls
if [ $rc = 0 ] && [ "${1:-0}" -gt 1000 ] && [ "${2:-0}" -gt 0 ] && [ "$2" -lt "$1" ]; then
	echo "irqctl-result: ok fuzz/ioctl_$R: seed $seed, $1 calls, $2 accepted"
else
	echo "irqctl-result: not-ok fuzz/ioctl_$R: seed $seed, exit $rc, calls/accepted '$calls'"
fi
# fuzz: accepted create=N fire=N hold=N delete=N busy_max_create=N busy_max_fire=N hold_max=N
acc=$(sed -n 's/^fuzz: accepted //p' /tmp/fuzz.out)
# kv NAME: the number after NAME= in $acc (empty if absent)
kv() { echo " $acc" | sed -n "s/.* $1=\([0-9]*\).*/\1/p"; }
short=''
for k in create fire hold delete busy_max_create busy_max_fire; do
	v=$(kv $k)
	[ "${v:-0}" -gt 0 ] || short="$short $k=${v:-missing}"
done
if [ -n "$acc" ] && [ -z "$short" ]; then
	echo "irqctl-result: ok fuzz/exercised_$R: $acc"
else
	echo "irqctl-result: not-ok fuzz/exercised_$R: none accepted of:${short:- (no 'fuzz: accepted' line)}"
fi
raced=$(sed -n 's/^fuzz: raced=\([0-9]*\) .*/\1/p' /tmp/fuzz.out)
ebusy=$(sed -n 's/^fuzz: ebusy_impossible=\([0-9]*\) .*/\1/p' /tmp/fuzz.out)
if [ "${raced:-0}" -gt 0 ] && [ "$ebusy" = 0 ]; then
	echo "irqctl-result: ok fuzz/races_$R: $raced calls raced on one file, no EBUSY where none is possible"
else
	echo "irqctl-result: not-ok fuzz/races_$R: raced='$raced' (want > 0), ebusy_impossible='$ebusy' (want 0): $(grep '^fuzz: ebusy' /tmp/fuzz.out)"
fi
# A threshold with traceoff among the random requests may have stopped the trace.
echo 1 >/sys/kernel/tracing/tracing_on 2>/dev/null
left=$(grep -c ' irqctl-' /proc/irqcore/interrupts)
holders=$(ps | grep -c '[i]rqctl_hold')
open=$(irqctl version | sed -n 's/.* open=\([0-9]*\)$/\1/p')
lines=$(irqctl list any)
if [ "$left" = 0 ] && [ "$holders" = 0 ] && [ "$open" = 1 ] && [ "$lines" = "lines:" ]; then
	echo "irqctl-result: ok fuzz/teardown_$R"
else
	echo "irqctl-result: not-ok fuzz/teardown_$R: $left actions, $holders holders, open=$open, $lines"
fi
echo "irqctl-exit: 0"
