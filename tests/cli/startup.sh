#!/bin/sh
# CLI tests of abidep's start-up (tools/lib/dynlib.c): the binary is linked
# with no library only some commands need (librpm, libcurl, libarchive,
# libsystemd: their dependencies made 'tables validate' start five times
# slower), and when one of them is missing, the command that needs it says
# what, where and what to install. A missing library is made by
# bind-mounting an empty file over it in a private mount namespace (as
# root, with unshare(1)); where that cannot be done, those checks are
# skipped, said. Ends with "startup: N passed, N failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
A=${ABIDEP:-$PWD/build/abidep}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

section "setup"
check "abidep is built ($A; make tools)" test -x "$A"

section "linked libraries"
readelf -d "$A" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' >"$T/needed"
check "readelf lists what abidep needs" grep -q '^libc\.so' "$T/needed"
for lib in librpm librpmio libcurl libarchive libsystemd; do
	check "$lib is not linked (loaded by the commands that use it)" \
		sh -c "! grep '^$lib\.so' '$T/needed'"
done
check "tables validate maps none of them" sh -c \
	"LD_DEBUG=libs '$A' tables validate >/dev/null 2>'$T/libs'; \
	 ! grep -E 'calling init: .*/lib(rpm|rpmio|curl|archive|systemd)\.so' '$T/libs'"

# hide SONAME CMD...: run CMD with the library SONAME unloadable; its
# stdout and stderr in $T/out, $T/err; prints the exit status.
hide() {
	_so=$1
	shift
	_file=$(readlink -f "$(ldconfig -p | sed -n "s/^[[:space:]]*$_so (libc6,x86-64) => //p" | head -n 1)")
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare -m sh -c 'mount --bind /dev/null "$1" && shift && exec "$@"' - \
		"$_file" "$@" >"$T/out" 2>"$T/err"
	echo $?
}

section "a missing library, said"
# A root with an rpm database: owners are asked of librpm.
R=$T/root
mkdir -p "$R/var/lib/rpm" "$R/usr/bin"
echo 'not read: librpm is missing' >"$R/var/lib/rpm/rpmdb.sqlite"
printf '#!/bin/sh\ncat /sys/fs/cgroup/memory/x/memory.kmem.limit_in_bytes\n' >"$R/usr/bin/reader"
if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
	skip "no librpm: needs root and unshare -m (id $(id -u))"
	skip "no libcurl: needs root and unshare -m"
else
	check "no librpm: scan of a root with an rpm database goes on, exit 1 (a hit)" \
		test "$(hide librpm.so.9 "$A" scan "$R")" = 1
	check "... the hit without a package" grep -q '^strong  *-  *.*/usr/bin/reader:2' "$T/out"
	check "... said once: the database, the library, the package to install" sh -c \
		"test \"\$(wc -l <'$T/err')\" = 1 &&
		 grep -q \"^abidep: cannot read the rpm database $R/var/lib/rpm/rpmdb.sqlite: reading it needs librpm.so.9, which cannot be loaded (.*): install Debian's librpm9 package\" '$T/err'"
	check "no libcurl: check --prometheus exits 15" \
		test "$(hide libcurl.so.4 "$A" check --prometheus http://127.0.0.1:9/)" = 15
	check "... said: the option, the library, the package to install" \
		grep -q "^abidep: --prometheus needs libcurl.so.4, which cannot be loaded (.*): install Debian's libcurl4 package" "$T/err"
	check "no libcurl: tables validate does not mind (exit 0)" \
		test "$(hide libcurl.so.4 "$A" tables validate)" = 0
fi

finish startup
