#!/bin/sh
# make bench, inside the guest: what reading through an alias costs,
# against reading the attribute it forwards to. Loops of open, read to EOF,
# close (build/bench/sysfs_loop) on the files of ALIAS_SIDES (default: the
# module's four):
#
#   ex_alias  the example driver's current_protocol (an alias with a
#             translate hook)          ex_new  its protocol
#   rc_alias  rc-loopback's current_protocol (a class-table alias)
#                                      rc_new  its protocols
#   in_alias  cpuidle's current_governor_ro, the in-tree alias of the
#             series patches/linux-6.12/ (a kernel carrying it: the debug
#             kernel)                  in_new  current_governor
#
# ALIAS_ROUNDS rounds; each round reads every file once, in an order rotated
# by one from the last round's. Counting, the user lookup and the
# tracepoint (disabled) are all on the alias's path; logging is at its
# default (a line per program per log_interval). Every loop's reads are
# checked against the alias's own count (the module's state file, or the
# series' /sys/kernel/debug/sysfs_aliases), and against the loop's opens.
#
# Writes lines to $ALIAS_OUT (default $ABIDEP_OUT/alias.txt) for
# tests/bench/results.py, in tests/bench/guest.sh's format:
#   I KEY VALUE...; S SIDE ns ROUND VALUE; C SIDE ROUND WHAT EXPECTED GOT; F MESSAGE
set -eu
LOOP=$ABIDEP_REPO/build/bench/sysfs_loop
N=${ALIAS_ITERS:-2000}
ROUNDS=${ALIAS_ROUNDS:-8}
OUT=${ALIAS_OUT:-$ABIDEP_OUT/alias.txt}
EX=/sys/devices/platform/abidep-ir-example
RC=/sys/class/rc/rc0
CPU=/sys/devices/system/cpu/cpuidle
STATE=/sys/kernel/debug/abidep/state
INTREE=/sys/kernel/debug/sysfs_aliases
SIDES=${ALIAS_SIDES:-ex_alias ex_new rc_alias rc_new}

: >"$OUT"
rec() { echo "$*" >>"$OUT"; }

case " $SIDES " in
*" ex_"* | *" rc_"*)
	insmod "$ABIDEP_REPO/build/kmod/$KVER/abidep.ko"
	modprobe rc-loopback
	insmod "$ABIDEP_REPO/build/kmod/$KVER/examples/abidep_ir_example.ko"
	;;
esac
mount -t debugfs none /sys/kernel/debug 2>/dev/null || true
case " $SIDES " in
*" in_"*)
	[ -e $INTREE ] || {
		rec F "$(uname -r) does not carry the series patches/linux-6.12/ (no $INTREE)"
		exit 1
	}
	;;
esac

file() {
	case $1 in
	ex_alias) echo $EX/current_protocol ;;
	ex_new) echo $EX/protocol ;;
	rc_alias) echo $RC/current_protocol ;;
	rc_new) echo $RC/protocols ;;
	in_alias) echo $CPU/current_governor_ro ;;
	in_new) echo $CPU/current_governor ;;
	esac
}

# The alias's own count of reads through SIDE's alias (its entry in the
# module's state file, or in the series' debugfs file).
reads() {
	case $1 in
	ex_alias) entry="old=current_protocol new=protocol" f=$STATE ;;
	rc_alias) entry="old=current_protocol new=protocols" f=$STATE ;;
	in_alias) entry="old=current_governor_ro new=current_governor" f=$INTREE ;;
	*) return 0 ;;
	esac
	grep "^$entry " $f | tr ' ' '\n' | sed -n 's/^reads=//p' | grep . || echo 0
}

rec I kernel "$(uname -r)"
rec I cpus "$(nproc)"
rec I iters "$N"
rec I rounds "$ROUNDS"
rec I sides $SIDES
for s in $SIDES; do
	"$LOOP" "$(file $s)" 500 >/dev/null	# warm up
done

nsides=$(echo $SIDES | wc -w)
for r in $(seq "$ROUNDS"); do
	order=$(echo $SIDES $SIDES | tr ' ' '\n' | sed -n "$(((r - 1) % nsides + 1)),+$((nsides - 1))p" | tr '\n' ' ')
	rec I order "$r" $order
	for s in $order; do
		before=$(reads $s)
		# shellcheck disable=SC2046 # the loop's four numbers
		set -- $("$LOOP" "$(file $s)" "$N" || echo "- 0 0 0")
		after=$(reads $s)
		rec S "$s" ns "$r" "$1"
		rec C "$s" "$r" loop_opens "$N" "$2"
		rec C "$s" "$r" loop_reads "$N" "$3"
		case $s in
		*_alias) rec C "$s" "$r" alias_reads "$3" $((after - before)) ;;
		esac
	done
done
rec I log_lines "$(dmesg | grep -c -e 'abidep: .*current_protocol is deprecated' \
	-e 'sysfs: .*current_governor_ro is deprecated' || true)"
echo "alias.sh: done, $(grep -c '^S ' "$OUT") samples, $(grep -c '^C ' "$OUT") checks"
