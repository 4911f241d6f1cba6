# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# debug-6.12-kasan: debug-6.12 (lockdep and the atomic-sleep checks) plus
# the memory detectors: generic KASAN (inline), kmemleak, failslab with its
# debugfs and fail-nth, and cheap debug objects. Built from Debian's
# linux-source-6.12 like debug-6.12, cached the same way.

IC_TARGET_DESC="debug-6.12 + KASAN, kmemleak, failslab, debug objects"

. "$IC_TOP/tests/kernels/debug-common.sh"

ic_target_prepare() {
	ic_debug_kernel debug-6.12-kasan "$IC_TOP/tests/kernels/debug-6.12.config" \
		"$IC_TOP/tests/kernels/kasan.config"
}
