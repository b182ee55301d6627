#!/bin/sh
# Tests of the supported-kernel plumbing (Documentation/admin-guide/kernels.rst): the one
# list (scripts/kernels) as scripts/kver.sh reads it, the refusals and what
# they tell the user to run, and the module's build directory per kernel.
# Needs 'make deps' (every kernel's headers installed). Ends with
# "kernels: N passed, N failed".
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

status() {
	"$@" >"$T/out" 2>"$T/err"
	echo $?
}
series=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' scripts/kernels | awk '{print $1}')
first=$(echo "$series" | head -n 1)

section "scripts/kver.sh reads scripts/kernels"
check "the default (the list's first) is Debian 12's own 6.1" same "$first" 6.1
check "--all: one installed kernel per line of the list, in its order" \
	same "$(for k in $(scripts/kver.sh --all); do scripts/kver.sh --series "$k"; done | tr '\n' ' ')" "$(echo $series) "
check "no KVER: the default kernel (the list's first)" \
	same "$(env -u KVER scripts/kver.sh)" "$(scripts/kver.sh "$first")"
for s in $series; do
	k=$(scripts/kver.sh "$s")
	check "$s resolves to an installed kernel of that series ($k)" \
		sh -c "case '$k' in '$s'.*|'$s'-*) test -d '/lib/modules/$k/build' ;; *) false ;; esac"
	check "KVER=$s in the environment resolves the same" same "$(KVER=$s scripts/kver.sh)" "$k"
	check "an exact version is taken as given" same "$(scripts/kver.sh "$k")" "$k"
	check "linux-source.sh $s: the tree of that series" \
		same "$(scripts/linux-source.sh "$s")" "${ABIDEP_CACHE:-/var/cache/abidep}/linux-source-$s"
done
check "6.12.118+deb12-amd64 is of series 6.12, not 6.1" \
	same "$(scripts/kver.sh --series 6.12.118+deb12-amd64)" 6.12
check "6.1.0-57-amd64 is of series 6.1" same "$(scripts/kver.sh --series 6.1.0-57-amd64)" 6.1

section "refusals say what is supported and what to run"
check "an unlisted kernel: exit 1" same "$(status scripts/kver.sh 5.10)" 1
check "... naming the supported ones" \
	grep -qx "kver: kernel '5.10' is not supported; supported: 6.1, 6.12 (scripts/kernels)" "$T/err"
check "6.1x is not 6.1 (a series is matched whole)" same "$(status scripts/kver.sh 6.13)" 1
check "make module KVER=5.10 fails with that message" \
	sh -c "! make module KVER=5.10 >'$T/mk' 2>&1 && grep -q \"kernel '5.10' is not supported\" '$T/mk'"
k=$(scripts/kver.sh "$first")
check "tests/vm/run without the unpacked image: exit 2" \
	same "$(ABIDEP_CACHE=$T/empty status tests/vm/run true)" 2
check "... naming the command that unpacks it" \
	grep -qF "run 'KVER=$k scripts/guest-kernel.sh' (or 'make deps'" "$T/err"

section "each kernel's module in a build directory of its own"
for s in $series; do
	k=$(scripts/kver.sh "$s")
	check "make module KVER=$s builds build/kmod/$k/abidep.ko" \
		sh -c "make module KVER=$s >'$T/mk' 2>&1 && test -f 'build/kmod/$k/abidep.ko' &&
		       modinfo -F vermagic 'build/kmod/$k/abidep.ko' | grep -q '^$k '"
done
check "kmod/ itself holds no build output" \
	sh -c "! ls kmod kmod/examples | grep -E '\\.(o|ko|mod)\$|^Module\\.symvers\$'"

finish kernels
