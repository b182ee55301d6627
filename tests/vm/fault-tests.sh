#!/bin/sh
# Faults injected into the usage tracer, in the guest: kill -9 during DB
# writes, a usage map that fills up, no bpffs, abidep.ko unloaded while the
# tracer runs, a full disk under the DB. Every count checked is exact.
#	tests/vm/run --timeout 900 tests/vm/fault-tests.sh
# FAULT_KILLS (default 12) sets the number of kill -9 rounds.
# Ends with "fault: N passed, N failed".
set -u
. "$(dirname "$0")/../lib.sh"

A=$ABIDEP_REPO/build/abidep
KMOD=$ABIDEP_REPO/build/kmod/$KVER
F=/sys/devices/system/cpu/cpuidle/current_governor_ro
PIN=/sys/fs/bpf/abidep
H=/tmp/stress-hammer
W=/tmp/fault
KILLS=${FAULT_KILLS:-12}
mkdir -p $W

# "path op uid exe session count" per row, sorted: what the DB $1 holds.
rows() {
	sqlite3 "$1" "SELECT path, op, uid, exe, session, count FROM usage ORDER BY 1, 2, 3, 4, 5" | tr '|' ' '
}

# Every row of snapshot $1 is in DB $2 with a count at least as high: the
# counts of a session only grow, so nothing acknowledged went missing.
kept() {
	rows "$2" >$W/now
	awk 'NR == FNR { c[$1 " " $2 " " $3 " " $4 " " $5] = $6; next }
	     { k = $1 " " $2 " " $3 " " $4 " " $5; if (!(k in c) || c[k] < $6) { print "lost: " $0; bad = 1 } }
	     END { exit bad }' $W/now "$1"
}

check "build the load generator" gcc -O2 -static -o $H "$ABIDEP_REPO/tests/vm/stress-hammer.c"

section "kill -9 during DB writes: nothing acknowledged is lost"
DB=$W/kill.db
check "trace --pin" "$A" trace --pin --db $DB
# Many keys, so that a sync spends its time writing rows.
check "3000 users (uids) read the watched file" sh -c "$H u 3000 $F | grep -q '^opens=3000 open_errors=0 reads=3000 read_errors=0'"
check "a sync writes their 6000 rows" sh -c "$A trace --sync --db $DB && test \$(sqlite3 $DB 'SELECT count(*) FROM usage') -ge 6000"
# 6000 new keys would overflow the 64 KiB ring buffer, which a pinned tracer
# has no reader for: its programs send no events, so none are lost.
check "... and no new-user event is counted as lost (pinned: none sent)" \
	sh -c "$A trace --status | grep -q ' 0 events lost'"
t0=$(date +%s%N)
"$A" trace --sync --db $DB
t1=$(date +%s%N)
sync_ms=$(((t1 - t0) / 1000000))
echo "# a sync of 6000 rows takes $sync_ms ms here; kills land uniformly within that"
# Counts keep moving while the syncs are killed.
$H r 100000 $F >/dev/null &
load=$!
rows $DB >$W/acked
killed=0 lost=0 corrupt=0 finished=0
i=0
while [ $i -lt "$KILLS" ]; do
	i=$((i + 1))
	"$A" trace --sync --db $DB 2>/dev/null &
	p=$!
	delay=$(awk -v s="$(date +%N)" -v t="$sync_ms" 'BEGIN {srand(s); printf "%.3f", rand() * t / 1000}')
	sleep "$delay"
	if kill -9 $p 2>/dev/null; then killed=$((killed + 1)); else finished=$((finished + 1)); fi
	wait $p 2>/dev/null
	[ "$(sqlite3 $DB 'PRAGMA integrity_check')" = ok ] || corrupt=$((corrupt + 1))
	kept $W/acked $DB >/dev/null || lost=$((lost + 1))
	# An acknowledged sync: its rows are what must survive the next kill.
	if "$A" trace --sync --db $DB 2>/dev/null; then
		rows $DB >$W/acked
	fi
done
kill $load 2>/dev/null
wait $load 2>/dev/null
echo "# $i rounds: $killed syncs killed by SIGKILL, $finished finished before the kill"
check "most syncs were killed while running ($killed of $i)" test $killed -ge $((i / 2))
check "PRAGMA integrity_check ok after every kill" test $corrupt = 0
check "no acknowledged row lost or decreased after any kill" test $lost = 0
check "a final sync works" "$A" trace --sync --db $DB
check "the 3000 users are all there" \
	test "$(sqlite3 $DB "SELECT count(DISTINCT uid) FROM usage WHERE uid >= 20000 AND op = 'read' AND count = 1")" = 3000
check "trace --stop" "$A" trace --stop --db $DB

section "the usage map full: drops counted and reported, the machine goes on"
DB=$W/full.db
check "trace --pin --max-entries 8" "$A" trace --pin --max-entries 8 --db $DB
check "status shows the small map" sh -c "$A trace --status | grep -q ' 0 of 8 usage keys'"
check "20 users read the watched file (40 keys wanted)" sh -c "$H u 20 $F | grep -q '^opens=20 open_errors=0 reads=20 '"
check "the file still reads" cat $F
"$A" trace --sync --db $DB 2>$W/sync.err
st=$?
check "trace --sync still exits 0" test $st = 0
recorded=$(sqlite3 $DB 'SELECT sum(count) FROM usage')
# 40 accesses by the users, 2 by the cat above (an existing key, or dropped).
seen=42
dropped=$((seen - recorded))
check "exactly 8 keys recorded" test "$(sqlite3 $DB 'SELECT count(*) FROM usage')" = 8
check "$seen accesses seen, $dropped not recorded (= $seen - $recorded in the DB)" \
	sh -c "$A trace --status | grep -q '^$seen accesses seen, $dropped not recorded (map full)'"
check "the sync says so on stderr" grep -q "^abidep: $dropped accesses not recorded (usage map full, 8 keys)" $W/sync.err
check "JSON status has the figure" sh -c "$A trace --status -j | grep -q '\"dropped\": *$dropped'"
check "trace --stop" "$A" trace --stop --db $DB

section "no bpffs"
umount /sys/fs/bpf
check "--pin: exit 5" sh -c "$A trace --pin --db $W/x.db 2>$W/err; test \$? = 5"
check "... saying how to mount it" grep -q 'mount -t bpf bpf /sys/fs/bpf' $W/err
check "--status: exit 5" sh -c "$A trace --status 2>/dev/null; test \$? = 5"
check "the live tracer needs no bpffs" "$A" trace -q --db $W/nobpffs.db --duration 2 --interval 1
mount -t bpf -o mode=700 bpf /sys/fs/bpf
check "pins removed behind the tracer's back: --sync says nothing is pinned (exit 8)" sh -c "
	$A trace --pin --db $W/x.db && rm -rf $PIN && { $A trace --sync --db $W/x.db 2>$W/err; test \$? = 8; }"
check "... and how to start one" grep -q "start one with 'abidep trace --pin'" $W/err
check "... and the programs were detached with their links" sh -c "! bpftool link show | grep -q abidep"

section "abidep.ko unloaded while the tracer runs"
check "abidep.ko and rc-loopback load" sh -c "insmod $KMOD/abidep.ko && modprobe rc-loopback"
RC=/sys/class/rc/rc0
DB=$W/unload.db
"$A" trace -q --db $DB --interval 1 >$W/live.out 2>&1 &
tracer=$!
check "trace --pin beside the live tracer" "$A" trace --pin --db $W/pinned.db
sleep 2
for _ in 1 2 3 4 5; do cat $RC/current_protocol >/dev/null; done
check "rmmod abidep while both trace its alias" rmmod abidep
check "the alias is gone" test ! -e $RC/current_protocol
check "the live tracer goes on" kill -0 $tracer
check "the pinned tracer syncs" "$A" trace --sync --db $W/pinned.db
check "insmod abidep again" insmod "$KMOD/abidep.ko"
sleep 2					# the module's uevent, then a refresh
for _ in 1 2 3; do cat $RC/current_protocol >/dev/null; done
check "the pinned tracer learns the new alias on --sync" "$A" trace --sync --db $W/pinned.db
for _ in 1 2 3 4; do cat $RC/current_protocol >/dev/null; done
sleep 2
kill -INT $tracer
st=0
wait $tracer || st=$?
check "the live tracer exits 0" test $st = 0
count() { sqlite3 "$1" "SELECT sum(count) FROM usage WHERE path = '$RC/current_protocol' AND op = 'read' AND exe = '/usr/bin/cat'"; }
check "live: 5 reads before, 7 after the reload: 12" test "$(count $DB)" = 12
check "trace --stop (pinned)" "$A" trace --stop --db $W/pinned.db
check "pinned: 5 before, 4 after the --sync that found the new alias: 9 ($(count $W/pinned.db))" \
	test "$(count $W/pinned.db)" = 9
rmmod rc-loopback
rmmod abidep

section "the disk under the DB fills up"
mkdir -p $W/small
mount -t tmpfs -o size=512k tmpfs $W/small
DB=$W/small/usage.db
check "trace --pin on a small file system" "$A" trace --pin --db $DB
cat $F >/dev/null
check "a first sync (acknowledged)" "$A" trace --sync --db $DB
rows $DB >$W/acked
dd if=/dev/zero of=$W/small/filler bs=4k 2>/dev/null
check "3000 users read the watched file" sh -c "$H u 3000 $F | grep -q '^opens=3000 open_errors=0'"
"$A" trace --sync --db $DB 2>$W/err
st=$?
check "--sync on a full disk: exit 6" test $st = 6
sed 's/^/#   /' $W/err
check "... saying which DB failed" grep -qE "(cannot write|cannot use the usage DB) $DB: " $W/err
check "... and that its file system is full" grep -q "file system is full" $W/err
# sqlite3 cannot open a WAL DB on a full disk (it needs the -shm file): copy.
mkdir -p $W/copy
cp $DB $W/copy/
[ -f $DB-wal ] && cp $DB-wal $W/copy/
check "the DB is intact" test "$(sqlite3 $W/copy/usage.db 'PRAGMA integrity_check')" = ok
check "the acknowledged rows are there" kept $W/acked $W/copy/usage.db
"$A" trace --stop --db $DB 2>/dev/null
st=$?
check "--stop on a full disk: exit 6, and nothing unpinned (counting goes on)" test $st = 6 -a -e $PIN/usage
rm $W/small/filler
mount -o remount,size=64m $W/small
check "with room again, --stop writes everything" "$A" trace --stop --db $DB
check "all 3000 users are there" \
	test "$(sqlite3 $DB "SELECT count(DISTINCT uid) FROM usage WHERE uid >= 20000 AND op = 'open'")" = 3000
check "... and the acknowledged rows" kept $W/acked $DB
umount $W/small

reports=$(dmesg | grep -E 'BUG:|WARNING:|Oops|INFO: task .* blocked|possible (circular|recursive) locking')
check "the kernel log has no report" test -z "$reports"
finish fault
