#!/bin/sh
# CLI tests of `abidep report`: a usage DB written through the store's API
# (store_upsert, by a small helper built here), the report's text and JSON,
# filters, and the missing, corrupt and unwritable DB errors.
# Ends with "report: N passed, N failed".
set -u
# Text is fitted to $COLUMNS when it is set: these compare it whole.
unset COLUMNS
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
A=${ABIDEP:-build/abidep}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

status() {
	"$@" >"$T/out" 2>"$T/err"
	echo $?
}

section "setup"
check "abidep is built ($A; make -C tools)" test -x "$A"
check "the helper builds (tests/build-helper fill)" sh -c "tests/build-helper fill && cp build/tests/fill '$T/fill'"
fill() {
	"$T/fill" "$@"
}

# 2024-05-01T10:00:00Z, and a day later
t0=1714557600
t1=$((t0 + 86400))
GOV=/sys/devices/system/cpu/cpuidle/current_governor_ro
RC=/sys/class/rc/rcN/current_protocol
# Swept uses (the last field; none when left out): cat's reads are partly
# swept (its first session's 4 of 5, not 3 of 3: a sync replaces), so cat
# reads by name; every read of udevadm, on two hosts, was swept: a sweep.
rows() {
	# host session path what table status op uid cgroup_id cgroup exe comm pid ppid count errors first last [swept]
	sed 's/ *|/|/g' <<X
h1 |b1:1 |$GOV |$GOV |sysfs-cpuidle |deprecated |read |0 |10 |/system.slice/mon.service |/usr/bin/cat |cat |100 |1 |3 |0 |$t0 |$((t0 + 60)) |3
h1 |b1:1 |$GOV |$GOV |sysfs-cpuidle |deprecated |read |0 |10 |/system.slice/mon.service |/usr/bin/cat |- |-1 |-1 |5 |0 |$t0 |$((t0 + 120)) |4
h1 |b2:4 |$GOV |$GOV |sysfs-cpuidle |deprecated |read |0 |77 |/system.slice/mon.service |/usr/bin/cat |cat |200 |1 |2 |0 |$t1 |$((t1 + 10)) |0
h2 |b3:7 |$GOV |$GOV |sysfs-cpuidle |deprecated |read |0 |12 |/system.slice/mon.service |/usr/bin/cat |cat |300 |1 |1 |0 |$((t0 + 30)) |$((t0 + 30)) |1
h1 |b1:1 |$GOV |$GOV |sysfs-cpuidle |deprecated |read |0 |20 |- |/usr/bin/udevadm |udevadm |150 |1 |4 |0 |$((t0 + 200)) |$((t0 + 200)) |4
h2 |b3:7 |$GOV |$GOV |sysfs-cpuidle |deprecated |read |0 |20 |- |/usr/bin/udevadm |udevadm |350 |1 |2 |0 |$((t0 + 300)) |$((t0 + 300)) |2
h1 |b1:1 |/sys/class/rc/rc0/current_protocol |$RC |sysfs-class-rc |deprecated |write |1000 |55 |- |/usr/local/bin/legacy-irctl |legacy-irctl |400 |399 |4 |4 |$((t0 + 5)) |$((t0 + 9))
h1 |b2:4 |/sys/class/rc/rc3/current_protocol |$RC |sysfs-class-rc |deprecated |open |1000 |55 |- |/usr/local/bin/legacy-irctl |legacy-irctl |401 |399 |1 |0 |$((t1 + 5)) |$((t1 + 5))
X
}

mkdir -p "$T/root/var/lib/dpkg/info"
printf '/.\n/bin\n/bin/cat\n' >"$T/root/var/lib/dpkg/info/coreutils.list"
printf '/.\n/lib/x86_64-linux-gnu/libc.so.6\n' >"$T/root/var/lib/dpkg/info/libc6:amd64.list"
MS='Michael Stone <mstone@debian.org>'
printf 'Package: coreutils\nStatus: install ok installed\nVersion: 9.1-1\nMaintainer: %s\n' "$MS" \
	>"$T/root/var/lib/dpkg/status"
rows | fill "$T/u.db"
check "the DB is written through store_upsert" test "$(sqlite3 "$T/u.db" 'SELECT count(*) FROM usage')" = 7
check "... swept replaced as count is, 0 when not given" \
	test "$(sqlite3 "$T/u.db" 'SELECT swept FROM usage ORDER BY host, session, path, op, exe' | tr '\n' ' ')" = "0 4 4 0 0 1 2 "

section "text"
cat >"$T/want" <<X
/sys/class/rc/rcN/current_protocol (deprecated, sysfs-class-rc): /sys/class/rc/rc0/current_protocol, /sys/class/rc/rc3/current_protocol
  EXE                          PACKAGE    UIDS  CGROUPS                    OPS         HOW      BOOT  COUNT  ERRORS  LAST-SEEN             HOSTS
  /usr/local/bin/legacy-irctl  -          1000  -                          open,write  by-name  -         5       4  2024-05-02T10:00:05Z  h1

/sys/devices/system/cpu/cpuidle/current_governor_ro (deprecated, sysfs-cpuidle): /sys/devices/system/cpu/cpuidle/current_governor_ro
  EXE                          PACKAGE    UIDS  CGROUPS                    OPS         HOW      BOOT  COUNT  ERRORS  LAST-SEEN             HOSTS
  /usr/bin/cat                 coreutils  0     /system.slice/mon.service  read        by-name  -         8       0  2024-05-02T10:00:10Z  h1, h2
  /usr/bin/udevadm             -          0     -                          read        sweep    -         6       0  2024-05-01T10:05:00Z  h1, h2
X
cat >"$T/want-host" <<X
/sys/class/rc/rcN/current_protocol (deprecated, sysfs-class-rc): /sys/class/rc/rc0/current_protocol, /sys/class/rc/rc3/current_protocol
  EXE                          PACKAGE     UID  CGROUP                     OP     HOW      BOOT  COUNT  SWEPT  ERRORS  FIRST-SEEN            LAST-SEEN             HOST
  /usr/local/bin/legacy-irctl  -          1000  -                          open   by-name  -         1      0       0  2024-05-02T10:00:05Z  2024-05-02T10:00:05Z  h1
  /usr/local/bin/legacy-irctl  -          1000  -                          write  by-name  -         4      0       4  2024-05-01T10:00:05Z  2024-05-01T10:00:09Z  h1

/sys/devices/system/cpu/cpuidle/current_governor_ro (deprecated, sysfs-cpuidle): /sys/devices/system/cpu/cpuidle/current_governor_ro
  EXE                          PACKAGE     UID  CGROUP                     OP     HOW      BOOT  COUNT  SWEPT  ERRORS  FIRST-SEEN            LAST-SEEN             HOST
  /usr/bin/cat                 coreutils     0  /system.slice/mon.service  read   by-name  -         7      4       0  2024-05-01T10:00:00Z  2024-05-02T10:00:10Z  h1
  /usr/bin/cat                 coreutils     0  /system.slice/mon.service  read   sweep    -         1      1       0  2024-05-01T10:00:30Z  2024-05-01T10:00:30Z  h2
  /usr/bin/udevadm             -             0  -                          read   sweep    -         4      4       0  2024-05-01T10:03:20Z  2024-05-01T10:03:20Z  h1
  /usr/bin/udevadm             -             0  -                          read   sweep    -         2      2       0  2024-05-01T10:05:00Z  2024-05-01T10:05:00Z  h2
X
check "report, exit 0" test "$(status "$A" report --db "$T/u.db" --root "$T/root")" = 0
check "... per entry, per executable summed over sessions, hosts and operations, with packages" diff -u "$T/want" "$T/out"
check "--by-host: a row per (exe, uid, cgroup, op, host), each host's own counts and how" \
	sh -c "'$A' report --db '$T/u.db' --root '$T/root' --by-host | diff -u '$T/want-host' -"
check "... nothing on stderr" test ! -s "$T/err"
check "abidep -j report (the global option)" sh -c "$A -j report --db '$T/u.db' --root '$T/root' | python3 -c 'import json,sys; assert len(json.load(sys.stdin)) == 2'"
check "-d is --db, as in every command that takes a DB" \
	sh -c "'$A' report -d '$T/u.db' --root '$T/root' | diff -u '$T/want' -"

section "JSON"
check "report -j, exit 0" test "$(status "$A" report -j --db "$T/u.db" --root "$T/root")" = 0
check "... is the whole report" python3 -c "
import json, sys
d = json.load(open('$T/out'))
want = [
 {'what': '$RC', 'table': 'sysfs-class-rc', 'status': 'deprecated',
  'files': ['/sys/class/rc/rc0/current_protocol', '/sys/class/rc/rc3/current_protocol'],
  'users': [
   {'exe': '/usr/local/bin/legacy-irctl', 'package': None, 'package_version': None,
    'maintainer': None, 'source_package': None, 'uid': 1000, 'cgroup': None,
    'op': 'open', 'how': 'by-name', 'count': 1, 'swept': 0, 'errors': 0,
    'first_seen': '2024-05-02T10:00:05Z', 'last_seen': '2024-05-02T10:00:05Z',
    'hosts': ['h1'], 'boot': None, 'enumerated': None},
   {'exe': '/usr/local/bin/legacy-irctl', 'package': None, 'package_version': None,
    'maintainer': None, 'source_package': None, 'uid': 1000, 'cgroup': None,
    'op': 'write', 'how': 'by-name', 'count': 4, 'swept': 0, 'errors': 4,
    'first_seen': '2024-05-01T10:00:05Z', 'last_seen': '2024-05-01T10:00:09Z',
    'hosts': ['h1'], 'boot': None, 'enumerated': None}]},
 {'what': '$GOV', 'table': 'sysfs-cpuidle', 'status': 'deprecated', 'files': ['$GOV'],
  'users': [
   {'exe': '/usr/bin/cat', 'package': 'coreutils', 'package_version': '9.1-1',
    'maintainer': '$MS', 'source_package': 'coreutils', 'uid': 0,
    'cgroup': '/system.slice/mon.service', 'op': 'read', 'how': 'by-name', 'count': 8,
    'swept': 5, 'errors': 0, 'first_seen': '2024-05-01T10:00:00Z',
    'last_seen': '2024-05-02T10:00:10Z', 'hosts': ['h1', 'h2'], 'boot': None, 'enumerated': None},
   {'exe': '/usr/bin/udevadm', 'package': None, 'package_version': None,
    'maintainer': None, 'source_package': None, 'uid': 0, 'cgroup': None, 'op': 'read',
    'how': 'sweep', 'count': 6, 'swept': 6, 'errors': 0,
    'first_seen': '2024-05-01T10:03:20Z', 'last_seen': '2024-05-01T10:05:00Z',
    'hosts': ['h1', 'h2'], 'boot': None, 'enumerated': None}]}]
if d != want:
    print(json.dumps(d, indent=1)); sys.exit(1)
"
check "... compact: one line" test "$(wc -l <"$T/out")" = 1
check "report -p is the same, pretty" sh -c "$A report -p --db '$T/u.db' --root '$T/root' | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d == json.load(open(\"$T/out\"))' && test \$($A report -p --db '$T/u.db' --root '$T/root' | wc -l) -gt 20"

section "maintainers"
# What dpkg's status says of the owner: its Maintainer, its Source (here
# none: its own name), in every format but the terminal's text (above,
# unchanged: no room for it).
md_rows() {	# Markdown on stdin: each table row's cells, "cell|cell|..."
	sed -n 's/^| \(.*\) |$/\1/p' | sed 's/ | /|/g'
}
"$A" report --format markdown --db "$T/u.db" --root "$T/root" | md_rows >"$T/md"
check "--format markdown: a MAINTAINER column beside PACKAGE" \
	grep -qx 'EXE|PACKAGE|MAINTAINER|UIDS|CGROUPS|OPS|HOW|BOOT|COUNT|ERRORS|LAST-SEEN|HOSTS' "$T/md"
check "... the package's, as a code span; '-' for none" sh -c "
	grep -q '^\`/usr/bin/cat\`|\`coreutils\`|\`$MS\`|0|' '$T/md' &&
	grep -q '^\`/usr/bin/udevadm\`|\`-\`|\`-\`|0|' '$T/md'"
"$A" report --format markdown --by-host --db "$T/u.db" --root "$T/root" | md_rows >"$T/md"
check "... --by-host too" \
	test "$(grep -c "^\`/usr/bin/cat\`|\`coreutils\`|\`$MS\`|0|" "$T/md")" = 2
check "--format csv: maintainer and source_package, last" sh -c "'$A' report --format csv --db '$T/u.db' --root '$T/root' | python3 -c '
import csv, sys
rows = list(csv.reader(sys.stdin))
assert rows[0][-2:] == [\"maintainer\", \"source_package\"], rows[0]
got = sorted({(r[3], r[4], r[-2], r[-1]) for r in rows[1:]})
assert got == [(\"/usr/bin/cat\", \"coreutils\", \"$MS\", \"coreutils\"),
               (\"/usr/bin/udevadm\", \"\", \"\", \"\"), (\"/usr/local/bin/legacy-irctl\", \"\", \"\", \"\")], got'"
check "--format html: beside the package, escaped" sh -c "'$A' report --format html --db '$T/u.db' --root '$T/root' |
	grep -qF '<td>coreutils</td><td class=\"maintainer\">Michael Stone &lt;mstone@debian.org&gt;</td>'"
# A status file is the image's: whatever its Maintainer holds reaches no
# terminal, ticket, spreadsheet or page as anything but text. The first
# stanza of a name is the one read; field names in any case; CRLF.
mkdir -p "$T/hroot/var/lib/dpkg/info"
cp "$T/root/var/lib/dpkg/info/coreutils.list" "$T/hroot/var/lib/dpkg/info/"
printf 'Package: coreutils\r\nversion: 9.1-1\r\nMAINTAINER: Evil <e@x>\033]0;pwn\007\033[2J|`*_\342\200\256x\r\nSource: coreutils-src (9.1-1)\r\n\r\nPackage: coreutils\nVersion: 0\nMaintainer: not the first\n' \
	>"$T/hroot/var/lib/dpkg/status"
export EVIL="$(printf 'Evil <e@x>\033]0;pwn\007\033[2J|`*_\342\200\256x')"
"$A" report -j --db "$T/u.db" --root "$T/hroot" >"$T/h.json"
check "a hostile Maintainer: -j gives it back whole, from the first stanza" python3 -c "
import json, os
got = {(u['exe'], u['package_version'], u['maintainer'], u['source_package'])
       for e in json.load(open('$T/h.json', encoding='utf-8')) for u in e['users'] if u['package']}
assert got == {('/usr/bin/cat', '9.1-1', os.environ['EVIL'], 'coreutils-src')}, got"
for f in markdown html; do
	"$A" report --format $f --db "$T/u.db" --root "$T/hroot" >"$T/h.$f"
	check "... --format $f: no escape, BEL or CR byte, no override" sh -c "
		grep -q Evil '$T/h.$f' && ! grep -q \"\$(printf '[\033\007\r]')\" '$T/h.$f' &&
		! grep -qF \"\$(printf '\342\200\256')\" '$T/h.$f'"
done
check "... Markdown: a code span, its controls as \\xNN, the override as \\u202E" \
	grep -qF '| ``Evil <e@x>\x1B]0;pwn\x07\x1B[2J\|`*_\u202Ex`` |' "$T/h.markdown"
check "... HTML: escaped, the controls as their pictures" \
	grep -qF '<td class="maintainer">Evil &lt;e@x&gt;&#x241b;]0;pwn&#x2407;&#x241b;[2J|`*_\u202Ex</td>' "$T/h.html"
check "... CSV read back: -j's, the override as \\u202E (as for every name)" sh -c "'$A' report --format csv --db '$T/u.db' --root '$T/hroot' | python3 -c '
import csv, os, sys
rows = [r for r in csv.DictReader(sys.stdin) if r[\"package\"]]
want = os.environ[\"EVIL\"].replace(\"\\u202e\", \"\\\\u202E\")
assert [(r[\"maintainer\"], r[\"source_package\"]) for r in rows] == [(want, \"coreutils-src\")], rows'"
check "... text: nothing of it" sh -c "! '$A' report --db '$T/u.db' --root '$T/hroot' | grep -q Evil"

section "filters"
check "--entry, part of a What" sh -c "$A report -j --db '$T/u.db' --entry rcN/current | python3 -c 'import json,sys; d=json.load(sys.stdin); assert [e[\"what\"] for e in d] == [\"$RC\"]'"
check "--entry NAME names one entry, as check's: rcN names three of the tables, exit 10" \
	test "$(status "$A" report --db "$T/u.db" --entry rcN)" = 10
check "... listing them, cleaned" sh -c "grep -qx 'abidep: --entry rcN names 3 entries; give one.s What (or a glob or a path to select several):' '$T/err' &&
	grep -qx '  /sys/class/rc/rcN/current_protocol' '$T/err' && test ! -s '$T/out'"
check "... rc: not the ACPI force_remove silently" sh -c "test \"\$(\"$A\" report --db '$T/u.db' --entry rc >/dev/null 2>'$T/err'; echo \$?)\" = 10 &&
	grep -qx '  /sys/firmware/acpi/hotplug/force_remove' '$T/err'"
check "... a What's last component: that entry alone" sh -c "$A report -j --db '$T/u.db' --entry current_protocol | python3 -c 'import json,sys; d=json.load(sys.stdin); assert [e[\"what\"] for e in d] == [\"$RC\"]'"
check "--entry, a glob" sh -c "$A report -j --db '$T/u.db' --entry '*/cpuidle/*' | python3 -c 'import json,sys; d=json.load(sys.stdin); assert [e[\"what\"] for e in d] == [\"$GOV\"]'"
check "--entry, a concrete file: its entry, every file of it (as check selects)" sh -c "$A report -j --db '$T/u.db' --entry /sys/class/rc/rc3/current_protocol | python3 -c 'import json,sys; d=json.load(sys.stdin); assert [e[\"what\"] for e in d] == [\"$RC\"] and d[0][\"files\"] == [\"/sys/class/rc/rc0/current_protocol\", \"/sys/class/rc/rc3/current_protocol\"] and [u[\"op\"] for u in d[0][\"users\"]] == [\"open\", \"write\"]'"
check "... a glob of files is no concrete path: nothing" sh -c "test \"\$($A report -j --db '$T/u.db' --entry '/sys/class/rc/rc3/*')\" = '[]'"
check "--since drops older sessions" sh -c "$A report -j --db '$T/u.db' --since 2024-05-02 | python3 -c 'import json,sys; d=json.load(sys.stdin); u=d[1][\"users\"][0]; assert (u[\"count\"], u[\"hosts\"]) == (2, [\"h1\"]) and len(d[0][\"users\"]) == 1'"
since_t=$("$A" report -j --db "$T/u.db" --since 2024-05-02T10:00:06Z)
since_s=$("$A" report -j --db "$T/u.db" --since @$((t1 + 6)))
check "--since with a time and @seconds: the same report" same "$since_t" "$since_s"
nusers() { python3 -c 'import json, sys; print(sum(len(e["users"]) for e in json.load(sys.stdin)))'; }
n_since=$(echo "$since_t" | nusers)
n_all=$("$A" report -j --db "$T/u.db" | nusers)
check "... of some users, fewer than all ($n_since of $n_all)" \
	sh -c "[ '$n_since' -gt 0 ] && [ '$n_since' -lt '$n_all' ]"
# --since and --until by day, from the daily history: 2024-05-01 is
# day 0 (t0's), cat's sessions b1:1 and b3:7 and udevadm's, legacy-irctl's
# write; b2:4's on day 1.
users_of() {	# the report's JSON on stdin: "exe op count hosts" lines of entry $1, joined
	python3 -c '
import json, sys
for e in json.load(sys.stdin):
    if e["what"] == sys.argv[1]:
        print(" ".join("%s/%s/%d/%s" % (u["exe"].split("/")[-1], u["op"], u["count"], ",".join(u["hosts"])) for u in e["users"]))' "$1"
}
check "--since and --until one day: that day's uses" \
	same "$("$A" report -j --db "$T/u.db" --since 2024-05-01 --until 2024-05-01 | users_of "$GOV")" \
	"cat/read/6/h1,h2 udevadm/read/6/h1,h2"
check "... of every entry: the other day's are left out" \
	same "$("$A" report -j --db "$T/u.db" --since 2024-05-01 --until 2024-05-01 | users_of "$RC")" \
	"legacy-irctl/write/4/h1"
check "--until alone: the days up to it, whole (its own included)" \
	same "$("$A" report -j --db "$T/u.db" --until 2024-05-01T09:00 | users_of "$GOV")" \
	"cat/read/6/h1,h2 udevadm/read/6/h1,h2"
check "--since alone: the days from its own on" \
	same "$("$A" report -j --db "$T/u.db" --since 2024-05-02T23:00 | users_of "$RC")" \
	"legacy-irctl/open/1/h1"
# One session over three days: 2 uses on day 0, 3 on day 1, 1 on day 2.
for c in "2|$((t0 + 60))" "5|$((t1 + 60))" "6|$((t1 + 86400 + 60))"; do
	echo "h1|s:1|$GOV|$GOV|sysfs-cpuidle|deprecated|read|0|10|-|/usr/bin/cat|cat|1|1|${c%|*}|0|$t0|${c#*|}" |
		fill "$T/days.db"
done
cp "$T/days.db" "$T/days3.db"
sqlite3 "$T/days3.db" "$UNDO_SCHEMA8 DROP TABLE usage_days; PRAGMA user_version = 3"
one_user() {	# "count first_seen last_seen" of the report's first user
	python3 -c 'import json, sys; u = json.load(sys.stdin)[0]["users"][0]; print(u["count"], u["first_seen"], u["last_seen"])'
}
check "a session over three days: whole without a window" \
	same "$("$A" report -j --db "$T/days.db" | one_user)" "6 2024-05-01T10:00:00Z 2024-05-03T10:01:00Z"
check "... its middle day: that day's uses, first and last use clipped to it" \
	same "$("$A" report -j --db "$T/days.db" --since 2024-05-02 --until 2024-05-02 | one_user)" \
	"3 2024-05-02T00:00:00Z 2024-05-02T23:59:59Z"
check "... its first two days: first use its own, last clipped" \
	same "$("$A" report -j --db "$T/days.db" --until 2024-05-02T08:00 | one_user)" \
	"5 2024-05-01T10:00:00Z 2024-05-02T23:59:59Z"
check "... --format prometheus follows the window" \
	sh -c "'$A' report --format prometheus --db '$T/days.db' --since 2024-05-02 --until 2024-05-02 | grep -q '^abidep_deprecated_access_total{.*} 3$'"
check "... a schema 3 DB (no history): the whole session that overlaps" \
	same "$("$A" report -j --db "$T/days3.db" --since 2024-05-02 --until 2024-05-02 | one_user)" \
	"6 2024-05-01T10:00:00Z 2024-05-03T10:01:00Z"
check "... and --until by the session's first use: before it, none" \
	same "$("$A" report -j --db "$T/days3.db" --until 2024-05-01T09:59)" "[]"
check "... at it, the whole session" \
	same "$("$A" report -j --db "$T/days3.db" --until 2024-05-01T10:00 | one_user)" \
	"6 2024-05-01T10:00:00Z 2024-05-03T10:01:00Z"
check "... which the report leaves schema 3" test "$(sqlite3 "$T/days3.db" 'PRAGMA user_version')" = 3
check "--since after --until: exit 2" \
	test "$(status "$A" report --db "$T/u.db" --since 2024-05-02 --until 2024-05-01)" = 2
check "... named" grep -qx "abidep: report --since 2024-05-02 is after --until 2024-05-01: nothing can match" "$T/err"
check "a bad --until is a usage error" test "$(status "$A" report --db "$T/u.db" --until tomorrow)" = 2
check "... named" grep -q "^abidep: --until takes .* not 'tomorrow'$" "$T/err"
check "nothing in the window: says so, with the window" sh -c "'$A' report --db '$T/u.db' --since 2024-06-01 --until 2024-06-02 >'$T/out' &&
	grep -qx 'No use recorded in $T/u.db matches --since 2024-06-01 --until 2024-06-02.' '$T/out'"
check "nothing matches: exit 0" test "$(status "$A" report --db "$T/u.db" --entry /sys/nothing)" = 0
check "... and says so" grep -qx "No use recorded in $T/u.db matches --entry /sys/nothing." "$T/out"
check "... -j: []" sh -c "test \"\$($A report -j --db '$T/u.db' --entry /sys/nothing)\" = '[]'"
check "a bad --since is a usage error" test "$(status "$A" report --db "$T/u.db" --since yesterday)" = 2
check "... named" grep -q "^abidep: --since takes .* not 'yesterday'$" "$T/err"
check "no dpkg or rpm database in --root: exit 2" test "$(status "$A" report --db "$T/u.db" --root "$T/nowhere")" = 2
check "... named" grep -q "^abidep: no dpkg or rpm database in $T/nowhere " "$T/err"

section "known enumerators"
mkdir "$T/ign"
cat >"$T/ign/sysfs-class-rc" <<X
What:		$RC
Contact:	Test <t@example.org>
Status:		deprecated
Deprecated:	2010-04-08
Remove-after:	2012-04-08
Replaced-by:	/sys/class/rc/rcN/protocols
Ignore:		/usr/local/bin/legacy-irctl	it lists every protocol file
Source:		test
Description:
		Test.
X
printf '/usr/bin/cat\tcat of a whole directory\n' >"$T/ign/.enumerators"
check "report -t with Ignore: and .enumerators, exit 0" test "$(status "$A" report -t "$T/ign" --db "$T/u.db" --root "$T/root")" = 0
check "... the entry's enumerator marked, with its reason" \
	grep -qx "  enumerated by /usr/local/bin/legacy-irctl (it lists every protocol file): abidep check does not count it" "$T/out"
check "... once per executable (two rows of it)" test "$(grep -c '^  enumerated by /usr/local/bin/legacy-irctl ' "$T/out")" = 1
check "... the global one too" grep -qx "  enumerated by /usr/bin/cat (cat of a whole directory): abidep check does not count it" "$T/out"
check "... the rows as before" sh -c "grep -v '^  enumerated by ' '$T/out' | diff -u '$T/want' -"
check "... -j: each user's enumerated" sh -c "$A report -j -t '$T/ign' --db '$T/u.db' | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert [u[\"enumerated\"] for u in d[0][\"users\"]] == [{\"reason\": \"it lists every protocol file\", \"scope\": \"entry\", \"file\": \"$T/ign/sysfs-class-rc\", \"line\": 7}] * 2, d
assert d[1][\"users\"][0][\"enumerated\"] == {\"reason\": \"cat of a whole directory\", \"scope\": \"global\", \"file\": \"$T/ign/.enumerators\", \"line\": 1}, d
'"
printf 'cat\tno path\n' >"$T/ign/.enumerators"
check "tables with errors: exit 2" test "$(status "$A" report -t "$T/ign" --db "$T/u.db")" = 2
check "... the error named" grep -q "^$T/ign/.enumerators:1: error: bad executable in .enumerators: 'cat': not an absolute path$" "$T/err"
check "no default tables: the report still reads the DB (exit 0)" \
	test "$(ABIDEP_TABLES=$T/no-tables status "$A" report -j --db "$T/u.db")" = 0
check "... its users, unmarked" sh -c "ABIDEP_TABLES=$T/no-tables $A report -j --db $T/u.db 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d and all(u[\"enumerated\"] is None for e in d for u in e[\"users\"]), d'"
check "... saying so" grep -q 'known enumerators are not marked' "$T/err"

section "uses during boot"
# Host hb's boot e1, traced from early on: pinned at t0, 5 s after boot;
# its first sync at t0 + 40 (sessions.first_sync), its watched run from
# the pin's time (the pin records what it watched, as a tracer of today
# does). rc-setup read rc0 at t0 + 3 (during boot: 8 s after it), cat at
# t0 + 100 (after). A later boot l1, traced late: lsirc's read before
# that session's first sync is still no use seen at boot. Host hb2's boot
# e2, early too, written before schema 7 (first_sync NULL: its earliest
# watched run, at its first sync, stands for it), its tracer pinned 20 s
# after boot: rc-setup there 21 s after it; dracut-rc in the initramfs of
# boot i1, how long after boot unknown. Boot n1, early, of before schema
# 7 too, has no watched run (no first sync known): its use is not taken as
# at boot.
B=/sys/class/rc/rc0/current_protocol
brow() {	# host session exe first_seen
	echo "$1|$2|$B|$RC|sysfs-class-rc|deprecated|read|0|5|-|$3|x|9|1|1|0|$4|$4"
}
{
	echo "S|hb|e1:1|$t0|$((t0 + 3600))|0|0|-|machine-id|early|5|$((t0 + 40))"
	echo "W|hb|e1:1|$RC|$t0|$((t0 + 3600))|1"
	brow hb e1:1 /usr/lib/udev/rc-setup $((t0 + 3))
	brow hb e1:1 /usr/bin/cat $((t0 + 100))
	echo "S|hb|l1:1|$t1|$((t1 + 3600))|0|0|-|machine-id|late|300|$((t1 + 40))"
	echo "W|hb|l1:1|$RC|$t1|$((t1 + 3600))|1"
	brow hb l1:1 /usr/bin/lsirc $((t1 + 1))
	echo "S|hb2|e2:1|$t0|$((t0 + 3600))|0|0|-|machine-id|early|20|-"
	echo "W|hb2|e2:1|$RC|$((t0 + 40))|$((t0 + 3600))|1"
	brow hb2 e2:1 /usr/lib/udev/rc-setup $((t0 + 1))
	echo "S|hb2|i1:1|$t1|$((t1 + 3600))|0|0|-|machine-id|initramfs|-|$((t1 + 40))"
	echo "W|hb2|i1:1|$RC|$t1|$((t1 + 3600))|1"
	brow hb2 i1:1 /usr/lib/dracut/dracut-rc $((t1 + 2))
	echo "S|hb2|n1:1|$((t1 + 86400))|$((t1 + 86400 + 3600))|0|0|-|machine-id|early|5|-"
	brow hb2 n1:1 /usr/bin/irw $((t1 + 86400 + 1))
} | fill "$T/boot.db"
cat >"$T/want-boot" <<X
$RC (deprecated, sysfs-class-rc): $B
  EXE                        PACKAGE    UIDS  CGROUPS  OPS   HOW      BOOT         COUNT  ERRORS  LAST-SEEN             HOSTS
  /usr/bin/cat               coreutils  0     -        read  by-name  -                1       0  2024-05-01T10:01:40Z  hb
  /usr/bin/irw               -          0     -        read  by-name  -                1       0  2024-05-03T10:00:01Z  hb2
  /usr/bin/lsirc             -          0     -        read  by-name  -                1       0  2024-05-02T10:00:01Z  hb
  /usr/lib/dracut/dracut-rc  -          0     -        read  by-name  initramfs        1       0  2024-05-02T10:00:02Z  hb2
  /usr/lib/udev/rc-setup     -          0     -        read  by-name  early, +8 s      2       0  2024-05-01T10:00:03Z  hb, hb2

uses during boot: 2 of 5 (first seen before their session's first sync, in a boot traced from the initramfs or before udev: BOOT)
X
check "report: exit 0" test "$(status "$A" report --db "$T/boot.db" --root "$T/root")" = 0
check "... BOOT: the stage and seconds after boot of a use during boot (the earliest of its hosts'), '-' for the others; how many" \
	diff -u "$T/want-boot" "$T/out"
check "... --by-host: each host's own" sh -c "'$A' report --db '$T/boot.db' --by-host | grep '/rc-setup ' | awk '{ print \$NF, \$7, \$8, \$9 }' | tr '\n' ';' |
	grep -qx 'hb early, +8 s;hb2 early, +21 s;'"
boots() {	# report -j on stdin: "exe stage after_boot_s" per user, or "exe -"
	python3 -c '
import json, sys
for e in json.load(sys.stdin):
    for u in e["users"]:
        b = u["boot"]
        print(u["exe"], "-" if b is None else "%s %s" % (b["stage"], b["after_boot_s"]))'
}
check "-j: boot per user, its stage and seconds after boot, or null" \
	same "$("$A" report -j --db "$T/boot.db" | boots | tr '\n' ';')" \
	"/usr/bin/cat -;/usr/bin/irw -;/usr/bin/lsirc -;/usr/lib/dracut/dracut-rc initramfs None;/usr/lib/udev/rc-setup early 8;"
check "--format csv: boot_stage and boot_after_s" sh -c "'$A' report --db '$T/boot.db' --format csv | python3 -c '
import csv, sys
r = {x[\"exe\"]: (x[\"boot_stage\"], x[\"boot_after_s\"]) for x in csv.DictReader(sys.stdin)}
assert r == {\"/usr/bin/cat\": (\"\", \"\"), \"/usr/bin/irw\": (\"\", \"\"), \"/usr/bin/lsirc\": (\"\", \"\"),
  \"/usr/lib/dracut/dracut-rc\": (\"initramfs\", \"\"), \"/usr/lib/udev/rc-setup\": (\"early\", \"8\")}, r'"
check "--format html: the same, and the count" sh -c "'$A' report --db '$T/boot.db' --format html >'$T/boot.html' &&
	grep -q 'data-exe=\"/usr/lib/udev/rc-setup\" data-uses=\"2\" data-hosts=\"2\" data-boot-stage=\"early\" data-after-boot=\"8\"' '$T/boot.html' &&
	grep -q '<td class=\"boot\">early, +8 s</td>' '$T/boot.html' &&
	grep -q 'data-exe=\"/usr/bin/cat\" data-uses=\"1\" data-hosts=\"1\"><td' '$T/boot.html' &&
	grep -q '<span id=\"boot-uses\" data-count=\"2\">2 of 5 uses during boot</span>' '$T/boot.html'"
check "--since the day after: the boot use of the first day is not in it" \
	same "$("$A" report -j --db "$T/boot.db" --since 2024-05-02 | boots | tr '\n' ';')" \
	"/usr/bin/irw -;/usr/bin/lsirc -;/usr/lib/dracut/dracut-rc initramfs None;"
# The same DB as schema 6 had it: no first_sync, each session's earliest
# watched run stands for its first sync. e1's and i1's are the pin's, at
# their start: their uses are no longer taken as at boot (what schema 7
# mends); e2's, at its first sync, still tells.
cp "$T/boot.db" "$T/boot6.db"
sqlite3 "$T/boot6.db" "$UNDO_SCHEMA8 ALTER TABLE sessions DROP COLUMN first_sync; PRAGMA user_version = 6"
check "a schema 6 DB: before the earliest watched run (the pin's runs hide the first sync)" \
	same "$("$A" report -j --db "$T/boot6.db" | boots | tr '\n' ';')" \
	"/usr/bin/cat -;/usr/bin/irw -;/usr/bin/lsirc -;/usr/lib/dracut/dracut-rc -;/usr/lib/udev/rc-setup early 21;"
check "... left schema 6 (a reader changes nothing)" \
	same "$(sqlite3 "$T/boot6.db" 'PRAGMA user_version')" 6
check "a report without use during boot prints no count" sh -c "! '$A' report --db '$T/u.db' | grep -q 'during boot'"

section "what the tracer lost"
# h1's second session could not record 418 accesses (seen at t1 + 60) and
# the kernel skipped 3 runs of its first one (seen at t0 + 60).
cp "$T/u.db" "$T/lost.db"
printf 'S|h1|b1:1|%s|%s|0|3|%s\nS|h1|b2:4|%s|%s|418|0|%s\nS|h2|b3:7|%s|%s\n' \
	$t0 $((t1 + 600)) $((t0 + 60)) $t1 $((t1 + 600)) $((t1 + 60)) $t0 $((t1 + 600)) | fill "$T/lost.db"
check "report says the counts may miss uses, per host" sh -c "'$A' report -w --db '$T/lost.db' >'$T/out' &&
	grep -qx 'the tracer lost accesses on 1 host: the counts above may miss uses' '$T/out' &&
	grep -qx '  host h1: 418 accesses not recorded (usage map full, or a uid over its quota), 3 runs skipped by the kernel (up to as many accesses), the latest seen at the sync of 2024-05-02T10:01:00Z' '$T/out'"
check "... --since after the first loss: the second alone" sh -c "'$A' report -w --db '$T/lost.db' --since 2024-05-02 |
	grep -qx '  host h1: 418 accesses not recorded (usage map full, or a uid over its quota), 0 runs skipped by the kernel (up to as many accesses), the latest seen at the sync of 2024-05-02T10:01:00Z'"
check "... a DB without losses says nothing of them" sh -c "! '$A' report --db '$T/u.db' | grep -q 'lost accesses'"
check "... --format prometheus: per host, counters" sh -c "'$A' report --format prometheus --db '$T/lost.db' >'$T/out' &&
	grep -qx 'abidep_tracer_unrecorded_total{host=\"h1\"} 418' '$T/out' &&
	grep -qx 'abidep_tracer_skipped_runs_total{host=\"h1\"} 3' '$T/out' &&
	grep -qx '# TYPE abidep_tracer_unrecorded_total counter' '$T/out' && ! grep -q 'host=\"h2\"} 0' '$T/out'"

section "empty, missing, corrupt, unwritable"
: | fill "$T/empty.db"
check "an empty DB: exit 0" test "$(status "$A" report --db "$T/empty.db")" = 0
check "... says so" grep -qx "The usage DB $T/empty.db is empty: nothing traced yet." "$T/out"
check "... -j: []" sh -c "test \"\$($A report -j --db '$T/empty.db')\" = '[]'"
check "a missing DB: exit 6" test "$(status "$A" report --db "$T/none/usage.db")" = 6
check "... what, where, what to do" grep -qx "abidep: no usage DB at $T/none/usage.db: nothing has been traced into it ('abidep trace' creates it); name another with --db" "$T/err"
check "... and none is created" test ! -e "$T/none"
check "... and with -d" test "$(status "$A" report -d "$T/none/usage.db")" = 6
head -c 4096 /dev/urandom >"$T/junk.db"
check "a corrupt DB (not a database): exit 6" test "$(status "$A" report --db "$T/junk.db")" = 6
check "... named" grep -qx "abidep: cannot use the usage DB $T/junk.db: file is not a database; name the usage DB with --db, or move this file aside" "$T/err"
sqlite3 "$T/other.db" 'CREATE TABLE t (a)'
check "somebody else's SQLite DB: exit 6" test "$(status "$A" report --db "$T/other.db")" = 6
check "... named" grep -q "^abidep: cannot use the usage DB $T/other.db: it is an SQLite database, but not an abidep usage DB" "$T/err"
check "a directory: exit 6" test "$(status "$A" report --db "$T")" = 6
check "... named" grep -q "^abidep: the usage DB $T is not a regular file" "$T/err"
check "the writer cannot create a DB under a file" test "$(echo | status fill "$T/junk.db/usage.db")" = 6
check "... and says where and why" grep -q "^fill: cannot create the directory $T/junk.db for the usage DB $T/junk.db/usage.db: Not a directory; run as root" "$T/err"
check "the writer refuses a corrupt DB, and leaves it alone" sh -c "
	sum=\$(md5sum <'$T/junk.db'); : | '$T/fill' '$T/junk.db' 2>'$T/err'; test \$? = 6 &&
	grep -q 'file is not a database' '$T/err' && test \"\$(md5sum <'$T/junk.db')\" = \"\$sum\""
# Permissions: root runs these as nobody (modes that bind the owner too).
as_user=
[ "$(id -u)" = 0 ] && as_user="setpriv --reuid=nobody --regid=nogroup --clear-groups"
mkdir "$T/ro" && cp "$T/u.db" "$T/ro/u.db" && chmod 000 "$T/ro/u.db" &&
	chmod 555 "$T/ro" && chmod 755 "$T"
check "an unreadable DB: exit 6" test "$(status $as_user "$A" report --db "$T/ro/u.db")" = 6
check "... says so" grep -qx "abidep: cannot read the usage DB $T/ro/u.db: Permission denied; run as root, or name another with --db" "$T/err"
chmod 444 "$T/ro/u.db"
check "a read-only DB in a read-only directory (no -shm): reported" \
	test "$(status $as_user "$A" report --db "$T/ro/u.db" --root "$T/root")" = 0
check "... in full" diff -u "$T/want" "$T/out"
# As abidep-metrics.service has it: the DB's directory a read-only mount
# (ReadOnlyPaths=), root without CAP_DAC_OVERRIDE (CapabilityBoundingSet=).
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null; then
	mkdir "$T/rofs" && cp "$T/u.db" "$T/rofs/u.db" && chmod 600 "$T/rofs/u.db"
	check "a DB on a read-only mount (no -shm, no -wal), as root without capabilities: reported" \
		sh -c "unshare -m sh -c \"mount --bind '$T/rofs' '$T/rofs' && mount -o remount,ro,bind '$T/rofs' &&
			setpriv --bounding-set=-all --inh-caps=-all '$A' report --db '$T/rofs/u.db' --root '$T/root' >'$T/out' 2>'$T/err'\" ||
			{ cat '$T/err'; exit 1; }"
	check "... in full" diff -u "$T/want" "$T/out"
else
	skip "a DB on a read-only mount (needs root and unshare)"
fi
check "an unwritable DB: the writer says so" test "$(echo | status $as_user "$T/fill" "$T/ro/u.db")" = 6
check "... what, where, what to do" grep -q "^fill: cannot write the usage DB $T/ro/u.db: Permission denied; run as root" "$T/err"
chmod 755 "$T/ro"

section "usage"
check "--help, exit 0" test "$(status "$A" report --help)" = 0
check "... names the default DB" grep -q "default /var/lib/abidep/usage.db" "$T/out"
check "report help" test "$(status "$A" report help)" = 0
check "an argument is a usage error" test "$(status "$A" report "$T/u.db")" = 2
check "an unknown option is a usage error" test "$(status "$A" report --frob)" = 2
check "abidep --help lists report" sh -c "$A --help | grep -q '^  report '"

finish report
