#!/bin/sh
# Unpack the Debian kernel image of $KVER (default: scripts/kver.sh's)
# into $ABIDEP_CACHE/kernel/<kver>/ (vmlinuz, modules, modules.dep) for the QEMU
# guest. The host runs another kernel; this image is never installed or booted
# on the host. Prints nothing when the image is already there.
set -eu

here=$(dirname "$0")
kver=$("$here/kver.sh")
cache=${ABIDEP_CACHE:-/var/cache/abidep}
dest="$cache/kernel/$kver"

[ -f "$dest/vmlinuz" ] && [ -f "$dest/lib/modules/$kver/modules.dep" ] && exit 0

mkdir -p "$cache/kernel"
tmp=$(mktemp -d "$cache/kernel/.unpack.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"	# apt-get download drops to _apt, which must write here
echo "deps: unpacking linux-image-$kver for the guest into $dest"
(cd "$tmp" && apt-get -o DPkg::Lock::Timeout=900 download -qq "linux-image-$kver" >/dev/null)
dpkg-deb -x "$tmp"/linux-image-*.deb "$tmp/root"
depmod -b "$tmp/root" "$kver"
mkdir -p "$tmp/root/boot"
cp "$tmp/root/boot/vmlinuz-$kver" "$tmp/root/vmlinuz"
rm -rf "$dest"
mv "$tmp/root" "$dest"
