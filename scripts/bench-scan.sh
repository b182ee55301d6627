#!/bin/sh
# make bench's scan figures: abidep scan DIR (default /usr/lib) against grep
# over the same names (abidep scan --print-patterns), page cache warm.
# Called by scripts/bench.sh; BENCH_SCAN_RUNS rounds (default 5).
#
# The configuration whose findings equal grep's: a name is a reference as a
# whole word (grep -w's rule with LC_ALL=C), every hit counts (--weak), the
# files with one are listed (-l) and ELF files are read whole
# (--all-bytes), so that `abidep scan --weak -l --all-bytes` and
# `grep -rlwF -f PATTERNS` must list the same files: compared before the
# timed rounds, a difference fails the bench. Timed with one thread
# (grep has one) and with all of them (--threads' default); the default
# configuration (string sections of ELF files only, strong and medium hits
# of common names, every hit listed), with one thread and all, is the
# second row. Every timed run must exit as it should (abidep 1: hits; grep
# 0: matches), or the bench fails.
#
# Files per second from each tool's own count of the files it examined:
# abidep's "files" (-j), and the lines of `grep -rcwF` (one per file grep
# read); the two must be equal.
#
# The floor, "read": the same files (find -type f, as many as scan
# examines) read whole and dropped by tests/bench/readfiles.c, timed in the
# same rounds; results.py gives each abidep side's files per second as a
# share of its rate.
#
# Writes lines to $BENCH_SCAN_OUT (default build/bench/raw/scan.txt) for
# tests/bench/results.py, in tests/bench/guest.sh's format:
#   I KEY VALUE...; S SIDE wall|cpu ROUND MICROSECONDS; C SIDE - WHAT EXPECTED GOT; F MESSAGE
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
DIR=${1:-/usr/lib}
RUNS=${BENCH_SCAN_RUNS:-5}
A=build/abidep
T=build/bench/timeit
RF=build/bench/readfiles
OUT=${BENCH_SCAN_OUT:-build/bench/raw/scan.txt}
export LC_ALL=C
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$(dirname "$OUT")"
: >"$OUT"
rec() { echo "$*" >>"$OUT"; }

mkdir -p build/bench
[ -x $T ] || gcc -O2 -static -o $T tests/bench/timeit.c
[ -x $RF ] || gcc -O2 -static -o $RF tests/bench/readfiles.c
$A scan --print-patterns >"$tmp/patterns" 2>/dev/null
threads=$(nproc)
[ "$threads" -le 8 ] || threads=8
rec I dir "$DIR"
rec I patterns "$(wc -l <"$tmp/patterns")"
rec I threads "$threads"
rec I rounds "$RUNS"
rec I grep "$(grep --version | head -n 1)"
rec I cpu "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1) x $(nproc)"
echo "   scan: $DIR, $(wc -l <"$tmp/patterns") names, file sets first (this also warms the page cache)"

# The file sets and the counts (untimed; twice, the first warms the cache).
for _ in 1 2; do
	$A -j scan --weak -l --all-bytes "$DIR" >"$tmp/all.json" 2>/dev/null || true
done
$A -j scan "$DIR" >"$tmp/default.json" 2>/dev/null || true
grep -rlwF -f "$tmp/patterns" "$DIR" 2>/dev/null | sort >"$tmp/grep.files" || true
grep -rcwF -f "$tmp/patterns" "$DIR" 2>/dev/null | wc -l >"$tmp/grep.count" || true
python3 - "$tmp" "$DIR" >>"$OUT" <<'EOF'
import json, sys
tmp, root = sys.argv[1], sys.argv[2]
def load(name):
    try:
        return json.load(open(f"{tmp}/{name}.json"))
    except Exception:
        return {}
a, d = load("all"), load("default")
# abidep names files as the system they belong to sees them: here the
# host's, so the same paths as grep's.
files = sorted(a.get("files_with_hits", []))
with open(f"{tmp}/abidep.files", "w") as f:
    f.write("".join(x + "\n" for x in files))
grep = open(f"{tmp}/grep.files").read().split("\n")[:-1]
only_a = sorted(set(files) - set(grep))
only_g = sorted(set(grep) - set(files))
print("C equal - files_with_hits", len(grep), len(files))
print("C equal - files_only_abidep", 0, len(only_a))
print("C equal - files_only_grep", 0, len(only_g))
for x in (only_a[:3] + only_g[:3]):
    print("I differs", x)
gcount = int(open(f"{tmp}/grep.count").read().split()[0] or 0)
print("C equal - files_examined", gcount, a.get("files", 0))
print("I files_abidep", a.get("files", 0))
print("I files_grep", gcount)
print("I bytes_all", a.get("bytes", 0))
print("I bytes_default", d.get("bytes", 0))
print("I files_default", d.get("files", 0))
print("I hits_default", len(d.get("hits", [])))
dh = {h["file"] for h in d.get("hits", [])}
print("I files_with_hits_default", len(dh))
print("I files_with_hits", len(files))
EOF

# The floor: the files scan examines (the regular files under DIR, as its
# walk finds them; their count must be scan's), read whole and dropped.
find "$DIR" -type f -print0 >"$tmp/list"
$RF "$tmp/list" >"$tmp/read" 2>/dev/null || true
read -r nread bread <"$tmp/read" || true
rec C equal - files_read "$(sed -n 's/^I files_abidep //p' "$OUT")" "${nread:-0}"
rec I files_read "${nread:-0}"
rec I bytes_read "${bread:-0}"

# How each command must exit: abidep 1 when it lists a hit, grep 0 when it
# finds a match.
sa=0 sd=0 sg=1
[ ! -s "$tmp/abidep.files" ] || sa=1
[ "$(sed -n 's/^I hits_default //p' "$OUT")" = 0 ] || sd=1
[ ! -s "$tmp/grep.files" ] || sg=0

# One round: every command once, in an order rotated by one each round.
SIDES="grep abidep1 abidep default1 default read"
cmd() {
	case $1 in
	grep) echo "-e $sg grep -rlwF -f $tmp/patterns $DIR" ;;
	abidep1) echo "-e $sa $A scan --weak -l --all-bytes --threads 1 $DIR" ;;
	abidep) echo "-e $sa $A scan --weak -l --all-bytes $DIR" ;;
	default1) echo "-e $sd $A scan --threads 1 $DIR" ;;
	default) echo "-e $sd $A scan $DIR" ;;
	read) echo "-e 0 $RF $tmp/list" ;;
	esac
}
rec I sides $SIDES
for s in $SIDES; do rec I cmd "$s" "$(cmd "$s" | cut -d' ' -f3-)"; done
n=$(echo $SIDES | wc -w)
for r in $(seq "$RUNS"); do
	order=$(echo $SIDES $SIDES | tr ' ' '\n' | sed -n "$(((r - 1) % n + 1)),+$((n - 1))p" | tr '\n' ' ')
	for s in $order; do
		# shellcheck disable=SC2046 # the command's words
		if t=$($T $(cmd "$s") 2>"$tmp/err"); then
			rec S "$s" wall "$r" "${t% *}"
			rec S "$s" cpu "$r" "${t#* }"
		else
			rec F "scan: $s: $(cat "$tmp/err")"
		fi
	done
	echo "   scan: round $r of $RUNS done"
done
