#!/bin/sh
# make bench, inside the guest: the cost of an alias. open+read+close loops
# on an alias and on the attribute it forwards to, alternating, in one boot:
# the example driver's current_protocol (translate hook included) against
# protocol, and rc-loopback's current_protocol against protocols. Counting,
# the user lookup and the tracepoint (disabled) are all on the alias's path;
# logging is at its default (a line per program per log_interval).
#	tests/vm/run --timeout 1200 tests/bench/alias.sh
# Prints "RESULT name=value ..." lines and a summary; target: at most +5%.
set -eu
LOOP=$ABIDEP_REPO/build/bench/sysfs_loop
N=${ALIAS_ITERS:-1000}
ROUNDS=${ALIAS_ROUNDS:-31}
EX=/sys/devices/platform/abidep-ir-example
RC=/sys/class/rc/rc0

if [ ! -x "$LOOP" ]; then
	gcc -O2 -static -o /tmp/sysfs_loop "$ABIDEP_REPO/tests/bench/sysfs_loop.c"
	LOOP=/tmp/sysfs_loop
fi
insmod "$ABIDEP_REPO/build/kmod/$KVER/abidep.ko"
modprobe rc-loopback
insmod "$ABIDEP_REPO/build/kmod/$KVER/examples/abidep_ir_example.ko"

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

# pair NAME ALIAS NEW: ROUNDS loops on each, alternating, the first one of
# each round on the other side than the last round's.
pair() {
	: >/tmp/$1.alias
	: >/tmp/$1.new
	: >/tmp/$1.ratio
	$LOOP "$2" 1000 >/dev/null
	$LOOP "$3" 1000 >/dev/null
	for r in $(seq "$ROUNDS"); do
		if [ $((r % 2)) = 1 ]; then
			a=$($LOOP "$2" "$N")
			b=$($LOOP "$3" "$N")
		else
			b=$($LOOP "$3" "$N")
			a=$($LOOP "$2" "$N")
		fi
		echo "$a" >>/tmp/$1.alias
		echo "$b" >>/tmp/$1.new
		awk -v a="$a" -v b="$b" 'BEGIN {printf "%.4f\n", a / b}' >>/tmp/$1.ratio
	done
	ma=$(median </tmp/$1.alias)
	mb=$(median </tmp/$1.new)
	mr=$(median </tmp/$1.ratio)
	echo "RESULT ${1}_alias_ns=$ma ${1}_new_ns=$mb ${1}_ratio=$mr"
}

pair example $EX/current_protocol $EX/protocol
pair rc $RC/current_protocol $RC/protocols
pair example2 $EX/current_protocol $EX/protocol
pair rc2 $RC/current_protocol $RC/protocols

reads=$(grep '^old=current_protocol new=protocol ' /sys/kernel/debug/abidep/state | tr ' ' '\n' | sed -n 's/^reads=//p')
logged=$(dmesg | grep -c 'abidep: .*current_protocol is deprecated' || true)
echo "RESULT iters=$N rounds=$ROUNDS example_alias_reads_counted=$reads log_lines=$logged"
for p in example rc example2 rc2; do
	r=$(median </tmp/$p.ratio)
	awk -v p="$p" -v r="$r" 'BEGIN {printf "%-9s alias/new %.3f (%+.1f%%), target <= +5%%: %s\n", p, r, (r - 1) * 100, (r <= 1.05) ? "met" : "MISSED"}'
done
