# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# debug-6.12-kcsan: debug-6.12 (lockdep and the atomic-sleep checks) plus
# KCSAN, the kernel's data-race detector. Debian bookworm's GCC 12 accepts
# -fsanitize=thread with --param tsan-distinguish-volatile=1, which is what
# HAVE_KCSAN_COMPILER asks of GCC. Built from Debian's linux-source-6.12
# like debug-6.12, cached the same way.

IC_TARGET_DESC="debug-6.12 + KCSAN"

. "$IC_TOP/tests/kernels/debug-common.sh"

ic_target_prepare() {
	ic_debug_kernel debug-6.12-kcsan "$IC_TOP/tests/kernels/debug-6.12.config" \
		"$IC_TOP/tests/kernels/kcsan.config"
}
