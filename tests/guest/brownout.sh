#!/bin/sh
# Guest tests of brownouts (kmod/brownout.c, abidep brownout): a reader that
# still uses an old name fails during the window, exactly as often as the
# module and the tracer say, and is named by abidep report; the alias works
# again afterwards; bad input is refused with its own error; device removal
# and module unloads in the middle of a window leave nothing wrong.
#	tests/vm/run --timeout 900 tests/guest/brownout.sh
# Ends with "brownout: N passed, N failed".
set -u
. "$(dirname "$0")/../lib.sh"

A=$ABIDEP_REPO/build/abidep
KMOD=$ABIDEP_REPO/build/kmod/$KVER
STATE=/sys/kernel/debug/abidep/state
CTL=/sys/kernel/abidep/brownout
DB=/tmp/usage.db
READER=/tmp/legacy-irctl

rc_dev() { ls -d /sys/class/rc/rc* 2>/dev/null | head -n 1; }

# Field $1 of the rc table entry's state line.
field() {
	grep '^old=current_protocol new=protocols class=rc ' "$STATE" |
		tr ' ' '\n' | sed -n "s/^$1=//p"
}

# Write "$1\n" to the control in one write(2); print "ok" or the error.
ctl() {
	printf '%s\n' "$1" >/tmp/ctl
	if err=$(dd if=/tmp/ctl of=$CTL bs=4096 count=1 status=none 2>&1); then
		echo ok
	else
		echo "${err##*: }"
	fi
}

# Run the tool; print its exit status, its output in /tmp/out.
tool() {
	"$A" "$@" >/tmp/out 2>&1
	echo $?
}

tool_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups "$A" "$@" >/tmp/out 2>&1
	echo $?
}

# Wait up to $2 seconds for the rc entry's window to be $1.
wait_mode() {
	i=0
	while [ "$(field brownout)" != "$1" ] && [ $i -lt $(($2 * 10)) ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ "$(field brownout)" = "$1" ]
}

# The tracer's rows for file $1, executable $2: "op count errors", sorted.
rows() {
	"$A" report -j --db $DB | python3 -c '
import json, sys
f, exe = sys.argv[1], sys.argv[2]
out = []
for e in json.load(sys.stdin):
    if f in e["files"]:
        for u in e["users"]:
            if u["exe"] == exe:
                out.append("%s %d %d" % (u["op"], u["count"], u["errors"]))
print("\n".join(sorted(out)))' "$1" "$2"
}

# A program that still reads the old name, counting its own results until
# /tmp/stop appears: "successes failures" in /tmp/reader.counts.
reader() {
	ok=0
	fail=0
	while [ ! -e /tmp/stop ]; do
		if $READER "$ALIAS" >/dev/null 2>&1; then
			ok=$((ok + 1))
		else
			fail=$((fail + 1))
		fi
	done
	echo "$ok $fail" >/tmp/reader.counts
}

section "the control"
check "abidep.ko loads" insmod "$KMOD/abidep.ko"
check "modprobe rc-loopback" modprobe rc-loopback
RC=$(rc_dev)
ALIAS=$RC/current_protocol
check "the alias is there ($ALIAS)" test -f "$ALIAS"
check "the control is write-only, root only" test "$(stat -c %a $CTL)" = 200
check "the state file shows no window" \
	test "$(field brownout) $(field brownout_until) $(field brownout_failed)" = "off - 0"

section "the module refuses bad input, each with its error"
check "unknown entry: ENOENT" test "$(ctl 'no_such_name 5')" = "No such file or directory"
check "unknown qualifier: ENOENT" test "$(ctl 'usb/current_protocol 5')" = "No such file or directory"
for bad in 'current_protocol 0' 'current_protocol -5' 'current_protocol +5' \
	   'current_protocol 0s' 'current_protocol 86401' 'current_protocol 25h' \
	   'current_protocol 5x' 'current_protocol 1500ms' 'current_protocol 1.5m' \
	   'current_protocol 5 bogus' 'current_protocol 5 fail x' \
	   'current_protocol  5' ' current_protocol 5' 'current_protocol 5 ' \
	   'current_protocol' 'current_protocol off 5' ''; do
	check "'$bad': EINVAL" test "$(ctl "$bad")" = "Invalid argument"
done
check "an overlong line: EINVAL" \
	test "$(ctl "$(head -c 600 /dev/zero | tr '\0' x) 5")" = "Invalid argument"
check "a user cannot open the control: EACCES" \
	sh -c "! setpriv --reuid=65534 --regid=65534 --clear-groups sh -c 'echo current_protocol 5 > $CTL' 2>/tmp/err && grep -q 'Permission denied' /tmp/err"
check "nothing started" sh -c "test \"\$(dmesg | grep -c 'brownout of')\" = 0"
check "'NAME off' with no window is a no-op" test "$(ctl 'current_protocol off')" = ok

section "the tool refuses bad input, each with its exit status"
check "bad duration '5x': exit 2" test "$(tool brownout current_protocol --for 5x)" = 2
check "... saying what a duration is" \
	grep -qxF "abidep: bad duration '5x': use N, Ns, Nm or Nh (30s, 5m, 2h), from 1s to 24h" /tmp/out
for bad in 0 0s 25h 86401 -5s '' 1.5m; do
	check "bad duration '$bad': exit 2" test "$(tool brownout current_protocol --for "$bad")" = 2
done
check "no duration: exit 2" test "$(tool brownout current_protocol)" = 2
check "bad mode: exit 2" test "$(tool brownout current_protocol --for 5s --mode off)" = 2
check "unknown entry: exit 10" test "$(tool brownout no_such_name --for 5s)" = 10
# Every entry, as CLASS/OLD, from the state file, in its order.
known=$(grep -v '^#' "$STATE" | sed 's/^old=\([^ ]*\) new=[^ ]* class=\([^ ]*\) .*/\2\/\1/' | paste -sd, | sed 's/,/, /g')
check "... listing the known ones ($known)" \
	grep -qxF "abidep: no entry 'no_such_name' in the abidep module. Known entries: $known" /tmp/out
check "not root: exit 3" \
	test "$(tool_nobody brownout current_protocol --for 5s)" = 3
check "... saying so" grep -q 'brownouts need root' /tmp/out

section "a fail window: the reader fails, and is named"
check "trace --pin" "$A" trace --pin --db $DB
cp /bin/cat $READER
rm -f /tmp/stop /tmp/reader.counts
reader &
rpid=$!
sleep 2
t0=$(date +%s)
# An hour, ended by the test (--off) once its checks ran: a slow kernel
# makes them slow, not shorter than the window. The end by the clock
# has its own window below.
check "abidep brownout current_protocol --for 1h: exit 0" \
	test "$(tool brownout current_protocol --for 1h)" = 0
t1=$(date +%s)
check "... says what it did" \
	grep -qxF "brownout of current_protocol: fail for 3600 s (the module ends it; --status shows it)" /tmp/out
check "the state file shows the window" test "$(field brownout)" = fail
until=$(field brownout_until)
check "... until start + 3600 s" test "$until" -ge $((t0 + 3600)) -a "$until" -le $((t1 + 3600))
check "the kernel log says it started" \
	dmesg_has_line "abidep: brownout of rc/current_protocol started: fail for 3600 s, accesses return ENODEV"
check "--status shows it" sh -c "$A brownout --status | grep -Eq '^rc/current_protocol +fail +[0-9]+s +[0-9]+\$'"
my_fail=0
check "a read of the alias fails with ENODEV" \
	sh -c "! cat $ALIAS 2>/tmp/err && grep -q 'No such device' /tmp/err"
my_fail=$((my_fail + 1))
printf nec >/tmp/val
check "a write of the alias fails with ENODEV" \
	sh -c "! dd if=/tmp/val of=$ALIAS status=none 2>/tmp/err && grep -q 'No such device' /tmp/err"
my_fail=$((my_fail + 1))
check "the new name works meanwhile" cat "$RC/protocols"
check "--off ends it" test "$(tool brownout current_protocol --off)" = 0
failed=$(field brownout_failed)
check "the kernel log says it ended, with the count" \
	dmesg_has_line "abidep: brownout of rc/current_protocol ended (turned off): $failed accesses failed, 0 alias files restored"
check "the state file shows no window, the count stays" \
	test "$(field brownout_until)" = -
sleep 2
touch /tmp/stop
wait $rpid
read -r r_ok r_fail </tmp/reader.counts
echo "# reader: $r_ok reads worked, $r_fail failed"
check "the reader failed during the window" test "$r_fail" -gt 0
check "the module counted exactly the failures (reader $r_fail + ours $my_fail)" \
	test "$failed" = $((r_fail + my_fail))
check "... and as errors of the entry" test "$(field errors)" = $((r_fail + my_fail))
check "the alias works again" same "$(cat "$ALIAS")" "$(cat "$RC/protocols")"
check "trace --sync" "$A" trace --sync --db $DB
check "the tracer has exactly the reader's reads and failures" \
	test "$(rows "$ALIAS" $READER)" = "open $((r_ok + r_fail)) 0
read $((r_ok + r_fail)) $r_fail"
# cat read the alias twice: in the window (failed) and after it.
check "... and our cat's reads, one failed" test "$(rows "$ALIAS" /usr/bin/cat | grep '^read')" = "read 2 1"
# BOOT: "-", or the stage and seconds after boot (a use during boot).
check "abidep report names the reader with its errors" \
	sh -c "$A report --by-host --db $DB | grep -Eq '^ +$READER +- +0 +[^ ]+ +read +by-name +(-|[a-z]+(, [+][0-9]+ s)?) +$((r_ok + r_fail)) +0 +$r_fail '"
check "trace --stop" "$A" trace --stop --db $DB

section "a window the module ends by itself"
check "--for 2s: exit 0" test "$(tool brownout current_protocol --for 2s)" = 0
check "the window ends by itself" wait_mode off 30
check "the kernel log says it ended, time up" \
	dmesg_has_line "abidep: brownout of rc/current_protocol ended (time up): 0 accesses failed, 0 alias files restored"

section "--wait, --off, busy"
s0=$(date +%s)
check "--for 3s --wait: exit 0" test "$(tool brownout rc/current_protocol --for 3s --wait)" = 0
s1=$(date +%s)
check "... waited for the window" test $((s1 - s0)) -ge 3
check "... and says how many accesses failed" \
	sh -c "tail -n 1 /tmp/out | grep -qxF 'brownout of rc/current_protocol over: 0 accesses failed'"
"$A" brownout current_protocol --for 1m --wait >/tmp/wait.out 2>&1 &
waiter=$!
check "--for 1m --wait: the window starts" wait_mode fail 15
kill -TERM $waiter
wait $waiter
check "SIGTERM to --wait: exit 0" test $? = 0
check "... the window is over" test "$(field brownout)" = off
check "... turned off" \
	dmesg_has_line "abidep: brownout of rc/current_protocol ended (turned off): 0 accesses failed, 0 alias files restored"
check "... and the count printed" \
	sh -c "tail -n 1 /tmp/wait.out | grep -qxF 'brownout of rc/current_protocol over: 0 accesses failed'"
dmesg -C
check "a 60 s window" test "$(tool brownout current_protocol --for 1m)" = 0
check "another one meanwhile: exit 11" test "$(tool brownout current_protocol --for 5s)" = 11
check "... saying how to end the first" grep -q "abidep brownout current_protocol --off' first" /tmp/out
check "the control says EBUSY" test "$(ctl 'current_protocol 5')" = "Device or resource busy"
check "--status -j" sh -c "$A brownout --status -j >/tmp/st.json"
check "... has the entry, in its window" python3 -c '
import json
e = [e for e in json.load(open("/tmp/st.json")) if e["entry"] == "rc/current_protocol"][0]
assert e["brownout"] == "fail" and e["until"] > 0 and e["failed"] == 0 and e["aliases"] == 1, e
assert e["class"] == "rc" and e["owner"] == "abidep" and e["new"] == "protocols", e'
check "--off: exit 0" test "$(tool brownout current_protocol --off)" = 0
check "the window is over" test "$(field brownout)" = off
check "the kernel log says why" \
	dmesg_has_line "abidep: brownout of rc/current_protocol ended (turned off): 0 accesses failed, 0 alias files restored"
check "the alias reads" cat "$ALIAS"
check "a new window can start" test "$(ctl 'current_protocol 60')" = ok
check "... and stop" test "$(ctl 'current_protocol off')" = ok

section "a hide window, with the device going and coming"
check "hide for 60 s" test "$(tool brownout current_protocol --for 60s --mode hide)" = 0
check "the kernel log counts the files removed" \
	dmesg_has_line "abidep: brownout of rc/current_protocol started: hide for 60 s, 1 alias files removed"
check "the alias file is gone" test ! -e "$ALIAS"
check "an open fails as for a removed file (ENOENT)" \
	sh -c "! cat $ALIAS 2>/tmp/err && grep -q 'No such file or directory' /tmp/err"
check "the new name works" cat "$RC/protocols"
check "rmmod rc-loopback in the window" rmmod rc-loopback
check "modprobe rc-loopback in the window" modprobe rc-loopback
sleep 1
RC=$(rc_dev)
ALIAS=$RC/current_protocol
check "the new device's alias is hidden too" test ! -e "$ALIAS"
check "one alias, hidden" test "$(field aliases) $(field brownout)" = "1 hide"
check "--off restores it" test "$(tool brownout current_protocol --off)" = 0
check "the alias is back ($ALIAS)" test -f "$ALIAS"
check "with the new attribute's mode" test "$(stat -c %a "$ALIAS")" = "$(stat -c %a "$RC/protocols")"
check "and reads as protocols" same "$(cat "$ALIAS")" "$(cat "$RC/protocols")"
check "the kernel log counts the files restored" \
	dmesg_has_line "abidep: brownout of rc/current_protocol ended (turned off): 0 accesses failed, 1 alias files restored"
check "hide for 2 s" test "$(ctl 'current_protocol 2 hide')" = ok
check "gone" test ! -e "$ALIAS"
check "back when the time is up" wait_mode off 15
check "the file is there" test -f "$ALIAS"
check "the kernel log says time up" \
	dmesg_has_line "abidep: brownout of rc/current_protocol ended (time up): 0 accesses failed, 1 alias files restored"

section "rmmod abidep in a window"
rm -f /tmp/stop
( while [ ! -e /tmp/stop ]; do cat "$ALIAS"; done ) >/dev/null 2>&1 &
loop=$!
check "fail for 60 s, a reader looping" test "$(ctl 'current_protocol 60 fail')" = ok
sleep 1
check "rmmod abidep" rmmod abidep
check "the kernel log ends the window" \
	dmesg_has "abidep: brownout of rc/current_protocol ended (entry unregistered): "
check "nothing left: alias, control, state" \
	sh -c "test ! -e $ALIAS -a ! -e /sys/kernel/abidep -a ! -e /sys/kernel/debug/abidep"
check "the tool says the module is not loaded: exit 9" \
	test "$(tool brownout current_protocol --for 5s)" = 9
check "... and how to load it" grep -q "run 'modprobe abidep' first" /tmp/out
check "insmod abidep again" insmod "$KMOD/abidep.ko"
check "the alias is back and reads" same "$(cat "$ALIAS")" "$(cat "$RC/protocols")"
check "no window" test "$(field brownout) $(field brownout_failed)" = "off 0"
check "hide for 60 s" test "$(ctl 'current_protocol 60 hide')" = ok
check "rmmod abidep with the alias hidden" rmmod abidep
check "insmod abidep again" insmod "$KMOD/abidep.ko"
check "the alias is there, not hidden" test -f "$ALIAS"
touch /tmp/stop
wait $loop

section "the example driver: an ambiguous name, its module unloaded in a window"
EX=/sys/devices/platform/abidep-ir-example
check "the example loads" insmod "$KMOD/examples/abidep_ir_example.ko"
check "'current_protocol' alone is ambiguous: ENOTUNIQ" \
	test "$(ctl 'current_protocol 5')" = "Name not unique on network"
check "the tool: exit 10" test "$(tool brownout current_protocol --for 5s)" = 10
check "... listing both" \
	grep -qxF "abidep: 'current_protocol' names several entries; use one of: rc/current_protocol, abidep_ir_example/current_protocol" /tmp/out
check "hide the example's for 60 s" \
	test "$(tool brownout abidep_ir_example/current_protocol --for 60s --mode hide)" = 0
check "its alias is gone" test ! -e $EX/current_protocol
check "rc's is not" test -f "$ALIAS"
check "rmmod the example in the window" rmmod abidep_ir_example
check "the kernel log ends the window" \
	dmesg_has_line "abidep: brownout of abidep_ir_example/current_protocol ended (entry unregistered): 0 accesses failed, 0 alias files restored"
check "the example loads again" insmod "$KMOD/examples/abidep_ir_example.ko"
check "its alias is there" test -f $EX/current_protocol
check "rmmod the example" rmmod abidep_ir_example
check "rmmod abidep at the end" rmmod abidep

finish brownout
