#!/bin/sh
# tests/boot/initramfs.sh [initramfs-tools|dracut]: boots of $KVER's guest
# through an initramfs made by initramfs-tools (the default) or dracut with
# abidep's hook switched on (a guest suite: KVER is the lane's kernel).
#  1. tests/boot/mkinitrd.sh (initramfs-tools) or mkdracut.sh makes it, in a
#     guest with the package;
#  2. a boot through it, systemd as PID 1 after switch_root
#     (systemd-boot.sh initramfs): the tracer pinned in the initramfs, kept
#     by the system's units; the report names the initramfs's reader;
#  3. a boot through the same initramfs with the tracer's tables taken out
#     (fault-boot.sh): the boot goes on, one line in the kernel log.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo" || exit 2
. tests/lib.sh
version=$(sed -n 's/^VERSION := //p' Makefile)
kver=$(scripts/kver.sh) || exit 2
tool=${1:-initramfs-tools}
case $tool in
initramfs-tools) suite=boot-initramfs ;;
dracut) suite=boot-dracut ;;
*) echo "usage: tests/boot/initramfs.sh [initramfs-tools|dracut]" >&2; exit 2 ;;
esac
work=$repo/build/boot/$tool-$kver
rm -rf "$work"
mkdir -p "$work/out"
log=$work/log
: >"$log"
fail() { echo "not ok - $1"; echo "$suite: 0 passed, 1 failed"; exit 1; }

debs=$(scripts/build-deb.sh) || fail "the Debian packages build (scripts/build-deb.sh)"
deb=$debs/abidep_${version}_amd64.deb
config=${ABIDEP_CACHE:-/var/cache/abidep}/kernel/$kver/boot/config-$kver
[ -f "$config" ] || fail "the guest kernel's config $config (run 'make deps')"

if [ "$tool" = dracut ]; then
	command -v dracut >/dev/null || fail "dracut (dracut-core) is installed (run 'make deps')"
	tests/vm/run --out "$work/out" --timeout 900 tests/boot/mkdracut.sh "$deb" 2>&1 | tee -a "$log"
else
	tests/vm/run --out "$work/out" --timeout 900 tests/boot/mkinitrd.sh "$deb" "$config" 2>&1 | tee -a "$log"
fi
img=$work/out/initrd.img
if [ -f "$img" ]; then
	tests/vm/run --systemd --initrd "$img" --timeout 600 \
		tests/boot/systemd-boot.sh "$deb" initramfs 2>&1 | tee -a "$log"
	grep -q '^boot-booted: ' "$log" || echo "not ok - the system booted through the initramfs ran its checks" | tee -a "$log"

	# The same initramfs without the tracer's tables: it cannot be pinned.
	x=$work/x
	mkdir -p "$x"
	(cd "$x" && unmkinitramfs "$img" .) >/dev/null 2>&1
	root=$x
	[ -d "$x/main" ] && root=$x/main
	if [ -d "$root/usr/share/abidep/migration-tables" ]; then
		rm -rf "$root/usr/share/abidep/migration-tables"
		(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$work/notables.img"
		tests/vm/run --initrd "$work/notables.img" --timeout 300 tests/boot/fault-boot.sh 2>&1 | tee -a "$log"
		grep -q '^boot-fault: ' "$log" || echo "not ok - the fault boot ran its checks" | tee -a "$log"
	else
		echo "not ok - unmkinitramfs: no tables in $img to take out" | tee -a "$log"
	fi
else
	echo "not ok - the guest made no initramfs with $tool" | tee -a "$log"
fi
p=$(grep -c '^ok - ' "$log")
f=$(grep -c '^not ok - ' "$log")
echo "$suite: $p passed, $f failed"
[ "$f" -eq 0 ]
