# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Shared helpers for irqcore's host-side scripts: messages, the cache
# location, and installing missing Debian packages. Sourced, never run.

IC_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
IC_CACHE=${IRQCORE_CACHE:-${HOME:-/root}/.cache/irqcore}
IC_BUILD=${IRQCORE_BUILD:-$IC_TOP/build}
IC_TARGETS="debian-6.1 debian-6.12 debug-6.12 debug-6.12-kasan debug-6.12-kcsan debian-6.1-rt debug-6.12-builtin"

ic_info() { printf 'irqcore: %s\n' "$*"; }
ic_warn() { printf 'irqcore: warning: %s\n' "$*" >&2; }
ic_die() { printf 'irqcore: error: %s\n' "$*" >&2; exit 1; }

# ic_is_installed PKG - true when dpkg has PKG fully installed.
ic_is_installed() {
	[ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" = installed ]
}

# ic_apt_update - run 'apt-get update' once per cache lifetime (a day),
# so that a fresh machine can resolve package names at all.
ic_apt_update() {
	local stamp=$IC_CACHE/apt-updated fd

	mkdir -p "$IC_CACHE"
	if [ -n "$(find "$stamp" -mmin -1440 2>/dev/null)" ]; then
		return 0
	fi
	# Two at once fail (apt's lists lock is not waited for): the suite's
	# background preparation and a step may both get here. A lock of its
	# own, not "apt": ic_need_packages holds that one when it calls this.
	ic_lock apt-update
	fd=$IC_LOCK_FD
	if [ -z "$(find "$stamp" -mmin -1440 2>/dev/null)" ]; then
		ic_info "apt-get update (once a day; stamp in $stamp)"
		apt-get update -q >"$IC_CACHE/apt-update.log" 2>&1 ||
			ic_die "apt-get update failed; see $IC_CACHE/apt-update.log"
		touch "$stamp"
	fi
	ic_unlock "$fd"
}

# ic_lock NAME - open and take the lock NAME under the cache folder; its
# descriptor is left in IC_LOCK_FD, for ic_unlock. The suite builds kernels in
# the background while it boots others (tests/check, tests/prebuild), so a
# kernel build, an unpacking of the source and an apt-get are each done by
# one process at a time: a second one waits here, saying so, and then
# finds the work done. Not in a subshell ($(...)): the descriptor would
# close with it. Sets IC_LOCK_FD.
ic_lock() {
	local fd
	mkdir -p "$IC_CACHE/locks" || ic_die "cannot create $IC_CACHE/locks"
	exec {fd}>"$IC_CACHE/locks/$1.lock" || ic_die "cannot open $IC_CACHE/locks/$1.lock"
	if ! flock -n "$fd"; then
		ic_info "waiting for $1: another process holds it (this suite's background preparation, $IC_BUILD/logs/prebuild.log, or another clone's)"
		ic_prebuild_hurry
		flock "$fd" || ic_die "cannot lock $IC_CACHE/locks/$1.lock"
	fi
	IC_LOCK_FD=$fd
}

# ic_unlock FD - release a lock that ic_lock took.
ic_unlock() {
	[ -n "$1" ] && eval "exec $1>&-"
}

# ic_need_packages PKG... - install whatever of PKG... is missing.
ic_need_packages() {
	local missing=() p fd

	for p in "$@"; do
		ic_is_installed "$p" || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		ic_die "missing Debian packages: ${missing[*]}
  run as root, or install them first:  sudo apt-get install ${missing[*]}"
	fi
	ic_lock apt
	fd=$IC_LOCK_FD
	# Whoever held the lock may have installed them meanwhile.
	missing=()
	for p in "$@"; do
		ic_is_installed "$p" || missing+=("$p")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		ic_apt_update
		ic_info "installing: ${missing[*]}"
		# Without the lock's descriptor: a daemon that a package's
		# script starts would inherit it and hold the lock for good.
		# (No caller holds another lock of ic_lock's here.)
		(
			ic_unlock "$fd"
			DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
				-o DPkg::Lock::Timeout=600 "${missing[@]}" >"$IC_CACHE/apt-install.log" 2>&1
		) || ic_die "apt-get install ${missing[*]} failed; see $IC_CACHE/apt-install.log"
	fi
	ic_unlock "$fd"
}

# ic_compiler_cache - compile through ccache (Debian's package, by its
# compiler names in /usr/lib/ccache, so that kbuild's own compiler checks
# see the real compiler's version), its store under the cache folder. The
# suite builds the same module sources for six kernels after every commit;
# unchanged files come from the store. IRQCORE_CCACHE=0 turns it off.
ic_compiler_cache() {
	[ "${IRQCORE_CCACHE:-1}" = 0 ] && return 0
	ic_need_packages ccache
	case ":$PATH:" in *:/usr/lib/ccache:*) ;; *) export PATH=/usr/lib/ccache:$PATH ;; esac
	export CCACHE_DIR=$IC_CACHE/ccache
	[ -f "$CCACHE_DIR/ccache.conf" ] || {
		mkdir -p "$CCACHE_DIR" && echo "max_size = 4G" >"$CCACHE_DIR/ccache.conf"
	}
}

# ic_need_tool CMD PKG - fail by name when CMD is absent after setup.
ic_need_tool() {
	command -v "$1" >/dev/null 2>&1 ||
		ic_die "'$1' not found: it comes with the Debian package '$2' (apt-get install $2)"
}

# ic_check_target NAME - refuse anything but a known kernel target.
ic_check_target() {
	local t

	for t in $IC_TARGETS; do
		[ "$1" = "$t" ] && return 0
	done
	ic_die "unknown target '$1'; valid targets: $IC_TARGETS"
}

# ic_check_range NAME VALUE MIN MAX - refuse a knob that is not a whole
# number in MIN..MAX, naming the valid range.
ic_check_range() {
	case $2 in '' | *[!0-9]*) ic_die "invalid $1='$2'; valid range: $3..$4" ;; esac
	[ ${#2} -le 9 ] && [ "$2" -ge "$3" ] && [ "$2" -le "$4" ] ||
		ic_die "invalid $1='$2'; valid range: $3..$4"
}

# ic_check_set NAME VALUE VALID... - refuse a list knob (CPUS) that is
# empty, holds a value not in VALID, or holds one twice (a second boot of
# the same N was made and then dropped), naming the value and the valid ones.
ic_check_set() {
	local name=$1 list=$2 v seen=' '

	shift 2
	[ -n "${list// /}" ] || ic_die "invalid $name='$list'; valid: values from $*, each once"
	for v in $list; do
		case " $* " in *" $v "*) ;; *) ic_die "invalid $name='$list': '$v'; valid: values from $*, each once" ;; esac
		case $seen in *" $v "*) ic_die "invalid $name='$list': '$v' twice; valid: values from $*, each once" ;; esac
		seen="$seen$v "
	done
}

# ic_check_budget WHAT SECONDS TOTAL_EST - refuse a per-boot timeout
# (WHAT names the knobs and their product) above tests/run's limit of
# 3600 s, and a run whose estimated total exceeds 2 h unless IRQCORE_LONG=1.
# Called before anything is built or booted.
ic_check_budget() {
	[ "$2" -le 3600 ] ||
		ic_die "the per-boot timeout $2 s = $1 exceeds tests/run's limit of 3600 s; lower the knobs named"
	[ "$3" -le 7200 ] || [ "${IRQCORE_LONG:-0}" = 1 ] ||
		ic_die "estimated $(($3 / 60)) minutes in all, above the 2 h bound; set IRQCORE_LONG=1 to run it anyway, or lower the knobs"
}

# ic_args_case "SCRIPT [ARG...]" NAME ok|refused PATTERN [VAR=VALUE...] - one case of
# a script's --self-test: SCRIPT --check-args with only these knobs set
# must pass, or be refused with PATTERN (extended regex) in its message.
ic_args_case() {
	local script=$1 name=$2 want=$3 pat=$4 out rc

	shift 4
	out=$(env -u TARGET -u CPUS -u BOOTS -u REPS -u LOOPS -u TRIPS -u HOLD_MS -u LOADS \
		-u CPU_MODEL -u IRQCORE_LONG "$@" $script --check-args 2>&1)
	rc=$?
	if [ "$want" = ok ] && [ $rc = 0 ] && grep -Eq -- "$pat" <<<"$out"; then
		echo "ok $name"
	elif [ "$want" = refused ] && [ $rc != 0 ] && grep -Eq -- "$pat" <<<"$out"; then
		echo "ok $name"
	else
		echo "not ok $name: expected $want /$pat/, got exit $rc: $(tail -n 1 <<<"$out")"
		return 1
	fi
}

# ic_with_progress LABEL LOG CMD... - run CMD with output to LOG and print
# a line every 20 s so that a long build or download is visibly alive.
ic_with_progress() {
	local label=$1 log=$2 start next pid rc

	shift 2
	start=$SECONDS
	next=$((start + 20))
	"$@" >"$log" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		if [ $SECONDS -ge $next ]; then
			ic_info "$label: $((SECONDS - start)) s, $(wc -l <"$log") lines of output"
			next=$((next + 20))
		fi
	done
	wait "$pid"
	rc=$?
	if [ $rc -ne 0 ]; then
		tail -n 30 "$log" >&2
		ic_die "$label failed (exit $rc); full log: $log"
	fi
	ic_info "$label: done in $((SECONDS - start)) s"
}

# IRQCORE_HOST_LOAD=N: ic_host_load_start and its kin.
. "$IC_TOP/tests/lib/host-load.sh"
# make check's background builds: ic_prebuild_hurry (ic_lock) and its kin.
. "$IC_TOP/tests/lib/prebuild-job.sh"
# The boots of one make check: ic_boots_record (tests/run), ic_boots_stalls.
. "$IC_TOP/tests/lib/check-boots.sh"
