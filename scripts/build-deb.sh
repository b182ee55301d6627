#!/bin/sh
# Build the Debian packages (abidep, abidep-dkms) from a copy of the tree
# under build/deb/ (never in the checkout, where others' builds run), and
# print the directory they are in. Built again only when a file git knows
# (tracked, or untracked and not ignored) changes: the boot suite
# (tests/boot/run) installs them in every guest it boots.
#
#   scripts/build-deb.sh		prints build/deb/out (abidep_*.deb ...)
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
work=$repo/build/deb
version=$(sed -n 's/^VERSION := //p' Makefile)
mkdir -p "$work"

files() { git ls-files -co --exclude-standard | while read -r f; do [ -f "$f" ] && echo "$f"; done; }
key=$(files | tr '\n' '\0' | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)
(
	flock 9
	if [ "$(cat "$work/key" 2>/dev/null)" = "$key" ] && [ -f "$work/out/abidep_${version}_amd64.deb" ]; then
		exit 0
	fi
	rm -rf "$work/src" "$work/out" "$work/key"
	src=$work/src/abidep-$version
	mkdir -p "$src" "$work/out"
	files | cpio -pdm --quiet "$src"
	if ! (cd "$src" && dpkg-buildpackage -us -uc -b) >"$work/build.log" 2>&1; then
		tail -n 20 "$work/build.log" >&2
		echo "build-deb: dpkg-buildpackage failed (log: $work/build.log)" >&2
		exit 1
	fi
	mv "$work/src"/*.deb "$work/out/"
	echo "$key" >"$work/key"
) 9>"$work/.lock"
echo "$work/out"
