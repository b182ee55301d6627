#!/bin/sh
# tests/boot/systemd.sh: a real boot of $KVER's guest with systemd as PID 1,
# the Debian package installed (guest half: systemd-boot.sh). A guest suite
# (tests/suites): KVER is the lane's kernel.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo" || exit 2
version=$(sed -n 's/^VERSION := //p' Makefile)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! debs=$(scripts/build-deb.sh); then
	echo "not ok - the Debian packages build (scripts/build-deb.sh)"
	echo "boot-systemd: 0 passed, 1 failed"
	exit 1
fi
tests/vm/run --systemd --timeout 900 tests/boot/systemd-boot.sh "$debs/abidep_${version}_amd64.deb" 2>&1 | tee "$log"
p=$(grep -c '^ok - ' "$log")
f=$(grep -c '^not ok - ' "$log")
# Both halves must have run (setup's, then the booted system's).
grep -q '^boot-booted: ' "$log" || { echo "not ok - the booted system ran its checks"; f=$((f + 1)); }
# And the fleet walkthrough's (Documentation/admin-guide/walkthrough-fleet.rst).
grep -q '^walk-fleet: ' "$log" || { echo "not ok - the fleet walkthrough ran"; f=$((f + 1)); }
echo "boot-systemd: $p passed, $f failed"
[ "$f" -eq 0 ]
