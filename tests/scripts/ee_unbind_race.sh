# SPDX-License-Identifier: GPL-2.0
# The NIC driver against sysfs unbinds that race it (issue 29 item 11).
# First, one chip is unbound while the load's cases run on both: the
# unbind must wait for them (ee_hold(): the device lock and a reference),
# so the cases end in SUCCESS before the chip's removal. Before, the
# removal freed the chip under the cases. Then, with flood=1, one chip is
# unbound while the other is bound, 150 times, the roles swapping each
# round: a probe that finds both chips starts the background traffic, and
# must never start it on the chip being removed (ee_leave()). Before, a
# probe between the removal's stop of the traffic and its leaving
# ee_devs[] started it on a chip whose rings devres then freed: a
# use-after-free that KASAN reports (run it on debug-6.12-kasan:
# TARGET=debug-6.12-kasan tests/scripted ee_unbind_race).
# load: regime=nolock
# runs: cmdline acpi=noirq
# runs: netdev hubport,id=n0,hubid=0
# runs: netdev hubport,id=n1,hubid=0
# runs: device i82557b,netdev=n0,addr=4
# runs: device i82557b,netdev=n1,addr=6
# timeout: 1200
# expect: irqcore_eepro100: End of test: SUCCESS: cases=4 failed=0
# expect: ee_unbind_race: unbound during the cases, removed after them
# expect: ee_unbind_race: 150 rounds
drv=/sys/bus/pci/drivers/irqcore_eepro100
mod=/lib/irqcore/irqcore_eepro100.ko
verdict=ok
fail() {
	echo "scripted: ee_unbind_race: step failed: $*"
	verdict="not ok: $*"
}

dmesg -c >/dev/null
insmod $mod flood=1 &
pid=$!
# The cases have begun once the KTAP header is out; the first (frames)
# takes about a second.
i=0
while ! dmesg | grep -q 'KTAP version'; do
	i=$((i + 1))
	[ $i -lt 600 ] || break
	sleep 0.1
done
sleep 0.3
echo 0000:00:06.0 >$drv/unbind
wait $pid || fail "insmod failed"
log=$(dmesg | grep -n 'End of test\|eepro100: removed' | tr '\n' ' ')
echo "ee_unbind_race: order: $log"
case $log in
*'End of test: SUCCESS'*'eepro100: removed'*)
	echo "ee_unbind_race: unbound during the cases, removed after them" ;;
*) fail "the unbind did not wait for the cases, or they failed: $log" ;;
esac

# A bound, B not; each round unbinds the bound one while binding the other.
a=0000:00:04.0
b=0000:00:06.0
rounds=0
while [ $rounds -lt 150 ]; do
	echo $a >$drv/unbind &
	echo $b >$drv/bind &
	wait
	[ -e $drv/$b ] && [ ! -e $drv/$a ] || { fail "round $rounds: $b not bound or $a still bound"; break; }
	t=$a a=$b b=$t
	rounds=$((rounds + 1))
done
echo "ee_unbind_race: $rounds rounds"
# Both bound: the traffic again, then the driver's unload meets it.
echo $b >$drv/bind
sleep 1
rmmod irqcore_eepro100 || fail "rmmod"
echo "scripted: ee_unbind_race: $verdict"
