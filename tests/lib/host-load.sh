# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# IRQCORE_HOST_LOAD=N: a busy host on demand (docs/testing.md, "A busy
# host"). N CPU-bound processes run for the whole of a make check, make
# run, make bench or tests/run, as another user's job would: in a session,
# so a scheduler autogroup, of their own (setsid), at nice 0 (or, where
# the caller may not raise a nice, its own, which the message says). A
# developer's kernel build beside the suite looks like that to the
# scheduler, and the suite must give the same verdicts under it as on a
# quiet machine.
#
# Sourced by tests/lib/common.sh; ic_host_load_start is called by the
# top-level scripts. The first one to start the load owns it and stops it
# when it exits; the scripts it runs find IRQCORE_HOST_LOAD_PIDS set and
# start only those of its processes that no longer run, which they own.

IC_HOST_LOAD_MAX=16

# ic_host_load_n - the N of IRQCORE_HOST_LOAD (0 when unset), or die
# naming the valid values.
ic_host_load_n() {
	local n=${IRQCORE_HOST_LOAD:-0}

	case $n in
	'' | *[!0-9]* | 0?*) ic_die "invalid IRQCORE_HOST_LOAD='$n'; valid: 0..$IC_HOST_LOAD_MAX (CPU-bound processes beside the suite)" ;;
	esac
	[ "$n" -le $IC_HOST_LOAD_MAX ] ||
		ic_die "invalid IRQCORE_HOST_LOAD='$n'; valid: 0..$IC_HOST_LOAD_MAX (CPU-bound processes beside the suite)"
	echo "$n"
}

# ic_run_cap TIMEOUT SCALE LOAD - tests/run's bound on a whole boot, in
# seconds: (1 + LOAD) x SCALE x TIMEOUT (a busy host makes a boot slow, not
# wrong; LOAD from ic_run_load_factor), but no more than IC_RUN_CAP_MAX or
# SCALE x TIMEOUT, whichever is larger. Each factor is bounded (--timeout
# 3600, IRQCORE_HOST_LOAD=16, 64 CPUs: SCALE 8); together they made 136
# hours, for which a boot whose console keeps growing (a hang that prints)
# held the one QEMU slot.
IC_RUN_CAP_MAX=21600
ic_run_cap() {
	local cap=$(($1 * (1 + $3) * $2)) floor=$(($1 * $2))

	[ $cap -le $IC_RUN_CAP_MAX ] || cap=$IC_RUN_CAP_MAX
	[ $cap -ge $floor ] || cap=$floor
	echo $cap
}

# ic_run_load_factor N LOADAVG - the LOAD of ic_run_cap, and what gave it:
# "F WHY...". F is the largest of the declared N (IRQCORE_HOST_LOAD), the
# host's load average LOADAVG (/proc/loadavg's 1-minute figure at the
# boot's start) rounded up, and IC_RUN_LOAD_FLOOR; a tie names the first.
#
# A busy host that nobody declared made the bound S: a boot took 232 s of
# its 300 with the host above load 2, while the cases that run on or run
# again when the host is slow (torture's extend=, three runs of a stalled
# case, irqctl's fuzz) spend more time exactly then. The bound is not the
# hang detector (a console silent for S, the kernel's own hang reports end
# a boot sooner): a bound too long costs only the time a hang that keeps
# printing holds the QEMU slot, one too short fails a slow boot. So the
# figure is taken as it is, nothing subtracted: it counts the suite's own
# work too (the last guest's vCPU threads, fading over a minute, the
# background builds, the declared load itself), which errs long. And a
# floor, because the figure looks a minute back, once: a host that turns
# busy after the boot's start (another user's job, the background builds
# given a normal priority) is not in it.
IC_RUN_LOAD_FLOOR=2
ic_run_load_factor() {
	local n=$1 l=$2 m=0 f why

	case $l in
	[0-9]* | .[0-9]*) m=$(awk -v l="$l" 'BEGIN { c = int(l); if (c < l) c++; print c }') ;;
	*) l='' ;;
	esac
	f=$n why="IRQCORE_HOST_LOAD=$n"
	[ "$m" -le "$f" ] || { f=$m why="the host's load average $l at the boot's start"; }
	[ $IC_RUN_LOAD_FLOOR -le "$f" ] ||
		{ f=$IC_RUN_LOAD_FLOOR why="the floor (IRQCORE_HOST_LOAD=$n, load average ${l:-unread})"; }
	echo "$f $why"
}

# ic_host_load_note - a word for result lines: "" on a quiet host, else
# " (host load N)".
ic_host_load_note() {
	local n

	n=$(ic_host_load_n) || exit 1
	[ "$n" = 0 ] || printf ' (host load %s)' "$n"
}

# ic_host_load_alive - how many of the load's processes still run.
ic_host_load_alive() {
	local p k=0

	for p in ${IRQCORE_HOST_LOAD_PIDS:-}; do
		grep -qs 'irqcore-host-load' "/proc/$p/cmdline" && k=$((k + 1))
	done
	echo $k
}

# ic_host_load_nices - the nice values the load's running processes have,
# each once ("0" when all run at nice 0, as they should).
ic_host_load_nices() {
	local p st

	for p in ${IRQCORE_HOST_LOAD_PIDS:-}; do
		grep -qs 'irqcore-host-load' "/proc/$p/cmdline" || continue
		read -r -a st <"/proc/$p/stat" 2>/dev/null && echo "${st[18]}"
	done | sort -un | tr '\n' ' ' | sed 's/ $//'
}

# ic_host_load_stop - stop the load's processes this process started (an
# EXIT trap): IC_HOST_LOAD_MINE, not those of a script above it.
ic_host_load_stop() {
	local p

	[ "${IC_HOST_LOAD_OWNER:-}" = $$ ] || return 0
	for p in ${IC_HOST_LOAD_MINE:-}; do
		grep -qs 'irqcore-host-load' "/proc/$p/cmdline" && kill -- -"$p" "$p" 2>/dev/null
	done
	ic_info "host load: stopped its ${IC_HOST_LOAD_MINE:+$(echo "$IC_HOST_LOAD_MINE" | wc -w) }processes"
	IC_HOST_LOAD_OWNER='' IC_HOST_LOAD_MINE=''
}

# ic_host_load_start - have IRQCORE_HOST_LOAD=N processes run: those a
# script above this one started and that still run, and as many more as
# are missing (none, usually), started here. The caller's EXIT trap must
# call ic_host_load_stop (ic_host_load_start sets one if the caller has
# none).
ic_host_load_start() {
	local n i p pid ni live='' alive=0 mine=''

	n=$(ic_host_load_n) || exit 1
	[ "$n" != 0 ] || return 0
	# Started by a script above this one, and still running: theirs, and
	# counted. A script that found one of N ended started N more beside
	# the N - 1 left (2N - 1 ran, and it said N): only the missing now.
	for p in ${IRQCORE_HOST_LOAD_PIDS:-}; do
		grep -qs 'irqcore-host-load' "/proc/$p/cmdline" || continue
		live="$live $p"
		alive=$((alive + 1))
	done
	[ "$alive" -lt "$n" ] || return 0
	for i in $(seq $((n - alive))); do
		# A session (an autogroup) each, at nice 0 whatever ours is: a
		# job of another user's, not a child of the suite's. The
		# argument names it, so that stop and alive find only ours;
		# it ends by itself once this script is gone (killed, say,
		# where no EXIT trap runs). Started from a subshell that ends
		# at once, it is not this shell's child: a bare "wait" of the
		# script (for QEMU and its watchers, say) would otherwise wait
		# for it for ever.
		pid=$( (setsid nice -n "$((-$(nice)))" sh -c 'while kill -0 "$1" 2>/dev/null; do :; done' \
			irqcore-host-load $$ </dev/null >/dev/null 2>&1 & echo $!) )
		mine="$mine $pid"
	done
	IC_HOST_LOAD_MINE=${mine# }
	export IRQCORE_HOST_LOAD_PIDS="${live# }${live:+ }$IC_HOST_LOAD_MINE"
	IC_HOST_LOAD_OWNER=$$
	# Each is known by its command line once setsid and nice have
	# exec'd its shell: a fifth of a second on a quiet host, more on a
	# busy one.
	for i in $(seq 25); do
		sleep 0.2
		[ "$(ic_host_load_alive)" != "$n" ] || break
	done
	[ "$(ic_host_load_alive)" = "$n" ] ||
		ic_die "host load: $n processes wanted, $(ic_host_load_alive) run (pids $IRQCORE_HOST_LOAD_PIDS)"
	[ "$alive" = 0 ] ||
		ic_info "host load: $((n - alive)) of its $n processes had ended; started $((n - alive)) (pids $IC_HOST_LOAD_MINE) beside the $alive left (pids ${live# })"
	# The nice they got, not the one asked for: lowering a nice needs
	# CAP_SYS_NICE (root) or an RLIMIT_NICE that allows it, and without
	# either "nice -n -K" only warns and runs the command at the caller's.
	ni=$(ic_host_load_nices)
	if [ "$ni" = 0 ]; then
		ic_info "host load: $n CPU-bound processes (pids $IRQCORE_HOST_LOAD_PIDS), each in an autogroup of its own at nice 0, until this run ends"
	else
		ic_warn "host load: $n CPU-bound processes (pids $IRQCORE_HOST_LOAD_PIDS), each in an autogroup of its own at nice ${ni// /, }, not 0: this shell runs at nice $(nice) and could not raise them (that needs CAP_SYS_NICE, as root has, or an RLIMIT_NICE that allows it), so they take less of the host than another user's job would; until this run ends"
	fi
	[ -n "$(trap -p EXIT)" ] || trap ic_host_load_stop EXIT
}
