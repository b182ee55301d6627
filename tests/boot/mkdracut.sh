#!/bin/sh
# Guest half of tests/boot/dracut.sh (tests/vm/run, no systemd): install the
# abidep package and make the guest kernel's initramfs with dracut, as a
# distribution's kernel install would, from tests/boot/dracut/ (the test's
# module: its reader, its 9p root), first with abidep's switch off, then on
# (TRACE_INITRAMFS=yes in /etc/default/abidep). dracut looks at the
# modules the test needs and abidep's only: every other one is omitted.
# Writes $ABIDEP_OUT/initrd.img (tests/vm/run --out: a host directory).
#
#	tests/vm/run --out DIR tests/boot/mkdracut.sh ABIDEP.deb
set -u
. "$ABIDEP_REPO/tests/lib.sh"
. "$ABIDEP_REPO/tests/boot/lib.sh"
deb=$1
out=$ABIDEP_OUT
kver=$(uname -r)
mods=/usr/lib/dracut/modules.d
conf=$ABIDEP_REPO/tests/boot/dracut

section "the package and its dracut module ($kver)"
boot_install_package "$deb"
check "the dracut module is installed" test -f $mods/90abidep/module-setup.sh
check "its switch is off by default" grep -qx TRACE_INITRAMFS=no /etc/default/abidep
boot_install_kmod /tmp/km
cp -r "$conf/95abidep-vm" $mods/
mkdir -p /usr/local/libexec/abidep-vm
omit=$(for d in $mods/[0-9][0-9]*/; do d=${d%/}; echo "${d##*/[0-9][0-9]}"; done |
	grep -vx 'bash\|base\|udev-rules\|abidep\|abidep-vm' | tr '\n' ' ')

# dracut with the test's configuration only (an empty confdir); lsinitrd
# lists what it made.
mkdracut() {
	mkdir -p /tmp/dracut.conf.d
	dracut --conf "$conf/dracut.conf" --confdir /tmp/dracut.conf.d --omit "$omit" \
		--force "$1" "$kver" >/tmp/dracut.log 2>&1 || { tail -n 20 /tmp/dracut.log; return 1; }
	lsinitrd "$1" >"$1.ls" 2>&1
}
# lsinitrd lists paths last; /lib may be /usr/lib.
in_image() { grep -Eq " (usr/)?$2\$" "$1.ls"; }

section "switch off: abidep's module's check() leaves it out"
check "dracut (TRACE_INITRAMFS=no)" mkdracut /tmp/off.img
check "... the test's module is in it" in_image /tmp/off.img usr/local/libexec/abidep-vm/initramfs-reader
check "... abidep is not" sh -c "! grep -q 'usr/sbin/abidep\$\|abidep-initramfs\|hooks/pre-udev/10-abidep' /tmp/off.img.ls"

section "switch on: its check() puts it in"
sed -i 's/^TRACE_INITRAMFS=no$/TRACE_INITRAMFS=yes/' /etc/default/abidep
check "dracut (TRACE_INITRAMFS=yes)" mkdracut "$out/initrd.img"
for f in usr/sbin/abidep usr/lib/abidep/abidep-initramfs usr/share/abidep/migration-tables/sysfs-class-rc \
	usr/share/abidep/migration-tables/.enumerators etc/abidep-initramfs \
	lib/dracut/hooks/pre-udev/10-abidep-pin.sh lib/dracut/hooks/pre-mount/10-abidep-refresh.sh; do
	check "... $f is in it" in_image "$out/initrd.img" "$f"
done
# Loaded with dlopen() (the host key): the module installs it by name (a
# symbolic link: lsinitrd lists it "NAME -> TARGET").
check "... libsystemd.so.0 is in it" in_image "$out/initrd.img" "lib(64)?/(x86_64-linux-gnu/)?libsystemd\.so\.0( -> .*)?"
finish boot-mkdracut
