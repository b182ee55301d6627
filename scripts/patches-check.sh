#!/bin/sh
# make patches-check: the kernel series in patches/linux-6.12/ taken as a
# maintainer takes it, each step a test:
#
#   checkpatch  checkpatch.pl --strict of linux-source-6.12 on every patch
#   am          a fresh copy of linux-source-6.12 (hard links, not the
#               shared tree; abidep's own additions to it undone), made a
#               git repository, `git am` of the series
#   build N     after each patch N: vmlinux of patches/build.config
#               (allnoconfig plus sysfs, debugfs, tracepoints, modules,
#               cpuidle, KUnit and the series' suite; x86-64) with W=1 links,
#               and the patch adds no compiler warning: the warnings of the
#               build at the series' base are the baseline (bisectable)
#   kunit       the series' KUnit suite (fs/sysfs/.kunitconfig) under UML,
#               with the patched tree's kunit.py
#   guest       the debug kernel carrying the series (scripts/debug-kernel.sh
#               applies it after tests/vm/debug-patches/) booted in the guest:
#               tests/guest/patches.sh, with tests/guest/alias-visible/ (a
#               group whose is_visible() hides and narrows an aliased
#               attribute) built against that kernel first
#
# Prints "patches-check: N passed, N failed" and exits 1 on any failure.
# Work directory: $ABIDEP_CACHE/patches-check (the build directories are
# kept: later runs rebuild what changed). Not part of make test (cold: see
# README.md). PATCHES_CHECK_SKIP="guest kunit" skips steps.
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
cache=${ABIDEP_CACHE:-/var/cache/abidep}
work=$cache/patches-check
series_dir=$repo/patches/linux-6.12
config=$repo/patches/build.config
skip=${PATCHES_CHECK_SKIP:-}
pass=0 fail=0
start=$(date +%s)

say() { echo "patches-check: $*"; }
ok() {
	pass=$((pass + 1))
	say "ok   $*"
}
ko() {
	fail=$((fail + 1))
	say "FAIL $*"
}
skipped() { case " $skip " in *" $1 "*) return 0 ;; esac; return 1; }
finish() {
	say "$pass passed, $fail failed ($(($(date +%s) - start)) s)"
	[ "$fail" -eq 0 ]
	exit
}

for t in git make gcc flex bison bc python3; do
	command -v $t >/dev/null || { say "$t not found in PATH; run 'make deps'"; exit 2; }
done
src=$(scripts/linux-source.sh 6.12)
patches=$(find "$series_dir" -name '[0-9][0-9][0-9][0-9]-*.patch' ! -name '0000-*' | sort)
[ -n "$patches" ] || { say "no patches in $series_dir"; exit 2; }
mkdir -p "$work"
exec 9>"$work.lock"
flock 9

# checkpatch, from outside any git tree (inside one it takes the patch for
# a file to check).
for p in $patches; do
	if out=$(cd / && "$src/scripts/checkpatch.pl" --no-tree --strict --quiet "$p" 2>&1) && [ -z "$out" ]; then
		ok "checkpatch $(basename "$p")"
	else
		echo "$out"
		ko "checkpatch $(basename "$p")"
	fi
done

# The tree: linux-source-6.12 as Debian ships it. tests/kunit/run adds
# abidep's Kconfig and Makefile lines and a link to the shared tree: undone
# here, in new files (sed writes a new inode; the shared tree's stays).
tree=$work/linux
rm -rf "$tree"
(
	exec 8>"$src.abidep-lock"
	flock 8
	cp -al "$src" "$tree"
)
rm -f "$tree/.abidep-unpacked" "$tree/drivers/misc/abidep"
for f in Kconfig Makefile; do
	sed -e '/abidep\/Kconfig/d' -e '/CONFIG_ABIDEP/d' "$tree/drivers/misc/$f" >"$tree/drivers/misc/$f.new"
	mv "$tree/drivers/misc/$f.new" "$tree/drivers/misc/$f"
done
g() { git -C "$tree" -c user.name="patches-check" -c user.email="patches-check@localhost" "$@"; }
# Debian's top-level .gitignore ignores everything ("/*"): add by force.
g init -q
g config gc.auto 0
g add -f -A .
g commit -q -m "linux-source-6.12 as Debian ships it"
base=$(g rev-parse HEAD)
# shellcheck disable=SC2086 # the patch list
if g am -q $patches >"$work/am.log" 2>&1; then
	ok "git am of $(echo "$patches" | wc -l) patches onto linux-source-6.12"
else
	cat "$work/am.log"
	g am --abort >/dev/null 2>&1 || true
	ko "git am (see $work/am.log)"
	finish
fi

# Builds: the base, then each patch, in one build directory.
build=$work/build
mkdir -p "$build"
mkb() { make -C "$tree" O="$build" "$@"; }
warnings() { grep -E '(warning|error):' "$1" | sed -e "s|$tree/||" -e 's/:[0-9]*:[0-9]*:/:/' | sort -u; }
tip=$(g rev-parse HEAD)
n=$(echo "$patches" | wc -l)
for i in 0 $(seq 1 "$n"); do
	rev=$base
	[ "$i" -eq 0 ] || rev=$(g rev-list --reverse "$base..$tip" | sed -n "${i}p")
	g checkout -q "$rev"
	log=$work/build-$i.log
	what="build after patch $i ($(g log -1 --format=%s "$rev"))"
	[ "$i" -eq 0 ] && what="build of the base"
	if ! { mkb -s KCONFIG_ALLCONFIG="$config" allnoconfig &&
		mkb -s olddefconfig &&
		mkb -j"$(nproc)" W=1 vmlinux; } >"$log" 2>&1; then
		tail -n 30 "$log"
		ko "$what: the build failed (see $log)"
		continue
	fi
	# Every option asked for is in the configuration (when its Kconfig exists).
	missing=$(sed -e '/^#/d' -e '/^$/d' "$config" | while read -r line; do
		grep -qxF "$line" "$build/.config" || echo "$line"
	done)
	if [ "$i" -ge 2 ] && [ -n "$missing" ]; then
		ko "$what: not in .config: $missing"
		continue
	fi
	if [ "$i" -eq 0 ]; then
		warnings "$log" >"$work/warnings-base"
		ok "$what ($(wc -l <"$work/warnings-base") W=1 warnings, the baseline)"
		continue
	fi
	new=$(warnings "$log" | comm -23 - "$work/warnings-base")
	if [ -n "$new" ]; then
		echo "$new"
		ko "$what: new W=1 warnings"
	else
		ok "$what: W=1, no new warning, vmlinux links"
	fi
done
g checkout -q "$tip"

if skipped kunit; then
	say "skip kunit"
else
	log=$work/kunit.log
	(cd "$tree" && python3 tools/testing/kunit/kunit.py run --kunitconfig=fs/sysfs \
		--build_dir="$work/kunit" --jobs="$(nproc)" --timeout=300) >"$log" 2>&1 || true
	summary=$(grep -o 'Ran [0-9]* tests: passed: [0-9]*[^]]*' "$log" | tail -n 1)
	if echo "$summary" | grep -q 'passed: [1-9]' && ! echo "$summary" | grep -q 'failed\|crashed\|skipped'; then
		ok "kunit sysfs_alias under UML: $summary"
	else
		grep -E 'FAILED|Expected|error:|CRASHED' "$log" | head -n 30
		ko "kunit sysfs_alias under UML: ${summary:-no result} (see $log)"
	fi
fi

if skipped guest; then
	say "skip guest"
else
	if kver=$(scripts/debug-kernel.sh); then
		# The guest's test module, against that kernel, W=1, out of the
		# source tree (the guest finds it under build/).
		av=$repo/build/patches/alias-visible
		rm -rf "$av"
		mkdir -p "$av"
		cp tests/guest/alias-visible/Kbuild tests/guest/alias-visible/*.c "$av/"
		if make -C "$(scripts/debug-kernel.sh --kdir)" M="$av" W=1 modules >"$work/alias-visible.log" 2>&1 &&
			! grep -q 'warning:' "$work/alias-visible.log"; then
			ok "tests/guest/alias-visible builds against $kver, W=1 clean"
		else
			tail -n 20 "$work/alias-visible.log"
			ko "tests/guest/alias-visible against $kver (see $work/alias-visible.log)"
		fi
		log=$work/guest.log
		if KVER=$kver tests/vm/run --timeout 900 tests/guest/patches.sh >"$log" 2>&1; then
			ok "guest ($kver): $(tail -n 1 "$log")"
		else
			tail -n 40 "$log"
			ko "guest ($kver): $(tail -n 1 "$log") (see $log)"
		fi
	else
		ko "the debug kernel carrying the series did not build"
	fi
fi
finish
