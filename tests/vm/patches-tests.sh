#!/bin/sh
# Guest tests of the kernel series in patches/linux-6.12/, on the debug
# kernel that carries it (KVER=debug; scripts/patches-check.sh runs this):
# cpuidle's current_governor_ro is an in-tree alias of current_governor.
# A legacy reader must be named in the kernel log, in the line format of
# abidep.ko (the prefix aside: "sysfs: " for the in-tree alias), and by
# abidep report, the tracer watching the file from migration-tables/.
#	KVER=debug tests/vm/run tests/vm/patches-tests.sh
# Ends with "patches: N passed, N failed".
set -u
. "$(dirname "$0")/../lib.sh"

A=$ABIDEP_REPO/build/abidep
D=/sys/devices/system/cpu/cpuidle
F=$D/current_governor_ro
DB=/tmp/usage.db
LEGACY=/tmp/legacy-governor
mount -t debugfs none /sys/kernel/debug 2>/dev/null

section "the alias"
check "the kernel carries the series (sysfs_aliases in debugfs)" test -e /sys/kernel/debug/sysfs_aliases
check "current_governor_ro is there, 0444" same "$(stat -c %a $F)" 444
check "it reads what current_governor reads" same "$(cat $F)" "$(cat $D/current_governor)"
check "a write is refused, even from root" sh -c "! echo menu >$F"
check "the write is not counted as a read" sh -c "grep '^old=current_governor_ro ' /sys/kernel/debug/sysfs_aliases | grep -q ' writes=0 '"

section "a legacy reader, named by the kernel and by abidep report"
check "trace --pin" "$A" trace --pin --db $DB
# The legacy program: a copy of cat under its own name, so that its
# executable and comm are its own.
cp /usr/bin/cat $LEGACY
"$LEGACY" $F >/dev/null
"$LEGACY" $F >/dev/null
check "trace --stop" "$A" trace --stop --db $DB
line=$(dmesg | sed 's/^\[[ 0-9.]*\] //' | grep "^sysfs: $F is deprecated" | grep "($(basename $LEGACY))" | head -n 1)
pid=$(echo "$line" | sed -n 's/.* by pid \([0-9]*\) .*/\1/p')
check "the kernel log names the reader, in abidep.ko's format" \
	same "$line" "sysfs: $F is deprecated since 2020-04, removal after 2027-12, use current_governor: read by pid $pid (legacy-governor) $LEGACY"
check "once: its second read is within the log interval" \
	same "$(dmesg | grep -c "($(basename $LEGACY)) $LEGACY")" 1
check "debugfs counts it: reads and the user" sh -c "grep '^old=current_governor_ro ' /sys/kernel/debug/sysfs_aliases | grep -q ',legacy-governor,$LEGACY,2,0,'"
check "abidep report names it, with the file" sh -c "$A report -j --db $DB | python3 -c '
import json, sys
ok = any(\"$F\" in e[\"files\"] and any(u[\"exe\"] == \"$LEGACY\" and u[\"op\"] == \"read\" and u[\"count\"] == 2 for u in e[\"users\"]) for e in json.load(sys.stdin))
sys.exit(0 if ok else 1)'"
check "the tracepoint fires with the path" sh -c "
	T=/sys/kernel/debug/tracing
	echo 1 >\$T/events/sysfs/sysfs_alias_access/enable &&
	cat $F >/dev/null &&
	echo 0 >\$T/events/sysfs/sysfs_alias_access/enable &&
	grep -q 'path=$F old=current_governor_ro new=current_governor op=read ret=' \$T/trace"

section "a program's name cannot forge a log line"
# A newline in the executable's name, hence in its comm: unescaped, the
# line would end there and the rest start a line of its own.
EVIL="/tmp/evil
sysfs: forged"
cp /usr/bin/cat "$EVIL"
"$EVIL" $F >/dev/null
ESC='/tmp/evil\012sysfs: forged'
line=$(dmesg | sed 's/^\[[ 0-9.]*\] //' | grep -F "$ESC" | head -n 1)
pid=$(echo "$line" | sed -n 's/.* by pid \([0-9]*\) .*/\1/p')
check "the line shows the newline escaped (octal 012), in the comm and the path" \
	same "$line" "sysfs: $F is deprecated since 2020-04, removal after 2027-12, use current_governor: read by pid $pid (evil\\012sysfs: for) $ESC"
check "no line of the log starts with the planted text (syslog(2) splits a record at its newlines)" \
	sh -c "! dmesg -S | sed 's/^\[[ 0-9.]*\] //' | grep -q '^sysfs: for'"
check "debugfs escapes the name too" sh -c "grep '^old=current_governor_ro ' /sys/kernel/debug/sysfs_aliases | grep -qF ',evil\\012sysfs:\\040for,/tmp/evil\\012sysfs:\\040forged,1,0,'"

finish patches
