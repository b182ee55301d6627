#!/bin/sh
# make htmldocs as a test suite: Documentation/ must build with Sphinx with
# no warning (-W: every :doc: link resolves, every kernel-doc comment of the
# headers is complete). Prints "htmldocs: N passed, N failed".
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$repo/build"
log="$repo/build/htmldocs.log"
start=$(date +%s)
if make -C "$repo" --no-print-directory htmldocs >"$log" 2>&1; then
	echo "htmldocs: built build/htmldocs in $(($(date +%s) - start)) s, no warnings"
	echo "htmldocs: 1 passed, 0 failed"
	exit 0
fi
cat "$log"
echo "htmldocs: sphinx-build failed or warned; see $log"
echo "htmldocs: 0 passed, 1 failed"
exit 1
