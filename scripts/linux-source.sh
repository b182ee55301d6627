#!/bin/sh
# Unpack Debian's linux-source-<series> (for checkpatch.pl, KUnit and the
# tables' per-kernel facts) into $ABIDEP_CACHE/linux-source-<series> once,
# and print its path.
#
#   scripts/linux-source.sh [SERIES|KVER]    default: the default kernel's (scripts/kver.sh)
set -eu
here=$(dirname "$0")
series=$("$here/kver.sh" --series "${1:-$("$here/kver.sh")}") || exit 1
cache=${ABIDEP_CACHE:-/var/cache/abidep}
src="$cache/linux-source-$series"
tarball=/usr/src/linux-source-$series.tar.xz
# Unpacked into a temporary directory and renamed: a tree that exists is whole
# (a reader that came while tar was still writing would miss files).
if [ ! -f "$src/.abidep-unpacked" ]; then
	[ -f "$tarball" ] || {
		echo "linux-source: $tarball is missing; run 'make deps'" >&2
		exit 1
	}
	mkdir -p "$cache"
	# One unpack at a time (parallel suites may ask at once).
	exec 9>"$cache/.linux-source-$series.lock"
	flock 9
	if [ ! -f "$src/.abidep-unpacked" ]; then
		echo "linux-source: unpacking $tarball into $cache" >&2
		tmp=$(mktemp -d "$cache/.unpack-$series.XXXXXX")
		trap 'rm -rf "$tmp"' EXIT
		tar -xaf "$tarball" -C "$tmp"
		touch "$tmp/linux-source-$series/.abidep-unpacked"
		# Not from under a KUnit run (tests/kunit/run holds this lock).
		exec 8>"$src.abidep-lock"
		flock 8
		rm -rf "$src"
		mv "$tmp/linux-source-$series" "$src"
		rmdir "$tmp"
		trap - EXIT
	fi
fi
echo "$src"
