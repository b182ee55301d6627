#!/bin/sh
# make bench, inside the guest: the tracer's cost on sysfs accesses, side by
# side with no tracer and with the equivalent bpftrace one-liner, and its
# memory. Prints one line per figure.
set -eu
A=$ABIDEP_REPO/build/abidep
LOOP=$ABIDEP_REPO/build/bench/sysfs_loop
N=${BENCH_ITERS:-4000}
ROUNDS=${BENCH_ROUNDS:-5}
UNWATCHED=/sys/devices/system/cpu/cpuidle/current_governor
WATCHED=/sys/devices/system/cpu/cpuidle/current_governor_ro

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : int((a[NR/2] + a[NR/2+1]) / 2)}'; }

# measure LABEL: ROUNDS loops on each file, alternating; appended to /tmp/[uw].LABEL
measure() {
	for r in $(seq "$ROUNDS"); do
		$LOOP $UNWATCHED "$N" >>/tmp/u.$1
		$LOOP $WATCHED "$N" >>/tmp/w.$1
	done
}

$LOOP $UNWATCHED 1000 >/dev/null		# warm up
# Cycles of no tracer and abidep (and the previous release's abidep,
# $BENCH_BASE, when given), so that drift in the guest's speed falls on
# every side alike.
BASE=${BENCH_BASE:-}
for cycle in $(seq "${BENCH_CYCLES:-3}"); do
	measure none
	"$A" trace --pin --db /tmp/bench.db
	measure abidep
	[ "$cycle" = 1 ] && mem=$(bpftool map show | awk '/name (watched|usage|files|stats|scratch|events|slots|pending|dirs|listings) / {getline; for (i = 1; i <= NF; i++) if ($i == "memlock") {sub("B", "", $(i+1)); s += $(i+1)}} END {print s}')
	"$A" trace --status | sed 's/^/# /'
	"$A" trace --stop --db /tmp/bench.db
	if [ -n "$BASE" ]; then
		"$BASE" trace --pin --db /tmp/base.db
		measure base
		"$BASE" trace --stop --db /tmp/base.db
	fi
done
measure none

bpftrace -e 'kfunc:kernfs_fop_open /str(args->file->f_path.dentry->d_name.name) == "current_governor_ro"/ { @[comm] = count(); }' >/tmp/bt.out 2>&1 &
bt=$!
i=0
until grep -q Attaching /tmp/bt.out || [ $i -gt 600 ]; do sleep 0.5; i=$((i + 1)); done
sleep 1
measure bpftrace
measure bpftrace
kill -INT $bt
wait $bt || true
measure none

# The live tracer's resident memory, watching all the tables resolve to.
"$A" trace -q --db /tmp/rss.db --interval 1 &
tr=$!
sleep 4
$LOOP $WATCHED 2000 >/dev/null
sleep 2
rss=$(awk '/VmHWM/ {print $2}' /proc/$tr/status)
kill -INT $tr
wait $tr || true

m() { median </tmp/$1; }
ratio() { awk -v t="$1" -v n="$2" 'BEGIN {printf "%.3f", t / n}'; }
echo "RESULT iters=$N rounds=$ROUNDS loops_per_config=$(wc -l </tmp/u.none),$(wc -l </tmp/u.abidep),$(wc -l </tmp/u.bpftrace)"
echo "RESULT none_unwatched_ns=$(m u.none) none_watched_ns=$(m w.none)"
echo "RESULT abidep_unwatched=$(ratio "$(m u.abidep)" "$(m u.none)") abidep_watched=$(ratio "$(m w.abidep)" "$(m w.none)")"
echo "RESULT bpftrace_unwatched=$(ratio "$(m u.bpftrace)" "$(m u.none)") bpftrace_watched=$(ratio "$(m w.bpftrace)" "$(m w.none)")"
echo "RESULT tracer_rss_kib=$rss map_memlock_bytes=$mem"
[ -z "$BASE" ] ||
	echo "RESULT base_unwatched=$(ratio "$(m u.base)" "$(m u.none)") base_watched=$(ratio "$(m w.base)" "$(m w.none)")"
