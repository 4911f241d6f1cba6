# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Shared part of the kernel targets built from Debian's linux-source-6.12:
# tinyconfig plus config fragments. The build tree is cached under a hash of
# the fragments, this file and the source version, so only a change to one
# of those rebuilds it.
#
# Each build folder is a direct subfolder of the unpacked source
# (out-NAME-HASH): kbuild then names the source "..", not by its absolute
# path, in every command line and dependency file, so a copy of the
# folder beside another copy of the source is up to date there. The
# built-in target (debug-6.12-builtin.sh) starts from such a copy of
# debug-6.12 instead of building the whole kernel again.

. "$IC_TOP/tests/lib/kernel-source.sh"

ic_debug_build_packages="linux-source-6.12 flex bison bc libelf-dev libssl-dev xz-utils make gcc"

# ic_debug_kernel NAME FRAGMENT... - sets IC_KDIR, IC_KIMAGE and IC_KVER for
# a kernel built as tinyconfig + FRAGMENTs (in order), building it if needed.
# One process builds a kernel at a time (ic_lock): tests/check builds the
# later steps' kernels in the background while it boots the first ones.
ic_debug_kernel() {
	local name=$1 hash src out opt want frag missing=() fd
	shift

	# shellcheck disable=SC2086
	ic_need_packages $ic_debug_build_packages
	ic_kernel_source
	hash=$( { cat "$@" "${BASH_SOURCE[0]}"; echo "$IC_SRCVER"; } | sha256sum | cut -c1-12)
	src=$IC_SRC
	out=$src/out-$name-$hash
	IC_KDIR=$out
	IC_KIMAGE=$out/arch/x86/boot/bzImage

	if [ -f "$out/.irqcore-built" ]; then
		IC_KVER=$(cat "$out/include/config/kernel.release")
		return 0
	fi
	ic_lock "kernel-$name"
	fd=$IC_LOCK_FD
	if [ -f "$out/.irqcore-built" ]; then
		IC_KVER=$(cat "$out/include/config/kernel.release")
		ic_unlock "$fd"
		return 0
	fi

	ic_info "building $name ($hash) in $out; progress every 20 s"
	# A build that was stopped (a suite interrupted) goes on where it
	# stopped: kbuild deletes a target whose command failed, and remakes
	# what a changed command or option touches.
	mkdir -p "$out" || ic_die "cannot create $out"
	make -s -C "$src" O="$out" tinyconfig >"$out/config.log" 2>&1 ||
		ic_die "make tinyconfig failed; see $out/config.log"
	"$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "$@" \
		>>"$out/config.log" 2>&1 || ic_die "merge_config failed; see $out/config.log"
	make -s -C "$src" O="$out" olddefconfig >>"$out/config.log" 2>&1 ||
		ic_die "make olddefconfig failed; see $out/config.log"

	# A fragment line that Kconfig silently dropped (a missing dependency)
	# would build a kernel that checks less than its fragment promises.
	for frag in "$@"; do
		while read -r opt; do
			case $opt in CONFIG_*=*) ;; *) continue ;; esac
			want=${opt%%=*}
			grep -qx "$opt" "$out/.config" || missing+=("$want")
		done <"$frag"
	done
	[ ${#missing[@]} -eq 0 ] ||
		ic_die "$name: Kconfig did not keep: ${missing[*]} (see $out/.config)"

	ic_with_progress "$name kernel build" "$out/build.log" \
		make -C "$src" O="$out" -j"$(nproc)" bzImage modules
	IC_KVER=$(cat "$out/include/config/kernel.release")
	touch "$out/.irqcore-built"
	ic_unlock "$fd"
}
