# Helpers for the suites that run abidep against a real Prometheus
# (tests/cli/prometheus.sh, tests/cli/prom-backfill.sh,
# scripts/bench-prometheus.sh): free loopback ports, node_exporters serving
# textfile directories, one Prometheus scraping them (or reading backfilled
# blocks), bounded waits until everything is up and scraped, and the stop of
# every process started here.
#
#	. tests/prom/lib.sh
#	prom_init DIR            state under DIR; call prom_cleanup on exit
#	prom_have                the binaries are installed
#	prom_ports N             N free loopback ports, one a line
#	prom_exporter PORT DIR   a node_exporter serving DIR's *.prom only
#	prom_server PORT TSDB [TARGET...]  a Prometheus over TSDB, scraping
#	                         each TARGET (HOST:PORT) every second, job
#	                         abidep, each target its own instance; none:
#	                         what TSDB holds (backfilled blocks)
#	prom_backfill FILE TSDB  OpenMetrics FILE into blocks in TSDB
#	prom_ready URL           until Prometheus answers
#	prom_wait URL UP [GEN]   until UP targets are up and scraped, and (GEN)
#	                         every one of their textfiles has mtime GEN
#	prom_until URL EXPR V    until the query EXPR gives V
#	prom_fake MODE=PORT...   servers answering badly (tests/prom/fake.py)
#	prom_forget URL TIME     delete the samples up to TIME
#	prom_stop PID            stop one process started here
#	prom_cleanup             stop them all
#
# Everything listens on 127.0.0.1 only. Each process is started directly
# (not in a subshell), so $! is its pid; the pids are kept in
# $PROM_DIR/pids. Bounded waits: PROM_WAIT seconds (default 30). Safe
# under set -e (scripts/bench-prometheus.sh).
# shellcheck shell=sh

PROM_BIN=${PROM_BIN:-/usr/bin/prometheus}
PROM_EXPORTER_BIN=${PROM_EXPORTER_BIN:-/usr/bin/prometheus-node-exporter}
PROM_TOOL=${PROM_TOOL:-/usr/bin/promtool}
PROM_WAIT=${PROM_WAIT:-30}
# Backfilled fleets span 90 days, before an hour or more ago.
PROM_RETENTION=${PROM_RETENTION:-100d}
PROM_PID=
# This file, for its neighbours (fake.py): the callers run from the repository.
PROM_LIB=${PROM_LIB:-tests/prom/lib.sh}

prom_init() {
	PROM_DIR=$1
	mkdir -p "$PROM_DIR"
	: >"$PROM_DIR/pids"
}

prom_have() {
	[ -x "$PROM_BIN" ] && [ -x "$PROM_EXPORTER_BIN" ] && [ -x "$PROM_TOOL" ] &&
		command -v python3 >/dev/null
}

# The kernel picks each port (bind to port 0); all are held until the last
# is picked, so that the N differ.
prom_ports() {
	python3 -c '
import socket, sys
s = [socket.socket() for _ in range(int(sys.argv[1]))]
for x in s:
    x.bind(("127.0.0.1", 0))
print("\n".join(str(x.getsockname()[1]) for x in s))
for x in s:
    x.close()' "$1"
}

prom_exporter() {
	"$PROM_EXPORTER_BIN" --web.listen-address="127.0.0.1:$1" \
		--collector.disable-defaults --collector.textfile \
		--collector.textfile.directory="$2" >"$PROM_DIR/exporter-$1.log" 2>&1 &
	PROM_PID=$!
	echo "$PROM_PID" >>"$PROM_DIR/pids"
}

# Retention PROM_RETENTION: the blocks of a 90-day backfilled fleet are kept.
prom_server() {
	_port=$1 _tsdb=$2
	shift 2
	{
		printf 'global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n'
		[ $# = 0 ] ||
			printf 'scrape_configs:\n  - job_name: abidep\n    static_configs:\n      - targets: ['
		_sep=
		for _t in "$@"; do
			printf "%s'%s'" "$_sep" "$_t"
			_sep=", "
		done
		[ $# = 0 ] || printf ']\n'
	} >"$PROM_DIR/prometheus-$_port.yml"
	"$PROM_BIN" --config.file="$PROM_DIR/prometheus-$_port.yml" \
		--storage.tsdb.path="$_tsdb" --storage.tsdb.retention.time="$PROM_RETENTION" \
		--web.listen-address="127.0.0.1:$_port" --web.enable-admin-api \
		>"$PROM_DIR/prometheus-$_port.log" 2>&1 &
	PROM_PID=$!
	echo "$PROM_PID" >>"$PROM_DIR/pids"
}

# prom_backfill FILE TSDB: promtool's blocks of 10 days (its hidden
# --max-block-duration; the default, 2 h, parses FILE once per 2 h of it:
# 1,080 times for 90 days), as Prometheus itself compacts them under a
# retention of 100 days (10% of it), so that it leaves them as they are.
prom_backfill() {
	"$PROM_TOOL" tsdb create-blocks-from openmetrics -q --max-block-duration=240h "$1" "$2"
}

# prom_fake MODE=PORT...: servers that answer as each MODE says, one
# process (tests/prom/fake.py); waits until the first PORT listens.
prom_fake() {
	python3 "$(dirname "$PROM_LIB")/fake.py" "$@" >"$PROM_DIR/fake.log" 2>&1 &
	PROM_PID=$!
	echo "$PROM_PID" >>"$PROM_DIR/pids"
	python3 - "${1#*=}" "$PROM_WAIT" <<'EOF'
import socket, sys, time
end = time.monotonic() + float(sys.argv[2])
while time.monotonic() < end:
    try:
        socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1).close()
        sys.exit(0)
    except OSError:
        time.sleep(0.1)
print(f"prom_fake: nothing listens on port {sys.argv[1]}", file=sys.stderr)
sys.exit(1)
EOF
}

# prom_wait URL UP [GEN]: Prometheus at URL is ready, UP of its targets are
# up and were scraped, none with a textfile it could not parse, and with
# GEN, UP textfiles (node_textfile_mtime_seconds) have the mtime GEN: the
# scrape after the files were last written. 1 and why, after PROM_WAIT s.
prom_wait() {
	python3 - "$1" "$2" "${3:-}" "$PROM_WAIT" <<'EOF'
import json, sys, time, urllib.parse, urllib.request
url, up, gen, limit = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
def get(path):
    with urllib.request.urlopen(url + path, timeout=2) as r:
        return json.load(r)
def q(expr):
    d = get("/api/v1/query?" + urllib.parse.urlencode({"query": expr}))
    return [float(x["value"][1]) for x in d["data"]["result"]]
end = time.monotonic() + limit
why = "not ready"
while time.monotonic() < end:
    try:
        t = get("/api/v1/targets")["data"]["activeTargets"]
        n = sum(1 for x in t if x["health"] == "up" and not x["lastScrape"].startswith("0001"))
        errs = q("node_textfile_scrape_error == 1")
        fresh = q(f"count(node_textfile_mtime_seconds == {gen})") if gen else [up]
        why = f"{n} of {len(t)} targets up, {len(errs)} with a textfile error, " \
              f"{fresh[0] if fresh else 0:.0f} textfiles of mtime {gen or '-'}, {up} wanted"
        if n == up and not errs and fresh and fresh[0] == up:
            sys.exit(0)
    except Exception as e:
        why = f"{url}: {e}"
    time.sleep(0.2)
print(f"prom_wait: {why} after {limit:.0f} s", file=sys.stderr)
sys.exit(1)
EOF
}

# prom_until URL EXPR VALUE: until the instant query EXPR's one value is
# VALUE, within PROM_WAIT s.
prom_until() {
	python3 - "$1" "$2" "$3" "$PROM_WAIT" <<'EOF'
import json, sys, time, urllib.parse, urllib.request
url, expr, want, limit = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
end = time.monotonic() + limit
got = None
while time.monotonic() < end:
    try:
        with urllib.request.urlopen(url + "/api/v1/query?" +
                                    urllib.parse.urlencode({"query": expr}), timeout=2) as r:
            res = json.load(r)["data"]["result"]
        got = [float(x["value"][1]) for x in res]
        if got == [want]:
            sys.exit(0)
    except Exception as e:
        got = e
    time.sleep(0.2)
print(f"prom_until: {expr}: {got}, not {want:g}, after {limit:.0f} s", file=sys.stderr)
sys.exit(1)
EOF
}

# prom_ready URL: Prometheus answers (/-/ready), within PROM_WAIT s.
prom_ready() {
	python3 - "$1" "$PROM_WAIT" <<'EOF'
import sys, time, urllib.request
end = time.monotonic() + float(sys.argv[2])
while time.monotonic() < end:
    try:
        with urllib.request.urlopen(sys.argv[1] + "/-/ready", timeout=2) as r:
            if r.status == 200:
                sys.exit(0)
    except Exception:
        pass
    time.sleep(0.2)
print(f"prom_ready: {sys.argv[1]} not ready after {sys.argv[2]} s", file=sys.stderr)
sys.exit(1)
EOF
}

# prom_forget URL TIME: delete every sample up to TIME (unix seconds,
# decimals allowed) from Prometheus at URL (the admin API): the scenario
# before is forgotten, the scrapes after TIME kept. Prometheus's discovery
# hands a new server its targets only after 5 s: one server for many
# scenarios, each writing its files, then forgetting the samples before.
prom_forget() {
	python3 - "$1" "$2" <<'EOF'
import sys, urllib.parse, urllib.request
url, t = sys.argv[1], sys.argv[2]
q = urllib.parse.urlencode({"match[]": '{__name__=~".+"}', "start": "0", "end": t})
for path in ("/api/v1/admin/tsdb/delete_series?" + q, "/api/v1/admin/tsdb/clean_tombstones"):
    req = urllib.request.Request(url + path, method="POST")
    with urllib.request.urlopen(req, timeout=30) as r:
        if r.status // 100 != 2:
            sys.exit(f"prom_forget: {path}: HTTP {r.status}")
EOF
}

# Stop PID (TERM; KILL after 10 s) if it is one of ours and still runs.
prom_stop() {
	grep -qx "$1" "$PROM_DIR/pids" 2>/dev/null || return 0
	if kill "$1" 2>/dev/null; then
		_i=0
		while kill -0 "$1" 2>/dev/null && [ $_i -lt 100 ]; do
			sleep 0.1
			_i=$((_i + 1))
		done
		kill -KILL "$1" 2>/dev/null || :
	fi
	wait "$1" 2>/dev/null || :
	sed -i "/^$1\$/d" "$PROM_DIR/pids"
}

prom_cleanup() {
	[ -n "${PROM_DIR:-}" ] && [ -f "$PROM_DIR/pids" ] || return 0
	for _p in $(cat "$PROM_DIR/pids"); do
		kill "$_p" 2>/dev/null || :
	done
	for _p in $(cat "$PROM_DIR/pids"); do
		prom_stop "$_p"
	done
}
