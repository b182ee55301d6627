#!/bin/sh
# CLI tests of `abidep check --prometheus` against a real Prometheus: a
# dozen hosts, each its usage DB (tests/cli/fill.c) exported by `abidep
# report --format prometheus` into its own node_exporter's textfile
# directory, one Prometheus scraping them every second (tests/prom/lib.sh),
# and the same DBs merged by `abidep merge`. For each scenario, check over
# Prometheus and check over the merged DB must agree (tests/prom/compare.py):
# every entry's verdict, its users (exe, uid, host), the hosts that did not
# cover the window; at 30 quiet days and at 44 (the uses 35 and 40 days old
# are then inside the window). Then the faults: Prometheus stopped, a URL
# with credentials, servers that answer slowly, with an error, HTTP 500,
# not JSON, or partial data: exit 15, never ready. Fixture times are
# relative to the clock, as Prometheus keeps what it scrapes at the time
# of the scrape, and check asks for the latest value within 45 days.
# Ends with "prometheus: N passed, N failed".
set -u
unset COLUMNS
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
. tests/prom/lib.sh
A=${ABIDEP:-build/abidep}
A=$(cd "$(dirname "$A")" && pwd)/$(basename "$A")
T=$(mktemp -d)
prom_init "$T/run"
trap 'prom_cleanup; rm -rf "$T"' EXIT
trap 'exit 2' INT TERM HUP

status() {
	"$@" >"$T/out" 2>"$T/err"
	echo $?
}

section "setup"
if ! prom_have; then
	skip "prometheus, prometheus-node-exporter or promtool is not installed: no test ran"
	finish prometheus
	exit
fi
check "abidep is built ($A; make tools)" test -x "$A"
check "the helper builds (tests/build-helper fill)" sh -c "tests/build-helper fill && cp build/tests/fill '$T/fill'"

RC=/sys/class/rc/rcN/current_protocol
GOV=/sys/devices/system/cpu/cpuidle/current_governor_ro
FOO=/sys/class/foo/fooN/old_mode
cat >"$T/tables" <<EOF
What:		$RC
Contact:	Test <t@example.org>
Status:		deprecated
Deprecated:	2010-04-08
Remove-after:	2012-04-08
Replaced-by:	/sys/class/rc/rcN/protocols
Source:		test
Description:
		The scenarios' entry.

What:		$GOV
Contact:	Test <t@example.org>
Status:		deprecated
Deprecated:	2019-06
Remove-after:	2024-03
Replaced-by:	/sys/devices/system/cpu/cpuidle/current_governor
Source:		test
Description:
		Used on every host 40 days ago.

What:		$FOO
Contact:	Test <t@example.org>
Status:		deprecated
Deprecated:	2024-01-01
Remove-after:	2099-01-01
Replaced-by:	/sys/class/foo/fooN/mode
Source:		test
Description:
		Not due.
EOF
check "the test tables are valid" "$A" tables validate "$T/tables"
sed -n 's/^What:[[:space:]]*//p' "$T/tables" >"$T/whats"
# An empty dpkg root but for cat: packages named alike on both sides, fast.
mkdir -p "$T/root/var/lib/dpkg/info"
printf '/.\n/usr/bin/cat\n' >"$T/root/var/lib/dpkg/info/coreutils.list"

# The clock at the start: fixtures are days before it.
B=$(date +%s)
D=86400
HOSTS="h01 h02 h03 h04 h05 h06 h07 h08 h09 h10 h11 h12"
# host|session|path|what|table|status|op|uid|cgroup_id|cgroup|exe|comm|pid|ppid|count|errors|first|last
# use HOST EXE UID DAYS-AGO: a read of rc0's file.
use() {
	echo "$1|b$1:1|/sys/class/rc/rc0/current_protocol|$RC|sysfs-class-rc|deprecated|read|$3|5|-|$2|x|9|1|2|0|$((B - $4 * D - 60))|$((B - $4 * D))"
}
# Each host's baseline: a session from 60 days ago to an hour ago (having
# watched every What, fill's WHATS), cat's reads of cpuidle's file 40
# days ago.
base() {
	echo "S|$1|b$1:1|$((B - 60 * D))|$((B - 3600))"
	echo "$1|b$1:1|$GOV|$GOV|sysfs-cpuidle|deprecated|read|0|10|-|/usr/bin/cat|cat|100|1|3|0|$((B - 41 * D))|$((B - 40 * D))"
}

# Ports: Prometheus, then one node_exporter per host.
# shellcheck disable=SC2046 # the ports
set -- $(prom_ports 13)
PP=$1
shift
targets=
for h in $HOSTS; do
	eval "port_$h=$1"
	mkdir -p "$T/tf/$h"
	targets="$targets 127.0.0.1:$1"
	shift
done
URL=http://127.0.0.1:$PP

# scenario NAME: each host's rows, from the function NAME (the host its
# $1). Writes each host's DB, its metrics into its textfile directory
# (mtime GEN: prom_wait's mark of a scrape of this scenario), the merged
# DB $T/merged.db; then Prometheus forgets the scenario before, and has
# scraped this one.
GEN=1000
scenario() {
	GEN=$((GEN + 1))
	rm -f "$T"/db/*.db "$T"/merged.db*
	mkdir -p "$T/db"
	for h in $HOSTS; do
		"$1" "$h" >"$T/db/$h.rows"
		"$T/fill" "$T/db/$h.db" "$T/whats" <"$T/db/$h.rows" || return 1
		"$A" report --format prometheus --db "$T/db/$h.db" -t "$T/tables" --now "@$B" \
			--root "$T/root" -o "$T/tf/$h/abidep.prom" || return 1
		touch -d "@$GEN" "$T/tf/$h/abidep.prom"
	done
	"$A" merge "$T"/db/*.db -o "$T/merged.db" >/dev/null || return 1
	written=$(date +%s.%N)
	sleep 0.3
	prom_forget "$URL" "$written" && prom_wait "$URL" 12 "$GEN"
}

# judge NAME [CHECK-OPTION...]: check over the merged DB and over
# Prometheus, as of NOW, into $T/NAME.db.json and $T/NAME.prom.json, their
# exit statuses into $T/NAME.status ("DB PROM").
judge() {
	_n=$1
	shift
	"$A" check -t "$T/tables" --root "$T/root" -d "$T/merged.db" --now "@$NOW" -j "$@" >"$T/$_n.db.json" 2>"$T/$_n.db.err"
	_a=$?
	"$A" check -t "$T/tables" --root "$T/root" --prometheus "$URL" --now "@$NOW" -j "$@" >"$T/$_n.prom.json" 2>"$T/$_n.prom.err"
	echo "$_a $?" >"$T/$_n.status"
}
# agree NAME WHAT=VERDICT[:HOST]...: the two checks agree, exit status too.
agree() {
	_n=$1
	shift
	read -r _a _b <"$T/$_n.status"
	if [ "$_a" != "$_b" ]; then
		echo "exit status: DB $_a, Prometheus $_b"
		head -n 3 "$T/$_n.prom.err"
		return 1
	fi
	python3 tests/prom/compare.py "$T/$_n.db.json" "$T/$_n.prom.json" "$@"
}

# The scenarios: each host's rows ($1).
quiet() { base "$1"; }
inside() {
	base "$1"
	[ "$1" != h05 ] || use h05 /usr/local/bin/legacy-irctl 1000 3
}
before() {
	base "$1"
	[ "$1" != h05 ] || use h05 /usr/local/bin/legacy-irctl 1000 35
}
# h07's tracer: 60 to 20 days ago, then 10 days ago to an hour ago.
gap() {
	[ "$1" = h07 ] || { base "$1"; return; }
	echo "S|h07|bh07:1|$((B - 60 * D))|$((B - 20 * D))"
	echo "S|h07|bh07:2|$((B - 10 * D))|$((B - 3600))"
	echo "h07|bh07:1|$GOV|$GOV|sysfs-cpuidle|deprecated|read|0|10|-|/usr/bin/cat|cat|100|1|3|0|$((B - 41 * D))|$((B - 40 * D))"
}
# Executable names built to break a label, a JSON string, a line.
hostile() {
	base "$1"
	[ "$1" = h03 ] || return 0
	for e in /tmp/a%0Ab '/tmp/%22q%22' '/tmp/back%5Cslash' '/tmp/bad%FFutf8' '/tmp/tab%09%27x'; do
		use h03 "$e" 0 2
	done
}
# Each boot's own clock: sessions and rows with boottimes, and readings of
# the clocks (fill's 14-field S lines, 21-field rows, C lines), which fill
# places by the boot's readings. The times given are the placed ones, so
# that the watched runs fill adds over a session's span agree with it.
# bsession HOST SESSION MAPPING STARTED_BT LAST_SYNC_BT: a session of a
# boot whose best mapping (wall less boottime) is MAPPING; seconds.
bsession() {
	echo "S|$1|$2|$(($3 + $4))|$(($3 + $5))|0|0|-|machine-id|early|$4|$(($3 + $4))|$4|$5${6:+|$6}"
}
# brow HOST SESSION MAPPING WHAT EXE UID FIRST_BT LAST_BT: 2 reads of WHAT
# (rc0's file or cpuidle's) by EXE.
brow() {
	case $4 in
	"$RC") _f=/sys/class/rc/rc0/current_protocol _t=sysfs-class-rc ;;
	*) _f=$4 _t=sysfs-cpuidle ;;
	esac
	echo "$1|$2|$_f|$4|$_t|deprecated|read|$6|5|-|$5|x|9|1|2|0|$(($3 + $7))|$(($3 + $8))|0|$7|$8"
}
# h05's boot, 20 days ago, never synchronized: its clock set back 60 days
# 5 days in. Its times are placed by its last reading, 60 days early (the
# session 80 to 60 days ago), and may be as late as its first reading puts
# them.
M5=$((B - 80 * D))
setback_h05() {
	bsession h05 bh05:1 "$M5" 100 $((20 * D - 3600))
	echo "C|h05|bh05:1|100|$((M5 + 60 * D + 100))|0"
	echo "C|h05|bh05:1|$((5 * D))|$((M5 + 5 * D))|0"
}
# ... and legacy-irctl's read of rc0 on it, placed 70 days ago, 10 days ago by the first reading.
setback() {
	[ "$1" = h05 ] || { base "$1"; return; }
	setback_h05
	brow h05 bh05:1 "$M5" "$RC" /usr/local/bin/legacy-irctl 1000 $((10 * D - 60)) $((10 * D))
}
setback_quiet() {
	[ "$1" = h05 ] || { base "$1"; return; }
	setback_h05
}
# h07's boot 60 days ago, never synchronized, its clock 5 days ahead
# (placed 55 to 15 days ago; cat's reads 36 to 35 days ago); the next boot,
# 20 days ago, synchronized, until an hour ago: the two overlap by 5 days
# once placed.
overlap() {
	[ "$1" = h07 ] || { base "$1"; return; }
	bsession h07 ah07:1 $((B - 55 * D)) 100 $((40 * D))
	echo "C|h07|ah07:1|100|$((B - 55 * D + 100))|0"
	brow h07 ah07:1 $((B - 55 * D)) "$GOV" /usr/bin/cat 0 $((19 * D)) $((20 * D))
	bsession h07 bh07:1 $((B - 20 * D + 60)) 100 $((20 * D - 3660))
	echo "C|h07|bh07:1|100|$((B - 20 * D + 160))|1"
}
# h06's boots as its DB numbered them (the 6th field, seq): the first 40
# to 20 days ago, synchronized; the second, never synchronized, its clock
# 50 days behind from its start, placed 60 to 50 days ago: before the
# first, overlapping nothing, out of the host's order.
order() {
	[ "$1" = h06 ] || { base "$1"; return; }
	bsession h06 oah06:1 $((B - 40 * D)) 100 $((20 * D)) 1
	echo "C|h06|oah06:1|100|$((B - 40 * D + 100))|1"
	bsession h06 obh06:1 $((B - 60 * D)) 100 $((10 * D)) 2
	echo "C|h06|obh06:1|100|$((B - 60 * D + 100))|0"
}
# h08's clock an hour ahead at boot (60 days ago), set back by its
# synchronization: a correction, placed by the synchronized reading.
correction() {
	[ "$1" = h08 ] || { base "$1"; return; }
	bsession h08 ch08:1 $((B - 60 * D)) 100 $((60 * D - 3600))
	echo "C|h08|ch08:1|100|$((B - 60 * D + 3700))|0"
	echo "C|h08|ch08:1|200|$((B - 60 * D + 200))|1"
	brow h08 ch08:1 $((B - 60 * D)) "$GOV" /usr/bin/cat 0 $((19 * D)) $((20 * D))
}
# h09's tracer last synced 5 days ago; its node_exporter is then stopped.
# Its host key is built to break a PromQL string and a regular expression
# (check asks for a silent host's samples by a regex of its name):
# h09 "(|\.*, then a newline (fill's %XX).
H9='h09%20%22(%7C%5C.*%0A'
stopped() {
	[ "$1" = h09 ] || { base "$1"; return; }
	echo "S|$H9|bh09:1|$((B - 60 * D))|$((B - 5 * D))"
	echo "$H9|bh09:1|$GOV|$GOV|sysfs-cpuidle|deprecated|read|0|10|-|/usr/bin/cat|cat|100|1|3|0|$((B - 41 * D))|$((B - 40 * D))"
}

for h in $HOSTS; do
	eval "prom_exporter \$port_$h '$T/tf/$h'; pid_$h=\$PROM_PID"
done
# shellcheck disable=SC2086 # the targets
prom_server "$PP" "$T/tsdb" $targets
PROM=$PROM_PID
check "Prometheus answers ($URL)" prom_ready "$URL"

section "scenarios: check --prometheus against check --db over the same fleet"
# run NAME DESC WANT30 WANT44: the scenario at 30 and at 44 quiet days (the longest window the hosts' 45 days of sessions serve).
run() {
	if ! scenario "$1" >"$T/$1.setup" 2>&1; then
		check "$1: the fleet is written, exported and scraped" sh -c "cat '$T/$1.setup'; false"
		return
	fi
	[ "$1" != stopped ] || stop_h09
	# As of a second after the scrapes waited for (Prometheus keeps
	# milliseconds): a query at NOW sees them.
	sleep 1
	NOW=$(date +%s)
	judge "$1-30"
	judge "$1-44" --quiet-days 44
	# shellcheck disable=SC2086 # the expectations
	check "$2, 30 days: $3" agree "$1-30" $3
	# shellcheck disable=SC2086
	check "... 44 days: $4" agree "$1-44" $4
}
run quiet "all quiet" "$RC=ready $GOV=ready $FOO=not-due" "$RC=ready $GOV=blocked:h12"
run inside "h05's use 3 days ago" "$RC=blocked:h05 $GOV=ready" "$RC=blocked:h05 $GOV=blocked"
check "... legacy-irctl, uid 1000, on h05: the only user of rc" python3 -c "
import json
d = json.load(open('$T/inside-30.prom.json'))
e = [e for e in d['entries'] if e['what'] == ['$RC']][0]
u = {(b['exe'], b['uid'], b['host']) for b in e['blockers']}
assert u == {('/usr/local/bin/legacy-irctl', 1000, 'h05')}, u"
# Prometheus had the series from its first scrape, at its count: increase()
# cannot count those uses, so uses_in_window is unknown (null), not 0; the
# DB's daily history counts them.
check "... its uses in the window: null (first scraped inside it), the DB's 2" python3 -c "
import json
for side, want in (('prom', None), ('db', 2)):
    d = json.load(open('$T/inside-30.' + side + '.json'))
    e = [e for e in d['entries'] if e['what'] == ['$RC']][0]
    got = [b['uses_in_window'] for b in e['blockers']]
    assert got == [want], (side, got)"
run before "h05's use 35 days ago" "$RC=ready $GOV=ready" "$RC=blocked:h05 $GOV=blocked"
run gap "h07's tracer silent 20 to 10 days ago" "$RC=no-data:h07 $GOV=no-data:h07" \
	"$RC=no-data:h07 $GOV=blocked"
run hostile "hostile executable names on h03" "$RC=blocked:h03" "$RC=blocked:h03"
# The byte that is not UTF-8: check -j writes it \udcff (the byte, to
# Python's surrogateescape) from the DB; report --format prometheus wrote
# U+FFFD in its place, as a label value is UTF-8.
check "... every name back as written, on both sides (the bad byte as U+FFFD from Prometheus)" python3 -c "
import json
names = ['/tmp/a\\nb', '/tmp/\\\"q\\\"', '/tmp/back\\\\slash', '/tmp/bad%sutf8', \"/tmp/tab\\t'x\"]
for side, bad in (('db', '\\udcff'), ('prom', '\\ufffd')):
    d = json.load(open('$T/hostile-30.' + side + '.json'))
    e = [e for e in d['entries'] if e['what'] == ['$RC']][0]
    got = sorted(b['exe'] for b in e['blockers'])
    want = sorted(n.replace('%s', bad) for n in names)
    assert got == want, (side, got, want)"

# A wrong clock: compare.py's HOST:clock, the entry's reason names HOST
# among those whose wall clock was wrong; uncovered=HOSTS, all of them.
run setback "h05's clock, never synchronized, set back 60 days; legacy-irctl's read placed 70 days ago, 10 by the first reading" \
	"$RC=blocked:h05 $GOV=no-data:h05:clock uncovered=h05" "$RC=blocked:h05 $GOV=blocked uncovered=h05"
run setback_quiet "... without the read" "$RC=no-data:h05:clock $GOV=no-data:h05:clock uncovered=h05" \
	"$RC=no-data:h05:clock $GOV=blocked uncovered=h05"
run overlap "h07's two boots overlap by 5 days once placed (the first never synchronized, 5 days ahead)" \
	"$RC=no-data:h07:clock $GOV=no-data:h07:clock uncovered=h07" "$RC=no-data:h07:clock $GOV=blocked uncovered=h07"
run order "h06's second boot placed before its first, out of the host's order" \
	"$RC=no-data:h06:clock $GOV=no-data:h06:clock uncovered=h06" "$RC=no-data:h06:clock $GOV=blocked uncovered=h06"
run correction "h08's clock set back an hour by its synchronization" \
	"$RC=ready $GOV=ready $FOO=not-due uncovered=" "$RC=ready $GOV=blocked:h12 uncovered="

# The stopped scenario: h09's node_exporter stopped once Prometheus has
# its samples, and seen down; its last samples stay within the lookback.
stop_h09() {
	prom_stop "$pid_h09"
	prom_wait "$URL" 11
}
run stopped "h09's tracer last synced 5 days ago, its node_exporter then stopped" \
	"$RC=no-data $GOV=no-data" "$RC=no-data $GOV=blocked"
check "... h09 is still seen, its hostile name intact (the one uncovered host, on both sides)" python3 -c "
import json
for side in ('db', 'prom'):
    d = json.load(open('$T/stopped-30.' + side + '.json'))
    got = [h['host'] for h in d['db']['uncovered_hosts']]
    assert got == ['h09 \"(|\\\\.*\\n'], (side, got)"

section "faults: exit 15, never ready"
# A URL with credentials, while Prometheus answers: the same verdicts and
# reasons as without (as of the same now), the user name and password
# nowhere (each output names the server).
CRED=http://abiuser:secret@127.0.0.1:$PP
check "a URL with credentials: the verdicts as without" sh -c "
	'$A' check -t '$T/tables' --root '$T/root' --prometheus '$CRED' --now @$NOW -j >'$T/cred.json' 2>'$T/cred.err'
	python3 tests/prom/compare.py '$T/stopped-30.prom.json' '$T/cred.json' '$RC=no-data:h09'"
check "... the user name and password printed nowhere (stdout, stderr)" sh -c "
	grep -q '127.0.0.1:$PP' '$T/cred.json' && ! grep -q 'abiuser\|secret' '$T/cred.json' '$T/cred.err'"
check "... nor in the text's report" sh -c "
	'$A' check -t '$T/tables' --prometheus '$CRED' >'$T/cred.txt' 2>&1
	grep -q '127.0.0.1:$PP' '$T/cred.txt' && ! grep -q 'abiuser\|secret' '$T/cred.txt'"
check "... nor in the page (--format html)" sh -c "
	'$A' check -t '$T/tables' --prometheus '$CRED' --format html -o '$T/cred.html' 2>'$T/cred.html.err'
	grep -q '127.0.0.1:$PP' '$T/cred.html' && ! grep -q 'abiuser\|secret' '$T/cred.html' '$T/cred.html.err'"

# mark: the textfile of each host still scraped (all but h09) stamped with
# a new GEN, for prom_wait to wait until Prometheus has scraped them.
mark() {
	GEN=$((GEN + 1))
	for h in $HOSTS; do
		[ "$h" = h09 ] || touch -d "@$GEN" "$T/tf/$h/abidep.prom"
	done
}

# h11 exports its uses but no session (as an abidep older than the
# session series would): nothing vouches for its tracer, so it is a host
# whose tracer did not run through the window, though its DB says it did.
grep -v '^abidep_tracer_session_\|^abidep_tracer_watched_' "$T/tf/h11/abidep.prom" >"$T/h11.prom"
mv "$T/h11.prom" "$T/tf/h11/abidep.prom"
mark
check "h11's uses exported without its sessions: scraped" prom_wait "$URL" 11 "$GEN"
sleep 1
check "... check --prometheus: no-data, h11 named as a host whose tracer did not run" sh -c "
	'$A' check -t '$T/tables' --root '$T/root' --prometheus '$URL' --now @\$(date +%s) -j >'$T/nosess.json'
	test \$? = 12 && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
e = [e for e in d[\"entries\"] if e[\"what\"] == [sys.argv[2]]][0]
assert e[\"verdict\"] == \"no-data\" and \"h11\" in e[\"reason\"], e[\"reason\"]
assert \"h11\" in [h[\"host\"] for h in d[\"db\"][\"uncovered_hosts\"]]
' '$T/nosess.json' '$RC'"

# A reading of the clocks whose boottime_ns is no integer (h10's export
# made hostile): the source's error, never a reading made up or dropped.
cp "$T/tf/h10/abidep.prom" "$T/h10.prom"
sed '/^# TYPE abidep_tracer_clock_reading_wall_seconds /a\
abidep_tracer_clock_reading_wall_seconds{host="h10",session="bh10:1",boottime_ns="1e9",synchronized="0"} 1' \
	"$T/h10.prom" >"$T/tf/h10/abidep.prom"
mark
check "a reading with boottime_ns=\"1e9\" on h10: scraped" prom_wait "$URL" 11 "$GEN"
sleep 1
check "... check --prometheus: exit 15, nothing ready" sh -c "
	'$A' check -t '$T/tables' --prometheus '$URL' --now @\$(date +%s) -j >'$T/badclock.json' 2>'$T/badclock.err'
	test \$? = 15 && ! grep -q ready '$T/badclock.json'"
check "... the series named" grep -q "a series of abidep_tracer_clock_reading_wall_seconds lacks its host, session, boottime_ns or synchronized label, or has one (or its value) out of form" "$T/badclock.err"
mv "$T/h10.prom" "$T/tf/h10/abidep.prom"


# fault DESC MODE [CHECK-OPTION...]: the fake server answering as MODE:
# exit 15, no verdict on stdout, a message on stderr, no password.
MODES="slow drip error http500 nonjson warnings auth"
# shellcheck disable=SC2046
set -- $(prom_ports 9)
fakes=
for m in $MODES; do
	eval "fport_$m=$1"
	fakes="$fakes $m=$1"
	shift
done
# Large answers: 2 MB of series to every query, and one of 16 MB whose
# labels are a few bytes each.
BIGP=$1 AMPP=$2
# shellcheck disable=SC2086
check "the fake servers listen (tests/prom/fake.py)" prom_fake $fakes big:2=$BIGP amplify:16=$AMPP
fault() {
	_d=$1 _m=$2
	shift 2
	eval "_p=\$fport_$_m"
	check "$_d: exit 15" test "$(status timeout 30 "$A" check -t "$T/tables" \
		--prometheus "http://u:secret@127.0.0.1:$_p" -j "$@")" = 15
	cp "$T/err" "$T/fault-$_m.err"
	check "... nothing ready, no password, a message" sh -c "
		! grep -q ready '$T/out' && ! grep -q secret '$T/out' '$T/err' && test -s '$T/err'"
}
# The server answers after 60 s; check, under timeout 30, gives up first.
fault "a server slower than --prometheus-timeout 1" slow --prometheus-timeout 1
check "... says it did not answer within --prometheus-timeout" \
	grep -q "did not answer all of check's queries within 1 s (--prometheus-timeout, the bound of them all)" "$T/fault-slow.err"
# Each answer in 2 s, in time for a bound of each request; check asks some
# 17 times (34 s): the bound of them all ends the run, before timeout 30.
fault "a server answering each query in 2 s, --prometheus-timeout 3" drip --prometheus-timeout 3
check "... says they did not all come within --prometheus-timeout" \
	grep -q "did not answer all of check's queries within 3 s (--prometheus-timeout, the bound of them all)" "$T/fault-drip.err"
fault '{"status":"error"} with HTTP 400' error
fault "HTTP 500" http500
fault "an HTML page, not JSON" nonjson
fault '"warnings": partial data' warnings
# The URL's user name and password reach the server, as basic authentication.
fault "a server that asks for credentials" auth
check "... it received them (HTTP basic authentication from the URL)" grep -q "(HTTP 400, credentials_received)" "$T/fault-auth.err"

# Credentials from a file, off the command line every user reads: a
# netrc (--prometheus-netrc), read by libcurl for what the URL leaves out.
# The fake says whether it received u:secret; the password is printed
# nowhere.
printf 'machine 127.0.0.1\nlogin u\npassword secret\n' >"$T/netrc"
printf 'machine 127.0.0.2\nlogin u\npassword secret\n' >"$T/netrc-other"
chmod 600 "$T/netrc" "$T/netrc-other"
# netrc DESC URL-USERINFO FILE ERRORTYPE: check over the auth fake, the
# URL with URL-USERINFO ("" or "u@"), exit 15, the fake's ERRORTYPE.
netrc() {
	check "$1: exit 15, the server's $4" sh -c "
		'$A' check -t '$T/tables' --prometheus 'http://${2}127.0.0.1:$fport_auth' \
			--prometheus-netrc '$3' -j >'$T/out' 2>'$T/err'
		test \$? = 15 && grep -q '$4' '$T/err' && ! grep -q 'secret\|warning' '$T/out' '$T/err'"
}
netrc "--prometheus-netrc, the URL without credentials" "" "$T/netrc" "(HTTP 400, credentials_received)"
netrc "... the URL with the user, the file the password" u@ "$T/netrc" "(HTTP 400, credentials_received)"
netrc "... a file that does not name the URL's host: none sent" "" "$T/netrc-other" "(HTTP 401, unauthorized)"
check "... a file that cannot be read: exit 2, named" sh -c "
	'$A' check -t '$T/tables' --prometheus 'http://127.0.0.1:$fport_auth' --prometheus-netrc '$T/none' 2>'$T/err'
	test \$? = 2 && grep -q '^abidep: --prometheus-netrc $T/none cannot be read: No such file or directory' '$T/err'"
chmod 644 "$T/netrc"
check "... one others can read: used, with a warning" sh -c "
	'$A' check -t '$T/tables' --prometheus 'http://127.0.0.1:$fport_auth' --prometheus-netrc '$T/netrc' >'$T/out' 2>'$T/err'
	test \$? = 15 && grep -q '(HTTP 400, credentials_received)' '$T/err' &&
	grep -q '^abidep: warning: --prometheus-netrc $T/netrc can be read by other users (mode 0644)' '$T/err'"

# peak CMD...: CMD's exit status and peak resident memory in KiB (its own
# or a child's, getrusage), "STATUS KIB"; its output in $T/out, $T/err.
peak() {
	python3 -c '
import resource, subprocess, sys
with open(sys.argv[1] + "/out", "w") as o, open(sys.argv[1] + "/err", "w") as e:
    rc = subprocess.call(sys.argv[2:], stdout=o, stderr=e)
print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$T" "$@"
}
# bounded DESC PORT: check over the server at PORT under
# --prometheus-memory 64 stops at the bound: exit 15 (no verdict), saying
# so, and at most twice the bound resident (check itself, libcurl and
# the tables take some 10 MiB).
bounded() {
	# shellcheck disable=SC2046
	set -- "$1" $(peak timeout 60 "$A" check -t "$T/tables" --prometheus "http://u:secret@127.0.0.1:$2" \
		--prometheus-memory 64 -j)
	check "$1, --prometheus-memory 64: exit 15" test "$2" = 15
	check "... the bound named, no password" sh -c "
		grep -q 'the answers passed 64 MiB (--prometheus-memory): no verdict rests on part of them' '$T/err' &&
		! grep -q secret '$T/err' '$T/out'"
	check "... at most 128 MiB resident (${3:-?} KiB)" test "${3:-999999}" -le 131072
}
# Every answer is taken (some 6 MB kept each): the sum passes the bound.
bounded "2 MB of series answered to every query, each kept" "$BIGP"
# Small as text, large once parsed: refused before it is parsed.
bounded "one answer of 16 MB of labels of a few bytes (some 500 MB parsed)" "$AMPP"

# One host label from two scrape targets: h02's exporter serves h01's metrics.
cp "$T/tf/h01/abidep.prom" "$T/tf/h02/abidep.prom"
touch -d @999 "$T/tf/h02/abidep.prom"
check "h01's metrics served by two targets (h02's too): scraped" \
	prom_until "$URL" 'count(count by (instance) (abidep_tracer_session_last_sync_timestamp_seconds{host="h01"}))' 2
# check's now is the clock in whole seconds: a second on, it sees that scrape.
sleep 1
check "... a conflict: exit 15" test "$(status "$A" check -t "$T/tables" --prometheus "$URL" -j)" = 15
check "... nothing ready, named" sh -c "! grep -q ready '$T/out' && grep -q h01 '$T/err'"

prom_stop "$PROM"
check "Prometheus stopped: exit 15" test "$(status "$A" check -t "$T/tables" --prometheus "$CRED" -j)" = 15
check "... nothing on stdout, the reason on stderr, no password" sh -c "
	test ! -s '$T/out' && test -s '$T/err' && ! grep -q secret '$T/err'"
check "-d and --prometheus together: exit 2" \
	test "$(status "$A" check -t "$T/tables" -d "$T/merged.db" --prometheus "$URL")" = 2
check "--quiet-days 45, past the hosts' 45 days of sessions: exit 2" \
	test "$(status "$A" check -t "$T/tables" --quiet-days 45 --prometheus "$URL")" = 2
check "... named, with the longest it serves" grep -q "^abidep: --prometheus serves a --quiet-days of at most 44:" "$T/err"

section "cleanup"
prom_cleanup
check "no process left of those started here" sh -c "
	for p in \$(cat '$PROM_DIR/pids'); do kill -0 \$p 2>/dev/null && exit 1; done; exit 0"

finish prometheus
