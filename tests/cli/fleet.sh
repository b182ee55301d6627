#!/bin/sh
# CLI tests of check's and report's output on a fleet and on hostile
# names: a usage DB of 1,000 hosts with 40 rows each (written through the
# store's API by tests/cli/fill.c), whose text must stay short (uses summed
# per executable, host lists capped) and fit a terminal; --by-host in
# full; CSV read back by Python's csv module and Markdown tables checked
# cell by cell against check -j and report -j; -o FILE for every format;
# and executable and host names built to break a terminal, a CSV file, a
# spreadsheet and a Markdown table. No timing.
# Ends with "fleet: N passed, N failed".
set -u
# Text is fitted to $COLUMNS when it is set: set below where wanted.
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
# The longest line of standard input, in characters.
longest() {
	python3 -c 'import sys; print(max((len(l.rstrip("\r\n")) for l in sys.stdin), default=0))'
}

section "setup"
check "abidep is built ($A; make tools)" test -x "$A"
check "the helper builds (tests/build-helper fill)" sh -c "tests/build-helper fill && cp build/tests/fill '$T/fill'"

RC=/sys/class/rc/rcN/current_protocol
GOV=/sys/devices/system/cpu/cpuidle/current_governor_ro
# A What of 165 characters: the verdict table's ENTRY column.
LONG=/sys/devices/pci0000:00/0000:00:1f.3/skl_hda_dsp_generic/sound/cardN/controlC0/device/hdaudioC0D2/widgets/\<nid\>/amplifier_input_capabilities_of_the_legacy_mixer_path
cat >"$T/tables" <<EOF
What:		$RC
Contact:	Test <t@example.org>
Status:		deprecated
Deprecated:	2010-04-08
Remove-after:	2012-04-08
Replaced-by:	/sys/class/rc/rcN/protocols
Source:		test
Description:
		Used by six programs on every host.

What:		$GOV
Contact:	Test <t@example.org>
Status:		deprecated
Deprecated:	2019-06
Remove-after:	2024-03
Replaced-by:	/sys/devices/system/cpu/cpuidle/current_governor
Source:		test
Description:
		Used before the window only.

What:		$LONG
Contact:	Test <t@example.org>
Status:		deprecated
Deprecated:	2020-01-01
Remove-after:	2023-01-01
Replaced-by:	/sys/kernel/debug/hda/cardN/codecN/widgets/<nid>/amp_in_caps
Source:		test
Description:
		A long What.
EOF
check "the test tables are valid" "$A" tables validate "$T/tables"
# Each session watched every What of the tables throughout (fill's WHATS).
sed -n 's/^What:[[:space:]]*//p' "$T/tables" >"$T/whats"

# 1,000 hosts h0000..h0999, 40 rows each: six programs read, open and
# write rc's file under two uids (36 rows, 3 days before --now), cat read
# cpuidle's and alsa-info the long entry's 45 days before (4 rows). Every
# tracer started 60 days before; h0000..h0002 synced an hour before
# --now, the other 997 two days before: they do not cover the window.
now=$(date -u -d 2024-07-15 +%s)
awk -v now="$now" -v RC="$RC" -v GOV="$GOV" -v LONG="$LONG" 'BEGIN {
	split("/usr/bin/cat /usr/local/bin/legacy-irctl /usr/bin/ir-keytable /usr/sbin/lircd /usr/bin/python3.11 /usr/lib/rc-tools/rc-probe", exe, " ")
	split("read open write", op, " ")
	for (h = 0; h < 1000; h++) {
		host = sprintf("h%04d", h)
		s = "b" h ":1"
		printf "S|%s|%s|%d|%d\n", host, s, now - 60 * 86400, h < 3 ? now - 3600 : now - 2 * 86400
		for (e = 1; e <= 6; e++)
			for (u = 0; u < 2; u++)
				for (o = 1; o <= 3; o++) {
					t = now - 3 * 86400 - e * 60
					printf "%s|%s|/sys/class/rc/rc%d/current_protocol|%s|sysfs-class-rc|deprecated|%s|%d|5|/system.slice/ir.service|%s|x|9|1|%d|%d|%d|%d\n",
						host, s, h % 2, RC, op[o], u ? 1000 + h % 3 : 0, exe[e], o + e, o == 3, t - 600, t
				}
		old = now - 45 * 86400
		for (k = 0; k < 2; k++)
			printf "%s|%s|%s|%s|sysfs-cpuidle|deprecated|read|%d|10|/system.slice/mon.service|/usr/bin/cat|cat|100|1|3|0|%d|%d\n",
				host, s, GOV, GOV, k * 1000, old, old + 60
		for (k = 0; k < 2; k++) {
			path = LONG
			sub(/<nid>/, sprintf("%02d", k), path)
			printf "%s|%s|%s|%s|sysfs-hda|deprecated|read|0|10|-|/usr/bin/alsa-info|alsa-info|100|1|1|0|%d|%d\n",
				host, s, path, LONG, old, old
		}
	}
}' | "$T/fill" "$T/f.db" "$T/whats"
check "the fleet DB: 40,000 rows of 1,000 hosts, 1,000 sessions" \
	same "$(sqlite3 "$T/f.db" 'SELECT count(*), count(DISTINCT host) FROM usage; SELECT count(*) FROM sessions' | tr '\n' ' ')" "40000|1000 1000 "
# An empty dpkg root: packages '-', whatever this machine has installed.
mkdir -p "$T/root/var/lib/dpkg/info"
printf '/.\n/usr/bin/cat\n' >"$T/root/var/lib/dpkg/info/coreutils.list"
fk() {
	"$A" check -t "$T/tables" -d "$T/f.db" --root "$T/root" --now 2024-07-15 "$@"
}
fk -j >"$T/check.json"

section "check: a fleet in a few lines"
check "check: exit 1 (blocked)" test "$(status fk)" = 1
cp "$T/out" "$T/check.txt"
check "... under 40 lines (a line per (exe, uid, host) was 12,000 for rc alone)" \
	test "$(wc -l <"$T/check.txt")" -lt 40
check "... no line names more than 3 hosts" sh -c "! grep -E '(h[0-9]{4}.*){4}' '$T/check.txt'"
check "... the no-data reason: 3 hosts and how many more" grep -qx \
	"$GOV (no-data): the tracer did not run through the quiet window (since 2024-06-15T00:00:00Z) on 997 of 1000 hosts: h0003, h0004, h0005 and 994 more" "$T/check.txt"
check "... the DB's hosts too" grep -q "hosts h0000, h0001, h0002 and 997 more\$" "$T/check.txt"
check "... the uncovered hosts: 3 lines, then how many more" sh -c "test \$(grep -c '^  host h' '$T/check.txt') = 3 &&
	grep -qx '  and 994 more (--by-host or -j lists them all)' '$T/check.txt'"
check "... a row per executable, with its hosts capped" \
	test "$(grep -c '  h0000, h0001, h0002 and 997 more$' "$T/check.txt")" = 6
check "... each row's uses, failures, uids and last use: check -j's, summed per executable" python3 -c "
import json, re
d = json.load(open('$T/check.json'))
e = [e for e in d['entries'] if e['what'] == ['$RC']][0]
want = {}
for b in e['blockers']:
    w = want.setdefault(b['exe'], [0, 0, set(), ''])
    w[0] += b['count']; w[1] += b['errors']; w[2].add(b['uid']); w[3] = max(w[3], b['last_seen'])
lines = open('$T/check.txt').read().split('\n')
i = [k for k, l in enumerate(lines) if l.startswith('  USED BY ')][0]
got = {}
for l in lines[i + 1:i + 1 + len(want)]:
    c = re.split(r'  +', l.strip())
    got[c[0]] = [int(c[3]), int(c[5]), c[2], c[7]]
for exe, w in want.items():
    uids = sorted(w[2])
    assert got[exe] == [w[0], w[1], ', '.join(map(str, uids[:3])) + ' and %d more' % (len(uids) - 3), w[3]], (exe, got[exe], w)
assert len(got) == len(want) == 6, got
"
check "-j keeps everything: 12,000 blockers, the reason names all 997 hosts (the ninth too)" python3 -c "
import json
d = json.load(open('$T/check.json'))
e = {e['what'][0]: e for e in d['entries']}
assert len(e['$RC']['blockers']) == 12000
r = e['$GOV']['reason']
hosts = r.split(': ', 1)[1].split(', ')
assert hosts == ['h%04d' % h for h in range(3, 1000)], r[:200]
assert len(d['db']['uncovered_hosts']) == 997 and len(d['db']['hosts']) == 1000
"

section "check --by-host: everything"
check "--by-host: exit 1" test "$(status fk --by-host)" = 1
check "... a line per (exe, uid, host): 12,000" test "$(grep -c '^  used by ' "$T/out")" = 12000
check "... the reason names all 997 hosts" grep -q "on 997 of 1000 hosts: h0003, h0004, .*, h0998, h0999\$" "$T/out"
check "... every uncovered host a line" test "$(grep -c '^  host h' "$T/out")" = 997

section "check: fitted to the terminal"
check "not a terminal, no COLUMNS: whole lines (the long What unbroken)" grep -q "^$LONG  " "$T/check.txt"
COLUMNS=120 fk >"$T/c120.txt"
check "COLUMNS=120: no line longer than 120 (the users table needs about 110)" test "$(longest <"$T/c120.txt")" -le 120
check "... the long lines cut or wrapped, not dropped" test "$(wc -l <"$T/c120.txt")" -lt 50 -a "$(grep -c '^  /' "$T/c120.txt")" = 6
check "... a long path cut in the middle: its start and its end kept" grep -q '^/sys/de[a-z]*\.\.\..*_mixer_path  ' "$T/c120.txt"
check "-w: whole lines whatever COLUMNS says" sh -c "COLUMNS=100 '$A' check -t '$T/tables' -d '$T/f.db' --root '$T/root' --now 2024-07-15 -w | diff -u '$T/check.txt' -"
script -qec "stty cols 120; '$A' check -t '$T/tables' -d '$T/f.db' --root '$T/root' --now 2024-07-15" /dev/null >"$T/tty.txt"
check "a terminal of 120 columns (script(1)): no line longer than 120" \
	test "$(wc -l <"$T/tty.txt")" -gt 20 -a "$(longest <"$T/tty.txt")" -le 120
check "... --wide there: the long What whole" sh -c "
	script -qec \"stty cols 120; '$A' check -t '$T/tables' -d '$T/f.db' --root '$T/root' --now 2024-07-15 --wide\" /dev/null | grep -q '^$LONG  '"

# A Markdown file's pipe tables: each a header, a delimiter row and rows,
# all with the header's number of cells (split on unescaped '|', as GFM
# does before it reads a cell's code or text). Prints the tables as JSON.
cat >"$T/md.py" <<'PY'
import json, re, sys
tables, cur = [], None
for l in open(sys.argv[1], encoding='utf-8').read().split('\n'):
    if not l.startswith('|'):
        cur = None
        continue
    assert l.endswith('|') and not l.endswith('\\|'), 'a row that does not end with |: ' + l
    cells = [c.strip() for c in re.split(r'(?<!\\)\|', l)[1:-1]]
    if cur is None:
        cur = []
        tables.append(cur)
    cur.append(cells)
for t in tables:
    assert len(t) >= 2 and all(re.fullmatch(r'-{3}:?', c) for c in t[1]), t[:2]
    assert all(len(r) == len(t[0]) for r in t), [r for r in t if len(r) != len(t[0])]
print(json.dumps([[t[0]] + t[2:] for t in tables]))
PY
section "check --format csv and markdown"
check "--format csv: exit 1" test "$(status fk --format csv)" = 1
cp "$T/out" "$T/check.csv"
check "... RFC 4180: CRLF after every row, one header" sh -c "test \$(grep -c \$(printf '\r')\$ '$T/check.csv') = \$(wc -l <'$T/check.csv') && test \$(grep -c '^entry,' '$T/check.csv') = 1"
check "... read back by Python's csv module: every use and verdict of check -j" python3 -c "
import csv, json
d = json.load(open('$T/check.json'))
rows = list(csv.DictReader(open('$T/check.csv', newline='', encoding='utf-8')))
want = sorted((e['what'][0], e['verdict'], k, u['exe'], u['uid'], u['host'], ','.join(u['ops']), u['count'],
               u['swept'], u['errors'], u['first_seen'], u['last_seen'])
              for e in d['entries'] for k, us in (('use', e['blockers']), ('enumerated', e['enumerated'])) for u in us)
got = sorted((r['entry'], r['verdict'], r['kind'], r['exe'], int(r['uid']), r['host'], r['ops'], int(r['count']),
              int(r['swept']), int(r['errors']), r['first_seen'], r['last_seen']) for r in rows if r['kind'])
assert got == want, (len(got), len(want))
assert {r['entry']: r['verdict'] for r in rows} == {e['what'][0]: e['verdict'] for e in d['entries']}
assert {r['entry']: r['reason'] for r in rows} == {e['what'][0]: e['reason'] for e in d['entries']}
assert len(rows) == 12000 + 2, len(rows)
"
check "--format markdown: exit 1" test "$(status fk --format markdown)" = 1
cp "$T/out" "$T/check.md"
check "... well-formed pipe tables" sh -c "python3 '$T/md.py' '$T/check.md' >'$T/md.json'"
check "... the verdict table: check -j's verdicts and blockers; the rc table: a row per executable, uses summed" python3 -c "
import json, re
t = json.load(open('$T/md.json'))
d = json.load(open('$T/check.json'))
assert t[0][0] == ['ENTRY', 'REPLACED-BY', 'DEPRECATED', 'REMOVE-AFTER', 'VERDICT', 'BLOCKERS'], t[0][0]
got = [(r[0].strip('\`'), r[4], r[5]) for r in t[0][1:]]
want = [(e['what'][0], e['verdict'], str(len(e['blockers'])) if e['verdict'] == 'blocked' else '-') for e in d['entries']]
assert got == want, (got, want)
e = [e for e in d['entries'] if e['what'] == ['$RC']][0]
uses, window = {}, {}
for b in e['blockers']:
    uses[b['exe']] = uses.get(b['exe'], 0) + b['count']
    window[b['exe']] = window.get(b['exe'], 0) + b['uses_in_window']
assert t[1][0][0] == 'USED BY' and {r[0].strip('\`'): int(r[4]) for r in t[1][1:]} == uses, t[1]
assert t[1][0][5] == 'IN-WINDOW' and {r[0].strip('\`'): int(r[5]) for r in t[1][1:]} == window, t[1]
assert all(r[9] == '\`h0000, h0001, h0002 and 997 more\`' for r in t[1][1:]), t[1]
"
check "... --by-host: the lines in full, as list items" sh -c "'$A' check -t '$T/tables' -d '$T/f.db' --root '$T/root' --now 2024-07-15 --format markdown --by-host | grep -c '^- used by ' | grep -qx 12000"

section "report: a fleet in a few lines"
rk() {
	"$A" report -t "$T/tables" -d "$T/f.db" --root "$T/root" "$@"
}
rk -j >"$T/report.json"
check "report: exit 0" test "$(status rk)" = 0
cp "$T/out" "$T/report.txt"
check "... under 20 lines (the hosts column was 6,000 characters wide)" test "$(wc -l <"$T/report.txt")" -lt 20
check "... no line names more than 3 hosts" sh -c "! grep -E '(h[0-9]{4}.*){4}' '$T/report.txt'"
check "... a row per executable: each's count, errors and hosts are report -j's, summed" python3 -c "
import json, re
d = json.load(open('$T/report.json'))
lines = open('$T/report.txt').read().split('\n')
for e in d:
    want = {}
    for u in e['users']:
        w = want.setdefault(u['exe'], [0, 0, set()])
        w[0] += u['count']; w[1] += u['errors']; w[2] |= set(u['hosts'])
    i = [k for k, l in enumerate(lines) if l.startswith(e['what'] + ' (')][0]
    assert lines[i + 1].split() == ['EXE', 'PACKAGE', 'UIDS', 'CGROUPS', 'OPS', 'HOW', 'BOOT', 'COUNT', 'ERRORS', 'LAST-SEEN', 'HOSTS'], lines[i + 1]
    got = {}
    for l in lines[i + 2:i + 2 + len(want)]:
        c = re.split(r'  +', l.strip())
        got[c[0]] = [int(c[7]), int(c[8]), c[10]]
    assert got == {x: [w[0], w[1], 'h0000, h0001, h0002 and 997 more'] for x, w in want.items()}, (got, want)
    assert all(len(w[2]) == 1000 for w in want.values())
"
check "COLUMNS=120: no line longer than 120" test "$(COLUMNS=120 rk | longest)" -le 120
check "--by-host: a row per (exe, uid, cgroup, op, host)" \
	test "$(rk --by-host | grep -c '^  /')" = "$(sqlite3 "$T/f.db" 'SELECT count(*) FROM (SELECT DISTINCT what, exe, uid, cgroup, op, host FROM usage)')"
check "--format csv read back: report -j's users, every host" python3 -c "
import csv, io, json, subprocess
d = json.load(open('$T/report.json'))
out = subprocess.run(['$A', 'report', '-t', '$T/tables', '-d', '$T/f.db', '--root', '$T/root', '--format', 'csv'],
                     capture_output=True, check=True).stdout.decode()
rows = list(csv.DictReader(io.StringIO(out, newline='')))
want = [(e['what'], u['exe'], u['uid'], u['cgroup'] or '', u['op'], u['how'], u['count'], u['swept'], u['errors'],
         u['first_seen'], u['last_seen'], u['hosts']) for e in d for u in e['users']]
got = [(r['entry'], r['exe'], int(r['uid']), r['cgroup'], r['op'], r['how'], int(r['count']), int(r['swept']),
        int(r['errors']), r['first_seen'], r['last_seen'], r['host_names'].split(' ')) for r in rows]
assert got == want, (got[:2], want[:2])
assert all(int(r['hosts']) == len(r['host_names'].split(' ')) for r in rows)
"
check "--format markdown: well-formed, a table per entry" sh -c "'$A' report -t '$T/tables' -d '$T/f.db' --root '$T/root' --format markdown >'$T/report.md' && python3 '$T/md.py' '$T/report.md' | python3 -c 'import json,sys; t = json.load(sys.stdin); assert len(t) == 3 and sum(len(x) - 1 for x in t) == 8, t'"

section "-o FILE, every format"
for f in text json csv markdown; do
	check "check --format $f -o FILE: the same as on standard output, nothing there" sh -c "
		'$A' check -t '$T/tables' -d '$T/f.db' --root '$T/root' --now 2024-07-15 --format $f >'$T/o1'
		'$A' check -t '$T/tables' -d '$T/f.db' --root '$T/root' --now 2024-07-15 --format $f -o '$T/o.$f' >'$T/o2'
		test \$? = 1 && cmp -s '$T/o1' '$T/o.$f' && test ! -s '$T/o2'"
	check "report --format $f -o FILE: the same" sh -c "
		'$A' report -t '$T/tables' -d '$T/f.db' --root '$T/root' --format $f >'$T/o1' &&
		'$A' report -t '$T/tables' -d '$T/f.db' --root '$T/root' --format $f --output '$T/r.$f' >'$T/o2' &&
		cmp -s '$T/o1' '$T/r.$f' && test ! -s '$T/o2'"
done
check "... text to a file is not fitted, whatever COLUMNS says" sh -c "COLUMNS=60 '$A' check -t '$T/tables' -d '$T/f.db' --root '$T/root' --now 2024-07-15 -o '$T/o60'; cmp -s '$T/check.txt' '$T/o60'"
check "... mode 0644 under umask 022, no temporary file left" sh -c "test \$(stat -c %a '$T/o.csv') = 644 && ! ls -a '$T' | grep -q '^\.o\.'"
check "-o into a missing directory: exit 2" test "$(status fk -o "$T/nodir/x.csv" --format csv)" = 2
check "... named" grep -q "^abidep: cannot create a temporary file in $T/nodir for $T/nodir/x.csv: " "$T/err"

section "hostile names"
# Executables and hosts (a merged DB's hosts are whatever each host said)
# made to break out: a newline, an escape sequence and a BEL (a forged
# line, a terminal title), a byte that is not UTF-8 and a right-to-left
# override; CSV's quote and comma; Markdown's pipe, backticks, a tag, a
# link, emphasis; a spreadsheet's formulas (= + - @). Their sessions are
# a tracer's of today (fill's WHATS): each host covers the window.
H1='/tmp/a%7Cb%60c,d%22e%0Af%1B]0;pwn%07g'
H2='/tmp/%60%60x%60 %3Cimg src=x onerror=alert(1)%3E *b* [l](http://e.test) %FF %E2%80%AEfdp.exe'
{
	for h in '=HYPERLINK("http://e.test")' '@SUM(1)' '+1' '-2+3'; do
		echo "S|$h|b:1|$((now - 60 * 86400))|$((now - 3600))"
		echo "$h|b:1|/sys/class/rc/rc0/current_protocol|$RC|sysfs-class-rc|deprecated|read|0|5|/a%0Ab|$H1|x|9|1|2|0|$((now - 86400))|$((now - 86400))"
		echo "$h|b:1|/sys/class/rc/rc0/current_protocol|$RC|sysfs-class-rc|deprecated|open|0|5|-|$H2|x|9|1|1|0|$((now - 86400))|$((now - 86400))"
	done
} | "$T/fill" "$T/h.db" "$T/whats"
hk() {
	"$A" check -t "$T/tables" -d "$T/h.db" --root "$T/root" --now 2024-07-15 --entry rcN "$@"
}
hk -j >"$T/h.json"
for v in "" --by-host; do
	check "check ${v:-text}: no escape, BEL or CR byte, nothing that is not UTF-8" sh -c "
		'$A' check -t '$T/tables' -d '$T/h.db' --root '$T/root' --now 2024-07-15 --entry rcN $v >'$T/ht'
		! grep -q \"\$(printf '[\033\007\r]')\" '$T/ht' && iconv -f UTF-8 -t UTF-8 '$T/ht' >/dev/null"
	check "... the names shown on one line, their control bytes as \\xNN, the override as \\u202E" sh -c "
		grep -qF '/tmp/a|b\`c,d\"e\\x0Af\\x1B]0;pwn\\x07g' '$T/ht' && grep -qF '\\xFF \\u202Efdp.exe' '$T/ht' &&
		test \$(grep -c '^  [/u]' '$T/ht') = \$(test -n '$v' && echo 8 || echo 2)"
done
hk --format csv >"$T/h.csv"
check "CSV read back: the names are check -j's (bad UTF-8 as U+FFFD, the override as \\u202E), the formulas' ' undone" python3 -c "
import csv, json
d = json.load(open('$T/h.json', encoding='utf-8'))
rows = list(csv.DictReader(open('$T/h.csv', newline='', encoding='utf-8')))
undo = lambda s: s[1:] if s[:1] == \"'\" else s
# JSON gives a byte that is not UTF-8 back (surrogateescape); CSV shows U+FFFD,
# and the right-to-left override (which would show the name backwards) as \\u202E.
as_csv = lambda s: s.encode('utf-8', 'surrogateescape').decode('utf-8', 'replace').replace('\u202e', '\\\\u202E')
want = sorted((as_csv(u['exe']), as_csv(u['host'])) for u in d['entries'][0]['blockers'])
got = sorted((undo(r['exe']), undo(r['host'])) for r in rows)
assert got == want and len(got) == 8, (got, want)
"
check "... no cell a spreadsheet would take for a formula" python3 -c "
import csv
for r in csv.reader(open('$T/h.csv', newline='', encoding='utf-8')):
    assert not [c for c in r if c[:1] and c[0] in '=+-@'], r
"
hk --format markdown >"$T/h.md"
check "Markdown: well-formed tables (the pipes in names escaped)" sh -c "python3 '$T/md.py' '$T/h.md' >'$T/hmd.json'"
check "... no escape byte; every name in a code span; no tag, link or emphasis outside code" python3 -c "
import json, re
assert '\x1b' not in open('$T/h.md', encoding='utf-8').read()
for t in json.load(open('$T/hmd.json')):
    for r in t[1:]:
        for c in r:
            if re.fullmatch(r'(\`+) ?.*? ?\1', c):
                continue
            assert not re.search(r'<|\]\(|(?<!\\\\)[*_\`]', c), c
"
check "... each name a code span holding check -j's name, its control bytes as \\xNN" python3 -c "
import json, re
d = json.loads(open('$T/h.json', 'rb').read().decode('utf-8', 'surrogateescape'))
def clean(s):
    out = ''
    for ch in s:
        o = ord(ch)
        if 0xdc80 <= o <= 0xdcff:
            out += '\\\\x%02X' % (o - 0xdc00)
        elif o < 0x20 or o == 0x7f:
            out += '\\\\x%02X' % o
        elif 0x80 <= o <= 0x9f or o in (0x200e, 0x200f) or 0x202a <= o <= 0x202e or 0x2066 <= o <= 0x2069:
            out += '\\\\u%04X' % o
        else:
            out += ch
    return out
def code(c):
    m = re.fullmatch(r'(\`+)( ?)(.*?)\2\1', c, re.S)
    assert m, c
    return m.group(3).replace('\\\\|', '|')
t = json.load(open('$T/hmd.json'))
got = sorted(code(r[0]) for r in t[1][1:])
want = sorted(set(clean(u['exe']) for u in d['entries'][0]['blockers']))
assert got == want and len(got) == 2, (got, want)
"

hk --format markdown --by-host >"$T/h-host.md"
check "Markdown --by-host: the list items' text has Markdown's characters escaped" python3 -c "
import re
items = [l for l in open('$T/h-host.md', encoding='utf-8') if l.startswith('- ')]
assert len(items) == 8, items
for l in items:
    assert not re.search(r'(?<!\\\\)[<>*_\`|\[\]&]', l[2:]), l
"

section "merge: two copies of one host's DB, taken before and after its clock was stepped"
# h1's boot began 60 days behind (mapping M0); a read 10 s after boot; the
# later copy has the reading that corrected the clock (mapping M1). Merged
# in either order, every time of the boot is placed by M1, as the tracer
# placed them in the later copy.
M1=1717200000 M0=$((1717200000 - 60 * 86400))
{
	echo "S|h1/0123456789abcdef|b1:1|$((M0 + 5))|$((M0 + 20))|0|0|-|machine-id|early|5|$((M0 + 5))|5|20|1"
	echo "C|h1/0123456789abcdef|b1:1|5|$((M0 + 5))|0"
	echo "h1/0123456789abcdef|b1:1|/sys/class/rc/rc0/current_protocol|$RC|t|deprecated|read|0|5|-|/usr/bin/cat|cat|9|1|1|0|$((M0 + 10))|$((M0 + 10))|0|10|10"
} >"$T/early.rows"
"$T/fill" "$T/early.db" <"$T/early.rows"
{
	cat "$T/early.rows"
	echo "S|h1/0123456789abcdef|b1:1|$((M0 + 5))|$((M0 + 40))|0|0|-|machine-id|early|5|$((M0 + 5))|5|40|1"
	echo "C|h1/0123456789abcdef|b1:1|30|$((M1 + 30))|0"
} | "$T/fill" "$T/late.db"
placed() {
	sqlite3 "$1" "SELECT first_seen, last_seen FROM usage; SELECT started, last_sync FROM sessions; SELECT count(*) FROM clock" |
		tr '\n' ' '
}
want="$((M1 + 10))|$((M1 + 10)) $((M1 + 5))|$((M1 + 40)) 2 "
check "the later copy: placed by the correcting reading" same "$(placed "$T/late.db")" "$want"
"$A" merge "$T/early.db" "$T/late.db" -o "$T/m1.db" >/dev/null
"$A" merge "$T/late.db" "$T/early.db" -o "$T/m2.db" >/dev/null
check "merged early then late: the same" same "$(placed "$T/m1.db")" "$want"
check "merged late then early: the same" same "$(placed "$T/m2.db")" "$want"
"$A" merge "$T/early.db" -o "$T/m3.db" >/dev/null
"$A" merge "$T/late.db" -o "$T/m3.db" >/dev/null
check "the early copy merged first into a fleet DB, the late one into it after: the same" \
	same "$(placed "$T/m3.db")" "$want"

finish fleet
