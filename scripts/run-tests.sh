#!/bin/sh
# make test: every suite in turn, each closing with "<name>: N passed, N
# failed"; then the sum on one line. A suite that breaks before counting
# counts as one failure. Exit 1 if anything failed.
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
mkdir -p build
total_pass=0 total_fail=0
# The supported kernels (scripts/kernels), the default first.
kernels=$(scripts/kver.sh --all) || exit 1

run_suite() {
	name=$1
	shift
	echo "=== $name${LANE:+ ($KVER)}"
	log="${LANE:-build}/test-$name.log"
	"$@" 2>&1 | tee "$log"
	rc=$(cat "${LANE:-build}/.rc" 2>/dev/null || echo 1)
	line=$(grep -E '^[a-z0-9-]+: [0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
	p=$(echo "$line" | sed -n 's/.*: \([0-9]*\) passed.*/\1/p')
	f=$(echo "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
	p=${p:-0}
	f=${f:-0}
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "$name: exited $rc without a failed test: counted as one failure"
		f=1
	fi
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
}

# Run a command, leaving its exit status in build/.rc (tee hides it).
st() {
	"$@"
	echo $? >"${LANE:-build}/.rc"
}

run_suite build st scripts/build-check.sh
run_suite checkpatch st scripts/checkpatch.sh
run_suite unit st tests/unit/run
run_suite cli st tests/cli/tables.sh
run_suite report st tests/cli/report.sh
run_suite check st tests/cli/check.sh
run_suite scan st tests/cli/scan.sh
run_suite survey st tests/cli/survey.sh
run_suite kernels st tests/cli/kernels.sh
run_suite fuzz st tests/fuzz/run "${FUZZ_SECONDS:-60}"
# KUnit from every supported kernel's source tree; the KASAN and lockdep
# build (and its self-test) from the default kernel's only.
for kver in $kernels; do
	series=$(scripts/kver.sh --series "$kver")
	run_suite "kunit-$series" st tests/kunit/run --series "$series"
done
run_suite kunit-debug st tests/kunit/run-debug
run_suite kunit-debug-selftest st tests/kunit/run-debug --selftest
run_suite pkg st tests/pkg/run $kernels

# The guest suites, once per kernel: a lane each, side by side (a guest is
# one TCG thread, so two lanes keep both cores busy), each lane's suites in
# turn. The lanes' output is shown and counted once both are done.
guest_lane() {
	kver=$1
	export KVER=$kver
	total_pass=0 total_fail=0
	run_suite guest st tests/vm/run --timeout 900 tests/vm/module-tests.sh
	run_suite trace st tests/vm/run --timeout 900 tests/vm/trace-tests.sh
	run_suite brownout st tests/vm/run --timeout 900 tests/vm/brownout-tests.sh
	run_suite survey-guest st tests/vm/run --timeout 900 tests/vm/survey-tests.sh
	run_suite stress st tests/vm/run --timeout 900 tests/vm/stress-tests.sh 40
	run_suite fault st tests/vm/run --timeout 900 tests/vm/fault-tests.sh
	run_suite security st tests/vm/run --timeout 600 tests/vm/security-tests.sh
	echo "$total_pass $total_fail" >"build/lane-$kver.sum"
}
for kver in $kernels; do
	mkdir -p "build/lane-$kver"
	rm -f "build/lane-$kver.sum"
	(LANE=build/lane-$kver guest_lane "$kver" >"build/lane-$kver.log" 2>&1) &
done
wait
for kver in $kernels; do
	echo "=== guest suites on $kver"
	cat "build/lane-$kver.log"
	read -r p f <"build/lane-$kver.sum" 2>/dev/null || { p=0 f=1; echo "lane $kver: no summary: counted as one failure"; }
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
done

rm -f build/.rc
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
