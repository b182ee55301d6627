#!/bin/sh
# Security, in the guest, as a non-root user (setpriv): what abidep keeps
# (state, counters, the names of other users' programs, the usage DB, the
# pinned tracer) cannot be read or changed without privileges, and the
# tracer says which capabilities it lacks. Every refusal has a positive
# control (root, or the right capabilities, can), so that a check cannot pass
# because the thing it tries is broken.
#	tests/vm/run --timeout 600 tests/guest/security.sh
# Ends with "security: N passed, N failed".
set -u
. "$(dirname "$0")/../lib.sh"

A=$ABIDEP_REPO/build/abidep
KMOD=$ABIDEP_REPO/build/kmod/$KVER
STATE=/sys/kernel/debug/abidep/state
CTL=/sys/kernel/abidep
PIN=/sys/fs/bpf/abidep
EX=/sys/devices/platform/abidep-ir-example
F=/sys/devices/system/cpu/cpuidle/current_governor_ro
U=1000		# the unprivileged user

user() { setpriv --reuid=$U --regid=$U --clear-groups --inh-caps=-all "$@"; }
# True if the user's command fails (and print nothing).
user_fails() { ! user "$@" >/dev/null 2>&1; }

section "setup"
# user_fails's control: the user's commands run, so that
# a refusal below is the subject's, not a broken setpriv's.
check "the unprivileged user runs commands (user_fails's control)" same "$(user id -u)" $U
check "abidep.ko loads" insmod "$KMOD/abidep.ko"
check "rc-loopback loads" modprobe rc-loopback
check "the example driver loads" insmod "$KMOD/examples/abidep_ir_example.ko"
RC=/sys/class/rc/rc0
# Someone else (root) uses the aliases: their names must not leak.
cp /bin/cat /tmp/secret-prog
/tmp/secret-prog $RC/current_protocol >/dev/null
/tmp/secret-prog $EX/current_protocol >/dev/null

section "the module's state and controls"
check "the state file is 0400 root" test "$(stat -c '%a %U' $STATE)" = "400 root"
check "root reads it, naming the program" grep -q 'secret-prog' $STATE
# debugfs itself may be reachable: the file's own mode must hold too.
chmod 755 /sys/kernel/debug
check "a user cannot read it, even with debugfs open to all" user_fails cat $STATE
chmod 700 /sys/kernel/debug
for f in "$CTL"/*; do
	m=$(stat -c '%a %U' "$f")
	check "$(basename "$f") is root's and nobody else may write it ($m)" \
		sh -c "test \"\$(stat -c %U '$f')\" = root && test \$((0\$(stat -c %a '$f') & 022)) = 0"
done
check "a user cannot rescan" user_fails sh -c "echo 1 >$CTL/rescan"
check "root can" sh -c "echo 1 >$CTL/rescan"
if [ -e $CTL/brownout ]; then
	check "a user cannot start a brownout" user_fails sh -c "echo 'rc/current_protocol 60 fail' >$CTL/brownout"
	# kernfs refuses reading a 0200 file even to root: what keeps the
	# control root's is its mode, checked as such.
	check "... the control is root's alone (0200 root)" same "$(stat -c '%a %U' $CTL/brownout)" "200 root"
	check "... and none started: the alias still reads" cat $RC/current_protocol
	check "root can start one" sh -c "echo 'rc/current_protocol 60 fail' >$CTL/brownout"
	check "... and its accesses fail" sh -c "! cat $RC/current_protocol 2>/dev/null"
	check "a user cannot end it" user_fails sh -c "echo 'rc/current_protocol off' >$CTL/brownout"
	check "... it goes on" sh -c "! cat $RC/current_protocol 2>/dev/null"
	check "root can end it" sh -c "echo 'rc/current_protocol off' >$CTL/brownout"
	check "... and the alias reads again" cat $RC/current_protocol
else
	echo "# no $CTL/brownout in this build: brownout not checked"
fi
for p in /sys/module/abidep/parameters/*; do
	[ -e "$p" ] || continue
	check "parameter $(basename "$p"): a user cannot change it" user_fails sh -c "echo 1 >$p"
done
check "a user cannot write an alias of a 0644 attribute" user_fails sh -c "echo nec >$RC/current_protocol"
check "... nor the example's" user_fails sh -c "echo nec >$EX/current_protocol"
check "... and root can" sh -c "echo nec >$EX/current_protocol"
check "every alias has its attribute's mode" sh -c "
	test \$(stat -c %a $RC/current_protocol) = \$(stat -c %a $RC/protocols) &&
	test \$(stat -c %a $RC/protocol) = \$(stat -c %a $RC/protocols) &&
	test \$(stat -c %a $EX/current_protocol) = \$(stat -c %a $EX/protocol)"
# The tracepoint's events name other users' programs: abidep relies on
# tracefs keeping them root's (its own mode, 0700), and says so here; a
# user's attempt would test tracefs, not abidep.
check "the abidep tracepoint is under tracefs's 0700 (root's alone)" \
	same "$(stat -c '%a %U' /sys/kernel/tracing)" "700 root"
check "... root can enable it" sh -c 'echo 1 >/sys/kernel/tracing/events/abidep/abidep_access/enable &&
	test "$(cat /sys/kernel/tracing/events/abidep/abidep_access/enable)" = 1 &&
	echo 0 >/sys/kernel/tracing/events/abidep/abidep_access/enable'

section "other users' program names"
check "the module logs the program (root sees it)" sh -c "dmesg | grep -q '(secret-prog) /tmp/secret-prog'"
check "dmesg_restrict is on" test "$(cat /proc/sys/kernel/dmesg_restrict)" = 1
check "a user cannot read the kernel log" user_fails dmesg
check "... nor /dev/kmsg" user_fails head -c 1 /dev/kmsg
check "a user cannot read the trace buffer" user_fails cat /sys/kernel/tracing/trace
check "... root can" sh -c 'cat /sys/kernel/tracing/trace >/dev/null'

section "the tracer: capabilities"
check "as a user: exit 3" sh -c "setpriv --reuid=$U --regid=$U --clear-groups $A trace --db /tmp/u.db 2>/tmp/err; test \$? = 3"
check "... naming what it needs" grep -q 'needs root, or CAP_BPF and CAP_PERFMON' /tmp/err
check "... and what it lacks" grep -q 'lacks CAP_BPF, CAP_PERFMON' /tmp/err
check "with CAP_BPF alone: exit 3, lacking CAP_PERFMON" sh -c "
	setpriv --reuid=$U --regid=$U --clear-groups --inh-caps=+bpf --ambient-caps=+bpf \
		$A trace --db /tmp/u.db 2>/tmp/err; test \$? = 3 && grep -q 'lacks CAP_PERFMON;' /tmp/err"
check "with CAP_BPF and CAP_PERFMON, as a user: it traces" sh -c "
	setpriv --reuid=$U --regid=$U --clear-groups --inh-caps=+bpf,+perfmon --ambient-caps=+bpf,+perfmon \
		$A trace -q --duration 2 --interval 1 --db /tmp/capdb/u.db"
check "--status as a user: exit 3" sh -c "setpriv --reuid=$U --regid=$U --clear-groups $A trace --status 2>/dev/null; test \$? = 3"
check "--stop as a user: exit 3" sh -c "setpriv --reuid=$U --regid=$U --clear-groups $A trace --stop 2>/dev/null; test \$? = 3"

section "the pinned tracer and the DB"
# bpffs open to all, as some systems mount it: the pins must hold alone.
umount /sys/fs/bpf
mount -t bpf -o mode=755 bpf /sys/fs/bpf
DB=/var/lib/abidep/usage.db
rm -rf /var/lib/abidep
check "trace --pin (umask 000, default DB)" sh -c "umask 000; $A trace --pin"
cat $F >/dev/null
/tmp/secret-prog $F >/dev/null
check "trace --sync (umask 000)" sh -c "umask 000; $A trace --sync"
# As the units run it: root, with no capability but CAP_BPF and CAP_PERFMON
# (CapabilityBoundingSet=): a sync replaces the usage map all the same.
cat $F >/dev/null
check "trace --sync with CAP_BPF and CAP_PERFMON alone, as abidep-sync.service" \
	setpriv --bounding-set=-all,+bpf,+perfmon --inh-caps=-all -- $A trace --sync
check "... which wrote the read" \
	test "$($A report -j | python3 -c 'import json,sys; print(sum(u["count"] for e in json.load(sys.stdin) for u in e["users"] if u["exe"] == "/usr/bin/cat" and u["op"] == "read"))')" = 2
check "... and left the map it put in place pinned, empty" sh -c "$A trace --status | grep -q ' 0 of 16384 usage keys;'"
check "the pin directory is 0700, root's" test "$(stat -c '%a %U' $PIN)" = "700 root"
check "every pin is 0600, root's" sh -c "! find $PIN -mindepth 1 ! -perm 600 | grep -q . && ! find $PIN ! -user root | grep -q ."
check "a user cannot list the pins" user_fails ls $PIN
check "... nor open the usage map" user_fails bpftool map dump pinned $PIN/usage
check "... nor unpin" user_fails rm -f $PIN/link_abidep_open
check "... still pinned" test -e $PIN/link_abidep_open
check "the DB directory is 0700, the DB 0600, even with umask 000" \
	test "$(stat -c %a /var/lib/abidep) $(stat -c %a $DB)" = "700 600"
check "WAL and shm files too, if any" sh -c "for f in $DB-wal $DB-shm; do [ ! -e \$f ] || test \$(stat -c %a \$f) = 600 || exit 1; done"
check "root's report names the program" sh -c "$A report | grep -q /tmp/secret-prog"
check "a user cannot read the DB" user_fails cat $DB
check "... nor report from it (exit 6)" sh -c "setpriv --reuid=$U --regid=$U --clear-groups $A report 2>/dev/null; test \$? = 6"
check "trace --stop" "$A" trace --stop
check "nothing left pinned" test ! -e $PIN

check "the kernel log has no report" sh -c "! dmesg | grep -qE 'BUG:|WARNING:|Oops'"
finish security
