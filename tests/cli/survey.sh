#!/bin/sh
# CLI tests of `abidep survey` on a tree built here, with a known number of
# files of each kind: exact counts in text and JSON, classes of multi-word
# values, groups, migration candidates, that nothing is written or opened
# that should not be, --save checked against wc -w, and the refusals with
# their exit codes. Ends with "survey: N passed, N failed".
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
A=$PWD/build/abidep
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
chmod 755 "$T"	# the permission checks run as nobody below
S=$T/sys

# put FILE CONTENT (printf format, so \0 \001 \x86 work)
put() {
	mkdir -p "$(dirname "$S/$1")"
	# shellcheck disable=SC2059
	printf -- "$2" >"$S/$1"
}

status() {
	"$@" >"$T/out" 2>"$T/err"
	echo $?
}

# A JSON value from $T/j: jv 'd["classes"]["enum"]'
jv() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$T/j" "$1"
}

# --- the tree: 4 empty, 15 one word, 27 multi-word, 3 write-only = 49 files
# empty (wc -w: 0): no bytes, a newline, blanks, a control byte
put dev0/e1 ''
put dev0/e2 '\n'
put dev0/e3 '  \t\n'
put dev0/e4 '\001\n'
# one word
put dev0/o1 '1\n'
put dev0/o2 'performance\n'
put dev0/o3 'a\001b\n'		# wc: a control byte does not split a word
put dev0/cpulist '0-3\n'
put a/timeout '30\n'			# time, no unit in the name
put b/timeout '60\n'
put bridge/hello_time '200\n'		# time
put block/sda/size '2048\n'		# size (in sectors)
put memory/block_size_bytes '4096\n'	# unit in the name
put queue/read_ahead_kb '128\n'
put power/autosuspend_delay_ms '100\n'
put net/rx_length_errors '0\n'		# a counter, not a length
put vm/dirty_expire_centisecs '3000\n'
put dev0/timeout_mode 'auto\n'		# not a number
put power/runtime_active_kids '0\n'	# runtime is no time
# enum
put dev0/queue/scheduler 'noop anticipatory deadline [cfq]\n'
put dev1/queue/scheduler '[none] mq-deadline\n'
put rc/rc0/protocols 'rc-5 nec [lirc]\n'
# list
put power/state 'freeze mem disk\n'
put block/sda/inflight '       0        0\n'
put block/sda/mq/0/cpu_list '0, 1\n'
put input/input0/capabilities/key '1000000000007 ff9f207ac14057ff febeffdfffefffff fffffffffffffffe\n'
put dev0/available 'a\nb\nc\n'
# kv
put dev0/uevent 'MAJOR=8\nMINOR=0\nDEVNAME=sda\n'
put node/node0/meminfo 'Node 0 MemTotal:       16314540 kB\nNode 0 MemFree:         1000 kB\n'
put slab/kmalloc-8/objects '1184 N0=1184\n'
# table
put cpufreq/stats/time_in_state '800000 100\n1600000 200\n'
put bluetooth/l2cap '00:11:22:33:44:55 00:00:00:00:00:00 1 0x0001 672 0 0\n00:11:22:33:44:55 00:00:00:00:00:01 2 0x0040 672 0 0\n'
put cpufreq/stats/trans_table '   From  :    To\n         :   800000   1600000\n   800000:         0         1\n  1600000:         1         0\n'
# hexdump (the article's iwl3945 statistics)
put pci/iwl/statistics '02 00 03 00 d9 05 00 00 28 03 00 00 45 02 00 00  ........(...E...\n0d 00 00 00 00 00 00 00 00 00 00 00 d6 00 00 00  ................\nb1 02 00 00 00 00 00 00 00 00 00 00 00 00 00 00  ................\n00 00 00 00 00 00 00 00 67 00 00 00 00 00 00 00  ........g.......\n'
# text
put dmi/sys_vendor 'Dell Inc.\n'
put slab/ovl_inode/ctor 'ovl_inode_init_once+0x0/0x10 [overlay]\n'	# brackets, no enum
put serio0/description 'i8042 KBD port\n'
put cpu/vulnerabilities/meltdown 'Mitigation: PTI\n'
put acpi/interrupts/gpe00 '       0  EN     enabled      unmasked\n'
put acpi/interrupts/gpe1F '       3  EN     enabled      unmasked\n'
put hwmon/hwmon0/temp1_label 'Package id 0\n'
put hwmon/hwmon0/temp2_label 'Core 0\n'
# binary: a NUL, bad UTF-8
put pci/dev0/config 'ab\0\0 cd ef\n'
put pci/dev1/config 'caf\351 ole\n'
# other: ad hoc lines, symbols
put pnp/00:01/options 'dependent set 0 (preferred)\n  port 0x3f8-0x3f8, align 0x7, size 8, 16-bit address decoding\n  irq 4\n'
put dev0/flags '-- ++\n'
# write-only: counted from the mode, never opened (root could open them:
# their words would show)
put dev0/bind 'secret words in a write-only file\n'
put dev0/unbind 'more secret words\n'
put dev0/nomode 'no mode at all\n'
chmod 0200 "$S/dev0/bind" "$S/dev0/unbind"
chmod 0000 "$S/dev0/nomode"
# not surveyed: symlinks (one dangling), a fifo
ln -s e1 "$S/dev0/link"
ln -s /nonexistent "$S/dev0/dangling"
mkfifo "$S/dev0/fifo"

snapshot() {
	(cd "$S" && find . -exec stat -c '%n %a %s %Y' {} + | sort && find . -type f -perm -0400 -exec md5sum {} + | sort)
}
snapshot >"$T/before"

section "census, text"
check "exits 0" test "$(status "$A" survey "$S")" = 0
cp "$T/out" "$T/text"
check "files 45" grep -Eq '^files +49$' "$T/text"
check "empty 4" grep -Eq '^  empty +4 ' "$T/text"
check "one word 15" grep -Eq '^  one word +15 ' "$T/text"
check "multi-word 27" grep -Eq '^  multi-word +27 ' "$T/text"
check "unreadable 0" grep -Eq '^  unreadable +0 .*\(permission 0, open 0, read 0\)$' "$T/text"
check "write-only 3" grep -Eq '^  write-only +3 ' "$T/text"
check "timed out 0" grep -Eq '^  timed out +0 ' "$T/text"
check "not surveyed: 2 symlinks, 1 fifo" grep -q '^not surveyed: 0 directories on other file systems, 2 symlinks, 1 other files' "$T/text"
check "the classes" grep -qx '   enum 3, list 5, kv 3, table 3, hexdump 1, text 8, binary 2, other 2' "$T/text"
check "25 base names, 23 attributes (gpe00 and gpe1F are one, temp1_label and temp2_label too)" grep -q '^  25 base names, 23 distinct attributes' "$T/text"
check "two-word files and the longest" grep -qx "multi-word: 10 of two words; the most, 68 words: $S/pci/iwl/statistics" "$T/text"
check "the wc view" grep -q '^  files that do not open): 46 files, 4 empty, 15 one word, 27 multi-word$' "$T/text"
check "largest groups first, ties by name" sh -c "grep -A10 '^distinct multi-word' '$T/text' | grep -E '^ +2 ' | awk '{print \$4}' | tr '\n' ' ' | grep -qx 'config gpeN scheduler tempN_label '"
check "a group's example is its smallest path" grep -Eq "^ +2  enum +4  scheduler +$S/dev0/queue/scheduler$" "$T/text"
check "multi-value candidates: 17 files, 16 attributes" grep -qx '    17 files, 16 attributes' "$T/text"
check "unit candidates: 4 files, 3 attributes" grep -q 'without its unit in the name: 4 files, 3 attributes$' "$T/text"
check "timeout first, with its value" grep -Eq "^ +2  time  timeout +$S/a/timeout = 30$" "$T/text"
check "size named" grep -Eq "^ +1  size  size +$S/block/sda/size = 2048$" "$T/text"
check "names with units are not candidates" sh -c "! grep -Eq 'block_size_bytes|read_ahead_kb|autosuspend|rx_length|centisecs|timeout_mode|runtime_active_kids' '$T/text'"
check "--top 1 lists one group" sh -c "$A survey --top 1 '$S' | grep -q '^distinct multi-word attributes (1 of 23'"
snapshot >"$T/after"
check "nothing in the tree changed (contents, modes, times)" cmp -s "$T/before" "$T/after"

section "census, JSON"
check "-j exits 0" test "$(status "$A" survey -j "$S")" = 0
cp "$T/out" "$T/j"
check "-j after DIR: the same (options in any position)" \
	sh -c "$A survey '$S' -j >'$T/j2' && cmp -s '$T/j' '$T/j2'"
check "is JSON" python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/j"
check "the totals" test "$(jv '[d[k] for k in ("files","empty","one_word","multi_word","unreadable","write_only","timeouts")]')" = "[49, 4, 15, 27, 0, 3, 0]"
check "they add up" test "$(jv 'd["files"] == sum(d[k] for k in ("empty","one_word","multi_word","unreadable","write_only","timeouts"))')" = True
check "classes" test "$(jv 'd["classes"]')" = "{'enum': 3, 'list': 5, 'kv': 3, 'table': 3, 'hexdump': 1, 'text': 8, 'binary': 2, 'other': 2}"
check "not surveyed" test "$(jv '(d["not_surveyed"]["symlinks"], d["not_surveyed"]["special_files"], d["not_surveyed"]["other_fs_dirs"])')" = "(2, 1, 0)"
check "base names, attributes, groups (all by default)" test "$(jv '(d["base_names"], d["attributes"], len(d["groups"]))')" = "(25, 23, 23)"
check "digits inside a word stay (l2cap)" test "$(jv '[g["files"] for g in d["groups"] if g["name"] == "l2cap"]')" = "[1]"
check "an index before _ is N (temp1_label)" test "$(jv '[g["files"] for g in d["groups"] if g["name"] == "tempN_label"]')" = "[2]"
check "the gpe group" test "$(jv '[(g["files"], g["class"], g["example"].split("/sys/")[1]) for g in d["groups"] if g["name"] == "gpeN"]')" = "[(2, 'text', 'acpi/interrupts/gpe00')]"
cls_of() {
	jv "[g['class'] for g in d['groups'] if g['name'] == '$1'][0]"
}
check "scheduler: enum" test "$(cls_of scheduler)" = enum
check "protocols: enum" test "$(cls_of protocols)" = enum
check "state: list" test "$(cls_of state)" = list
check "inflight: list" test "$(cls_of inflight)" = list
check "cpu_list '0, 1': list" test "$(cls_of cpu_list)" = list
check "capabilities/key bitmap: list" test "$(cls_of key)" = list
check "one item a line: list" test "$(cls_of available)" = list
check "uevent: kv" test "$(cls_of uevent)" = kv
check "meminfo: kv" test "$(cls_of meminfo)" = kv
check "slab objects '1184 N0=1184': kv" test "$(cls_of objects)" = kv
check "time_in_state: table" test "$(cls_of time_in_state)" = table
check "bluetooth l2cap: table" test "$(cls_of l2cap)" = table
check "trans_table with its header: table" test "$(cls_of trans_table)" = table
check "iwl statistics: hexdump" test "$(cls_of statistics)" = hexdump
check "'Dell Inc.': text" test "$(cls_of sys_vendor)" = text
check "'i8042 KBD port': text" test "$(cls_of description)" = text
check "'Mitigation: PTI': text" test "$(cls_of meltdown)" = text
check "a symbol then [module]: text, not enum" test "$(cls_of ctor)" = text
check "NUL and bad UTF-8: binary" test "$(cls_of config)" = binary
check "pnp options: other" test "$(cls_of options)" = other
check "'-- ++': other" test "$(cls_of flags)" = other
check "values are printable ASCII" test "$(jv '[g["value"] for g in d["groups"] if g["name"] == "config"][0]')" = "ab?? cd ef"
check "candidates" test "$(jv '[d["candidates"][k] for k in ("multi_value_files","multi_value_attributes","unit_files","unit_attributes")]')" = "[17, 16, 4, 3]"
check "unit candidates named, with kind" test "$(jv '[(u["name"], u["kind"], u["files"]) for u in d["candidates"]["unit"]]')" = "[('timeout', 'time', 2), ('hello_time', 'time', 1), ('size', 'size', 1)]"
check "wc view" test "$(jv 'd["wc_method"]')" = "{'files': 46, 'empty': 4, 'one_word': 15, 'multi_word': 27}"
check "-p is JSON too" sh -c "$A -p survey '$S' | python3 -c 'import json,sys; assert json.load(sys.stdin)[\"files\"] == 49'"

section "the same words as wc -w (LC_ALL=C), on a copy of the values read"
check "--save exits 0" test "$(status "$A" survey --save "$T/snap" "$S")" = 0
check "one copy for each value read (46)" test "$(find "$T/snap" -type f | wc -l)" = 46
check "write-only files are not copied" test ! -e "$T/snap/dev0/bind"
wc_classes() {
	(cd "$T/snap" && find . -type f -print0 | LC_ALL=C xargs -0 wc -w | grep -v ' total$' |
		awk '{ if ($1 == 0) e++; else if ($1 == 1) o++; else m++ } END { print e+0, o+0, m+0 }')
}
check "wc -w: 4 empty, 15 one word, 27 multi-word" test "$(wc_classes)" = "4 15 27"
check "wc -w: the longest has 68 words" test "$(LC_ALL=C wc -w <"$T/snap/pci/iwl/statistics")" = 68
check "copies are the bytes read" cmp -s "$S/pci/dev0/config" "$T/snap/pci/dev0/config"
check "--save into a non-empty directory: exit 2" test "$(status "$A" survey --save "$T/snap" "$S")" = 2
check "... saying so" grep -q "snap is not empty; name a new or empty directory" "$T/err"
check "--save inside the surveyed tree: exit 2" test "$(status "$A" survey --save "$S/snap" "$S")" = 2
check "... saying so" grep -q "is inside the surveyed $S; name a directory outside it" "$T/err"

section "permission bits are honoured (as nobody)"
P=$T/perm
mkdir -p "$P"
echo 'readable' >"$P/pub"
echo 'not for nobody' >"$P/secret"
chmod 0444 "$P/pub"
chmod 0044 "$P/secret"	# the owner may not read; everyone else may
if [ "$(id -u)" = 0 ]; then
	chown 65534 "$P/secret"
	asuser="setpriv --reuid=65534 --regid=65534 --clear-groups"
else
	asuser=
fi
check "as the owner of a 0044 file: exit 0" test "$(status $asuser "$A" survey -j "$P")" = 0
cp "$T/out" "$T/j"
check "the 0044 file is unreadable (permission), not opened" test "$(jv '(d["files"], d["one_word"], d["unreadable"], d["unreadable_by"]["permission"])')" = "(2, 1, 1, 1)"

section "refusals and usage"
check "--help exits 0 with the usage" sh -c "$A survey --help | grep -q '^Usage: abidep survey'"
check "'survey help' too" sh -c "$A survey help | grep -q -- '--timeout-ms MS'"
check "a missing DIR: exit 2" test "$(status "$A" survey "$T/nope")" = 2
check "... named, with the reason" grep -qx "abidep: cannot survey $T/nope: No such file or directory" "$T/err"
check "DIR a file: exit 2" test "$(status "$A" survey "$S/dev0/o1")" = 2
check "... saying what to name" grep -qx "abidep: cannot survey $S/dev0/o1: not a directory; name a directory such as /sys" "$T/err"
check "two DIRs: exit 2" test "$(status "$A" survey "$S" "$S")" = 2
check "--timeout-ms 0: exit 2" test "$(status "$A" survey --timeout-ms 0 "$S")" = 2
check "... with the range" grep -q 'takes 1 to 600000 (milliseconds), not .0.' "$T/err"
check "--timeout-ms -5: exit 2" test "$(status "$A" survey --timeout-ms -5 "$S")" = 2
check "--timeout-ms 600001: exit 2" test "$(status "$A" survey --timeout-ms 600001 "$S")" = 2
check "--timeout-ms 1s: exit 2" test "$(status "$A" survey --timeout-ms 1s "$S")" = 2
check "--top x: exit 2" test "$(status "$A" survey --top x "$S")" = 2
check "an unknown option: exit 2" test "$(status "$A" survey --frobnicate "$S")" = 2
check "an empty directory: all zero, exit 0" sh -c "mkdir '$T/empty' && $A survey -j '$T/empty' | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d[\"files\"] == 0 and d[\"groups\"] == [] and d[\"max_words_path\"] is None'"

finish survey
