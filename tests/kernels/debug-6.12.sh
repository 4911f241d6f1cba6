# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# debug-6.12: a small lockdep kernel built from Debian's linux-source-6.12,
# tinyconfig plus debug-6.12.config (about 4 minutes on 2 cores).

IC_TARGET_DESC="debug kernel from linux-source-6.12 (tinyconfig + lockdep)"

. "$IC_TOP/tests/kernels/debug-common.sh"

ic_target_prepare() {
	ic_debug_kernel debug-6.12 "$IC_TOP/tests/kernels/debug-6.12.config"
}
