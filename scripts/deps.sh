#!/bin/sh
# Install every Debian package abidep needs to build, test and demo, with the
# headers and source of every supported kernel (scripts/kernels), and unpack
# each kernel's image for the QEMU guest. Idempotent: a second run with
# everything present takes about a second.
set -eu
here=$(dirname "$0")
# Another apt (unattended-upgrades, a second make deps) may hold dpkg's lock:
# wait for it rather than fail.
apt_get() { apt-get -o DPkg::Lock::Timeout=900 "$@"; }

# The supported kernels' packages: the newest headers apt offers for each
# (the 6.12 headers pull in their image package: installed, never booted).
kpkgs=$("$here/kver.sh" --packages 2>/dev/null) || {
	[ "$(id -u)" = 0 ] && apt_get update -qq && kpkgs=$("$here/kver.sh" --packages)
} || exit 1

PKGS="$kpkgs make gcc libc6-dev kmod cpio xz-utils zstd
      qemu-system-x86 busybox-static clang llvm lld libclang-rt-14-dev bpftool libbpf-dev
      libelf-dev zlib1g-dev
      libsqlite3-dev libsystemd-dev libarchive-dev nettle-dev libcurl4-openssl-dev libjansson-dev sqlite3 bpftrace python3 bc flex bison libssl-dev perl
      dpkg-dev debhelper dh-dkms dkms lintian python3-docutils python3-sphinx man-db strace
      python3-prometheus-client prometheus prometheus-node-exporter librpm-dev rpm chromium systemd udev
      initramfs-tools dracut-core"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done

if [ -n "$missing" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "deps: missing Debian packages:$missing" >&2
		echo "deps: run 'sudo make deps' (or apt-get install them) and try again" >&2
		exit 1
	fi
	echo "deps: installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt_get update -qq
	# shellcheck disable=SC2086
	apt_get install -y -qq --no-install-recommends $missing >/dev/null
	# The tests start their own Prometheus and node_exporter on loopback
	# ports. The services these packages start, listening on every
	# interface, are stopped and disabled when make deps installed them.
	for svc in prometheus prometheus-node-exporter; do
		case " $missing " in
		*" $svc "*)
			if command -v systemctl >/dev/null && [ -d /run/systemd/system ]; then
				systemctl disable --now "$svc.service" >/dev/null 2>&1 || true
				echo "deps: $svc installed for the tests; its service stopped and disabled"
			fi ;;
		esac
	done
fi

for kver in $("$here/kver.sh" --all); do
	KVER=$kver "$here/guest-kernel.sh"
done
