#!/bin/sh
# dracut mount hook: the test guest's root, as tests/vm/init mounts it (the
# host's root read-only over 9p, a tmpfs overlay, the guest kernel's
# modules, the per-run shares under /run/abidep), and the guest's init
# (tests/vm/run's: systemd-init.sh with --systemd, guest-init.sh without)
# through dracut's init= (its cmdline.d). Sourced by dracut's init, until
# $NEWROOT is mounted.
abidep_vm_mount() {
	o9p=trans=virtio,version=9p2000.L,msize=262144
	modprobe -a 9pnet_virtio 9p overlay
	mkdir -p /abidep-vm/ctl /abidep-vm/lower /abidep-vm/upper
	mount -t 9p -o "$o9p" abidepctl /abidep-vm/ctl || die "abidep9p: no abidepctl share"
	# shellcheck disable=SC1091
	. /abidep-vm/ctl/env
	mount -t 9p -o "$o9p,cache=$ABIDEP_9P_CACHE,ro" hostroot /abidep-vm/lower ||
		die "abidep9p: no hostroot share"
	mount -t tmpfs -o mode=755 upper /abidep-vm/upper
	mkdir -p /abidep-vm/upper/upper /abidep-vm/upper/work
	mount -t overlay -o lowerdir=/abidep-vm/lower,upperdir=/abidep-vm/upper/upper,workdir=/abidep-vm/upper/work \
		overlay "${NEWROOT:?}" || die "abidep9p: cannot mount the overlay root"
	mkdir -p "$NEWROOT/lib/modules/$KVER"
	mount --bind "/abidep-vm/lower$ABIDEP_KMODS" "$NEWROOT/lib/modules/$KVER"
	# /run moves to the root with its mounts: the shares, and abidep's pins' record.
	mkdir -p /run/abidep/ctl /run/abidep/out
	mount --move /abidep-vm/ctl /run/abidep/ctl
	mount -t 9p -o "$o9p" abidepout /run/abidep/out || die "abidep9p: no abidepout share"
	echo "init=$ABIDEP_REPO/tests/vm/${ABIDEP_INIT:-guest}-init.sh" >/etc/cmdline.d/99-abidep-vm-init.conf
}
ismounted "$NEWROOT" || abidep_vm_mount
:
