#!/bin/sh
# PID 1 of the abidep QEMU guest after switch_root (started by the initramfs
# /init, see tests/vm/init). Runs from the repository through the read-only
# host root mount, so editing it needs no initramfs rebuild.
#
# Sets up the guest environment documented in tests/vm/README.md, runs the
# command tests/vm/run wrote to /run/abidep/ctl/cmd (stdin /dev/null, stdout
# and stderr on ttyS1, which the host prints), stores its exit status in
# /run/abidep/ctl/status and powers off. Messages for the host go to the
# console (ttyS0) as "abidep-guest: ..."; tests/vm/run shows the warnings.

PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH

ctl=/run/abidep/ctl # the per-run control share (env, cmd, status)
# shellcheck disable=SC1091
. "$ctl/env"
verbose=${ABIDEP_VERBOSE:-0}

say() { echo "abidep-guest: $*" >/dev/console; }

# Static busybox (the host's /bin/busybox, also in the initramfs) for the
# setup: a dynamically linked tool costs ~0.1 s per exec over 9p under TCG.
bb=/bin/busybox

off() {
	$bb sync
	$bb poweroff -f
	echo o >/proc/sysrq-trigger
	sleep 10
}

mounts=
while read -r _ dir _; do mounts="$mounts $dir "; done </proc/mounts

# mnt TYPE DIR [OPTIONS]: mount unless DIR is already a mount point.
mnt() {
	case $mounts in *" $2 "*) return 0 ;; esac
	[ -d "$2" ] || $bb mkdir -p "$2"
	$bb mount -t "$1" ${3:+-o "$3"} "$1" "$2" || say "warning: cannot mount $1 on $2"
}

mnt proc /proc
mnt sysfs /sys
mnt devtmpfs /dev mode=755
mnt devpts /dev/pts gid=5,mode=620,ptmxmode=666
mnt tmpfs /dev/shm mode=1777
mnt tmpfs /run mode=755
mnt tmpfs /tmp mode=1777
mnt debugfs /sys/kernel/debug
mnt tracefs /sys/kernel/tracing
mnt bpf /sys/fs/bpf mode=700
mnt cgroup2 /sys/fs/cgroup
for l in fd:/proc/self/fd stdin:/proc/self/fd/0 stdout:/proc/self/fd/1 \
	stderr:/proc/self/fd/2 ptmx:pts/ptmx; do
	[ -e "/dev/${l%%:*}" ] || $bb ln -s "${l#*:}" "/dev/${l%%:*}"
done
for d in /run/lock /var/tmp /root; do
	[ -d $d ] || $bb mkdir -p $d
done

# If the repository is below a directory mounted over above (say /tmp), show
# it again from a plain bind mount of the root file system.
if [ ! -f "$ABIDEP_REPO/tests/vm/guest-init.sh" ]; then
	$bb mkdir -p /run/abidep/rootfs "$ABIDEP_REPO"
	$bb mount --bind / /run/abidep/rootfs
	$bb mount --bind "/run/abidep/rootfs$ABIDEP_REPO" "$ABIDEP_REPO" ||
		say "warning: cannot make $ABIDEP_REPO visible"
fi
# The output share, at the same path as on the host.
[ -d "$ABIDEP_OUT" ] || $bb mkdir -p "$ABIDEP_OUT"
$bb mount --move /run/abidep/out "$ABIDEP_OUT" ||
	say "warning: cannot move the output share to $ABIDEP_OUT"

echo abidep-vm >/proc/sys/kernel/hostname
$bb ip link set lo up 2>/dev/null

# ttyS1 carries CMD's output to the host's stdout: no \r insertion, no echo.
out=/dev/ttyS1
$bb stty -F "$out" raw -echo -onlcr 2>/dev/null || say "warning: stty on $out failed"

export HOME=/root TERM=dumb LANG=C.UTF-8 KVER ABIDEP_REPO ABIDEP_OUT
unset ABIDEP_KMODS ABIDEP_9P_CACHE ABIDEP_VERBOSE

[ "$verbose" = 1 ] && say "running command in $ABIDEP_REPO"
rc=0
cd "$ABIDEP_REPO" || { say "cannot cd to $ABIDEP_REPO"; rc=123; }
if [ "$rc" = 0 ]; then
	sh "$ctl/cmd" </dev/null >"$out" 2>&1
	rc=$?
fi
# Wait until the serial port has sent everything (tcsetattr(TCSADRAIN)).
$bb stty -F "$out" -onlcr 2>/dev/null
cd /
echo "$rc" >"$ctl/status"
[ "$verbose" = 1 ] && say "command exited with status $rc"
off
