#!/bin/sh
# Guest half of tests/boot/run (tests/vm/run, no systemd): install the
# abidep package, opt in to its initramfs hook (TRACE_INITRAMFS=yes in
# /etc/default/abidep) and make the guest kernel's initramfs with
# initramfs-tools' mkinitramfs, as update-initramfs would, from
# tests/boot/initramfs-conf (the test's modules, its reader, its 9p root).
# Writes $ABIDEP_OUT/initrd.img (tests/vm/run --out: a host directory).
#
#	tests/vm/run --out DIR tests/boot/mkinitrd.sh ABIDEP.deb CONFIG
# CONFIG: the guest kernel's config (mkinitramfs reads /boot/config-$kver).
set -u
. "$ABIDEP_REPO/tests/lib.sh"
. "$ABIDEP_REPO/tests/boot/lib.sh"
deb=$1
out=$ABIDEP_OUT
kver=$(uname -r)
conf=$ABIDEP_REPO/tests/boot/initramfs-conf

section "the package and its initramfs hook ($kver)"
cp "$2" "/boot/config-$kver"
boot_install_package "$deb"
check "the hook is installed" test -x /usr/share/initramfs-tools/hooks/abidep
check "its switch is off by default" grep -qx TRACE_INITRAMFS=no /etc/default/abidep
boot_install_kmod /tmp/km

section "switch off: the hook puts nothing in the initramfs"
mkdir -p /tmp/off
check "the hook, switch off, exits 0 and copies nothing" \
	sh -c "DESTDIR=/tmp/off /usr/share/initramfs-tools/hooks/abidep && test -z \"\$(ls -A /tmp/off)\""

section "switch on"
sed -i 's/^TRACE_INITRAMFS=no$/TRACE_INITRAMFS=yes/' /etc/default/abidep
check "mkinitramfs (TRACE_INITRAMFS=yes)" \
	sh -c "mkinitramfs -d '$conf' -o '$out/initrd.img' '$kver' >/tmp/mk.log 2>&1 || { tail /tmp/mk.log; exit 1; }"
lsinitramfs "$out/initrd.img" >/tmp/ls
check "... abidep, its helper, its tables, its init-top script are in it" \
	sh -c "grep -qx usr/sbin/abidep /tmp/ls && grep -qx usr/share/abidep/migration-tables/sysfs-class-rc /tmp/ls &&
	       grep -qx usr/lib/abidep/abidep-initramfs /tmp/ls &&
	       { grep -qx usr/scripts/init-top/abidep /tmp/ls || grep -qx scripts/init-top/abidep /tmp/ls; }"
check "... and libsystemd, which abidep loads with dlopen() (the host key)" \
	grep -q 'lib/x86_64-linux-gnu/libsystemd\.so\.0$' /tmp/ls
mkdir -p /tmp/x
(cd /tmp/x && unmkinitramfs "$out/initrd.img" . >/dev/null 2>&1)
order=$(find /tmp/x -path '*scripts/init-top/ORDER' | head -n 1)
check "... and init-top runs abidep before udev starts" \
	sh -c "grep -n 'init-top/abidep\\|init-top/udev' '$order' | head -n 1 | grep -q abidep"
finish boot-mkinitrd
