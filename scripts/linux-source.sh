#!/bin/sh
# Unpack Debian's linux-source-6.1 (for checkpatch.pl and KUnit) into
# $ABIDEP_CACHE/linux-source-6.1 once, and print its path.
set -eu
cache=${ABIDEP_CACHE:-/var/cache/abidep}
src="$cache/linux-source-6.1"
tarball=/usr/src/linux-source-6.1.tar.xz
if [ ! -f "$src/Makefile" ]; then
	[ -f "$tarball" ] || {
		echo "linux-source: $tarball is missing; run 'make deps'" >&2
		exit 1
	}
	echo "linux-source: unpacking $tarball into $cache" >&2
	mkdir -p "$cache"
	tar -xaf "$tarball" -C "$cache"
fi
echo "$src"
