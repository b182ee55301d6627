#!/bin/sh
# Guest tests of an upgrade: abidep replaced while a tracer the earlier
# version pinned is counting (as when the package is upgraded under
# abidep-trace.service), and a usage DB an earlier version wrote. The
# earlier versions are built from git by tests/upgrade/build
# (tests/upgrade/releases names them); tests/upgrade/run builds them and
# runs this in the guest. Every count is exact. Ends with
# "upgrade: N passed, N failed".
set -u
. "$(dirname "$0")/../lib.sh"

A=$ABIDEP_REPO/build/abidep
REL=$ABIDEP_REPO/build/release
PREV=$REL/previous/src/build/abidep
OLD7=$REL/schema7/src/build/abidep
OLD6=$REL/schema6/src/build/abidep
OLD4=$REL/schema4/src/build/abidep
OLD3=$REL/schema3/src/build/abidep
OLD2=$REL/schema2/src/build/abidep
OLD1=$REL/schema1/src/build/abidep
F=/sys/devices/system/cpu/cpuidle/current_governor_ro
PIN=/sys/fs/bpf/abidep
# This host's key (tools/lib/hostid.c): its name and its machine id's app-specific id.
KEY=abidep-vm/$(systemd-id128 machine-id --app-specific=316a57bd6edc465e9a50369058c57416 | cut -c1-16)

# "exe op count" for $F, sorted, from the new version's report of DB $1.
rows() {
	"$A" report -j --db "$1" | python3 -c '
import json, sys
out = []
for e in json.load(sys.stdin):
    if sys.argv[1] in e["files"]:
        for u in e["users"]:
            out.append("%s %s %d" % (u["exe"], u["op"], u["count"]))
print("\n".join(sorted(out)))' "$F"
}

# $1 reads of $F by cat: $1 opens and $1 reads.
reads() {
	i=0
	while [ $i -lt "$1" ]; do
		cat $F >/dev/null
		i=$((i + 1))
	done
}

want() {
	printf '/usr/bin/cat open %d\n/usr/bin/cat read %d' "$1" "$1"
}

# "op count" of $F's daily history in DB $1 ($2: an SQL condition), summed over days.
days() {
	sqlite3 "$1" "SELECT op, SUM(count) FROM usage_days WHERE path = '$F' AND ${2:-1}
		GROUP BY op ORDER BY op" | tr '\n' ' '
}

# The keys and sessions of DB $1 ($2: an SQL condition on usage u) whose
# days do not sum to their row: none when all of them were written by this
# version.
unsummed() {
	sqlite3 "$1" "SELECT count(*) FROM usage u WHERE ${2:-1} AND (count, errors, swept) IS NOT
		(SELECT SUM(count), SUM(errors), SUM(swept) FROM usage_days d WHERE d.host = u.host
		 AND d.session = u.session AND d.path = u.path AND d.op = u.op AND d.uid = u.uid
		 AND d.cgroup_id = u.cgroup_id AND d.exe = u.exe)"
}

section "the earlier versions were built"
check "previous: commit $(cat $REL/previous/commit)" test -x "$PREV"
check "schema7: commit $(cat $REL/schema7/commit)" test -x "$OLD7"
check "schema6: commit $(cat $REL/schema6/commit)" test -x "$OLD6"
check "schema4: commit $(cat $REL/schema4/commit)" test -x "$OLD4"
check "schema3: commit $(cat $REL/schema3/commit)" test -x "$OLD3"
check "schema2: commit $(cat $REL/schema2/commit)" test -x "$OLD2"
check "schema1: commit $(cat $REL/schema1/commit)" test -x "$OLD1"

section "a tracer the previous version pinned, synced and stopped by this one"
DB=/tmp/up.db
check "previous: trace --pin" "$PREV" trace --pin --db $DB
reads 3
check "previous: trace --sync" "$PREV" trace --sync --db $DB
# The 5 -> 6 upgrade is tested on previous's DB (tests/upgrade/releases).
check "... the DB is schema 5 (hosts by name alone)" same "$(sqlite3 $DB 'PRAGMA user_version')" 5
check "... its rows keyed by the host name" same "$(sqlite3 $DB 'SELECT DISTINCT host FROM usage')" abidep-vm
check "... its counts, read by this version" same "$(rows $DB)" "$(want 3)"
check "... which leaves it schema 5 (a reader changes nothing)" \
	same "$(sqlite3 $DB 'PRAGMA user_version')" 5
OLDS=$(sqlite3 $DB "SELECT session FROM usage WHERE path = '$F' LIMIT 1")
UPGRADED=$(date +%s)
reads 4
check "this version: trace --status of the old pin" "$A" trace --status
check "this version: trace --sync of the old pin" sh -c "'$A' trace --sync --db $DB 2>/tmp/sync.err"
check "... which makes the DB schema 8" same "$(sqlite3 $DB 'PRAGMA user_version')" 8
check "... the host's rows taken as this host's: keyed by its machine id ($KEY)" \
	same "$(sqlite3 $DB 'SELECT DISTINCT host FROM usage; SELECT DISTINCT host FROM sessions' | tr '\n' ' ')" "$KEY $KEY "
check "... and said" grep -q "^abidep: the rows of host abidep-vm, written before hosts had ids, are this host's: now keyed $KEY\$" /tmp/sync.err
check "... every access counted once (3 + 4)" same "$(rows $DB)" "$(want 7)"
check "... the daily history goes on: previous's 3 and the 4 since" same "$(days $DB)" "open|7 read|7 "
check "... the old pin's session now records its host id and what it watched" \
	same "$(sqlite3 $DB "SELECT host_id FROM sessions WHERE session = '$OLDS';
		SELECT files > 0 FROM watched WHERE session = '$OLDS' AND what = '$F'" | tr '\n' ' ')" "machine-id 1 "
check "... none swept: cat reads the file by name" \
	same "$(sqlite3 $DB "SELECT SUM(swept) FROM usage WHERE path = '$F'")" 0
reads 2
check "this version: trace --stop of the old pin" "$A" trace --stop --db $DB
check "... nothing left pinned" test ! -e $PIN
check "... the last accesses synced (7 + 2)" same "$(rows $DB)" "$(want 9)"
reads 5
check "... none after the stop" same "$(rows $DB)" "$(want 9)"
check "this version pins afresh on the same DB" "$A" trace --pin --db $DB
reads 1
check "... and stops" "$A" trace --stop --db $DB
check "... its session added to the old one's (9 + 1)" same "$(rows $DB)" "$(want 10)"
check "... the old session's days: all its uses, previous's and this version's (3 + 4 + 2)" \
	same "$(days $DB "session = '$OLDS'")" "open|9 read|9 "
check "... both sessions' days sum to their rows, every key" same "$(unsummed $DB)" 0
check "... report --since the upgrade: the uses of the days since, today's (9 + 1)" \
	same "$("$A" report -j --db $DB --since @$UPGRADED | python3 -c '
import json, sys
print(sorted(u["count"] for e in json.load(sys.stdin) if sys.argv[1] in e["files"] for u in e["users"] if u["exe"] == "/usr/bin/cat"))' "$F")" "[10, 10]"
# A schema 8 DB is newer than previous knows: it refuses it, saying so.
check "the previous version refuses the DB this one upgraded (exit 6)" \
	sh -c "'$PREV' report -j --db $DB >/dev/null 2>/tmp/prev.err; test \$? = 6"
check "... naming a newer abidep" grep -q 'made by a newer abidep (schema 8' /tmp/prev.err

# old_db N BINARY WHAT SQL WANT: a DB the schema N version's tracer wrote
# (2 reads), reported by this version, left as it is; this version's
# tracer pins on it, which upgrades it (SQL gives WANT, WHAT says what),
# and sums the old rows and its own (2 + 3), its session's days whole.
old_db() {
	n=$1 old=$2 db=/tmp/schema$1.db
	check "schema$n: trace --pin" "$old" trace --pin --db $db
	reads 2
	check "schema$n: trace --stop" "$old" trace --stop --db $db
	check "... the DB is schema $n" same "$(sqlite3 $db 'PRAGMA user_version')" $n
	olds=$(sqlite3 $db "SELECT group_concat(quote(session)) FROM (SELECT DISTINCT session FROM usage)")
	check "this version reports it (2 reads)" same "$(rows $db)" "$(want 2)"
	check "... and leaves it schema $n (a reader changes nothing)" \
		same "$(sqlite3 $db 'PRAGMA user_version')" $n
	check "this version pins on it" "$A" trace --pin --db $db
	check "... which makes it schema 8 ($3)" same "$(sqlite3 $db "$4" | tr '\n' ' ')" "$5"
	reads 3
	check "... and stops" "$A" trace --stop --db $db
	check "... the old rows and the new summed (2 + 3)" same "$(rows $db)" "$(want 5)"
	check "... all of them this host's, by its key" same "$(sqlite3 $db 'SELECT DISTINCT host FROM usage')" "$KEY"
	check "... the new session's days: its 3, summing to its rows" \
		sh -c "test '$(days $db "session NOT IN ($olds)")' = 'open|3 read|3 ' && test '$(unsummed $db "u.session NOT IN ($olds)")' = 0"
	# Schema 4 had the daily history: the old session's stays whole.
	[ "$n" -lt 4 ] || check "... the old session's days kept (2)" \
		same "$(days $db "session IN ($olds)")" "open|2 read|2 "
}

section "a schema 7 DB (no readings of the clocks), read and then written by this version"
old_db 7 "$OLD7" "the clock table, empty of the old session's, and its boottimes NULL" \
	"PRAGMA user_version; SELECT count(*) FROM pragma_table_info('sessions'); SELECT count(*) FROM sessions WHERE last_sync_bt IS NULL; SELECT count(DISTINCT session) FROM clock" "8 18 1 1 "
# The old session's times stay the wall clock's as it was: judged as
# before, and marked (no clock in check -j's boots).
mkdir -p /tmp/tables
sed 's/^Deprecated:.*/&\nRemove-after:\t2021/' "$ABIDEP_REPO/migration-tables/sysfs-cpuidle" \
	>/tmp/tables/sysfs-cpuidle
check "... check: the old session's boot has no clock (null), this version's has one" \
	same "$("$A" check -j -t /tmp/tables --db /tmp/schema7.db --entry current_governor_ro | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(sorted(str(b["clock"] is None) for h in d["db"]["host_boots"] for b in h["boots"]))')" "['False']"

section "a tracer the schema 7 version pinned early, adopted and synced by this one"
DB7=/tmp/pin7.db
check "schema7: trace --pin --early (its record: no reading of the clocks)" "$OLD7" trace --pin --early
reads 2
check "this version: trace --pin --adopt (the first sync)" "$A" trace --pin --adopt --db $DB7
check "... the session's start at the pin's boottime (from its seconds since boot)" \
	same "$(sqlite3 $DB7 'SELECT started_bt % 1000000000 = 0, started_bt <= first_sync_bt FROM sessions' | tr '\n' ' ')" "1|1 "
check "... the uses with their boottimes" \
	same "$(sqlite3 $DB7 "SELECT count(*) FROM usage WHERE path = '$F' AND first_bt > 0 AND last_bt > 0")" 2
check "... a reading of the clocks" same "$(sqlite3 $DB7 'SELECT count(*) FROM clock')" 1
date -s @$(($(date +%s) - 60 * 86400)) >/dev/null
check "the clock set back 60 days (never synchronized): trace --stop" "$A" trace --stop --db $DB7
date -s @$(($(date +%s) + 60 * 86400)) >/dev/null
check "... check: blocked by the reads (the boot's last reading places them 60 days back, an earlier one now)" \
	sh -c "'$A' check -t /tmp/tables --db $DB7 --entry current_governor_ro >/tmp/c7.out; test \$? = 1"
check "... the host's clock named" grep -q 'its wall clock was wrong: boot .*never synchronized, was set back 60 days' /tmp/c7.out

section "a schema 6 DB (no sessions' first sync), read and then written by this version"
old_db 6 "$OLD6" "the sessions' first sync (NULL in its old sessions)" \
	"PRAGMA user_version; SELECT count(*) FROM pragma_table_info('sessions'); SELECT count(*) FROM sessions WHERE first_sync IS NULL" "8 18 1 "

section "a schema 4 DB (no sessions' losses), read and then written by this version"
old_db 4 "$OLD4" "the sessions' losses, host ids and the watched table" \
	"PRAGMA user_version; SELECT count(*) FROM pragma_table_info('sessions'); SELECT count(*) FROM sqlite_master WHERE name = 'watched'" "8 18 1 "

section "a schema 3 DB (no daily history), read and then written by this version"
old_db 3 "$OLD3" "usage_days, then the sessions' losses" \
	"PRAGMA user_version; SELECT count(*) FROM usage_days; SELECT count(*) FROM pragma_table_info('sessions')" "8 0 18 "

section "a schema 2 DB (no swept column), read and then written by this version"
old_db 2 "$OLD2" "swept, usage_days, the sessions' losses" \
	"PRAGMA user_version; SELECT count(*) FROM pragma_table_info('usage') WHERE name = 'swept'; SELECT count(*) FROM usage_days" "8 1 0 "

section "a schema 1 DB (no sessions table), read and then written by this version"
DB1=/tmp/schema1.db
check "schema1: trace --pin" "$OLD1" trace --pin --db $DB1
reads 2
check "schema1: trace --stop" "$OLD1" trace --stop --db $DB1
check "... the DB is schema 1" same "$(sqlite3 $DB1 'PRAGMA user_version')" 1
check "this version reports it (2 reads)" same "$(rows $DB1)" "$(want 2)"
check "... and leaves it schema 1 (a reader changes nothing)" \
	same "$(sqlite3 $DB1 'PRAGMA user_version')" 1
check "check reads it: blocked by cat's reads (exit 1)" \
	sh -c "'$A' check -t /tmp/tables --db $DB1 --entry current_governor_ro >/tmp/c.out; test \$? = 1"
check "... naming the reader" grep -q '/usr/bin/cat' /tmp/c.out
check "this version pins on it" "$A" trace --pin --db $DB1
check "... which makes it schema 8 (sessions, swept, usage_days, the sessions' losses, watched, clock)" \
	same "$(sqlite3 $DB1 "PRAGMA user_version; SELECT count(*) FROM pragma_table_info('usage') WHERE name = 'swept'; SELECT count(*) FROM sqlite_master WHERE name IN ('usage_days', 'watched', 'clock')" | tr '\n' ' ')" "8 1 3 "
reads 3
check "... and stops" "$A" trace --stop --db $DB1
check "... the old rows and the new summed (2 + 3)" same "$(rows $DB1)" "$(want 5)"
check "... one session recorded, this version's" \
	same "$(sqlite3 $DB1 'SELECT count(*) FROM sessions')" 1
check "... the old rows (no session) taken as this host's" \
	same "$(sqlite3 $DB1 'SELECT DISTINCT host FROM usage')" "$KEY"

finish upgrade
