#!/bin/sh
# make bench, inside the guest: what a sync of the pinned tracer costs
# (`abidep trace --sync`: the usage hash replaced by an empty one, the old
# one written to the DB, tools/tracer/trace_sync.c) as its keys grow, and
# what the DB grows by.
#
# Real keys: distinct users of a watched file in this guest, made by
# build/bench/sync_keys (tests/bench/sync_keys.c): each uid one open and
# one read key, from two copies of the executable in two cgroups (four
# processes), so that keys differ by uid, exe and cgroup as on a host. The
# tracer is pinned with --max-entries $MAXKEYS: the default map (16,384
# keys) holds fewer than the largest sync.
#
# Each of SYNC_ROUNDS rounds (default 1: under -icount a sync's CPU time,
# its instructions, hardly moves): three syncs of nothing (empty: the
# fixed cost, the tables and the watched files included); then for each
# size N of $SIZES, N keys the DB has not seen (new), synced; the same N
# keys again (again: the next interval of the same users, their rows
# updated), synced. Each sync is timed fork to wait and in CPU time
# (build/bench/timeit; under -icount the CPU time is the sync process's
# guest instructions, while fork to wait also counts the idle waits, such
# as the RCU grace period of the map's replacement, which the guest's
# clock advances at the host's real rate); the DB's file (and -wal)
# measured before and after.
# Then once, the mix: $MIX_USES uses (accesses recorded) on $MIX_KEYS keys,
# Zipf-like over the users (a few busy, a tail), made in $MIX_SYNCS
# intervals of the same users, each synced: what the DB grew by (make
# bench's wall-time run has none: the DB's growth is the same).
#
# After each sync the DB must hold exactly the keys and counts made by the
# generators: rows of their executables, and the sum of their counts
# (C lines); and at the end nothing dropped or refused (--status).
#
# Writes lines to $SYNC_OUT (default $ABIDEP_OUT/sync.txt) for
# tests/bench/results_sync.py:
#   I KEY VALUE...                  what was run
#   S KIND N ROUND VALUE            KIND: sync_empty, sync_new, sync_again,
#                                   sync_mix (ns, fork to wait); cpu_empty
#                                   ... cpu_mix (ns of CPU); grow_empty ...
#                                   grow_mix (bytes the DB grew)
#   C WHAT ROUND CHECK EXPECTED GOT a count check
#   F MESSAGE                       a step that could not run
set -eu
A=$ABIDEP_REPO/build/abidep
B=$ABIDEP_REPO/build/bench
OUT=${SYNC_OUT:-$ABIDEP_OUT/sync.txt}
ROUNDS=${SYNC_ROUNDS:-1}
SIZES=${SYNC_SIZES:-1000 10000 100000}
MIX_USES=${SYNC_MIX_USES:-1000000}
MIX_KEYS=${SYNC_MIX_KEYS:-1000}
MIX_SYNCS=${SYNC_MIX_SYNCS:-4}
MAXKEYS=131072
FILE=/sys/devices/system/cpu/cpuidle/current_governor_ro
DB=/tmp/sync.db
BIN=/tmp/sync-bin
CG=/sys/fs/cgroup/bench-sync
# The four generators: exe copy x cgroup.
GENS="a:1 a:2 b:1 b:2"

: >"$OUT"
rec() { echo "$*" >>"$OUT"; }
fail() {
	rec F "$*"
	echo "sync.sh: $*" >&2
}

# The DB's bytes on disk: the file and its write-ahead log.
dbsize() {
	echo $(($(stat -c %s $DB 2>/dev/null || echo 0) + $(stat -c %s $DB-wal 2>/dev/null || echo 0)))
}

# What the DB holds of the generators: "ROWS USES".
dbcounts() {
	sqlite3 -separator ' ' $DB \
		"SELECT count(*), coalesce(sum(count), 0) FROM usage WHERE exe LIKE '$BIN/%'" ||
		echo "- -"
}

# gen UID0 USERS ITERS [zipf]: the four generators, each in its cgroup,
# each a quarter of the users (USERS / 4 from UID0 + i * USERS / 4): the
# uses they made (opens + reads), or "-".
gen() {
	q=$(($2 / 4)) i=0 made=0
	for g in $GENS; do
		# A shell that moves itself to the cgroup, then becomes the generator.
		got=$(sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' - "$CG/${g#*:}" \
			"$BIN/${g%%:*}/sync_keys" $FILE $(($1 + i * q)) $q "$3" ${4:+"$4"}) || {
			echo -
			return
		}
		# shellcheck disable=SC2086 # two numbers
		made=$((made + $(echo $got | tr ' ' '+'))) i=$((i + 1))
	done
	echo $made
}

# status KEY: the pinned tracer's figure KEY (trace --status -j), or "-".
status() {
	"$A" trace --status -j | python3 -c 'import json, sys; print(json.load(sys.stdin)[sys.argv[1]])' \
		"$1" 2>/dev/null || echo -
}

# sync KIND N ROUND KEYS USES: one timed sync; its time and the DB's
# growth; then the DB's rows and counts of the generators against KEYS and
# USES (cumulative).
sync() {
	before=$(dbsize)
	# shellcheck disable=SC2046 # two numbers
	set -- "$@" $("$B/timeit" "$A" trace --sync --db $DB || echo -)
	after=$(dbsize)
	case $6 in
	-) fail "$1 $2, round $3: abidep trace --sync failed" ;;
	*)
		rec S "sync_$1" "$2" "$3" $(($6 * 1000))
		rec S "cpu_$1" "$2" "$3" $(($7 * 1000))
		rec S "grow_$1" "$2" "$3" $((after - before))
		;;
	esac
	# shellcheck disable=SC2046
	set -- "$1" "$2" "$3" "$4" "$5" $(dbcounts)
	rec C "$1-$2" "$3" keys "$4" "$6"
	rec C "$1-$2" "$3" uses "$5" "$7"
}

rec I kernel "$(uname -r)"
rec I rounds "$ROUNDS"
rec I sizes "$SIZES"
rec I mix "$MIX_USES" "$MIX_KEYS" "$MIX_SYNCS"
rec I max_entries $MAXKEYS
rec I file $FILE
rec I generators 4
mkdir -p $BIN/a $BIN/b $CG/1 $CG/2
cp "$B/sync_keys" $BIN/a/ && cp "$B/sync_keys" $BIN/b/
rm -f $DB $DB-wal $DB-shm
"$A" trace --pin --max-entries $MAXKEYS --db $DB >/dev/null || {
	fail "abidep trace --pin --max-entries $MAXKEYS failed"
	exit 1
}
# Room for the largest sync's keys.
rec C status start usage_max $MAXKEYS "$(status usage_max)"
rec I db_start "$(dbsize)"

uid=10000 keys=0 uses=0
for r in $(seq "$ROUNDS"); do
	for e in 1 2 3; do
		sync empty 0 "$r.$e" $keys $uses
	done
	for n in $SIZES; do
		users=$((n / 2))
		for kind in new again; do
			made=$(gen $uid $users 1)
			case $made in
			-) fail "new $n, round $r: a generator failed" ;;
			*) uses=$((uses + made)) ;;
			esac
			[ $kind = again ] || keys=$((keys + n))
			sync $kind "$n" "$r" $keys $uses
		done
		uid=$((uid + users))
	done
done

# The mix (none with SYNC_MIX_USES=0): the same users in each interval,
# each interval's uses alike.
users=$((MIX_KEYS / 2))
[ "$MIX_USES" -gt 0 ] || MIX_SYNCS=0
for s in $(seq "$MIX_SYNCS"); do
	made=$(gen $uid $users $((MIX_USES / 2 / MIX_SYNCS / 4)) zipf)
	case $made in
	-) fail "mix, interval $s: a generator failed" ;;
	*) uses=$((uses + made)) ;;
	esac
	[ "$s" != 1 ] || keys=$((keys + MIX_KEYS))
	sync mix "$MIX_KEYS" "$s" $keys $uses
done

for k in dropped quota_refused; do
	rec C status end "$k" 0 "$(status $k)"
done
"$A" trace --stop --db $DB >/dev/null || fail "abidep trace --stop failed"
rec I db_end "$(dbsize)"
echo "sync.sh: done, $(grep -c '^S ' "$OUT") samples, $(grep -c '^C ' "$OUT") checks"
