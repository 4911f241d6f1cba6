# SPDX-License-Identifier: GPL-2.0
#
# tests/irqctl/lib.sh - what the guest's irqctl scripts share, sourced by
# each (not run by itself): R, the regime of the irqcore loaded; T, the
# script's scratch folder (set by the script before it sources this); the
# result lines "irqctl-result: ok|not-ok irqctl/NAME_R[: why]"; and run, an
# irqctl command that must exit 0.

R=$(cat /sys/module/irqcore/parameters/regime)
mkdir -p "$T"

ok() { echo "irqctl-result: ok irqctl/$1_$R${2:+: $2}"; }
bad() { echo "irqctl-result: not-ok irqctl/$1_$R${2:+: $2}"; }

# run NAME irqctl-ARGS...: must exit 0.
run() {
	local name=$1 rc
	shift
	irqctl "$@" >"$T/out" 2>"$T/err"
	rc=$?
	cat "$T/out" "$T/err"
	if [ $rc = 0 ]; then
		ok "$name"
	else
		bad "$name" "irqctl $* exited $rc"
	fi
}

# charge_line: irqcore's load line "ctl: a raise costs N ns measured ...;
# charged D us" (or "... not measured ...; charged D us"), the newest one.
# charged: the D of such a line on standard input, or nothing.
# charge_us: the D of charge_line, what the budget charges each raise (100
# if no line: the fallback). The scripts size their requests at the limits
# by it.
charge_line() { dmesg | grep 'irqcore: ctl: a raise' | tail -n 1; }
charged() { sed -n 's/.*; charged \([0-9]*\) us$/\1/p'; }
charge_us() {
	local d
	d=$(charge_line | charged)
	echo "${d:-100}"
}
