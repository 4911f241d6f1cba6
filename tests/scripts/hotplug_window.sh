# SPDX-License-Identifier: GPL-2.0
# No CPU may come or go between the set-up of the online CPUs' parts and
# the registration of irqcore's hotplug states (load), nor between their
# removal and the last kick (unload): docs/design.md. A loop here takes
# CPU1 offline and online without pause while irqcore is loaded and
# unloaded 20 times with inject=hotplug_window, which sleeps 100 ms inside
# each window. After each load every CPU must have its ic_ksoftirqd thread
# (one that came up inside the window, unlocked, got none); every load and
# unload must succeed. What must have happened: the CPU changed state
# while irqcore was loading or unloading. The loop notes each flip that
# finished while a load or an unload was under way (the name of that
# load or unload is in $tmp/hpw.window meanwhile), and at least 10 of the
# 40 loads and unloads must have had one: flips between them, however
# many, race nothing (issue 29 item 20: the whole loop's flips were
# counted). HPW_SYS and HPW_TMP move /sys and /tmp, for the host's test of
# this count (tests/selftest-runner --host-only).
# load: regime=nolock
# expect: hotplug_window: 20 loads and unloads, .* flips inside
sys=${HPW_SYS:-/sys}
tmp=${HPW_TMP:-/tmp}
rmmod irqcore || { echo "scripted: hotplug_window: not ok: the first unload failed"; exit 0; }
cpu1=$sys/devices/system/cpu/cpu1/online
mkdir -p "$tmp" && rm -f "$tmp/hpw.stop" "$tmp/hpw.flips" "$tmp/hpw.window" "$tmp/hpw.raced"
: >"$tmp/hpw.raced"
(
	n=0
	while [ ! -e "$tmp/hpw.stop" ]; do
		if echo 0 >"$cpu1" && echo 1 >"$cpu1"; then
			n=$((n + 1))
			w=$(cat "$tmp/hpw.window" 2>/dev/null) && [ -n "$w" ] && echo "$w" >>"$tmp/hpw.raced"
		fi
	done
	echo $n >"$tmp/hpw.flips"
) &
bad=''
i=0
while [ $i -lt 20 ]; do
	i=$((i + 1))
	echo "load$i" >"$tmp/hpw.window"
	if ! insmod /lib/irqcore/irqcore.ko selftest=none inject=hotplug_window; then
		rm -f "$tmp/hpw.window"
		bad="$bad load$i"
		continue
	fi
	rm -f "$tmp/hpw.window"
	for c in 0 1; do
		ps | grep -q "\[ic_ksoftirqd/$c\]" || bad="$bad load$i:no-ksoftirqd/$c"
	done
	echo "unload$i" >"$tmp/hpw.window"
	rmmod irqcore || bad="$bad unload$i"
	rm -f "$tmp/hpw.window"
done
touch "$tmp/hpw.stop"
wait
echo 1 >"$cpu1" 2>/dev/null
flips=$(cat "$tmp/hpw.flips")
raced=$(sort -u "$tmp/hpw.raced" | wc -l)
inside=$(wc -l <"$tmp/hpw.raced")
insmod /lib/irqcore/irqcore.ko selftest=none
echo "hotplug_window: $i loads and unloads, CPU1 went offline and online $flips times, $inside flips inside $raced of the $((2 * i)) loads and unloads"
if [ -n "$bad" ]; then
	echo "scripted: hotplug_window: not ok:$bad"
elif [ "$raced" -lt 10 ]; then
	echo "scripted: hotplug_window: not ok: flips inside only $raced of the $((2 * i)) loads and unloads (${flips:-0} in all): the windows were not raced"
else
	echo "scripted: hotplug_window: ok"
fi
