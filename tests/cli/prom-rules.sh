#!/bin/sh
# Tests of the Prometheus rules abidep ships (contrib/prometheus/
# abidep.rules.yml): promtool checks them, and runs their unit tests
# (tests/prom/abidep.rules.test.yml: each rule firing and not); every rule
# has a test; and each rule, broken in a copy, makes the tests fail.
# Skipped, said, without promtool (make deps installs Debian's prometheus).
# Ends with "prom-rules: N passed, N failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
R=contrib/prometheus/abidep.rules.yml
U=tests/prom/abidep.rules.test.yml
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

if ! command -v promtool >/dev/null; then
	skip "promtool not installed (make deps installs prometheus): $R not checked"
	finish prom-rules
	exit
fi

section "promtool"
check "promtool check rules $R" sh -c "promtool check rules '$R' | grep -qx '  SUCCESS: 9 rules found'"
check "promtool test rules $U" promtool test rules "$U"

# Every recording rule and alert is named in the tests: a rule added without
# a test fails here.
section "every rule has a test"
for name in $(sed -n 's/^ *- \(record\|alert\): *//p' "$R"); do
	check "$name" grep -qF "$name" "$U"
done

# broken SED-SCRIPT: the rules with SED-SCRIPT applied (it must
# change them), in a copy laid out as the tree is, fail their tests.
mkdir -p "$T/contrib/prometheus" "$T/tests/prom"
cp "$U" "$T/$U"
broken() {
	sed -e "$1" "$R" >"$T/$R"
	if cmp -s "$R" "$T/$R"; then
		echo "the edit '$1' changed nothing"
		return 1
	fi
	if promtool test rules "$T/$U" >"$T/out" 2>&1; then
		echo "the tests passed with '$1'"
		return 1
	fi
}

section "each rule, broken, fails the tests"
check "uses per entry summed over hosts, not their max" broken \
	's/sum by (entry) (increase/max by (entry) (increase/'
check "uses per entry and exe by exe alone" broken \
	's/sum by (entry, exe) (increase/sum by (exe) (increase/'
check "uses per entry and host over 2 hours" broken \
	'/^        expr: sum by (entry, host)/s/\[1h\]/[2h]/'
check "the last use per entry and host the earliest" broken \
	's/max by (entry, host) (abidep_deprecated_access_last_seen/min by (entry, host) (abidep_deprecated_access_last_seen/'
check "the Remove-after per entry the earliest of the hosts'" broken \
	's/max by (entry) (abidep_entry_due_timestamp/min by (entry) (abidep_entry_due_timestamp/'
check "a use past Remove-after: the counter's increase not read" broken \
	's/increase1h > 0$/increase1h > 1000/'
check "a use past Remove-after: one at the date not counted" broken \
	's/>= on (entry) group_left/> on (entry) group_left/'
check "a use past Remove-after: a first use not seen" broken \
	's/_seconds:max > time() - 3600/_seconds:max > time() - 60/'
check "a use past Remove-after: joined on every host's Remove-after" broken \
	's/^            entry:abidep_entry_due_timestamp_seconds:max$/            abidep_entry_due_timestamp_seconds/'
check "not pinned: 10 minutes enough" broken \
	'/alert: AbidepTracerNotPinned/,/for:/s/for: 30m/for: 10m/'
check "not syncing: 2 hours needed" broken \
	's/abidep_tracer_session_last_sync_timestamp_seconds) > 3600/abidep_tracer_session_last_sync_timestamp_seconds) > 7200/'
check "not syncing: no time for a host back from a downtime" broken \
	'/alert: AbidepTracerNotSyncing/,/for:/s/for: 15m/for: 0m/'
check "not recorded: a counter reset read as a drop (delta)" broken \
	's/increase(abidep_tracer_unrecorded_total/delta(abidep_tracer_unrecorded_total/'
check "not recorded: skipped runs not read" broken \
	's/abidep_tracer_skipped_runs_total\[1h\])) > 0/abidep_tracer_skipped_runs_total[1h])) > 1000/'
check "not recorded: a first loss not seen" broken \
	's/lost_timestamp_seconds) > time() - 3600/lost_timestamp_seconds) > time() - 60/'

finish prom-rules
