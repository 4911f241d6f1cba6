# SPDX-License-Identifier: GPL-2.0
#
# tests/lib/console.awk - the guest console's lines as the readers take
# them. Included with -f before a reader of console.log (analyse.awk,
# ktap-extract.awk), never run alone: the one place that knows how a
# console line may be made of several.

# console_parts(RAW, PART): split console line RAW where a kernel line
# (its "[   42.611195] " time stamp) is glued to the end of another, into
# PART[1..n]; returns n (1 for a line of its own). The guest's write and
# the kernel's console interleave: on PREEMPT_RT a printing thread writes
# the kernel's lines late, as in "irqcore-guest: ok load_4: torture
# ' duration=1'[   42.611195] irqcore_torture: result: ...". A stamp at
# the start of RAW is no glue: nothing precedes it.
function console_parts(raw, part,    n) {
	n = 0
	while (match(raw, /.\[ *[0-9]+\.[0-9]+\] /)) {
		part[++n] = substr(raw, 1, RSTART)
		raw = substr(raw, RSTART + 1)
	}
	part[++n] = raw
	return n
}
