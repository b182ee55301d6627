#!/bin/sh
# abidep scan DIR (default /usr) side by side with grep over the same names
# (abidep scan --print-patterns), alternating runs, medians of wall time and
# of CPU time (user + sys). Figures, not tests: exits 0 unless a command
# cannot run at all. Called by scripts/bench.sh; BENCH_SCAN_RUNS (default 5).
#
# grep -rlF is the command of the issue; it also counts a name inside a
# longer word ("protocol" in "protocols"), which abidep does not call a
# reference. grep -rlwF has abidep's rule (whole words), so its file set
# must equal that of abidep scan --weak -l --all-bytes (every hit, weak ones
# included, every byte of ELF files). By default abidep reads only the ELF
# sections that can hold strings (Documentation/admin-guide/scan.rst); the files it
# then finds are listed against --all-bytes's too.
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
DIR=${1:-/usr}
RUNS=${BENCH_SCAN_RUNS:-5}
A=build/abidep
export LC_ALL=C
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

# run NAME CMD...: append wall and CPU seconds of one run to $tmp/NAME.{wall,cpu}
run() {
	name=$1
	shift
	/usr/bin/time -f '%e %U %S' -o "$tmp/t" "$@" >/dev/null 2>&1 || true
	awk '{print $1}' "$tmp/t" >>"$tmp/$name.wall"
	awk '{print $2 + $3}' "$tmp/t" >>"$tmp/$name.cpu"
}

$A scan --print-patterns >"$tmp/patterns" 2>/dev/null
echo "== scan: abidep scan $DIR vs grep -rl[w]F -f PATTERNS $DIR ($(wc -l <"$tmp/patterns") names, $RUNS runs each, alternating, page cache warm)"

# The file sets (also warms the page cache).
$A scan --weak -l --all-bytes "$DIR" >"$tmp/abidep.files" 2>/dev/null || true
$A scan --weak -l "$DIR" >"$tmp/abidep-elf.files" 2>/dev/null || true
grep -rlwF -f "$tmp/patterns" "$DIR" 2>/dev/null | sort >"$tmp/grepw.files" || true
grep -rlF -f "$tmp/patterns" "$DIR" 2>/dev/null | sort >"$tmp/grep.files" || true
files=$($A -j scan "$DIR" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["files"])')

for i in $(seq "$RUNS"); do
	run abidep "$A" scan "$DIR"
	run grep grep -rlF -f "$tmp/patterns" "$DIR"
	run abidep1 "$A" scan --threads 1 "$DIR"
	run grepw grep -rlwF -f "$tmp/patterns" "$DIR"
	run abidepall "$A" scan --all-bytes "$DIR"
done

fig() {
	w=$(median <"$tmp/$1.wall")
	c=$(median <"$tmp/$1.cpu")
	printf '   %-34s %7.2f s wall  %7.2f s CPU  %9.0f files/s\n' "$2" "$w" "$c" \
		"$(awk -v f="$files" -v w="$w" 'BEGIN {print (w > 0) ? f / w : 0}')"
}
fig abidep "abidep scan (all CPUs)"
fig abidep1 "abidep scan --threads 1"
fig abidepall "abidep scan --all-bytes"
fig grep "grep -rlF"
fig grepw "grep -rlwF"
ratio() { awk -v a="$(median <"$tmp/$1.$3")" -v g="$(median <"$tmp/$2.$3")" 'BEGIN {printf "%.1f", (a > 0) ? g / a : 0}'; }
r=$(ratio abidep grep wall)
echo "   $files files examined"
echo "   ratio vs grep -rlF:  ${r}x faster wall ($(ratio abidep grep cpu)x CPU; one thread: $(ratio abidep1 grep wall)x wall) (target: at least 2x: $(awk -v r="$r" 'BEGIN {print (r >= 2) ? "met" : "MISSED"}'))"
echo "   ratio vs grep -rlwF: $(ratio abidep grepw wall)x faster wall ($(ratio abidep grepw cpu)x CPU; one thread: $(ratio abidep1 grepw wall)x wall)"
echo "   --all-bytes (every byte, as grep): $(ratio abidepall grep wall)x grep -rlF wall ($(ratio abidepall grep cpu)x CPU), $(ratio abidepall grepw wall)x grep -rlwF wall"
if cmp -s "$tmp/abidep.files" "$tmp/grepw.files"; then
	echo "   same files as grep -rlwF (abidep --weak -l --all-bytes): yes ($(wc -l <"$tmp/abidep.files") files with a whole-word name)"
else
	echo "   same files as grep -rlwF (abidep --weak -l --all-bytes): NO ($(wc -l <"$tmp/abidep.files") vs $(wc -l <"$tmp/grepw.files"); first differences:)"
	diff "$tmp/abidep.files" "$tmp/grepw.files" | head -n 5 | sed 's/^/      /'
fi
echo "   default (ELF string sections): $(wc -l <"$tmp/abidep-elf.files") files; $(comm -13 "$tmp/abidep-elf.files" "$tmp/abidep.files" | wc -l) have the names only in ELF code or tables, $(comm -23 "$tmp/abidep-elf.files" "$tmp/abidep.files" | wc -l) not in --all-bytes's"
echo "   grep -rlF: $(wc -l <"$tmp/grep.files") files, $(comm -13 "$tmp/abidep.files" "$tmp/grep.files" | wc -l) of them only with a name inside a longer word, $(comm -23 "$tmp/abidep.files" "$tmp/grep.files" | wc -l) missing"
