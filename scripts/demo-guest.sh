#!/bin/sh
# make demo, inside the QEMU guest: a real rc device (rc-loopback) whose
# protocols attribute was once called current_protocol; abidep keeps the old
# name working and names the legacy program that still reads it.
set -eu
PATH=/usr/local/bin:$PATH
KMOD=$ABIDEP_REPO/build/kmod/$KVER

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
run() { echo "\$ $*"; "$@"; }

step "Debian's $(uname -r) kernel (make demo KVER=6.12 for the other one)"
step "Load abidep, then the rc-loopback driver (an unmodified rc-core driver)"
run insmod "$KMOD/abidep.ko"
run modprobe rc-loopback
RC=$(ls -d /sys/class/rc/rc* | head -n 1)
run ls "$RC"

step "Two clients: a legacy one still reading the 2.6.34 name, a modern one"
# Copies of cat under telling names, so the log can tell them apart.
cp /bin/cat /usr/local/bin/legacy-irctl
cp /bin/cat /usr/local/bin/modern-irctl
echo "$ legacy-irctl $RC/current_protocol"
/usr/local/bin/legacy-irctl "$RC/current_protocol"
echo "\$ modern-irctl $RC/protocols"
/usr/local/bin/modern-irctl "$RC/protocols"
echo "\$ echo nec > $RC/current_protocol    # writes still work, via protocols"
echo nec >"$RC/current_protocol"
run cat "$RC/protocols"

step "A driver that declares its own deprecation (kmod/examples)"
run insmod "$KMOD/examples/abidep_ir_example.ko"
EX=/sys/devices/platform/abidep-ir-example
echo "\$ cat $EX/protocol $EX/current_protocol"
cat $EX/protocol $EX/current_protocol
echo "\$ echo rc5 > $EX/current_protocol     # the old value format"
echo rc5 >$EX/current_protocol
run cat $EX/protocol

step "What the kernel log says (one line per program per entry per hour)"
dmesg | grep 'abidep:' | sed 's/^\[[ 0-9.]*\] //'

step "The state file: /sys/kernel/debug/abidep/state (root only)"
cat /sys/kernel/debug/abidep/state

step "The tracepoint, for perf and bpftrace: abidep:abidep_access"
echo 1 >/sys/kernel/tracing/events/abidep/abidep_access/enable
/usr/local/bin/legacy-irctl "$RC/current_protocol" >/dev/null
echo 0 >/sys/kernel/tracing/events/abidep/abidep_access/enable
grep abidep_access /sys/kernel/tracing/trace | sed 's/^ *//'

step "Stock kernel files nobody can alias, in sysfs and out: the BPF usage tracer"
A=$ABIDEP_REPO/build/abidep
run "$A" trace --pin --db /tmp/usage.db
echo "\$ cat /sys/devices/system/cpu/cpuidle/current_governor_ro   # obsolete since 2020"
cat /sys/devices/system/cpu/cpuidle/current_governor_ro
/usr/local/bin/legacy-irctl "$RC/current_protocol" >/dev/null
setpriv --reuid=65534 --regid=65534 --clear-groups cat /sys/devices/system/cpu/cpuidle/current_governor_ro >/dev/null
echo "\$ sysctl -w net.ipv6.neigh.default.retrans_time=100   # deprecated for retrans_time_ms"
sysctl -q -w net.ipv6.neigh.default.retrans_time=100
echo "\$ echo 0 > /proc/self/oom_adj   # deprecated for oom_score_adj since 2.6.36"
sh -c 'echo 0 >/proc/self/oom_adj'
run "$A" trace --stop --db /tmp/usage.db
run "$A" report --db /tmp/usage.db

step "The distribution's question: may the release remove them? (abidep check)"
# The tracer ran for seconds, not the 30-day quiet window: what was used is
# blocked, what was not has no data yet. Only exit 0 means remove.
for e in /sys/class/rc/rcN/current_protocol current_governor_ro; do
	st=0
	run "$A" check --db /tmp/usage.db --entry "$e" || st=$?
	echo "(exit $st: 1 blocked, 12 no data, 13 not due; only 0 means remove)"
done

rmmod abidep_ir_example abidep
echo
echo "demo: done; the legacy programs are named above, the modern ones are not."
