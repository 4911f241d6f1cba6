# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Debian's linux-source-6.12, unpacked into the cache, where the debug
# kernel targets build in subfolders of it (tests/kernels/debug-common.sh).
# Sourced, never run.

# ic_kernel_source - sets IC_SRC (the unpacked tree) and IC_SRCVER (the
# package's version), installing and unpacking linux-source-6.12 if needed.
# One process unpacks at a time (ic_lock): the suite's background build and
# its steps may both ask.
ic_kernel_source() {
	local fd
	ic_need_packages linux-source-6.12 xz-utils
	IC_SRCVER=$(dpkg-query -W -f='${Version}' linux-source-6.12)
	IC_SRC=$IC_CACHE/src/linux-source-$IC_SRCVER
	[ -f "$IC_SRC/Makefile" ] && return 0
	ic_lock source
	fd=$IC_LOCK_FD
	if [ ! -f "$IC_SRC/Makefile" ]; then
		ic_info "unpacking linux-source-6.12 $IC_SRCVER into $IC_SRC"
		mkdir -p "$IC_CACHE/src"
		rm -rf "$IC_SRC.tmp" && mkdir "$IC_SRC.tmp"
		tar -xJf /usr/src/linux-source-6.12.tar.xz -C "$IC_SRC.tmp" ||
			ic_die "cannot unpack /usr/src/linux-source-6.12.tar.xz"
		mv "$IC_SRC.tmp/linux-source-6.12" "$IC_SRC" && rmdir "$IC_SRC.tmp"
	fi
	ic_unlock "$fd"
}
