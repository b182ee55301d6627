#!/bin/sh
# Stress, in the guest: processes reading and writing the aliases and the new
# attributes of the example driver and of rc-loopback, with the tracer
# attached, for SECONDS in all (the argument, else $STRESS_SECONDS, else 40;
# `make stress` runs 300):
#
#  a. counted (2/5 of the time): nothing is removed; every process counts
#     what it did, and the module's state file and the tracer's report must
#     hold exactly those numbers.
#  b. churn (the rest): the same load, tolerating errors, while the example
#     device is unbound and rebound, the example and abidep.ko are unloaded
#     and reloaded, rc-loopback is unloaded and reloaded, and rescans are
#     written, under a live tracer following the uevents.
#
# Pass: exact counts in (a); in both, no BUG, WARNING, Oops, lockdep or
# hung-task report in the kernel log (checked here and by tests/vm/run).
#	tests/vm/run --timeout 900 tests/guest/stress.sh [SECONDS]
# (the guest gets no environment from the host: pass SECONDS as an argument)
# Ends with "stress: N passed, N failed".
set -u
. "$(dirname "$0")/../lib.sh"

SECS=${1:-${STRESS_SECONDS:-40}}
A=$ABIDEP_REPO/build/abidep
KMOD=$ABIDEP_REPO/build/kmod/$KVER
STATE=/sys/kernel/debug/abidep/state
EX=/sys/devices/platform/abidep-ir-example
EXDRV=/sys/bus/platform/drivers/abidep-ir-example
H=/tmp/stress-hammer
W=/tmp/stress
mkdir -p $W

case $SECS in '' | *[!0-9]*) echo "stress: the duration must be a number of seconds, not '$SECS'"; exit 2 ;; esac
SECS_A=$((SECS * 2 / 5))
SECS_B=$((SECS - SECS_A))

# Field $3 of the state line of the entry renaming $1 to $2.
state_field() {
	grep "^old=$1 new=$2 " "$STATE" | tr ' ' '\n' | sed -n "s/^$3=//p"
}

# Sum of field $1 over the hammer outputs $2...
sum() {
	f=$1
	shift
	cat "$@" | tr ' ' '\n' | sed -n "s/^$f=//p" | awk '{s += $1} END {print s + 0}'
}

# The tracer's count for file $2 and op $3 in DB $1, by the hammer only,
# as "count errors" (summed over its rows).
traced() {
	"$A" report -j --db "$1" | python3 -c '
import json, sys
f, op = sys.argv[1], sys.argv[2]
c = e = 0
for ent in json.load(sys.stdin):
    if f in ent["files"]:
        for u in ent["users"]:
            if u["exe"].endswith("/stress-hammer") and u["op"] == op:
                c += u["count"]; e += u["errors"]
print(c, e)' "$2" "$3"
}

# Kernel reports, also lockdep's and the hung-task detector's.
kernel_reports() {
	dmesg | grep -E 'BUG:|WARNING:|Oops|general protection|possible (circular|recursive) locking|inconsistent lock state|suspicious RCU usage|INFO: task .* blocked|hung_task|kernel BUG at|UBSAN:|KASAN:|detected stalls'
}

section "setup ($SECS s: counted $SECS_A s, churn $SECS_B s)"
check "build the load generator" make -s -C "$ABIDEP_REPO/tests" OUT=/tmp stress-hammer
# A task blocked for 20 s is a report (the default, 120 s, is longer than a run).
echo 20 >/proc/sys/kernel/hung_task_timeout_secs
check "abidep.ko loads" insmod "$KMOD/abidep.ko"
check "rc-loopback loads" modprobe rc-loopback
check "the example loads" insmod "$KMOD/examples/abidep_ir_example.ko"
RC=/sys/class/rc/rc0
check "rc0 has its aliases" test -f $RC/current_protocol -a -f $RC/protocol
# Load the NEC decoder now, not from the first write in the counted phase.
echo nec >$RC/protocols
# The example's alias is no table entry: a table file makes the tracer watch it.
mkdir -p $W/tables
cat >$W/tables/sysfs-abidep-ir-example <<'EOF'
The example driver's alias, watched by the tracer for the stress test.

What:		/sys/devices/platform/abidep-ir-example/current_protocol
Date:		April 2010
Contact:	abidep tests
Status:		deprecated
Deprecated:	2010-04-08
Remove-after:	2012-04-08
Replaced-by:	/sys/devices/platform/abidep-ir-example/protocol
Source:		kmod/examples/abidep_ir_example.c
Description:
		The example driver's old name for protocol.
EOF
TABLES="-t $ABIDEP_REPO/migration-tables -t $W/tables"
DB=$W/counted.db
# shellcheck disable=SC2086
check "trace --pin (tables + the example's alias)" "$A" trace --pin --db $DB $TABLES

section "a. counted: 10 processes for $SECS_A s, nothing removed"
# name mode file [value]; outputs in $W/a.name
start=$(date +%s)
# "name mode/MIN ...": the hammer goes on past $SECS_A s until MIN of its
# accesses worked, the load the check below needs however slow the kernel.
for spec in "rc-old-r1 r/500 $RC/current_protocol" "rc-old-r2 r/500 $RC/current_protocol" \
	"rc-old-w w/100 $RC/current_protocol nec" "rc-protocol-r r/1000 $RC/protocol" \
	"rc-new-r r $RC/protocols" "rc-new-w w $RC/protocols nec" \
	"ex-old-r r/1000 $EX/current_protocol" "ex-old-w w/100 $EX/current_protocol nec" \
	"ex-new-r r $EX/protocol" "ex-new-w w $EX/protocol nec"; do
	# shellcheck disable=SC2086
	set -- $spec
	name=$1
	shift
	min=0
	case $1 in */*) min=${1#*/} ;; esac
	$H "${1%/*}" $SECS_A/$min "$2" ${3:-} >$W/a.$name 2>&1 &
done
wait
elapsed_a=$(($(date +%s) - start))
check "every process did its work without an error" \
	sh -c "! grep -L 'open_errors=0 reads=[0-9]* read_errors=0 writes=[0-9]* write_errors=0' $W/a.* | grep ."
for f in $W/a.*; do echo "# ${f#$W/a.}: $(cat "$f")"; done
check "trace --sync" "$A" trace --sync --db $DB

rc_r=$(sum reads $W/a.rc-old-r1 $W/a.rc-old-r2)
rc_w=$(sum writes $W/a.rc-old-w)
rc_o=$(sum opens $W/a.rc-old-r1 $W/a.rc-old-r2 $W/a.rc-old-w)
p_r=$(sum reads $W/a.rc-protocol-r)
p_o=$(sum opens $W/a.rc-protocol-r)
ex_r=$(sum reads $W/a.ex-old-r)
ex_w=$(sum writes $W/a.ex-old-w)
ex_o=$(sum opens $W/a.ex-old-r $W/a.ex-old-w)
total_a=$(sum opens $W/a.*)
total_a=$((total_a + $(sum reads $W/a.*) + $(sum writes $W/a.*)))
# The example's writes sleep in its apply() (a stand-in for reprogramming
# hardware): fewer of them.
check "a real load: at least 1000 reads and 100 writes through each alias" \
	test "$rc_r" -ge 1000 -a "$rc_w" -ge 100 -a "$p_r" -ge 1000 -a "$ex_r" -ge 1000 -a "$ex_w" -ge 100

check "module: rc current_protocol reads = $rc_r" test "$(state_field current_protocol protocols reads)" = "$rc_r"
check "module: rc current_protocol writes = $rc_w" test "$(state_field current_protocol protocols writes)" = "$rc_w"
check "module: rc protocol reads = $p_r, writes 0" \
	test "$(state_field protocol protocols reads) $(state_field protocol protocols writes)" = "$p_r 0"
check "module: example current_protocol reads = $ex_r" test "$(state_field current_protocol protocol reads)" = "$ex_r"
check "module: example current_protocol writes = $ex_w" test "$(state_field current_protocol protocol writes)" = "$ex_w"
check "module: no errors counted" \
	same "$(grep -c ' errors=0 ' $STATE)" "$(grep -c '^old=' $STATE | grep -v '^0$')"

check "tracer: rc current_protocol opens = $rc_o" test "$(traced $DB $RC/current_protocol open)" = "$rc_o 0"
check "tracer: rc current_protocol reads = $rc_r" test "$(traced $DB $RC/current_protocol read)" = "$rc_r 0"
check "tracer: rc current_protocol writes = $rc_w" test "$(traced $DB $RC/current_protocol write)" = "$rc_w 0"
check "tracer: rc protocol opens = $p_o, reads = $p_r" \
	test "$(traced $DB $RC/protocol open) / $(traced $DB $RC/protocol read)" = "$p_o 0 / $p_r 0"
check "tracer: example current_protocol opens = $ex_o" test "$(traced $DB $EX/current_protocol open)" = "$ex_o 0"
check "tracer: example current_protocol reads = $ex_r" test "$(traced $DB $EX/current_protocol read)" = "$ex_r 0"
check "tracer: example current_protocol writes = $ex_w" test "$(traced $DB $EX/current_protocol write)" = "$ex_w 0"
check "tracer: the new attributes are not recorded" \
	test "$(traced $DB $RC/protocols open) $(traced $DB $EX/protocol open)" = "0 0 0 0"
hits=$((rc_o + rc_r + rc_w + p_o + p_r + ex_o + ex_r + ex_w))
check "tracer: $hits accesses in the DB, none dropped" \
	sh -c "test \"\$(sqlite3 $DB 'SELECT sum(count) FROM usage')\" = $hits && $A trace --status | grep -q ' 0 not recorded (map full), 0 not recorded (uid quota), 0 events lost'"
check "tracer: no run skipped by the kernel" sh -c "$A trace --status | grep -q '^0 runs skipped'"
check "trace --stop" "$A" trace --stop --db $DB
reports=$(kernel_reports)
check "the kernel log has no report after (a)" test -z "$reports"

section "b. churn: the same load, with devices and modules coming and going, $SECS_B s"
DB2=$W/churn.db
# shellcheck disable=SC2086
"$A" trace --db $DB2 --interval 2 $TABLES >$W/tracer.out 2>&1 &
tracer=$!
# The churn starts once the tracer is attached (it prints its header then):
# loading takes seconds, and minutes on a debug kernel.
t0=$(date +%s)
while kill -0 $tracer 2>/dev/null && ! grep -q '^OP ' $W/tracer.out &&
	[ $(($(date +%s) - t0)) -lt 300 ]; do
	sleep 0.2
done
check "the live tracer runs, attached after $(($(date +%s) - t0)) s" \
	sh -c "kill -0 $tracer && grep -q '^OP ' $W/tracer.out"
end=$(($(date +%s) + SECS_B))
for spec in "rc-old-r r /sys/class/rc/rc*/current_protocol" \
	"rc-old-w w /sys/class/rc/rc*/current_protocol nec" \
	"rc-protocol-r r /sys/class/rc/rc*/protocol" "rc-new-r r /sys/class/rc/rc*/protocols" \
	"rc-new-w w /sys/class/rc/rc*/protocols nec" "ex-old-r r $EX/current_protocol" \
	"ex-old-w w $EX/current_protocol nec" "ex-new-r r $EX/protocol" \
	"ex-new-w w $EX/protocol nec"; do
	# shellcheck disable=SC2086
	set -- $spec
	name=$1
	shift
	$H "$1" $SECS_B "$2" ${3:-} >$W/b.$name 2>&1 &
done

# Each loop appends one line per operation that succeeded to $W/ops.NAME.
ok() { "$@" >/dev/null 2>&1; }
(
	while [ "$(date +%s)" -lt $end ]; do
		for _ in 1 2 3; do
			ok sh -c "echo abidep-ir-example >$EXDRV/unbind" && echo >>$W/ops.unbind
			ok sh -c "echo abidep-ir-example >$EXDRV/bind" && echo >>$W/ops.bind
		done
		ok rmmod abidep_ir_example && echo >>$W/ops.ex-unload
		ok rmmod abidep && echo >>$W/ops.abidep-unload
		ok insmod "$KMOD/abidep.ko" && echo >>$W/ops.abidep-load
		ok insmod "$KMOD/examples/abidep_ir_example.ko" && echo >>$W/ops.ex-load
	done
) &
loop_a=$!
(
	while [ "$(date +%s)" -lt $end ]; do
		ok rmmod rc-loopback && echo >>$W/ops.rc-unload
		ok modprobe rc-loopback && echo >>$W/ops.rc-load
		sleep 0.2
	done
) &
loop_b=$!
(
	while [ "$(date +%s)" -lt $end ]; do
		ok sh -c 'echo 1 >/sys/kernel/abidep/rescan' && echo >>$W/ops.rescan
		sleep 0.5
	done
) &
loop_c=$!
wait $loop_a $loop_b $loop_c
sleep 1
# The hammers stop at the same deadline; a late one is stopped.
for p in $(jobs -p); do [ "$p" = "$tracer" ] || kill "$p" 2>/dev/null; done
sleep 1
check "the live tracer survived the churn" kill -0 $tracer
kill -INT $tracer
tstat=0
wait $tracer || tstat=$?
check "... and exits 0 on SIGINT" test $tstat = 0
[ $tstat = 0 ] || sed 's/^/#   tracer: /' $W/tracer.out
check "its DB is intact" test "$(sqlite3 $DB2 'PRAGMA integrity_check')" = ok
check "it recorded the load on the aliases" \
	sh -c "test \$(sqlite3 $DB2 \"SELECT count(*) FROM usage WHERE path LIKE '%/current_protocol'\") -gt 0"

n() { if [ -f "$W/ops.$1" ]; then wc -l <"$W/ops.$1"; else echo 0; fi; }
for op in unbind bind ex-unload ex-load abidep-unload abidep-load rc-unload rc-load rescan; do
	check "churn: $op done at least once ($(n $op))" test "$(n $op)" -ge 1
done
acc_b=$(($(sum opens $W/b.*) + $(sum reads $W/b.*) + $(sum writes $W/b.*)))
err_b=$(($(sum open_errors $W/b.*) + $(sum read_errors $W/b.*) + $(sum write_errors $W/b.*)))
check "churn: the load went on ($acc_b accesses, $err_b failed)" test "$acc_b" -ge 1000

section "after: everything still works and unloads"
lsmod | grep -q '^abidep ' || insmod "$KMOD/abidep.ko"
lsmod | grep -q '^abidep_ir_example ' || insmod "$KMOD/examples/abidep_ir_example.ko"
[ -e /sys/class/rc/rc0 ] || modprobe rc-loopback
sleep 1
[ -e $EX/driver ] || echo abidep-ir-example >$EXDRV/bind 2>/dev/null
check "the example's alias works" test "$(echo nec >$EX/current_protocol && cat $EX/current_protocol)" = NEC
RC=$(ls -d /sys/class/rc/rc* | head -n 1)
check "the rc alias reads like protocols" same "$(cat "$RC/current_protocol")" "$(cat "$RC/protocols")"
check "rmmod the example" rmmod abidep_ir_example
check "rmmod abidep" rmmod abidep
check "nothing left behind" sh -c '! test -e /sys/kernel/debug/abidep && ! test -e /sys/kernel/abidep'
reports=$(kernel_reports)
check "the kernel log has no BUG, WARNING, Oops, lockdep or hung-task report" test -z "$reports"
[ -z "$reports" ] || echo "$reports" | head -n 20 | sed 's/^/#   /'

echo "# figures: counted phase $elapsed_a s, 10 processes, $total_a accesses (opens, reads, writes), all counted exactly"
echo "# figures: churn phase $SECS_B s, 9 processes, $acc_b accesses ($err_b failed as devices went);" \
	"$(n unbind) unbinds, $(n bind) binds, $(n ex-unload) example unloads, $(n abidep-unload) abidep unloads," \
	"$(n rc-unload) rc-loopback unloads, $(n rescan) rescans"
finish stress
