#!/bin/sh
# CLI tests of `abidep scan --packages` (tools/lib/scan_pkg.c, scan_pkgs.c,
# scan_cache.c): small packages built here with dpkg-deb (each compression)
# and rpmbuild, read in place: the hits and what each package says of
# itself; hard links, symlinks, directories; hostile and broken packages
# (truncated, corrupt, members leaving the package, a decompression bomb,
# no control data, unreadable), each named once and skipped; the bounds
# on what a package costs (hard links, GNU dumpdirs, ELF members held
# whole), by outcome and peak memory (tests/cli/mkpkg-bounds.py); nothing
# written but the cache; the cache's hits, misses and damage; the formats
# for the people who act on hits (CSV, Markdown, HTML, dd-list), cleaned;
# --by-package, a row a package file, against scan -j's hits summed.
# The packages are left in build/packages-fixture (tests/fuzz/pkg.harness
# seeds from them). Ends with "packages: N passed, N failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
A=${ABIDEP:-$PWD/build/abidep}
FIX=$PWD/build/packages-fixture
T=$(mktemp -d)
trap 'chmod -R u+rwX "$T"; rm -rf "$T"' EXIT
# The system's python3: a pyenv shim costs a second a call.
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
# rpmbuild keeps its database and macros under ~: never the user's.
export HOME="$T/home"
mkdir -p "$HOME"

status() {
	"$@" >"$T/out" 2>"$T/err"
	echo $?
}

# The files under a directory with their sizes, modes and times.
snapshot() {
	find "$1" -printf '%p %y %s %m %T@ %C@\n' | sort
}

# q.py WHAT JSON [ARG]: facts of scan -j's output, a line each, sorted.
cat >"$T/q.py" <<'X'
import json, sys
what, d = sys.argv[1], json.load(open(sys.argv[2]))
arg = sys.argv[3] if len(sys.argv) > 3 else None
out = []
if what == 'hits':		# FILE LINE CONFIDENCE of the hits in package file ARG
    out = ['%s %s %s' % (h['file'], h['line'], h['confidence'])
           for h in d['hits'] if h['archive'] == arg]
elif what == 'meta':		# what the hits of ARG name
    out = sorted({'|'.join([h['package'], h['package_version'], h['architecture'],
                            h['source_package'], h['maintainer']])
                  for h in d['hits'] if h['archive'] == arg})
elif what == 'archives':	# the package files with hits
    out = sorted({h['archive'] for h in d['hits']})
elif what == 'unread':		# FILE: ERROR
    out = ['%s: %s' % (u['file'], u['error']) for u in d['unreadable']]
elif what == 'packages':	# FILE CACHED UNREADABLE
    out = ['%s %s %s' % (p['file'], p['cached'], p['unreadable']) for p in d['packages']]
elif what == 'count':		# how many ARG ("hits", "packages", "unreadable")
    out = [str(len(d[arg]))]
print('\n'.join(sorted(out)))
X
q() {
	"$PY" "$T/q.py" "$@"
}

section "setup"
check "abidep is built ($A; make tools)" test -x "$A"
check "dpkg-deb, rpmbuild, ar, python3 are installed (make deps)" \
	sh -c "command -v dpkg-deb && command -v rpmbuild && command -v ar && command -v python3" </dev/null

# tree DIR: a package's tree, its control file from stdin: a script
# reading the attribute, a hard link to it, a postinst doing the same, a
# udev rule; symlinks out of the package.
tree() {
	rm -rf "$1"
	mkdir -p "$1/DEBIAN" "$1/usr/bin" "$1/usr/lib/udev/rules.d"
	cat >"$1/DEBIAN/control"
	printf '#!/bin/sh\ncat /sys/class/rc/rc0/current_protocol\n' >"$1/usr/bin/ir-read"
	printf '#!/bin/sh\nset -e\ncat /sys/class/rc/rc0/current_protocol >/dev/null\n' \
		>"$1/DEBIAN/postinst"
	chmod 755 "$1/usr/bin/ir-read" "$1/DEBIAN/postinst"
	ln "$1/usr/bin/ir-read" "$1/usr/bin/ir-read2"
	printf 'ACTION=="add", SUBSYSTEM=="rc", ATTR{current_protocol}=="nec"\n' \
		>"$1/usr/lib/udev/rules.d/60-ir.rules"
	ln -s /etc/passwd "$1/usr/bin/pw"
	ln -s ../../x "$1/usr/bin/up"
}
# deb Z DIR OUT: dpkg-deb --build with compression Z.
deb() {
	dpkg-deb --root-owner-group -Z"$1" --build "$2" "$3" >>"$T/build.log" 2>&1
}
# control PACKAGE VERSION FIELDS MAINTAINER DESCRIPTION: a control file.
control() {
	printf 'Package: %s\nVersion: %s\nArchitecture: all\n%bMaintainer: %s\nDescription: %s\n' "$@"
}

# The pool: $P holds the good packages, one of each compression.
P=$T/a/b
mkdir -p "$P"
JORG='Jörg Doe <joerg@example.org>'
WANT="/DEBIAN/postinst 3 strong
/usr/bin/ir-read 2 strong
/usr/bin/ir-read2 2 strong
/usr/lib/udev/rules.d/60-ir.rules 1 strong"
for z in xz gzip zstd none; do
	control ir-tools-$z 1.0-1 'Source: ir (1.0)\n' "$JORG" "IR tools" | tree "$T/src-$z"
	deb "$z" "$T/src-$z" "$P/ir-tools-$z.deb"
done
control ir-nosrc 2:0.5 '' "$JORG" "no Source" | tree "$T/src-nosrc"
deb xz "$T/src-nosrc" "$P/ir-nosrc.deb"

section "good packages: each compression"
for z in xz gzip zstd none; do
	f=$P/ir-tools-$z.deb
	case $z in xz) m=data.tar.xz ;; gzip) m=data.tar.gz ;; zstd) m=data.tar.zst ;; none) m=data.tar ;; esac
	check "dpkg-deb -Z$z: $m" sh -c "ar t '$f' | grep -qx '$m'"
	check "scan $z: hits, exit 1" test "$(status "$A" scan -j "$f")" = 1
	check "... the script, its hard link (two names, one file), the postinst, the udev rule" \
		same "$(q hits "$T/out" "$f")" "$WANT"
	check "... package, version, architecture, source ('Source: ir (1.0)'), maintainer as dpkg-deb -f says" \
		same "$(q meta "$T/out" "$f")" \
		"$(dpkg-deb -f "$f" Package Version Architecture | sed 's/^[^:]*: //' | tr '\n' '|')ir|$(dpkg-deb -f "$f" Maintainer)"
	check "... nothing unreadable" same "$(q count "$T/out" unreadable)" 0
	check "... nothing on stderr" test ! -s "$T/err"
done
check "no Source: the package is its own source" \
	same "$("$A" scan -j "$P/ir-nosrc.deb" >"$T/out"; q meta "$T/out" "$P/ir-nosrc.deb")" \
	"ir-nosrc|2:0.5|all|ir-nosrc|$JORG"
check "text: the group names the source and maintainer, the row package and version" \
	sh -c "'$A' scan '$P/ir-tools-xz.deb' | tr -s ' ' >'$T/text' &&
	       grep -qxF 'Source ir, maintainer $JORG' '$T/text' &&
	       grep -qxF ' strong ir-tools-xz 1.0-1 /usr/bin/ir-read2:2 /sys/class/rc/rcN/current_protocol /sys/class/rc/rc0/current_protocol' '$T/text'"

section "rpm: scriptlets, Packager, SOURCERPM, hard links"
mkdir -p "$T/rpmbuild/SPECS"
# The package is a subpackage: its SOURCERPM names another (ir-src).
cat >"$T/rpmbuild/SPECS/ir-src.spec" <<'EOF'
Name:		ir-src
Epoch:		2
Version:	1.2
Release:	3
Summary:	IR
License:	GPL-2.0-only
BuildArch:	noarch
Packager:	Rpm Packager <rpm@example.org>

%description
A test package of abidep's.

%package -n ir-reader
Summary:	IR reader

%description -n ir-reader
Reads the IR protocol the old way.

%install
mkdir -p %{buildroot}/usr/bin
printf '#!/bin/sh\ncat /sys/class/rc/rc0/current_protocol\n' >%{buildroot}/usr/bin/ir-reader
chmod 755 %{buildroot}/usr/bin/ir-reader
ln %{buildroot}/usr/bin/ir-reader %{buildroot}/usr/bin/ir-reader2
ln %{buildroot}/usr/bin/ir-reader %{buildroot}/usr/bin/ir-reader3
ln -s /etc/passwd %{buildroot}/usr/bin/pw

%post -n ir-reader
cat /sys/class/rc/rc0/current_protocol >/dev/null || :

%files -n ir-reader
/usr/bin/ir-reader
/usr/bin/ir-reader2
/usr/bin/ir-reader3
/usr/bin/pw
EOF
check "rpmbuild -bb (noarch, offline)" sh -c "rpmbuild --define '_topdir $T/rpmbuild' \
	-bb '$T/rpmbuild/SPECS/ir-src.spec' >>'$T/build.log' 2>&1"
RPM=$P/ir-reader.rpm
cp "$T/rpmbuild/RPMS/noarch/ir-reader-1.2-3.noarch.rpm" "$RPM"
check "scan the rpm: hits, exit 1" test "$(status "$A" scan -j "$RPM")" = 1
check "... %post as '%post', and the three names of one file (cpio: its bytes with the last)" \
	same "$(q hits "$T/out" "$RPM")" "%post 1 strong
/usr/bin/ir-reader 2 strong
/usr/bin/ir-reader2 2 strong
/usr/bin/ir-reader3 2 strong"
# What rpm -qp says: NAME|[EPOCH:]VERSION-RELEASE|ARCH|SOURCERPM's name|PACKAGER.
rpm -qp --qf '%{NAME}|%{EPOCH}:%{VERSION}-%{RELEASE}|%{ARCH}|%{SOURCERPM}|%{PACKAGER}' \
	"$RPM" 2>/dev/null | sed 's/-[^-|]*-[^-|]*\.src\.rpm|/|/' >"$T/rpm-qp"
check "... name, epoch:version-release, arch, SOURCERPM's name, Packager as rpm -qp says" \
	same "$(q meta "$T/out" "$RPM")" "$(cat "$T/rpm-qp")"
check "... which is ir-src's" same "$(q meta "$T/out" "$RPM" | cut -d'|' -f4-)" "ir-src|Rpm Packager <rpm@example.org>"

section "symlink members are not followed, nothing outside is read"
# From the packages' directory, ../../x is $T/x, which has a hit.
echo 'cat /sys/class/rc/rc0/current_protocol' >"$T/x"
(cd "$P" && "$A" scan -j ir-tools-xz.deb ir-reader.rpm) >"$T/out"
check "symlink members (/usr/bin/pw -> /etc/passwd, /usr/bin/up -> ../../x): no hit" \
	same "$(q hits "$T/out" ir-tools-xz.deb; q hits "$T/out" ir-reader.rpm | grep -v ir-reader)" \
	"$WANT
%post 1 strong"
if command -v strace >/dev/null; then
	(cd "$P" && strace -f -e trace=open,openat -o "$T/trace" \
		"$A" scan ir-tools-xz.deb ir-reader.rpm >/dev/null 2>&1)
	check "strace: the packages are opened" \
		sh -c "grep -q '\"ir-tools-xz.deb\"' '$T/trace' && grep -q '\"ir-reader.rpm\"' '$T/trace'"
	check "... /etc/passwd and ../../x never" sh -c "! grep -E '\"(/etc/passwd|([^\"]*/)?x)\"' '$T/trace'"
else
	echo "# strace is missing (make deps): the trace checks are skipped"
fi

section "directories"
mkdir -p "$T/elsewhere" "$T/a/c"
cp "$P/ir-nosrc.deb" "$T/elsewhere/linked.deb"
ln -s "$T/elsewhere" "$T/a/dirlink"
ln -s "$T/elsewhere/linked.deb" "$T/a/c/filelink.deb"
cp "$P/ir-nosrc.deb" "$T/a/c/not-a-package.txt"
check "a directory given: the package files under it, recursively, exit 1" \
	test "$(status "$A" scan -j --packages "$T/a")" = 1
check "... every one, none through a symlink (directory or file), no other file" \
	same "$(q packages "$T/out")" "$(for f in ir-nosrc.deb ir-reader.rpm ir-tools-gzip.deb \
		ir-tools-none.deb ir-tools-xz.deb ir-tools-zstd.deb; do echo "$P/$f False False"; done)"
mkdir -p "$T/root.deb/usr/bin"
cp "$T/x" "$T/root.deb/usr/bin/reader"
check "a directory named x.deb is a ROOT: exit 1" test "$(status "$A" scan -j "$T/root.deb")" = 1
check "... scanned as one: its file's hit" "$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["root"] and "packages" not in d and [h["file"] for h in d["hits"]] == [sys.argv[2]], d
' "$T/out" "$T/root.deb/usr/bin/reader"
check "... with --packages, a directory walked: exit 0" \
	test "$(status "$A" scan -j --packages "$T/root.deb")" = 0
check "... no package in it" same "$(q count "$T/out" packages)" 0

section "hostile and broken packages"
# mkdeb.py DIR VARIANT: a .deb's members made with tarfile (debian-binary,
# control.tar.xz, data.tar.xz), each with a hit before what is wrong.
cat >"$T/mkdeb.py" <<'X'
import io, lzma, os, sys, tarfile
out, variant = sys.argv[1], sys.argv[2]
HIT = b'#!/bin/sh\ncat /sys/class/rc/rc0/current_protocol\n'
control = (b'Package: bad-%s\nVersion: 1.0\nArchitecture: all\n'
           b'Maintainer: Bad <bad@example.org>\nDescription: x\n') % variant.encode()

class Zeros(io.RawIOBase):
    def __init__(self, n):
        self.n = n
    def readable(self):
        return True
    def readinto(self, b):
        k = min(len(b), self.n)
        b[:k] = bytes(k)
        self.n -= k
        return k

def tar_xz(path, members):
    with lzma.open(path, 'wb', preset=0) as z, \
         tarfile.open(fileobj=z, mode='w', format=tarfile.GNU_FORMAT) as t:
        for name, data, kind, link in members:
            ti = tarfile.TarInfo(name)
            ti.type, ti.linkname, ti.mode, ti.mtime = kind, link, 0o755, 1700000000
            if kind == tarfile.REGTYPE:
                ti.size = data if isinstance(data, int) else len(data)
                data = Zeros(data) if isinstance(data, int) else io.BytesIO(data)
                t.addfile(ti, io.BufferedReader(data, 1 << 20) if ti.size > 1 << 20 else data)
            else:
                t.addfile(ti)

R = tarfile.REGTYPE
ctl = [('./control', control, R, ''), ('./postinst', HIT, R, '')]
data = [('./usr/', b'', tarfile.DIRTYPE, ''), ('./usr/bin/', b'', tarfile.DIRTYPE, ''),
        ('./usr/bin/ok', HIT, R, '')]
if variant == 'escape':
    data.append(('../escape', HIT, R, ''))
elif variant == 'abs':
    data.append(('/abs', HIT, R, ''))
elif variant == 'linkout':
    data.append(('./usr/bin/hl', b'', tarfile.LNKTYPE, '../../etc/passwd'))
elif variant == 'bomb':		# 200 MB of zeros: some 30 KB of xz
    data.append(('./usr/share/zeros', 200 << 20, R, ''))
elif variant == 'nocontrolfile':
    ctl = ctl[1:]
elif variant == 'nopackage':
    ctl[0] = ('./control', control.replace(b'Package: bad-nopackage\n', b''), R, '')
os.makedirs(out, exist_ok=True)
open(out + '/debian-binary', 'wb').write(b'2.0\n')
tar_xz(out + '/control.tar.xz', ctl)
tar_xz(out + '/data.tar.xz', data)
X
B=$T/bad
mkdir -p "$B"
# bad VARIANT [MEMBER...]: $B/VARIANT.deb, packed with ar.
bad() {
	v=$1
	shift
	"$PY" "$T/mkdeb.py" "$T/parts-$v" "$v" &&
		(cd "$T/parts-$v" && ar rc "$B/$v.deb" "$@")
}
for v in escape abs linkout bomb nocontrolfile nopackage; do
	bad "$v" debian-binary control.tar.xz data.tar.xz
done
bad nocontroltar debian-binary data.tar.xz
check "the hostile packages are made (python3 tarfile, ar)" sh -c "ls '$B'/*.deb | wc -l | grep -qx 7"
check "... the bomb is small" test "$(stat -c %s "$B/bomb.deb")" -lt 100000

# A package with a large member last, to cut and to corrupt.
head -c 300000 /dev/urandom | base64 >"$T/big.txt"
control ir-big 1.0 '' "$JORG" "big" | tree "$T/src-big"
mkdir -p "$T/src-big/usr/share/ir-big"
cp "$T/big.txt" "$T/src-big/usr/share/ir-big/big.txt"
deb xz "$T/src-big" "$T/big.deb"
head -c $(($(stat -c %s "$T/big.deb") * 3 / 4)) "$T/big.deb" >"$B/truncated.deb"
"$PY" - "$T/big.deb" "$B/corrupt.deb" <<'X'
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
pos = 8
while pos < len(d):		# the ar members: 60-byte headers
    name, size = d[pos:pos + 16].decode().strip(), int(d[pos + 48:pos + 58])
    if name.startswith('data.tar.xz'):
        mid = pos + 60 + size // 2
        d[mid:mid + 16] = bytes(b ^ 0x55 for b in d[mid:mid + 16])
        break
    pos += 60 + size + (size & 1)
open(sys.argv[2], 'wb').write(d)
X
echo "not an archive" >"$B/notar.deb"
: >"$B/empty.deb"
# The rpm's header (after the lead and the signature): an index entry's type flipped.
"$PY" - "$RPM" "$B/header.rpm" <<'X'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
il, dl = struct.unpack_from('>II', d, 96 + 8)
h = (96 + 16 + 16 * il + dl + 7) & ~7
assert d[h:h + 3] == b'\x8e\xad\xe8'
d[h + 16 + 16 * 3 + 4:h + 16 + 16 * 3 + 8] = b'\xff\xff\xff\xff'
open(sys.argv[2], 'wb').write(d)
X
G=$P/ir-tools-xz.deb
# hostile FILE ERE [OPTION...]: scanned with the good $G, FILE is named
# once, with what was wrong (ERE), and none of its hits kept; $G's kept.
hostile() {
	f=$1 why=$2
	shift 2
	r=$(status "$A" scan -j --packages "$@" "$G" "$f")
	[ "$r" = 14 ] || { echo "exit $r, not 14"; cat "$T/err"; return 1; }
	q unread "$T/out" >"$T/unread"
	if [ "$(wc -l <"$T/unread")" != 1 ] || ! grep -Eq "^$f: ($why)" "$T/unread"; then
		echo "unreadable: $(cat "$T/unread")"
		return 1
	fi
	same "$(q archives "$T/out")" "$G" || return 1
	same "$(q hits "$T/out" "$G")" "$WANT" || return 1
	same "$(q packages "$T/out" | grep -F "$f ")" "$f False True"
}
check "truncated (head -c)" hostile "$B/truncated.deb" 'member /usr/share/ir-big/big.txt: truncated input'
check "corrupt (bytes flipped in data.tar.xz)" hostile "$B/corrupt.deb" 'member /usr/share/ir-big/big.txt: .*[Cc]orrupt'
check "a member ../escape" hostile "$B/escape.deb" "member '\.\./escape' leaves the package \(\.\.\)"
check "a member /abs" hostile "$B/abs.deb" "member '/abs' is absolute"
check "a hard link to ../../etc/passwd" hostile "$B/linkout.deb" "member '\./usr/bin/hl' is a hard link to '\.\./\.\./etc/passwd', which leaves the package"
check "a decompression bomb (200 MB of zeros), --max-unpacked 100M" \
	hostile "$B/bomb.deb" 'unpacks to more than 104857600 bytes \(--max-unpacked\)' --max-unpacked 100M
check "... the default (16G) lets it through: exit 1" test "$(status "$A" scan -j "$B/bomb.deb")" = 1
check "... its hits" same "$(q hits "$T/out" "$B/bomb.deb")" "/DEBIAN/postinst 2 strong
/usr/bin/ok 2 strong"
check "... its 200 MB read" "$PY" -c '
import json, sys
p = json.load(open(sys.argv[1]))["packages"][0]
assert 200 << 20 < p["unpacked"] < (200 << 20) + 4096, p' "$T/out"
check "no control.tar" hostile "$B/nocontroltar.deb" 'no control data'
check "a control.tar without a control file" hostile "$B/nocontrolfile.deb" 'no control data'
check "a control file without Package" hostile "$B/nopackage.deb" 'control file has no Package'
check "not an ar archive" hostile "$B/notar.deb" 'not a Debian package'
check "an empty x.deb" hostile "$B/empty.deb" 'not a Debian package'
check "an rpm with a broken header" hostile "$B/header.rpm" 'malformed rpm header'
check "all of them at once: exit 14" \
	test "$(status "$A" scan -j --packages --max-unpacked 100M "$B" "$G")" = 14
check "... each named once" same "$(q unread "$T/out" | cut -d: -f1 | uniq -c | awk '$1 == 1' | wc -l)" 12
check "... the good one read" same "$(q archives "$T/out")" "$G"
check "... in text, each once" sh -c "'$A' scan --packages --max-unpacked 100M '$B' '$G' >'$T/text';
	test \"\$(grep -c '^unreadable: $B/' '$T/text')\" = 12 && grep -q ' 12 unreadable$' '$T/text'"

check "a member over --max-size: listed, exit 14" \
	test "$(status "$A" scan -j --max-size 100K "$T/big.deb")" = 14
check "... as the package's member, with the cap" \
	same "$(q unread "$T/out")" "$T/big.deb: member /usr/share/ir-big/big.txt: larger than 102400 bytes (--max-size)"
check "... the package's other hits kept" same "$(q hits "$T/out" "$T/big.deb")" "$WANT"

mkdir -p "$T/fifo"
cp "$G" "$T/fifo/good.deb"
mkfifo "$T/fifo/x.deb"
check "a FIFO named x.deb in a directory: skipped, never blocking" \
	test "$(status timeout 20 "$A" scan -j --packages "$T/fifo")" = 1
check "... the good package read" same "$(q archives "$T/out")" "$T/fifo/good.deb"
check "a FIFO named x.deb given: refused (exit 2), never blocking" \
	test "$(status timeout 20 "$A" scan --packages "$T/fifo/x.deb")" = 2

if command -v setpriv >/dev/null; then
	mkdir -p "$T/perm"
	cp "$G" "$T/perm/good.deb"
	cp "$G" "$T/perm/secret.deb"
	chmod 000 "$T/perm/secret.deb"
	chmod o+rx "$T" "$T/perm"
	check "a mode-000 package, as nobody: exit 14" \
		test "$(status setpriv --reuid=65534 --regid=65534 --clear-groups "$A" scan -j --packages "$T/perm")" = 14
	check "... named once: Permission denied" same "$(q unread "$T/out")" "$T/perm/secret.deb: Permission denied"
	check "... the other read" same "$(q archives "$T/out")" "$T/perm/good.deb"
	chmod 700 "$T"
else
	echo "# setpriv is missing (util-linux): the unreadable-package check is skipped"
fi

section "bounds: hard links, GNU dumpdirs, ELF members"
# Small package files that cost much to read, made by
# tests/cli/mkpkg-bounds.py; each checked on its outcome, and its peak
# memory (the scan's largest resident set, from getrusage(2)) against a
# generous bound: what is checked is the bound, never the time.
K=$T/bounds
mkdir -p "$K"
mkb() {
	"$PY" tests/cli/mkpkg-bounds.py "$@" >>"$T/build.log" 2>&1
}
cat >"$T/peak.py" <<'X'
import resource, subprocess, sys
with open(sys.argv[1], 'wb') as out, open(sys.argv[2], 'wb') as err:
    rc = subprocess.call(sys.argv[3:], stdout=out, stderr=err)
print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
X
# peak CMD...: "EXIT PEAK_KB"; its output in $T/out and $T/err.
peak() {
	"$PY" "$T/peak.py" "$T/out" "$T/err" "$@"
}
# hit_files PACKAGE: the files of its hits in $T/out, a line each, sorted.
hit_files() {
	q hits "$T/out" "$1" | cut -d' ' -f1 | LC_ALL=C sort
}

mkb "$K/links.deb" links 30000 4000
check "30,000 hard links with 4000-byte names: a small .deb" test "$(stat -c %s "$K/links.deb")" -lt 200000
check "... --max-unpacked 20M: unreadable, the links counted" hostile "$K/links.deb" \
	"unpacks to more than 20971520 bytes \(--max-unpacked\): files [0-9]+, [0-9]+ hard links" --max-unpacked 20M
# shellcheck disable=SC2046
set -- $(peak "$A" scan -j --packages --max-unpacked 20M "$K/links.deb")
check "... alone: exit 14 (got $1), at most 100 MB resident (got $2 KB)" test "$1" = 14 -a "$2" -lt 102400
mkdir -p "$K/six"
for i in 1 2 3 4 5 6; do
	cp "$K/links.deb" "$K/six/$i.deb"
done
# shellcheck disable=SC2046
set -- $(peak "$A" scan -j --packages --threads 1 --max-unpacked 20M "$K/six")
check "... six of them, one thread: exit 14 (got $1), at most 100 MB resident (got $2 KB): none keeps its names" \
	test "$1" = 14 -a "$2" -lt 102400
mkb "$K/linkhits.deb" links 20 40 2000
check "20 hard links to a file of 2000 hits (98 KB), --max-unpacked 1M: unreadable (a link counts its target's bytes)" \
	hostile "$K/linkhits.deb" "unpacks to more than 1048576 bytes \(--max-unpacked\): files [0-9]+, [0-9]+ hard links [0-9]{6,} \(their targets' bytes\)" \
	--max-unpacked 1M
check "... without the cap: exit 1" test "$(status "$A" scan -j "$K/linkhits.deb")" = 1
check "... 2000 hits under each of its 21 names" \
	same "$(q hits "$T/out" "$K/linkhits.deb" | cut -d' ' -f1 | uniq -c | awk '{ print $1 }' | sort | uniq -c | tr -s ' ')" " 21 2000"
check "... the package's unpacked bytes its files' (the links' not again)" "$PY" -c '
import json, sys
p = json.load(open(sys.argv[1]))["packages"][0]
assert 49 * 2000 <= p["unpacked"] < 49 * 2000 + 4096 and p["members"] == 2, p' "$T/out"

mkb "$K/pairs.deb" pairs 50
check "50 files, each with a hard link to it and one to the link: exit 1" \
	test "$(status "$A" scan -j "$K/pairs.deb")" = 1
check "... every name with its file's hit" same "$(hit_files "$K/pairs.deb" | tr '\n' ' ')" \
	"$(for i in $(seq 0 49); do printf '/usr/share/p/f%s\n/usr/share/p/l%s\n/usr/share/p/m%s\n' "$i" "$i" "$i"; done |
		{ echo /usr/bin/ok; LC_ALL=C sort; } | tr '\n' ' ')"
mkb "$K/group.rpm" rpm-links 5 40 "$RPM"
# ir-reader.rpm's headers (its %post too), a payload of one file under 5 names.
check "an rpm of one file under 5 names (cpio: its bytes with the last): exit 1" \
	test "$(status "$A" scan -j "$K/group.rpm")" = 1
check "... every name with its hit" same "$(hit_files "$K/group.rpm" | tr '\n' ' ')" \
	"%post /usr/bin/ok0 $(for i in 0 1 2 3 4; do printf '/usr/share/l/%s%08d ' llllllllllllllllll "$i"; done)"
mkb "$K/links.rpm" rpm-links 20000 1000 "$RPM"
check "an rpm of one file under 20,000 names of 1000 bytes, --max-unpacked 20M: unreadable, the names counted" \
	hostile "$K/links.rpm" "unpacks to more than 20971520 bytes \(--max-unpacked\): .* [0-9]+ entries' headers and names" \
	--max-unpacked 20M

mkb "$K/dumpdir.deb" dumpdir 3 10000000
check "3 GNU dumpdirs of 10 MB each, --max-unpacked 20M: unreadable, their data counted" \
	hostile "$K/dumpdir.deb" "unpacks to more than 20971520 bytes \(--max-unpacked\): .*other entries' data [1-9]" \
	--max-unpacked 20M
check "... without the cap: exit 1, read" test "$(status "$A" scan -j "$K/dumpdir.deb")" = 1
check "... its file's hit" same "$(hit_files "$K/dumpdir.deb")" /usr/bin/ok

mkb "$K/elf300.deb" elf 300000000
check "an ELF member of 300 MB (sparse): a small .deb" test "$(stat -c %s "$K/elf300.deb")" -lt 10000
# shellcheck disable=SC2046
set -- $(peak "$A" scan -j --packages "$K/elf300.deb")
check "... more than the 256 MiB of ELF members held whole: exit 1 (got $1), at most 100 MB resident (got $2 KB)" \
	test "$1" = 1 -a "$2" -lt 102400
check "... searched every byte: the path in .rodata, and the one in .debug_str" \
	same "$(q hits "$T/out" "$K/elf300.deb" | tr '\n' ' ')" \
	"/usr/bin/ok 2 strong /usr/lib/libbig.so None strong /usr/lib/libbig.so None strong "
for i in 1 2 3; do
	mkb "$K/elf180-$i.deb" elf 180000000
done
# shellcheck disable=SC2046
set -- $(peak "$A" scan -j --packages --threads 3 "$K"/elf180-1.deb "$K"/elf180-2.deb "$K"/elf180-3.deb)
check "three packages with an ELF member of 180 MB, three threads: exit 1 (got $1), at most 350 MB resident (got $2 KB)" \
	test "$1" = 1 -a "$2" -lt 358400
check "... each held whole in turn: its sections read, the path in .rodata (not .debug_str's)" \
	same "$(for i in 1 2 3; do q hits "$T/out" "$K/elf180-$i.deb"; done | sort | uniq -c | awk '{ $1 = $1; print }' | tr '\n' ';')" \
	"3 /usr/bin/ok 2 strong;3 /usr/lib/libbig.so None strong;"

section "formats"
# The people: the evil maintainer of a package with terminal escapes.
control evil 1.0 'Source: evil-src\n' 'Evil <x@y> <script>' "x" | tree "$T/src-evil"
deb xz "$T/src-evil" "$T/a/evil.deb"
ESC=$(printf '\033')
control esc 1.0 "Source: esc${ESC}[2Jsrc\\n" "Esc ${ESC}]0;pwned$(printf '\007') ${ESC}[31m<esc@example.org>" \
	"x ${ESC}[5m" | tree "$T/src-esc"
deb xz "$T/src-esc" "$T/a/esc.deb"
SET="$P/ir-tools-xz.deb $P/ir-nosrc.deb $RPM $T/a/evil.deb"
# shellcheck disable=SC2086
"$A" scan -j $SET >"$T/set.json"
# shellcheck disable=SC2086
check "csv: exit 1" test "$(status "$A" scan --format csv $SET)" = 1
check "... the header, and a row per hit with each field of the JSON hit" "$PY" - "$T/out" "$T/set.json" <<'X'
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1], newline='')))
hits = json.load(open(sys.argv[2]))['hits']
head = 'source_package,maintainer,package,package_version,architecture,archive,file,line,offset,what,status,confidence,match'
assert ','.join(rows[0]) == head, rows[0]
got = sorted(tuple(r) for r in rows[1:])
want = sorted((h['source_package'], h['maintainer'], h['package'], h['package_version'], h['architecture'],
               h['archive'], h['file'], str(h['line']), str(h['offset']), h['what'], h['status'],
               h['confidence'], h['match']) for h in hits)
assert len(hits) == 16 and got == want, (got, want)
X
# shellcheck disable=SC2086
check "markdown: exit 1" test "$(status "$A" scan --format markdown $SET)" = 1
check "... a pipe table per source, under its source and maintainer" "$PY" - "$T/out" "$T/set.json" <<'X'
import json, sys
lines = open(sys.argv[1]).read().split('\n')
groups = {}
for h in json.load(open(sys.argv[2]))['hits']:
    k = (h['source_package'], h['maintainer'])
    groups[k] = groups.get(k, 0) + 1
titles = [i for i, l in enumerate(lines) if l.startswith('#### Source ')]
assert len(titles) == len(groups) == 4, (titles, groups)
got = {}
for i in titles:
    assert lines[i + 1] == '', lines[i + 1]
    assert lines[i + 2] == '| CONFIDENCE | PACKAGE | VERSION | WHERE | WHAT | MATCH |', lines[i + 2]
    assert lines[i + 3] == '| --- | --- | --- | --- | --- | --- |', lines[i + 3]
    rows = 0
    while lines[i + 4 + rows].startswith('| '):
        rows += 1
    # Markdown's escapes undone: "Evil \<x\@y\> \<script\>".
    src, maint = lines[i][len('#### Source '):].replace('\\', '').split(', maintainer ', 1)
    got[(src, maint)] = rows
assert got == groups, (got, groups)
X
# shellcheck disable=SC2086
check "html: exit 1" test "$(status "$A" scan --format html $SET)" = 1
check "... one page" sh -c "test \"\$(grep -c '<html' '$T/out')\" = 1 && test \"\$(grep -c '</html>' '$T/out')\" = 1"
check "... a section per source and maintainer" \
	same "$(sed -n 's/^<section class="source" data-source="\([^"]*\)" data-maintainer="\([^"]*\)".*/\1|\2/p' "$T/out" | LC_ALL=C sort)" \
	"evil-src|Evil &lt;x@y&gt; &lt;script&gt;
ir-nosrc|Jörg Doe &lt;joerg@example.org&gt;
ir-src|Rpm Packager &lt;rpm@example.org&gt;
ir|Jörg Doe &lt;joerg@example.org&gt;"
check "... the maintainer's <script> escaped everywhere" sh -c "! grep -qi '<script' '$T/out'"
# shellcheck disable=SC2086
check "dd-list: exit 1" test "$(status "$A" scan --format dd-list $SET)" = 1
check "... maintainers, their sources indented 3 spaces, a blank line between" \
	same "$(cat "$T/out")" "Evil <x@y> <script>
   evil-src

$JORG
   ir
   ir-nosrc

Rpm Packager <rpm@example.org>
   ir-src"
for f in text dd-list markdown; do
	"$A" scan --format "$f" "$T/a/esc.deb" >"$T/esc.$f"
done
check "escapes in control fields: the text has no raw ESC or BEL" \
	sh -c "test -s '$T/esc.text' && ! grep -q '[$ESC$(printf '\007')]' '$T/esc.text'"
check "... the fields shown cleaned" \
	grep -qxF 'Source esc\x1B[2Jsrc, maintainer Esc \x1B]0;pwned\x07 \x1B[31m<esc@example.org>' "$T/esc.text"
check "... dd-list neither" sh -c "grep -q pwned '$T/esc.dd-list' && ! grep -q '$ESC' '$T/esc.dd-list'"
check "... markdown neither" sh -c "grep -q pwned '$T/esc.markdown' && ! grep -q '$ESC' '$T/esc.markdown'"

section "--by-package: a row a package file"
BP=$T/bp
mkdir -p "$BP/again"
# One package, one version, in two files (a pool and a build's output): two rows.
cp "$P/ir-tools-xz.deb" "$BP/again/"
head -c 600 "$P/ir-tools-gzip.deb" >"$BP/cut.deb"
# shellcheck disable=SC2086
BSET="$SET $T/a/esc.deb $BP/again/ir-tools-xz.deb $BP/cut.deb"
# shellcheck disable=SC2086
check "text: exit 14 (a package file cut short), rows printed all the same" \
	test "$(status "$A" scan --by-package $BSET)" = 14
tr -s ' ' <"$T/out" >"$T/bp.text"
check "... ir-tools-xz twice, once per file: 4 files, 4 strong hits each" \
	same "$(grep -c '^ir-tools-xz 1.0-1 all 4 4 4 0 0 /sys/class/rc/rcN/current_protocol$' "$T/bp.text")" 2
check "... the rpm's row" grep -q '^ir-reader ' "$T/bp.text"
check "... the package cut short named, with why" grep -q "^unreadable: $BP/cut.deb: " "$T/bp.text"
check "... the totals: of how many package files" \
	grep -q '^[0-9]* hits in [0-9]* files ([0-9]* strong, [0-9]* medium, [0-9]* weak): 6 of 7 package files (0 from the cache); ' "$T/bp.text"
check "... no row of no package (every file of a package file is the package's)" \
	sh -c "! grep -q 'no package' '$T/bp.text'"
check "... the escapes of esc.deb's fields cleaned" sh -c "grep -q '^esc ' '$T/bp.text' && ! grep -q '$ESC' '$T/out'"
# shellcheck disable=SC2086
"$A" scan -j $BSET >"$T/bset.json"
# shellcheck disable=SC2086
check "-j: exit 14" test "$(status "$A" scan -j --by-package $BSET)" = 14
check "... a row per package file with hits, as scan -j's hits summed per file" "$PY" - "$T/out" "$T/bset.json" <<'X'
import json, sys
got, hits = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))['hits']
want = {}
for h in hits:
    r = want.setdefault(h['archive'], {'package': h['package'], 'files': set(), 'hits': 0, 'strong': 0,
                                       'medium': 0, 'weak': 0, 'whats': set()})
    r['files'].add(h['file']); r['hits'] += 1; r[h['confidence']] += 1; r['whats'].add(h['what'])
rows = got['by_package']
assert sorted(r['archive'] for r in rows) == sorted(want), rows
for r in rows:
    w = want[r['archive']]
    assert (r['package'], r['files'], r['hits'], r['strong'], r['medium'], r['weak']) == \
        (w['package'], len(w['files']), w['hits'], w['strong'], w['medium'], w['weak']), r
    assert [x['what'] for x in r['whats']] == sorted(w['whats']), r
assert [r['package'] for r in rows] == sorted(r['package'] for r in rows), rows
assert got['packages'] == 7 and len(got['unreadable']) == 1, got
X
# shellcheck disable=SC2086
check "markdown: the maintainer and the package file" sh -c "'$A' scan --by-package --format markdown $BSET |
	grep -qF '| \`ir-nosrc\` | \`2:0.5\` | all | 4 | 4 | 4 | 0 | 0 | \`/sys/class/rc/rcN/current_protocol\` | \`ir-nosrc\` | Jörg Doe \\<joerg\\@example.org\\> | \`$P/ir-nosrc.deb\` |'"
# shellcheck disable=SC2086
check "csv: a row a package file" sh -c "'$A' scan --by-package --format csv $SET | \"$PY\" -c '
import csv, sys
r = list(csv.reader(sys.stdin))
assert len(r) == 5 and sorted(x[11].rsplit(\"/\", 1)[1] for x in r[1:]) == [\"evil.deb\", \"ir-nosrc.deb\", \"ir-reader.rpm\", \"ir-tools-xz.deb\"], r
'"

section "the cache"
C=$T/cache
# The hits with every field, of scan -j's output in $1: JSON, a line each.
hits_of() {
	"$PY" -c '
import json, sys
for h in json.load(open(sys.argv[1]))["hits"]:
    print(json.dumps(h, sort_keys=True))' "$1"
}
# scan -j of the pool with the cache, into $T/out: its exit status.
cached_scan() {
	status "$A" scan -j --packages --cache "$C" "$@" "$T/a"
}
# No package, or every one, from the cache.
none_cached() {
	q packages "$T/out" >"$T/pk" && grep -q . "$T/pk" && ! grep ' True ' "$T/pk"
}
all_cached() {
	q packages "$T/out" >"$T/pk" && grep -q . "$T/pk" && ! grep ' False ' "$T/pk"
}
snapshot "$T/a" >"$T/pool.before"
check "first run: exit 1" test "$(cached_scan)" = 1
cp "$T/out" "$T/run1.json"
check "... every package read" none_cached
check "second run: exit 1" test "$(cached_scan)" = 1
check "... every package \"cached\": true" all_cached
check "... the same hits, field for field" same "$(hits_of "$T/out")" "$(hits_of "$T/run1.json")"
# What this run examined, and took from the cache, left out.
counts() {
	sed 's/ ([0-9]* from the cache), [0-9]* files, [0-9]* bytes examined;//'
}
check "... the same text, but what was examined" \
	same "$("$A" scan --packages --cache "$C" "$T/a" | counts)" "$("$A" scan --packages "$T/a" | counts)"

# The same bytes stored twice: a copy under another name, a package touched.
cp "$G" "$T/a/copy.deb"
touch "$P/ir-nosrc.deb"
cached_scan >/dev/null
check "a copy of a package, and one touched, read again: from the cache next, their hits once" \
	test "$(cached_scan)" = 1
check "... the copy's" same "$(q hits "$T/out" "$T/a/copy.deb")" "$WANT"
check "... the touched one's" same "$(q hits "$T/out" "$P/ir-nosrc.deb")" "$WANT"
check "... from the cache" all_cached
rm "$T/a/copy.deb"

# Rewritten in place: the same name and inode, new content.
control ir-tools-xz 1.0-2 'Source: ir (1.0)\n' "$JORG" "IR tools" | tree "$T/src-v2"
deb xz "$T/src-v2" "$T/v2.deb"
cat "$T/v2.deb" >"$G"
snapshot "$T/a" >"$T/pool.before"
"$A" scan -j --packages "$T/a" >"$T/fresh.json"
check "a package rewritten in place: exit 1" test "$(cached_scan)" = 1
check "... it alone read again" same "$(q packages "$T/out" | grep ' False ')" "$G False False"
check "... its new version" same "$(q meta "$T/out" "$G" | cut -d'|' -f2)" 1.0-2
check "... the hits a scan without the cache finds" same "$(hits_of "$T/out")" "$(hits_of "$T/fresh.json")"

cp -r migration-tables "$T/tables"
check "a copy of the tables (-t DIR): exit 1" test "$(cached_scan -t "$T/tables")" = 1
check "... the same content: all from the cache" all_cached
sed -i 's|^\(What:\t*/sys/devices/system/cpu/cpuidle/current_governor_\)ro$|\1rx|' "$T/tables/sysfs-cpuidle"
check "a What edited (-t DIR): exit 1" test "$(cached_scan -t "$T/tables")" = 1
check "... the edit made" sh -c "! cmp -s migration-tables/sysfs-cpuidle '$T/tables/sysfs-cpuidle'"
check "... every package read again" none_cached
check "... the same hits" same "$(q hits "$T/out" "$P/ir-nosrc.deb")" "$WANT"
sed -i 's|^Deprecated:\t2010-04-08$|Deprecated:\t2010-04-09|' "$T/tables/sysfs-class-rc"
"$A" scan -j --packages -t "$T/tables" "$T/a" >"$T/fresh-t.json"
check "a date edited: the edit made" grep -q '^Deprecated:.2010-04-09$' "$T/tables/sysfs-class-rc"
check "... the hits (what, status, table line) are a fresh scan's" \
	same "$(cached_scan -t "$T/tables" >/dev/null; hits_of "$T/out")" "$(hits_of "$T/fresh-t.json")"
sed -i 's|^Status:\t\tdeprecated$|Status:\t\tremoved|' "$T/tables/sysfs-class-rc"
check "a Status edited: exit 1" test "$(cached_scan -t "$T/tables")" = 1
check "... the edit made" grep -q '^Status:.*removed' "$T/tables/sysfs-class-rc"
check "... every package read again" none_cached
check "... the hits' status the table's" sh -c "grep -q '\"status\":\"removed\"' '$T/out'"

cp "$C/scan-cache.sqlite" "$T/cache.good"
sqlite3 "$C/scan-cache.sqlite" 'UPDATE hit SET entry = 99999'
check "hit rows naming an entry out of range: exit 1" test "$(cached_scan)" = 1
check "... a miss: every package with hits read again" none_cached
check "... their hits as read" same "$(hits_of "$T/out")" "$(hits_of "$T/fresh.json")"
check "... the next run (the rows replaced): exit 1" test "$(cached_scan)" = 1
check "... all from the cache again" all_cached
sqlite3 "$C/scan-cache.sqlite" 'UPDATE hit SET what = -1; UPDATE hit SET conf = 7 WHERE rowid % 2 = 0'
check "Whats and confidences out of range: exit 1, a miss too" test "$(cached_scan)" = 1
check "... none from the cache" none_cached
check "... their hits as read" same "$(hits_of "$T/out")" "$(hits_of "$T/fresh.json")"

# Rows edited within the tables' ranges (scan.rst: a row that does not
# fit is a miss, never a hit of another entry): a package with hits of two
# entries, one of several Whats, one through a hard link to a README (weak
# under a name that is not documentation's).
E=$T/edit
mkdir -p "$E/pool" "$E/src/DEBIAN" "$E/src/usr/bin"
control iio-tools 1 '' "$JORG" "IIO tools" >"$E/src/DEBIAN/control"
printf '#!/bin/sh\ncat /sys/bus/iio/devices/iio:device0/scan_elements/in_accel_x_en\n' >"$E/src/usr/bin/iio-read"
printf 'Run: cat /sys/class/rc/rc0/current_protocol\n' >"$E/src/usr/bin/README"
ln "$E/src/usr/bin/README" "$E/src/usr/bin/ir-read"
deb xz "$E/src" "$E/pool/iio-tools.deb"
"$A" scan -j --packages "$E/pool" >"$E/fresh.json"
# escan: scan -j of that pool with its cache, into $T/out: its exit status.
escan() {
	status "$A" scan -j --packages --cache "$E/cache" "$E/pool"
}
check "a package with hits of two entries, one through a hard link: exit 1" test "$(escan)" = 1
check "... its hits: the hard link's weak, as the README's" same "$(q hits "$T/out" "$E/pool/iio-tools.deb")" \
	"/usr/bin/README 1 weak
/usr/bin/iio-read 2 strong
/usr/bin/iio-read 2 strong
/usr/bin/ir-read 1 weak"
check "... the next run: exit 1" test "$(escan)" = 1
check "... all from the cache (each row its text's own)" all_cached
check "... the same hits" same "$(hits_of "$T/out")" "$(hits_of "$E/fresh.json")"
cp "$E/cache/scan-cache.sqlite" "$E/good"
# edited SQL DESCRIPTION: the good cache edited by SQL is a miss, its hits as read.
edited() {
	cp "$E/good" "$E/cache/scan-cache.sqlite"
	sqlite3 "$E/cache/scan-cache.sqlite" "$1"
	check "$2: exit 1" test "$(escan)" = 1
	check "... a miss: the package read again" none_cached
	check "... its hits as read" same "$(hits_of "$T/out")" "$(hits_of "$E/fresh.json")"
}
# in_accel_x_en's entries: the iio directory's (one What) and the
# attribute's (in_accel_x_en, in_accel_y_en, ...: sysfs-bus-iio, after it).
iio="(SELECT max(entry) FROM hit WHERE match LIKE '%in_accel_x_en')"
edited "UPDATE hit SET entry = $iio WHERE match LIKE '%current_protocol'" \
	"the rc hits' entry index moved to the iio attribute's"
edited "UPDATE hit SET what = 1 WHERE entry = $iio" \
	"the iio attribute's What index moved to its next What (in_accel_y_en)"
edited "UPDATE hit SET conf = 1 WHERE conf = 2" "strong hits made medium"
edited "UPDATE hit SET match = '/sys/class/rc/rc0/protocol' WHERE match LIKE '%current_protocol'" \
	"a text edited to another attribute's"
edited "UPDATE hit SET match = 'x ' || match WHERE conf = 2" "a text edited to more than the path found"
cp "$E/good" "$E/cache/scan-cache.sqlite"
check "the rows as written again: exit 1" test "$(escan)" = 1
check "... all from the cache (the edits undone)" all_cached

printf 'garbage, not SQLite %.0s' 1 2 3 4 5 6 7 8 >"$C/scan-cache.sqlite"
check "a cache file of garbage: exit 2" test "$(cached_scan)" = 2
check "... a clear error naming the file" \
	same "$(cat "$T/err")" "abidep: $C/scan-cache.sqlite: file is not a database (remove it: it is only a cache)"
head -c 8192 "$T/cache.good" >"$C/scan-cache.sqlite"
r=$(cached_scan)
check "a cache cut short: no crash (exit 1 or 2, not $r)" test "$r" = 1 -o "$r" = 2
check "... said, naming the file" grep -q "^abidep: .*$C/scan-cache.sqlite" "$T/err"
rm -f "$C/scan-cache.sqlite"

section "nothing written but the cache"
snapshot "$T/a" >"$T/pool.after"
check "the package files are unchanged (find -printf before and after)" \
	diff -u "$T/pool.before" "$T/pool.after"
if command -v strace >/dev/null; then
	rm -rf "$C"
	# A scan that fills the cache, of good and bad packages, from another directory.
	# -y: a directory descriptor's path, for the *at calls' relative names.
	(cd "$T/home" && strace -f -y -e trace=%file -o "$T/trace" "$A" scan -j --packages --cache "$C" \
		--max-unpacked 100M "$T/a" "$B" >/dev/null 2>&1)
	check "strace: the cache was written" sh -c "grep -q '\"$C/scan-cache.sqlite\", O_RDWR|O_CREAT' '$T/trace'"
	check "... no file created, written, removed or changed outside it" "$PY" - "$T/trace" "$C" <<'X'
import re, sys
cache = sys.argv[2]
writes = re.compile(r'O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND')
changes = re.compile(r'^(creat|mkdir|mkdirat|unlink|unlinkat|rmdir|rename|renameat2?|link|linkat|'
                     r'symlink|symlinkat|chmod|fchmodat|chown|lchown|fchownat|truncate|utime|'
                     r'utimes|utimensat|futimesat|mknod|mknodat|setxattr|lsetxattr|removexattr|'
                     r'lremovexattr)$')
bad = []
for line in open(sys.argv[1]):
    m = re.match(r'^\d+\s+(\w+)\((.*)', line)
    if not m:
        continue
    call, args = m.groups()
    paths = re.findall(r'"((?:[^"\\]|\\.)*)"', args)
    # mkdirat(5</dir>, "name", ...): the name in the directory it is relative to.
    d = re.match(r'\d+<((?:[^>\\]|\\.)*)>, "((?:[^"\\]|\\.)*)"', args)
    if d and not d.group(2).startswith('/'):
        paths[0] = d.group(1) + '/' + d.group(2)
    if call in ('open', 'openat', 'openat2') and writes.search(args) or changes.match(call):
        for p in paths:
            if p != cache and not p.startswith(cache + '/'):
                bad.append(line.strip())
assert not bad, bad
X
else
	echo "# strace is missing (make deps): the trace checks are skipped"
fi

# For the fuzzer's seeds (tests/fuzz/pkg.harness): the small ones.
rm -rf "$FIX"
mkdir -p "$FIX"
cp "$P"/*.deb "$RPM" "$T/a/evil.deb" "$T/a/esc.deb" "$FIX"/
for f in "$B"/*; do
	case $f in */bomb.deb) ;; *) cp "$f" "$FIX/bad-$(basename "$f")" ;; esac
done
for f in pairs.deb group.rpm dumpdir.deb elf300.deb; do
	cp "$K/$f" "$FIX/bounds-$f"
done

finish packages
