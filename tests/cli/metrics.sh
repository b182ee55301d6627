#!/bin/sh
# CLI tests of `abidep report --format prometheus`'s fleet series: counters
# that only grow when a later session (a reboot) is added, this machine's
# pinned gauge, the sessions of the horizon (each host's latest kept), the
# watched runs, the readings of their boots' clocks and the latest a use
# may have been, the tables' Remove-after dates, --now, and hostile names
# read back by the official client's parser. check.sh compares the use
# series byte for byte.
# Ends with "metrics: N passed, N failed".
set -u
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

# prom DB [ARGS...]: the metrics of DB into $T/out.
prom() {
	_db=$1
	shift
	"$A" report --db "$_db" --format prometheus -t "$T/tables" "$@" >"$T/out" 2>"$T/err"
}

# has LINE: $T/out has LINE, whole.
has() {
	grep -qxF -- "$1" "$T/out" || { echo "no line: $1"; return 1; }
}

# grows OLD NEW: every counter sample of OLD is in NEW, with a value as large.
grows() {
	awk '/^#/ { next } FNR == NR { if ($1 ~ /_total\{/) old[$1] = $2; next }
	     { new[$1] = $2 }
	     END { for (k in old) { n++
			if (!(k in new)) { print "gone: " k; bad = 1 }
			else if (new[k] + 0 < old[k] + 0) { print "shrank: " k " " old[k] " -> " new[k]; bad = 1 } }
		   if (!n) { print "no counter"; bad = 1 }
		   exit bad }' "$1" "$2"
}

section "setup"
check "abidep is built ($A; make tools)" test -x "$A"
check "the helper builds (tests/build-helper fill)" sh -c "tests/build-helper fill && cp build/tests/fill '$T/fill'"
RC=/sys/class/rc/rcN/current_protocol
GOV=/sys/devices/system/cpu/cpuidle/current_governor_ro
cat >"$T/tables" <<'EOF'
What:		/sys/class/rc/rcN/current_protocol
Contact:	Test <t@example.org>
Status:		deprecated
Deprecated:	2010-04-08
Remove-after:	2012-04-08
Replaced-by:	/sys/class/rc/rcN/protocols
Source:		test
Description:
		A date.

What:		/sys/devices/system/cpu/cpuidle/current_governor_ro
Contact:	Test <t@example.org>
Status:		deprecated
Deprecated:	2019-06
Remove-after:	2024-03, 6.9
Replaced-by:	/sys/devices/system/cpu/cpuidle/current_governor
Source:		test
Description:
		A month and a kernel version.

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
EOF
check "the test tables are valid" "$A" tables validate "$T/tables"

# 2024-05-01T10:00:00Z; a day.
t0=1714557600
D=86400

section "counters only grow: a later session (a reboot) added"
# Boot b1: cat read the file 5 times (2 failed), 1 access lost.
cat >"$T/b1" <<X
S|h1|b1:1|$t0|$((t0 + 3600))|1|0|$((t0 + 600))|machine-id|early|2
h1|b1:1|/sys/class/rc/rc0/current_protocol|$RC|sysfs-class-rc|deprecated|read|0|5|/a|/opt/x/reader|reader|10|1|5|2|$((t0 + 60))|$((t0 + 3000))|1
X
"$T/fill" "$T/g.db" <"$T/b1"
check "the first export: exit 0" sh -c "'$A' report --db '$T/g.db' --format prometheus --now @$((t0 + 3600)) >'$T/before.prom'"
# A reboot: a new session id, its own counts from 0 again, and more losses.
cat >"$T/b2" <<X
S|h1|b2:1|$((t0 + D))|$((t0 + D + 3600))|0|4|$((t0 + D + 60))|machine-id|early|2
h1|b2:1|/sys/class/rc/rc0/current_protocol|$RC|sysfs-class-rc|deprecated|read|0|9|/b|/opt/x/reader|reader|20|1|2|0|$((t0 + D + 60))|$((t0 + D + 120))|0
X
"$T/fill" "$T/g.db" <"$T/b2"
check "the export after the reboot: exit 0" sh -c "'$A' report --db '$T/g.db' --format prometheus --now @$((t0 + D + 3600)) >'$T/after.prom'"
check "... every counter of the first export is there, none smaller" grows "$T/before.prom" "$T/after.prom"
check "... the uses summed over both sessions (5 + 2)" \
	grep -qx "abidep_deprecated_access_total{entry=\"$RC\",file=\"/sys/class/rc/rc0/current_protocol\",exe=\"/opt/x/reader\",package=\"\",uid=\"0\",host=\"h1\",op=\"read\"} 7" "$T/after.prom"
check "... first_seen the earliest use, last_seen the latest" sh -c "
	grep -qx 'abidep_deprecated_access_first_seen_timestamp_seconds{.*host=\"h1\",op=\"read\"} $((t0 + 60))' '$T/after.prom' &&
	grep -qx 'abidep_deprecated_access_last_seen_timestamp_seconds{.*host=\"h1\",op=\"read\"} $((t0 + D + 120))' '$T/after.prom'"
check "... each session's own losses, both sessions exported" sh -c "
	grep -qx 'abidep_tracer_session_unrecorded_total{host=\"h1\",session=\"b1:1\"} 1' '$T/after.prom' &&
	grep -qx 'abidep_tracer_session_skipped_runs_total{host=\"h1\",session=\"b2:1\"} 4' '$T/after.prom'"
check "two exports of one DB are the same bytes" sh -c "
	'$A' report --db '$T/g.db' --format prometheus --now @$((t0 + D + 3600)) | cmp - '$T/after.prom'"

section "this machine's pin"
prom "$T/g.db"
if [ -e /sys/fs/bpf/abidep/usage ]; then
	skip "a tracer is pinned on this machine: the 0 of an unpinned one is not checked"
else
	check "no tracer pinned here: abidep_tracer_pinned is 0, one sample" \
		test "$(grep -c '^abidep_tracer_pinned{.*} 0$' "$T/out")" = 1
	check "... under this machine's host key (NAME/ID)" \
		grep -qx "abidep_tracer_pinned{host=\"$(uname -n)/[0-9a-f]\{16\}\"} 0" "$T/out"
fi
check "... its family declared as a gauge" has '# TYPE abidep_tracer_pinned gauge'

section "sessions: the horizon of $((45)) days, each host's latest kept"
now=$((t0 + 100 * D))
cat >"$T/h" <<X
S|h1|old:1|$((now - 60 * D))|$((now - 60 * D + 100))|0|0|-|machine-id|late|50
S|h1|edge:2|$((now - 50 * D))|$((now - 45 * D))|0|0|-|machine-id|initramfs|1|-
S|h1|new:3|$((now - D))|$((now - 3600))|0|0|-|boot-id|early|3|$((now - D + 5))
S|h2|gone:4|$((now - 90 * D))|$((now - 80 * D))
S|h2|gone:5|$((now - 86 * D))|$((now - 85 * D))
S|h3|nocolon|$((now - 2 * D))|$((now - D))
W|h1|old:1|$RC|$((now - 60 * D))|$((now - 60 * D + 100))|1
W|h1|new:3|$RC|$((now - D + 5))|$((now - 7200))|1
W|h1|new:3|$RC|$((now - 7200))|$((now - 3600))|0
W|h1|new:3|$GOV|$((now - D + 5))|$((now - 3600))|2
X
"$T/fill" "$T/h.db" <"$T/h"
check "export --now: exit 0" prom "$T/h.db" --now "@$now"
check "... a session synced $((60)) days before, not its host's latest: left out" sh -c "! grep -q 'session=\"old:1\"' '$T/out'"
check "... one synced 45 days before, at the edge: in" \
	has "abidep_tracer_session_last_sync_timestamp_seconds{host=\"h1\",session=\"edge:2\"} $((now - 45 * D))"
check "... the start with its boot id, stage and host id" \
	has "abidep_tracer_session_start_timestamp_seconds{host=\"h1\",session=\"new:3\",boot_id=\"new\",stage=\"early\",host_id=\"boot-id\"} $((now - D))"
check "... the first sync" \
	has "abidep_tracer_session_first_sync_timestamp_seconds{host=\"h1\",session=\"new:3\"} $((now - D + 5))"
check "... no first sync when unknown (a session of before schema 7)" \
	sh -c "! grep -q '^abidep_tracer_session_first_sync_timestamp_seconds{host=\"h1\",session=\"edge:2\"}' '$T/out'"
check "... no loss series for a session without loss" sh -c "! grep -q '^abidep_tracer_session_\(unrecorded\|skipped\|lost\)' '$T/out'"
check "... h2's sessions all older: its latest by last sync (not by start) kept, alone" sh -c "
	grep -qx 'abidep_tracer_session_last_sync_timestamp_seconds{host=\"h2\",session=\"gone:4\"} $((now - 80 * D))' '$T/out' &&
	! grep -q 'session=\"gone:5\"' '$T/out'"
check "... a session id without ':', no stage nor host id: empty labels" \
	has "abidep_tracer_session_start_timestamp_seconds{host=\"h3\",session=\"nocolon\",boot_id=\"\",stage=\"\",host_id=\"\"} $((now - 2 * D))"
check "... a watched run: since and found labels, its last sync" \
	has "abidep_tracer_watched_last_sync_timestamp_seconds{host=\"h1\",session=\"new:3\",entry=\"$RC\",since=\"$((now - D + 5))\",found=\"1\"} $((now - 7200))"
check "... a run that looked and found none: found 0" \
	has "abidep_tracer_watched_last_sync_timestamp_seconds{host=\"h1\",session=\"new:3\",entry=\"$RC\",since=\"$((now - 7200))\",found=\"0\"} $((now - 3600))"
check "... a session of before schema 6 (no watched set): a run with entry \"\"" \
	has "abidep_tracer_watched_last_sync_timestamp_seconds{host=\"h2\",session=\"gone:4\",entry=\"\",since=\"$((now - 90 * D))\",found=\"0\"} $((now - 80 * D))"
check "... only the runs of exported sessions (5: h1 new:3's 3, the older h2 and h3 one each)" \
	test "$(grep -c '^abidep_tracer_watched_last_sync_timestamp_seconds{' "$T/out")" = 5
check "--now later: edge:2 falls out too" sh -c "'$A' report --db '$T/h.db' --format prometheus --now @$((now + 1)) | grep -c 'session=\"edge:2\"' | grep -qx 0"
check "--now takes check's forms (2024-08-09T10:00Z)" test "$(status "$A" report --db "$T/h.db" --format prometheus --now 2024-08-09T10:00Z)" = 0
check "a bad --now: exit 2" test "$(status "$A" report --db "$T/h.db" --format prometheus --now yesterday)" = 2
check "... named" grep -qx "abidep: --now takes YYYY-MM-DD, YYYY-MM-DDTHH:MM\[:SS\]\[Z\] or @SECONDS (UTC), not 'yesterday'" "$T/err"

section "each boot's clock: the readings of the exported sessions' boots"
# fill's 14-field S lines and 21-field rows have boottimes (seconds), C
# lines are readings; fill places each boot by them. c1's boot k, never
# synchronized, set back 60 days in its second session: placed by that
# reading (k:1 110 days ago, out of the horizon; k:2 the host's latest);
# c2's boot s stepped back an hour by its synchronization; c3's boot o
# (80 days ago) not exported, its boot p (a day ago) exported.
R=/sys/class/rc/rc0/current_protocol
cat >"$T/c" <<X
S|c1|k:1|0|0|0|0|-|machine-id|early|100|0|100|$D
S|c1|k:2|0|0|0|0|-|machine-id|early|$((D + 100))|0|$((D + 100))|$((50 * D - 3600))
C|c1|k:1|100|$((now - 50 * D + 100))|0
C|c1|k:2|$((D + 100))|$((now - 49 * D + 100))|0
C|c1|k:2|$((2 * D))|$((now - 108 * D))|0
c1|k:2|$R|$RC|sysfs-class-rc|deprecated|read|1000|5|-|/opt/x/reader|reader|9|1|2|0|0|0|0|$((40 * D - 60))|$((40 * D))
S|c2|s:1|0|0|0|0|-|machine-id|early|100|0|100|$D
C|c2|s:1|100|$((now - D + 3700))|0
C|c2|s:1|200|$((now - D + 200))|1
c2|s:1|$R|$RC|sysfs-class-rc|deprecated|read|0|5|-|/opt/x/reader|reader|9|1|2|0|0|0|0|$((D / 2))|$((D / 2))
S|c3|o:1|0|0|0|0|-|machine-id|early|100|0|100|$D
C|c3|o:1|100|$((now - 80 * D + 100))|1
S|c3|p:1|0|0|0|0|-|machine-id|early|100|0|100|$((D - 3600))
C|c3|p:1|100|$((now - D + 100))|1
X
"$T/fill" "$T/c.db" <"$T/c"
check "export: exit 0" prom "$T/c.db" --now "@$now"
check "... the family declared, a gauge" sh -c "
	grep -qx '# HELP abidep_tracer_clock_reading_wall_seconds A reading of .*' '$T/out' &&
	grep -qx '# TYPE abidep_tracer_clock_reading_wall_seconds gauge' '$T/out'"
check "... c1's boot placed by its last reading: k:2, its latest, exported; k:1 not" sh -c "
	grep -q 'session=\"k:2\"' '$T/out' && ! grep -q '^abidep_tracer_session_.*session=\"k:1\"' '$T/out'"
check "... a reading: wall seconds, by host, session, boottime in ns, synchronized 0" \
	has "abidep_tracer_clock_reading_wall_seconds{host=\"c1\",session=\"k:2\",boottime_ns=\"$((2 * D))000000000\",synchronized=\"0\"} $((now - 108 * D))"
check "... k:1's reading too: of the boot of an exported session" \
	has "abidep_tracer_clock_reading_wall_seconds{host=\"c1\",session=\"k:1\",boottime_ns=\"100000000000\",synchronized=\"0\"} $((now - 50 * D + 100))"
check "... a synchronized one: synchronized 1" \
	has "abidep_tracer_clock_reading_wall_seconds{host=\"c2\",session=\"s:1\",boottime_ns=\"200000000000\",synchronized=\"1\"} $((now - D + 200))"
check "... not those of c3's boot o, none of whose sessions is exported (6 readings in all)" sh -c "
	! grep -q 'session=\"o:1\"' '$T/out' &&
	test \$(grep -c '^abidep_tracer_clock_reading_wall_seconds{' '$T/out') = 6"
check "... the latest c1's read may have been: placed 70 days ago, 10 by the first reading" sh -c "
	grep -qx 'abidep_deprecated_access_last_seen_timestamp_seconds{.*host=\"c1\",op=\"read\"} $((now - 70 * D))' '$T/out' &&
	grep -qx 'abidep_deprecated_access_last_seen_latest_timestamp_seconds{.*host=\"c1\",op=\"read\"} $((now - 10 * D))' '$T/out'"
check "... none for c2's, synchronized (one latest series in all)" \
	test "$(grep -c '^abidep_deprecated_access_last_seen_latest_timestamp_seconds{' "$T/out")" = 1
if command -v sqlite3 >/dev/null; then
	# Readings keep nanoseconds; fill's are whole seconds.
	sqlite3 "$T/c.db" "INSERT INTO clock VALUES ('c3', 'p:1', 200000000000, $((now - D + 200))123456789, 1),
		('c3', 'p:1', 300000000000, $((now - D + 300))500000000, 1)"
	check "a wall time with nanoseconds: written exactly, trailing zeros left out" sh -c "
		'$A' report --db '$T/c.db' --format prometheus --now @$now >'$T/out' &&
		grep -qx 'abidep_tracer_clock_reading_wall_seconds{host=\"c3\",session=\"p:1\",boottime_ns=\"200000000000\",synchronized=\"1\"} $((now - D + 200)).123456789' '$T/out' &&
		grep -qx 'abidep_tracer_clock_reading_wall_seconds{host=\"c3\",session=\"p:1\",boottime_ns=\"300000000000\",synchronized=\"1\"} $((now - D + 300)).5' '$T/out'"
else
	skip "sqlite3 not installed: the nanoseconds check"
fi

section "the tables' Remove-after dates"
prom "$T/h.db"
check "a date: due from 00:00 UTC of the next day, as check decides" \
	has "abidep_entry_due_timestamp_seconds{entry=\"$RC\"} $(date -u -d 2012-04-09 +%s)"
check "a month (and a kernel version): due from the next month's first day" \
	has "abidep_entry_due_timestamp_seconds{entry=\"$GOV\"} $(date -u -d 2024-04-01 +%s)"
check "a kernel version only: none" sh -c "! grep -q '^abidep_entry_due_timestamp_seconds{entry=\"/sys/class/bar' '$T/out'"
check "--entry: only its entry's" sh -c "'$A' report --db '$T/h.db' --format prometheus -t '$T/tables' --entry cpuidle |
	grep '^abidep_entry_due_timestamp' | grep -c . | grep -qx 1"
check "-t that does not load: exit 2" test "$(status "$A" report --db "$T/h.db" --format prometheus -t "$T/none")" = 2

section "hostile names stay valid exposition"
# An executable, host, session and What with a newline, a quote, a backslash and a byte that is not UTF-8.
BAD='a%0Ab%22c%5Cd%FFe'
cat >"$T/x" <<X
S|h$BAD|b$BAD:1|$((now - D))|$((now - 60))|2|1|$((now - 600))|machine-id|early|1
W|h$BAD|b$BAD:1|/sys/w$BAD|$((now - D))|$((now - 60))|1
C|h$BAD|b$BAD:1|100|$((now - D))|0
h$BAD|b$BAD:1|/sys/f$BAD|/sys/w$BAD|t|deprecated|read|0|1|-|/usr/bin/$BAD|c|1|1|3|0|$((now - 600))|$((now - 60))
X
"$T/fill" "$T/x.db" <"$T/x"
check "export: exit 0" prom "$T/x.db" --now "@$now"
check "... every sample line one line: no raw newline, quote or backslash escape lost" sh -c "
	! grep -v '^# ' '$T/out' | grep -v '^abidep_[a-z_]*{\([a-z_]*=\"\([^\"\\\\]\|\\\\[\\\\\"n]\)*\",\?\)*} -\?[0-9][0-9]*$'"
check "... valid UTF-8" sh -c "iconv -f UTF-8 -t UTF-8 '$T/out' >/dev/null"
PY=
for py in python3 /usr/bin/python3; do
	"$py" -c 'import prometheus_client' 2>/dev/null && PY=$py && break
done
if [ -n "$PY" ]; then
	check "... a Prometheus parser reads the names back, U+FFFD for the bad byte" "$PY" - "$T/out" <<'X'
import sys
from prometheus_client.parser import text_string_to_metric_families
want = 'a\nb"c\\d\ufffde'
fams = {f.name: f for f in text_string_to_metric_families(open(sys.argv[1], encoding='utf-8').read())}
def labels(fam):
    return [s.labels for s in fams[fam].samples]
assert [l['exe'] for l in labels('abidep_deprecated_access')] == ['/usr/bin/' + want], labels('abidep_deprecated_access')
s = labels('abidep_tracer_session_start_timestamp_seconds')
assert s == [{'host': 'h' + want, 'session': 'b' + want + ':1', 'boot_id': 'b' + want,
              'stage': 'early', 'host_id': 'machine-id'}], s
w = labels('abidep_tracer_watched_last_sync_timestamp_seconds')
assert [x['entry'] for x in w] == ['/sys/w' + want], w
assert labels('abidep_tracer_session_lost_timestamp_seconds')[0]['session'] == 'b' + want + ':1'
c = labels('abidep_tracer_clock_reading_wall_seconds')
assert c == [{'host': 'h' + want, 'session': 'b' + want + ':1', 'boottime_ns': '100000000000',
              'synchronized': '0'}], c
X
else
	skip "python3-prometheus-client not installed: the parser check"
fi

finish metrics
