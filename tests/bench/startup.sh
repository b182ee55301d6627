#!/bin/sh
# make bench, inside the guest: how long the usage tracer takes to start
# (it is to run before udev at boot), against the floor's own start:
#
#   floor   build/bench/floor (tests/bench/floor.c): six empty programs
#           loaded, attached and pinned, their links too
#   abidep  abidep trace --pin --early: the tables read, the watched files
#           resolved, the object loaded and attached, the maps filled and
#           everything pinned (--early: no DB, as before /var is mounted)
#
# Each is timed from its exec to its exit (build/bench/timeit): both exit
# once pinned. Under --icount a guest microsecond is a thousand guest
# instructions. STARTUP_ROUNDS rounds, the two sides in turn, the first
# side alternating; one start of each before the rounds, untimed, so that
# every round finds the binaries and the tables in the page cache. Each
# side is checked pinned (its links) and then removed: the floor's
# directory, abidep trace --stop.
#
# Writes to $BENCH_OUT (default $ABIDEP_OUT/startup.txt), for
# tests/bench/results_startup.py:
#   I KEY VALUE...              what was run
#   S SIDE pin ROUND US         exec to exit, microseconds (and CPU_US
#                               under side SIDE_cpu)
#   C SIDE ROUND links N GOT    the tracing links it left attached
#   F MESSAGE                   a side that could not run
set -eu
A=$ABIDEP_REPO/build/abidep
B=$ABIDEP_REPO/build/bench
ROUNDS=${STARTUP_ROUNDS:-8}
OUT=${BENCH_OUT:-$ABIDEP_OUT/startup.txt}
FLOOR=/sys/fs/bpf/bench-floor

: >"$OUT"
rec() { echo "$*" >>"$OUT"; }
fail() {
	rec F "$*"
	echo "startup.sh: $*" >&2
}
links() { bpftool link show 2>/dev/null | grep -c '^[0-9]*: tracing ' || true; }

# side NAME ROUND: one start, timed (ROUND "-": untimed), checked, removed.
side() {
	case $1 in
	floor) set -- "$@" "$B/floor" $FLOOR ;;
	abidep) set -- "$@" "$A" trace --pin --early ;;
	esac
	name=$1 rnd=$2
	shift 2
	t=$("$B/timeit" "$@") || { fail "$name: $* failed"; return 0; }
	if [ "$rnd" != - ]; then
		# shellcheck disable=SC2086 # WALL_US CPU_US
		set -- $t
		rec S "$name" pin "$rnd" "$1"
		rec S "${name}_cpu" pin "$rnd" "$2"
	fi
	case $name in
	floor)
		[ "$rnd" = - ] || rec C floor "$rnd" links 6 "$(links)"
		rm -rf $FLOOR
		;;
	abidep)
		[ "$rnd" = - ] ||
			rec C abidep "$rnd" links "$(ls /sys/fs/bpf/abidep | grep -c '^link_')" "$(links)"
		"$A" trace --stop --db /tmp/startup.db >/dev/null 2>&1 || fail "abidep trace --stop failed"
		;;
	esac
	[ "$(links)" = 0 ] || fail "$name left $(links) tracing links attached"
}

rec I kernel "$(uname -r)"
rec I rounds "$ROUNDS"
[ "$(links)" = 0 ] || fail "tracing links attached before the first round: $(links)"
side floor -
side abidep -
for r in $(seq "$ROUNDS"); do
	if [ $((r % 2)) = 1 ]; then
		side floor "$r"
		side abidep "$r"
	else
		side abidep "$r"
		side floor "$r"
	fi
done
echo "startup.sh: done, $(grep -c '^S ' "$OUT") samples, $(grep -c '^C ' "$OUT") checks"
