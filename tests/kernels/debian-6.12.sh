# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# debian-6.12: Debian's 6.12 kernel for bookworm (linux-image-6.12.*+deb12),
# the ABI that linux-headers-6.12-amd64 points at on the day of the run.

IC_TARGET_DESC="Debian 6.12 kernel for bookworm"

ic_target_prepare() {
	ic_debian_target linux-headers-6.12-amd64
}
