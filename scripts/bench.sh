#!/bin/sh
# make bench: every speed figure the documentation quotes, each side by side
# with the floor or the tools it replaces, every side's work checked.
#
#   tables  abidep tables vs the kernel's get_abi.pl, on each supported
#           kernel's Documentation/ABI          (scripts/bench-tables.sh)
#   tracer  sysfs loops under no tracer, the floor (empty programs on
#           abidep's attach points), abidep, the previous release's abidep
#           and two bpftrace programs, and loops on unwatched cgroup v2,
#           /proc/sys and /proc/<pid> files under all but the bpftrace
#           ones, in a QEMU guest of each supported
#           kernel: in guest instructions (-icount), in wall time, and (no
#           tracer, the floor, abidep) with two readers on two vCPUs
#                                                        (tests/bench/guest.sh)
#   start-up  abidep trace --pin against the floor's load-and-attach, exec
#           to exit, in instructions and wall time  (tests/bench/startup.sh)
#   sync    abidep trace --sync of 1,000, 10,000 and 100,000 keys (distinct
#           users in the guest), and the DB's growth, in a guest of each
#           kernel: in instructions and wall time     (tests/bench/sync.sh)
#   alias   reading through the module's aliases vs the new attributes,
#           in instructions and wall time, on each kernel; and through the
#           in-tree alias of the series patches/linux-6.12/ (cpuidle's
#           current_governor_ro vs current_governor), in instructions, on
#           the one kernel that carries it, the debug kernel (KASAN, lockdep:
#           scripts/debug-kernel.sh builds it, cold 13 to 24 min, if make
#           patches-check or make test-debug has not)   (tests/bench/alias.sh)
#   scan    abidep scan vs grep over the same names, on /usr/lib
#                                                     (scripts/bench-scan.sh)
#   packages  abidep scan --packages vs dpkg-deb -R + grep, on the real
#           Debian packages of tests/debs (and its cached second run)
#                                                 (scripts/bench-packages.sh)
#   prometheus  abidep check --prometheus vs check --db, on 1,000 hosts'
#           metrics over 90 days backfilled into Prometheus, and the same
#           hosts' DBs merged; Prometheus's memory, the TSDB's size
#                                               (scripts/bench-prometheus.sh)
#
# Each part writes raw lines under build/bench/raw/; tests/bench/results.py
# judges them and writes build/bench/results.json and build/bench/results.rst
# (the table; printed at the end). make bench exits 1 and says FAILED when a
# side produced no figure or counted wrong (a missed target is not a
# failure: the table says MISSED). Only a run that measured every supported
# kernel and did not fail refreshes Documentation/admin-guide/bench-results.inc,
# the committed copy of the table the documentation includes.
#
# Knobs: BENCH_KERNELS (series, default every supported kernel),
# BENCH_ROUNDS (6) and BENCH_ITERS (2000) for the tracer, STARTUP_ROUNDS (8)
# for its start-up, ALIAS_ROUNDS (8) and
# ALIAS_ITERS (2000),
# BENCH_RUNS (15) for the tables, BENCH_SCAN_RUNS (5), BENCH_SCAN_DIR (/usr/lib),
# BENCH_PKG_RUNS (5), BENCH_PROM_HOSTS (1000), BENCH_PROM_DAYS (90),
# BENCH_PROM_RUNS (5).
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
RAW=build/bench/raw
ROUNDS=${BENCH_ROUNDS:-6}
ITERS=${BENCH_ITERS:-2000}
SROUNDS=${STARTUP_ROUNDS:-8}
all=$(scripts/kver.sh --all | xargs -n 1 scripts/kver.sh --series | tr '\n' ' ')
KERNELS=${BENCH_KERNELS:-$all}
start=$(date +%s)

rm -rf "$RAW"
mkdir -p "$RAW"
run=$RAW/run.txt
rec() { echo "$*" >>"$run"; }
rec I date "$(date -u +%Y-%m-%d)"
rec I cpu "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(nproc) CPUs"
rec I mem "$(awk '/MemTotal/ {printf "%.0f GiB RAM", $2 / 1048576}' /proc/meminfo)"
rec I os "$(. /etc/os-release && echo "$PRETTY_NAME"), QEMU $(qemu-system-x86_64 --version | sed -n 's/.*version \([0-9.]*\).*/\1/p')"
rec I commit "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git status --porcelain --untracked-files=no 2>/dev/null | grep -q . && echo ' (with local changes)' || true)"
rec I load_start "$(cut -d' ' -f1-3 /proc/loadavg)"

echo "== make bench: kernels $KERNELS; about 80 minutes (build/bench/raw/*.log as it goes)"
gcc -O2 -static -o build/bench/sysfs_loop tests/bench/sysfs_loop.c
gcc -O2 -static -o build/bench/timeit tests/bench/timeit.c
gcc -O2 -static -o build/bench/sync_keys tests/bench/sync_keys.c
gcc -O2 -static -o build/bench/floor tests/bench/floor.c -lbpf -lelf -lz
# The previous release's tracer beside this one's (tests/upgrade/releases).
tests/upgrade/build previous >"$RAW/previous-build.log" 2>&1 ||
	rec F "the previous release could not be built (build/bench/raw/previous-build.log)"
base=$repo/build/release/previous/src/build/abidep

echo "== tables: abidep tables vs get_abi.pl"
# shellcheck disable=SC2086 # the series
scripts/bench-tables.sh $KERNELS || rec F "scripts/bench-tables.sh exited $?"

# The parts judged in wall time on the host first, while no guest of the
# bench's own loads it.
echo "== scan: abidep scan vs grep"
scripts/bench-scan.sh "${BENCH_SCAN_DIR:-/usr/lib}" || rec F "scripts/bench-scan.sh exited $?"
echo "== packages: abidep scan --packages vs dpkg-deb -R + grep"
scripts/bench-packages.sh || rec F "scripts/bench-packages.sh exited $?"
echo "== prometheus: check --prometheus vs check --db (about 5 minutes)"
scripts/bench-prometheus.sh || rec F "scripts/bench-prometheus.sh exited $?"

# guest NAME SERIES MINUTES RUNNER-OPTIONS... -- CMD...: one guest run, its
# output in $RAW/NAME.log, its files in $RAW/NAME/. A guest that never
# reported (123) or timed out (124) is booted once more: under a loaded
# host QEMU now and then stalls at boot.
guest() {
	name=$1 series=$2 minutes=$3
	shift 3
	echo "== $name (about $minutes min)"
	for try in 1 2; do
		rc=0
		KVER=$series tests/vm/run --timeout $((minutes * 240 + 300)) --out "$RAW/$name" "$@" \
			>"$RAW/$name.log" 2>&1 || rc=$?
		case $rc in
		123 | 124) rec I retry "$name: the guest run exited $rc (try $try)" ;;
		*) break ;;
		esac
	done
	[ "$rc" = 0 ] || rec F "$name: the guest run exited $rc ($RAW/$name.log)"
	tail -n 1 "$RAW/$name.log" | sed 's/^/   /'
}

for k in $KERNELS; do
	env="BENCH_BASE=$base BENCH_ROUNDS=$ROUNDS BENCH_ITERS=$ITERS"
	guest tracer-$k-icount "$k" 6 --icount -- env $env BENCH_MEMORY=1 tests/bench/guest.sh
	guest tracer-$k-wall "$k" 6 --smp 1 -- env $env tests/bench/guest.sh
	guest tracer-$k-2cpu "$k" 4 --smp 2 -- env $env BENCH_READERS=2 \
		BENCH_SIDES="none floor abidep" tests/bench/guest.sh
	guest startup-$k-icount "$k" 3 --icount -- env STARTUP_ROUNDS="$SROUNDS" tests/bench/startup.sh
	guest startup-$k-wall "$k" 3 --smp 1 -- env STARTUP_ROUNDS="$SROUNDS" tests/bench/startup.sh
	guest sync-$k-icount "$k" 15 --icount -- tests/bench/sync.sh
	# Wall time at 1,000 and 10,000 keys: the instructions say how it
	# grows; under TCG, 100,000 keys' wall time is the host's.
	guest sync-$k-wall "$k" 4 --smp 1 -- env SYNC_MIX_USES=0 SYNC_SIZES="1000 10000" \
		tests/bench/sync.sh
	env="ALIAS_ROUNDS=${ALIAS_ROUNDS:-8} ALIAS_ITERS=${ALIAS_ITERS:-2000}"
	guest alias-$k-icount "$k" 1 --icount -- env $env tests/bench/alias.sh
	guest alias-$k-wall "$k" 1 --smp 1 -- env $env tests/bench/alias.sh
done
echo "== the in-tree alias, on the debug kernel (it carries patches/linux-6.12/)"
if scripts/debug-kernel.sh >/dev/null; then
	guest alias-intree-icount debug 2 --icount -- env ALIAS_ROUNDS="${ALIAS_ROUNDS:-8}" \
		ALIAS_ITERS="${ALIAS_ITERS:-2000}" ALIAS_SIDES="in_alias in_new" tests/bench/alias.sh
else
	rec F "the debug kernel (scripts/debug-kernel.sh) did not build: no in-tree alias figures"
fi


el=$(($(date +%s) - start))
rec I load_end "$(cut -d' ' -f1-3 /proc/loadavg)"
rec I duration "$((el / 60)) min $((el % 60)) s"
echo
rc=0
# shellcheck disable=SC2086 # the series
python3 tests/bench/results.py "$RAW" $KERNELS || rc=$?
echo
if [ "$rc" != 0 ]; then
	echo "make bench: FAILED (build/bench/results.rst, build/bench/raw/)"
	exit 1
fi
if [ "$(echo $KERNELS)" = "$(echo $all)" ]; then
	cp build/bench/results.rst Documentation/admin-guide/bench-results.inc
	echo "make bench: done in $((el / 60)) min; build/bench/results.json and .rst;" \
		"Documentation/admin-guide/bench-results.inc refreshed (commit it to publish these figures)"
else
	echo "make bench: done in $((el / 60)) min; build/bench/results.json and .rst" \
		"(not every kernel: the documentation's copy is left as it is)"
fi
