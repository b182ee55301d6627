#!/bin/sh
# checkpatch.pl --strict on every kernel source file (kmod/, bpf/), from
# Debian's linux-source-6.1. Prints "checkpatch: N passed, N failed" (a file
# a test) and exits 1 if any file has an error, warning or check.
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
src=$("$repo/scripts/linux-source.sh")
cd "$repo"
pass=0 fail=0
for f in $(git ls-files -co --exclude-standard 'kmod/*.[ch]' 'bpf/*.[ch]' |
	   grep -v -e '\.mod\.c$' -e 'vmlinux\.h$' -e '\.skel\.h$'); do
	if out=$("$src/scripts/checkpatch.pl" --no-tree --strict --quiet -f "$f" 2>&1) &&
	   [ -z "$out" ]; then
		pass=$((pass + 1))
	else
		echo "$out"
		echo "checkpatch: FAIL $f"
		fail=$((fail + 1))
	fi
done
echo "checkpatch: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
