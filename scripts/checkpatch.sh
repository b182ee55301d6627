#!/bin/sh
# checkpatch.pl --strict on every kernel source file (kmod/, bpf/), with the
# checkpatch of each supported kernel's Debian linux-source (scripts/kernels).
# Prints "checkpatch: N passed, N failed" (a file and tree a test) and exits
# 1 if any file has an error, warning or check.
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
pass=0 fail=0
files=$(git ls-files -co --exclude-standard 'kmod/*.[ch]' 'bpf/*.[ch]' |
	grep -v -e '\.mod\.c$' -e 'vmlinux\.h$' -e '\.skel\.h$')
for kver in $(scripts/kver.sh --all); do
	series=$(scripts/kver.sh --series "$kver")
	src=$(scripts/linux-source.sh "$series")
	for f in $files; do
		if out=$("$src/scripts/checkpatch.pl" --no-tree --strict --quiet -f "$f" 2>&1) &&
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
