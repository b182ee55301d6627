# shellcheck shell=sh
# tests/boot/lib.sh: what the boot suites' guest halves share (sourced after
# tests/lib.sh, for its check).

# The abidep package, as a distribution installs it; never the trigger's
# update-initramfs (it would rebuild the host's images, in the guest).
boot_install_package() {
	echo update_initramfs=no >/etc/initramfs-tools/update-initramfs.conf
	check "dpkg -i abidep" sh -c "dpkg -i '$1' >/tmp/dpkg.log 2>&1 || { cat /tmp/dpkg.log; exit 1; }"
}

# The checkout's abidep.ko for the guest's kernel, where DKMS would put it,
# on a writable layer over the read-only share of /lib/modules/$kver (in
# DIR, a directory of the guest's own).
boot_install_kmod() {
	kver=$(uname -r)
	mkdir -p "$1/u" "$1/w"
	mount -t overlay -o "lowerdir=/lib/modules/$kver,upperdir=$1/u,workdir=$1/w" \
		overlay "/lib/modules/$kver"
	mkdir -p "/lib/modules/$kver/updates/abidep"
	check "abidep.ko installed for $kver" \
		sh -c "cp '$ABIDEP_REPO/build/kmod/$kver/abidep.ko' '/lib/modules/$kver/updates/abidep/' && depmod -a '$kver'"
}
