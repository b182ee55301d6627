#!/bin/sh
# Guest tests of the kernel series in patches/linux-6.12/, on the debug
# kernel that carries it (KVER=debug; scripts/patches-check.sh runs this):
# cpuidle's current_governor_ro is an in-tree alias of current_governor.
# A legacy reader must be named in the kernel log, in the line format of
# abidep.ko (the prefix aside: "sysfs: " for the in-tree alias), and by
# abidep report, the tracer watching the file from migration-tables/.
#	KVER=debug tests/vm/run tests/guest/patches.sh
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
check "the tracepoint fires with the path and the length read" sh -c "
	T=/sys/kernel/debug/tracing
	echo 1 >\$T/events/sysfs/sysfs_alias_access/enable &&
	cat $F >/dev/null &&
	echo 0 >\$T/events/sysfs/sysfs_alias_access/enable &&
	grep -q 'path=$F old=current_governor_ro new=current_governor op=read ret=$(wc -c <$D/current_governor)\$' \$T/trace"

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

section "an alias follows its target's file, as is_visible() makes it"
# tests/guest/alias-visible: /sys/kernel/alias_visible/new, its 0644 alias old
# and 0444 alias old_ro; the group's is_visible() gives new the mode in the
# module's target_mode, and a write of that parameter updates the group.
# scripts/patches-check.sh builds it against this kernel.
K=$ABIDEP_REPO/build/patches/alias-visible/alias_visible.ko
V=/sys/kernel/alias_visible
P=/sys/module/alias_visible/parameters/target_mode
modes() { for f in new old old_ro; do stat -c %a $V/$f 2>/dev/null || echo none; done | tr '\n' ' '; }
check "alias_visible.ko is built (make patches-check builds it)" test -f "$K"
check "insmod alias_visible.ko" insmod "$K"
check "target as declared: new 644, old 644, old_ro 444" same "$(modes)" "644 644 444 "
check "old reads new" same "$(cat $V/old)" value
check "a write through old reaches new" sh -c "echo other >$V/old && test \"\$(cat $V/new)\" = other"
check "old_ro refuses a write" sh -c "! echo x >$V/old_ro 2>/dev/null && test \"\$(cat $V/new)\" = other"
check "debugfs lists old while the module is loaded" grep -q '^old=old new=new ' /sys/kernel/debug/sysfs_aliases
check "target narrowed to 0444: both aliases 444" sh -c "echo 0444 >$P && test \"\$(for f in new old old_ro; do stat -c %a $V/\$f; done | tr '\n' ' ')\" = '444 444 444 '"
check "... and old refuses the write it took before" sh -c "! echo again >$V/old 2>/dev/null && test \"\$(cat $V/old)\" = other"
check "target hidden: no alias either" sh -c "echo 0 >$P && ! test -e $V/new && ! test -e $V/old && ! test -e $V/old_ro"
check "target write-only (0200): old 200, old_ro none" sh -c "echo 0200 >$P && test \"\$(stat -c %a $V/old)\" = 200 && ! test -e $V/old_ro && echo third >$V/old"
check "shown again: 644 644 444" sh -c "echo 0644 >$P && test \"\$(for f in new old old_ro; do stat -c %a $V/\$f; done | tr '\n' ' ')\" = '644 644 444 ' && test \"\$(cat $V/old)\" = third"
check "rmmod alias_visible" rmmod alias_visible
check "its aliases leave debugfs with it" sh -c "! grep -q '^old=old new=new ' /sys/kernel/debug/sysfs_aliases"
check "loaded with the target hidden: no alias file" sh -c "insmod $K target_mode=0 && test -d $V && ! test -e $V/old && ! test -e $V/old_ro && rmmod alias_visible"

finish patches
