# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# debug-6.12-builtin: debug-6.12 (tinyconfig + lockdep) with irqcore built
# in, from make patches' series applied to a copy of linux-source-6.12
# (builtin.config: irqcore and its torture test =y, the benchmarks and the
# edu driver =m). The series is applied patch by patch, and the tree is
# built after the first, the middle and the last patch (as the issue on
# the in-tree form allows: each build is about 40 s here, and the six
# patches' six builds were a tenth of make check's time):
# drivers/misc/irqcore/ at W=1, where no warning is allowed, and after the
# last the whole kernel. Any failure stops the target, naming the patch.
#
# The build starts from a copy of debug-6.12's build folder, not from
# nothing: debug-common.sh builds in a subfolder of the source, so the
# kernel's command lines and dependency files name the source "..", and the
# copy, put in the same place inside the patched copy of the source, is up
# to date for every file the series leaves alone (they are hard links with
# their old times). Only what the series adds or changes is compiled, plus
# the link: a few minutes, where a build from nothing took about fifteen on
# a fresh machine. The kernel is the same as one built from nothing (kbuild
# rebuilds whatever a changed file or option touches; the options the
# series adds are new, and files that test them are recompiled by kbuild's
# per-option dependencies).
#
# The folder is cached under a hash of the fragments, this file, the
# debug build it was copied from and the source version, and the series'
# content: after a change to irqcore's files a new folder starts from the
# base again (irqcore's objects and the link), and the folders of earlier
# series are removed once they are an hour old.
#
# Nothing is loaded at boot: irqcore starts from its device initcall and
# runs its self-tests (irqcore.* on the command line); the torture test
# follows in link order. tests/run packs no module for this target.

IC_TARGET_DESC="debug-6.12 with irqcore built in from make patches' series"
IC_TARGET_BUILTIN=1

. "$IC_TOP/tests/kernels/debug-common.sh"

# ic_copy_source SRC DEST - DEST (new) becomes a copy of the unpacked
# source SRC made of hard links, without SRC's build folders (out-*).
ic_copy_source() {
	local from=$1 to=$2 e
	mkdir -p "$to" || return 1
	for e in "$from"/* "$from"/.[!.]*; do
		[ -e "$e" ] || continue
		case ${e##*/} in out-*) continue ;; esac
		cp -al "$e" "$to/" || return 1
	done
}

# ic_builtin_kernel NAME BASE FRAGMENT... - sets IC_KDIR, IC_KIMAGE and
# IC_KVER. BASE is the debug kernel's build folder the build starts from.
ic_builtin_kernel() {
	local name=$1 base=$2 hash dir src out series sum p k=0 n opt missing=() log frag patches fd
	shift 2

	ic_need_packages linux-source-6.12 flex bison bc libelf-dev libssl-dev xz-utils make gcc git python3
	ic_kernel_source
	hash=$( { cat "$@" "${BASH_SOURCE[0]}"; echo "$IC_SRCVER ${base##*/}"; } | sha256sum | cut -c1-12)

	# One process at a time writes the series and builds (ic_lock): the
	# suite's background build and a step may both ask.
	ic_lock "kernel-$name"
	fd=$IC_LOCK_FD
	# The series as make patches writes it (its checks are tests/make-patches').
	series=$IC_BUILD/patches-$name
	python3 "$IC_TOP/tests/lib/patches.py" --top "$IC_TOP" --src "$IC_SRC" \
		--srcver "$IC_SRCVER" --out "$series" >/dev/null ||
		ic_die "$name: tests/lib/patches.py could not write the series"
	# Its content: the commit ids and dates change with every commit of
	# the repository, the patches themselves only with irqcore's files.
	patches=()
	for p in "$series"/series/0*.patch; do
		case $p in */0000-*) ;; *) patches+=("$p") ;; esac
	done
	n=${#patches[@]}
	[ "$n" -gt 0 ] || ic_die "$name: no patch in $series/series"
	sum=$(grep -hv '^\(From [0-9a-f]\{40\} \|Date: \)' "${patches[@]}" | sha256sum | cut -c1-12)
	# A folder per series: a kernel that a guest of another clone is
	# booting is never rebuilt under it, and no object of an earlier
	# series survives into this one.
	dir=$IC_CACHE/kernels/$name-$hash-$sum
	src=$dir/src
	# A direct subfolder of the source, as the base was (debug-common.sh).
	out=$src/out
	IC_KDIR=$out
	IC_KIMAGE=$out/arch/x86/boot/bzImage
	if [ -f "$dir/.irqcore-built" ]; then
		IC_KVER=$(cat "$out/include/config/kernel.release")
		ic_unlock "$fd"
		return 0
	fi

	# Earlier series' folders (about 400 MB each) go, but for those built
	# in the last hour, which another clone may be about to boot.
	for p in "$IC_CACHE/kernels/$name"-*; do
		[ "$p" = "$dir" ] || [ ! -d "$p" ] && continue
		[ -n "$(find "$p" -maxdepth 1 -name .irqcore-built -mmin -60 2>/dev/null)" ] && continue
		rm -rf "$p"
	done

	ic_info "$name: the series ($sum) applied to a copy of linux-source-6.12 and built patch by patch in $dir"
	rm -rf "$dir"
	# Hard links: unchanged files keep their times, so the kernel around
	# irqcore is not rebuilt; git apply replaces the files it changes.
	ic_copy_source "$IC_SRC" "$src" || ic_die "$name: cannot copy $IC_SRC to $src"
	# A real copy, not links: the build rewrites objects in place, and
	# those of the base must stay as they are.
	ic_info "$name: starting from a copy of ${base##*/}"
	cp -a "$base" "$out" && rm -f "$out/.irqcore-built" ||
		ic_die "$name: cannot copy $base to $out"
	log=$dir/series.log
	: >"$log"
	for p in "${patches[@]}"; do
		k=$((k + 1))
		(cd "$src" && git apply "$p") >>"$log" 2>&1 ||
			ic_die "$name: patch $k/$n does not apply to linux-source-6.12: $(basename "$p") (log: $log)"
		if [ "$k" != 1 ] && [ "$k" != $(((n + 1) / 2)) ] && [ "$k" != "$n" ]; then
			echo "patch $k/$n $(basename "$p"): applies (built with the patches after it)" >>"$log"
			continue
		fi
		# The configuration as it stands after this patch: options of later
		# patches do not exist yet and are dropped.
		{ make -s -C "$src" O="$out" tinyconfig &&
			"$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "$@" &&
			make -s -C "$src" O="$out" olddefconfig; } >"$out/config.log" 2>&1 ||
			ic_die "$name: patch $k/$n: configuration failed; see $out/config.log"
		ic_with_progress "$name: patch $k/$n, make W=1 drivers/misc/irqcore/" "$dir/patch-$k.log" \
			nice -n 19 make -C "$src" O="$out" -j"$(nproc)" W=1 drivers/misc/irqcore/
		if grep -E 'drivers/misc/irqcore/.*(warning|error):' "$dir/patch-$k.log" >&2; then
			ic_die "$name: patch $k/$n builds with warnings at W=1 (above; log: $dir/patch-$k.log)"
		fi
		echo "patch $k/$n $(basename "$p"): applies, drivers/misc/irqcore/ builds at W=1" >>"$log"
	done

	for frag in "$@"; do
		while read -r opt; do
			case $opt in CONFIG_*=*) ;; *) continue ;; esac
			grep -qx "$opt" "$out/.config" || missing+=("${opt%%=*}")
		done <"$frag"
	done
	[ ${#missing[@]} -eq 0 ] ||
		ic_die "$name: Kconfig did not keep: ${missing[*]} (see $out/.config)"
	ic_with_progress "$name kernel build" "$out/build.log" \
		nice -n 19 make -C "$src" O="$out" -j"$(nproc)" bzImage modules
	echo "after patch $n: bzImage and modules build" >>"$log"
	IC_KVER=$(cat "$out/include/config/kernel.release")
	touch "$dir/.irqcore-built"
	ic_unlock "$fd"
}

ic_target_prepare() {
	ic_debug_kernel debug-6.12 "$IC_TOP/tests/kernels/debug-6.12.config"
	ic_builtin_kernel debug-6.12-builtin "$IC_KDIR" "$IC_TOP/tests/kernels/debug-6.12.config" \
		"$IC_TOP/tests/kernels/builtin.config"
}
