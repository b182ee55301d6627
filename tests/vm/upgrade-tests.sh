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
OLD1=$REL/schema1/src/build/abidep
F=/sys/devices/system/cpu/cpuidle/current_governor_ro
PIN=/sys/fs/bpf/abidep

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

section "the earlier versions were built"
check "previous: commit $(cat $REL/previous/commit)" test -x "$PREV"
check "schema1: commit $(cat $REL/schema1/commit)" test -x "$OLD1"

section "a tracer the previous version pinned, synced and stopped by this one"
DB=/tmp/up.db
check "previous: trace --pin" "$PREV" trace --pin --db $DB
reads 3
check "previous: trace --sync" "$PREV" trace --sync --db $DB
# The 2 -> 3 upgrade is tested on previous's DB (tests/upgrade/releases).
check "... the DB is schema 2 (no swept column)" same "$(sqlite3 $DB 'PRAGMA user_version')" 2
check "... its counts, read by this version" same "$(rows $DB)" "$(want 3)"
check "... which leaves it schema 2 (a reader changes nothing)" \
	same "$(sqlite3 $DB 'PRAGMA user_version')" 2
reads 4
check "this version: trace --status of the old pin" "$A" trace --status
check "this version: trace --sync of the old pin" "$A" trace --sync --db $DB
check "... which makes the DB schema 3" same "$(sqlite3 $DB 'PRAGMA user_version')" 3
check "... every access counted once (3 + 4)" same "$(rows $DB)" "$(want 7)"
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
# A schema 3 DB is newer than previous knows: it refuses it, saying so.
check "the previous version refuses the DB this one upgraded (exit 6)" \
	sh -c "'$PREV' report -j --db $DB >/dev/null 2>/tmp/prev.err; test \$? = 6"
check "... naming a newer abidep" grep -q 'made by a newer abidep (schema 3' /tmp/prev.err

section "a schema 1 DB (no sessions table), read and then written by this version"
DB1=/tmp/schema1.db
check "schema1: trace --pin" "$OLD1" trace --pin --db $DB1
reads 2
check "schema1: trace --stop" "$OLD1" trace --stop --db $DB1
check "... the DB is schema 1" same "$(sqlite3 $DB1 'PRAGMA user_version')" 1
check "this version reports it (2 reads)" same "$(rows $DB1)" "$(want 2)"
check "... and leaves it schema 1 (a reader changes nothing)" \
	same "$(sqlite3 $DB1 'PRAGMA user_version')" 1
# The entry made due: the tables with a Remove-after for it.
mkdir -p /tmp/tables
sed 's/^Deprecated:.*/&\nRemove-after:\t2021/' "$ABIDEP_REPO/migration-tables/sysfs-cpuidle" \
	>/tmp/tables/sysfs-cpuidle
check "check reads it: blocked by cat's reads (exit 1)" \
	sh -c "'$A' check -t /tmp/tables --db $DB1 --entry current_governor_ro >/tmp/c.out; test \$? = 1"
check "... naming the reader" grep -q '/usr/bin/cat' /tmp/c.out
check "this version pins on it" "$A" trace --pin --db $DB1
check "... which makes it schema 3 (sessions, then swept)" \
	same "$(sqlite3 $DB1 "PRAGMA user_version; SELECT count(*) FROM pragma_table_info('usage') WHERE name = 'swept'" | tr '\n' ' ')" "3 1 "
reads 3
check "... and stops" "$A" trace --stop --db $DB1
check "... the old rows and the new summed (2 + 3)" same "$(rows $DB1)" "$(want 5)"
check "... one session recorded, this version's" \
	same "$(sqlite3 $DB1 'SELECT count(*) FROM sessions')" 1

finish upgrade
