#!/bin/bash
# dracut module of the test guest (tests/boot/mkdracut.sh copies it into
# dracut's modules.d): the guest's root, mounted as tests/vm/init mounts it
# (root=abidep9p), and a reader of a deprecated file inside the initramfs,
# as initramfs-conf/ has them for initramfs-tools.

# called by dracut
check() {
	return 0
}

# called by dracut
depends() {
	return 0
}

# called by dracut
installkernel() {
	instmods virtio_pci 9pnet_virtio 9p overlay abidep rc-loopback
}

# called by dracut
install() {
	inst_multiple mount mkdir modprobe
	# A program of its own name, that the report must name.
	inst_binary /bin/cat /usr/local/libexec/abidep-vm/initramfs-reader
	# shellcheck disable=SC2154 # moddir: dracut sets it
	inst_hook cmdline 90 "$moddir/parse-abidep9p.sh"
	inst_hook pre-trigger 50 "$moddir/load-rc.sh"
	inst_hook pre-mount 50 "$moddir/reader.sh"
	inst_hook mount 90 "$moddir/mount-abidep9p.sh"
}
