#!/bin/sh
# checkpatch.pl --strict on every kernel source file (kmod/, bpf/), with the
# checkpatch of each supported kernel's Debian linux-source (scripts/kernels),
# and on every patch to the kernel (tests/vm/debug-patches/, and the series
# patches/linux-6.12/ but its cover letter), as patches.
# Prints "checkpatch: N passed, N failed" (a file and tree a test) and exits
# 1 if any file has an error, warning or check.
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
pass=0 fail=0
files=$(git ls-files -co --exclude-standard 'kmod/*.[ch]' 'bpf/*.[ch]' |
	grep -v -e '\.mod\.c$' -e 'vmlinux\.h$' -e '\.skel\.h$')
patches=$(git ls-files -co --exclude-standard 'tests/vm/debug-patches/*.patch' 'patches/*/*.patch' |
	grep -v '/0000-cover-letter\.patch$')
for kver in $(scripts/kver.sh --all); do
	series=$(scripts/kver.sh --series "$kver")
	src=$(scripts/linux-source.sh "$series")
	for f in $files $patches; do
		# A patch is read from outside the checkout: inside a git tree,
		# checkpatch.pl takes a patch file for a new file to check.
		case $f in
		*.patch) set -- sh -c 'cd / && exec "$0" "$@"' "$src/scripts/checkpatch.pl" "$repo/$f" ;;
		*) set -- "$src/scripts/checkpatch.pl" -f "$f" ;;
		esac
		if out=$("$@" --no-tree --strict --quiet 2>&1) &&
		   [ -z "$out" ]; then
			pass=$((pass + 1))
		else
			echo "$out"
			echo "checkpatch: FAIL $f (checkpatch of linux-source-$series)"
			fail=$((fail + 1))
		fi
	done
done
echo "checkpatch: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
