#!/bin/sh
# CLI tests of `abidep tables`: exit codes, messages, JSON, exports, the
# whole Documentation/ABI trees of linux-source-6.1 and 6.12, and the tables'
# per-kernel facts. Then what every object shares: the short options, the
# exit statuses of abidep(8), and their man pages and completion.
# Ends with "cli: N passed, N failed".
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
A=build/abidep
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# Both trees are unpacked by 'make deps'; a missing one is a failure below.
SRC61=$(scripts/linux-source.sh 6.1 2>/dev/null)
SRC612=$(scripts/linux-source.sh 6.12 2>/dev/null)
ABI=$SRC61/Documentation/ABI
ABI612=$SRC612/Documentation/ABI

# Exit status of a command, its output kept in $T/out and $T/err.
status() {
	"$@" >"$T/out" 2>"$T/err"
	echo $?
}

section "validate"
check "the migration tables are clean" test "$(status $A tables validate)" = 0
check "... and say so" grep -q ' 0 errors, 0 warnings' "$T/out"
printf 'What:\t/sys/a\nDescription:\tplain ABI\n' >"$T/plain0"
check "without PATH, validation is strict: plain ABI entries fail there" \
	sh -c "ABIDEP_TABLES='$T/plain0' $A tables validate 2>&1 | grep -q \"'/sys/a' is not a migration entry\""

cat >"$T/bad" <<'X'
What:		/sys/class/x/xN/old
Status:		deprecated
Deprecated:	2010-02-30
Remove-after:	2009-01-01
Replaced-by:	/sys//x
Source:		here
Colour:		blue
Description:	text

What:		/sys/class/x/xN/old
Status:		gone
Replaced-by:	none
Description:	again
X
check "errors exit 1" test "$(status $A tables validate "$T/bad")" = 1
check "bad date, with file and line" grep -qx "$T/bad:3: error: bad date in Deprecated: '2010-02-30' (YYYY-MM-DD, YYYY-MM or YYYY)" "$T/err"
check "bad pattern" grep -q "^$T/bad:5: error: bad pattern in Replaced-by: '/sys//x'" "$T/err"
check "unknown field" grep -qx "$T/bad:7: error: unknown field 'Colour:'" "$T/err"
check "duplicate What" grep -qx "$T/bad:10: error: duplicate What '/sys/class/x/xN/old' (first at $T/bad:1)" "$T/err"
check "bad status" grep -q "^$T/bad:11: error: bad Status: 'gone'" "$T/err"
check "missing Source" grep -q "^$T/bad:10: error: missing field Source:" "$T/err"
printf 'What:\t/sys/a\nStatus:\tdeprecated\nDeprecated:\t2012-01-01\nRemove-after:\t2011-01-01\nReplaced-by:\tnone\nSource:\tx\nDescription:\tx\n' >"$T/order"
check "removal before deprecation" test "$(status $A tables validate "$T/order")" = 1
check "... named" grep -q "order:4: error: removal (2011-01-01) before deprecation (2012-01-01)" "$T/err"
check "a missing file is an error" test "$(status $A tables validate "$T/nope")" = 1
check "... named" grep -q "nope: error: cannot read: No such file or directory" "$T/err"
printf 'What:\t/sys/a\nDescription:\tplain ABI\n' >"$T/plain"
check "plain Documentation/ABI files are accepted" test "$(status $A tables validate "$T/plain")" = 0
check "--strict wants migration entries" test "$(status $A tables validate --strict "$T/plain")" = 1
check "JSON diagnostics" sh -c "$A tables validate -j '$T/bad' | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d[\"errors\"] >= 6 and d[\"diagnostics\"][0][\"line\"] == 3'"

section "the whole Documentation/ABI tree of linux-source-6.1"
check "linux-source-6.1 is unpacked (run 'make deps')" test -d "$SRC61/Documentation/ABI"
check "read without a crash (exit 1: the kernel's own errors)" \
	sh -c "test -d '$ABI' && test \"\$($A tables validate '$ABI' >'$T/out' 2>'$T/err'; echo \$?)\" = 1"
check "all 5200+ What lines read" sh -c "grep -Eq '^56[0-9] files, 40[0-9]{2} entries, 5[0-9]{3} What lines' '$T/out'"
check "every file made sense (none without What:)" sh -c "! grep -q '^not an ABI file' '$T/out'"
n_what=$(grep -rh '^What:' "$ABI" | wc -l)
check "at least as many What lines as grep finds ($n_what)" \
	test "$(sed -n 's/.* entries, \([0-9]*\) What lines.*/\1/p' "$T/out")" -ge "$n_what"
check "a README is skipped, a prose file is reported" sh -c "
	mkdir '$T/tree' && printf 'What:\t/sys/a\nDescription:\tx\n' > '$T/tree/f' &&
	echo 'just prose' > '$T/tree/prose' && echo x > '$T/tree/README' &&
	$A tables validate '$T/tree' | grep -qx 'not an ABI file (no What: line): $T/tree/prose'"

section "the whole Documentation/ABI tree of linux-source-6.12"
check "linux-source-6.12 is unpacked (run 'make deps')" test -d "$SRC612/Documentation/ABI"
check "read without a crash (exit 1: the kernel's own errors)" \
	sh -c "test -d '$ABI612' && test \"\$($A tables validate -q '$ABI612' >'$T/out' 2>'$T/err'; echo \$?)\" = 1"
check "... every file an ABI file, 5700+ What lines" \
	sh -c "grep -Eq '^6[0-9]{2} files, 4[0-9]{3} entries, 5[0-9]{3} What lines' '$T/out' && ! grep -q '^not an ABI file' '$T/out'"
n_what=$(grep -rh '^What:' "$ABI612" 2>/dev/null | wc -l)
check "at least as many What lines as grep finds ($n_what)" \
	test "$(sed -n 's/.* entries, \([0-9]*\) What lines.*/\1/p' "$T/out")" -ge "$n_what"
# The kernel's own reader, scripts/get_abi.pl, prints each entry it reads.
for src in "$SRC61" "$SRC612"; do
	n=$(cd "$src" && perl scripts/get_abi.pl --dir Documentation/ABI --debug 1 validate 2>&1 | grep -c '^	what: ')
	check "as many entries as $(basename "$src")'s get_abi.pl reads ($n)" \
		sh -c "test $n -gt 0 && $A tables validate -q '$src/Documentation/ABI' | grep -q ' files, $n entries, '"
done
# The kinds of error, the names and numbers in them left out.
kinds() {
	$A tables validate "$1" 2>&1 >/dev/null | grep ': error: ' |
		sed "s/.*: error: //; s/'[^']*'/X/g; s/ (first at .*//; s/line [0-9]*/line N/" | sort -u
}
kinds "$ABI" >"$T/kinds61"
kinds "$ABI612" >"$T/kinds612"
check "no kind of error on 6.12 that 6.1 has not (no new syntax refused)" \
	sh -c "test -s '$T/kinds61' && comm -13 '$T/kinds61' '$T/kinds612' | { ! grep .; }"

section "list, show, resolve on the kernel's own trees: get_abi.pl's errors as warnings"
# The entries get_abi.pl reads, as "FILE<TAB>first What", one per line:
# --debug 3 prints "Opening FILE" and then "<TAB>what: WHAT" for each entry
# (its What: lines joined by \xac).
get_abi_entries() {
	(cd "$1" && perl scripts/get_abi.pl --dir Documentation/ABI --debug 3 validate 2>&1 >/dev/null) |
		LC_ALL=C awk '/^Opening /{ f = substr($0, 27) } /^\twhat: /{ w = substr($0, 8); sub(/\xac.*/, "", w); print f "\t" w }' |
		LC_ALL=C sort
}
# The same from tables list -j (get_abi.pl drops a What's trailing , . or ;).
list_entries() {	# ABI JSON
	python3 -c '
import json, re, sys
for e in json.load(open(sys.argv[2])):
    print(e["file"][len(sys.argv[1]) + 1:] + "\t" + re.sub(r"[,.;]$", "", e["what"][0]))
' "$1" "$2" | LC_ALL=C sort
}
for src in "$SRC61" "$SRC612"; do
	abi=$src/Documentation/ABI k=$(basename "$src")
	check "$k: tables list reads the tree (exit 0)" \
		sh -c "test -d '$abi' && $A tables list -j -t '$abi' >'$T/list.json' 2>'$T/list.err'"
	check "... with warnings, no error" \
		sh -c "grep -q ': warning: ' '$T/list.err' && ! grep -q ': error: ' '$T/list.err'"
	n=$(grep -c ': warning: ' "$T/list.err")
	tolerated=$(sed -n 's/^abidep: .*: \([0-9]*\) error(s) read as warnings, .*/\1/p' "$T/list.err")
	check "... and says how many of them validate calls errors (${tolerated:-none})" \
		sh -c "test -n '$tolerated' && $A tables validate --no-strict -q '$abi' | grep -q ': $tolerated errors, '"
	get_abi_entries "$src" >"$T/get_abi"
	list_entries "$abi" "$T/list.json" >"$T/ours"
	check "... the entries get_abi.pl reads, file and What, $(wc -l <"$T/get_abi") of them" \
		sh -c "test -s '$T/get_abi' && diff -u '$T/get_abi' '$T/ours'"
	check "$k: --strict refuses the tree (exit 2)" test "$(status $A tables list --strict -t "$abi")" = 2
	check "... naming the same $n problems, its $tolerated warnings as errors" sh -c "
		grep -E ': (error|warning): ' '$T/err' | sed 's/: error: /: warning: /' >'$T/strict' &&
		grep ': warning: ' '$T/list.err' | diff -u - '$T/strict' &&
		grep -q 'cannot use the tables $abi: $tolerated error(s)' '$T/err'"
	check "$k: show reads it too" sh -c "$A tables show -t '$abi' physical_package_id 2>/dev/null | grep -q '^What:.*/topology/physical_package_id'"
	check "$k: resolve too" test "$(status $A tables resolve -t "$abi" --sysfs "$T")" = 0
	check "$k: export does not (the module is built from what it writes)" \
		test "$(status $A tables export --abi -t "$abi")" = 2
done

printf 'What:\t\t/sys/x/a\nContact:\ta\nContact:\tb\nDescription:\tx\n' >"$T/contact"
check "a Contact: given twice: listed (exit 0)" test "$(status $A tables list -t "$T/contact")" = 0
check "... with exactly one warning, and the count" same "$(cat "$T/err")" \
"$T/contact:3: warning: 'Contact:' given twice in the entry starting at line 1
abidep: $T/contact: 1 error(s) read as warnings, as the kernel's get_abi.pl reads them (--strict refuses them)"
check "... --strict: exit 2" test "$(status $A tables list --strict -t "$T/contact")" = 2
check "... with it as an error" grep -qx "$T/contact:3: error: 'Contact:' given twice in the entry starting at line 1" "$T/err"
check "... validate: an error still (exit 1)" test "$(status $A tables validate "$T/contact")" = 1
check "... the default tables are read strictly (exit 2)" \
	test "$(ABIDEP_TABLES="$T/contact" status $A tables list)" = 2
{ cat "$T/contact"; printf '\nWhat:\t/sys/x/b\nStatus:\tremoved\nRemoved:\t6.1\nReplaced-by:\tnone\nSource:\tx\nDescription:\tx\n'; } >"$T/contact-table"
check "... and so is a file with a migration entry (exit 2)" \
	test "$(status $A tables list -t "$T/contact-table")" = 2
check "... where it is an error" grep -qx "$T/contact-table:3: error: 'Contact:' given twice in the entry starting at line 1" "$T/err"
printf 'Description:\tx\nWhat:\t/sys/x/a\nDescription:\tx\n' >"$T/first"
check "a field before any What: is fatal without --strict too (exit 2)" test "$(status $A tables list -t "$T/first")" = 2
check "... named" grep -qx "$T/first:1: error: 'Description:' before any 'What:' (What: must come first)" "$T/err"
printf 'What:\nDescription:\tx\n' >"$T/nowhat"
check "an entry with an empty What: is fatal (exit 2)" test "$(status $A tables list -t "$T/nowhat")" = 2
check "a missing tree is fatal (exit 2)" test "$(status $A tables list -t "$T/none")" = 2
mkdir -p "$T/sys/devices"
touch "$T/escape"
printf 'What:\t/sys/devices/../../escape\nDescription:\tx\n' >"$T/dotdot"
check "resolve: a What with '..' is listed with a warning (exit 0)" \
	test "$(status $A tables resolve -t "$T/dotdot" --sysfs "$T/sys")" = 0
check "... not expanded (it would climb out of --sysfs)" \
	sh -c "grep -qx '	(not expanded: .* component)' '$T/out' && ! grep -q '^	/' '$T/out' &&
	       grep -q '; 1 not expanded (bad patterns)\$' '$T/out'"

section "per-kernel facts: every obsolete and removed entry of both trees"
for abi in "$ABI" "$ABI612"; do
	grep -h '^What:' "$abi/obsolete/"* "$abi/removed/"* 2>/dev/null | sed 's/^What:[[:space:]]*//; s/[[:space:]]*$//' | sort -u >"$T/kw"
	grep -h '^What:' migration-tables/* | sed 's/^What:[[:space:]]*//; s/[[:space:]]*$//' | sort -u >"$T/tw"
	check "$(basename "$(dirname "$(dirname "$abi")")"): all $(wc -l <"$T/kw") What lines of obsolete/ and removed/ are in migration-tables/" \
		sh -c "test -s '$T/kw' && comm -23 '$T/kw' '$T/tw' | { ! grep .; }"
done
check "every What of removed/ in 6.12 is Status: removed in migration-tables/" sh -c "$A tables list -j | python3 -c '
import glob, json, re, sys
st = {w: x[\"status\"] for x in json.load(sys.stdin) for w in x[\"what\"]}
whats = [m.strip() for f in glob.glob(\"$ABI612/removed/*\") for m in re.findall(r\"^What:(.*)$\", open(f).read(), re.M)]
bad = [w for w in whats if st.get(w) != \"removed\"]
assert whats and not bad, bad
'"
check "selinux checkreqprot and disable: removed in 6.4" sh -c "$A tables list -j | python3 -c '
import json, sys
e = {w: x for x in json.load(sys.stdin) for w in x[\"what\"]}
for w in (\"/sys/fs/selinux/checkreqprot\", \"/sys/fs/selinux/disable\"):
    assert e[w][\"status\"] == \"removed\" and e[w][\"removed\"] == \"6.4\", e[w]
assert e[\"/sys/firmware/efi/vars\"][\"removed\"] == \"6.0\", e[\"/sys/firmware/efi/vars\"]
'"
check "... their Source names both trees" sh -c "
	for w in /sys/fs/selinux/checkreqprot /sys/fs/selinux/disable /sys/firmware/efi/vars; do
		$A tables show \$w | grep -q '(linux-source-6.1)' && $A tables show \$w | grep -q '(linux-source-6.12)' || exit 1
	done"

section "Ignore: and .enumerators: known enumerators"
mkdir "$T/en"
# The rc entry of migration-tables, with an Ignore: field; $1 its lines.
ign_table() {
	sed -n '/^What:.*rcN\/current_protocol$/,/^$/p' migration-tables/sysfs-class-rc |
		awk -v ign="$1" '/^Source:/ { print "Ignore:\t\t" ign } { print }'
}
ign_table '/usr/bin/udevadm	udevadm info -a reads every attribute
		/usr/bin/tar tar -c of the device directory' >"$T/en/good"
check "an Ignore: field of two lines is valid" test "$(status $A tables validate --strict "$T/en/good")" = 0
printf 'Ignore:\t\t/usr/bin/udevadm\tudevadm info -a reads every attribute\n\t\t/usr/bin/tar tar -c of the device directory\n' >"$T/en/want-show"
check "... show prints it as written" sh -c "$A tables show -t '$T/en/good' rcN/current_protocol | grep -A1 '^Ignore:' | diff -u '$T/en/want-show' -"
check "... list -j carries it, each with its reason and line" sh -c "$A tables list -j -t '$T/en/good' | python3 -c '
import json, sys
e = json.load(sys.stdin)[0]
assert e[\"ignore\"] == [
 {\"exe\": \"/usr/bin/udevadm\", \"reason\": \"udevadm info -a reads every attribute\", \"file\": \"$T/en/good\", \"line\": 9},
 {\"exe\": \"/usr/bin/tar\", \"reason\": \"tar -c of the device directory\", \"file\": \"$T/en/good\", \"line\": 10}], e
'"
mkdir "$T/en/with" "$T/en/without"
cp "$T/en/good" "$T/en/with/sysfs-class-rc"
sed -n '/^What:.*rcN\/current_protocol$/,/^$/p' migration-tables/sysfs-class-rc >"$T/en/without/sysfs-class-rc"
check "... export --c ignores it: the module's table as without" \
	sh -c "cd '$T/en/with' && '$PWD/$A' tables export --c -t sysfs-class-rc >'$T/en/c1' && cd '$T/en/without' && '$PWD/$A' tables export --c -t sysfs-class-rc | diff -u - '$T/en/c1'"
check "... export --abi drops it, as our other fields" sh -c "! $A tables export --abi -t '$T/en/good' | grep -q -e Ignore -e udevadm"
ign_table 'udevadm	a relative path' >"$T/en/rel"
check "a relative path: exit 1" test "$(status $A tables validate "$T/en/rel")" = 1
check "... named, at its line" grep -qx "$T/en/rel:9: error: bad executable in Ignore: 'udevadm': not an absolute path" "$T/err"
ign_table '/usr/bin/udevadm
		/usr/bin/tar	a reason' >"$T/en/noreason"
check "a missing reason: exit 1" test "$(status $A tables validate "$T/en/noreason")" = 1
check "... named, at its line" grep -qx "$T/en/noreason:9: error: no reason for '/usr/bin/udevadm' in Ignore: (EXE, then why it reads every attribute)" "$T/err"
ign_table '/usr/bin/tar	one
		/usr/bin/tar	two' >"$T/en/dup"
check "an executable twice: exit 1" test "$(status $A tables validate "$T/en/dup")" = 1
check "... named, with the first" grep -qx "$T/en/dup:10: error: '/usr/bin/tar' given twice in Ignore: (first at $T/en/dup:9)" "$T/err"
ign_table '/usr/../bin/tar	dots' >"$T/en/dots"
check "a '..' component: exit 1" test "$(status $A tables validate "$T/en/dots")" = 1
ign_table '' >"$T/en/empty"
check "an empty Ignore:: exit 1" test "$(status $A tables validate "$T/en/empty")" = 1
check "... named" grep -q "^$T/en/empty:9: error: empty Ignore: " "$T/err"
mkdir "$T/en/dir"
cp "$T/en/good" "$T/en/dir/sysfs-class-rc"
printf '# comment\n\n/usr/bin/lshw\tlists all\nlshw\trelative\n/usr/bin/tar\n/usr/bin/lshw\tagain\n' >"$T/en/dir/.enumerators"
check ".enumerators in a tables dir: read, and checked: exit 1" test "$(status $A tables validate "$T/en/dir")" = 1
cat >"$T/en/want" <<X
$T/en/dir/.enumerators:4: error: bad executable in .enumerators: 'lshw': not an absolute path
$T/en/dir/.enumerators:5: error: no reason for '/usr/bin/tar' in .enumerators (EXE, then why it reads every attribute)
$T/en/dir/.enumerators:6: error: '/usr/bin/lshw' given twice in .enumerators (first at $T/en/dir/.enumerators:3)
X
check "... each error at its line" diff -u "$T/en/want" "$T/err"
check "... not an ABI file: not counted as one" grep -qx "1 files, 1 entries, 1 What lines: 3 errors, 0 warnings" "$T/out"
check "the repository's .enumerators: valid, two, each with a reason" sh -c "$A tables validate -j | python3 -c '
import json, sys
d = json.load(sys.stdin)
n = d[\"enumerators\"]
assert d[\"errors\"] == 0 and [e[\"exe\"] for e in n] == [\"/usr/bin/lshw\", \"/usr/bin/tar\"], n
assert all(e[\"reason\"] and e[\"file\"].endswith(\"migration-tables/.enumerators\") for e in n), n
'"
check "... validate says how many" sh -c "$A tables validate | grep -qx '2 known enumerators (.enumerators files)'"
for s in 6.1 6.12; do
	src=$(scripts/linux-source.sh "$s")
	mkdir -p "$T/en/gsrc/Documentation/ABI/testing"
	cp migration-tables/.enumerators "$T/en/gsrc/Documentation/ABI/testing/"
	cp migration-tables/.enumerators "$T/en/gsrc/Documentation/ABI/testing/enumerators"
	# --debug 2 names each file it opens: the plain name is, the dot file not.
	perl "$src/scripts/get_abi.pl" --dir "$T/en/gsrc/Documentation/ABI" --debug 2 validate >"$T/en/opened" 2>&1
	check "$(basename "$src")'s get_abi.pl does not read .enumerators as an ABI file" \
		sh -c "grep -q '^Opening .*/testing/enumerators\$' '$T/en/opened' && ! grep -q '/\\.enumerators' '$T/en/opened'"
done

section "list, show, resolve"
check "list has the rc rename" sh -c "$A tables list | grep -q '^deprecated  2010-04-08  2012-04-08        /sys/class/rc/rcN/current_protocol -> /sys/class/rc/rcN/protocols$'"
check "list -j is JSON with every entry" sh -c "$A tables list -j | python3 -c 'import json,sys; d=json.load(sys.stdin); assert len(d) > 100 and any(e[\"status\"] == \"removed\" for e in d)'"
check "list --status removed" sh -c "$A tables list --status removed | tail -n +2 | awk '{print \$1}' | sort -u | grep -qx removed"
check "list --status bad is a usage error" test "$(status $A tables list --status gone)" = 2
check "show finds the entry of a concrete file" sh -c "$A tables show /sys/class/rc/rc0/current_protocol | grep -q '^Remove-after:	2012-04-08'"
check "show WHAT -p: options after the operand too" sh -c "test \"\$($A tables show current_governor_ro -p)\" = \"\$($A tables show -p current_governor_ro)\""
check "show -p" sh -c "$A tables show -p current_governor_ro | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d[0][\"replaced_by\"] == [\"/sys/devices/system/cpu/cpuidle/current_governor\"]'"
check "show of nothing exits 1" test "$(status $A tables show /sys/no/such)" = 1
check "... and says so" grep -qx "abidep: no entry matches '/sys/no/such'" "$T/err"
mkdir -p "$T/sys/class/rc/rc0" "$T/sys/class/rc/rc3" "$T/sys/devices/system/cpu/cpuidle"
touch "$T/sys/class/rc/rc0/current_protocol" "$T/sys/class/rc/rc3/protocol" \
	"$T/sys/devices/system/cpu/cpuidle/current_governor_ro"
check "resolve against a directory" test "$(status $A tables resolve --sysfs "$T/sys")" = 0
check "... expands rcN" grep -qx "	$T/sys/class/rc/rc0/current_protocol" "$T/out"
check "... and the obsolete cpuidle file" grep -qx "	$T/sys/devices/system/cpu/cpuidle/current_governor_ro" "$T/out"
check "... and counts what matches nothing" grep -q '^[0-9]* What paths in sysfs: 3 match files' "$T/out"
check "resolve of a missing directory is an error" test "$(status $A tables resolve --sysfs "$T/none")" = 2

section "export"
check "export --c is what kmod/ compiles (run 'make tables' if not)" \
	sh -c "$A tables export --c | diff -u kmod/table_gen.h -"
# An alias the module would make needs a removal date: no silent drop.
mkdir -p "$T/nora"
sed '/^Remove-after:/d' migration-tables/sysfs-class-rc >"$T/nora/sysfs-class-rc"
check "export --c of an alias without Remove-after: exit 2" \
	test "$(status $A tables export --c -t "$T/nora" -o "$T/nora.h")" = 2
check "... naming each entry and what to add" sh -c "
	test \$(grep -c ' is an alias the module would make, but has no Remove-after: add one' '$T/err') = 3 &&
	grep -q '^abidep: export --c: $T/nora/sysfs-class-rc:9: /sys/class/rc/rcN/current_protocol ' '$T/err'"
check "... and writes nothing" test ! -e "$T/nora.h"
check "export --abi reads back as clean Documentation/ABI" sh -c "
	$A tables export --abi > '$T/abi' && $A tables validate --no-strict '$T/abi' | grep -q ' 0 errors, 0 warnings'"
check "export --abi keeps every What" test "$(grep -c '^What:' "$T/abi")" = "$(cat migration-tables/* | grep -c '^What:')"
check "export needs a format" test "$(status $A tables export)" = 2
check "export -o to an unwritable place fails" test "$(status $A tables export --c -o /nonexistent/x.h)" = 2
# -o as every writer does it: a temporary file beside FILE, renamed over it.
mkdir -p "$T/ex/dir" "$T/ex/abi/sysfs-class-rc"
check "export -o FILE: what standard output gets" sh -c "
	$A tables export --c -o '$T/ex/c.h' && $A tables export --c | cmp -s - '$T/ex/c.h'"
check "export -o DIR for --c cannot replace it: exit 2" test "$(status $A tables export --c -o "$T/ex/dir")" = 2
check "... says why" grep -q "^abidep: cannot replace $T/ex/dir with " "$T/err"
check "export --abi -o DIR with a table's name taken by a directory: exit 2" \
	test "$(status $A tables export --abi -o "$T/ex/abi")" = 2
check "... and no temporary file is left behind" same "$(find "$T/ex" -name '.*' | wc -l)" 0

section "export --users: Users: from a usage DB and package files"
U=$T/users
mkdir -p "$U"
check "the DB helper builds (tests/build-helper fill)" sh -c "tests/build-helper fill && cp build/tests/fill '$U/fill'"
check "dpkg-deb and rpmbuild are installed (make deps)" \
	sh -c "command -v dpkg-deb && command -v rpmbuild" </dev/null
# Four entries: rc with a Users: of its own and evidence of both kinds;
# cpuidle with none of its own and a reference only; foo with a Users: and
# no evidence; a plain entry, referenced and used, but not a migration entry.
cat >"$U/tables" <<'X'
What:		/sys/class/rc/rcN/current_protocol
Contact:	Test <t@example.org>
Status:		deprecated
Deprecated:	2010-04-08
Remove-after:	2012-04-08
Replaced-by:	/sys/class/rc/rcN/protocols
Source:		test
Description:
		The IR protocol.
Users:		ir-keytable (v4l-utils)

What:		/sys/devices/system/cpu/cpuidle/current_governor_ro
Contact:	Test <t@example.org>
Status:		deprecated
Deprecated:	2019-06
Remove-after:	2024-03
Replaced-by:	/sys/devices/system/cpu/cpuidle/current_governor
Source:		test
Description:
		Referenced only.

What:		/sys/class/foo/fooN/old_mode
Contact:	Test <t@example.org>
Status:		deprecated
Deprecated:	2024-01-01
Remove-after:	2030-01-01
Replaced-by:	/sys/class/foo/fooN/mode
Source:		test
Description:
		No evidence.
Users:		foo-tools

What:		/sys/class/plain/thing
Contact:	Test <t@example.org>
Description:
		Not a migration entry.
Users:		nobody
X
check "the test tables are valid" test "$(status $A tables validate "$U/tables")" = 0
# The usage DB (fill's rows: tests/cli/check.sh): the rc entry used by
# three programs on two hosts, one of them named with a newline; the
# plain entry used too; a third host with a session and no use.
# 2024-05-01T10:00:00Z; day 60 is 2024-06-30.
t0=1714557600
t60=$((t0 + 60 * 86400))
RC=/sys/class/rc/rcN/current_protocol
R0=/sys/class/rc/rc0/current_protocol
# host|session|path|what|table|status|op|uid|cgroup_id|cgroup|exe|comm|pid|ppid|count|errors|first|last
{
	echo "h1|b1:1|$R0|$RC|t|deprecated|write|1000|55|-|/usr/local/bin/legacy-irctl|legacy-irctl|400|1|4|4|$((t0 + 5))|$((t0 + 9))"
	echo "h1|b1:1|$R0|$RC|t|deprecated|read|0|56|-|/usr/bin/cat|cat|500|1|3|0|$t0|$t0"
	echo "h2|b2:3|/sys/class/rc/rc1/current_protocol|$RC|t|deprecated|read|0|56|-|/usr/bin/cat|cat|500|1|2|0|$t60|$((t60 + 10))"
	echo "h2|b2:3|$R0|$RC|t|deprecated|read|0|56|-|/usr/bin/evil%0AWhat: /sys/evil|evil|501|1|1|0|$t0|$t0"
	echo "h1|b1:1|/sys/class/plain/thing|/sys/class/plain/thing|t|-|read|0|56|-|/usr/bin/cat|cat|500|1|1|0|$t0|$t0"
	echo "S|h3|b3:1|$t0|$t60"
} | "$U/fill" "$U/u.db"
check "the usage DB is written (fill)" test -s "$U/u.db"
mkdir -p "$U/root/var/lib/dpkg/info"
printf '/.\n/bin\n/bin/cat\n' >"$U/root/var/lib/dpkg/info/coreutils.list"
# deb PACKAGE VERSION SOURCE MAINTAINER PATH=COMMAND...: a package of
# scripts, built by dpkg-deb into $U/debs.
deb() {
	d=$U/build/$1
	mkdir -p "$d/DEBIAN" "$U/debs"
	printf 'Package: %s\nVersion: %s\nArchitecture: all\nSource: %s\nMaintainer: %s\nDescription: test\n test package\n' \
		"$1" "$2" "$3" "$4" >"$d/DEBIAN/control"
	p=$1 v=$2
	shift 4
	for f in "$@"; do
		mkdir -p "$d$(dirname "${f%%=*}")"
		printf '#!/bin/sh\n%s\n' "${f#*=}" >"$d${f%%=*}"
	done
	dpkg-deb --root-owner-group --build "$d" "$U/debs/${p}_${v}_all.deb" >/dev/null
}
# ir-tools: two binary packages, one with five files (one of them
# referencing twice); aaa-src: a medium reference, sorted first; ir-weak:
# a weak one only (a bare name), which is no evidence.
deb ir-legacy 1.0-1 ir-tools 'Ann Example <ann@example.org>' \
	"/usr/bin/ir-setup=cat $R0; cat $R0" "/usr/lib/ir-legacy/a=cat $R0" \
	"/usr/lib/ir-legacy/b=cat $R0" "/usr/lib/ir-legacy/c=cat $R0" \
	"/usr/lib/ir-legacy/d=cat $R0"
deb ir-legacy-extra 1.0-1 ir-tools 'Ann Example <ann@example.org>' "/usr/sbin/ir-extra=echo nec >$R0"
deb aaa-tool 2.0 aaa-src 'Zed <z@example.org>' \
	"/usr/share/aaa/conf=cat rc0/current_protocol /sys/devices/system/cpu/cpuidle/current_governor_ro /sys/class/plain/thing"
deb ir-weak 1.0 ir-weak 'Wes <w@example.org>' "/usr/bin/ir-weak=echo current_protocol"
check "four test packages built (dpkg-deb --build)" test "$(ls "$U/debs" | wc -l)" = 4

# export --abi --users of the test tables.
ux() {
	$A tables export --abi -t "$U/tables" --users "$@"
}
# Of the exported $1, the entry of What $2: its lines from Users: on.
users_of() {
	awk -v w="$2" '/^What:/ { on = $0 == "What:\t\t" w } on' "$1" | sed -n '/^Users:/,/^$/p' |
		grep .
}
today=$(date -u +%Y-%m-%d)
# An export's "Seen by abidep on" date, made today's, in FILE: a run that
# passes midnight writes the next day's. Called just after the export.
on_today() {
	sed -i "s/Seen by abidep on $(date -u +%Y-%m-%d) (/Seen by abidep on $today (/" "$1"
}
check "with a DB and package files: exit 0" \
	test "$(status ux -d "$U/u.db" --root "$U/root" --scan-packages "$U/debs")" = 0
on_today "$T/out"
cp "$T/out" "$U/users.abi"
seen="Seen by abidep on $today (usage DB, 3 hosts; package scan of 4 package files):"
printf '%s\n' "Users:		ir-keytable (v4l-utils)" \
	"		$seen" \
	"		Executables seen using it:" \
	"		  /usr/bin/cat (package coreutils), 5 uses on 2 hosts, last 2024-06-30" \
	"		  /usr/bin/evil\\x0AWhat: /sys/evil, 1 use, last 2024-05-01" \
	"		  /usr/local/bin/legacy-irctl, 4 uses, last 2024-05-01" \
	"		aaa-src (Zed <z@example.org>):" \
	"		  aaa-tool 2.0: /usr/share/aaa/conf" \
	"		ir-tools (Ann Example <ann@example.org>):" \
	"		  ir-legacy 1.0-1: /usr/bin/ir-setup, /usr/lib/ir-legacy/a, /usr/lib/ir-legacy/b and 2 more" \
	"		  ir-legacy-extra 1.0-1: /usr/sbin/ir-extra" >"$U/want-rc"
users_of "$U/users.abi" "$RC" >"$U/got-rc"
check "rc: its own Users:, where from, each executable, each source package (weak ones not)" \
	diff -u "$U/want-rc" "$U/got-rc"
printf '%s\n' "Users:		$seen" \
	"		aaa-src (Zed <z@example.org>):" \
	"		  aaa-tool 2.0: /usr/share/aaa/conf" >"$U/want-gov"
users_of "$U/users.abi" /sys/devices/system/cpu/cpuidle/current_governor_ro >"$U/got-gov"
check "cpuidle: no Users: of its own, the evidence on the Users: line" diff -u "$U/want-gov" "$U/got-gov"
$A tables export --abi -t "$U/tables" >"$U/plain.abi"
# What --users adds to the plain export: the evidence lines, nothing else.
{ sed -n '2,$p' "$U/want-rc"; cat "$U/want-gov"; } | sed 's/^/> /' >"$U/want-diff"
diff "$U/plain.abi" "$U/users.abi" | grep '^[<>]' >"$U/got-diff"
check "the rest as export --abi writes it: foo keeps its Users:, the plain entry its own" \
	diff -u "$U/want-diff" "$U/got-diff"
# The text reads back: the same entries, the Users: as written, no field forged.
check "it reads back as clean Documentation/ABI" \
	sh -c "$A tables validate --no-strict '$U/users.abi' | grep -qx '1 files, 4 entries, 4 What lines: 0 errors, 0 warnings'"
check "... tables list: the four entries, no other (no /sys/evil)" \
	same "$($A tables list -t "$U/users.abi" | awk 'NR > 1 { print $4 }' | tr '\n' ' ')" \
	"$RC /sys/devices/system/cpu/cpuidle/current_governor_ro /sys/class/foo/fooN/old_mode /sys/class/plain/thing "
$A tables show -t "$U/users.abi" "$RC" | sed -n '/^Users:/,$p' >"$U/shown-rc"
check "... tables show: the Users: lines as exported" diff -u "$U/want-rc" "$U/shown-rc"
check "--since: the DB's uses from then on, said in the first line" \
	test "$(status ux -d "$U/u.db" --root "$U/root" --since 2024-06-30)" = 0
on_today "$T/out"
printf '%s\n' "Users:		ir-keytable (v4l-utils)" \
	"		Seen by abidep on $today (usage DB since 2024-06-30, 3 hosts):" \
	"		Executables seen using it:" \
	"		  /usr/bin/cat (package coreutils), 2 uses, last 2024-06-30" >"$U/want-since"
users_of "$T/out" "$RC" >"$U/got-since"
check "... exactly" diff -u "$U/want-since" "$U/got-since"
check "... the cpuidle entry: no evidence in the DB, as it was (no Users:)" \
	test -z "$(users_of "$T/out" /sys/devices/system/cpu/cpuidle/current_governor_ro)"
mkdir "$U/out"
$A tables export --abi -t "$U/tables" --users -d "$U/u.db" --root "$U/root" \
	--scan-packages "$U/debs" -o "$U/out" && on_today "$U/out/tables"
check "-o DIR: the table's file with the same text" cmp "$U/users.abi" "$U/out/tables"
for i in 1 2; do
	$A tables export --abi -t "$U/tables" --users -d "$U/u.db" --root "$U/root" \
		--scan-packages "$U/debs" --cache "$U/cache" >"$U/cached$i.abi" && on_today "$U/cached$i.abi"
done
check "--cache DIR: the same text, read again from the cache" sh -c "
	cmp '$U/users.abi' '$U/cached1.abi' && cmp '$U/users.abi' '$U/cached2.abi' &&
	test -n \"\$(ls -A '$U/cache')\""

# A maintainer with a newline in it: rpm's Packager can hold one.
export HOME="$U/home"
mkdir -p "$HOME" "$U/rpmbuild/SPECS"
cat >"$U/rpmbuild/SPECS/evil.spec" <<'X'
%global packager %{lua: print("Eve <eve@example.org>" .. string.char(10) .. "What: /sys/evil")}
Name:		evil-ir
Version:	1.0
Release:	1
Summary:	A maintainer with a newline
License:	GPL-2.0-only
BuildArch:	noarch

%description
A test package of abidep's.

%install
mkdir -p %{buildroot}/usr/bin
printf '#!/bin/sh\ncat /sys/class/rc/rc0/current_protocol\n' >%{buildroot}/usr/bin/evil-ir
chmod 755 %{buildroot}/usr/bin/evil-ir

%files
/usr/bin/evil-ir
X
rpmbuild --define "_topdir $U/rpmbuild" -bb "$U/rpmbuild/SPECS/evil.spec" >"$U/rpmbuild.log" 2>&1
check "an rpm whose Packager holds a newline, then 'What: /sys/evil' (rpmbuild)" \
	sh -c "rpm -qp --qf '%{PACKAGER}' '$U/rpmbuild/RPMS/noarch/evil-ir-1.0-1.noarch.rpm' | grep -qx 'What: /sys/evil'"
check "... exported: exit 0" \
	test "$(status ux --scan-packages "$U/rpmbuild/RPMS")" = 0
on_today "$T/out"
cp "$T/out" "$U/evil.abi"
printf '%s\n' "Users:		ir-keytable (v4l-utils)" \
	"		Seen by abidep on $today (package scan of 1 package file):" \
	"		evil-ir (Eve <eve@example.org>\\x0AWhat: /sys/evil):" \
	"		  evil-ir 1.0-1: /usr/bin/evil-ir" >"$U/want-evil"
users_of "$U/evil.abi" "$RC" >"$U/got-evil"
check "... the maintainer on its line, the newline escaped" diff -u "$U/want-evil" "$U/got-evil"
check "... no field starts in it: the same four entries read back" \
	sh -c "$A tables validate --no-strict '$U/evil.abi' | grep -qx '1 files, 4 entries, 4 What lines: 0 errors, 0 warnings' &&
	       ! grep -q '^What:.*evil' '$U/evil.abi'"

# A package file that cannot be read: said, never silently left out.
mkdir "$U/bad"
printf 'not a package\n' >"$U/bad/broken_1.0_all.deb"
check "a package file that cannot be read: the export written, exit 14" \
	test "$(status ux --scan-packages "$U/debs" --scan-packages "$U/bad")" = 14
on_today "$T/out"
check "... the first line says so" \
	grep -qx "		Seen by abidep on $today (package scan of 5 package files; 1 package file could not be read):" "$T/out"
check "... standard error names it" grep -q "^abidep: unreadable: $U/bad/broken_1.0_all.deb: " "$T/err"

# Real packages: fetched here if no suite before this one fetched them (a
# fresh clone's case), as the debs suite does; skipped, loudly, only where
# they cannot be fetched (tests/debs/fetch said why: exit 77).
debs=$(tests/debs/fetch)
rc=$?
cpupower=$(ls "$debs"/linux-cpupower_*.deb 2>/dev/null | head -n 1)
if [ "$rc" = 77 ]; then
	skip "real packages: they cannot be fetched here (tests/debs/fetch: exit 77)"
elif [ "$rc" != 0 ] || [ -z "$cpupower" ]; then
	check "real packages: tests/debs/fetch exit 0 (not $rc), linux-cpupower among them" false
else
	mt=$(dpkg-deb -f "$cpupower" Maintainer)
	ver=$(dpkg-deb -f "$cpupower" Version)
	$A tables export --abi --users --scan-packages "$cpupower" >"$U/real.abi"
	on_today "$U/real.abi"
	printf '%s\n' "Users:		Seen by abidep on $today (package scan of 1 package file):" \
		"		linux ($mt):" \
		"		  linux-cpupower $ver: /usr/sbin/turbostat" >"$U/want-real"
	users_of "$U/real.abi" /sys/devices/system/cpu/cpuidle/current_governor_ro >"$U/got-real"
	check "real linux-cpupower: turbostat, under its source with dpkg-deb's Maintainer" \
		diff -u "$U/want-real" "$U/got-real"
fi

check "--users without -d or --scan-packages: exit 2" test "$(status $A tables export --abi --users)" = 2
check "... says what it needs" \
	grep -qx "abidep: --users needs a usage DB (-d) or package files (--scan-packages), or both (see abidep tables --help)" "$T/err"
check "--scan-packages without --users: exit 2" \
	test "$(status $A tables export --abi --scan-packages "$U/debs")" = 2
check "... named" grep -qx "abidep: --scan-packages: only tables export --abi --users takes it (see abidep tables --help)" "$T/err"
check "tables list -d: exit 2" test "$(status $A tables list -d "$U/u.db")" = 2
check "--users with --c: exit 2" test "$(status $A tables export --c --users -d "$U/u.db")" = 2
check "two -d: exit 2 (abidep merge joins them)" \
	test "$(status $A tables export --abi --users -d "$U/u.db" -d "$U/u.db")" = 2
check "a DB that cannot be opened: exit 6" test "$(status $A tables export --abi --users -d "$U/none.db")" = 6
check "--since a bad date: exit 2" test "$(status $A tables export --abi --users -d "$U/u.db" --since yesterday)" = 2
check "--root without a package database: exit 2" \
	test "$(status $A tables export --abi --users -d "$U/u.db" --root "$U/bad")" = 2

section "usage"
check "--help" test "$(status $A --help)" = 0
check "no object is a usage error" test "$(status $A)" = 2
check "an unknown object" test "$(status $A frobnicate)" = 2
check "... is named" grep -qx "abidep: unknown object 'frobnicate' (see abidep --help)" "$T/err"
check "an unknown command" test "$(status $A tables frob)" = 2
check "ABIDEP_TABLES chooses the tables" sh -c "ABIDEP_TABLES='$T/plain' $A tables list | grep -q '/sys/a'"
check "tables -j list: -j before the command too" \
	sh -c "test \"\$($A tables -j list)\" = \"\$($A tables list -j)\""
# The objects' table: abidep OBJECT help and abidep help OBJECT, as --help.
$A --help >"$T/help-"
same_help() {	# same_help OBJECT COMMAND...: exit 0, and OBJECT's --help
	o=$1
	shift
	"$@" >"$T/help-got" && cmp "$T/help-got" "$T/help-$o"
}
check "help: the usage text" same_help "" $A help
for o in tables trace report scan check merge brownout survey; do
	$A $o --help >"$T/help-$o"
	check "$o help: as $o --help" same_help $o $A $o help
	check "help $o: as $o --help" same_help $o $A help $o
	check "-j $o help: as $o --help" same_help $o $A -j $o help
	check "abidep --help lists $o" grep -q "^  $o " "$T/help-"
done
check "help of an unknown object: exit 2" test "$(status $A help frobnicate)" = 2
check "... is named" grep -qx "abidep: unknown object 'frobnicate' (see abidep --help)" "$T/err"
check "help takes one object" test "$(status $A help scan check)" = 2
# A number is decimal digits, no sign and no space, in every object (not
# trace here: past its options it would load BPF).
mkdir -p "$T/empty"
for n in +4 ' 4'; do
	check "scan --threads '$n': exit 2" test "$(status $A scan --threads "$n" --print-patterns)" = 2
	check "... named" grep -qx "abidep: --threads takes a number from 1 to 64, not '$n'" "$T/err"
	check "check --quiet-days '$n': exit 2" test "$(status $A check -d "$T/none.db" --quiet-days "$n")" = 2
	check "survey --top '$n': exit 2" test "$(status $A survey --top "$n" "$T/empty")" = 2
done
check "scan --threads 64: taken" test "$(status $A scan --threads 64 --print-patterns)" = 0

section "every object: one letter for one thing, one number for one thing"
objects="tables trace report scan check merge brownout survey"
for o in $objects; do
	# Usage errors are found before anything is done (no tracer, no brownout).
	check "$o --frob: exit 2" test "$(status $A $o --frob)" = 2
	check "$o -h: exit 0, its exit statuses, pointing to abidep(8)" \
		sh -c "$A $o -h | tr '\n' ' ' | grep -q 'Exit status: .* (see abidep(8))\. \$'"
done
check "tables list --frob: exit 2" test "$(status $A tables list --frob)" = 2
# Every --help's "Exit status:" paragraph: "N meaning" separated by "; ".
exit_statuses() {
	$A "$@" --help | tr '\n' ' ' | sed 's/.*Exit status: //; s/ (see abidep(8))\. *$//' |
		sed 's/; /\n/g'
}
exit_statuses >"$T/ex-all"
check "abidep --help lists every status, 0 to 15" \
	same "$(cut -d' ' -f1 "$T/ex-all" | tr '\n' ' ')" "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 "
for o in $objects; do
	# 0 and 1 are each object's answer; from 2 on, abidep's list.
	exit_statuses $o | awk '$1 >= 2' >"$T/ex-$o"
	check "$o --help: each status from 2 on as abidep --help says it" \
		sh -c "test -s '$T/ex-$o' && ! grep -vxF -f '$T/ex-all' '$T/ex-$o'"
done
check "abidep(8) documents each status once, and no other" \
	same "$(sed -n 's/^\*\*\([0-9]*\)\*\*$/\1/p' Documentation/man/abidep.rst | tr '\n' ' ')" \
	"$(cut -d' ' -f1 "$T/ex-all" | tr '\n' ' ')"

# -t, --tables: the tables, wherever an object takes them.
check "tables list -t" sh -c "$A tables list -t '$T/plain' | grep -q ' /sys/a\$'"
check "tables show -t" test "$(status $A tables show -t "$T/plain" /sys/a)" = 0
check "tables resolve -t" sh -c "$A tables resolve -t '$T/plain' --sysfs '$T/sys' | grep -qx /sys/a"
check "tables export -t" sh -c "$A tables export --abi -t '$T/plain' | grep -q '^What:.*/sys/a\$'"
check "tables validate -t: as a PATH operand" test "$(status $A tables validate -t "$T/bad")" = 1
check "... its errors named" grep -q "^$T/bad:3: error: " "$T/err"
check "scan -t" sh -c "$A scan -t '$T/none' '$T/sys' 2>&1 >/dev/null | grep -q '^$T/none: error: cannot read'"
check "check -t" sh -c "$A check -t '$T/none' 2>&1 >/dev/null | grep -q '^$T/none: error: cannot read'"
# -d, --db: the usage DB, wherever an object takes one.
check "report -d: a missing DB, exit 6" test "$(status $A report -d "$T/none.db")" = 6
check "... named" grep -q "$T/none.db" "$T/err"
check "check -d: a missing DB, exit 6" test "$(status $A check -d "$T/none.db")" = 6
check "... named" grep -q "$T/none.db" "$T/err"
check "merge -d: a missing input, exit 6" test "$(status $A merge -d "$T/none.db" -o "$T/out.db")" = 6
check "... named" grep -q "$T/none.db" "$T/err"
# The tracer's -t and -d only as far as parsing: past it, trace loads BPF
# into this kernel. Each takes its argument: the extra one is refused.
check "trace -t PATH -d PATH: both taken, with their arguments" \
	test "$(status $A trace -t "$T/none" -d "$T/none.db" extra)" = 2
check "... only the extra argument refused" grep -q "^abidep: trace takes no argument 'extra'" "$T/err"
if [ "$(id -u)" = 0 ]; then
	# Refused before the tables are read, which would fail next anyway.
	check "trace as nobody: exit 3" \
		test "$(status setpriv --reuid=nobody --regid=nogroup --clear-groups $A trace -t "$T/none")" = 3
fi
check "trace --interval -1: exit 2" test "$(status $A trace --interval -1)" = 2
# The host has no abidep module: brownout says so, and writes nothing.
if [ -e /sys/kernel/abidep ]; then
	echo "# the abidep module is loaded on this host: its brownout statuses are not checked"
else
	check "brownout --status without the module: exit 9" test "$(status $A brownout --status)" = 9
	check "... says to load it" grep -q "modprobe abidep" "$T/err"
	check "brownout ENTRY --for without the module: exit 9" \
		test "$(status $A brownout current_protocol --for 5s)" = 9
fi
check "brownout: a bad duration, exit 2" test "$(status $A brownout current_protocol --for 5x)" = 2

# What each --help shows, its man page documents and bash completes.
comp_words() {	# comp_words WORD...: what the completion offers
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1));
		 _abidep; printf "%s\n" "${COMPREPLY[@]}"' sh completion/abidep.bash "$@"
}
for o in $objects; do
	$A $o --help >"$T/help"
	opts=$(grep -o -- '--[a-z][a-z-]*' "$T/help" | sort -u)
	# Short options as the help writes them: "-t," "[-t" "-j|-p" "-h".
	shorts=$(grep -oE -- '(^|[ [|])-[a-zA-Z]([],| ]|$)' "$T/help" | grep -oE -- '-[a-zA-Z]' | sort -u)
	if [ "$o" = tables ]; then
		offered=$(for c in validate list show resolve export; do
			comp_words abidep tables "$c" -; done | sort -u)
	else
		offered=$(comp_words abidep "$o" - | sort -u)
	fi
	missing_man="" missing_comp=""
	for x in $opts $shorts; do
		grep -q -- "\*\*$x\*\*" "Documentation/man/abidep-$o.rst" || missing_man="$missing_man $x"
		echo "$offered" | grep -qx -- "$x" || missing_comp="$missing_comp $x"
	done
	check "abidep-$o(8) documents every option of '$o --help'${missing_man:+ (missing:$missing_man)}" \
		test -n "$shorts" -a -z "$missing_man"
	check "completion offers every option of '$o --help'${missing_comp:+ (missing:$missing_comp)}" \
		test -n "$opts" -a -z "$missing_comp"
done

finish tables
