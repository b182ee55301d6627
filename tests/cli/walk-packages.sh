#!/bin/sh
# The walkthrough Documentation/admin-guide/walkthrough-packages.rst, run:
# its console blocks (place host) extracted by scripts/walkthrough.py, each
# command run and its output compared with what the page shows.
#
# The machine the page assumes, set up here:
#   - abidep: the checkout's build/abidep (make tools), first on PATH as
#     "abidep", with its default tables, the checkout's migration-tables/;
#   - no usage DB at /var/lib/abidep/usage.db (nothing traced: the page's
#     check judges the references alone); where there is one, the suite
#     skips, said so;
#   - a temporary working directory holding
#       pool/   eight real Debian 12 packages, copied from the cache of
#               tests/debs/fetch (the versions of its MANIFEST): fancontrol,
#               hdparm, i8kutils, laptop-mode-tools, lvm2, mdadm,
#               open-iscsi, pciutils;
#       image/  a root tree, as debootstrap would leave it with four of
#               them installed: i8kutils, mdadm, open-iscsi, hdparm
#               unpacked (dpkg-deb -x), their dpkg database
#               (var/lib/dpkg/status from their control files,
#               var/lib/dpkg/info/NAME.list from their file lists), and a
#               local script of no package, /usr/local/sbin/fan-boost,
#               reading /proc/i8k;
#   - $COLUMNS unset: text at full width, as the page shows it.
# Without the network or apt's lists (tests/debs/fetch exits 77) the page
# is not run, and that is said. Ends with "walk-packages: N passed, N failed".
set -u
unset COLUMNS
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
R=$PWD
A=${ABIDEP:-$R/build/abidep}
PAGE=$R/Documentation/admin-guide/walkthrough-packages.rst
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

section "setup"
check "abidep is built ($A; make tools)" test -x "$A"
check "the page's markers (walkthrough.py lint)" python3 "$R/scripts/walkthrough.py" lint "$PAGE"
if [ -e /var/lib/abidep/usage.db ]; then
	skip "the page: /var/lib/abidep/usage.db exists here (the page assumes a machine that traced nothing)"
	finish walk-packages
	exit
fi
D=$(tests/debs/fetch)
rc=$?
if [ "$rc" = 77 ]; then
	skip "the page: the Debian 12 packages cannot be fetched here (tests/debs/fetch: exit 77)"
	finish walk-packages
	exit
fi
check "tests/debs/fetch: exit 0 (it said why above if not)" test "$rc" = 0

mkdir -p "$T/bin" "$T/w/pool" "$T/w/image/var/lib/dpkg/info" "$T/w/image/usr/local/sbin"
ln -s "$A" "$T/bin/abidep"
PATH=$T/bin:$PATH
export PATH
# deb NAME: the cached package file of NAME.
deb() {
	f=$(awk -v n="$1" '$1 == n { print $3 }' "$D/MANIFEST")
	[ -n "$f" ] && echo "$D/$f"
}
bad=
for n in fancontrol hdparm i8kutils laptop-mode-tools lvm2 mdadm open-iscsi pciutils; do
	f=$(deb "$n") && cp "$f" "$T/w/pool/" || bad="$bad $n"
done
check "pool/: the eight packages" test -z "$bad"
I=$T/w/image
for n in i8kutils mdadm open-iscsi hdparm; do
	f=$(deb "$n") && dpkg-deb -x "$f" "$I" &&
		{ dpkg-deb -f "$f" && printf 'Status: install ok installed\n\n'; } >>"$I/var/lib/dpkg/status" &&
		dpkg-deb -c "$f" | awk '{ print $6 }' | sed 's|^\./|/|; s|^\.$|/.|; s|\(.\)/$|\1|' \
			>"$I/var/lib/dpkg/info/$n.list" || bad="$bad $n"
done
printf '#!/bin/sh\n# Fan boost for the old Dell laptops\ncat /proc/i8k\n' >"$I/usr/local/sbin/fan-boost"
chmod 755 "$I/usr/local/sbin/fan-boost"
check "image/: four packages installed, with their dpkg database" test -z "$bad"
check "abidep on PATH is the checkout's" test "$(command -v abidep)" = "$T/bin/abidep"

section "the page"
cd "$T/w" || exit 2
script=$(python3 "$R/scripts/walkthrough.py" script "$PAGE" --place host)
check "the page's blocks extracted (walkthrough.py script)" test -n "$script"
eval "$script"
finish walk-packages
