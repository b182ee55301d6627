#!/bin/sh
# PID 1 of a guest booted by tests/vm/run --systemd, after switch_root (from
# tests/vm/init, or from an initramfs-tools initramfs whose boot script
# mounts the root as tests/vm/init does: tests/boot/). Prepares the boot and
# then becomes the host's systemd, as PID 1, on the guest's overlay root:
#
#  1. runs CMD with ABIDEP_BOOT=setup (no systemd yet; /proc, /sys, /dev
#     mounted): it installs what the boot should have (packages, units,
#     udev rules). Its output goes to the host's stdout. A non-zero status
#     ends the run there, with that status.
#  2. writes abidep-vm.target (the default target):
#     multi-user.target, then abidep-vm-cmd.service, which runs CMD again
#     with ABIDEP_BOOT=booted, stores its status and powers off cleanly
#     (systemctl poweroff: every unit is stopped as at a real shutdown).
#
# The host's own enabled units (/etc/systemd/system/*.wants: its database
# server, its timers) are not the guest's: they are removed from the
# overlay, leaving the distribution's defaults and what CMD enables.

PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH
bb=/bin/busybox
say() { echo "abidep-guest: $*" >/dev/console; }
off() {
	$bb sync
	$bb poweroff -f
	echo o >/proc/sysrq-trigger
	sleep 10
}

# abidep's units own /run/abidep (RuntimeDirectory=): the shares move out.
vm=/run/abidep-vm
$bb mkdir -p $vm/ctl
$bb mount --move /run/abidep/ctl $vm/ctl || { say "cannot move the control share"; off; }
ctl=$vm/ctl
# shellcheck disable=SC1091
. $ctl/env
# An empty /tmp, as at a real boot: the host's, which systemd-tmpfiles
# would empty (tmp.conf's D /tmp) file by file through the overlay, is not
# the guest's. The repository, if it is under /tmp, is shown again there.
$bb mount -t tmpfs -o mode=1777 tmpfs /tmp
if [ ! -f "$ABIDEP_REPO/tests/vm/systemd-init.sh" ]; then
	$bb mkdir -p $vm/rootfs "$ABIDEP_REPO"
	$bb mount --bind / $vm/rootfs
	$bb mount --bind "$vm/rootfs$ABIDEP_REPO" "$ABIDEP_REPO" ||
		say "warning: cannot make $ABIDEP_REPO visible"
fi
[ -d "$ABIDEP_OUT" ] || $bb mkdir -p "$ABIDEP_OUT"
$bb mount --move /run/abidep/out "$ABIDEP_OUT" || say "warning: cannot move the output share"
# What else is in /run/abidep is a pin's record, from the initramfs.
$bb rmdir /run/abidep/ctl /run/abidep/out
$bb rmdir /run/abidep 2>/dev/null

out=/dev/ttyS1
$bb stty -F "$out" raw -echo -onlcr 2>/dev/null || say "warning: stty on $out failed"
export HOME=/root TERM=dumb LANG=C.UTF-8 KVER ABIDEP_REPO ABIDEP_OUT
for d in /run/lock /root; do $bb mkdir -p $d; done

# Before CMD's setup, which may enable units of its own.
$bb rm -f /etc/systemd/system/*.wants/*
rc=0
cd "$ABIDEP_REPO" || rc=123
if [ "$rc" = 0 ]; then
	ABIDEP_BOOT=setup sh "$ctl/cmd" </dev/null >"$out" 2>&1
	rc=$?
fi
if [ "$rc" != 0 ]; then
	echo "$rc" >"$ctl/status"
	off
fi
cd /

u=/etc/systemd/system
cat >$u/abidep-vm.target <<EOF
[Unit]
Description=abidep test guest: the boot, then the test's command
Requires=multi-user.target
After=multi-user.target
Wants=abidep-vm-cmd.service
AllowIsolate=yes
EOF
# The default target. The host's root is a container's: systemd, finding
# its marker, would take the guest for a container (no kernel command line,
# no API file systems such as /sys/fs/bpf).
$bb rm -f /.dockerenv /run/.containerenv
$bb ln -sfn abidep-vm.target $u/default.target
cat >$u/abidep-vm-cmd.service <<EOF
[Unit]
Description=abidep test guest: the test's command, once booted
After=multi-user.target

[Service]
Type=oneshot
Environment=HOME=/root TERM=dumb LANG=C.UTF-8 KVER=$KVER ABIDEP_REPO=$ABIDEP_REPO ABIDEP_OUT=$ABIDEP_OUT ABIDEP_BOOT=booted
WorkingDirectory=$ABIDEP_REPO
# The status once the serial port has sent everything (as guest-init.sh).
ExecStart=/bin/sh -c 'sh $ctl/cmd </dev/null >$out 2>&1; rc=\$\$?; stty -F $out -onlcr; echo \$\$rc >$ctl/status'
ExecStartPost=/bin/systemctl --no-block poweroff
TimeoutStartSec=infinity
EOF
say "booting systemd: $(ls $u)"
exec /lib/systemd/systemd
