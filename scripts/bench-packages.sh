#!/bin/sh
# make bench's package figures: abidep scan --packages over the real Debian
# packages of tests/debs/packages.list (tests/debs/fetch: cached), against
# what it replaces, each package unpacked with dpkg-deb -R and grepped,
# page cache warm. Called by scripts/bench.sh; BENCH_PKG_RUNS rounds
# (default 5).
#
# Equal work on both sides: every file of every package (its data and
# control members), a name a reference as a whole word (grep -w with
# LC_ALL=C), every hit (--weak), the files with one listed (-l), ELF files
# whole (--all-bytes); the two file lists must be equal, compared before
# the timed rounds. Both sides one process at a time (--threads 1, one
# dpkg-deb and one grep after the other); abidep with all threads beside;
# and the second run over the same packages with --cache (the daily run
# over an unchanged mirror), the cache made before the rounds.
#
# Writes lines to $BENCH_PKG_OUT (default build/bench/raw/packages.txt)
# for tests/bench/results.py, in the format of scripts/bench-scan.sh.
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
RUNS=${BENCH_PKG_RUNS:-5}
A=$repo/build/abidep
T=build/bench/timeit
OUT=${BENCH_PKG_OUT:-build/bench/raw/packages.txt}
export LC_ALL=C
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$(dirname "$OUT")"
: >"$OUT"
rec() { echo "$*" >>"$OUT"; }

[ -x $T ] || gcc -O2 -static -o $T tests/bench/timeit.c
if ! DIR=$(tests/debs/fetch 2>"$tmp/fetch.err"); then
	rec F "packages: tests/debs/fetch could not fetch the packages: $(tail -n 1 "$tmp/fetch.err")"
	exit 0
fi
$A scan --print-patterns >"$tmp/patterns" 2>/dev/null
threads=$(nproc)
[ "$threads" -le 8 ] || threads=8
rec I dir "$DIR"
rec I packages "$(ls "$DIR"/*.deb | wc -l)"
rec I compressed "$(cat "$DIR"/*.deb | wc -c)"
rec I patterns "$(wc -l <"$tmp/patterns")"
rec I threads "$threads"
rec I rounds "$RUNS"
echo "   packages: $DIR, file sets first"

# The other side: each package unpacked (data and control, as dpkg-deb -R
# does) into a directory of its own, grepped, removed; "PACKAGE FILE" per
# file with a hit.
cat >"$tmp/unpack.sh" <<'EOF'
#!/bin/sh
set -u
dir=$1 patterns=$2 work=$3
for deb in "$dir"/*.deb; do
	u=$work/u
	dpkg-deb -R "$deb" "$u" || exit 2
	grep -rlwF -f "$patterns" "$u" | sed "s|^$u|$(basename "$deb") |"
	rm -rf "$u"
done
exit 0
EOF
chmod +x "$tmp/unpack.sh"
mkdir -p "$tmp/work"
"$tmp/unpack.sh" "$DIR" "$tmp/patterns" "$tmp/work" | sort >"$tmp/grep.files"
$A -j scan --packages --weak -l --all-bytes "$DIR" >"$tmp/all.json" 2>/dev/null || true
$A scan --packages --weak -l --all-bytes --cache "$tmp/cache" "$DIR" >/dev/null 2>&1 || true
python3 - "$tmp" >>"$OUT" <<'EOF'
import json, os, sys
tmp = sys.argv[1]
try:
    a = json.load(open(f"{tmp}/all.json"))
except Exception:
    a = {}
files = sorted(f"{os.path.basename(h['archive'])} {h['file']}"
               for h in a.get("files_with_hits", []))
grep = open(f"{tmp}/grep.files").read().split("\n")[:-1]
only_a = sorted(set(files) - set(grep))
only_g = sorted(set(grep) - set(files))
print("C equal - files_with_hits", len(grep), len(files))
print("C equal - files_only_abidep", 0, len(only_a))
print("C equal - files_only_grep", 0, len(only_g))
for x in (only_a[:3] + only_g[:3]):
    print("I differs", x)
print("I files", a.get("files", 0))
print("I bytes", a.get("bytes", 0))
print("I files_with_hits", len(files))
EOF

SIDES="unpack abidep1 abidep cached"
cmd() {
	case $1 in
	unpack) echo "-e 0 $tmp/unpack.sh $DIR $tmp/patterns $tmp/work" ;;
	abidep1) echo "-e 1 $A scan --packages --weak -l --all-bytes --threads 1 $DIR" ;;
	abidep) echo "-e 1 $A scan --packages --weak -l --all-bytes $DIR" ;;
	cached) echo "-e 1 $A scan --packages --weak -l --all-bytes --cache $tmp/cache $DIR" ;;
	esac
}
rec I sides $SIDES
for s in $SIDES; do rec I cmd "$s" "$(cmd "$s" | cut -d' ' -f3- | sed "s|$tmp|TMP|g")"; done
n=$(echo $SIDES | wc -w)
for r in $(seq "$RUNS"); do
	order=$(echo $SIDES $SIDES | tr ' ' '\n' | sed -n "$(((r - 1) % n + 1)),+$((n - 1))p" | tr '\n' ' ')
	for s in $order; do
		# shellcheck disable=SC2046 # the command's words
		if t=$($T $(cmd "$s") 2>"$tmp/err"); then
			rec S "$s" wall "$r" "${t% *}"
			rec S "$s" cpu "$r" "${t#* }"
		else
			rec F "packages: $s: $(cat "$tmp/err")"
		fi
	done
	echo "   packages: round $r of $RUNS done"
done
