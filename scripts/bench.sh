#!/bin/sh
# make bench: speed figures measured side by side in one run (alternating
# runs, medians), with the project's targets. Figures, not tests: it always
# exits 0 unless a command cannot run at all.
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
src=$(scripts/linux-source.sh)
ABI=$src/Documentation/ABI
RUNS=${BENCH_RUNS:-15}

# median of the numbers on stdin
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

# microseconds one run of "$@" takes (output discarded, exit status ignored),
# fork to wait: see tests/bench/timeit.c for why not `date` around it
mkdir -p build/bench
gcc -O2 -static -o build/bench/timeit tests/bench/timeit.c
timeit() {
	build/bench/timeit "$@"
}

echo "== tables: parse and validate the whole Documentation/ABI of linux-source-6.1"
echo "   abidep tables validate  vs  scripts/get_abi.pl validate, $RUNS runs each, alternating"
a=$(mktemp) g=$(mktemp)
for i in $(seq "$RUNS"); do
	timeit build/abidep tables validate -q "$ABI" >>"$a"
	timeit perl "$src/scripts/get_abi.pl" --dir "$ABI" validate >>"$g"
done
ma=$(median <"$a")
mg=$(median <"$g")
rm -f "$a" "$g"
what=$(build/abidep tables validate -q "$ABI" | sed -n 's/.* entries, \([0-9]*\) What lines.*/\1/p')
ratio=$(awk -v a="$ma" -v g="$mg" 'BEGIN {printf "%.1f", g / a}')
printf '   abidep      %8.2f ms  (%s What lines)\n' "$(awk -v a="$ma" 'BEGIN {print a / 1000}')" "$what"
printf '   get_abi.pl  %8.2f ms\n' "$(awk -v g="$mg" 'BEGIN {print g / 1000}')"
verdict=$(awk -v r="$ratio" 'BEGIN {print (r >= 20) ? "met" : "MISSED"}')
echo "   ratio       ${ratio}x faster (target: at least 20x: $verdict)"

echo
# Guest figures twice: in instructions (QEMU -icount: the guest's clock
# counts instructions, so host load cannot move them; reproducible to 0.5%,
# the figures the targets are judged on) and in wall time (TCG, so host load
# moves them by several percent; for reference).
echo "== tracer: cost on sysfs open+read+close loops, in the QEMU guest (TCG)"
echo "   no tracer vs abidep (pinned) vs bpftrace (kfunc:kernfs_fop_open + name filter)"
mkdir -p build/bench
gcc -O2 -static -o build/bench/sysfs_loop tests/bench/sysfs_loop.c
# The previous release's tracer beside this one's (tests/upgrade/releases).
tests/upgrade/build previous
base=build/release/previous/src/build/abidep
val() { echo "$out" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
pct() { awk -v r="$1" 'BEGIN {printf "%+.1f%%", (r - 1) * 100}'; }
met() { awk -v x="$1" -v lim="$2" 'BEGIN {print (x <= lim) ? "met" : "MISSED"}'; }
for how in instructions wall; do
	if [ $how = instructions ]; then
		echo "   -- in guest instructions (-icount shift=0, 1 CPU):"
		out=$(tests/vm/run --icount --timeout 1200 sh -c "BENCH_BASE=$base BENCH_ITERS=1000 BENCH_ROUNDS=3 BENCH_CYCLES=2 tests/bench/guest.sh" 2>&1 | grep '^RESULT' | sed 's/^RESULT //')
	else
		echo "   -- in wall time (medians; moved by host load):"
		out=$(tests/vm/run --timeout 1200 env BENCH_BASE=$base tests/bench/guest.sh 2>&1 | grep '^RESULT' | sed 's/^RESULT //')
	fi
	echo "$out" | sed 's/^/   /'
	au=$(val abidep_unwatched) aw=$(val abidep_watched) bu=$(val bpftrace_unwatched) bw=$(val bpftrace_watched)
	rss=$(val tracer_rss_kib) mem=$(val map_memlock_bytes)
	echo "   unwatched file: abidep $(pct "$au") (target <= +3%: $(met "$au" 1.03)), bpftrace $(pct "$bu") (abidep cheaper: $(awk -v a="$au" -v b="$bu" 'BEGIN {print (a < b) ? "yes" : "NO"}'))"
	echo "   watched file:   abidep $(pct "$aw") (target <= +15%: $(met "$aw" 1.15)), bpftrace $(pct "$bw") (abidep cheaper: $(awk -v a="$aw" -v b="$bw" 'BEGIN {print (a < b) ? "yes" : "NO"}'))"
	pu=$(val base_unwatched) pw=$(val base_watched)
	echo "   the previous release's tracer (tests/upgrade/releases): unwatched $(pct "$pu"), watched $(pct "$pw")"
	echo "   tracer resident memory: $((rss / 1024)) MiB (target <= 32 MiB: $(met "$rss" 32768)); kernel maps (memlock, upper bound): $((mem / 1024)) KiB"
done

echo
echo "== alias: reading through an alias vs the attribute it forwards to, in the guest (target <= +5%)"
echo "   -- in guest instructions (-icount shift=0, 1 CPU):"
tests/vm/run --icount --timeout 1200 sh -c 'ALIAS_ROUNDS=5 tests/bench/alias.sh' 2>&1 | grep -v '^RESULT' | sed 's/^/   /'
echo "   -- in wall time (medians; moved by host load):"
tests/vm/run --timeout 1200 tests/bench/alias.sh 2>&1 | grep -v '^RESULT' | sed 's/^/   /'

echo
echo "== scan: abidep scan /usr vs grep -rlF -f PATTERNS /usr (target: at least 2x)"
scripts/bench-scan.sh /usr
