#!/bin/sh
# CLI tests of `abidep scan`: a fixture root (a compiled program, a script, a
# udev rule, a systemd unit, configs, a symlink out of the root, an
# unreadable file, a dpkg database) with known references, checked exactly
# in text and JSON; chunk boundaries in large files; bad inputs; --by-package
# (a row a package, the files of no package one row) in every format.
# Ends with "scan: N passed, N failed".
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
A=$PWD/build/abidep
F=$PWD/build/scan-fixture
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# Exit status of a command, its output kept in $T/out and $T/err.
status() {
	"$@" >"$T/out" 2>"$T/err"
	echo $?
}

# The text table with runs of blanks squeezed: columns are padded to fit.
squeeze() {
	tr -s ' '
}

rm -rf "$F"
mkdir -p "$F/usr/bin" "$F/usr/sbin" "$F/usr/lib/udev/rules.d" \
	"$F/usr/lib/systemd/system" "$F/etc" "$F/usr/share/doc/ir" \
	"$F/var/lib/dpkg/info" "$F/var/secret" "$F/dev"

# A program with a full path in its strings (offsets, not lines).
cat >"$T/legacy.c" <<'X'
#include <stdio.h>
int main(void)
{
	FILE *f = fopen("/sys/class/rc/rc0/current_protocol", "r");

	return f ? 0 : 1;
}
X
gcc -O0 -o "$F/usr/bin/legacy-irctl" "$T/legacy.c"
# A name in code bytes (.text) is not a string the program uses.
cat >"$T/code.c" <<'X'
__asm__(".text\n.byte 0\n.ascii \"current_protocol\"\n.byte 0\n");
int main(void) { return 0; }
X
gcc -O0 -o "$F/usr/bin/codebytes" "$T/code.c"
# A script: a shell variable for the device is still a full path; a bare
# directory variable is not.
cat >"$F/usr/sbin/ir-setup" <<'X'
#!/bin/sh
for dev in rc0 rc1; do
	echo nec > /sys/class/rc/$dev/protocol
	cat "$d/current_protocol"
done
X
chmod +x "$F/usr/sbin/ir-setup"
# udev: %k is the device; ATTR{...} and $attr{...} read the attribute
# they name (udevd, at every event of the device); the replacement
# "protocols" is not the deprecated "protocol".
cat >"$F/usr/lib/udev/rules.d/60-ir.rules" <<'X'
ACTION=="add", SUBSYSTEM=="rc", ATTR{current_protocol}=="nec", GOTO="ir_end"
ACTION=="add", SUBSYSTEM=="rc", RUN+="/bin/sh -c 'echo nec > /sys/class/rc/%k/current_protocol'"
ACTION=="add", SUBSYSTEM=="rc", RUN+="/bin/sh -c 'echo nec > /sys/class/rc/%k/protocols'"
ACTION=="change", SUBSYSTEM=="rc", ENV{IR_PROTO}="$attr{current_protocol}"
LABEL="ir_end"
X
cat >"$F/usr/lib/systemd/system/cpuidle-gov.service" <<'X'
[Unit]
Description=Show the cpuidle governor

[Service]
ExecStart=/bin/cat /sys/devices/system/cpu/cpuidle/current_governor_ro
X
# Directory plus name.
printf '# legacy remote\nattr = rc0/current_protocol\n' >"$F/etc/ir.conf"
# Common bare names: weak, hidden unless --weak.
printf 'Set the level,\nthen enable it.\n' >"$F/usr/share/doc/ir/README"
# Documentation: a mention, however precise, is weak.
printf 'Write /sys/class/rc/rc0/current_protocol to choose.\n' >"$F/usr/share/doc/ir/NOTES.md"
# A symlink out of the root, to a file that references an attribute.
echo /sys/class/rc/rc0/current_protocol >"$T/outside"
ln -s "$T/outside" "$F/usr/share/doc/ir/outside"
# Unreadable to anyone but root.
echo /sys/class/rc/rc0/current_protocol >"$F/var/secret/ir.conf"
chmod 000 "$F/var/secret/ir.conf"
# A fifo is never opened (it would block).
mkfifo "$F/dev/fifo"
# dpkg: merged /usr, so the unit is listed under /lib as on Debian 12.
printf '/.\n/usr\n/usr/bin\n/usr/bin/legacy-irctl\n/usr/sbin/ir-setup\n' \
	>"$F/var/lib/dpkg/info/legacy-ir.list"
printf '/.\n/lib/systemd/system/cpuidle-gov.service\n' \
	>"$F/var/lib/dpkg/info/cpuidle-tools:amd64.list"

off=$(grep -abo /sys/class/rc/rc0/current_protocol "$F/usr/bin/legacy-irctl" | cut -d: -f1)

section "the fixture root"
check "hits exit 1" test "$(status $A scan "$F")" = 1
squeeze <"$T/out" >"$T/text"
# A line of the expected table.
want() {
	grep -qxF -- "$1" "$T/text"
}
check "the header" want "CONFIDENCE PACKAGE WHERE WHAT MATCH"
check "the program's full path: strong, at its byte offset, its package" \
	want "strong legacy-ir /usr/bin/legacy-irctl@$off /sys/class/rc/rcN/current_protocol /sys/class/rc/rc0/current_protocol"
check "directory plus name: medium, with its line" \
	want "medium - /etc/ir.conf:2 /sys/class/rc/rcN/current_protocol rc0/current_protocol"
check "the unit: strong, owned through the /lib twin of /usr/lib" \
	want "strong cpuidle-tools /usr/lib/systemd/system/cpuidle-gov.service:5 /sys/devices/system/cpu/cpuidle/current_governor_ro /sys/devices/system/cpu/cpuidle/current_governor_ro"
check "udev %k is the device: strong" \
	want "strong - /usr/lib/udev/rules.d/60-ir.rules:2 /sys/class/rc/rcN/current_protocol /sys/class/rc/%k/current_protocol"
check "udev ATTR{name} reads the attribute: strong" \
	want "strong - /usr/lib/udev/rules.d/60-ir.rules:1 /sys/class/rc/rcN/current_protocol ATTR{current_protocol}"
check "udev \$attr{name} too" \
	want "strong - /usr/lib/udev/rules.d/60-ir.rules:4 /sys/class/rc/rcN/current_protocol \$attr{current_protocol}"
check "a full path in documentation: weak" \
	want "weak - /usr/share/doc/ir/NOTES.md:1 /sys/class/rc/rcN/current_protocol /sys/class/rc/rc0/current_protocol"
check "the script: \$dev stands for the device: strong" \
	want "strong legacy-ir /usr/sbin/ir-setup:3 /sys/class/rc/rcN/protocol /sys/class/rc/\$dev/protocol"
check "the script: \$d/name is the bare name: weak" \
	want "weak legacy-ir /usr/sbin/ir-setup:4 /sys/class/rc/rcN/current_protocol \$d/current_protocol"
check "root reads the mode-000 file" \
	want "strong - /var/secret/ir.conf:1 /sys/class/rc/rcN/current_protocol /sys/class/rc/rc0/current_protocol"
check "exactly those 10 hits, in file order" \
	test "$(sed -n '2,$p' "$T/text" | grep -v '^[0-9]* hits' | awk '{print $3}' | tr '\n' ' ')" = \
	"/etc/ir.conf:2 /usr/bin/legacy-irctl@$off /usr/lib/systemd/system/cpuidle-gov.service:5 /usr/lib/udev/rules.d/60-ir.rules:1 /usr/lib/udev/rules.d/60-ir.rules:2 /usr/lib/udev/rules.d/60-ir.rules:4 /usr/sbin/ir-setup:3 /usr/sbin/ir-setup:4 /usr/share/doc/ir/NOTES.md:1 /var/secret/ir.conf:1 "
check "a name in an ELF file's code is not read" sh -c "! grep -q codebytes '$T/text'"
check "... unless --all-bytes" sh -c "$A scan --all-bytes '$F' | grep -q '^weak  *-  */usr/bin/codebytes@[0-9]*  */sys/class/rc/rcN/current_protocol  *current_protocol$'"
check "the replacement 'protocols' is not 'protocol'" sh -c "! grep -q '%k/protocols' '$T/text'"
check "the symlink out of the root is not followed" sh -c "! grep -q outside '$T/text'"
nfiles=$(find "$F" -type f | wc -l)
nbytes=$(find "$F" -type f -exec cat {} + | wc -c)
elfbytes=$(cat "$F/usr/bin/legacy-irctl" "$F/usr/bin/codebytes" | wc -c)
check "the summary: hits, files, common weak names hidden" sh -c \
	"grep -Eqx '10 hits in 7 files \(7 strong, 1 medium, 2 weak\); $nfiles files, [0-9]+ bytes examined; 0 unreadable; 2 weak hits of common names not shown \(--weak\)' '$T/text'"
n=$(sed -n 's/.* files, \([0-9]*\) bytes examined.*/\1/p' "$T/text")
check "of the ELF files, only some sections are read" \
	test "$n" -gt $((nbytes - elfbytes)) -a "$n" -lt "$nbytes"
check "--all-bytes reads every byte" sh -c "$A scan --all-bytes '$F' | grep -q ' $nfiles files, $nbytes bytes examined;'"

check "--weak shows the common names" test "$(status $A scan --weak "$F")" = 1
squeeze <"$T/out" >"$T/text"
check "... 'level' (usb power/level)" \
	want "weak - /usr/share/doc/ir/README:1 /sys/bus/usb/devices/.../power/level level"
check "... 'enable' (iio buffer/enable)" \
	want "weak - /usr/share/doc/ir/README:2 /sys/bus/iio/devices/iio:deviceX/buffer/enable enable"
check "... and 10 hits in all" grep -q '^12 hits in 8 files (7 strong, 1 medium, 4 weak)' "$T/text"

check "-l lists the files with hits" test "$(status $A scan -l "$F")" = 1
check "... each once, sorted" test "$(tr '\n' ' ' <"$T/out")" = \
	"/etc/ir.conf /usr/bin/legacy-irctl /usr/lib/systemd/system/cpuidle-gov.service /usr/lib/udev/rules.d/60-ir.rules /usr/sbin/ir-setup /usr/share/doc/ir/NOTES.md /var/secret/ir.conf "

check "-j" test "$(status $A -j scan "$F")" = 1
cp "$T/out" "$T/j-before"
check "-j after ROOT: the same (options in any position)" \
	sh -c "test \"\$($A scan '$F' -j 2>&1; echo \$?)\" = \"\$(cat '$T/j-before'; echo 1)\""
check "... every field of the binary's hit, and the counts" python3 - "$T/out" "$off" "$F" "$nfiles" <<'X'
import json, sys
d = json.load(open(sys.argv[1]))
off, root, nfiles = int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
assert d["root"] == root and d["scanned"] == "/", (d["root"], d["scanned"])
assert d["files"] == nfiles and d["weak_hidden"] == 2 and d["unreadable"] == []
assert len(d["hits"]) == 10, len(d["hits"])
h = d["hits"][1]
assert h["file"] == "/usr/bin/legacy-irctl" and h["line"] is None and h["offset"] == off, h
assert h["what"] == "/sys/class/rc/rcN/current_protocol" and h["status"] == "deprecated", h
assert h["table"].endswith("/migration-tables/sysfs-class-rc") and h["table_line"] == 9, h
assert h["match"] == "/sys/class/rc/rc0/current_protocol" and h["confidence"] == "strong", h
assert h["package"] == "legacy-ir", h
m = d["hits"][0]
assert (m["file"], m["line"], m["confidence"], m["package"]) == ("/etc/ir.conf", 2, "medium", None), m
assert m["offset"] == len("# legacy remote\nattr = "), m
X
check "-p is JSON too" sh -c "$A scan -p '$F' | python3 -c 'import json,sys; json.load(sys.stdin)'"

section "unreadable files, as an unprivileged user"
if command -v setpriv >/dev/null; then
	chmod o+rx "$T"
	check "nobody: still exit 1 (the other hits)" \
		test "$(status setpriv --reuid=65534 --regid=65534 --clear-groups $A scan "$F")" = 1
	check "... the file is listed, with the reason" \
		grep -qx 'unreadable: /var/secret/ir.conf: Permission denied' "$T/out"
	check "... counted" grep -q '^9 hits in 6 files .* 1 unreadable;' "$T/out"
	check "... and in JSON" sh -c "setpriv --reuid=65534 --regid=65534 --clear-groups $A -j scan '$F' |
		python3 -c 'import json,sys; d=json.load(sys.stdin); assert d[\"unreadable\"] == [{\"file\": \"/var/secret/ir.conf\", \"error\": \"Permission denied\"}], d[\"unreadable\"]'"
	chmod 000 "$F/var/secret"
	check "an unreadable directory is listed too" sh -c \
		"setpriv --reuid=65534 --regid=65534 --clear-groups $A scan '$F' | grep -qx 'unreadable: /var/secret: Permission denied'"
	chmod 755 "$F/var/secret"
else
	echo "# setpriv is missing (util-linux): the unreadable-file checks are skipped"
fi

section "ROOT without a dpkg database of its own"
mkdir -p "$T/plain/sub"
echo 'x=/sys/class/rc/rc9/current_protocol' >"$T/plain/sub/f"
check "paths are shown from the nearest root with a database (here /)" \
	test "$(status $A scan "$T/plain/sub")" = 1
check "... as absolute paths" grep -q "^strong  *-  *$T/plain/sub/f:1 " "$T/out"

section "large files: chunk boundaries"
# 40000 lines, a reference every 37th at a shifting column: every one found
# once, with grep's line numbers and byte offsets.
mkdir -p "$T/big"
awk 'BEGIN { for (i = 1; i <= 40000; i++) { if (i % 37 == 0) printf "%*s/sys/class/rc/rc7/current_protocol\n", i % 50, ""; else printf "filler line %d with some words, enable\n", i } }' >"$T/big/text"
check "a 1.6 MB text file: every reference found once" \
	test "$($A scan "$T/big" | grep -c '/big/text:')" = "$(grep -c current_protocol "$T/big/text")"
check "... at grep's line numbers" sh -c "
	$A scan '$T/big' | sed -n 's|.*/big/text:\([0-9]*\) .*|\1|p' >'$T/l1'
	grep -n current_protocol '$T/big/text' | cut -d: -f1 >'$T/l2'
	cmp '$T/l1' '$T/l2'"
# The same with NULs: binary, byte offsets.
tr '\n' '\0' <"$T/big/text" >"$T/big/bin"
rm "$T/big/text"
check "a 1.6 MB binary file: at grep's byte offsets" sh -c "
	$A scan '$T/big' | sed -n 's|.*/big/bin@\([0-9]*\) .*|\1|p' >'$T/o1'
	grep -abo /sys/class/rc/rc7/current_protocol '$T/big/bin' | cut -d: -f1 >'$T/o2'
	test -s '$T/o2' && cmp '$T/o1' '$T/o2'"
# -l --weak stops at a file's first hit (no later byte changes the list);
# -l alone reads on: a later weak hit of a common name is counted as hidden.
jbytes() {
	$A -j scan "$@" "$T/big" | python3 -c 'import json, sys; print(json.load(sys.stdin)["bytes"])'
}
size=$(stat -c %s "$T/big/bin")
check "-l --weak: the file listed, and read only to its first hit" sh -c "
	$A scan -l --weak '$T/big' | grep -q '/big/bin\$' && test $(jbytes -l --weak) -lt $((size / 4))"
check "-l: the file read to its end" test "$(jbytes -l)" = "$size"
check "one thread finds the same" sh -c "
	$A scan --threads 1 '$T/big' | sed -n 's|.*/big/bin@\([0-9]*\) .*|\1|p' | cmp - '$T/o2'"

section "broken ELF files"
mkdir -p "$T/elf"
# Every section pointing past the end: nothing libelf offers is in the file,
# so it is read whole, and the path after the sections is found.
python3 - "$F/usr/bin/legacy-irctl" "$T/elf/broken" <<'X'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
shoff, = struct.unpack_from('<Q', d, 0x28)
for i in range(struct.unpack_from('<H', d, 0x3c)[0]):
    struct.pack_into('<QQ', d, shoff + i * 64 + 0x18, 0xffffffff00, 0xffff)
open(sys.argv[2], 'wb').write(d + b'/sys/class/rc/rc5/current_protocol\0')
X
head -c 100 "$F/usr/bin/legacy-irctl" >"$T/elf/truncated"
check "a broken section table: the file is read whole" sh -c \
	"$A scan '$T/elf' | grep -q '^strong  *-  *$T/elf/broken@$(stat -c %s "$F/usr/bin/legacy-irctl")  '"
check "a truncated ELF file is no error" sh -c "$A scan '$T/elf' | grep -q ' 0 unreadable'"

section "the patterns, and grep"
$A scan --print-patterns >"$T/pat" 2>"$T/skipped"
check "--print-patterns: one name a line, sorted, unique" sh -c "LC_ALL=C sort -u '$T/pat' | cmp - '$T/pat'"
check "... with current_protocol and not its replacement" sh -c "grep -qx current_protocol '$T/pat' && ! grep -qx protocols '$T/pat'"
check "... names what it cannot search for" \
	grep -qF 'not searched (no literal attribute name): /sys/.../iio:deviceX/scan_elements/in_voltageY_en' "$T/skipped"
check "--weak -l --all-bytes finds the files grep -rlwF finds with them" sh -c "
	$A scan --weak -l --all-bytes '$F' >'$T/a'
	LC_ALL=C grep -rlwF -f '$T/pat' '$F' | sed 's|^$F||' | LC_ALL=C sort >'$T/g'
	cmp '$T/a' '$T/g'"

section "bad input"
check "a missing ROOT exits 2" test "$(status $A scan "$T/nope")" = 2
check "... and says so" grep -qx "abidep: cannot read ROOT '$T/nope': No such file or directory" "$T/err"
check "a file as ROOT exits 2" test "$(status $A scan "$F/etc/ir.conf")" = 2
check "... and says so" grep -qx "abidep: ROOT '$F/etc/ir.conf' is not a directory" "$T/err"
check "/proc as ROOT exits 2" test "$(status $A scan /proc)" = 2
check "... and says why" grep -qx "abidep: ROOT '/proc' is on a kernel filesystem (proc, sysfs, ...): it holds no installed files to scan" "$T/err"
check "missing --tables exit 2" test "$(status $A scan -t "$T/none" "$F")" = 2
check "... naming the file" grep -q "$T/none: error: cannot read: No such file or directory" "$T/err"
printf 'What:\t/sys/a\nStatus:\tgone\nDescription:\tx\n' >"$T/badtable"
check "a bad table exits 2" test "$(status $A scan -t "$T/badtable" "$F")" = 2
check "... with its errors and what to do" sh -c "grep -q '^$T/badtable:2: error: bad Status' '$T/err' &&
	grep -qx \"abidep: cannot use the tables $T/badtable: [0-9]* error(s); 'abidep tables validate $T/badtable' shows them\" '$T/err'"
check "two ROOTs exit 2" test "$(status $A scan "$F" "$F")" = 2
check "--threads 0 exits 2" test "$(status $A scan --threads 0 "$F")" = 2
check "an unknown option exits 2" test "$(status $A scan --frob "$F")" = 2
check "--help exits 0 and documents the exit status" sh -c "$A scan --help | grep -q '^Exit status: 0 no hit; 1 hits found; 2 bad usage or input'"
printf 'What:\t/sys/class/x/xN/foo\nDescription:\tplain ABI\n' >"$T/plaintable"
check "tables with no deprecated entry: no hit, exit 0" test "$(status $A scan -t "$T/plaintable" "$F")" = 0
check "... and it says there is nothing to search for" grep -q '^0 hits in 0 files' "$T/out"
check "--tables is -t" sh -c "$A scan --tables '$T/plaintable' '$F' | grep -q '^0 hits in 0 files'"

section "beyond sysfs: sysctl keys, /proc paths, cgroup v1 file names"
S=$T/special
mkdir -p "$S/etc/sysctl.d" "$S/usr/bin"
cat >"$S/etc/sysctl.d/50-nd.conf" <<'X'
net.ipv6.neigh.default.retrans_time = 100
net.ipv4.neigh.default.retrans_time = 100
net.ipv6.neigh.eth0.base_reachable_time=30
net.ipv6.neigh.default.retrans_time_ms = 1000
X
cat >"$S/usr/bin/legacy-oom" <<'X'
#!/bin/sh
echo -17 >/proc/$pid/oom_adj
sysctl -w net.ipv6.neigh.lo.retrans_time=5
cat /proc/sys/net/ipv6/neigh/eth0/retrans_time
cat /sys/fs/cgroup/memory/$cg/memory.oom_control
echo 1 >memory.move_charge_at_immigrate
cat memory.limit_in_bytes memory.kmem.limit_in_bytes
X
$A scan -j "$S" >"$T/sp.json"
python3 -c '
import json, sys
for h in json.load(open(sys.argv[1]))["hits"]:
    print(h["file"].rsplit("/", 1)[1], h["line"], h["confidence"], h["what"], h["match"])
' "$T/sp.json" >"$T/sp.got"
cat >"$T/sp.want" <<'X'
50-nd.conf 1 strong /proc/sys/net/ipv6/neigh/<interface>/retrans_time net.ipv6.neigh.default.retrans_time
50-nd.conf 3 strong /proc/sys/net/ipv6/neigh/<interface>/base_reachable_time net.ipv6.neigh.eth0.base_reachable_time
legacy-oom 2 strong /proc/<pid>/oom_adj /proc/$pid/oom_adj
legacy-oom 3 strong /proc/sys/net/ipv6/neigh/<interface>/retrans_time net.ipv6.neigh.lo.retrans_time
legacy-oom 4 strong /proc/sys/net/ipv6/neigh/<interface>/retrans_time /proc/sys/net/ipv6/neigh/eth0/retrans_time
legacy-oom 5 strong /sys/fs/cgroup/memory/<cgroup>/memory.oom_control /sys/fs/cgroup/memory/$cg/memory.oom_control
legacy-oom 6 weak /sys/fs/cgroup/memory/<cgroup>/memory.move_charge_at_immigrate memory.move_charge_at_immigrate
legacy-oom 7 weak /sys/fs/cgroup/memory/<cgroup>/memory.kmem.limit_in_bytes memory.kmem.limit_in_bytes
X
check "each found once, as sure as its form says; ipv4's key, a _ms key and memory.limit_in_bytes not at all" \
	diff "$T/sp.want" "$T/sp.got"

section "the owners' maintainers (dpkg's status), and the formats of a root"
M=$T/mroot
mkdir -p "$M/usr/bin" "$M/usr/sbin" "$M/var/lib/dpkg/info"
printf '#!/bin/sh\ncat /sys/class/rc/rc0/current_protocol\n' >"$M/usr/bin/irctl"
printf '#!/bin/sh\ncat /sys/class/rc/rc1/current_protocol\n' >"$M/usr/sbin/orphan"
printf '/.\n/usr/bin/irctl\n' >"$M/var/lib/dpkg/info/ir-tools.list"
printf 'Package: ir-tools\nVersion: 2.0-1\nArchitecture: amd64\nMaintainer: IR Team <ir@example.org>\nSource: ir (2.0-1)\n\n' \
	>"$M/var/lib/dpkg/status"
check "-j: the owner's maintainer, source package and architecture" sh -c "'$A' scan -j '$M' | python3 -c '
import json, sys
h = {x[\"file\"]: x for x in json.load(sys.stdin)[\"hits\"]}
i = h[\"/usr/bin/irctl\"]
assert (i[\"package\"], i[\"package_version\"], i[\"maintainer\"], i[\"source_package\"], i[\"architecture\"]) == \
    (\"ir-tools\", \"2.0-1\", \"IR Team <ir@example.org>\", \"ir\", \"amd64\"), i
o = h[\"/usr/sbin/orphan\"]
assert (o[\"package\"], o[\"maintainer\"], o[\"source_package\"]) == (None, None, None), o
assert \"archive\" not in i, i
'"
check "--format dd-list: the maintainer and the source" \
	test "$(status $A scan --format dd-list "$M")" = 1
printf 'IR Team <ir@example.org>\n   ir\n' >"$T/dd.want"
check "... as dd-list prints it" diff -u "$T/dd.want" "$T/out"
check "... the hit in no package counted on stderr" \
	grep -qx "abidep: 1 hits in files of no package are not in the list" "$T/err"
check "--format csv: a row a hit, the maintainer's" sh -c "'$A' scan --format csv '$M' | python3 -c '
import csv, sys
r = list(csv.reader(sys.stdin))
assert r[0][:3] == [\"source_package\", \"maintainer\", \"package\"], r[0]
assert sorted((x[6], x[1]) for x in r[1:]) == [(\"/usr/bin/irctl\", \"IR Team <ir@example.org>\"), (\"/usr/sbin/orphan\", \"\")], r
'"
check "--format markdown: a table per source package" sh -c "'$A' scan --format markdown '$M' | grep -c '^#### ' | grep -qx 2"
check "--format html -o FILE: one page, exit 1" test "$(status $A scan --format html -o "$T/s.html" "$M")" = 1
check "... the source's section" grep -qF '<section class="source" data-source="ir" data-maintainer="IR Team &lt;ir@example.org&gt;" data-hits="1">' "$T/s.html"
check "-l with --format csv: usage, exit 2" test "$(status $A scan -l --format csv "$M")" = 2
check "--cache without package files: usage, exit 2" test "$(status $A scan --cache "$T/c" "$M")" = 2
check "two ROOTs: usage, exit 2, pointing to --packages" \
	sh -c "test \"\$($A scan '$M' '$M' >/dev/null 2>'$T/err'; echo \$?)\" = 2 && grep -q -- --packages '$T/err'"

section "--by-package: a row a package, the files of no package as one"
B=$T/bproot
ESC=$(printf '\033')
EVIL="evil${ESC}[2J"
mkdir -p "$B/usr/bin" "$B/usr/sbin" "$B/usr/local/bin" "$B/etc" "$B/var/lib/dpkg/info"
# ir-tools: two files, five Whats (more than text shows), all strong.
cat >"$B/usr/bin/irctl" <<'X'
#!/bin/sh
cat /sys/class/rc/rc0/current_protocol
echo nec >/sys/class/rc/rc0/protocol
cat /sys/devices/system/cpu/cpuidle/current_governor_ro
cat /proc/i8k
echo -17 >/proc/$pid/oom_adj
X
printf '#!/bin/sh\ncat /sys/class/rc/rc1/current_protocol\n' >"$B/usr/sbin/ir-setup"
# A package whose name drives a terminal (a hostile image's dpkg database).
printf '#!/bin/sh\ncat /proc/i8k\n' >"$B/usr/bin/evil"
# Two files of no package.
printf 'attr = rc0/current_protocol\n' >"$B/etc/orphan.conf"
printf '#!/bin/sh\ncat /proc/i8k\n' >"$B/usr/local/bin/fan"
printf '/.\n/usr/bin/irctl\n/usr/sbin/ir-setup\n' >"$B/var/lib/dpkg/info/ir-tools.list"
printf '/.\n/usr/bin/evil\n' >"$B/var/lib/dpkg/info/$EVIL:amd64.list"
printf 'Package: ir-tools\nVersion: 2.0-1\nArchitecture: amd64\nMaintainer: IR Team <ir@example.org>\nSource: ir (2.0-1)\n\nPackage: %s\nVersion: 1\nArchitecture: amd64\n\n' \
	"$EVIL" >"$B/var/lib/dpkg/status"
check "text: exit 1 (hits)" test "$(status $A scan --by-package "$B")" = 1
squeeze <"$T/out" >"$T/text"
check "... the header" want "PACKAGE VERSION ARCH FILES HITS STRONG MEDIUM WEAK WHATS"
check "... ir-tools: 2 files, 6 hits, all strong, 3 of its 5 Whats and how many more" \
	want "ir-tools 2.0-1 amd64 2 6 6 0 0 /proc/<pid>/oom_adj, /proc/i8k, /sys/class/rc/rcN/current_protocol and 2 more"
check "... the hostile name cleaned (\\x1b), no escape byte anywhere" \
	sh -c "grep -qxF 'evil\\x1B[2J 1 amd64 1 1 1 0 0 /proc/i8k' '$T/text' && ! grep -q '$ESC' '$T/out'"
check "... the files of no package: one row, last, labelled" \
	same "$(grep -v '^$' "$T/text" | sed -n '4p')" "(no package) - - 2 2 1 1 0 /proc/i8k, /sys/class/rc/rcN/current_protocol"
check "... the totals" \
	want "9 hits in 5 files (8 strong, 1 medium, 0 weak): 2 packages, and 2 files of no package; 8 files, $(find "$B" -type f -exec cat {} + | wc -c) bytes examined; 0 unreadable"
$A scan -j "$B" >"$T/hits.json"
check "-j: as scan -j's hits summed per package by hand (jq's way), every What listed" \
	test "$(status $A scan -j --by-package "$B")" = 1
check "... the same numbers" python3 -c '
import json, sys
hits = json.load(open(sys.argv[1]))["hits"]
got = json.load(open(sys.argv[2]))
want = {}
for h in hits:
    r = want.setdefault(h["package"], {"files": set(), "hits": 0, "strong": 0, "medium": 0, "weak": 0, "whats": set()})
    r["files"].add(h["file"]); r["hits"] += 1; r[h["confidence"]] += 1; r["whats"].add(h["what"])
rows = got["by_package"]
assert [r["package"] for r in rows] == sorted(k for k in want if k) + [None], rows
for r in rows:
    w = want[r["package"]]
    assert (r["files"], r["hits"], r["strong"], r["medium"], r["weak"]) == \
        (len(w["files"]), w["hits"], w["strong"], w["medium"], w["weak"]), r
    assert [x["what"] for x in r["whats"]] == sorted(w["whats"]), r
assert rows[1]["maintainer"] == "IR Team <ir@example.org>" and rows[1]["source_package"] == "ir", rows[1]
assert rows[0]["package"] == "evil\x1b[2J", rows[0]
assert len(rows[1]["whats"]) == 5 and got["hits"] == len(hits) and got["files_with_hits"] == 5, got
' "$T/hits.json" "$T/out"
check "... the escape byte escaped in JSON" grep -qF 'evil\u001b[2J' "$T/out"
check "--format csv: a row a package, every What, no package: an empty cell" sh -c "'$A' scan --by-package --format csv '$B' | python3 -c '
import csv, sys
r = list(csv.reader(sys.stdin))
assert r[0][:9] == \"package package_version architecture files hits strong medium weak whats\".split(), r[0]
assert r[2][:8] == [\"ir-tools\", \"2.0-1\", \"amd64\", \"2\", \"6\", \"6\", \"0\", \"0\"], r[2]
assert len(r[2][8].split()) == 5 and r[2][9:11] == [\"ir\", \"IR Team <ir@example.org>\"], r[2]
assert r[3][0] == \"\" and r[3][3:5] == [\"2\", \"2\"] and len(r) == 4, r
'"
check "--format markdown: the maintainer too" sh -c "'$A' scan --by-package --format markdown '$B' | grep -qF '| \`ir-tools\` | \`2.0-1\` | amd64 | 2 | 6 | 6 | 0 | 0 |'"
check "--format html: a row a package, escaped; the row of no package marked" sh -c "
	'$A' scan --by-package --format html '$B' >'$T/bp.html'
	grep -qF '<tr data-owned=\"0\" data-hits=\"2\" data-strong=\"1\"><td><em>(no package)</em></td>' '$T/bp.html' &&
	grep -qF '<td class=\"path\">evil' '$T/bp.html' && ! grep -q '$ESC' '$T/bp.html'"
check "no hit: exit 0, the totals alone" sh -c "
	'$A' scan --by-package -t '$T/plaintable' '$B' >'$T/none'; test \$? = 0 &&
	test \$(wc -l <'$T/none') = 1 && grep -q '^0 hits in 0 files (0 strong, 0 medium, 0 weak): 0 packages; ' '$T/none'"
check "with -l: usage, exit 2" test "$(status $A scan --by-package -l "$B")" = 2
check "with --format dd-list: usage, exit 2" test "$(status $A scan --by-package --format dd-list "$B")" = 2

finish scan
