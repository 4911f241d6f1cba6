# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# debian-6.1: Debian bookworm's stock kernel, the ABI that linux-headers-amd64
# points at on the day of the run.

IC_TARGET_DESC="Debian bookworm stock 6.1 kernel"

ic_target_prepare() {
	ic_debian_target linux-headers-amd64
}
