#!/bin/sh
# CLI tests of abidep over a root that is not ours (tools/lib/rootfs.c): a
# generated tree with FIFOs (one as a dpkg list file, one as the rpm
# database), a socket, a device node, symlink loops, symlinks out of the
# root at every level (one as var/lib/dpkg/info, to the host's, and as the
# rpm database and its directory), names with every byte 1-255 (escape
# sequences, newlines, bytes that are not UTF-8, bidi overrides), a sparse
# file far over the size cap, nesting past PATH_MAX. scan, scan -j, survey
# and check --scan must finish, read nothing outside the root, print no
# raw control byte, give valid JSON that gives every name back. And what
# root writes (-o, merge's DB, the usage DB, survey --save) is never written
# through a symlink another user placed (as the prometheus user can in
# /var/lib/prometheus), nor into another program's SQLite DB. The
# package scan's cache another user can write (scan_cache.c): refused.
# Ends with "hostile-root: N passed, N failed".
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
A=$PWD/build/abidep
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
R=$T/root		# the hostile root
O=$T/outside		# what is outside it, with references of its own
P=$T/dpkgsym		# a root whose dpkg database is a symlink to the host's
Q=$T/rpmfifo		# a root whose rpm database is a FIFO
S=$T/rpmsym		# a root whose rpm databases are symlinks out of it
needle=/sys/class/rc/rc0/current_protocol

python3 - "$R" "$O" "$P" "$Q" "$S" "$needle" <<'X' || { echo "not ok - the hostile root could not be made"; echo "hostile-root: 0 passed, 1 failed"; exit 1; }
import os, socket, stat, sys
R, O, P, Q, S, needle = [os.fsencode(a) for a in sys.argv[1:]]
def mk(path, data=b""):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)
ref = b"cat " + needle + b"\n"
for d in (b"usr/bin", b"usr/lib", b"usr/share", b"etc", b"var/lib/dpkg/info", b"names"):
    os.makedirs(os.path.join(R, d), exist_ok=True)
# Every byte but NUL and '/' in a name, each file referencing the needle.
for b in range(1, 256):
    if b != ord("/"):
        mk(os.path.join(R, b"names", b"n-" + bytes([b]) + b"-x"), ref)
for name in (b"\x1b[31mred\x1b[0m", b"\x1b]0;TITLE\x07", b"two\nweak  x  forged row",
             b"\xff\xfe", b"\xe2\x80\xaeevil.txt", b"\xc2\x9bcsi"):
    mk(os.path.join(R, b"names", name), ref)
mk(os.path.join(R, b"usr/bin/reader"), ref)
# Special files: never opened (a FIFO blocks a reader, a device acts).
os.mkfifo(os.path.join(R, b"usr/bin/fifo"))
os.mkfifo(os.path.join(R, b"var/lib/dpkg/info/evil.list"))
os.mknod(os.path.join(R, b"usr/bin/null"), stat.S_IFCHR | 0o644, os.makedev(1, 3))
s = socket.socket(socket.AF_UNIX); s.bind(os.path.join(R, b"usr/bin/sock")); s.close()
mk(os.path.join(R, b"var/lib/dpkg/info/reader.list"), b"/usr/bin/reader\n")
mk(os.path.join(R, b"var/lib/dpkg/status"), b"Package: reader\nVersion: 1\n\n")
# Outside the root: references it must never report.
mk(os.path.join(O, b"secret"), ref)
os.symlink(O, os.path.join(R, b"usr/share/out"))			# a directory, absolute
os.symlink(os.path.join(O, b"secret"), os.path.join(R, b"usr/bin/through"))
os.symlink(b"../../../outside", os.path.join(R, b"usr/lib/up"))	# relative, up and out
os.symlink(b"loop-b", os.path.join(R, b"etc/loop-a"))
os.symlink(b"loop-a", os.path.join(R, b"etc/loop-b"))
# A sparse file far over the cap: 1 TiB costs no disk.
with open(os.path.join(R, b"usr/lib/huge"), "wb") as f:
    f.write(ref)
    f.truncate(1 << 40)
    f.seek(0, 2)
    f.write(ref.replace(b"rc0", b"rc1"))
# Past PATH_MAX: 160 levels of 40-byte names.
fd = os.open(R, os.O_DIRECTORY)
for i in range(160):
    n = b"d%039d" % i
    os.mkdir(n, dir_fd=fd)
    nfd = os.open(n, os.O_DIRECTORY, dir_fd=fd)
    os.close(fd)
    fd = nfd
with open(os.open(b"deep", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd), "wb") as f:
    f.write(ref)
os.close(fd)
# A root whose dpkg database is the host's, by a symlink: its dpkg is not the host's.
mk(os.path.join(P, b"usr/bin/dpkg"), ref)
os.makedirs(os.path.join(P, b"var/lib/dpkg"))
os.symlink(b"/var/lib/dpkg/info", os.path.join(P, b"var/lib/dpkg/info"))
# rpm's: a FIFO as the database (librpm would block opening it); the
# database's directory and its file as symlinks to a database outside.
mk(os.path.join(Q, b"usr/bin/reader"), ref)
os.makedirs(os.path.join(Q, b"usr/lib/sysimage/rpm"))
os.mkfifo(os.path.join(Q, b"usr/lib/sysimage/rpm/rpmdb.sqlite"))
mk(os.path.join(O, b"rpm/rpmdb.sqlite"), b"not a database, and outside the root\n")
mk(os.path.join(S, b"usr/bin/reader"), ref)
os.makedirs(os.path.join(S, b"usr/lib/sysimage/rpm"))
os.symlink(os.path.join(O, b"rpm/rpmdb.sqlite"), os.path.join(S, b"usr/lib/sysimage/rpm/rpmdb.sqlite"))
os.makedirs(os.path.join(S, b"var/lib"))
os.symlink(os.path.join(O, b"rpm"), os.path.join(S, b"var/lib/rpm"))
X

# Exit status of a command run with a time bound, its output kept in $T/out.
bounded() {
	timeout 120 "$@" >"$T/out" 2>"$T/err"
	echo $?
}
# No byte a terminal acts on: C0 (but LF), DEL, C1 (as UTF-8), bidi controls, non-UTF-8.
clean_bytes() {
	python3 - "$1" <<'X'
import re, sys
b = open(sys.argv[1], "rb").read()
bad = re.search(rb"[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\x8e\x8f\xaa-\xae]|\xe2\x81[\xa6-\xa9]", b)
try:
    b.decode("utf-8")
except UnicodeDecodeError as e:
    sys.exit("not UTF-8 at byte %d" % e.start)
if bad:
    sys.exit("raw control bytes at %d: %r" % (bad.start(), b[bad.start():bad.start() + 8]))
X
}

section "scan: finishes, reads nothing outside ROOT, prints nothing raw"
check "abidep scan ROOT finishes (a hit: 1)" same "$(bounded "$A" scan "$R")" 1
cp "$T/out" "$T/scan.txt"
check "... no raw control byte, no invalid UTF-8 in its text" clean_bytes "$T/scan.txt"
check "... each line a hit, the header, an unreadable file or the summary (no forged row)" \
	sh -c "! grep -avE '^(CONFIDENCE|strong|medium|weak) |^unreadable: |^[0-9]+ hits in ' '$T/scan.txt'"
check "... the 254 names with every byte and the 6 crafted ones, each once" \
	same "$(grep -ac '^strong .*names/' "$T/scan.txt")" 260
check "... nothing from outside ROOT (its symlinks not followed)" \
	sh -c "! grep -a 'secret\|through\|/out/\|/up/' '$T/scan.txt'"
check "... the reader, owned by the image's package (its list read past the FIFO's)" \
	sh -c "grep -a '^strong ' '$T/scan.txt' | grep -a ' /usr/bin/reader:1 ' | grep -aq ' reader '"
check "... the 1 TiB sparse file listed, not read" \
	grep -aqx 'unreadable: /usr/lib/huge: larger than the size cap: not read' "$T/scan.txt"
check "... the directories past PATH_MAX listed, not fatal" \
	grep -aq '^unreadable: /d0*[0-9]*/.*: File name too long$' "$T/scan.txt"
check "--max-size 4K: the names' files still read, the huge one listed" \
	sh -c "timeout 120 '$A' scan --max-size 4K '$R' >'$T/cap.txt'; [ \$(grep -ac '^strong .*names/' '$T/cap.txt') = 260 ] &&
	       grep -aqx 'unreadable: /usr/lib/huge: larger than the size cap: not read' '$T/cap.txt'"
check "--max-size 0: the sparse 1 TiB file read, its holes skipped (both its hits, in bounded time)" \
	sh -c "timeout 120 '$A' scan --max-size 0 '$R' | grep -a ' /usr/lib/huge@' | grep -ac 'rc[01]/current_protocol\$' | grep -qx 2"
check "--max-size 1x: a usage error (2)" same "$(bounded "$A" scan --max-size 1x "$R")" 2

section "scan -j: valid JSON, every name given back"
check "abidep scan -j ROOT finishes (1)" same "$(bounded "$A" scan -j "$R")" 1
cp "$T/out" "$T/scan.json"
check "... valid JSON, and ASCII control bytes escaped" clean_bytes "$T/scan.json"
check "... each crafted name given back, byte for byte (surrogateescape)" python3 - "$T/scan.json" "$R" <<'X'
import json, os, sys
doc = json.load(open(sys.argv[1], encoding="utf-8"))
got = {h["file"].encode("utf-8", "surrogateescape") for h in doc["hits"] if h["file"].startswith("/names/")}
want = {b"/names/" + n for n in os.listdir(os.path.join(os.fsencode(sys.argv[2]), b"names"))}
if got != want:
    sys.exit("missing %r, extra %r" % (sorted(want - got)[:5], sorted(got - want)[:5]))
X

section "survey over the hostile root"
check "abidep survey ROOT finishes (0)" same "$(bounded "$A" survey "$R")" 0
check "... no raw control byte in its text" clean_bytes "$T/out"
check "abidep survey -j ROOT finishes (0)" same "$(bounded "$A" survey -j "$R")" 0
check "... valid JSON, nothing raw" clean_bytes "$T/out"
check "... counted the names' files, opened no FIFO, socket or device" python3 - "$T/out" <<'X'
import json, sys
d = json.load(open(sys.argv[1]))
if d["files"] < 260:
    sys.exit("files: %r" % d["files"])
X

section "owners come from the image, never the host"
check "abidep scan -j (dpkg's info a symlink to the host's) finishes (1)" same "$(bounded "$A" scan -j "$P")" 1
check "... /usr/bin/dpkg found, owned by no package (not the host's dpkg)" python3 - "$T/out" <<'X'
import json, sys
# No database of its own: named from the nearest root that has one (the
# host's, with ROOT's path), which lists no such file.
hits = [h for h in json.load(open(sys.argv[1]))["hits"] if h["file"].endswith("/usr/bin/dpkg")]
if not hits or any(h["package"] is not None for h in hits):
    sys.exit("hits: %r" % hits)
X

check "abidep scan (rpm's database a FIFO) finishes (1)" same "$(bounded "$A" scan "$Q")" 1
check "... the reader found, owned by no package" sh -c "grep -a '^strong  *-  *[^ ]*/usr/bin/reader:1 ' '$T/out'"
check "abidep scan (rpm's database and its directory symlinks out) finishes (1)" same "$(bounded "$A" scan "$S")" 1
check "... the database outside not opened (librpm would say it cannot read it)" \
	sh -c "! grep -a 'rpm database' '$T/err'"
check "abidep report --root (rpm's database a FIFO): no database there, exit 2" \
	sh -c "timeout 120 '$A' report --db /nonexistent.db --root '$Q' >/dev/null 2>'$T/err'; [ \$? = 2 ] && grep -aq 'no dpkg or rpm database in' '$T/err'"

section "check --scan and report over the hostile root, with hostile names in the DB"
check "the DB helper builds (tests/build-helper fill)" sh -c "tests/build-helper fill && cp build/tests/fill '$T/fill'"
# An executable, comm, cgroup and host named to drive a terminal and forge lines.
now=$(date +%s)
RC=/sys/class/rc/rcN/current_protocol
cat >"$T/rows" <<X
S|h%1B[31m%E2%80%AE|b1:1|$((now - 3600))|$now
h%1B[31m%E2%80%AE|b1:1|$needle|$RC|sysfs-class-rc|deprecated|read|0|5|/x%0Aweak  y|/usr/bin/%1B]0;T%07ev%0Ail%FF|c%9B%1B|9|1|2|0|$((now - 60))|$((now - 30))
X
check "a DB with those names" sh -c "'$T/fill' '$T/u.db' <'$T/rows'"
check "abidep check --scan ROOT -j finishes" \
	sh -c "timeout 120 '$A' check --db '$T/u.db' --scan '$R' -j >'$T/check.json' 2>'$T/check.err'; [ \$? -ne 124 ]"
check "... valid JSON, nothing raw" clean_bytes "$T/check.json"
check "... the DB's executable given back, byte for byte" python3 - "$T/check.json" <<'X'
import json, sys
def strings(o):
    if isinstance(o, str):
        yield o
    for v in o.values() if isinstance(o, dict) else o if isinstance(o, list) else ():
        yield from strings(v)
want = b"/usr/bin/\x1b]0;T\x07ev\nil\xff"
if not any(s.encode("utf-8", "surrogateescape") == want for s in strings(json.load(open(sys.argv[1])))):
    sys.exit("no string is %r" % want)
X
check "abidep check --scan ROOT (text) finishes" \
	sh -c "timeout 120 '$A' check --db '$T/u.db' --scan '$R' >'$T/check.txt' 2>&1; [ \$? -ne 124 ]"
check "... no raw control byte in check's text" clean_bytes "$T/check.txt"
check "... the hostile executable shown, escaped" grep -aqF '/usr/bin/\x1B]0;T\x07ev\x0Ail\xFF' "$T/check.txt"
check "abidep report (text) prints nothing raw" sh -c "'$A' report --db '$T/u.db' >'$T/report.txt' 2>&1"
check "... no raw control byte in report's text" clean_bytes "$T/report.txt"
check "abidep report -j: valid JSON, nothing raw" sh -c "'$A' report --db '$T/u.db' -j >'$T/report.json' 2>&1"
check "... (report -j)" clean_bytes "$T/report.json"

section "root's writes: no symlink another user could have placed is followed (tools/lib/safedir.c)"
# W: a directory all may traverse; N: nobody's, as /var/lib/prometheus is
# the prometheus user's on Debian; N/sub: root's, as node-exporter is
# there. Nobody moves sub aside and puts a symlink to X in its place.
W=$T/w
X=$W/elsewhere
mkdir -p "$W/N/sub" "$X" "$W/root/sub"
chmod 755 "$T" "$W"
chown nobody "$W/N"
cp "$T/u.db" "$W/u.db"
chmod 644 "$W/u.db"
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
# What the status of a command is, its stderr kept in $T/err.
wstatus() {
	"$@" >/dev/null 2>"$T/err"
	echo $?
}
check "nobody swaps N/sub for a symlink to X" \
	as_nobody sh -c "mv '$W/N/sub' '$W/N/sub.old' && ln -s '$X' '$W/N/sub'"
check "report --format prometheus -o N/sub/abidep.prom (abidep-metrics.service's command): refused, exit 2" \
	same "$(wstatus "$A" report --db "$W/u.db" --format prometheus -o "$W/N/sub/abidep.prom")" 2
check "... naming the symlink and whose directory it is in" \
	grep -qF "abidep: refusing to write $W/N/sub/abidep.prom: $W/N/sub is a symlink in $W/N, a directory of uid 65534 (nobody):" "$T/err"
check "... and nothing written in X" sh -c "test -z \"\$(ls -A '$X')\""
check "report -o N/sub/r.txt (text): refused, exit 2, nothing in X" \
	sh -c "[ \$('$A' report --db '$W/u.db' -o '$W/N/sub/r.txt' >/dev/null 2>&1; echo \$?) = 2 ] && test -z \"\$(ls -A '$X')\""
check "scan -o N/sub/s.txt: refused, exit 2, nothing in X" \
	sh -c "[ \$('$A' scan -o '$W/N/sub/s.txt' '$R/usr/bin' >/dev/null 2>&1; echo \$?) = 2 ] && test -z \"\$(ls -A '$X')\""
check "survey --save N/sub/snap: refused, exit 2, nothing in X" \
	sh -c "[ \$('$A' survey --save '$W/N/sub/snap' '$R/usr/bin' >/dev/null 2>&1; echo \$?) = 2 ] && test -z \"\$(ls -A '$X')\""
check "the same write into N/sub.old (root's directory in nobody's): written" \
	sh -c "'$A' report --db '$W/u.db' --format prometheus -o '$W/N/sub.old/abidep.prom' && grep -q '^# TYPE abidep_' '$W/N/sub.old/abidep.prom'"
ln -s "$X" "$W/root/nobodys"
chown -h nobody "$W/root/nobodys"
check "a symlink of nobody's in root's directory: refused, exit 2" \
	same "$(wstatus "$A" report --db "$W/u.db" -o "$W/root/nobodys/r.txt")" 2
check "... named as nobody's" grep -qF "$W/root/nobodys is a symlink of uid 65534 (nobody):" "$T/err"
ln -s sub "$W/root/roots"
check "root's symlink in root's directory: followed, written" \
	sh -c "'$A' report --db '$W/u.db' -o '$W/root/roots/r.txt' && test -s '$W/root/sub/r.txt'"
mkdir "$W/mine"
chown nobody "$W/mine"
check "as nobody, through nobody's own symlink in nobody's directory: written (the caller's are trusted)" \
	as_nobody sh -c "ln -s . '$W/mine/here' && '$A' report --db '$W/u.db' -o '$W/mine/here/r.txt' && test -s '$W/mine/r.txt'"

section "merge and the usage DB: never written through a symlink, nor before known to be abidep's"
: >"$X/empty"
as_nobody ln -s "$X/empty" "$W/N/m.db"
check "merge -o a symlink (nobody's, in nobody's directory) to an empty root-owned file: refused, exit 2" \
	same "$(wstatus "$A" merge "$W/u.db" -o "$W/N/m.db")" 2
check "... the file is still empty (it became a usage DB)" same "$(stat -c %s "$X/empty")" 0
ln -s "$X/empty" "$W/root/m.db"
check "merge -o root's symlink in root's directory to it: refused, exit 2" \
	same "$(wstatus "$A" merge "$W/u.db" -o "$W/root/m.db")" 2
check "... said" grep -qF "abidep: merge: refusing the output $W/root/m.db: it is a symlink" "$T/err"
check "... the file is still empty" same "$(stat -c %s "$X/empty")" 0
check "merge -o a new file in nobody's directory: refused, exit 2 (SQLite reopens it by name)" \
	same "$(wstatus "$A" merge "$W/u.db" -o "$W/N/new.db")" 2
check "... said, nothing left there" sh -c "grep -qF '$W/N is a directory of uid 65534 (nobody)' '$T/err' && test ! -e '$W/N/new.db' && test -z \"\$(ls -A '$W/N' | grep merge-)\""
sqlite3 "$W/other.db" "CREATE TABLE t (a); INSERT INTO t VALUES (1)"
sqlite3 "$W/uv.db" "CREATE TABLE t (a); PRAGMA user_version = 3"
sum_other=$(md5sum <"$W/other.db")
sum_uv=$(md5sum <"$W/uv.db")
check "merge -o another program's SQLite DB: refused, exit 6" \
	same "$(wstatus "$A" merge "$W/u.db" -o "$W/other.db")" 6
check "... left as it was, byte for byte (it was made WAL)" same "$(md5sum <"$W/other.db")" "$sum_other"
check "... its journal mode too" same "$(sqlite3 "$W/other.db" 'PRAGMA journal_mode')" delete
check "merge -o one with a user_version of 3 but no usage table: refused, exit 6, unchanged (it was upgraded)" \
	sh -c "[ \$('$A' merge '$W/u.db' -o '$W/uv.db' >/dev/null 2>&1; echo \$?) = 6 ] && [ \"\$(md5sum <'$W/uv.db')\" = '$sum_uv' ]"
check "the writer of a usage DB (fill) through a symlink to an empty file: refused, exit 6, the file empty" \
	sh -c "[ \$('$T/fill' '$W/root/m.db' </dev/null >/dev/null 2>&1; echo \$?) = 6 ] && [ \$(stat -c %s '$X/empty') = 0 ]"
check "... under a symlinked directory of nobody's: refused, exit 6, nothing in X" \
	sh -c "[ \$('$T/fill' '$W/N/sub/u.db' </dev/null >/dev/null 2>&1; echo \$?) = 6 ] && test -z \"\$(ls -A '$X' | grep -v '^empty\$')\""
check "... on another program's DB: refused, exit 6, unchanged" \
	sh -c "[ \$('$T/fill' '$W/other.db' </dev/null >/dev/null 2>&1; echo \$?) = 6 ] && [ \"\$(md5sum <'$W/other.db')\" = '$sum_other' ]"
check "merge into a new file of root's directory, and again into it: written" \
	sh -c "'$A' merge '$W/u.db' -o '$W/root/fleet.db' >/dev/null && '$A' merge '$W/u.db' -o '$W/root/fleet.db' >/dev/null && '$A' report --db '$W/root/fleet.db' -j >/dev/null"

section "the package scan's cache: another user's is refused (run as root)"
# A user who can write the cache decides what root's scan reports: nobody,
# owning it, deletes the hits, and the package would be reported clean.
if [ "$(id -u)" != 0 ] || ! id nobody >/dev/null 2>&1 || ! command -v dpkg-deb >/dev/null ||
   ! command -v setpriv >/dev/null || ! command -v sqlite3 >/dev/null; then
	skip "the cache's owner and mode (needs root, the user nobody, dpkg-deb, setpriv, sqlite3)"
else
	K=$T/pub/cache		# nobody must reach it: $T is 0700
	mkdir -p "$T/pub/pool" "$T/deb/DEBIAN" "$T/deb/usr/bin"
	chmod 711 "$T" "$T/pub"
	printf 'Package: ir\nVersion: 1\nArchitecture: all\nMaintainer: IR <ir@example.org>\nDescription: d\n' \
		>"$T/deb/DEBIAN/control"
	printf '#!/bin/sh\n%s\n' "cat $needle" >"$T/deb/usr/bin/ir-read"
	# as_nobody CMD...: run as nobody, no group of root's.
	as_nobody() {
		setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups "$@"
	}
	# pscan: scan --packages of the pool with the cache, its exit status.
	pscan() {
		bounded "$A" scan --packages --cache "$K" "$T/pub/pool"
	}
	check "a package built (dpkg-deb --build)" \
		sh -c "dpkg-deb --root-owner-group --build '$T/deb' '$T/pub/pool/ir.deb' >/dev/null"
	check "a cache made by scan: its hit, exit 1" same "$(pscan)" 1
	check "... the directory made 0700, root's" same "$(stat -c '%a %u' "$K")" "700 0"
	check "... the next run from the cache: exit 1" same "$(pscan)" 1
	check "... \"1 from the cache\"" grep -q ' (1 from the cache)' "$T/out"
	chown -R nobody "$K"
	check "the cache given to nobody, who deletes its hits (sqlite3 as nobody)" \
		as_nobody sqlite3 "$K/scan-cache.sqlite" 'DELETE FROM hit'
	check "... root's scan refuses it: exit 2, not the package reported clean" same "$(pscan)" 2
	check "... said: the directory, its owner and mode, what to do" grep -qF \
		"abidep: the cache directory '$K' is owned by uid $(id -u nobody) (nobody), mode 0700: it must be the caller's, uid 0 (root), and writable by no one else, who could change what the scan reports. Remove '$K' (it is only a cache: it is made again), or chown -R 0 and chmod -R go-w it if no one else wrote it, or give another --cache" "$T/err"
	check "... check --scan-packages --cache refuses it too: exit 2" sh -c ": | '$T/fill' '$T/empty.db' &&
		timeout 120 '$A' check --db '$T/empty.db' --scan-packages '$T/pub/pool' --cache '$K' >/dev/null 2>'$T/err'
		[ \$? = 2 ] && grep -q \"cache directory '$K' is owned by uid $(id -u nobody) (nobody)\" '$T/err'"
	chown root "$K"
	check "the directory root's again, its file still nobody's: refused, exit 2" same "$(pscan)" 2
	check "... said, naming the file" \
		grep -qF "abidep: the cache file '$K/scan-cache.sqlite' is owned by uid $(id -u nobody) (nobody)" "$T/err"
	chown -R root "$K"
	chmod 770 "$K"
	check "root's, writable by its group: refused, exit 2" same "$(pscan)" 2
	check "... said, with the mode" grep -qF "the cache directory '$K' is owned by uid 0 (root), mode 0770:" "$T/err"
	chmod 700 "$K"
	chmod 666 "$K/scan-cache.sqlite"
	check "its file writable by others: refused, exit 2" same "$(pscan)" 2
	rm -rf "$K"
	mkdir "$T/pub/real"
	ln -s real "$K"
	check "a symlink as the directory: refused, exit 2" same "$(pscan)" 2
	check "... said" grep -qF "the cache directory '$K' is a symlink" "$T/err"
	check "... nothing made where it points" test -z "$(ls -A "$T/pub/real")"
	check "... as DIR/: refused, exit 2" \
		same "$(bounded "$A" scan --packages --cache "$K/" "$T/pub/pool")" 2
	check "... said" grep -qF "the cache directory '$K/' is a symlink" "$T/err"
	check "... nothing made where it points" test -z "$(ls -A "$T/pub/real")"
	rm "$K"
	# SQLite opens the cache and its journals by name: a directory above
	# DIR that another user can write could take a symlink meanwhile.
	mkdir -p "$T/pub/nob/cache"
	chown nobody "$T/pub/nob"
	check "DIR root's, in a directory of nobody's: refused, exit 2" \
		same "$(bounded "$A" scan --packages --cache "$T/pub/nob/cache" "$T/pub/pool")" 2
	check "... said, naming that directory" grep -qF \
		"refusing to write the cache directory '$T/pub/nob/cache': $T/pub/nob is a directory of uid $(id -u nobody) (nobody)" "$T/err"
	check "... nothing made in DIR" test -z "$(ls -A "$T/pub/nob/cache")"
	# Another program's SQLite DB where the cache would be: not written.
	mkdir -m 700 "$T/pub/other"
	sqlite3 "$T/pub/other/scan-cache.sqlite" 'CREATE TABLE t (a); INSERT INTO t VALUES (1)'
	sum_other=$(md5sum <"$T/pub/other/scan-cache.sqlite")
	check "another program's SQLite DB as the cache file: refused, exit 2" \
		same "$(bounded "$A" scan --packages --cache "$T/pub/other" "$T/pub/pool")" 2
	check "... said" grep -qF "$T/pub/other/scan-cache.sqlite is not a scan cache" "$T/err"
	check "... left byte for byte as it was" \
		same "$(md5sum <"$T/pub/other/scan-cache.sqlite")" "$sum_other"
	mkdir -m 755 "$K"
	check "a directory of root's, mode 0755 (made by hand): used, exit 1" same "$(pscan)" 1
	check "... and the run after it from the cache: the hit, exit 1" same "$(pscan)" 1
	check "... \"1 from the cache\"" grep -q ' (1 from the cache)' "$T/out"
fi
finish hostile-root
