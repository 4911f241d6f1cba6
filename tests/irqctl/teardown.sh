#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash disable=SC2009,SC2015,SC2086
#
# tests/irqctl/teardown.sh - a session torn down while a paced fire runs
# (an "irqctl" line of tests/loads-irqctl, once per regime, 2 CPUs). A
# fire of 100000 raises at the budget's pace lasts minutes; it holds its
# file, so what ends it is a fatal signal or the file's flush (the firing
# process's last close). Checks, each "irqctl/NAME_REGIME":
#   close_stops_fire     irqctl closefire: another thread's close of the
#                        last descriptor ends the fire with EBADF within
#                        2 s, and the line loses its handler and raises
#   close_stops_fire_dup the same with a dup'd descriptor closed first,
#                        which must not stop it (mutant
#                        ctl_flush_keeps_fires: both fail)
#   kill_fire            kill -9 of a session in a paced fire: gone
#                        within a second, nothing left
#   rmmod_fire           rmmod refused while a session fires; the
#                        session killed, nothing left
#   pair_N               two sessions, each request within its limits,
#                        together at the limits (the rate budget, the
#                        hardirq budget, the holder, 16 lines), each
#                        firing: both run, both close within a second of
#                        their signal, nothing is left
# Prints "irqctl-result: ok|not-ok NAME" per check and "irqctl-exit: 0"
# once it has run to the end.

T=/tmp/irqctl-teardown
# R, ok, bad and run (tests/irqctl/lib.sh).
. "$(dirname "$0")/lib.sh"

actions() { grep -c ' irqctl-' /proc/irqcore/interrupts; }
now_cs() { awk '{ printf "%d\n", $1 * 100 }' /proc/uptime; }

# gone NAME PID...: kill each, each must end within a second, and nothing
# of theirs be left.
gone() {
	local name=$1 p c0 c1
	shift
	c0=$(now_cs)
	for p in "$@"; do
		kill "$p" 2>/dev/null
	done
	for p in "$@"; do
		wait "$p" 2>/dev/null
	done
	c1=$(now_cs)
	if [ $((c1 - c0)) -le 100 ] && [ "$(actions)" = 0 ]; then
		ok "$name" "closed in $((c1 - c0)) cs"
	else
		bad "$name" "closed in $((c1 - c0)) cs (100 at most), $(actions) actions left"
	fi
}

# --- the file's flush (review item 2) ---
run close_stops_fire closefire
run close_stops_fire_dup closefire dup

# --- a paced fire, killed; the module held while it runs ---
irqctl create cpu=1 busy=1000 rate=100 : fire count=100000 >$T/k 2>&1 &
k=$!
sleep 1
if [ "$(actions)" = 1 ] && kill -0 $k 2>/dev/null; then
	c0=$(now_cs)
	kill -9 $k
	wait $k 2>/dev/null
	c1=$(now_cs)
	sleep 0.3
	[ $((c1 - c0)) -le 100 ] && [ "$(actions)" = 0 ] && ok kill_fire "$((c1 - c0)) cs" ||
		bad kill_fire "$((c1 - c0)) cs, $(actions) actions left"
else
	bad kill_fire "the fire did not run: $(cat $T/k)"
	kill -9 $k 2>/dev/null
	wait $k 2>/dev/null
fi
irqctl create cpu=0 busy=500 : fire count=100000 >$T/m 2>&1 &
m=$!
sleep 1
if rmmod irqcore 2>$T/err; then
	bad rmmod_fire "irqcore unloaded under a fire"
	exit 0
fi
grep -q '^irqcore ' /proc/modules && kill -0 $m 2>/dev/null && ok rmmod_fire_refused ||
	bad rmmod_fire_refused "$(cat $T/m $T/err)"
gone rmmod_fire $m

# --- pairs of sessions, each request within bounds, together at the
# limits, each firing for as long as it lives. The limits move with what
# the budget charges a raise (D, from the load's line): sized for D = 20,
# session A of three pairs was refused alone at any charge over 25 us and
# the pairs tested nothing. Session A is always within bounds alone, so its
# refusal is a failure; session B's (EBUSY: the budget, a second holder)
# is an answer. ---
D=$(charge_us)
# Each session A leaves 1% of the budget (10000 us) for its own fires.
R2=$((250000 / D))		# two sources at R2 fill the budget
[ $R2 -le 10000 ] || R2=10000
R16=$((490000 / (16 * D)))	# sixteen at R16 fill it, less the 1%
[ $R16 -le 1250 ] || R16=1250
RB=$((490000 / (1000 + D)))	# one 1000 us line at its own limit, less the 1%
echo "teardown: a raise charged $D us: R2=$R2 R16=$R16 RB=$RB"
F=': fire count=100000 : fire count=100000'
pair() {
	local name=$1 a=$2 b=$3 pa pb
	irqctl $a $F >$T/pa 2>&1 &
	pa=$!
	sleep 0.3
	irqctl $b $F >$T/pb 2>&1 &
	pb=$!
	sleep 1
	if ! kill -0 $pa 2>/dev/null; then
		bad $name "session A ended: $(cat $T/pa)"
	fi
	if ! kill -0 $pb 2>/dev/null && ! grep -q ': E[A-Z]* (' $T/pb; then
		bad $name "session B ended: $(cat $T/pb)"
	fi
	cat $T/pa $T/pb
	gone $name $pa $pb
}
L16=''
for _ in $(seq 16); do L16="$L16 : create rate=$R16"; done
pair pair_rates "create rate=$R2 cpu=1" "create rate=$R2 cpu=0"
pair pair_busy 'create busy=1000 cpu=1' 'create busy=1000 cpu=0'
pair pair_busy_rate "create busy=1000 rate=$RB cpu=1" 'create cpu=0'
pair pair_hold 'create cpu=1 busy=1000 : hold cpu=0 hold=15000 period=40000 fire=@1' \
	"create rate=$R2 cpu=1"
pair pair_hold_lock 'create cpu=1 busy=1000 drvlock : hold cpu=0 hold=15000 period=40000 mode=lock fire=@1' \
	'create cpu=0 busy=1000 drvlock'
pair pair_lines "${L16# : }" 'create busy=1000 cpu=1'
pair pair_shared 'create shared cpu=1 busy=1000' "create shared cpu=0 rate=$R2"

echo "irqctl-exit: 0"
