#!/bin/sh
# Print the kernel version abidep targets: the one linux-headers-amd64 points to
# (e.g. 6.1.0-57-amd64), so nothing hard-codes it. KVER= in the environment wins.
set -eu
if [ -n "${KVER:-}" ]; then
	echo "$KVER"
	exit 0
fi
dep=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 2>/dev/null) || {
	echo "kver: linux-headers-amd64 is not installed; run 'make deps'" >&2
	exit 1
}
echo "$dep" | sed -n 's/.*linux-headers-\([0-9][^ ,]*\).*/\1/p' | head -n 1
