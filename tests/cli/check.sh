#!/bin/sh
# CLI tests of `abidep check`, `abidep merge` and `abidep report --format
# prometheus`: usage DBs written through the store's API (a helper built
# here), tables written here, every verdict at chosen --now dates, a merge
# of three DBs with exact counts, the metrics compared byte for byte, and
# each bad input with its exit status and message.
# Ends with "check: N passed, N failed".
set -u
# Text is fitted to $COLUMNS when it is set: these compare it whole.
unset COLUMNS
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
A=${ABIDEP:-build/abidep}
A=$(cd "$(dirname "$A")" && pwd)/$(basename "$A")
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

status() {
	"$@" >"$T/out" 2>"$T/err"
	echo $?
}

section "setup"
check "abidep is built ($A; make tools)" test -x "$A"
check "the helper builds (tests/build-helper fill)" sh -c "tests/build-helper fill && cp build/tests/fill '$T/fill'"
# Sessions as a tracer of today writes them: each watched every What of
# the tables here and in the repository throughout (fill's WHATS).
fill() {
	grep -rhIs '^What:' migration-tables "$T" | sed 's/^What:[[:space:]]*//' | sort -u >"$T/whats"
	"$T/fill" "$@" "$T/whats"
}
sql() {
	sqlite3 "$@"
}

# The tables: one entry per verdict to come.
cat >"$T/tables" <<'EOF'
What:		/sys/class/rc/rcN/current_protocol
Date:		April 2010
KernelVersion:	2.6.35
Contact:	Test <t@example.org>
Status:		deprecated
Deprecated:	2010-04-08
Remove-after:	2012-04-08
Replaced-by:	/sys/class/rc/rcN/protocols
Source:		test
Description:
		Still used on one host.

What:		/sys/devices/system/cpu/cpuidle/current_governor_ro
Date:		2019
Contact:	Test <t@example.org>
Status:		deprecated
Deprecated:	2019-06
Remove-after:	2024-03
Replaced-by:	/sys/devices/system/cpu/cpuidle/current_governor
Source:		test
Description:
		Used, but not lately.

What:		/sys/class/foo/fooN/old_mode
Contact:	Test <t@example.org>
Status:		deprecated
Deprecated:	2024-01-01
Remove-after:	2030-01-01
Replaced-by:	/sys/class/foo/fooN/mode
Source:		test
Description:
		Not due.

What:		/sys/class/bar/old_level
What:		/sys/class/bar/old_limit
Contact:	Test <t@example.org>
Status:		deprecated
Deprecated:	2023
Remove-after:	6.12
Replaced-by:	/sys/class/bar/level
		/sys/class/bar/limit
Source:		test
Description:
		A kernel version only.

What:		/sys/kernel/gone
Contact:	Test <t@example.org>
Status:		removed
Deprecated:	2005
Removed:	2010
Replaced-by:	none
Source:		test
Description:
		Removed.

What:		/sys/class/plain/thing
Contact:	Test <t@example.org>
Description:
		Not a migration entry: not checked.
EOF
check "the test tables are valid" "$A" tables validate "$T/tables"

# 2024-05-01T10:00:00Z; day 60 is 2024-06-30.
t0=1714557600
t60=$((t0 + 60 * 86400))
RC=/sys/class/rc/rcN/current_protocol
GOV=/sys/devices/system/cpu/cpuidle/current_governor_ro
# host|session|path|what|table|status|op|uid|cgroup_id|cgroup|exe|comm|pid|ppid|count|errors|first|last
cat >"$T/rows" <<X
h1|b1:1|/sys/class/rc/rc0/current_protocol|$RC|sysfs-class-rc|deprecated|write|1000|55|-|/usr/local/bin/legacy-irctl|legacy-irctl|400|1|4|4|$((t0 + 5))|$((t0 + 9))
h2|b2:3|/sys/class/rc/rc1/current_protocol|$RC|sysfs-class-rc|deprecated|read|0|56|-|/usr/bin/cat|cat|500|1|2|0|$t60|$((t60 + 10))
h2|b2:3|/sys/class/rc/rc1/current_protocol|$RC|sysfs-class-rc|deprecated|open|0|56|-|/usr/bin/cat|cat|500|1|1|0|$t60|$t60
h1|b1:1|$GOV|$GOV|sysfs-cpuidle|deprecated|read|0|10|/system.slice/mon.service|/usr/bin/cat|cat|100|1|3|0|$t0|$((t0 + 60))
h3|b9:2|/sys/class/bar/old_limit|-|-|-|read|0|10|-|/usr/bin/cat|cat|7|1|1|0|$((t0 + 3600))|$((t0 + 3600))
h3|b9:2|/sys/other/x|/sys/other/x|sysfs-other|deprecated|read|0|10|-|/usr/bin/cat|cat|7|1|1|0|$((t0 + 3600))|$((t0 + 3600))
X
fill "$T/u.db" <"$T/rows"
check "the DB is written through store_upsert" test "$(sql "$T/u.db" 'SELECT count(*) FROM usage')" = 6
mkdir -p "$T/root/var/lib/dpkg/info"
printf '/.\n/bin\n/bin/cat\n' >"$T/root/var/lib/dpkg/info/coreutils.list"
ck() {
	"$A" check --tables "$T/tables" --db "$T/u.db" --root "$T/root" "$@"
}
# The one entry of check -j's JSON on stdin: "verdict|reason".
one_verdict() {
	python3 -c '
import json, sys
d = json.load(sys.stdin)
assert len(d["entries"]) == 1, d
e = d["entries"][0]
print(e["verdict"] + "|" + e["reason"])'
}
# The verdict of one entry at one date.
verdict() {
	ck -j "$@" | one_verdict
}

section "check: every verdict"
cat >"$T/want" <<X
ENTRY                                                REPLACED-BY                                       DEPRECATED  REMOVE-AFTER  VERDICT  BLOCKERS
/sys/class/rc/rcN/current_protocol                   /sys/class/rc/rcN/protocols                       2010-04-08  2012-04-08    blocked  1
/sys/devices/system/cpu/cpuidle/current_governor_ro  /sys/devices/system/cpu/cpuidle/current_governor  2019-06     2024-03       ready    -
/sys/class/foo/fooN/old_mode                         /sys/class/foo/fooN/mode                          2024-01-01  2030-01-01    not-due  -
/sys/class/bar/old_level (+1)                        /sys/class/bar/level (+1)                         2023        6.12          not-due  -
/sys/kernel/gone                                     none                                              2005        removed 2010  ready    -

/sys/class/rc/rcN/current_protocol (blocked): used by 1 program since 2024-06-15T00:00:00Z
  USED BY       PACKAGE    UIDS  USES  IN-WINDOW  FAILED  OPS        LAST-SEEN             HOSTS
  /usr/bin/cat  coreutils  0        3          3       0  open,read  2024-06-30T10:00:10Z  h2

5 entries at 2024-07-15T00:00:00Z, quiet since 2024-06-15T00:00:00Z: 2 ready, 1 blocked, 2 not-due, 0 no-data
usage DB $T/u.db: 6 rows, uses from 2024-05-01T10:00:00Z to 2024-06-30T10:00:10Z, hosts h1, h2, h3, 1 row of entries not checked
sessions: none (the DB predates them): the quiet window counts as covered by any use from before it, which cannot show the tracer kept running
X
check "--now 2024-07-15: one entry blocked, exit 1" test "$(status ck --now 2024-07-15)" = 1
check "... ready, blocked (by whom), not-due; the non-migration entry left out" diff -u "$T/want" "$T/out"
check "... nothing on stderr" test ! -s "$T/err"
ck --now 2024-07-15 --by-host >"$T/byhost"
grep -v '^  ' "$T/want" >"$T/want-rest"
check "--by-host: the verdicts and the summary as without" sh -c "grep -v '^  ' '$T/byhost' | diff -u '$T/want-rest' -"
check "... a line per (exe, uid, host)" \
	grep -qx '  used by /usr/bin/cat (package coreutils, uid 0, host h2): 3 uses (open,read), 3 in the window, 0 failed, last 2024-06-30T10:00:10Z' "$T/byhost"
check "-t and -d are --tables and --db, as in every command that takes them" \
	sh -c "'$A' check -t '$T/tables' -d '$T/u.db' --root '$T/root' --now 2024-07-15 | diff -u '$T/want' -"
cat >"$T/want" <<X
ENTRY                                                REPLACED-BY                                       DEPRECATED  REMOVE-AFTER  VERDICT  BLOCKERS
/sys/class/rc/rcN/current_protocol                   /sys/class/rc/rcN/protocols                       2010-04-08  2012-04-08    blocked  2
/sys/devices/system/cpu/cpuidle/current_governor_ro  /sys/devices/system/cpu/cpuidle/current_governor  2019-06     2024-03       blocked  1
/sys/class/foo/fooN/old_mode                         /sys/class/foo/fooN/mode                          2024-01-01  2030-01-01    not-due  -
/sys/class/bar/old_level (+1)                        /sys/class/bar/level (+1)                         2023        6.12          not-due  -
/sys/kernel/gone                                     none                                              2005        removed 2010  no-data  -

/sys/class/rc/rcN/current_protocol (blocked): used by 2 programs since 2024-04-20T00:00:00Z
  used by /usr/bin/cat (package coreutils, uid 0, host h2): 3 uses (open,read), 3 in the window, 0 failed, last 2024-06-30T10:00:10Z
  used by /usr/local/bin/legacy-irctl (package -, uid 1000, host h1): 4 uses (write), 4 in the window, 4 failed, last 2024-05-01T10:00:09Z

/sys/devices/system/cpu/cpuidle/current_governor_ro (blocked): used by 1 program since 2024-04-20T00:00:00Z
  used by /usr/bin/cat (package coreutils, uid 0, host h1): 3 uses (read), 3 in the window, 0 failed, last 2024-05-01T10:01:00Z

/sys/kernel/gone (no-data): the usage DB starts 2024-05-01T10:00:00Z, after the quiet window began (2024-04-20T00:00:00Z)

5 entries at 2024-05-20T00:00:00Z, quiet since 2024-04-20T00:00:00Z: 0 ready, 2 blocked, 2 not-due, 1 no-data
usage DB $T/u.db: 6 rows, uses from 2024-05-01T10:00:00Z to 2024-06-30T10:00:10Z, hosts h1, h2, h3, 1 row of entries not checked
sessions: none (the DB predates them): the quiet window counts as covered by any use from before it, which cannot show the tracer kept running
X
cp "$T/want" "$T/want-may"
check "--now 2024-05-20 --by-host: the DB starts inside the quiet window, exit 1" test "$(status ck --now 2024-05-20 --by-host)" = 1
check "... blocked by every user in the window; no-data, and why" diff -u "$T/want" "$T/out"
check "ready only: exit 0" test "$(status ck --now 2024-07-15 --entry cpuidle)" = 0
check "... ready" test "$(verdict --now 2024-07-15 --entry cpuidle)" = "ready|no use since 2024-06-15T00:00:00Z"
check "no-data only: exit 12" test "$(status ck --now 2024-05-20 --entry /sys/kernel/gone)" = 12
check "not-due only: exit 13, not 0 (a gate must keep it)" test "$(status ck --now 2024-07-15 --entry fooN)" = 13
# The gate of check.rst: on 2024-07-15 cpuidle is ready, gone removed
# (ready), rc blocked, fooN not-due; on 2024-05-20 gone is no-data.
gate() {
	ABIDEP="$A" contrib/release-gate "$T/u.db" "$@" -- --tables "$T/tables" --root "$T/root"
}
check "release-gate removes the ready and the removed, keeps the blocked and the not-due (exit 1)" \
	test "$(gate 2024-07-15 cpuidle /sys/kernel/gone current_protocol fooN; echo "exit $?")" = "remove cpuidle
remove /sys/kernel/gone
keep current_protocol: blocked: in use
keep fooN: not due yet
exit 1"
check "... keeps the no-data" test "$(gate 2024-05-20 /sys/kernel/gone)" = "keep /sys/kernel/gone: no data: the tracer did not cover the quiet window"
check "... keeps an entry check cannot judge (exit 10: no such entry)" \
	test "$(gate 2024-07-15 no-such-entry)" = "keep no-such-entry: abidep check failed (exit 10): run it to see why"
check "... keeps a name that names several entries (exit 10)" \
	test "$(gate 2024-07-15 current_)" = "keep current_: abidep check failed (exit 10): run it to see why"
check "... passes a pattern to check as it is, not as a glob of the current directory" \
	test "$(cd "$T/root" && touch x-cpuidle-x && ABIDEP="$A" "$OLDPWD/contrib/release-gate" "$T/u.db" 2024-07-15 '*cpuidle*' -- --tables "$T/tables" --root "$T/root")" = "remove *cpuidle*"
# The real tables have Whats with spaces: each one entry, printed whole.
rgate() {
	ABIDEP="$A" contrib/release-gate "$T/u.db" "$@" -- --tables migration-tables --root "$T/root"
}
check "... takes an entry with spaces whole (the real tables' 'tcp_dma_copybreak sysctl', '/sys/o2cb symlink')" \
	same "$(rgate 2024-07-15 'tcp_dma_copybreak sysctl' '/sys/o2cb symlink'; echo "exit $?")" "remove tcp_dma_copybreak sysctl
remove /sys/o2cb symlink
exit 0"
check "... and keeps one whole" same "$(rgate 2024-07-15 'no such entry'; echo "exit $?")" \
	"keep no such entry: abidep check failed (exit 10): run it to see why
exit 1"
check "... exits 0 when all may go" test "$(gate 2024-07-15 cpuidle >/dev/null; echo $?)" = 0
check "... and 2 on bad usage" test "$(contrib/release-gate "$T/u.db" 2>/dev/null; echo $?)" = 2
check "... not-due until the day after Remove-after" test "$(verdict --now 2024-07-15 --entry fooN)" = "not-due|due on 2030-01-02"
check "Remove-after 2024-03: not due on 2024-03-31T23:59:59Z" \
	test "$(verdict --now 2024-03-31T23:59:59Z --entry cpuidle)" = "not-due|due on 2024-04-01"
check "... due at 2024-04-01 (the DB's later uses count: blocked)" \
	test "$(verdict --now 2024-04-01 --entry cpuidle)" = "blocked|used by 1 program since 2024-03-02T00:00:00Z"
check "--quiet-days 90: the May use blocks in July" \
	test "$(verdict --now 2024-07-15 --quiet-days 90 --entry cpuidle)" = "blocked|used by 1 program since 2024-04-16T00:00:00Z"
check "--quiet-days 0 and @seconds: a use at the very second blocks" \
	test "$(verdict --now @$((t0 + 60)) --quiet-days 0 --entry cpuidle)" = "blocked|used by 1 program since 2024-05-01T10:01:00Z"
check "a kernel version only, no --kernel: not-due, and says why" \
	test "$(verdict --now 2024-07-15 --entry old_limit)" = "not-due|due after kernel 6.12: give --kernel to judge it"
check "... --kernel 6.12.5 is still 6.12: not-due" \
	test "$(verdict --now 2024-07-15 --entry old_limit --kernel 6.12.5)" = "not-due|due after kernel 6.12 (--kernel 6.12.5)"
check "... --kernel v6.13: due, ready" \
	test "$(verdict --now 2024-07-15 --entry old_limit --kernel v6.13)" = "ready|no use since 2024-06-15T00:00:00Z"
check "... a row the tracer could not name (What NULL) counts by its path" \
	test "$(verdict --now 2024-05-20 --entry old_limit --kernel 7.0)" = "blocked|used by 1 program since 2024-04-20T00:00:00Z"
check "--entry, a concrete file" test "$(verdict --now 2024-07-15 --entry /sys/class/rc/rc7/current_protocol | cut -d'|' -f1)" = blocked
check "-j: the whole of one entry, and the DB" sh -c "'$A' check -j --tables '$T/tables' --db '$T/u.db' --root '$T/root' --now 2024-07-15 --entry rcN | python3 -c '
import json, sys
d = json.load(sys.stdin)
want = {\"now\": \"2024-07-15T00:00:00Z\", \"quiet_days\": 30, \"quiet_since\": \"2024-06-15T00:00:00Z\",
 \"kernel\": None, \"count_sweeps\": False, \"allow_late_boot\": False,
 \"db\": {\"path\": \"$T/u.db\", \"exists\": True, \"rows\": 6, \"unmatched_rows\": 3, \"hosts\": [\"h1\", \"h2\", \"h3\"],
        \"first_use\": \"2024-05-01T10:00:00Z\", \"last_use\": \"2024-06-30T10:00:10Z\",
        \"sessions\": 0, \"coverage\": \"first-use\", \"watched_set_unknown_hosts\": 0,
        \"sessions_by_stage\": {\"initramfs\": 0, \"early\": 0, \"late\": 0, \"unknown\": 0},
        \"late_boot_hosts\": 0, \"unwatched_at_boot_hosts\": 0, \"clock_wrong_hosts\": 0,
        \"unsynchronized_hosts\": 0, \"host_boots\": [], \"uncovered_hosts\": []},
 \"scan\": None, \"scan_packages\": None, \"summary\": {\"ready\": 0, \"blocked\": 1, \"not-due\": 0, \"no-data\": 0, \"removed\": 0},
 \"entries\": [{\"what\": [\"$RC\"], \"status\": \"deprecated\", \"replaced_by\": [\"/sys/class/rc/rcN/protocols\"],
   \"deprecated\": \"2010-04-08\", \"remove_after\": \"2012-04-08\", \"removed\": None, \"file\": \"$T/tables\",
   \"due\": True, \"verdict\": \"blocked\", \"reason\": \"used by 1 program since 2024-06-15T00:00:00Z\",
   \"last_use\": \"2024-06-30T10:00:10Z\", \"unwatched_hosts\": [], \"watched_set_unknown\": 0,
   \"blockers\": [{\"kind\": \"use\", \"exe\": \"/usr/bin/cat\", \"package\": \"coreutils\", \"package_version\": None,
     \"maintainer\": None, \"source_package\": None, \"uid\": 0, \"host\": \"h2\",
     \"ops\": [\"open\", \"read\"], \"count\": 3, \"swept\": 0, \"errors\": 0, \"first_seen\": \"2024-06-30T10:00:00Z\",
     \"last_seen\": \"2024-06-30T10:00:10Z\", \"uses_in_window\": 3}],
   \"weak_references\": [], \"enumerated\": []}]}
if d != want:
    print(json.dumps(d, indent=1)); sys.exit(1)
'"
check "abidep -p check: the global option, pretty" sh -c "'$A' -p check --tables '$T/tables' --db '$T/u.db' --now 2024-07-15 | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d[\"summary\"] == {\"ready\": 2, \"blocked\": 1, \"not-due\": 2, \"no-data\": 0, \"removed\": 0}' && test \$('$A' -p check --tables '$T/tables' --db '$T/u.db' --now 2024-07-15 | wc -l) -gt 50"
: | fill "$T/empty.db"
check "an empty DB: every due entry no-data, exit 12" test "$(status ck --db "$T/empty.db" --now 2024-07-15)" = 12
check "... and why" grep -qx "/sys/kernel/gone (no-data): the usage DB is empty: nothing shows the tracer ran" "$T/out"
check "... 3 of them" grep -q ": 0 ready, 0 blocked, 2 not-due, 3 no-data$" "$T/out"

section "check --entry: a name names one entry"
check "a name that selects several entries: exit 10" \
	test "$(status ck --db "$T/empty.db" --now 2024-07-15 --entry current_)" = 10
check "... listing them" sh -c "grep -qx 'abidep: --entry current_ names 2 entries; give one.s What (or a glob or a path to select several):' '$T/err' &&
	grep -qx '  /sys/class/rc/rcN/current_protocol' '$T/err' &&
	grep -qx '  /sys/devices/system/cpu/cpuidle/current_governor_ro' '$T/err' && test ! -s '$T/out'"
check "a glob may select several" test "$(status ck --db "$T/empty.db" --now 2024-07-15 --entry '*current_*')" = 12
check "rc in the real tables: not the ACPI force_remove silently, exit 10" \
	test "$(status "$A" check -t migration-tables --db "$T/empty.db" --now 2024-07-15 --entry rc)" = 10
check "... force_remove among the candidates" grep -qx '  /sys/firmware/acpi/hotplug/force_remove' "$T/err"
check "a name that is one What's last component: that entry alone" sh -c "
	'$A' check -j -t migration-tables --db '$T/empty.db' --now 2024-07-15 --entry protocol | python3 -c '
import json, sys
d = json.load(sys.stdin)[\"entries\"]
assert [e[\"what\"] for e in d] == [[\"/sys/class/rc/rcN/protocol\"]], d
'"

section "check: uses in the quiet window (the daily history)"
# One session of cat reading rc0 from day 0 (2024-05-01): 10 uses by day
# 44, 2 more on day 50, 1 on day 70 (2024-07-10); the quiet window of
# --now 2024-07-15 starts on day 45 (2024-06-15), of --now 2024-07-30 on day 60.
for c in "10|$((t0 + 44 * 86400))" "12|$((t0 + 50 * 86400))" "13|$((t0 + 70 * 86400))"; do
	echo "h1|w:1|/sys/class/rc/rc0/current_protocol|$RC|sysfs-class-rc|deprecated|read|0|5|-|/usr/bin/cat|cat|1|1|${c%|*}|0|$t0|${c#*|}" |
		fill "$T/win.db"
done
cp "$T/win.db" "$T/win3.db"
sql "$T/win3.db" "$UNDO_SCHEMA8 DROP TABLE usage_days; ALTER TABLE sessions DROP COLUMN unrecorded;
	ALTER TABLE sessions DROP COLUMN skipped; ALTER TABLE sessions DROP COLUMN lost_at;
	ALTER TABLE sessions DROP COLUMN drained; ALTER TABLE sessions DROP COLUMN host_id; ALTER TABLE sessions DROP COLUMN stage;
	ALTER TABLE sessions DROP COLUMN boot_offset; ALTER TABLE sessions DROP COLUMN first_sync;
	DROP TABLE watched; PRAGMA user_version = 3"
# "verdict count uses_in_window" of the one entry's one blocker.
in_window() {
	"$A" check -j --tables "$T/tables" --entry rcN "$@" | python3 -c '
import json, sys
e = json.load(sys.stdin)["entries"][0]
b = e["blockers"]
assert len(b) == 1, b
print(e["verdict"], b[0]["count"], b[0]["uses_in_window"])'
}
check "a blocker's uses in the window: those of the window's days (3 of 13)" \
	same "$(in_window --db "$T/win.db" --now 2024-07-15)" "blocked 13 3"
check "... a later window: its one use" same "$(in_window --db "$T/win.db" --now 2024-07-30)" "blocked 13 1"
check "... the text says so: per use (--by-host), and in the table's IN-WINDOW" sh -c "
	'$A' check --by-host --tables '$T/tables' --root '$T/root' --entry rcN --db '$T/win.db' --now 2024-07-15 |
		grep -q '^  used by /usr/bin/cat (package coreutils, uid 0, host h1): 13 uses (read), 3 in the window, 0 failed,' &&
	'$A' check --tables '$T/tables' --root '$T/root' --entry rcN --db '$T/win.db' --now 2024-07-15 |
		grep -Eq '^  /usr/bin/cat +coreutils +0 +13 +3 +0 +read '"
check "... a window that starts late on day 44: that day's uses too (whole days)" \
	same "$(in_window --db "$T/win.db" --now 2024-07-14T12:00)" "blocked 13 13"
check "a schema 3 DB (no history): the same verdict, null" \
	same "$(in_window --db "$T/win3.db" --now 2024-07-15)" "blocked 13 None"
check "... the text: no count in the window, IN-WINDOW '-'" sh -c "
	'$A' check --by-host --tables '$T/tables' --root '$T/root' --entry rcN --db '$T/win3.db' --now 2024-07-15 |
		grep -q '^  used by /usr/bin/cat (package coreutils, uid 0, host h1): 13 uses (read), 0 failed,' &&
	'$A' check --tables '$T/tables' --root '$T/root' --entry rcN --db '$T/win3.db' --now 2024-07-15 |
		grep -Eq '^  /usr/bin/cat +coreutils +0 +13 +- +0 +read '"
cp "$T/win3.db" "$T/win4.db"
echo "h1|w:2|/sys/class/rc/rc0/current_protocol|$RC|sysfs-class-rc|deprecated|read|0|5|-|/usr/bin/cat|cat|1|1|1|0|$((t0 + 71 * 86400))|$((t0 + 71 * 86400))" |
	fill "$T/win4.db"
check "... upgraded, a new session with history: still null (the old row's are unknown)" \
	same "$(in_window --db "$T/win4.db" --now 2024-07-15)" "blocked 14 None"
echo "h1|w:3|/sys/class/rc/rc0/current_protocol|$RC|sysfs-class-rc|deprecated|read|0|5|-|/usr/bin/udevadm|udevadm|1|1|4|0|$((t0 + 50 * 86400))|$((t0 + 50 * 86400))|4" |
	fill "$T/win.db"
check "an enumerated use (a sweep) has it too" sh -c "'$A' check -j --tables '$T/tables' --entry rcN --db '$T/win.db' --now 2024-07-15 | python3 -c '
import json, sys
e = json.load(sys.stdin)[\"entries\"][0]
assert [(u[\"exe\"], u[\"uses_in_window\"]) for u in e[\"enumerated\"]] == [(\"/usr/bin/udevadm\", 4)], e
'"

section "check --scan"
mkdir -p "$T/sroot/usr/bin" "$T/sroot/usr/share/doc/x" "$T/sroot/var/lib/dpkg/info" \
	"$T/sroot/usr/lib/udev/rules.d" "$T/uroot/etc/udev/rules.d"
printf '#!/bin/sh\ncat /sys/class/rc/rc0/current_protocol\n' >"$T/sroot/usr/bin/irtool"
# udevd reads the attribute for every event of the device: a use.
printf 'SUBSYSTEM=="rc", ATTR{current_protocol}=="nec", RUN+="/bin/true"\n' \
	>"$T/sroot/usr/lib/udev/rules.d/60-ir.rules"
cp "$T/sroot/usr/lib/udev/rules.d/60-ir.rules" "$T/uroot/etc/udev/rules.d/"
# Documentation mentions, however precise: weak.
printf 'see rc0/current_protocol\n' >"$T/sroot/usr/share/doc/x/README"
printf 'old_mode\ncurrent_governor_ro\n' >"$T/sroot/usr/share/doc/x/notes"
printf '/.\n/usr/bin/irtool\n' >"$T/sroot/var/lib/dpkg/info/irtools.list"
check "a udev rule's ATTR{current_protocol} alone blocks, exit 1" \
	test "$(status ck --db "$T/empty.db" --now 2024-07-15 --scan "$T/uroot" --entry '*current_*')" = 1
check "strong and medium references block; weak ones do not, exit 1" \
	test "$(status ck --db "$T/empty.db" --now 2024-07-15 --scan "$T/sroot" --entry '*current_*')" = 1
cat >"$T/want" <<X

/sys/class/rc/rcN/current_protocol (blocked): referenced 2 times (strong or medium)
  referenced in /usr/bin/irtool:2 (package irtools, strong): /sys/class/rc/rc0/current_protocol
  referenced in /usr/lib/udev/rules.d/60-ir.rules:1 (package -, strong): ATTR{current_protocol}
  weak reference, not blocking, in /usr/share/doc/x/README:1 (package -, weak): rc0/current_protocol

/sys/devices/system/cpu/cpuidle/current_governor_ro (no-data): the usage DB is empty: nothing shows the tracer ran
  weak reference, not blocking, in /usr/share/doc/x/notes:2 (package -, weak): current_governor_ro
X
check "... listed with file, line, package, confidence" sh -c "sed -n '4,11p' '$T/out' | diff -u '$T/want' -"
check "... the scan summed up" grep -qx "scan: 5 files, 5 references, 0 unreadable" "$T/out"
check "a weak reference alone, with a quiet DB: ready, exit 0" \
	test "$(status ck --now 2024-07-15 --scan "$T/sroot" --entry cpuidle)" = 0
check "... -j: the weak reference apart" sh -c "'$A' check -j --tables '$T/tables' --db '$T/u.db' --now 2024-07-15 --scan '$T/sroot' --entry cpuidle | python3 -c '
import json, sys
e = json.load(sys.stdin)[\"entries\"][0]
assert e[\"verdict\"] == \"ready\" and e[\"blockers\"] == [], e
assert e[\"weak_references\"] == [{\"kind\": \"reference\", \"file\": \"/usr/share/doc/x/notes\", \"line\": 2,
  \"package\": None, \"package_version\": None, \"maintainer\": None, \"source_package\": None,
  \"confidence\": \"weak\", \"match\": \"current_governor_ro\"}], e
'"
check "a use and a reference both block" \
	test "$(verdict --now 2024-07-15 --scan "$T/sroot" --entry rcN)" = "blocked|used by 1 program since 2024-06-15T00:00:00Z, and referenced 2 times"
mkdir -p "$T/bigroot/var"
cp -r "$T/sroot/usr" "$T/bigroot/"
truncate -s 2G "$T/bigroot/var/disk.img"
check "a file --scan could not read (over the size cap): no entry ready, exit 12" \
	test "$(status ck --now 2024-07-15 --scan "$T/bigroot" --entry cpuidle)" = 12
check "... the reason names it" \
	test "$(verdict --now 2024-07-15 --scan "$T/bigroot" --entry cpuidle)" = "no-data|1 file could not be read whole (--scan): $T/bigroot/var/disk.img"
check "--scan of a missing ROOT: exit 2" test "$(status ck --now 2024-07-15 --scan "$T/nothere")" = 2
check "... named" grep -q "$T/nothere" "$T/err"

section "check --scan-packages"
# A package whose script reads the attribute; another, of a doc mention only.
mkdir -p "$T/debs" "$T/deb1/DEBIAN" "$T/deb1/usr/bin" "$T/deb2/DEBIAN" "$T/deb2/usr/share/doc/x"
printf 'Package: irtools\nVersion: 1.0-1\nArchitecture: all\nMaintainer: IR Team <ir@example.org>\nSource: ir-src (1.0-1)\nDescription: test\n' \
	>"$T/deb1/DEBIAN/control"
cp "$T/sroot/usr/bin/irtool" "$T/deb1/usr/bin/"
printf 'Package: irdoc\nVersion: 2\nArchitecture: all\nMaintainer: Doc <d@example.org>\nDescription: test\n' \
	>"$T/deb2/DEBIAN/control"
printf 'old_mode\ncurrent_governor_ro\n' >"$T/deb2/usr/share/doc/x/README"
check "two packages built (dpkg-deb --build)" sh -c "dpkg-deb -Zxz --build '$T/deb1' '$T/debs/irtools.deb' >/dev/null &&
	dpkg-deb -Zgzip --build '$T/deb2' '$T/debs/irdoc.deb' >/dev/null"
check "a package's script reference blocks, exit 1" \
	test "$(status ck --db "$T/empty.db" --now 2024-07-15 --scan-packages "$T/debs" --entry '*current_*')" = 1
check "... listed with the package file, the file, line, package" \
	grep -qx "  referenced in $T/debs/irtools.deb: /usr/bin/irtool:2 (package irtools, strong): /sys/class/rc/rc0/current_protocol" "$T/out"
check "... the package scan summed up" \
	grep -qx "package scan: 2 package files (0 from the cache), 4 files, 3 references, 0 unreadable" "$T/out"
check "... -j: the reference's archive" sh -c "'$A' check -j --tables '$T/tables' --db '$T/empty.db' --now 2024-07-15 --scan-packages '$T/debs/irtools.deb' --entry rcN | python3 -c '
import json, sys
d = json.load(sys.stdin)
e = d[\"entries\"][0]
assert e[\"verdict\"] == \"blocked\", e
assert [(b[\"archive\"], b[\"file\"], b[\"package\"]) for b in e[\"blockers\"]] == [(\"$T/debs/irtools.deb\", \"/usr/bin/irtool\", \"irtools\")], e
assert d[\"scan_packages\"][\"packages\"] == 1 and d[\"scan_packages\"][\"unreadable\"] == [], d
'"
check "only a doc mention, with a quiet DB: ready, exit 0" \
	test "$(status ck --now 2024-07-15 --scan-packages "$T/debs/irdoc.deb" --entry cpuidle)" = 0
head -c 300 "$T/debs/irtools.deb" >"$T/debs/cut.deb"
check "... with a truncated package beside it: no-data, exit 12" \
	test "$(status ck --now 2024-07-15 --scan-packages "$T/debs/irdoc.deb" --scan-packages "$T/debs/cut.deb" --entry cpuidle)" = 12
check "... which it names" \
	test "$(verdict --now 2024-07-15 --scan-packages "$T/debs/irdoc.deb" --scan-packages "$T/debs/cut.deb" --entry cpuidle)" = "no-data|1 package file could not be read whole (--scan-packages): $T/debs/cut.deb"
check "--scan-packages of a missing path: exit 2" \
	test "$(status ck --now 2024-07-15 --scan-packages "$T/nothere.deb")" = 2
check "... named" grep -q "$T/nothere.deb" "$T/err"

section "check --scan without a usage DB: references judged alone, none ready"
# No file at the default DB path (nothing traced here): missing evidence,
# not an error, when there is a scan to judge. These need that path free.
if [ -e /var/lib/abidep/usage.db ]; then
	skip "check without a DB: /var/lib/abidep/usage.db exists on this machine"
else
	nodb() {
		"$A" check --tables "$T/tables" --root "$T/root" "$@"
	}
	check "references block, exit 1" \
		test "$(status nodb --now 2024-07-15 --scan "$T/sroot" --entry '*current_*')" = 1
	check "... said on stderr" grep -qx "abidep: no usage DB at /var/lib/abidep/usage.db: judging the references alone; no entry can be ready (no-data)" "$T/err"
	check "... the entry with a weak reference only: no-data, never ready" \
		grep -qx "/sys/devices/system/cpu/cpuidle/current_governor_ro (no-data): no usage DB: nothing traced shows that no program uses it" "$T/out"
	check "... the summary says there is none" \
		grep -qx "usage DB /var/lib/abidep/usage.db: none (nothing traced): the references judged alone, no entry ready" "$T/out"
	check "... no line of sessions (there is no DB to have them)" sh -c "! grep -q '^sessions' '$T/out'"
	check "that entry alone: exit 12 (with a quiet DB: ready, exit 0, above)" \
		test "$(status nodb --now 2024-07-15 --scan "$T/sroot" --entry cpuidle)" = 12
	check "-j: db.exists false, coverage none; years later, every due entry blocked or no-data" \
		sh -c "'$A' check -j --tables '$T/tables' --now 2040-01-01 --scan '$T/sroot' 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d[\"db\"][\"exists\"] is False and d[\"db\"][\"coverage\"] == \"none\", d[\"db\"]
due = [e[\"verdict\"] for e in d[\"entries\"] if e[\"due\"]]
assert due and set(due) == {\"blocked\", \"no-data\"} and d[\"summary\"][\"ready\"] == 0, d[\"summary\"]
'"
	check "--scan-packages too: the package's reference blocks, exit 1" \
		test "$(status nodb --now 2024-07-15 --scan-packages "$T/debs" --entry '*current_*')" = 1
	check "no scan: exit 6, pointing to --scan and scan --by-package" sh -c "
		'$A' check --tables '$T/tables' 2>'$T/err'; test \$? = 6 &&
		grep -q -- '--scan ROOT' '$T/err' && grep -q 'abidep scan --by-package' '$T/err'"
	check "a DB named with -d must exist, scan or not: exit 6" \
		test "$(status nodb -d "$T/none.db" --now 2024-07-15 --scan "$T/sroot")" = 6
fi

section "check: the packages' maintainers"
# dpkg's status names the owner's maintainer and source: in JSON, CSV,
# Markdown and HTML; the terminal's text has no room for it.
mkdir -p "$T/mroot/var/lib/dpkg/info"
cp "$T/root/var/lib/dpkg/info/coreutils.list" "$T/mroot/var/lib/dpkg/info/"
MS='Michael Stone <mstone@debian.org>'
printf 'Package: coreutils\nVersion: 9.1-1\nMaintainer: %s\nSource: coreutils (9.1-1)\n' "$MS" \
	>"$T/mroot/var/lib/dpkg/status"
mk() {
	"$A" check --tables "$T/tables" --db "$T/u.db" --root "$T/mroot" --now 2024-07-15 --entry rcN "$@"
}
check "-j: the blocker's maintainer and source package" sh -c "'$A' check -j --tables '$T/tables' --db '$T/u.db' --root '$T/mroot' --now 2024-07-15 --entry rcN | python3 -c '
import json, sys
b = json.load(sys.stdin)[\"entries\"][0][\"blockers\"]
got = [(u[\"exe\"], u[\"package\"], u[\"package_version\"], u[\"maintainer\"], u[\"source_package\"]) for u in b]
assert got == [(\"/usr/bin/cat\", \"coreutils\", \"9.1-1\", \"$MS\", \"coreutils\")], got'"
check "--format csv: maintainer and source_package, the last columns" sh -c "'$A' check --format csv --tables '$T/tables' --db '$T/u.db' --root '$T/mroot' --now 2024-07-15 --entry rcN | python3 -c '
import csv, sys
rows = list(csv.reader(sys.stdin))
assert rows[0][-4:] == [\"package_version\", \"uses_in_window\", \"maintainer\", \"source_package\"], rows[0]
assert [(r[6], r[-2], r[-1]) for r in rows[1:]] == [(\"/usr/bin/cat\", \"$MS\", \"coreutils\")], rows'"
mk --format markdown | sed -n 's/^| \(.*\) |$/\1/p' | sed 's/ | /|/g' >"$T/md"
check "--format markdown: a MAINTAINER column beside PACKAGE" sh -c "
	grep -qx 'USED BY|PACKAGE|MAINTAINER|UIDS|USES|IN-WINDOW|FAILED|OPS|LAST-SEEN|HOSTS' '$T/md' &&
	grep -q '^\`/usr/bin/cat\`|\`coreutils\`|\`$MS\`|0|3|3|0|' '$T/md'"
mk >"$T/m.txt"
check "... text: the table as it was" sh -c "
	grep -Eq '^  /usr/bin/cat +coreutils +0 +3 +3 +0 +open,read ' '$T/m.txt' && ! grep -q Stone '$T/m.txt'"
mk --format html >"$T/m.html"
check "--format html: beside the package, escaped" \
	grep -qF '<td>coreutils</td><td class="maintainer">Michael Stone &lt;mstone@debian.org&gt;</td>' "$T/m.html"
mk --scan "$T/sroot" --format html >"$T/m.html"
check "--scan: the references' maintainer column, '-' until the scan names it" \
	grep -qF '<td class="n">2</td><td>irtools</td><td class="maintainer">-</td>' "$T/m.html"
printf 'Package: coreutils\nVersion: 9.1-1\nMaintainer: Evil\033]0;pwn\007\033[2J\r\n' >"$T/mroot/var/lib/dpkg/status"
for f in json markdown html; do
	mk --format $f >"$T/m.$f"
	check "a hostile Maintainer, --format $f: no escape, BEL or CR byte" sh -c "
		grep -q Evil '$T/m.$f' && ! grep -q \"\$(printf '[\033\007\r]')\" '$T/m.$f'"
done
check "... -j: it whole" python3 -c "
import json
b = json.load(open('$T/m.json'))['entries'][0]['blockers']
assert [u['maintainer'] for u in b] == ['Evil\x1b]0;pwn\x07\x1b[2J'], b"
check "... Markdown: \\xNN" grep -qF '`Evil\x1B]0;pwn\x07\x1B[2J`' "$T/m.markdown"

section "check --kernel: removed in that kernel (the repository's tables)"
# A quiet, covered fleet of one host, so that what is left is the kernel:
# selinux's checkreqprot and disable went in 6.4, efivars in 6.0.
kt=$(date -u -d 2025-01-15 +%s)
echo "S|h1|b1:1|$((kt - 60 * 86400))|$((kt - 3600))" | fill "$T/k.db"
{ echo "S|h1|b1:1|$((kt - 60 * 86400))|$((kt - 3600))"
  echo "h1|b1:1|/sys/fs/selinux/disable|/sys/fs/selinux/disable|sysfs-selinux|removed|write|0|1|-|/usr/sbin/load_policy|load_policy|5|1|2|2|$((kt - 86400))|$((kt - 86400))"
} | fill "$T/k-used.db"
kk() {
	"$A" check --tables migration-tables --db "$T/k.db" --now 2025-01-15 "$@"
}
kverdict() {
	kk -j "$@" | one_verdict
}
check "selinux disable on 6.12: removed, in 6.4" \
	same "$(kverdict --kernel 6.12 --entry /sys/fs/selinux/disable)" "removed|removed in kernel 6.4 (--kernel 6.12)"
check "... on 6.1: still there, so judged: ready" \
	same "$(kverdict --kernel 6.1 --entry /sys/fs/selinux/disable)" "ready|no use since 2024-12-16T00:00:00Z"
check "selinux checkreqprot on 6.12: removed, in 6.4" \
	same "$(kverdict --kernel 6.12 --entry /sys/fs/selinux/checkreqprot)" "removed|removed in kernel 6.4 (--kernel 6.12)"
check "... on 6.1: ready" \
	same "$(kverdict --kernel 6.1 --entry /sys/fs/selinux/checkreqprot)" "ready|no use since 2024-12-16T00:00:00Z"
check "efivars on 6.12: removed, in 6.0" \
	same "$(kverdict --kernel 6.12 --entry /sys/firmware/efi/vars)" "removed|removed in kernel 6.0 (--kernel 6.12)"
check "... on 6.1 too: 6.1's code has none of it (its stable/ text lagged)" \
	same "$(kverdict --kernel 6.1 --entry /sys/firmware/efi/vars)" "removed|removed in kernel 6.0 (--kernel 6.1)"
check "... on 5.19: ready" \
	same "$(kverdict --kernel 5.19 --entry /sys/firmware/efi/vars)" "ready|no use since 2024-12-16T00:00:00Z"
check "the series of Removed: is removed (6.4), the one before not (6.3.9)" \
	same "$(kverdict --kernel 6.4 --entry /sys/fs/selinux/disable | cut -d'|' -f1) $(kverdict --kernel 6.3.9 --entry /sys/fs/selinux/disable | cut -d'|' -f1)" "removed ready"
check "... v6.4.2 and 7.0 are removed too" \
	same "$(kverdict --kernel v6.4.2 --entry /sys/fs/selinux/disable | cut -d'|' -f1) $(kverdict --kernel 7.0 --entry /sys/fs/selinux/disable | cut -d'|' -f1)" "removed removed"
check "without --kernel: ready, as any Status: removed entry" \
	same "$(kverdict --entry /sys/fs/selinux/disable)" "ready|no use since 2024-12-16T00:00:00Z"
check "a Removed: date alone decides nothing on a kernel (test tables, 2010): no-data as before" \
	same "$(verdict --now 2024-05-20 --entry /sys/kernel/gone --kernel 7.0 | cut -d'|' -f1)" "no-data"
check "removed only: exit 0" test "$(status kk --kernel 6.12 --entry /sys/fs/selinux/)" = 0
cat >"$T/want" <<X
ENTRY                         REPLACED-BY  DEPRECATED  REMOVE-AFTER  VERDICT  BLOCKERS
/sys/fs/selinux/checkreqprot  none         2005-04     removed 6.4   removed  -
/sys/fs/selinux/disable       none         2005-04     removed 6.4   removed  -

/sys/fs/selinux/disable (removed): removed in kernel 6.4 (--kernel 6.12), yet used by 1 program since 2024-12-16T00:00:00Z
  used by /usr/sbin/load_policy (package -, uid 0, host h1): 2 uses (write), 2 in the window, 2 failed, last 2025-01-14T00:00:00Z

2 entries at 2025-01-15T00:00:00Z, quiet since 2024-12-16T00:00:00Z: 0 ready, 0 blocked, 0 not-due, 0 no-data, 2 removed (in kernel 6.12)
usage DB $T/k-used.db: 1 row, uses from 2025-01-14T00:00:00Z to 2025-01-14T00:00:00Z, host h1
sessions: 1 on 1 host, the tracer ran through the quiet window on each
sessions in the window by boot stage: 0 from the initramfs, 1 early (before udev), 0 late (after udev's coldplug: readers at boot unseen), 0 unknown (an older tracer's)
X
check "used, yet removed in 6.12: exit 0" test "$(status kk --db "$T/k-used.db" --kernel 6.12 --entry /sys/fs/selinux/ --by-host)" = 0
check "... who still uses it, and the count of removed in the summary" diff -u "$T/want" "$T/out"
check "... the same use on 6.1 blocks: exit 1" test "$(status kk --db "$T/k-used.db" --kernel 6.1 --entry /sys/fs/selinux/disable)" = 1
check "-j on 6.12: verdict removed, due, its users kept, counted in the summary" sh -c "'$A' check -j --tables migration-tables --db '$T/k-used.db' --now 2025-01-15 --kernel 6.12 --entry /sys/fs/selinux/ | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d[\"kernel\"] == \"6.12\" and d[\"summary\"] == {\"ready\": 0, \"blocked\": 0, \"not-due\": 0, \"no-data\": 0, \"removed\": 2}, d
e = {e[\"what\"][0]: e for e in d[\"entries\"]}[\"/sys/fs/selinux/disable\"]
assert e[\"status\"] == \"removed\" and e[\"removed\"] == \"6.4\" and e[\"due\"] is True, e
assert e[\"verdict\"] == \"removed\" and [b[\"exe\"] for b in e[\"blockers\"]] == [\"/usr/sbin/load_policy\"], e
'"
check "without --kernel the summary line is as it was" \
	sh -c "'$A' check --tables migration-tables --db '$T/k.db' --now 2025-01-15 --entry /sys/fs/selinux/ | grep -qx '2 entries at 2025-01-15T00:00:00Z, quiet since 2024-12-16T00:00:00Z: 2 ready, 0 blocked, 0 not-due, 0 no-data'"

section "check: known enumerators (Ignore:, .enumerators, --count-sweeps)"
# A covered host; udevadm and tar read the rc entry in the window, as an
# attribute walk and an archive do, and legacy-irctl reads it by name.
et=$(date -u -d 2024-07-15 +%s)
erow() { # host exe uid: a read of rc0's current_protocol a day before --now
	echo "$1|b1:1|/sys/class/rc/rc0/current_protocol|$RC|sysfs-class-rc|deprecated|read|$3|1|-|$2|x|9|1|2|0|$((et - 86400))|$((et - 86400))"
}
{ echo "S|h1|b1:1|$((et - 60 * 86400))|$((et - 3600))"; erow h1 /usr/bin/udevadm 0; erow h1 /usr/bin/tar 0; } | fill "$T/e.db"
{ echo "S|h1|b1:1|$((et - 60 * 86400))|$((et - 3600))"; erow h1 /usr/bin/udevadm 0; erow h1 /usr/local/bin/legacy-irctl 1000; } | fill "$T/e2.db"
# The test tables' rc entry, with an Ignore: field.
mkdir "$T/ign" "$T/glob"
sed -n '/^What:.*current_protocol/,/^$/p' "$T/tables" |
	sed 's|^Source:.*|Ignore:\t\t/usr/bin/udevadm\tudevadm info -a reads every attribute\n\t\t/usr/bin/tar tar -c of the device directory\nSource:\t\ttest|' >"$T/ign/sysfs-class-rc"
sed -n '/^What:.*current_protocol/,/^$/p' "$T/tables" >"$T/glob/sysfs-class-rc"
printf '# the global list\n/usr/bin/udevadm\tudevadm info -a walks every attribute\n\n/usr/bin/tar\ttar -c of a sysfs directory\n' >"$T/glob/.enumerators"
ek() {
	"$A" check --db "$T/e.db" --root "$T/root" --now 2024-07-15 --by-host "$@"
}
check "the Ignore: tables are valid" "$A" tables validate "$T/ign"
check "without Ignore:, the walk and the archive block: exit 1" test "$(status ek -t "$T/tables" --entry rcN)" = 1
check "... both, by name" sh -c "grep -c '^  used by /usr/bin/\(udevadm\|tar\) ' '$T/out' | grep -qx 2"
cat >"$T/want" <<X

/sys/class/rc/rcN/current_protocol (ready): no use since 2024-06-15T00:00:00Z but by known enumerators
  enumerated by /usr/bin/tar (tar -c of the device directory), not blocking (package -, uid 0, host h1): 2 uses (read), 2 in the window, 0 failed, last 2024-07-14T00:00:00Z
  enumerated by /usr/bin/udevadm (udevadm info -a reads every attribute), not blocking (package -, uid 0, host h1): 2 uses (read), 2 in the window, 0 failed, last 2024-07-14T00:00:00Z
X
check "the same DB, both in the entry's Ignore: ready, exit 0" test "$(status ek -t "$T/ign")" = 0
check "... listed apart as enumerated by, with the reason" sh -c "sed -n '3,6p' '$T/out' | diff -u '$T/want' -"
check "... -j: no blocker, each in enumerated with reason, scope, file and line" sh -c "'$A' check -j -t '$T/ign' --db '$T/e.db' --now 2024-07-15 | python3 -c '
import json, sys
e = json.load(sys.stdin)[\"entries\"][0]
assert e[\"verdict\"] == \"ready\" and e[\"blockers\"] == [], e
n = e[\"enumerated\"]
assert [(u[\"exe\"], u[\"reason\"], u[\"scope\"], u[\"line\"], u[\"count\"], u[\"ops\"]) for u in n] == [
  (\"/usr/bin/tar\", \"tar -c of the device directory\", \"entry\", 10, 2, [\"read\"]),
  (\"/usr/bin/udevadm\", \"udevadm info -a reads every attribute\", \"entry\", 9, 2, [\"read\"])], n
assert all(u[\"file\"] == \"$T/ign/sysfs-class-rc\" and u[\"kind\"] == \"use\" for u in n), n
'"
check "--count-sweeps: they block again, exit 1" test "$(status ek -t "$T/ign" --count-sweeps)" = 1
check "... as users, not enumerated" sh -c "grep -q '^/sys/class/rc/rcN/current_protocol (blocked): used by 2 programs since' '$T/out' && ! grep -q 'enumerated by' '$T/out'"
check "... -j says so" sh -c "'$A' check -j -t '$T/ign' --db '$T/e.db' --now 2024-07-15 --count-sweeps | python3 -c '
import json, sys
d = json.load(sys.stdin)
e = d[\"entries\"][0]
assert d[\"count_sweeps\"] is True and e[\"enumerated\"] == [] and len(e[\"blockers\"]) == 2, d
'"
check "the tables dir's .enumerators, no Ignore:: ready, exit 0" test "$(status ek -t "$T/glob")" = 0
check "... with the global list's reason" grep -q '^  enumerated by /usr/bin/udevadm (udevadm info -a walks every attribute), not blocking' "$T/out"
check "... -j: scope global, the file and its line" sh -c "'$A' check -j -t '$T/glob' --db '$T/e.db' --now 2024-07-15 | python3 -c '
import json, sys
n = json.load(sys.stdin)[\"entries\"][0][\"enumerated\"]
assert [(u[\"exe\"], u[\"scope\"], u[\"file\"], u[\"line\"]) for u in n] == [
  (\"/usr/bin/tar\", \"global\", \"$T/glob/.enumerators\", 4),
  (\"/usr/bin/udevadm\", \"global\", \"$T/glob/.enumerators\", 2)], n
'"
check "... the .enumerators file named alone with -t works too" test "$(status ek -t "$T/tables" -t "$T/glob/.enumerators" --entry rcN)" = 0
check "a by-name user still blocks beside an enumerator: exit 1" test "$(status ek -t "$T/glob" --db "$T/e2.db")" = 1
cat >"$T/want" <<X

/sys/class/rc/rcN/current_protocol (blocked): used by 1 program since 2024-06-15T00:00:00Z
  used by /usr/local/bin/legacy-irctl (package -, uid 1000, host h1): 2 uses (read), 2 in the window, 0 failed, last 2024-07-14T00:00:00Z
  enumerated by /usr/bin/udevadm (udevadm info -a walks every attribute), not blocking (package -, uid 0, host h1): 2 uses (read), 2 in the window, 0 failed, last 2024-07-14T00:00:00Z
X
check "... blocked by it alone; the enumerator listed apart" sh -c "sed -n '3,6p' '$T/out' | diff -u '$T/want' -"
{ echo "S|h1|b1:1|$((et - 60 * 86400))|$((et - 3600))"; erow h1 /usr/bin/tar 0; erow h1 /usr/bin/lshw 0; } | fill "$T/e3.db"
check "the repository's .enumerators: tar and lshw do not block rc's current_protocol" \
	same "$("$A" check -j -t migration-tables --db "$T/e3.db" --now 2024-07-15 --entry rcN/current_protocol | one_verdict)" \
	"ready|no use since 2024-06-15T00:00:00Z but by known enumerators"
check "... udevadm does: it is systemd-udevd too, whose rules read by name" \
	same "$("$A" check -j -t migration-tables --db "$T/e.db" --now 2024-07-15 --entry rcN/current_protocol | one_verdict | cut -d '|' -f 1)" \
	blocked

section "check: sweeps (uses all swept)"
# On a covered host, a day before --now: udevadm and tar read rc's file
# only within sweeps of its directory (every use swept), legacy-irctl by
# name 3 times besides 2 sweeps (mixed), find by name in one session and
# in sweeps in another. Tables without Ignore: the tracer's signal alone.
wrow() { # host session exe count swept: reads of rc0's current_protocol
	echo "$1|$2|/sys/class/rc/rc0/current_protocol|$RC|sysfs-class-rc|deprecated|read|0|1|-|$3|x|9|1|$4|0|$((et - 86400))|$((et - 86400))|$5"
}
wses="S|h1|b1:1|$((et - 60 * 86400))|$((et - 3600))"
{ echo "$wses"; wrow h1 b1:1 /usr/bin/udevadm 4 4; wrow h1 b1:1 /usr/bin/tar 3 3; } | fill "$T/w.db"
{ echo "$wses"; wrow h1 b1:1 /usr/bin/udevadm 4 4; wrow h1 b1:1 /usr/local/bin/legacy-irctl 5 2; } | fill "$T/w2.db"
{ echo "$wses"; wrow h1 b1:1 /usr/bin/find 4 4; wrow h1 b1:2 /usr/bin/find 1 0; } | fill "$T/w3.db"
wk() {
	"$A" check -t "$T/tables" --root "$T/root" --now 2024-07-15 --entry rcN --by-host "$@"
}
cat >"$T/want" <<X

/sys/class/rc/rcN/current_protocol (ready): no use since 2024-06-15T00:00:00Z but by sweeps
  enumerated by /usr/bin/tar (swept its directory), not blocking (package -, uid 0, host h1): 3 uses (read), 3 swept, 3 in the window, 0 failed, last 2024-07-14T00:00:00Z
  enumerated by /usr/bin/udevadm (swept its directory), not blocking (package -, uid 0, host h1): 4 uses (read), 4 swept, 4 in the window, 0 failed, last 2024-07-14T00:00:00Z
X
check "uses all swept do not block: ready, exit 0" test "$(status wk --db "$T/w.db")" = 0
check "... listed apart as enumerated by, having swept the directory" sh -c "sed -n '3,6p' '$T/out' | diff -u '$T/want' -"
check "... -j: no blocker; each enumerated, why sweep, with its swept uses" sh -c "'$A' check -j -t '$T/tables' --db '$T/w.db' --now 2024-07-15 --entry rcN | python3 -c '
import json, sys
e = json.load(sys.stdin)[\"entries\"][0]
assert e[\"verdict\"] == \"ready\" and e[\"blockers\"] == [], e
assert e[\"reason\"] == \"no use since 2024-06-15T00:00:00Z but by sweeps\", e
n = e[\"enumerated\"]
assert [(u[\"exe\"], u[\"why\"], u[\"reason\"], u[\"scope\"], u[\"file\"], u[\"line\"], u[\"count\"], u[\"swept\"])
        for u in n] == [
  (\"/usr/bin/tar\", \"sweep\", \"swept its directory\", None, None, None, 3, 3),
  (\"/usr/bin/udevadm\", \"sweep\", \"swept its directory\", None, None, None, 4, 4)], n
'"
check "--count-sweeps: they block, exit 1" test "$(status wk --db "$T/w.db" --count-sweeps)" = 1
check "... as users, their swept uses counted" sh -c "grep -q '^/sys/class/rc/rcN/current_protocol (blocked): used by 2 programs since' '$T/out' &&
	grep -qx '  used by /usr/bin/udevadm (package -, uid 0, host h1): 4 uses (read), 4 swept, 4 in the window, 0 failed, last 2024-07-14T00:00:00Z' '$T/out' && ! grep -q 'enumerated by' '$T/out'"
cat >"$T/want" <<X

/sys/class/rc/rcN/current_protocol (blocked): used by 1 program since 2024-06-15T00:00:00Z
  used by /usr/local/bin/legacy-irctl (package -, uid 0, host h1): 5 uses (read), 2 swept, 5 in the window, 0 failed, last 2024-07-14T00:00:00Z
  enumerated by /usr/bin/udevadm (swept its directory), not blocking (package -, uid 0, host h1): 4 uses (read), 4 swept, 4 in the window, 0 failed, last 2024-07-14T00:00:00Z
X
check "uses partly swept block: exit 1" test "$(status wk --db "$T/w2.db")" = 1
check "... the mixed user a blocker, with its swept uses; the sweep apart" sh -c "sed -n '3,6p' '$T/out' | diff -u '$T/want' -"
check "... -j: the blocker's count and swept" sh -c "'$A' check -j -t '$T/tables' --db '$T/w2.db' --now 2024-07-15 --entry rcN | python3 -c '
import json, sys
e = json.load(sys.stdin)[\"entries\"][0]
assert [(b[\"exe\"], b[\"count\"], b[\"swept\"]) for b in e[\"blockers\"]] == [(\"/usr/local/bin/legacy-irctl\", 5, 2)], e
assert [(u[\"exe\"], u[\"why\"]) for u in e[\"enumerated\"]] == [(\"/usr/bin/udevadm\", \"sweep\")], e
'"
check "a session by name blocks, whatever the program swept in another: exit 1" \
	test "$(status wk --db "$T/w3.db")" = 1
check "... blocked by that session's use; the sweeping one apart" sh -c "
	grep -qx '  used by /usr/bin/find (package -, uid 0, host h1): 1 uses (read), 1 in the window, 0 failed, last 2024-07-14T00:00:00Z' '$T/out' &&
	grep -q '^  enumerated by /usr/bin/find (swept its directory), not blocking (package -, uid 0, host h1): 4 uses (read), 4 swept, ' '$T/out'"
check "with Ignore: (tar and udevadm known): the known ones' reason, ready" \
	same "$("$A" check -j -t "$T/ign" --db "$T/w.db" --now 2024-07-15 | one_verdict)" \
	"ready|no use since 2024-06-15T00:00:00Z but by known enumerators"
check "... -j: why ignore, where listed, and swept" sh -c "'$A' check -j -t '$T/ign' --db '$T/w.db' --now 2024-07-15 | python3 -c '
import json, sys
n = json.load(sys.stdin)[\"entries\"][0][\"enumerated\"]
assert [(u[\"exe\"], u[\"why\"], u[\"scope\"], u[\"line\"], u[\"swept\"]) for u in n] == [
  (\"/usr/bin/tar\", \"ignore\", \"entry\", 10, 3), (\"/usr/bin/udevadm\", \"ignore\", \"entry\", 9, 4)], n
'"
{ echo "$wses"; wrow h1 b1:1 /usr/bin/udevadm 4 4; wrow h1 b1:1 /usr/bin/grep 6 6; } | fill "$T/w4.db"
check "known enumerators and sweeps both: ready, saying so" \
	same "$("$A" check -j -t "$T/ign" --db "$T/w4.db" --now 2024-07-15 | one_verdict)" \
	"ready|no use since 2024-06-15T00:00:00Z but by known enumerators and sweeps"
# The same DB as schema 2 wrote it: nothing told sweeps apart then.
cp "$T/w.db" "$T/w-v2.db"
sql "$T/w-v2.db" "$UNDO_SCHEMA8"'ALTER TABLE usage DROP COLUMN swept; PRAGMA user_version = 2; PRAGMA journal_mode = DELETE' >/dev/null
chmod 0444 "$T/w-v2.db"
check "a schema 2 DB, read-only: every use by name, blocked, exit 1" test "$(status wk --db "$T/w-v2.db")" = 1
check "... by both" grep -q '^/sys/class/rc/rcN/current_protocol (blocked): used by 2 programs since' "$T/out"
check "merge keeps swept: the fleet DB judged as its input" sh -c "
	'$A' merge '$T/w2.db' -o '$T/wfleet.db' >/dev/null &&
	test \"\$(sqlite3 '$T/wfleet.db' 'SELECT exe, count, swept FROM usage ORDER BY exe' | tr '\n' ' ')\" = '/usr/bin/udevadm|4|4 /usr/local/bin/legacy-irctl|5|2 ' &&
	'$A' check -t '$T/tables' --root '$T/root' --now 2024-07-15 --entry rcN --by-host --db '$T/wfleet.db' | sed -n '3,6p' | diff -u '$T/want' -"

section "check: bad input"
check "a missing DB: exit 6" test "$(status ck --db "$T/none.db")" = 6
check "... what, where, what to do" grep -qx "abidep: no usage DB at $T/none.db: nothing has been traced into it ('abidep trace' creates it); name another with --db" "$T/err"
head -c 4096 /dev/urandom >"$T/junk.db"
check "not an SQLite file: exit 6" test "$(status ck --db "$T/junk.db")" = 6
check "... named" grep -qx "abidep: cannot use the usage DB $T/junk.db: file is not a database; name the usage DB with --db, or move this file aside" "$T/err"
sql "$T/other.db" 'CREATE TABLE t (a)'
check "somebody else's SQLite DB: exit 6" test "$(status ck --db "$T/other.db")" = 6
check "... named" grep -q "^abidep: cannot use the usage DB $T/other.db: it is an SQLite database, but not an abidep usage DB" "$T/err"
# A real DB with its table's pages overwritten: SQLite notices on reading.
seq 1 3000 | sed "s/.*/h1|s&|\/sys\/kernel\/gone|\/sys\/kernel\/gone|t|removed|read|0|1|-|\/usr\/bin\/cat|cat|1|1|1|0|$t0|$t0/" | fill "$T/damaged.db"
sql "$T/damaged.db" 'PRAGMA journal_mode=DELETE' >/dev/null
tr '\0' '\377' </dev/zero | dd of="$T/damaged.db" bs=4096 seek=3 count=20 iflag=fullblock conv=notrunc 2>/dev/null
check "a damaged abidep DB: exit 6" test "$(status ck --db "$T/damaged.db" --now 2024-07-15)" = 6
check "... says so, and how to look" grep -qx "abidep: the usage DB $T/damaged.db: cannot read: database disk image is malformed; check it with 'sqlite3 $T/damaged.db \"PRAGMA integrity_check\"', and restore a copy or move it aside" "$T/err"
check "an unknown entry: exit 10" test "$(status ck --entry /sys/no/such/thing)" = 10
check "... named" grep -qx "abidep: no migration entry matches --entry /sys/no/such/thing; 'abidep tables list' lists them" "$T/err"
check "a bad --now: exit 2" test "$(status ck --now yesterday)" = 2
check "... named" grep -qx "abidep: --now takes YYYY-MM-DD, YYYY-MM-DDTHH:MM\[:SS\]\[Z\] or @SECONDS (UTC), not 'yesterday'" "$T/err"
check "a date that does not exist (2024-02-30): exit 2" test "$(status ck --now 2024-02-30)" = 2
check "a bad --quiet-days: exit 2" test "$(status ck --quiet-days -1)" = 2
check "... named" grep -qx "abidep: --quiet-days takes a number of days from 0 to 36500, not '-1'" "$T/err"
check "a bad --kernel: exit 2" test "$(status ck --kernel linux)" = 2
check "... named" grep -qx "abidep: --kernel takes a kernel version (6.1, v6.12.3), not 'linux'" "$T/err"
printf 'What: /sys/x\nStatus: sometimes\n' >"$T/bad-tables"
check "bad tables: exit 2" test "$(status "$A" check --tables "$T/bad-tables" --db "$T/u.db")" = 2
check "... the errors, then what to do" grep -q "^abidep: cannot use the tables $T/bad-tables: .*'abidep tables validate $T/bad-tables' shows them$" "$T/err"
check "... and with -t" sh -c "'$A' check -t '$T/bad-tables' -d '$T/u.db' 2>&1 >/dev/null | grep -q '^abidep: cannot use the tables $T/bad-tables: '"
check "a missing DB with -d: exit 6, named" sh -c "'$A' check -t '$T/tables' -d '$T/none.db' 2>'$T/err'; test \$? = 6 && grep -q '$T/none.db' '$T/err'"
check "an argument: exit 2" test "$(status ck extra)" = 2
check "--help: exit 0" test "$(status "$A" check --help)" = 0
check "... documents the exit statuses" grep -q "^Exit status: 0 every entry judged is ready or removed; 1" "$T/out"

section "merge"
# Three hosts; h2's DB also holds a row of h1's session (copied around).
grep '^h1|' "$T/rows" | fill "$T/h1.db"
grep '^h2|' "$T/rows" | fill "$T/h2.db"
grep '^h1|b1:1|/sys/class/rc' "$T/rows" | fill "$T/h2.db"
grep '^h3|' "$T/rows" | fill "$T/h3.db"
check "three DBs: exit 0" test "$(status "$A" merge "$T/h1.db" "$T/h2.db" "$T/h3.db" -o "$T/fleet.db")" = 0
check "... says what it did" grep -qx "merged 3 DBs into $T/fleet.db: 6 rows; hosts: h1 h2 h3" "$T/out"
check "... every row once, with its host" test "$(sql "$T/fleet.db" 'SELECT host, COUNT(*), SUM(count), SUM(errors) FROM usage GROUP BY host' | tr '\n' ' ')" = "h1|2|7|4 h2|2|3|0 h3|2|2|0 "
check "... the same rows as the single DB" test "$(sql "$T/fleet.db" 'SELECT * FROM usage ORDER BY 1,2,3,4,5,6,7')" = "$(sql "$T/u.db" 'SELECT * FROM usage ORDER BY 1,2,3,4,5,6,7')"
check "... mode 0600, no temporary file left" sh -c "test \$(stat -c %a '$T/fleet.db') = 600 && ! ls -a '$T' | grep -q merge-"
check "check on the merged DB: exit 1" test "$(status "$A" check --tables "$T/tables" --db "$T/fleet.db" --root "$T/root" --now 2024-05-20 --by-host)" = 1
check "... the same verdicts and blockers as on the one DB" sh -c "sed 's|^usage DB $T/fleet.db:|usage DB $T/u.db:|' '$T/out' | diff -u '$T/want-may' -"
sum_before=$(sql "$T/fleet.db" .dump | md5sum)
check "merging the same DBs again: exit 0" test "$(status "$A" merge "$T/h2.db" "$T/h1.db" "$T/h2.db" -o "$T/fleet.db")" = 0
check "... changes nothing (no count doubled)" test "$(sql "$T/fleet.db" .dump | md5sum)" = "$sum_before"
echo "h1|b1:1|$GOV|$GOV|sysfs-cpuidle|deprecated|read|0|10|/system.slice/mon.service|/usr/bin/cat|cat|100|1|9|0|$t0|$((t0 + 600))" | fill "$T/h1.db"
check "a later copy of a host's DB: its session's counts grow" sh -c "'$A' merge '$T/h1.db' -o '$T/fleet.db' >/dev/null && test \"\$(sqlite3 '$T/fleet.db' \"SELECT count, last_seen FROM usage WHERE path = '$GOV'\")\" = '9|$((t0 + 600))'"
check "-j: a summary" sh -c "'$A' -j merge '$T/h3.db' -o '$T/fleet.db' | python3 -c '
import json, sys
assert json.load(sys.stdin) == {\"output\": \"$T/fleet.db\", \"rows\": 6, \"hosts\": [\"h1\", \"h2\", \"h3\"],
  \"same_name_hosts\": [], \"inputs\": [{\"path\": \"$T/h3.db\", \"rows\": 2}]}'"
sum_before=$(md5sum <"$T/fleet.db")
check "into one of its inputs: refused, exit 2" test "$(status "$A" merge "$T/h1.db" "$T/fleet.db" -o "$T/fleet.db")" = 2
check "... named" grep -qx "abidep: merge: refusing to merge into one of the inputs ($T/fleet.db is the output $T/fleet.db): name another output with -o" "$T/err"
check "a corrupt input: exit 6" test "$(status "$A" merge "$T/h1.db" "$T/junk.db" -o "$T/fleet.db")" = 6
check "... named" grep -qx "abidep: merge: cannot use the usage DB $T/junk.db: file is not a database; name the usage DB with --db, or move this file aside" "$T/err"
check "a damaged input: exit 6" test "$(status "$A" merge "$T/h1.db" "$T/damaged.db" -o "$T/fleet.db")" = 6
check "... named" grep -qx "abidep: merge: the usage DB $T/damaged.db: cannot read: database disk image is malformed; check it with 'sqlite3 $T/damaged.db \"PRAGMA integrity_check\"', and restore a copy or leave it out" "$T/err"
check "a foreign SQLite input: exit 6" test "$(status "$A" merge "$T/other.db" -o "$T/fleet.db")" = 6
check "a missing input: exit 6" test "$(status "$A" merge "$T/h1.db" "$T/none.db" -o "$T/fleet.db")" = 6
check "... named" grep -q "^abidep: merge: no usage DB at $T/none.db" "$T/err"
check "... after all these, the fleet DB is as it was" test "$(md5sum <"$T/fleet.db")" = "$sum_before"
check "... and no temporary file is left" sh -c "! ls -a '$T' | grep -q merge-"
check "an output that is not a usage DB: exit 6, left alone" sh -c "cp '$T/junk.db' '$T/junk2.db'; '$A' merge '$T/h1.db' -o '$T/junk2.db' 2>'$T/err'; test \$? = 6 && cmp -s '$T/junk.db' '$T/junk2.db' && grep -q 'the output is not a usable usage DB' '$T/err'"
check "an output in a missing directory: exit 6" test "$(status "$A" merge "$T/h1.db" -o "$T/nodir/fleet.db")" = 6
check "... named" grep -q "^abidep: merge: cannot create a temporary file in $T/nodir for $T/nodir/fleet.db: No such file or directory" "$T/err"
check "-d is an input, as a DB operand is" sh -c "'$A' merge -d '$T/h1.db' '$T/h2.db' -d '$T/h3.db' -o '$T/fleet-d.db' >/dev/null &&
	test \"\$(sqlite3 '$T/fleet-d.db' 'SELECT * FROM usage ORDER BY 1,2,3,4,5,6,7')\" = \"\$(sqlite3 '$T/fleet.db' 'SELECT * FROM usage ORDER BY 1,2,3,4,5,6,7')\""
check "no -o: exit 2" test "$(status "$A" merge "$T/h1.db")" = 2
check "no input: exit 2" test "$(status "$A" merge -o "$T/x.db")" = 2
check "--help: exit 0" test "$(status "$A" merge --help)" = 0
# Killed mid-merge: the output is the old one, whole, never half. The merge
# is one transaction into a temporary file, renamed over the output once
# committed: the kill is sent once that file's WAL holds more than 1 MiB of
# rows (uncommitted) while the merge still runs, so that it lands
# mid-merge, which the temporary file left behind then proves (a merge
# that finished renamed it away).
seq 1 60000 | sed "s/.*/h9|s&|\/sys\/kernel\/gone|\/sys\/kernel\/gone|t|removed|read|0|1|-|\/usr\/bin\/cat|cat|1|1|1|0|$t0|$t0/" | fill "$T/big.db"
cp "$T/fleet.db" "$T/kill.db"
old_sum=$(md5sum <"$T/kill.db")
old_totals=$(sql "$T/kill.db" 'SELECT count(*), sum(count) FROM usage')
"$A" merge "$T/big.db" -o "$T/kill.db" >/dev/null 2>&1 &
pid=$!
wal=0
i=0
while [ $i -lt 3000 ] && [ "$wal" -le 1048576 ] && kill -0 $pid 2>/dev/null; do
	for f in "$T"/.kill.db.merge-*-wal; do
		[ -f "$f" ] && wal=$(stat -c %s "$f")
	done
	[ "$wal" -le 1048576 ] && sleep 0.01
	i=$((i + 1))
done
killed=no
kill -9 $pid 2>/dev/null && killed=yes
wait $pid 2>/dev/null
check "killed mid-merge: sent while it ran, its temporary's WAL at $wal bytes" \
	test "$killed" = yes -a "$wal" -gt 1048576
check "... and it landed before the end: the temporary file is left" \
	sh -c "ls -a '$T' | grep -q '^\.kill\.db\.merge-[^-]*\$'"
check "... the output is the old one, byte for byte, with no -wal" \
	sh -c "test \"\$(md5sum <'$T/kill.db')\" = '$old_sum' && test ! -e '$T/kill.db-wal'"
check "... and sound" test "$(sql "$T/kill.db" 'PRAGMA integrity_check')" = ok
rm -f "$T"/.kill.db.merge-*
check "the merge again: exit 0" test "$(status "$A" merge "$T/big.db" -o "$T/kill.db")" = 0
check "... every row once, the counts exact (6 + 60000 rows, ${old_totals#*|} + 60000)" \
	test "$(sql "$T/kill.db" 'SELECT count(*), sum(count) FROM usage')" = "60006|$((${old_totals#*|} + 60000))"

section "check: sessions (when the tracer ran)"
at() {
	date -u -d "$1" +%s
}
now=$(at 2024-07-15)
# The rows of u.db (uses up to 2024-06-30; cpuidle's only in May), with
# sessions: only hosts in the sessions table count (h2 and h3 have none here).
{ cat "$T/rows"; echo "S|h1|b1:1|$t0|$(at 2024-06-20T00:00)"; echo "S|h1|b1:2|$(at 2024-06-20T12:00)|$((now - 3600))"; } |
	fill "$T/s-ok.db"
check "sessions chained through the window (a 12 h reboot gap): ready, exit 0" \
	test "$(status ck --db "$T/s-ok.db" --now 2024-07-15 --entry cpuidle)" = 0
check "... says the sessions rule applied" grep -qx "sessions: 2 on 1 host, the tracer ran through the quiet window on each" "$T/out"
check "... ready" test "$(verdict --db "$T/s-ok.db" --now 2024-07-15 --entry cpuidle)" = "ready|no use since 2024-06-15T00:00:00Z"
check "... the rcN use of a host without sessions still blocks" \
	test "$(verdict --db "$T/s-ok.db" --now 2024-07-15 --entry rcN | cut -d'|' -f1)" = blocked
{ cat "$T/rows"; echo "S|h1|b1:1|$t0|$(at 2024-06-20T00:00)"; echo "S|h1|b1:2|$(at 2024-06-22T00:00)|$((now - 3600))"; } |
	fill "$T/s-gap.db"
check "a 2-day gap in the window: no-data, exit 12" \
	test "$(status ck --db "$T/s-gap.db" --now 2024-07-15 --entry cpuidle)" = 12
check "... covered until the gap" grep -qx "  host h1: last sync 2024-07-14T23:00:00Z, covered until 2024-06-20T00:00:00Z" "$T/out"
check "... a window before the gap is covered" \
	test "$(status ck --db "$T/s-gap.db" --now 2024-06-19 --quiet-days 10 --entry cpuidle)" = 0

# The flaw of the old rule: uses from before the window, a tracer stopped
# 40 days before --now. By uses alone this is ready.
{ cat "$T/rows"; echo "S|h1|b1:1|$t0|$((now - 40 * 86400))"; } | fill "$T/s-stop.db"
check "a tracer stopped 40 days ago: no-data, exit 12" \
	test "$(status ck --db "$T/s-stop.db" --now 2024-07-15 --entry cpuidle)" = 12
cat >"$T/want" <<X

/sys/devices/system/cpu/cpuidle/current_governor_ro (no-data): the tracer did not run through the quiet window (since 2024-06-15T00:00:00Z) on 1 of 1 host: h1

1 entry at 2024-07-15T00:00:00Z, quiet since 2024-06-15T00:00:00Z: 0 ready, 0 blocked, 0 not-due, 1 no-data
usage DB $T/s-stop.db: 6 rows, uses from 2024-05-01T10:00:00Z to 2024-06-30T10:00:10Z, hosts h1, h2, h3, 5 rows of entries not checked
sessions: 1 on 1 host, the quiet window is not covered on 1:
  host h1: last sync 2024-06-05T00:00:00Z, covered until 2024-06-05T00:00:00Z
X
check "... names the host and its last sync" sh -c "sed -n '3,\$p' '$T/out' | diff -u '$T/want' -"
check "... -j: the host, its last sync, the rule" sh -c "'$A' check -j --tables '$T/tables' --db '$T/s-stop.db' --now 2024-07-15 --entry cpuidle | python3 -c '
import json, sys
d = json.load(sys.stdin)
db = d[\"db\"]
assert db[\"sessions\"] == 1 and db[\"coverage\"] == \"sessions\", db
assert db[\"uncovered_hosts\"] == [{\"host\": \"h1\", \"host_id\": \"machine-id\", \"last_sync\": \"2024-06-05T00:00:00Z\",
  \"covered_until\": \"2024-06-05T00:00:00Z\", \"ran\": False, \"unrecorded\": 0, \"skipped\": 0,
  \"lost_at\": None, \"late_boot\": False, \"clock\": None}], db
e = d[\"entries\"][0]
assert e[\"verdict\"] == \"no-data\" and \"on 1 of 1 host: h1\" in e[\"reason\"], e
'"
check "--quiet-days 0: the tracer must still have run within a day of --now" \
	test "$(status ck --db "$T/s-stop.db" --now 2024-06-07 --quiet-days 0 --entry cpuidle)" = 12
check "... and is then enough" \
	test "$(status ck --db "$T/s-stop.db" --now 2024-06-05T12:00 --quiet-days 0 --entry cpuidle)" = 0

{ cat "$T/rows"; echo "S|h1|b1:1|$t0|$((now - 3600))"; echo "S|h2|b2:3|$t0|$((now - 40 * 86400))"
  echo "S|h3|b9:1|$(at 2024-07-01)|$((now - 60))"; } | fill "$T/s-two.db"
check "one host covers, two do not: no-data, exit 12" \
	test "$(status ck --db "$T/s-two.db" --now 2024-07-15 --entry cpuidle)" = 12
check "... the stopped host and the late one named" sh -c "grep -qx '  host h2: last sync 2024-06-05T00:00:00Z, covered until 2024-06-05T00:00:00Z' '$T/out' &&
	grep -qx '  host h3: last sync 2024-07-14T23:59:00Z, no session from the window'\"'\"'s start' '$T/out'"
check "... the covering host not" sh -c "! grep -q '^  host h1' '$T/out'"
check "... the reason names them" grep -qx "/sys/devices/system/cpu/cpuidle/current_governor_ro (no-data): the tracer did not run through the quiet window (since 2024-06-15T00:00:00Z) on 2 of 3 hosts: h2, h3" "$T/out"
check "... -j: only they" sh -c "'$A' check -j --tables '$T/tables' --db '$T/s-two.db' --now 2024-07-15 --entry cpuidle | python3 -c '
import json, sys
d = json.load(sys.stdin)[\"db\"]
assert [h[\"host\"] for h in d[\"uncovered_hosts\"]] == [\"h2\", \"h3\"], d
assert d[\"uncovered_hosts\"][1][\"covered_until\"] is None, d
'"
check "a quiet fleet: sessions but no use at all is ready" sh -c "echo 'S|h1|b1:1|$t0|$((now - 3600))' | '$T/fill' '$T/s-quiet.db' '$T/whats' &&
	'$A' check --tables '$T/tables' --db '$T/s-quiet.db' --now 2024-07-15 --entry cpuidle >/dev/null"

section "check: sessions that lost accesses"
# h1's tracer ran through the window, but its usage map was full: 418
# accesses not recorded, seen at the sync of 2024-07-01 (any may have been
# a use of cpuidle's file); h2's lost runs before the window only.
{ cat "$T/rows"; echo "S|h1|b1:1|$t0|$((now - 3600))|418|0|$(at 2024-07-01)"
  echo "S|h2|b2:1|$t0|$((now - 600))|0|5|$(at 2024-06-01)"; } | fill "$T/s-lost.db"
check "a host that lost accesses in the window: no-data, exit 12" \
	test "$(status ck --db "$T/s-lost.db" --now 2024-07-15 --entry cpuidle)" = 12
check "... the reason says why, where and how many" grep -qx "/sys/devices/system/cpu/cpuidle/current_governor_ro (no-data): the tracer lost accesses in the quiet window (since 2024-06-15T00:00:00Z), any of which may have been a use, on 1 of 2 hosts: h1 (418 not recorded)" "$T/out"
check "... and the sessions' lines" grep -qx "  host h1: 418 accesses not recorded (usage map full, or a uid over its quota) and 0 runs skipped by the kernel (up to as many accesses) in the window, the latest seen at the sync of 2024-07-01T00:00:00Z" "$T/out"
check "... h2's losses before the window do not count" sh -c "! grep -q '^  host h2' '$T/out'"
check "... -j: h1 ran, lost, when" sh -c "'$A' check -j --tables '$T/tables' --db '$T/s-lost.db' --now 2024-07-15 --entry cpuidle | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d[\"db\"][\"uncovered_hosts\"] == [{\"host\": \"h1\", \"host_id\": \"machine-id\", \"last_sync\": \"2024-07-14T23:00:00Z\",
  \"covered_until\": \"2024-07-14T23:00:00Z\", \"ran\": True, \"unrecorded\": 418, \"skipped\": 0,
  \"lost_at\": \"2024-07-01T00:00:00Z\", \"late_boot\": False, \"clock\": None}], d[\"db\"]
assert d[\"entries\"][0][\"verdict\"] == \"no-data\", d
'"
check "... a window that starts after the loss: ready" \
	test "$(status ck --db "$T/s-lost.db" --now 2024-07-15 --quiet-days 10 --entry cpuidle)" = 0
check "... --format html: the host's badge and counts" sh -c "'$A' check --format html --tables '$T/tables' --db '$T/s-lost.db' --now 2024-07-15 --entry cpuidle |
	grep -q 'data-host=\"h1\" data-covers=\"false\" data-sessions=\"1\" data-unrecorded=\"418\" data-skipped=\"0\" data-late-boot=\"false\" data-clock-wrong=\"false\" data-unsynchronized=\"0\"><td class=\"path\">h1</td><td><span class=\"badge v-lost-accesses\">lost-accesses</span> 418 not recorded, 0 runs skipped'"
{ cat "$T/rows"; echo "S|h1|b1:1|$t0|$((now - 3600))|0|2|$(at 2024-07-10)"; echo "S|h2|b2:1|$t0|$(at 2024-06-01)"; } |
	fill "$T/s-both.db"
check "one host skipped runs, another stopped: no-data, exit 12" \
	test "$(status ck --db "$T/s-both.db" --now 2024-07-15 --entry cpuidle)" = 12
check "... both reasons" grep -qx "/sys/devices/system/cpu/cpuidle/current_governor_ro (no-data): the tracer did not run through the quiet window (since 2024-06-15T00:00:00Z) on 1 of 2 hosts: h2; the tracer lost accesses in the quiet window (since 2024-06-15T00:00:00Z), any of which may have been a use, on 1 of 2 hosts: h1 (2 runs skipped)" "$T/out"
echo "S|h1|b1:1|$t0|$((now - 60))" | fill "$T/s-clean.db"
check "merged with a clean copy of h1's session: exit 0" \
	test "$(status "$A" merge "$T/s-clean.db" "$T/s-lost.db" -o "$T/s-lfleet.db")" = 0
check "... the loss stays" test "$(sql "$T/s-lfleet.db" "SELECT unrecorded, lost_at FROM sessions WHERE host = 'h1'")" = "418|$(at 2024-07-01)"
check "... and check says no-data" \
	test "$(status ck --db "$T/s-lfleet.db" --now 2024-07-15 --entry cpuidle)" = 12

section "sessions: an old (schema 1) DB"
# Schema 1 is schema 5 without the sessions and usage_days tables and
# usage's swept column.
cp "$T/u.db" "$T/v1.db"
sql "$T/v1.db" "$UNDO_SCHEMA8"'DROP TABLE sessions; DROP TABLE usage_days; DROP TABLE watched; ALTER TABLE usage DROP COLUMN swept; PRAGMA user_version = 1; PRAGMA journal_mode = DELETE' >/dev/null
chmod 0444 "$T/v1.db"
check "a schema 1 DB, read-only: the old rule, ready, exit 0" \
	test "$(status ck --db "$T/v1.db" --now 2024-07-15 --entry cpuidle)" = 0
check "... and says the DB predates sessions" \
	grep -qx "sessions: none (the DB predates them): the quiet window counts as covered by any use from before it, which cannot show the tracer kept running" "$T/out"
check "... -j: coverage by first use" sh -c "'$A' check -j --tables '$T/tables' --db '$T/v1.db' --now 2024-07-15 --entry cpuidle | python3 -c '
import json, sys
d = json.load(sys.stdin)[\"db\"]
assert d[\"sessions\"] == 0 and d[\"coverage\"] == \"first-use\" and d[\"uncovered_hosts\"] == [], d
'"
check "... left as it was (schema 1, no sessions table)" \
	test "$(sql "$T/v1.db" "PRAGMA user_version; SELECT count(*) FROM sqlite_master WHERE name = 'sessions'" | tr '\n' ' ')" = "1 0 "
check "... no-data by the old rule when it starts in the window" \
	test "$(status ck --db "$T/v1.db" --now 2024-05-20 --entry /sys/kernel/gone)" = 12
cp "$T/v1.db" "$T/v1rw.db"
chmod 0644 "$T/v1rw.db"
check "a read-write open of a schema 1 DB: upgraded" sh -c ": | '$T/fill' '$T/v1rw.db'"
check "... to schema 8, with the sessions table, swept, usage_days, watched and clock, the rows kept" \
	test "$(sql "$T/v1rw.db" "PRAGMA user_version; SELECT count(*) FROM sessions; SELECT count(*) FROM usage WHERE swept = 0; SELECT count(*) FROM usage_days; SELECT count(*) FROM watched" | tr '\n' ' ')" = "8 0 6 0 0 "
check "... and sound" test "$(sql "$T/v1rw.db" 'PRAGMA integrity_check')" = ok
check "... sessions then written to it" sh -c "echo 'S|h1|b1:1|1|2' | '$T/fill' '$T/v1rw.db' &&
	test \"\$(sqlite3 '$T/v1rw.db' 'SELECT * FROM sessions')\" = 'h1|b1:1|1|2|0|0||||||1||||||'"

section "check: hosts by machine id (two machines named debian)"
# debian/aaaa... traced through the window; debian/bbbb..., another
# machine of the same name, stopped before it (each session watched all).
HA=debian/aaaaaaaaaaaaaaaa HB=debian/bbbbbbbbbbbbbbbb
echo "S|$HA|ba:1|$t0|$((now - 3600))|0|0|-|machine-id" | fill "$T/da.db"
echo "S|$HB|bb:1|$t0|$(at 2024-06-01)|0|0|-|machine-id" | fill "$T/db.db"
check "the one through the window alone: ready, exit 0" \
	test "$(status ck --db "$T/da.db" --now 2024-07-15 --entry cpuidle)" = 0
check "the stopped one alone: no-data, exit 12" \
	test "$(status ck --db "$T/db.db" --now 2024-07-15 --entry cpuidle)" = 12
check "merged: exit 0" test "$(status "$A" merge "$T/da.db" "$T/db.db" -o "$T/dab.db")" = 0
check "... two hosts, kept apart, and said" sh -c "grep -qx 'merged 2 DBs into $T/dab.db: 0 rows; hosts: $HA $HB' '$T/out' &&
	grep -qx '2 hosts named debian, kept apart by machine id: $HA $HB' '$T/out'"
check "... -j lists them" sh -c "'$A' merge -j '$T/da.db' -o '$T/dab.db' | python3 -c '
import json, sys
assert json.load(sys.stdin)[\"same_name_hosts\"] == [[\"$HA\", \"$HB\"]]'"
check "the merged fleet: no-data, exit 12, naming the stopped machine" sh -c "
	test \"\$('$A' check -t '$T/tables' -d '$T/dab.db' --now 2024-07-15 --entry cpuidle >'$T/out'; echo \$?)\" = 12 &&
	grep -q 'did not run through the quiet window .* on 1 of 2 hosts: $HB\$' '$T/out'"
check "... -j: its key and where its id came from" sh -c "'$A' check -j -t '$T/tables' -d '$T/dab.db' --now 2024-07-15 --entry cpuidle | python3 -c '
import json, sys
u = json.load(sys.stdin)[\"db\"][\"uncovered_hosts\"]
assert [(h[\"host\"], h[\"host_id\"]) for h in u] == [(\"$HB\", \"machine-id\")], u'"
# A hostile DB's host keys: a newline and an escape sequence, shown escaped.
echo "S|x/0123456789abcdef|b:1|1|2" | "$T/fill" "$T/evil.db"
sql "$T/evil.db" "UPDATE sessions SET host = 'ev' || char(10) || char(27) || '[31mil/0123456789abcdef';
	INSERT INTO sessions (host, session, started, last_sync) VALUES ('ev' || char(10) || char(27) || '[31mil/fedcba9876543210', 'b:2', 1, 2)"
check "merge of hostile host keys: each line whole, the bytes escaped" sh -c "'$A' merge '$T/evil.db' -o '$T/evil-out.db' >'$T/evil.out' &&
	test \$(wc -l <'$T/evil.out') = 2 && ! grep -q \"\$(printf '\\033')\" '$T/evil.out' &&
	grep -qF '2 hosts named ev\\x0A\\x1B[31mil, kept apart by machine id:' '$T/evil.out'"
# The hole this closes: keyed by the name alone (DBs of an abidep before
# schema 6), the two are one host, and its sessions cover the window.
echo "S|debian|ba:1|$t0|$((now - 3600))" | fill "$T/na.db"
echo "S|debian|bb:1|$t0|$(at 2024-06-01)" | fill "$T/nb.db"
"$A" merge "$T/na.db" "$T/nb.db" -o "$T/nab.db" >/dev/null
check "keyed by name alone, merged: one host, ready (why hosts have ids)" \
	test "$(status ck --db "$T/nab.db" --now 2024-07-15 --entry cpuidle)" = 0

section "check: how early in their boots the sessions began"
printf 'S|%s|b%d:1|%s|%s|0|0|-|machine-id|%s\n' "$HA" 1 "$t0" "$((now - 3600))" early \
	"$HA" 2 "$t0" "$((now - 3600))" late "$HB" 3 "$t0" "$((now - 3600))" initramfs | "$T/fill" "$T/stages.db"
echo "S|$HB|b4:1|$t0|$((now - 3600))" | "$T/fill" "$T/stages.db"
check "the text counts the window's sessions by stage" sh -c "'$A' check -t '$T/tables' -d '$T/stages.db' --now 2024-07-15 --entry cpuidle |
	grep -qx \"sessions in the window by boot stage: 1 from the initramfs, 1 early (before udev), 1 late (after udev's coldplug: readers at boot unseen), 1 unknown (an older tracer's)\""
check "... -j too" sh -c "'$A' check -j -t '$T/tables' -d '$T/stages.db' --now 2024-07-15 --entry cpuidle | python3 -c '
import json, sys
d = json.load(sys.stdin)[\"db\"]
assert d[\"sessions_by_stage\"] == {\"initramfs\": 1, \"early\": 1, \"late\": 1, \"unknown\": 1}, d'"
check "... merge keeps them" sh -c "'$A' merge '$T/stages.db' -o '$T/stages2.db' >/dev/null &&
	test \"\$(sqlite3 '$T/stages2.db' 'SELECT group_concat(coalesce(stage, \"-\"), \" \") FROM (SELECT stage FROM sessions ORDER BY session)')\" = 'early late initramfs -'"

section "check: a boot observed only late does not cover the window"
# One host, sessions of today (each watched every What): how early the
# tracer saw each boot that overlaps the window decides. Boot ids are the
# session id's first part; the output shows their first 8 characters.
LH=debian/ab12cd34ef567890
B1=3f2a9c0e-4b7d-4a65-9e1f-0123456789ab
B2=77e1d2c4-0a1b-4c2d-8e3f-abcdefabcdef
mid=$(at 2024-07-01)
boots_db() {	# DB, then lines "boot:map|started|last_sync|stage"
	db=$1
	shift
	for l in "$@"; do
		echo "$l" | awk -F'|' -v h="$LH" '{ printf "S|%s|%s|%s|%s|0|0|-|machine-id|%s\n", h, $1, $2, $3, $4 }'
	done | fill "$T/$db"
}
late_reason() {	# BOOTS: the no-data reason naming them
	echo "no-data|a boot in the quiet window (since 2024-06-15T00:00:00Z) was not traced from before udev's coldplug (its first session's stage late, or unknown): readers at boot unseen (--allow-late-boot accepts it), on 1 of 1 host: $LH ($1)"
}
boots_db b-early.db "$B1:7|$t0|$((now - 3600))|early"
boots_db b-late.db "$B1:7|$t0|$((now - 3600))|late"
boots_db b-two.db "$B1:7|$t0|$mid|early" "$B2:3|$((mid + 600))|$((now - 3600))|late"
boots_db b-before.db "$B1:7|$t0|$(at 2024-06-10)|late" "$B2:3|$(at 2024-06-10T00:05)|$((now - 3600))|early"
boots_db b-restart.db "$B1:7|$t0|$mid|early" "$B1:9|$((mid + 600))|$((now - 3600))|late"
boots_db b-unknown.db "$B1:7|$t0|$((now - 3600))|-"
boots_db b-noid.db "unknown:7|$t0|$mid|early" "unknown:9|$((mid + 600))|$((now - 3600))|late"
check "a boot traced early through the window: ready, exit 0" \
	test "$(status ck --db "$T/b-early.db" --now 2024-07-15 --entry cpuidle)" = 0
check "the same boot traced late: no-data, exit 12" \
	test "$(status ck --db "$T/b-late.db" --now 2024-07-15 --entry cpuidle)" = 12
check "... the reason names the host and the boot" \
	same "$(verdict --db "$T/b-late.db" --now 2024-07-15 --entry cpuidle)" "$(late_reason "boot 3f2a9c0e: late")"
check "... a line under the summary says so" grep -qx "  host $LH: boot 3f2a9c0e: late: not traced from before udev's coldplug: readers at boot unseen (--allow-late-boot accepts it)" "$T/out"
check "... -j: the host's boot, its stage, not observed early; the host uncovered for it" sh -c "'$A' check -j -t '$T/tables' -d '$T/b-late.db' --now 2024-07-15 --entry cpuidle | python3 -c '
import json, sys
d = json.load(sys.stdin)
db = d[\"db\"]
assert d[\"allow_late_boot\"] is False and db[\"late_boot_hosts\"] == 1, d
assert db[\"host_boots\"] == [{\"host\": \"$LH\", \"boots\": [{\"boot\": \"3f2a9c0e\", \"stage\": \"late\", \"observed_early\": False,
                                                   \"unwatched_at_boot\": [], \"clock\": None}]}], db
u = db[\"uncovered_hosts\"]
assert [(h[\"host\"], h[\"ran\"], h[\"late_boot\"]) for h in u] == [(\"$LH\", True, True)], u'"
check "... --format html: the host's badge, and why" sh -c "'$A' check --format html -t '$T/tables' -d '$T/b-late.db' --now 2024-07-15 --entry cpuidle |
	grep -q 'data-late-boot=\"true\" data-clock-wrong=\"false\" data-unsynchronized=\"0\"><td class=\"path\">$LH</td><td><span class=\"badge v-late-boot\">late-boot</span> <span class=\"late-boots\">boot 3f2a9c0e: late: not traced'"
check "--allow-late-boot: ready, exit 0" \
	test "$(status ck --db "$T/b-late.db" --now 2024-07-15 --entry cpuidle --allow-late-boot)" = 0
check "... in any position" \
	test "$(status "$A" check --allow-late-boot -t "$T/tables" --db "$T/b-late.db" --now 2024-07-15 --entry cpuidle)" = 0
check "... the text says the late boot was taken as covering" sh -c "grep -qx 'boots in the window observed only late, taken as covering it (--allow-late-boot: readers at boot unseen), on 1 of 1 host:' '$T/out' &&
	grep -qx '  host $LH: boot 3f2a9c0e: late: observed only late' '$T/out'"
check "... -j: allowed, the host still counted, none uncovered" sh -c "'$A' check -j -t '$T/tables' -d '$T/b-late.db' --now 2024-07-15 --entry cpuidle --allow-late-boot | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d[\"allow_late_boot\"] is True and d[\"db\"][\"late_boot_hosts\"] == 1 and d[\"db\"][\"uncovered_hosts\"] == [], d
assert d[\"entries\"][0][\"verdict\"] == \"ready\", d'"
check "two boots in the window, the first early, the second late: no-data, exit 12" \
	test "$(status ck --db "$T/b-two.db" --now 2024-07-15 --entry cpuidle)" = 12
check "... naming the late one only" \
	same "$(verdict --db "$T/b-two.db" --now 2024-07-15 --entry cpuidle)" "$(late_reason "boot 77e1d2c4: late")"
check "... -j: both boots, in order" sh -c "'$A' check -j -t '$T/tables' -d '$T/b-two.db' --now 2024-07-15 --entry cpuidle | python3 -c '
import json, sys
b = json.load(sys.stdin)[\"db\"][\"host_boots\"][0][\"boots\"]
assert b == [{\"boot\": \"3f2a9c0e\", \"stage\": \"early\", \"observed_early\": True, \"unwatched_at_boot\": [],
              \"clock\": None},
             {\"boot\": \"77e1d2c4\", \"stage\": \"late\", \"observed_early\": False, \"unwatched_at_boot\": [],
              \"clock\": None}], b'"
check "... a window that ends before the late boot: ready" \
	test "$(status ck --db "$T/b-two.db" --now 2024-06-30 --entry cpuidle)" = 0
check "a late boot that ended before the window, an early one through it: ready, exit 0" \
	test "$(status ck --db "$T/b-before.db" --now 2024-07-15 --entry cpuidle)" = 0
check "... -j lists the early boot alone (the other does not overlap)" sh -c "'$A' check -j -t '$T/tables' -d '$T/b-before.db' --now 2024-07-15 --entry cpuidle | python3 -c '
import json, sys
d = json.load(sys.stdin)[\"db\"]
assert [b[\"boot\"] for b in d[\"host_boots\"][0][\"boots\"]] == [\"77e1d2c4\"] and d[\"late_boot_hosts\"] == 0, d'"
check "one boot, traced early, the tracer restarted late in it: ready, exit 0" \
	test "$(status ck --db "$T/b-restart.db" --now 2024-07-15 --entry cpuidle)" = 0
check "a boot whose stage is unknown (NULL): no-data, exit 12" \
	test "$(status ck --db "$T/b-unknown.db" --now 2024-07-15 --entry cpuidle)" = 12
check "... naming the boot and its unknown stage" \
	same "$(verdict --db "$T/b-unknown.db" --now 2024-07-15 --entry cpuidle)" "$(late_reason "boot 3f2a9c0e: unknown")"
check "... -j: stage null" sh -c "'$A' check -j -t '$T/tables' -d '$T/b-unknown.db' --now 2024-07-15 --entry cpuidle | python3 -c '
import json, sys
b = json.load(sys.stdin)[\"db\"][\"host_boots\"][0][\"boots\"]
assert b == [{\"boot\": \"3f2a9c0e\", \"stage\": None, \"observed_early\": False, \"unwatched_at_boot\": [],
              \"clock\": None}], b'"
check "sessions whose boot id was unreadable ('unknown'): each its own boot, the late one named" \
	same "$(verdict --db "$T/b-noid.db" --now 2024-07-15 --entry cpuidle)" "$(late_reason "boot unknown:9: late")"
{ echo "S|$LH|$B1:7|$t0|$((now - 3600))|0|0|-|machine-id|late"
  echo "$LH|$B1:7|/sys/class/rc/rc0/current_protocol|$RC|sysfs-class-rc|deprecated|read|0|5|-|/usr/bin/cat|cat|1|1|1|0|$((now - 86400))|$((now - 86400))"
} | fill "$T/b-used.db"
check "a use on a late boot still blocks: blocked, exit 1" \
	test "$(status ck --db "$T/b-used.db" --now 2024-07-15 --entry rcN)" = 1

section "check: an entry is judged where its files were watched"
# One host through the window; its tracer's runs: cpuidle's file watched
# throughout, rc's alias looked for and never found (abidep.ko not loaded).
# Its boot traced from early on, as the tracer of today records it.
H=web/0123456789abcdef
watched_db() {
	{ echo "S|$H|b1:1|$t0|$((now - 3600))|0|0|-|machine-id|early"; cat; } | "$T/fill" "$T/$1"
}
printf 'W|%s|b1:1|%s|%s|%s|%s\n' "$H" "$GOV" "$t0" "$((now - 3600))" 1 \
	"$H" "$RC" "$t0" "$((now - 3600))" 0 | watched_db w-nofile.db
check "the watched entry: ready, exit 0" \
	test "$(status ck --db "$T/w-nofile.db" --now 2024-07-15 --entry cpuidle)" = 0
check "... its reason plain (the watched set is known)" \
	test "$(verdict --db "$T/w-nofile.db" --now 2024-07-15 --entry cpuidle)" = "ready|no use since 2024-06-15T00:00:00Z"
check "the alias never found: no-data, exit 12" \
	test "$(status ck --db "$T/w-nofile.db" --now 2024-07-15 --entry rcN)" = 12
check "... the file did not exist there: load abidep.ko" \
	test "$(verdict --db "$T/w-nofile.db" --now 2024-07-15 --entry rcN)" = "no-data|not watched through the quiet window (since 2024-06-15T00:00:00Z): the file did not exist (abidep.ko makes it: load the module with 'modprobe abidep', which abidep-dkms does at boot, and trace again) on 1 of 1 host: $H"
check "... -j: the host and why" sh -c "'$A' check -j -t '$T/tables' -d '$T/w-nofile.db' --now 2024-07-15 --entry rcN | python3 -c '
import json, sys
e = json.load(sys.stdin)[\"entries\"][0]
assert e[\"unwatched_hosts\"] == [{\"host\": \"$H\", \"why\": \"no-file\"}] and e[\"watched_set_unknown\"] == 0, e'"
# The alias watched until the module was unloaded, 10 days into the window.
printf 'W|%s|b1:1|%s|%s|%s|%s\n' "$H" "$RC" "$t0" "$(at 2024-06-25)" 1 \
	"$H" "$RC" "$(at 2024-06-25T00:05)" "$((now - 3600))" 0 | watched_db w-part.db
check "watched for part of the window only: no-data, saying so" \
	test "$(verdict --db "$T/w-part.db" --now 2024-07-15 --entry rcN)" = "no-data|not watched through the quiet window (since 2024-06-15T00:00:00Z): the file was watched for part of the window only on 1 of 1 host: $H"
check "... a window that ends before the unloading: ready" \
	test "$(status ck --db "$T/w-part.db" --now 2024-06-25 --quiet-days 5 --entry rcN)" = 0
printf 'W|%s|b1:1|%s|%s|%s|%s\n' "$H" "$GOV" "$t0" "$((now - 3600))" 1 | watched_db w-untabled.db
check "tables without the entry: no-data, saying the tracer's tables lacked it" \
	test "$(verdict --db "$T/w-untabled.db" --now 2024-07-15 --entry rcN)" = "no-data|not watched through the quiet window (since 2024-06-15T00:00:00Z): the tracer's tables lacked the entry (it watched other files) on 1 of 1 host: $H"
: | watched_db w-none.db
check "a session of today that watched nothing (an --early pin stopped before any sync): no-data, never ready" \
	test "$(verdict --db "$T/w-none.db" --now 2024-07-15 --entry rcN | cut -d'|' -f1)" = no-data
# An older tracer's session: no watched set, and no stage either, so its
# boot counts as observed only late; --allow-late-boot judges it as before.
echo "S|$H|b1:1|$t0|$((now - 3600))" | "$T/fill" "$T/w-unknown.db"
check "a session that recorded no watched set (nor its stage), --allow-late-boot: judged as before, ready, and marked" \
	test "$(verdict --db "$T/w-unknown.db" --now 2024-07-15 --entry rcN --allow-late-boot)" = "ready|no use since 2024-06-15T00:00:00Z; watched set unknown on 1 of 1 host (sessions of an abidep that did not record what it watched: the file may not have existed there)"
check "... -j counts the hosts" sh -c "'$A' check -j -t '$T/tables' -d '$T/w-unknown.db' --now 2024-07-15 --entry rcN --allow-late-boot | grep -q '\"watched_set_unknown\": *1'"
check "... the text too" sh -c "'$A' check -t '$T/tables' -d '$T/w-unknown.db' --now 2024-07-15 --entry rcN --allow-late-boot | grep -q 'watched set unknown on 1 of 1 host'"
check "... without --allow-late-boot: no-data, for its boot's unknown stage, and marked" \
	test "$(verdict --db "$T/w-unknown.db" --now 2024-07-15 --entry rcN)" = "no-data|a boot in the quiet window (since 2024-06-15T00:00:00Z) was not traced from before udev's coldplug (its first session's stage late, or unknown): readers at boot unseen (--allow-late-boot accepts it), on 1 of 1 host: $H (boot b1: unknown); watched set unknown on 1 of 1 host (sessions of an abidep that did not record what it watched: the file may not have existed there)"

section "check: an entry of an early boot is observed from early only if watched from the pin"
# Host $PH's boot b1, pinned early at t0 (its start), its first sync at
# t0 + 40 (first_sync): rcN's runs as the tracer of today writes them,
# the pin's first, at the session's start.
PH=pin/0123456789abcdef
fs=$((t0 + 40))
pin_db() {	# DB FIRST_SYNC, then rcN's runs "since|last_sync|files"
	db=$1 first=$2
	shift 2
	{ echo "S|$PH|b1:1|$t0|$((now - 3600))|0|0|-|machine-id|early|5|$first"
	  for l in "$@"; do echo "W|$PH|b1:1|$RC|$l"; done; } | "$T/fill" "$T/$db"
}
pin_db p-watched.db $fs "$t0|$((now - 3600))|1"
pin_db p-coldplug.db $fs "$t0|$t0|0" "$fs|$((now - 3600))|1"
pin_db p-hotplug.db $fs "$t0|$((t0 + 86400))|0" "$((t0 + 86400 + 600))|$((now - 3600))|1"
pin_db p-nopin.db $fs "$fs|$((now - 3600))|1"
pin_db p-refresh.db $fs "$t0|$t0|0" "$((t0 + 10))|$((now - 3600))|1"
pin_db p-schema6.db - "$t0|$t0|0" "$fs|$((now - 3600))|1"
after_pin_reason="no-data|not watched from early boot in the quiet window (since 2024-06-15T00:00:00Z): the files appeared after the tracer was pinned (at coldplug) and were not watched until its first sync or a refresh before it, readers at boot unseen (--allow-late-boot accepts it), on 1 of 1 host: $PH (boot b1: $RC)"
check "files watched from the pin, through the window: ready, exit 0" \
	test "$(status ck --db "$T/p-watched.db" --now 2024-07-15 --entry rcN)" = 0
check "... its reason plain" \
	same "$(verdict --db "$T/p-watched.db" --now 2024-07-15 --entry rcN)" "ready|no use since 2024-06-15T00:00:00Z"
check "no file at the pin, files from its first sync (udev's coldplug between): no-data, exit 12" \
	test "$(status ck --db "$T/p-coldplug.db" --now 2024-07-15 --entry rcN)" = 12
check "... the reason names the host, the boot and the What" \
	same "$(verdict --db "$T/p-coldplug.db" --now 2024-07-15 --entry rcN)" "$after_pin_reason"
check "... the text says it under the entry" sh -c "'$A' check -t '$T/tables' -d '$T/p-coldplug.db' --now 2024-07-15 --entry rcN |
	grep -qF 'not watched from early boot in the quiet window (since 2024-06-15T00:00:00Z): the files appeared after the tracer was pinned (at coldplug)'"
check "... -j: the entry's host unwatched at boot, the boot's What, the host still covering" sh -c "'$A' check -j -t '$T/tables' -d '$T/p-coldplug.db' --now 2024-07-15 --entry rcN | python3 -c '
import json, sys
d = json.load(sys.stdin)
db, e = d[\"db\"], d[\"entries\"][0]
assert e[\"unwatched_hosts\"] == [{\"host\": \"$PH\", \"why\": \"unwatched-at-boot\"}], e
assert db[\"host_boots\"] == [{\"host\": \"$PH\", \"boots\": [{\"boot\": \"b1\", \"stage\": \"early\",
    \"observed_early\": True, \"unwatched_at_boot\": [\"$RC\"], \"clock\": None}]}], db
assert db[\"unwatched_at_boot_hosts\"] == 1 and db[\"late_boot_hosts\"] == 0 and db[\"uncovered_hosts\"] == [], db'"
check "... --format html: the reason" sh -c "'$A' check --format html -t '$T/tables' -d '$T/p-coldplug.db' --now 2024-07-15 --entry rcN |
	grep -qF 'the files appeared after the tracer was pinned (at coldplug) and were not watched until its first sync or a refresh before it, readers at boot unseen (--allow-late-boot accepts it), on 1 of 1 host: $PH (boot b1: $RC)'"
check "... another entry, watched from the pin, is not held by it: ready" sh -c "
	printf 'W|%s|b1:1|%s|%s|%s|1\n' '$PH' '$GOV' '$t0' '$((now - 3600))' | '$T/fill' '$T/p-coldplug.db' &&
	test \"\$('$A' check -t '$T/tables' -d '$T/p-coldplug.db' --now 2024-07-15 --entry cpuidle >/dev/null; echo \$?)\" = 0"
check "... --allow-late-boot: ready, exit 0" \
	test "$(status ck --db "$T/p-coldplug.db" --now 2024-07-15 --entry rcN --allow-late-boot)" = 0
check "... the text says the boot was taken as observed from early boot" sh -c "grep -qx 'boots in the window whose files appeared after the tracer was pinned, unwatched until its first sync or a refresh before it, taken as observed from early boot (--allow-late-boot: readers at boot unseen), on 1 of 1 host:' '$T/out' &&
	grep -qx '  host $PH: boot b1: $RC' '$T/out'"
check "... -j: none unwatched, the boot's What still listed" sh -c "'$A' check -j -t '$T/tables' -d '$T/p-coldplug.db' --now 2024-07-15 --entry rcN --allow-late-boot | python3 -c '
import json, sys
d = json.load(sys.stdin)
e = d[\"entries\"][0]
assert e[\"verdict\"] == \"ready\" and e[\"unwatched_hosts\"] == [], e
assert d[\"db\"][\"host_boots\"][0][\"boots\"][0][\"unwatched_at_boot\"] == [\"$RC\"] and d[\"db\"][\"unwatched_at_boot_hosts\"] == 1, d'"
check "no file at the pin, files from a refresh before the first sync (--adopt): no-data, the same reason" \
	same "$(verdict --db "$T/p-refresh.db" --now 2024-07-15 --entry rcN)" "$after_pin_reason"
check "no file at the pin, files from a day later (a device added after the first sync): not this rule, ready" \
	test "$(status ck --db "$T/p-hotplug.db" --now 2024-07-15 --entry rcN)" = 0
check "... -j: nothing unwatched at boot" sh -c "'$A' check -j -t '$T/tables' -d '$T/p-hotplug.db' --now 2024-07-15 --entry rcN | python3 -c '
import json, sys
d = json.load(sys.stdin)[\"db\"]
assert d[\"host_boots\"][0][\"boots\"][0][\"unwatched_at_boot\"] == [] and d[\"unwatched_at_boot_hosts\"] == 0, d'"
check "no run at the session's start (a tracer that recorded no pin): judged on the boot's stage, ready" \
	test "$(status ck --db "$T/p-nopin.db" --now 2024-07-15 --entry rcN)" = 0
check "a session written before schema 7 (first sync unknown): its earliest run stands for it, ready" \
	test "$(status ck --db "$T/p-schema6.db" --now 2024-07-15 --entry rcN)" = 0

section "merge: sessions"
# Two copies of h1's DB taken at different times, and a quiet host h2.
printf 'S|h1|b1:1|1000|2000\nS|h1|b1:2|3000|3500\n' | fill "$T/sa.db"
printf 'S|h1|b1:1|900|1500\nS|h2|b2:1|500|4000\n' | fill "$T/sb.db"
check "sessions are merged: exit 0" test "$(status "$A" merge "$T/sa.db" "$T/sb.db" "$T/v1.db" -o "$T/sfleet.db")" = 0
check "... a host with sessions only is a host of the fleet" grep -qx "merged 3 DBs into $T/sfleet.db: 6 rows; hosts: h1 h2 h3" "$T/out"
check "... the earliest start, the latest sync" \
	test "$(sql "$T/sfleet.db" 'SELECT host, session, started, last_sync FROM sessions ORDER BY 1, 2' | tr '\n' ' ')" = "h1|b1:1|900|2000 h1|b1:2|3000|3500 h2|b2:1|500|4000 "
sum_before=$(sql "$T/sfleet.db" .dump | md5sum)
check "merging them again, in another order: exit 0" test "$(status "$A" merge "$T/sb.db" "$T/v1.db" "$T/sa.db" -o "$T/sfleet.db")" = 0
check "... changes nothing" test "$(sql "$T/sfleet.db" .dump | md5sum)" = "$sum_before"
check "check on the merged DB reads its sessions" sh -c "'$A' check -j --tables '$T/tables' --db '$T/sfleet.db' --now 2024-07-15 --entry cpuidle | python3 -c '
import json, sys
d = json.load(sys.stdin)[\"db\"]
assert d[\"sessions\"] == 3 and [h[\"host\"] for h in d[\"uncovered_hosts\"]] == [\"h1\", \"h2\"], d
'"

section "merge: the daily history"
# Syncs of two hosts' tracers over four days (D0 is 2024-05-01 UTC), each
# fill a sync: cat's cumulative count of reads of $GOV in the session.
D0=$((t0 - t0 % 86400))
sync_gov() {	# HOST SESSION COUNT LAST DB
	echo "$1|$2|$GOV|$GOV|sysfs-cpuidle|deprecated|read|0|10|/system.slice/mon.service|/usr/bin/cat|cat|100|1|$3|0|$t0|$4" | fill "$5"
}
sync_gov hA a:1 3 $((D0 + 100)) "$T/hA.db"
sync_gov hA a:1 5 $((D0 + 86400 + 100)) "$T/hA.db"
sync_gov hA a:1 9 $((D0 + 2 * 86400 + 100)) "$T/hA.db"
sync_gov hB b:1 2 $((D0 + 86400 + 200)) "$T/hB.db"
sync_gov hB b:1 4 $((D0 + 86400 + 300)) "$T/hB.db"
sync_gov hB b:2 1 $((D0 + 3 * 86400)) "$T/hB.db"
cp "$T/hA.db" "$T/hA-old.db"
days() {	# DB: "host|session|day (from D0)|count|errors|swept" lines
	sql "$1" "SELECT host, session, (day - $D0) / 86400, count, errors, swept FROM usage_days ORDER BY 1, 2, 3" | tr '\n' ' '
}
want_days="hA|a:1|0|3|0|0 hA|a:1|1|2|0|0 hA|a:1|2|4|0|0 hB|b:1|1|4|0|0 hB|b:2|3|1|0|0 "
check "the inputs' days: each sync's growth on its day" \
	test "$(days "$T/hA.db")$(days "$T/hB.db")" = "$want_days"
check "two hosts' histories merged: exit 0" test "$(status "$A" merge "$T/hA.db" "$T/hB.db" -o "$T/hist.db")" = 0
check "... every day of every session, exactly" test "$(days "$T/hist.db")" = "$want_days"
check "... the days of each session sum to its row" test "$(sql "$T/hist.db" "SELECT count(*) FROM usage u WHERE count != (SELECT SUM(count) FROM usage_days d WHERE d.host = u.host AND d.session = u.session)")" = 0
check "... report reads a day of the merged DB: both hosts' uses of it" sh -c "'$A' report -j --db '$T/hist.db' --since 2024-05-02 --until 2024-05-02 | python3 -c '
import json, sys
u = json.load(sys.stdin)[0][\"users\"]
assert [(x[\"count\"], x[\"hosts\"]) for x in u] == [(6, [\"hA\", \"hB\"])], u
'"
sum_before=$(sql "$T/hist.db" .dump | md5sum)
check "merging them again, in another order: exit 0" test "$(status "$A" merge "$T/hB.db" "$T/hA.db" "$T/hB.db" -o "$T/hist.db")" = 0
check "... changes nothing (no day doubled)" test "$(sql "$T/hist.db" .dump | md5sum)" = "$sum_before"
sync_gov hA a:1 12 $((D0 + 2 * 86400 + 900)) "$T/hA.db"
sync_gov hA a:1 13 $((D0 + 3 * 86400 + 100)) "$T/hA.db"
check "a later copy of a host's DB: its days grow, a new day comes" sh -c "'$A' merge '$T/hA.db' -o '$T/hist.db' >/dev/null &&
	test \"\$(sqlite3 '$T/hist.db' \"SELECT (day - $D0) / 86400, count FROM usage_days WHERE host = 'hA' ORDER BY day\" | tr '\n' ' ')\" = '0|3 1|2 2|7 3|1 '"
sum_before=$(sql "$T/hist.db" .dump | md5sum)
check "an older copy merged after it: exit 0" test "$(status "$A" merge "$T/hA-old.db" -o "$T/hist.db")" = 0
check "... changes nothing" test "$(sql "$T/hist.db" .dump | md5sum)" = "$sum_before"
cp "$T/hB.db" "$T/hB-v3.db"
sql "$T/hB-v3.db" "$UNDO_SCHEMA8 DROP TABLE usage_days; UPDATE usage SET count = count + 1; PRAGMA user_version = 3" >/dev/null
check "a schema 3 input (no history): exit 0" test "$(status "$A" merge "$T/hB-v3.db" -o "$T/hist.db")" = 0
check "... its rows merged, the days as they were" sh -c "test \"\$(sqlite3 '$T/hist.db' \"SELECT SUM(count) FROM usage WHERE host = 'hB'\")\" = 7 &&
	test \"\$(sqlite3 '$T/hist.db' \"SELECT COUNT(*), SUM(count) FROM usage_days WHERE host = 'hB'\")\" = '2|5'"
check "... and it is left schema 3" test "$(sql "$T/hB-v3.db" 'PRAGMA user_version')" = 3
sync_gov hA a:2 1 $((D0 + 400 * 86400)) "$T/hA2.db"
check "a day $((400)) days on: the oldest day goes, the totals stay" sh -c "'$A' merge '$T/hA2.db' -o '$T/hist.db' >/dev/null &&
	test \"\$(sqlite3 '$T/hist.db' \"SELECT MIN(day) - $D0, COUNT(*) FROM usage_days; SELECT SUM(count) FROM usage\" | tr '\n' ' ')\" = '86400|6 21 '"

section "report --format prometheus"
# Hostile executable names: a quote, a backslash, a newline, a byte that is not UTF-8.
# Swept uses, the last field: cat's summed over its cgroups (2 + 1 of 2 + 3).
cat >"$T/prows" <<X
h1|b1:1|/sys/class/rc/rc0/current_protocol|$RC|sysfs-class-rc|deprecated|write|1000|55|-|/usr/local/bin/legacy-irctl|legacy-irctl|400|1|4|4|$((t0 + 5))|$((t0 + 9))
h1|b1:1|/sys/class/rc/rc0/current_protocol|$RC|sysfs-class-rc|deprecated|read|0|56|/a|/usr/bin/cat|cat|400|1|2|0|$t0|$t0|2
h1|b1:1|/sys/class/rc/rc0/current_protocol|$RC|sysfs-class-rc|deprecated|read|0|57|/b|/usr/bin/cat|cat|400|1|3|1|$((t0 + 1))|$((t0 + 70))|1
h2|b2:1|/sys/class/rc/rc0/current_protocol|$RC|sysfs-class-rc|deprecated|read|0|56|/a|/tmp/a%22b%5Cc%0Ad%FFe|x|400|1|1|0|$t0|$t0|1
h2|b2:1|/sys/x/y|-|-|-|open|0|56|/a|/tmp/%22%22|x|400|1|1|1|$t0|$t0
X
fill "$T/p.db" <"$T/prows"
{
	printf '%s\n' '# HELP abidep_deprecated_access_errors_total Of those uses, the ones that failed.'
	printf '%s\n' '# TYPE abidep_deprecated_access_errors_total counter'
	printf '%s\n' 'abidep_deprecated_access_errors_total{entry="",file="/sys/x/y",exe="/tmp/\"\"",package="",uid="0",host="h2",op="open"} 1'
	printf '%s\n' 'abidep_deprecated_access_errors_total{entry="/sys/class/rc/rcN/current_protocol",file="/sys/class/rc/rc0/current_protocol",exe="/tmp/a\"b\\c\nd'"$(printf '\357\277\275')"'e",package="",uid="0",host="h2",op="read"} 0'
	printf '%s\n' 'abidep_deprecated_access_errors_total{entry="/sys/class/rc/rcN/current_protocol",file="/sys/class/rc/rc0/current_protocol",exe="/usr/bin/cat",package="coreutils",uid="0",host="h1",op="read"} 1'
	printf '%s\n' 'abidep_deprecated_access_errors_total{entry="/sys/class/rc/rcN/current_protocol",file="/sys/class/rc/rc0/current_protocol",exe="/usr/local/bin/legacy-irctl",package="",uid="1000",host="h1",op="write"} 4'
	printf '%s\n' '# HELP abidep_deprecated_access_first_seen_timestamp_seconds The first use, in unix seconds.'
	printf '%s\n' '# TYPE abidep_deprecated_access_first_seen_timestamp_seconds gauge'
	printf '%s\n' 'abidep_deprecated_access_first_seen_timestamp_seconds{entry="",file="/sys/x/y",exe="/tmp/\"\"",package="",uid="0",host="h2",op="open"} '$t0
	printf '%s\n' 'abidep_deprecated_access_first_seen_timestamp_seconds{entry="/sys/class/rc/rcN/current_protocol",file="/sys/class/rc/rc0/current_protocol",exe="/tmp/a\"b\\c\nd'"$(printf '\357\277\275')"'e",package="",uid="0",host="h2",op="read"} '$t0
	printf '%s\n' 'abidep_deprecated_access_first_seen_timestamp_seconds{entry="/sys/class/rc/rcN/current_protocol",file="/sys/class/rc/rc0/current_protocol",exe="/usr/bin/cat",package="coreutils",uid="0",host="h1",op="read"} '$t0
	printf '%s\n' 'abidep_deprecated_access_first_seen_timestamp_seconds{entry="/sys/class/rc/rcN/current_protocol",file="/sys/class/rc/rc0/current_protocol",exe="/usr/local/bin/legacy-irctl",package="",uid="1000",host="h1",op="write"} '$((t0 + 5))
	# No use of a boot whose clock was set back: the family alone.
	printf '%s\n' "# HELP abidep_deprecated_access_last_seen_latest_timestamp_seconds The latest the last use may have been, in unix seconds, when later than it was placed: a use of a boot whose wall clock was never synchronized and was set back is placed by the boot's last reading of the clocks, and an earlier reading would put it up to this late."
	printf '%s\n' '# TYPE abidep_deprecated_access_last_seen_latest_timestamp_seconds gauge'
	printf '%s\n' '# HELP abidep_deprecated_access_last_seen_timestamp_seconds The last use, in unix seconds.'
	printf '%s\n' '# TYPE abidep_deprecated_access_last_seen_timestamp_seconds gauge'
	printf '%s\n' 'abidep_deprecated_access_last_seen_timestamp_seconds{entry="",file="/sys/x/y",exe="/tmp/\"\"",package="",uid="0",host="h2",op="open"} '$t0
	printf '%s\n' 'abidep_deprecated_access_last_seen_timestamp_seconds{entry="/sys/class/rc/rcN/current_protocol",file="/sys/class/rc/rc0/current_protocol",exe="/tmp/a\"b\\c\nd'"$(printf '\357\277\275')"'e",package="",uid="0",host="h2",op="read"} '$t0
	printf '%s\n' 'abidep_deprecated_access_last_seen_timestamp_seconds{entry="/sys/class/rc/rcN/current_protocol",file="/sys/class/rc/rc0/current_protocol",exe="/usr/bin/cat",package="coreutils",uid="0",host="h1",op="read"} '$((t0 + 70))
	printf '%s\n' 'abidep_deprecated_access_last_seen_timestamp_seconds{entry="/sys/class/rc/rcN/current_protocol",file="/sys/class/rc/rc0/current_protocol",exe="/usr/local/bin/legacy-irctl",package="",uid="1000",host="h1",op="write"} '$((t0 + 9))
	printf '%s\n' "# HELP abidep_deprecated_access_swept_total Of those uses, the ones made within a sweep: the program opened most of the files (3 in 4, at least 4) of the directory its process group, or its parent's, listed, each once and in an order that comes from the directory, or as it walked the directory's tree."
	printf '%s\n' '# TYPE abidep_deprecated_access_swept_total counter'
	printf '%s\n' 'abidep_deprecated_access_swept_total{entry="",file="/sys/x/y",exe="/tmp/\"\"",package="",uid="0",host="h2",op="open"} 0'
	printf '%s\n' 'abidep_deprecated_access_swept_total{entry="/sys/class/rc/rcN/current_protocol",file="/sys/class/rc/rc0/current_protocol",exe="/tmp/a\"b\\c\nd'"$(printf '\357\277\275')"'e",package="",uid="0",host="h2",op="read"} 1'
	printf '%s\n' 'abidep_deprecated_access_swept_total{entry="/sys/class/rc/rcN/current_protocol",file="/sys/class/rc/rc0/current_protocol",exe="/usr/bin/cat",package="coreutils",uid="0",host="h1",op="read"} 3'
	printf '%s\n' 'abidep_deprecated_access_swept_total{entry="/sys/class/rc/rcN/current_protocol",file="/sys/class/rc/rc0/current_protocol",exe="/usr/local/bin/legacy-irctl",package="",uid="1000",host="h1",op="write"} 0'
	printf '%s\n' '# HELP abidep_deprecated_access_total Uses of deprecated sysfs files seen by the abidep tracer, summed over its sessions.'
	printf '%s\n' '# TYPE abidep_deprecated_access_total counter'
	printf '%s\n' 'abidep_deprecated_access_total{entry="",file="/sys/x/y",exe="/tmp/\"\"",package="",uid="0",host="h2",op="open"} 1'
	printf '%s\n' 'abidep_deprecated_access_total{entry="/sys/class/rc/rcN/current_protocol",file="/sys/class/rc/rc0/current_protocol",exe="/tmp/a\"b\\c\nd'"$(printf '\357\277\275')"'e",package="",uid="0",host="h2",op="read"} 1'
	printf '%s\n' 'abidep_deprecated_access_total{entry="/sys/class/rc/rcN/current_protocol",file="/sys/class/rc/rc0/current_protocol",exe="/usr/bin/cat",package="coreutils",uid="0",host="h1",op="read"} 5'
	printf '%s\n' 'abidep_deprecated_access_total{entry="/sys/class/rc/rcN/current_protocol",file="/sys/class/rc/rc0/current_protocol",exe="/usr/local/bin/legacy-irctl",package="",uid="1000",host="h1",op="write"} 4'
	# The tables' Remove-after dates: those that are dates (2024-03 from its first day), not 6.12.
	printf '%s\n' '# HELP abidep_entry_due_timestamp_seconds When the entry is due by its Remove-after date, as abidep check decides it: 00:00 UTC of the day after the period the date names (2024-03: 2024-04-01), in unix seconds.'
	printf '%s\n' '# TYPE abidep_entry_due_timestamp_seconds gauge'
	printf '%s\n' 'abidep_entry_due_timestamp_seconds{entry="/sys/class/foo/fooN/old_mode"} 1893542400'
	printf '%s\n' 'abidep_entry_due_timestamp_seconds{entry="/sys/class/rc/rcN/current_protocol"} 1333929600'
	printf '%s\n' 'abidep_entry_due_timestamp_seconds{entry="/sys/devices/system/cpu/cpuidle/current_governor_ro"} 1711929600'
	# No session: no reading of the clocks (metrics.sh has them).
	printf '%s\n' "# HELP abidep_tracer_clock_reading_wall_seconds A reading of a tracer session's clocks: what the wall clock read, in unix seconds, when the boot's own clock (CLOCK_BOOTTIME) read boottime_ns, and whether the wall clock was synchronized then (1 or 0). A session's first reading, and each one where the wall clock was stepped (by a second or more) or its synchronization changed; of every session of the boots of the sessions exported."
	printf '%s\n' '# TYPE abidep_tracer_clock_reading_wall_seconds gauge'
	# The pinned sample names this machine: left out of the comparison (metrics.sh checks it).
	printf '%s\n' '# HELP abidep_tracer_pinned 1 when an abidep tracer is pinned (/sys/fs/bpf/abidep/usage exists) on the machine that wrote these metrics, 0 when not.'
	printf '%s\n' '# TYPE abidep_tracer_pinned gauge'
	printf '%s\n' '# HELP abidep_tracer_session_first_sync_timestamp_seconds The session'"'"'s first sync into the usage DB, in unix seconds.'
	printf '%s\n' '# TYPE abidep_tracer_session_first_sync_timestamp_seconds gauge'
	printf '%s\n' '# HELP abidep_tracer_session_last_sync_timestamp_seconds The session'"'"'s last sync into the usage DB, in unix seconds.'
	printf '%s\n' '# TYPE abidep_tracer_session_last_sync_timestamp_seconds gauge'
	printf '%s\n' '# HELP abidep_tracer_session_lost_timestamp_seconds The sync that first saw the session'"'"'s losses at their latest values, in unix seconds.'
	printf '%s\n' '# TYPE abidep_tracer_session_lost_timestamp_seconds gauge'
	printf '%s\n' '# HELP abidep_tracer_session_order The session'"'"'s place among its host'"'"'s sessions in the order of their first syncs (1, 2, ...), which no wall clock changes.'
	printf '%s\n' '# TYPE abidep_tracer_session_order gauge'
	printf '%s\n' "# HELP abidep_tracer_session_skipped_runs_total Runs of the session's programs the kernel skipped (a session with a loss only)."
	printf '%s\n' '# TYPE abidep_tracer_session_skipped_runs_total counter'
	printf '%s\n' '# HELP abidep_tracer_session_start_timestamp_seconds When the abidep tracer session (one load of the tracer) began, in unix seconds.'
	printf '%s\n' '# TYPE abidep_tracer_session_start_timestamp_seconds gauge'
	printf '%s\n' '# HELP abidep_tracer_session_unrecorded_total Accesses the session saw but could not record (a session with a loss only).'
	printf '%s\n' '# TYPE abidep_tracer_session_unrecorded_total counter'
	printf '%s\n' "# HELP abidep_tracer_skipped_runs_total Runs of the abidep tracer's programs the kernel skipped (one already running on that CPU), summed over its sessions: up to as many accesses not seen."
	printf '%s\n' '# TYPE abidep_tracer_skipped_runs_total counter'
	printf '%s\n' '# HELP abidep_tracer_unrecorded_total Accesses the abidep tracer saw but could not record (usage map full, or a uid over its new-key quota), summed over its sessions: any may have been a use.'
	printf '%s\n' '# TYPE abidep_tracer_unrecorded_total counter'
	printf '%s\n' '# HELP abidep_tracer_watched_last_sync_timestamp_seconds The last sync of a run of a session'"'"'s syncs in one state for an entry: since its first sync, found 1 when files were watched, 0 when looked for and none found; entry empty for a session that recorded no watched set.'
	printf '%s\n' '# TYPE abidep_tracer_watched_last_sync_timestamp_seconds gauge'
} >"$T/want.prom"
check "--format prometheus: exit 0" test "$(status "$A" report --db "$T/p.db" --root "$T/root" -t "$T/tables" --format prometheus)" = 0
check "... exactly: families sorted, cgroups summed, labels escaped, bad UTF-8 replaced" sh -c "grep -v '^abidep_tracer_pinned{' '$T/out' | diff -u '$T/want.prom' -"
# The parser of the official client (Debian: python3-prometheus-client).
PY=
for py in python3 /usr/bin/python3; do
	"$py" -c 'import prometheus_client' 2>/dev/null && PY=$py && break
done
if [ -n "$PY" ]; then
	check "... a Prometheus parser reads the names back" "$PY" -c "
from prometheus_client.parser import text_string_to_metric_families
fams = {f.name: f for f in text_string_to_metric_families(open('$T/out', encoding='utf-8').read())}
assert sorted(fams) == ['abidep_deprecated_access', 'abidep_deprecated_access_errors',
                        'abidep_deprecated_access_first_seen_timestamp_seconds',
                        'abidep_deprecated_access_last_seen_latest_timestamp_seconds',
                        'abidep_deprecated_access_last_seen_timestamp_seconds',
                        'abidep_deprecated_access_swept', 'abidep_entry_due_timestamp_seconds',
                        'abidep_tracer_clock_reading_wall_seconds',
                        'abidep_tracer_pinned', 'abidep_tracer_session_first_sync_timestamp_seconds',
                        'abidep_tracer_session_last_sync_timestamp_seconds',
                        'abidep_tracer_session_lost_timestamp_seconds', 'abidep_tracer_session_order',
                        'abidep_tracer_session_skipped_runs',
                        'abidep_tracer_session_start_timestamp_seconds', 'abidep_tracer_session_unrecorded',
                        'abidep_tracer_skipped_runs', 'abidep_tracer_unrecorded',
                        'abidep_tracer_watched_last_sync_timestamp_seconds'], sorted(fams)
exes = sorted(s.labels['exe'] for s in fams['abidep_deprecated_access'].samples)
assert exes == ['/tmp/\"\"', '/tmp/a\"b\\\\c\nd\ufffde', '/usr/bin/cat', '/usr/local/bin/legacy-irctl'], exes
"
else
	echo "# python3-prometheus-client not installed: the parser check is left out"
fi
check "-o FILE: exit 0, nothing on stdout" sh -c "'$A' report --db '$T/p.db' --root '$T/root' -t '$T/tables' --format prometheus -o '$T/abidep.prom' >'$T/out' && test ! -s '$T/out'"
check "... the same metrics" sh -c "grep -v '^abidep_tracer_pinned{' '$T/abidep.prom' | diff -u '$T/want.prom' -"
check "... readable by node_exporter (0644 under umask 022), no temporary file left" sh -c "test \$(stat -c %a '$T/abidep.prom') = 644 && ! ls -a '$T' | grep -q '^\.abidep\.prom\.'"
check "--entry filters the metrics, the Remove-after dates too" sh -c "'$A' report --db '$T/p.db' -t '$T/tables' --format prometheus --entry /sys/x/y | grep -v '^abidep_tracer_pinned{' | grep -c '^abidep_' | grep -qx 5"
check "an empty DB: no use, session or loss, only HELP, TYPE, this host's pin and the tables' dates" sh -c "'$A' report --db '$T/empty.db' --format prometheus >'$T/empty.prom' && grep -q '^# TYPE ' '$T/empty.prom' && ! grep -v '^# ' '$T/empty.prom' | grep -qv '^abidep_tracer_pinned{\\|^abidep_entry_due_timestamp'"
check "-o into a missing directory: exit 2" test "$(status "$A" report --db "$T/p.db" --format prometheus -o "$T/nodir/a.prom")" = 2
check "... named" grep -q "^abidep: cannot create a temporary file in $T/nodir for $T/nodir/a.prom" "$T/err"
check "-o with text: exit 0, nothing on stdout" test "$(status "$A" report --db "$T/p.db" -o "$T/a.txt")" = 0 -a ! -s "$T/out"
check "... the text in the file" same "$(cat "$T/a.txt")" "$("$A" report --db "$T/p.db")"
section "check --kernel and Config: not built in that kernel (the repository's tables)"
# cgroup v1's memory files need CONFIG_MEMCG_V1 from 6.11: 6.12's config
# says it is not set; 6.1's has no such option (the files are built).
CR=$T/cfgroot
mkdir -p "$CR/var/lib/dpkg/info" "$CR/boot"
printf 'CONFIG_MEMCG=y\n# CONFIG_MEMCG_V1 is not set\nCONFIG_IPV6=y\n' >"$CR/boot/config-6.12.118+deb12-amd64"
printf 'CONFIG_MEMCG=y\nCONFIG_MEMCG_KMEM=y\nCONFIG_IPV6=y\n' >"$CR/boot/config-6.1.0-57-amd64"
printf 'CONFIG_MEMCG=y\nCONFIG_MEMCG_V1=y\n' >"$CR/boot/config-6.12.9-v1"
cv() {
	kk -j --root "$CR" "$@" | one_verdict
}
check "memory.oom_control on 6.12 built without CONFIG_MEMCG_V1: removed, not built" \
	same "$(cv --kernel 6.12.118+deb12-amd64 --entry memory.oom_control)" \
	"removed|not built in kernel 6.12.118+deb12-amd64: CONFIG_MEMCG_V1 is not set in $CR/boot/config-6.12.118+deb12-amd64"
check "... on 6.1, whose config has no such option: judged as before (not-due)" \
	same "$(cv --kernel 6.1.0-57-amd64 --entry memory.oom_control | cut -d'|' -f1)" "not-due"
check "... on a 6.12 built with it: not-due" \
	same "$(cv --kernel 6.12.9-v1 --entry memory.oom_control | cut -d'|' -f1)" "not-due"
check "... with no config file for --kernel: not-due" \
	same "$(cv --kernel 6.13 --entry memory.oom_control | cut -d'|' -f1)" "not-due"
check "an entry without Config: on the 6.12 config: not-due (oom_adj)" \
	same "$(cv --kernel 6.12.118+deb12-amd64 --entry oom_adj | cut -d'|' -f1)" "not-due"
printf 'What:\t/sys/a\nStatus:\tdeprecated\nDeprecated:\t2012\nReplaced-by:\tnone\nSource:\tx\nConfig:\tMEMCG_V1\nDescription:\tx\n' >"$T/badcfg"
check "a Config: word that is not CONFIG_X: an error" \
	sh -c "'$A' tables validate -t '$T/badcfg' 2>&1 | grep -q \"error: bad Config: 'MEMCG_V1'\""

check "a bad --format: exit 2" test "$(status "$A" report --db "$T/p.db" --format xml)" = 2
check "... named, with the formats it takes" grep -qx "abidep: --format takes text, json, csv, markdown, prometheus or html, not 'xml'" "$T/err"
check "check --format prometheus: exit 2" test "$(status "$A" check --format prometheus)" = 2
check "... named, with the formats check takes" grep -qx "abidep: --format takes text, json, csv, markdown or html, not 'prometheus'" "$T/err"
check "--format json is -j" same "$("$A" report --db "$T/p.db" --format json)" "$("$A" report -j --db "$T/p.db")"

finish check
