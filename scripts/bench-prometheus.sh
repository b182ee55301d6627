#!/bin/sh
# make bench's Prometheus figures: abidep check --prometheus over a fleet's
# history, against abidep check over the same fleet's DBs merged. Called by
# scripts/bench.sh.
#
# The fleet (tests/prom/gen-openmetrics.py): BENCH_PROM_HOSTS hosts (1,000)
# over BENCH_PROM_DAYS days (90), a scrape every BENCH_PROM_STEP seconds
# (3,600), ending two hours before the clock; its metrics backfilled into a
# TSDB by promtool (blocks of 10 days, as Prometheus compacts them under
# its retention of 100 days), each host's DB at the end written by
# tests/cli/fill.c and all merged by abidep merge. One Prometheus over the
# TSDB (tests/prom/lib.sh), nothing else on it. Both checks over a 30-day
# window at the data's end, the tables of tests/prom/backfill.tables: their
# verdicts, users and uncovered hosts must be equal (tests/prom/compare.py),
# compared before the timed rounds; a difference fails the bench.
# BENCH_PROM_RUNS rounds (5), the two sides in turn, each run's exit status
# checked (1: an entry is blocked). Then Prometheus's resident memory
# (VmHWM, the peak, and VmRSS, from /proc/PID/status) and the TSDB's size
# on disk.
#
# Writes lines to $BENCH_PROM_OUT (default build/bench/raw/prometheus.txt)
# for tests/bench/results.py, in tests/bench/guest.sh's format:
#   I KEY VALUE...; S SIDE wall|cpu ROUND MICROSECONDS; C SIDE - WHAT EXPECTED GOT;
#   M KEY KIB; F MESSAGE
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
HOSTS=${BENCH_PROM_HOSTS:-1000}
DAYS=${BENCH_PROM_DAYS:-90}
STEP=${BENCH_PROM_STEP:-3600}
RUNS=${BENCH_PROM_RUNS:-5}
OUT=${BENCH_PROM_OUT:-build/bench/raw/prometheus.txt}
A=$repo/build/abidep
TI=build/bench/timeit
TABLES=tests/prom/backfill.tables
export LC_ALL=C
mkdir -p "$(dirname "$OUT")" build/bench
: >"$OUT"
rec() { echo "$*" >>"$OUT"; }
now() { date +%s.%N; }
since() { echo "$1 $(now)" | awk '{ printf "%.1f", $2 - $1 }'; }

. tests/prom/lib.sh
if ! prom_have; then
	rec F "prometheus: prometheus, prometheus-node-exporter or promtool is not installed"
	exit 0
fi
# The fleet's files are large (4 GB of text for 1,000 hosts): on disk, in
# build/, removed at the end.
work=$(mktemp -d "$repo/build/bench/prom.XXXXXX")
prom_init "$work/run"
trap 'prom_cleanup; rm -rf "$work"' EXIT
trap 'exit 2' INT TERM HUP
[ -x $TI ] || gcc -O2 -static -o $TI tests/bench/timeit.c
tests/build-helper fill
mkdir -p "$work/root/var/lib/dpkg/info"

END=$(($(date +%s) - 7200))
END=$((END - END % STEP))
rec I hosts "$HOSTS"
rec I days "$DAYS"
rec I step "$STEP"
rec I rounds "$RUNS"
rec I end "$(date -u -d "@$END" +%Y-%m-%dT%H:%M:%SZ)"
rec I prometheus "$("$PROM_BIN" --version 2>&1 | sed -n '1s/^prometheus, version \([^ ]*\).*/\1/p')"

echo "   prometheus: $HOSTS hosts x $DAYS days, a sample every $STEP s: generating"
t=$(now)
# shellcheck disable=SC2046 # the Whats
python3 tests/prom/gen-openmetrics.py --hosts "$HOSTS" --days "$DAYS" --step "$STEP" \
	--end "$END" --out "$work/fleet.om" --fill-dir "$work/fill.d" \
	$(sed -n 's/^What:[[:space:]]*/--what /p' "$TABLES" | head -n 4) >"$work/want"
rec I generate_s "$(since "$t")"
rec I series "$(sed -n 's/^series //p' "$work/want")"
rec I samples "$(sed -n 's/^samples //p' "$work/want")"
rec I openmetrics_bytes "$(stat -c %s "$work/fleet.om")"

echo "   prometheus: the hosts' DBs, merged"
t=$(now)
for f in "$work"/fill.d/*.fill; do
	build/tests/fill "$work/db-$(basename "$f" .fill).db" <"$f"
done
$A merge "$work"/db-*.db -o "$work/merged.db" >/dev/null
rm -f "$work"/db-*.db*
rec I fill_merge_s "$(since "$t")"
rec I db_bytes "$(stat -c %s "$work/merged.db")"

echo "   prometheus: promtool backfill"
t=$(now)
if ! prom_backfill "$work/fleet.om" "$work/tsdb" 2>"$work/promtool.err"; then
	rec F "prometheus: promtool could not backfill: $(tail -n 1 "$work/promtool.err")"
	exit 0
fi
rec I backfill_s "$(since "$t")"
rm -f "$work/fleet.om"
rec I blocks "$(find "$work/tsdb" -name meta.json | wc -l)"
rec I tsdb_bytes "$(du -sb "$work/tsdb" | cut -f1)"

PP=$(prom_ports 1)
URL=http://127.0.0.1:$PP
t=$(now)
prom_server "$PP" "$work/tsdb"
PROM=$PROM_PID
if ! PROM_WAIT=600 prom_ready "$URL"; then
	rec F "prometheus: the server did not start ($work/run/prometheus-$PP.log)"
	exit 0
fi
rec I ready_s "$(since "$t")"
mem() { sed -n "s/^$1:[[:space:]]*\([0-9]*\) kB/\1/p" "/proc/$PROM/status"; }
rec M prom_rss_start_kib "$(mem VmRSS)"

# The sides: check over Prometheus, and over the merged DB.
cmd() {
	case $1 in
	prom) echo "$A check -t $TABLES --root $work/root --prometheus $URL --quiet-days 30 --now @$END -j" ;;
	db) echo "$A check -t $TABLES --root $work/root -d $work/merged.db --quiet-days 30 --now @$END -j" ;;
	esac
}
SIDES="prom db"
# shellcheck disable=SC2086 # the sides, words
rec I sides $SIDES
for s in $SIDES; do rec I cmd "$s" "$(cmd "$s" | cut -d' ' -f2- | sed "s|$work|WORK|g; s|$URL|URL|")"; done

echo "   prometheus: both sides' verdicts first"
for s in $SIDES; do
	# shellcheck disable=SC2046,SC2091 # the command's words, run
	$(cmd "$s") >"$work/$s.json" 2>"$work/$s.err" || true
done
want=$(awk '$1 ~ /^(blocked|ready|no-data)$/ { printf "%s=%s%s ", $2, $1, $3 ? ":" $3 : "" }' "$work/want")
# shellcheck disable=SC2086 # the expectations
python3 tests/prom/compare.py "$work/db.json" "$work/prom.json" $want >"$work/diff" 2>&1 || true
rec C equal - differences 0 "$(wc -l <"$work/diff")"
sed -n '1,3s/^/I differs /p' "$work/diff" >>"$OUT"
rec I verdicts "$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))["summary"]
print(" ".join(f"{k}={v}" for k, v in sorted(d.items())))' "$work/db.json" 2>/dev/null || echo none)"

# shellcheck disable=SC2086
n=$(echo $SIDES | wc -w)
for r in $(seq "$RUNS"); do
	# shellcheck disable=SC2086
	order=$(echo $SIDES $SIDES | tr ' ' '\n' | sed -n "$(((r - 1) % n + 1)),+$((n - 1))p" | tr '\n' ' ')
	for s in $order; do
		# shellcheck disable=SC2046 # the command's words
		if t=$($TI -e 1 $(cmd "$s") 2>"$work/err"); then
			rec S "$s" wall "$r" "${t% *}"
			rec S "$s" cpu "$r" "${t#* }"
		else
			rec F "prometheus: $s: $(head -c 300 "$work/err")"
		fi
	done
	echo "   prometheus: round $r of $RUNS done"
done
rec M prom_hwm_kib "$(mem VmHWM)"
rec M prom_rss_kib "$(mem VmRSS)"
rec I tsdb_bytes_after "$(du -sb "$work/tsdb" | cut -f1)"
prom_stop "$PROM"
