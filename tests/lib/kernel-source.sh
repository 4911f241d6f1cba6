# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Debian's linux-source-6.12, unpacked into the cache where the debug
# kernel targets unpack it (tests/kernels/debug-common.sh, whose own copy of
# these steps stays there: a change to that file rebuilds every debug
# kernel). Sourced, never run.

# ic_kernel_source - sets IC_SRC (the unpacked tree) and IC_SRCVER (the
# package's version), installing and unpacking linux-source-6.12 if needed.
ic_kernel_source() {
	ic_need_packages linux-source-6.12 xz-utils
	IC_SRCVER=$(dpkg-query -W -f='${Version}' linux-source-6.12)
	IC_SRC=$IC_CACHE/src/linux-source-$IC_SRCVER
	[ -f "$IC_SRC/Makefile" ] && return 0
	ic_info "unpacking linux-source-6.12 $IC_SRCVER into $IC_SRC"
	mkdir -p "$IC_CACHE/src"
	rm -rf "$IC_SRC.tmp" && mkdir "$IC_SRC.tmp"
	tar -xJf /usr/src/linux-source-6.12.tar.xz -C "$IC_SRC.tmp" ||
		ic_die "cannot unpack /usr/src/linux-source-6.12.tar.xz"
	mv "$IC_SRC.tmp/linux-source-6.12" "$IC_SRC" && rmdir "$IC_SRC.tmp"
}
