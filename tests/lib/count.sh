# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers for the scripts that boot a guest under the counting plugin
# (tests/cost): the kernel's symbol map and the plugin's entry ranges.
# Sourced after common.sh and a target's ic_target_prepare, never run.

# The guest's commands of the System.map boot: every symbol of the kernel
# proper (modules' symbols carry a fourth field, "[name]") to the third
# serial port, between two lines the host looks for.
ic_count_sysmap_input='{ echo "=== kallsyms"; awk "NF == 3" /proc/kallsyms; echo "=== end"; } >/dev/ttyS2'

# ic_count_sysmap TARGET - make sure IC_KSYSMAP (the target's System.map,
# as the kernel's addresses stand with nokaslr) exists. A Debian image
# ships only a stub System.map, so the first call for a kernel boots it
# once (about 20 s) and keeps what its /proc/kallsyms says, which is the
# same table: the kernel's own symbols and addresses. A kernel built here
# has its System.map in its build tree. Boots a guest: the caller holds
# the machine's QEMU lock.
ic_count_sysmap() {
	local target=$1 dir label=sysmap-$1 in

	IC_KSYSMAP=${IC_KSYSMAP:-$IC_KDIR/System.map}
	if [ -s "$IC_KSYSMAP" ] && grep -q ' __entry_text_start$' "$IC_KSYSMAP"; then
		return 0
	fi
	ic_info "$target: no System.map yet; booting once (nokaslr) to read /proc/kallsyms"
	dir=$IC_BUILD/logs/$label
	in=$(mktemp)
	echo "$ic_count_sysmap_input" >"$in"
	echo "shell" >"$in.runs"
	"$IC_TOP/tests/run" --target "$target" --cpus 1 --runs "$in.runs" --input "$in" \
		--append nokaslr --label "$label" --timeout 300 >"$IC_BUILD/$label.log" 2>&1
	rm -f "$in" "$in.runs"
	tr -d '\r' <"$dir/trace.log" |
		awk '/^=== kallsyms$/ { on = 1; next } /^=== end$/ { on = 0 } on' |
		sort >"$IC_KSYSMAP.new"
	# Zeros for addresses: kptr_restrict hid them; a map without
	# the entry text: the dump is cut short.
	if ! grep -q '^ffffffff8[0-9a-f]* T __entry_text_start$' "$IC_KSYSMAP.new"; then
		rm -f "$IC_KSYSMAP.new"
		ic_die "$target: the guest's /proc/kallsyms gave no usable map (see $IC_BUILD/$label.log and $dir/trace.log)"
	fi
	mv "$IC_KSYSMAP.new" "$IC_KSYSMAP"
	ic_info "$target: System.map made from /proc/kallsyms: $IC_KSYSMAP ($(wc -l <"$IC_KSYSMAP") symbols)"
}

# ic_count_sym NAME - NAME's address in IC_KSYSMAP, as 0x...; fails if absent.
ic_count_sym() {
	local a

	a=$(awk -v s="$1" '$3 == s { print "0x" $1; exit }' "$IC_KSYSMAP")
	[ -n "$a" ] || ic_die "$IC_KSYSMAP has no symbol '$1'"
	echo "$a"
}

# ic_count_entry_args - the plugin's entry= arguments for the kernel of
# IC_KSYSMAP: the code that runs only when an interrupt or exception
# enters, so that a sample it ran in is dropped. .entry.text holds every
# IDT entry stub (asm_sysvec_*, asm_common_interrupt, asm_exc_*: the first
# code any interrupt or exception runs) and the return to the interrupted
# code; .irqentry.text the handlers that the kernel marks as interrupt
# entries. Each range must be non-empty.
ic_count_entry_args() {
	local s e args='' r

	for r in entry irqentry; do
		s=$(ic_count_sym "__${r}_text_start") || return 1
		e=$(ic_count_sym "__${r}_text_end") || return 1
		[ $((e)) -gt $((s)) ] || ic_die "$IC_KSYSMAP: __${r}_text is empty"
		args=${args:+$args,}entry=$s-$e
	done
	echo "$args"
}
