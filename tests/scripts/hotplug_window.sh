# SPDX-License-Identifier: GPL-2.0
# No CPU may come or go between the set-up of the online CPUs' parts and
# the registration of irqcore's hotplug states (load), nor between their
# removal and the last kick (unload): docs/design.md. A loop here takes
# CPU1 offline and online without pause while irqcore is loaded and
# unloaded 20 times with inject=hotplug_window, which sleeps 100 ms inside
# each window. After each load every CPU must have its ic_ksoftirqd thread
# (one that came up inside the window, unlocked, got none); every load and
# unload must succeed. What must have happened: the CPU changed state
# while irqcore was loading or unloading (counted below).
# load: regime=nolock
rmmod irqcore || { echo "scripted: hotplug_window: not ok: the first unload failed"; exit 0; }
cpu1=/sys/devices/system/cpu/cpu1/online
mkdir -p /tmp && rm -f /tmp/hpw.stop /tmp/hpw.flips
(
	n=0
	while [ ! -e /tmp/hpw.stop ]; do
		echo 0 >$cpu1 && echo 1 >$cpu1 && n=$((n + 1))
	done
	echo $n >/tmp/hpw.flips
) &
bad=''
i=0
while [ $i -lt 20 ]; do
	i=$((i + 1))
	if ! insmod /lib/irqcore/irqcore.ko selftest=none inject=hotplug_window; then
		bad="$bad load$i"
		continue
	fi
	for c in 0 1; do
		ps | grep -q "\[ic_ksoftirqd/$c\]" || bad="$bad load$i:no-ksoftirqd/$c"
	done
	rmmod irqcore || bad="$bad unload$i"
done
touch /tmp/hpw.stop
wait
echo 1 >$cpu1 2>/dev/null
flips=$(cat /tmp/hpw.flips)
insmod /lib/irqcore/irqcore.ko selftest=none
echo "hotplug_window: $i loads and unloads, CPU1 went offline and online $flips times meanwhile"
if [ -n "$bad" ]; then
	echo "scripted: hotplug_window: not ok:$bad"
elif [ "${flips:-0}" -lt 20 ]; then
	echo "scripted: hotplug_window: not ok: CPU1 flipped only ${flips:-0} times: the windows were not raced"
else
	echo "scripted: hotplug_window: ok"
fi
