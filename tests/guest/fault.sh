#!/bin/sh
# Faults injected into the usage tracer, in the guest: kill -9 during DB
# writes, a usage map that fills up, no bpffs, abidep.ko unloaded while the
# tracer runs, a full disk under the DB, two syncs (or a sync and --stop) at
# once, a damaged DB. Every count checked is exact.
#	tests/vm/run --timeout 1800 tests/guest/fault.sh
# FAULT_KILLS (default 12) sets the number of kill -9 rounds, FAULT_RACES
# (default 4) the rounds of each race of two syncs.
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

# Root's cat's opens and reads of the watched file in DB $1, all sessions.
cat_rows() {
	sqlite3 "$1" "SELECT op, sum(count) FROM usage WHERE path = '$F' AND uid = 0 AND exe = '/usr/bin/cat' GROUP BY op ORDER BY op" | tr '\n' ' '
}

# Every row of snapshot $1 is in DB $2 with a count at least as high: the
# counts of a session only grow, so nothing acknowledged went missing.
kept() {
	rows "$2" >$W/now
	awk 'NR == FNR { c[$1 " " $2 " " $3 " " $4 " " $5] = $6; next }
	     { k = $1 " " $2 " " $3 " " $4 " " $5; if (!(k in c) || c[k] < $6) { print "lost: " $0; bad = 1 } }
	     END { exit bad }' $W/now "$1"
}

check "build the load generator" make -s -C "$ABIDEP_REPO/tests" OUT=/tmp stress-hammer

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
# Each round's sync has 1,000 rows to write (500 new users, 200000 up):
# its kill lands in their writes, the commit, or the unpin after it.
round_users() {
	$H u 500 $F $((200000 + $1 * 500)) >/dev/null
}
round_users 0
t0=$(date +%s%N)
"$A" trace --sync --db $DB
t1=$(date +%s%N)
sync_ms=$(((t1 - t0) / 1000000))
echo "# a sync of 1000 rows takes $sync_ms ms here; kills land uniformly within that"
# Counts keep moving while the syncs are killed: the hammer's own, which
# it prints when it stops, must be in the DB exactly once in the end.
$H r 100000 $F >$W/load.out &
load=$!
rows $DB >$W/acked
killed=0 lost=0 corrupt=0 finished=0
i=0
while [ $i -lt "$KILLS" ]; do
	i=$((i + 1))
	round_users $i
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
got=$(sqlite3 $DB "SELECT op, sum(count) FROM usage WHERE uid = 0 AND exe = '$H' GROUP BY op ORDER BY op" | tr '\n' ' ')
want=$(sed -n 's/^opens=\([0-9]*\) .* reads=\([0-9]*\) .*/open|\1 read|\2 /p' $W/load.out)
check "the killed syncs lost none of the hammer's accesses and counted none twice ($want)" \
	test "$got" = "$want"
[ "$got" = "$want" ] || echo "# got: $got"
check "every round's 500 users are there, each read counted once" \
	test "$(sqlite3 $DB "SELECT count(DISTINCT uid), sum(count) FROM usage WHERE uid >= 200000 AND op = 'read'")" = "$((500 * (KILLS + 1)))|$((500 * (KILLS + 1)))"
check "the 3000 users are all there" \
	test "$(sqlite3 $DB "SELECT count(DISTINCT uid) FROM usage WHERE uid >= 20000 AND uid < 200000 AND op = 'read' AND count = 1")" = 3000
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
check "$dropped not recorded (= $seen - $recorded in the DB), none left after the sync" \
	sh -c "$A trace --status | grep -q '^0 accesses since the last sync, $dropped not recorded (map full)'"
check "the sync says so on stderr" grep -q "^abidep: $dropped accesses not recorded (usage map full, 8 keys)" $W/sync.err
check "JSON status has the figure" sh -c "$A trace --status -j | grep -q '\"dropped\": *$dropped'"
check "the session keeps them in the DB, with the sync that saw them" \
	test "$(sqlite3 $DB 'SELECT unrecorded, lost_at IS NOT NULL, lost_at = last_sync FROM sessions')" = "$dropped|1|1"
check "trace --stop" "$A" trace --stop --db $DB

section "100,000 keys through the usage map, ten syncs: none lost"
# Each sync empties the map into the DB: 5,000 new users (10,000 keys) a
# sync interval fit the map of 16,384 keys however many pass through it.
DB=$W/many.db
check "trace --pin" "$A" trace --pin --db $DB
bad=0
for k in 0 1 2 3 4 5 6 7 8 9; do
	$H u 5000 $F $((100000 + k * 5000)) | grep -q '^opens=5000 open_errors=0 reads=5000 ' || bad=$((bad + 1))
	"$A" trace --sync --db $DB || bad=$((bad + 1))
done
check "ten rounds of 5,000 users, each round synced" test $bad = 0
check "the DB has the 100,000 keys, each counted once" \
	test "$(sqlite3 $DB "SELECT count(*), sum(count), count(DISTINCT uid) FROM usage WHERE uid >= 100000")" = "100000|100000|50000"
check "... none dropped, and the session says so" \
	test "$(sqlite3 $DB 'SELECT unrecorded FROM sessions')" = 0
check "... and the map is empty after the last sync" sh -c "$A trace --status | grep -q ' 0 of 16384 usage keys;'"
check "trace --stop" "$A" trace --stop --db $DB

section "a flood of unprivileged users fills the map, then a legacy reader: never ready"
# The users read another deprecated file (the PCI host bridge's config, made
# one for the test) until the map is full; then root reads cpuidle's
# current_governor_ro once, and that access finds no room. Its entry made
# due: without the loss kept as evidence, one session through a 1-day
# window and no recorded use would make it ready.
PCI=/sys/bus/pci/devices/0000:00:00.0/config
mkdir -p $W/tables
cp $ABIDEP_REPO/migration-tables/sysfs-* $W/tables/
sed -i 's/^Deprecated:\t2020-04$/&\nRemove-after:\t2021-01/' $W/tables/sysfs-cpuidle
cat >$W/tables/flood <<EOT
What:		$PCI
Date:		December 2026
Contact:	abidep tests
Status:		deprecated
Deprecated:	2026-01-01
Replaced-by:	/sys/bus/pci/devices/0000:00:00.0/vendor
Source:		tests/guest/fault.sh
Description:
		Read by the flood.
EOT
DB=$W/flood.db
check "trace --pin --max-entries 8, the flood's file watched too" \
	"$A" trace --pin --max-entries 8 --db $DB -t $W/tables
check "20 users read the flood's file (40 keys wanted)" sh -c "$H u 20 $PCI | grep -q '^opens=20 open_errors=0 reads=20 '"
check "the legacy reader reads current_governor_ro" cat $F
check "trace --sync" "$A" trace --sync --db $DB
check "the reader is not in the DB (no room)" test "$(sqlite3 $DB "SELECT count(*) FROM usage WHERE path = '$F'")" = 0
"$A" check -j -d $DB -t $W/tables --entry current_governor_ro --quiet-days 1 >$W/check.json
st=$?
check "check: no-data (exit 12), never ready" \
	sh -c "test $st = 12 && grep -q '\"verdict\": *\"no-data\"' $W/check.json"
dropped=$(sqlite3 $DB 'SELECT unrecorded FROM sessions')
check "... saying how many were not recorded ($dropped: the flood's 32 and the reader's 2)" \
	sh -c "test '$dropped' = 34 && grep -q 'lost accesses in the quiet window.*($dropped not recorded' $W/check.json"
check "trace --stop" "$A" trace --stop --db $DB

section "one unprivileged user floods: its quota spent, not the others' room"
# uid 30000 reads the flood's file from 40 cgroups of its own: 80 new keys
# wanted, 16 let in (--uid-quota), 64 accesses refused and counted. Another
# user and root still get theirs. current_governor_ro, due and read by
# nobody this time, is no-data: the refused accesses are a hole.
DB=$W/quota.db
check "trace --pin --uid-quota 16" "$A" trace --pin --uid-quota 16 --db $DB -t $W/tables
check "uid 30000 reads the flood's file from 40 cgroups" \
	sh -c "$H g 40 $PCI 30000 | grep -q '^opens=40 open_errors=0 reads=40 '"
check "uid 31000 reads it once" sh -c "$H u 1 $PCI 31000 | grep -q '^opens=1 open_errors=0 reads=1 '"
check "root reads it" sh -c "cat $PCI >/dev/null"
"$A" trace --sync --db $DB 2>$W/sync.err
check "trace --sync exits 0" test $? = 0
check "the flooder has its 16 keys, no more" \
	test "$(sqlite3 $DB "SELECT count(*), sum(count) FROM usage WHERE uid = 30000")" = "16|16"
check "... the other user has its open and read" \
	test "$(sqlite3 $DB "SELECT count(*), sum(count) FROM usage WHERE uid = 31000")" = "2|2"
check "... and root's read is there" \
	test "$(sqlite3 $DB "SELECT count(*) > 0 FROM usage WHERE uid = 0 AND path = '$PCI' AND op = 'read'")" = 1
check "the session keeps the 64 refused as not recorded" \
	test "$(sqlite3 $DB 'SELECT unrecorded FROM sessions')" = 64
check "the sync says why" grep -q '^abidep: 64 accesses not recorded (their uids had added as many new users as --uid-quota' $W/sync.err
check "status says so, in text and JSON" sh -c "$A trace --status | grep -q ' 0 not recorded (map full), 64 not recorded (uid quota),' &&
	$A trace --status -j | grep -q '\"quota_refused\": *64'"
"$A" check -j -d $DB -t $W/tables --entry current_governor_ro --quiet-days 1 >$W/check.json
st=$?
check "check of an entry no one used: no-data (exit 12), never ready" \
	sh -c "test $st = 12 && grep -q '\"verdict\": *\"no-data\"' $W/check.json &&
		grep -q 'lost accesses in the quiet window.*(64 not recorded' $W/check.json"
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

section "two syncs at once, and a sync racing --stop: they take turns, nothing lost or doubled"
# The timer's sync and a hand-run one (or --stop) at once. A sync reads the
# maps, then takes the DB's write lock; so that two write in the order they
# read, the second waits on the pin directory's lock (tools/tracer/trace_pin.c)
# until the first is done. To make the race bite every round, another
# process holds the DB's write lock: the first sync reads the maps and
# waits for the DB while cats go on reading the watched file; the cats
# stop, the second sync (or --stop) starts and must wait for the first,
# then the DB is let go. Without the pin lock both would wait for the DB,
# and whichever got it last would have the last word: the first, with
# older counts, as often as not. The DB must hold exactly the cats made.
DB=$W/race.db
RACES=${FAULT_RACES:-4}
# Hold DB $1's write lock (in the background, $holder) until $W/release
# exists; back once it is held.
hold_db() {
	rm -f $W/held $W/release
	python3 -c '
import os, sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("BEGIN IMMEDIATE")
open(sys.argv[2] + "/held", "w").close()
while not os.path.exists(sys.argv[2] + "/release"):
    time.sleep(0.01)
c.execute("ROLLBACK")' "$1" $W &
	holder=$!
	while [ ! -e $W/held ] && kill -0 $holder 2>/dev/null; do sleep 0.02; done
}
# What process $1 is waiting in, within 30 s: flock (the pin directory's
# lock), sleep (SQLite's wait for a locked DB: the only sleep in abidep
# trace), gone (it exited), or busy.
waits() {
	i=0
	while [ $i -lt 600 ]; do
		case $(cut -d ' ' -f 3 /proc/$1/stat 2>/dev/null) in
		''|Z) echo gone; return ;;
		esac
		case $(cut -d ' ' -f 1 /proc/$1/syscall 2>/dev/null) in
		73) echo flock; return ;;
		35|230) echo sleep; return ;;
		esac
		sleep 0.05
		i=$((i + 1))
	done
	echo busy
}
# cats of the watched file until $W/stop exists (in the background,
# $loader); how many in $W/cats.
loader() {
	rm -f $W/stop $W/cats
	( n=0; while [ ! -e $W/stop ]; do cat $F >/dev/null; n=$((n + 1)); done; echo $n >$W/cats ) &
	loader=$!
	sleep 0.5
}
stop_loader() {
	touch $W/stop
	wait $loader
	cats=$((cats + $(cat $W/cats)))
}
# One round: a sync that read the maps and waits for the DB, more cats,
# then a second sync (race sync N) or --stop (race stop N).
race() {
	hold_db $DB
	loader
	"$A" trace --sync --db $DB 2>$W/first.err &
	first=$!
	w1=$(waits $first)
	sleep 0.5			# cats after the first read the maps
	stop_loader
	"$A" trace --$1 --db $DB 2>$W/second.err &
	second=$!
	w2=$(waits $second)
	touch $W/release
	wait $holder
	wait $first
	s1=$?
	wait $second
	s2=$?
	check "round $2, a sync and a --$1: the sync waited for the DB ($w1), the --$1 for the sync ($w2)" \
		test "$w1 $w2" = "sleep flock"
	check "... both exit 0 ($s1 $s2)" test "$s1 $s2" = "0 0"
	[ "$s1 $s2" = "0 0" ] || sed 's/^/#   /' $W/first.err $W/second.err
	check "... the DB holds exactly the $cats cats made" same "$(cat_rows $DB)" "open|$cats read|$cats "
}
cats=0
check "trace --pin" "$A" trace --pin --db $DB
r=0
while [ $r -lt "$RACES" ]; do
	r=$((r + 1))
	race sync $r
	race stop $r
	check "... nothing pinned after the --stop" test ! -e $PIN
	"$A" trace --pin --db $DB
done
# Free-running, no DB holder: the timer's sync and a hand-run one, again
# and again, while the file is read; then a sync and a --stop together.
loader
bad=0
for _ in $(seq $((RACES * 2))); do
	"$A" trace --sync --db $DB 2>>$W/free.err &
	a=$!
	"$A" trace --sync --db $DB 2>>$W/free.err &
	b=$!
	wait $a || bad=$((bad + 1))
	wait $b || bad=$((bad + 1))
done
stop_loader
check "$((RACES * 4)) syncs, two at a time under load: every one exits 0" test $bad = 0
[ $bad = 0 ] || sed 's/^/#   /' $W/free.err
"$A" trace --sync --db $DB 2>$W/a.err &
a=$!
"$A" trace --stop --db $DB 2>$W/b.err &
b=$!
wait $a
sa=$?
wait $b
sb=$?
check "a sync and a --stop together: --stop exits 0, the sync 0 or, after it, 8 ($sa $sb)" \
	sh -c "test $sb = 0 && { test $sa = 0 || { test $sa = 8 && grep -q 'no pinned tracer' $W/a.err; }; }"
check "... the DB holds exactly the $cats cats made, in all" same "$(cat_rows $DB)" "open|$cats read|$cats "
check "... nothing pinned" test ! -e $PIN
check "... and the DB is sound" test "$(sqlite3 $DB 'PRAGMA integrity_check')" = ok

section "a damaged DB: the sync fails saying what to do, the counts stay pinned until one succeeds"
DB=$W/damaged.db
check "trace --pin" "$A" trace --pin --db $DB
# Rows enough to fill pages: damage in the middle of one hits rows.
check "300 users read the watched file" sh -c "$H u 300 $F | grep -q '^opens=300 open_errors=0 reads=300 '"
cats=0
# The accesses the pinned maps hold, not yet in the DB (--status's "hits").
hits() { "$A" trace --status -j | python3 -c 'import json, sys; print(json.load(sys.stdin)["hits"])'; }
users() { sqlite3 "$1" "SELECT count(DISTINCT uid), sum(count) FROM usage WHERE path = '$F' AND uid >= 20000"; }
# Damage $DB: seeded random bytes over the middle half of every page but
# the first (pages), cut in the middle of a page (truncated), text
# (text), random bytes (random).
damage() {
	case $1 in
	pages)
		python3 -c '
import random, sys
f = open(sys.argv[1], "r+b")
head = f.read(100)
ps = int.from_bytes(head[16:18], "big")
ps = 65536 if ps == 1 else ps
n = f.seek(0, 2) // ps
rnd = random.Random(16)
for p in range(1, n):
    f.seek(p * ps + ps // 4)
    f.write(rnd.randbytes(ps // 2))' $DB ;;
	truncated) truncate -s $(($(stat -c %s $DB) / 2 + 100)) $DB ;;
	text) echo "not a database, but a note" >$DB ;;
	random) python3 -c 'import random, sys; open(sys.argv[1], "wb").write(random.Random(16).randbytes(8192))' $DB ;;
	esac
}
# damaged KIND REMEDY: a sync, reads only the maps hold, damage, a failed
# sync; then the remedy (aside: the DB moved aside; restore: the copy made
# after the first sync put back) and a sync that must write what the maps
# held. The DB holds the 300 users' reads ($dbusers) and $cats cats: a DB
# moved aside takes them with it, the new one starts from the failed sync.
dbusers="300|600"
damaged() {
	for _ in 1 2 3; do cat $F >/dev/null; done
	cats=$((cats + 3))
	"$A" trace --sync --db $DB
	cp $DB $W/copy.db
	cat $F >/dev/null
	cat $F >/dev/null
	check "$1: no -wal file, all is in the DB file" test ! -e $DB-wal
	damage $1
	check "$1: the damage is real (quick_check: $(sqlite3 $DB 'PRAGMA quick_check' 2>&1 | head -n 1))" \
		sh -c "test \"\$(sqlite3 $DB 'PRAGMA quick_check' 2>&1)\" != ok"
	"$A" trace --sync --db $DB 2>$W/err
	st=$?
	sed 's/^/#   /' $W/err
	check "$1: --sync exits 6" test $st = 6
	check "... naming the DB and what is wrong with it" grep -qE "$DB: .*(malformed|not a database)" $W/err
	check "... and what to do" grep -qE "move (it|this file) aside" $W/err
	check "... and that nothing is lost" \
		grep -qxF "abidep: nothing is lost: the counts stay in the pinned maps ('abidep trace --status') until a sync succeeds" $W/err
	check "... the pinned maps hold every access since the last sync (2 cats: 4)" test "$(hits)" = 4
	case $2 in
	aside) mv $DB $DB.damaged-$1; cats=2 dbusers="0|" ;;
	restore) cp $W/copy.db $DB; cats=$((cats + 2)) ;;
	esac
	rm -f $DB-wal $DB-shm
	check "$1, $2: --sync exits 0" "$A" trace --sync --db $DB
	check "... the DB has each access once: the users' ($dbusers), root's $cats cats" \
		same "$(users $DB) $(cat_rows $DB)" "$dbusers open|$cats read|$cats "
	check "... and is sound" test "$(sqlite3 $DB 'PRAGMA integrity_check')" = ok
}
damaged pages aside
damaged truncated restore
damaged text aside
damaged random restore
# --stop into a damaged DB: it fails and leaves the tracer pinned.
cat $F >/dev/null
cats=$((cats + 1))
cp $DB $W/copy.db
damage text
"$A" trace --stop --db $DB 2>$W/err
st=$?
check "--stop into a damaged DB: exit 6, and nothing unpinned" test "$st $(test -e $PIN/usage && echo pinned)" = "6 pinned"
check "... nothing is lost" grep -q "nothing is lost" $W/err
cp $W/copy.db $DB
rm -f $DB-wal $DB-shm
check "the copy put back, --stop exits 0" "$A" trace --stop --db $DB
check "... the DB has each access once: the users' ($dbusers), root's $cats cats" \
	same "$(users $DB) $(cat_rows $DB)" "$dbusers open|$cats read|$cats "
check "... nothing pinned" test ! -e $PIN

reports=$(dmesg | grep -E 'BUG:|WARNING:|Oops|INFO: task .* blocked|possible (circular|recursive) locking')
check "the kernel log has no report" test -z "$reports"
finish fault
