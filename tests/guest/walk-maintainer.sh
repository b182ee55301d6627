#!/bin/sh
# The maintainer walkthrough, Documentation/driver-api/walkthrough-new-deprecation.rst,
# run: its blocks of both places, in the guest of one supported kernel ($KVER).
#	tests/vm/run --timeout 900 tests/guest/walk-maintainer.sh
# Needs build/abidep (make tools) and build/kmod/$KVER (make module).
#
# The page's default place (the build machine: the table entry, the driver
# built out of tree) runs here too, not on the host: the guest has the
# host's compiler and kernel headers, and one script keeps the two places
# in order. It takes most of the time (kbuild under TCG).
#
# The machine the page assumes, once its packages are installed, is made
# so here, as the page's skip blocks say:
#   - abidep on PATH: build/abidep, whose default tables are the checkout's
#     migration-tables/; /usr/share/abidep/migration-tables is a link to it.
#   - the abidep-dkms package's /usr/src/abidep-VERSION: 'make install-dkms'
#     (the package is made of the same target).
#   - what DKMS leaves for the running kernel, /var/lib/dkms/abidep/VERSION/
#     KERNEL/ARCH/module/abidep.ko and its Module.symvers (dkms.conf's
#     POST_BUILD keeps it): make module's build/kmod/$KVER, same sources,
#     same kernel headers, so the same CRCs. DKMS itself takes minutes to
#     build abidep.ko under TCG: tests/pkg/guest.sh runs it and checks that
#     it leaves Module.symvers there.
#   - modprobe finding abidep in updates/dkms: the guest's /lib/modules
#     given a writable layer, 'build' and a modules.dep of abidep.ko alone
#     (depmod -a takes a minute and a half under TCG; nothing here
#     modprobes another module).
#   - the driver's source, lamp/abidep_lamp.c, copied from
#     kmod/examples/abidep_lamp.c (the page shows that file).
# Work directory: a fresh one under /tmp. Ends "walk-maintainer: N passed, N failed".
set -u
. "$(dirname "$0")/../lib.sh"
R=$ABIDEP_REPO
PAGE=$R/Documentation/driver-api/walkthrough-new-deprecation.rst
kver=$(uname -r)
arch=$(uname -m)
version=$(sed -n 's/^VERSION := //p' "$R/Makefile")

section "the machine the page assumes"
PATH=$R/build:$PATH
export PATH
check "abidep on PATH" test -x "$R/build/abidep"
mkdir -p /usr/share/abidep
ln -sfn "$R/migration-tables" /usr/share/abidep/migration-tables
check "abidep-dkms's sources in /usr/src/abidep-$version (make install-dkms)" \
	sh -c "make -s -C '$R' install-dkms DESTDIR=/ && test -f /usr/src/abidep-$version/abidep.h"
dkms=/var/lib/dkms/abidep/$version/$kver/$arch
mkdir -p "$dkms/module"
check "DKMS's module and Module.symvers for $kver (from build/kmod/$kver)" \
	cp "$R/build/kmod/$kver/abidep.ko" "$R/build/kmod/$kver/Module.symvers" "$dkms/module/"
mv "$dkms/module/Module.symvers" "$dkms/"
mkdir -p /tmp/km/u /tmp/km/w
mount -t overlay -o "lowerdir=/lib/modules/$kver,upperdir=/tmp/km/u,workdir=/tmp/km/w" \
	overlay "/lib/modules/$kver"
ln -sfn "/usr/src/linux-headers-$kver" "/lib/modules/$kver/build"
mkdir -p "/lib/modules/$kver/updates/dkms"
check "modprobe finds abidep in updates/dkms" \
	sh -c "cp '$dkms/module/abidep.ko' '/lib/modules/$kver/updates/dkms/' &&
	       depmod '$kver' '/lib/modules/$kver/updates/dkms/abidep.ko' &&
	       modprobe -n abidep"
W=$(mktemp -d /tmp/walk-maintainer.XXXXXX)
cd "$W" || exit 1
mkdir lamp
check "the driver's source in lamp/" cp "$R/kmod/examples/abidep_lamp.c" lamp/

section "the page's markers"
check "walkthrough.py lint" python3 "$R/scripts/walkthrough.py" lint "$PAGE"

for place in host guest; do
	section "the page, place $place"
	if s=$(python3 "$R/scripts/walkthrough.py" script "$PAGE" --place $place); then
		eval "$s"
	else
		check "the page's $place blocks extracted" false
	fi
done
cd /
finish walk-maintainer
