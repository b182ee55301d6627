#!/bin/sh
# tests/boot/clock.sh: times on each boot's own clock across boots. Two
# boots of $KVER's guest (tests/guest/clock.sh boot N), the usage DBs kept
# between them in a host directory, then abidep check on each here:
#   overlap       boot 1 right; boot 2's clock two hours behind from its
#                 start (an RTC set wrong): once placed, boot 2 begins
#                 before boot 1 ended. The clock, not the tracer, is
#                 wrong: no-data, naming it.
#   overlap-read  the same, a reader in boot 2: blocked, naming it.
#   behind        boot 1 pinned 60 days behind and corrected; boot 2 60
#                 days behind with a reader, never corrected: never ready.
#                 Boot 2 is placed 60 days before boot 1, which the
#                 host's DB saw first: the clock, named (the reader's use
#                 cannot be placed in the window).
# A guest suite (tests/suites): KVER is the lane's kernel. Ends with
# "boot-clock: N passed, N failed".
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo" || exit 2
. tests/lib.sh
A=${ABIDEP:-$repo/build/abidep}
out=$(mktemp -d)
log=$(mktemp)
trap '[ -n "${KEEP:-}" ] || rm -rf "$out" "$log"' EXIT

# $ABIDEP, another abidep (an earlier version's, to see these checks
# fail on it), in the guest too.
for n in 1 2; do
	tests/vm/run --out "$out" --timeout 600 env ${ABIDEP:+ABIDEP=$ABIDEP} \
		tests/guest/clock.sh boot $n 2>&1 | tee -a "$log"
done
_pass=$(grep -c '^ok - ' "$log")
_fail=$(grep -c '^not ok - ' "$log")
for n in 1 2; do
	grep -q "^clock-boot$n: " "$log" || { echo "not ok - boot $n ran its part"; _fail=$((_fail + 1)); }
done

# The tables of the guest half: the cpuidle entry due.
mkdir -p "$out/tables"
sed 's/^Deprecated:\t2020-04$/&\nRemove-after:\t2021-01/' migration-tables/sysfs-cpuidle >"$out/tables/sysfs-cpuidle"
ck() {
	"$A" check -d "$out/$1.db" -t "$out/tables" --entry current_governor_ro --quiet-days 30 >"$out/ck" 2>&1
	echo $?
}

section "judged after both boots"
check "overlap: no-data, exit 12" same "$(ck overlap)" 12
check "... the boots overlap once placed: the wall clock, named" \
	grep -q "no-data): the wall clock was wrong in the quiet window .*(boots [0-9a-f]* and [0-9a-f]* overlap by 1 h [0-9]* min once placed: the later began before the earlier ended)" "$out/ck"
check "overlap-read: blocked by the reader, exit 1" same "$(ck overlap-read)" 1
check "... naming it" grep -q '^  /usr/bin/cat ' "$out/ck"
check "... and the host's clock wrong" grep -q "its wall clock was wrong: boots .* overlap by" "$out/ck"
check "behind: never ready (no-data, exit 12)" same "$(ck behind)" 12
check "... its second boot placed 60 days before the first: the wall clock, named" \
	grep -q "the wall clock was wrong .*(boots [0-9a-f]* and [0-9a-f]* overlap by 60 days once placed" "$out/ck"
echo "boot-clock: $_pass passed, $_fail failed"
[ "$_fail" -eq 0 ]
