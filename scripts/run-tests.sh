#!/bin/sh
# make test: every suite of tests/suites in turn, each closing with "<name>:
# N passed, N failed"; then the sum on one line. A suite that breaks before
# counting counts as one failure; checks a suite skipped (", N skipped" after
# its counts: what this machine cannot run, said) are summed apart. Exit 1
# if anything failed.
#
#   scripts/run-tests.sh [GROUP...]    only these groups of tests/suites
#
# KERNELS (default: every supported kernel) limits the kernels KUnit, pkg
# and the guest suites run on; SUITES (names of tests/suites, default all)
# the suites of those groups that run (make test-debug: some guest suites on
# the debug kernel). FULL=1 (make test-full) runs every suite, and KUnit
# from every kernel's source; without it (make test) the suites that
# tests/suites-full names are left out, and KUnit runs from the default
# kernel's source only.
set -u
groups="$*"
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
mkdir -p build
total_pass=0 total_fail=0 total_skip=0
# The supported kernels (scripts/kernels), the default first.
kernels=${KERNELS:-$(scripts/kver.sh --all)} || exit 1
KERNELS=$kernels

# run_suite NAME BASE COMMAND...: its closing line must be its own,
# "BASE: N passed, N failed" (BASE: NAME without the kernel's suffix).
run_suite() {
	name=$1 base=$2
	shift 2
	echo "=== $name${LANE:+ ($KVER)}"
	log="${LANE:-build}/test-$name.log"
	t0=$(date +%s)
	"$@" </dev/null 2>&1 | tee "$log"
	# Where make test's time goes (a record, not a check: nothing is timed).
	echo "$name${LANE:+ ($KVER)}: $(($(date +%s) - t0)) s"
	rc=$(cat "${LANE:-build}/.rc" 2>/dev/null || echo 1)
	line=$(grep -E "^$base: [0-9]+ passed, [0-9]+ failed" "$log" | tail -n 1)
	p=$(echo "$line" | sed -n 's/.*: \([0-9]*\) passed.*/\1/p')
	f=$(echo "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
	s=$(echo "$line" | sed -n 's/.* failed, \([0-9]*\) skipped.*/\1/p')
	p=${p:-0}
	f=${f:-0}
	if [ -z "$line" ]; then
		echo "$name: no closing line '$base: N passed, N failed' (exit $rc): counted as one failure"
		f=$((f + 1))
	elif [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
		echo "$name: ran no test (exit $rc): counted as one failure"
		f=1
	elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "$name: exited $rc without a failed test: counted as one failure"
		f=1
	fi
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
	total_skip=$((total_skip + ${s:-0}))
}

# Run a command, leaving its exit status in build/.rc (tee hides it).
st() {
	"$@"
	echo $? >"${LANE:-build}/.rc"
}

# The suites of tests/suites in GROUP, a line each: NAME GROUP COMMAND...;
# without FULL=1, not those of tests/suites-full.
full_only=$([ "${FULL:-0}" = 1 ] || sed -e 's/#.*//' tests/suites-full | tr -s ' \t\n' ' ')
suites() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' tests/suites |
		awk -v g="$1" -v only=" ${SUITES:-} " -v skip=" $full_only " \
			'$2 == g && (only ~ /^ *$/ || index(only, " " $1 " ")) && !index(skip, " " $1 " ")'
}

# run_group GROUP [SUFFIX]: each suite of GROUP in turn, named NAME[-SUFFIX],
# its command's $SERIES, $KERNELS and ${FUZZ_SECONDS:-60} expanded.
run_group() {
	list="${LANE:-build}/.group"
	suffix=${2:-}
	suites "$1" >"$list"
	while read -r name _ cmd; do
		eval "set -- $cmd"	# (the group and suffix are read before)
		run_suite "$name${suffix:+-$suffix}" "$name" st "$@"
	done <"$list"
}
wanted() { [ -z "$groups" ] || named "$1"; }
named() { echo " $groups " | grep -q " $1 "; }

for n in ${SUITES:-}; do
	sed 's/#.*//' tests/suites | awk '{print $1}' | grep -qx "$n" ||
		{ echo "run-tests: SUITES names '$n', which is not in tests/suites" >&2; exit 2; }
done
for g in $groups; do
	suites "$g" | grep -q . || { echo "run-tests: no group '$g' in tests/suites${SUITES:+ with a suite of SUITES ($SUITES)}${full_only:+ outside tests/suites-full (FULL=1 runs those)}" >&2; exit 2; }
done

for g in build unit cli fuzz; do
	wanted $g && run_group $g
done
# KUnit from every supported kernel's source tree; the KASAN and lockdep
# build (and its self-test) from the default kernel's only.
if wanted kunit; then
	kunit_kernels=$kernels
	[ "${FULL:-0}" = 1 ] || kunit_kernels=$(set -- $kernels; echo "$1")
	for kver in $kunit_kernels; do
		SERIES=$(scripts/kver.sh --series "$kver")
		run_group kunit "$SERIES"
	done
fi
for g in kunit-debug pkg vm; do
	wanted $g && run_group $g
done
# On the debug kernel ($KVER), so only when named (make test-debug,
# make patches-check).
named debug && run_group debug

# The guest suites, once per kernel: a lane each, side by side (a guest is
# one TCG thread, so two lanes keep both cores busy), each lane's suites in
# turn. The lanes' output is shown and counted once all are done.
guest_lane() {
	export KVER=$1
	total_pass=0 total_fail=0
	run_group guest
	echo "$total_pass $total_fail" >"$LANE.sum"
}
if wanted guest; then
	for kver in $kernels; do
		mkdir -p "build/lane-$kver"
		rm -f "build/lane-$kver.sum"
		(LANE=build/lane-$kver guest_lane "$kver" >"build/lane-$kver.log" 2>&1) &
	done
	wait
	for kver in $kernels; do
		echo "=== guest suites on $kver"
		cat "build/lane-$kver.log"
		read -r p f <"build/lane-$kver.sum" 2>/dev/null ||
			{ p=0 f=1; echo "lane $kver: no summary: counted as one failure"; }
		total_pass=$((total_pass + p))
		total_fail=$((total_fail + f))
	done
fi

rm -f build/.rc build/.group
skipped=
[ "$total_skip" -eq 0 ] || skipped=", $total_skip skipped (their suites say why)"
echo "$total_pass passed, $total_fail failed$skipped"
[ "$total_fail" -eq 0 ]
