# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The background preparation of make check (tests/check): the kernels of
# its later steps built by tests/prebuild while the first steps boot,
# at the lowest CPU and I/O priority, and given back a normal priority
# whenever a step has to wait for them.
#
# Sourced by tests/lib/common.sh (ic_lock calls ic_prebuild_hurry);
# ic_prebuild_start, _wait and _stop are tests/check's. IC_PREBUILD_PGID
# is the job's process group (its leader's pid), exported so that the
# steps' scripts, which take its locks, can find it.

# ic_prebuild_start TARGET... - prepare TARGET... in the background
# (log: build/logs/prebuild.log); sets IC_PREBUILD_PGID.
ic_prebuild_start() {
	ic_info "preparing $* in the background (log: $IC_BUILD/logs/prebuild.log)"
	mkdir -p "$IC_BUILD/logs"
	# A process group of its own, so that an interrupted suite stops
	# the builds it started too (they go on where they stopped next time).
	# A session of its own is also a scheduler autogroup of its own
	# (CONFIG_SCHED_AUTOGROUP, on in Debian's kernels), and autogroups
	# share the CPUs equally, whatever nice their tasks have: the
	# group's own nice is set to 19 too, or the builds took half the
	# machine from the guests (a fresh machine's boots beside them,
	# 2026-12-06, ran slow enough to fail timing cases).
	setsid sh -c '[ ! -e /proc/self/autogroup ] || { echo 19 >/proc/self/autogroup; } 2>/dev/null ||
		echo "prebuild: the autogroup nice could not be set: the builds share the CPUs equally with the guests" >&2
		exec nice -n 19 ionice -c 3 "$@"' \
		prebuild "$IC_TOP/tests/prebuild" "$@" \
		>"$IC_BUILD/logs/prebuild.log" 2>&1 &
	# A step that needs a kernel the background job is still building
	# waits for it (ic_lock, ic_prebuild_wait): from then on nothing
	# boots beside the builds, and at nice 19 beside IRQCORE_HOST_LOAD's
	# jobs they hardly ran (a loaded run waited over 30 minutes for the
	# built-in kernel), so the waiter gives them back a normal priority.
	export IC_PREBUILD_PGID=$!
}

# ic_prebuild_alive - is the background job still ours and running?
ic_prebuild_alive() {
	[ -n "${IC_PREBUILD_PGID:-}" ] && grep -qs 'tests/prebuild' "/proc/$IC_PREBUILD_PGID/cmdline"
}

# ic_prebuild_stop - stop the background group, if it is still ours.
ic_prebuild_stop() {
	ic_prebuild_alive && kill -- -"$IC_PREBUILD_PGID" 2>/dev/null
	IC_PREBUILD_PGID=
}

# ic_prebuild_wait TARGET - no build beside TARGET's boot: wait until the
# background job has ended (an hour at most, then stop it: TARGET's step
# prepares what is left itself).
ic_prebuild_wait() {
	local t0=$SECONDS next

	ic_prebuild_alive || return 0
	ic_info "waiting for the background builds to end before $1 boots (log: $IC_BUILD/logs/prebuild.log)"
	# Nothing boots while this step waits: the builds get the CPUs that
	# the step leaves, not what nice 19 leaves them beside a host load
	# (the KASAN and KCSAN steps could wait their whole hour for them).
	ic_prebuild_hurry
	# Bounded: a stuck download must not hold the suite. Stopped, the
	# builds go on in the foreground where they stopped (the step's own
	# preparation), and this boot shares the CPUs with none of them.
	next=$((t0 + 120))
	while ic_prebuild_alive && [ $((SECONDS - t0)) -lt 3600 ]; do
		sleep 5
		if [ $SECONDS -ge $next ]; then
			ic_info "still waiting ($((SECONDS - t0)) s): $(tail -n 1 "$IC_BUILD/logs/prebuild.log")"
			next=$((next + 120))
		fi
	done
	if ic_prebuild_alive; then
		ic_warn "the background builds still run after $((SECONDS - t0)) s: stopped; $1 prepares its kernel itself"
		ic_prebuild_stop
		return 0
	fi
	wait "$IC_PREBUILD_PGID" 2>/dev/null
	ic_info "the background builds ended; $1 waited $((SECONDS - t0)) s"
}

# ic_prebuild_hurry - the suite waits for the background builds (a lock of
# theirs, or ic_prebuild_wait): give them a normal CPU and I/O priority,
# their autogroup's included. Not from inside that group.
ic_prebuild_hurry() {
	local g=${IC_PREBUILD_PGID:-} p ni ag
	[ -n "$g" ] && [ "$(ps -o pgid= -p $$ | tr -d ' ')" != "$g" ] || return 0
	grep -qs 'tests/prebuild' "/proc/$g/cmdline" || return 0
	renice -n 0 -g "$g" >/dev/null 2>&1
	ionice -c 2 -n 4 -P "$g" >/dev/null 2>&1
	for p in $(pgrep -g "$g"); do
		echo 0 >"/proc/$p/autogroup" 2>/dev/null && break
	done
	# What they got, read back: lowering a nice needs CAP_SYS_NICE
	# (root) or an RLIMIT_NICE that allows it, and renice fails quietly
	# here.
	# Every member's nice, not the leader's alone: renice of a process
	# instead of its group leaves the builds below it at 19.
	ni=$(ps -o ni= -p "$(pgrep -d, -g "$g")" 2>/dev/null | tr -d ' ' | sort -un | paste -sd, -)
	ag=$(sed -n 's/.* nice //p' "/proc/$g/autogroup" 2>/dev/null)
	if [ "$ni" = 0 ] && [ "${ag:-0}" = 0 ]; then
		ic_info "the background builds now run at nice 0${ag:+ (their autogroup too)}: this step waits for them"
	else
		ic_warn "the background builds could not be given a normal priority: they run at nice ${ni:-unknown}${ag:+, their autogroup at nice $ag} (lowering a nice needs CAP_SYS_NICE, as root has, or an RLIMIT_NICE that allows it); this step waits for them"
	fi
}
