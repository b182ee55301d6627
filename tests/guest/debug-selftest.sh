#!/bin/sh
# The debug kernel's checkers are on, and what they report fails a guest run:
# make test-debug runs this before the suites, which would pass on a kernel
# whose checkers were off.
#
#   tests/guest/debug-selftest.sh      (KVER: default debug, scripts/debug-kernel.sh)
#
# A clean run must exit 0 with each checker's sign of life in its kernel log
# (KASAN's and lockdep's banners, KFENCE, kmemleak, lockdep still on at the
# end, debug objects tracked, a kobject's release delayed); then each case
# makes its checker report once through lkdtm (CONFIG_LKDTM,
# tests/vm/debug.config), or kmemleak's through kmemleak-test, and the run
# must exit 125 with that report among tests/vm/run's "kernel report" lines. Ends "debug-selftest: N passed, N failed".
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
KVER=${KVER:-debug}
export KVER
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

ok() { echo "ok - $*"; pass=$((pass + 1)); }
notok() { echo "not ok - $*"; fail=$((fail + 1)); }

# log_has PATTERN WHAT: the clean run's log (console and output) has PATTERN
log_has() {
	if grep -aqE "$1" "$tmp/clean"; then ok "$2"; else notok "$2 (no '$1' in the log)"; fi
}

# -v: the kernel console comes on stderr, with the command's output.
"$repo/tests/vm/run" -v --timeout 600 sh -c '
	modprobe lkdtm && modprobe rc-loopback && modprobe -r rc-loopback &&
	sleep 5 &&
	grep debug_locks: /proc/lockdep_stats &&
	grep -E "^(warnings|objs_allocated)" /sys/kernel/debug/debug_objects/stats' >"$tmp/clean" 2>&1
rc=$?
if [ $rc -eq 0 ]; then ok "a clean run on the debug kernel passes"; else notok "a clean run passes (exit $rc)"; fi
log_has 'Linux version [^ ]*-abidep-debug' "the debug kernel booted"
log_has 'KernelAddressSanitizer initialized' "KASAN is on"
log_has 'Lock dependency validator' "lockdep is on"
log_has 'debug_locks: +1' "... and still on after loading and unloading modules"
log_has 'kfence: initialized' "KFENCE is on"
log_has 'objs_allocated:[1-9]' "debug objects are tracked"
log_has '^warnings +:0' "... with no warning"
log_has 'kobject_release, parent .* \(delayed [0-9]+\)' "kobject releases are delayed"
log_has 'kmemleak: Kernel memory leak detector initialized' "kmemleak is on"
[ $rc -eq 0 ] || tail -n 20 "$tmp/clean" | sed 's/^/# /'

# provoke LABEL COMMAND PATTERN WHAT [KERNEL_ARGS]: COMMAND in a guest fails
# the run with PATTERN among tests/vm/run's kernel reports
provoke() {
	"$repo/tests/vm/run" --timeout 600 ${5:+--append "$5"} sh -c "$2" >"$tmp/out" 2>&1
	rc=$?
	if [ $rc -eq 125 ] && grep -aqE "^vm: kernel report: .*$3" "$tmp/out"; then
		ok "$4 fails the run ($1)"
	else
		notok "$4 fails the run ($1; exit $rc, want 125 and '$3')"
		tail -n 20 "$tmp/out" | sed 's/^/# /'
	fi
}
# case LKDTM_TYPE PATTERN WHAT [KERNEL_ARGS]: provoking LKDTM_TYPE does
case_() {
	provoke "$1" "modprobe lkdtm && echo $1 >/sys/kernel/debug/provoke-crash/DIRECT" "$2" "$3" "${4:-}"
}
# KFENCE off for KASAN's cases: an allocation KFENCE samples is its report.
case_ READ_AFTER_FREE 'BUG: KASAN: slab-use-after-free' "KASAN's use-after-free" kfence.sample_interval=0
case_ SLAB_LINEAR_OVERFLOW 'BUG: KASAN: slab-out-of-bounds' "KASAN's out-of-bounds" kfence.sample_interval=0
case_ KFENCE_READ_AFTER_FREE 'BUG: KFENCE: use-after-free' "KFENCE's use-after-free"
case_ CORRUPT_LIST_ADD 'list_add corruption' "DEBUG_LIST's corruption"
case_ REFCOUNT_DEC_ZERO 'refcount_t: decrement hit 0' "refcount_t's check"
case_ ARRAY_BOUNDS 'UBSAN: array-index-out-of-bounds' "UBSAN's bounds check"

# kmemleak: a scan after kmemleak-test (which leaks on purpose) fails the
# run. Two scans: an object is reported once older than 5 s and unchanged
# since the scan before.
provoke kmemleak-test "modprobe kmemleak-test && sleep 6 && echo scan >/sys/kernel/debug/kmemleak && echo scan >/sys/kernel/debug/kmemleak" \
	'new suspected memory leaks' "kmemleak's leak report"

echo "debug-selftest: $pass passed, $fail failed"
[ $fail -eq 0 ]
