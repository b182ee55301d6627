#!/bin/sh
# CLI tests of `abidep check --format html` and `abidep report --format
# html`: usage DBs written through the store's API (tests/cli/fill.c) with
# sessions on three hosts (one that stopped), blocked, ready and no-data
# entries, days of history and a hostile executable name; each page is
# rendered in headless chromium, which must log no console message, and
# its DOM (chromium's --dump-dom, parsed in python3) must hold the figures
# of check -j and report -j, the hostile name as text and no element it
# tried to inject. The screenshots are kept under build/.
# Ends with "html: N passed, N failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
A=${ABIDEP:-build/abidep}
A=$(cd "$(dirname "$A")" && pwd)/$(basename "$A")
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p build

status() {
	"$@" >"$T/out" 2>"$T/err"
	echo $?
}

section "setup"
check "abidep is built ($A; make tools)" test -x "$A"
check "the helper builds (tests/build-helper fill)" sh -c "tests/build-helper fill && cp build/tests/fill '$T/fill'"
check "chromium is installed (apt-get install chromium)" command -v chromium

cat >"$T/tables" <<'EOF'
What:		/sys/class/rc/rcN/current_protocol
Contact:	Test <t@example.org>
Status:		deprecated
Deprecated:	2010-04-08
Remove-after:	2012-04-08
Replaced-by:	/sys/class/rc/rcN/protocols
Source:		test
Description:
		Used in the window: blocked.

What:		/sys/devices/system/cpu/cpuidle/current_governor_ro
Contact:	Test <t@example.org>
Status:		deprecated
Deprecated:	2019-06
Remove-after:	2024-03
Replaced-by:	/sys/devices/system/cpu/cpuidle/current_governor
Source:		test
Description:
		Used, but not in the window: ready, or no-data with a host uncovered.

What:		/sys/class/foo/fooN/old_mode
Contact:	Test <t@example.org>
Status:		deprecated
Deprecated:	2024-01-01
Remove-after:	2030-01-01
Replaced-by:	/sys/class/foo/fooN/mode
Source:		test
Description:
		Not due.
EOF
check "the test tables are valid" "$A" tables validate "$T/tables"

# Day 0 is 2024-05-01; judged on day 60 (10:00), the window from day 30.
D=86400
t0=1714557600
now=$((t0 + 60 * D))
RC=/sys/class/rc/rcN/current_protocol
GOV=/sys/devices/system/cpu/cpuidle/current_governor_ro
# The exe name a traced program chose: quotes, markup, a script, an image.
EVIL='/tmp/"'"'"'><script>console.error("INJECTED")</script><img src=x onerror=alert(2)>&amp;'
# row HOST SESSION PATH WHAT OP UID EXE COUNT FIRST LAST [SWEPT]: one upsert.
# The same key again with a larger count and a later last use is the next
# day's use: the store's daily history takes the difference.
row() {
	echo "$1|$2|$3|$4|sysfs-test|deprecated|$5|$6|10|/system.slice/x.service|$7|comm|100|1|$8|0|$9|${10}${11:+|${11}}"
}
{
	# h1: the hostile program, days 40 to 44 (2, 3, 1, 4, 5 uses).
	c=0 k=0
	for n in 2 3 1 4 5; do
		c=$((c + n))
		row h1 b1:2 /sys/class/rc/rc0/current_protocol "$RC" read 1000 "$EVIL" $c $((t0 + 40 * D)) $((t0 + (40 + k) * D + 60))
		k=$((k + 1))
	done
	# cat on h1 too, day 45: two hosts.
	row h1 b1:2 /sys/class/rc/rc0/current_protocol "$RC" read 0 /usr/bin/cat 2 $((t0 + 45 * D)) $((t0 + 45 * D))
	# h2: cat on days 50 and 58 (3, then 4 more), on two uids; find swept it.
	row h2 b2:1 /sys/class/rc/rc1/current_protocol "$RC" read 0 /usr/bin/cat 3 $((t0 + 50 * D)) $((t0 + 50 * D + 5))
	row h2 b2:1 /sys/class/rc/rc1/current_protocol "$RC" read 0 /usr/bin/cat 7 $((t0 + 50 * D)) $((t0 + 58 * D + 5))
	row h2 b2:1 /sys/class/rc/rc1/current_protocol "$RC" open 33 /usr/bin/cat 1 $((t0 + 51 * D)) $((t0 + 51 * D))
	row h2 b2:1 /sys/class/rc/rc1/current_protocol "$RC" open 0 /usr/bin/find 6 $((t0 + 52 * D)) $((t0 + 52 * D)) 6
	# cpuidle: used on days 0, 1 and 5 only, long before the window.
	row h1 b1:1 "$GOV" "$GOV" read 0 /usr/bin/cat 3 $t0 $((t0 + 60))
	row h1 b1:1 "$GOV" "$GOV" read 0 /usr/bin/cat 7 $t0 $((t0 + D))
	row h1 b1:1 "$GOV" "$GOV" read 0 /usr/bin/cat 10 $t0 $((t0 + 5 * D))
	row h2 b2:1 "$GOV" "$GOV" read 0 /usr/sbin/irqbalance 1 $((t0 + 2 * D)) $((t0 + 2 * D))
	# The tracer ran through the window on h1 (two sessions) and h2.
	echo "S|h1|b1:1|$((t0 - 5 * D))|$((t0 + 35 * D))"
	echo "S|h1|b1:2|$((t0 + 35 * D + 600))|$((now - 3600))"
	echo "S|h2|b2:1|$((t0 - 10 * D))|$((now - 7200))"
} >"$T/rows"
# Sessions as a tracer of today writes them (fill's WHATS): each watched
# every What of the tables throughout, its boot traced from early on.
grep -h '^What:' "$T/tables" | sed 's/^What:[[:space:]]*//' | sort -u >"$T/whats"
fill() {
	"$T/fill" "$@" "$T/whats"
}
fill "$T/covered.db" <"$T/rows" 2>"$T/err"
check "the covered DB is written through store_upsert" test "$(sqlite3 "$T/covered.db" 'SELECT count(*) FROM usage')" = 7
cp "$T/covered.db" "$T/fleet.db"
# h3's tracer stopped on day 40: that host does not cover the window.
echo "S|h3|b3:1|$((t0 + 20 * D))|$((t0 + 40 * D))" | fill "$T/fleet.db"
check "the fleet DB has h3's session too" test "$(sqlite3 "$T/fleet.db" 'SELECT count(*) FROM sessions')" = 4

# The DOM's figures against the JSON's: dom.py DOM JSON WHAT (below).
cat >"$T/dom.py" <<'PY'
import json, sys
from html.parser import HTMLParser

class Dom(HTMLParser):
    """Every element as (tag, attrs, text inside it), in order."""
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.els, self.open = [], []
    def handle_starttag(self, tag, attrs):
        el = [tag, dict(attrs), ""]
        self.els.append(el)
        if tag not in ("br", "meta", "line", "rect", "input", "img", "link"):
            self.open.append(el)
    def handle_endtag(self, tag):
        while self.open:
            if self.open.pop()[0] == tag:
                break
    def handle_data(self, data):
        for el in self.open:
            el[2] += data

dom = Dom()
dom.feed(open(sys.argv[1], encoding="utf-8").read())
els = dom.els
d = json.load(open(sys.argv[2])) if sys.argv[2] != "-" else None
what = sys.argv[3]
arg = sys.argv[4] if len(sys.argv) > 4 else None

def cls(tag, c):
    return [e for e in els if e[0] == tag and c in e[1].get("class", "").split()]

def fail(msg):
    print(msg)
    sys.exit(1)

def section(w):
    s = [i for i, e in enumerate(els) if e[0] == "section" and e[1].get("data-what") == w]
    if len(s) != 1:
        fail("%d sections for %s" % (len(s), w))
    i = s[0] + 1
    while i < len(els) and els[i][0] != "section":
        i += 1
    return els[s[0]:i]

def exe_rows(sec, table):
    """The rows of class exe in the section's tables of class @table."""
    got, cur = {}, None
    for e in sec:
        if e[0] == "table":
            cur = e[1].get("class", "")
        elif e[0] == "tr" and "exe" in e[1].get("class", "").split() and cur == table:
            w = e[1].get("data-window")
            got[e[1]["data-exe"]] = (int(e[1]["data-uses"]), int(e[1]["data-hosts"]),
                                     None if w is None else int(w))
    return got

def per_exe(uses):
    sums = {}
    for u in uses:
        if u.get("kind", "use") != "use":
            continue
        s = sums.setdefault(u["exe"], [0, set(), 0])
        s[0] += u["count"]
        s[1].add(u["host"])
        w = u.get("uses_in_window")
        s[2] = None if w is None or s[2] is None else s[2] + w
    return {k: (v[0], len(v[1]), v[2]) for k, v in sums.items()}

if what == "summary":
    got = {e[1]["data-verdict"]: int(e[1]["data-count"]) for e in els if e[0] == "li" and "data-verdict" in e[1]}
    want = {k: v for k, v in d["summary"].items() if k in got or v}
    if got != want:
        fail("DOM %s, -j %s" % (got, want))
elif what == "verdicts":
    rows = cls("tr", "entry")
    got = [(r[1]["data-what"], r[1]["data-verdict"], int(r[1]["data-blockers"]), int(r[1]["data-enumerated"])) for r in rows]
    want = [(e["what"][0] if isinstance(e["what"], list) else e["what"], e["verdict"], len(e["blockers"]), len(e["enumerated"])) for e in d["entries"]]
    if got != want:
        fail("DOM %s\n-j  %s" % (got, want))
elif what in ("blockers", "enumerated"):
    # Per entry, per executable: the uses summed, the hosts and the uses in
    # the window (none when the DB cannot tell), as -j's.
    for e in d["entries"]:
        w = e["what"][0] if isinstance(e["what"], list) else e["what"]
        key = "blockers" if what == "blockers" else "enumerated"
        want = per_exe(e[key])
        if not want:
            continue
        got = exe_rows(section(w), key)
        if got != want:
            fail("%s: DOM %s, -j %s" % (w, got, want))
elif what == "uncovered":
    got = sorted(r[1]["data-host"] for r in cls("tr", "host") if r[1]["data-covers"] == "false")
    want = sorted(h["host"] for h in d["db"]["uncovered_hosts"])
    if got != want or int(els[[i for i, e in enumerate(els) if e[1].get("id") == "coverage"][0]][1]["data-uncovered"]) != len(want):
        fail("DOM %s, -j %s" % (got, want))
    covered = sorted(r[1]["data-host"] for r in cls("tr", "host") if r[1]["data-covers"] == "true")
    if sorted(covered + got) != sorted(d["db"]["hosts"] + [h for h in got if h not in d["db"]["hosts"]]):
        fail("hosts: DOM %s + %s, -j %s" % (covered, got, d["db"]["hosts"]))
elif what == "plot":
    # Per entry, per exe, the days' uses summed: report -j's count (all sessions).
    want = {}
    for e in d:
        for u in e["users"]:
            k = (e["what"], u["exe"])
            want[k] = want.get(k, 0) + u["count"]
    got = {}
    for s in (e for e in els if e[0] == "section" and "data-what" in e[1]):
        for r in section(s[1]["data-what"]):
            if r[0] == "tr" and "series" in r[1].get("class", "").split():
                got[(s[1]["data-what"], r[1]["data-exe"])] = int(r[1]["data-total"])
    if got != want:
        fail("DOM %s\nreport -j %s" % (got, want))
elif what == "users":
    # report's page: per entry and executable, report -j's uses and hosts.
    want = {}
    for e in d:
        for u in e["users"]:
            w = want.setdefault(e["what"] or "", {}).setdefault(u["exe"], [0, set()])
            w[0] += u["count"]
            w[1].update(u["hosts"])
    # (report's page has no quiet window: no data-window)
    want = {k: {x: (v[0], len(v[1]), None) for x, v in ex.items()} for k, ex in want.items()}
    got = {s[1]["data-what"]: exe_rows(section(s[1]["data-what"]), "users")
           for s in els if s[0] == "section" and "data-what" in s[1]}
    if got != want:
        fail("DOM %s\nreport -j %s" % (got, want))
elif what == "text":
    # The hostile name, shown as text in a cell, as the DB has it.
    if not any(e[0] == "td" and e[2] == arg for e in els):
        fail("no cell reads %r" % arg)
elif what == "injected":
    bad = [e for e in els if e[0] in ("script", "img", "iframe", "object", "embed", "link")
           or any(k.startswith("on") for k in e[1])]
    if bad:
        fail("injected: %s" % bad[:3])
elif what == "count":
    n = len([e for e in els if e[0] == arg.split(".")[0] and arg.split(".")[1] in e[1].get("class", "").split()])
    print(n)
else:
    fail("dom.py: no check " + what)
PY
dom() {
	python3 "$T/dom.py" "$@"
}

# render PAGE NAME: chromium's DOM of PAGE in $T/NAME.dom, its console
# messages in $T/NAME.console, a screenshot in build/NAME.png.
nosb=
[ "$(id -u)" = 0 ] && nosb=--no-sandbox
render() {
	rm -rf "$T/prof"
	HOME=$T timeout 120 chromium --headless=new $nosb --disable-gpu --user-data-dir="$T/prof" \
		--enable-logging=stderr --v=0 --dump-dom "file://$1" >"$T/$2.dom" 2>"$T/$2.log" &&
	rm -rf "$T/prof" &&
	HOME=$T timeout 120 chromium --headless=new $nosb --disable-gpu --user-data-dir="$T/prof" \
		--enable-logging=stderr --v=0 --window-size=1280,2000 --screenshot="$PWD/build/$2.png" \
		"file://$1" >/dev/null 2>>"$T/$2.log"
	rc=$?
	grep 'CONSOLE' "$T/$2.log" >"$T/$2.console"
	return $rc
}

section "the method: chromium reports a page's console messages"
printf '<!DOCTYPE html><title>t</title><p>x</p><script>console.error("DELIBERATE")</script>\n' >"$T/probe.html"
check "a probe page renders" render "$T/probe.html" probe
check "... and its console.error is seen (so a silent page is a clean one)" grep -q DELIBERATE "$T/probe.console"

"$A" report -t "$T/tables" --db "$T/fleet.db" -j >"$T/report.json"

section "check --format html: blocked, no-data, an uncovered host"
ck() {
	"$A" check --tables "$T/tables" --now @$now "$@"
}
check "check --format html -o FILE: the exit status of check -j (1: blocked)" \
	test "$(status ck --db "$T/fleet.db" --format html -o "$T/fleet.html")" = 1
check "... nothing on standard output or error" test ! -s "$T/out" -a ! -s "$T/err"
check "... no temporary file left beside it" test "$(ls -A "$T" | grep -c '^\.fleet')" = 0
ck --db "$T/fleet.db" -j >"$T/fleet.json"
check "... the same page on standard output without -o" \
	sh -c "'$A' check --tables '$T/tables' --now @$now --db '$T/fleet.db' --format html | cmp - '$T/fleet.html'"
check "the page references no URL (nothing to fetch)" sh -c "! grep -Eio 'https?:|file:|(src|href)=\"[^#]|url\\(' '$T/fleet.html'"
check "... and forbids scripts and fetches (Content-Security-Policy)" \
	grep -qF "content=\"default-src 'none'; style-src 'unsafe-inline'\"" "$T/fleet.html"
check "chromium renders it" render "$T/fleet.html" html-check
check "... a screenshot under build/" sh -c "test -s build/html-check.png && head -c 8 build/html-check.png | grep -q PNG"
check "... no console message (no script ran, nothing blocked)" test ! -s "$T/html-check.console"
check "DOM: the counts per verdict are check -j's" dom "$T/html-check.dom" "$T/fleet.json" summary
check "DOM: every entry's verdict, blockers and enumerators are -j's" dom "$T/html-check.dom" "$T/fleet.json" verdicts
check "DOM: per entry and executable, the blocking uses and hosts sum -j's" dom "$T/html-check.dom" "$T/fleet.json" blockers
check "DOM: ... and the enumerators' (a sweep)" dom "$T/html-check.dom" "$T/fleet.json" enumerated
check "DOM: the uncovered hosts are -j's (h3)" dom "$T/html-check.dom" "$T/fleet.json" uncovered
check "... and -j names h3 indeed" sh -c "grep -q '\"uncovered_hosts\":\[{\"host\":\"h3\"' '$T/fleet.json'"
check "DOM: per entry and executable, the daily plot's total is report -j's count" \
	dom "$T/html-check.dom" "$T/report.json" plot
# The bars: the days' uses, differences of the cumulative counts written.
bars() {
	grep -o "[a-z;]*: [0-9]* uses\? on [0-9-]*</title>" "$1" | sed 's|</title>||' | tr '\n' ' '
}
check "DOM: the bars are the days' uses (h1's 2, 3, 1, 4, 5; cat's 2, 3, 1, 4; find's 6; cpuidle's 3, 4, 3 and 1)" \
	same "$(bars "$T/fleet.html")" "amp;amp;: 2 uses on 2024-06-10 amp;amp;: 3 uses on 2024-06-11 amp;amp;: 1 use on 2024-06-12 amp;amp;: 4 uses on 2024-06-13 amp;amp;: 5 uses on 2024-06-14 cat: 2 uses on 2024-06-15 cat: 3 uses on 2024-06-20 cat: 1 use on 2024-06-21 find: 6 uses on 2024-06-22 cat: 4 uses on 2024-06-28 cat: 3 uses on 2024-05-01 cat: 4 uses on 2024-05-02 irqbalance: 1 use on 2024-05-03 cat: 3 uses on 2024-05-06 "
check "DOM: the hostile exe name is shown as text, as the DB has it" dom "$T/html-check.dom" - text "$EVIL"
check "DOM: no element or handler it tried to inject" dom "$T/html-check.dom" - injected
check "the page escapes it: no '<script' and no '<img' in the file" sh -c "! grep -Eq '<script|<img' '$T/fleet.html'"

section "check --format html: ready, every host covered"
check "check --format html on a DB whose hosts all cover the window: exit 1 (one blocked)" \
	test "$(status ck --db "$T/covered.db" --format html -o "$T/covered.html")" = 1
ck --db "$T/covered.db" -j >"$T/covered.json"
check "... rendered" render "$T/covered.html" html-check-covered
check "... no console message" test ! -s "$T/html-check-covered.console"
check "DOM: the counts per verdict are check -j's (one ready)" dom "$T/html-check-covered.dom" "$T/covered.json" summary
check "DOM: every entry's verdict is -j's" dom "$T/html-check-covered.dom" "$T/covered.json" verdicts
check "DOM: no uncovered host, as -j" dom "$T/html-check-covered.dom" "$T/covered.json" uncovered

section "a DB without daily history (older abidep)"
# The covered DB's rows and sessions as an older tracer wrote them (no
# watched set, no boot stage), and that DB without its daily history.
"$T/fill" "$T/legacy.db" <"$T/rows"
cp "$T/legacy.db" "$T/old.db"
sqlite3 "$T/old.db" "$UNDO_SCHEMA8 DROP TABLE usage_days; PRAGMA user_version = 3"
check "check --format html on it: exit 1, as before" \
	test "$(status ck --db "$T/old.db" --format html -o "$T/old.html")" = 1
check "... each entry with uses says there is no daily history, and plots nothing" \
	test "$(grep -c 'No daily history in this DB (older abidep)' "$T/old.html"):$(grep -c '<svg class="plot"' "$T/old.html")" = 2:0
# The same verdicts and figures; only the daily counts are unknown (null).
check "... and check -j is as with it, uses_in_window null" \
	same "$(ck --db "$T/old.db" -j | sed 's|/old.db|/legacy.db|')" \
	     "$(ck --db "$T/legacy.db" -j | sed 's/"uses_in_window":[0-9]*/"uses_in_window":null/g')"
check "report --format html on it says so too" \
	sh -c "'$A' report -t '$T/tables' --db '$T/old.db' --format html | grep -c 'No daily history in this DB (older abidep)' | grep -qx 2"

section "report --format html"
check "report --format html -o FILE: exit 0" \
	test "$(status "$A" report -t "$T/tables" --db "$T/fleet.db" --format html -o "$T/report.html")" = 0
check "... nothing on standard output or error" test ! -s "$T/out" -a ! -s "$T/err"
check "... the same page on standard output without -o" \
	sh -c "'$A' report -t '$T/tables' --db '$T/fleet.db' --format html | cmp - '$T/report.html'"
check "the page references no URL" sh -c "! grep -Eio 'https?:|file:|(src|href)=\"[^#]|url\\(' '$T/report.html'"
check "chromium renders it" render "$T/report.html" html-report
check "... a screenshot under build/" test -s build/html-report.png
check "... no console message" test ! -s "$T/html-report.console"
check "DOM: per entry and executable, the uses and hosts of report -j" dom "$T/html-report.dom" "$T/report.json" users
check "DOM: every host's sessions (h1: 2, h2: 1, h3: 1)" \
	test "$(grep -o 'data-host="h[0-9]" data-sessions="[0-9]*"' "$T/report.html" | tr '\n' ' ')" = \
	'data-host="h1" data-sessions="2" data-host="h2" data-sessions="1" data-host="h3" data-sessions="1" '
check "DOM: the hostile exe name is shown as text" dom "$T/html-report.dom" - text "$EVIL"
check "DOM: no element or handler it tried to inject" dom "$T/html-report.dom" - injected

section "a fleet: the coverage table is bounded"
{
	i=0
	while [ $i -lt 150 ]; do
		# 120 hosts stopped on day 40, 30 ran through.
		if [ $i -lt 120 ]; then end=$((t0 + 40 * D)); else end=$((now - 60)); fi
		echo "S|f$(printf %03d $i)|b:1|$((t0 - D))|$end"
		i=$((i + 1))
	done
} | fill "$T/many.db"
check "150 hosts, 120 uncovered: check --format html" \
	test "$(status ck --db "$T/many.db" --format html -o "$T/many.html")" = 12
check "... 100 host rows (CHECK_HTML_HOSTS), the uncovered first" \
	test "$(grep -o 'class="host" data-host="f[0-9]*" data-covers="[a-z]*"' "$T/many.html" | sed 's/.*covers=//' | uniq -c | tr -s ' ' | tr '\n' ' ')" = ' 100 "false" '
check "... and the rest counted: 20 more not covered, 30 covered" \
	grep -q '>and 50 more hosts: 20 not covered (abidep check -j lists them all), 30 covered<' "$T/many.html"

section "a name that would show backwards"
# "/tmp/gpj.exe" with a right-to-left override before "gpj": a browser
# would show ".../tmp/exe.jpg". The page shows the override as \u202E.
BIDI=$(printf '/tmp/\342\200\256gpj.exe')
row h1 b9:1 /sys/class/rc/rc0/current_protocol "$RC" read 0 "$BIDI" 1 $((t0 + 50 * D)) $((t0 + 50 * D)) | fill "$T/bidi.db"
check "report --format html of it: exit 0" "$A" report -t "$T/tables" --db "$T/bidi.db" --format html -o "$T/bidi.html"
check "... the override shown as \\u202E, not written" sh -c "grep -qF '/tmp/\\u202Egpj.exe' '$T/bidi.html' && ! grep -q \"\$(printf '\\342\\200\\256')\" '$T/bidi.html'"

section "bad usage"
check "check --format pdf: exit 2, the formats named" test "$(status ck --db "$T/fleet.db" --format pdf)" = 2
check "... named" grep -q "format takes text, json, csv, markdown or html, not 'pdf'" "$T/err"
check "-o in a missing directory: exit 2, the directory named" \
	test "$(status ck --db "$T/fleet.db" --format html -o "$T/nodir/x.html")" = 2
check "... named" grep -q "cannot create a temporary file in $T/nodir" "$T/err"
mkdir "$T/adir"
check "-o naming a directory: exit 2 (it cannot be replaced)" \
	test "$(status ck --db "$T/fleet.db" --format html -o "$T/adir")" = 2
check "... said so, the temporary file removed" \
	sh -c "grep -q 'cannot replace $T/adir with' '$T/err' && test -z \"\$(ls -A '$T' | grep '^\.adir')\""

finish html
