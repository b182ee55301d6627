#!/bin/sh
# Guest tests for abidep.ko and the example driver, on a supported kernel ($KVER)
# with a real rc device (rc-loopback). Run by `make check-vm`:
#	tests/vm/run tests/guest/module.sh
# Prints "ok"/"not ok" per check and ends with "guest: N passed, N failed".
set -u
. "$(dirname "$0")/../lib.sh"

KMOD=$ABIDEP_REPO/build/kmod/$KVER
STATE=/sys/kernel/debug/abidep/state
EX=/sys/devices/platform/abidep-ir-example

# Exact tallies of what this script did to the rc alias, to check counters.
rc_reads=0
rc_writes=0
rc_errors=0

rc_dev() { ls -d /sys/class/rc/rc* 2>/dev/null | head -n 1; }

# Field $3 of the state line of the entry renaming $1 to $2.
state_field() {
	grep "^old=$1 new=$2 " "$STATE" | tr ' ' '\n' | sed -n "s/^$3=//p"
}

# Write "$2\n" to file $1 in one write(2) (kernfs hands store() at most a
# page of it); print "rc:errno message" (rc 0 on success).
try_write() {
	printf '%s\n' "$2" >/tmp/val
	if err=$(dd if=/tmp/val of="$1" bs=1M count=1 status=none 2>&1); then
		echo "0:"
	else
		echo "1:${err##*: }"
	fi
}

# kmemleak (the debug kernel): what leaked before this suite is not its own.
KL=/sys/kernel/debug/kmemleak
[ -e $KL ] && echo clear >$KL

section "load: abidep first, then the rc device appears"
check "abidep.ko loads" insmod "$KMOD/abidep.ko"
check "the class with no device yet is reported" \
	dmesg_has 'abidep: class rc has no device yet'
check "modprobe rc-loopback" modprobe rc-loopback
RC=$(rc_dev)
check "rc device present ($RC)" test -n "$RC"
check "alias current_protocol appears on the late device" \
	test -f "$RC/current_protocol"
check "the alias has the new attribute's mode" \
	test "$(stat -c %a "$RC/current_protocol")" = "$(stat -c %a "$RC/protocols")"

section "reads through the alias"
new=$(cat "$RC/protocols")
old=$(cat "$RC/current_protocol")
rc_reads=$((rc_reads + 1))
check "alias reads the same as protocols ($new)" test "$old" = "$new"

section "writes through the alias behave as writes to protocols"
for val in "nec" "+rc-5" "-rc-5" "sony nec" "garbage" "" "+" "nec extra-garbage" \
	   "$(head -c 5000 /dev/zero | tr '\0' 'x')"; do
	printf '%s' "lirc" >"$RC/protocols"
	r_new=$(try_write "$RC/protocols" "$val")
	s_new=$(cat "$RC/protocols")
	printf '%s' "lirc" >"$RC/protocols"
	r_old=$(try_write "$RC/current_protocol" "$val")
	rc_writes=$((rc_writes + 1))
	case $r_old in 1:*) rc_errors=$((rc_errors + 1)) ;; esac
	s_old=$(cat "$RC/protocols")
	short=$(printf '%.20s' "$val")
	check "write '$short': same result ($r_new)" test "$r_old" = "$r_new"
	check "write '$short': same state" test "$s_old" = "$s_new"
done
check "a garbage write fails with EINVAL through the alias" \
	sh -c "! printf garbage > '$RC/current_protocol'"
rc_writes=$((rc_writes + 1))
rc_errors=$((rc_errors + 1))

section "log lines name the process"
# The writes above, through the alias, by dd: a writer is logged as one.
check "a write through the alias is logged, as written, naming the writer" \
	sh -c "dmesg | grep -q 'current_protocol is deprecated since .*: written by pid [0-9]* (dd) /usr/bin/dd\$'"
dmesg -C
cp /bin/cat /tmp/ir-keytable
# exec keeps the pid: the log line must name this very process.
sh -c 'echo $$ >/tmp/pid; exec /tmp/ir-keytable "$1" >/dev/null' sh "$RC/current_protocol"
rc_reads=$((rc_reads + 1))
pid=$(cat /tmp/pid)
path=/sys/class/rc/$(basename "$RC")/current_protocol
expect="abidep: $path is deprecated since 2010-04-08, removal after 2012-04-08, use protocols: read by pid $pid (ir-keytable) /tmp/ir-keytable"
check "log line names pid $pid, comm and executable" dmesg_has_line "$expect"
/tmp/ir-keytable "$RC/current_protocol" >/dev/null
/tmp/ir-keytable "$RC/current_protocol" >/dev/null
rc_reads=$((rc_reads + 2))
check "the same program is logged once per interval" \
	test "$(dmesg | grep -c '(ir-keytable) /tmp/ir-keytable')" = 1
head -c 100 "$RC/current_protocol" >/dev/null
rc_reads=$((rc_reads + 1))
check "another program gets its own line" dmesg_has '(head) /usr/bin/head'
try_write "$RC/current_protocol" nec >/dev/null
rc_writes=$((rc_writes + 1))
# dd already wrote through the alias above: known, so not logged again.
check "a known writer is not logged again within the interval" \
	sh -c "! dmesg | grep -q 'written by pid'"
check "reads of protocols are not logged" sh -c "! dmesg | grep -q '/protocols is'"
# A newline in a program's name, and so in its comm: unescaped, it would end
# the line and plant one of the program's choosing. The planter is a user,
# as an attacker would be. Root has had its 5 lines of the log budget's
# window by now (cat, dd, sh, ir-keytable, head: users.c gives one uid at
# most half the window's 10), however fast the guest ran them; nobody's
# first line is within budget whatever the timing.
evil='/tmp/evil
abidep: forged'
cp /bin/cat "$evil"
evil_pid=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
	sh -c 'echo $$; exec "$2" "$1" >/dev/null' sh "$RC/current_protocol" "$evil")
rc_reads=$((rc_reads + 1))
check "a user's newline in the comm and the path is logged escaped (octal 012)" \
	dmesg_has_line "abidep: $path is deprecated since 2010-04-08, removal after 2012-04-08, use protocols: read by pid $evil_pid (evil\\012abidep: fo) /tmp/evil\\012abidep: forged"
check "no line of the log starts with the planted text (syslog(2) splits a record at its newlines)" \
	sh -c "! dmesg -S | sed 's/^\[[ 0-9.]*\] //' | grep -q '^abidep: fo'"

section "the state file"
check "state file exists, root only" test "$(stat -c %a "$STATE")" = 400
check "state has the rc entry" grep -q '^old=current_protocol new=protocols class=rc ' "$STATE"
check "reads counted exactly ($rc_reads)" test "$(state_field current_protocol protocols reads)" = "$rc_reads"
check "writes counted exactly ($rc_writes)" test "$(state_field current_protocol protocols writes)" = "$rc_writes"
check "failed accesses counted ($rc_errors)" test "$(state_field current_protocol protocols errors)" = "$rc_errors"
check "dates and overdue flag" grep -q 'class=rc owner=abidep deprecated=2010-04-08 remove_after=2012-04-08 overdue=1 ' "$STATE"
check "the users are listed" grep -q 'user=[0-9]*,0,ir-keytable,/tmp/ir-keytable,3,0,' "$STATE"
check "a user's name is escaped there too" \
	grep -qF ',65534,evil\012abidep:\040fo,/tmp/evil\012abidep:\040forged,1,0,' "$STATE"

section "due: the state file's overdue and abidep check agree, date by date"
# One meaning (kmod/when.c in both): the guest's clock set to each date, the
# module's overdue for each of its entries against check's due for the
# table entry of the same name. 2012-06 is the month-precision case.
A=$ABIDEP_REPO/build/abidep
"$A" trace --pin --db /tmp/due.db >/dev/null 2>&1 && "$A" trace --stop --db /tmp/due.db >/dev/null 2>&1
now=$(date +%s)
for d in 2012-04-08 2012-04-09 2012-06-01 2012-06-30 2012-07-01 2026-12-03; do
	date -u -s "$d 12:00:00" >/dev/null
	mod=$(tr ' ' '\n' <"$STATE" | sed -n 's/^old=//p; s/^overdue=//p' | paste -d ' ' - - | sort)
	tools=$("$A" check -j --db /tmp/due.db --now "${d}T12:00:00Z" \
		--tables "$ABIDEP_REPO/migration-tables" 2>/dev/null | python3 -c '
import json, os, sys
names = set(sys.argv[1].split())
for e in json.load(sys.stdin)["entries"]:
    for w in e["what"]:
        if w.startswith("/sys/class/rc/") and os.path.basename(w) in names:
            print(os.path.basename(w), int(e["due"]))' "$(echo "$mod" | cut -d ' ' -f 1)" | sort -u)
	check "on $d: overdue = check's due ($(echo "$mod" | tr '\n' ',' | sed 's/,$//'))" same "$mod" "$tools"
done
date -u -s "@$now" >/dev/null

section "the tracepoint"
T=/sys/kernel/tracing
echo 1 >$T/events/abidep/abidep_access/enable
echo >$T/trace
cat "$RC/current_protocol" >/dev/null
rc_reads=$((rc_reads + 1))
echo 0 >$T/events/abidep/abidep_access/enable
check "abidep:abidep_access fires on a read" \
	grep -q "abidep_access: path=$path old=current_protocol new=protocols op=read ret=" $T/trace

section "the example driver: the seed's rename with translate hooks"
check "example loads" insmod "$KMOD/examples/abidep_ir_example.ko"
check "protocol is a set: all protocols, nec enabled" \
	test "$(cat $EX/protocol)" = "rc-5 pulse-distance [nec]"
check "supported_protocols lists all" test "$(cat $EX/supported_protocols)" = "rc-5 pulse-distance nec"
check "current_protocol shows the old format (NEC)" test "$(cat $EX/current_protocol)" = NEC
check "old write 'rc5' is accepted" sh -c "echo rc5 > $EX/current_protocol"
check "... and sets protocol to rc-5 only" test "$(cat $EX/protocol)" = "[rc-5] pulse-distance nec"
check "... shown as RC-5 by the old name" test "$(cat $EX/current_protocol)" = RC-5
check "old write 'PD' (any case)" sh -c "echo PD > $EX/current_protocol"
check "... is pulse-distance" test "$(cat $EX/protocol)" = "rc-5 [pulse-distance] nec"
check "the old name took one value: a list is rejected" \
	sh -c "! echo 'nec rc-5' > $EX/current_protocol"
check "an unknown value is rejected" sh -c "! echo bogus > $EX/current_protocol"
check "... and nothing changed" test "$(cat $EX/protocol)" = "rc-5 [pulse-distance] nec"
check "the new name takes a list" sh -c "echo 'nec rc-5' > $EX/protocol"
check "... shown in order" test "$(cat $EX/protocol)" = "[rc-5] pulse-distance [nec]"
check "... and as its first by the old name" test "$(cat $EX/current_protocol)" = RC-5
check "the example's entry is in the state file, owned by it" \
	grep -q '^old=current_protocol new=protocol class=- owner=abidep_ir_example ' "$STATE"

section "the example's protocol is a typed set (typed/typed.h)"
# Each step: the write's result (try_write: "0:" or "1:<error>") and the
# exact read-back. A refused write must leave the set as it was. (4000
# bytes: store() sees them all; past a page kernfs says E2BIG itself.)
set_step() {
	check "protocol '$(printf %.24s "$1")': $2" test "$(try_write $EX/protocol "$1")" = "$2"
	check "... reads '$3'" test "$(cat $EX/protocol)" = "$3"
}
set_step none 0: "rc-5 pulse-distance nec"
check "... and the old name says Unknown" test "$(cat $EX/current_protocol)" = Unknown
set_step +nec 0: "rc-5 pulse-distance [nec]"
set_step "+rc-5 +pulse-distance" 0: "[rc-5] [pulse-distance] [nec]"
set_step -rc-5 0: "rc-5 [pulse-distance] [nec]"
set_step "-nec +NEC -pulse-distance" 0: "rc-5 pulse-distance [nec]"
set_step "none +rc-5" 0: "[rc-5] pulse-distance nec"
set_step pulse-distance 0: "rc-5 [pulse-distance] nec"
for bad in +bogus "+nec +bogus" "" + +none "nec,rc-5" NEC2 "[nec]" \
	   "$(head -c 4000 /dev/zero | tr '\0' 'x')"; do
	set_step "$bad" "1:Invalid argument" "rc-5 [pulse-distance] nec"
done
check "supported_protocols is read-only (0444)" test "$(stat -c %a $EX/supported_protocols)" = 444
check "protocol is 0644" test "$(stat -c %a $EX/protocol)" = 644
check "a user cannot write protocol" \
	sh -c "! setpriv --reuid=65534 --regid=65534 --clear-groups sh -c 'echo +nec > $EX/protocol' 2>/dev/null"
check "... nor change it" test "$(cat $EX/protocol)" = "rc-5 [pulse-distance] nec"
# +x/-x are read-modify-write: two writers toggling different protocols
# must never undo each other. Each loop ends on its "+". (With the old value
# read outside the lock, a mutant of kmod/typed/typed.c lost a change in 4 rounds
# out of 5: the example's apply hook sleeps, so the writers overlap.)
toggle() {
	i=0
	while [ $i -lt 300 ]; do
		echo "+$1" >$EX/protocol && echo "-$1" >$EX/protocol || exit 1
		i=$((i + 1))
	done
	echo "+$1" >$EX/protocol
}
for round in 1 2 3; do
	echo none >$EX/protocol
	toggle rc-5 & t1=$!
	toggle pulse-distance & t2=$!
	echo +nec >$EX/protocol
	wait $t1; r1=$?
	wait $t2; r2=$?
	check "concurrent togglers, round $round: every write succeeded" test "$r1$r2" = 00
	check "... and no change was lost" test "$(cat $EX/protocol)" = "[rc-5] [pulse-distance] [nec]"
done

section "unbind and rebind while a reader loops"
( while :; do cat $EX/current_protocol; done ) >/dev/null 2>&1 &
loop=$!
sleep 1
check "unbind the example device" sh -c "echo abidep-ir-example > /sys/bus/platform/drivers/abidep-ir-example/unbind"
check "the alias is gone with the binding" test ! -e $EX/current_protocol
check "bind again" sh -c "echo abidep-ir-example > /sys/bus/platform/drivers/abidep-ir-example/bind"
check "the alias is back" test -f $EX/current_protocol
exec 3<$EX/current_protocol
check "rmmod the example with the alias open and a reader looping" rmmod abidep_ir_example
check "a read of the open file fails cleanly" sh -c '! cat <&3 >/dev/null 2>&1'
exec 3<&-
kill $loop
wait $loop 2>/dev/null

section "rc device removal and module unloads while reading"
( while :; do cat /sys/class/rc/rc*/current_protocol; done ) >/dev/null 2>&1 &
loop=$!
sleep 1
check "rmmod rc-loopback while reading" rmmod rc-loopback
check "no alias left in /sys/class/rc" sh -c '! ls /sys/class/rc/*/current_protocol 2>/dev/null'
check "modprobe rc-loopback again" modprobe rc-loopback
sleep 1
RC=$(rc_dev)
check "the new device gets the alias ($RC)" test -f "$RC/current_protocol"
check "rmmod abidep while the alias is read" rmmod abidep
check "the alias went with abidep" test ! -e "$RC/current_protocol"
check "protocols still works" cat "$RC/protocols"
check "insmod abidep with the device present" insmod "$KMOD/abidep.ko"
check "the alias is added at load" test -f "$RC/current_protocol"
# The protocol writes above loaded decoders, which hold rc-core too.
check "rmmod rc-loopback and rc-core under abidep" \
	sh -c 'rmmod rc-loopback && lsmod | awk "/^ir_/ { print \$1 }" | xargs -r rmmod && rmmod rc-core'
check "rc-core is gone" test ! -e /sys/class/rc
check "modprobe rc-loopback (a new rc class)" modprobe rc-loopback
sleep 1
RC=$(rc_dev)
check "the alias follows the new class ($RC)" test -f "$RC/current_protocol"
check "and reads" cat "$RC/current_protocol"
kill $loop
wait $loop 2>/dev/null

section "permissions"
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
check "a user cannot read the state file" sh -c "! setpriv --reuid=65534 --regid=65534 --clear-groups cat $STATE 2>/dev/null"
check "a user cannot rescan" sh -c "! setpriv --reuid=65534 --regid=65534 --clear-groups sh -c 'echo 1 > /sys/kernel/abidep/rescan' 2>/dev/null"
check "a user can read the alias like protocols" nobody cat "$RC/current_protocol"
check "a user cannot write the alias (protocols is 0644)" \
	sh -c "! setpriv --reuid=65534 --regid=65534 --clear-groups sh -c 'echo nec > $RC/current_protocol' 2>/dev/null"
check "root can rescan" sh -c 'echo 1 > /sys/kernel/abidep/rescan'

section "a user churning its names evicts only its own users, never root's"
# The entry's users of uid 0 ("comm,exe"), sorted, from the state file.
# Fewer than half the 16 slots are root's here: a uid holding more than
# the churner would give up its least recently seen to it (the rule is a
# fair share, users.c).
root_users() {
	state_field current_protocol protocols user | awk -F, '$2 == 0 { print $3 "," $4 }' | sort
}
cat "$RC/current_protocol" >/dev/null
before=$(root_users)
ev0=$(state_field current_protocol protocols users_evicted)
# nobody reads the alias under 40 names (PR_SET_NAME), each a new user.
nobody python3 -c '
import ctypes, sys
libc = ctypes.CDLL(None)
for i in range(40):
    libc.prctl(15, b"churn%d" % i, 0, 0, 0)
    open(sys.argv[1]).read()' "$RC/current_protocol"
check "root's users before ($(echo "$before" | wc -l), cat among them) are all still there" \
	sh -c "echo '$before' | grep -q '^cat,/usr/bin/cat$' && test '$(root_users)' = '$before'"
check "... the churner evicted its own ($(($(state_field current_protocol protocols users_evicted) - ev0)) evictions)" \
	test "$(state_field current_protocol protocols users_evicted)" -gt "$ev0"
check "... and holds the rest of the 16 slots" \
	test "$(state_field current_protocol protocols users)" = 16

section "log_interval: its range, and what each extreme logs"
# Documentation/ABI/testing/sysfs-module-abidep: the seconds between two
# log lines for the same user of an entry; a new user is always logged. An
# unsigned int, parsed as the kernel parses one (kstrtouint): 0 to
# 4294967295. Each access due a line either prints it or, past the module's
# global limit (10 lines per 5 s), adds one to the state file's
# log_suppressed: lines plus suppressed is what log_interval decided.
LI=/sys/module/abidep/parameters/log_interval
suppressed() { sed -n '1s/^# abidep state v1 .* log_suppressed=\([0-9]*\)$/\1/p' "$STATE"; }
# The accesses of program /tmp/$1 (a cat) that were due a line so far.
decided() { echo $(($(dmesg | grep -c "($1) /tmp/$1\$") + $(suppressed))); }
# $1 reads of the rc alias by a new program /tmp/$2, $3 seconds apart.
reads_by() {
	cp /bin/cat /tmp/$2
	i=0
	while [ $i -lt "$1" ]; do
		[ $i = 0 ] || sleep "$3"
		/tmp/$2 "$RC/current_protocol" >/dev/null
		i=$((i + 1))
	done
	li_reads=$((li_reads + $1))
}
li_reads=0
r0=$(state_field current_protocol protocols reads)
for v in 0 1 4294967295; do
	check "log_interval $v: taken, and in the state file's header" \
		sh -c "echo $v >$LI && test \"\$(cat $LI)\" = $v && head -n 1 $STATE | grep -q ' log_interval=$v '"
done
echo 3600 >$LI
for bad in 4294967296 99999999999999999999; do
	check "log_interval $bad: ERANGE, unchanged" \
		test "$(try_write $LI $bad) $(cat $LI)" = "1:Numerical result out of range 3600"
done
for bad in -1 -0x1 abc 1.5 '' 12abc; do
	check "log_interval '$bad': EINVAL, unchanged" \
		test "$(try_write $LI "$bad") $(cat $LI)" = "1:Invalid argument 3600"
done
echo 0 >$LI
d0=$(decided li-zero)
reads_by 15 li-zero 0
check "log_interval 0: every access due a line (15 reads: $(($(decided li-zero) - d0)) logged or suppressed)" \
	test $(($(decided li-zero) - d0)) = 15
echo 1 >$LI
d0=$(decided li-one)
# Two reads by one process, the time between them measured by that process
# (the boot's clock read before and after, no exec between: a slow kernel
# makes its start-up slow, not this).
cp /bin/cat /tmp/li-one
/tmp/li-one /proc/uptime "$RC/current_protocol" "$RC/current_protocol" /proc/uptime >/tmp/li-one.out
gap_ms=$(awk 'NR == 1 { a = $1 } { b = $1 } END { printf "%d", (b - a) * 1000 }' /tmp/li-one.out)
li_reads=$((li_reads + 2))
sleep 1.5
reads_by 1 li-one 0
check "log_interval 1: two reads within $gap_ms ms, one line; one 1.5 s later, another" \
	test "$(($(decided li-one) - d0)) $((gap_ms < 1000))" = "2 1"
# The longest interval, and the smallest that would wrap to under a second
# in 32 bits (ceil(2^32 / HZ) for each HZ Kconfig offers: 100, 250, 300,
# 1000): the interval is seconds * HZ in jiffies, an unsigned long.
for v in 4294967295 42949673 17179870 14316558 4294968; do
	echo $v >$LI
	d0=$(decided li-$v)
	reads_by 2 li-$v 1.2
	check "log_interval $v: the new user logged, not again 1.2 s later" test $(($(decided li-$v) - d0)) = 1
done
echo 3600 >$LI
check "the alias's reads all counted, logged or not ($li_reads)" \
	test "$(($(state_field current_protocol protocols reads) - r0))" = "$li_reads"

check "rmmod abidep at the end" rmmod abidep
check "no debugfs or sysfs left behind" sh -c '! test -e /sys/kernel/debug/abidep && ! test -e /sys/kernel/abidep'
check "log_interval=-1 at load: refused, and said" sh -c "! insmod $KMOD/abidep.ko log_interval=-1 2>/dev/null && ! test -e /sys/module/abidep &&
	dmesg | grep -qF \"abidep: \\\`-1' invalid for parameter \\\`log_interval'\""
for bad in 4294967296 abc; do
	check "log_interval=$bad at load: refused" sh -c "! insmod $KMOD/abidep.ko log_interval=$bad 2>/dev/null && ! test -e /sys/module/abidep"
done
for v in 0 4294967295; do
	check "log_interval=$v at load: taken" sh -c "insmod $KMOD/abidep.ko log_interval=$v && test \"\$(cat /sys/module/abidep/parameters/log_interval)\" = $v && rmmod abidep"
done

# Everything above loaded and unloaded abidep, rc-core and rc-loopback, and
# the rc class went from under abidep's class interface and came back. A
# leak fails the run (tests/vm/run's kernel reports); its objects are shown.
section "leaks (kmemleak, on the debug kernel)"
case $(uname -r) in
*-abidep-debug) check "the debug kernel has kmemleak" test -e $KL ;;
esac
if [ -e $KL ]; then
	# kmemleak reports only objects older than 5 s.
	sleep 6
	echo scan >$KL
	echo scan >$KL
	check "kmemleak: nothing leaked" sh -c "! grep -q unreferenced $KL"
	sed 's/^/# /' $KL | head -n 60
fi

finish module
