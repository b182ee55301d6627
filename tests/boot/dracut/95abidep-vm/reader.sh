#!/bin/sh
# dracut pre-mount hook (after abidep's, 10-abidep-refresh.sh): the test's
# reader, in the initramfs: rc0's current_protocol (abidep.ko's alias, made
# by its rescan: no abidep udev rule in this initramfs).
[ -e /sys/kernel/abidep/rescan ] && echo 1 >/sys/kernel/abidep/rescan
/usr/local/libexec/abidep-vm/initramfs-reader /sys/class/rc/rc0/current_protocol >/dev/null ||
	echo "<4>abidep-vm: the initramfs reader could not read rc0/current_protocol" >/dev/kmsg
:
