#!/bin/sh
# CLI tests of `abidep check --prometheus` over a fleet's history: 20 hosts'
# metrics over 90 days, an hour apart (tests/prom/gen-openmetrics.py),
# backfilled into a Prometheus TSDB with promtool, and the same hosts'
# usage DBs at the end (tests/cli/fill.c), merged; every 20th host not
# scraped in the last 2 hours. check over Prometheus at the data's end must
# agree with check over the merged DB
# (tests/prom/compare.py): an entry blocked, two ready, one no-data naming
# its host, one not due. The data ends two hours before the clock
# (backfilled blocks must be older than Prometheus's head), and
# Prometheus keeps 100 days (tests/prom/lib.sh). No timing: make bench
# times 1,000 hosts (scripts/bench-prometheus.sh).
# Ends with "prom-backfill: N passed, N failed".
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
HOSTS=${PROM_BACKFILL_HOSTS:-20}
TABLES=tests/prom/backfill.tables

section "setup"
if ! prom_have; then
	skip "prometheus, prometheus-node-exporter or promtool is not installed: no test ran"
	finish prom-backfill
	exit
fi
check "abidep is built ($A; make tools)" test -x "$A"
check "the helper builds (tests/build-helper fill)" sh -c "tests/build-helper fill && cp build/tests/fill '$T/fill'"
mkdir -p "$T/root/var/lib/dpkg/info"

# The fleet, ending two hours before the clock, on the hour.
END=$(($(date +%s) - 7200))
END=$((END - END % 3600))
# shellcheck disable=SC2046 # the Whats
check "the fleet's metrics and DBs: $HOSTS hosts, 90 days, hourly (gen-openmetrics.py)" sh -c "
	python3 tests/prom/gen-openmetrics.py --hosts $HOSTS --days 90 --step 3600 --end $END \
		--out '$T/fleet.om' --fill-dir '$T/fill.d' \
		$(sed -n 's/^What:[[:space:]]*/--what /p' "$TABLES" | head -n 4 | tr '\n' ' ') >'$T/want'"
check "... OpenMetrics: a TYPE line first, # EOF last" sh -c "
	head -n 1 '$T/fleet.om' | grep -q '^# TYPE ' && test \"\$(tail -n 1 '$T/fleet.om')\" = '# EOF'"
fill_all() {
	for f in "$T"/fill.d/*.fill; do
		"$T/fill" "$T/db-$(basename "$f" .fill).db" <"$f" || return 1
	done
	"$A" merge "$T"/db-*.db -o "$T/merged.db" >/dev/null
}
check "each host's DB written, all merged" fill_all
check "... $HOSTS hosts in the merged DB" \
	same "$(sqlite3 "$T/merged.db" 'SELECT count(DISTINCT host) FROM sessions')" "$HOSTS"
check "promtool backfills it (blocks of 10 days)" prom_backfill "$T/fleet.om" "$T/tsdb"
check "... blocks, none reaching the clock" sh -c "
	ls -d '$T'/tsdb/01* >/dev/null && for m in '$T'/tsdb/01*/meta.json; do
		python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))[\"maxTime\"] > $END * 1000 + 1)' \"\$m\" || exit 1
	done"
PP=$(prom_ports 1)
URL=http://127.0.0.1:$PP
prom_server "$PP" "$T/tsdb"
check "Prometheus serves the blocks ($URL, no scrape targets)" prom_ready "$URL"

section "Prometheus holds the 90 days"
# q EXPR TIME: the one value of the instant query at TIME.
q() {
	python3 -c '
import json, sys, urllib.parse, urllib.request
u = sys.argv[1] + "/api/v1/query?" + urllib.parse.urlencode({"query": sys.argv[2], "time": sys.argv[3]})
r = json.load(urllib.request.urlopen(u, timeout=30))["data"]["result"]
print(" ".join(x["value"][1] for x in r))' "$URL" "$1" "$2"
}
check "every host's pinned gauge at the first hour" \
	same "$(q 'count(last_over_time(abidep_tracer_pinned[1h]))' $((END - 90 * 86400 + 3600)))" "$HOSTS"
# Every 20th host (h0005, h0025, ...) not scraped in the last 2 hours.
silent=$(((HOSTS + 14) / 20))
check "... at the end, but for the $silent not scraped in its last 2 hours" \
	same "$(q 'count(last_over_time(abidep_tracer_pinned[1h]))' "$END")" "$((HOSTS - silent))"
check "... whose last samples are within the lookback" \
	same "$(q 'count(last_over_time(abidep_tracer_pinned[45d]))' "$END")" "$HOSTS"
check "the sessions at the end: the DB's" \
	same "$(q 'count(last_over_time(abidep_tracer_session_last_sync_timestamp_seconds[45d]))' "$END")" \
	"$(sqlite3 "$T/merged.db" "SELECT count(*) FROM sessions WHERE last_sync >= $END - 45 * 86400")"
check "the uses at the end: the DB's counts" \
	same "$(q 'sum(last_over_time(abidep_deprecated_access_total[45d]))' "$END")" \
	"$(sqlite3 "$T/merged.db" 'SELECT sum(count) FROM usage')"

section "check --prometheus against check --db, at the end"
"$A" check -t "$TABLES" --root "$T/root" -d "$T/merged.db" --now "@$END" -j >"$T/db.json" 2>"$T/db.err"
echo $? >"$T/db.status"
"$A" check -t "$TABLES" --root "$T/root" --prometheus "$URL" --quiet-days 30 --now "@$END" -j \
	>"$T/prom.json" 2>"$T/prom.err"
echo $? >"$T/prom.status"
check "the same exit status (1: blocked)" sh -c "test \$(cat '$T/db.status') = 1 &&
	test \$(cat '$T/prom.status') = 1 || { cat '$T/db.status' '$T/prom.status' '$T/prom.err' | head -n 4; exit 1; }"
want=$(awk '$1 != "end" && $1 != "series" && $1 != "samples" { printf "%s=%s%s ", $2, $1, $3 ? ":" $3 : "" }' "$T/want")
# shellcheck disable=SC2086 # the expectations
check "the same verdicts, users and hosts; ${want% }" \
	python3 tests/prom/compare.py "$T/db.json" "$T/prom.json" $want
check "... the not-due entry too" python3 tests/prom/compare.py "$T/db.json" "$T/prom.json" \
	/sys/class/baz/old_limit=not-due
check "... h0001's hostile name among rc's users" python3 -c "
import json
d = json.load(open('$T/prom.json'))
e = [e for e in d['entries'] if e['what'] == ['/sys/class/rc/rcN/current_protocol']][0]
assert '/opt/we\"ird\\\\exe\\nname' in [b['exe'] for b in e['blockers']], e['blockers']"

section "cleanup"
prom_cleanup
check "no process left of those started here" sh -c "
	for p in \$(cat '$PROM_DIR/pids'); do kill -0 \$p 2>/dev/null && exit 1; done; exit 0"
finish prom-backfill
