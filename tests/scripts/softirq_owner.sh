# SPDX-License-Identifier: GPL-2.0
# A softirq vector belongs to the module that opened it: one that unloads
# with its vector open has it closed by irqcore (a warning names it), and a
# raise after that runs nothing. Before the rule the raise called the freed
# action: an oops. The shell has loaded ic_softirq_owner (step=open, which
# leaves NET_TX open); it is unloaded here and loaded again with
# step=raise, which raises the vector and then takes it itself.
# modules: tests/modules/softirq_owner
# load: regime=nolock
# expect: module ic_softirq_owner unloaded with softirq 1 open; closed
# expect: raise: the vector was closed at its owner.s unload and is ours now
if rmmod ic_softirq_owner && insmod /lib/irqcore/extra/ic_softirq_owner.ko step=raise; then
	echo "scripted: softirq_owner: ok"
else
	echo "scripted: softirq_owner: not ok: the second load failed (dmesg above)"
fi
