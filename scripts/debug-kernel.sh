#!/bin/sh
# Build the debug guest kernel (KASAN, lockdep, KFENCE, DEBUG_OBJECTS,
# DEBUG_KOBJECT_RELEASE, DEBUG_LIST, UBSAN: tests/vm/debug.config) from
# Debian's linux-source-6.12, tests/vm/debug-patches/ and the kernel series
# patches/linux-6.12/ (so that one build serves make test-debug and make
# patches-check), once, and install it where tests/vm/run boots
# kernels from: $ABIDEP_CACHE/kernel/<kver>/{vmlinuz,lib/modules/<kver>/}.
# Its version is 6.12.N-abidep-debug; KVER=debug names it (scripts/kver.sh).
#
#   scripts/debug-kernel.sh          build if needed; print its version
#   scripts/debug-kernel.sh --kdir   print its build directory (the KDIR
#                                    abidep.ko is built against); exit 1 if
#                                    it is not built
#
# The source tree scripts/linux-source.sh unpacked is shared (KUnit builds
# from it): this builds from a copy of it made of hard links
# ($ABIDEP_CACHE/debug-kernel/src, seconds and no space), where patch(1)
# replaces the files tests/vm/debug-patches/ change, and out of that copy
# (make O=). The build
# directory, $ABIDEP_CACHE/debug-kernel/build, is kept: it is the kernel's
# module build directory (Module.symvers, vmlinux for the modules' BTF).
# A stamp records what made it (this script, debug.config, the source tree,
# gcc and pahole); it is rebuilt only when one of them changes. Cold, on 2
# cores: see README.md (make test-debug).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
cache=${ABIDEP_CACHE:-/var/cache/abidep}
dir=$cache/debug-kernel
out=$dir/build
frag=$repo/tests/vm/debug.config
patches=$repo/tests/vm/debug-patches
# The series, without its cover letter, applied after the debug patches.
series_patches=$(find "$repo/patches/linux-6.12" -name '[0-9][0-9][0-9][0-9]-*.patch' ! -name '0000-*' | sort)
series=6.12

say() { echo "debug-kernel: $*" >&2; }
die() {
	say "$@"
	exit 1
}

if [ "${1:-}" = --kdir ]; then
	if [ ! -f "$dir/kver" ] || [ ! -f "$out/Module.symvers" ]; then
		die "the debug kernel is not built ($out); run scripts/debug-kernel.sh (or make test-debug)"
	fi
	echo "$out"
	exit 0
fi
[ $# -eq 0 ] || die "unknown argument '$1' (usage: scripts/debug-kernel.sh [--kdir])"

for t in gcc make pahole flex bison bc depmod patch; do
	command -v $t >/dev/null || die "$t not found in PATH; run 'make deps'"
done
src=$("$here/linux-source.sh" $series)

# What made the kernel: the build is redone when any of it changes. This
# script counts without its comments.
key=$(
	sed '/^[[:space:]]*#/d' "$0" | sha256sum | sed 's/ .*/ debug-kernel.sh/'
	sha256sum <"$frag" | sed 's/ .*/ debug.config/'
	(cd "$patches" && sha256sum ./*.patch)
	# shellcheck disable=SC2046 # the list
	(cd "$repo" && sha256sum $(echo "$series_patches" | sed "s|^$repo/||"))
	echo "source $src $(stat -c %Y "$src/.abidep-unpacked") $(sed -n 's/^\(VERSION\|PATCHLEVEL\|SUBLEVEL\) = //p' "$src/Makefile" | paste -sd.)"
	gcc --version | head -n 1
	pahole --version
)

mkdir -p "$dir"
# One build at a time; the others wait, then find it done.
exec 9>"$dir.lock"
flock 9
installed() {
	k=$(cat "$dir/kver" 2>/dev/null) || return 1
	[ -f "$cache/kernel/$k/vmlinuz" ] && [ -f "$cache/kernel/$k/lib/modules/$k/modules.dep" ] &&
		[ -f "$out/Module.symvers" ] && [ "$(cat "$dir/stamp" 2>/dev/null)" = "$key" ]
}
if installed; then
	cat "$dir/kver"
	exit 0
fi
rm -f "$dir/stamp" "$dir/kver"

start=$(date +%s)
say "building the debug kernel from $src and $patches in $out (cold: 13 to 24 min on 2 cores; log: $dir/build.log)"
# A build directory left by an older build is built on: kbuild redoes what
# a changed option, source file or compiler touches (cold: see README.md).
mkdir -p "$out"
: >"$dir/build.log"
mk() {
	make -C "$src" O="$out" LOCALVERSION= "$@" >>"$dir/build.log" 2>&1 ||
		die "make $* failed in $out; the end of $dir/build.log:
$(tail -n 30 "$dir/build.log")"
}

# The patched copy, made afresh (under the shared tree's lock: tests/kunit/run
# edits its Kconfig). patch(1) writes a new file, leaving the shared one as
# it was. The tree's Kconfig may source kmod/'s (tests/kunit/run adds it):
# the copy's link points at this checkout's kmod/.
tree=$dir/src
rm -rf "$tree.new"
(
	exec 8>"$src.abidep-lock"
	flock 8
	cp -al "$src" "$tree.new"
)
for p in "$patches"/*.patch $series_patches; do
	patch -d "$tree.new" -p1 -s --no-backup-if-mismatch <"$p" >>"$dir/build.log" 2>&1 ||
		die "$p does not apply to $src; the end of $dir/build.log:
$(tail -n 10 "$dir/build.log")"
done
# A patched file the same as in the previous copy keeps that copy's time:
# kbuild rebuilds by time, and the series patches headers half the kernel
# includes (a new time on each would rebuild it all).
# shellcheck disable=SC2086 # the lists
sed -n 's|^+++ b/\([^	]*\).*|\1|p' "$patches"/*.patch $series_patches | sort -u | while read -r f; do
	if [ -f "$tree/$f" ] && cmp -s "$tree/$f" "$tree.new/$f"; then
		touch -r "$tree/$f" "$tree.new/$f"
	fi
done
rm -rf "$tree"
if grep -q 'abidep/Kconfig' "$tree.new/drivers/misc/Kconfig"; then
	ln -sfn "$repo/kmod" "$tree.new/drivers/misc/abidep"
fi
mv "$tree.new" "$tree"
src=$tree
mk KCONFIG_ALLCONFIG="$frag" allnoconfig
mk olddefconfig

# Every option of debug.config must have survived: Kconfig drops silently
# what lacks a dependency.
missing=$(sed -e '/^#/d' -e '/^[[:space:]]*$/d' "$frag" | while read -r line; do
	grep -qxF "$line" "$out/.config" || echo "$line"
done)
if [ -n "$missing" ]; then
	die "these options of $frag are not in $out/.config (a dependency is missing: add it there):
$missing"
fi
# Its own lines too ("# CONFIG_X is not set").
sed -n 's/^# \(CONFIG_[A-Z0-9_]*\) is not set$/\1/p' "$frag" | while read -r opt; do
	! grep -q "^$opt=" "$out/.config" ||
		die "$opt is set in $out/.config, $frag has it off"
done

mk -j"$(nproc)" all
kver=$(cat "$out/include/config/kernel.release")
case $kver in
*-abidep-debug) ;;
*) die "the kernel built as $kver, not *-abidep-debug; see CONFIG_LOCALVERSION in $frag" ;;
esac

# Installed as the unpacked Debian kernels are (scripts/guest-kernel.sh):
# a whole directory, renamed into place. The modules without their DWARF
# (their BTF stays): the guest reads them over 9p.
mkdir -p "$cache/kernel"
tmp=$(mktemp -d "$cache/kernel/.debug.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mk INSTALL_MOD_PATH="$tmp" INSTALL_MOD_STRIP=1 DEPMOD=/sbin/depmod modules_install
cp "$out/arch/x86/boot/bzImage" "$tmp/vmlinuz"
cp "$out/.config" "$tmp/config-$kver"
[ -f "$tmp/lib/modules/$kver/modules.dep" ] || die "modules_install wrote no modules.dep into $tmp"
chmod 755 "$tmp"
rm -rf "$cache/kernel/$kver"
mv "$tmp" "$cache/kernel/$kver"
trap - EXIT
echo "$kver" >"$dir/kver"
printf '%s\n' "$key" >"$dir/stamp"
say "built and installed $kver in $(($(date +%s) - start)) s"
echo "$kver"
