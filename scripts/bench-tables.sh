#!/bin/sh
# make bench's tables figures: abidep tables against the kernel's
# scripts/get_abi.pl, on the same Documentation/ABI doing the same job, for
# each supported kernel's source (scripts/kernels; Debian's linux-source-*),
# or of the series given as arguments:
#
#   validate  abidep tables validate -q ABI   vs  get_abi.pl --dir ABI validate
#   show      abidep tables show -t ABI PAT   vs  get_abi.pl --dir ABI search PAT
#
# Whole processes, timed by build/bench/timeit (fork to wait4); BENCH_RUNS
# rounds (default 15), each running the four commands once in an order
# rotated by one from the last round's. Every run must exit as it should:
# get_abi.pl 0; abidep validate 1 when it finds errors in the kernel's
# files (it does: it is stricter than get_abi.pl, which warns about
# nothing there) and 0 otherwise, as its untimed run says; show 0 (a
# match). Before the rounds, each side's counts are compared: the files
# and entries each parsed (abidep's summary; get_abi.pl's --debug output),
# and the entries each search found.
#
# Writes lines to $BENCH_TABLES_OUT (default build/bench/raw/tables.txt)
# for tests/bench/results.py: I KERNEL KEY VALUE...; S SIDE@KERNEL wall|cpu
# ROUND MICROSECONDS; C SIDE@KERNEL - WHAT EXPECTED GOT; F MESSAGE.
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
RUNS=${BENCH_RUNS:-15}
A=build/abidep
T=build/bench/timeit
OUT=${BENCH_TABLES_OUT:-build/bench/raw/tables.txt}
# A search both tools read the same way (a part of a What, no regex
# character): 64 entries on 6.1, 68 on 6.12.
PAT=power_supply
mkdir -p "$(dirname "$OUT")"
: >"$OUT"
rec() { echo "$*" >>"$OUT"; }
[ -x $T ] || gcc -O2 -static -o $T tests/bench/timeit.c
rec I - pattern "$PAT"
rec I - rounds "$RUNS"
rec I - perl "$(perl -e 'print $^V')"

# shellcheck disable=SC2048 # series, no spaces
for series in ${*:-$(scripts/kver.sh --all | xargs -n 1 scripts/kver.sh --series)}; do
	src=$(scripts/linux-source.sh "$series")
	abi=$src/Documentation/ABI
	getabi="perl $src/scripts/get_abi.pl --dir $abi"
	k=$series
	rec I "$k" source "$(dpkg-query -W -f '${Package} ${Version}' "linux-source-$series" 2>/dev/null || echo "$src")"

	# Counts, untimed.
	sum=$($A tables validate -q "$abi" 2>&1) && vs=0 || vs=$?
	[ "$vs" -le 1 ] || rec F "tables@$k: abidep tables validate exited $vs: $sum"
	rec I "$k" validate_summary "$sum"
	a_files=$(echo "$sum" | sed -n 's/^\([0-9]*\) files, .*/\1/p')
	a_entries=$(echo "$sum" | sed -n 's/.* files, \([0-9]*\) entries, .*/\1/p')
	g_files=$($getabi --debug 2 validate 2>&1 | grep -c '^Opening ' || true)
	g_entries=$($getabi --debug 1 validate 2>&1 | grep -c "$(printf '^\twhat: ')" || true)
	g_warn=$($getabi validate 2>&1 | grep -c '^Warning' || true)
	rec I "$k" getabi_warnings "$g_warn"
	rec C "validate@$k" - files "$g_files" "${a_files:-0}"
	rec C "validate@$k" - entries "$g_entries" "${a_entries:-0}"
	a_show=$($A -j tables show -t "$abi" "$PAT" 2>/dev/null | python3 -c 'import json, sys; print(len(json.load(sys.stdin)))' || echo 0)
	g_show=$($getabi search "$PAT" 2>/dev/null | grep -c '^Defined on file' || true)
	rec C "show@$k" - entries "$g_show" "$a_show"

	sides="abidep_validate getabi_validate abidep_show getabi_search"
	rec I "$k" sides $sides
	cmd() {
		case $1 in
		abidep_validate) echo "-e $vs $A tables validate -q $abi" ;;
		getabi_validate) echo "-e 0 $getabi validate" ;;
		abidep_show) echo "-e 0 $A tables show -t $abi $PAT" ;;
		getabi_search) echo "-e 0 $getabi search $PAT" ;;
		esac
	}
	for r in $(seq "$RUNS"); do
		order=$(echo $sides $sides | tr ' ' '\n' | sed -n "$(((r - 1) % 4 + 1)),+3p" | tr '\n' ' ')
		for s in $order; do
			# shellcheck disable=SC2046 # the command's words
			if t=$($T $(cmd "$s") 2>/tmp/bench-tables.err); then
				rec S "$s@$k" wall "$r" "${t% *}"
				rec S "$s@$k" cpu "$r" "${t#* }"
			else
				rec F "tables@$k: $s: $(cat /tmp/bench-tables.err)"
			fi
		done
	done
	echo "   tables: $k done ($RUNS rounds)"
done
rm -f /tmp/bench-tables.err
