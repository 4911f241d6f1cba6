# SPDX-License-Identifier: GPL-2.0
# A device line that carries a handler its driver did not request cannot
# be unbound (ic_unbind_line(): -EBUSY). The driver's remove() must say so
# and keep the line noted: a probe while that handler stays fails on the
# line still bound, and once it is gone the next probe unbinds the line
# and binds it anew. Before, remove() ignored the error: the host
# interrupt stayed requested and every later probe failed with -EBUSY,
# for good (devices/unbind.h). For eepro100 (chip 0 on line 44, chip 1 on
# 45) and intel8x0 (line 48); the foreign handler is ic_join_line's.
# modules: tests/modules/join_line
# load: regime=nolock
# runs: netdev hubport,id=n0,hubid=0
# runs: netdev hubport,id=n1,hubid=0
# runs: device i82557b,netdev=n0,addr=4
# runs: device i82557b,netdev=n1,addr=6
# runs: audiodev none,id=snd0
# runs: device AC97,audiodev=snd0,addr=5
# expect: irqcore_eepro100 [0-9a-f:.]+: cannot unbind irqcore line 44: -16
# expect: eepro100: removed: .* unbind=-16
# expect: irqcore_eepro100: irqcore line 44 unbound at last
# expect: irqcore_intel8x0 [0-9a-f:.]+: cannot unbind irqcore line 48: -16
# expect: intel8x0: removed: .* unbind=-16
# expect: irqcore_intel8x0: irqcore line 48 unbound at last
join=/sys/module/ic_join_line/parameters/join
verdict=ok
fail() {
	echo "scripted: devline_unbind_refused: step failed: $*"
	verdict="not ok: $*"
}

# unbind_refused NAME LINE: the scenario for one driver.
unbind_refused() {
	local name=$1 line=$2 drv=/sys/bus/pci/drivers/irqcore_$1 bdfs b n
	insmod /lib/irqcore/irqcore_$name.ko selftest=none || { fail "$name: insmod"; return; }
	bdfs=$(cd $drv && ls -d 0000:*)
	n=$(echo $bdfs | wc -w)
	echo "$line" >$join || { fail "$name: ic_join_line could not join line $line"; return; }
	for b in $bdfs; do echo "$b" >$drv/unbind; done
	grep " $line:" /proc/irqcore/interrupts
	# The foreign handler stays: the line is still bound, no probe binds it.
	for b in $bdfs; do echo "$b" >$drv/bind 2>/dev/null; done
	[ -z "$(ls -d $drv/0000:* 2>/dev/null)" ] ||
		fail "$name: a probe succeeded while line $line was still bound with a foreign handler on it"
	for b in $(ls -d $drv/0000:* 2>/dev/null); do echo "${b##*/}" >$drv/unbind; done
	echo 0 >$join
	# Gone: the next probe unbinds the noted line and every chip binds.
	for b in $bdfs; do echo "$b" >$drv/bind; done
	[ "$(ls -d $drv/0000:* 2>/dev/null | wc -l)" = "$n" ] ||
		fail "$name: after the foreign handler left, $(ls -d $drv/0000:* 2>/dev/null | wc -l) of $n chips bound again"
	grep " $line:" /proc/irqcore/interrupts
	rmmod irqcore_$name || fail "$name: rmmod"
}

unbind_refused eepro100 44
unbind_refused intel8x0 48
echo "scripted: devline_unbind_refused: $verdict"
