#!/bin/sh
# Under full preemption a task can be preempted inside one of the tracer's
# programs, and the kernel then skips that program on that CPU for the task
# that preempted it (its recursion_misses). Those accesses cannot be
# counted; they must not vanish either: every access made is either counted
# or among the runs trace --status and the sync say were skipped. Booted with
# one CPU and preempt=full, so that skips happen:
#	tests/vm/run --timeout 600 --smp 1 --append preempt=full tests/guest/preempt.sh
# Ends with "preempt: N passed, N failed".
set -u
. "$(dirname "$0")/../lib.sh"

SECS=${1:-20}
A=$ABIDEP_REPO/build/abidep
KMOD=$ABIDEP_REPO/build/kmod/$KVER
PIN=/sys/fs/bpf/abidep
H=/tmp/stress-hammer
W=/tmp/preempt
DB=$W/usage.db
mkdir -p $W

section "setup"
check "full preemption ($(cat /sys/kernel/debug/sched/preempt 2>/dev/null))" \
	grep -q '(full)' /sys/kernel/debug/sched/preempt
check "build the load generator" make -s -C "$ABIDEP_REPO/tests" OUT=/tmp stress-hammer
check "abidep.ko loads" insmod "$KMOD/abidep.ko"
check "rc-loopback loads" modprobe rc-loopback
F=/sys/class/rc/rc0/current_protocol
check "trace --pin" "$A" trace --pin --db $DB

section "4 readers of $F for $SECS s on one CPU"
for i in 1 2 3 4; do
	$H r "$SECS" $F >$W/h.$i 2>&1 &
done
wait
made=$(cat $W/h.* | tr ' ' '\n' | sed -n 's/^\(opens\|reads\)=//p' | awk '{s += $1} END {print s + 0}')
check "the readers made accesses ($made)" test "$made" -gt 1000
missed=$("$A" trace --status -j | python3 -c 'import json, sys; print(json.load(sys.stdin)["missed"])')
# bpftool reads the same counter from each pinned program.
progs=0
for p in $PIN/prog_*; do
	n=$(bpftool -j prog show pinned "$p" | python3 -c 'import json, sys; print(json.load(sys.stdin).get("recursion_misses", 0))')
	progs=$((progs + n))
done
check "trace --status's skipped runs ($missed) are the programs' recursion_misses ($progs)" \
	test "$missed" = "$progs"
check "trace --status says so in words" \
	sh -c "$A trace --status | grep -q '^$missed runs skipped by the kernel'"
check "trace --stop warns of them" \
	sh -c "$A trace --stop --db $DB 2>$W/stop.err; test \$? = 0 && { test $missed = 0 || grep -q 'skipped the tracer $missed times' $W/stop.err; }"
counted=$("$A" report -j --db $DB | python3 -c '
import json, sys
print(sum(u["count"] for e in json.load(sys.stdin) for u in e["users"]
          if u["exe"].endswith("/stress-hammer") and u["op"] in ("open", "read")))')
echo "# made $made accesses, counted $counted, $missed runs skipped"
check "no access counted that was not made ($counted of $made)" test "$counted" -le "$made"
check "every access not counted is among the skipped runs ($made - $counted <= $missed)" \
	test $((made - counted)) -le "$missed"

section "after"
check "nothing pinned" test ! -e $PIN
check "rmmod abidep" rmmod abidep
finish preempt
