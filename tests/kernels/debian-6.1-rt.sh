# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# debian-6.1-rt: Debian bookworm's PREEMPT_RT kernel. The image is fetched
# with 'apt-get download' and unpacked, never installed; its headers are a
# build tree like the stock target's. On RT a spinlock_t sleeps, so this
# target is where a sleeping lock in irqcore's hardirq paths shows up.

IC_TARGET_DESC="Debian bookworm PREEMPT_RT 6.1 kernel"

ic_target_prepare() {
	ic_debian_target linux-headers-rt-amd64
}
