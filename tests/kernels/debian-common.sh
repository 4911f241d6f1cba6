# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Shared part of the stock Debian kernel targets: resolve a headers
# meta-package to the concrete ABI it depends on today, install those headers
# (they are only a build tree), and fetch the matching image with
# 'apt-get download' into the cache. The image package is never installed on
# the host: only its vmlinuz is unpacked, and only QEMU ever boots it.

# The image package's boot/System.map is a stub ("The real System.map is in
# the linux-image-<version>-dbg package", some 900 MB): the symbol map of a
# target, IC_KSYSMAP next to vmlinuz, is made instead from the guest's own
# /proc/kallsyms in a boot with nokaslr, when a script first needs it
# (ic_count_sysmap in tests/lib/count.sh, for the counting plugin's entry
# ranges and the symbols of its profiles).

# ic_debian_target META - sets IC_KVER, IC_KDIR, IC_KIMAGE for META, and
# IC_KSYSMAP (which may not exist yet).
ic_debian_target() {
	local meta=$1 hdr deb dir tmp fd

	ic_need_packages "$meta"
	hdr=$(apt-cache depends "$meta" 2>/dev/null |
		awk '/Depends: linux-headers-/ { print $2; exit }')
	[ -n "$hdr" ] || ic_die "cannot resolve $meta to a linux-headers package (apt-cache depends $meta)"
	IC_KVER=${hdr#linux-headers-}
	ic_need_packages "$hdr"
	IC_KDIR=/usr/src/linux-headers-$IC_KVER
	[ -f "$IC_KDIR/Makefile" ] || ic_die "$hdr is installed but $IC_KDIR has no Makefile"

	dir=$IC_CACHE/images/$IC_KVER
	IC_KIMAGE=$dir/vmlinuz
	IC_KSYSMAP=$dir/System.map
	[ -s "$IC_KIMAGE" ] && return 0
	# One download at a time (the suite's background preparation and a
	# step may both ask); whoever waited finds the image there.
	ic_lock "image-$IC_KVER"
	fd=$IC_LOCK_FD
	if [ -s "$IC_KIMAGE" ]; then
		ic_unlock "$fd"
		return 0
	fi

	ic_apt_update
	tmp=$(mktemp -d "$IC_CACHE/download.XXXXXX")
	ic_info "downloading linux-image-$IC_KVER (apt-get download, not installed)"
	# The -unsigned package carries the same vmlinuz without the signed
	# shim wrapper; bookworm's 6.1 also ships a signed variant as fallback.
	if ! (cd "$tmp" && { apt-get download -q "linux-image-$IC_KVER-unsigned" ||
			apt-get download -q "linux-image-$IC_KVER"; }) >"$tmp/log" 2>&1; then
		cat "$tmp/log" >&2
		rm -rf "$tmp"
		ic_die "apt-get download linux-image-$IC_KVER failed"
	fi
	deb=$(ls "$tmp"/*.deb)
	dpkg-deb -x "$deb" "$tmp/root" || ic_die "cannot unpack $deb"
	mkdir -p "$dir"
	cp "$tmp/root/boot/vmlinuz-$IC_KVER" "$IC_KIMAGE.new" &&
		mv "$IC_KIMAGE.new" "$IC_KIMAGE" ||
		ic_die "$deb has no boot/vmlinuz-$IC_KVER"
	rm -rf "$tmp"
	ic_info "kernel image cached: $IC_KIMAGE"
	ic_unlock "$fd"
}
