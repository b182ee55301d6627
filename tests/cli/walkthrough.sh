#!/bin/sh
# The walkthrough runner (scripts/walkthrough.py) on pages made to pass and
# to fail, and every walkthrough page of Documentation/ linted: each console
# block marked (run, skip with a reason, or file), each page with a run
# block. The pages' blocks themselves run in their suites (the "Walkthroughs"
# of Documentation/index.rst say which).
# Ends with "walkthrough: N passed, N failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
W="python3 scripts/walkthrough.py"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# run PAGE [PLACE]: its blocks' checks, in a directory of their own; the
# generated script's ok/not ok lines in $T/log.
run() {
	$W script "$1" --place "${2:-host}" >"$T/run.sh" || return 2
	(cd "$T/wd" && . "$OLDPWD/tests/lib.sh" && . "$T/run.sh" && finish page) >"$T/log" 2>&1
}

section "the pages of Documentation/"
pages=$(grep -rl '^\.\. walk:' Documentation | sort)
check "three walkthrough pages (fleet, packages, a maintainer's deprecation)" \
	same "$(echo "$pages" | grep -c walkthrough-)" 3
for p in $pages; do
	check "$p: every console block marked, a run block" $W lint "$p"
done

section "a page that passes"
mkdir -p "$T/wd"
cat >"$T/ok.rst" <<'EOF'
Title
=====

.. walk: file sub/data.txt
.. code-block:: text

   alpha
   beta gamma

.. walk: run
.. code-block:: console

   $ cat sub/data.txt
   alpha
   ...
   beta...gamma
   $ cd sub && X=42
   # echo "x=$X in $(basename "$PWD")" \
       continued
   x=42 in sub continued
   $ false || echo "exit $?"
   exit 1

.. walk: skip shown only, never run
.. code-block:: console

   $ rm -rf /

.. code-block:: c

   /* not a console block: needs no marker */
EOF
check "lint passes" $W lint "$T/ok.rst"
run "$T/ok.rst"
check "each command a check, all ok: the file, cd and variables carried over" \
	same "$(grep -c '^ok - ' "$T/log"); $(grep -c '^not ok' "$T/log")" "5; 0"
check "the skipped block never ran" sh -c "! grep -q 'rm -rf' '$T/log'"
check "a place with no command is an error" sh -c "! $W script '$T/ok.rst' --place guest >/dev/null 2>&1"

section "pages that fail"
fails() {
	sed "s#$1#$2#" "$T/ok.rst" >"$T/bad.rst"
	! cmp -s "$T/ok.rst" "$T/bad.rst" || return 2
	run "$T/bad.rst"
	grep -q '^not ok - ' "$T/log"
}
check "an output line not printed fails" fails '^   x=42 in sub continued$' '   x=43 in sub continued'
check "output lines out of order fail" fails '^   beta...gamma$' '   beta...gamma\n   alpha'
check "a command exiting non-zero fails, its output as shown" \
	fails 'false || echo "exit $?"' 'sh -c "echo exit 1; exit 3"'
check "a wildcard is within one line" fails '^   beta...gamma$' '   alpha...gamma'
lints() {
	sed "$1" "$T/ok.rst" >"$T/bad.rst"
	! $W lint "$T/bad.rst" 2>"$T/err" && grep -q "$2" "$T/err"
}
check "a console block without its marker is refused" lints '/^\.\. walk: run$/d' 'without a'
check "a skip without its reason is refused" lints 's/^\.\. walk: skip .*/.. walk: skip/' 'needs its reason'
check "a file path outside the working directory is refused" \
	lints 's|walk: file sub/data.txt|walk: file ../data.txt|' 'PATH relative'
check "a marker with no block after it is refused" \
	lints 's/^\.\. code-block:: c$/.. walk: run\n\nText./' 'without its code block'
check "an unknown marker is refused" lints 's/^\.\. walk: run$/.. walk: rnu/' 'unknown marker'

finish walkthrough
