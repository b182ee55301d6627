#!/bin/sh
# Guest half of tests/boot/initramfs.sh's fault boot: an initramfs made with
# abidep's hook whose tracer cannot be pinned (its tables left out). The
# boot must reach the real root (this runs there), with one line in the
# kernel log saying so, and nothing pinned.
set -u
. "$ABIDEP_REPO/tests/lib.sh"
section "a tracer that cannot be pinned in the initramfs"
msg='abidep: the usage tracer was not pinned in the initramfs'
check "the boot went on to the real root (the guest's overlay, not the initramfs)" same "$(stat -f -c %T /)" overlayfs
check "one line in the kernel log" same "$(dmesg | grep -c "$msg")" 1
dmesg | grep "$msg" | sed 's/^/# /'
check "... naming the tracer's reason and exit status" \
	sh -c "dmesg | grep '$msg' | grep -q '(exit 2: abidep: '"
check "nothing is pinned" test ! -e /sys/fs/bpf/abidep/usage
check "no record of a pin in /run/abidep" test ! -e /run/abidep/pinned-stage
finish boot-fault
