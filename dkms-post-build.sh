#!/bin/sh
# dkms.conf's POST_BUILD, run by DKMS in its build directory once the module
# is built for a kernel: keep the build's Module.symvers, which DKMS deletes
# with that directory, beside the module it keeps for the kernel,
#	/var/lib/dkms/abidep/VERSION/KERNELVER/ARCH/Module.symvers
# (DIR, the argument). A driver using abidep.ko's exports is built out of tree
# with KBUILD_EXTRA_SYMBOLS naming it: modpost then knows the symbols' CRCs
# and writes depends=abidep (Documentation/driver-api/walkthrough-new-deprecation.rst).
#	dkms-post-build.sh DIR
set -eu
[ $# = 1 ] && [ -d "$1" ] || { echo "usage: $0 DIR (the DKMS tree's KERNELVER/ARCH)" >&2; exit 2; }
cp Module.symvers "$1/Module.symvers"
